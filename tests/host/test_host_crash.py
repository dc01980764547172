"""kill -9 mid-hand: of a client process (another process resumes its seat with the token),
and of the host process (`dalmuti host --resume FILE` continues the same game, the clients'
tokens still work, and every acknowledged action is in the save)."""

from __future__ import annotations

import socket
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import trio
from recording_clients import RecordingClient, join_over_tcp, loopback_server
from secrecy import check_capture

from dalmuti_net.bots import make_strategy
from dalmuti_net.engine import Phase, Rules
from dalmuti_net.host.savefile import read_save
from dalmuti_net.host.table import Limits, Table

HERE = Path(__file__).parent


class LineReader:
    def __init__(self, stream: trio.abc.ReceiveStream) -> None:
        self._stream = stream
        self._buffer = b""

    async def line(self) -> str:
        while b"\n" not in self._buffer:
            data = await self._stream.receive_some(4096)
            if not data:
                raise EOFError(f"the process closed its output after {self._buffer!r}")
            self._buffer += data
        line, self._buffer = self._buffer.split(b"\n", 1)
        return line.decode()


async def poll(condition: Callable[[], bool], seconds: float = 20) -> None:
    with trio.fail_after(seconds):
        while not condition():
            await trio.sleep(0.005)


async def start_client_process(port: int, name: str, token: str | None = None) -> Any:
    command = [sys.executable, str(HERE / "crash_client.py"), str(port), name]
    if token is not None:
        command.append(token)
    return await trio.lowlevel.open_process(command, stdout=subprocess.PIPE)


def all_optional(hand_limit: int) -> Rules:
    return Rules(**{**Rules.all_optional(misdeal_chance=0.3).to_dict(), "hand_limit": hand_limit})


async def test_a_client_killed_mid_hand_resumes_from_another_process() -> None:
    table = Table("Crash", all_optional(4), seed=21, limits=Limits(grace_period_ms=60_000))
    async with loopback_server(table) as (_server, port, nursery):
        host = await join_over_tcp(
            port, RecordingClient("Host", strategy=make_strategy("random", 3)), nursery
        )
        first = await start_client_process(port, "Crashy")
        assert first.stdout is not None
        words = (await LineReader(first.stdout).line()).split()
        assert words[0] == "welcome"
        player, token = int(words[1]), words[2]
        for _ in range(2):
            await host.send({"type": "add_bot", "strategy": "random"})
        await poll(
            lambda: len(table.seats) == 4 and all(s.connection for s in table.seats.values())
        )
        await host.send({"type": "start"})
        game = await wait_for_game(table)
        await poll(lambda: game.hand_number >= 2 and game.phase is Phase.PLAY)
        host.paused = True  # the hand now stops at the host player's next turn
        await poll(lambda: host.session.decision is not None)
        first.kill()
        assert await first.wait() == -9
        seat = table.seats[player]
        await poll(lambda: seat.connection is None)
        assert game.phase is Phase.PLAY and game.hand_number >= 2, "killed mid-hand"
        assert seat.stand_in is None and not seat.gone, "the seat waits for its player"

        second = await start_client_process(port, "Crashy again", token)
        assert second.stdout is not None
        output = LineReader(second.stdout)
        assert (await output.line()).split() == ["welcome", str(player), "resumed"]
        assert seat.connection is not None and seat.name == "Crashy"
        await host.resume()
        with trio.fail_after(60):
            assert await output.line() == "ended 4"
            assert await second.wait() == 0
        await poll(lambda: host.phase == "ended")
    assert not host.errors


async def wait_for_game(table: Table) -> Any:
    await poll(lambda: table.game is not None)
    return table.game


# ---------------------------------------------------------------------- the host


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


async def start_host(arguments: list[str], log: Path) -> Any:
    command = [sys.executable, "-m", "dalmuti_net.cli", "host", "--no-announce"]
    command += ["--interface", "127.0.0.1", *arguments]
    output = log.open("ab")
    process = await trio.lowlevel.open_process(command, stdout=output, stderr=output)
    output.close()
    await poll(lambda: b"is open on port" in log.read_bytes() or process.poll() is not None)
    assert process.returncode is None, log.read_text()
    return process


async def snapshot_now(client: RecordingClient) -> dict[str, Any]:
    """A fresh snapshot asked for now (the answer to a snapshot_request)."""
    before = len(client.of_type("snapshot"))
    await client.send({"type": "snapshot_request"})
    await client.wait_until(lambda: len(client.of_type("snapshot")) > before)
    return client.of_type("snapshot")[-1]


def what_survives(snapshot: dict[str, Any]) -> dict[str, Any]:
    """A snapshot less what a restart may change (who is connected right now)."""
    table = dict(snapshot["table"])
    table["players"] = [
        # Who is connected now, and so what each one's leave would end, is not saved.
        {
            k: v
            for k, v in seat.items()
            if k not in ("connected", "stand_in", "leave_ends", "program")
        }
        for seat in table["players"]
    ]
    table.pop("heirs", None)  # who would take over: a connected human, so not saved either
    kept = {k: v for k, v in snapshot.items() if k not in ("re", "table")}
    if kept.get("decision") is not None:
        # The time left on the turn timer: a restarted host counts the wait anew.
        kept["decision"] = {k: v for k, v in kept["decision"].items() if k != "deadline_ms"}
    return {**kept, "table": table}


def acted(entries: list[dict[str, Any]], player: int) -> list[dict[str, Any]]:
    return [e["action"] for e in entries if e["op"] == "act" and e["player"] == player]


def acknowledged_actions(client: RecordingClient) -> list[dict[str, Any]]:
    return [
        {k: v for k, v in message.items() if k != "id"}
        for message in client.acked
        if message["type"] not in ("snapshot_request", "chat", "heartbeat")
    ]


def is_subsequence(wanted: list[Any], within: list[Any]) -> bool:
    remaining = iter(within)
    return all(any(item == candidate for candidate in remaining) for item in wanted)


async def test_the_host_killed_mid_hand_resumes_the_same_game(tmp_path: Path) -> None:
    rules_file = tmp_path / "rules.toml"
    rules_file.write_text(
        "[rules]\nfirst_deal_revolution = true\nstripped_decks = true\nscoring = true\n"
        "hand_limit = 4\nphilanthropic_scoring = true\nmerchant_exchange = true\n"
        "misdeal_chance = 0.3\n\n[table]\nbetween_hands = 0\ngrace_period = 60\nbot_pace = 0\n"
    )
    journal, log, port = tmp_path / "table.save", tmp_path / "second.log", free_port()
    common = ["--port", str(port)]
    fresh = ["--headless", "--save", str(journal), "--rules", str(rules_file), "--bots", "2"]
    fresh += ["--autostart", "4", "--seed", "77", "--table-name", "Crash table"]
    first_host = await start_host([*common, *fresh], tmp_path / "first.log")
    try:
        async with trio.open_nursery() as nursery:
            ana = RecordingClient("Ana", strategy=make_strategy("random", 5))
            bo = RecordingClient("Bo", strategy=make_strategy("random", 6))
            await join_over_tcp(port, ana, nursery)
            await join_over_tcp(port, bo, nursery)
            me = ana.session.player

            def playing_hand_two() -> bool:
                observation = ana.session.observation
                return observation is not None and observation.hand_number >= 2

            with trio.fail_after(30):
                await ana.wait_until(playing_hand_two)
                ana.paused = True
                await ana.wait_until(
                    lambda: (
                        ana.session.decision is not None
                        and ana.session.observation is not None
                        and ana.session.observation.waiting == (me,)
                    )
                )
                await trio.sleep(0.3)  # let every frame of the quiet table arrive
                before = {c.session.name: await snapshot_now(c) for c in (ana, bo)}
            first_host.kill()
            assert await first_host.wait() == -9
            with trio.fail_after(10):
                await ana.closed.wait()
                await bo.closed.wait()
            nursery.cancel_scope.cancel()

        entries = read_save(journal).entries
        for client in (ana, bo):
            mine = acknowledged_actions(client)
            assert mine, f"{client.session.name} had actions acknowledged"
            assert is_subsequence(mine, acted(entries, client.session.player)), (
                "an acknowledged action is missing from the save"
            )

        second_host = await start_host([*common, "--resume", str(journal)], log)
        try:
            async with trio.open_nursery() as nursery:
                ana2 = RecordingClient("Ana", token=ana.session.token)
                bo2 = RecordingClient(
                    "Bo", token=bo.session.token, strategy=make_strategy("random")
                )
                await join_over_tcp(port, ana2, nursery)
                await join_over_tcp(port, bo2, nursery)
                for old, new in ((ana, ana2), (bo, bo2)):
                    welcome = new.of_type("welcome")[0]
                    assert welcome["player"] == old.session.player
                    assert welcome["token"] is None  # proven, not sent again
                    after = new.of_type("snapshot")[0]
                    assert what_survives(after) == what_survives(before[old.session.name])
                assert before["Ana"]["decision"] is not None, "the same turn is still owed"
                ana2.strategy = make_strategy("random", 7)
                with trio.fail_after(60):
                    await ana2.resume()
                    await ana2.wait_until(lambda: ana2.phase == "ended")
                    await bo2.wait_until(lambda: bo2.phase == "ended")
                nursery.cancel_scope.cancel()
            second_host.terminate()
            assert await second_host.wait() == 0, log.read_text()
        finally:
            if second_host.returncode is None:
                second_host.kill()
                await second_host.wait()
    finally:
        if first_host.returncode is None:
            first_host.kill()
            await first_host.wait()

    entries = read_save(journal).entries
    for client in (ana2, bo2):
        assert not client.errors
        assert is_subsequence(acknowledged_actions(client), acted(entries, client.session.player))
        assert client.session.observation is not None
        assert client.session.observation.hand_number == 4
        check_capture(client.received, client.session.player, set())
    assert "Closing the table (SIGTERM)" in log.read_text()
