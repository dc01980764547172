"""What a player may do, and the decisions the game asks of them.

A ``Decision`` names what a player owes and lists every legal answer; an ``Action`` is
the answer. ``Game.apply`` accepts exactly the actions a decision allows.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from .cards import CARDS, CardSet, counts_of, holds
from .values import fast_init

__all__ = [
    "Action",
    "DecideMisdeal",
    "Decision",
    "DeclareRevolution",
    "ExchangeDecision",
    "GiveTax",
    "MerchantExchange",
    "MisdealChoice",
    "MisdealDecision",
    "Pass",
    "PlaceNewcomer",
    "PlacementDecision",
    "Play",
    "PlayDecision",
    "RevolutionDecision",
    "TaxDecision",
]
"""The types a player's answers are made of: the engine and the bot SDK re-export exactly
these with ``import *``, so the list is written here once. The functions are imported by
name where they are used."""


class MisdealChoice(StrEnum):
    INTENDED = "intended"
    PEON = "peon"


# Actions.


@fast_init
@dataclass(frozen=True, slots=True)
class Play:
    set: CardSet


@dataclass(frozen=True, slots=True)
class Pass:
    pass


PASS = Pass()
"""Passing: a value like any other ``Pass()``, built once for the hot paths."""


@dataclass(frozen=True, slots=True)
class DeclareRevolution:
    declare: bool


@dataclass(frozen=True, slots=True)
class GiveTax:
    """The Greater or Lesser Dalmuti's chosen cards for their Peon."""

    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class MerchantExchange:
    """The top Merchant's choice: ``other`` and ``card`` both ``None`` declines."""

    other: int | None
    card: int | None


@dataclass(frozen=True, slots=True)
class DecideMisdeal:
    choice: MisdealChoice


@dataclass(frozen=True, slots=True)
class PlaceNewcomer:
    position: int


Action = (
    Play | Pass | DeclareRevolution | GiveTax | MerchantExchange | DecideMisdeal | PlaceNewcomer
)


# Decisions: what a player owes, with every legal answer.


@fast_init
@dataclass(frozen=True, slots=True)
class PlayDecision:
    """``sets`` lists every set that may be played; ``may_pass`` is false on a lead."""

    sets: tuple[CardSet, ...]
    may_pass: bool
    to_beat: CardSet | None


@dataclass(frozen=True, slots=True)
class RevolutionDecision:
    greater: bool


@dataclass(frozen=True, slots=True)
class TaxDecision:
    """Give ``count`` cards, any of ``hand`` (the giver's cards as dealt), to ``receiver``."""

    count: int
    hand: tuple[int, ...]
    receiver: int


@dataclass(frozen=True, slots=True)
class ExchangeDecision:
    """Decline, or name one of ``merchants`` and one of ``cards`` to give them."""

    merchants: tuple[int, ...]
    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class MisdealDecision:
    card: int
    intended: int
    peon: int


@dataclass(frozen=True, slots=True)
class PlacementDecision:
    """Seat ``newcomer`` at one of ``positions`` (seats clockwise from the GD, GD = 0)."""

    newcomer: int
    positions: tuple[int, ...]


Decision = (
    PlayDecision
    | RevolutionDecision
    | TaxDecision
    | ExchangeDecision
    | MisdealDecision
    | PlacementDecision
)


# Every legal answer to a decision: the one list the engine, the SDK and the bots share.


def legal_answers(decision: Decision) -> list[Action]:
    """Every legal answer to ``decision``, in a stable order: passing first where allowed,
    then the sets as listed; for a tax, every distinct choice of cards; for the merchant
    exchange, declining first, then each Merchant with each card."""
    if isinstance(decision, PlayDecision):
        plays: list[Action] = [Play(option) for option in decision.sets]
        return [PASS, *plays] if decision.may_pass else plays
    if isinstance(decision, RevolutionDecision):
        return [DeclareRevolution(False), DeclareRevolution(True)]
    if isinstance(decision, TaxDecision):
        return [GiveTax(cards) for cards in tax_choices(decision.hand, decision.count)]
    if isinstance(decision, ExchangeDecision):
        exchanges: list[Action] = [MerchantExchange(None, None)]
        for other in decision.merchants:
            exchanges.extend(MerchantExchange(other, card) for card in decision.cards)
        return exchanges
    if isinstance(decision, MisdealDecision):
        return [DecideMisdeal(choice) for choice in MisdealChoice]
    return [PlaceNewcomer(position) for position in decision.positions]


def tax_choices(hand: tuple[int, ...], count: int) -> list[tuple[int, ...]]:
    """Every distinct choice of ``count`` cards from ``hand``, each sorted, in sorted order
    (what ``sorted(set(combinations(sorted(hand), count)))`` gives, without building the
    combinations that repeat: a Greater Dalmuti's 27 cards make 351 of them, 78 distinct)."""
    held = counts_of(hand)
    kinds = [card for card in CARDS if held[card]]
    # The taxes' own sizes (one card, two), written out: a playout lists them every hand.
    if count == 1:
        return [(card,) for card in kinds]
    if count == 2:
        return [
            (first, second)
            for index, first in enumerate(kinds)
            for second in kinds[index if held[first] > 1 else index + 1 :]
        ]
    choices: list[tuple[int, ...]] = []

    def extend(chosen: tuple[int, ...], start: int) -> None:
        if len(chosen) == count:
            choices.append(chosen)
            return
        for index in range(start, len(kinds)):
            card = kinds[index]
            if chosen.count(card) < held[card]:
                extend((*chosen, card), index)

    extend((), 0)
    return choices


def is_legal_answer(decision: Decision, action: Action) -> bool:
    """Whether ``Game.apply`` accepts ``action`` as the answer to ``decision``."""
    if isinstance(decision, PlayDecision):
        if isinstance(action, Pass):
            return decision.may_pass
        return isinstance(action, Play) and action.set in decision.sets
    if isinstance(decision, RevolutionDecision):
        return isinstance(action, DeclareRevolution) and type(action.declare) is bool
    if isinstance(decision, TaxDecision):
        return (
            isinstance(action, GiveTax)
            and isinstance(action.cards, tuple | list)
            and len(action.cards) == decision.count
            and all(type(card) is int and card in CARDS for card in action.cards)
            and holds(counts_of(decision.hand), action.cards)
        )
    if isinstance(decision, ExchangeDecision):
        if not isinstance(action, MerchantExchange):
            return False
        if action.other is None and action.card is None:
            return True
        return (
            type(action.other) is int
            and action.other in decision.merchants
            and type(action.card) is int
            and action.card in decision.cards
        )
    if isinstance(decision, MisdealDecision):
        return isinstance(action, DecideMisdeal) and action.choice in tuple(MisdealChoice)
    return (
        isinstance(action, PlaceNewcomer)
        and type(action.position) is int
        and action.position in decision.positions
    )
