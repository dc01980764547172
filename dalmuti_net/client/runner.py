"""Keeps a client session connected: hello, heartbeats, the receive loop, and reconnecting
with the resume token when the connection drops (not when the host refused us)."""

from __future__ import annotations

import errno
import logging
import math
import socket
import time
from collections.abc import Awaitable, Callable

import trio

from ..protocol import ProtocolError
from ..protocol.codec import CheckedFrames
from ..protocol.messages import Message
from ..told import N_, Told
from .claims import address_text
from .connection import AnswersHttp, Connection, ConnectionClosed
from .fits import HostVersion
from .session import ClientSession
from .status import Status

log = logging.getLogger(__name__)

Connector = Callable[[], Awaitable[trio.abc.Stream]]
MessageHandler = Callable[[Message], Awaitable[None]]

# A host silent for its heartbeat timeout (20 s by default) is gone (PROTOCOL.md,
# Liveness): it sends something, a heartbeat at least, every 5 s. Without this a host
# whose machine vanished (lid closed, Wi-Fi gone) would leave the table on screen as
# connected until TCP gave up, hours later. Both are the host's, clamped (session.limit_ms).
RECONNECT_DELAYS = (0.5, 1.0, 2.0, 4.0, 8.0)
SLICE_S = 0.01
"""The longest the receive loop handles messages without letting other tasks run: a host
that floods (a 16 KiB read holds hundreds of small frames) must not starve the keys, the
drawing or the heartbeats of the same thread."""
UNREADABLE_STRIKES = 3
"""Connections in a row ended by a message that is unreadable or does not fit: then the
host is broken or hostile, and this client stops trying."""
HANDSHAKE_TIMEOUT_S = 15.0
"""A dalmuti-net host answers a hello (or an about) at once: a peer that has not answered
the hello this long after the connection opened (with a ``welcome``, a ``challenge`` or an
``error``) is not one, whatever else it sends (an ``about``, heartbeats)."""
ANSWERS_TO_HELLO = frozenset({"welcome", "challenge", "error", "goodbye"})


UNREADABLE = N_(
    "The host sent a message this program cannot read, so the connection to it was "
    "closed; trying again."
)
"""Said once for a run of such connections, by a client with no screen of its own (a bot):
the sentence that ends them, if they do not stop, says the rest."""


QUIT_PATIENCE = 3.0
"""Seconds quitting may spend telling the others before the program ends anyway (the
terminal's and the plain table's runtimes)."""


LEAVE_PATIENCE = 1.0
"""Seconds a program that quits in the lobby gives its ``leave`` to be written."""


class CannotConnect(Exception):
    """The first connection attempt failed: nothing to resume."""

    def __init__(self, reason: str, kind: str | None = None) -> None:
        super().__init__(reason)
        self.kind = kind
        """refused, unknown_name, no_route, timed_out, not_a_host or web_port when known,
        for a sentence in the player's language (else only the system's own words)."""


def connect_failure_kind(error: OSError) -> str | None:
    """What kind of failure ``error`` is; trio's ``open_tcp_stream`` keeps the failure of
    each address it tried inside the one it raises."""
    if isinstance(error, socket.gaierror):
        return "unknown_name"
    failures: list[BaseException] = [error]
    if isinstance(error.__cause__, BaseExceptionGroup):
        failures += list(error.__cause__.exceptions)
    codes = {getattr(failure, "errno", None) for failure in failures}
    if errno.ECONNREFUSED in codes:
        return "refused"
    if codes & {errno.EHOSTUNREACH, errno.ENETUNREACH, errno.EADDRNOTAVAIL}:
        return "no_route"
    if errno.ETIMEDOUT in codes:
        return "timed_out"
    return None


class NotAHost(CannotConnect):
    """The first connection opened, but what answered is not a dalmuti-net host: it closed
    the connection or stayed silent before saying anything."""

    def __init__(self, reason: str, kind: str = "not_a_host") -> None:
        super().__init__(reason, kind)


class WebPort(NotAHost):
    """What answered is a web server, most likely the host's web table (kind
    ``web_port``); the reason is the table's port it named, or empty."""

    def __init__(self, table_port: int | None) -> None:
        super().__init__("" if table_port is None else str(table_port), "web_port")


def peer_address(stream: trio.abc.Stream) -> str | None:
    """``HOST:PORT`` (``[HOST]:PORT`` for IPv6) of a TCP stream's peer; None otherwise."""
    sock = getattr(stream, "socket", None)
    if sock is None:
        return None
    try:
        host, port = sock.getpeername()[:2]
    except (OSError, ValueError, TypeError):
        return None
    return address_text(str(host), int(port))


def unproven_error(session: ClientSession) -> Message:
    """The refusal this client tells its front end when a host failed its proof (the host
    sent none: it is this client that closes)."""
    error = session.errors[-1]
    return {"type": "error", "code": error.code, "message": error.message, "fatal": True}


class ClientRunner:
    def __init__(
        self,
        session: ClientSession,
        connect: Connector,
        *,
        on_message: MessageHandler | None = None,
        on_status: Callable[[Status], None] | None = None,
        reconnect: bool = True,
        max_reconnect_attempts: int | None = None,
        checked_frames: CheckedFrames | None = None,
        leave_lobby_on_quit: bool = False,
    ) -> None:
        self.session = session
        self._checked_frames = checked_frames
        """Shared with the other clients of this process sent the same frames (the web
        table's pages): a frame is checked once for all of them (``Connection``)."""
        self._leave_lobby_on_quit = leave_lobby_on_quit
        """A run that ends by ``stop``, a cancellation or Ctrl-C while its seat is in the
        lobby says ``leave`` first: the host holds a lobby seat through a dropped link
        for the grace period, and a program that quits on purpose must not keep it
        (``dalmuti bot``, the SDK; the table screens send theirs from the quit)."""
        self._lobby_seat = False
        """The last ``table`` (or snapshot) seen on this connection was a lobby's, and
        this client has a seat in it."""
        self._connect = connect
        self._on_message = on_message
        self._on_status = on_status
        self._reconnect = reconnect
        self._max_attempts = max_reconnect_attempts
        self._connection: Connection | None = None
        self.status = Status.CONNECTING
        self._scope = trio.CancelScope()
        self._answered = False
        self._unreadable: str | None = None
        """Why the last connection was closed by this client, when the host sent a
        message it cannot read or that does not fit (else ``None``)."""

    def _set_status(self, status: Status) -> None:
        self.status = status
        if self._on_status is not None:
            self._on_status(status)

    async def send(self, message: Message) -> bool:
        """Send if connected; False when there is no connection right now."""
        connection = self._connection
        if connection is None:
            return False
        try:
            await connection.send(message)
        except ConnectionClosed:
            return False
        if message["type"] == "leave":
            self.session.forget_seat()
        return True

    def stop(self) -> None:
        """End ``run`` (from a message handler, say, when the table is over)."""
        self._scope.cancel()

    async def run(self) -> None:
        """Until the host refuses or ends the session, ``stop`` or the caller cancels."""
        with self._scope:
            await self._run()

    async def _run(self) -> None:
        attempts = 0
        strikes = 0
        ever_connected = False
        try:
            while True:
                try:
                    stream = await self._connect()
                except OSError as error:
                    if not ever_connected:
                        raise CannotConnect(
                            str(error) or type(error).__name__, connect_failure_kind(error)
                        ) from error
                    self.session.drop(
                        str(error) or type(error).__name__, connect_failure_kind(error)
                    )
                    attempts += 1
                    if not await self._wait_before_retry(attempts):
                        return
                    continue
                first_connection = not ever_connected
                ever_connected = True
                attempts = 0
                finished = await self._session_on(
                    Connection(stream, self._checked_frames), first_connection
                )
                if self._unreadable is not None and not finished:
                    strikes += 1
                    if strikes >= UNREADABLE_STRIKES or not self._reconnect:
                        self.session.give_up(self._unreadable)
                        return
                    if strikes == 1 and self._on_status is None:
                        # Once for the run (the same host is met again); a front end that
                        # follows the status says it in its own log ("Connection lost").
                        log.warning(Told(UNREADABLE))
                    # Perhaps a message broken in transit: a fresh snapshot, after a pause.
                    attempts = strikes
                    if not await self._wait_before_retry(attempts):
                        return
                    continue
                strikes = 0
                if self.session.seat_lost and not finished:
                    continue  # the remembered seat is gone: take a new one at once
                # A seat is taken back by its token; a spectator comes back to watch.
                holds = self.session.token is not None or self.session.spectator
                if finished or not self._reconnect or not holds:
                    return
                self._set_status(Status.RECONNECTING)
                attempts += 1
                if not await self._wait_before_retry(attempts):
                    return
        finally:
            self._connection = None
            self._set_status(Status.CLOSED)

    async def _wait_before_retry(self, attempts: int) -> bool:
        if self._max_attempts is not None and attempts > self._max_attempts:
            return False
        self._set_status(Status.RECONNECTING)
        await trio.sleep(RECONNECT_DELAYS[min(attempts, len(RECONNECT_DELAYS)) - 1])
        return True

    async def _session_on(self, connection: Connection, first_connection: bool = False) -> bool:
        """Talk over one connection; True when the session is over for good. Raises
        ``NotAHost`` when the first connection ends, or stays silent, before any answer."""
        self._connection = connection
        finished = False
        self._answered = False
        """The hello was answered: what ends the first connection before is no host."""
        self._unreadable = None
        # The nursery wraps what its tasks raise in an ExceptionGroup: hence except*. What
        # is raised is raised after it: Python before 3.11.4 (Debian 12 has 3.11.2) wraps an
        # exception raised inside an except* clause in a group of its own.
        not_a_host: str | None = None
        web_port: AnswersHttp | None = None
        self.session.address = peer_address(connection.stream) or self.session.address
        self._lobby_seat = False
        quitting = True
        """Until the connection ends in a way handled here: what ends it otherwise is the
        program quitting (a cancellation, Ctrl-C) or an error."""
        try:
            if self.session.asks_about:
                await connection.send({"type": "about"})
            else:
                await connection.send(self.session.hello())
            async with trio.open_nursery() as nursery:
                nursery.start_soon(self._heartbeats, connection)
                silence = _Silence(self.session)
                nursery.start_soon(silence.keep)
                finished = await self._receive_loop(connection, silence)
                nursery.cancel_scope.cancel()
            quitting = False
        except* ConnectionClosed as group:
            quitting = False
            closed = group.exceptions[0]
            kind = closed.kind if isinstance(closed, ConnectionClosed) else None
            self.session.drop(str(closed), kind)
            if first_connection and isinstance(closed, AnswersHttp):
                web_port = closed  # said at once: the web table's port, not the table's
            elif first_connection and not self._answered:
                not_a_host = (
                    "the connection was closed before the hello was answered: is it a "
                    "dalmuti-net host?"
                )
            finished = False
        except* trio.TooSlowError:
            quitting = False
            self.session.drop(f"no answer to hello in {HANDSHAKE_TIMEOUT_S:.0f} s", "timed_out")
            if first_connection:
                not_a_host = (
                    f"no answer to hello in {HANDSHAKE_TIMEOUT_S:.0f} s: is it a dalmuti-net host?"
                )
            finished = False
        except* ProtocolError as group:
            quitting = False
            error = group.exceptions[0]
            assert isinstance(error, ProtocolError)
            if first_connection and not self._answered:
                not_a_host = f"what answered does not speak dalmuti-net ({error})"
                finished = False
            elif isinstance(error, HostVersion):
                self.session.refuse_version(error)  # as the host refuses another version
                finished = True
            else:
                log.info("the host sent a message this program cannot read: %s", error)
                self.session.drop(error.message, "unreadable")
                self._unreadable = error.message
                finished = False
        finally:
            self._connection = None
            if quitting and self._leave_lobby_on_quit and self._lobby_seat:
                await self._leave_lobby(connection)
            await connection.aclose()
        if web_port is not None:
            raise WebPort(web_port.table_port)
        if not_a_host is not None:
            raise NotAHost(not_a_host)
        return finished

    async def _leave_lobby(self, connection: Connection) -> None:
        """Give the lobby seat up on the way out, shielded from the cancellation that ends
        the run, for ``LEAVE_PATIENCE`` at most."""
        with trio.CancelScope(shield=True, deadline=trio.current_time() + LEAVE_PATIENCE):
            try:
                await connection.send({"type": "leave"})
            except ConnectionClosed:
                return
        self.session.forget_seat()

    def _follow_seat(self, message: Message) -> None:
        """Whether this client holds a seat in a lobby, from the host's own words."""
        table = message.get("table")
        if message["type"] in ("table", "snapshot") and isinstance(table, dict):
            seated = self.session.player is not None and not self.session.spectator
            self._lobby_seat = seated and table.get("phase") == "lobby"

    async def _heartbeats(self, connection: Connection) -> None:
        while True:
            await trio.sleep(self.session.limit_ms("heartbeat_interval_ms") / 1000)
            await connection.send({"type": "heartbeat"})

    async def _receive_loop(self, connection: Connection, silence: _Silence) -> bool:
        with silence.scope:
            return await self._receive(connection, silence)
        raise ConnectionClosed(f"the host said nothing for {silence.timeout_s():g} s", "silent")

    async def _receive(self, connection: Connection, silence: _Silence) -> bool:
        session = self.session
        deadline = trio.current_time() + HANDSHAKE_TIMEOUT_S
        handshake: float | None = deadline
        """Until the hello is answered: its deadline (an ``about`` answered, or heartbeats,
        do not let in; a host that never does is given up as not a host)."""
        with trio.fail_at(deadline):
            message = await connection.receive()
        slice_start = time.perf_counter()
        while True:
            if time.perf_counter() - slice_start > SLICE_S:
                await trio.lowlevel.checkpoint()  # the others' turn (a flood's frames wait)
                slice_start = time.perf_counter()
            if message["type"] in ANSWERS_TO_HELLO:
                handshake = None
                self._answered = True
            elif handshake is not None and trio.current_time() >= handshake:
                raise trio.TooSlowError
            if connection.skipped_seq is not None:
                session.skip_event(connection.skipped_seq)
                connection.skipped_seq = None
            was_waiting_snapshot = session.needs_snapshot
            session.receive(message)
            self._follow_seat(message)
            if message["type"] == "about":
                await connection.send(session.hello())
            if session.host_unproven:
                # Nothing more is sent to a host that could not prove it holds the seat.
                if self._on_message is not None:
                    await self._on_message(unproven_error(session))
                return True
            if message["type"] == "challenge" and session.proof_to_send is not None:
                await connection.send(session.proof_to_send)
                session.proof_to_send = None
            if session.seat_lost and message["type"] == "error":
                return False  # the remembered seat is gone (bad_token): a new one at once
            if message["type"] == "welcome":
                self._set_status(Status.CONNECTED)
            if session.needs_snapshot and not was_waiting_snapshot:
                await connection.send({"type": "snapshot_request"})
            if self._on_message is not None:
                await self._on_message(message)
            if message["type"] == "goodbye":
                return True
            if message["type"] == "error" and message["fatal"]:
                return message["code"] not in ("timeout", "slow_consumer")
            message = await silence.next_message(connection, handshake)


class _Silence:
    """A host silent for its heartbeat timeout has gone (the connection is then lost, and
    taken back as any dropped one is): the time waited for each message, kept by one
    task for the connection (``keep``) rather than a cancel scope for each message (a
    busy table sends thousands a minute, to every client in the web table's host). Only
    the waits count, never the time taken to handle a message."""

    def __init__(self, session: ClientSession) -> None:
        self._session = session
        self._waiting_since = math.inf
        """When the wait for the host's next message began (not waiting: infinity)."""
        self.scope = trio.CancelScope()
        """Around the receive loop: cancelled when a wait has lasted the timeout."""

    def timeout_s(self) -> float:
        return self._session.limit_ms("heartbeat_timeout_ms") / 1000

    async def keep(self) -> None:
        while True:
            now = trio.current_time()
            due = min(self._waiting_since, now) + self.timeout_s()
            if now >= due:
                self.scope.cancel()
                return
            await trio.sleep_until(due)

    async def next_message(self, connection: Connection, handshake: float | None) -> Message:
        """The host's next message. ``handshake``: the hello's deadline, while it is not
        answered (``trio.TooSlowError`` past it)."""
        self._waiting_since = trio.current_time()
        try:
            if handshake is None:
                return await connection.receive()
            with trio.fail_at(handshake):
                return await connection.receive()
        finally:
            self._waiting_since = math.inf
