"""`dalmuti bot`: seat one or more bots at a table, by address or found on the LAN."""

from __future__ import annotations

import argparse
import sys
from functools import partial

from .common import CommandError, ExitCode


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "address",
        nargs="?",
        metavar="HOST[:PORT]",
        help="the host to join (port 7341 if none); without it, a table found on the local "
        "network (the one named --table-name, if given; tables in their lobby first)",
    )
    parser.add_argument("--table-name", metavar="NAME", help="join the table of this name")
    parser.add_argument(
        "--interface",
        metavar="ADDRESS",
        action="append",
        help="look for tables on this interface address only (repeatable; default: all)",
    )
    parser.add_argument(
        "--strategy",
        default="heuristic",
        metavar="NAME|MODULE:ATTR",
        help="a built-in strategy (heuristic, random, ...) or an importable factory "
        "package.module:attr taking a seed (default heuristic)",
    )
    parser.add_argument(
        "--exec",
        dest="exec_command",
        metavar="COMMAND",
        help="play the seat with any program: COMMAND (run by the shell) reads one JSON line "
        "per decision on its stdin and answers with one JSON line on its stdout (see "
        "PROTOCOL.md, 'Bots over standard input and output'); --strategy is not used",
    )
    parser.add_argument(
        "--exec-timeout",
        type=float,
        default=5.0,
        metavar="SECONDS",
        help="how long the --exec program may think about a decision (less with a turn "
        "timer) before the seat plays the default move (default 5)",
    )
    parser.add_argument(
        "--player-name", metavar="NAME", help="the bot's name (default: the strategy's)"
    )
    parser.add_argument("--name", dest="player_name", help=argparse.SUPPRESS)  # old spelling
    parser.add_argument(
        "--count", type=int, default=1, metavar="N", help="how many bots to seat (default 1)"
    )
    parser.add_argument("--code", help="the table's join code, if it has one")
    parser.add_argument("--seed", type=int, default=None, help="seed the strategies' randomness")


def run(args: argparse.Namespace) -> int:
    import trio

    from ..bots import UnknownStrategy, make_strategy
    from ..client.bot import play
    from ..client.connection import parse_address
    from ..client.runner import CannotConnect, NotAHost
    from ..client.stdio import StdioBot, play_stdio
    from ..host.default_moves import default_move

    try:
        if args.address is not None:
            host, port = parse_address(args.address)
        strategies = [
            make_strategy(args.strategy, None if args.seed is None else args.seed + i)
            for i in range(args.count)
        ]
    except (ValueError, UnknownStrategy) as error:
        print(f"dalmuti bot: {error}", file=sys.stderr)
        return 2
    if not 1 <= args.count <= 8:
        print("dalmuti bot: --count must be from 1 to 8", file=sys.stderr)
        return 2
    if not 0 < args.exec_timeout <= 3600:
        print("dalmuti bot: --exec-timeout must be more than 0 and at most 3600", file=sys.stderr)
        return 2
    if args.exec_command is not None and not args.exec_command.strip():
        print("dalmuti bot: --exec needs a command to run", file=sys.stderr)
        return 2
    if args.address is None:
        from ..client.sdk import NoTableFound, find_table

        try:
            listing = trio.run(
                partial(find_table, args.table_name, interfaces=args.interface, code=args.code)
            )
        except NoTableFound as error:
            raise CommandError(
                f"{error}; give the host's address (dalmuti bot HOST[:PORT]) or check "
                "`dalmuti hosts`",
                ExitCode.NOT_FOUND,
            ) from None
        host, port = listing.addresses[0], listing.port
        print(f"joining {listing.name!r} at {host}:{port}")
    if args.exec_command is not None:
        base_name = args.player_name or "Exec bot"
    else:
        base_name = args.player_name or f"{strategies[0].name.capitalize()} bot"
    outcome: list[str] = []

    async def connect() -> trio.abc.Stream:
        return await trio.open_tcp_stream(host, port)

    async def one(index: int) -> None:
        name = base_name if args.count == 1 else f"{base_name} {index + 1}"
        if args.exec_command is not None:
            program = StdioBot(
                args.exec_command,
                default_move,
                partial(print, "dalmuti bot:", file=sys.stderr, flush=True),
                name=name,
                timeout_s=args.exec_timeout,
            )
            session = await play_stdio(connect, program, name, code=args.code)
        else:
            session = await play(connect, strategies[index], name, code=args.code)
        if session.errors and session.errors[-1].fatal:
            error = session.errors[-1]
            outcome.append(f"{name}: the host refused: {error.message} ({error.code})")
        elif session.closed_reason:
            outcome.append(f"{name}: {session.closed_reason}")

    async def main() -> None:
        async with trio.open_nursery() as nursery:
            for index in range(args.count):
                nursery.start_soon(one, index)

    unreachable: list[BaseException] = []
    try:
        trio.run(main)
    except* CannotConnect as group:
        unreachable.extend(group.exceptions)
    except* KeyboardInterrupt:
        raise KeyboardInterrupt from None  # Ctrl-C in any bot's task: "interrupted", 130
    if unreachable:
        failure = unreachable[0]
        what = f"{host}:{port}" if isinstance(failure, NotAHost) else f"cannot reach {host}:{port}"
        print(f"dalmuti bot: {what}: {failure}", file=sys.stderr)
        return ExitCode.NOT_FOUND
    for line in outcome:
        print(line)
    return ExitCode.REFUSED if any("refused" in line for line in outcome) else ExitCode.OK
