"""What a player may do, and the decisions the game asks of them.

A ``Decision`` names what a player owes and lists every legal answer; an ``Action`` is
the answer. ``Game.apply`` accepts exactly the actions a decision allows.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from .cards import CardSet


class MisdealChoice(StrEnum):
    INTENDED = "intended"
    PEON = "peon"


# Actions.


@dataclass(frozen=True, slots=True)
class Play:
    set: CardSet


@dataclass(frozen=True, slots=True)
class Pass:
    pass


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
