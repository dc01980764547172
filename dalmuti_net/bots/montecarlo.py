"""A strong player: determinized Monte Carlo search over the heuristic bot's own play.

At each real choice of play the bot asks the engine for a game consistent with everything
its seat knows (``Game.from_observation``: card counts, every card played and by whom, the
cards of the tax, exchange and misdeal transfers it saw, a declared revolution's two
Jesters), then plays the hand out on a clone once per candidate move through the engine's
fast path (its legal sets, answers by id with ``step``, ``returns``: no events, no
observations), everyone playing as the heuristic bot: no rule is implemented here.
The move that finished best on average over the sampled deals is played. Candidates are
thinned by successive halving, so the budget goes to the moves that look best.

It sees only its ``Observation``: the deals it samples are guesses, never the real hands.
Every other decision (taxes, revolution, exchange, misdeal, placement) is the heuristic's.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from operator import sub

from ..engine import (
    JESTER,
    Action,
    CardSet,
    Counts,
    Decision,
    Game,
    Observation,
    Pass,
    Phase,
    Play,
    PlayDecision,
)
from ..engine.cards import EMPTY, can_beat, playable_sets
from ..engine.encoding import PASS_ID, play_id
from ..engine.game import place_points
from .base import SeededStrategy
from .heuristic import HeuristicBot, choose_follow, choose_lead
from .reading import TableReading, deck_composition

DEFAULT_TIME_BUDGET = 0.15
"""Seconds per real choice when no rollout count is given: the playouts on the engine's
fast path make as many rollouts in 0.15 s as the object API made in 0.3 s (bench/README.md),
so the bot is as strong as it was and a table waits half as long for it."""
MAX_CANDIDATES = 12
"""Moves weighed at one choice; the heuristic's own move is always among them."""
HEURISTIC_TIE_BREAK = 0.01
"""Points per hand a move must gain over the heuristic's own move to replace it."""

Move = CardSet | None
"""A set to play, or ``None`` to pass."""


# ---------------------------------------------------------------------- the strategy


@dataclass
class SearchReport:
    """How the last real choice was made: for tests, benchmarks and the curious."""

    candidates: tuple[Move, ...]
    means: dict[Move, float]
    rollouts: int
    seconds: float
    chosen: Move


class MonteCarloBot(SeededStrategy):
    """``rollouts`` caps the playouts per choice (deterministic given the seed);
    ``time_budget`` caps the seconds per choice. Give either or both."""

    name = "montecarlo"

    def __init__(
        self,
        seed: int | None = None,
        *,
        rollouts: int | None = None,
        time_budget: float | None = DEFAULT_TIME_BUDGET,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        if rollouts is None and time_budget is None:
            raise ValueError("give a rollout count, a time budget, or both")
        if rollouts is not None and rollouts < 1:
            raise ValueError(f"rollouts must be at least 1, not {rollouts}")
        if time_budget is not None and time_budget <= 0:
            raise ValueError(f"time_budget must be a positive number of seconds, not {time_budget}")
        super().__init__(seed)
        self.rollouts = rollouts
        self.time_budget = time_budget
        self.clock = clock
        self.heuristic = HeuristicBot(seed)
        self.last_search: SearchReport | None = None

    def choose(self, observation: Observation, decision: Decision) -> Action:
        if not isinstance(decision, PlayDecision):
            return self.heuristic.choose(observation, decision)
        hand = observation.hand
        assert hand is not None, "a seat asked to play has been dealt cards"
        held = sum(hand)
        for option in decision.sets:
            if option.count == held:
                return Play(option)  # going out now is never worse than later
        fallback = self.heuristic.choose(observation, decision)
        preferred: Move = fallback.set if isinstance(fallback, Play) else None
        candidates = candidate_moves(hand, decision, preferred)
        if len(candidates) == 1:
            return fallback
        move = self._search(observation, candidates)
        return Pass() if move is None else Play(move)

    def _search(self, observation: Observation, candidates: list[Move]) -> Move:
        started = self.clock()
        if self.rollouts is not None:
            candidates = candidates[: self.rollouts]
        search = Search(observation, self.rng, candidates, self._out_of_time(started))
        # Successive halving: equal shares of the budget per round, the better half kept.
        rounds = max(1, math.ceil(math.log2(len(candidates))))
        if search.play_deal():
            for round_index in range(rounds):
                total = self._planned_rollouts(started, search.rollouts)
                share = (total - search.rollouts) // (rounds - round_index)
                for _ in range(share // len(search.survivors)):
                    if search.rollouts + len(search.survivors) > total or not search.play_deal():
                        break
                search.halve()
                if len(search.survivors) == 1 or search.stopped:
                    break
        chosen = search.best()
        self.last_search = SearchReport(
            candidates=tuple(candidates),
            means=search.means(),
            rollouts=search.rollouts,
            seconds=self.clock() - started,
            chosen=chosen,
        )
        return chosen

    def _out_of_time(self, started: float) -> Callable[[], bool]:
        if self.time_budget is None:
            return lambda: False
        deadline = started + self.time_budget
        return lambda: self.clock() >= deadline

    def _planned_rollouts(self, started: float, done: int) -> int:
        """The rollouts this choice may make in all: the count given, or as many as the
        time budget allows at the pace so far, whichever is less."""
        planned = self.rollouts
        if self.time_budget is not None:
            spent = max(self.clock() - started, 1e-6)
            by_time = int(done * self.time_budget / spent)
            planned = by_time if planned is None else min(planned, by_time)
        assert planned is not None
        return planned


class Search:
    """The moves still in the running and their total points over the same sampled deals."""

    def __init__(
        self,
        observation: Observation,
        rng: random.Random,
        candidates: list[Move],
        out_of_time: Callable[[], bool],
    ) -> None:
        self.observation = observation
        self.rng = rng
        self.preferred = candidates[0]
        self.survivors = list(candidates)
        self.totals = dict.fromkeys(candidates, 0.0)
        self.deals = 0
        self.rollouts = 0
        self.stopped = False
        self._out_of_time = out_of_time

    def play_deal(self) -> bool:
        """Play every surviving move out on one more sampled deal; False once time is up
        (a deal cut short is dropped: it would favour the moves played out first)."""
        if self.stopped or self._out_of_time():
            self.stopped = True
            return False
        guess = Guess(Game.from_observation(self.observation, self.rng))
        results = []
        for move in self.survivors:
            results.append(guess.play_out(move))
            self.rollouts += 1
            if self._out_of_time() and len(results) < len(self.survivors):
                self.stopped = True
                return False
        for move, points in zip(self.survivors, results, strict=True):
            self.totals[move] += points
        self.deals += 1
        return True

    def _score(self, move: Move) -> float:
        bonus = HEURISTIC_TIE_BREAK * self.deals if move == self.preferred else 0.0
        return self.totals[move] + bonus

    def halve(self) -> None:
        ranked = sorted(self.survivors, key=self._score, reverse=True)
        self.survivors = ranked[: math.ceil(len(ranked) / 2)]

    def best(self) -> Move:
        if self.deals == 0:
            return self.preferred
        return max(self.survivors, key=self._score)

    def means(self) -> dict[Move, float]:
        return {move: self.totals[move] / max(self.deals, 1) for move in self.survivors}


def candidate_moves(hand: Counts, decision: PlayDecision, preferred: Move) -> list[Move]:
    """The moves worth weighing, the heuristic's first.

    On a lead: each rank's whole group, alone or stretched with Jesters, and the Jesters
    alone (leading part of a group only adds a play). On a follow: passing and every
    legal set. Past ``MAX_CANDIDATES`` the least likely are left out: sets spending more
    Jesters first, then the better ranks (good cards are rarely worth spending early).
    """
    moves: list[Move] = [preferred]
    options: list[CardSet]
    if decision.to_beat is None:
        options = [
            option
            for option in decision.sets
            if option.rank == JESTER or option.count - option.jesters == hand[option.rank]
        ]
    else:
        moves.append(None)
        options = list(decision.sets)
    options.sort(key=lambda option: (option.jesters, -option.rank))
    moves.extend(options)
    unique = list(dict.fromkeys(moves))
    return unique[:MAX_CANDIDATES]


# ---------------------------------------------------------------------- playing out


class RolloutReading(TableReading):
    """The heuristic's table reading, built straight from a playout's public view."""

    def __init__(
        self, hand: Counts, opponents: tuple[int, ...], hidden: tuple[int, ...], deck: Counts
    ) -> None:
        self.hand = hand
        self.opponents = opponents
        self.hidden = hidden
        self.hidden_total = sum(opponents)
        self.deck = deck
        self._rank_safety = {}


class Guess:
    """One sampled deal (a whole game from the engine), played out once per move.

    The playouts go through the engine's fast path (``legal`` sets by ``playable_sets``,
    answers by id with ``step``, no events, no observations): each seat's hand and the
    cards played are followed here from the moves made, as each seat's own observation
    would follow them.
    """

    def __init__(self, game: Game) -> None:
        self.game = game
        assert game.turn is not None
        self.me = game.turn
        self.order = game.order
        self.hands = {p: game.observation(p).hand or EMPTY for p in game.order}
        public = game.observation(None)
        self.played = public.played
        self.deck = deck_composition(sum(public.counts.values()) + sum(public.played))

    def play_out(self, move: Move) -> float:
        """This seat's points for the hand (``returns``) if it makes ``move`` now and
        everyone then plays as the heuristic bot, on a clone of the sampled game."""
        game = self.game.clone(observations=())
        me = self.me
        before = game.returns()[me]
        hands = dict(self.hands)
        counts = {p: sum(hand) for p, hand in hands.items()}
        # Cards no seat has seen played: a seat's unseen cards are these less its hand.
        unplayed = [d - p for d, p in zip(self.deck, self.played, strict=True)]
        player = me
        while True:
            if move is None:
                game.step(PASS_ID)
            else:
                game.step(play_id(move))
                hands[player] = _without(hands[player], move)
                counts[player] -= move.count
                unplayed[move.rank] -= move.count - move.jesters
                unplayed[JESTER] -= move.jesters
            if game.phase is not Phase.PLAY:
                break
            if me in game.out:
                # The sampled game scores places only (rule 15, no rule 16): the rest of
                # the hand cannot change this seat's points, so stop here.
                return float(place_points(game.out.index(me), len(self.order)))
            turn = game.turn
            assert turn is not None
            player = turn
            move = self._policy(player, hands, counts, unplayed, game.top)
        return float(game.returns()[me] - before)

    def _policy(
        self,
        player: int,
        hands: dict[int, Counts],
        counts: dict[int, int],
        unplayed: list[int],
        top: CardSet | None,
    ) -> Move:
        """The heuristic bot's move, from what that seat would see."""
        hand = hands[player]
        if top is not None and not can_beat(hand, top):
            return None  # most follows: nothing to decide
        options = tuple(playable_sets(hand, top))
        held = counts[player]
        for option in options:
            if option.count == held:
                return option
        opponents = tuple(count for o in self.order if o != player and (count := counts[o]))
        # Never below 0: the sampled hands are drawn from the cards not played.
        hidden = tuple(map(sub, unplayed, hand))
        reading = RolloutReading(hand, opponents, hidden, self.deck)
        if top is None:
            return choose_lead(hand, reading, options)
        return choose_follow(hand, reading, options)


def _without(hand: Counts, played: CardSet) -> Counts:
    left = list(hand)
    left[played.rank] -= played.count - played.jesters
    left[JESTER] -= played.jesters
    return tuple(left)


# ---------------------------------------------------------------------- ready-made budgets


def with_rollouts(rollouts: int) -> Callable[[int | None], MonteCarloBot]:
    """A strategy factory for a fixed number of rollouts per choice and no clock."""

    def factory(seed: int | None) -> MonteCarloBot:
        return MonteCarloBot(seed, rollouts=rollouts, time_budget=None)

    return factory


fixed_100 = with_rollouts(100)
"""For `dalmuti sim --strategies dalmuti_net.bots.montecarlo:fixed_100,...`: reproducible."""
fixed_300 = with_rollouts(300)


def with_time_budget(
    seconds: float, clock: Callable[[], float] = time.perf_counter
) -> Callable[[int | None], MonteCarloBot]:
    """A strategy factory for a time budget per choice (as the registered ``montecarlo``):
    seconds on the wall clock, or on ``clock`` (``time.process_time``: this process's CPU
    time, so that a machine shared with other work does not cut the search short)."""

    def factory(seed: int | None) -> MonteCarloBot:
        return MonteCarloBot(seed, time_budget=seconds, clock=clock)

    return factory


budget_100ms = with_time_budget(0.1)
"""For `dalmuti sim --strategies dalmuti_net.bots.montecarlo:budget_100ms,...`: 0.1 s a choice."""
cpu_100ms = with_time_budget(0.1, time.process_time)
"""0.1 s of this process's CPU time a choice: for measuring strength on a busy machine."""
cpu_150ms = with_time_budget(0.15, time.process_time)
"""0.15 s of this process's CPU time a choice (the registered bot's budget, on CPU time)."""
cpu_300ms = with_time_budget(0.3, time.process_time)
"""0.3 s of this process's CPU time a choice."""
