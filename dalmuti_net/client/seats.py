"""The seats this user holds, remembered between runs: one resume token per table id.

A token is keyed by the host's table id (from its ``about`` and ``welcome``), never by the
host's address, so that a restarted client, a rebooted laptop or a host at a new address
all find the same seat, and a token is only ever sent to the table that issued it.

The file lives in the user's state directory (``$XDG_STATE_HOME/dalmuti-net``, else
``~/.local/state/dalmuti-net``): the folder is made 0700 and the file 0600, since a token
is a password for its seat. Writing is best effort: a read-only home must not stop a game.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

APP_DIR = "dalmuti-net"
FILE = "seats.json"
KEEP = 64
"""Tables remembered at most: the oldest are forgotten first."""


def state_dir(environ: Mapping[str, str] | None = None) -> Path:
    env = os.environ if environ is None else environ
    base = env.get("XDG_STATE_HOME") or str(
        Path(env.get("HOME", "~")).expanduser() / ".local" / "state"
    )
    return Path(base) / APP_DIR


@dataclass(frozen=True)
class RememberedSeat:
    table_id: str
    token: str
    name: str
    table: str
    """The table's name when the seat was taken, for messages."""


class SeatStore:
    """Resume tokens per table id, in one private JSON file."""

    def __init__(self, folder: Path | None = None) -> None:
        self.folder = folder if folder is not None else state_dir()
        self.path = self.folder / FILE

    def seat_for(self, table_id: str) -> RememberedSeat | None:
        entry = self._load().get(table_id)
        if not isinstance(entry, dict):
            return None
        token, name, table = entry.get("token"), entry.get("name"), entry.get("table")
        if not isinstance(token, str) or not token:
            return None
        return RememberedSeat(
            table_id,
            token,
            name if isinstance(name, str) else "",
            table if isinstance(table, str) else "",
        )

    def remember(self, table_id: str, token: str, name: str, table: str) -> None:
        seats = self._load()
        seats[table_id] = {"token": token, "name": name, "table": table, "at": time.time()}
        if len(seats) > KEEP:
            oldest = sorted(seats, key=lambda key: _age(seats[key]))[: len(seats) - KEEP]
            for key in oldest:
                del seats[key]
        self._save(seats)

    def forget(self, table_id: str) -> None:
        seats = self._load()
        if seats.pop(table_id, None) is not None:
            self._save(seats)

    def _load(self) -> dict[str, Any]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def _save(self, seats: dict[str, Any]) -> None:
        try:
            self.folder.mkdir(mode=0o700, parents=True, exist_ok=True)
            os.chmod(self.folder, 0o700)
            temporary = self.path.with_suffix(".tmp")
            descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(descriptor, "w", encoding="utf-8") as file:
                os.fchmod(file.fileno(), 0o600)  # an older file may have had other bits
                json.dump(seats, file, ensure_ascii=False)
            temporary.replace(self.path)
        except OSError:
            pass


def _age(entry: Any) -> float:
    at = entry.get("at") if isinstance(entry, dict) else None
    return float(at) if isinstance(at, int | float) else 0.0
