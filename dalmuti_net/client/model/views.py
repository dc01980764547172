"""The host's ``welcome``, ``table`` and ``snapshot`` messages as frozen, typed views.

The one place on the client that reads these messages' fields by name: every front end
reads the views. The table's own views (``TableView`` and its parts) are the session's,
in ``client.table_view``: the session keeps the table decoded, and this module names them
too. The messages were validated against the catalogue before they get here
(``client.connection``), so a field has its type; a field the catalogue makes optional
gets its documented default here, once.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ...engine.events import Event
from ...protocol.messages import Message, event_from_message
from ..table_view import (
    RULE_NAMES,
    DepartedView,
    RulesView,
    SeatView,
    TableView,
    TimingView,
    decode_rules,
    decode_seat,
    decode_table,
    decode_timing,
)

# The table's views (TableView and its parts, decode_table...) live one floor down, in
# client.table_view, with the session that keeps them; named here too, so that the model's
# readers take every view from one module.
__all__ = [
    "RULE_NAMES",
    "ChatLine",
    "ChatSent",
    "DepartedView",
    "ErrorSent",
    "EventSent",
    "Incoming",
    "MovedFor",
    "MovedForSent",
    "NudgedSent",
    "OtherSent",
    "RulesView",
    "SeatView",
    "SnapshotSent",
    "SnapshotView",
    "TableSent",
    "TableView",
    "TimersSent",
    "TimersView",
    "TimingView",
    "WelcomeView",
    "Welcomed",
    "decode_chat",
    "decode_message",
    "decode_rules",
    "decode_seat",
    "decode_snapshot",
    "decode_table",
    "decode_timers",
    "decode_timing",
    "decode_welcome",
    "says_host_saves",
]


@dataclass(frozen=True)
class WelcomeView:
    """What ``welcome`` says this client is, and the host's limits it shows."""

    player: int | None
    host: bool
    table_id: str
    grace_period_ms: int | None
    """None where the host names no grace period."""


@dataclass(frozen=True)
class MovedFor:
    """A move in a snapshot's hand events made for a player (timer, stand-in, host)."""

    at: int
    player: int
    by: str


@dataclass(frozen=True)
class ChatLine:
    player: int | None
    name: str
    text: str
    after: int = 0
    """In a snapshot: how many of its hand events were told before the line was said."""


@dataclass(frozen=True)
class SnapshotView:
    """What a snapshot adds to the table: the hand so far (decoded once), who moved for
    whom in it, and the table's last chat lines."""

    you: int | None
    table: TableView
    hand_events: tuple[Event | None, ...]
    """Each event of the hand so far; None for one this client does not know."""
    moved_for: tuple[MovedFor, ...] = ()
    chat: tuple[ChatLine, ...] = ()

    def marks(self) -> dict[int, tuple[int, str]]:
        """Index in ``hand_events`` -> (player, by)."""
        return {mark.at: (mark.player, mark.by) for mark in self.moved_for}


@dataclass(frozen=True)
class TimersView:
    """The host's clocks running now (ms left): dropped seats' grace periods, turn
    timers, and between hands the longest wait before the next deal."""

    grace: tuple[tuple[int, int], ...] = ()
    turn: tuple[tuple[int, int], ...] = ()
    results: int | None = None


# ---------------------------------------------------------------------- decoding


def decode_welcome(message: Message) -> WelcomeView:
    limits = message.get("limits") or {}
    grace = limits.get("grace_period_ms")
    return WelcomeView(
        player=message["player"],
        host=bool(message["host"]),
        table_id=str(message["table_id"]),
        grace_period_ms=grace if type(grace) is int else None,
    )


def decode_timers(message: Message) -> TimersView:
    return TimersView(
        grace=tuple((player, ms) for player, ms in message["grace"]),
        turn=tuple((player, ms) for player, ms in message["turn"]),
        results=message.get("results"),
    )


def decode_chat(line: Mapping[str, Any]) -> ChatLine:
    after = line.get("after")
    return ChatLine(
        line.get("player"),
        str(line["name"]),
        str(line["text"]),
        after if type(after) is int and after >= 0 else 0,
    )


def decode_snapshot(message: Message, table: TableView | None = None) -> SnapshotView:
    """``table``: the snapshot's table, where the session decoded it already."""
    return SnapshotView(
        you=message["you"],
        table=table if table is not None else decode_table(message["table"]),
        hand_events=tuple(event_from_message(told) for told in message["hand_events"]),
        moved_for=tuple(
            MovedFor(mark["at"], mark["player"], mark["by"])
            for mark in message.get("moved_for", ())
        ),
        chat=tuple(decode_chat(line) for line in message.get("chat", ())),
    )


# ---------------------------------------------------------------------- every message


@dataclass(frozen=True)
class Welcomed:
    welcome: WelcomeView


@dataclass(frozen=True)
class TableSent:
    table: TableView


@dataclass(frozen=True)
class SnapshotSent:
    snapshot: SnapshotView


@dataclass(frozen=True)
class ChatSent:
    line: ChatLine


@dataclass(frozen=True)
class TimersSent:
    timers: TimersView


@dataclass(frozen=True)
class MovedForSent:
    """The next move logged was made for ``player``: by the turn timer, a stand-in or the
    host player's skip."""

    player: int
    by: str


@dataclass(frozen=True)
class NudgedSent:
    player: int
    by: int


@dataclass(frozen=True)
class ErrorSent:
    code: str
    fatal: bool


@dataclass(frozen=True)
class EventSent:
    """A numbered event; ``event`` is None for a type this client does not know."""

    seq: int
    event: Event | None


@dataclass(frozen=True)
class OtherSent:
    """A message the table model only counts on the session for (``about``, ``goodbye``,
    ``decision``, ``heartbeat``...): its type."""

    type: str


Incoming = (
    Welcomed
    | TableSent
    | SnapshotSent
    | ChatSent
    | TimersSent
    | MovedForSent
    | NudgedSent
    | ErrorSent
    | EventSent
    | OtherSent
)


def decode_message(
    message: Message, event: Event | None = None, table: TableView | None = None
) -> Incoming:
    """The host's message, validated already, as what the table model reads of it: the
    one place its ``type`` is looked at on the model's side. ``event``: this message's
    event, ``table``: this ``table`` or ``snapshot``'s table, where the session decoded
    it already."""
    kind = message["type"]
    if kind == "welcome":
        return Welcomed(decode_welcome(message))
    if kind == "table":
        return TableSent(table if table is not None else decode_table(message["table"]))
    if kind == "snapshot":
        return SnapshotSent(decode_snapshot(message, table))
    if kind == "chat":
        return ChatSent(decode_chat(message))
    if kind == "timers":
        return TimersSent(decode_timers(message))
    if kind == "moved_for":
        return MovedForSent(message["player"], message["by"])
    if kind == "nudged":
        return NudgedSent(message["player"], message["by"])
    if kind == "error":
        return ErrorSent(message["code"], bool(message["fatal"]))
    if "seq" in message:
        return EventSent(
            message["seq"], event if event is not None else event_from_message(message)
        )
    return OtherSent(kind)


def says_host_saves(incoming: Incoming) -> bool:
    """After ``cannot_save`` the host delivers nothing but heartbeats until it saves again
    (PROTOCOL.md): any other message says that it does."""
    if isinstance(incoming, ErrorSent):
        return incoming.code != "cannot_save"
    return not (isinstance(incoming, OtherSent) and incoming.type == "heartbeat")
