"""Engine throughput: full hands per second on one core, every optional rule on.

Random bots drive the game only through its public API (``pending``, ``apply``,
``begin_next_hand``), the path the host takes. Two figures per table size:

* engine: the game alone, answers drawn straight from each decision;
* + views: also folding every event into each seat's ``Observation`` through
  ``can_see``, as the host (for its seats) and ``dalmuti sim`` do.

Run from the repository root:

    python bench/engine.py                 # the table in bench/README.md
    python bench/engine.py --profile 6     # cProfile of the 6-player run, hottest first
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import random
import time

from dalmuti_net.bots.random_bot import random_answer
from dalmuti_net.engine import Event, Game, Observation, Phase, Rules, can_see

RULES = Rules.all_optional()


def play_hands(players: int, hands: int, seed: int, with_views: bool) -> int:
    """Play ``hands`` full hands, a new table each time one reaches its hand limit.

    Returns the number of decisions answered.
    """
    rng = random.Random(seed)
    played = decisions = table = 0
    seats = list(range(players))
    while played < hands:
        game = Game(seats, RULES, seed * 1_000_003 + table)
        table += 1
        views = [(seat, Observation(seat)) for seat in seats] if with_views else []
        deliver(game.start(), views)
        while True:
            phase = game.phase
            if phase is Phase.ENDED:  # the table's last hand is over
                played += 1
                break
            if phase is Phase.HAND_OVER:
                played += 1
                if played >= hands:
                    break
                deliver(game.begin_next_hand(), views)
                continue
            player, decision = next(iter(game.pending().items()))
            deliver(game.apply(player, random_answer(decision, rng)), views)
            decisions += 1
    return decisions


def deliver(events: list[Event], views: list[tuple[int, Observation]]) -> None:
    for event in events:
        for seat, view in views:
            if can_see(event, seat):
                view.apply(event)


def measure(players: int, hands: int, repeat: int, with_views: bool) -> tuple[float, float]:
    """Best hands per second over ``repeat`` runs, and decisions per hand."""
    best = float("inf")
    decisions = 0
    for run in range(repeat):
        start = time.process_time()
        decisions = play_hands(players, hands, seed=run, with_views=with_views)
        best = min(best, time.process_time() - start)
    return hands / best, decisions / hands


def profile(players: int, hands: int, top: int) -> str:
    profiler = cProfile.Profile()
    profiler.runcall(play_hands, players, hands, 0, False)
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out)
    stats.sort_stats("tottime").print_stats(top)
    return out.getvalue()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--players", type=int, nargs="+", default=[4, 6, 8])
    parser.add_argument("--hands", type=int, default=2000, help="hands per run (default 2000)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per figure; best kept")
    parser.add_argument(
        "--profile",
        type=int,
        metavar="PLAYERS",
        help="profile the engine at this table size instead",
    )
    parser.add_argument("--top", type=int, default=25, help="profile lines to print")
    args = parser.parse_args(argv)
    if args.profile:
        print(profile(args.profile, args.hands, args.top))
        return
    print(f"{args.hands} hands per run, best of {args.repeat}, rules: every option on")
    columns = ("players", "engine hands/s", "+ views hands/s", "decisions/hand", "us/decision")
    print("  ".join(f"{name:>{len(name)}}" for name in columns))
    for players in args.players:
        engine_rate, per_hand = measure(players, args.hands, args.repeat, with_views=False)
        views_rate, _ = measure(players, args.hands, args.repeat, with_views=True)
        figures = (
            f"{players}",
            f"{engine_rate:,.0f}",
            f"{views_rate:,.0f}",
            f"{per_hand:.1f}",
            f"{1e6 / (engine_rate * per_hand):.1f}",
        )
        print(
            "  ".join(f"{cell:>{len(name)}}" for cell, name in zip(figures, columns, strict=True))
        )


if __name__ == "__main__":
    main()
