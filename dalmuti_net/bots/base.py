"""What a bot is: a choice of action from what its seat knows and the decision it owes."""

from __future__ import annotations

import random
from typing import Protocol

from ..engine import Action, Decision, Observation


class Strategy(Protocol):
    """A bot. It is given only its own seat's observation, never the game itself."""

    name: str

    def choose(self, observation: Observation, decision: Decision) -> Action: ...


class SeededStrategy:
    """Base for strategies that draw random numbers: one ``random.Random`` of their own."""

    name = "seeded"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)
