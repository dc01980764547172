"""``--autostart N`` counts the seats of people present: a seat held for a player who
dropped in the lobby (kept for the grace period) does not start the table, and is dealt
in once the table starts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import trio
from loopback_options import loopback_options

from dalmuti_net.commands.host_runtime import PreparedHost
from dalmuti_net.protocol import PROTOCOL_VERSION, FrameReader, encode, unpack


def hello(name: str) -> bytes:
    return encode({"type": "hello", "version": PROTOCOL_VERSION, "name": name, "role": "player"})


async def seated(port: int, name: str) -> trio.abc.Stream:
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    await stream.send_all(hello(name))
    frames = FrameReader()
    messages: list[dict[str, Any]] = []
    with trio.fail_after(5):
        while not any(m["type"] == "snapshot" for m in messages):
            messages.extend(unpack(body) for body in frames.feed(await stream.receive_some()))
    return stream


async def test_autostart_counts_the_people_present_not_a_held_seat(tmp_path: Path) -> None:
    options = loopback_options(
        "Autostart",
        bots=2,
        bot_strategy="random",
        player_name="Host",
        autostart=5,
        web=False,
        bot_pace=0,
    )
    host = PreparedHost.create(options)
    host.say = lambda line: None
    table = host.table
    async with trio.open_nursery() as nursery:
        await nursery.start(host.serve)
        assert host.port is not None
        ana = await seated(host.port, "Ana")
        bo = await seated(host.port, "Bo")
        await bo.aclose()  # held for the grace period
        with trio.fail_after(5):
            while any(s.connection is not None for s in table.seats.values() if s.name == "Bo"):
                await trio.sleep(0.01)
        cy = await seated(host.port, "Cy")  # five seats, four of them here
        await trio.sleep(0.2)
        assert table.phase == "lobby" and len(table.seated_players) == 5
        di = await seated(host.port, "Di")
        with trio.fail_after(5):
            while table.phase != "playing":
                await trio.sleep(0.01)
        assert table.game is not None and len(table.game.order) == 6, "Bo dealt in"
        for stream in (ana, cy, di):
            await stream.aclose()
        nursery.cancel_scope.cancel()
    host.close_save()
