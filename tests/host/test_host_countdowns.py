"""Every wait shows who and how long, to everyone: the host's `timers` (grace periods and
turn timers) and `moved_for` (a move made by the timer or a stand-in, not the player)."""

from __future__ import annotations

from typing import Any

import trio
import trio.testing
from recording_clients import RecordingClient
from test_host_timers import connect, player_of, seat_bots_and_start, serving

from dalmuti_net.bots import make_strategy
from dalmuti_net.engine import Rules
from dalmuti_net.host.table import Limits, Table


def timers(client: RecordingClient) -> list[tuple[float, dict[str, Any]]]:
    return [
        (time, message)
        for time, message in zip(client.times, client.received, strict=True)
        if message["type"] == "timers"
    ]


async def test_everyone_sees_the_turn_timer_and_the_timers_moves_as_such(
    autojump_clock: trio.testing.MockClock,
) -> None:
    table = Table("Timer", Rules(hand_limit=1), seed=13, limits=Limits(turn_timer_ms=30_000))
    async with serving(table) as (server, nursery):
        host = RecordingClient("Host", strategy=make_strategy("random", 4))
        sleepy = RecordingClient("Sleepy")  # never answers
        watcher = RecordingClient("Watcher", spectator=True)
        for client in (host, sleepy, watcher):
            await connect(server, nursery, client)
        await seat_bots_and_start(host, 2)
        await host.wait_until(lambda: table.phase == "ended")
    me = player_of(sleepy)
    seen = timers(watcher)
    mine = [(t, m) for t, m in seen if any(p == me for p, _ in m["turn"])]
    assert mine, "the spectator was told of Sleepy's turn timer"
    assert all(ms <= 30_000 for _, m in mine for p, ms in m["turn"] if p == me)
    notes = [m for m in watcher.received if m["type"] == "moved_for"]
    assert notes and all(n == {"type": "moved_for", "player": me, "by": "timer"} for n in notes)
    for client in (watcher, host, sleepy):
        kinds = [m["type"] for m in client.received]
        at = kinds.index("moved_for")
        until = kinds.index("waiting", at) if "waiting" in kinds[at:] else len(kinds)
        moves = client.received[at + 1 : until]
        assert any(m.get("player", m.get("giver")) == me for m in moves), moves
    assert not any(m["type"] == "moved_for" and m["player"] != me for m in host.received)


async def test_everyone_sees_the_grace_period_of_a_dropped_seat(
    autojump_clock: trio.testing.MockClock,
) -> None:
    table = Table("Grace", Rules(), seed=11)
    async with serving(table, between_hands=1.0) as (server, nursery):
        ana = RecordingClient("Ana", strategy=make_strategy("random", 1))
        watcher = RecordingClient("Watcher", spectator=True)
        stream = await connect(server, nursery, ana)
        await connect(server, nursery, watcher)
        me = player_of(ana)
        ana.paused = True
        await seat_bots_and_start(ana, 3)
        await ana.wait_until(lambda: ana.session.decision is not None)
        await stream.aclose()
        await ana.closed.wait()
        await watcher.wait_until(lambda: any(m["grace"] for _, m in timers(watcher)))
        announced = next(m for _, m in timers(watcher) if m["grace"])
        assert announced["grace"][0][0] == me and 59_000 < announced["grace"][0][1] <= 60_000
        late = RecordingClient("Late", spectator=True)  # joins while the grace period runs
        await trio.sleep(20)
        await connect(server, nursery, late)
        await late.wait_until(lambda: bool(timers(late)))
        left = dict(map(tuple, timers(late)[0][1]["grace"]))  # type: ignore[arg-type]
        assert 39_000 < left[me] <= 40_000
        await watcher.wait_until(lambda: table.seats[me].stand_in is not None)
        await watcher.wait_until(lambda: not timers(watcher)[-1][1]["grace"])
        await watcher.wait_until(lambda: any(m["type"] == "moved_for" for m in watcher.received))
        note = next(m for m in watcher.received if m["type"] == "moved_for")
        assert note == {"type": "moved_for", "player": me, "by": "stand_in"}
        nursery.cancel_scope.cancel()


async def test_a_secret_revolution_question_has_no_public_timer(
    autojump_clock: trio.testing.MockClock,
) -> None:
    """Rule 20: only the holder of both Jesters learns a revolution may be declared, so
    `timers` never names a seat the public `waiting` does not."""
    revolutions = 0
    for seed in (12, 28):  # seeds where Sleepy is dealt both Jesters in the first hand
        table = Table("Secret", Rules(hand_limit=3), seed=seed, limits=Limits(turn_timer_ms=5_000))
        async with serving(table) as (server, nursery):
            host = RecordingClient("Host", strategy=make_strategy("random", seed))
            sleepy = RecordingClient("Sleepy")
            watcher = RecordingClient("Watcher", spectator=True)
            for client in (host, sleepy, watcher):
                await connect(server, nursery, client)
            await seat_bots_and_start(host, 2)
            await host.wait_until(lambda table=table: table.phase == "ended")  # type: ignore[misc]
        revolutions += sum(
            1 for m in sleepy.received if m["type"] == "decision" and m["kind"] == "revolution"
        )
        public: set[int] = set()
        for message in watcher.received:
            if message["type"] == "waiting":
                public = set(message["players"])
            elif message["type"] == "timers":
                assert {p for p, _ in message["turn"]} <= public, message
    assert revolutions > 0, "no seed gave Sleepy both Jesters: pick others"
