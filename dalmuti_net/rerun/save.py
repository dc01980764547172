"""Opening a host's save read-only: per table, how to build it and its accepted changes.

The rest of ``rerun`` sees only ``SavedTable``; this module is the one that knows the
file's format.
"""

from __future__ import annotations

import os
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..history.problems import N_, Problem, too_large
from ..host.savefile import SQLITE_MAGIC, read_save
from ..host.savefile import SaveError as UnreadableSave
from ..host.settings import SettingsError, settings_from_dict
from ..host.table import Limits
from ..protocol.catalogue import MAX_TABLE_NAME_CHARS
from ..protocol.text import clean_text, shown


class SaveError(Problem):
    """The file is not a save this version can read; the message says why in one sentence
    (``SaveError(N_("... {path} ..."), path=path)``, or a finished sentence)."""


@dataclass(frozen=True)
class SavedTable:
    number: int
    """1, 2...: the table's place in the file."""
    name: str
    settings: dict[str, Any]
    """``Table(**settings)`` builds the table as it was before its first change."""
    entries: tuple[dict[str, Any], ...]
    """Every accepted change, in order, as ``Table.apply_saved`` takes them."""


def open_save(path: Path) -> list[SavedTable]:
    """The tables in the host's save at ``path``."""
    if not _looks_like_a_save(path):
        raise SaveError(
            N_("{path} is not a dalmuti-net file (a host's save, a league or a history)"),
            path=path,
        )
    size = _size_with_log(path)
    if size > MAX_SAVE_BYTES:
        raise too_large(SaveError, path, size, MAX_SAVE_BYTES)
    try:
        saved = read_save(path)
    except UnreadableSave as error:
        if _log_unreadable_here(path):
            raise SaveError(LOG_IN_A_READ_ONLY_FOLDER, path=path) from None
        raise SaveError(error.template, **error.values) from None
    header, entries = saved.header, saved.entries
    if len(entries) > MAX_SAVE_CHANGES:
        raise SaveError(
            N_(
                "{path} holds more changes than this version plays again ({count}; at most {limit})"
            ),
            path=path,
            count=len(entries),
            limit=MAX_SAVE_CHANGES,
        )
    try:
        _check_header_types(header)
        settings = settings_from_dict(
            {"rules": header["rules"], "table": header["table"]}, str(path)
        )
        turn_timer = settings.turn_timer
        arguments = {
            "name": header["name"],
            "rules": settings.rules,
            "code": header["code"],
            "seed": header["seed"],
            "headless": header["headless"],
            "table_id": header.get("table_id"),
            "limits": Limits(
                grace_period_ms=int(settings.grace_period * 1000),
                turn_timer_ms=None if not turn_timer else int(turn_timer * 1000),
            ),
            # The clocks as `dalmuti host` set them from the same settings (a replay's
            # rules summary shows them).
            "results_ms": int(settings.between_hands * 1000),
            "bot_pace_ms": round(settings.bot_pace * 1000),
        }
    except (KeyError, TypeError, SettingsError) as error:
        raise SaveError(
            N_("{path} has a damaged header ({reason})"), path=path, reason=error
        ) from None
    name = clean_text(shown(header["name"]))[:MAX_TABLE_NAME_CHARS] or "Dalmuti table"
    return [SavedTable(1, name, arguments, tuple(entries))]


HEADER_TYPES: dict[str, tuple[type, ...]] = {
    "name": (str,),
    "code": (str, type(None)),
    "seed": (int, type(None)),  # None without --seed: the start entry holds the one drawn
    "headless": (bool,),
    "table_id": (str, type(None)),
}
"""What each field of a save's header must be: a file is hostile until checked."""


def _check_header_types(header: dict[str, Any]) -> None:
    for key, types in HEADER_TYPES.items():
        value = header[key] if key != "table_id" else header.get(key)
        if type(value) not in types or (isinstance(value, int) and abs(value) >= 2**64):
            raise TypeError(f"{key!r} is not {' or '.join(t.__name__ for t in types)}")
        if isinstance(value, str) and len(value) > MAX_HEADER_TEXT:
            raise TypeError(f"{key!r} is longer than {MAX_HEADER_TEXT} characters")


MAX_HEADER_TEXT = 1000


MAX_SAVE_BYTES = 32 * 1024 * 1024
"""A save (with its log) read at most: a change takes some 100 bytes, so this is far past
``MAX_SAVE_CHANGES``; it bounds what SQLite reads before the changes are counted."""
MAX_SAVE_CHANGES = 30_000
"""Changes played again at most: some 150 hands of seven players. Playing a save again
keeps every viewer's messages, some 10 KB a change (300 MB here, about a minute)."""


LOG_IN_A_READ_ONLY_FOLDER = N_(
    "{path} cannot be read in this folder: a host that did not stop cleanly left its log "
    "beside it ({path}-wal), which SQLite reads only with a file it must create there; copy "
    "both files to a folder you can write in"
)


def _log_unreadable_here(path: Path) -> bool:
    """Whether ``path`` is unreadable only for its folder: a save a host left with its log
    (a crash), in a folder where SQLite cannot create the log's index (``-shm``). A save at
    rest (one file) reads anywhere."""
    return (
        Path(f"{path}-wal").exists()
        and not Path(f"{path}-shm").exists()
        and not os.access(path.parent, os.W_OK)
    )


def _size_with_log(path: Path) -> int:
    size = 0
    for part in (path, Path(f"{path}-wal")):
        with suppress(OSError):  # no log; or the file itself, which reading it will say
            size += part.stat().st_size
    return size


def _looks_like_a_save(path: Path) -> bool:
    """A save is an SQLite database (or, from before, a framed msgpack map: ``read_save``
    says that this version no longer reads those)."""
    try:
        with path.open("rb") as file:
            head = file.read(len(SQLITE_MAGIC))
    except OSError:
        return True  # reading it properly says what is wrong
    if head.startswith(SQLITE_MAGIC):
        return True
    return len(head) >= 5 and (0x80 <= head[4] <= 0x8F or head[4] in (0xDE, 0xDF))
