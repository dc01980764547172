"""`dalmuti history FILE`: the tables and hands in a host's save (or a history file), and
any hand told as one seat, a spectator or the host saw it, in words or as JSON Lines."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from ..lang.i18n import N_
from .common import say, tell
from .language import add_lang_argument

if TYPE_CHECKING:
    from ..history.record import ViewerInfo
    from ..lang.i18n import Translator
    from ..protocol.messages import Message
    from ..rerun.frames import Viewer
    from ..rerun.sources import TableHistory


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "file",
        metavar="FILE",
        nargs="?",
        help=N_(
            "a host's save (dalmuti host saves each table in the saves folder, or in --save "
            "FILE) or a history file (dalmuti join --record, dalmuti history --json); with "
            "no FILE, the saved tables are listed"
        ),
    )
    parser.add_argument("--hand", type=int, metavar="N", help=N_("tell hand N (default: list)"))
    who = parser.add_mutually_exclusive_group()
    who.add_argument(
        "--as",
        dest="as_name",
        metavar="NAME",
        help=N_("as the seat NAME saw it; 'host' for everything (only from the host's save)"),
    )
    who.add_argument("--spectator", action="store_true", help=N_("as a spectator saw it"))
    parser.add_argument("--table", type=int, metavar="N", help=N_("the file's Nth table"))
    parser.add_argument(
        "--rematch",
        type=int,
        metavar="N",
        help=N_("the table's Nth rematch, as the list numbers them (default: its first game)"),
    )
    parser.add_argument(
        "--json",
        action="store_true",
        help=N_("JSON Lines, one message a line (format: protocol/HISTORY.md)"),
    )
    add_lang_argument(parser)


def run(args: argparse.Namespace) -> int:
    try:
        return _run(args)
    except BrokenPipeError:
        # The reader (``| head``) has gone: stop quietly, as other tools do.
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


def _run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from ..history.problems import N_
    from ..lang.i18n import translator_for
    from ..rerun.sources import HistoryError, open_history
    from .record_check import check_fits

    try:
        t = translator_for(args.lang)
    except ValueError as error:
        return _fail(str(error), 2)
    if args.file is None:
        return _saved_tables(t, args)
    try:
        tables = open_history(Path(args.file))
        if args.table is not None and not 1 <= args.table <= len(tables):
            raise HistoryError(
                N_("there is no table {table} in {path}"), table=args.table, path=args.file
            )
        wanted = [tables[args.table - 1]] if args.table is not None else tables
        for table in wanted:
            check_fits(table, table.frames(table.choose(None)[0]))
        chose = args.as_name is not None or args.spectator
        if args.hand is None and args.rematch is None and not args.json and not chose:
            _list(t, wanted)
            return 0
        table = wanted[-1]
        viewer, info = table.choose(args.as_name, spectator=args.spectator)
        frames = table.frames(viewer)
    except HistoryError as error:
        return _fail(error.told(t._), 2)
    return _tell(t, args, table, viewer, info, frames)


def _saved_tables(t: Translator, args: argparse.Namespace) -> int:
    """``dalmuti history`` with no file: the saves folder's tables, newest first."""
    from ..host.saved_tables import tables_folder
    from .history_text import saved_tables_listing

    chose = [
        option
        for option, given in (
            ("--hand", args.hand is not None),
            ("--as", args.as_name is not None),
            ("--spectator", args.spectator),
            ("--table", args.table is not None),
            ("--rematch", args.rematch is not None),
            ("--json", args.json),
        )
        if given
    ]
    if chose:
        return _fail(
            t._(
                "{option} needs a FILE (with no FILE, dalmuti history lists the saved tables)"
            ).format(option=chose[0]),
            2,
        )
    say("\n".join(saved_tables_listing(t, tables_folder())))
    return 0


def _list(t: Translator, tables: list[TableHistory]) -> None:
    from .history_text import table_listing

    for index, table in enumerate(tables):
        viewer, _ = table.choose(None)
        players = [seat.player for seat in table.seats.values() if seat.played]
        if index:
            say("")
        say("\n".join(table_listing(t, table.number, table.name, table.frames(viewer), players)))


def _tell(
    t: Translator,
    args: argparse.Namespace,
    table: TableHistory,
    viewer: Viewer,
    info: ViewerInfo,
    frames: list[Message],
) -> int:
    from ..history.hands import HandCounter, HandSpan, game_spans, hand_spans
    from ..history.record import header_line, message_line
    from ..rerun.frames import HOST
    from .history_text import history_title, names_in, tell

    operator = viewer == HOST
    lines = tell(t, frames, info.player if info.kind == "seat" else None, operator)
    # A rematch numbers its hands from 1 again: a hand is one of a game's (the first
    # game's unless --rematch says), and --rematch alone tells that game whole.
    games = game_spans(frames)
    rematch = args.rematch
    if rematch is not None and not 1 <= rematch < len(games):
        if len(games) == 1:
            return _fail(t._("this table had no rematch"), 2)
        return _fail(
            t.n_(
                "there is no rematch {rematch} at this table (it had {n} rematch)",
                "there is no rematch {rematch} at this table (it had {n} rematches)",
                len(games) - 1,
            ).format(rematch=rematch, n=len(games) - 1),
            2,
        )
    start, end = 0, len(frames)
    if rematch is not None or args.hand is not None:
        start, end = games[rematch or 0].start, games[rematch or 0].end
    spans = [
        HandSpan(span.number, span.start + start, span.end + start)
        for span in hand_spans(frames[start:end])
    ]
    if args.hand is not None:
        dealt = [span for span in spans if span.number > 0]
        chosen = [span for span in spans if span.number == args.hand]
        if not chosen or args.hand < 1:
            if not dealt:
                return _fail(t._("no hand was dealt in this history"), 2)
            return _fail(
                t._("there is no hand {hand} in this history (hands {first} to {last})").format(
                    hand=args.hand, first=dealt[0].number, last=dealt[-1].number
                ),
                2,
            )
        # The first hand is told with what came before it (the seating draw).
        keep = [s for s in spans if s.number == args.hand or (args.hand == 1 and s.number == 0)]
    else:
        keep = spans
    indices = [i for span in keep for i in range(span.start, span.end)]
    if args.json and indices and indices[0] > 0:
        indices = _context(frames, indices[0]) + indices
    out = sys.stdout
    if args.json:
        source = "save" if table.from_save else "client"
        out.write(header_line(table.name, table.table_id, info, source))
        counter = HandCounter()
        places = [counter.of(frame) for frame in frames]
        for i in indices:
            out.write(message_line(places[i], frames[i], lines[i]))
        return 0
    name = table.name
    if rematch is not None:
        name = t._("{table}, rematch {rematch}").format(table=name, rematch=rematch)
    say(history_title(t, name, info, args.hand, names_in(t, frames)))
    for i in indices:
        line = lines[i]
        if line is not None:
            say(line)
    return 0


def _context(frames: list[Message], start: int) -> list[int]:
    """A hand written on its own still says whose view it is (the first welcome) and who
    sits where (the last table message before it)."""
    welcome = next((i for i in range(start) if frames[i]["type"] == "welcome"), None)
    table = next((i for i in range(start - 1, -1, -1) if frames[i]["type"] == "table"), None)
    return sorted(i for i in {welcome, table} if i is not None)


def _fail(message: str, code: int) -> int:
    tell(f"dalmuti history: {message}")
    return code
