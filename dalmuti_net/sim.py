"""`dalmuti sim`: bots play each other offline, and a table of how each one did.

The game is driven only through its public API, the way the host drives it, and each bot
is shown only its own seat's view: one ``Observation`` per seat, folded event by event
from what that seat may see. A table ends at its hand limit, so the simulator deals as
many tables as it takes to play the hands asked for.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from prompt_toolkit.input import Input
    from prompt_toolkit.output import Output

    from .bots import Strategy
    from .engine import Event, Rules

DEFAULT_BOTS = "heuristic,random"
DEFAULT_HANDS = 200
SIM_TABLE_HANDS = 20
"""How long a table lasts when the rules set no hand limit (scoring off)."""
TRUE_WORDS = {"1", "true", "yes", "on"}
FALSE_WORDS = {"0", "false", "no", "off"}


class SimulationError(Exception):
    """A strategy broke the rules: named, with the decision and its answer."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--players",
        type=int,
        metavar="N",
        help="players at each table, 4 to 8 (default: as many as --bots names, at least 4)",
    )
    parser.add_argument(
        "--hands",
        type=int,
        default=DEFAULT_HANDS,
        metavar="H",
        help=f"hands to play in all, over as many tables as needed (default {DEFAULT_HANDS})",
    )
    parser.add_argument(
        "--seed",
        type=int,
        default=0,
        metavar="S",
        help="seed for the deals and the bots: same seed, same result",
    )
    parser.add_argument(
        "--rules",
        default="",
        metavar="OPTIONS",
        help="comma list of rule options on top of scoring, e.g. "
        "'merchant_exchange,misdeal_chance=0.1', 'all', 'no_scoring', 'none' "
        "(options: first_deal_revolution, stripped_decks, scoring, philanthropic_scoring, "
        "merchant_exchange, misdeal_chance=P, hand_limit=N)",
    )
    parser.add_argument(
        "--bots",
        default=DEFAULT_BOTS,
        metavar="NAMES",
        help="comma list of strategies, repeated to fill the seats "
        f"(default {DEFAULT_BOTS}; known: heuristic, random, or package.module:attr)",
    )
    parser.add_argument(
        "--rotate",
        action="store_true",
        help="move every strategy round all the seats: tables come in rounds that share "
        "a seed, each strategy one seat further on, so seat and deal luck cancel",
    )


def run(args: argparse.Namespace) -> int:
    from .bots import UnknownStrategy, make_strategy
    from .engine import MAX_PLAYERS, MIN_PLAYERS, RulesError

    try:
        rules = parse_rules(args.rules)
        names = [name.strip() for name in args.bots.split(",")]
        if not all(names):
            raise ValueError(f"--bots needs comma-separated strategy names, not {args.bots!r}")
        for name in names:
            make_strategy(name, args.seed)
        players = args.players if args.players is not None else max(len(names), MIN_PLAYERS)
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise ValueError(f"--players must be {MIN_PLAYERS} to {MAX_PLAYERS}, not {players}")
        if len(names) > players:
            raise ValueError(f"{len(names)} strategies named for {players} seats")
        if args.hands < 1:
            raise ValueError(f"--hands must be at least 1, not {args.hands}")
    except (ValueError, RulesError, UnknownStrategy) as error:
        print(f"dalmuti sim: error: {error}", file=sys.stderr)
        return 2
    entrants = [names[i % len(names)] for i in range(players)]
    print(
        f"{players} players, {args.hands} hands, seed {args.seed}"
        f"{', rotating seats' if args.rotate else ''}; rules: {describe_rules(rules)}"
    )
    try:
        if sys.stdout.isatty():
            result = simulate_with_progress(entrants, rules, args.hands, args.seed, args.rotate)
        else:
            result = simulate(entrants, rules, args.hands, args.seed, args.rotate)
    except SimulationError as error:
        print(f"dalmuti sim: {error}", file=sys.stderr)
        return 1
    print(format_report(result))
    return 0


def simulate_with_progress(
    entrants: list[str],
    rules: Rules,
    hands: int,
    seed: int,
    rotate: bool = False,
    terminal: tuple[Output, Input] | None = None,
) -> SimResult:
    """``simulate`` under a progress bar (on ``terminal``: the process's own by default)."""
    from prompt_toolkit.shortcuts import ProgressBar
    from prompt_toolkit.shortcuts.progress_bar import ProgressBarCounter

    output, terminal_input = terminal if terminal is not None else (None, None)
    with ProgressBar(title="dalmuti sim", output=output, input=terminal_input) as bar:
        counter: ProgressBarCounter[object] = bar(label="hands", total=hands)
        result = simulate(entrants, rules, hands, seed, rotate, on_hand=counter.item_completed)
        counter.done = True
    return result


# ---------------------------------------------------------------------- rules


def parse_rules(text: str) -> Rules:
    """Rules from a comma list: scoring is on unless ``no_scoring`` or ``none`` says not."""
    from .engine import Rules, RulesError

    options: dict[str, Any] = {"scoring": True}
    known = {f.name: f for f in fields(Rules)}
    for item in (part.strip() for part in text.split(",")):
        if not item:
            continue
        name, has_value, value = (part.strip() for part in item.partition("="))
        if name == "all" and not has_value:
            options.update(Rules.all_optional().to_dict())
            options.pop("hand_limit")
            continue
        if name == "none" and not has_value:
            options = {}
            continue
        if name.startswith("no_") and name[3:] in known and not has_value:
            options[name[3:]] = False
            continue
        if name not in known:
            raise RulesError(
                f"unknown rule option {name!r}; known: all, none, {', '.join(known)} "
                "(no_NAME turns one off)"
            )
        options[name] = _option_value(name, value if has_value else None)
    try:
        return Rules(**options)
    except TypeError as error:  # pragma: no cover - every field is validated above
        raise RulesError(str(error)) from error


def _option_value(name: str, text: str | None) -> object:
    from .engine import RulesError

    if name == "misdeal_chance":
        if text is None:
            raise RulesError("misdeal_chance needs a value, e.g. misdeal_chance=0.1")
        try:
            return float(text)
        except ValueError:
            raise RulesError(f"misdeal_chance must be a number, not {text!r}") from None
    if name == "hand_limit":
        if text is None:
            raise RulesError("hand_limit needs a value, e.g. hand_limit=20")
        try:
            return int(text)
        except ValueError:
            raise RulesError(f"hand_limit must be a whole number, not {text!r}") from None
    if text is None or text.lower() in TRUE_WORDS:
        return True
    if text.lower() in FALSE_WORDS:
        return False
    raise RulesError(f"{name} is on or off (true/false), not {text!r}")


def describe_rules(rules: Rules) -> str:
    on = []
    for name, value in rules.to_dict().items():
        if value is True:
            on.append(name)
        elif name in ("misdeal_chance", "hand_limit") and value:
            on.append(f"{name}={value}")
    return ", ".join(on) or "basic"


# ---------------------------------------------------------------------- playing


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
class SimResult:
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


def simulate(
    entrants: list[str],
    rules: Rules,
    hands: int,
    seed: int,
    rotate: bool = False,
    on_hand: Callable[[], None] | None = None,
) -> SimResult:
    """Play ``hands`` hands with one strategy per entrant; deterministic given ``seed``."""
    from dataclasses import replace

    from .bots import make_strategy

    if rules.hand_limit is None:
        rules = replace(rules, hand_limit=SIM_TABLE_HANDS)
    seats = len(entrants)
    result = SimResult([Tally(name) for name in entrants], scoring=rules.scoring)
    master = random.Random(seed)
    game_seed = 0
    while result.hands < hands:
        table = result.tables
        if not rotate or table % seats == 0:
            game_seed = master.getrandbits(32)
        shift = table % seats if rotate else 0
        # Entrant i plays as player (i + shift) % seats.
        entrant_of = {(i + shift) % seats: i for i in range(seats)}
        bots = {
            player: make_strategy(entrants[i], master.getrandbits(32))
            for player, i in entrant_of.items()
        }
        _play_table(bots, entrant_of, rules, game_seed, hands, result, on_hand)
        result.tables += 1
    for tally in result.entrants:
        result.by_strategy.setdefault(tally.strategy, Tally(tally.strategy)).add(tally)
    return result


def _play_table(
    bots: dict[int, Strategy],
    entrant_of: dict[int, int],
    rules: Rules,
    seed: int,
    hands: int,
    result: SimResult,
    on_hand: Callable[[], None] | None,
) -> None:
    from .engine import Game, IllegalAction, Observation, Phase, can_see

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
        action = bots[player].choose(observations[player], decision)
        try:
            events = game.apply(player, action)
        except IllegalAction as error:
            name = bots[player].name
            raise SimulationError(
                f"strategy {name!r} (player {player}) answered {decision!r} with "
                f"{action!r}, which the game refused: {error.message}"
            ) from error
        deliver(events)


def _record(event: Event, entrant_of: dict[int, int], result: SimResult) -> bool:
    """Count what ``event`` says; true when it ends a hand."""
    from .engine.events import (
        HandEnded,
        MerchantExchangeCards,
        MerchantExchangeDeclined,
        MisdealExposed,
        RevolutionDeclared,
    )

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


# ---------------------------------------------------------------------- report


def format_report(result: SimResult) -> str:
    lines = [
        f"{result.hands} hands over {result.tables} tables: "
        f"{result.revolutions} revolutions ({result.greater_revolutions} greater), "
        f"{result.misdeals} misdeals, {result.exchanges} merchant exchanges "
        f"({result.exchanges_declined} declined)",
        "",
    ]
    seats = [
        [str(i + 1), t.strategy, *_figures(t, result.scoring)]
        for i, t in enumerate(result.entrants)
    ]
    lines.extend(_columns(["seat", "strategy", *FIGURES], seats))
    if len(result.by_strategy) < len(result.entrants):
        strategies = [
            [name, *_figures(t, result.scoring)] for name, t in sorted(result.by_strategy.items())
        ]
        lines.append("")
        lines.extend(_columns(["strategy", *FIGURES], strategies))
    return "\n".join(lines)


FIGURES = ("hands", "avg place", "pts/hand", "GD", "GP", "revs", "exch")


def _figures(tally: Tally, scoring: bool) -> list[str]:
    hands = max(tally.hands, 1)
    return [
        str(tally.hands),
        f"{tally.place_total / hands:.2f}",
        f"{tally.points / hands:.2f}" if scoring else "-",
        str(tally.greater_dalmuti),
        str(tally.greater_peon),
        str(tally.revolutions),
        str(tally.exchanges),
    ]


def _columns(header: list[str], rows: list[list[str]]) -> list[str]:
    """Text columns: the label columns left-aligned, the figures right-aligned."""
    labels = len(header) - len(FIGURES)
    widths = [max(len(row[i]) for row in (header, *rows)) for i in range(len(header))]
    return [
        "  ".join(
            cell.ljust(width) if i < labels else cell.rjust(width)
            for i, (cell, width) in enumerate(zip(row, widths, strict=True))
        ).rstrip()
        for row in (header, *rows)
    ]
