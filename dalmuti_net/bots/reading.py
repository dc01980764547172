"""Reading the table from one seat: which cards are still hidden and how safe a set is.

Everything here comes from the seat's ``Observation`` (RULES.md rule 20): the deck the
hand was dealt from, the cards played so far, the seat's own hand and each player's card
count. Chances assume the hidden cards are spread at random over the other hands.
"""

from __future__ import annotations

from functools import lru_cache
from math import comb

from ..engine import JESTER, CardSet, Counts, Observation
from ..engine.cards import deck_of_size, playable_sets


def deck_composition(deck_size: int) -> Counts:
    """The cards of a deck of ``deck_size`` cards (the engine's rule 14)."""
    return deck_of_size(deck_size)


@lru_cache(maxsize=65536)
def chance_to_hold(hidden: int, useful: int, drawn: int, needed: int) -> float:
    """Chance that ``drawn`` cards taken from ``hidden`` include ``needed`` of ``useful``."""
    useful = min(useful, hidden)
    if needed > min(useful, drawn) or drawn > hidden:
        return 0.0
    total = comb(hidden, drawn)
    hits = sum(
        comb(useful, k) * comb(hidden - useful, drawn - k)
        for k in range(needed, min(useful, drawn) + 1)
    )
    return hits / total


class TableReading:
    """What one seat can infer at a decision: hidden cards per rank and opponents' sizes."""

    def __init__(self, observation: Observation, hand: Counts) -> None:
        self.hand = hand
        me = observation.viewer
        self.opponents = tuple(
            count for player, count in observation.counts.items() if player != me and count > 0
        )
        hidden_total = sum(self.opponents)
        deck = deck_composition(hidden_total + sum(hand) + sum(observation.played))
        self.deck = deck
        self.hidden = tuple(
            max(0, deck[card] - observation.played[card] - hand[card]) for card in range(14)
        )
        self.hidden_total = hidden_total
        self._rank_safety: dict[int, tuple[float, ...]] = {}

    def could_be_beaten(self, rank: int, size: int) -> bool:
        """Whether some opponent might hold a better set of ``size`` cards."""
        if not any(count >= size for count in self.opponents):
            return False
        # The engine's rule: whether the unseen cards, pooled, make a set that beats it.
        return bool(playable_sets(self.hidden, CardSet(rank, size)))

    def safety(self, rank: int, size: int) -> float:
        """Rough chance that nobody can beat a set of ``size`` cards of ``rank``."""
        if not self.could_be_beaten(rank, size):
            return 1.0
        table = self._rank_safety.get(size)
        if table is None:
            table = self._safety_table(size)
            self._rank_safety[size] = table
        return table[min(rank, JESTER)]

    def _safety_table(self, size: int) -> tuple[float, ...]:
        """Entry r: chance that no opponent holds ``size`` cards of a rank better than r."""
        jesters = min(self.hidden[JESTER], size - 1)
        safe = [1.0] * (JESTER + 1)
        running = 1.0
        for rank in range(1, JESTER):
            safe[rank] = running
            natural = self.hidden[rank]
            if natural == 0 or natural + jesters < size:
                continue
            for count in self.opponents:
                if count >= size:
                    held = chance_to_hold(self.hidden_total, natural + jesters, count, size)
                    running *= 1.0 - held
        safe[JESTER] = running
        return tuple(safe)
