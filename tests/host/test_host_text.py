"""Names are text, at a live host over TCP: a hello, a chat or an add_bot with a control
character or a bidirectional override is refused with ``bad_message``, reaches nobody and
changes nothing, and the connection may try again; the host's own strings (a table name
from the command line, names in an older save) are cleaned before anyone is sent them."""

from __future__ import annotations

import logging
from typing import Any

import pytest
import trio
from recording_clients import RecordingClient, join_over_tcp, loopback_server

from dalmuti_net.host.table import Table
from dalmuti_net.protocol import PROTOCOL_VERSION, FrameReader, encode, unpack
from dalmuti_net.protocol.text import first_control

HOSTILE = [
    "\x1b]0;owned\x07\x1b[2JEve",  # retitles and clears a terminal
    "Eve\rAdmin",
    "\u202eevE",  # right-to-left override
    "\u2066Eve\u2069",  # isolates
    "Eve\x85",  # C1 next line
]


class RawClient:
    """A hand-written client: frames out as given, every frame in kept."""

    def __init__(self, stream: trio.SocketStream) -> None:
        self.stream = stream
        self.frames = FrameReader()
        self.received: list[dict[str, Any]] = []

    async def send(self, message: dict[str, Any]) -> None:
        await self.stream.send_all(encode(message))

    async def next_of(self, *kinds: str) -> dict[str, Any]:
        with trio.fail_after(10):
            while True:
                for message in self.received:
                    if message["type"] in kinds:
                        self.received.remove(message)
                        return message
                data = await self.stream.receive_some(65536)
                assert data, "the host closed the connection"
                self.received.extend(unpack(body) for body in self.frames.feed(data))


def hello(name: str, role: str = "player") -> dict[str, Any]:
    return {"type": "hello", "version": PROTOCOL_VERSION, "name": name, "role": role, "id": 1}


@pytest.mark.parametrize("name", HOSTILE, ids=["escape", "carriage return", "RLO", "LRI", "NEL"])
async def test_a_hostile_name_or_chat_is_refused_and_reaches_nobody(
    name: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    table = Table("Text")
    async with loopback_server(table) as (_server, port, nursery):
        host = await join_over_tcp(port, RecordingClient("Host"), nursery)
        raw = RawClient(await trio.open_tcp_stream("127.0.0.1", port))
        for role in ("player", "spectator"):
            await raw.send(hello(name, role))
            error = await raw.next_of("error", "welcome")
            assert error["type"] == "error" and error["code"] == "bad_message"
            assert error["fatal"] is False and error["re"] == 1
        await raw.send(hello("Eve"))
        welcome = await raw.next_of("welcome", "error")
        assert welcome["type"] == "welcome"
        await raw.send({"type": "chat", "text": f"hi {name}", "id": 2})
        assert (await raw.next_of("error"))["code"] == "bad_message"
        await host.send({"type": "add_bot", "name": name})
        await raw.send({"type": "chat", "text": "plain", "id": 3})
        await host.wait_until(lambda: bool(host.of_type("chat")) and len(host.errors) == 1)
        assert [m["text"] for m in host.of_type("chat")] == ["plain"]
        assert host.errors[0]["code"] == "bad_message"
        assert sorted(seat.name for seat in table.seats.values()) == ["Eve", "Host"]
        await raw.stream.aclose()
    for message in host.received:
        assert first_control(repr(message)) is None
    for record in caplog.records:
        assert first_control(record.getMessage()) is None, record.getMessage()


SMUGGLED = [
    {"type": "chat", "text": "hi", "colour": "\x1b[31m"},  # an unknown field
    {"type": "chat", "text": "hi", "\x1b[2J": 1},  # a map key
    {"type": "chat", "text": "hi", "extra": {"deep": ["ok", "\u202eevE"]}},  # nested
    {"type": "hello", "version": PROTOCOL_VERSION, "name": "Eve", "role": "player", "x": "\x07"},
]


@pytest.mark.parametrize("message", SMUGGLED, ids=["field", "key", "nested", "hello"])
async def test_a_control_character_anywhere_in_a_message_is_refused(
    message: dict[str, Any],
) -> None:
    """PROTOCOL.md, Framing: no control character "in any string": unknown fields and map
    keys too, refused with ``bad_message`` (not fatal), reaching nobody."""
    table = Table("Text")
    async with loopback_server(table) as (_server, port, nursery):
        host = await join_over_tcp(port, RecordingClient("Host"), nursery)
        raw = RawClient(await trio.open_tcp_stream("127.0.0.1", port))
        if message["type"] == "chat":
            await raw.send(hello("Eve"))
            assert (await raw.next_of("welcome", "error"))["type"] == "welcome"
        await raw.send({**message, "id": 7})
        error = await raw.next_of("error", "welcome")
        assert error["type"] == "error" and error["code"] == "bad_message"
        assert error["fatal"] is False and error["re"] == 7
        await raw.send(
            hello("Eve") if message["type"] == "hello" else {"type": "chat", "text": "plain"}
        )
        if message["type"] == "hello":
            assert (await raw.next_of("welcome", "error"))["type"] == "welcome"
        else:
            await host.wait_until(lambda: bool(host.of_type("chat")))
            assert [m["text"] for m in host.of_type("chat")] == ["plain"]
        await raw.stream.aclose()


def test_the_hosts_own_strings_are_cleaned() -> None:
    table = Table("\x1b[2JFriday\u202e night\n")
    assert table.name == "[2JFriday night"  # the controls only: what is left is text
    seat = table.reserve_seat("Ana\x07\x1b]0;x")
    assert seat.name == "Ana ]0;x"
    old_save = [
        {
            "op": "seat",
            "player": 1,
            "name": "\x1b[31mBea",
            "kind": "human",
            "token": "t" * 24,
            "host": True,
            "strategy": None,
        }
    ]
    rebuilt = Table.replay(old_save, name="Old")
    assert rebuilt.seats[1].name == "[31mBea"
    assert all(first_control(p["name"]) is None for p in rebuilt.table_message()["players"])
