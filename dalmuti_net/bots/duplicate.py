"""Strength on duplicate deals: every deal played once per rotation of the strategies.

A deal is one seeded hand from a fresh table: the same seating draw and the same cards
each time (the seed fixes them before any bot answers). It is played once per rotation:
in rotation r, player p plays strategy ``entrants[(p + r) % N]``, so over the N rotations
every strategy sits in every seat and holds every hand of that deal, and the luck of the
cards cancels. Each deal (all its rotations) is one unit of work, seeded from the master
seed in order, so any number of processes gives the same result.

Per strategy and deal, the sample is its average over the hands it played in that deal;
the 95% confidence intervals are over deals (Student's t), and a strategy's margin over
another is the paired difference of those averages, deal by deal.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from ..engine import Game, IllegalAction, Phase, Rules
from ..engine.events import HandEnded
from . import make_strategy
from .arena import REFUSED, StrategyError, answer


@dataclass(frozen=True)
class DealPlan:
    index: int
    seed: int
    bot_seeds: tuple[tuple[int, ...], ...]
    """Per rotation, each player's bot seed."""


@dataclass
class StrategyDeal:
    """One strategy's hands in one deal, summed over its seats and rotations."""

    hands: int = 0
    points: int = 0
    places: int = 0
    greater_dalmuti: int = 0


@dataclass
class DealOutcome:
    index: int
    by_strategy: dict[str, StrategyDeal]
    played: list[tuple[int, tuple[str, ...]]]
    """(rotation, strategy of each player) for every hand played: the bookkeeping."""


@dataclass
class DuplicateResult:
    players: int
    entrants: list[str]
    deals: list[DealOutcome] = field(default_factory=list)


def plan_deals(players: int, deals: int, seed: int) -> list[DealPlan]:
    master = random.Random(seed)
    plans = []
    for index in range(deals):
        deal_seed = master.getrandbits(32)
        bots = tuple(tuple(master.getrandbits(32) for _ in range(players)) for _ in range(players))
        plans.append(DealPlan(index, deal_seed, bots))
    return plans


def play_deal(
    plan: DealPlan, entrants: list[str], rules: Rules, on_hand: Callable[[], None] | None
) -> DealOutcome:
    """Every rotation of one deal."""
    players = len(entrants)
    one_hand = replace(rules, hand_limit=1)
    outcome = DealOutcome(plan.index, {name: StrategyDeal() for name in entrants}, [])
    for rotation in range(players):
        strategy_of = tuple(entrants[(p + rotation) % players] for p in range(players))
        bots = {
            p: make_strategy(strategy_of[p], plan.bot_seeds[rotation][p]) for p in range(players)
        }
        game = Game(list(range(players)), one_hand, plan.seed)
        views = {p: game.observation(p) for p in range(players)}
        game.start()
        while game.phase is not Phase.ENDED:
            player, decision = next(iter(game.pending().items()))
            action = answer(bots[player], player, views[player], decision)
            try:
                game.apply(player, action)
            except IllegalAction as error:
                raise StrategyError(
                    REFUSED,
                    name=repr(bots[player].name),
                    player=player,
                    decision=repr(decision),
                    action=repr(action),
                    reason=error.message,
                ) from error
        ended = next(e for e in reversed(game.log) if isinstance(e, HandEnded))
        points = game.returns()
        for place, player in enumerate(ended.finishing, start=1):
            tally = outcome.by_strategy[strategy_of[player]]
            tally.hands += 1
            tally.points += points[player]
            tally.places += place
            tally.greater_dalmuti += place == 1
        outcome.played.append((rotation, strategy_of))
        if on_hand is not None:
            on_hand()
    return outcome


def _play_unit(
    unit: tuple[DealPlan, list[str], Rules], on_hand: Callable[[], None] | None
) -> DealOutcome:
    return play_deal(*unit, on_hand)


def play_duplicate(
    entrants: list[str],
    rules: Rules,
    deals: int,
    seed: int,
    on_hand: Callable[[], None] | None = None,
    jobs: int = 1,
) -> DuplicateResult:
    """``deals`` deals, each played once per rotation; the same for any ``jobs``."""
    plans = plan_deals(len(entrants), deals, seed)
    units = [(plan, entrants, rules) for plan in plans]
    if jobs > 1 and len(units) > 1:
        from .parallel import play_in_processes

        outcomes = list(play_in_processes(_play_unit, units, min(jobs, len(units)), on_hand))
    else:
        outcomes = [_play_unit(unit, on_hand) for unit in units]
    return DuplicateResult(len(entrants), entrants, outcomes)


# ---------------------------------------------------------------------- the report


def per_deal(result: DuplicateResult, name: str, figure: str) -> list[float]:
    samples = []
    for deal in result.deals:
        tally = deal.by_strategy[name]
        value = {
            "points": tally.points,
            "place": tally.places,
            "gd": tally.greater_dalmuti,
        }[figure]
        samples.append(value / tally.hands)
    return samples
