"""A table served over TCP and the web at once on 127.0.0.1, and a terminal player's quick
check that it still serves: the probe the fault-isolation and fuzz tests run after each
hostile input."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

import msgpack
import trio

from dalmuti_net.host.server import TableServer
from dalmuti_net.host.table import StartBot, Table
from dalmuti_net.protocol import PROTOCOL_VERSION, FrameReader, encode, unpack
from dalmuti_net.web.server import TableDoor, WebServer


async def no_bots(stream: trio.abc.Stream, bot: StartBot) -> None:
    await trio.sleep_forever()


@dataclass
class Doors:
    table: Table
    server: TableServer
    tcp: int
    web: int
    web_open: list[int]
    """Connections to the web port the web server has not finished with (one number)."""

    async def all_gone(self) -> None:
        """Wait until the host has finished with every connection (served, refused or
        failed): what a hostile input could do, it has done."""
        with trio.fail_after(5):
            while self.server.links or self.web_open[0]:
                await trio.sleep(0.005)


@asynccontextmanager
async def both_doors(table: Table | None = None, **timing: float) -> AsyncIterator[Doors]:
    """``table`` served on a TCP port and a web port (free ones, 127.0.0.1)."""
    table = table if table is not None else Table("Doors")
    server = TableServer(table, run_bot=no_bots, between_hands=0)
    door = TableDoor.of(server)
    async with trio.open_nursery() as nursery:
        await nursery.start(server.run)
        tcp = await trio.open_tcp_listeners(0, host="127.0.0.1")
        web = await trio.open_tcp_listeners(0, host="127.0.0.1")
        nursery.start_soon(server.serve_tcp, tcp)
        web_server = WebServer(door, **timing)
        web_open = [0]

        async def handle(stream: trio.SocketStream) -> None:
            web_open[0] += 1
            try:
                await web_server.handle(stream)
            finally:
                web_open[0] -= 1

        nursery.start_soon(trio.serve_listeners, handle, web)
        yield Doors(
            table,
            server,
            tcp[0].socket.getsockname()[1],
            web[0].socket.getsockname()[1],
            web_open,
        )
        nursery.cancel_scope.cancel()


async def tcp_messages(
    stream: trio.abc.Stream, until: str, seconds: float = 5
) -> list[dict[str, Any]]:
    """What the host sends on ``stream`` up to a message of type ``until`` (or its close)."""
    frames = FrameReader()
    messages: list[dict[str, Any]] = []
    with trio.fail_after(seconds):
        while True:
            try:
                data = await stream.receive_some(65536)
            except trio.BrokenResourceError:
                return messages
            if not data:
                return messages
            for body in frames.feed(data):
                message = unpack(body)
                messages.append(message)
                if message["type"] == until:
                    return messages


async def serves_a_terminal(doors: Doors) -> None:
    """A spectator over TCP is welcomed with a snapshot: the host is alive and serving."""
    stream = await trio.open_tcp_stream("127.0.0.1", doors.tcp)
    async with stream:
        hello = {"type": "hello", "version": PROTOCOL_VERSION, "name": "Probe", "role": "spectator"}
        if doors.table.code is not None:
            hello["code"] = doors.table.code
        await stream.send_all(encode(hello))
        messages = await tcp_messages(stream, "snapshot")
        assert [m["type"] for m in messages[:2]] == ["welcome", "snapshot"], messages


def packed(message: dict[str, Any]) -> bytes:
    return msgpack.packb(message)  # type: ignore[no-any-return]
