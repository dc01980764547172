"""The table's clocks as data: the `timers` message and how long each decision is owed.

The server owns the clock; this only turns its deadlines (in the server's clock) into
what every viewer is told, so that a waiting table always says who and how long, and
keeps, for the table core, when each owed decision was asked (``nudge`` and ``skip``
wait for a grace first).
"""

from __future__ import annotations

from ..protocol.messages import Message


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


NUDGE_AFTER = 10.0
"""Seconds a decision is owed before the host player may nudge the player."""
SKIP_AFTER = 30.0
"""Seconds a decision is owed before the host player may skip (make the default move)."""


class Waited:
    """When each owed decision was asked, to tell how long the table has waited for it."""

    def __init__(self, nudge_after: float, skip_after: float) -> None:
        self.nudge_after = nudge_after
        self.skip_after = skip_after
        self._asked: dict[int, tuple[int, float]] = {}
        """player -> (their count of decisions asked, when this one was first owed)."""

    def follow(self, owed: dict[int, int], now: float) -> None:
        """``owed``: who owes a decision now, with its number; a new number is a new wait."""
        self._asked = {
            player: kept
            if (kept := self._asked.get(player)) and kept[0] == number
            else (number, now)
            for player, number in owed.items()
        }

    def restart(self, now: float) -> None:
        """Every wait counts from ``now`` (a host resumed from its save)."""
        self._asked = {player: (number, now) for player, (number, _) in self._asked.items()}

    def since(self, player: int, now: float) -> float:
        asked = self._asked.get(player)
        return 0.0 if asked is None else max(0.0, now - asked[1])
