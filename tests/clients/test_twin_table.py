"""A fake host on the LAN that claims a real table's id (a twin "Friday table") gets no
resume token and no seat: it cannot prove it holds the seat, so the client sends it
nothing more, keeps the seat it remembers, and still takes it back at the real table."""

from __future__ import annotations

import secrets
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
import trio
from test_remembered_seats import Player, RecordingTable, served, tcp

from dalmuti_net.client.claims import MOVED, claims
from dalmuti_net.client.discovery import browse_tables
from dalmuti_net.client.runner import ClientRunner, unproven_error
from dalmuti_net.client.seats import SeatStore
from dalmuti_net.client.session import HOST_UNPROVEN, ClientSession
from dalmuti_net.client.ui.screen import render
from dalmuti_net.client.ui.state import ClientUi
from dalmuti_net.engine import Rules
from dalmuti_net.host.announce import announce_table
from dalmuti_net.lang.i18n import Translator
from dalmuti_net.protocol import PROTOCOL_VERSION, FrameReader, encode, unpack
from dalmuti_net.protocol.discovery import (
    SERVICE_TYPE,
    TableInfo,
    TableListing,
    encode_txt,
    listing_from_record,
)
from dalmuti_net.protocol.resume import NONCE_CHARS, PROOF_CHARS

STEP = 10.0


class FakeHost:
    """Answers `about` with the real table's id and then does what ``behaviour`` says to a
    `hello`; remembers every frame it was sent, as bytes and decoded."""

    def __init__(self, real: RecordingTable, behaviour: str) -> None:
        self.real = real
        self.behaviour = behaviour
        self.heard: list[dict[str, Any]] = []
        self.raw = b""
        self.connections = 0

    def about(self) -> dict[str, Any]:
        return {
            "type": "about",
            "version": PROTOCOL_VERSION,
            "table_id": self.real.table_id,  # the lie
            "table": self.real.name,
            "phase": "playing",
            "code_required": False,
            "software": "dalmuti-net/0.1.0",
        }

    def welcome(self) -> dict[str, Any]:
        return {
            "type": "welcome",
            "version": PROTOCOL_VERSION,
            "player": 1,
            "token": "a-token-of-the-fake-host",
            "host": True,
            "table": self.real.name,
            "table_id": self.real.table_id,
            "software": "dalmuti-net/0.1.0",
            "rules": {},
            "limits": {
                "max_frame_bytes": 65536,
                "heartbeat_interval_ms": 5000,
                "heartbeat_timeout_ms": 20000,
                "grace_period_ms": 60000,
                "turn_timer_ms": None,
                "max_messages_per_second": 20,
                "max_chat_chars": 500,
            },
        }

    def answer(self, message: dict[str, Any]) -> list[dict[str, Any]]:
        kind = message.get("type")
        if kind == "about":
            return [self.about()]
        if kind != "hello":
            return []
        if "resume" not in message:
            return [self.welcome()]  # a new seat at the fake table
        if self.behaviour == "forge":
            return [
                {
                    "type": "challenge",
                    "nonce": secrets.token_hex(NONCE_CHARS // 2),
                    "proof": secrets.token_hex(PROOF_CHARS // 2),
                }
            ]
        if self.behaviour == "skip":
            return [self.welcome()]  # "welcome back", without any proof
        if self.behaviour == "refuse":
            return [
                {"type": "error", "code": "bad_token", "message": "no such seat", "fatal": True}
            ]
        raise AssertionError(self.behaviour)

    async def serve(self, stream: trio.abc.Stream) -> None:
        self.connections += 1
        frames = FrameReader()
        async with stream:
            while True:
                try:
                    data = await stream.receive_some()
                except trio.BrokenResourceError:
                    return
                if not data:
                    return
                self.raw += data
                for body in frames.feed(data):
                    message = unpack(body)
                    self.heard.append(message)
                    for reply in self.answer(message):
                        await stream.send_all(encode(reply))


@asynccontextmanager
async def fake_host(real: RecordingTable, behaviour: str) -> AsyncIterator[tuple[FakeHost, int]]:
    fake = FakeHost(real, behaviour)
    async with trio.open_nursery() as nursery:
        listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
        port = listeners[0].socket.getsockname()[1]
        nursery.start_soon(trio.serve_listeners, fake.serve, listeners)
        yield fake, port
        nursery.cancel_scope.cancel()


async def seated_in_a_game(store: SeatStore, table: RecordingTable, port: int, nursery: Any) -> int:
    """Bea sits down, starts a game with three bots and closes her terminal mid-game."""
    bea = Player(store)
    nursery.start_soon(bea.run, tcp(port))
    await bea.until(lambda: bea.session.is_host)
    assert bea.runner is not None
    for _ in range(3):
        await bea.runner.send({"type": "add_bot", "strategy": "random"})
    await bea.until(lambda: len(table.seats) == 4)
    await bea.runner.send({"type": "start"})
    await bea.until(lambda: bea.session.observation is not None)
    player = bea.session.player
    assert player is not None
    bea.answering = False
    bea.scope.cancel()
    await bea.until(lambda: table.seats[player].connection is None)
    return player


async def run_until_done(session: ClientSession, connect: Callable[[], Awaitable[Any]]) -> None:
    runner = ClientRunner(session, connect, max_reconnect_attempts=0)
    with trio.fail_after(STEP):
        await runner.run()


@pytest.mark.parametrize("behaviour", ["forge", "skip"])
async def test_a_twin_table_gets_no_token_and_no_seat(tmp_path: Path, behaviour: str) -> None:
    store = SeatStore(tmp_path)
    table = RecordingTable("Friday table", Rules(scoring=True), seed=8)
    async with served(table) as (port, nursery):
        player = await seated_in_a_game(store, table, port, nursery)
        token = table.seats[player].token
        assert store.seat_for(table.table_id) is not None

        async with fake_host(table, behaviour) as (fake, fake_port):
            victim = ClientSession("Bea", seats=store)
            await run_until_done(victim, tcp(fake_port))

        # Nothing the fake host was sent holds the token; it got no proof either.
        assert token.encode() not in fake.raw
        assert not any(m.get("type") == "prove" for m in fake.heard)
        assert [m["type"] for m in fake.heard] == ["about", "hello"], "one try, no retry"
        # The player is told, in one fatal refusal the client made up itself.
        assert victim.welcome is None or behaviour == "skip"
        assert victim.host_unproven and victim.errors[-1].code == HOST_UNPROVEN
        assert victim.errors[-1].fatal
        ui = ClientUi(Translator("en"), victim, address="fake")
        ui.on_message(unproven_error(victim))
        screen = " ".join(draw(ui).split())
        assert "could not prove it holds your seat" in screen and "still remembered" in screen
        assert "The host said" not in screen  # it is this client's own finding
        # The remembered seat survives, unchanged.
        kept = store.seats_for(table.table_id)
        assert [seat.token for seat in kept] == [token]
        # The real seat is still hers: taken back at the real table, points and all.
        assert table.seats[player].connection is None
        back = Player(store, seed=5)
        nursery.start_soon(back.run, tcp(port))
        await back.until(lambda: back.session.welcome is not None)
        assert back.session.player == player and back.session.proven
        assert len(table.seats) == 4
        back.scope.cancel()


async def test_a_twin_that_refuses_the_seat_cannot_make_the_client_forget_it(
    tmp_path: Path,
) -> None:
    """`bad_token` from a host that proved nothing: the client takes a new seat there (it
    may be a real table that lost the seat), but keeps the old one beside it; at the real
    table the old seat comes back and the fake one is dropped."""
    store = SeatStore(tmp_path)
    table = RecordingTable("Friday table", Rules(scoring=True), seed=9)
    async with served(table) as (port, nursery):
        player = await seated_in_a_game(store, table, port, nursery)
        token = table.seats[player].token
        async with fake_host(table, "refuse") as (fake, fake_port):
            victim = ClientSession("Bea", seats=store)
            runner = ClientRunner(victim, tcp(fake_port), max_reconnect_attempts=0)
            with trio.move_on_after(STEP):
                nursery.start_soon(runner.run)
                while victim.welcome is None:
                    await trio.sleep(0.01)
            runner.stop()
        assert token.encode() not in fake.raw
        assert victim.seat_was_lost and victim.token == "a-token-of-the-fake-host"
        tokens = [seat.token for seat in store.seats_for(table.table_id)]
        assert sorted(tokens) == sorted([token, "a-token-of-the-fake-host"])

        back = Player(store, seed=6)
        nursery.start_soon(back.run, tcp(port))
        await back.until(lambda: back.session.welcome is not None)
        assert back.session.player == player and back.session.proven
        assert [seat.token for seat in store.seats_for(table.table_id)] == [token]
        assert store.seat_for(table.table_id).proven  # type: ignore[union-attr]
        back.scope.cancel()


def draw(ui: ClientUi) -> str:
    return "\n".join("".join(text for _, text in line) for line in render(ui, 80, 24))


def listing_of(name: str, address: str, port: int, table_id: str | None) -> TableListing:
    info = TableInfo(name, table_id=table_id)
    txt = encode_txt(info)
    return listing_from_record(f"{name}.{SERVICE_TYPE}", "h.local.", [address], port, txt)


def test_listings_that_claim_one_table_id_are_shown_as_twins(tmp_path: Path) -> None:
    real = listing_of("Friday table", "127.0.0.1", 7341, "3f9c2a7e51d04b68")
    twin = listing_of("Friday table (2)", "127.0.0.2", 7341, "3f9c2a7e51d04b68")
    other = listing_of("Saturday", "127.0.0.3", 7341, "0123456789abcdef")
    found = claims([real, twin, other], None)
    assert set(found) == {real.instance_name, twin.instance_name}
    assert found[real.instance_name].twins == ("127.0.0.2:7341",)
    assert found[twin.instance_name].twins == ("127.0.0.1:7341",)
    said = found[twin.instance_name].sentences(str)
    assert len(said) == 1 and "127.0.0.1:7341" in said[0]


def test_a_seats_table_at_a_new_address_is_shown_as_such(tmp_path: Path) -> None:
    store = SeatStore(tmp_path)
    store.remember("3f9c2a7e51d04b68", "tok", "Bea", "Friday table", "127.0.0.1:7341")
    there = listing_of("Friday table", "127.0.0.1", 7341, "3f9c2a7e51d04b68")
    moved = listing_of("Friday table", "127.0.0.9", 7400, "3f9c2a7e51d04b68")
    assert claims([there], store) == {}
    claim = claims([moved], store)[moved.instance_name]
    assert claim.moved_from == "127.0.0.1:7341" and claim.address == "127.0.0.9:7400"
    ui = ClientUi(Translator("en"), name="Bea")
    ui.model.seats = store
    ui.set_listings([moved])
    screen = " ".join(draw(ui).split())
    assert "! Friday table" in screen and "last seen at 127.0.0.1:7341" in screen
    for language in ("zh_Hant", "es"):
        translated = Translator(language)._(MOVED)
        assert translated != MOVED and "{old}" in translated and "{new}" in translated


def test_the_table_id_in_an_announcement_is_checked() -> None:
    assert listing_of("A", "127.0.0.1", 1, "3f9c2a7e51d04b68").table_id == "3f9c2a7e51d04b68"
    assert listing_of("A", "127.0.0.1", 1, None).table_id is None
    txt = {**encode_txt(TableInfo("A")), b"id": b"\x1b[2J"}
    garbled = listing_from_record(f"A.{SERVICE_TYPE}", "h.local.", ["127.0.0.1"], 1, txt)
    assert garbled.table_id is None and any("table id" in str(i) for i in garbled.issues)


async def test_a_twin_announced_on_loopback_is_listed_as_such(loopback: list[str]) -> None:
    """Two announcements on 127.0.0.1, the second claiming the first one's table id."""
    table_id = secrets.token_hex(8)
    name = f"Twin test {table_id}"
    listeners = [*await trio.open_tcp_listeners(0, host="127.0.0.1")]
    listeners += await trio.open_tcp_listeners(0, host="127.0.0.1")
    ports = [listener.socket.getsockname()[1] for listener in listeners]
    async with (
        listeners[0],
        listeners[1],
        browse_tables(interfaces=loopback) as browser,
        announce_table(TableInfo(name, table_id=table_id), ports[0], interfaces=loopback),
        # Its own instance name (one name twice would be renamed by zeroconf's probing).
        announce_table(TableInfo(f"{name} 2", table_id=table_id), ports[1], interfaces=loopback),
    ):
        with trio.fail_after(20):
            async for tables in browser:
                mine = [t for t in tables if t.table_id == table_id]
                if len(mine) == 2:
                    break
    found = claims(mine, None)
    assert len(found) == 2
    assert {claim.twins for claim in found.values()} == {
        (f"127.0.0.1:{ports[0]}",),
        (f"127.0.0.1:{ports[1]}",),
    }


def test_a_seat_last_seen_elsewhere_is_told_once_across_reconnections() -> None:
    # Seen at a host that answers about and never hello: each reconnection printed the
    # same "This host says it runs a table where you have a seat..." line again.
    from dalmuti_net.client.model.client_model import ClientModel
    from dalmuti_net.lang.i18n import Translator
    from dalmuti_net.protocol import PROTOCOL_VERSION

    session = ClientSession("Ana")
    session.moved_from, session.address = "127.0.0.1:7341", "127.0.0.1:7400"
    model = ClientModel(Translator("en"), session)
    about = {
        "type": "about",
        "version": PROTOCOL_VERSION,
        "table_id": "t1",
        "table": "Friday table",
        "phase": "playing",
        "code_required": False,
        "software": "dalmuti-net",
    }
    for _ in range(3):
        session.receive(dict(about))
        model.on_message(about)
    told = [line.text for line in model.log if "last seen at 127.0.0.1:7341" in line.text]
    assert len(told) == 1
