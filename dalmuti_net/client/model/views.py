"""The host's ``welcome``, ``table`` and ``snapshot`` messages as frozen, typed views.

The one place on the client that reads these messages' fields by name: every front end
reads the views. The messages were validated against the catalogue before they get here
(``client.connection``), so a field has its type; a field the catalogue makes optional
gets its documented default here, once.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from ...engine import Rules
from ...engine.events import Event
from ...protocol.messages import Message, event_from_message

RULE_NAMES = tuple(field.name for field in fields(Rules))


@dataclass(frozen=True)
class SeatView:
    """One seat of the table (the catalogue's ``Seat``)."""

    player: int
    name: str
    kind: str
    """``human`` or ``bot``."""
    connected: bool
    ready: bool
    host: bool
    seated: bool
    stand_in: bool
    left: bool = False
    """The player gave up the seat; a stand-in plays out the hand."""
    leave_ends: str | None = None
    """What this seat's ``leave`` would do to the table now, as the host says."""

    @property
    def is_bot(self) -> bool:
        return self.kind == "bot"

    @property
    def is_human(self) -> bool:
        return self.kind == "human"


@dataclass(frozen=True)
class DepartedView:
    """A player removed from the seating after leaving, with their points."""

    player: int
    name: str
    kind: str
    score: int
    hands: int


@dataclass(frozen=True)
class TimingView:
    """The table's clocks (ms), as the host player set them in the lobby."""

    turn_timer_ms: int | None = None
    results_ms: int = 0
    nudge_after_ms: int = 0
    skip_after_ms: int = 0


@dataclass(frozen=True)
class RulesView:
    """The rule options in force, as the host sent them (an option left out is its
    default). Not ``engine.Rules``: that one fills in and refuses combinations, and a view
    shows what the host said."""

    first_deal_revolution: bool = False
    stripped_decks: bool = False
    scoring: bool = False
    hand_limit: int | None = None
    philanthropic_scoring: bool = False
    merchant_exchange: bool = False
    misdeal_chance: float = 0.0

    def values(self) -> dict[str, Any]:
        """Option name -> value, for the rules menu (``lobby.RULE_FIELDS``)."""
        return {name: getattr(self, name) for name in RULE_NAMES}


@dataclass(frozen=True)
class TableView:
    """The table (the catalogue's ``Table``): seats, rules, phase."""

    name: str
    phase: str
    """``lobby``, ``playing`` or ``ended``."""
    players: tuple[SeatView, ...]
    spectators: int = 0
    rules: RulesView = RulesView()
    code_required: bool = False
    can_start: bool = False
    departed: tuple[DepartedView, ...] = ()
    watching: tuple[str, ...] = ()
    heirs: tuple[int, ...] = ()
    timing: TimingView = TimingView()
    rematch: bool = False

    @property
    def lobby(self) -> bool:
        return self.phase == "lobby"

    @property
    def playing(self) -> bool:
        return self.phase == "playing"

    def seat(self, player: int | None) -> SeatView | None:
        return next((seat for seat in self.players if seat.player == player), None)

    @property
    def by_player(self) -> dict[int, SeatView]:
        return {seat.player: seat for seat in self.players}

    @property
    def host_player(self) -> int | None:
        return next((seat.player for seat in self.players if seat.host), None)

    def departed_seat(self, player: int) -> DepartedView | None:
        return next((gone for gone in self.departed if gone.player == player), None)


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


def decode_seat(seat: Mapping[str, Any]) -> SeatView:
    return SeatView(
        player=seat["player"],
        name=str(seat["name"]),
        kind=seat["kind"],
        connected=bool(seat["connected"]),
        ready=bool(seat["ready"]),
        host=bool(seat["host"]),
        seated=bool(seat["seated"]),
        stand_in=bool(seat["stand_in"]),
        left=bool(seat.get("left", False)),
        leave_ends=seat.get("leave_ends"),
    )


def decode_rules(rules: Mapping[str, Any]) -> RulesView:
    known = {name: rules[name] for name in RULE_NAMES if name in rules}
    if "misdeal_chance" in known:
        known["misdeal_chance"] = float(known["misdeal_chance"])
    return RulesView(**known)


def decode_timing(timing: Mapping[str, Any] | None) -> TimingView:
    if timing is None:
        return TimingView()
    return TimingView(
        turn_timer_ms=timing.get("turn_timer_ms"),
        results_ms=timing.get("results_ms", 0),
        nudge_after_ms=timing.get("nudge_after_ms", 0),
        skip_after_ms=timing.get("skip_after_ms", 0),
    )


def decode_table(table: Mapping[str, Any]) -> TableView:
    return TableView(
        name=str(table.get("name", "")),
        phase=table["phase"],
        players=tuple(decode_seat(seat) for seat in table["players"]),
        spectators=table.get("spectators", 0),
        rules=decode_rules(table.get("rules") or {}),
        code_required=bool(table.get("code_required", False)),
        can_start=bool(table.get("can_start", False)),
        departed=tuple(
            DepartedView(g["player"], str(g["name"]), g["kind"], g["score"], g["hands"])
            for g in table.get("departed", ())
        ),
        watching=tuple(str(name) for name in table.get("watching", ())),
        heirs=tuple(player for player in table.get("heirs", ()) if type(player) is int),
        timing=decode_timing(table.get("timing")),
        rematch=bool(table.get("rematch", False)),
    )


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


def decode_snapshot(message: Message) -> SnapshotView:
    return SnapshotView(
        you=message["you"],
        table=decode_table(message["table"]),
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


def decode_message(message: Message, event: Event | None = None) -> Incoming:
    """The host's message, validated already, as what the table model reads of it: the
    one place its ``type`` is looked at on the model's side. ``event``: this message's
    event, where the session decoded it already."""
    kind = message["type"]
    if kind == "welcome":
        return Welcomed(decode_welcome(message))
    if kind == "table":
        return TableSent(decode_table(message["table"]))
    if kind == "snapshot":
        return SnapshotSent(decode_snapshot(message))
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
