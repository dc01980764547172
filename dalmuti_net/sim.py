"""`dalmuti sim`: bots play each other offline, and a table of how each one did.

The playing itself is ``bots.arena``; this module reads the command line, shows progress
and prints the report.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from collections.abc import Callable
from dataclasses import fields
from typing import TYPE_CHECKING, Any, TypeVar

from .bots.stats import t_975
from .client.ui.i18n import N_
from .commands.language import messages
from .told import Listed, Told

if TYPE_CHECKING:
    from prompt_toolkit.input import Input
    from prompt_toolkit.output import Output

    from .bots.arena import ArenaResult, Tally
    from .engine import Rules

T = TypeVar("T")
DEFAULT_BOTS = "heuristic,random"
DEFAULT_HANDS = 200
DEFAULT_DEALS = 50
TRUE_WORDS = {"1", "true", "yes", "on"}
FALSE_WORDS = {"0", "false", "no", "off"}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--players",
        type=_player_counts,
        metavar="N",
        help=N_(
            "players at each table, 4 to 8 (default: as many as --strategies names, at least "
            "4); with --duplicate a comma list, e.g. 4,6,8, plays each count in turn"
        ),
    )
    parser.add_argument(
        "--hands",
        type=int,
        default=DEFAULT_HANDS,
        metavar="H",
        help=N_("hands to play in all, over as many tables as needed (default %(default)s)"),
    )
    parser.add_argument(
        "--seed",
        type=int,
        default=0,
        metavar="S",
        help=N_("seed for the deals and the bots: same seed, same result"),
    )
    parser.add_argument(
        "--rules",
        default="",
        metavar="PRESET|FILE|OPTIONS",
        help=N_(
            "a preset (basic, scoring, party, all) or a TOML rules file, as for "
            "`dalmuti host`, and/or a comma list of rule options on top (on top of scoring "
            "when no preset or file comes first), e.g. 'party,merchant_exchange', "
            "'misdeal_chance=0.1', 'no_scoring', 'none' (options: first_deal_revolution, "
            "stripped_decks, scoring, philanthropic_scoring, merchant_exchange, "
            "misdeal_chance=P, hand_limit=N)"
        ),
    )
    parser.add_argument(
        "--strategies",
        default=DEFAULT_BOTS,
        metavar="NAMES",
        help=N_(
            "comma list of strategies, repeated to fill the seats (default %(default)s; a "
            "registered name such as heuristic or random, or package.module:attr for your own)"
        ),
    )
    parser.add_argument("--bots", dest="strategies", help=argparse.SUPPRESS)  # old spelling
    parser.add_argument(
        "--rotate",
        action="store_true",
        help=N_(
            "move every strategy round all the seats: tables come in rounds that share "
            "a seed, each strategy one seat further on, so seat and deal luck cancel"
        ),
    )
    parser.add_argument(
        "--duplicate",
        action="store_true",
        help=N_(
            "play each deal once per rotation of the strategies over the seats (the same "
            "cards, every strategy in every seat) and report each strategy's points per hand, "
            "average place and Greater Dalmuti share with 95%% confidence intervals over deals"
        ),
    )
    parser.add_argument(
        "--deals",
        type=int,
        default=DEFAULT_DEALS,
        metavar="D",
        help=N_(
            "deals to play with --duplicate (default %(default)s; each is played once per seat)"
        ),
    )
    parser.add_argument(
        "--jobs",
        type=int,
        default=os.cpu_count() or 1,
        metavar="N",
        help=N_(
            "processes to play the tables in (default: every core, here %(default)s); the "
            "result is the same for any N"
        ),
    )
    parser.add_argument(
        "--ci",
        action="store_true",
        help=N_(
            "add 95%% confidence intervals of each strategy's points per hand and share of "
            "Greater Dalmuti finishes, taking whole tables (with --rotate, whole rounds) as samples"
        ),
    )


def run(args: argparse.Namespace) -> int:
    from .bots import make_strategy
    from .bots.arena import StrategyError, simulate
    from .engine import MAX_PLAYERS, MIN_PLAYERS

    try:
        _ = messages(args.lang)._
    except ValueError as error:
        print(f"dalmuti sim: {error}", file=sys.stderr)
        return 2
    try:
        rules = parse_rules(args.rules)
        names = [name.strip() for name in args.strategies.split(",")]
        if not all(names):
            raise ValueError(
                _("--strategies needs comma-separated strategy names, not {value}").format(
                    value=repr(args.strategies)
                )
            )
        for name in names:
            make_strategy(name, args.seed)
        counts = args.players or [max(len(names), MIN_PLAYERS)]
        if len(counts) > 1 and not args.duplicate:
            raise ValueError(_("several --players counts need --duplicate"))
        for players in counts:
            if not MIN_PLAYERS <= players <= MAX_PLAYERS:
                raise ValueError(
                    _("{option} must be from {low} to {high}, not {value}").format(
                        option="--players", low=MIN_PLAYERS, high=MAX_PLAYERS, value=players
                    )
                )
            if len(names) > players:
                raise ValueError(
                    _("{n} strategies named for {players} seats").format(
                        n=len(names), players=players
                    )
                )
        for option, value in (
            ("--deals", args.deals),
            ("--hands", args.hands),
            ("--jobs", args.jobs),
        ):
            if value < 1:
                raise ValueError(
                    _("{option} must be at least {low}, not {value}").format(
                        option=option, low=1, value=value
                    )
                )
    except Told as error:  # an unknown strategy, a rule or rules file that cannot be used
        print(f"dalmuti sim: {error.told(_)}", file=sys.stderr)
        return 2
    except ValueError as error:
        print(f"dalmuti sim: {error}", file=sys.stderr)
        return 2
    if args.duplicate:
        return _run_duplicate(args, names, counts, rules)
    players = counts[0]
    entrants = [names[i % len(names)] for i in range(players)]
    print(
        f"{players} players, {args.hands} hands, seed {args.seed}"
        f"{', rotating seats' if args.rotate else ''}; rules: {describe_rules(rules)}"
    )
    try:
        if sys.stdout.isatty():
            result = simulate_with_progress(
                entrants, rules, args.hands, args.seed, args.rotate, jobs=args.jobs
            )
        else:
            result = simulate(entrants, rules, args.hands, args.seed, args.rotate, jobs=args.jobs)
    except StrategyError as error:
        print(f"dalmuti sim: {error}", file=sys.stderr)
        return 1
    print(format_report(result))
    if args.ci:
        print()
        print(format_confidence(result, players if args.rotate else 1))
    return 0


def _run_duplicate(
    args: argparse.Namespace, names: list[str], counts: list[int], rules: Rules
) -> int:
    from .bots.arena import StrategyError
    from .bots.duplicate import format_duplicate, play_duplicate

    print(f"duplicate deals, seed {args.seed}; rules: {describe_rules(rules)}")
    for players in counts:
        entrants = [names[i % len(names)] for i in range(players)]
        try:
            result = _with_progress(
                args.deals * players,
                lambda on_hand, e=entrants: play_duplicate(  # type: ignore[misc]
                    e, rules, args.deals, args.seed, on_hand=on_hand, jobs=args.jobs
                ),
            )
        except StrategyError as error:
            print(f"dalmuti sim: {error}", file=sys.stderr)
            return 1
        print()
        print(format_duplicate(result))
    return 0


def _with_progress(total: int, play: Callable[[Callable[[], None] | None], T]) -> T:
    """``play(on_hand)`` under a progress bar of ``total`` hands when on a terminal."""
    if not sys.stdout.isatty():
        return play(None)
    from prompt_toolkit.shortcuts import ProgressBar
    from prompt_toolkit.shortcuts.progress_bar import ProgressBarCounter

    with ProgressBar(title="dalmuti sim") as bar:
        counter: ProgressBarCounter[object] = bar(label="hands", total=total)
        result = play(counter.item_completed)
        counter.done = True
    return result


def _player_counts(text: str) -> list[int]:
    try:
        return [int(part) for part in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"a number of players, or a comma list such as 4,6,8, not {text!r}"
        ) from None


def simulate_with_progress(
    entrants: list[str],
    rules: Rules,
    hands: int,
    seed: int,
    rotate: bool = False,
    terminal: tuple[Output, Input] | None = None,
    jobs: int = 1,
) -> ArenaResult:
    """``simulate`` under a progress bar (on ``terminal``: the process's own by default)."""
    from prompt_toolkit.shortcuts import ProgressBar
    from prompt_toolkit.shortcuts.progress_bar import ProgressBarCounter

    from .bots.arena import simulate

    output, terminal_input = terminal if terminal is not None else (None, None)
    with ProgressBar(title="dalmuti sim", output=output, input=terminal_input) as bar:
        counter: ProgressBarCounter[object] = bar(label="hands", total=hands)
        result = simulate(
            entrants, rules, hands, seed, rotate, on_hand=counter.item_completed, jobs=jobs
        )
        counter.done = True
    return result


# ---------------------------------------------------------------------- rules


def parse_rules(text: str) -> Rules:
    """Rules from a preset or rules file (as ``dalmuti host --rules`` takes) and/or a comma
    list of options on top; with no preset or file first, on top of scoring."""
    from .engine import Rules, RulesError
    from .engine.rules import DEFAULT_HAND_LIMIT
    from .host.settings import PRESETS, SettingsError, load_settings

    items = [part.strip() for part in text.split(",")]
    options: dict[str, Any] = {"scoring": True}
    if items[0] in PRESETS or items[0].endswith(".toml"):
        try:
            base = load_settings(items.pop(0)).rules
        except SettingsError as error:
            raise RulesError(error.template, **error.values) from None
        options = base.to_dict()
        if options["hand_limit"] == DEFAULT_HAND_LIMIT:
            options.pop("hand_limit")  # derived again from scoring, which may be turned off
    known = {f.name: f for f in fields(Rules)}
    for item in items:
        if not item:
            continue
        name, has_value, value = (part.strip() for part in item.partition("="))
        if name == "none" and not has_value:
            options = {}
            continue
        if name.startswith("no_") and name[3:] in known and not has_value:
            options[name[3:]] = False
            continue
        if name not in known:
            raise RulesError(
                N_(
                    "unknown rule option {name}; known: none, {known} (no_NAME turns one "
                    "off), after a preset ({presets}) or a .toml rules file"
                ),
                name=repr(name),
                known=Listed(known),
                presets=Listed(PRESETS),
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
            raise RulesError(N_("misdeal_chance needs a value, e.g. misdeal_chance=0.1"))
        try:
            return float(text)
        except ValueError:
            raise RulesError(
                N_("misdeal_chance must be a number, not {value}"), value=repr(text)
            ) from None
    if name == "hand_limit":
        if text is None:
            raise RulesError(N_("hand_limit needs a value, e.g. hand_limit=20"))
        try:
            return int(text)
        except ValueError:
            raise RulesError(
                N_("hand_limit must be a whole number, not {value}"), value=repr(text)
            ) from None
    if text is None or text.lower() in TRUE_WORDS:
        return True
    if text.lower() in FALSE_WORDS:
        return False
    raise RulesError(
        N_("{name} is on or off (true/false), not {value}"), name=name, value=repr(text)
    )


def describe_rules(rules: Rules) -> str:
    on = []
    for name, value in rules.to_dict().items():
        if value is True:
            on.append(name)
        elif name in ("misdeal_chance", "hand_limit") and value:
            on.append(f"{name}={value}")
    return ", ".join(on) or "basic"


# ---------------------------------------------------------------------- report


def format_report(result: ArenaResult) -> str:
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


# ---------------------------------------------------------------------- confidence


def format_confidence(result: ArenaResult, tables_per_sample: int) -> str:
    """95% confidence intervals of each strategy's points per hand and GD share.

    Hands at one table are not independent (a finish sets the next hand's seat and taxes),
    and with rotation the tables of one round share their deals, so the samples are whole
    tables, or whole rounds of ``tables_per_sample`` tables. Each figure is a ratio over
    the samples (points / hands); its interval is the ratio estimator's, with Student's t.
    """
    tables = result.per_table
    samples = [
        _merged(tables[start : start + tables_per_sample])
        for start in range(0, len(tables), tables_per_sample)
    ]
    unit = "rounds of tables" if tables_per_sample > 1 else "tables"
    rows = []
    for name in sorted(result.by_strategy):
        hands = [sample[name].hands for sample in samples if name in sample]
        points = [sample[name].points for sample in samples if name in sample]
        firsts = [sample[name].greater_dalmuti for sample in samples if name in sample]
        rows.append(
            [
                name,
                _interval(points, hands, "{:.3f}") if result.scoring else "-",
                _interval(firsts, hands, "{:.1%}"),
            ]
        )
    header = ["strategy", "pts/hand (95% CI)", "GD share (95% CI)"]
    widths = [max(len(row[i]) for row in (header, *rows)) for i in range(3)]
    lines = [f"95% confidence intervals, {len(samples)} {unit} as samples:"]
    for row in (header, *rows):
        lines.append(
            "  ".join(
                cell.ljust(width) if i == 0 else cell.rjust(width)
                for i, (cell, width) in enumerate(zip(row, widths, strict=True))
            ).rstrip()
        )
    return "\n".join(lines)


def _merged(tables: list[dict[str, Tally]]) -> dict[str, Tally]:
    from .bots.arena import Tally

    merged: dict[str, Tally] = {}
    for table in tables:
        for name, tally in table.items():
            merged.setdefault(name, Tally(name)).add(tally)
    return merged


def _interval(numerators: list[int], denominators: list[int], style: str) -> str:
    """``ratio ± half-width`` of sum(numerators) / sum(denominators) over the samples."""
    total = sum(denominators)
    if total == 0:
        return "-"
    ratio = sum(numerators) / total
    samples = len(denominators)
    if samples < 2:
        return f"{style.format(ratio)} ± ?"
    squares = sum((n - ratio * d) ** 2 for n, d in zip(numerators, denominators, strict=True))
    standard_error = math.sqrt(samples / (samples - 1) * squares) / total
    half = t_975(samples - 1) * standard_error
    return f"{style.format(ratio)} ± {style.format(half)}"
