"""Raw frames over TCP and the WebSocket channel, written from PROTOCOL.md alone.

Nothing here imports the project's protocol code (its codec, framing or session): the suite
checks the document, so it speaks the wire as a stranger would, with msgpack, the standard
library and trio-websocket for the WebSocket leg.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from typing import Any

import msgpack
import trio
from trio_websocket import (
    ConnectionClosed,
    WebSocketConnection,
    connect_websocket,
)

Message = dict[str, Any]

HEARTBEAT_EVERY = 4.0
"""Seconds of our own silence after which a read sends a heartbeat (the document: 5 s)."""
DEFAULT_WAIT = 5.0
"""Seconds a case waits for a message the document says the host sends."""


class CaseFailed(AssertionError):
    """The host did something the document does not allow: the case fails with this
    sentence."""


class CaseSkipped(Exception):
    """The case cannot run against this host as it was started: the sentence says why."""


def pack(message: Any) -> bytes:
    """The msgpack body of ``message`` (str for text, as the document asks)."""
    body: bytes = msgpack.packb(message, use_bin_type=True)
    return body


def frame(body: bytes) -> bytes:
    """A TCP frame: 4-byte big-endian length, then the body."""
    return struct.pack(">I", len(body)) + body


def unpack(body: bytes) -> Any:
    return msgpack.unpackb(body, raw=False, strict_map_key=False)


def brief(message: Any, limit: int = 160) -> str:
    """A message as one short line for a report."""
    text = repr(message)
    return text if len(text) <= limit else text[: limit - 3] + "..."


class Peer:
    """One connection to the host: frames out, messages in, everything received kept."""

    def __init__(self, label: str) -> None:
        self.label = label
        self.received: list[Message] = []
        """Every message received, in order (also those a wait skipped)."""
        self.unread: list[Message] = []
        self.closed = False
        self.host_closed = False
        """The host closed the connection (not the suite)."""
        self.last_sent = trio.current_time()
        self.leave_on_close = False
        """Send `leave` before closing (a lobby seat given up, not dropped)."""
        self.heartbeats = True
        """Send a heartbeat while waiting when we have been silent a while."""

    # Transport primitives, per subclass.
    async def send_bytes(self, data: bytes) -> None:
        raise NotImplementedError

    async def _receive_one(self) -> Message | None:
        """The next message, or None once the host closed the connection."""
        raise NotImplementedError

    async def aclose(self) -> None:
        raise NotImplementedError

    # What cases use.
    async def send(self, message: Message) -> None:
        await self.send_body(pack(message))

    async def send_body(self, body: bytes) -> None:
        raise NotImplementedError

    async def _pull(self) -> Message | None:
        """One message from the wire (heartbeating meanwhile), None at the close."""
        if self.closed:
            return None
        while True:
            wait = HEARTBEAT_EVERY - (trio.current_time() - self.last_sent)
            if not self.heartbeats:
                wait = float("inf")
            if wait <= 0:
                await self.send({"type": "heartbeat"})
                continue
            with trio.move_on_after(wait):
                try:
                    message = await self._receive_one()
                except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
                    message = None
                if message is None:
                    self.closed = self.host_closed = True
                    return None
                self.received.append(message)
                return message

    async def next(self, timeout: float = DEFAULT_WAIT) -> Message | None:
        """The next message not yet read (None: the host closed the connection)."""
        if self.unread:
            return self.unread.pop(0)
        with trio.move_on_after(timeout):
            return await self._pull()
        raise CaseFailed(f"{self.label}: nothing arrived within {timeout:g} s")

    async def maybe_next(self, timeout: float) -> Message | bool | None:
        """The next message, None at the close, or False when nothing came in ``timeout``."""
        if self.unread:
            return self.unread.pop(0)
        with trio.move_on_after(timeout):
            return await self._pull()
        return False

    async def _read(
        self, seconds: float, until: Callable[[Message], bool] | None = None
    ) -> tuple[list[Message], str]:
        """Read for ``seconds``, or until a message ``until`` is true of: what was read (that
        message last) and why the reading stopped: ``"found"``, ``"closed"`` (the host closed
        the connection) or ``"late"``."""
        got: list[Message] = []
        deadline = trio.current_time() + seconds
        while (left := deadline - trio.current_time()) > 0:
            message = await self.maybe_next(left)
            if message is None:
                return got, "closed"
            if message is not False:
                assert isinstance(message, dict)
                got.append(message)
                if until is not None and until(message):
                    return got, "found"
        return got, "late"

    async def expect(
        self,
        wanted: str | Callable[[Message], bool],
        timeout: float = DEFAULT_WAIT,
        what: str | None = None,
        keep: bool = False,
    ) -> Message:
        """Read until a message of type ``wanted`` (or for which it is true) arrives; the
        ones before it are skipped (still in ``received``), or with ``keep`` left to be
        read next (a reply awaited mid-game must not swallow a decision)."""
        test = (lambda m: m.get("type") == wanted) if isinstance(wanted, str) else wanted
        got, why = await self._read(timeout, test)
        if why == "found":
            if keep:
                self.unread[0:0] = got[:-1]
            return got[-1]
        name = what or (f"a {wanted!r}" if isinstance(wanted, str) else "the message awaited")
        if why == "late":
            raise CaseFailed(
                f"{self.label}: {name} did not arrive within {timeout:g} s{_seen(got)}"
            )
        raise CaseFailed(f"{self.label}: the host closed the connection before {name}{_seen(got)}")

    async def expect_error(
        self, code: str, fatal: bool | None = None, timeout: float = DEFAULT_WAIT
    ) -> Message:
        """The next ``error`` must carry ``code`` (and that ``fatal`` flag)."""
        error = await self.expect("error", timeout)
        if error.get("code") != code:
            raise CaseFailed(
                f"{self.label}: expected error {code!r}, got {error.get('code')!r}"
                f" ({brief(error.get('message'))})"
            )
        if fatal is not None and error.get("fatal") is not fatal:
            raise CaseFailed(
                f"{self.label}: error {code!r} came with fatal {error.get('fatal')!r},"
                f" the document says {fatal}"
            )
        return error

    async def expect_closed(self, timeout: float = DEFAULT_WAIT) -> list[Message]:
        """Read until the host closes the connection; the messages before the close."""
        self.heartbeats = False
        got, why = await self._read(timeout)
        if why != "closed":
            raise CaseFailed(
                f"{self.label}: the host did not close the connection within {timeout:g} s"
                + _seen(got)
            )
        return got

    async def stays_open(self, seconds: float) -> list[Message]:
        """Read for ``seconds``; fail if the host closes the connection meanwhile."""
        got, why = await self._read(seconds)
        if why == "closed":
            raise CaseFailed(f"{self.label}: the host closed the connection")
        return got

    async def quiet(self, seconds: float) -> list[Message]:
        """Everything that arrives in ``seconds`` (stops early at a close)."""
        got, _ = await self._read(seconds)
        return got


def _seen(got: list[Message]) -> str:
    """The types of the last messages of ``got`` that were not what a wait was for."""
    return f" (got {', '.join(describe_type(m) for m in got[-8:])})" if got else ""


def reply_to(rid: object) -> Callable[[Message], bool]:
    """Whether a message is the reply (ack or error) to the request with id ``rid``."""
    return lambda m: m.get("type") in ("ack", "error") and m.get("re") == rid


def describe_type(message: Message) -> str:
    kind = message.get("type")
    if kind == "error":
        return f"error {message.get('code')}"
    return str(kind)


class TcpPeer(Peer):
    def __init__(self, stream: trio.SocketStream, label: str) -> None:
        super().__init__(label)
        self.stream = stream
        self.buffer = bytearray()
        self.raw_frames: list[bytes] = []
        """The bodies received, as bytes (for checks on the encoding itself)."""

    async def send_bytes(self, data: bytes) -> None:
        self.last_sent = trio.current_time()
        try:
            await self.stream.send_all(data)
        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
            self.closed = True

    async def send_body(self, body: bytes) -> None:
        await self.send_bytes(frame(body))

    async def _receive_one(self) -> Message | None:
        while True:
            if len(self.buffer) >= 4:
                (size,) = struct.unpack(">I", self.buffer[:4])
                if size > 65536:
                    raise CaseFailed(f"{self.label}: the host sent a frame of {size} bytes")
                if len(self.buffer) >= 4 + size:
                    body = bytes(self.buffer[4 : 4 + size])
                    del self.buffer[: 4 + size]
                    self.raw_frames.append(body)
                    message = unpack(body)
                    if not isinstance(message, dict):
                        raise CaseFailed(f"{self.label}: the host sent a body that is no map")
                    return message
            data = await self.stream.receive_some(65536)
            if not data:
                return None
            self.buffer += data

    async def aclose(self) -> None:
        self.closed = True
        with trio.move_on_after(1):
            await self.stream.aclose()


class WsPeer(Peer):
    def __init__(self, socket: WebSocketConnection, label: str) -> None:
        super().__init__(label)
        self.socket = socket
        self.close_code: int | None = None

    async def send_bytes(self, data: bytes) -> None:
        await self.send_body(data)

    async def send_body(self, body: bytes) -> None:
        self.last_sent = trio.current_time()
        try:
            await self.socket.send_message(body)
        except ConnectionClosed:
            self.closed = True

    async def send_text(self, text: str) -> None:
        self.last_sent = trio.current_time()
        try:
            await self.socket.send_message(text)
        except ConnectionClosed:
            self.closed = True

    async def _receive_one(self) -> Message | None:
        try:
            data = await self.socket.get_message()
        except ConnectionClosed as closed:
            self.close_code = closed.reason.code if closed.reason else None
            return None
        if isinstance(data, str):
            raise CaseFailed(f"{self.label}: the host sent a text WebSocket message")
        message = unpack(data)
        if not isinstance(message, dict):
            raise CaseFailed(f"{self.label}: the host sent a body that is no map")
        return message

    async def aclose(self) -> None:
        self.closed = True
        with trio.move_on_after(1):
            await self.socket.aclose()


async def open_tcp(host: str, port: int, label: str) -> TcpPeer:
    try:
        stream = await trio.open_tcp_stream(host, port)
    except OSError as error:
        raise CaseFailed(f"cannot connect to {host}:{port}: {error}") from error
    return TcpPeer(stream, label)


async def open_ws(
    nursery: trio.Nursery, host: str, port: int, label: str, origin: str | None = None
) -> WsPeer:
    """A WebSocket to ``/protocol``; the handshake's refusal (``ConnectionRejected``) and
    OSError come out as they are."""
    headers = [(b"Origin", origin.encode())] if origin else None
    socket = await connect_websocket(
        nursery, host, port, "/protocol", use_ssl=False, extra_headers=headers
    )
    return WsPeer(socket, label)
