"""`dalmuti replay FILE`: step through a finished table in the table screen, exactly as
one seat (or a spectator) saw it, from a host's save or a `dalmuti join --record` file."""

from __future__ import annotations

import argparse

from ..lang.i18n import N_
from .common import ExitCode, has_a_terminal, tell
from .language import add_lang_argument
from .screen_options import add_ascii_argument


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "file",
        metavar="FILE",
        help=N_("a host's save (dalmuti host --save) or a record (dalmuti join --record)"),
    )
    who = parser.add_mutually_exclusive_group()
    who.add_argument("--as", dest="as_name", metavar="NAME", help=N_("as the seat NAME saw it"))
    who.add_argument(
        "--spectator", action="store_true", help=N_("as a spectator saw it (a save's default)")
    )
    parser.add_argument("--table", type=int, metavar="N", help=N_("the file's Nth table"))
    parser.add_argument("--hand", type=int, metavar="N", help=N_("start at hand N"))
    add_lang_argument(parser)
    add_ascii_argument(parser)


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from ..history.problems import N_
    from ..lang.i18n import translator_for
    from ..rerun.sources import HistoryError, open_history
    from .record_check import check_fits

    try:
        t = translator_for(args.lang)
    except ValueError as error:
        return _fail(str(error), 2)
    if args.as_name == "host":
        return _fail(
            t._(
                "a replay shows one seat's or a spectator's screen; for everything the "
                "host saw, use: dalmuti history FILE --as host"
            ),
            2,
        )
    try:
        tables = open_history(Path(args.file))
        if args.table is not None and not 1 <= args.table <= len(tables):
            raise HistoryError(
                N_("there is no table {table} in {path}"), table=args.table, path=args.file
            )
        table = tables[args.table - 1 if args.table is not None else -1]
        viewer, info = table.choose(args.as_name, spectator=args.spectator)
        frames = table.frames_to_the_end(viewer)
        check_fits(table, frames)
    except HistoryError as error:
        return _fail(error.told(t._), 2)
    if info.kind == "host":
        return _fail(t._("this file holds the host's view: use dalmuti history FILE --as host"), 2)
    from ..client.ui.replay import Replay
    from ..client.ui.replay_app import build_replay_application
    from ..lang.words import terminal_is_utf8

    replay = Replay(
        t,
        frames,
        spectator=info.kind == "spectator",
        ascii_symbols=args.ascii or not terminal_is_utf8(),
    )
    if not replay.steps:
        return _fail(t._("nothing happened at this table yet: there is nothing to replay"), 2)
    if args.hand is not None and not replay.go_to_hand(args.hand):
        hands = replay.hands
        if not hands:
            return _fail(t._("no hand was dealt in this history"), 2)
        return _fail(
            t._("there is no hand {hand} in this history (hands {first} to {last})").format(
                hand=args.hand, first=hands[0], last=hands[-1]
            ),
            2,
        )
    if not has_a_terminal():
        return _fail(
            t._(
                "there is no terminal here to show the replay in; dalmuti history FILE "
                "--hand N tells a hand as lines of text"
            ),
            ExitCode.CANNOT_START,
        )
    build_replay_application(replay).run()
    return 0


def _fail(message: str, code: int) -> int:
    tell(f"dalmuti replay: {message}")
    return code
