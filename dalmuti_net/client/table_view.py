"""The host's ``table`` as frozen typed data: what the session keeps and every front end,
bot and SDK program reads.

The one place on the client that reads a ``table``'s fields by name. The message was
validated against the catalogue before it gets here (``client.connection``), so a field has
its type; a field the catalogue makes optional gets its documented default here, once (a
rule option the host leaves out is the rule's default, so no front end shows "None").
``client.fits.fit_table`` decodes a table with the checks a schema cannot make.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from ..engine import Rules

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
    program: bool = False
    """A program plays this human seat through the protocol (``dalmuti bot``, the SDK):
    marked as a bot, though not one of the host's (it cannot be removed as one)."""

    @property
    def is_bot(self) -> bool:
        """One of the host's own bots (``kind`` ``bot``)."""
        return self.kind == "bot"

    @property
    def played_by_a_program(self) -> bool:
        """The host's own bot or a program: what a bot mark says."""
        return self.is_bot or self.program

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

    @property
    def ended(self) -> bool:
        return self.phase == "ended"

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
        program=bool(seat.get("program", False)),
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
