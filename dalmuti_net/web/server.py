"""The web table's server: the page's own files over HTTP, and two WebSockets.

One TCP port serves the page (``/``, its script, its style sheet and icon: nothing else,
no path from the request ever reaches the file system), ``/table`` (the page's channel:
JSON views out, choices in; see ``seat.py``) and ``/protocol`` (the raw protocol for
third-party browser clients: one msgpack message per binary WebSocket message, see
PROTOCOL.md). Both WebSockets check ``Origin`` (a page from another site may not play
for someone who has this one open) and end in an ordinary client connection of the
table, counted against the same limits as a TCP client from the same address; the join
code is the table's own check, in the ``hello``.

The request head is read and parsed here with h11; a WebSocket upgrade is handed, bytes
and all, to trio-websocket (wsproto underneath), which does the handshake and framing.
"""

from __future__ import annotations

import ipaddress
import logging
import math
import socket
from collections.abc import Callable
from contextlib import nullcontext, suppress
from dataclasses import dataclass
from importlib import resources
from urllib.parse import parse_qs

import h11
import trio
from trio_websocket import ConnectionClosed, WebSocketConnection, wrap_server_stream

from ..faults import CONNECTION_FAILED, log_fault
from ..host.admission import address_key
from ..host.listen import serve_listeners
from ..host.server import TableServer
from ..lang.i18n import DEFAULT_LANGUAGE, normalize_language
from ..protocol import FrameReader, ProtocolError
from ..protocol.codec import CheckedFrames
from ..protocol.framing import frame
from .seat import (
    MAX_PAGE_MESSAGE,
    PAGE_SILENCE,
    PING_INTERVAL,
    TICK,
    WATCHING_GAP,
    KeptLogs,
    WebSeat,
    keep_alive,
)
from .watch import Watches

log = logging.getLogger(__name__)

NOT_HTTP = -2
"""``_read_head``'s end for bytes no HTTP request begins with (a request line starts with
its method, letters; a TCP client's frame starts with its length, a 0 byte): a program
sent to this port instead of the table's is told at once (400, ``Dalmuti-Port``), not
after the head's timeout."""

GONE = (trio.BrokenResourceError, trio.ClosedResourceError, ConnectionClosed)
"""What a connection that went away raises: its end, not an error."""

MAX_HEAD_BYTES = 8 * 1024
"""A request's line and headers, the blank line that ends them included; a longer head
is refused (431), however it arrives."""
HEAD_TIMEOUT = 10.0
"""Seconds a connection has to send its whole request head."""
IDLE_HEAD_S = 1.0
"""While every slot is taken, a newcomer takes the slot of the connection that has waited
longest for its head, once that one has waited this long: a browser sends its head at
once, so idle sockets (a slowloris) never keep a phone waiting, as at the TCP port
(``admission.YOUNG_S``)."""
MAX_WEB_CONNECTIONS = 64
"""Connections served at once until they are WebSockets: a request head being read, a
file being sent. A WebSocket gives its slot back (it counts against ``MAX_WEBSOCKETS``),
so pages left open all evening never keep a phone's ``GET /`` waiting."""
MAX_QUEUED = 32
"""Connections waiting for one of those slots; one more is answered 503 at once."""
QUEUE_TIMEOUT = 5.0
"""Seconds a connection waits for a slot before it is answered 503."""
MAX_WEBSOCKETS = 96
"""Open WebSockets, both channels: the table's 8 seats and 64 spectator places, and room
for pages at their join form and reconnecting (a page whose seat was taken back is still
open for a moment). One more is refused (503) before the handshake."""
MAX_PER_ADDRESS = 32
"""Open connections from one address (an IPv6 /64: usually a whole home), waiting ones
included: a page holds one (its WebSocket) and fetches its four files one by one. A
household's six seats and sixteen watchers (the table's caps per address) fit; more from
one address are refused (503), so that one machine on the LAN cannot take every slot.

Descriptors: at most 64 + 32 + 96 = 192 for the web port, beside the TCP port's 256
waiting and 128 greeted (``admission``): under the usual limit of 1,024."""

FILES: dict[str, tuple[str, str]] = {
    "/": ("index.html", "text/html; charset=utf-8"),
    "/index.html": ("index.html", "text/html; charset=utf-8"),
    "/app.js": ("app.js", "text/javascript; charset=utf-8"),
    "/style.css": ("style.css", "text/css; charset=utf-8"),
    "/icon.svg": ("icon.svg", "image/svg+xml"),
}
"""Every path served, and the package file behind it: the server's only files."""

REASONS = {
    200: b"OK",
    400: b"Bad Request",
    404: b"Not Found",
    405: b"Method Not Allowed",
    431: b"Request Header Fields Too Large",
    503: b"Service Unavailable",
}

SECURITY_HEADERS = [
    (
        b"content-security-policy",
        b"default-src 'self'; connect-src 'self'; img-src 'self' data:; "
        b"frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
    ),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"cache-control", b"no-cache"),
]


@dataclass(frozen=True)
class TableDoor:
    """What the web server needs of the table it fronts."""

    connect: Callable[[str], trio.abc.Stream]
    """A new client connection of the table, speaking for a browser at this address."""
    table_name: Callable[[], str]
    table_id: str
    """The table's id (its whole life): a page takes back only a seat of this table."""
    code: str | None
    """The table's join code: a page gives it to join; to take a seat back it proves the
    seat instead (it keeps no code once seated), and its client here gives the code."""
    max_frame_bytes: int
    rate: float
    """Messages a second a client may send (the table's limit)."""
    tcp_port: int | None = None
    """The table's TCP port, named to a program that came here instead (``NOT_HTTP``)."""
    watch: Callable[[], trio.abc.Stream] | None = None
    """A new in-process listener of the table that takes no one's place: the watch the
    pages watching in one language are drawn from (``watch.py``). Without it, each
    watching page's client follows the play itself."""

    @property
    def code_required(self) -> bool:
        return self.code is not None

    @classmethod
    def of(cls, server: TableServer) -> TableDoor:
        """The door of the table ``server`` serves: each page's client is an ordinary,
        bounded connection of that server, speaking for the browser's address."""
        table = server.table
        return cls(
            connect=lambda address: server.connect_local(outside=address),
            table_name=lambda: table.name,
            table_id=table.table_id,
            code=table.code,
            max_frame_bytes=table.max_frame_bytes,
            rate=table.limits.max_messages_per_second,
            watch=lambda: server.connect_local(unseen=True),
        )


def static_file(name: str) -> bytes:
    return (resources.files(__package__) / "static" / name).read_bytes()


class ReplayStream(trio.abc.Stream):
    """A stream whose first bytes were already read: they are received again first."""

    def __init__(self, first: bytes, stream: trio.abc.Stream) -> None:
        self._first = first
        self._stream = stream

    async def receive_some(self, max_bytes: int | None = None) -> bytes | bytearray:
        if self._first:
            data, self._first = self._first, b""
            await trio.lowlevel.checkpoint()
            return data
        return await self._stream.receive_some(max_bytes)

    async def send_all(self, data: bytes | bytearray | memoryview) -> None:
        await self._stream.send_all(data)

    async def wait_send_all_might_not_block(self) -> None:
        await self._stream.wait_send_all_might_not_block()

    async def aclose(self) -> None:
        await self._stream.aclose()


class WebServer:
    def __init__(
        self,
        door: TableDoor,
        *,
        ping_interval: float = PING_INTERVAL,
        silence: float = PAGE_SILENCE,
    ) -> None:
        self.door = door
        self._ping_interval = ping_interval
        self._silence = silence
        self._slots = trio.Semaphore(MAX_WEB_CONNECTIONS)
        self._queued = 0
        self._heads: dict[int, tuple[float, trio.CancelScope]] = {}
        """Connections reading their request head: when they started, and the scope that
        ends the wait (insertion order: oldest first)."""
        """Connections waiting for a slot."""
        self._websockets = 0
        self._open: dict[str, int] = {}
        """Open connections by the address they come from (``address_key``)."""
        self.checked_frames = CheckedFrames()
        """The frames the pages' clients here have checked: the table sends every
        watching page the same frames, checked once for all of them."""
        self.kept_logs = KeptLogs()
        """Each seat's log as its last page had it, for the next page that proves it."""
        self.watches: Watches | None = None
        """The table as the pages watching in each language see it, followed once for
        all of them (while ``serve`` runs, when the door can make a listener)."""
        listen = door.watch
        if listen is not None:

            async def connect() -> trio.abc.Stream:
                await trio.lowlevel.checkpoint()
                return listen()

            self.watches = Watches(connect, self.checked_frames, gap=WATCHING_GAP, tick=TICK)

    async def serve(self, listeners: list[trio.SocketListener]) -> None:
        async with trio.open_nursery() as nursery:
            # Nothing awaited before serve_listeners, which closes the listeners however
            # it ends (a host cancelled as it starts leaves no socket open).
            with nullcontext() if self.watches is None else self.watches.serving(nursery):
                await serve_listeners(self.handle, listeners)  # quiet when descriptors run out
            nursery.cancel_scope.cancel()

    async def handle(self, stream: trio.SocketStream) -> None:
        try:
            address = str(stream.socket.getpeername()[0])
        except OSError:
            address = "?"
        key = address_key(address) or address
        if self._open.get(key, 0) >= MAX_PER_ADDRESS:
            await _turn_away(stream, b"too many connections from your address\n")
            return
        if self._slots.value == 0 and self._queued >= MAX_QUEUED:
            await _turn_away(stream, b"the host is busy; try again in a moment\n")
            return
        self._open[key] = self._open.get(key, 0) + 1
        slot = _Slot(self._slots)
        try:
            self._queued += 1
            try:
                with trio.move_on_after(QUEUE_TIMEOUT):
                    await self._wait_for(slot)
            finally:
                self._queued -= 1
            if not slot.held:
                await _turn_away(stream, b"the host is busy; try again in a moment\n")
                return
            try:
                await self._handle(stream, address, slot)
            finally:
                slot.give_back()
        except* GONE:
            pass
        except* Exception as group:
            # Nothing foreseen: this connection ends, with one line in the log; the
            # server's nursery (the host's) never sees it.
            log_fault(log, CONNECTION_FAILED, group, address=address)
        finally:
            self._open[key] -= 1
            if not self._open[key]:
                del self._open[key]
            await trio.aclose_forcefully(stream)

    async def _handle(self, stream: trio.abc.Stream, address: str, slot: _Slot) -> None:
        head, end = b"", -1
        waiting = trio.move_on_after(HEAD_TIMEOUT)
        self._heads[id(waiting)] = (trio.current_time(), waiting)
        try:
            with waiting:
                head, end = await self._read_head(stream)
        finally:
            del self._heads[id(waiting)]
        if end == NOT_HTTP:
            port = self.door.tcp_port
            named = [] if port is None else [(b"dalmuti-port", str(port).encode())]
            why = b"this port serves the web table, for a browser; programs use the table's port\n"
            await _respond(
                stream, 400, why, [(b"content-type", b"text/plain; charset=utf-8"), *named]
            )
            return
        if end == -1 and len(head) <= MAX_HEAD_BYTES:
            return  # silent too long, or closed to make room for a newcomer
        if end == -1 or end + 4 > MAX_HEAD_BYTES:
            # However it came (in one piece or several), a head over the limit.
            await _respond(stream, 431, b"request head too large\n")
            return
        await self._request(stream, address, slot, head)

    async def _wait_for(self, slot: _Slot) -> None:
        """Take a slot, in turn; while every slot is taken, the wait for a head that has
        lasted longest is ended once it has lasted ``IDLE_HEAD_S`` (its slot goes to the
        first connection waiting), so idle sockets hold slots only while nobody waits."""
        if self._slots.value:
            await slot.take()
            return
        async with trio.open_nursery() as nursery:

            async def make_room() -> None:
                while True:
                    for started, scope in self._heads.values():
                        if scope.cancel_called:
                            continue  # ending already, for another waiting connection
                        if trio.current_time() - started >= IDLE_HEAD_S:
                            scope.cancel()
                        break  # the oldest still waiting only: one for each waiting
                    await trio.sleep(IDLE_HEAD_S / 4)

            nursery.start_soon(make_room)
            await slot.take()
            nursery.cancel_scope.cancel()

    async def _read_head(self, stream: trio.abc.Stream) -> tuple[bytes, int]:
        """The bytes read until the blank line after the head (or more than the limit),
        and where that line starts (-1: not there; ``NOT_HTTP``: not a request)."""
        head = b""
        end = -1
        while end == -1 and len(head) <= MAX_HEAD_BYTES:
            data = await stream.receive_some(MAX_HEAD_BYTES)
            if not data:
                break
            head += data
            start = head.lstrip(b"\r\n")  # (empty lines before a request are allowed)
            if start and not start[:1].isalpha():
                return head, NOT_HTTP
            end = head.find(b"\r\n\r\n")
        return head, end

    async def _request(
        self, stream: trio.abc.Stream, address: str, slot: _Slot, head: bytes
    ) -> None:
        """One request whose head was read whole."""
        connection = h11.Connection(h11.SERVER, max_incomplete_event_size=MAX_HEAD_BYTES)
        connection.receive_data(head)
        try:
            request = connection.next_event()
        except h11.RemoteProtocolError:
            await _respond(stream, 400, b"malformed request\n")
            return
        if not isinstance(request, h11.Request):
            await _respond(stream, 400, b"malformed request\n")
            return
        headers = {name.lower(): value for name, value in request.headers}
        target = request.target.decode("ascii", "replace")
        path, _, query = target.partition("?")
        if headers.get(b"upgrade", b"").lower() == b"websocket":
            wanted = parse_qs(query).get("lang", [""])[0][:16]
            language = normalize_language(wanted) or _browser_language(
                headers.get(b"accept-language", b"")
            )
            await self._websocket(
                ReplayStream(head, stream), path, headers, address, language, slot
            )
            return
        if request.method not in (b"GET", b"HEAD"):
            await _respond(stream, 405, b"only GET\n", [(b"allow", b"GET, HEAD")])
            return
        served = FILES.get(path)
        if served is None:
            await _respond(stream, 404, b"not found\n")
            return
        name, kind = served
        body = static_file(name)
        await _respond(
            stream,
            200,
            body if request.method == b"GET" else b"",
            [(b"content-type", kind.encode())],
            length=len(body),
        )

    async def _websocket(
        self,
        stream: trio.abc.Stream,
        path: str,
        headers: dict[bytes, bytes],
        address: str,
        language: str,
        slot: _Slot,
    ) -> None:
        async with trio.open_nursery() as nursery:
            limit = MAX_PAGE_MESSAGE if path == "/table" else 2 * self.door.max_frame_bytes
            request = await wrap_server_stream(nursery, stream, max_message_size=limit)
            if path not in ("/table", "/protocol"):
                await request.reject(404, body=b"not found\n")
            elif not _same_origin(headers):
                await request.reject(403, body=b"this page's WebSocket is for its own page\n")
            elif self._websockets >= MAX_WEBSOCKETS:
                await request.reject(503, body=b"the host has too many pages open\n")
            else:
                ws = await request.accept()
                slot.give_back()  # a WebSocket counts against MAX_WEBSOCKETS instead
                self._websockets += 1
                try:
                    if path == "/table":
                        await self._table(ws, address, language)
                    else:
                        await self._protocol(ws, address)
                except* GONE:
                    pass
                except* Exception as group:
                    log_fault(log, CONNECTION_FAILED, group, address=address)
                    with trio.move_on_after(1):  # RFC 6455: 1011, the server failed
                        with suppress(*GONE):
                            await ws.aclose(1011, "the host failed while serving this page")
                finally:
                    self._websockets -= 1
            nursery.cancel_scope.cancel()

    async def _table(self, ws: WebSocketConnection, address: str, language: str) -> None:
        door = self.door

        async def connect() -> trio.abc.Stream:
            await trio.lowlevel.checkpoint()
            return door.connect(address)

        seat = WebSeat(
            ws,
            connect,
            table_name=door.table_name(),
            table_id=door.table_id,
            code=door.code,
            rate=door.rate,
            ping_interval=self._ping_interval,
            silence=self._silence,
            checked_frames=self.checked_frames,
            kept_logs=self.kept_logs,
            watches=self.watches,
        )
        await seat.run(language)
        with trio.move_on_after(1):  # a page that is gone does not answer the close
            await ws.aclose()

    async def _protocol(self, ws: WebSocketConnection, address: str) -> None:
        """One protocol message per binary WebSocket message, both ways."""
        stream = self.door.connect(address)
        most = self.door.max_frame_bytes

        async def to_host(done: trio.CancelScope) -> None:
            try:
                while True:
                    message = await ws.get_message()
                    body = message.encode() if isinstance(message, str) else message
                    if len(body) > most:
                        # The length alone: the table refuses an oversize frame in the
                        # same words as over TCP, before buffering it.
                        await stream.send_all(len(body).to_bytes(4, "big"))
                        return
                    await stream.send_all(frame(body))
            except (ConnectionClosed, trio.BrokenResourceError, trio.ClosedResourceError):
                done.cancel()

        async def to_browser(done: trio.CancelScope) -> None:
            frames = FrameReader(math.inf)  # type: ignore[arg-type]
            try:
                while True:
                    data = await stream.receive_some()
                    if not data:
                        break
                    for body in frames.feed(data):
                        await ws.send_message(bytes(body))
            except (ConnectionClosed, trio.BrokenResourceError, trio.ClosedResourceError):
                pass
            except ProtocolError:
                log.exception("the table sent a frame the web bridge cannot read")
            done.cancel()

        try:
            async with trio.open_nursery() as nursery:
                nursery.start_soon(to_host, nursery.cancel_scope)
                nursery.start_soon(to_browser, nursery.cancel_scope)
                # A browser that stops reading is found by its pings, as the page's are;
                # meanwhile the host's queue for it fills (its stream is bounded) and it
                # is dropped as a TCP client that does not read.
                nursery.start_soon(
                    keep_alive, ws, nursery.cancel_scope, self._ping_interval, self._silence
                )
        finally:
            await trio.aclose_forcefully(stream)
        with trio.move_on_after(1):  # after an error, the caller closes it (1011)
            await ws.aclose()


class _Slot:
    """One connection's hold on one of the server's slots (``MAX_WEB_CONNECTIONS``)."""

    def __init__(self, slots: trio.Semaphore) -> None:
        self._slots = slots
        self.held = False

    async def take(self) -> None:
        await self._slots.acquire()
        self.held = True

    def give_back(self) -> None:
        if self.held:
            self.held = False
            self._slots.release()


async def _turn_away(stream: trio.SocketStream, why: bytes) -> None:
    """Answer 503 at once and close (within a second, whatever the peer does)."""
    with trio.move_on_after(1):
        try:
            # Its request read first: a socket closed with unread data is reset, and the
            # answer would be lost with it.
            await stream.receive_some(MAX_HEAD_BYTES)
            headers = [(b"content-type", b"text/plain; charset=utf-8"), (b"retry-after", b"5")]
            await _respond(stream, 503, why, headers)
            await stream.send_eof()
            while await stream.receive_some(MAX_HEAD_BYTES):
                pass
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            pass
    await trio.aclose_forcefully(stream)


def _same_origin(headers: dict[bytes, bytes]) -> bool:
    """A browser names the page that opens a WebSocket: it must be one of ours (same
    host and port), reached by a name of this LAN: an address, ``localhost``, a ``.local``
    name or this machine's name. A page of a site on the internet whose name was made to
    point at this host (DNS rebinding) has its own name as Host and Origin, and is refused.
    A program that is not a browser sends no Origin and is let in: the join code, not the
    Origin, keeps strangers out."""
    origin = headers.get(b"origin")
    if origin is None:
        return True
    host = headers.get(b"host")
    if host is None or origin not in (b"http://" + host, b"https://" + host):
        return False
    return _lan_name(host.decode("ascii", "replace"))


def _lan_name(host: str) -> bool:
    """Whether ``host`` (a Host header: a name or address, then maybe a port) names this
    machine the way the LAN does."""
    if host.startswith("[") and "]" in host:  # [an IPv6 address]:port
        name = host[1 : host.index("]")]
    elif host.count(":") == 1:  # name:port
        name = host.split(":")[0]
    else:
        name = host
    name = name.rstrip(".").lower()
    try:
        ipaddress.ip_address(name)
    except ValueError:
        pass
    else:
        return True
    machine = socket.gethostname().lower()
    return name in ("localhost", machine, f"{machine}.local") or name.endswith(".local")


def _browser_language(accept: bytes) -> str:
    """The first language of ``Accept-Language`` that the catalogs have."""
    for part in accept.decode("ascii", "replace").split(","):
        language = normalize_language(part.split(";")[0].strip())
        if language is not None:
            return language
    return DEFAULT_LANGUAGE


async def _respond(
    stream: trio.abc.Stream,
    status: int,
    body: bytes,
    headers: list[tuple[bytes, bytes]] | None = None,
    *,
    length: int | None = None,
) -> None:
    connection = h11.Connection(h11.SERVER)
    # h11 answers only a request it has seen: a minimal one stands in for it.
    connection.receive_data(b"GET / HTTP/1.1\r\nhost: x\r\n\r\n")
    connection.next_event()
    all_headers = [
        *(headers or [(b"content-type", b"text/plain; charset=utf-8")]),
        *SECURITY_HEADERS,
        (b"content-length", str(len(body) if length is None else length).encode()),
        (b"connection", b"close"),
    ]
    reason = REASONS.get(status, b"")
    data = connection.send(h11.Response(status_code=status, headers=all_headers, reason=reason))
    assert data is not None
    if body:
        data += connection.send(h11.Data(data=body)) or b""
    await stream.send_all(data)
