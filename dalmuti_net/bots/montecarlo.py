"""A strong player: determinized Monte Carlo search over the heuristic bot's own play.

At each real choice of play the bot deals the cards it cannot see to the other players, in
a way consistent with everything its seat knows (card counts, every card played, the cards
of the tax, exchange and misdeal transfers it saw, a declared revolution's two Jesters),
then plays the hand out once per candidate move, everyone playing as the heuristic bot.
The move that finished best on average over the sampled deals is played. Candidates are
thinned by successive halving, so the budget goes to the moves that look best.

It sees only its ``Observation``: the deals it samples are guesses, never the real hands.
Every other decision (taxes, revolution, exchange, misdeal, placement) is the heuristic's.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ..engine import (
    JESTER,
    Action,
    CardSet,
    Counts,
    Decision,
    Observation,
    Pass,
    Play,
    PlayDecision,
)
from ..engine.cards import add, playable_sets
from ..engine.events import MerchantExchangeCards, MisdealReplacement, TaxCards
from .base import SeededStrategy
from .heuristic import HeuristicBot, choose_follow, choose_lead
from .reading import TableReading, deck_composition

DEFAULT_TIME_BUDGET = 0.3
"""Seconds per real choice when no rollout count is given."""
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
        self.memory = PlayMemory()
        self.last_search: SearchReport | None = None

    def choose(self, observation: Observation, decision: Decision) -> Action:
        if not isinstance(decision, PlayDecision):
            return self.heuristic.choose(observation, decision)
        self.memory.update(observation)
        hand = observation.hand
        assert hand is not None, "a seat asked to play has been dealt cards"
        held = sum(hand)
        for option in decision.sets:
            if option.count == held:
                self.memory.note_own_play(option)
                return Play(option)  # going out now is never worse than later
        fallback = self.heuristic.choose(observation, decision)
        preferred: Move = fallback.set if isinstance(fallback, Play) else None
        candidates = candidate_moves(hand, decision, preferred)
        if len(candidates) == 1:
            if preferred is not None:
                self.memory.note_own_play(preferred)
            return fallback
        move = self._search(observation, hand, candidates)
        if move is None:
            return Pass()
        self.memory.note_own_play(move)
        return Play(move)

    def _search(self, observation: Observation, hand: Counts, candidates: list[Move]) -> Move:
        started = self.clock()
        if self.rollouts is not None:
            candidates = candidates[: self.rollouts]
        table = TableState.from_observation(observation, hand)
        sampler = DealSampler(table, seat_knowledge(observation, self.memory), self.rng)
        search = Search(table, sampler, candidates, self._out_of_time(started))
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
        table: TableState,
        sampler: DealSampler,
        candidates: list[Move],
        out_of_time: Callable[[], bool],
    ) -> None:
        self.table = table
        self.sampler = sampler
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
        hands = self.sampler.sample()
        results = []
        for move in self.survivors:
            results.append(self.table.play_out(hands, move))
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


# ---------------------------------------------------------------------- what was played


@dataclass
class PlayMemory:
    """Who played which cards this hand, pieced together from the trick at each choice.

    Between two of this seat's turns every other play is still in the trick shown at the
    second turn: a trick cannot end after another play without this seat passing on it.
    Its own plays are noted as it makes them. The cards counted must add up to the table's
    played cards; if they do not (a snapshot after a reconnect, say), the memory says it
    is not ``complete`` for the rest of the hand.
    """

    viewer: int | None = None
    hand_number: int = -1
    played: Counts = (0,) * 14
    trick: list[tuple[int, CardSet]] = field(default_factory=list)
    by_player: dict[int, list[int]] = field(default_factory=dict)
    complete: bool = True

    def update(self, observation: Observation) -> None:
        if observation.hand_number != self.hand_number or observation.viewer != self.viewer:
            self.viewer, self.hand_number = observation.viewer, observation.hand_number
            self.played, self.trick, self.by_player = (0,) * 14, [], {}
            self.complete = True
        delta = [now - before for now, before in zip(observation.played, self.played, strict=True)]
        trick = list(observation.trick)
        new: list[tuple[int, CardSet]] | None = None
        if trick[: len(self.trick)] == self.trick and _cards_in(trick[len(self.trick) :]) == delta:
            new = trick[len(self.trick) :]
        elif _cards_in(trick) == delta:
            new = trick
        if new is None:
            self.complete = False
        else:
            for player, played in new:
                counts = self.by_player.setdefault(player, [0] * 14)
                for card in played.cards():
                    counts[card] += 1
        self.played, self.trick = observation.played, trick

    def note_own_play(self, played: CardSet) -> None:
        """This seat's own play: it joins the trick after the turn, unseen by ``update``."""
        if self.viewer is None:
            return
        self.trick.append((self.viewer, played))
        self.played = add(self.played, played.cards())
        counts = self.by_player.setdefault(self.viewer, [0] * 14)
        for card in played.cards():
            counts[card] += 1

    def played_by(self, player: int) -> Sequence[int]:
        return self.by_player.get(player, (0,) * 14)


def _cards_in(plays: list[tuple[int, CardSet]]) -> list[int]:
    counts = [0] * 14
    for _, played in plays:
        for card in played.cards():
            counts[card] += 1
    return counts


# ---------------------------------------------------------------------- what is known


@dataclass
class Knowledge:
    """What this seat knows of one other player's hand.

    ``known`` counts cards they surely hold (they were seen going to them and have not
    been played by them since). Every other card they hold is at least as bad as ``floor``
    (a card number, Jesters counting worst): they paid their best cards as tax to this seat.
    """

    known: list[int] = field(default_factory=lambda: [0] * 14)
    floor: int = 1


def seat_knowledge(observation: Observation, memory: PlayMemory) -> dict[int, Knowledge]:
    """What the seat knows of each other player's cards, from its own observation only."""
    me = observation.viewer
    order = observation.order
    knowledge: dict[int, Knowledge] = {}

    def of(player: int) -> Knowledge:
        return knowledge.setdefault(player, Knowledge())

    def surely_holds(player: int, cards: Sequence[int]) -> None:
        if player != me:
            for card in cards:
                of(player).known[card] += 1

    if observation.revolution is not None:
        surely_holds(observation.revolution.player, (JESTER, JESTER))
    misdeal = observation.misdeal_result
    if misdeal is not None:
        holder = misdeal.intended if misdeal.choice == "intended" else misdeal.peon
        surely_holds(holder, (misdeal.card,))
    peons = set(order[-2:]) if len(order) >= 4 else set()
    for transfer in observation.transfers:
        if isinstance(transfer, TaxCards):
            if transfer.giver == me:
                surely_holds(transfer.receiver, transfer.cards)
            elif transfer.receiver == me and transfer.giver in peons:
                # A Peon pays their best cards: all they kept is no better than these.
                of(transfer.giver).floor = max(transfer.cards)
        elif isinstance(transfer, MerchantExchangeCards):
            if transfer.giver == me:
                surely_holds(transfer.other, (transfer.given,))
            elif transfer.other == me:
                surely_holds(transfer.giver, (transfer.received,))
        elif isinstance(transfer, MisdealReplacement) and transfer.peon == me:
            surely_holds(transfer.receiver, (transfer.card,))
    for player, seat in knowledge.items():
        # Cards a player was seen to get may since have been played by them; without a
        # complete memory, any card of that kind played may have been theirs.
        played = memory.played_by(player) if memory.complete else observation.played
        seat.known = [max(0, k - p) for k, p in zip(seat.known, played, strict=True)]
    return knowledge


# ---------------------------------------------------------------------- sampling deals


class DealSampler:
    """Deals the cards this seat cannot see to the other players, consistently with what
    it knows: each player's count, the cards known to be theirs, a Peon's floor."""

    def __init__(
        self, table: TableState, knowledge: dict[int, Knowledge], rng: random.Random
    ) -> None:
        self.table = table
        self.rng = rng
        unseen = list(table.unseen)
        self.others = [seat for seat in range(table.seats) if seat != table.me]
        self.needs = {seat: table.remaining[seat] for seat in self.others}
        self.known: dict[int, list[int]] = {}
        self.floors: dict[int, int] = {}
        for seat in self.others:
            info = knowledge.get(table.order[seat])
            if info is None or self.needs[seat] == 0:
                continue
            cards: list[int] = []
            for card in range(1, 14):
                take = min(info.known[card], unseen[card], self.needs[seat] - len(cards))
                cards.extend([card] * take)
                unseen[card] -= take
            if cards:
                self.known[seat] = cards
            if info.floor > 1:
                self.floors[seat] = info.floor
        self.pool = [card for card in range(1, 14) for _ in range(unseen[card])]

    def sample(self) -> list[list[int]]:
        """One guess at every hand, as counts per card (this seat's own hand as it is)."""
        table = self.table
        hands = [[0] * 14 for _ in range(table.seats)]
        hands[table.me] = list(table.hand)
        pool = self.pool[:]
        self.rng.shuffle(pool)
        for seat, cards in self.known.items():
            for card in cards:
                hands[seat][card] += 1
        for seat, floor in self.floors.items():
            wanted = self.needs[seat] - len(self.known.get(seat, ()))
            kept: list[int] = []
            for card in pool:
                if wanted and card >= floor:
                    hands[seat][card] += 1
                    wanted -= 1
                else:
                    kept.append(card)
            # Only an inconsistent observation leaves a Peon short: fill from anything.
            for card in kept[:wanted]:
                hands[seat][card] += 1
            pool = kept[wanted:]
        position = 0
        for seat in self.others:
            if seat in self.floors:
                continue
            wanted = self.needs[seat] - len(self.known.get(seat, ()))
            for card in pool[position : position + wanted]:
                hands[seat][card] += 1
            position += wanted
        return hands


# ---------------------------------------------------------------------- playing out


class RolloutReading(TableReading):
    """The heuristic's table reading, built straight from a rollout's state."""

    def __init__(
        self, hand: Counts, opponents: tuple[int, ...], hidden: tuple[int, ...], deck: Counts
    ) -> None:
        self.hand = hand
        self.opponents = opponents
        self.hidden = hidden
        self.hidden_total = sum(opponents)
        self.deck = deck
        self._rank_safety = {}


@dataclass
class TableState:
    """The hand at this seat's choice, by seat index (``order`` position), as it may know it."""

    order: tuple[int, ...]
    me: int
    hand: Counts
    remaining: list[int]
    played: Counts
    deck: Counts
    unseen: Counts
    to_beat: CardSet | None
    top_seat: int | None
    passed: frozenset[int]
    out: int

    @property
    def seats(self) -> int:
        return len(self.order)

    @classmethod
    def from_observation(cls, observation: Observation, hand: Counts) -> TableState:
        order = observation.order
        seat_of = {player: index for index, player in enumerate(order)}
        remaining = [observation.counts.get(player, 0) for player in order]
        me = seat_of[observation.viewer] if observation.viewer is not None else -1
        remaining[me] = sum(hand)
        played = observation.played
        deck = deck_composition(sum(remaining) + sum(played))
        unseen = tuple(max(0, deck[c] - played[c] - hand[c]) for c in range(14))
        top = observation.top_player
        return cls(
            order=order,
            me=me,
            hand=hand,
            remaining=remaining,
            played=played,
            deck=deck,
            unseen=unseen,
            to_beat=observation.to_beat,
            top_seat=None if top is None else seat_of.get(top),
            passed=frozenset(seat_of[p] for p in observation.passed if p in seat_of),
            out=len(observation.out),
        )

    def play_out(self, hands: list[list[int]], move: Move) -> float:
        """This seat's points for the hand if it makes ``move`` now and everyone then plays
        as the heuristic bot, on the sampled ``hands`` (left untouched)."""
        return Rollout(self, hands).run(move)


class Rollout:
    """One hand played out from a table state to the moment this seat goes out."""

    def __init__(self, state: TableState, hands: list[list[int]]) -> None:
        self.seats = state.seats
        self.me = state.me
        self.hands = [hand[:] for hand in hands]
        self.remaining = [sum(hand) for hand in hands]
        self.played = list(state.played)
        self.deck = state.deck
        self.top = state.to_beat
        self.top_seat = state.top_seat
        self.passed = set(state.passed)
        self.out = state.out

    def run(self, move: Move) -> float:
        seat = self.me
        while True:
            finished = self._apply(seat, move)
            if finished is not None:
                return float(self.seats - 1 - finished)
            seat = self._turn
            move = self._policy(seat)

    def _apply(self, seat: int, move: Move) -> int | None:
        """Make the move; this seat's finishing place (0 = first) once it is known."""
        if move is None:
            self.passed.add(seat)
        else:
            hand = self.hands[seat]
            for card in move.cards():
                hand[card] -= 1
                self.played[card] += 1
            self.remaining[seat] -= move.count
            self.top, self.top_seat = move, seat
            self.passed.clear()
            if self.remaining[seat] == 0:
                self.out += 1
                if seat == self.me:
                    return self.out - 1
                if sum(1 for count in self.remaining if count) == 1:
                    return self.seats - 1  # only this seat is left: it is last
        top_seat = self.top_seat
        assert top_seat is not None
        everyone_passed = all(
            other in self.passed
            for other in range(self.seats)
            if self.remaining[other] and other != top_seat
        )
        if everyone_passed:
            self.top, self.top_seat = None, None
            self.passed.clear()
            self._turn = top_seat if self.remaining[top_seat] else self._next(top_seat)
        else:
            self._turn = self._next(seat)
        return None

    def _next(self, seat: int) -> int:
        for step in range(1, self.seats + 1):
            candidate = (seat + step) % self.seats
            if self.remaining[candidate]:
                return candidate
        raise AssertionError("nobody holds cards")

    def _policy(self, seat: int) -> Move:
        """The heuristic bot's move, from what that seat would see."""
        hand = tuple(self.hands[seat])
        options = playable_sets(hand, self.top)
        if self.top is not None and not options:
            return None
        held = self.remaining[seat]
        for option in options:
            if option.count == held:
                return option
        opponents = tuple(
            count for other, count in enumerate(self.remaining) if count and other != seat
        )
        deck, played = self.deck, self.played
        hidden = tuple(max(0, deck[c] - played[c] - hand[c]) for c in range(14))
        reading = RolloutReading(hand, opponents, hidden, deck)
        if self.top is None:
            return choose_lead(hand, reading)
        return choose_follow(hand, reading, tuple(options))


# ---------------------------------------------------------------------- ready-made budgets


def with_rollouts(rollouts: int) -> Callable[[int | None], MonteCarloBot]:
    """A strategy factory for a fixed number of rollouts per choice and no clock."""

    def factory(seed: int | None) -> MonteCarloBot:
        return MonteCarloBot(seed, rollouts=rollouts, time_budget=None)

    return factory


fixed_100 = with_rollouts(100)
"""For `dalmuti sim --strategies dalmuti_net.bots.montecarlo:fixed_100,...`: reproducible."""
fixed_300 = with_rollouts(300)
