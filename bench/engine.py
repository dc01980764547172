"""Engine throughput: full hands per second on one core, every optional rule on.

Random bots drive the game only through its public API (``pending``, ``apply``,
``begin_next_hand``), the path the host takes. Then a bare loop of the same game over
count arrays (``bare_hands``) runs in the same process, and the engine's ratio to it is
printed: absolute figures do not carry across machines, that ratio does. Per table size:

* engine: the game alone, answers drawn straight from each decision;
* + views: also folding every event into each seat's ``Observation`` through
  ``can_see``, as the host (for its seats) and ``dalmuti sim`` do;
* fast: the same rules through the fast path (``legal_ids``, ``step``, ``next_hand``:
  answers by id, no decision or answer objects, no events), as a training loop drives it;
* playout: the same games hand by hand through ``Game.playout`` (the same draws), as a
  Monte Carlo playout drives it.

Run from the repository root:

    python bench/engine.py                 # the table in bench/README.md
    python bench/engine.py --profile 6     # cProfile of the 6-player run, hottest first
    python bench/engine.py --profile 6 --profile-loop playout   # ... of the fast path's
    python bench/engine.py --against e5b26db --rounds 8 --players 6
        # issue 34's comparison: the object API as of that commit (extracted from git at
        # run time into a temporary folder, imported as another package), today's object
        # API, the fast path and the bare loop, taking turns in one process on the same
        # seeds
"""

from __future__ import annotations

import argparse
import cProfile
import importlib
import io
import os
import platform
import pstats
import random
import subprocess
import sys
import tarfile
import tempfile
import time
import types
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from wake import cpu_model  # bench/, beside this file

from dalmuti_net.bots.random_bot import random_answer
from dalmuti_net.engine import Event, Game, Observation, Phase, Rules, can_see

RULES = Rules.all_optional()


def play_hands(
    players: int, hands: int, seed: int, with_views: bool, engine: types.ModuleType | None = None
) -> int:
    """Play ``hands`` full hands, a new table each time one reaches its hand limit.

    ``engine``: another version of the engine package to drive instead (``--against``).
    Returns the number of decisions answered.
    """
    game_type, phases, answer, rules = (
        (Game, Phase, random_answer, RULES)
        if engine is None
        else (engine.Game, engine.Phase, engine.random_answer, engine.Rules.all_optional())
    )
    assert engine is None or not with_views, "views are folded by today's engine only"
    rng = random.Random(seed)
    played = decisions = table = 0
    seats = list(range(players))
    while played < hands:
        game = game_type(seats, rules, seed * 1_000_003 + table)
        table += 1
        views = [(seat, Observation(seat)) for seat in seats] if with_views else []
        deliver(game.start(), views)
        while True:
            phase = game.phase
            if phase is phases.ENDED:  # the table's last hand is over
                played += 1
                break
            if phase is phases.HAND_OVER:
                played += 1
                if played >= hands:
                    break
                deliver(game.begin_next_hand(), views)
                continue
            player, decision = next(iter(game.pending().items()))
            deliver(game.apply(player, answer(decision, rng)), views)
            decisions += 1
    return decisions


def fast_hands(players: int, hands: int, seed: int) -> int:
    """``play_hands`` through the fast path: ``legal_ids`` and ``step`` (no decision, no
    answer object, no events), each answer drawn uniformly among the legal ids.

    Returns the number of decisions answered.
    """
    rng = random.Random(seed)
    randrange = rng.randrange
    played = decisions = table = 0
    seats = list(range(players))
    ended, over, play = Phase.ENDED, Phase.HAND_OVER, Phase.PLAY
    while played < hands:
        game = Game(seats, RULES, seed * 1_000_003 + table)
        table += 1
        game.start()
        legal_ids, step = game.legal_ids, game.step
        while True:
            phase = game.phase
            if phase is play:
                ids = legal_ids()
                step(ids[randrange(len(ids))])
                decisions += 1
                continue
            if phase is ended:
                played += 1
                break
            if phase is over:
                played += 1
                if played >= hands:
                    break
                game.next_hand()
                continue
            ids = legal_ids()
            step(ids[randrange(len(ids))])
            decisions += 1
    return decisions


def playout_hands(players: int, hands: int, seed: int) -> int:
    """``fast_hands`` with each hand played by ``Game.playout`` (the same draws, so the
    same games): the fast path as a Monte Carlo playout drives it, one call a hand.

    Returns the number of decisions answered.
    """
    rng = random.Random(seed)
    played = decisions = table = 0
    seats = list(range(players))
    ended = Phase.ENDED
    while played < hands:
        game = Game(seats, RULES, seed * 1_000_003 + table)
        table += 1
        game.start()
        playout = game.playout
        while True:
            decisions += playout(rng)
            played += 1
            if game.phase is ended or played >= hands:
                break
            game.next_hand()
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


def profile(players: int, hands: int, top: int, loop: str = "engine") -> str:
    """cProfile of one run of ``loop``: the object API (``engine``), ``fast`` or
    ``playout``, hottest functions first."""
    profiler = cProfile.Profile()
    if loop == "engine":
        profiler.runcall(play_hands, players, hands, 0, False)
    else:
        profiler.runcall(fast_hands if loop == "fast" else playout_hands, players, hands, 0)
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out)
    stats.sort_stats("tottime").print_stats(top)
    return out.getvalue()


# ---------------------------------------------------------------------- the yardstick


def bare_hands(players: int, hands: int, seed: int) -> int:
    """The same game, every optional rule on, as a bare loop over count arrays: no events,
    no decisions, no checks, random answers drawn as ``random_answer`` draws them. Not a
    second engine (nothing uses it): the floor a pure-Python engine of this game could
    reach in one process, to measure the engine against. Returns decisions answered."""
    rng = random.Random(seed)
    rand, randrange, shuffle = rng.random, rng.randrange, rng.shuffle
    order = list(range(players))
    stripped = {4: (11, 12), 5: (12,)}.get(players, ())
    deck = [r for r in range(1, 13) if r not in stripped for _ in range(r)] + [13, 13]
    misdeal_chance = RULES.misdeal_chance
    decisions = 0
    for hand_index in range(hands):
        if hand_index % 20 == 0:
            shuffle(order)  # a new table: a seating draw
        first = hand_index % 20 == 0
        cards = deck[:]
        shuffle(cards)
        held = [[0] * 14 for _ in order]
        for i, card in enumerate(cards):
            held[i % players][card] += 1
        if rand() < misdeal_chance:
            at = randrange(len(cards))
            if at >= players - 1 and at % players != players - 1:
                decisions += 1
                if rand() < 0.5:  # to the Peon, who gives one of theirs at random
                    peon, intended = held[players - 1], held[at % players]
                    pick = randrange(sum(peon))
                    for card in range(1, 14):
                        pick -= peon[card]
                        if pick < 0:
                            break
                    peon[card] -= 1
                    intended[card] += 1
                    intended[cards[at]] -= 1
                    peon[cards[at]] += 1
        taxes = not first
        holder = next((i for i in range(players) if held[i][13] == 2), None)
        if holder is not None and (taxes or holder == players - 1):
            decisions += 1
            if rand() < 0.5:
                taxes = False
                if holder == players - 1:
                    held.reverse()
        if taxes:
            decisions += 2
            for giver, taker, count in ((players - 1, 0, 2), (players - 2, 1, 1)):
                for _ in range(count):  # the Peon's best cards
                    card = next(c for c in range(1, 14) if held[giver][c])
                    held[giver][card] -= 1
                    held[taker][card] += 1
                for _ in range(count):  # the Dalmuti's cards, any
                    mine = [c for c in range(1, 14) for _ in range(held[taker][c])]
                    card = mine[randrange(len(mine))]
                    held[taker][card] -= 1
                    held[giver][card] += 1
            if players >= 6:
                decisions += 1
                if rand() >= 0.25:
                    other = held[randrange(3, players - 2)]
                    mine = [c for c in range(1, 14) if held[2][c]]
                    given = mine[randrange(len(mine))]
                    theirs = [c for c in range(1, 14) for _ in range(other[c])]
                    taken = theirs[randrange(len(theirs))]
                    held[2][given] -= 1
                    other[taken] -= 1
                    other[given] += 1
                    held[2][taken] += 1
        left = [sum(h) for h in held]
        holding = players
        turn, top_rank, top_count, top_player, passes, out = 0, 14, 0, 0, 0, []
        while holding > 1:
            hand = held[turn]
            jesters = hand[13]
            sets = []
            if top_count == 0:
                for rank in range(1, 13):
                    n = hand[rank]
                    if n:
                        for size in range(1, n + jesters + 1):
                            for j in range(max(0, size - n), min(jesters, size - 1) + 1):
                                sets.append((rank, size, j))
                for j in range(1, jesters + 1):
                    sets.append((13, j, j))
            else:
                for rank in range(1, min(top_rank, 13)):
                    n = hand[rank]
                    if n and n + jesters >= top_count:
                        for j in range(max(0, top_count - n), min(jesters, top_count - 1) + 1):
                            sets.append((rank, top_count, j))
            decisions += 1
            index = randrange(len(sets) + (top_count > 0))
            if index == len(sets):
                passes += 1
            else:
                rank, size, j = sets[index]
                if rank == 13:
                    hand[13] -= size
                else:
                    hand[rank] -= size - j
                    hand[13] -= j
                left[turn] -= size
                top_rank, top_count, top_player, passes = rank, size, turn, 0
                if left[turn] == 0:
                    out.append(turn)
                    holding -= 1
                    if holding == 1:
                        break
            others = holding - 1 if left[top_player] else holding
            if passes == others and top_count:
                turn = top_player
                while left[turn] == 0:
                    turn = (turn + 1) % players
                top_rank, top_count, passes = 14, 0, 0
                continue
            turn = (turn + 1) % players
            while left[turn] == 0:
                turn = (turn + 1) % players
    return decisions


def measure_loop(
    loop: Callable[[int, int, int], int], players: int, hands: int, repeat: int
) -> tuple[float, float]:
    """Best hands per second of ``loop`` (the fast path, the bare loop) over ``repeat``
    runs, and decisions per hand."""
    best = float("inf")
    decisions = 0
    for run in range(repeat):
        start = time.process_time()
        decisions = loop(players, hands, run)
        best = min(best, time.process_time() - start)
    return hands / best, decisions / hands


# ---------------------------------------------------------------- an older engine


@contextmanager
def engine_as_of(commit: str) -> Iterator[types.ModuleType]:
    """``dalmuti_net/engine`` as of ``commit``, taken from git (with the package's
    ``__init__`` and ``told``, which it imports) into a temporary folder and imported as
    ``dalmuti_net_<commit>.engine`` beside today's, with the random bot's ``random_answer``
    bound to its classes as ``.random_answer``. Nothing of it is kept in the repository:
    the folder goes when the block ends."""
    root = Path(__file__).resolve().parent.parent
    paths = ["dalmuti_net/__init__.py", "dalmuti_net/told.py", "dalmuti_net/engine"]
    archive = subprocess.run(
        ["git", "-C", str(root), "archive", "--format=tar", commit, *paths],
        check=True,
        capture_output=True,
    ).stdout
    package = "dalmuti_net_" + "".join(ch for ch in commit if ch.isalnum())
    with tempfile.TemporaryDirectory(prefix="dalmuti-bench-") as folder:
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            tar.extractall(folder, filter="data")
        Path(folder, "dalmuti_net").rename(Path(folder, package))
        sys.path.insert(0, folder)
        try:
            engine = importlib.import_module(package + ".engine")
            # The same function, its names (the decision and answer classes) read from the
            # older package, so both engines get the same draws from the same seeds.
            engine.random_answer = types.FunctionType(  # type: ignore[attr-defined]
                random_answer.__code__,
                {**random_answer.__globals__, **vars(engine)},
                "random_answer",
            )
            yield engine
        finally:
            sys.path.remove(folder)
            for module in [m for m in sys.modules if m == package or m.startswith(package + ".")]:
                del sys.modules[module]


def against(commit: str, players: int, hands: int, rounds: int) -> None:
    """The object API as of ``commit``, today's object API, the fast path and the bare loop,
    each in turn for ``hands`` hands per round on the round's seed, ``rounds`` times in one
    process: per loop the best round's decisions a second, and the ratios within each round
    (the machine's load moves between rounds, less within one)."""
    with engine_as_of(commit) as old:
        loops: dict[str, Callable[[int], int]] = {
            f"object API as of {commit}": lambda seed: play_hands(players, hands, seed, False, old),
            "object API today": lambda seed: play_hands(players, hands, seed, False),
            "fast path": lambda seed: fast_hands(players, hands, seed),
            "fast path, playout": lambda seed: playout_hands(players, hands, seed),
            "bare loop": lambda seed: bare_hands(players, hands, seed),
        }
        rates: dict[str, list[float]] = {label: [] for label in loops}
        answered: dict[str, int] = dict.fromkeys(loops, 0)
        for round_index in range(rounds):
            for label, loop in loops.items():
                start = time.process_time()
                decisions = loop(round_index)
                rates[label].append(decisions / (time.process_time() - start))
                answered[label] += decisions
    print(
        f"{players} players, {hands} hands per loop per round, {rounds} rounds taking turns;"
        " decisions a second"
    )
    width = max(map(len, rates))
    for label, figures in rates.items():
        print(
            f"  {label:<{width}}  {answered[label] / (hands * rounds):.1f} decisions/hand"
            f"  best {max(figures):>9,.0f}"
            f"  rounds {' '.join(f'{f / 1000:.0f}k' for f in figures)}"
        )
    old_label, today, fast, playout, bare = rates
    ratios = (
        ("fast path / object API as of " + commit, fast, old_label),
        ("fast path / object API today", fast, today),
        ("fast path / bare loop", fast, bare),
        ("playout / object API as of " + commit, playout, old_label),
        ("playout / object API today", playout, today),
        ("playout / bare loop", playout, bare),
        ("object API today / as of " + commit, today, old_label),
        ("object API today / bare loop", today, bare),
    )
    print("ratios: of the bests; per round, lowest to highest (median)")
    width = max(len(r[0]) for r in ratios)
    for label, top, bottom in ratios:
        per_round = sorted(a / b for a, b in zip(rates[top], rates[bottom], strict=True))
        median = per_round[len(per_round) // 2]
        print(
            f"  {label:<{width}}  {max(rates[top]) / max(rates[bottom]):.2f};"
            f"  {per_round[0]:.2f} to {per_round[-1]:.2f} ({median:.2f})"
        )


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
    parser.add_argument(
        "--profile-loop",
        choices=("engine", "fast", "playout"),
        default="engine",
        help="which driver --profile runs: the object API (default), legal_ids/step, playout",
    )
    parser.add_argument(
        "--against",
        metavar="COMMIT",
        help="compare with the object API as of this commit, interleaved in one process",
    )
    parser.add_argument("--rounds", type=int, default=6, help="rounds for --against")
    args = parser.parse_args(argv)
    if args.profile:
        print(profile(args.profile, args.hands, args.top, args.profile_loop))
        return
    print(
        f"machine: {cpu_model()}, {os.cpu_count()} cores;"
        f" {platform.python_implementation()} {platform.python_version()}"
        f" ({' '.join(platform.python_build())}, {platform.python_compiler()})"
    )
    if args.against:
        for players in args.players:
            against(args.against, players, args.hands, args.rounds)
        return
    print(f"{args.hands} hands per run, best of {args.repeat}, rules: every option on")
    columns = (
        "players",
        "engine hands/s",
        "+ views hands/s",
        "fast hands/s",
        "decisions/hand",
        "engine dec/s",
        "fast dec/s",
        "playout dec/s",
        "bare dec/s",
        "fast/engine",
        "playout/engine",
        "engine/bare",
        "fast/bare",
        "playout/bare",
    )
    print("  ".join(f"{name:>{len(name)}}" for name in columns))
    for players in args.players:
        engine_rate, per_hand = measure(players, args.hands, args.repeat, with_views=False)
        views_rate, _ = measure(players, args.hands, args.repeat, with_views=True)
        fast_rate, fast_per_hand = measure_loop(fast_hands, players, args.hands, args.repeat)
        playout_rate, _ = measure_loop(playout_hands, players, args.hands, args.repeat)
        bare_rate, bare_per_hand = measure_loop(bare_hands, players, args.hands, args.repeat)
        engine_decisions = engine_rate * per_hand
        fast_decisions = fast_rate * fast_per_hand
        playout_decisions = playout_rate * fast_per_hand  # the same games as fast_hands
        bare_decisions = bare_rate * bare_per_hand
        figures = (
            f"{players}",
            f"{engine_rate:,.0f}",
            f"{views_rate:,.0f}",
            f"{fast_rate:,.0f}",
            f"{per_hand:.1f}",
            f"{engine_decisions:,.0f}",
            f"{fast_decisions:,.0f}",
            f"{playout_decisions:,.0f}",
            f"{bare_decisions:,.0f}",
            f"{fast_decisions / engine_decisions:.2f}",
            f"{playout_decisions / engine_decisions:.2f}",
            f"{engine_decisions / bare_decisions:.2f}",
            f"{fast_decisions / bare_decisions:.2f}",
            f"{playout_decisions / bare_decisions:.2f}",
        )
        print(
            "  ".join(f"{cell:>{len(name)}}" for cell, name in zip(figures, columns, strict=True))
        )


if __name__ == "__main__":
    main()
