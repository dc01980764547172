"""What one seat knows of the others' cards, and deals of the unseen cards that agree with it.

The pieces of ``Game.sample_hidden``, on counts only (no game state), so that they can be
tested on their own. The model: the unseen cards (the deck less every card played and the
viewer's own hand) are dealt uniformly at random, card by card, among the deals in which

* each player holds as many cards as they do;
* each player holds the cards the viewer saw going to them and has not seen them play
  (tax and exchange cards it gave them, what it drew from them in the exchange, the card
  a misdeal sent them, the two Jesters of a revolution they declared);
* a Peon who paid the viewer its tax holds nothing better than the worst card it paid,
  apart from what it was seen to receive (a Peon pays its best cards, RULES.md rule 8);
* someone being asked about a revolution the viewer cannot see holds both Jesters.

It does not weigh what the viewer might infer from how the others played, nor the skew a
transfer it did not see puts on a hand (the GD's hand after the GP's unseen tax): a
determinization, as a researcher's sampler is, not the exact posterior.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from . import cards as c
from .cards import JESTER, Counts
from .events import MerchantExchangeCards, MisdealReplacement, TaxCards
from .observation import Observation


@dataclass
class Knowledge:
    """What the viewer knows of one other player's hand now.

    ``known[card]``: how many of that card they surely hold. ``floor``: every other card
    they hold is at least that bad (a card number, Jesters worst), 1 when nothing is known.
    """

    known: list[int] = field(default_factory=lambda: [0] * 14)
    floor: int = 1


def knowledge_of(seen: Observation) -> dict[int, Knowledge]:
    """What ``seen.viewer`` knows of each other player's cards, from its observation only."""
    me = seen.viewer
    knowledge: dict[int, Knowledge] = {}
    fragile: dict[int, list[int]] = {}
    """Cards known to have reached a player before the taxes, which they may have given."""

    def of(player: int) -> Knowledge:
        return knowledge.setdefault(player, Knowledge())

    def holds(player: int, cards: Iterable[int], before_taxes: bool = False) -> None:
        if player == me:
            return
        target = fragile.setdefault(player, [0] * 14) if before_taxes else of(player).known
        for card in cards:
            target[card] += 1

    if seen.revolution is not None:  # declared before any tax, and a revolution skips them
        holds(seen.revolution.player, (JESTER, JESTER))
    result = seen.misdeal_result
    if result is not None:
        holds(result.intended if result.choice == "intended" else result.peon, (result.card,), True)
    peons = set(seen.order[-2:])
    for transfer in seen.transfers:
        if isinstance(transfer, TaxCards):
            if transfer.giver == me:
                holds(transfer.receiver, transfer.cards)
            elif transfer.giver in peons:
                # A Peon pays its best cards: what it kept is no better than these.
                of(transfer.giver).floor = max(transfer.cards)
        elif isinstance(transfer, MerchantExchangeCards):
            if transfer.giver == me:
                holds(transfer.other, (transfer.given,))
            else:
                holds(transfer.giver, (transfer.received,))
        elif isinstance(transfer, MisdealReplacement) and transfer.peon == me:
            holds(transfer.receiver, (transfer.card,), True)
    for player, cards in fragile.items():
        for giver, receiver, _ in seen.gifts:
            if giver != player:
                continue
            if receiver != me:  # it gave cards the viewer did not see: any may be these
                cards = [0] * 14
                break
            for transfer in seen.transfers:  # the viewer saw what it gave: take those out
                if isinstance(transfer, TaxCards) and transfer.giver == player:
                    cards = [max(0, n - transfer.cards.count(card)) for card, n in enumerate(cards)]
                elif isinstance(transfer, MerchantExchangeCards) and transfer.other == player:
                    cards = [
                        n - (card == transfer.received and n > 0) for card, n in enumerate(cards)
                    ]
        known = of(player).known
        for card, n in enumerate(cards):
            known[card] += n
    for player, info in knowledge.items():
        played = seen.played_by.get(player, c.EMPTY)
        info.known = [max(0, n - p) for n, p in zip(info.known, played, strict=True)]
    return knowledge


def sample_unseen(
    unseen: list[int],
    needs: Mapping[int, int],
    knowledge: Mapping[int, Knowledge],
    rng: random.Random,
    holder_among: tuple[int, ...] = (),
) -> dict[int, Counts]:
    """Deal the ``unseen`` cards (counts per card) so that each player of ``needs`` gets
    that many, uniformly among the deals that respect ``knowledge`` (see the module).

    ``holder_among``, when given, says one of those players holds both Jesters (chosen in
    proportion to the ways their hand can hold them). Draws only from ``rng``.
    """
    pool = list(unseen)
    hands = {player: [0] * 14 for player in needs}
    free = dict(needs)
    for player, info in knowledge.items():
        if player not in hands:
            continue
        for card, count in enumerate(info.known):
            take = min(count, pool[card], free[player])
            hands[player][card] += take
            pool[card] -= take
            free[player] -= take
    if holder_among:
        # Weighted by the ways each one's free cards can take the Jesters they lack.
        lacking = {p: c.JESTERS_IN_DECK - hands[p][JESTER] for p in holder_among}
        weights = [
            math.comb(free[p], lacking[p]) if lacking[p] == pool[JESTER] else 0
            for p in holder_among
        ]
        if sum(weights) > 0:
            holder = rng.choices(holder_among, weights)[0]
            hands[holder][JESTER] += lacking[holder]
            free[holder] -= lacking[holder]
            pool[JESTER] = 0
    cards = [card for card in range(1, 14) for _ in range(pool[card])]
    for player, info in knowledge.items():
        if info.floor > 1 and player in free and free[player]:
            eligible = [i for i, card in enumerate(cards) if card >= info.floor]
            chosen = set(rng.sample(eligible, min(free[player], len(eligible))))
            for i in chosen:
                hands[player][cards[i]] += 1
            free[player] -= len(chosen)
            cards = [card for i, card in enumerate(cards) if i not in chosen]
    rng.shuffle(cards)
    position = 0
    for player in needs:
        for card in cards[position : position + free[player]]:
            hands[player][card] += 1
        position += free[player]
    return {player: tuple(counts) for player, counts in hands.items()}


def their_view(seen: Observation, player: int | None, hand: Counts | None) -> Observation:
    """``player``'s observation in a sampled game: the public part of ``seen``, the sampled
    ``hand``, and of the transfers only those ``seen`` shows them taking part in."""
    view = seen.copy()
    view.viewer = player
    dealt = any(seen.counts.values())  # counts arrive with the end of the deal
    view.hand = hand if dealt else None
    view.transfers = [
        transfer
        for transfer in seen.transfers
        if player is not None and player in (transfer.audience() or ())
    ]
    if seen.waiting and seen.phase == "revolution":
        view.phase, view.waiting = "dealing", ()
    return view
