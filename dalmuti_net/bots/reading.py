"""Reading the table from one seat: which cards are still hidden and how safe a set is.

Everything here comes from the seat's ``Observation`` (RULES.md rule 20): the deck the
hand was dealt from, the cards played so far, the seat's own hand and each player's card
count. Chances assume the hidden cards are spread at random over the other hands.
"""

from __future__ import annotations

from functools import cache, lru_cache
from math import comb

from ..engine import JESTER, RANKS, CardSet, Counts, Observation
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
        return _beatable(self.hidden, rank, size)

    def safety(self, rank: int, size: int) -> float:
        """Rough chance that nobody can beat a set of ``size`` cards of ``rank``."""
        if not self.could_be_beaten(rank, size):
            return 1.0
        table = self._rank_safety.get(size)
        if table is None:
            table = _safety_table(self.hidden, self.opponents, size)
            self._rank_safety[size] = table
        return table[min(rank, JESTER)]


# Both are pure functions of the unseen cards (and the opponents' sizes): a Monte Carlo
# search meets the same few thousand positions again and again, so they are remembered.


@lru_cache(maxsize=1 << 16)
def _beatable(hidden: Counts, rank: int, size: int) -> bool:
    """The engine's rule: whether the unseen cards, pooled, make a set that beats one of
    ``size`` cards of ``rank``."""
    return bool(playable_sets(hidden, CardSet(rank, size)))


@lru_cache(maxsize=1 << 16)
def _safety_table(hidden: Counts, opponents: tuple[int, ...], size: int) -> tuple[float, ...]:
    """Entry r: chance that no opponent holds a set of ``size`` cards that beats one of r.

    Which sets beat which is the engine's rule, not restated here: the sets of ``size``
    the unseen cards, pooled, could make (``playable_sets``: best rank first, then
    fewest Jesters first) and ``CardSet.beats``. Each rank they could make counts its
    naturals and the most Jesters the engine lets it use, and is taken as missed by
    every opponent independently; the sets that beat a rank are a run from the top of
    the list, so the chance for each rank is a running product down it.
    """
    hidden_total = sum(opponents)
    targets = _one_of_each_rank(size)
    threats = playable_sets(hidden, targets[-1])
    table = [1.0]
    chance = 1.0
    taken = 0
    for target in targets:
        while taken < len(threats) and threats[taken].beats(target):
            threat = threats[taken]
            taken += 1
            if taken < len(threats) and threats[taken].rank == threat.rank:
                continue  # the last set of a rank uses the most Jesters
            useful = hidden[threat.rank] + threat.jesters
            for count in opponents:
                if count >= size:
                    chance *= 1.0 - chance_to_hold(hidden_total, useful, count, size)
        table.append(chance)
    return tuple(table)


@cache
def _one_of_each_rank(size: int) -> tuple[CardSet, ...]:
    """A set of ``size`` cards of every rank, best first, then Jesters alone: every set of
    ``size`` cards beats the last (only its size and rank matter here)."""
    return (*(CardSet(rank, size) for rank in RANKS), CardSet(JESTER, size, size))
