"""Hostile and broken clients while a game goes on over TCP: one that never reads, and fuzzers
sending garbage frames, oversize headers, malformed msgpack, wrong types, out-of-turn and
illegal moves. Each gets the documented error (and is closed when that error is fatal); the
game completes and nobody else notices."""

from __future__ import annotations

import random
import socket
import struct
from typing import Any

import msgpack
import pytest
import trio
from recording_clients import RecordingClient, join_over_tcp, loopback_server
from secrecy import check_capture

from dalmuti_net.bots import make_strategy
from dalmuti_net.engine import Rules
from dalmuti_net.host import server as server_module
from dalmuti_net.host.table import Limits, Table
from dalmuti_net.protocol import PROTOCOL_VERSION, FrameReader, encode, unpack


def rules(hand_limit: int) -> Rules:
    return Rules(**{**Rules.all_optional(misdeal_chance=0.3).to_dict(), "hand_limit": hand_limit})


def hello(name: str, role: str = "player") -> bytes:
    return encode({"type": "hello", "version": PROTOCOL_VERSION, "name": name, "role": role})


def framed(body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + body


async def read_until_closed(stream: trio.abc.Stream, seconds: float = 10) -> list[dict[str, Any]]:
    """Every frame the host sends until it closes the connection."""
    frames = FrameReader()
    messages: list[dict[str, Any]] = []
    with trio.fail_after(seconds):
        while True:
            try:
                data = await stream.receive_some(65536)
            except trio.BrokenResourceError:
                break
            if not data:
                break
            messages.extend(unpack(body) for body in frames.feed(data))
    return messages


def check_bystander(client: RecordingClient, table: Table) -> None:
    assert client.phase == "ended"
    assert client.errors == [], f"{client.session.name} was disturbed: {client.errors}"
    assert len(client.of_type("snapshot")) == 1
    tokens = {s.token for s in table.seats.values()} - {client.session.token}
    check_capture(client.received, client.session.player, tokens)


async def game_with_bystanders(
    port: int, nursery: trio.Nursery, table: Table, bots: int = 3
) -> tuple[RecordingClient, RecordingClient]:
    host = await join_over_tcp(
        port, RecordingClient("Host", strategy=make_strategy("random", 1)), nursery
    )
    watcher = await join_over_tcp(port, RecordingClient("Watcher", spectator=True), nursery)
    for _ in range(bots):
        await host.send({"type": "add_bot", "strategy": "random"})
    return host, watcher


async def start_and_hold(host: RecordingClient) -> None:
    """Start the game and hold it at the host player's first decision (``resume`` goes on)."""
    host.paused = True
    await host.send({"type": "start"})
    with trio.fail_after(10):
        await host.wait_until(lambda: host.session.decision is not None)


# ---------------------------------------------------------------------- a client that never reads


async def open_non_reader(port: int) -> trio.SocketStream:
    """A TCP client with a tiny receive buffer that says hello as a spectator, then only
    ever sends heartbeats: it never reads a byte."""
    sock = trio.socket.socket(trio.socket.AF_INET, trio.socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    await sock.connect(("127.0.0.1", port))
    stream = trio.SocketStream(sock)
    await stream.send_all(hello("Deaf", "spectator"))
    return stream


async def keep_sending_heartbeats(stream: trio.abc.Stream) -> None:
    try:
        while True:
            await stream.send_all(encode({"type": "heartbeat"}))
            await trio.sleep(1)
    except (trio.BrokenResourceError, trio.ClosedResourceError):
        pass


async def test_a_client_that_never_reads_never_holds_the_game_up() -> None:
    """With the host's full queue the table plays to the end while the reader-less client is
    still connected: nothing ever waited on it."""
    table = Table("Deaf", rules(hand_limit=3), seed=31)
    async with loopback_server(table) as (server, port, nursery):
        deaf = await open_non_reader(port)
        nursery.start_soon(keep_sending_heartbeats, deaf)
        with trio.fail_after(10):
            while not any(c.greeted for c in table.connections.values()):
                await trio.sleep(0.01)
        (deaf_connection,) = table.connections
        host, watcher = await game_with_bystanders(port, nursery, table)
        await host.send({"type": "start"})
        with trio.fail_after(60):
            await watcher.wait_until(lambda: watcher.phase == "ended")
        assert deaf_connection in server.links, "the game ended before anything dropped it"
        await deaf.aclose()
    check_bystander(host, table)
    check_bystander(watcher, table)


async def test_a_client_that_never_reads_is_dropped_when_its_queue_fills(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(server_module, "OUTBOX_LIMIT", 32)
    table = Table("Deaf", rules(hand_limit=3), seed=32)
    async with loopback_server(table) as (server, port, nursery):
        deaf = await open_non_reader(port)
        nursery.start_soon(keep_sending_heartbeats, deaf)
        with trio.fail_after(10):
            while not any(c.greeted for c in table.connections.values()):
                await trio.sleep(0.01)
        (deaf_connection,) = table.connections
        host, watcher = await game_with_bystanders(port, nursery, table)
        await host.send({"type": "start"})
        with trio.fail_after(60):
            await watcher.wait_until(lambda: deaf_connection not in server.links)
            await watcher.wait_until(lambda: watcher.phase == "ended")
        assert deaf_connection not in table.connections
        assert watcher.of_type("table")[-1]["table"]["spectators"] == 1
        await deaf.aclose()
    check_bystander(host, table)
    check_bystander(watcher, table)


# ---------------------------------------------------------------------- fatal garbage


def nested(depth: int) -> Any:
    value: Any = 1
    for _ in range(depth):
        value = [value]
    return value


FATAL_FRAMES: list[tuple[str, bytes, str]] = [
    ("oversize header", struct.pack(">I", 65537), "too_large"),
    ("huge header", b"\xff\xff\xff\xff", "too_large"),
    ("empty frame", struct.pack(">I", 0), "bad_frame"),
    ("not msgpack", framed(b"\xc1\xc1\xc1"), "bad_frame"),
    ("truncated map", framed(b"\x82\xa4type"), "bad_frame"),
    ("a list, not a map", framed(msgpack.packb([1, 2])), "bad_frame"),
    ("int keys", framed(msgpack.packb({1: 2})), "bad_frame"),
    ("bin value", framed(msgpack.packb({"type": b"chat"}, use_bin_type=True)), "bad_frame"),
    ("too deep", framed(msgpack.packb({"type": "chat", "text": nested(9)})), "bad_frame"),
    ("trailing bytes", framed(msgpack.packb({"type": "heartbeat"}) + b"\x00"), "bad_frame"),
    ("unknown type", encode({"type": "make_me_win"}), "unknown_type"),
    ("host-side type", encode({"type": "welcome"}), "unknown_type"),
]


async def fatal_garbage(port: int, body: bytes, say_hello: bool) -> list[dict[str, Any]]:
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    async with stream:
        greeting: list[dict[str, Any]] = []
        if say_hello:
            await stream.send_all(hello("Fuzz", "spectator"))
            frames = FrameReader()
            while not any(m["type"] == "snapshot" for m in greeting):
                greeting.extend(unpack(b) for b in frames.feed(await stream.receive_some(65536)))
        await stream.send_all(body)
        return greeting + await read_until_closed(stream)


def expect_fatal(messages: list[dict[str, Any]], code: str, what: str) -> None:
    errors = [m for m in messages if m.get("type") == "error"]
    assert errors, f"{what}: no error before the close"
    assert errors[-1]["code"] == code, f"{what}: {errors[-1]}"
    assert errors[-1]["fatal"] is True, what


async def test_fatal_garbage_closes_only_that_connection_while_a_game_goes_on() -> None:
    table = Table("Garbage", rules(hand_limit=3), seed=33)
    async with loopback_server(table) as (_server, port, nursery):
        host, watcher = await game_with_bystanders(port, nursery, table)
        await start_and_hold(host)
        for what, body, code in FATAL_FRAMES:
            for say_hello in (False, True):
                messages = await fatal_garbage(port, body, say_hello)
                expect_fatal(messages, code, what)
                if say_hello:
                    assert messages[0]["type"] == "welcome"
        not_hello = await fatal_garbage(port, encode({"type": "chat", "text": "hi"}), False)
        expect_fatal(not_hello, "not_hello", "chat before hello")
        newer = await fatal_garbage(
            port, encode({"type": "hello", "version": 99, "name": "X", "role": "player"}), False
        )
        expect_fatal(newer, "version_mismatch", "a newer client")
        assert table.phase == "playing"
        await host.resume()
        with trio.fail_after(60):
            await watcher.wait_until(lambda: watcher.phase == "ended")
            await host.wait_until(lambda: host.phase == "ended")
    check_bystander(host, table)
    check_bystander(watcher, table)
    assert len(table.seats) == 4, "no garbage took a seat"


async def test_the_operator_is_told_of_another_version_once_per_address(
    caplog: pytest.LogCaptureFixture,
) -> None:
    table = Table("Versions", rules(hand_limit=1), seed=34)
    newer = encode({"type": "hello", "version": 99, "name": "X", "role": "player"})
    async with loopback_server(table) as (_server, port, _nursery):
        for _ in range(2):  # an old client retrying: said once
            expect_fatal(await fatal_garbage(port, newer, False), "version_mismatch", "newer")
    told = [r.getMessage() for r in caplog.records if r.name == server_module.__name__]
    told = [line for line in told if "protocol version 99" in line]
    assert len(told) == 1 and "127.0.0.1" in told[0], told


async def random_garbage(port: int, rng: random.Random) -> None:
    """Random bytes after a hello: the host answers with an error or nothing, never breaks."""
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    async with stream:
        await stream.send_all(hello("Noise", "spectator"))
        length = rng.choice([rng.randrange(1, 64), rng.randrange(1, 70_000)])
        body = rng.randbytes(min(length, 2048))
        try:
            await stream.send_all(struct.pack(">I", length) + body)
        except trio.BrokenResourceError:
            return
        with trio.move_on_after(0.2):
            await read_until_closed(stream)


async def test_random_garbage_frames_never_disturb_the_game() -> None:
    table = Table("Noise", rules(hand_limit=2), seed=34)
    rng = random.Random(34)
    async with loopback_server(table) as (_server, port, nursery):
        host, watcher = await game_with_bystanders(port, nursery, table)
        await start_and_hold(host)
        for _ in range(20):
            await random_garbage(port, rng)
        assert table.phase == "playing"
        await host.resume()
        with trio.fail_after(60):
            await watcher.wait_until(lambda: watcher.phase == "ended")
    check_bystander(host, table)
    check_bystander(watcher, table)


# ---------------------------------------------------------------------- a fuzzing player


REFUSALS = {
    "bad_message",
    "rate_limited",
    "already_hello",
    "not_host",
    "wrong_phase",
    "unknown_player",
    "no_decision_owed",
    "wrong_decision",
    "not_a_set",
    "not_held",
    "wrong_size",
    "not_better",
    "must_lead",
    "bad_cards",
    "bad_merchant",
    "bad_position",
}


def junk_requests(rng: random.Random) -> list[dict[str, Any]]:
    """Requests that must each be refused without closing the connection."""
    never_held = {"rank": 1, "count": rng.randint(2, 14), "jesters": 0}  # one Dalmuti exists
    return [
        {"type": "play", "set": "all of them"},
        {"type": "play", "set": {"rank": 0, "count": 1, "jesters": 0}},
        {"type": "play", "set": never_held},
        {"type": "play", "set": {"rank": 3, "count": 1, "jesters": 2}},
        {"type": "tax", "cards": [13, 13, 13, 13]},
        {"type": "tax", "cards": "x"},
        {"type": "exchange", "other": 999, "card": 5},
        {"type": "misdeal", "choice": "mine"},
        {"type": "place", "position": 42},
        {"type": "revolution", "declare": "yes"},
        {"type": "chat", "text": ""},
        {"type": "chat", "text": 12},
        {"type": "kick"},
        {"type": "kick", "player": 1},
        {"type": "start"},
        {"type": "set_rules", "rules": []},
        {"type": "add_bot", "strategy": 7},
        {"type": "set_timing", "turn_timer_ms": 10_000},
        {"type": "nudge", "player": 1},
        {"type": "skip", "player": 1},
        {"type": "hello", "version": PROTOCOL_VERSION, "name": "Again", "role": "player"},
        {"type": "end_table", "extra": list(range(rng.randint(0, 5)))},
    ]


class FuzzingPlayer(RecordingClient):
    """Holds a seat and plays legally, but before every answer sends a few requests that
    must be refused; it checks each refusal when it arrives."""

    def __init__(self, seed: int) -> None:
        super().__init__("Fuzzy", strategy=make_strategy("random", seed))
        self.resync_on_error = False  # a refusal changed nothing: the decision still stands
        self.rng = random.Random(seed)
        self.junk_ids: set[int] = set()

    async def _answer(self) -> None:
        session = self.session
        if session.decision is not None and session.observation is not None:
            junk = self.rng.sample(junk_requests(self.rng), 3)
        elif self.phase == "playing" and self.rng.random() < 0.05:
            junk = [{"type": "play", "set": {"rank": 1, "count": 3, "jesters": 0}}]
        else:
            junk = []
        for request in junk:
            self.junk_ids.add(self._next_id)
            await self.send(request)
        await super()._answer()


async def test_a_fuzzing_player_gets_documented_refusals_and_the_game_completes() -> None:
    table = Table("Fuzz", rules(hand_limit=3), seed=35)
    async with loopback_server(table) as (_server, port, nursery):
        host, watcher = await game_with_bystanders(port, nursery, table, bots=2)
        fuzzy = await join_over_tcp(port, FuzzingPlayer(35), nursery)
        await host.send({"type": "start"})
        with trio.fail_after(60):
            await watcher.wait_until(lambda: watcher.phase == "ended")
            await fuzzy.wait_until(lambda: fuzzy.phase == "ended")
    assert isinstance(fuzzy, FuzzingPlayer)
    replies = {m["re"]: m for m in fuzzy.received if m["type"] in ("ack", "error") and "re" in m}
    assert len(fuzzy.junk_ids) > 30
    for junk_id in fuzzy.junk_ids:
        reply = replies[junk_id]
        assert reply["type"] == "error", f"{fuzzy.sent[junk_id]} was accepted"
        assert reply["code"] in REFUSALS and reply["fatal"] is False, reply
    codes = {replies[i]["code"] for i in fuzzy.junk_ids}
    assert {"bad_message", "not_host", "already_hello"} <= codes
    assert codes & {"not_held", "not_a_set", "wrong_decision", "wrong_size", "must_lead"}
    answers = [i for i, m in fuzzy.sent.items() if i not in fuzzy.junk_ids]
    assert answers and all(replies[i] == {"type": "ack", "re": i} for i in answers)
    check_bystander(host, table)
    check_bystander(watcher, table)


@pytest.mark.slow
async def test_a_long_fuzzing_campaign() -> None:
    """Twenty hands with a fuzzing player, and hundreds of garbage connections meanwhile."""
    table = Table("Long fuzz", rules(hand_limit=20), seed=36)
    rng = random.Random(36)
    async with loopback_server(table, between_hands=0.3) as (_server, port, nursery):
        host, watcher = await game_with_bystanders(port, nursery, table, bots=2)
        fuzzy = await join_over_tcp(port, FuzzingPlayer(36), nursery)
        await host.send({"type": "start"})
        sent = 0
        while table.phase != "ended":
            await random_garbage(port, rng)
            _, body, code = rng.choice(FATAL_FRAMES)
            expect_fatal(await fatal_garbage(port, body, rng.random() < 0.5), code, code)
            sent += 1
        with trio.fail_after(60):
            await watcher.wait_until(lambda: watcher.phase == "ended")
            await fuzzy.wait_until(lambda: fuzzy.phase == "ended")
    assert sent > 30
    check_bystander(host, table)
    check_bystander(watcher, table)


async def test_a_hello_over_the_connection_limit_is_refused_at_once() -> None:
    table = Table("Small host", limits=Limits(max_connections=2))
    async with loopback_server(table) as (_server, port, nursery):
        first = await join_over_tcp(port, RecordingClient("One"), nursery)
        await join_over_tcp(port, RecordingClient("Two", spectator=True), nursery)
        stream = await trio.open_tcp_stream("127.0.0.1", port)
        async with stream:
            await stream.send_all(hello("Three", "spectator"))
            refused = await read_until_closed(stream)
        assert [m["code"] for m in refused] == ["too_many_connections"]
        assert refused[0]["fatal"] is True
        await first.send({"type": "chat", "text": "still fine"})
        await first.wait_until(lambda: bool(first.of_type("chat")))
