"""Cards, decks and the sets that may be played (RULES.md rules 1, 2 and 14).

A card is an int: 1..12 for the ranked cards (lower is better) and ``JESTER`` (13) for a
Jester. A hand is kept as a tuple of counts indexed by card, so that the engine can ask
"how many 7s?" in constant time and hands compare and serialise as plain data.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from operator import le
from typing import Any, Generic, TypeVar

from .values import fast_init

JESTER = 13
RANKS = tuple(range(1, 13))
CARDS = (*RANKS, JESTER)
JESTERS_IN_DECK = 2

ENGLISH_NAMES = {
    1: "Dalmuti",
    2: "Archbishop",
    3: "Earl Marshal",
    4: "Baroness",
    5: "Abbess",
    6: "Knight",
    7: "Seamstress",
    8: "Mason",
    9: "Cook",
    10: "Shepherdess",
    11: "Stonecutter",
    12: "Peasant",
    JESTER: "Jester",
}

T = TypeVar("T")
U = TypeVar("U")

Counts = tuple[int, ...]
"""Cards held, as a count per card: index 0 is unused, 1..12 the ranks, 13 the Jesters."""

EMPTY: Counts = (0,) * 14


def full_deck(stripped_ranks: Iterable[int] = ()) -> list[int]:
    """Every card of the deck, rank r appearing r times, two Jesters, minus stripped ranks."""
    removed = frozenset(stripped_ranks)
    deck = _DECKS.get(removed)
    if deck is None:  # built once per stripping (every hand deals one)
        cards = [rank for rank in RANKS if rank not in removed for _ in range(rank)]
        deck = _DECKS[removed] = (*cards, *[JESTER] * JESTERS_IN_DECK)
    return list(deck)


_DECKS: dict[frozenset[int], tuple[int, ...]] = {}


FULL_DECK_SIZE = 80


def deck_of_size(deck_size: int) -> Counts:
    """The cards of a deck of ``deck_size`` cards (80, or 68 and 57 stripped, rule 14): a
    stripped deck loses its worst ranks."""
    counts = [0, *RANKS, JESTERS_IN_DECK]
    total = FULL_DECK_SIZE
    for rank in reversed(RANKS):
        if total <= deck_size:
            break
        total -= counts[rank]
        counts[rank] = 0
    return tuple(counts)


def counts_of(cards: Iterable[int]) -> Counts:
    counts = [0] * 14
    for card in cards:
        counts[card] += 1
    return tuple(counts)


def cards_of(counts: Counts) -> tuple[int, ...]:
    """The cards of a count tuple, best first, Jesters last."""
    cards: list[int] = []
    for card in CARDS:
        cards += (card,) * counts[card]
    return tuple(cards)


def add(counts: Counts, cards: Iterable[int]) -> Counts:
    result = list(counts)
    for card in cards:
        result[card] += 1
    return tuple(result)


def remove(counts: Counts, cards: Iterable[int]) -> Counts:
    """Take cards out of a hand; the caller has checked that they are held."""
    result = list(counts)
    for card in cards:
        result[card] -= 1
    return tuple(result)


def holds(counts: Counts, cards: Iterable[int]) -> bool:
    needed = counts_of(cards)
    return all(map(le, needed[1:], counts[1:]))  # each card 1..13, compared in C


def best_cards(counts: Counts, how_many: int) -> tuple[int, ...]:
    """The lowest-ranked cards of a hand, Jesters counting worst (RULES.md rule 8)."""
    best: list[int] = []
    for card in CARDS:  # best first, stopping once there are enough
        held = counts[card]
        if held:
            best += (card,) * min(held, how_many - len(best))
            if len(best) == how_many:
                break
    return tuple(best)


@fast_init
@dataclass(frozen=True, slots=True, order=True)
class CardSet:
    """A set of cards played together (RULES.md rule 2).

    ``rank`` is the rank the set counts as (13 for Jesters alone), ``count`` the number of
    cards and ``jesters`` how many of them are Jesters. Jester + Jester + 5 is
    ``CardSet(rank=5, count=3, jesters=2)``; a lone Jester is ``CardSet(13, 1, 1)``.
    """

    rank: int
    count: int
    jesters: int = 0

    def is_well_formed(self) -> bool:
        if not 1 <= self.count <= 80 or not 0 <= self.jesters <= JESTERS_IN_DECK:
            return False
        if self.rank == JESTER:
            return self.jesters == self.count
        return 1 <= self.rank <= 12 and self.jesters < self.count

    def cards(self) -> tuple[int, ...]:
        if self.rank == JESTER:
            return (JESTER,) * self.count
        return (self.rank,) * (self.count - self.jesters) + (JESTER,) * self.jesters

    def beats(self, other: CardSet) -> bool:
        """Whether this set may be played on ``other``: same size, strictly better rank."""
        return self.count == other.count and self.rank < other.rank


MOST_OF_A_RANK = 12
"""The most cards of one rank a deck holds (twelve Peasants)."""
LARGEST_SET = MOST_OF_A_RANK + JESTERS_IN_DECK

# Sets are immutable values, so the engine hands out shared instances from tables built
# once instead of building a CardSet for every legal set of every decision (its hot path).
_SHARED: dict[tuple[int, int, int], CardSet] = {}


def _sets_made(rank: int, size: int, naturals: int, jesters: int) -> tuple[CardSet, ...]:
    """The sets of ``rank`` and ``size`` a hand holding ``naturals`` of that rank and
    ``jesters`` Jesters can make, fewest Jesters first."""
    used = range(max(0, size - naturals), min(jesters, size - 1) + 1)
    return tuple(_SHARED.setdefault((rank, size, j), CardSet(rank, size, j)) for j in used)


_HELD = range(MOST_OF_A_RANK + 1)
_JESTERS_HELD = range(JESTERS_IN_DECK + 1)

_LEADS = [
    [
        [
            tuple(s for size in range(1, n + j + 1) for s in _sets_made(rank, size, n, j))
            if rank
            else ()
            for j in _JESTERS_HELD
        ]
        for n in _HELD
    ]
    for rank in range(JESTER)
]
"""``[rank][naturals held][Jesters held]``: every set of that rank a hand may lead, in order."""

_FOLLOWS = [
    [
        [[_sets_made(rank, size, n, j) if rank else () for n in _HELD] for rank in range(JESTER)]
        for j in _JESTERS_HELD
    ]
    for size in range(LARGEST_SET + 1)
]
"""``[size][Jesters held][rank][naturals held]``: the sets of that rank a follow may play."""

_JESTERS_ALONE = tuple(
    _SHARED.setdefault((JESTER, count, count), CardSet(JESTER, count, count))
    for count in range(1, JESTERS_IN_DECK + 1)
)

_SHARED_IDS = frozenset(id(shared) for shared in _SHARED.values())
# The shared sets live as long as the module (``_SHARED`` holds them), so no other live
# object can have one of their ids.


def is_shared(card_set: object) -> bool:
    """Whether ``card_set`` is one of the sets ``playable_sets`` hands out: well formed,
    so ``Game.apply`` need not check it field by field (its hot path)."""
    return id(card_set) in _SHARED_IDS


@dataclass(frozen=True)
class SetTables(Generic[T]):
    """The legal sets of every hand, listed once, as ``T``: the shared ``CardSet``s, or
    their action ids (``encoding``). ``playable`` walks either, the same walk."""

    leads: Any
    """Indexed as ``_LEADS``."""
    follows: Any
    """Indexed as ``_FOLLOWS``."""
    jesters_alone: tuple[T, ...]
    """The Jesters led alone, one then two."""

    def mapped(self, to: Callable[[CardSet], U]) -> SetTables[U]:
        """The same tables with every set replaced by ``to(set)``."""
        alone: tuple[U, ...] = _map_nested(self.jesters_alone, to)
        return SetTables(_map_nested(self.leads, to), _map_nested(self.follows, to), alone)


def _map_nested(table: Any, to: Callable[[CardSet], Any]) -> Any:
    if isinstance(table, CardSet):
        return to(table)
    if isinstance(table, tuple):
        return tuple(_map_nested(item, to) for item in table)
    return [_map_nested(item, to) for item in table]


SETS: SetTables[CardSet] = SetTables(_LEADS, _FOLLOWS, _JESTERS_ALONE)


def playable_sets(hand: Counts, to_beat: CardSet | None) -> list[CardSet]:
    """Every distinct set this hand may play: any set on a lead, a better one on a follow.

    Ordered best rank first, then by size, then by Jesters used, so that the list is
    stable for clients and bots. ``hand`` holds cards of one deck (at most twelve of a
    rank, two Jesters).
    """
    return playable(hand, to_beat, SETS, [])


def can_beat(hand: Counts, to_beat: CardSet) -> bool:
    """Whether ``playable_sets(hand, to_beat)`` lists any set, without listing them: the
    test ``playable`` makes first (a better rank held, with Jesters enough cards)."""
    if to_beat.count > LARGEST_SET:
        return False
    count, below = to_beat.count, to_beat.rank if to_beat.rank < JESTER else JESTER
    jesters = hand[JESTER]
    return below > 1 and max(hand[1:below]) >= (count - jesters if count > jesters else 1)


def playable(
    hand: Counts, to_beat: CardSet | None, tables: SetTables[T], options: list[T]
) -> list[T]:
    """``playable_sets`` as ``tables`` list them (sets or action ids), added to ``options``."""
    jesters = hand[JESTER]
    if to_beat is None:
        leads = tables.leads
        for rank in RANKS:
            held = hand[rank]
            if held:  # a rank not held leads nothing: skip its empty entry
                options += leads[rank][held][jesters]
        options += tables.jesters_alone[:jesters]
        return options
    if to_beat.count > LARGEST_SET:  # no hand of one deck makes a set that large
        return options
    count, below = to_beat.count, to_beat.rank if to_beat.rank < JESTER else JESTER
    # Most follows hold nothing that beats the top: one pass in C over the better ranks
    # says so (a set needs a natural card and, with the Jesters, ``count`` cards).
    naturals_needed = count - jesters if count > jesters else 1
    if below <= 1 or max(hand[1:below]) < naturals_needed:
        return options
    by_rank = tables.follows[count][jesters]
    for rank in range(1, below):
        held = hand[rank]
        if held:
            options += by_rank[rank][held]
    return options
