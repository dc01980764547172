"""The league file (`dalmuti host --league FILE`): every finished table's results by
player name, kept across evenings in SQLite (stdlib ``sqlite3``).

One row per table and player; a table that is resumed and ends again replaces its rows,
so no table counts twice.
"""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

from ..protocol.catalogue import MAX_NAME_CHARS, MAX_TABLE_NAME_CHARS
from ..protocol.text import clean_text, shown
from .problems import N_, Problem, too_large
from .standings import PlayerResult, TableResults

APPLICATION_ID = 0x444D4C47
"""``PRAGMA application_id``: 'DMLG', a dalmuti-net league."""
FORMAT = 1
SCHEMA = """
CREATE TABLE IF NOT EXISTS results (
    table_id TEXT NOT NULL,
    table_name TEXT NOT NULL,
    ended_at TEXT NOT NULL DEFAULT (datetime('now')),
    player TEXT NOT NULL,
    score INTEGER NOT NULL,
    place INTEGER,
    hands INTEGER NOT NULL,
    place_sum INTEGER NOT NULL,
    crowns INTEGER NOT NULL,
    bot INTEGER NOT NULL DEFAULT 0,
    scored INTEGER NOT NULL DEFAULT 1,
    PRIMARY KEY (table_id, player)
)
"""
BOT_COLUMN = "ALTER TABLE results ADD COLUMN bot INTEGER NOT NULL DEFAULT 0"
"""Leagues written before the column was added: readers that do not know it ignore it."""
SCORED_COLUMN = "ALTER TABLE results ADD COLUMN scored INTEGER NOT NULL DEFAULT 1"
"""Whether the row's table kept score (0: its points count in no total); added as ``bot``
was, and read as 1 from leagues written before."""


class LeagueError(Problem):
    """The file is not a league this version can use; the message says why."""


def is_league(path: Path) -> bool:
    try:
        with path.open("rb") as file:
            head = file.read(72)
    except OSError:
        return False
    return head.startswith(b"SQLite format 3\x00") and head[68:72] == APPLICATION_ID.to_bytes(
        4, "big"
    )


def _open(path: Path, create: bool) -> sqlite3.Connection:
    if not create and not path.exists():
        raise LeagueError(N_("there is no file {path}"), path=path)
    if path.exists() and path.stat().st_size and not is_league(path):
        raise LeagueError(N_("{path} is not a dalmuti-net league file"), path=path)
    if not create and path.stat().st_size > MAX_LEAGUE_BYTES:
        raise too_large(LeagueError, path, path.stat().st_size, MAX_LEAGUE_BYTES)
    try:
        where = path if create else path.resolve().as_uri() + "?mode=ro"
        connection = sqlite3.connect(where, uri=not create)
        version = connection.execute("PRAGMA user_version").fetchone()[0]
        if create and version == 0:
            with connection:
                connection.execute(f"PRAGMA application_id = {APPLICATION_ID}")
                connection.execute(f"PRAGMA user_version = {FORMAT}")
                connection.execute(SCHEMA)
        elif version == FORMAT and create:
            added = [
                column
                for name, column in (("bot", BOT_COLUMN), ("scored", SCORED_COLUMN))
                if not _has_column(connection, name)
            ]
            with connection:
                for column in added:
                    connection.execute(column)
        if version != FORMAT and not (create and version == 0):
            connection.close()
            raise LeagueError(
                N_("{path} has league format {version}, not {supported}"),
                path=path,
                version=version,
                supported=FORMAT,
            )
    except sqlite3.Error as error:
        raise LeagueError(
            N_("cannot use {path} as a league: {reason}"), path=path, reason=error
        ) from None
    return connection


def _has_column(connection: sqlite3.Connection, name: str) -> bool:
    return any(row[1] == name for row in connection.execute("PRAGMA table_info(results)"))


def open_league(path: Path) -> None:
    """Create ``path`` as a league if it is new; check it is one if not."""
    _open(path, create=True).close()


def save_results(path: Path, table: TableResults) -> None:
    try:
        with closing(_open(path, create=True)) as connection, connection:
            connection.execute("DELETE FROM results WHERE table_id = ?", (table.table_id,))
            connection.executemany(
                "INSERT INTO results (table_id, table_name, player, score, place, hands,"
                " place_sum, crowns, bot, scored) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [_row(table, result) for result in table.results],
            )
    except sqlite3.Error as error:
        raise LeagueError(N_("cannot write to {path}: {reason}"), path=path, reason=error) from None


def _row(table: TableResults, r: PlayerResult) -> tuple[object, ...]:
    return (
        table.table_id,
        table.table,
        r.name,
        r.score,
        r.place,
        r.hands,
        r.place_sum,
        r.crowns,
        int(r.bot),
        int(table.scored),
    )


def read_league(path: Path) -> list[TableResults]:
    try:
        with closing(_open(path, create=False)) as connection:
            bot = "bot" if _has_column(connection, "bot") else "0"
            scored = "scored" if _has_column(connection, "scored") else "1"
            rows = connection.execute(
                "SELECT table_id, table_name, player, score, place, hands, place_sum, crowns,"
                f" {bot}, {scored} FROM results ORDER BY ended_at, table_id, player"
            ).fetchall()
    except sqlite3.Error as error:
        raise LeagueError(N_("cannot read {path}: {reason}"), path=path, reason=error) from None
    tables: dict[str, TableResults] = {}
    for number, row in enumerate(rows, start=1):
        if not _well_typed(row):
            raise LeagueError(
                N_("{path} is damaged: result {number} holds a value of the wrong kind or size"),
                path=path,
                number=number,
            )
        table_id, name, player, score, place, hands, place_sum, crowns, played_by_bot, kept = row
        name = _shown(name, MAX_TABLE_NAME_CHARS)
        player = _shown(player, MAX_NAME_CHARS)
        result = PlayerResult(player, score, place, hands, place_sum, crowns, bool(played_by_bot))
        known = tables.get(table_id)
        results = (*known.results, result) if known else (result,)
        tables[table_id] = TableResults(table_id, name, results, bool(kept))
    return list(tables.values())


ROW_TYPES: tuple[tuple[type, ...], ...] = (
    (str,),  # table_id
    (str,),  # table_name
    (str,),  # player
    (int,),  # score
    (int, type(None)),  # place
    (int,),  # hands
    (int,),  # place_sum
    (int,),  # crowns
    (int,),  # bot
    (int,),  # scored
)
"""What each column read must be: SQLite keeps any type in any column, and a league is a
file passed between friends."""
MAX_LEAGUE_TEXT = 1000
MAX_LEAGUE_BYTES = 32 * 1024 * 1024
"""A league read at most: some 300,000 results (a table's row is about a hundred bytes)."""
MAX_LEAGUE_NUMBER = 2**40
"""Far past any evening's points or hands, and small enough to add up without surprise."""


def _well_typed(row: tuple[object, ...]) -> bool:
    for value, types in zip(row, ROW_TYPES, strict=True):
        if type(value) not in types:
            return False
        if isinstance(value, str) and len(value) > MAX_LEAGUE_TEXT:
            return False
        if isinstance(value, int) and abs(value) > MAX_LEAGUE_NUMBER:
            return False
    return True


def _shown(text: str, limit: int) -> str:
    """A name as the host would have sent it: no control or invisible character."""
    return clean_text(shown(text))[:limit] or "?"
