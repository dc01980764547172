"""A bot program at a lobby (``dalmuti bot``, the SDK's play): it has nothing to read, so
it is ready at once, as it is ready for the next hand the moment a hand ends."""

from __future__ import annotations

import shlex
import sys
from collections.abc import Awaitable, Callable

import trio
import trio.testing

from dalmuti_net.bots import make_strategy
from dalmuti_net.client.bot import play
from dalmuti_net.client.runner import ClientRunner, Connector
from dalmuti_net.client.session import ClientSession
from dalmuti_net.client.stdio import StdioBot, play_stdio
from dalmuti_net.engine.actions import legal_answers
from dalmuti_net.host.server import TableServer
from dalmuti_net.host.table import Table


async def ready_beside_ana(seat: Callable[[Connector], Awaitable[object]], name: str) -> None:
    """Ana (a person, not ready) in a lobby; ``seat`` seats a bot program called ``name``
    through the connector it is given; the bot's seat must become ready, Ana's not."""
    table = Table("Lobby")
    server = TableServer(table)
    async with trio.open_nursery() as nursery:
        await nursery.start(server.run)

        async def connect() -> trio.abc.Stream:
            client_end, server_end = trio.testing.memory_stream_pair()
            nursery.start_soon(server.handle_stream, server_end, False)
            return client_end

        ana = ClientSession("Ana")
        nursery.start_soon(ClientRunner(ana, connect).run)
        while ana.welcome is None:
            await trio.sleep(0.02)
        nursery.start_soon(seat, connect)
        with trio.fail_after(30):
            while not any(s.name == name and s.ready for s in table.seats.values()):
                await trio.sleep(0.02)
        assert not next(s for s in table.seats.values() if s.name == "Ana").ready
        nursery.cancel_scope.cancel()


async def test_a_bot_program_is_ready_in_the_lobby(
    autojump_clock: trio.testing.MockClock,
) -> None:
    """Found by hand: a `dalmuti bot` seat stayed "not ready" in the lobby, so the host
    player read "Not ready yet: Bob" and had to start anyway."""
    await ready_beside_ana(lambda connect: play(connect, make_strategy("random", 1), "Bob"), "Bob")


async def test_an_exec_bot_is_ready_in_the_lobby() -> None:
    """Found by hand as for ``dalmuti bot``: a ``dalmuti bot --exec`` seat stayed "not ready"
    in the lobby. Its program answers decisions only; the shell says ready for it. (On the
    real clock: a program's start is real time, which an autojumping clock would skip.)"""
    program = StdioBot(
        command=f"{shlex.quote(sys.executable)} -c 'import sys; sys.stdin.read()'",
        fallback=lambda decision: legal_answers(decision)[0],
        report=lambda line: None,
    )
    await ready_beside_ana(lambda connect: play_stdio(connect, program, "Exe"), "Exe")
