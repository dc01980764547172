"""Who may connect to the host, and when it is full: the admission limits, sans-I/O.

Two limits apply to connections from outside (the host's own bots are never counted):

- At connect, on connections that have not said ``hello`` yet, from one address and in all.
  A client says hello as soon as it connects, so one that has not after ``YOUNG_S`` is idle:
  over a limit, the oldest idle one is closed to make room, and idle sockets never keep a
  newcomer out. Only a crowd of young ones ``BURST_FACTOR`` times over the limit (bots on one
  machine connecting together are let in) refuses the newcomer at once.
- At ``hello``, on connections that have said hello (``max_connections``); a seat taken back
  is let in over it, since it is not a new place at the table.

The table asks and acts on the answer: this class keeps no state and closes nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from ..protocol import ErrorCode, ProtocolError

YOUNG_S = 1.0
"""A connection that has not said hello yet is idle after this long: room is made for a
newcomer by closing such a connection, never a younger one."""
BURST_FACTOR = 4
"""Over this many times its limit of connections waiting to say hello, all of them young,
an address (or the host) is refused new connections at once."""


class Waiting(Protocol):
    """A connection from outside that has not said hello yet."""

    @property
    def address(self) -> str | None: ...

    @property
    def connected_at(self) -> float: ...


W = TypeVar("W", bound=Waiting)


@dataclass(frozen=True)
class MakeRoom(Generic[W]):
    """Let the newcomer in once ``oldest`` is closed with ``error``."""

    oldest: W
    error: ProtocolError


@dataclass(frozen=True)
class Refuse:
    """Refuse the newcomer at once, before it is a connection at all."""


@dataclass(frozen=True)
class Admission:
    max_connections: int
    """Connections from outside that have said hello."""
    max_unwelcomed: int
    """Connections from outside that have not said hello yet."""
    max_unwelcomed_per_address: int
    """The same, from one address."""

    def arrive(
        self, waiting: Sequence[W], address: str | None, now: float
    ) -> MakeRoom[W] | Refuse | None:
        """What to do for a newcomer from ``address`` at ``now`` (seconds), given the
        connections from outside ``waiting`` to say hello, oldest first: ``None`` lets it
        in as things are."""
        crowds = (
            ([c for c in waiting if c.address == address], self.max_unwelcomed_per_address, True),
            (list(waiting), self.max_unwelcomed, False),
        )
        for crowd, cap, same_address in crowds:
            if len(crowd) < cap:
                continue
            if now - crowd[0].connected_at >= YOUNG_S:
                where = "from your address " if same_address else ""
                error = ProtocolError(
                    ErrorCode.TOO_MANY_CONNECTIONS,
                    f"too many connections {where}have not said hello; the oldest is closed",
                )
                return MakeRoom(crowd[0], error)
            if len(crowd) >= cap * BURST_FACTOR:
                return Refuse()
        return None

    def check_hello(self, greeted_from_outside: int) -> None:
        """Raise ``too_many_connections`` when a new (not resuming) ``hello`` finds
        ``greeted_from_outside`` connections already in."""
        if greeted_from_outside >= self.max_connections:
            raise ProtocolError(
                ErrorCode.TOO_MANY_CONNECTIONS,
                f"the host is full ({self.max_connections} connections)",
            )
