"""The web port bounded like the TCP port (issue 38.2), over real TCP on 127.0.0.1: a
head over 8 KiB is refused however it arrives, open pages never keep a phone's ``GET /``
waiting, connections waiting for a slot are capped and time out, a ``/protocol`` client
that stops reading is dropped (by its queue, and by its pings)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import msgpack
import pytest
import trio
import trio.testing
from wsproto import ConnectionType, WSConnection
from wsproto.events import AcceptConnection, BytesMessage, Request

from dalmuti_net.host.server import OUTBOX_LIMIT, TableServer
from dalmuti_net.host.table import StartBot, Table
from dalmuti_net.protocol import PROTOCOL_VERSION, encode
from dalmuti_net.web import server as web_server
from dalmuti_net.web.server import MAX_PER_ADDRESS, MAX_WEB_CONNECTIONS, TableDoor, WebServer


async def no_bots(stream: trio.abc.Stream, bot: StartBot) -> None:
    await trio.sleep_forever()


@asynccontextmanager
async def web_table_of(table: Table, **timing: float) -> AsyncIterator[int]:
    async with web_server_of(table, **timing) as (port, _web):
        yield port


@asynccontextmanager
async def web_server_of(table: Table, **timing: float) -> AsyncIterator[tuple[int, WebServer]]:
    server = TableServer(table, run_bot=no_bots, between_hands=0)
    door = TableDoor.of(server)
    async with trio.open_nursery() as nursery:
        await nursery.start(server.run)
        listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
        web = WebServer(door, **timing)
        nursery.start_soon(web.serve, listeners)
        yield listeners[0].socket.getsockname()[1], web
        nursery.cancel_scope.cancel()


async def answer_to(port: int, request: bytes, local: str | None = None) -> bytes:
    stream = await trio.open_tcp_stream("127.0.0.1", port, local_address=local)
    async with stream:
        await stream.send_all(request)
        answer = b""
        with trio.fail_after(10):
            while data := await stream.receive_some():
                answer += data
    return answer


GET = b"GET / HTTP/1.1\r\nHost: x\r\n\r\n"


async def open_websocket(
    port: int, path: str, local: str, stack: list[trio.SocketStream]
) -> tuple[trio.SocketStream, WSConnection]:
    """A raw WebSocket (wsproto over a socket this test owns), handshake done."""
    stream = await trio.open_tcp_stream("127.0.0.1", port, local_address=local)
    stack.append(stream)
    client = WSConnection(ConnectionType.CLIENT)
    await stream.send_all(client.send(Request(host=f"127.0.0.1:{port}", target=path)))
    with trio.fail_after(10):
        while True:
            client.receive_data(await stream.receive_some())
            if any(isinstance(e, AcceptConnection) for e in client.events()):
                return stream, client


async def test_a_head_over_8_kib_is_refused_however_it_arrives() -> None:
    async with web_table_of(Table("Web")) as port:
        # In one piece: the server reads 8 KiB, then the rest with the blank line.
        big = b"GET / HTTP/1.1\r\nHost: x\r\nX-Pad: " + b"a" * 16_000 + b"\r\n\r\n"
        assert (await answer_to(port, big)).startswith(b"HTTP/1.1 431 ")
        # Just over, ending in the second read.
        over = b"GET / HTTP/1.1\r\nHost: x\r\nX-Pad: " + b"a" * 8_170 + b"\r\n\r\n"
        assert len(over) > 8 * 1024
        assert (await answer_to(port, over)).startswith(b"HTTP/1.1 431 ")
        under = b"GET / HTTP/1.1\r\nHost: x\r\nX-Pad: " + b"a" * 8_000 + b"\r\n\r\n"
        assert (await answer_to(port, under)).startswith(b"HTTP/1.1 200 ")


async def test_open_pages_never_keep_a_phone_waiting_for_the_page() -> None:
    """Pages left open at their join form (each a WebSocket), more of them than the
    server has slots: a phone's GET / is still answered at once."""
    sockets: list[trio.SocketStream] = []
    async with web_table_of(Table("Web")) as port:
        try:
            for n in range(MAX_WEB_CONNECTIONS + 8):
                await open_websocket(port, "/table", f"127.0.0.{2 + n % 3}", sockets)
            assert (await answer_to(port, GET)).startswith(b"HTTP/1.1 200 ")
        finally:
            for stream in sockets:
                await stream.aclose()


async def test_connections_waiting_for_a_slot_are_capped_and_time_out(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(web_server, "QUEUE_TIMEOUT", 2.0)
    # Slots held by connections that are not idle a while: none is let go for the queue.
    monkeypatch.setattr(web_server, "IDLE_HEAD_S", 60.0)
    idle: list[trio.SocketStream] = []
    async with web_server_of(Table("Web")) as (port, web):
        try:
            # Every slot held by a connection that sends no head (each for 10 s), then
            # every place in the queue, from addresses under the per-address cap.
            wanted = MAX_WEB_CONNECTIONS + web_server.MAX_QUEUED
            for n in range(wanted):
                local = f"127.0.1.{1 + n // (MAX_PER_ADDRESS - 1)}"
                idle.append(await trio.open_tcp_stream("127.0.0.1", port, local_address=local))
            with trio.fail_after(5):
                while web._queued < web_server.MAX_QUEUED:
                    await trio.sleep(0.01)
            # One more is answered 503 at once, before any queued one is.
            answer = await answer_to(port, GET, local="127.0.2.1")
            assert answer.startswith(b"HTTP/1.1 503 ") and b"retry-after: 5" in answer
            # A queued one that gets no slot in time is answered 503 too.
            queued = idle[-1]
            await queued.send_all(GET)
            with trio.fail_after(10):
                answer = b""
                while data := await queued.receive_some():
                    answer += data
            assert answer.startswith(b"HTTP/1.1 503 ")
        finally:
            for stream in idle:
                await stream.aclose()


async def test_a_protocol_client_that_reads_nothing_is_dropped_by_its_queue(
    autojump_clock: trio.testing.MockClock,
) -> None:
    """The web's raw protocol clients reach the table through a bounded stream: one that
    reads nothing fills the host's queue for it and is dropped as a TCP client is (the
    unbounded in-memory stream before grew the host by megabytes instead)."""
    table = Table("Web")
    server = TableServer(table, run_bot=no_bots, between_hands=0)
    async with trio.open_nursery() as nursery:
        await nursery.start(server.run)
        deaf = server.connect_local(outside="10.0.0.1")
        hello = {"type": "hello", "version": PROTOCOL_VERSION, "role": "spectator", "name": "D"}
        await deaf.send_all(encode(hello))
        chatter = server.connect_local()
        await chatter.send_all(encode({**hello, "name": "Chatty", "role": "player"}))

        async def drain() -> None:
            while await chatter.receive_some():
                pass

        nursery.start_soon(drain)
        await trio.sleep(1)
        outside = [link for link in server.links.values() if link.address == "10.0.0.1"]
        assert len(outside) == 1
        for n in range(OUTBOX_LIMIT + 100):
            await chatter.send_all(encode({"type": "chat", "text": f"line {n}"}))
            if n % 50 == 0:
                await trio.sleep(0.01)
        await trio.sleep(5)
        assert not any(link.address == "10.0.0.1" for link in server.links.values())
        nursery.cancel_scope.cancel()


async def test_a_protocol_client_that_answers_no_ping_is_closed() -> None:
    """It still sends heartbeats (the table hears from it), but reads nothing: its pings
    go unanswered and the host closes it, as it lets a silent page's seat go."""
    table = Table("Web")
    sockets: list[trio.SocketStream] = []
    async with web_table_of(table, ping_interval=0.1, silence=0.5) as port:
        stream, client = await open_websocket(port, "/protocol", "127.0.0.1", sockets)
        async with stream:
            hello = {"type": "hello", "version": PROTOCOL_VERSION, "role": "player", "name": "A"}
            await stream.send_all(client.send(BytesMessage(msgpack.packb(hello))))
            with trio.fail_after(5):
                while not any(c.greeted for c in table.connections.values()):
                    await trio.sleep(0.02)
            heartbeat = client.send(BytesMessage(msgpack.packb({"type": "heartbeat"})))
            with trio.fail_after(8):
                while any(c.greeted for c in table.connections.values()):
                    try:
                        await stream.send_all(heartbeat)
                    except (trio.BrokenResourceError, trio.ClosedResourceError):
                        break
                    await trio.sleep(0.2)
            assert not table.connections


async def test_idle_sockets_hold_no_slot_a_phone_waits_for() -> None:
    """A slowloris: every slot taken by a connection that sends no head, from three
    addresses. A phone's GET / waits for a slot, and the socket idle longest gives it up
    (it had a second to send its head)."""
    idle: list[trio.SocketStream] = []
    async with web_server_of(Table("Web")) as (port, web):
        try:
            for n in range(MAX_WEB_CONNECTIONS):
                local = f"127.0.3.{1 + n % 3}"
                idle.append(await trio.open_tcp_stream("127.0.0.1", port, local_address=local))
            with trio.fail_after(5):
                while web._slots.value:
                    await trio.sleep(0.01)
            await trio.sleep(web_server.IDLE_HEAD_S)
            with trio.fail_after(web_server.QUEUE_TIMEOUT):
                answer = await answer_to(port, GET)
            assert answer.startswith(b"HTTP/1.1 200 ")
        finally:
            for stream in idle:
                await stream.aclose()
