"""The trio server around the table core: connections, timers, the save, bots.

Every connection gets a reader (frames in, with a size limit before buffering and a rate
limit), a keeper (its heartbeats and its silence deadline) and a bounded queue of frames
out. A TCP socket is read and written directly, as trio's socket stream would, without
its layers: a move that wakes the host costs one read and one write per connection. After
each delivery the queue goes into the socket with one non-blocking write while the kernel
has room; only what the socket cannot take yet wakes the connection's writer task, which
waits for room. A client that stops reading fills its queue and is dropped without
slowing anyone else.

Connections and timers only hand inputs to the table and say that it changed (``changed``).
One long-lived delivery task per server, in the server's own nursery, takes what the table
produced as one ``Batch`` (journal entries, outgoing messages, effects), commits the
journal to the save, and only then delivers that batch's messages and effects. No
connection's task ever holds a change in flight, so a connection that is cancelled (its
client reset it) cannot drop the save or another connection's messages: acceptance and
delivery complete together, by construction.

Time reaches the table the same way: the table core decides every deadline (turn timers,
grace periods, the pause between hands) and says when it next needs to act
(``Table.next_deadline``); one task sleeps until then and calls ``Table.tick`` with the
clock's time, and what that produced is saved and delivered as any batch. Right after
delivering a batch the server ticks the table too, so the countdowns the new state calls
for start when its messages leave, and the ``timers`` they make go out with them.

Why nothing leaves before it is on disk: the save runs in a worker thread, and while it
runs other tasks go on feeding the table. What they produce stays in the table, because
the batch being saved was taken in one call (``Table.take_batch``, an ordinary function:
no checkpoint between taking the journal, the outboxes and the effects), and after the
save only that batch is handed out. The newer inputs are the next batch's: their acks,
events and decisions leave after their own commit. Only when nothing newer waits to be
saved (no journal entry) does what the tick after a delivery made (countdowns, a stand-in
to start, and any reply that changed nothing) go out at once, as a batch with nothing to
save. Countdowns (``timers``) are derived from the table's state, so the table announces
them only when that state has nothing newer than what was saved.

If the save cannot be written (a full disk, an I/O error), nothing is delivered: the
changes stay accepted in memory but unacknowledged, everyone is told once that the host
cannot save, the operator is told why, and the delivery task tries again every
``SAVE_RETRY`` seconds; the table goes on as soon as a write succeeds.

What serves the whole table (the delivery task, the time keeper, and a delivery done at
once without a save) is not one connection's: an error nothing foresaw there means the
table core or the save failed halfway through a change, and nothing the table holds can
be trusted since. So the evening ends there, the save intact: the batch in hand is not
delivered (nothing unsaved was ever acknowledged), everyone is told the host stopped the
table (``goodbye`` ``shutting_down``: clients and pages come back to a resumed table by
themselves), and ``run`` raises ``TableFailed``, for the host's command to say so in one
sentence and leave the save as one whose host did not end cleanly. A bot's task, by
contrast, is its seat's alone (``_run_bot``), and so is every connection's
(``handle_stream``).
"""

from __future__ import annotations

import logging
import math
import os
from collections.abc import Awaitable, Callable
from contextlib import suppress
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import trio
import trio.testing

from ..faults import CONNECTION_FAILED, LOCAL, log_fault
from ..protocol import (
    PROTOCOL_VERSION,
    Direction,
    ErrorCode,
    FrameReader,
    ProtocolError,
    encode,
    unpack,
    validate,
)
from ..protocol.catalogue import REQUEST_ID
from ..protocol.codec import FrameCache
from ..protocol.messages import ACTION_TYPES, Message
from ..told import N_, Told
from .listen import serve_listeners
from .ratelimit import RateLimiter
from .savefile import SaveFile, SaveWriteError
from .table import Batch, Close, StartBot, Table, Tell

log = logging.getLogger(__name__)
BOT_FAILED = N_(
    "{name} stopped because of an error ({error}); a stand-in plays its seat after the "
    "grace period. Please report it."
)

OTHER_VERSION = N_(
    "A client at {address} speaks protocol version {client} and this host speaks version "
    "{host}: it was refused. Install the same version of dalmuti-net on both."
)
"""Told once per address (the client is told both versions in its refusal too)."""

RECEIVE_CHUNK = 16 * 1024
OUTBOX_LIMIT = 2048
"""Frames queued for one connection (beyond what its socket took) before it counts as not
reading."""

WRITER_GRACE = 2.0
"""Seconds a closing connection's writer gets to send its last messages."""

SAVE_RETRY = 1.0
"""Seconds between attempts to write the save while it cannot be written."""
HEARTBEAT = encode({"type": "heartbeat"})
FAILED_GOODBYE = "the host stopped the table after an error; everything acknowledged is saved"
"""The ``shutting_down`` reason a table that failed gives everyone (in English; clients
word the code)."""


class TableFailed(Exception):
    """A task serving the whole table failed in a way nothing foresaw: the server stopped
    (``error``: what failed, its traceback with it)."""

    def __init__(self, error: BaseException) -> None:
        super().__init__(str(error))
        self.error = error


BotRunner = Callable[[trio.abc.Stream, StartBot], Awaitable[None]]
"""Plays a bot seat over ``stream`` (a client of this host), given the seat's token."""


Receive = Callable[[], Awaitable[bytes | bytearray]]
"""The next bytes that arrived on a connection (empty once the peer closed it); raises
trio.BrokenResourceError or trio.ClosedResourceError when the connection is gone."""


@dataclass(eq=False)
class Link:
    """The server's side of one connection."""

    connection: int
    stream: trio.abc.Stream
    descriptor: int | None
    """The stream's socket, written to directly (trio keeps it non-blocking); None: always
    through the writer task."""
    queued: list[bytes] = field(default_factory=list)
    """Bytes not yet written: whole frames, each encoded once for every connection it goes
    to (several joined in one bytes when they go to several connections together)."""
    unsent_frames: int = 0
    """How many frames ``queued`` holds (whole or in part): what ``OUTBOX_LIMIT`` bounds."""
    wake: trio.Event = field(default_factory=trio.Event)
    """Set when the writer task has something to write or the link closed."""
    writing: bool = False
    """The writer task is in a send: nothing may be written beside it."""
    closed: bool = False
    """No more frames: the writer ends once what is queued is sent."""
    scope: trio.CancelScope = field(default_factory=trio.CancelScope)
    reading: trio.CancelScope = field(default_factory=trio.CancelScope)
    """Around the reader: cancelled by the link's keeper when the client stayed silent."""
    read_deadline: float = math.inf
    """When the client must next be heard from by (moves only later)."""
    waiting: bool = False
    """The reader waits for input: the keeper may cancel it at ``read_deadline``."""
    last_queued: float = field(default_factory=trio.current_time)
    """When a frame was last queued for it: a heartbeat is due an interval later."""
    address: str | None = None
    """The peer's IP address (or the browser's a web table speaks for), for the log."""


class TableServer:
    def __init__(
        self,
        table: Table,
        *,
        save: SaveFile | None = None,
        run_bot: BotRunner | None = None,
        between_hands: float | None = None,
        on_change: Callable[[], None] | None = None,
        on_save_problem: Callable[[str | None], None] | None = None,
        save_in_thread: bool = True,
    ) -> None:
        self.table = table
        self.save = save
        self.save_in_thread = save_in_thread
        """Write the save in a worker thread, so that a slow disk never stops the host.
        False writes it in trio's thread: only for tests on trio's autojump clock, which
        jumps while a worker thread runs (every timer of the table would fire at once)."""
        self.on_save_problem = on_save_problem
        """Told why the save cannot be written, then ``None`` once it can again."""
        self.save_problem: str | None = None
        """Why the last write of the save failed, while it keeps failing."""
        self._unsaved: Batch | None = None
        """A batch taken whose save failed: saved again, with what came since, first."""
        self.run_bot = run_bot
        if between_hands is not None:  # else the table's own pause (``results_ms``)
            table.results_ms = round(between_hands * 1000)
        self.on_change = on_change
        self.links: dict[int, Link] = {}
        self._unwritten: dict[int, Link] = {}
        """Links given frames since the last ``_write_out``."""
        self._nursery: trio.Nursery | None = None
        self._changes = 0
        self._told_versions: set[tuple[str | None, int]] = set()
        """(address, version) of clients of another protocol version already told of."""
        """How many times the table was said to have changed (``changed``)."""
        self._delivered = 0
        """Up to which of those changes everything is saved and delivered."""
        self._change_arrived = trio.Event()
        self._delivery_done = trio.Event()
        self._deadline_moved = trio.Event()
        """Set when the table's next deadline is no longer the one slept until."""
        self._sleeping_until: float | None = None
        self.failure: BaseException | None = None
        """What made a task serving the whole table fail (then ``run`` raises)."""
        self._failed = trio.Event()

    # ------------------------------------------------------------------ running

    async def run(self, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        """The server's background work; connections are handed in by ``serve_tcp`` or
        ``connect_local``. Runs until cancelled."""
        async with trio.open_nursery() as nursery:
            self._nursery = nursery
            nursery.start_soon(self._table_wide, self._deliver_forever)
            nursery.start_soon(self._table_wide, self._keep_time)
            for bot in self.table.bot_seats():
                self._start_bot(bot)
            task_status.started()
            await self._failed.wait()
            # The evening ends with what is saved: told to everyone, then every task here
            # (the delivery task, the time keeper, the bots, in-process connections) stops.
            await self.shutdown(FAILED_GOODBYE, "shutting_down")
            nursery.cancel_scope.cancel()
        assert self.failure is not None
        raise TableFailed(self.failure)

    async def _table_wide(self, task: Callable[[], Awaitable[None]]) -> None:
        """Run a task that serves the whole table: an error nothing foresaw there ends the
        evening (``run``), never only that task, and never silently."""
        try:
            await task()
        except Exception as error:
            self._fail(error)

    def _fail(self, error: BaseException) -> None:
        """Stop serving the table: nothing more is saved or delivered (``_deliver``)."""
        if self.failure is None:
            self.failure = error
            log.debug("a task serving the whole table failed", exc_info=error)
        self._failed.set()

    async def serve_tcp(self, listeners: list[trio.SocketListener]) -> None:
        await serve_listeners(self.handle_tcp, listeners)  # quiet when descriptors run out

    async def handle_tcp(self, stream: trio.SocketStream) -> None:
        try:
            address = str(stream.socket.getpeername()[0])
        except OSError:  # already reset by the peer
            address = None
        await self.handle_stream(stream, internal=False, address=address)

    def connect_local(self, *, outside: str | None = None, unseen: bool = False) -> trio.abc.Stream:
        """An in-process client connection (the host player's UI, a bot): our end is
        served like any other, with the same protocol. ``outside``: the address of a
        browser this connection speaks for (the web table): it counts against the same
        limits as a TCP client from that address (rate, hello, connections). ``unseen``:
        a listener that watches for others who each have a connection of their own (the
        web table's watching pages in one language): a spectator nobody sees, counted
        in no place (``Connection.unseen``)."""
        assert self._nursery is not None, "run() first"
        client_end: trio.abc.Stream
        server_end: trio.abc.Stream
        if outside is None:
            client_end, server_end = trio.testing.memory_stream_pair()
            self._nursery.start_soon(self.handle_stream, server_end, True, None, unseen)
        else:
            # Bounded as a socket is: nothing is buffered between the two ends (a send
            # waits until the other end took it), so what a browser does not read stays
            # in its link's queue, and OUTBOX_LIMIT drops it as it drops a TCP client.
            client_end, server_end = trio.testing.lockstep_stream_pair()
            self._nursery.start_soon(self.handle_stream, server_end, False, outside)
        return client_end

    async def shutdown(self, reason: str | None = None, code: str | None = None) -> None:
        """Tell every connection goodbye and give the writers a moment to send it; without
        a reason, the table core's (a table that ended says so)."""
        if reason is None or code is None:
            reason, code = self.table.closing_goodbye()
        goodbye = encode({"type": "goodbye", "reason": reason, "code": code})
        for link in list(self.links.values()):
            if not link.closed:
                self._send(link, goodbye)
                self._close(link)
        self._write_out()
        with trio.move_on_after(1.0):
            while self.links:
                await trio.sleep(0.01)

    # ------------------------------------------------------------------ one connection

    async def handle_stream(
        self,
        stream: trio.abc.Stream,
        internal: bool = False,
        address: str | None = None,
        unseen: bool = False,
    ) -> None:
        """Serve one connection until it ends. An error nothing foresaw while serving it
        ends this connection only (the client is told ``internal_error`` when it can be),
        with one line in the log: it never reaches the server's nursery."""
        try:
            await self._serve_stream(stream, internal, address, unseen)
        except* Exception as group:
            where = Told(LOCAL) if address is None else address
            log_fault(log, CONNECTION_FAILED, group, address=where)
            with trio.CancelScope(shield=True):
                await trio.aclose_forcefully(stream)

    async def _serve_stream(
        self, stream: trio.abc.Stream, internal: bool, address: str | None, unseen: bool = False
    ) -> None:
        connection = self.table.connect(
            internal=internal, address=address, now=trio.current_time(), unseen=unseen
        )
        self.changed()  # room made for it closes an idle connection
        link = Link(connection, stream, self._socket_descriptor(stream), address=address)
        self.links[connection] = link
        try:
            try:
                with link.scope:
                    async with trio.open_nursery() as nursery:
                        nursery.start_soon(self._write, link, nursery.cancel_scope)
                        nursery.start_soon(self._keep, link)
                        await self._read(self._receiver(stream), link, internal)
                        self._close(link)
                        # Let the writer send what is queued, but never wait on a stuck peer.
                        nursery.cancel_scope.deadline = trio.current_time() + WRITER_GRACE
            except* Exception:
                await self._last_words(link)
                raise
        finally:
            del self.links[connection]
            self.table.disconnected(connection)
            self.changed()
            with trio.CancelScope(shield=True):
                await trio.aclose_forcefully(stream)

    async def _last_words(self, link: Link) -> None:
        """After an error nothing foresaw: what was queued, then ``internal_error``, sent
        as the writer would have (its task is gone), if the client takes them at once."""
        refusal = ProtocolError(
            ErrorCode.INTERNAL_ERROR,
            "the host failed while serving this connection and closed it; the table goes on",
        )
        data = b"".join([*link.queued, encode(refusal.message_to_send())])
        link.queued.clear()
        link.closed = True
        # A shielded second at most (CancelScope, not move_on_after(shield=): trio 0.25,
        # the floor, has no such argument).
        with (
            trio.CancelScope(deadline=trio.current_time() + 1, shield=True),
            suppress(trio.BrokenResourceError, trio.ClosedResourceError),
        ):
            await link.stream.send_all(data)

    async def _read(self, receive: Receive, link: Link, internal: bool) -> None:
        """Frames in until the connection ends. A client silent past its deadline is told
        why and closed: the link's keeper cancels a wait for input that outlasts it. (The
        hello a connection from outside owes is the table's deadline: ``Table.tick``
        closes one that said none in time, whatever it sent meanwhile.)"""
        limits = self.table.limits
        frames = FrameReader(self.table.max_frame_bytes)
        rate = RateLimiter(
            limits.max_messages_per_second,
            limits.max_messages_per_second * 2,
            trio.current_time(),
        )
        timeout = limits.heartbeat_timeout_ms / 1000
        # Only whole frames count as being heard from: a byte a second holds no
        # connection open.
        greeted = False
        heard_by = trio.current_time() + timeout
        with link.reading:
            while True:
                link.read_deadline = heard_by
                link.waiting = True
                try:
                    data = await receive()
                except (trio.BrokenResourceError, trio.ClosedResourceError):
                    return
                finally:
                    link.waiting = False
                if not data:
                    return
                try:
                    bodies = frames.feed(data)
                except ProtocolError as error:
                    await self._refuse(link, error)
                    return
                if bodies:
                    heard_by = trio.current_time() + timeout
                    if not await self._take(link, bodies, rate, internal, greeted):
                        return
                if frames.refusal is not None:
                    await self._refuse(link, frames.refusal)
                    return
                greeted = self.table.greeted_from_outside(link.connection)
        # Silent past the deadline.
        await self._refuse(
            link, ProtocolError(ErrorCode.TIMEOUT, f"no whole frame for {timeout:g} s")
        )

    async def _take(
        self, link: Link, bodies: list[bytes], rate: RateLimiter, internal: bool, greeted: bool
    ) -> bool:
        """Each whole frame read, to the table; then on once the changes are saved and sent
        (a client cannot run ahead of the disk). False when the connection must end."""
        told = False
        for body in bodies:
            request_id = None
            try:
                raw = unpack(body)
                request_id = _request_id(raw)
                if (
                    not internal
                    and not self._answers_decision(link, raw)
                    and not rate.allow(trio.current_time())
                ):
                    await self._refuse(
                        link,
                        ProtocolError(ErrorCode.RATE_LIMITED, "too many messages; slow down"),
                        request_id,
                    )
                    continue
                message = validate(raw, Direction.TO_HOST)
            except ProtocolError as error:
                await self._refuse(link, error, request_id)
                if error.fatal:
                    return False
                continue
            if message["type"] == "heartbeat" and "id" not in message and greeted:
                continue  # heard from (above); nothing for the table, nothing to send
            if message["type"] == "hello" and message["version"] != PROTOCOL_VERSION:
                self._tell_other_version(link, message["version"])
            self.table.receive(link.connection, message, trio.current_time())
            self._changes += 1  # told by the flush below (no wake-up each)
            told = True
        if told:
            await self.flush()  # only waits: cancelling it loses nothing
        return True

    def _tell_other_version(self, link: Link, version: int) -> None:
        """Both sides show both versions: the operator sees them here (once per address
        and version, so that an old client retrying cannot flood the console)."""
        address = link.address
        if (address, version) in self._told_versions or len(self._told_versions) > 256:
            return
        self._told_versions.add((address, version))
        shown = address or "?"  # an in-memory stream: never another version in practice
        log.warning(Told(OTHER_VERSION, address=shown, client=version, host=PROTOCOL_VERSION))

    def _answers_decision(self, link: Link, raw: Message) -> bool:
        """An answer to a decision the seat owes: never rate limited (only answers are: a
        seat that owes a decision may not flood the host with anything else)."""
        return raw.get("type") in ACTION_TYPES and self.table.owes_decision(link.connection)

    async def _refuse(self, link: Link, error: ProtocolError, re: Any = None) -> None:
        """Refuse, and wait until the refusal is queued: the caller may close next."""
        self.table.refuse(link.connection, error, re)
        await self.flush()

    def _receiver(self, stream: trio.abc.Stream) -> Receive:
        """A TCP connection's socket is read directly, as it is written: a non-blocking
        read, and a wait for the socket only when it has nothing, with trio's checkpoints
        kept; anything else (an in-process connection) through its stream. A move that
        wakes the host costs it one read, with no layers of stream, cancel scope or timer."""
        if not isinstance(stream, trio.SocketStream):
            return partial(stream.receive_some, RECEIVE_CHUNK)
        descriptor = stream.socket.fileno()

        async def receive() -> bytes:
            await trio.lowlevel.checkpoint_if_cancelled()
            try:
                data = os.read(descriptor, RECEIVE_CHUNK)
            except BlockingIOError:
                pass
            except OSError as error:
                raise trio.BrokenResourceError(error) from error
            else:
                await trio.lowlevel.cancel_shielded_checkpoint()
                return data
            while True:
                await trio.lowlevel.wait_readable(descriptor)
                try:
                    return os.read(descriptor, RECEIVE_CHUNK)
                except BlockingIOError:
                    continue
                except OSError as error:
                    raise trio.BrokenResourceError(error) from error

        return receive

    def _socket_descriptor(self, stream: trio.abc.Stream) -> int | None:
        """A TCP connection's socket is written to directly (trio keeps it non-blocking);
        anything else (an in-process connection) only through its writer task."""
        if isinstance(stream, trio.SocketStream):
            return stream.socket.fileno()
        return None

    async def _write(self, link: Link, done: trio.CancelScope) -> None:
        """What the socket could not take at once (or all, without a direct write): sent
        as soon as it has room, in one write."""
        try:
            while link.queued or not link.closed:
                if not link.queued:
                    await link.wake.wait()
                    link.wake = trio.Event()
                    continue
                data = b"".join(link.queued)
                link.queued.clear()
                link.unsent_frames = 0
                link.writing = True
                try:
                    await link.stream.send_all(data)
                finally:
                    link.writing = False
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            pass
        done.cancel()

    async def _keep(self, link: Link) -> None:
        """The link's two clocks in one task, so that reading a frame starts no timer:

        - a heartbeat only after an interval with nothing else sent (any frame tells the
          client the host is alive): a table in play sends none, and wakes no client;
        - the reader's deadline: a client not heard from by then, while the reader waits
          for it, is cut off (the reader says why). A reader that was busy past it (the
          save held it up) first reads what came meanwhile: the client was not silent,
          the host was; if nothing came, the cut comes at the next heartbeat.

        Both only move later, so this wakes about once a heartbeat interval, never once a
        frame."""
        interval = self.table.limits.heartbeat_interval_ms / 1000
        while not link.closed:
            heartbeat_due = link.last_queued + interval
            silence_due = link.read_deadline
            if silence_due <= trio.current_time():
                silence_due = math.inf  # passed while the reader was busy: see above
            await trio.sleep_until(min(heartbeat_due, silence_due))
            now = trio.current_time()
            if link.waiting and now >= link.read_deadline:
                link.reading.cancel()
                return
            if now >= link.last_queued + interval:
                self._send(link, HEARTBEAT)
                self._write_out()

    def _send(self, link: Link, frame: bytes) -> None:
        """Queue a frame; ``_write_out`` writes it."""
        self._queue(link, frame, 1, trio.current_time())

    def _queue(self, link: Link, data: bytes, frames: int, now: float) -> None:
        """Queue ``data``, that many whole frames; ``_write_out`` writes them."""
        if link.closed:
            return
        if link.unsent_frames + frames > OUTBOX_LIMIT:
            log.info("connection %s does not read its messages: dropping it", link.connection)
            link.scope.cancel()
            return
        link.queued.append(data)
        link.unsent_frames += frames
        link.last_queued = now
        self._unwritten[link.connection] = link

    def _close(self, link: Link) -> None:
        """No more frames for this link: its writer sends what is queued, then ends it."""
        link.closed = True
        link.wake.set()

    def _write_out(self) -> None:
        """Every frame queued since the last call, into its socket at once where the
        kernel has room (one system call per connection per delivery, no task switch);
        the rest wakes the connection's writer."""
        links, self._unwritten = self._unwritten, {}
        for connection, link in links.items():
            if self.links.get(connection) is not link or not link.queued:
                continue
            if link.writing or link.descriptor is None:
                link.wake.set()
                continue
            data = link.queued[0] if len(link.queued) == 1 else b"".join(link.queued)
            try:
                sent = os.write(link.descriptor, data)
            except BlockingIOError:
                sent = 0
            except OSError:
                link.wake.set()  # the writer's send finds the connection gone and ends it
                continue
            if sent == len(data):
                link.queued.clear()
                link.unsent_frames = 0
            else:
                link.queued[:] = [data[sent:]]
                link.wake.set()

    # ------------------------------------------------------------------ after every change

    def changed(self) -> None:
        """The table has something new: the delivery task saves and delivers it soon."""
        self._changes += 1
        self._change_arrived.set()

    async def flush(self) -> None:
        """Wait until every change so far is saved and delivered. Only waits: the work is
        the delivery task's, so cancelling this loses nothing. Without a save, delivers
        at once instead (nothing to wait for, so no task switch)."""
        if self.failure is not None:
            await trio.sleep_forever()  # the table is stopping: ``run`` cancels us
        if self.save is None:
            self._changes += 1
            try:
                self._deliver_unsaved()
            except Exception as error:  # the table's, not this connection's (``run``)
                self._fail(error)
                await trio.sleep_forever()
            return
        self.changed()
        wanted = self._changes
        while self._delivered < wanted:
            await self._delivery_done.wait()

    async def _deliver_forever(self) -> None:
        while True:
            await self._change_arrived.wait()
            self._change_arrived = trio.Event()
            batch = self._changes
            if batch == self._delivered:
                continue  # a flush without a save delivered it meanwhile
            while not await self._deliver():
                await trio.sleep(SAVE_RETRY)
            self._delivered = batch
            self._delivery_done.set()
            self._delivery_done = trio.Event()

    async def _deliver(self) -> bool:
        """Save first, then deliver: nothing is acknowledged before it is on disk. False
        if the save could not be written (then nothing was delivered)."""
        batch = self.table.take_batch()
        if self._unsaved is not None:
            batch = self._unsaved.followed_by(batch)
            self._unsaved = None
        if batch.journal and self.save is not None:
            try:
                if self.save_in_thread:
                    await trio.to_thread.run_sync(self.save.append, batch.journal)
                else:
                    self.save.append(batch.journal)
                    await trio.lowlevel.checkpoint()
            except SaveWriteError as error:
                self._unsaved = batch
                self._cannot_save(str(error))
                return False
            if self.save_problem is not None:
                self.save_problem = None
                if self.on_save_problem is not None:
                    self.on_save_problem(None)
                else:
                    log.warning("the save can be written again")
        self._hand_out(batch)
        return True

    def _deliver_unsaved(self) -> None:
        """Without a save there is nothing to wait for: every change so far delivered
        here and now, in one step with no checkpoint (nothing can interrupt it)."""
        batch = self._changes
        self._hand_out(self.table.take_batch())
        self._delivered = batch
        self._delivery_done.set()
        self._delivery_done = trio.Event()

    def _hand_out(self, batch: Batch) -> None:
        """What one batch produced, to the connections (messages and effects); then the
        table is ticked, and what that made with nothing to save (the countdowns, a
        stand-in) goes out with it: anything to save goes as the next batch."""
        now = trio.current_time()
        self._queue_batch(batch, now)
        if self._nursery is not None:
            self.table.tick(now)
            if self.table.next_deadline() != self._sleeping_until:
                self._deadline_moved.set()
            if self.table.unsaved():
                self.changed()  # a move made for someone (a deal): saved first, as any
            else:
                self._queue_batch(self.table.take_batch(), now)
        self._write_out()
        if self.on_change is not None:
            self.on_change()

    def _queue_batch(self, batch: Batch, now: float) -> None:
        """A batch's messages queued for their connections, and its effects carried out."""
        # The table puts one message object in the outbox of every connection it is for
        # (all spectators' events, every table and chat): each is encoded once, and the
        # outboxes that hold the same messages (every spectator's) are joined once.
        frames = FrameCache()
        joined: dict[tuple[int, ...], bytes] = {}
        for connection, messages in batch.outboxes.items():
            link = self.links.get(connection)
            if link is None:
                continue
            key = tuple(map(id, messages))
            data = joined.get(key)
            if data is None:
                data = joined[key] = b"".join([frames.frame(message) for message in messages])
            self._queue(link, data, len(messages), now)
        for effect in batch.effects:
            if isinstance(effect, StartBot):
                self._start_bot(effect)
            elif isinstance(effect, Close):
                link = self.links.get(effect.connection)
                if link is not None:
                    self._close(link)
            elif isinstance(effect, Tell):
                log.warning(effect.told)

    def _cannot_save(self, reason: str) -> None:
        """Say once per failure, to the operator and to everyone, that the table waits."""
        if self.save_problem is not None:
            return
        self.save_problem = reason
        if self.on_save_problem is not None:
            self.on_save_problem(reason)
        else:
            log.warning("cannot write the save: %s; the table waits until it can", reason)
        notice = ProtocolError(
            ErrorCode.CANNOT_SAVE,
            "the host cannot save the table right now; the table goes on, and your "
            "last move is answered, as soon as it can",
        ).message_to_send()
        frame = encode(notice)
        for link in list(self.links.values()):
            if self.table.listening(link.connection):
                self._send(link, frame)
        self._write_out()

    def _start_bot(self, bot: StartBot) -> None:
        if self.run_bot is None or self._nursery is None:
            log.warning("no bot runner: seat %r stays empty", bot.name)
            return
        self._nursery.start_soon(self._run_bot, self.connect_local(), bot)

    async def _run_bot(self, stream: trio.abc.Stream, bot: StartBot) -> None:
        """A bot that fails leaves its seat empty (a stand-in comes after the grace period);
        it never takes the table down with it."""
        assert self.run_bot is not None
        try:
            await self.run_bot(stream, bot)
        except Exception as error:
            # One sentence for the operator (in their language: a Told); the traceback
            # with -vv.
            cause: BaseException = error
            while isinstance(cause, BaseExceptionGroup) and len(cause.exceptions) == 1:
                cause = cause.exceptions[0]  # the bot's nursery wraps what failed
            failure = f"{type(cause).__name__}: {cause}"
            log.warning(Told(BOT_FAILED, name=bot.name, error=failure))
            log.debug("the bot playing %r stopped with an error", bot.name, exc_info=True)
        finally:
            await trio.aclose_forcefully(stream)

    async def _keep_time(self) -> None:
        """Sleep until the table's next deadline, then tick it and deliver what it did;
        woken early whenever a delivery moved that deadline."""
        while True:
            deadline = self._sleeping_until = self.table.next_deadline()
            with trio.move_on_at(math.inf if deadline is None else deadline):
                await self._deadline_moved.wait()
                self._deadline_moved = trio.Event()
                continue
            self.table.tick(trio.current_time())
            self.changed()


def _request_id(raw: Message) -> Any:
    """The request's ``id`` to answer with as ``re``, or None when it is not a valid id
    (a string with control characters, say): a refusal must itself be a valid frame, so
    an invalid id is never echoed."""
    request_id = raw.get("id")
    try:
        REQUEST_ID.check(request_id, "id")
    except ProtocolError:
        return None
    return request_id
