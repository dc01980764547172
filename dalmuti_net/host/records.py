"""The table's plain data: its limits, seats, departed players, connections, the
challenge a resume awaits, the effects only the server can carry out, and a batch.

They live apart from the table core (``table.py``) so that every room of it (the handshake,
the journal, the lobby) and the server can share them without importing one another: data,
no behaviour beyond describing itself as a message.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..protocol.messages import Message
from ..told import Told


@dataclass(frozen=True)
class Limits:
    heartbeat_interval_ms: int = 5_000
    heartbeat_timeout_ms: int = 20_000
    grace_period_ms: int = 60_000
    turn_timer_ms: int | None = None
    max_messages_per_second: int = 20
    max_chat_chars: int = 500
    max_spectators: int = 64
    max_connections: int = 128
    """Connections from outside that have said hello; a seat resuming with its token is
    let in over it (it is not a new place at the table)."""
    hello_timeout_ms: int = 10_000
    """A connection from outside that has not said hello this long after connecting is
    closed, whatever it sent meanwhile."""
    max_unwelcomed: int = 64
    """Connections from outside that have not said hello yet; a new one over it closes the
    oldest (so idle connections can never keep a newcomer out)."""
    max_unwelcomed_per_address: int = 8
    """The same, from one address."""
    max_seats_per_address: int = 6
    """Seats taken from one address (an IPv6 /64), loopback excepted (``admission``)."""
    max_spectators_per_address: int = 16
    """Spectator places taken from one address, loopback excepted."""
    loopback_exempt: bool = True
    """The host's own machine (127.0.0.0/8, ::1) is not held to the per-address caps on
    seats, spectators and chat: its terminals and bots are the host player's."""

    def message(self, max_frame_bytes: int) -> dict[str, Any]:
        return {
            "max_frame_bytes": max_frame_bytes,
            "heartbeat_interval_ms": self.heartbeat_interval_ms,
            "heartbeat_timeout_ms": self.heartbeat_timeout_ms,
            "grace_period_ms": self.grace_period_ms,
            "turn_timer_ms": self.turn_timer_ms,
            "max_messages_per_second": self.max_messages_per_second,
            "max_chat_chars": self.max_chat_chars,
        }


@dataclass
class Seat:
    player: int
    name: str
    kind: str
    token: str
    host: bool = False
    ready: bool = False
    strategy: str | None = None
    connection: int | None = None
    stand_in: int | None = None
    """The connection of a bot playing this seat while its player is away."""
    gone: bool = False
    """Left or kicked: the token no longer resumes it; removed before the next hand."""
    address_key: str | None = None
    """Where its player last connected from (``admission.address_key``; None: the host's
    own machine or a client inside it), for the per-address cap on seats. Not saved."""
    program: bool = False
    """A program plays this human seat: the last connection to take it (from outside the
    host's process) said no ``person`` in its ``hello``. Not saved: known again when the
    program is back."""


@dataclass(frozen=True)
class Departed:
    """A player who left (or was kicked) during the game and has been removed from the
    seating: kept so that results and the final standings still name them."""

    player: int
    name: str
    kind: str
    score: int
    hands: int
    """Hands they were dealt into and finished (a stand-in played out the last)."""

    def message(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "name": self.name,
            "kind": self.kind,
            "score": self.score,
            "hands": self.hands,
        }


@dataclass
class Connection:
    id: int
    internal: bool
    outbox: list[Message] = field(default_factory=list)
    greeted: bool = False
    player: int | None = None
    spectator: bool = False
    name: str = ""
    closing: bool = False
    address: str | None = None
    """The peer's IP address, for the limit on connections that have not said hello."""
    unseen: bool = False
    """A listener (internal) that watches without being a spectator anyone sees, nor
    taking a spectator's place: a history's, or the web table's watch for the pages of
    one language (each page holds a place of its own, on its own connection)."""
    connected_at: float = 0.0
    challenge: Challenge | None = None
    """A ``hello`` with ``resume`` answered with a ``challenge``: the ``prove`` awaited."""
    person: bool = False
    """Its ``hello`` said a person plays or watches here (``bot_pace``)."""
    timers_told: bool = False
    """Sent a ``timers`` since its last snapshot (one follows every snapshot)."""


@dataclass(frozen=True)
class Challenge:
    """What the host keeps between its ``challenge`` and the client's ``prove``."""

    player: int
    hello: Message
    client_nonce: str
    host_nonce: str


# Effects for the server.


@dataclass(frozen=True)
class StartBot:
    """Connect a bot client to this table with ``token``, playing ``strategy``."""

    token: str
    strategy: str | None
    name: str


@dataclass(frozen=True)
class Close:
    connection: int


@dataclass(frozen=True)
class Tell:
    """Something the host player should know (in their log, in their language)."""

    told: Told


Effect = StartBot | Close | Tell


@dataclass
class Batch:
    """Everything the table produced between two ``take_batch`` calls: the journal entries
    of the inputs it accepted, the messages they made for each connection, and the
    effects. The three belong together: the messages and effects of a batch may leave
    only once its journal is saved, and nothing of a later batch may ride with them."""

    journal: list[dict[str, Any]] = field(default_factory=list)
    outboxes: dict[int, list[Message]] = field(default_factory=dict)
    effects: list[Effect] = field(default_factory=list)

    def followed_by(self, later: Batch) -> Batch:
        """This batch and a later one as one (a save that failed is tried again with what
        came meanwhile): each connection's messages stay in the order they were made."""
        outboxes = {connection: list(messages) for connection, messages in self.outboxes.items()}
        for connection, messages in later.outboxes.items():
            outboxes.setdefault(connection, []).extend(messages)
        return Batch(self.journal + later.journal, outboxes, self.effects + later.effects)
