"""What one seat (or a spectator) knows, kept up to date from the events it may see.

Bots, clients and reconnect snapshots all use this one fold, so a seat's knowledge is
exactly the events it was shown and nothing else.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from . import cards as c
from . import events
from .cards import CardSet, Counts
from .events import Event
from .roles import Role, roles_of


@dataclass
class Observation:
    viewer: int | None
    hand_number: int = 0
    hand_limit: int | None = None
    phase: str = "not_started"
    order: tuple[int, ...] = ()
    scores: dict[int, int] = field(default_factory=dict)
    counts: dict[int, int] = field(default_factory=dict)
    hand: Counts | None = None
    taxes: bool = True
    waiting: tuple[int, ...] = ()
    to_beat: CardSet | None = None
    top_player: int | None = None
    passed: set[int] = field(default_factory=set)
    trick: list[tuple[int, CardSet]] = field(default_factory=list)
    played: Counts = c.EMPTY
    out: list[int] = field(default_factory=list)
    revolution: events.RevolutionDeclared | None = None
    misdeal: events.MisdealExposed | None = None
    misdeal_result: events.MisdealResolved | None = None
    transfers: list[Event] = field(default_factory=list)
    """Every card movement this seat saw the cards of: taxes, exchanges, misdeal draws."""
    exchanges: int = 0
    gifts: list[tuple[int, int, int]] = field(default_factory=list)
    """Every tax and exchange this hand as (giver, receiver, cards): public, without cards."""
    played_by: dict[int, Counts] = field(default_factory=dict)
    """The cards each player has played this hand."""
    joining: list[int] = field(default_factory=list)
    leaving: list[int] = field(default_factory=list)
    last_hand: events.HandEnded | None = None
    results: list[events.HandEnded] = field(default_factory=list, compare=False)
    """Every hand's result this observation has seen, across hands, oldest first (left out
    of comparisons: a view rebuilt from the log knows only the last)."""
    ended: events.TableEnded | None = None

    def copy(self) -> Observation:
        """An independent copy (events and card sets are immutable, so they are shared)."""
        twin = copy.copy(self)
        twin.scores = self.scores.copy()
        twin.counts = self.counts.copy()
        twin.passed = self.passed.copy()
        twin.trick = self.trick.copy()
        twin.out = self.out.copy()
        twin.transfers = self.transfers.copy()
        twin.gifts = self.gifts.copy()
        twin.played_by = self.played_by.copy()
        twin.joining = self.joining.copy()
        twin.leaving = self.leaving.copy()
        twin.results = self.results.copy()
        return twin

    @property
    def roles(self) -> dict[int, Role]:
        return roles_of(self.order)

    @property
    def in_hand(self) -> tuple[int, ...]:
        return tuple(p for p in self.order if self.counts.get(p, 0) > 0)

    def apply(self, event: Event) -> None:
        handler = _HANDLERS.get(type(event))
        if handler is not None:
            handler(self, event)

    def _take(self, cards: tuple[int, ...]) -> None:
        if self.hand is not None:
            self.hand = c.remove(self.hand, cards)

    def _receive(self, cards: tuple[int, ...]) -> None:
        if self.hand is not None:
            self.hand = c.add(self.hand, cards)


def _hand_started(o: Observation, e: events.HandStarted) -> None:
    o.hand_number, o.hand_limit, o.taxes = e.hand, e.hand_limit, e.taxes
    o.order = e.order
    o.scores = dict(zip(e.order, e.scores, strict=True))
    o.counts = {p: 0 for p in e.order}
    o.hand = None
    o.phase = "dealing"
    o.waiting = ()
    o.to_beat = o.top_player = None
    o.passed = set()
    o.trick = []
    o.played = c.EMPTY
    o.out = []
    o.revolution = o.misdeal = o.misdeal_result = None
    o.transfers = []
    o.exchanges = 0
    o.gifts = []
    o.played_by = {}
    o.joining, o.leaving = [], []


def _seating_settled(o: Observation, e: events.SeatingSettled) -> None:
    o.order = e.order


def _player_joining(o: Observation, e: events.PlayerJoining) -> None:
    o.joining.append(e.player)


def _player_leaving(o: Observation, e: events.PlayerLeaving) -> None:
    if e.player in o.joining:
        o.joining.remove(e.player)
    else:
        o.leaving.append(e.player)


def _player_removed(o: Observation, e: events.PlayerRemoved) -> None:
    o.order = tuple(p for p in o.order if p != e.player)
    o.scores.pop(e.player, None)
    o.counts.pop(e.player, None)
    if e.player in o.leaving:
        o.leaving.remove(e.player)


def _newcomer_placed(o: Observation, e: events.NewcomerPlaced) -> None:
    o.order = (*o.order[: e.position], e.player, *o.order[e.position :])
    o.scores[e.player] = 0
    if e.player in o.joining:
        o.joining.remove(e.player)


def _misdeal_exposed(o: Observation, e: events.MisdealExposed) -> None:
    o.misdeal = e


def _misdeal_resolved(o: Observation, e: events.MisdealResolved) -> None:
    o.misdeal_result = e


def _misdeal_replacement(o: Observation, e: events.MisdealReplacement) -> None:
    o.transfers.append(e)


def _cards_dealt(o: Observation, e: events.CardsDealt) -> None:
    if e.player == o.viewer:
        o.hand = c.counts_of(e.cards)


def _deal_finished(o: Observation, e: events.DealFinished) -> None:
    o.counts = dict(zip(o.order, e.counts, strict=True))


def _revolution_declared(o: Observation, e: events.RevolutionDeclared) -> None:
    o.revolution = e


def _roles_mirrored(o: Observation, e: events.RolesMirrored) -> None:
    o.order = e.order


def _taxes_skipped(o: Observation, e: events.TaxesSkipped) -> None:
    o.taxes = False


def _tax_paid(o: Observation, e: events.TaxPaid) -> None:
    o.counts[e.giver] -= e.count
    o.counts[e.receiver] += e.count
    o.gifts.append((e.giver, e.receiver, e.count))


def _tax_cards(o: Observation, e: events.TaxCards) -> None:
    o.transfers.append(e)
    if e.giver == o.viewer:
        o._take(e.cards)
    if e.receiver == o.viewer:
        o._receive(e.cards)


def _merchant_exchanged(o: Observation, e: events.MerchantExchanged) -> None:
    o.exchanges += 1
    o.gifts.append((e.giver, e.other, 1))
    o.gifts.append((e.other, e.giver, 1))


def _merchant_exchange_cards(o: Observation, e: events.MerchantExchangeCards) -> None:
    o.transfers.append(e)
    if o.viewer == e.giver:
        o._take((e.given,))
        o._receive((e.received,))
    elif o.viewer == e.other:
        o._take((e.received,))
        o._receive((e.given,))


def _waiting(o: Observation, e: events.Waiting) -> None:
    o.phase, o.waiting = e.phase, e.players


def _played(o: Observation, e: events.Played) -> None:
    cards = e.set.cards()
    o.counts[e.player] = e.remaining
    o.played = c.add(o.played, cards)
    o.to_beat, o.top_player = e.set, e.player
    o.passed = set()
    o.trick.append((e.player, e.set))
    o.played_by[e.player] = c.add(o.played_by.get(e.player, c.EMPTY), cards)
    if e.player == o.viewer:
        o._take(cards)


def _passed(o: Observation, e: events.Passed) -> None:
    o.passed.add(e.player)


def _trick_won(o: Observation, e: events.TrickWon) -> None:
    o.to_beat = o.top_player = None
    o.passed = set()
    o.trick = []


def _went_out(o: Observation, e: events.WentOut) -> None:
    o.out.append(e.player)


def _hand_ended(o: Observation, e: events.HandEnded) -> None:
    o.last_hand = e
    o.results.append(e)
    o.scores = dict(zip(e.finishing, e.scores, strict=True))
    o.order = e.finishing
    o.phase = "hand_over"
    o.waiting = ()


def _table_ended(o: Observation, e: events.TableEnded) -> None:
    o.ended = e
    o.phase = "ended"
    o.waiting = ()


_HANDLERS: dict[type[Event], Callable[[Observation, Any], None]] = {
    events.HandStarted: _hand_started,
    events.SeatingSettled: _seating_settled,
    events.PlayerJoining: _player_joining,
    events.PlayerLeaving: _player_leaving,
    events.PlayerRemoved: _player_removed,
    events.NewcomerPlaced: _newcomer_placed,
    events.MisdealExposed: _misdeal_exposed,
    events.MisdealResolved: _misdeal_resolved,
    events.MisdealReplacement: _misdeal_replacement,
    events.CardsDealt: _cards_dealt,
    events.DealFinished: _deal_finished,
    events.RevolutionDeclared: _revolution_declared,
    events.RolesMirrored: _roles_mirrored,
    events.TaxesSkipped: _taxes_skipped,
    events.TaxPaid: _tax_paid,
    events.TaxCards: _tax_cards,
    events.MerchantExchanged: _merchant_exchanged,
    events.MerchantExchangeCards: _merchant_exchange_cards,
    events.Waiting: _waiting,
    events.Played: _played,
    events.Passed: _passed,
    events.TrickWon: _trick_won,
    events.WentOut: _went_out,
    events.HandEnded: _hand_ended,
    events.TableEnded: _table_ended,
}
