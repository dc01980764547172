"""A host that goes silent (its machine's lid closed, its Wi-Fi gone: no FIN, no reset) is
lost after its heartbeat timeout, and the client takes its seat back as after any drop
(PROTOCOL.md, Liveness: a client SHOULD treat 20 s of silence as a lost connection)."""

from __future__ import annotations

from pathlib import Path

import pytest
import trio
import trio.testing

from dalmuti_net.bots import make_strategy
from dalmuti_net.client.bot import play, stream_connector
from dalmuti_net.client.model.refusals import for_error
from dalmuti_net.client.runner import HANDSHAKE_TIMEOUT_S, ClientRunner, NotAHost, Status
from dalmuti_net.client.seats import SeatStore
from dalmuti_net.client.session import ClientSession
from dalmuti_net.host.server import TableServer
from dalmuti_net.host.table import StartBot, Table
from dalmuti_net.lang.i18n import Translator
from dalmuti_net.protocol import PROTOCOL_VERSION, FrameReader, encode, unpack
from dalmuti_net.protocol.catalogue import MAX_FRAME_BYTES


async def run_bot(stream: trio.abc.Stream, bot: StartBot) -> None:
    strategy = make_strategy("random", 3)
    await play(stream_connector(stream), strategy, bot.name, token=bot.token, reconnect=False)


class Vanishing(trio.abc.Stream):
    """A connection whose far end can vanish: from then on nothing arrives and what is
    sent goes nowhere, as when a machine drops off the network."""

    def __init__(self, inner: trio.abc.Stream) -> None:
        self.inner = inner
        self.gone = False

    async def send_all(self, data: bytes | bytearray | memoryview) -> None:
        if not self.gone:
            await self.inner.send_all(data)

    async def wait_send_all_might_not_block(self) -> None:
        await self.inner.wait_send_all_might_not_block()

    async def receive_some(self, max_bytes: int | None = None) -> bytes | bytearray:
        data = await self.inner.receive_some(max_bytes)
        if self.gone:
            await trio.sleep_forever()
        return data

    async def aclose(self) -> None:
        await self.inner.aclose()


async def test_a_silent_host_is_lost_after_its_timeout_and_the_seat_taken_back(
    autojump_clock: trio.testing.MockClock,
) -> None:
    table = Table("Lid closed")
    server = TableServer(table, run_bot=run_bot)
    connections: list[Vanishing] = []
    statuses: list[tuple[float, Status]] = []
    async with trio.open_nursery() as nursery:
        await nursery.start(server.run)

        async def connect() -> trio.abc.Stream:
            client_end, server_end = trio.testing.memory_stream_pair()
            nursery.start_soon(server.handle_stream, server_end, False)
            connections.append(Vanishing(client_end))
            return connections[-1]

        session = ClientSession("Ana")
        runner = ClientRunner(
            session, connect, on_status=lambda s: statuses.append((trio.current_time(), s))
        )
        nursery.start_soon(runner.run)
        while session.welcome is None:
            await trio.sleep(0.1)
        seat = session.player
        await trio.sleep(60)  # a quiet lobby: the host's heartbeats keep it connected
        assert len(connections) == 1 and statuses[-1][1] is Status.CONNECTED
        for _ in range(3):
            await runner.send({"type": "add_bot", "strategy": "random"})
        await runner.send({"type": "start"})
        while session.decision is None:  # the game waits for Ana: nothing more is said
            await trio.sleep(0.1)

        connections[0].gone = True
        vanished = trio.current_time()
        session.welcome = None
        with trio.fail_after(120):
            while session.welcome is None:
                await trio.sleep(0.1)
        lost = next(t for t, s in statuses if t > vanished and s is Status.RECONNECTING)
        # 20 s after the last frame heard, which came at most 5 s (a heartbeat) before.
        assert 15.0 <= lost - vanished <= 20.1
        assert len(connections) == 2 and session.player == seat  # the same seat, cards too
        assert session.observation is not None and session.observation.hand
        assert table.seats[seat].connection is not None
        runner.stop()
        nursery.cancel_scope.cancel()


async def unwelcoming_host(stream: trio.abc.Stream) -> None:
    """Answers every ``about`` and sends its heartbeats, but never answers the hello."""
    reader = FrameReader(MAX_FRAME_BYTES)
    about = {
        "type": "about",
        "version": PROTOCOL_VERSION,
        "table_id": "never",
        "table": "Never",
        "phase": "lobby",
        "code_required": False,
        "software": "unwelcoming/1",
    }
    lock = trio.Lock()

    async def send(message: dict[str, object]) -> None:
        async with lock:
            await stream.send_all(encode(message))

    async def heartbeats() -> None:
        while True:
            await send({"type": "heartbeat"})
            await trio.sleep(5)

    try:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(heartbeats)
            while data := await stream.receive_some():
                for body in reader.feed(data):
                    if unpack(body)["type"] == "about":
                        await send(about)
            nursery.cancel_scope.cancel()
    except* (trio.BrokenResourceError, trio.ClosedResourceError):
        pass  # the client hung up


@pytest.mark.parametrize("seats", [None, SeatStore], ids=["hello", "about_first"])
async def test_a_host_that_never_lets_in_is_given_up_as_no_host(
    autojump_clock: trio.testing.MockClock, seats: type[SeatStore] | None, tmp_path: Path
) -> None:
    """It answers `about` and keeps its heartbeats coming: that is no answer to the hello.
    The first connection is given up as not a host (every client says so in one sentence
    and ends: `dalmuti bot` and `join` with 4); it used to wait for ever, or say the
    connection closed and offer to try the same again."""
    async with trio.open_nursery() as nursery:

        async def connect() -> trio.abc.Stream:
            client_end, host_end = trio.testing.memory_stream_pair()
            nursery.start_soon(unwelcoming_host, host_end)
            return client_end

        store = None if seats is None else seats(tmp_path)
        runner = ClientRunner(ClientSession("Ana", seats=store), connect)
        started = trio.current_time()
        with trio.fail_after(100), pytest.raises(NotAHost, match="no answer to hello in 15 s"):
            await runner.run()
        assert trio.current_time() - started == pytest.approx(HANDSHAKE_TIMEOUT_S, abs=1)
        nursery.cancel_scope.cancel()


async def test_a_fatal_error_of_a_later_code_is_the_hosts_refusal_not_no_host() -> None:
    """PROTOCOL.md, Versions: a compatible host MAY add error codes, and a client MUST take
    one it does not know by its ``fatal`` flag. Found by hand: a fatal ``error`` answering
    the hello with a code this client did not know was said to come from "not a
    dalmuti-net table" (join, --plain and bot): the catalogue's list of codes refused it."""
    refusal = {
        "type": "error",
        "code": "banned_for_tonight",
        "message": "this host does not seat you tonight",
        "fatal": True,
    }

    async def refusing_host(stream: trio.abc.Stream) -> None:
        reader = FrameReader(MAX_FRAME_BYTES)
        async with stream:
            while data := await stream.receive_some():
                if any(unpack(body)["type"] == "hello" for body in reader.feed(data)):
                    await stream.send_all(encode(refusal))
                    return

    async with trio.open_nursery() as nursery:

        async def connect() -> trio.abc.Stream:
            client_end, host_end = trio.testing.memory_stream_pair()
            nursery.start_soon(refusing_host, host_end)
            return client_end

        session = ClientSession("Ana")
        with trio.fail_after(5):
            await ClientRunner(session, connect).run()
        assert [(e.code, e.fatal, e.message) for e in session.errors] == [
            ("banned_for_tonight", True, "this host does not seat you tonight")
        ]
        # Said once, in the host's own words (join and --plain said them twice: the
        # sentence for a code without one is "The host refused: ...", then "The host
        # said: ..." again).
        screen = for_error(Translator("en"), session.errors[0], can_list=False)
        assert screen.sentences == ("The host refused: this host does not seat you tonight",)
        nursery.cancel_scope.cancel()


async def test_a_spectator_comes_back_after_its_connection_breaks(
    autojump_clock: trio.testing.MockClock,
) -> None:
    """Found by hand: the host was killed mid-hand and resumed; every player's terminal
    and the page came back by themselves, but a `join --spectate` (terminal and --plain)
    said "Not connected: the connection to the host is closed" and stayed out (it has no
    seat's token, and only a token was taken as a reason to reconnect)."""
    table = Table("Watched")
    server = TableServer(table, run_bot=run_bot)
    connections: list[Vanishing] = []
    async with trio.open_nursery() as nursery:
        await nursery.start(server.run)

        async def connect() -> trio.abc.Stream:
            client_end, server_end = trio.testing.memory_stream_pair()
            nursery.start_soon(server.handle_stream, server_end, False)
            connections.append(Vanishing(client_end))
            return connections[-1]

        session = ClientSession("Gus", spectator=True)
        runner = ClientRunner(session, connect)
        nursery.start_soon(runner.run)
        while session.welcome is None:
            await trio.sleep(0.1)
        connections[0].gone = True  # the host's machine drops off the network
        session.welcome = None
        with trio.fail_after(120):
            while session.welcome is None:
                await trio.sleep(0.1)
        assert len(connections) == 2 and session.spectator and session.player is None
        runner.stop()
        nursery.cancel_scope.cancel()
