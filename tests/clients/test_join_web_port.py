"""`dalmuti join HOST:PORT` given the web table's port (found by hand: it waited 15 s,
then gave advice about firewalls). The web port answers a program's frame at once (HTTP
400, its ``Dalmuti-Port`` naming the table's port), and the client says so in one
sentence: this port is for a browser, the table is at that address. Real TCP on
127.0.0.1."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import replace

import pytest
import trio

from dalmuti_net.client.connection import http_table_port
from dalmuti_net.client.model.errors import describe_web_port
from dalmuti_net.client.model.refusals import unreachable
from dalmuti_net.client.runner import CannotConnect, ClientRunner, WebPort
from dalmuti_net.client.session import ClientSession
from dalmuti_net.host.server import TableServer
from dalmuti_net.host.table import StartBot, Table
from dalmuti_net.lang.i18n import Translator
from dalmuti_net.protocol import PROTOCOL_VERSION, encode
from dalmuti_net.web.server import TableDoor, WebServer

TABLE_PORT = 17341  # what the door says the table's port is (nothing listens there)


async def no_bots(stream: trio.abc.Stream, bot: StartBot) -> None:
    await trio.sleep_forever()


@asynccontextmanager
async def web_port(tcp_port: int | None) -> AsyncIterator[int]:
    server = TableServer(Table("Web"), run_bot=no_bots, between_hands=0)
    door = replace(TableDoor.of(server), tcp_port=tcp_port)
    async with trio.open_nursery() as nursery:
        await nursery.start(server.run)
        listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
        nursery.start_soon(WebServer(door).serve, listeners)
        yield listeners[0].socket.getsockname()[1]
        nursery.cancel_scope.cancel()


HELLO = encode({"type": "hello", "version": PROTOCOL_VERSION, "name": "Ana"})


@pytest.mark.parametrize("tcp_port", [TABLE_PORT, None])
async def test_the_web_port_answers_a_frame_with_the_tables_port(tcp_port: int | None) -> None:
    async with web_port(tcp_port) as port:
        stream = await trio.open_tcp_stream("127.0.0.1", port)
        async with stream:
            await stream.send_all(HELLO)
            answer = b""
            while data := await stream.receive_some():
                answer += data
    head = answer.partition(b"\r\n\r\n")[0]
    assert head.startswith(b"HTTP/1.1 400 "), answer
    assert http_table_port(head) == tcp_port


async def test_join_at_the_web_port_says_where_the_table_is() -> None:
    async with web_port(TABLE_PORT) as port:

        async def connect() -> trio.abc.Stream:
            return await trio.open_tcp_stream("127.0.0.1", port)

        runner = ClientRunner(ClientSession("Ana"), connect)
        with pytest.raises(CannotConnect) as raised:
            await runner.run()
    error = raised.value
    assert isinstance(error, WebPort) and error.kind == "web_port"
    screen = unreachable(
        Translator("es"), f"127.0.0.1:{port}", str(error), can_list=False, kind=error.kind
    )
    assert screen.sentences == (
        f"127.0.0.1:{port} sirve la mesa web, para un navegador (http://127.0.0.1:{port}/); "
        f"la mesa en sí está en 127.0.0.1:{TABLE_PORT}.",
    )  # one sentence: no advice about firewalls, no "try again"
    assert [choice.action for choice in screen.choices] == ["quit"]


def test_without_the_tables_port_the_sentence_says_where_to_find_it() -> None:
    told = describe_web_port(Translator("zh_Hant"), "[::1]:7342", "")
    assert "http://[::1]:7342/" in told and "玩家加入的指令" in told
    assert describe_web_port(Translator("en"), "[::1]:7342", "7341").endswith(
        "the table itself is at [::1]:7341."
    )
    assert http_table_port(b"HTTP/1.1 400 Bad Request\r\ndalmuti-port: 99999") is None
