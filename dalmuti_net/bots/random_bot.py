"""A bot that picks uniformly among the legal answers: the baseline and the fuzzer."""

from __future__ import annotations

import random

from ..engine import (
    PASS,
    Action,
    Decision,
    Observation,
    actions,
)
from .base import SeededStrategy

MISDEAL_CHOICES = tuple(actions.MisdealChoice)


class RandomBot(SeededStrategy):
    name = "random"

    def choose(self, observation: Observation, decision: Decision) -> Action:
        return random_answer(decision, self.rng)


def random_answer(decision: Decision, rng: random.Random) -> Action:
    """Any legal answer to ``decision``, drawn with ``rng``.

    A play is drawn uniformly among the legal sets and, when allowed, passing; only the
    chosen answer is built, since this sits on the benchmark's hot path.
    """
    if isinstance(decision, actions.PlayDecision):
        sets = decision.sets
        index = rng.randrange(len(sets) + decision.may_pass)
        return actions.Play(sets[index]) if index < len(sets) else PASS
    if isinstance(decision, actions.TaxDecision):
        return actions.GiveTax(tuple(rng.sample(decision.hand, decision.count)))
    if isinstance(decision, actions.ExchangeDecision):
        if rng.random() < 0.25:
            return actions.MerchantExchange(None, None)
        return actions.MerchantExchange(rng.choice(decision.merchants), rng.choice(decision.cards))
    if isinstance(decision, actions.RevolutionDecision):
        return actions.DeclareRevolution(rng.random() < 0.5)
    if isinstance(decision, actions.MisdealDecision):
        return actions.DecideMisdeal(rng.choice(MISDEAL_CHOICES))
    assert isinstance(decision, actions.PlacementDecision)
    return actions.PlaceNewcomer(rng.choice(decision.positions))
