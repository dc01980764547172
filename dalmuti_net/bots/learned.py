"""A learned player: a linear softmax policy over the engine's legal plays, read greedily.

Every legal answer the engine lists for a play decision (``PlayDecision.sets``, and
passing when ``may_pass``) is described by ``FEATURES``, a short vector of numbers read
from the seat's own ``Observation`` (RULES.md rule 20) and the table reading the
heuristic bot uses; the move played is the one whose features score highest under the
shipped weights (``learned_weights.json`` beside this file). The weights were trained by
``python -m dalmuti_net.research.train`` (numpy, the ``research`` extra): imitation of the
Monte Carlo bot's choices on the states the policy itself reaches (DAgger), see
bench/README.md. Playing needs the standard library only.

Every other decision (taxes, revolution, exchange, misdeal, placement) is the heuristic's,
as for the Monte Carlo bot: the duplicate deals it is measured on are first hands, where
only play matters, and training had nothing to say about the rest.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from importlib import resources

from ..engine import JESTER, Action, CardSet, Counts, Decision, Observation, Pass, Play
from ..engine.actions import PlayDecision
from .heuristic import CLOSE_TO_OUT, NEVER_TAXED_UP_TO, HeuristicBot
from .reading import TableReading

WEIGHTS_FILE = "learned_weights.json"

Move = CardSet | None
"""A set to play, or ``None`` to pass."""

FEATURES: tuple[str, ...] = (
    "pass",
    "heuristic_choice",
    "lead_rank",
    "follow_rank",
    "share_of_hand",
    "jesters_used",
    "whole_group",
    "splits_group",
    "safety",
    "unbeatable",
    "good_rank",
    "jesters_alone",
    "groups_after",
    "unsure_groups_after",
    "sure_groups_after",
    "size_an_opponent_might_go_out_on",
    "pass_with_unsure_groups",
    "pass_when_an_opponent_is_close",
    "lead_of_an_unbeatable_set",
    "follow_capture",
)
"""The meaning of each entry of a move's feature vector, in order."""


def groups_left(hand: Counts, reading: TableReading, move: Move) -> tuple[int, int]:
    """(unsure, sure) groups the hand holds after ``move``: ranks (Jesters left out) whose
    whole group some opponent could, or could not, beat."""
    unsure = sure = 0
    for rank in range(1, JESTER):
        held = hand[rank]
        if move is not None and move.rank == rank:
            held -= move.count - move.jesters
        if held <= 0:
            continue
        if reading.could_be_beaten(rank, held):
            unsure += 1
        else:
            sure += 1
    return unsure, sure


def move_features(
    hand: Counts,
    reading: TableReading,
    lead: bool,
    preferred: Move,
    move: Move,
) -> list[float]:
    """The ``FEATURES`` of ``move`` (a legal play, or ``None`` for passing)."""
    held = sum(hand)
    unsure, sure = groups_left(hand, reading, move)
    close = any(count <= CLOSE_TO_OUT for count in reading.opponents)
    if move is None:
        now_unsure, _ = groups_left(hand, reading, None)
        return [
            1.0,
            1.0 if preferred is None else 0.0,
            0.0,
            0.0,
            0.0,
            0.0,
            0.0,
            0.0,
            0.0,
            0.0,
            0.0,
            0.0,
            (unsure + sure) / 6,
            unsure / 6,
            sure / 6,
            0.0,
            now_unsure / 6,
            1.0 if close else 0.0,
            0.0,
            0.0,
        ]
    rank, count, jesters = move.rank, move.count, move.jesters
    natural = count - jesters
    safety = reading.safety(rank, count)
    unbeatable = 0.0 if reading.could_be_beaten(rank, count) else 1.0
    risky = {c for c in reading.opponents if c <= CLOSE_TO_OUT}
    return [
        0.0,
        1.0 if move == preferred else 0.0,
        rank / JESTER if lead else 0.0,
        0.0 if lead else rank / JESTER,
        count / held,
        float(jesters),
        1.0 if rank != JESTER and natural == hand[rank] else 0.0,
        1.0 if rank != JESTER and natural < hand[rank] else 0.0,
        safety,
        unbeatable,
        1.0 if rank <= NEVER_TAXED_UP_TO else 0.0,
        1.0 if rank == JESTER else 0.0,
        (unsure + sure) / 6,
        unsure / 6,
        sure / 6,
        1.0 if count in risky else 0.0,
        0.0,
        0.0,
        unbeatable if lead else 0.0,
        0.0 if lead else safety,
    ]


def play_moves(decision: PlayDecision) -> list[Move]:
    """The engine's legal answers to a play decision as moves: passing first if allowed."""
    moves: list[Move] = [None] if decision.may_pass else []
    moves.extend(decision.sets)
    return moves


class PlayState:
    """What the features of every move of one play decision are read from."""

    def __init__(self, observation: Observation, decision: PlayDecision, preferred: Move) -> None:
        hand = observation.hand
        assert hand is not None, "a seat asked to play has been dealt cards"
        self.hand = hand
        self.reading = TableReading(observation, hand)
        self.lead = decision.to_beat is None
        self.preferred = preferred
        self.moves = play_moves(decision)

    def features(self) -> list[list[float]]:
        return [
            move_features(self.hand, self.reading, self.lead, self.preferred, move)
            for move in self.moves
        ]


def score(weights: Sequence[float], features: Sequence[float]) -> float:
    return sum(w * f for w, f in zip(weights, features, strict=True))


def load_weights() -> list[float]:
    """The shipped weights, checked against ``FEATURES``."""
    text = resources.files(__package__).joinpath(WEIGHTS_FILE).read_text("utf-8")
    data = json.loads(text)
    if data.get("features") != list(FEATURES):
        raise ValueError(f"{WEIGHTS_FILE} was trained on other features than FEATURES")
    return [float(w) for w in data["weights"]]


_SHIPPED: list[float] | None = None


def shipped_weights() -> list[float]:
    global _SHIPPED
    if _SHIPPED is None:
        _SHIPPED = load_weights()
    return _SHIPPED


class LearnedBot:
    """Deterministic: the seed is accepted so that every strategy is made the same way.
    ``weights`` replaces the shipped ones (training evaluates candidates this way)."""

    name = "learned"

    def __init__(self, seed: int | None = None, weights: Sequence[float] | None = None) -> None:
        self.seed = seed
        self.heuristic = HeuristicBot(seed)
        self.weights = list(weights) if weights is not None else shipped_weights()
        if len(self.weights) != len(FEATURES):
            raise ValueError(f"{len(FEATURES)} weights needed, not {len(self.weights)}")

    def choose(self, observation: Observation, decision: Decision) -> Action:
        fallback = self.heuristic.choose(observation, decision)
        if not isinstance(decision, PlayDecision):
            return fallback
        hand = observation.hand
        assert hand is not None, "a seat asked to play has been dealt cards"
        held = sum(hand)
        for option in decision.sets:
            if option.count == held:
                return Play(option)  # going out now is never worse than later
        move = self.best_move(observation, decision, fallback)
        return Pass() if move is None else Play(move)

    def best_move(self, observation: Observation, decision: PlayDecision, fallback: Action) -> Move:
        preferred = fallback.set if isinstance(fallback, Play) else None
        state = PlayState(observation, decision, preferred)
        best: Move = preferred
        best_score = float("-inf")
        for move, features in zip(state.moves, state.features(), strict=True):
            value = score(self.weights, features)
            if value > best_score:
                best, best_score = move, value
        return best
