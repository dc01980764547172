"""`dalmuti host` and the saves folder: the offer to take up a table whose host did not end
cleanly, ``--resume`` with no file, and the words that describe a save.

Which tables are there, and whether their host stopped cleanly, is read from the saves
themselves (``host.saved_tables``, ``host.savefile.summarize``).
"""

from __future__ import annotations

import logging
import shlex
import sys
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path

from ..host.saved_tables import SavedTable, saved_tables
from ..host.savefile import SaveError, SaveFile, read_save
from ..lang.i18n import Translator
from ..lang.text import tidy
from ..protocol.text import shown
from .common import CommandError
from .host_options import HostOptions

log = logging.getLogger(__name__)

LATEST = Path("\x00latest")
"""``--resume`` given no file: the latest unfinished table of the saves folder (a path
that no file can have)."""

REPLAYS = 5
"""Saves whose host did not end cleanly replayed at most, to tell whether their table had
ended (each one so told is marked, and not replayed again)."""


def unfinished_tables(folder: Path) -> Iterator[SavedTable]:
    """The saves of ``folder`` whose table can go on, newest first: not finished, and not
    held by a running host. One whose host did not end cleanly is replayed to tell whether
    its table had ended (then it is marked finished, as its host would have at the end)."""
    replays = 0
    for saved in saved_tables(folder):
        if saved.summary is None or saved.in_use or saved.finished:
            continue
        if saved.interrupted:
            if replays == REPLAYS:
                continue
            replays += 1
            ended = _has_ended(saved.path)
            if ended is None:
                continue  # damaged: `dalmuti host --resume FILE` says how
            if ended:
                _mark_stopped(saved.path, finished=True)
                continue
        yield saved


def _has_ended(path: Path) -> bool | None:
    """Whether the table saved at ``path`` had ended; None if it cannot be rebuilt."""
    from .host_runtime import _rebuild

    try:
        saved = read_save(path)
        _settings, table = _rebuild(path, saved.header, saved.entries)
    except SaveError:
        return None
    return table.phase == "ended"


def _mark_stopped(path: Path, *, finished: bool) -> None:
    """Give a save the clean stop's mark its host could not write (best effort)."""
    try:
        save, _saved = SaveFile.resume(path)
    except (SaveError, OSError) as error:
        log.warning("could not mark %s as stopped: %s", path, error)
        return
    save.close(finished=finished)


def latest_unfinished(options: HostOptions, t: Translator) -> HostOptions:
    """``--resume`` with no file: the latest unfinished table of the saves folder."""
    folder = options.saves_folder
    assert folder is not None
    latest = next(unfinished_tables(folder), None)
    if latest is None:
        raise CommandError(
            t._(
                "there is no unfinished table to resume in {folder}; dalmuti history lists "
                "the saved tables"
            ).format(folder=folder)
        )
    return replace(options, resume=latest.path)


def offer_interrupted(
    options: HostOptions,
    t: Translator,
    *,
    interactive: bool | None = None,
    read: Callable[[str], str] = input,
    say: Callable[[str], None] = lambda line: print(shown(line), flush=True),
) -> HostOptions:
    """A new table is about to open: if the latest unfinished table's host did not end
    cleanly, the host player is asked whether to take it up again (``options`` then
    resume it); with nobody to ask (``--headless``, no terminal), one line says how."""
    folder = options.saves_folder
    assert folder is not None
    latest = next(unfinished_tables(folder), None)
    if latest is None or not latest.interrupted:
        return options
    file = shlex.quote(shown(str(latest.path)))
    described = describe(t, latest)
    asking = not options.headless and (sys.stdin.isatty() if interactive is None else interactive)
    if not asking:
        say(
            t._(
                "{table} did not end cleanly: dalmuti host --resume {file} goes on with it."
            ).format(table=described, file=file)
        )
        return options
    say(t._("{table} did not end cleanly.").format(table=described))
    yes = _words(t._("y,yes"), "y,yes")
    no = _words(t._("n,no"), "n,no")
    while True:
        try:
            answer = read(shown(t._("Take it up again where it stopped? [Y/n] ")))
        except EOFError:
            answer = None
        if answer is None:
            say(t._("dalmuti host --resume {file} goes on with it.").format(file=file))
            return options
        word = answer.strip().casefold()
        if not word or word in yes:
            return replace(options, resume=latest.path)
        if word in no:
            _mark_stopped(latest.path, finished=False)
            say(
                t._(
                    "A new table opens; that one stays in {file} (dalmuti host --resume "
                    "{file} goes on with it)."
                ).format(file=file)
            )
            return options
        say(t._("Please answer y (take it up again) or n (open a new table)."))


def _words(translated: str, english: str) -> set[str]:
    """The answers a question takes: its language's (listed with commas, or 、 in
    Chinese), and English's."""
    listed = f"{translated},{english}".replace("、", ",").replace("，", ",")
    return {word.strip().casefold() for word in listed.split(",") if word.strip()}


def describe(t: Translator, saved: SavedTable) -> str:
    """“Ana's table” (opened 2026-12-07 21:40; 3 hands dealt; Ana, Bo, Cy, Di)."""
    summary = saved.summary
    assert summary is not None
    hands = t.n_("{n} hand dealt", "{n} hands dealt", summary.hands).format(n=summary.hands)
    return tidy(
        t._("“{name}” (opened {when}; {hands}; {players})").format(
            name=summary.name,
            when=f"{saved.when:%Y-%m-%d %H:%M}",
            hands=hands,
            players=t.list_separator.join(summary.players) or t._("nobody seated"),
        )
    )
