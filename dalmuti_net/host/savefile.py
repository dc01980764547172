"""The table's save on disk (`dalmuti host --save FILE` / `--resume FILE`): an SQLite
database (stdlib ``sqlite3``) holding how the table was built and every change it
accepted, so that a host that crashed rebuilds the same table, and hand histories,
replays and standings are read from the same file.

What is kept: the table's settings (rules, seed, name...) and its accepted inputs in
order, each tagged with the hand it belongs to. The engine is deterministic given the
seed, so these replay to exactly the table that was live (tests hold the two against
each other); events and messages are derived from them, never stored twice.

How it is kept: while a host writes it, WAL with ``synchronous=FULL``, one transaction
per batch of changes the server commits before anything is acknowledged; a crash at any
moment leaves the last committed batch or the one before it, never half of one. A host
that stops cleanly folds the log into the file and leaves it in rollback-journal mode:
a save at rest is one file, and readers open it without creating anything beside it.
The format is ``PRAGMA user_version``; ``PRAGMA application_id`` says the file is a
dalmuti-net save. Each change
carries a checksum and the file counts its changes, so damage is refused with one
sentence instead of replaying an older state. (One limit: SQLite's log checksums its
frames and stops reading at the first bad one, as after a crash, so damage inside a log
that a crash left behind reads as a crash at that point; the file itself has no such
blind spot.) While a host writes the file it holds an exclusive ``flock`` on it: a
second host is refused (after half a second, in case the lock was a reader's brief
shared one), while readers (``dalmuti history``) can still read it.

Whether a host stopped cleanly is read from the file itself: a clean stop writes its mark
(``notes``' ``stopped``: whether the table had ended, and how many changes it held) in
the file's last transaction; a host that resumes the file takes the mark away in its
first. A file without a mark for its last change is one whose host did not end cleanly
(killed, crashed, power gone): ``dalmuti host`` offers it again (``host.saved_tables``).
The ports the host served on are noted too, so that a resumed table comes back where its
players' clients and pages look for it.
"""

from __future__ import annotations

import fcntl
import json
import logging
import os
import sqlite3
import threading
import time
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..protocol.nesting import load_json
from ..told import N_, Told

log = logging.getLogger(__name__)

APPLICATION_ID = 0x444D5356
"""``PRAGMA application_id``: 'DMSV', a dalmuti-net host's save."""
FORMAT = 1
"""``PRAGMA user_version`` of the files this version writes and reads."""

PAGE_SIZE = 1024

LOCK_TRIES = 10
LOCK_RETRY_S = 0.05
"""A host finding its save's lock taken tries for half a second: a reader's is brief."""

SCHEMA = """
CREATE TABLE saved_table (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    table_id TEXT,
    name TEXT NOT NULL,
    header TEXT NOT NULL,
    changes INTEGER NOT NULL
);
CREATE TABLE changes (
    seq INTEGER PRIMARY KEY,
    hand INTEGER NOT NULL,
    op TEXT NOT NULL,
    entry TEXT NOT NULL,
    crc INTEGER NOT NULL
);
CREATE INDEX changes_by_hand ON changes (hand, seq);
CREATE TABLE IF NOT EXISTS notes (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
"""
"""``saved_table`` is the one table the file holds: ``header`` (JSON) says how to build
it, ``changes`` how many changes it accepted. ``changes`` are those changes (``entry``,
JSON, as ``Table.apply_saved`` takes them) numbered 1, 2... with no gap; ``hand`` is 0 in
the lobby, then the hand being played when the change was accepted; ``crc`` is the CRC-32
of ``entry``'s UTF-8 bytes. ``notes`` holds what the host says about its own run, never
a change of the table (readers of format 1 that predate it ignore it): ``stopped`` (JSON:
``finished``, ``changes``, ``at``), written by a clean stop; ``ports`` (JSON: ``port``,
``web_port``), the ports it served on."""

NOTES = "CREATE TABLE IF NOT EXISTS notes (key TEXT PRIMARY KEY, value TEXT NOT NULL)"


class SaveError(Told):
    """The file cannot be used as a save: one sentence saying why, told in the reader's
    language (``SaveError(N_("{path} ..."), path=path)``; see ``dalmuti_net.told``)."""


class SaveBusy(SaveError):
    """Another host is using the file."""


class SaveWriteError(Exception):
    """A batch could not be written (disk full, I/O error); nothing of it is in the file."""


@dataclass(frozen=True)
class Saved:
    header: dict[str, Any]
    """How to build the table (settings, seed, name...)."""
    entries: list[dict[str, Any]]
    """Every accepted change, in order."""
    hands: list[int]
    """The hand of each entry: 0 in the lobby, then 1, 2..."""


def _hand_after(hand: int, entry: dict[str, Any]) -> int:
    """The hand a change belongs to, given the hand before it."""
    return hand + 1 if entry.get("op") in ("start", "next_hand") else hand


class SaveFile:
    """A save open for writing by this host (it holds the file's lock until ``close``)."""

    def __init__(self, path: Path, lock: int, db: sqlite3.Connection, saved: Saved) -> None:
        self.path = path
        self._lock = lock
        self._db = db
        self._count = len(saved.entries)
        self._hand = saved.hands[-1] if saved.hands else 0
        self._using = threading.Lock()
        """One use of the connection at a time: the delivery task appends from trio's
        worker threads, the host notes its ports and closes from its own."""

    @property
    def hands(self) -> int:
        """How many hands the table has dealt (0: it is still in its first lobby)."""
        return self._hand

    @classmethod
    def create(cls, path: Path, header: dict[str, Any]) -> SaveFile:
        """A new save at ``path`` (which must not hold anything yet)."""
        lock = _lock(path)
        try:
            if os.fstat(lock).st_size:
                raise SaveError(N_("{path} already holds something; it was not changed"), path=path)
            for leftover in ("-wal", "-shm"):  # of a host that crashed while creating it
                Path(f"{path}{leftover}").unlink(missing_ok=True)
            db = _connect(path)
            try:
                with db:
                    db.execute("BEGIN IMMEDIATE")
                    for statement in SCHEMA.split(";"):
                        if statement.strip():
                            db.execute(statement)
                    db.execute(
                        "INSERT INTO saved_table (id, table_id, name, header, changes) "
                        "VALUES (1, ?, ?, ?, 0)",
                        (header.get("table_id"), str(header.get("name", "")), _dump(header)),
                    )
                    db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
                    db.execute(f"PRAGMA user_version = {FORMAT}")
                # The first page into the file itself (a new one is all in the log): a
                # look at the file says what it is, even after a crash.
                db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            except sqlite3.Error as error:
                db.close()
                raise SaveError(
                    N_("cannot write {path}: {reason}"), path=path, reason=error
                ) from None
        except BaseException:
            os.close(lock)
            raise
        return cls(path, lock, db, Saved(header, [], []))

    @classmethod
    def resume(cls, path: Path) -> tuple[SaveFile, Saved]:
        """Open the save at ``path`` to go on writing it, with what it holds."""
        if not path.exists():
            raise SaveError(N_("there is no file {path}"), path=path)
        _check_kind(path)
        lock = _lock(path)
        try:
            try:
                db = _connect(path)
            except sqlite3.Error as error:
                raise _damaged(path, error) from None
            try:
                saved = _read(db, path)
                # Written again from now on: until its next clean stop, the file says that
                # its host did not end cleanly.
                with db:
                    db.execute("BEGIN IMMEDIATE")
                    db.execute(NOTES)
                    db.execute("DELETE FROM notes WHERE key = 'stopped'")
            except sqlite3.Error as error:
                db.close()
                raise SaveError(
                    N_("cannot write {path}: {reason}"), path=path, reason=error
                ) from None
            except BaseException:
                db.close()
                raise
        except BaseException:
            os.close(lock)
            raise
        return cls(path, lock, db, saved), saved

    def append(self, entries: list[dict[str, Any]]) -> None:
        """Commit ``entries`` as one transaction, synced to disk before this returns.
        Raises ``SaveWriteError`` if it could not: then nothing of them is in the file and
        the same entries can be given again."""
        rows = []
        seq, hand = self._count, self._hand
        for entry in entries:
            seq += 1
            hand = _hand_after(hand, entry)
            text = _dump(entry)
            rows.append((seq, hand, str(entry.get("op")), text, zlib.crc32(text.encode())))

        def insert(db: sqlite3.Connection) -> None:
            db.executemany(
                "INSERT INTO changes (seq, hand, op, entry, crc) VALUES (?, ?, ?, ?, ?)", rows
            )
            db.execute("UPDATE saved_table SET changes = ? WHERE id = 1", (seq,))

        with self._using:
            try:
                self._write(insert)
            except sqlite3.Error as error:
                raise SaveWriteError(str(error)) from None
            self._count, self._hand = seq, hand

    def _write(self, statements: Callable[[sqlite3.Connection], None]) -> None:
        """``statements(db)`` as one transaction (``self._using`` held)."""
        if self._db.in_transaction:  # a failed attempt that could not roll back
            self._db.execute("ROLLBACK")
        self._db.execute("BEGIN IMMEDIATE")
        try:
            statements(self._db)
            self._db.execute("COMMIT")
        except BaseException:
            if self._db.in_transaction:
                self._db.execute("ROLLBACK")
            raise

    def _note(self, key: str, value: dict[str, Any]) -> None:
        def write(db: sqlite3.Connection) -> None:
            db.execute(NOTES)
            db.execute(
                "INSERT OR REPLACE INTO notes (key, value) VALUES (?, ?)", (key, _dump(value))
            )

        self._write(write)

    def note_ports(self, port: int, web_port: int | None) -> None:
        """Where the host serves the table, for a host that resumes it to serve it there
        again. Best effort: a file that cannot take it only loses that wish."""
        with self._using:
            try:
                self._note("ports", {"port": port, "web_port": web_port})
            except sqlite3.Error as error:
                log.warning("could not note the ports in %s: %s", self.path, error)

    def close(self, *, finished: bool = False) -> None:
        """Stop writing, cleanly: the clean stop's mark is written (``finished``: the table
        had ended), and the log is folded into the file, which is left as one file (no
        ``-wal``, no ``-shm``) that a user can copy or mail. Rollback-journal mode at rest
        also lets readers open it without creating anything beside it; resuming turns
        write-ahead logging on again."""
        with self._using:
            try:
                try:
                    stopped = {"finished": finished, "changes": self._count, "at": time.time()}
                    self._note("stopped", stopped)
                except sqlite3.Error as error:
                    # Then the file reads as a host that did not end cleanly: offered again.
                    log.warning("could not mark %s as stopped cleanly: %s", self.path, error)
                self._fold_and_close()
            finally:
                os.close(self._lock)

    def _fold_and_close(self) -> None:
        """Fold the write-ahead log into the file and close it (a clean stop's and a
        failed table's last step alike)."""
        try:
            self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            self._db.execute("PRAGMA journal_mode = DELETE")
        except sqlite3.Error as error:
            # Everything committed is safe in the log, which the next open replays.
            log.warning("could not fold the log into %s: %s", self.path, error)
        self._db.close()

    def release(self) -> None:
        """Stop writing without the clean stop's mark (a table that failed): the file
        keeps everything committed, folded into it as at a clean stop, and reads as one
        whose host did not end cleanly, which ``dalmuti host`` offers again."""
        with self._using:
            try:
                self._fold_and_close()
            finally:
                os.close(self._lock)


def read_save(path: Path) -> Saved:
    """What the save at ``path`` holds, read only (a host may be writing it meanwhile),
    leaving nothing behind: a save at rest (no host holds it, no log beside it) is read as
    an immutable file, under a shared lock so that no host starts writing it meanwhile,
    which needs no ``-shm`` and works in a read-only folder; a save a host is writing is
    read through the host's own log and index."""
    with _reading(path) as (db, _busy):
        return _read(db, path)


@dataclass(frozen=True)
class SaveSummary:
    """What a list of saves shows of one, read without replaying it."""

    path: Path
    name: str
    header: dict[str, Any]
    players: list[str]
    """Everyone ever seated, in the order they sat down."""
    hands: int
    """Hands dealt (over every game, rematches included)."""
    changes: int
    stopped: dict[str, Any] | None
    """The clean stop's mark (``finished``...), or None: its host did not end cleanly,
    or is running now (``in_use``)."""
    ports: dict[str, Any] | None
    """Where its host last served it (``port``, ``web_port``), if it said."""
    in_use: bool
    """A running host holds it."""

    @property
    def finished(self) -> bool:
        """The table had ended when its host stopped cleanly."""
        return self.stopped is not None and self.stopped.get("finished") is True


def summarize(path: Path) -> SaveSummary:
    """The save at ``path`` in brief (``SaveError`` if it cannot be read as one). Quick: the
    changes are counted, not checked one by one as ``read_save`` checks them."""
    with _reading(path) as (db, busy):
        try:
            db.execute("BEGIN")
            try:
                if db.execute("PRAGMA application_id").fetchone()[0] != APPLICATION_ID:
                    raise SaveError(
                        N_("{path} is an SQLite database but not a dalmuti-net save"), path=path
                    )
                row = db.execute(
                    "SELECT name, header, changes FROM saved_table WHERE id = 1"
                ).fetchone()
                if row is None:
                    raise SaveError(
                        N_("{path} is damaged: the table's settings are missing"), path=path
                    )
                header = _load(row[1], path, SETTINGS_UNREADABLE)
                if not isinstance(header, dict):
                    raise SaveError(
                        N_("{path} is damaged: the table's settings are not a map"), path=path
                    )
                players: list[str] = []
                for (text,) in db.execute(
                    "SELECT entry FROM changes WHERE op = 'seat' ORDER BY seq"
                ):
                    entry = _load(text, path, CHANGE_UNREADABLE, change="?")
                    name = entry.get("name") if isinstance(entry, dict) else None
                    if isinstance(name, str) and name not in players:
                        players.append(name)
                hands = db.execute("SELECT coalesce(max(hand), 0) FROM changes").fetchone()[0]
                notes: dict[str, Any] = {}
                has_notes = db.execute(
                    "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'notes'"
                ).fetchone()
                if has_notes:
                    for key, value in db.execute("SELECT key, value FROM notes"):
                        loaded = _load(value, path, SETTINGS_UNREADABLE)
                        if isinstance(loaded, dict):
                            notes[key] = loaded
            finally:
                if db.in_transaction:
                    db.execute("ROLLBACK")
        except (sqlite3.Error, UnicodeDecodeError) as error:
            raise _damaged(path, error) from None
    changes = row[2] if isinstance(row[2], int) else -1
    stopped = notes.get("stopped")
    if busy or stopped is None or stopped.get("changes") != changes:
        stopped = None  # not a mark for this file's last change: not a clean stop
    return SaveSummary(
        path=path,
        name=str(row[0]),
        header=header,
        players=players,
        hands=hands if isinstance(hands, int) else 0,
        changes=changes,
        stopped=stopped,
        ports=notes.get("ports"),
        in_use=busy,
    )


@contextmanager
def _reading(path: Path) -> Iterator[tuple[sqlite3.Connection, bool]]:
    """A read-only connection to the save at ``path`` (see ``read_save``), and whether a
    running host holds the file."""
    if not path.exists():
        raise SaveError(N_("there is no file {path}"), path=path)
    _check_kind(path)
    try:
        probe = os.open(path, os.O_RDONLY)
    except OSError as error:
        raise SaveError(
            N_("cannot read {path}: {reason}"), path=path, reason=error.strerror
        ) from None
    try:
        try:
            fcntl.flock(probe, fcntl.LOCK_SH | fcntl.LOCK_NB)
            busy = False
        except OSError:
            busy = True  # a host holds it
        at_rest = not busy and not Path(f"{path}-wal").exists()
        mode = "ro&immutable=1" if at_rest else "ro"
        try:
            db = sqlite3.connect(
                f"{path.resolve().as_uri()}?mode={mode}", uri=True, isolation_level=None
            )
        except sqlite3.Error as error:
            raise _damaged(path, error) from None
        try:
            yield db, busy
        finally:
            db.close()
    finally:
        os.close(probe)  # and its shared lock


SQLITE_MAGIC = b"SQLite format 3\x00"


def _check_kind(path: Path) -> None:
    """Refuse, in words, a file that is not a save at all."""
    try:
        with path.open("rb") as file:
            head = file.read(100)
    except OSError as error:
        raise SaveError(
            N_("cannot read {path}: {reason}"), path=path, reason=error.strerror
        ) from None
    if not head:
        raise SaveError(N_("{path} is empty: it is not a dalmuti-net save"), path=path)
    if not head.startswith(SQLITE_MAGIC):
        if len(head) >= 5 and (0x80 <= head[4] <= 0x8F or head[4] in (0xDE, 0xDF)):
            raise SaveError(
                N_(
                    "{path} is a save from an older dalmuti-net (its own file format, before "
                    "SQLite); this version cannot read it"
                ),
                path=path,
            )
        raise SaveError(
            N_("{path} is not a dalmuti-net save (it is not an SQLite database)"), path=path
        )
    if len(head) < 100:
        raise SaveError(N_("{path} is damaged: its first page is cut short"), path=path)


def in_use(path: Path) -> bool:
    """Whether a running host holds the save at ``path`` (its lock is taken)."""
    try:
        probe = os.open(path, os.O_RDONLY)
    except OSError:
        return False
    try:
        fcntl.flock(probe, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except OSError:
        return True
    finally:
        os.close(probe)  # closing it lets go of a lock this probe took
    return False


def _lock(path: Path) -> int:
    """Open ``path`` (created 0600 if new) and take its exclusive lock, or refuse (``SaveBusy``)."""
    try:
        lock = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    except OSError as error:
        raise SaveError(
            N_("cannot open {path}: {reason}"), path=path, reason=error.strerror
        ) from None
    if not _take_exclusive(lock):
        os.close(lock)
        raise SaveBusy(
            N_(
                "{path} is in use by another running host; stop that host first, or save "
                "this table to another file"
            ),
            path=path,
        ) from None
    return lock


def _take_exclusive(lock: int) -> bool:
    """Take the file's exclusive lock; False if a host holds it. A reader (``read_save``)
    holds a shared lock for the moment it reads, so a busy lock is tried again for a
    little while before the file is called in use."""
    for _ in range(LOCK_TRIES):
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True
        except OSError:
            time.sleep(LOCK_RETRY_S)
    return False


def _connect(path: Path) -> sqlite3.Connection:
    # Autocommit mode: transactions are begun and committed explicitly. The delivery task
    # writes from trio's worker threads, one batch at a time.
    db = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=0)
    try:
        # Small pages for small rows: a batch writes a few KiB to the log, not a few pages
        # of 4 KiB (only a new file takes it).
        db.execute(f"PRAGMA page_size = {PAGE_SIZE}")
        mode = db.execute("PRAGMA journal_mode = WAL").fetchone()[0]
        if str(mode).lower() != "wal":
            raise sqlite3.OperationalError(f"cannot use write-ahead logging ({mode})")
        db.execute("PRAGMA synchronous = FULL")
    except BaseException:
        db.close()
        raise
    return db


def _read(db: sqlite3.Connection, path: Path) -> Saved:
    # One read transaction: one snapshot of the file, though a host may commit meanwhile.
    try:
        db.execute("BEGIN")
        try:
            return _read_snapshot(db, path)
        finally:
            if db.in_transaction:
                db.execute("ROLLBACK")
    except (sqlite3.Error, UnicodeDecodeError) as error:
        raise _damaged(path, error) from None


def _read_snapshot(db: sqlite3.Connection, path: Path) -> Saved:
    try:
        if db.execute("PRAGMA application_id").fetchone()[0] != APPLICATION_ID:
            raise SaveError(
                N_("{path} is an SQLite database but not a dalmuti-net save"), path=path
            )
        version = db.execute("PRAGMA user_version").fetchone()[0]
        if version > FORMAT:
            raise SaveError(
                N_(
                    "{path} was written by a newer dalmuti-net (save format {version}; this "
                    "version reads format {format})"
                ),
                path=path,
                version=version,
                format=FORMAT,
            )
        if version != FORMAT:
            raise SaveError(
                N_("{path} has save format {version}, which this version cannot read"),
                path=path,
                version=version,
            )
        check = db.execute("PRAGMA quick_check").fetchall()
        if check != [("ok",)]:
            raise SaveError(
                N_("{path} is damaged: SQLite's check says {reason}"),
                path=path,
                reason=repr(check[0][0]),
            )
        row = db.execute("SELECT header, changes FROM saved_table WHERE id = 1").fetchone()
        if row is None:
            raise SaveError(N_("{path} is damaged: the table's settings are missing"), path=path)
        header = _load(row[0], path, SETTINGS_UNREADABLE)
        if not isinstance(header, dict):
            raise SaveError(N_("{path} is damaged: the table's settings are not a map"), path=path)
        entries: list[dict[str, Any]] = []
        hands: list[int] = []
        hand = 0
        query = "SELECT seq, hand, entry, crc FROM changes ORDER BY seq"
        for seq, stored_hand, text, crc in db.execute(query):
            if seq != len(entries) + 1:
                raise SaveError(
                    N_("{path} is damaged: change {change} is missing"),
                    path=path,
                    change=len(entries) + 1,
                )
            if not isinstance(text, str) or zlib.crc32(text.encode()) != crc:
                raise SaveError(
                    N_("{path} is damaged: change {change} does not match its checksum"),
                    path=path,
                    change=seq,
                )
            entry = _load(text, path, CHANGE_UNREADABLE, change=seq)
            if not isinstance(entry, dict):
                raise SaveError(
                    N_("{path} is damaged: change {change} is not a map"), path=path, change=seq
                )
            hand = _hand_after(hand, entry)
            if stored_hand != hand:
                raise SaveError(
                    N_("{path} is damaged: change {change} is filed under the wrong hand"),
                    path=path,
                    change=seq,
                )
            entries.append(entry)
            hands.append(hand)
        if len(entries) != row[1]:
            raise SaveError(
                N_("{path} is damaged: it counts {counted} changes but holds {held}"),
                path=path,
                counted=row[1],
                held=len(entries),
            )
    except (sqlite3.Error, UnicodeDecodeError) as error:
        raise _damaged(path, error) from None
    return Saved(header, entries, hands)


def _damaged(path: Path, error: sqlite3.Error | UnicodeDecodeError) -> SaveError:
    return SaveError(
        N_("{path} is damaged or unreadable: SQLite says {reason}"),
        path=path,
        reason=repr(str(error)),
    )


def _dump(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


SETTINGS_UNREADABLE = N_("{path} is damaged: the table's settings cannot be read")
CHANGE_UNREADABLE = N_("{path} is damaged: change {change} cannot be read")


def _load(text: Any, path: Path, unreadable: str, **values: object) -> Any:
    try:
        return load_json(text)  # bounded in depth: a file is hostile
    except (TypeError, ValueError):
        raise SaveError(unreadable, path=path, **values) from None
