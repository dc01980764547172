"""`dalmuti standings FILE...`: totals per player over every table in league files
(`dalmuti host --league`), hosts' saves and history files: points, hands, average place
and Greater Dalmuti count, in columns."""

from __future__ import annotations

import argparse
import sys

from ..lang.i18n import N_
from .common import say, tell
from .language import add_lang_argument


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "files",
        nargs="+",
        metavar="FILE",
        help=N_(
            "a league file (dalmuti host --league), a host's save, or a history file; "
            "a table found in several files counts once"
        ),
    )
    add_lang_argument(parser)


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from ..history.league import LeagueError, is_league, read_league
    from ..history.standings import TableResults, Tally, combine, keeps_score
    from ..lang.i18n import translator_for
    from ..rerun.sources import HistoryError, open_history
    from .record_check import check_fits
    from .standings_text import standings_lines

    try:
        t = translator_for(args.lang)
    except ValueError as error:
        print(f"dalmuti standings: {error}", file=sys.stderr)
        return 2
    tables: list[TableResults] = []
    try:
        for name in args.files:
            path = Path(name)
            if is_league(path):
                tables += read_league(path)
                continue
            for history in open_history(path):
                tally = Tally()
                viewer, _ = history.choose(None)
                check_fits(history, history.frames(viewer))
                frames = history.frames(viewer)
                tally.feed_messages(frames)
                names = {seat.player: seat.name for seat in history.seats.values()}
                bots = frozenset(s.player for s in history.seats.values() if s.kind == "bot")
                scored = keeps_score(frames)
                results = tally.results(names, bots, scored=scored)
                if results:
                    tables.append(TableResults(history.table_id, history.name, results, scored))
    except (LeagueError, HistoryError) as error:
        tell(f"dalmuti standings: {error.told(t._)}")
        return 2
    counted = {table.table_id or f"#{index}" for index, table in enumerate(tables)}
    say("\n".join(standings_lines(t, combine(tables), len(counted))))
    return 0
