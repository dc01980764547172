"""The `dalmuti` command: one subcommand per job, each defined in its own module.

Each module listed in ``COMMANDS`` provides ``add_arguments(parser)`` and
``run(args) -> int``. Modules import only argparse-level things at the top and the heavy
ones (trio, zeroconf, prompt_toolkit) inside ``run``, so building the parser stays cheap.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from . import __version__

COMMANDS: dict[str, tuple[str, str]] = {
    "bot": ("dalmuti_net.commands.bot", "seat bots at a table, to play or to test your own"),
    "host": ("dalmuti_net.commands.host", "host a table on this machine and announce it"),
    "history": (
        "dalmuti_net.commands.history",
        "the tables and hands in a host's save, each hand as one seat saw it",
    ),
    "hosts": ("dalmuti_net.commands.hosts", "list the tables found on the local network"),
    "join": ("dalmuti_net.commands.join", "find a table (or go to HOST[:PORT]) and play it"),
    "replay": (
        "dalmuti_net.commands.replay",
        "step through a finished table, the screen as one seat saw it",
    ),
    "sim": ("dalmuti_net.sim", "play bots against each other offline and compare them"),
}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="dalmuti",
        description="The Great Dalmuti on your local network.",
    )
    parser.add_argument("--version", action="version", version=f"dalmuti-net {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (module_name, summary) in COMMANDS.items():
        module = importlib.import_module(module_name)
        sub = subparsers.add_parser(name, help=summary, description=summary)
        module.add_arguments(sub)
        sub.set_defaults(run=module.run)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 2
    try:
        result: int = args.run(args)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    return result


if __name__ == "__main__":
    sys.exit(main())
