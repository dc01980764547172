"""The host killed (SIGKILL) at random moments while a table plays, then resumed from its
save each time, every seat reconnecting with its token: no acknowledged move is missing
from the save, no client ever saw an event number the resumed table goes back on, and
every seat resumes. One run of two kills by default; ``-m slow`` is the campaign of
issue 28's measure (ten runs of five kills)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
import trio
from recording_clients import RecordingClient, join_over_tcp
from test_host_crash import acknowledged_actions, acted, free_port, is_subsequence, start_host

from dalmuti_net.bots import make_strategy
from dalmuti_net.host.savefile import read_save

RULES = (
    "[rules]\nfirst_deal_revolution = true\nscoring = true\nmerchant_exchange = true\n"
    "misdeal_chance = 0.3\nhand_limit = 40\n\n[table]\nbetween_hands = 0\ngrace_period = 60\n"
)
PLAYERS = ("Ana", "Bo", "Cy")


def last_seq(client: RecordingClient) -> int:
    """The highest event number this client was sent: every event has one, the snapshot
    too (the last event it includes)."""
    return max((m["seq"] for m in client.received if "seq" in m), default=0)


async def kill_campaign(tmp_path: Path, seed: int, kills: int) -> dict[str, int]:
    rng = random.Random(seed)
    rules, save, port = tmp_path / "rules.toml", tmp_path / "table.save", free_port()
    rules.write_text(RULES)
    fresh = ["--headless", "--save", str(save), "--rules", str(rules), "--bots", "1"]
    fresh += ["--autostart", "4", "--seed", str(seed), "--bot-pace", "0"]
    tokens: dict[str, str | None] = dict.fromkeys(PLAYERS)
    seats: dict[str, int] = {}
    acked: dict[str, list[dict[str, Any]]] = {name: [] for name in PLAYERS}
    seen_seq = dict.fromkeys(PLAYERS, 0)
    """The highest event number each seat was sent (each seat's events are numbered on
    their own: they see different events)."""
    figures = {"kills": 0, "acked": 0, "resumes": 0}
    for run in range(kills + 1):
        arguments = fresh if run == 0 else ["--headless", "--resume", str(save)]
        log = tmp_path / f"host{run}.log"
        host = await start_host(["--port", str(port), *arguments], log)
        clients: dict[str, RecordingClient] = {}
        try:
            async with trio.open_nursery() as nursery:
                for index, name in enumerate(PLAYERS):
                    strategy = make_strategy("random", seed * 100 + run * 10 + index)
                    client = RecordingClient(name, token=tokens[name], strategy=strategy)
                    with trio.fail_after(20):
                        await join_over_tcp(port, client, nursery)
                    welcome = client.of_type("welcome")
                    assert welcome, f"{name} was not let back in: {client.errors}"
                    if tokens[name] is not None:
                        # Taken back by proof: the token does not cross the wire again.
                        assert welcome[0]["player"] == seats[name], f"{name} lost her seat"
                        assert client.session.token == tokens[name]
                        figures["resumes"] += 1
                    tokens[name] = client.session.token
                    seats[name] = welcome[0]["player"]
                    snapshot = client.of_type("snapshot")[0]
                    assert snapshot["seq"] >= seen_seq[name], (
                        f"run {run}: {name} had been sent event {seen_seq[name]}, the resumed "
                        f"table is at {snapshot['seq']}"
                    )
                    clients[name] = client
                if run == kills:
                    nursery.cancel_scope.cancel()
                    break
                await trio.sleep(rng.uniform(0.3, 2.0))  # a table in play, then anywhere
                host.kill()
                assert await host.wait() == -9
                figures["kills"] += 1
                with trio.fail_after(10):
                    for client in clients.values():
                        await client.closed.wait()
                nursery.cancel_scope.cancel()
        finally:
            if host.returncode is None:
                host.terminate()
                await host.wait()
        entries = read_save(save).entries
        for name, client in clients.items():
            acked[name] += acknowledged_actions(client)
            player = client.session.player
            assert player is not None
            assert is_subsequence(acked[name], acted(entries, player)), (
                f"run {run}: a move acknowledged to {name} is missing from the save"
            )
            seen_seq[name] = max(seen_seq[name], last_seq(client))
    figures["acked"] = sum(len(moves) for moves in acked.values())
    assert figures["acked"] > 0
    return figures


async def test_the_host_killed_twice_loses_no_acknowledged_move(tmp_path: Path) -> None:
    figures = await kill_campaign(tmp_path, seed=1, kills=2)
    assert figures["kills"] == 2 and figures["resumes"] == 2 * len(PLAYERS)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(10))
async def test_ten_runs_of_five_kills_lose_nothing(tmp_path: Path, seed: int) -> None:
    figures = await kill_campaign(tmp_path, seed=seed + 100, kills=5)
    assert figures["kills"] == 5 and figures["resumes"] == 5 * len(PLAYERS)
    print(f"seed {seed}: {figures}")
