"""The PettingZoo environment's steps per second, beside PettingZoo's classic games.

Every environment is driven the same way, through PettingZoo's AEC API: ``agent_iter``,
``last``, a uniformly random legal action from the observation's ``action_mask``, and
``step``, over whole episodes (``reset(seed=...)`` each), best of ``--repeat`` runs of
``--steps`` steps each, CPU time. Needs the research extra, and pygame for the classic
games (``pip install 'dalmuti-net[research]' pygame``).

    python bench/env.py                    # the table in bench/README.md
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import time
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
from wake import cpu_model  # bench/, beside this file

from dalmuti_net.engine import Rules
from dalmuti_net.research import env as dalmuti_env


def steps_per_second(make: Callable[[], Any], steps: int, seed: int) -> float:
    rng = random.Random(seed)
    environment = make()
    done = 0
    episode = 0
    start = time.process_time()
    while done < steps:
        environment.reset(seed=seed * 1000 + episode)
        episode += 1
        for _agent in environment.agent_iter():
            observation, _, terminated, truncated, _ = environment.last()
            if terminated or truncated:
                environment.step(None)
                continue
            legal = np.flatnonzero(observation["action_mask"])
            environment.step(int(legal[rng.randrange(len(legal))]))
            done += 1
            if done >= steps:
                break
    return done / (time.process_time() - start)


def best(make: Callable[[], Any], steps: int, repeat: int) -> float:
    return max(steps_per_second(make, steps, run) for run in range(repeat))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--steps", type=int, default=20_000, help="steps per run")
    parser.add_argument("--repeat", type=int, default=3, help="runs per figure; best kept")
    args = parser.parse_args(argv)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        from pettingzoo.classic import connect_four_v3, tictactoe_v3
    print(
        f"machine: {cpu_model()}, {os.cpu_count()} cores;"
        f" {platform.python_implementation()} {platform.python_version()}"
        f" ({' '.join(platform.python_build())}, {platform.python_compiler()})"
    )
    print(f"{args.steps} steps per run, best of {args.repeat}, CPU time")
    rules = {"scoring": Rules(scoring=True), "every rule": Rules.all_optional()}
    classic = {
        "tictactoe_v3": best(tictactoe_v3.env, args.steps, args.repeat),
        "connect_four_v3": best(connect_four_v3.env, args.steps, args.repeat),
    }
    for name, rate in classic.items():
        print(f"{name:>30}: {rate:>9,.0f} steps/s")
    for players in (4, 6):
        for label, chosen in rules.items():
            rate = best(lambda p=players, r=chosen: dalmuti_env(p, r), args.steps, args.repeat)
            ratios = ", ".join(f"{rate / other:.2f} of {name}" for name, other in classic.items())
            print(f"{f'dalmuti {players} players, {label}':>30}: {rate:>9,.0f} steps/s ({ratios})")


if __name__ == "__main__":
    main()
