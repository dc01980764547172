"""The `timers` message: every countdown running at the table, as time left when sent.

The server owns the clock; this only turns its deadlines (in the server's clock) into
what every viewer is told, so that a waiting table always says who and how long.
"""

from __future__ import annotations

from ..protocol.messages import Message


def timers_message(grace: dict[int, float], turn: dict[int, float], *, now: float) -> Message:
    """``grace``: dropped seats and when a stand-in takes them; ``turn``: seats owing a
    decision and when the turn timer answers for them (both in seconds on one clock)."""

    def left(ends: dict[int, float]) -> list[list[int]]:
        return [[player, max(0, round((end - now) * 1000))] for player, end in sorted(ends.items())]

    return {"type": "timers", "grace": left(grace), "turn": left(turn)}
