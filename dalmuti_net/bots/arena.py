"""Bots play each other offline: the core of `dalmuti sim` and of the bot tests.

Each table is driven only through the game's public API, the way the host drives it, and
each bot is shown only its own seat's view: one ``Observation`` per seat, folded event by
event from what that seat may see (``can_see``). A table ends at its hand limit, so as
many tables are dealt as it takes to play the hands asked for.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, fields, replace

from ..engine import (
    Action,
    Decision,
    Event,
    Game,
    IllegalAction,
    Observation,
    Phase,
    Rules,
    can_see,
)
from ..engine.events import (
    HandEnded,
    MerchantExchangeCards,
    MerchantExchangeDeclined,
    MisdealExposed,
    RevolutionDeclared,
)
from ..told import N_, Told
from . import Strategy, make_strategy

TABLE_HANDS_WITHOUT_LIMIT = 20
"""How long a table lasts when the rules set no hand limit (scoring off)."""


class StrategyError(Told):
    """A strategy answered a decision with something the game refused."""


REFUSED = N_(
    "strategy {name} (player {player}) answered {decision} with {action}, which the game "
    "refused: {reason}"
)
FAILED = N_("strategy {name} (player {player}) failed on {decision}: {error}")
"""A strategy's own error (a package.module:attr of someone's): told, not a traceback."""


def answer(bot: Strategy, player: int, observation: Observation, decision: Decision) -> Action:
    """``bot``'s answer; its failure a ``StrategyError`` (sim prints it as one line)."""
    try:
        return bot.choose(observation, decision)
    except Exception as error:
        raise StrategyError(
            FAILED,
            name=repr(bot.name),
            player=player,
            decision=type(decision).__name__,
            error=f"{type(error).__name__}: {error}",
        ) from error


@dataclass
class Tally:
    """One entrant's record over every hand it played."""

    strategy: str
    hands: int = 0
    place_total: int = 0
    points: int = 0
    greater_dalmuti: int = 0
    greater_peon: int = 0
    revolutions: int = 0
    exchanges: int = 0

    def add(self, other: Tally) -> None:
        for counter in fields(self)[1:]:
            setattr(self, counter.name, getattr(self, counter.name) + getattr(other, counter.name))


@dataclass
class ArenaResult:
    entrants: list[Tally]
    scoring: bool
    tables: int = 0
    hands: int = 0
    revolutions: int = 0
    greater_revolutions: int = 0
    misdeals: int = 0
    exchanges: int = 0
    exchanges_declined: int = 0
    by_strategy: dict[str, Tally] = field(default_factory=dict)
    per_table: list[dict[str, Tally]] = field(default_factory=list)
    """Each table's own record by strategy, in order: the samples for confidence intervals."""


@dataclass(frozen=True)
class TablePlan:
    """One seeded table: the unit of work, the same whether one process plays every table
    or many share them (or, later, a cluster's workers)."""

    index: int
    game_seed: int
    seats: tuple[tuple[int, int, int], ...]
    """(player, entrant index, bot seed) for each seat."""
    hands: int
    """Hands this table plays (its hand limit, or what is left of the total)."""


def plan_tables(
    entrants: list[str], rules: Rules, hands: int, seed: int, rotate: bool = False
) -> list[TablePlan]:
    """Every table ``simulate`` plays, with its seeds, drawn from one master seed in order."""
    limit = rules.hand_limit or TABLE_HANDS_WITHOUT_LIMIT
    seats = len(entrants)
    master = random.Random(seed)
    game_seed = 0
    plans = []
    for table in range(math.ceil(hands / limit)):
        if not rotate or table % seats == 0:
            game_seed = master.getrandbits(32)
        shift = table % seats if rotate else 0
        # Entrant i plays as player (i + shift) % seats.
        entrant_of = {(i + shift) % seats: i for i in range(seats)}
        placed = tuple((player, i, master.getrandbits(32)) for player, i in entrant_of.items())
        plans.append(TablePlan(table, game_seed, placed, min(limit, hands - table * limit)))
    return plans


def simulate(
    entrants: list[str],
    rules: Rules,
    hands: int,
    seed: int,
    rotate: bool = False,
    on_hand: Callable[[], None] | None = None,
    jobs: int = 1,
) -> ArenaResult:
    """Play ``hands`` hands with one strategy per entrant; deterministic given ``seed``,
    and the same for any number of ``jobs`` (processes sharing the tables)."""
    if rules.hand_limit is None:
        rules = replace(rules, hand_limit=TABLE_HANDS_WITHOUT_LIMIT)
    plans = plan_tables(entrants, rules, hands, seed, rotate)
    result = ArenaResult([Tally(name) for name in entrants], scoring=rules.scoring)
    units = [(plan, entrants, rules) for plan in plans]
    if jobs > 1 and len(plans) > 1:
        from .parallel import play_in_processes

        outcomes = play_in_processes(_play_unit, units, min(jobs, len(plans)), on_hand)
    else:
        outcomes = (_play_unit(unit, on_hand) for unit in units)
    for outcome in outcomes:
        merge_table(result, outcome)
    for tally in result.entrants:
        result.by_strategy.setdefault(tally.strategy, Tally(tally.strategy)).add(tally)
    return result


def _play_unit(
    unit: tuple[TablePlan, list[str], Rules], on_hand: Callable[[], None] | None
) -> ArenaResult:
    return play_planned_table(*unit, on_hand)


def play_planned_table(
    plan: TablePlan, entrants: list[str], rules: Rules, on_hand: Callable[[], None] | None
) -> ArenaResult:
    """One table's own result (its entrants' tallies, its counts)."""
    outcome = ArenaResult([Tally(name) for name in entrants], scoring=rules.scoring)
    bots = {player: make_strategy(entrants[i], bot_seed) for player, i, bot_seed in plan.seats}
    entrant_of = {player: i for player, i, _ in plan.seats}
    _play_table(bots, entrant_of, rules, plan.game_seed, plan.hands, outcome, on_hand)
    outcome.tables = 1
    return outcome


def merge_table(result: ArenaResult, table: ArenaResult) -> None:
    """Add one table's outcome to the whole run's, in table order."""
    for mine, theirs in zip(result.entrants, table.entrants, strict=True):
        mine.add(theirs)
    for counter in ("tables", "hands", "revolutions", "greater_revolutions", "misdeals"):
        setattr(result, counter, getattr(result, counter) + getattr(table, counter))
    result.exchanges += table.exchanges
    result.exchanges_declined += table.exchanges_declined
    result.per_table.append(
        _table_record([Tally(t.strategy) for t in table.entrants], table.entrants)
    )


def _table_record(before: list[Tally], after: list[Tally]) -> dict[str, Tally]:
    """What each strategy did at one table: its tallies after it, less those before."""
    record: dict[str, Tally] = {}
    for then, now in zip(before, after, strict=True):
        table = record.setdefault(now.strategy, Tally(now.strategy))
        for counter in fields(Tally)[1:]:
            done = getattr(now, counter.name) - getattr(then, counter.name)
            setattr(table, counter.name, getattr(table, counter.name) + done)
    return record


def _play_table(
    bots: dict[int, Strategy],
    entrant_of: dict[int, int],
    rules: Rules,
    seed: int,
    hands: int,
    result: ArenaResult,
    on_hand: Callable[[], None] | None,
) -> None:
    players = sorted(bots)
    game = Game(players, rules, seed)
    observations = {player: Observation(player) for player in players}

    def deliver(events: Iterable[Event]) -> None:
        for event in events:
            for player in players:
                if can_see(event, player):
                    observations[player].apply(event)
            if _record(event, entrant_of, result) and on_hand is not None:
                on_hand()

    deliver(game.start())
    while game.phase is not Phase.ENDED and result.hands < hands:
        if game.phase is Phase.HAND_OVER:
            deliver(game.begin_next_hand())
            continue
        player, decision = next(iter(game.pending().items()))
        action = answer(bots[player], player, observations[player], decision)
        try:
            events = game.apply(player, action)
        except IllegalAction as error:
            name = bots[player].name
            raise StrategyError(
                REFUSED,
                name=repr(name),
                player=player,
                decision=repr(decision),
                action=repr(action),
                reason=error.message,
            ) from error
        deliver(events)


def _record(event: Event, entrant_of: dict[int, int], result: ArenaResult) -> bool:
    """Count what ``event`` says; true when it ends a hand."""
    tallies = result.entrants
    if isinstance(event, HandEnded):
        result.hands += 1
        last = len(event.finishing)
        for place, (player, points, bonus) in enumerate(
            zip(event.finishing, event.points, event.bonus, strict=True), start=1
        ):
            tally = tallies[entrant_of[player]]
            tally.hands += 1
            tally.place_total += place
            tally.points += points + bonus
            tally.greater_dalmuti += place == 1
            tally.greater_peon += place == last
        return True
    if isinstance(event, RevolutionDeclared):
        result.revolutions += 1
        result.greater_revolutions += event.greater
        tallies[entrant_of[event.player]].revolutions += 1
    elif isinstance(event, MisdealExposed):
        result.misdeals += 1
    elif isinstance(event, MerchantExchangeCards):
        result.exchanges += 1
        tallies[entrant_of[event.giver]].exchanges += 1
        tallies[entrant_of[event.other]].exchanges += 1
    elif isinstance(event, MerchantExchangeDeclined):
        result.exchanges_declined += 1
    return False
