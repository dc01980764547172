"""Fault isolation at the web table: what one page or one raw-protocol browser client
sends, or a bug while serving it, ends that connection only (a close with a code, one line
in the host's log) and the table goes on serving everyone else (issue 38, item 1)."""

from __future__ import annotations

import json
from typing import Any

import pytest
import trio
from both_doors import both_doors, packed, serves_a_terminal
from test_web_server import websocket
from trio_websocket import ConnectionClosed, WebSocketConnection

from dalmuti_net.host.table import Table
from dalmuti_net.protocol import PROTOCOL_VERSION
from dalmuti_net.web import seat as seat_module


async def closed_with(ws: WebSocketConnection, seconds: float = 5) -> tuple[int, list[Any]]:
    """Every message up to the close, and the close's code."""
    received: list[Any] = []
    with trio.fail_after(seconds):
        try:
            while True:
                received.append(await ws.get_message())
        except ConnectionClosed as closed:
            return closed.reason.code, received


def fault_lines(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [
        r.getMessage() for r in caplog.records if "after an error in the host" in r.getMessage()
    ]


async def test_a_bug_while_serving_a_page_closes_it_with_1011(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def broken(self: seat_module.WebSeat, language: str) -> None:
        await self._receive()
        raise KeyError("a bug")

    monkeypatch.setattr(seat_module.WebSeat, "_run", broken)
    async with both_doors() as doors, websocket(doors.web, "/table") as ws:
        await ws.send_message("{}")
        code, _ = await closed_with(ws)
        assert code == 1011
        await serves_a_terminal(doors)
    [line] = fault_lines(caplog)
    assert "KeyError: 'a bug'" in line and "test_web_faults.py" in line and "127.0.0.1" in line
    assert "\n" not in line


async def test_a_bug_while_serving_a_protocol_client_closes_it_with_1011(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    from dalmuti_net.web import server as server_module

    def broken(body: bytes) -> bytes:
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr(server_module, "frame", broken)
    async with both_doors() as doors, websocket(doors.web, "/protocol") as ws:
        await ws.send_message(b"\x80")
        code, _ = await closed_with(ws)
        assert code == 1011
        await serves_a_terminal(doors)
    assert len(fault_lines(caplog)) == 1


async def page_then(doors_web: int, *messages: str) -> tuple[int, list[Any]]:
    async with websocket(doors_web, "/table") as ws:
        hello = json.loads(await ws.get_message())
        assert "hello" in hello
        for message in messages:
            await ws.send_message(message)
        return await closed_with(ws)


KILLERS = {
    "a thousand [": ("[" * 1000, "a message nests deeper than 8 levels"),
    "a thousand [ in a join": (
        '{"join": ' + "[" * 1000 + "]" * 1000 + "}",
        "a message nests deeper than 8 levels",
    ),
    "a lone surrogate in a name": (json.dumps({"join": {"name": "\ud800"}}), "not text"),
    "a lone surrogate in a code": (
        json.dumps({"join": {"name": "Ana", "code": "\ud800"}}),
        "not text",
    ),
    "a lone surrogate in a key": (json.dumps({"\udfff": 1}), "not text"),
    "an escape sequence in a chat": (json.dumps({"text": "\u001b[2J"}), "not text"),
    "NaN": ('{"size": [NaN, 1]}', "not JSON"),
}


@pytest.mark.parametrize(("message", "told"), KILLERS.values(), ids=KILLERS.keys())
async def test_what_killed_the_host_from_a_page_is_refused_in_a_sentence(
    message: str, told: str, caplog: pytest.LogCaptureFixture
) -> None:
    """Checked as the codec checks a frame, before it is parsed or used: the page is
    told why and closed (1008, policy), nothing unforeseen happened (no fault line)."""
    async with both_doors(Table("Web", code="tulip")) as doors:
        code, received = await page_then(doors.web, message)
        assert code == 1008
        assert told in json.loads(received[-1])["error"]
        await serves_a_terminal(doors)
    assert fault_lines(caplog) == []


async def test_a_lone_surrogate_token_with_the_tables_real_id_is_refused(
    caplog: pytest.LogCaptureFixture,
) -> None:
    async with both_doors() as doors:
        table_id = doors.table.table_id
        join = {"join": {"name": "Ana", "token": "\ud800", "table_id": table_id}}
        code, _ = await page_then(doors.web, json.dumps(join))
        assert code == 1008
        await serves_a_terminal(doors)
    assert fault_lines(caplog) == []


async def test_a_headless_tables_first_page_typing_a_superscript_two_into_a_rule() -> None:
    """``²``: ``isdigit()`` is true, ``int()`` refuses it. The page of the first player to
    join a headless table (its host player) types it into the hands-to-play field."""
    async with both_doors() as doors, websocket(doors.web, "/table") as ws:
        await ws.get_message()
        await ws.send_message(json.dumps({"join": {"name": "Ana"}}))
        with trio.fail_after(5):
            while not any(s.host for s in doors.table.seats.values()):
                await trio.sleep(0.01)
        for text in ("²", "1²", "²0"):  # the hands to play, typed into the page's field
            intent = {"do": "type_rule", "key": "hand_limit", "text": text}
            await ws.send_message(json.dumps(intent))
        await trio.sleep(0.3)
        await serves_a_terminal(doors)
        # The page is still at the table: the field refused the number in one sentence.
        seen = []
        with trio.move_on_after(0.5):
            while True:
                seen.append(await ws.get_message())
        assert any("Type a whole number" in text for text in seen), seen[-3:]


async def test_a_raw_protocol_client_over_websocket_with_a_lone_surrogate() -> None:
    """msgpack strings are checked by the codec: the raw channel was already safe."""
    async with both_doors() as doors, websocket(doors.web, "/protocol") as ws:
        hello = {"type": "hello", "version": PROTOCOL_VERSION, "name": "Ana", "role": "player"}
        body = packed(hello).replace(b"Ana", b"\xed\xa0\x80")  # "\ud800", CESU-style
        await ws.send_message(body)
        _, received = await closed_with(ws)
        assert any(b"bad_frame" in message for message in received), received
        await serves_a_terminal(doors)


async def test_a_bug_while_answering_a_page_request_closes_that_socket_only(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    from dalmuti_net.web import server as server_module

    def broken(name: str) -> bytes:
        raise OSError("a bug reading the package's files")

    monkeypatch.setattr(server_module, "static_file", broken)
    async with both_doors() as doors:
        stream = await trio.open_tcp_stream("127.0.0.1", doors.web)
        async with stream:
            await stream.send_all(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            with trio.fail_after(5):
                while await stream.receive_some():
                    pass  # closed, with no answer
        await serves_a_terminal(doors)
    [line] = fault_lines(caplog)
    assert "OSError: a bug reading the package's files" in line
