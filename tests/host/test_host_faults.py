"""Fault isolation over TCP: a bug while serving one connection ends that connection only,
with ``internal_error`` and one line in the log; the server's nursery never sees it and
everyone else plays on (issue 38, item 1)."""

from __future__ import annotations

import pytest
import trio
from recording_clients import loopback_server

from dalmuti_net.host.table import Table
from dalmuti_net.protocol import PROTOCOL_VERSION, FrameReader, encode, unpack


def hello(name: str) -> bytes:
    return encode({"type": "hello", "version": PROTOCOL_VERSION, "name": name, "role": "player"})


async def until(stream: trio.abc.Stream, wanted: str) -> list[dict[str, object]]:
    frames = FrameReader()
    messages: list[dict[str, object]] = []
    with trio.fail_after(5):
        while not any(m["type"] == wanted for m in messages):
            data = await stream.receive_some(65536)
            if not data:
                break
            messages.extend(unpack(body) for body in frames.feed(data))
    return messages


async def test_a_bug_while_serving_one_connection_ends_that_connection_only(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = Table("Faults")
    receive = table.receive

    def buggy(connection: int, message: dict[str, object], now: float) -> None:
        if message["type"] == "chat" and message.get("text") == "boom":
            raise IndexError("a bug in the table")
        receive(connection, message, now)  # type: ignore[arg-type]

    monkeypatch.setattr(table, "receive", buggy)
    async with loopback_server(table) as (_, port, _):
        ana = await trio.open_tcp_stream("127.0.0.1", port)
        bo = await trio.open_tcp_stream("127.0.0.1", port)
        async with ana, bo:
            await ana.send_all(hello("Ana"))
            await until(ana, "snapshot")
            await bo.send_all(hello("Bo"))
            await until(bo, "snapshot")
            await ana.send_all(encode({"type": "chat", "text": "boom"}))
            last = await until(ana, "error")
            assert last[-1]["code"] == "internal_error" and last[-1]["fatal"] is True
            with trio.fail_after(5):
                assert await ana.receive_some(65536) == b""  # closed
            # Bo plays on: chat still goes round, and a newcomer is served.
            await bo.send_all(encode({"type": "chat", "text": "still here"}))
            said = await until(bo, "chat")
            assert said[-1]["text"] == "still here"
            carl = await trio.open_tcp_stream("127.0.0.1", port)
            async with carl:
                await carl.send_all(hello("Carl"))
                assert any(m["type"] == "welcome" for m in await until(carl, "snapshot"))
    lines = [r.getMessage() for r in caplog.records if "after an error" in r.getMessage()]
    assert len(lines) == 1
    assert "IndexError: a bug in the table" in lines[0] and "127.0.0.1" in lines[0]
