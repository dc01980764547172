"""The `dalmuti` command: one subcommand per job, each defined in its own module.

Each module listed in ``COMMANDS`` provides ``add_arguments(parser)`` and
``run(args) -> int``. Modules import only argparse-level things at the top and the heavy
ones (trio, zeroconf, prompt_toolkit) inside ``run``, so building the parser stays cheap.
A failure the user can fix is a ``CommandError``: one line on stderr and its exit code.
"""

from __future__ import annotations

import argparse
import importlib
import os
import select
import sys
import traceback

from . import __version__
from .commands.common import (
    EXIT_CODES_HELP,
    CommandError,
    ExitCode,
    add_common_arguments,
    configure_logging,
    leaves,
    stop_logging,
    tell,
)
from .commands.language import (
    HelpFormatter,
    RawDescriptionHelpFormatter,
    add_lang_argument,
    argparse_speaking,
    help_translator,
    translate_parser,
)
from .lang.i18n import N_, Translator

COMMANDS: dict[str, tuple[str, str]] = {
    "bot": ("dalmuti_net.commands.bot", N_("seat bots at a table, to play or to test your own")),
    "conformance": (
        "dalmuti_net.commands.conformance",
        N_("check that a host speaks the protocol as PROTOCOL.md says"),
    ),
    "host": ("dalmuti_net.commands.host", N_("host a table on this machine and announce it")),
    "history": (
        "dalmuti_net.commands.history",
        N_("the tables and hands in a host's save, each hand as one seat saw it"),
    ),
    "hosts": ("dalmuti_net.commands.hosts", N_("list the tables found on the local network")),
    "join": (
        "dalmuti_net.commands.join",
        N_("find a table (or go to HOST[:PORT]) and play it"),
    ),
    "replay": (
        "dalmuti_net.commands.replay",
        N_("step through a finished table, the screen as one seat saw it"),
    ),
    "standings": (
        "dalmuti_net.commands.standings",
        N_("totals per player over many tables and evenings (league files, saves)"),
    ),
    "sim": (
        "dalmuti_net.commands.sim",
        N_("play bots against each other offline and compare them"),
    ),
}


def build_parser(t: Translator | None = None) -> argparse.ArgumentParser:
    """The whole command line, its help in ``t``'s language (the locale's by default)."""
    parser = argparse.ArgumentParser(
        prog="dalmuti",
        description=N_("The Great Dalmuti on your local network."),
        epilog=EXIT_CODES_HELP,
        formatter_class=RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--version",
        action="version",
        version=f"dalmuti-net {__version__}",
        help=N_("show the version and exit"),
    )
    add_lang_argument(parser, dest="main_lang")  # dalmuti --lang es host: the host's too
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (module_name, summary) in COMMANDS.items():
        module = importlib.import_module(module_name)
        sub = subparsers.add_parser(
            name,
            help=summary,
            description=summary,
            epilog=N_("exit status: see `dalmuti --help`"),
            formatter_class=HelpFormatter,
        )
        module.add_arguments(sub)
        if not any("--lang" in action.option_strings for action in sub._actions):
            add_lang_argument(sub)
        add_common_arguments(sub)
        sub.set_defaults(run=module.run)
    translate_parser(parser, t or help_translator([]))
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    t = help_translator(argv)
    parser = build_parser(t)
    with argparse_speaking(t):
        args = parser.parse_args(argv)
        if args.command is None:
            parser.print_help()
            return ExitCode.USAGE
    if getattr(args, "lang", None) is None:
        args.lang = args.main_lang
    _ = t._
    try:
        configure_logging(args, screen=takes_the_screen(args), t=t)
        result: int = args.run(args)
    except KeyboardInterrupt:
        print(_("interrupted"), file=sys.stderr)
        return ExitCode.INTERRUPTED
    except Exception as error:
        if _output_closed(error):
            # Whoever read our output went away (`dalmuti join --plain | head`): there is
            # nothing left to say and nowhere to say it. Exit as quietly as such a program
            # does, without Python's own complaint when it flushes stdout at exit.
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            return ExitCode.FAILED
        failure = user_failure(error)
        if args.debug:
            traceback.print_exc()
        if failure is None:
            unexpected = (
                _("unexpected error: {error} - please report it")
                if args.debug
                else _(
                    "unexpected error: {error} (run again with --debug for the traceback) "
                    "- please report it"
                )
            )
            tell(f"dalmuti {args.command}: " + unexpected.format(error=describe(error)))
            return ExitCode.FAILED
        tell(f"dalmuti {args.command}: {failure.message}")
        return failure.exit_code
    except BaseExceptionGroup as group:  # (an ExceptionGroup is an Exception: above)
        # Ctrl-C inside trio's nurseries (`join --plain` waiting on its connection and its
        # input at once) comes out wrapped in a group: it is still only Ctrl-C.
        if not all(isinstance(inner, KeyboardInterrupt) for inner in leaves(group)):
            raise
        print(_("interrupted"), file=sys.stderr)
        return ExitCode.INTERRUPTED
    finally:
        stop_logging()
    return result


def takes_the_screen(args: argparse.Namespace) -> bool:
    """Whether the command draws a full-screen table (so its log must not go to stderr);
    ``--plain`` writes lines, and its warnings are lines on stderr."""
    if args.command == "join":
        return not args.plain
    return args.command == "host" and not args.headless and not args.plain


def user_failure(error: BaseException) -> CommandError | None:
    """The ``CommandError`` behind ``error``, looking inside exception groups (trio's
    nurseries wrap a failing task's error in one)."""
    if isinstance(error, CommandError):
        return error
    if isinstance(error, BaseExceptionGroup):
        for inner in error.exceptions:
            found = user_failure(inner)
            if found is not None:
                return found
    return None


def _output_closed(error: BaseException) -> bool:
    """Whether ``error`` (or one in its group) is a write to our closed standard output."""
    if isinstance(error, BaseExceptionGroup):
        return any(_output_closed(inner) for inner in error.exceptions)
    if not isinstance(error, BrokenPipeError):
        return False
    try:
        poll = select.poll()
        poll.register(sys.stdout.fileno(), 0)
        # A pipe whose reader has gone polls as an error at its writing end.
        return any(events & select.POLLERR for _, events in poll.poll(0))
    except (AttributeError, OSError, ValueError):  # no poll(), no real stdout
        return False


def describe(error: BaseException) -> str:
    while isinstance(error, BaseExceptionGroup) and len(error.exceptions) == 1:
        error = error.exceptions[0]
    return f"{type(error).__name__}: {error}"


if __name__ == "__main__":
    sys.exit(main())
