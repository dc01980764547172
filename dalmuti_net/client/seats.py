"""The seats this user holds, remembered between runs: resume tokens by table id.

A seat is found by the host's table id (from its ``about`` and ``welcome``), never by the
host's address, so that a restarted client, a rebooted laptop or a host at a new address
all find the same seat. A table id is only a host's claim, though (anyone on the LAN can
announce any id), so:

- a token is never sent at all: a host must prove it holds it (PROTOCOL.md, "Security on
  the LAN"; ``dalmuti_net.protocol.resume``);
- a remembered seat is never replaced on the word of a host that proved nothing: a new
  seat's token (from a ``welcome``) is kept *beside* those of the same table id, and only a
  host that proved it holds one of them (``confirm``) makes the others go. A table id may
  therefore have a few seats at once, tried newest first.

Each seat keeps the address it was last taken or proven at, so that the table id seen at a
new address can be shown as such.

The file lives in the platform's state directory for the user (platformdirs: on Linux and
the BSDs ``$XDG_STATE_HOME/dalmuti-net``, else ``~/.local/state/dalmuti-net``; on macOS
``~/Library/Application Support/dalmuti-net``; on Windows under ``%LOCALAPPDATA%``): the
folder is made 0700 and the file 0600, since a token is a password for its seat. Writing is
best effort: a read-only home must not stop a game.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from platformdirs import user_state_path

from ..protocol.resume import seat_id

APP_DIR = "dalmuti-net"
FILE = "seats.json"
FORMAT = 2
"""Format 1 (before the proofs) mapped each table id to one seat; it is read still."""
KEEP = 64
"""Seats remembered at most: the oldest are forgotten first."""
KEEP_PER_TABLE = 8
"""Seats remembered for one table id at most (a host that claims a table's id and hands
out new seats over and over would otherwise push the real one out)."""


def state_dir() -> Path:
    return user_state_path(APP_DIR, appauthor=False)


@dataclass(frozen=True)
class RememberedSeat:
    table_id: str
    token: str
    name: str
    table: str
    """The table's name when the seat was taken, for messages."""
    address: str | None = None
    """Where the seat was taken, or last proven (``HOST:PORT``), if known."""
    proven: bool = False
    """A host has proven it holds this seat's token at least once."""
    at: float = 0.0
    """When the seat was last taken or proven (seconds since the epoch)."""


class SeatStore:
    """Resume tokens by table id, in one private JSON file."""

    def __init__(self, folder: Path | None = None) -> None:
        self.folder = folder if folder is not None else state_dir()
        self.path = self.folder / FILE

    def seats_for(self, table_id: str) -> list[RememberedSeat]:
        """This table id's seats in the order to ask for them back: those a host has proven
        first, then the newest first."""
        found = [
            seat
            for entry in self._load().values()
            if (seat := _seat(entry)) is not None and seat.table_id == table_id
        ]
        return sorted(found, key=lambda seat: (seat.proven, seat.at), reverse=True)

    def seat_for(self, table_id: str) -> RememberedSeat | None:
        """The seat of ``table_id`` asked back first."""
        seats = self.seats_for(table_id)
        return seats[0] if seats else None

    def remember(
        self,
        table_id: str,
        token: str,
        name: str,
        table: str,
        address: str | None = None,
        *,
        proven: bool = False,
    ) -> None:
        """Keep a seat (a new one, or one seen again), beside this table id's others."""
        seats = self._load()
        key = seat_id(token)
        before = seats.get(key)
        was_proven = isinstance(before, dict) and before.get("proven") is True
        seats[key] = {
            "table_id": table_id,
            "token": token,
            "name": name,
            "table": table,
            "address": address,
            "proven": proven or was_proven,
            "at": time.time(),
        }
        same_table = [k for k, entry in seats.items() if _table_of(entry) == table_id]
        _drop_oldest(seats, same_table, KEEP_PER_TABLE)
        _drop_oldest(seats, list(seats), KEEP)
        self._save(seats)

    def confirm(
        self, table_id: str, token: str, name: str, table: str, address: str | None = None
    ) -> None:
        """A host proved it holds ``token``: that seat is this table's, at ``address``, and
        the other seats remembered for this table id were not (they go)."""
        seats = self._load()
        key = seat_id(token)
        for other in [k for k, entry in seats.items() if _table_of(entry) == table_id]:
            if other != key:
                del seats[other]
        self._save(seats)
        self.remember(table_id, token, name, table, address, proven=True)

    def forget(self, token: str) -> None:
        """The seat of ``token`` is given up, or over."""
        seats = self._load()
        if seats.pop(seat_id(token), None) is not None:
            self._save(seats)

    def _load(self) -> dict[str, Any]:
        """Seats by seat id; the file is hostile too (a damaged one is no seat)."""
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError, RecursionError):
            return {}
        if not isinstance(data, dict):
            return {}
        if data.get("format") == FORMAT:
            seats = data.get("seats")
            return dict(seats) if isinstance(seats, dict) else {}
        # Format 1: {table_id: {token, name, table, at}}.
        upgraded: dict[str, Any] = {}
        for table_id, entry in data.items():
            if isinstance(entry, dict) and isinstance(entry.get("token"), str):
                upgraded[seat_id(entry["token"])] = {**entry, "table_id": table_id}
        return upgraded

    def _save(self, seats: dict[str, Any]) -> None:
        try:
            self.folder.mkdir(mode=0o700, parents=True, exist_ok=True)
            os.chmod(self.folder, 0o700)
            temporary = self.path.with_suffix(".tmp")
            descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(descriptor, "w", encoding="utf-8") as file:
                if hasattr(os, "fchmod"):  # not on Windows, where the folder is the user's
                    os.fchmod(file.fileno(), 0o600)  # an older file may have had other bits
                json.dump({"format": FORMAT, "seats": seats}, file, ensure_ascii=False)
            temporary.replace(self.path)
        except OSError:
            pass


def _seat(entry: Any) -> RememberedSeat | None:
    if not isinstance(entry, dict):
        return None
    table_id, token = entry.get("table_id"), entry.get("token")
    if not isinstance(table_id, str) or not isinstance(token, str) or not token:
        return None
    name, table, address = entry.get("name"), entry.get("table"), entry.get("address")
    return RememberedSeat(
        table_id,
        token,
        name if isinstance(name, str) else "",
        table if isinstance(table, str) else "",
        address if isinstance(address, str) else None,
        entry.get("proven") is True,
        _age(entry),
    )


def _table_of(entry: Any) -> str | None:
    table_id = entry.get("table_id") if isinstance(entry, dict) else None
    return table_id if isinstance(table_id, str) else None


def _drop_oldest(seats: dict[str, Any], keys: list[str], keep: int) -> None:
    """Over ``keep``: the seats no host ever proved go first, the oldest of them first."""

    def order(key: str) -> tuple[bool, float]:
        entry = seats[key]
        return (isinstance(entry, dict) and entry.get("proven") is True, _age(entry))

    for key in sorted(keys, key=order)[: max(0, len(keys) - keep)]:
        del seats[key]


def _age(entry: Any) -> float:
    at = entry.get("at") if isinstance(entry, dict) else None
    return float(at) if isinstance(at, int | float) else 0.0
