"""The table's journal on disk: every accepted change, written and synced before it is
acknowledged, so that `dalmuti host --resume FILE` rebuilds the same table after a crash.

The file is a header record, then one record per change, each framed like a protocol
message (4-byte length, msgpack map). A record cut short by a crash is ignored.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from ..protocol import FrameReader, ProtocolError, encode, unpack

FORMAT = 1


class JournalError(Exception):
    """The file is not a dalmuti-net journal this version can read."""


class Journal:
    def __init__(self, path: Path, header: dict[str, Any] | None = None) -> None:
        """Open ``path`` for appending; a new file starts with ``header``."""
        self.path = path
        fresh = not path.exists() or path.stat().st_size == 0
        if fresh and header is None:
            raise JournalError(f"{path} is empty and no header was given")
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        self._file = os.fdopen(descriptor, "ab")
        if fresh:
            assert header is not None
            self.append([{"op": "header", "format": FORMAT, **header}])

    def append(self, entries: list[dict[str, Any]]) -> None:
        for entry in entries:
            self._file.write(encode(entry))
        self._file.flush()
        os.fsync(self._file.fileno())

    def close(self) -> None:
        self._file.close()


def read_journal(path: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The header and the entries of a journal file (a torn last record is dropped)."""
    try:
        data = path.read_bytes()
    except OSError as error:
        raise JournalError(f"cannot read {path}: {error.strerror}") from None
    reader = FrameReader()
    try:
        records = [unpack(body) for body in reader.feed(data)]
    except ProtocolError as error:
        raise JournalError(f"{path} is damaged: {error.message}") from None
    if not records or records[0].get("op") != "header":
        raise JournalError(f"{path} is not a dalmuti-net table journal")
    header = records[0]
    if header.get("format") != FORMAT:
        raise JournalError(f"{path} has journal format {header.get('format')}, not {FORMAT}")
    return header, records[1:]
