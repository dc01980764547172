"""`dalmuti sim`: bots play each other offline, and a table of how each one did.

The playing itself is ``bots.arena``; this module reads the command line and shows
progress, ``sim_report`` writes the report in the reader's language.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any, TypeVar

from ..lang.i18n import N_, Translator
from ..told import Listed, Told
from . import sim_report as report
from .common import tell
from .language import in_argparse_language, messages

if TYPE_CHECKING:
    from prompt_toolkit.input import Input
    from prompt_toolkit.output import Output

    from ..bots.arena import ArenaResult
    from ..engine import Rules

T = TypeVar("T")
DEFAULT_BOTS = "heuristic,random"
DEFAULT_HANDS = 200
DEFAULT_DEALS = 50
TRUE_WORDS = {"1", "true", "yes", "on"}
FALSE_WORDS = {"0", "false", "no", "off"}


@dataclass(frozen=True)
class NumberOption:
    """A rule option that takes a number (the others are on or off)."""

    read: Callable[[str], object]
    missing: str
    """What to say when no value was given."""
    wrong: str
    """What to say when the value is not a number ({value})."""


NUMBER_OPTIONS = {
    "misdeal_chance": NumberOption(
        float,
        N_("misdeal_chance needs a value, e.g. misdeal_chance=0.1"),
        N_("misdeal_chance must be a number, not {value}"),
    ),
    "hand_limit": NumberOption(
        int,
        N_("hand_limit needs a value, e.g. hand_limit=20"),
        N_("hand_limit must be a whole number, not {value}"),
    ),
}


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
    from ..bots import make_strategy
    from ..bots.arena import StrategyError, simulate
    from ..engine import MAX_PLAYERS, MIN_PLAYERS

    try:
        t = messages(args.lang)
    except ValueError as error:
        print(f"dalmuti sim: {error}", file=sys.stderr)
        return 2
    _ = t._
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
        tell(f"dalmuti sim: {error.told(_)}")
        return 2
    except ValueError as error:
        print(f"dalmuti sim: {error}", file=sys.stderr)
        return 2
    if args.duplicate:
        return _run_duplicate(args, names, counts, rules, t)
    players = counts[0]
    entrants = [names[i % len(names)] for i in range(players)]
    tell(report.heading(players, args.hands, args.seed, args.rotate, rules, t), sys.stdout)
    try:
        if sys.stdout.isatty():
            result = simulate_with_progress(
                entrants, rules, args.hands, args.seed, args.rotate, jobs=args.jobs, t=t
            )
        else:
            result = simulate(entrants, rules, args.hands, args.seed, args.rotate, jobs=args.jobs)
    except StrategyError as error:
        tell(f"dalmuti sim: {error.told(t._)}")
        return 1
    tell(report.summary(result, t), sys.stdout)
    print()
    print(report.format_report(result, t))
    if args.ci:
        print()
        print(report.format_confidence(result, players if args.rotate else 1, t))
    return 0


def _run_duplicate(
    args: argparse.Namespace, names: list[str], counts: list[int], rules: Rules, t: Translator
) -> int:
    from ..bots.arena import StrategyError
    from ..bots.duplicate import play_duplicate

    tell(report.duplicate_heading(args.seed, rules, t), sys.stdout)
    for players in counts:
        entrants = [names[i % len(names)] for i in range(players)]
        try:
            result = _with_progress(
                args.deals * players,
                t,
                lambda on_hand, e=entrants: play_duplicate(  # type: ignore[misc]
                    e, rules, args.deals, args.seed, on_hand=on_hand, jobs=args.jobs
                ),
            )
        except StrategyError as error:
            tell(f"dalmuti sim: {error.told(t._)}")
            return 1
        print()
        print(report.format_duplicate(result, t))
    return 0


def _with_progress(total: int, t: Translator, play: Callable[[Callable[[], None] | None], T]) -> T:
    """``play(on_hand)`` under a progress bar of ``total`` hands when on a terminal."""
    if not sys.stdout.isatty():
        return play(None)
    from prompt_toolkit.shortcuts import ProgressBar
    from prompt_toolkit.shortcuts.progress_bar import ProgressBarCounter

    with ProgressBar(title="dalmuti sim") as bar:
        counter: ProgressBarCounter[object] = bar(label=t._("hands"), total=total)
        result = play(counter.item_completed)
        counter.done = True
    return result


def _player_counts(text: str) -> list[int]:
    try:
        return [int(part) for part in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(
            in_argparse_language(
                N_("a number of players, or a comma list such as 4,6,8, not {value}"),
                value=repr(text),
            )
        ) from None


def simulate_with_progress(
    entrants: list[str],
    rules: Rules,
    hands: int,
    seed: int,
    rotate: bool = False,
    terminal: tuple[Output, Input] | None = None,
    jobs: int = 1,
    t: Translator | None = None,
) -> ArenaResult:
    """``simulate`` under a progress bar (on ``terminal``: the process's own by default)."""
    from prompt_toolkit.shortcuts import ProgressBar
    from prompt_toolkit.shortcuts.progress_bar import ProgressBarCounter

    from ..bots.arena import simulate

    output, terminal_input = terminal if terminal is not None else (None, None)
    with ProgressBar(title="dalmuti sim", output=output, input=terminal_input) as bar:
        label = (t or Translator())._("hands")
        counter: ProgressBarCounter[object] = bar(label=label, total=hands)
        result = simulate(
            entrants, rules, hands, seed, rotate, on_hand=counter.item_completed, jobs=jobs
        )
        counter.done = True
    return result


# ---------------------------------------------------------------------- rules


def parse_rules(text: str) -> Rules:
    """Rules from a preset or rules file (as ``dalmuti host --rules`` takes) and/or a comma
    list of options on top; with no preset or file first, on top of scoring."""
    from ..engine import Rules, RulesError
    from ..engine.rules import DEFAULT_HAND_LIMIT
    from ..host.settings import PRESETS, SettingsError, load_settings

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
    from ..engine import RulesError

    number = NUMBER_OPTIONS.get(name)
    if number is not None:
        if text is None:
            raise RulesError(number.missing)
        try:
            return number.read(text)
        except ValueError:
            raise RulesError(number.wrong, value=repr(text)) from None
    if text is None or text.lower() in TRUE_WORDS:
        return True
    if text.lower() in FALSE_WORDS:
        return False
    raise RulesError(
        N_("{name} is on or off (true/false), not {value}"), name=name, value=repr(text)
    )
