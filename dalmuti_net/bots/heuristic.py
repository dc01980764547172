"""A rule-of-thumb player: shed the worst sets first, keep the best ones to win the lead.

The plan behind every play: a hand is a handful of groups (all the cards of one rank),
and each group costs one play. Bad groups are played while leading or dumped on others'
tricks; groups nobody can beat are kept to take the lead back, and chained at the end.
Jesters are glue: they finish a set, and are led alone only when nothing else is left.
"""

from __future__ import annotations

from itertools import combinations

from ..engine import (
    JESTER,
    RANKS,
    Action,
    CardSet,
    Counts,
    Decision,
    Observation,
    actions,
)
from .reading import TableReading

STRONG_SAFETY = 0.5
"""A group at least this likely to go unbeaten is worth keeping to win a lead."""
CAPTURE_SAFETY = 0.8
"""A follow at least this likely to win the trick is worth a good card."""
EMPTIED_GROUP_MERIT = 6
"""Giving away every card of a rank saves a play: worth about this many ranks of badness."""
NEVER_TAXED_UP_TO = 2
"""Dalmutis keep their 1s and 2s (and Jesters) when they pay their Peon."""
EXCHANGE_FROM_RANK = 9
"""The top Merchant trades a lone card this bad or worse for a random one."""
GOOD_FOR_ME_UP_TO = 7
"""A misdealt card this good or better is one the Greater Dalmuti wants to keep."""
FEED_THE_PEON_UP_TO = 3
"""A misdealt card this good, sent to the Greater Peon, comes back to the GD as tax."""
FIRST_BELOW_DALMUTIS = 2
"""Seat position (GD = 0) from which a revolution pays: Merchants and Peons."""
CLOSE_TO_OUT = 3
"""An opponent with this many cards or fewer might go out on a lead of their size."""


def groups_of(hand: Counts) -> list[tuple[int, int]]:
    """(rank, count) for every rank held, Jesters left out."""
    return [(rank, hand[rank]) for rank in RANKS if hand[rank]]


class HeuristicBot:
    """Deterministic: the seed is accepted so that every strategy is made the same way."""

    name = "heuristic"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed

    def choose(self, observation: Observation, decision: Decision) -> Action:
        if isinstance(decision, actions.PlayDecision):
            return self._play(observation, decision)
        if isinstance(decision, actions.TaxDecision):
            return actions.GiveTax(tax_cards(decision))
        if isinstance(decision, actions.ExchangeDecision):
            return merchant_exchange(observation, decision)
        if isinstance(decision, actions.RevolutionDecision):
            return actions.DeclareRevolution(wants_revolution(observation, decision))
        if isinstance(decision, actions.MisdealDecision):
            return actions.DecideMisdeal(misdeal_choice(observation, decision))
        assert isinstance(decision, actions.PlacementDecision)
        # The newcomer starts as the lowest Merchant, so everyone else keeps their rank.
        return actions.PlaceNewcomer(max(decision.positions))

    def _play(self, observation: Observation, decision: actions.PlayDecision) -> Action:
        hand = observation.hand
        assert hand is not None, "a seat asked to play has been dealt cards"
        held = sum(hand)
        for candidate in decision.sets:
            if candidate.count == held:
                return actions.Play(candidate)
        reading = TableReading(observation, hand)
        if decision.to_beat is None:
            return actions.Play(choose_lead(hand, reading, decision.sets))
        follow = choose_follow(hand, reading, decision.sets)
        return actions.Pass() if follow is None else actions.Play(follow)


# ---------------------------------------------------------------------- play


def choose_lead(hand: Counts, reading: TableReading, options: tuple[CardSet, ...]) -> CardSet:
    """Lead the worst group; chain unbeatable groups once at most one other group is left.

    The groups are the engine's legal leads (``options``) that play a rank's whole group
    without Jesters; the Jesters alone when the hand holds nothing else.
    """
    whole = {
        (option.rank, option.count): option
        for option in options
        if option.rank != JESTER and option.jesters == 0 and option.count == hand[option.rank]
    }
    groups = list(whole)
    if not groups:
        return next(o for o in options if o.rank == JESTER and o.count == hand[JESTER])
    sure = [g for g in groups if not reading.could_be_beaten(*g)]
    unsure = [g for g in groups if g not in sure]
    if sure and len(unsure) <= 1:
        return whole[max(sure)]
    risky_sizes = {count for count in reading.opponents if count <= CLOSE_TO_OUT}

    def badness(group: tuple[int, int]) -> tuple[bool, int, int]:
        rank, size = group
        return (size not in risky_sizes, rank, size)

    return whole[max(unsure or groups, key=badness)]


def choose_follow(
    hand: Counts, reading: TableReading, options: tuple[CardSet, ...]
) -> CardSet | None:
    """The cheapest useful follow, or ``None`` to pass and keep the hand's shape."""
    whole: list[CardSet] = []
    glued: list[CardSet] = []
    splits: list[CardSet] = []
    for option in options:
        natural = option.count - option.jesters
        if natural == hand[option.rank]:
            (glued if option.jesters else whole).append(option)
        elif option.jesters == 0:
            splits.append(option)

    def strong(rank: int) -> bool:
        return rank <= NEVER_TAXED_UP_TO or reading.safety(rank, hand[rank]) >= STRONG_SAFETY

    dump = [s for s in whole if not strong(s.rank)]
    if dump:
        return max(dump)
    glue = [s for s in glued if not strong(s.rank) and worth_jesters(s)]
    if glue:
        return max(glue, key=lambda s: (-s.jesters, s.rank))
    if has_group_to_lead(hand, reading):
        captures = [s for s in whole + splits if reading.safety(s.rank, s.count) >= CAPTURE_SAFETY]
        if captures:
            return max(captures, key=lambda s: (s in whole, s.rank))
    loose = [
        s
        for s in splits
        if not strong(s.rank) and reading.safety(s.rank, hand[s.rank]) < STRONG_SAFETY
    ]
    if loose:
        return max(loose)
    return None


def worth_jesters(option: CardSet) -> bool:
    """One Jester may finish any weak set; both only to be rid of a really bad one."""
    return option.jesters == 1 or option.rank >= EXCHANGE_FROM_RANK


def has_group_to_lead(hand: Counts, reading: TableReading) -> bool:
    """Whether winning the lead would let this hand shed a group it cannot otherwise."""
    return any(reading.could_be_beaten(rank, size) for rank, size in groups_of(hand))


# ---------------------------------------------------------------------- before play


def tax_cards(decision: actions.TaxDecision) -> tuple[int, ...]:
    """Give away lone bad cards first; never Jesters, 1s or 2s while anything else is left."""
    hand = list(decision.hand)
    counts = [hand.count(card) for card in range(JESTER + 1)]
    for keep_above in (NEVER_TAXED_UP_TO, 0):
        pool = [card for card in hand if keep_above < card < JESTER]
        if len(pool) >= decision.count:
            break
    else:
        pool = hand

    def merit(given: tuple[int, ...]) -> int:
        emptied = sum(1 for card in set(given) if given.count(card) == counts[card])
        return EMPTIED_GROUP_MERIT * emptied + sum(given)

    return max(sorted(set(combinations(sorted(pool), decision.count))), key=merit)


def merchant_exchange(
    observation: Observation, decision: actions.ExchangeDecision
) -> actions.MerchantExchange:
    """Trade a lone bad card for a random one, with the best-scoring other Merchant."""
    hand = observation.hand
    assert hand is not None
    lone_bad = [
        card
        for card in decision.cards
        if card != JESTER and card >= EXCHANGE_FROM_RANK and hand[card] == 1
    ]
    if not lone_bad or not decision.merchants:
        return actions.MerchantExchange(None, None)
    other = max(decision.merchants, key=lambda p: observation.scores.get(p, 0))
    return actions.MerchantExchange(other, max(lone_bad))


def wants_revolution(observation: Observation, decision: actions.RevolutionDecision) -> bool:
    """Everyone below the Dalmutis gains when they skip their taxes.

    The Peons keep their best cards, and a Merchant keeps the Dalmutis, its rivals for
    the top places, from growing stronger; a Greater Peon also becomes Greater Dalmuti.
    """
    if decision.greater:
        return True
    order = observation.order
    me = observation.viewer
    return me in order and order.index(me) >= FIRST_BELOW_DALMUTIS


def misdeal_choice(
    observation: Observation, decision: actions.MisdealDecision
) -> actions.MisdealChoice:
    """Keep good cards for myself, Jesters away from the Peon, and feed the Peon my tax."""
    if decision.intended == observation.viewer:
        good = decision.card == JESTER or decision.card <= GOOD_FOR_ME_UP_TO
        return actions.MisdealChoice.INTENDED if good else actions.MisdealChoice.PEON
    if decision.card != JESTER and decision.card <= FEED_THE_PEON_UP_TO and observation.taxes:
        return actions.MisdealChoice.PEON
    return actions.MisdealChoice.INTENDED
