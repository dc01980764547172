"""`dalmuti bot`: seat one or more bots at a table, by address or found on the LAN."""

from __future__ import annotations

import argparse
import sys
from functools import partial
from typing import TYPE_CHECKING

from ..bots.names import bot_name
from ..lang.i18n import N_, Translator
from ..told import Told
from .common import (
    CommandError,
    ExitCode,
    add_address_argument,
    add_find_interface_argument,
    add_player_name_argument,
    check_interfaces,
    leaves,
    tell,
)
from .language import messages

if TYPE_CHECKING:
    from ..bots import Strategy
    from ..client.session import ClientSession
    from ..engine import Action, Decision, Observation


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_address_argument(
        parser,
        N_(
            "the host to join (port 7341 if none); without it, a table found on the local "
            "network (the one named --table-name, if given; tables in their lobby first)"
        ),
    )
    parser.add_argument("--table-name", metavar="NAME", help=N_("join the table of this name"))
    add_find_interface_argument(parser)
    parser.add_argument(
        "--strategy",
        default="heuristic",
        metavar="NAME|MODULE:ATTR",
        help=N_(
            "a built-in strategy (heuristic, random, ...) or an importable factory "
            "package.module:attr taking a seed (default heuristic)"
        ),
    )
    parser.add_argument(
        "--exec",
        dest="exec_command",
        metavar="COMMAND",
        help=N_(
            "play the seat with any program: COMMAND (run by the shell) reads one JSON line "
            "per decision on its stdin and answers with one JSON line on its stdout (see "
            "PROTOCOL.md, 'Bots over standard input and output'); --strategy is not used"
        ),
    )
    parser.add_argument(
        "--exec-timeout",
        type=float,
        default=5.0,
        metavar="SECONDS",
        help=N_(
            "how long the --exec program may think about a decision (less with a turn "
            "timer) before the seat plays the default move (default 5)"
        ),
    )
    add_player_name_argument(parser, N_("the bot's name (default: the strategy's)"))
    parser.add_argument(
        "--count", type=int, default=1, metavar="N", help=N_("how many bots to seat (default 1)")
    )
    parser.add_argument("--code", help=N_("the table's join code, if it has one"))
    parser.add_argument(
        "--seed", type=int, default=None, help=N_("seed the strategies' randomness")
    )
    parser.description = N_(
        "Seat bots at a table, to play or to test your own. They tell the host that no "
        "person plays their seats (as --exec programs and the SDK do), so a table of "
        "programs plays flat out: a host paces its own bots (0.8 s a move by default, "
        "dalmuti host --bot-pace) only while a person plays or watches."
    )


def run(args: argparse.Namespace) -> int:
    import trio

    from ..bots import UnknownStrategy, make_strategy
    from ..client.address import BadAddress, parse_address
    from ..client.bot import play
    from ..client.model.errors import (
        describe_broken,
        describe_error,
        describe_goodbye,
        describe_unreachable,
    )
    from ..client.runner import CannotConnect
    from ..client.stdio import StdioBot, play_stdio
    from ..host.default_moves import default_move

    try:
        t = messages(args.lang)
    except ValueError as error:
        print(f"dalmuti bot: {error}", file=sys.stderr)
        return 2
    try:
        if args.address is not None:
            host, port = parse_address(args.address)
        strategies = [
            Reporting(
                make_strategy(args.strategy, None if args.seed is None else args.seed + i),
                args.strategy,
            )
            for i in range(args.count)
        ]
    except BadAddress as error:
        print(f"dalmuti bot: {error.told(t._)}", file=sys.stderr)
        return 2
    except UnknownStrategy as error:
        print(f"dalmuti bot: {error.told(t._)}", file=sys.stderr)
        return 2
    _ = t._
    if not 1 <= args.count <= 8:
        print(
            "dalmuti bot: "
            + _("{option} must be from {low} to {high}").format(option="--count", low=1, high=8),
            file=sys.stderr,
        )
        return 2
    if not 0 < args.exec_timeout <= 3600:
        print(
            "dalmuti bot: "
            + _("{option} must be more than {low} and at most {high}").format(
                option="--exec-timeout", low=0, high=3600
            ),
            file=sys.stderr,
        )
        return 2
    if args.exec_command is not None and not args.exec_command.strip():
        print("dalmuti bot: " + _("--exec needs a command to run"), file=sys.stderr)
        return 2
    if args.address is None:
        from ..client.sdk import NoTableFound, find_table

        check_interfaces(args.interface, t)

        try:
            listing = trio.run(
                partial(find_table, args.table_name, interfaces=args.interface, code=args.code)
            )
        except NoTableFound as error:
            seen = t.list_separator.join(repr(name) for name in error.seen) or _("none")
            found = (
                _("no table named {name} to join was found (tables seen: {seen})")
                if args.table_name is not None
                else _("no table to join was found (tables seen: {seen})")
            )
            raise CommandError(
                found.format(name=repr(args.table_name), seen=seen)
                + _("; give the host's address (dalmuti bot HOST[:PORT]) or check `dalmuti hosts`"),
                ExitCode.NOT_FOUND,
            ) from None
        host, port = listing.addresses[0], listing.port
        print(
            _("joining {table} at {address}").format(
                table=repr(listing.name), address=f"{host}:{port}"
            )
        )
    base_name = args.player_name or default_bot_name(
        t, None if args.exec_command is not None else strategies[0].name
    )
    outcome: list[str] = []
    refused = never_seated = lost = False

    async def connect() -> trio.abc.Stream:
        return await trio.open_tcp_stream(host, port)

    async def one(index: int) -> None:
        nonlocal refused, never_seated, lost
        name = base_name if args.count == 1 else f"{base_name} {index + 1}"
        if args.exec_command is not None:
            program = StdioBot(
                args.exec_command,
                default_move,
                partial(print, "dalmuti bot:", file=sys.stderr, flush=True),
                name=name,
                timeout_s=args.exec_timeout,
                translate=t._,
            )
            session = await play_stdio(connect, program, name, code=args.code)
        else:
            session = await play(
                connect, strategies[index], name, code=args.code, leave_lobby_on_quit=True
            )
        told: str | None = None
        if session.broken is not None:  # the host's messages did not fit the table
            lost = True
            told = describe_broken(t, session.broken)
        elif session.errors and session.errors[-1].fatal:
            error = session.errors[-1]
            refused = True
            told = _("{sentence} ({code})").format(
                sentence=describe_error(t, error), code=error.code
            )
        elif session.goodbye_code is not None or session.closed_reason:
            over = session.observation.ended if session.observation is not None else None
            told = describe_goodbye(t, session.goodbye_code, None if over is None else over.reason)
        elif session.welcome is None:  # what answered let the bot go without a seat
            never_seated = True
            told = _("The connection ended before the bot had a seat.")
        elif (ended := _final_place(session)) is not None:
            place, players, score = ended
            told = _("The table ended: place {place} of {players}, score {score}.").format(
                place=place, players=players, score=score
            )
        if told is not None:
            outcome.append(_("{name}: {outcome}").format(name=name, outcome=told))

    async def main() -> None:
        async with trio.open_nursery() as nursery:
            for index in range(args.count):
                nursery.start_soon(one, index)

    unreachable: list[CannotConnect] = []
    failed: list[StrategyFailed] = []
    interrupted = False
    try:
        trio.run(main)
    except* CannotConnect as group:
        unreachable.extend(leaves(group))
    except* StrategyFailed as group:
        failed.extend(leaves(group))
    except* KeyboardInterrupt:
        interrupted = True
    if interrupted:  # Ctrl-C in any bot's task: "interrupted", 130 (raised here, not in except*)
        raise KeyboardInterrupt
    if failed:
        if args.debug:
            import traceback

            traceback.print_exception(failed[0])
        tell("dalmuti bot: " + failed[0].told(t._))
        return ExitCode.FAILED
    if unreachable:
        failure = unreachable[0]
        tell(
            "dalmuti bot: " + describe_unreachable(t, f"{host}:{port}", str(failure), failure.kind)
        )
        return ExitCode.NOT_FOUND
    for line in outcome:
        tell(line, sys.stdout)
    if refused:
        return ExitCode.REFUSED
    return ExitCode.FAILED if never_seated or lost else ExitCode.OK


def _final_place(session: ClientSession) -> tuple[int, int, int] | None:
    """(place, how many players, score) of the bot's seat when its table ended."""
    observation = session.observation
    if observation is None or observation.ended is None:
        return None
    for player, score, place in observation.ended.standings:
        if player == session.player:
            return place, len(observation.ended.standings), score
    return None


def default_bot_name(t: Translator, strategy: str | None) -> str:
    """The name a bot sits down with when none is given: its strategy's (the host's own
    bots' names, ``Heuristic bot``, in the language asked for), or ``Exec bot`` for a
    program's (``strategy`` ``None``)."""
    if strategy is None:
        return t._(EXEC_BOT)
    return bot_name(strategy, t._)


EXEC_BOT = N_("Exec bot")


STRATEGY_FAILED = N_("the strategy {strategy} failed on {decision}: {error}")


class StrategyFailed(Told):
    """The bot's strategy raised: the bot stops, and says so in one sentence."""


class Reporting:
    """A strategy whose error stops the bot as a ``StrategyFailed`` (one sentence, exit 1;
    ``--debug`` shows the traceback), not as an unexpected error."""

    def __init__(self, strategy: Strategy, spec: str) -> None:
        self.strategy, self.spec = strategy, spec
        self.name = strategy.name

    def choose(self, observation: Observation, decision: Decision) -> Action:
        try:
            return self.strategy.choose(observation, decision)
        except Exception as error:
            raise StrategyFailed(
                STRATEGY_FAILED,
                strategy=self.spec,
                decision=type(decision).__name__,
                error=f"{type(error).__name__}: {error}",
            ) from error
