"""A table cannot be locked out: idle sockets that never say hello and a slowloris trickling
bytes hold nothing open for long, and while they try, a seat resumes with its token, the
host player comes back and a new spectator joins."""

from __future__ import annotations

from typing import Any

import trio
from recording_clients import RecordingClient, join_over_tcp, loopback_server

from dalmuti_net.bots import make_strategy
from dalmuti_net.host.admission import BURST_FACTOR, YOUNG_S
from dalmuti_net.host.table import Limits, Table
from dalmuti_net.protocol import PROTOCOL_VERSION, FrameReader, encode, unpack
from dalmuti_net.protocol.resume import client_proof, seat_id

LIMITS = Limits(
    hello_timeout_ms=2_000,
    heartbeat_interval_ms=500,
    heartbeat_timeout_ms=3_000,
    max_unwelcomed_per_address=8,
)


class Watched:
    """A raw connection that we keep open; what the host sent it and when it was closed."""

    def __init__(self) -> None:
        self.received: list[dict[str, Any]] = []
        self.opened_at = trio.current_time()
        self.closed_at: float | None = None

    @property
    def lasted(self) -> float:
        assert self.closed_at is not None
        return self.closed_at - self.opened_at

    @property
    def codes(self) -> list[str]:
        return [m["code"] for m in self.received if m["type"] == "error"]

    async def read(self, stream: trio.SocketStream) -> None:
        frames = FrameReader()
        async with stream:
            try:
                while data := await stream.receive_some(65536):
                    self.received.extend(unpack(body) for body in frames.feed(data))
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                pass
            self.closed_at = trio.current_time()


async def idle(port: int, nursery: trio.Nursery) -> Watched:
    watched = Watched()
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    nursery.start_soon(watched.read, stream)
    return watched


async def trickle(stream: trio.SocketStream, data: bytes, every: float) -> None:
    """Send ``data`` one byte at a time: a slowloris."""
    try:
        for byte in data:
            await stream.send_all(bytes([byte]))
            await trio.sleep(every)
    except (trio.BrokenResourceError, trio.ClosedResourceError):
        pass


async def slowloris(port: int, nursery: trio.Nursery, *, greet: bool) -> Watched:
    """Trickles a hello (``greet`` False), or says hello as a spectator and then trickles a
    heartbeat frame padded to a kilobyte (``greet`` True), a byte every 0.1 s; from
    127.0.0.2, another address than the idle sockets'."""
    watched = Watched()
    stream = await trio.open_tcp_stream("127.0.0.1", port, local_address="127.0.0.2")
    nursery.start_soon(watched.read, stream)
    hello = {"type": "hello", "version": PROTOCOL_VERSION, "role": "spectator", "name": "Slow"}
    if greet:
        await stream.send_all(encode(hello))
        nursery.start_soon(trickle, stream, encode({"type": "heartbeat", "pad": "x" * 1000}), 0.1)
    else:
        nursery.start_soon(trickle, stream, encode(hello), 0.1)
    return watched


async def test_idle_connections_and_a_slowloris_never_keep_a_seat_or_a_spectator_out() -> None:
    table = Table("Busy", limits=LIMITS, seed=5)
    async with loopback_server(table) as (_server, port, nursery):
        ana = await join_over_tcp(
            port,
            RecordingClient("Ana", strategy=make_strategy("random", 1), heartbeat_s=0.5),
            nursery,
        )
        bea = await join_over_tcp(port, RecordingClient("Bea", heartbeat_s=0.5), nursery)
        for _ in range(2):
            await ana.send({"type": "add_bot", "strategy": "random"})
        ana.paused = True
        await ana.send({"type": "start"})
        with trio.fail_after(10):
            await ana.wait_until(lambda: ana.phase == "playing")
        tokens = {"Ana": ana.session.token, "Bea": bea.session.token}
        players = {"Ana": ana.session.player, "Bea": bea.session.player}
        # Both people lose their connections: their seats wait for them.
        for client in (ana, bea):
            assert client._connection is not None
            await client._connection.aclose()
        with trio.fail_after(10):
            await ana.closed.wait()
            await bea.closed.wait()

        greeted_loris = await slowloris(port, nursery, greet=True)
        idlers = [await idle(port, nursery) for _ in range(200)]
        hello_loris = await slowloris(port, nursery, greet=False)
        lorises = [hello_loris, greeted_loris]
        await trio.sleep(YOUNG_S + 0.2)  # they are all idle now

        back = {}
        for name in ("Bea", "Ana"):
            back[name] = await join_over_tcp(
                port, RecordingClient(name, token=tokens[name], heartbeat_s=0.5), nursery
            )
        watcher = await join_over_tcp(
            port, RecordingClient("Watcher", spectator=True, heartbeat_s=0.5), nursery
        )
        for name, client in back.items():
            assert client.errors == [], client.errors
            assert client.session.player == players[name]
        assert back["Ana"].of_type("welcome")[0]["host"] is True
        assert watcher.errors == [] and watcher.of_type("welcome")

        # Every idle socket is closed: all but the last few at once, to make room, and
        # those at the hello deadline; the slowlorises at the deadline and the silence
        # timeout, although bytes kept coming.
        with trio.fail_after(10):
            while any(w.closed_at is None for w in idlers + lorises):
                await trio.sleep(0.1)
        assert all(len(w.codes) == 1 for w in idlers)
        made_room = [w for w in idlers if w.codes == ["too_many_connections"]]
        timed_out = [w for w in idlers if w.codes == ["timeout"]]
        assert len(made_room) + len(timed_out) == 200 and len(timed_out) <= 8 * BURST_FACTOR
        assert hello_loris.codes == ["timeout"]
        assert 1.9 < hello_loris.lasted < 6
        assert [m["type"] for m in greeted_loris.received][:2] == ["welcome", "snapshot"]
        assert greeted_loris.codes == ["timeout"]
        assert 2.9 < greeted_loris.lasted < 8

        # The people still play: the table is theirs.
        await back["Bea"].send({"type": "chat", "text": "made it"})
        with trio.fail_after(10):
            await watcher.wait_until(lambda: bool(watcher.of_type("chat")))
        assert {s.name for s in table.seats.values() if s.connection is not None} >= {
            "Ana",
            "Bea",
        }


def test_room_for_a_newcomer_is_made_from_its_own_address_first() -> None:
    table = Table("Room", limits=Limits(max_unwelcomed=4, max_unwelcomed_per_address=2))
    closing = lambda: {c for c, conn in table.connections.items() if conn.closing}  # noqa: E731
    other = table.connect(address="10.0.0.2", now=0)
    # A burst from one address is let in while its oldest is young, up to 4 times the limit.
    burst = [table.connect(address="10.0.0.1", now=0.5) for _ in range(2 * BURST_FACTOR)]
    assert closing() == set()
    # Then a newcomer is still let in (it may be a resume): the oldest of the crowd goes.
    table.connect(address="10.0.0.1", now=0.5)
    assert closing() == {burst[0]}
    assert table.connections[burst[0]].outbox[0]["code"] == "too_many_connections"
    for connection in burst:
        table.disconnected(connection)
    # Once the oldest has waited YOUNG_S, it is closed for a newcomer from its address.
    first, second = (table.connect(address="10.0.0.1", now=t) for t in (1.0, 1.5))
    table.connect(address="10.0.0.1", now=1.0 + YOUNG_S)
    assert closing() == {burst[-1] + 1, first}
    # From another address: over 4 waiting in all, the biggest crowd's oldest goes, not
    # the lone one from 10.0.0.2, older as it is.
    table.connect(address="10.0.0.3", now=3.0)
    table.connect(address="10.0.0.4", now=3.0)
    assert second in closing() and other not in closing()
    local = table.connect(internal=True)
    assert local is not None and other not in closing()


def test_the_connection_limit_applies_at_hello_and_never_to_a_resume() -> None:
    table = Table("Full", limits=Limits(max_connections=2))
    ana = table.connect(address="a")
    table.receive(
        ana, {"type": "hello", "version": PROTOCOL_VERSION, "role": "player", "name": "Ana"}
    )
    token = table.connections[ana].outbox[0]["token"]
    watcher = table.connect(address="b")
    table.receive(
        watcher, {"type": "hello", "version": PROTOCOL_VERSION, "role": "spectator", "name": "W"}
    )
    third = table.connect(address="c")
    table.receive(
        third, {"type": "hello", "version": PROTOCOL_VERSION, "role": "spectator", "name": "X"}
    )
    refusal = table.connections[third].outbox[-1]
    assert refusal["code"] == "too_many_connections" and refusal["fatal"] is True
    again = table.connect(address="a")
    nonce = "0" * 32
    resume = {"seat": seat_id(token), "nonce": nonce}
    table.receive(
        again,
        {
            "type": "hello",
            "version": PROTOCOL_VERSION,
            "role": "player",
            "name": "Ana",
            "resume": resume,
        },
    )
    challenge = table.connections[again].outbox[0]
    proof = client_proof(token, table.table_id, nonce, challenge["nonce"])
    table.receive(again, {"type": "prove", "proof": proof})
    assert table.connections[again].outbox[1]["type"] == "welcome"
    host_ui = table.connect(internal=True)
    table.receive(
        host_ui, {"type": "hello", "version": PROTOCOL_VERSION, "role": "spectator", "name": "Op"}
    )
    assert table.connections[host_ui].outbox[0]["type"] == "welcome"


async def test_a_resume_right_after_a_flood_from_its_address_takes_its_seat_back() -> None:
    """Issue 41 item 6: a flood of young idle connections from the resuming client's own
    address (a neighbour behind the same NAT) once got the resume refused at connect."""
    table = Table("Flooded", limits=LIMITS, seed=3)
    async with loopback_server(table) as (_server, port, nursery):
        ana = await join_over_tcp(port, RecordingClient("Ana", heartbeat_s=0.5), nursery)
        token, player = ana.session.token, ana.session.player
        flood = [await idle(port, nursery) for _ in range(8 * BURST_FACTOR * 3)]
        back = await join_over_tcp(
            port, RecordingClient("Ana", token=token, heartbeat_s=0.5), nursery
        )
        assert back.errors == [] and back.session.player == player
        assert back.of_type("welcome") and back.of_type("snapshot")
        with trio.fail_after(10):
            await ana.closed.wait()
        assert [e["code"] for e in ana.errors] == ["replaced"]
        # The flood holds no more than four times the limit from one address.
        await trio.sleep(0.5)
        assert sum(w.closed_at is None for w in flood) <= 8 * BURST_FACTOR
