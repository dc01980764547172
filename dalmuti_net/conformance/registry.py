"""The cases: one per checkable statement of PROTOCOL.md, each naming its section."""

from __future__ import annotations

import inspect
import sys
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from enum import IntEnum, StrEnum
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .context import Context


class Section(StrEnum):
    """PROTOCOL.md's headings (## and ###) that hold checkable statements, in its order; a
    test holds them against the document. Every case names one."""

    QUICK_START = "Quick start: a bot in one page"
    WORDS = "Words used here"
    TRANSPORTS = "Transports"
    WEBSOCKET = "WebSocket"
    FRAMING = "Framing"
    SECURITY = "Security"
    SEAT_BACK = "Taking a seat back"
    VERSIONS = "Versions and compatibility"
    STATES = "The connection's states"
    REQUESTS = "Requests, replies and errors"
    ERROR_CODES = "Error codes"
    NUMBERING = "Numbering and resumes"
    LOBBY = "The lobby and the table"
    BETWEEN_HANDS = "Between hands"
    NAMES = "Names"
    CARDS = "Cards, sets, seats and the game state"
    DECISIONS = "Decisions and their ids"
    SHAPE = "The shape of a hand"
    SECRECY = "Secrecy"
    LIVENESS = "Liveness and limits"
    ROLES = "What each role MUST do"


SECTIONS: tuple[str, ...] = tuple(section.value for section in Section)


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
    """What the document says, in one sentence (the case's docstring): the report shows it."""
    run: Run
    stage: Stage
    transport: str = "tcp"
    background: bool = False
    """Mostly waits out a host time-out on a connection of its own: it runs beside the
    stages before FLOOD rather than holding them up."""


CASES: list[Case] = []


def case(
    id: str,
    section: Section,
    stage: Stage = Stage.CONNECTION,
    transport: str = "tcp",
    background: bool = False,
) -> Callable[[Run], Run]:
    """Register the decorated coroutine as the case ``id`` of ``section``; its docstring is
    the statement it holds (what the report shows beside it)."""
    if any(existing.id == id for existing in CASES):
        raise ValueError(f"case {id} is registered twice")

    def register(run: Run) -> Run:
        statement = " ".join(inspect.cleandoc(run.__doc__ or "").split())
        if not statement and sys.flags.optimize < 2:  # -OO drops every docstring
            raise ValueError(f"case {id} has no statement (its docstring)")
        CASES.append(Case(id, section.value, statement, run, stage, transport, background))
        return run

    return register
