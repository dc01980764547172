"""Train the ``learned`` bot's weights: ``python -m dalmuti_net.research.train``.

The recipe (bench/README.md, "The learned bot", has its figures and every choice):

1. The policy is linear softmax over the legal plays of a play decision, each described by
   ``dalmuti_net.bots.learned.FEATURES``; weights start at the heuristic bot (weight 1 on
   "this is the heuristic's choice", 0 elsewhere), so iteration 0 plays as it does.
2. Each iteration plays ``--hands`` one-hand episodes through ``dalmuti_net.research.env``
   (4 and 6 players in turn, the rules cycling through scoring, basic and every optional
   rule), each seat played by the current policy (self-play) or by the heuristic bot,
   half and half at random. At every play decision with more than one sensible answer the
   Monte Carlo bot (``--teacher-rollouts`` playouts, no clock: deterministic) is asked what
   it would play from the same observation; the state and its answer join the data set
   (DAgger: the states come from the learner's own play, the labels from the expert).
3. The weights are refitted on all the data so far: mean cross-entropy of the teacher's
   choice plus ``--l2`` times the squared weights, by ``--steps`` Adam steps from the
   previous weights.
4. The new weights are measured on duplicate deals against the heuristic bot (one
   learned seat, the others heuristic, every rotation) at 4 and 6 players: one row of the
   learning curve.

Everything is drawn from ``--seed``: the same command gives the same weights, byte for
byte. Needs the ``research`` extra (numpy); matplotlib, when present, draws the curve.
"""

from __future__ import annotations

import argparse
import importlib
import json
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from ..bots import STRATEGIES, register_strategy
from ..bots.duplicate import per_deal, play_duplicate
from ..bots.heuristic import HeuristicBot
from ..bots.learned import FEATURES, LearnedBot, PlayState
from ..bots.montecarlo import MonteCarloBot
from ..bots.stats import mean_interval
from ..engine import Action, Observation, Play, PlayDecision, Rules
from .environment import env as make_env

RULE_SETS: tuple[tuple[str, Rules], ...] = (
    ("scoring", Rules(scoring=True)),
    ("basic", Rules()),
    ("all", Rules.all_optional()),
)
"""The rules training episodes cycle through (the presets of `dalmuti sim --rules`)."""

CANDIDATE = "learned-candidate"
"""The name weights being measured are registered under, in the training process only."""

FloatArray = np.ndarray[Any, np.dtype[np.float64]]


def heuristic_start() -> list[float]:
    weights = [0.0] * len(FEATURES)
    weights[FEATURES.index("heuristic_choice")] = 1.0
    return weights


@dataclass
class DataSet:
    """Play decisions: every legal move's features, and the index of the teacher's move."""

    features: list[list[list[float]]] = field(default_factory=list)
    labels: list[int] = field(default_factory=list)

    def add(self, moves: list[list[float]], label: int) -> None:
        self.features.append(moves)
        self.labels.append(label)

    def arrays(self) -> tuple[FloatArray, np.ndarray[Any, np.dtype[np.intp]], np.ndarray[Any, Any]]:
        """All moves stacked, the start row of each decision, the row of each label."""
        sizes = [len(moves) for moves in self.features]
        starts = np.concatenate(([0], np.cumsum(sizes)[:-1])).astype(np.intp)
        rows = np.asarray([m for moves in self.features for m in moves], dtype=np.float64)
        return rows, starts, starts + np.asarray(self.labels, dtype=np.intp)


def loss_and_gradient(
    weights: FloatArray,
    rows: FloatArray,
    starts: np.ndarray[Any, np.dtype[np.intp]],
    labelled: np.ndarray[Any, Any],
    l2: float,
) -> tuple[float, FloatArray, float]:
    """Mean cross-entropy of the labels (+ L2), its gradient, and the share of decisions
    where the policy's best move is the teacher's."""
    scores = rows @ weights
    decisions = len(starts)
    group = np.repeat(np.arange(decisions), np.diff(np.append(starts, len(rows))))
    top = np.maximum.reduceat(scores, starts)
    shifted = np.exp(scores - top[group])
    total = np.add.reduceat(shifted, starts)
    chance = shifted / total[group]
    loss = float(np.mean(np.log(total) + top - scores[labelled])) + l2 * float(weights @ weights)
    target = np.zeros(len(rows))
    target[labelled] = 1.0
    gradient = rows.T @ (chance - target) / decisions + 2 * l2 * weights
    agree = float(np.mean(scores[labelled] >= top))
    return loss, gradient, agree


def fit(
    data: DataSet, start: Sequence[float], steps: int, l2: float, rate: float = 0.05
) -> tuple[list[float], float, float]:
    """Adam from ``start``; the weights rounded to 6 decimals (what the JSON file holds)."""
    rows, starts, labelled = data.arrays()
    weights = np.asarray(start, dtype=np.float64)
    first = np.zeros_like(weights)
    second = np.zeros_like(weights)
    for step in range(1, steps + 1):
        _, gradient, _ = loss_and_gradient(weights, rows, starts, labelled, l2)
        first = 0.9 * first + 0.1 * gradient
        second = 0.999 * second + 0.001 * gradient * gradient
        unbiased = first / (1 - 0.9**step)
        scale = np.sqrt(second / (1 - 0.999**step)) + 1e-8
        weights = weights - rate * unbiased / scale
    rounded = [round(float(w), 6) for w in weights]
    loss, _, agree = loss_and_gradient(np.asarray(rounded), rows, starts, labelled, l2)
    return rounded, loss, agree


def collect(
    data: DataSet,
    weights: Sequence[float],
    hands: int,
    teacher_rollouts: int,
    rng: random.Random,
) -> int:
    """Play ``hands`` one-hand episodes through the environment, labelling every play
    decision that has a real choice with the teacher's answer. Returns decisions labelled."""
    labelled = 0
    for episode in range(hands):
        players = (4, 6)[episode % 2]
        _, rules = RULE_SETS[(episode // 2) % len(RULE_SETS)]
        table = make_env(players, replace(rules, hand_limit=1))
        table.reset(seed=rng.getrandbits(32))
        learner = LearnedBot(None, weights)
        heuristic = HeuristicBot(None)
        seats: dict[str, Any] = {
            agent: learner if rng.random() < 0.5 else heuristic for agent in table.agents
        }
        teacher = MonteCarloBot(rng.getrandbits(32), rollouts=teacher_rollouts, time_budget=None)
        for agent in table.agent_iter():
            _, _, terminated, truncated, _ = table.last()
            if terminated or truncated:
                table.step(None)
                continue
            seen, decision = table.decision(agent)
            if isinstance(decision, PlayDecision):
                label = teach(teacher, seen, decision)
                if label is not None:
                    data.add(*label)
                    labelled += 1
            action: Action = seats[agent].choose(seen, decision)
            table.step(table.action_id(action))
    return labelled


def teach(
    teacher: MonteCarloBot, seen: Observation, decision: PlayDecision
) -> tuple[list[list[float]], int] | None:
    """The moves' features and the index of the teacher's move, or ``None`` when there
    was nothing to choose (one legal answer, or a set that goes out)."""
    hand = seen.hand
    assert hand is not None
    held = sum(hand)
    if any(option.count == held for option in decision.sets):
        return None
    if len(decision.sets) + decision.may_pass < 2:
        return None
    fallback = teacher.heuristic.choose(seen, decision)
    preferred = fallback.set if isinstance(fallback, Play) else None
    state = PlayState(seen, decision, preferred)
    answer = teacher.choose(seen, decision)
    move = answer.set if isinstance(answer, Play) else None
    return state.features(), state.moves.index(move)


@dataclass(frozen=True)
class Measure:
    players: int
    deals: int
    margin: float
    margin_ci: float
    learned: float
    heuristic: float


def measure(weights: Sequence[float], players: int, deals: int, seed: int) -> Measure:
    """Duplicate deals, one seat of ``weights`` against heuristic bots, rules scoring."""
    frozen = list(weights)
    entrants = [CANDIDATE] + ["heuristic"] * (players - 1)
    register_strategy(CANDIDATE, lambda bot_seed: LearnedBot(bot_seed, frozen))
    try:
        result = play_duplicate(entrants, Rules(scoring=True), deals, seed)
    finally:  # known to this measurement only: never listed among the strategies
        del STRATEGIES[CANDIDATE]
    mine = per_deal(result, CANDIDATE, "points")
    theirs = per_deal(result, "heuristic", "points")
    margin, half = mean_interval([a - b for a, b in zip(mine, theirs, strict=True)])
    return Measure(players, deals, margin, half, float(np.mean(mine)), float(np.mean(theirs)))


def train(
    args: argparse.Namespace, out: Any = sys.stdout
) -> tuple[list[float], list[dict[str, Any]]]:
    rng = random.Random(args.seed)
    data = DataSet()
    weights = heuristic_start()
    curve: list[dict[str, Any]] = []
    started = time.process_time()
    for iteration in range(args.iterations + 1):
        row: dict[str, Any] = {"iteration": iteration}
        if iteration > 0:
            row["labelled"] = collect(data, weights, args.hands, args.teacher_rollouts, rng)
            weights, row["loss"], row["agreement"] = fit(data, weights, args.steps, args.l2)
            row["data"] = len(data.labels)
        eval_seed = rng.getrandbits(32)
        for players in args.players:
            if args.eval_deals:
                m = measure(weights, players, args.eval_deals, eval_seed)
                row[f"margin_{players}"] = round(m.margin, 4)
                row[f"ci_{players}"] = round(m.margin_ci, 4)
        row["cpu_s"] = round(time.process_time() - started, 1)
        row["weights"] = list(weights)  # so any iteration's policy can be kept
        curve.append(row)
        print(json.dumps(row), file=out, flush=True)
    return weights, curve


def weights_document(weights: Sequence[float], args: argparse.Namespace) -> dict[str, Any]:
    return {
        "format": 1,
        "features": list(FEATURES),
        "weights": list(weights),
        "trained_by": (
            "python -m dalmuti_net.research.train "
            + " ".join(
                [
                    f"--seed {args.seed}",
                    f"--iterations {args.iterations}",
                    f"--hands {args.hands}",
                    f"--teacher-rollouts {args.teacher_rollouts}",
                    f"--steps {args.steps}",
                    f"--l2 {args.l2}",
                ]
            )
        ),
    }


def plot(curve: list[dict[str, Any]], players: Sequence[int], path: Path) -> bool:
    try:  # optional, and untyped: imported by name
        matplotlib: Any = importlib.import_module("matplotlib")
        matplotlib.use("Agg")
        plt: Any = importlib.import_module("matplotlib.pyplot")
    except ImportError:
        return False
    figure, axes = plt.subplots()
    for count in players:
        xs = [row["iteration"] for row in curve if f"margin_{count}" in row]
        ys = [row[f"margin_{count}"] for row in curve if f"margin_{count}" in row]
        cis = [row[f"ci_{count}"] for row in curve if f"margin_{count}" in row]
        axes.errorbar(xs, ys, yerr=cis, label=f"{count} players", capsize=3)
    axes.axhline(0.0, color="grey", linewidth=0.5)
    axes.set_xlabel("DAgger iteration")
    axes.set_ylabel("margin over heuristic, points a hand (95% CI)")
    axes.legend()
    figure.savefig(path)
    return True


def parse(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m dalmuti_net.research.train",
        description="train the learned bot's weights by DAgger on the Monte Carlo bot's "
        "choices, through the PettingZoo environment",
    )
    parser.add_argument("--seed", type=int, default=42, help="seed of everything (default 42)")
    parser.add_argument("--iterations", type=int, default=4, help="DAgger iterations (default 4)")
    parser.add_argument(
        "--hands", type=int, default=30, help="one-hand episodes per iteration (default 30)"
    )
    parser.add_argument(
        "--teacher-rollouts",
        type=int,
        default=100,
        help="the Monte Carlo teacher's playouts per choice (default 100)",
    )
    parser.add_argument("--steps", type=int, default=300, help="Adam steps per fit (default 300)")
    parser.add_argument("--l2", type=float, default=0.001, help="L2 penalty (default 0.001)")
    parser.add_argument(
        "--eval-deals",
        type=int,
        default=100,
        help="duplicate deals per measurement of the curve, 0 for none (default 100)",
    )
    parser.add_argument(
        "--players",
        type=lambda text: [int(p) for p in text.split(",")],
        default=[4, 6],
        help="table sizes the curve is measured at (default 4,6)",
    )
    parser.add_argument("--out", type=Path, help="write the weights (JSON) here")
    parser.add_argument("--curve", type=Path, help="write the learning curve (JSON lines) here")
    parser.add_argument("--plot", type=Path, help="draw the curve here (needs matplotlib)")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse(argv)
    weights, curve = train(args)
    if args.out is not None:
        document = weights_document(weights, args)
        args.out.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
    if args.curve is not None:
        args.curve.write_text("".join(json.dumps(row) + "\n" for row in curve), encoding="utf-8")
    if args.plot is not None and not plot(curve, args.players, args.plot):
        print("matplotlib is not installed: no plot drawn", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
