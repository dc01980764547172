"""Every wait shows who and how long: the host's `timers` (grace periods of dropped seats,
turn timers), counted down on this side from when they arrived.

Time comes from an injected clock, so that tests can move it; the screen asks for the
seconds left when it draws (the application redraws every second while one runs).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

from ...lang.i18n import Translator
from .views import TimersView

WARN_AT = 10
"""Seconds left from which a turn timer is shown as a warning."""

Fragment = tuple[str, str]


class Countdowns:
    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._grace: dict[int, float] = {}
        self._turn: dict[int, float] = {}
        self._mine: tuple[int, float] | None = None
        """This seat's own decision deadline (a secret decision is in no `timers`)."""
        self._results: float | None = None
        """Between hands: when the next hand is dealt anyway."""

    def update(self, timers: TimersView) -> None:
        now = self.clock()
        self._grace = {player: now + ms / 1000 for player, ms in timers.grace}
        self._turn = {player: now + ms / 1000 for player, ms in timers.turn}
        results = timers.results
        self._results = None if results is None else now + results / 1000

    def clear(self) -> None:
        self._grace.clear()
        self._turn.clear()
        self._mine = None
        self._results = None

    def results_left(self) -> int | None:
        """Whole seconds before the next hand is dealt anyway, between hands."""
        if self._results is None:
            return None
        left = math.ceil(self._results - self.clock())
        return left if left > 0 else None

    def decision_owed(self, player: int | None, deadline_ms: int | None) -> None:
        """A decision arrived for this seat, with the time left on it (or no timer)."""
        if player is None or deadline_ms is None:
            self._mine = None
        else:
            self._mine = (player, self.clock() + deadline_ms / 1000)

    def _left(self, ends: dict[int, float], player: int | None) -> int | None:
        if player is None or player not in ends:
            return None
        left = math.ceil(ends[player] - self.clock())
        return left if left > 0 else None

    def grace_left(self, player: int | None) -> int | None:
        """Whole seconds before a bot takes ``player``'s dropped seat, or None."""
        return self._left(self._grace, player)

    def turn_left(self, player: int | None) -> int | None:
        """Whole seconds before the turn timer answers for ``player``, or None."""
        left = self._left(self._turn, player)
        if left is None and self._mine is not None and self._mine[0] == player:
            left = self._left({player: self._mine[1]}, player)
        return left

    @property
    def running(self) -> bool:
        return (
            any(self.grace_left(p) for p in self._grace)
            or any(self.turn_left(p) for p in self._turn)
            or self.results_left() is not None
        )


def offline_sentence(
    t: Translator, countdowns: Countdowns, player: int, name: str, *, lobby: bool = False
) -> str | None:
    """ "Bea is offline: a bot takes the seat in 42 s", while her grace period runs; in
    the lobby, where no bot stands in, her seat is kept that long, then let go."""
    left = countdowns.grace_left(player)
    if left is None:
        return None
    if lobby:
        return t._("{name} is offline: the seat is kept for {n} s").format(name=name, n=left)
    return t._("{name} is offline: a bot takes the seat in {n} s").format(name=name, n=left)


def passed_for_you(t: Translator, by: str, times: int) -> str:
    """Back at the table, under "While you were away...": how often the turn timer (``by``
    ``timer``) or the bot standing in (``stand_in``) passed for the viewer, in one
    sentence (each pass on a line of its own was noise: a pass changes no hand)."""
    if by == "timer":
        return t._("Passes the turn timer made for you: {n}.").format(n=times)
    return t._("Passes the bot standing in made for you: {n}.").format(n=times)


def moved_for_note(t: Translator, by: str, *, mine: bool = False) -> str:
    """After a move made for a player; ``mine``: for the viewer's own seat, who did not
    make it (a player back at the table reads which moves were not theirs)."""
    if by == "timer":
        if mine:
            return t._("(not you: the turn timer ran out and made the default move)")
        return t._("(the turn timer ran out: the default move)")
    if by == "host":
        return t._("(skipped by the host player: the default move)")
    if mine:
        return t._("(not you: the bot standing in for you)")
    return t._("(played by the bot standing in)")
