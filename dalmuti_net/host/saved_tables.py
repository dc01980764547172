"""The folder every table is saved in by default: one file per table, named by the day,
the time and the table's name, in the user's state folder (platformdirs, as the seats the
user holds: on Linux ``$XDG_STATE_HOME/dalmuti-net/tables``, else
``~/.local/state/dalmuti-net/tables``). The folder is private (0700) and each save too
(0600): a save holds its seats' resume tokens.

What is read here comes from the saves themselves (``savefile.summarize``): whether a
table's host stopped cleanly is the clean stop's mark in the file, not a second file that
could disagree with it.

Pruning: the saves of the ``KEEP_FINISHED`` newest finished tables are kept; older
finished ones are deleted when a host starts saving in the folder. A table that has not
finished (stopped before its end, or whose host did not end cleanly) is never deleted, nor
a save a running host holds, nor a file that cannot be read as a save.
"""

from __future__ import annotations

import fcntl
import os
import unicodedata
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from platformdirs import user_state_path

from .savefile import SaveError, SaveSummary, summarize

APP_DIR = "dalmuti-net"
FOLDER = "tables"
SUFFIX = ".save"
KEEP_FINISHED = 50
"""Finished tables whose saves are kept (the newest; older ones are pruned)."""
NAME_CHARS = 40
"""At most this many characters of the table's name in a file's name."""


def tables_folder() -> Path:
    """Where tables are saved by default (it may not exist yet)."""
    return user_state_path(APP_DIR, appauthor=False) / FOLDER


def file_stem(name: str, when: datetime) -> str:
    """``2026-12-07_21-40_Anas-table``: the day and time a table opened and its name, in
    characters every file system takes (letters and digits of any script; any other
    character becomes ``-``; apostrophes go)."""
    text = unicodedata.normalize("NFC", name)
    kept = []
    for char in text:
        if char in "'’`´":
            continue
        kept.append(char if char.isalnum() and char.isprintable() else "-")
    slug = "-".join(part for part in "".join(kept).split("-") if part)[:NAME_CHARS].strip("-")
    return f"{when:%Y-%m-%d_%H-%M}_{slug or 'table'}"


def new_save_path(folder: Path, name: str, when: datetime) -> Path:
    """A new, empty file in ``folder`` (made, private, if need be) for a table called
    ``name`` opened at ``when``; ``_2``, ``_3``... tell apart tables opened in the same
    minute under the same name. The file is created here, so that no other host takes
    the same name meanwhile."""
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    stem = file_stem(name, when)
    number = 1
    while True:
        path = folder / f"{stem}{'' if number == 1 else f'_{number}'}{SUFFIX}"
        try:
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        except FileExistsError:
            number += 1
            continue
        return path


@dataclass(frozen=True)
class SavedTable:
    """One file of the folder: its summary, or why it cannot be read."""

    path: Path
    when: datetime
    """When the table opened (the save says it, else the file's name), else when the file
    was last written."""
    summary: SaveSummary | None
    problem: SaveError | None = None

    @property
    def interrupted(self) -> bool:
        """Its host did not end cleanly, and is not running now."""
        s = self.summary
        return s is not None and not s.in_use and s.stopped is None

    @property
    def finished(self) -> bool:
        return self.summary is not None and self.summary.finished

    @property
    def in_use(self) -> bool:
        return self.summary is not None and self.summary.in_use


def saved_tables(folder: Path) -> list[SavedTable]:
    """The saves in ``folder``, newest first."""
    try:
        paths = [p for p in folder.iterdir() if p.name.endswith(SUFFIX) and p.is_file()]
    except OSError:
        return []
    found = []
    for path in paths:
        try:
            mtime = datetime.fromtimestamp(path.stat().st_mtime).astimezone()
        except OSError:
            continue  # gone meanwhile
        named = _named(path) or mtime
        try:
            summary = summarize(path)
        except SaveError as problem:
            found.append(SavedTable(path, named, None, problem))
            continue
        found.append(SavedTable(path, _opened(summary) or named, summary))
    found.sort(key=lambda saved: (saved.when, saved.path.name), reverse=True)
    return found


def _named(path: Path) -> datetime | None:
    """The day and time in a file name this module gave (``file_stem``)."""
    try:
        return datetime.strptime(path.name[:16], "%Y-%m-%d_%H-%M").astimezone()
    except ValueError:
        return None


def _opened(summary: SaveSummary) -> datetime | None:
    opened = summary.header.get("opened")
    if not isinstance(opened, str):
        return None
    try:
        when = datetime.fromisoformat(opened)
    except ValueError:
        return None
    return when if when.tzinfo is not None else when.astimezone()


def prune(folder: Path, keep: int = KEEP_FINISHED) -> list[Path]:
    """Delete the saves of finished tables beyond the ``keep`` newest; the files deleted.
    Only finished tables' saves go, and none that a host holds (it is locked first)."""
    finished = [saved for saved in saved_tables(folder) if saved.finished]
    deleted = []
    for saved in finished[keep:]:
        if _delete_unless_held(saved.path):
            deleted.append(saved.path)
    return deleted


def _delete_unless_held(path: Path) -> bool:
    try:
        probe = os.open(path, os.O_RDONLY)
    except OSError:
        return False
    try:
        try:
            fcntl.flock(probe, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            return False  # a host (or a reader) holds it now
        try:
            path.unlink()
        except OSError:
            return False
        return True
    finally:
        os.close(probe)
