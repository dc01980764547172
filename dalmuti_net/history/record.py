"""The history file format: JSON Lines, one viewer's messages (protocol/HISTORY.md).

The first line is a header naming the table and the viewer; every other line holds one
message that viewer was sent, as the protocol defines it, with the hand it belongs to and,
optionally, the sentence the table's log said for it. `dalmuti history --json` writes it
from a host's save; `dalmuti join --record` writes it as messages arrive; `dalmuti replay`
and `dalmuti history` read it back. A record is hostile input like any frame: every line
is size-limited and every message validated as the client validates what the host sends.
"""

from __future__ import annotations

import itertools
import os
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from ..protocol import Direction, ProtocolError, validate
from ..protocol.messages import Message
from ..protocol.nesting import MAX_DEPTH, TooDeep, load_json
from ..protocol.text import clean_text, json_text, shown
from .problems import N_, Problem, too_large

FORMAT = "dalmuti-history"
VERSION = 1
MAX_LINE_BYTES = 256 * 1024
"""A message is at most 64 KiB of msgpack; its JSON with a sentence fits well within this."""
MAX_RECORD_BYTES = 32 * 1024 * 1024
"""A history file is read whole into memory (about ten times its size): 32 MiB holds some
500 hands of one seat's messages, far past an evening."""
VIEWER_KINDS = ("seat", "spectator", "host")


class RecordError(Problem):
    """The file is not a history this version can read; the message says why."""


@dataclass(frozen=True)
class ViewerInfo:
    kind: str
    """seat, spectator or host (the operator's view, everything)."""
    player: int | None = None
    name: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "player": self.player, "name": self.name}


def header_line(table: str, table_id: str | None, viewer: ViewerInfo, source: str) -> str:
    """``source``: ``save`` (rebuilt from a host's save) or ``client`` (recorded live)."""
    header = {
        "format": FORMAT,
        "version": VERSION,
        "table": table,
        "table_id": table_id,
        "viewer": viewer.to_dict(),
        "source": source,
    }
    return json_text(header) + "\n"


def message_line(place: tuple[int, int], message: Message, text: str | None = None) -> str:
    """One line of the stream: ``place`` is ``(game, hand)`` as ``HandCounter`` says."""
    game, hand = place
    line: dict[str, Any] = {"game": game, "hand": hand, "message": message}
    if text is not None:
        line["text"] = text
    return json_text(line) + "\n"


@dataclass(frozen=True)
class Record:
    header: dict[str, Any]
    viewer: ViewerInfo
    frames: list[Message]
    texts: list[str | None]


def read_record(path: Path) -> Record:
    """A history file, every message validated; a torn last line (a crash) is dropped.

    Read a line at a time, each at most ``MAX_LINE_BYTES`` and the file at most
    ``MAX_RECORD_BYTES`` (checked before reading and while reading), so what a crafted
    file costs is bounded."""
    try:
        with path.open("rb") as file:
            size = os.fstat(file.fileno()).st_size
            if size > MAX_RECORD_BYTES:
                raise too_large(RecordError, path, size, MAX_RECORD_BYTES)
            return _read_lines(file, path)
    except OSError as error:
        raise RecordError(
            N_("cannot read {path}: {reason}"), path=path, reason=error.strerror
        ) from None


def _read_lines(file: IO[bytes], path: Path) -> Record:
    header: dict[str, Any] | None = None
    viewer = ViewerInfo("spectator")
    frames: list[Message] = []
    texts: list[str | None] = []
    read = 0
    for number in itertools.count(1):
        raw = file.readline(MAX_LINE_BYTES + 2)
        read += len(raw)
        if read > MAX_RECORD_BYTES:  # it grew while it was read
            raise too_large(RecordError, path, read, MAX_RECORD_BYTES)
        if not raw.endswith(b"\n"):
            if len(raw) > MAX_LINE_BYTES:
                raise _too_long(path, number)
            break  # the end, or a last line cut short while it was written
        if header is None:
            header = _header(raw[:-1], path)
            viewer = _viewer(header.get("viewer"), path)
            continue
        frame, text = _message_line(raw[:-1], path, number)
        frames.append(frame)
        texts.append(text)
    if header is None:
        raise RecordError(N_("{path} is empty"), path=path)
    return Record(header, viewer, frames, texts)


def _header(raw: bytes, path: Path) -> dict[str, Any]:
    header = _json(raw, path, 1)
    if header.get("format") != FORMAT:
        raise RecordError(N_("{path} is not a dalmuti-net history"), path=path)
    if header.get("version") != VERSION:
        raise RecordError(
            N_("{path} has history version {version}, not {supported}"),
            path=path,
            version=header.get("version"),
            supported=VERSION,
        )
    return header


def _message_line(raw: bytes, path: Path, number: int) -> tuple[Message, str | None]:
    line = _json(raw, path, number)
    message = line.get("message")
    text = line.get("text")
    game = line.get("game", 1)  # absent from files written before games were numbered
    if (
        not isinstance(message, dict)
        or not isinstance(line.get("hand"), int)
        or not isinstance(game, int)
        or isinstance(game, bool)
        or game < 1
    ):
        raise RecordError(N_("{path}, line {line}: not a history line"), path=path, line=number)
    if text is not None and not isinstance(text, str):
        raise RecordError(
            N_("{path}, line {line}: the text is not a string"), path=path, line=number
        )
    try:
        return validate(message, Direction.TO_CLIENT), text
    except ProtocolError as error:
        raise RecordError(
            N_("{path}, line {line}: {reason}"), path=path, line=number, reason=error.message
        ) from None


def _too_long(path: Path, number: int) -> RecordError:
    return RecordError(
        N_("{path}, line {line}: longer than {limit} bytes"),
        path=path,
        line=number,
        limit=MAX_LINE_BYTES,
    )


def _json(raw: bytes, path: Path, number: int) -> dict[str, Any]:
    if len(raw) > MAX_LINE_BYTES:
        raise _too_long(path, number)
    try:
        value = load_json(raw)
    except TooDeep:
        raise RecordError(
            N_("{path}, line {line}: nested more than {depth} deep"),
            path=path,
            line=number,
            depth=MAX_DEPTH,
        ) from None
    except (UnicodeDecodeError, ValueError):
        raise RecordError(N_("{path}, line {line}: not JSON"), path=path, line=number) from None
    if not isinstance(value, dict):
        raise RecordError(N_("{path}, line {line}: not a JSON object"), path=path, line=number)
    return value


def _viewer(value: Any, path: Path) -> ViewerInfo:
    if not isinstance(value, dict) or value.get("kind") not in VIEWER_KINDS:
        raise RecordError(N_("{path} does not say whose view it holds"), path=path)
    player, name = value.get("player"), value.get("name")
    if (player is not None and type(player) is not int) or (
        name is not None and not isinstance(name, str)
    ):
        raise RecordError(N_("{path} has a damaged viewer"), path=path)
    return ViewerInfo(value["kind"], player, None if name is None else clean_text(shown(name)))


def is_record(path: Path) -> bool:
    """Whether ``path`` looks like a history file (JSON Lines) rather than a host's save."""
    try:
        with path.open("rb") as file:
            return file.read(1) == b"{"
    except OSError:
        return False
