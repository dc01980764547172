"""The `dalmuti` command: one subcommand per job, each defined in its own module.

Each module listed in ``COMMANDS`` provides ``add_arguments(parser)`` and
``run(args) -> int``; it is imported only when its subcommand runs (or for --help), so
`dalmuti sim` never loads the network stack.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from . import __version__

COMMANDS: dict[str, tuple[str, str]] = {
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
