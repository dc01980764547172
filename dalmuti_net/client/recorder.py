"""`dalmuti join --record FILE`: keep what this client was sent, as it arrives, in the
history format (protocol/HISTORY.md) that `dalmuti replay` and `dalmuti history` read.

What a client is sent is by construction what its seat may know; the record adds nothing
and blanks the seat's own resume token, so it can be shared. Each line is flushed as it
is written, so a crash loses at most the line being written (a reader drops it).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from ..history.hands import HandCounter
from ..history.problems import N_, Problem
from ..history.record import ViewerInfo, header_line, message_line
from ..protocol.messages import Message
from .session import ClientSession


class RecordError(Problem):
    """The record cannot be written; the message says why in one sentence."""


MAX_HELD = 64
"""Messages kept between the ``welcome`` and the ``snapshot`` that starts the record."""


class Recorder:
    """Writes one table's messages; the header as soon as the viewer is known (the
    snapshot after the first welcome), messages of any other table are left out."""

    def __init__(self, path: Path) -> None:
        try:
            descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            raise RecordError(
                N_("{path} already exists; record to a new file"), path=path
            ) from None
        except OSError as error:
            raise RecordError(
                N_("cannot write {path}: {reason}"), path=path, reason=error.strerror
            ) from None
        self.path = path
        self._file = os.fdopen(descriptor, "w", encoding="utf-8")
        self._table_id: str | None = None
        self._held: list[Message] = []
        self._started = False
        self._hands = HandCounter()

    def take(self, message: Message, session: ClientSession) -> None:
        kind = message["type"]
        if kind == "welcome":
            if self._table_id is None:
                self._table_id = message["table_id"]
            elif message["table_id"] != self._table_id:
                self._table_id = ""  # another table now: this record is over
        if self._table_id in (None, "") or kind == "about":
            return
        if kind == "welcome":
            message = {**message, "token": None}
        if not self._started:
            # A host sends `welcome` then the `snapshot`: whatever a host sends between
            # them is kept up to a bound (the welcome first), not without end.
            if len(self._held) < MAX_HELD or kind == "snapshot":
                self._held.append(message)
            if kind != "snapshot":
                return
            self._write_header(session)
            held, self._held = self._held, []
            for kept in held:
                self._write(kept)
            return
        self._write(message)

    def _write_header(self, session: ClientSession) -> None:
        welcome: dict[str, Any] = self._held[0]
        player = welcome["player"]
        if player is None:
            viewer = ViewerInfo("spectator")
        else:
            viewer = ViewerInfo("seat", player, session.names.get(player, session.name))
        self._file.write(header_line(welcome["table"], self._table_id, viewer, "client"))
        self._started = True

    def _write(self, message: Message) -> None:
        self._file.write(message_line(self._hands.of(message), message))
        self._file.flush()

    def close(self) -> None:
        self._file.close()


class RecordingSession(ClientSession):
    """A client session that also hands every message it takes in to a ``Recorder``."""

    recorder: Recorder | None = None

    def receive(self, message: Message) -> None:
        super().receive(message)
        if self.recorder is not None:
            self.recorder.take(message, self)
