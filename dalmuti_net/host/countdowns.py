"""The table's clocks as data: every deadline of one table, and the `timers` message.

Sans-I/O: nothing here reads a clock. The table core follows its state into these
countdowns and acts on the ones that ran out (``Table.tick``), given the server's ``now``
in seconds; the server only sleeps until ``next_deadline``. Kept here:

- each owed decision, from when it was first seen owed: its turn timer (the default move
  when it runs out) and how long the table has waited for it (``nudge`` and ``skip``);
- each dropped seat's grace period (a stand-in when it runs out);
- between hands, the longest the results stay (the next hand is dealt then);
- each connection from outside that has not said hello yet (it is closed then);
- what every viewer was last told of them (``timers`` says only what changed).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from ..protocol.messages import Message

NUDGE_AFTER = 10.0
"""Seconds a decision is owed before the host player may nudge the player."""
SKIP_AFTER = 30.0
"""Seconds a decision is owed before the host player may skip (make the default move)."""


def timers_message(
    grace: dict[int, float],
    turn: dict[int, float],
    *,
    now: float,
    results: float | None = None,
) -> Message:
    """``grace``: dropped seats and when a stand-in takes them; ``turn``: seats owing a
    decision and when the turn timer answers for them; ``results``: between hands, when
    the next one is dealt anyway (all in seconds on one clock)."""

    def ms(end: float) -> int:
        return max(0, round((end - now) * 1000))

    def left(ends: dict[int, float]) -> list[list[int]]:
        return [[player, ms(end)] for player, end in sorted(ends.items())]

    return {
        "type": "timers",
        "grace": left(grace),
        "turn": left(turn),
        "results": None if results is None else ms(results),
    }


@dataclass(frozen=True)
class Due:
    """What ran out by a given moment: each is acted on once."""

    turn: list[int] = field(default_factory=list)
    """Players whose turn timer ran out: the default move is made for them."""
    grace: list[int] = field(default_factory=list)
    """Dropped players whose grace period ran out: a stand-in plays their seat."""
    next_hand: int | None = None
    """The hand whose results pause ran out: the next one is dealt (if it still shows)."""
    hello: list[int] = field(default_factory=list)
    """Connections that did not say hello in time: they are refused and closed."""


@dataclass(frozen=True)
class Announcement:
    """A ``timers`` message, and whether it says something new (then it goes to every
    viewer; else only to those never told)."""

    message: Message
    changed: bool


class Countdowns:
    """Every deadline of one table, in seconds on the server's clock."""

    def __init__(self, nudge_after: float = NUDGE_AFTER, skip_after: float = SKIP_AFTER) -> None:
        self.nudge_after = nudge_after
        self.skip_after = skip_after
        self._asked: dict[int, tuple[int, float]] = {}
        """player -> (their number of the decision owed, when it was first seen owed)."""
        self._turn: dict[int, float] = {}
        """player -> when the turn timer answers for them (gone once it did)."""
        self._grace: dict[int, float] = {}
        """Dropped player -> when a stand-in takes their seat."""
        self._results: tuple[int, float | None] | None = None
        """Between hands: (the hand whose results show, when the next is dealt; None once
        that was due)."""
        self._announced: tuple[dict[int, float], dict[int, float], float | None] = ({}, {}, None)
        self._hello: dict[int, float] = {}
        """Connection -> when it must have said hello by."""

    def expect_hello(self, connection: int, by: float) -> None:
        self._hello[connection] = by

    def no_hello_due(self, connection: int) -> None:
        """The connection said hello, or is closing or gone."""
        self._hello.pop(connection, None)

    def follow(
        self,
        now: float,
        *,
        owed: dict[int, int],
        turn_seconds: float | None,
        away: Iterable[int],
        grace_seconds: float,
        results_of: int | None,
        results_seconds: float,
    ) -> None:
        """Start the countdowns the table's state calls for, dated ``now``, and drop the
        ones it no longer does. ``owed``: who owes a decision, with its number (a new
        number is a new wait); ``turn_seconds``: the turn timer, None for none; ``away``:
        seats in the game nobody plays, each given ``grace_seconds`` before a stand-in;
        ``results_of``: between hands, the hand whose results show, for at most
        ``results_seconds``."""
        asked = {}
        for player, number in owed.items():
            kept = self._asked.get(player)
            if kept is not None and kept[0] == number:
                asked[player] = kept
                continue
            asked[player] = (number, now)
            self._turn.pop(player, None)
            if turn_seconds is not None:
                self._turn[player] = now + turn_seconds
        self._asked = asked
        self._turn = {p: end for p, end in self._turn.items() if p in asked}
        away = set(away)
        # Back in time: a later drop starts a fresh grace period.
        self._grace = {p: end for p, end in self._grace.items() if p in away}
        for player in away - set(self._grace):
            self._grace[player] = now + grace_seconds
        if results_of is None:
            self._results = None
        elif self._results is None or self._results[0] != results_of:
            self._results = (results_of, now + results_seconds)

    def due(self, now: float) -> Due:
        """What has run out by ``now``, taken: each is due once."""
        turn = sorted(p for p, end in self._turn.items() if end <= now)
        grace = sorted(p for p, end in self._grace.items() if end <= now)
        for player in turn:
            del self._turn[player]
        for player in grace:
            del self._grace[player]
        hello = sorted(c for c, end in self._hello.items() if end <= now)
        for connection in hello:
            del self._hello[connection]
        next_hand = None
        if self._results is not None:
            hand, end = self._results
            if end is not None and end <= now:
                next_hand = hand
                self._results = (hand, None)
        return Due(turn, grace, next_hand, hello)

    def next_deadline(self) -> float | None:
        """When something next runs out, or None while nothing runs."""
        ends = [*self._turn.values(), *self._grace.values(), *self._hello.values()]
        if self._results is not None and self._results[1] is not None:
            ends.append(self._results[1])
        return min(ends, default=None)

    def turn_left(self, player: int, number: int, now: float) -> float | None:
        """Seconds left on the turn timer of ``player``'s decision ``number``, or None when
        none runs for it yet (a decision not yet followed has its whole timer)."""
        asked, end = self._asked.get(player), self._turn.get(player)
        if asked is None or asked[0] != number or end is None:
            return None
        return max(0.0, end - now)

    def waited(self, player: int, now: float) -> float:
        """How long the decision ``player`` owes has been waited for (0 when none is)."""
        asked = self._asked.get(player)
        return 0.0 if asked is None else max(0.0, now - asked[1])

    def announcement(
        self, now: float, *, humans: set[int], secret: set[int]
    ) -> Announcement | None:
        """The countdowns everyone may see: a person's grace period (a bot's seat has
        none to show), every public turn timer (``secret``: a revolution question, whose
        holder alone is told its time, in its decision), the results pause. None when
        nothing changed and nothing runs."""
        grace = {p: end for p, end in self._grace.items() if p in humans}
        turn = {p: end for p, end in self._turn.items() if p not in secret}
        results = None if self._results is None else self._results[1]
        ends = (grace, turn, results)
        changed = ends != self._announced
        self._announced = ends
        if not changed and not (grace or turn or results is not None):
            return None
        return Announcement(timers_message(grace, turn, results=results, now=now), changed)
