"""What happens at the table, as events the game emits.

Every event says who may see it: ``audience()`` is ``None`` for everyone (players and
spectators) or the set of players who may. That tag is the only place secrecy is decided;
``views`` filters on it and nothing else. Where a private fact has a public shadow (a tax
was paid, but only the pair sees the cards), the game emits two events.

Sequences of players are in seat order unless a field says otherwise, and tuples named
``counts`` or ``scores`` line up with the ``order`` they travel with.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any, ClassVar, TypeVar, dataclass_transform

from .cards import CardSet
from .values import fast_init


@dataclass(frozen=True, slots=True)
class Event:
    TYPE: ClassVar[str] = ""

    def audience(self) -> frozenset[int] | None:
        return None


EVENT_TYPES: dict[str, type[Event]] = {}
"""Every kind of event by its ``TYPE``, in the order declared below."""

E = TypeVar("E", bound=Event)


@dataclass_transform(frozen_default=True)
def event(type_name: str) -> Callable[[type[E]], type[E]]:
    """Declare a kind of event: a frozen, slotted dataclass whose ``TYPE`` (its name in
    messages and saves) is ``type_name``, listed in ``EVENT_TYPES``."""

    def declare(cls: type[E]) -> type[E]:
        cls.TYPE = type_name
        made = dataclass(frozen=True, slots=True)(cls)
        EVENT_TYPES[type_name] = made
        return made

    return declare


# The table's first moments (RULES.md rule 4).


@event("seating_draw")
class SeatingDraw(Event):
    """One round of the seating draw: ``draws`` pairs each drawing player with a card."""

    round: int
    draws: tuple[tuple[int, int], ...]


@event("seating_settled")
class SeatingSettled(Event):
    order: tuple[int, ...]


# Comings and goings (RULES.md rule 12).


@event("player_joining")
class PlayerJoining(Event):
    """A newcomer will be seated as a Merchant at the start of the next hand."""

    player: int


@event("player_leaving")
class PlayerLeaving(Event):
    """A player will be removed before the next hand (or a newcomer withdrew)."""

    player: int


@event("player_removed")
class PlayerRemoved(Event):
    player: int


@event("newcomer_placed")
class NewcomerPlaced(Event):
    """``position`` counts seats clockwise from the Greater Dalmuti (0)."""

    player: int
    position: int
    chosen_by: int | None


# A hand: start and deal (rules 6 and 18).


@event("hand_started")
class HandStarted(Event):
    """Everything public about the table as a hand begins: a client may start from here."""

    hand: int
    order: tuple[int, ...]
    scores: tuple[int, ...]
    deck_size: int
    taxes: bool
    hand_limit: int | None


@event("misdeal_exposed")
class MisdealExposed(Event):
    """A card showed while dealing; ``index`` is its place in the deal (0 = first card)."""

    card: int
    intended: int
    index: int
    needs_decision: bool


@event("misdeal_resolved")
class MisdealResolved(Event):
    """Where the exposed card went: ``choice`` is ``"intended"`` or ``"peon"``."""

    choice: str
    card: int
    intended: int
    peon: int


@event("misdeal_replacement")
class MisdealReplacement(Event):
    """The card the Greater Peon drew from their hand for the intended receiver."""

    peon: int
    receiver: int
    card: int

    def audience(self) -> frozenset[int] | None:
        return frozenset((self.peon, self.receiver))


@event("cards_dealt")
class CardsDealt(Event):
    player: int
    cards: tuple[int, ...]

    def audience(self) -> frozenset[int] | None:
        return frozenset((self.player,))


@event("deal_finished")
class DealFinished(Event):
    counts: tuple[int, ...]


# Revolution and taxes (rules 7, 8 and 17).


@event("revolution_declared")
class RevolutionDeclared(Event):
    player: int
    greater: bool


@event("roles_mirrored")
class RolesMirrored(Event):
    """The seating after a Greater Revolution; the new Greater Dalmuti leads."""

    order: tuple[int, ...]


@event("taxes_skipped")
class TaxesSkipped(Event):
    """No taxes this hand: ``reason`` is ``"revolution"`` or ``"first_deal"``."""

    reason: str


@event("tax_paid")
class TaxPaid(Event):
    giver: int
    receiver: int
    count: int


@event("tax_cards")
class TaxCards(Event):
    giver: int
    receiver: int
    cards: tuple[int, ...]

    def audience(self) -> frozenset[int] | None:
        return frozenset((self.giver, self.receiver))


@event("merchant_exchange_declined")
class MerchantExchangeDeclined(Event):
    player: int


@event("merchant_exchanged")
class MerchantExchanged(Event):
    """The top Merchant gave ``other`` one card and drew one back at random."""

    giver: int
    other: int


@event("merchant_exchange_cards")
class MerchantExchangeCards(Event):
    giver: int
    other: int
    given: int
    received: int

    def audience(self) -> frozenset[int] | None:
        return frozenset((self.giver, self.other))


# Play (rules 9-11, 15, 16).


@event("waiting")
class Waiting(Event):
    """Who owes a decision now. Whether anyone holds both Jesters is secret (rule 20), so
    the revolution check of every hand names nobody (``REVOLUTION_CHECK``): only the
    holder, if any, is asked."""

    phase: str
    players: tuple[int, ...]


REVOLUTION_CHECK = Waiting("revolution", ())


@fast_init
@event("played")
class Played(Event):
    player: int
    set: CardSet
    remaining: int


@event("passed")
class Passed(Event):
    player: int


@fast_init
@event("trick_won")
class TrickWon(Event):
    """The trick is over; ``leader`` leads the next one (``winner`` unless they are out)."""

    winner: int
    leader: int


@fast_init
@event("went_out")
class WentOut(Event):
    player: int
    place: int


@event("hand_ended")
class HandEnded(Event):
    """``finishing`` is the finishing order, next hand's seating; the tuples line up with it."""

    hand: int
    finishing: tuple[int, ...]
    points: tuple[int, ...]
    bonus: tuple[int, ...]
    scores: tuple[int, ...]


@event("table_ended")
class TableEnded(Event):
    """``standings`` holds (player, score, place) best first; tied scores share a place."""

    reason: str
    standings: tuple[tuple[int, int, int], ...]


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
