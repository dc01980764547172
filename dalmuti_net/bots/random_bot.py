"""A bot that picks uniformly among the legal answers: the baseline and the fuzzer."""

from __future__ import annotations

import random

from ..engine import (
    PASS,
    Action,
    DecideMisdeal,
    Decision,
    DeclareRevolution,
    ExchangeDecision,
    GiveTax,
    MerchantExchange,
    MisdealChoice,
    MisdealDecision,
    Observation,
    PlacementDecision,
    PlaceNewcomer,
    Play,
    PlayDecision,
    RevolutionDecision,
    TaxDecision,
)
from .base import SeededStrategy

MISDEAL_CHOICES = tuple(MisdealChoice)


class RandomBot(SeededStrategy):
    name = "random"

    def choose(self, observation: Observation, decision: Decision) -> Action:
        return random_answer(decision, self.rng)


def random_answer(decision: Decision, rng: random.Random) -> Action:
    """Any legal answer to ``decision``, drawn with ``rng``.

    A play is drawn uniformly among the legal sets and, when allowed, passing; only the
    chosen answer is built, since this sits on the benchmark's hot path.
    """
    if isinstance(decision, PlayDecision):
        sets = decision.sets
        index = rng.randrange(len(sets) + decision.may_pass)
        return Play(sets[index]) if index < len(sets) else PASS
    if isinstance(decision, TaxDecision):
        return GiveTax(tuple(rng.sample(decision.hand, decision.count)))
    if isinstance(decision, ExchangeDecision):
        if rng.random() < 0.25:
            return MerchantExchange(None, None)
        return MerchantExchange(rng.choice(decision.merchants), rng.choice(decision.cards))
    if isinstance(decision, RevolutionDecision):
        return DeclareRevolution(rng.random() < 0.5)
    if isinstance(decision, MisdealDecision):
        return DecideMisdeal(rng.choice(MISDEAL_CHOICES))
    assert isinstance(decision, PlacementDecision)
    return PlaceNewcomer(rng.choice(decision.positions))
