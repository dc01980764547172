"""How long the learned bot takes to decide, against the heuristic bot, in one run.

Whole tables of every optional rule (misdeals often) are played with each seat's
strategy taking turns between ``learned`` and ``heuristic`` on the same decisions: at
every decision both are asked (alternating which goes first, so neither warms the
shared table-reading caches for the other), both are timed on this process's CPU clock
and the learned bot's answer is played. Per table size it prints the mean, the 99th
percentile and the slowest decision of each, and the learned bot's mean as a ratio of
the heuristic's: the ratio carries across machines, the milliseconds do not.

    python bench/learned.py                   # the table in bench/README.md
    python bench/learned.py --tables 10 --players 4,6,8
"""

from __future__ import annotations

import argparse
import platform
import random
import time

from dalmuti_net.bots import make_strategy
from dalmuti_net.engine import Game, Phase, PlayDecision, Rules


def processor() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            for line in info:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def run(players: int, tables: int, seed: int) -> dict[str, list[float]]:
    times: dict[str, list[float]] = {"learned": [], "heuristic": [], "learned play": []}
    rng = random.Random(seed)
    clock = time.process_time_ns
    for _ in range(tables):
        game = Game(list(range(players)), Rules.all_optional(0.3), rng.getrandbits(32))
        views = {p: game.observation(p) for p in range(players)}
        game.start()
        learned = {p: make_strategy("learned", p) for p in range(players)}
        heuristic = {p: make_strategy("heuristic", p) for p in range(players)}
        turn = 0
        while game.phase is not Phase.ENDED:
            if game.phase is Phase.HAND_OVER:
                game.begin_next_hand()
                continue
            player, decision = next(iter(game.pending().items()))
            order = ("learned", "heuristic") if turn % 2 else ("heuristic", "learned")
            turn += 1
            answers = {}
            for name in order:
                bot = (learned if name == "learned" else heuristic)[player]
                started = clock()
                answers[name] = bot.choose(views[player], decision)
                times[name].append((clock() - started) / 1e6)
            if isinstance(decision, PlayDecision):
                times["learned play"].append(times["learned"][-1])
            game.apply(player, answers["learned"])
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=6, help="20-hand tables per size")
    parser.add_argument("--players", default="4,6,8")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"{processor()}, CPython {platform.python_version()}")
    print(
        "players | decisions | learned mean ms | p99 | max | heuristic mean ms | p99 | max"
        " | learned/heuristic"
    )
    for players in (int(p) for p in args.players.split(",")):
        times = run(players, args.tables, args.seed)
        mine, theirs = times["learned"], times["heuristic"]
        mean_mine, mean_theirs = sum(mine) / len(mine), sum(theirs) / len(theirs)
        print(
            f"{players} | {len(mine)} | {mean_mine:.3f} | {percentile(mine, 0.99):.3f}"
            f" | {max(mine):.3f} | {mean_theirs:.3f} | {percentile(theirs, 0.99):.3f}"
            f" | {max(theirs):.3f} | {mean_mine / mean_theirs:.2f}"
        )


if __name__ == "__main__":
    main()
