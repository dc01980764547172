"""Reading the table from one seat: which cards are still hidden and how safe a set is.

Everything here comes from the seat's ``Observation`` (RULES.md rule 20): the deck the
hand was dealt from, the cards played so far, the seat's own hand and each player's card
count. Chances assume the hidden cards are spread at random over the other hands.
"""

from __future__ import annotations

from functools import cache, lru_cache
from math import comb

from ..engine import JESTER, RANKS, CardSet, Counts, Observation
from ..engine.cards import can_beat, deck_of_size, playable_sets


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
        self._rank_safety: dict[tuple[int, int], float] = {}

    def could_be_beaten(self, rank: int, size: int) -> bool:
        """Whether some opponent might hold a better set of ``size`` cards."""
        if not any(count >= size for count in self.opponents):
            return False
        # The engine's rule: whether the unseen cards, pooled, make a set that beats it.
        return can_beat(self.hidden, _one_of_each_rank(size)[min(rank, JESTER) - 1])

    def safety(self, rank: int, size: int) -> float:
        """Rough chance that nobody can beat a set of ``size`` cards of ``rank``."""
        if not self.could_be_beaten(rank, size):
            return 1.0
        key = (rank, size)
        chance = self._rank_safety.get(key)
        if chance is None:
            chance = self._rank_safety[key] = self._safety(min(rank, JESTER), size)
        return chance

    def _safety(self, rank: int, size: int) -> float:
        """The chance that no opponent holds a set of ``size`` cards that beats one of
        ``rank``.

        Which sets beat which is the engine's rule, not restated here: the sets of
        ``size`` the unseen cards, pooled, could play on it (``playable_sets``: best rank
        first, then fewest Jesters first). Each rank they could make counts its naturals
        and the most Jesters the engine lets it use (the last set of that rank), and is
        taken as missed by every opponent independently.
        """
        hidden, size_ok = self.hidden, [count for count in self.opponents if count >= size]
        threats = playable_sets(hidden, _one_of_each_rank(size)[rank - 1])
        chance = 1.0
        last = len(threats) - 1
        for index, threat in enumerate(threats):
            if index < last and threats[index + 1].rank == threat.rank:
                continue  # the last set of a rank uses the most Jesters
            useful = hidden[threat.rank] + threat.jesters
            for count in size_ok:
                chance *= 1.0 - chance_to_hold(self.hidden_total, useful, count, size)
        return chance


@cache
def _one_of_each_rank(size: int) -> tuple[CardSet, ...]:
    """A set of ``size`` cards of every rank, best first, then Jesters alone: every set of
    ``size`` cards beats the last (only its size and rank matter here)."""
    return (*(CardSet(rank, size) for rank in RANKS), CardSet(JESTER, size, size))
