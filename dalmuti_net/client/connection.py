"""The client's trio side of a connection: frames over a stream, validated both ways.

Messages of types this client does not know are skipped (a newer host may send them);
an event of an unknown type still moves the event count on, so it is not taken as a gap.
"""

from __future__ import annotations

from typing import Any

import trio

from ..protocol import Direction, FrameReader, ProtocolError, encode, unpack, validate
from ..protocol.catalogue import MAX_FRAME_BYTES
from ..protocol.codec import CheckedFrames, unpack_checked
from ..protocol.errors import ErrorCode
from ..protocol.messages import Message

RECEIVE_CHUNK = 16 * 1024


class ConnectionClosed(Exception):
    """The host closed the connection (or it broke, or went silent): ``kind`` says which
    (``closed``, ``broke``, ``silent``), so that a player is told it in their language."""

    def __init__(self, reason: str, kind: str) -> None:
        super().__init__(reason)
        self.kind = kind


class AnswersHttp(ConnectionClosed):
    """What answered is a web server (the host's web table, most likely: its port beside
    the table's), not a table; ``table_port``: the table's port when it said so
    (``Dalmuti-Port``)."""

    def __init__(self, table_port: int | None) -> None:
        super().__init__("an HTTP server answered: the web table's port?", "web_port")
        self.table_port = table_port


HTTP_HEAD_BYTES = 4096
"""The most of an HTTP answer read for its ``Dalmuti-Port``."""


def http_table_port(head: bytes) -> int | None:
    """The ``Dalmuti-Port`` header of an HTTP answer's head, if it is a port."""
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"dalmuti-port":
            text = value.strip()
            if text.isdigit() and len(text) <= 5 and 0 < int(text) <= 65535:
                return int(text)
    return None


class Connection:
    def __init__(self, stream: trio.abc.Stream, checked: CheckedFrames | None = None) -> None:
        self.stream = stream
        self._checked = checked
        """Frame bodies this process's clients already checked (the web table's pages,
        all sent the same frames by their host): checked once for all of them."""
        self._frames = FrameReader(MAX_FRAME_BYTES)
        self._ready: list[bytes] = []
        self._send_lock = trio.Lock()
        self.skipped_seq: int | None = None
        """The ``seq`` of the last event of an unknown type that was skipped."""
        self._received = False

    async def send(self, message: Message) -> None:
        async with self._send_lock:
            try:
                await self.stream.send_all(encode(message))
            except (trio.BrokenResourceError, trio.ClosedResourceError) as error:
                raise ConnectionClosed("the connection to the host broke", "broke") from error

    async def receive(self) -> Message:
        """The next message from the host that this client understands."""
        while True:
            while not self._ready:
                if self._frames.refusal is not None:
                    raise self._frames.refusal
                try:
                    data = await self.stream.receive_some(RECEIVE_CHUNK)
                except (trio.BrokenResourceError, trio.ClosedResourceError) as error:
                    raise ConnectionClosed("the connection to the host broke", "broke") from error
                if not data:
                    raise ConnectionClosed("the host closed the connection", "closed")
                if not self._received and data.startswith(b"HTTP/"):
                    await self._answers_http(bytes(data))
                self._received = True
                self._ready.extend(self._frames.feed(data))
            body = self._ready.pop(0)
            checked = self._checked
            if checked is not None and body in checked:
                return unpack_checked(body)
            raw = unpack(body)
            try:
                message = validate(raw, Direction.TO_CLIENT)
            except ProtocolError as error:
                if error.code is not ErrorCode.UNKNOWN_TYPE:
                    raise
                self._note_skipped(raw)
                continue
            if checked is not None:
                checked.add(body)
            return message

    async def _answers_http(self, head: bytes) -> None:
        """A web server answered (no frame begins with ``HTTP/``: its length would be over
        a gigabyte): its head, briefly, for the port it names; then ``AnswersHttp``."""
        with trio.move_on_after(1.0):
            while b"\r\n\r\n" not in head and len(head) < HTTP_HEAD_BYTES:
                try:
                    more = await self.stream.receive_some(HTTP_HEAD_BYTES)
                except (trio.BrokenResourceError, trio.ClosedResourceError):
                    break
                if not more:
                    break
                head += more
        raise AnswersHttp(http_table_port(head.partition(b"\r\n\r\n")[0]))

    def _note_skipped(self, raw: dict[str, Any]) -> None:
        seq = raw.get("seq")
        if type(seq) is int:
            self.skipped_seq = seq

    async def aclose(self) -> None:
        await trio.aclose_forcefully(self.stream)
