"""Protocol clients for host tests: they record every message, can answer decisions with a
strategy, send their answers with request ids, and remember which ones the host acked."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

import trio
import trio.testing

from dalmuti_net.bots import make_strategy
from dalmuti_net.bots.base import Strategy
from dalmuti_net.client.connection import Connection, ConnectionClosed
from dalmuti_net.client.session import ClientSession
from dalmuti_net.engine import observe
from dalmuti_net.host.server import TableServer
from dalmuti_net.host.table import StartBot, Table
from dalmuti_net.protocol import ProtocolError
from dalmuti_net.protocol.messages import Message, action_message

Opener = Callable[[], Awaitable[trio.abc.Stream]]


class RecordingClient:
    """One connection's worth of client: ``run`` says hello, then reads until closed."""

    def __init__(
        self,
        name: str,
        *,
        spectator: bool = False,
        token: str | None = None,
        code: str | None = None,
        strategy: Strategy | None = None,
        heartbeat_s: float | None = 5.0,
    ) -> None:
        self.session = ClientSession(name, spectator=spectator, token=token, code=code)
        self.strategy = strategy
        self.heartbeat_s = heartbeat_s
        self.received: list[Message] = []
        self.handshake: list[Message] = []
        self.times: list[float] = []
        """When each message in ``received`` arrived (trio's clock)."""
        self.sent: dict[int, Message] = {}
        self.acked: list[Message] = []
        self.paused = False
        self.resync_on_error = True
        """Ask for a snapshot after a refused request, as the bot SDK does."""
        self.closed = trio.Event()
        self.welcomed = trio.Event()
        self.changed = trio.Event()
        self.close_reason = ""
        self._connection: Connection | None = None
        self._next_id = 1

    # ----------------------------------------------------------------- what it saw

    def of_type(self, kind: str) -> list[Message]:
        return [message for message in self.received if message["type"] == kind]

    @property
    def errors(self) -> list[Message]:
        return self.of_type("error")

    @property
    def phase(self) -> str | None:
        return None if self.session.table is None else self.session.table.phase

    # ----------------------------------------------------------------- talking

    async def run(self, stream: trio.abc.Stream) -> None:
        connection = self._connection = Connection(stream)
        try:
            first = {"type": "about"} if self.session.asks_about else self.session.hello()
            await connection.send(first)
            async with trio.open_nursery() as nursery:
                if self.heartbeat_s is not None:
                    nursery.start_soon(self._heartbeats, connection)
                await self._receive(connection)
                nursery.cancel_scope.cancel()
        except* (ConnectionClosed, ProtocolError) as group:
            self.close_reason = str(group.exceptions[0])
        finally:
            self._connection = None
            self.closed.set()
            self._notify()
            await connection.aclose()

    async def send(self, message: Message) -> None:
        """Send ``message`` with a fresh request id; ignored when not connected."""
        if self._connection is None:
            return
        message = {**message, "id": self._next_id}
        self.sent[self._next_id] = message
        self._next_id += 1
        with contextlib.suppress(ConnectionClosed):
            await self._connection.send(message)

    async def wait_until(self, condition: Callable[[], bool]) -> None:
        while not condition():
            await self.changed.wait()

    def _notify(self) -> None:
        self.changed.set()
        self.changed = trio.Event()

    async def _heartbeats(self, connection: Connection) -> None:
        assert self.heartbeat_s is not None
        while True:
            await trio.sleep(self.heartbeat_s)
            await connection.send({"type": "heartbeat"})

    async def _receive(self, connection: Connection) -> None:
        session = self.session
        while True:
            message = await connection.receive()
            kind = message["type"]
            if kind in ("about", "challenge"):
                # The handshake (a seat asked back with its proofs) is kept apart:
                # ``received`` starts at `welcome`, as for a new seat.
                self.handshake.append(message)
                session.receive(message)
                reply = session.hello() if kind == "about" else session.proof_to_send
                session.proof_to_send = None
                if session.host_unproven or reply is None:
                    return
                await connection.send(reply)
                continue
            self.received.append(message)
            self.times.append(trio.current_time())
            had_gap = session.needs_snapshot
            session.receive(message)
            if kind == "welcome":
                self.welcomed.set()
            elif kind == "ack" and message["re"] in self.sent:
                self.acked.append(self.sent[message["re"]])
            if session.needs_snapshot and not had_gap:
                await connection.send({"type": "snapshot_request"})
            self._notify()
            if kind == "goodbye" or (kind == "error" and message["fatal"]):
                return
            if kind == "error" and "re" in message and self.resync_on_error and self.strategy:
                await connection.send({"type": "snapshot_request"})
            await self._answer()

    async def _answer(self) -> None:
        session = self.session
        if self.paused or self.strategy is None or session.needs_snapshot:
            return
        if session.decision is None or session.observation is None:
            return
        action = self.strategy.choose(session.observation, session.decision)
        session.decision = None
        await self.send(action_message(action))

    async def resume(self) -> None:
        """Answer the decision owed now, after ``paused`` was cleared."""
        self.paused = False
        await self._answer()


def bot_runner(strategy: str = "random") -> Callable[[trio.abc.Stream, StartBot], Any]:
    """A TableServer ``run_bot``: in-process bot clients of the given strategy.

    They are recording clients, which choose in the trio thread: the bot SDK's ``play``
    chooses in a worker thread, and while a thread runs, trio's autojump clock jumps."""
    seeds = iter(range(10_000))

    async def run_bot(stream: trio.abc.Stream, bot: StartBot) -> None:
        strategy_now = make_strategy(bot.strategy or strategy, next(seeds))
        await RecordingClient(bot.name, token=bot.token, strategy=strategy_now).run(stream)

    return run_bot


async def open_memory_client(server: TableServer, nursery: trio.Nursery) -> trio.abc.Stream:
    """A connection to ``server`` that it treats like one from the network."""
    client_end, server_end = trio.testing.memory_stream_pair()
    nursery.start_soon(server.handle_stream, server_end, False)
    return client_end


def own_view(server: TableServer, player: int | None) -> dict[str, Any]:
    """What the host knows this viewer may see now, in the snapshot's terms."""
    from dalmuti_net.protocol.messages import observation_dict

    game = server.table.game
    assert game is not None
    return observation_dict(observe(game, player))


class JournalTap:
    """Keeps every journal entry the server takes from ``table``, with the (trio) time."""

    def __init__(self, table: Table) -> None:
        self.entries: list[dict[str, Any]] = []
        self.times: list[float] = []
        take = table.take_journal

        def take_and_keep() -> list[dict[str, Any]]:
            entries = take()
            now = trio.current_time()
            self.entries.extend(entries)
            self.times.extend(now for _ in entries)
            return entries

        table.take_journal = take_and_keep  # type: ignore[method-assign]


@asynccontextmanager
async def loopback_server(
    table: Table, *, between_hands: float = 0.0, strategy: str = "random"
) -> AsyncIterator[tuple[TableServer, int, trio.Nursery]]:
    """``table`` served over TCP on 127.0.0.1 (a free port); in-process bots for its bots."""
    server = TableServer(table, run_bot=bot_runner(strategy), between_hands=between_hands)
    async with trio.open_nursery() as nursery:
        await nursery.start(server.run)
        listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
        port = listeners[0].socket.getsockname()[1]
        nursery.start_soon(server.serve_tcp, listeners)
        yield server, port, nursery
        nursery.cancel_scope.cancel()


def tcp_opener(port: int) -> Opener:
    async def open_stream() -> trio.abc.Stream:
        return await trio.open_tcp_stream("127.0.0.1", port)

    return open_stream


async def join_over_tcp(
    port: int, client: RecordingClient, nursery: trio.Nursery
) -> RecordingClient:
    """Connect ``client`` and wait for its snapshot (or its refusal)."""
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    nursery.start_soon(client.run, stream)
    await client.wait_until(lambda: bool(client.of_type("snapshot")) or client.closed.is_set())
    return client
