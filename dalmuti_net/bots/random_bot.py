"""A bot that picks uniformly among the legal answers: the baseline and the fuzzer."""

from __future__ import annotations

from ..engine import (
    Action,
    Decision,
    DeclareRevolution,
    DecideMisdeal,
    ExchangeDecision,
    GiveTax,
    MerchantExchange,
    MisdealChoice,
    MisdealDecision,
    Observation,
    Pass,
    PlaceNewcomer,
    PlacementDecision,
    Play,
    PlayDecision,
    RevolutionDecision,
    TaxDecision,
)
from .base import SeededStrategy


class RandomBot(SeededStrategy):
    name = "random"

    def choose(self, observation: Observation, decision: Decision) -> Action:
        return random_answer(decision, self.rng)


def random_answer(decision: Decision, rng: object) -> Action:
    """Any legal answer to ``decision``, drawn with ``rng`` (a ``random.Random``)."""
    import random as _random

    assert isinstance(rng, _random.Random)
    if isinstance(decision, PlayDecision):
        choices: list[Action] = [Play(s) for s in decision.sets]
        if decision.may_pass:
            choices.append(Pass())
        return rng.choice(choices)
    if isinstance(decision, TaxDecision):
        return GiveTax(tuple(rng.sample(decision.hand, decision.count)))
    if isinstance(decision, ExchangeDecision):
        if rng.random() < 0.25:
            return MerchantExchange(None, None)
        return MerchantExchange(rng.choice(decision.merchants), rng.choice(decision.cards))
    if isinstance(decision, RevolutionDecision):
        return DeclareRevolution(rng.random() < 0.5)
    if isinstance(decision, MisdealDecision):
        return DecideMisdeal(rng.choice(list(MisdealChoice)))
    assert isinstance(decision, PlacementDecision)
    return PlaceNewcomer(rng.choice(decision.positions))
