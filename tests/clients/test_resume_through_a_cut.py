"""The SDK's bot loses its connection mid-hand, maybe with an answer in flight, and takes
its seat back through the proofs: it plays the table to its end in the same seat, the
token never crossing the link again."""

from __future__ import annotations

import trio
from test_example_clients import CuttingRelay, frames
from test_remembered_seats import RecordingTable, run_bot, tcp

from dalmuti_net.bots import make_strategy
from dalmuti_net.client.bot import play
from dalmuti_net.client.session import ClientSession
from dalmuti_net.engine import Rules
from dalmuti_net.host.server import TableServer


async def test_the_sdk_bot_takes_its_seat_back_after_a_cut() -> None:
    table = RecordingTable("Cut table", Rules(hand_limit=2), seed=11)
    server = TableServer(table, run_bot=run_bot, between_hands=0.05)
    async with trio.open_nursery() as nursery:
        await nursery.start(server.run)
        host_listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
        nursery.start_soon(server.serve_tcp, host_listeners)
        relay = CuttingRelay(host_listeners[0].socket.getsockname()[1])
        listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
        relay_port = listeners[0].socket.getsockname()[1]
        nursery.start_soon(trio.serve_listeners, relay.handle, listeners)
        done: list[ClientSession] = []

        async def bot() -> None:
            done.append(await play(tcp(relay_port), make_strategy("random", 1), "Cutty"))

        nursery.start_soon(bot)
        with trio.fail_after(60):
            while not any(s.name == "Cutty" for s in table.seats.values()):
                await trio.sleep(0.01)
            for _ in range(3):
                table.add_bot("random")
            table.start()
            server.changed()
            while not done:
                await trio.sleep(0.05)
        nursery.cancel_scope.cancel()
    session = done[0]
    assert session.observation is not None and session.observation.ended is not None
    assert len(relay.sent) >= 2
    welcome = next(m for m in frames(relay.received[0]) if m["type"] == "welcome")
    token = welcome["token"]
    assert isinstance(token, str)
    assert [m["type"] for m in frames(relay.sent[1])][:3] == ["about", "hello", "prove"]
    for data in [*relay.sent, *relay.received[1:]]:
        assert token.encode() not in data
    seats = [s for s in table.seats.values() if s.name == "Cutty"]
    assert len(seats) == 1 and seats[0].player == welcome["player"]
