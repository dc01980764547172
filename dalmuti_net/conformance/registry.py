"""The cases: one per checkable statement of PROTOCOL.md, each naming its section."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from enum import IntEnum
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .context import Context

SECTIONS: tuple[str, ...] = (
    "Quick start: a bot in one page",
    "Words used here",
    "Transports",
    "WebSocket",
    "Framing",
    "Security",
    "Taking a seat back",
    "Versions and compatibility",
    "The connection's states",
    "Requests, replies and errors",
    "Error codes",
    "Numbering and resumes",
    "The lobby and the table",
    "Between hands",
    "Names",
    "Cards, sets, seats and the game state",
    "Decisions and their ids",
    "The shape of a hand",
    "Secrecy",
    "Liveness and limits",
    "What each role MUST do",
)
"""PROTOCOL.md's headings (## and ###) that hold checkable statements, in its order; a
test holds them against the document."""


NOT_HELD: dict[str, str] = {
    "Transports": "which port a host listens on is its own (every case runs over it)",
    "Discovery on the LAN": "multicast DNS, not a connection (tests/discovery/)",
    "Bots over standard input and output": "a feature of `dalmuti bot`, not of the protocol"
    " (tests/clients/test_stdio_bots.py)",
    "What each role MUST do": "a summary of the sections above, whose cases hold it",
}
"""Sections of PROTOCOL.md no case holds, and why (the generated table says so)."""


class Stage(IntEnum):
    """When a case runs: the table a host runs is one, so the cases that need its lobby run
    before those that start games, and those that flood it with connections last."""

    CONNECTION = 0
    """Needs any table in any phase (a spectator or a refused hello)."""
    LOBBY = 1
    """Needs the table's first lobby, empty: the suite's first seat is the host player."""
    GAME = 2
    """Starts games (from the lobby, or a rematch of the table the last case ended)."""
    FLOOD = 3
    """Opens many connections at once: after the others, so no other case meets them."""
    LAST = 4
    """Looks back at everything the run received (the error codes' fatal flags)."""


Run = Callable[["Context"], Awaitable[None]]


@dataclass(frozen=True)
class Case:
    id: str
    section: str
    statement: str
    """What the document says, in one sentence: the report shows it."""
    run: Run
    stage: Stage
    transport: str = "tcp"
    background: bool = False
    """Mostly waits out a host time-out on a connection of its own: it runs beside the
    stages before FLOOD rather than holding them up."""


CASES: list[Case] = []


def case(
    id: str,
    section: str,
    statement: str,
    stage: Stage = Stage.CONNECTION,
    transport: str = "tcp",
    background: bool = False,
) -> Callable[[Run], Run]:
    """Register the decorated coroutine as the case ``id`` of ``section``."""
    if section not in SECTIONS:
        raise ValueError(f"case {id}: {section!r} is not a section of PROTOCOL.md")
    if any(existing.id == id for existing in CASES):
        raise ValueError(f"case {id} is registered twice")

    def register(run: Run) -> Run:
        CASES.append(
            Case(id, section, " ".join(statement.split()), run, stage, transport, background)
        )
        return run

    return register
