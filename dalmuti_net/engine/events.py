"""What happens at the table, as events the game emits.

Every event says who may see it: ``audience()`` is ``None`` for everyone (players and
spectators) or the set of players who may. That tag is the only place secrecy is decided;
``views`` filters on it and nothing else. Where a private fact has a public shadow (a tax
was paid, but only the pair sees the cards), the game emits two events.

Sequences of players are in seat order unless a field says otherwise, and tuples named
``counts`` or ``scores`` line up with the ``order`` they travel with.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar

from .cards import CardSet
from .values import fast_init


@dataclass(frozen=True, slots=True)
class Event:
    TYPE: ClassVar[str] = ""

    def audience(self) -> frozenset[int] | None:
        return None


# The table's first moments (RULES.md rule 4).


@dataclass(frozen=True, slots=True)
class SeatingDraw(Event):
    """One round of the seating draw: ``draws`` pairs each drawing player with a card."""

    TYPE: ClassVar[str] = "seating_draw"
    round: int
    draws: tuple[tuple[int, int], ...]


@dataclass(frozen=True, slots=True)
class SeatingSettled(Event):
    TYPE: ClassVar[str] = "seating_settled"
    order: tuple[int, ...]


# Comings and goings (RULES.md rule 12).


@dataclass(frozen=True, slots=True)
class PlayerJoining(Event):
    """A newcomer will be seated as a Merchant at the start of the next hand."""

    TYPE: ClassVar[str] = "player_joining"
    player: int


@dataclass(frozen=True, slots=True)
class PlayerLeaving(Event):
    """A player will be removed before the next hand (or a newcomer withdrew)."""

    TYPE: ClassVar[str] = "player_leaving"
    player: int


@dataclass(frozen=True, slots=True)
class PlayerRemoved(Event):
    TYPE: ClassVar[str] = "player_removed"
    player: int


@dataclass(frozen=True, slots=True)
class NewcomerPlaced(Event):
    """``position`` counts seats clockwise from the Greater Dalmuti (0)."""

    TYPE: ClassVar[str] = "newcomer_placed"
    player: int
    position: int
    chosen_by: int | None


# A hand: start and deal (rules 6 and 18).


@dataclass(frozen=True, slots=True)
class HandStarted(Event):
    """Everything public about the table as a hand begins: a client may start from here."""

    TYPE: ClassVar[str] = "hand_started"
    hand: int
    order: tuple[int, ...]
    scores: tuple[int, ...]
    deck_size: int
    taxes: bool
    hand_limit: int | None


@dataclass(frozen=True, slots=True)
class MisdealExposed(Event):
    """A card showed while dealing; ``index`` is its place in the deal (0 = first card)."""

    TYPE: ClassVar[str] = "misdeal_exposed"
    card: int
    intended: int
    index: int
    needs_decision: bool


@dataclass(frozen=True, slots=True)
class MisdealResolved(Event):
    """Where the exposed card went: ``choice`` is ``"intended"`` or ``"peon"``."""

    TYPE: ClassVar[str] = "misdeal_resolved"
    choice: str
    card: int
    intended: int
    peon: int


@dataclass(frozen=True, slots=True)
class MisdealReplacement(Event):
    """The card the Greater Peon drew from their hand for the intended receiver."""

    TYPE: ClassVar[str] = "misdeal_replacement"
    peon: int
    receiver: int
    card: int

    def audience(self) -> frozenset[int] | None:
        return frozenset((self.peon, self.receiver))


@dataclass(frozen=True, slots=True)
class CardsDealt(Event):
    TYPE: ClassVar[str] = "cards_dealt"
    player: int
    cards: tuple[int, ...]

    def audience(self) -> frozenset[int] | None:
        return frozenset((self.player,))


@dataclass(frozen=True, slots=True)
class DealFinished(Event):
    TYPE: ClassVar[str] = "deal_finished"
    counts: tuple[int, ...]


# Revolution and taxes (rules 7, 8 and 17).


@dataclass(frozen=True, slots=True)
class RevolutionDeclared(Event):
    TYPE: ClassVar[str] = "revolution_declared"
    player: int
    greater: bool


@dataclass(frozen=True, slots=True)
class RolesMirrored(Event):
    """The seating after a Greater Revolution; the new Greater Dalmuti leads."""

    TYPE: ClassVar[str] = "roles_mirrored"
    order: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class TaxesSkipped(Event):
    """No taxes this hand: ``reason`` is ``"revolution"`` or ``"first_deal"``."""

    TYPE: ClassVar[str] = "taxes_skipped"
    reason: str


@dataclass(frozen=True, slots=True)
class TaxPaid(Event):
    TYPE: ClassVar[str] = "tax_paid"
    giver: int
    receiver: int
    count: int


@dataclass(frozen=True, slots=True)
class TaxCards(Event):
    TYPE: ClassVar[str] = "tax_cards"
    giver: int
    receiver: int
    cards: tuple[int, ...]

    def audience(self) -> frozenset[int] | None:
        return frozenset((self.giver, self.receiver))


@dataclass(frozen=True, slots=True)
class MerchantExchangeDeclined(Event):
    TYPE: ClassVar[str] = "merchant_exchange_declined"
    player: int


@dataclass(frozen=True, slots=True)
class MerchantExchanged(Event):
    """The top Merchant gave ``other`` one card and drew one back at random."""

    TYPE: ClassVar[str] = "merchant_exchanged"
    giver: int
    other: int


@dataclass(frozen=True, slots=True)
class MerchantExchangeCards(Event):
    TYPE: ClassVar[str] = "merchant_exchange_cards"
    giver: int
    other: int
    given: int
    received: int

    def audience(self) -> frozenset[int] | None:
        return frozenset((self.giver, self.other))


# Play (rules 9-11, 15, 16).


@dataclass(frozen=True, slots=True)
class Waiting(Event):
    """Who owes a decision now. Whether anyone holds both Jesters is secret (rule 20), so
    the revolution check of every hand names nobody (``REVOLUTION_CHECK``): only the
    holder, if any, is asked."""

    TYPE: ClassVar[str] = "waiting"
    phase: str
    players: tuple[int, ...]


REVOLUTION_CHECK = Waiting("revolution", ())


@fast_init
@dataclass(frozen=True, slots=True)
class Played(Event):
    TYPE: ClassVar[str] = "played"
    player: int
    set: CardSet
    remaining: int


@dataclass(frozen=True, slots=True)
class Passed(Event):
    TYPE: ClassVar[str] = "passed"
    player: int


@fast_init
@dataclass(frozen=True, slots=True)
class TrickWon(Event):
    """The trick is over; ``leader`` leads the next one (``winner`` unless they are out)."""

    TYPE: ClassVar[str] = "trick_won"
    winner: int
    leader: int


@fast_init
@dataclass(frozen=True, slots=True)
class WentOut(Event):
    TYPE: ClassVar[str] = "went_out"
    player: int
    place: int


@dataclass(frozen=True, slots=True)
class HandEnded(Event):
    """``finishing`` is the finishing order, next hand's seating; the tuples line up with it."""

    TYPE: ClassVar[str] = "hand_ended"
    hand: int
    finishing: tuple[int, ...]
    points: tuple[int, ...]
    bonus: tuple[int, ...]
    scores: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class TableEnded(Event):
    """``standings`` holds (player, score, place) best first; tied scores share a place."""

    TYPE: ClassVar[str] = "table_ended"
    reason: str
    standings: tuple[tuple[int, int, int], ...]


EVENT_TYPES: dict[str, type[Event]] = {
    cls.TYPE: cls
    for cls in (
        SeatingDraw,
        SeatingSettled,
        PlayerJoining,
        PlayerLeaving,
        PlayerRemoved,
        NewcomerPlaced,
        HandStarted,
        MisdealExposed,
        MisdealResolved,
        MisdealReplacement,
        CardsDealt,
        DealFinished,
        RevolutionDeclared,
        RolesMirrored,
        TaxesSkipped,
        TaxPaid,
        TaxCards,
        MerchantExchangeDeclined,
        MerchantExchanged,
        MerchantExchangeCards,
        Waiting,
        Played,
        Passed,
        TrickWon,
        WentOut,
        HandEnded,
        TableEnded,
    )
}


def _plain(value: Any) -> Any:
    if isinstance(value, CardSet):
        return {"rank": value.rank, "count": value.count, "jesters": value.jesters}
    if isinstance(value, tuple):
        return [_plain(item) for item in value]
    return value


def _restored(value: Any) -> Any:
    if isinstance(value, dict) and set(value) == {"rank", "count", "jesters"}:
        return CardSet(value["rank"], value["count"], value["jesters"])
    if isinstance(value, list):
        return tuple(_restored(item) for item in value)
    return value


def event_to_dict(event: Event) -> dict[str, Any]:
    """Plain data (str keys, ints, lists): what saves and what the protocol carries."""
    data: dict[str, Any] = {"type": event.TYPE}
    for field in fields(event):
        data[field.name] = _plain(getattr(event, field.name))
    return data


def event_from_dict(data: dict[str, Any]) -> Event:
    """The inverse of ``event_to_dict`` for trusted data (saves, the engine's own output)."""
    cls = EVENT_TYPES[data["type"]]
    values = {field.name: _restored(data[field.name]) for field in fields(cls)}
    return cls(**values)
