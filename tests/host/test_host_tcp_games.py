"""Whole games over real TCP on 127.0.0.1: 4 to 8 seats of bot clients (the test's own
recording clients, the bot SDK's ``play`` and the host's in-process bots), spectators, every
optional rule, played to the scoring limit."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import pytest
import trio
from recording_clients import RecordingClient, join_over_tcp, loopback_server, tcp_opener
from secrecy import check_capture

from dalmuti_net.bots import make_strategy
from dalmuti_net.client.bot import play
from dalmuti_net.client.session import ClientSession
from dalmuti_net.engine import Rules
from dalmuti_net.engine.game import final_standings
from dalmuti_net.host.table import Table


def every_optional_rule(hand_limit: int | None = None) -> Rules:
    rules = Rules.all_optional(misdeal_chance=0.3).to_dict()
    if hand_limit is not None:
        rules["hand_limit"] = hand_limit
    return Rules(**rules)


def check_finished_client(client: RecordingClient, table: Table) -> None:
    """One recording client's view at the end: complete, consistent, and only its own."""
    game = table.game
    assert game is not None
    assert client.phase == "ended", f"{client.session.name} did not see the end"
    assert [m for m in client.errors] == []
    assert len(client.of_type("snapshot")) == 1, "no gap ever made it ask for a snapshot"
    ended = client.of_type("table_ended")
    assert len(ended) == 1
    observation = client.session.observation
    assert observation is not None
    assert observation.scores == game.scores, "the client's own tally matches the host's"
    assert observation.hand_number == game.hand_number
    tokens = {seat.token for seat in table.seats.values()} - {client.session.token}
    check_capture(client.received, client.session.player, tokens)


@pytest.mark.parametrize("seats", [4, 5, 6, 7, 8])
async def test_a_whole_game_over_tcp(seats: int) -> None:
    table = Table(f"{seats} seats", every_optional_rule(hand_limit=3), seed=seats)
    sdk_sessions: list[ClientSession] = []
    async with loopback_server(table) as (_server, port, nursery):
        host = await join_over_tcp(
            port, RecordingClient("Host", strategy=make_strategy("heuristic", 1)), nursery
        )
        watchers = [
            await join_over_tcp(port, RecordingClient(f"W{i}", spectator=True), nursery)
            for i in range(2)
        ]
        recorders = [host]
        for index in range(1, seats - 1):
            strategy = make_strategy("random" if index % 2 else "heuristic", index)
            if index % 3 == 0:

                async def sdk_bot(strategy: Any = strategy, index: int = index) -> None:
                    sdk_sessions.append(await play(tcp_opener(port), strategy, f"Sdk{index}"))

                nursery.start_soon(sdk_bot)
            else:
                recorders.append(
                    await join_over_tcp(
                        port, RecordingClient(f"R{index}", strategy=strategy), nursery
                    )
                )
        await host.send({"type": "add_bot", "strategy": "random"})
        with trio.fail_after(10):
            await host.wait_until(lambda: len(table.seats) == seats)
        await host.send({"type": "start"})
        with trio.fail_after(60):
            for client in recorders + watchers:
                await client.wait_until(lambda c=client: c.phase == "ended")  # type: ignore[misc]
    assert table.game is not None and table.game.hand_number == 3
    for client in recorders + watchers:
        check_finished_client(client, table)
    for session in sdk_sessions:
        assert session.observation is not None and session.observation.phase == "ended"
        assert not session.errors


@pytest.mark.parametrize("hands", [4, pytest.param(20, marks=pytest.mark.slow)])
async def test_a_whole_table_with_the_bot_command(hands: int) -> None:
    """Eight seats: the host player here, seven bots from `dalmuti bot --count 7`, to the
    hand limit (the rules' own 20 hands under `slow`)."""
    table = Table(f"{hands} hands", every_optional_rule(hand_limit=hands), seed=20)
    async with loopback_server(table) as (_server, port, nursery):
        host = await join_over_tcp(
            port, RecordingClient("Host", strategy=make_strategy("heuristic", 2)), nursery
        )
        watcher = await join_over_tcp(port, RecordingClient("W", spectator=True), nursery)
        command = [
            *(sys.executable, "-m", "dalmuti_net.cli", "bot", f"127.0.0.1:{port}"),
            *("--strategy", "random", "--count", "7", "--seed", "3"),
        ]
        bots = await trio.lowlevel.open_process(
            command, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        try:
            with trio.fail_after(20):
                await host.wait_until(lambda: len(table.seats) == 8)
            await host.send({"type": "start"})
            with trio.fail_after(120):
                await host.wait_until(lambda: host.phase == "ended")
                await watcher.wait_until(lambda: watcher.phase == "ended")
                exit_code = await bots.wait()
                assert bots.stdout is not None
                printed = b""
                while chunk := await bots.stdout.receive_some():
                    printed += chunk
        finally:
            if bots.returncode is None:
                bots.kill()
                await bots.wait()
    assert exit_code == 0
    assert table.game is not None and table.game.hand_number == hands
    check_finished_client(host, table)
    check_finished_client(watcher, table)
    names = sorted(seat.name for seat in table.seats.values() if seat.name != "Host")
    assert names == [f"Random bot {i}" for i in range(1, 8)]
    # Each bot says where it finished (the author of a bot wants to know).
    said = sorted(printed.decode().splitlines())
    places = {
        p: (place, score)
        for p, score, place in final_standings(table.game.scores, table.game.order)
    }
    expected = sorted(
        f"{seat.name}: The table ended: place {places[p][0]} of 8, score {places[p][1]}."
        for p, seat in table.seats.items()
        if seat.name != "Host"
    )
    assert said == expected
