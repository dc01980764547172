"""Issue 33, points 1 and 4, at the host (trio's autojump clock): the table's clocks set in
the lobby, results that stay until everyone is ready, nudge and skip, the rematch, and the
goodbye of a table that ended."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import trio
import trio.testing
from recording_clients import RecordingClient, bot_runner, open_memory_client

from dalmuti_net.bots import make_strategy
from dalmuti_net.engine import Rules
from dalmuti_net.host.countdowns import NUDGE_AFTER, SKIP_AFTER
from dalmuti_net.host.server import TableServer
from dalmuti_net.host.table import Limits, Table


@asynccontextmanager
async def serving(table: Table) -> AsyncIterator[tuple[TableServer, trio.Nursery]]:
    server = TableServer(table, run_bot=bot_runner())
    async with trio.open_nursery() as nursery:
        await nursery.start(server.run)
        yield server, nursery
        nursery.cancel_scope.cancel()


async def connect(server: TableServer, nursery: trio.Nursery, client: RecordingClient) -> None:
    stream = await open_memory_client(server, nursery)
    nursery.start_soon(client.run, stream)
    await client.wait_until(lambda: bool(client.of_type("snapshot")))


def refusals(client: RecordingClient) -> list[str]:
    return [message["code"] for message in client.errors]


def me(client: RecordingClient) -> int:
    assert client.session.player is not None
    return client.session.player


async def test_the_host_player_sets_the_clocks_in_the_lobby_and_everyone_sees_them(
    autojump_clock: trio.testing.MockClock,
) -> None:
    table = Table("Clocks", Rules(), seed=3, limits=Limits(turn_timer_ms=60_000))
    async with serving(table) as (server, nursery):
        host = RecordingClient("Ana")
        guest = RecordingClient("Bo")
        await connect(server, nursery, host)
        await connect(server, nursery, guest)
        timing = guest.session.table.timing  # type: ignore[union-attr]
        assert timing.turn_timer_ms == 60_000 and timing.results_ms == 3_000
        assert timing.nudge_after_ms == NUDGE_AFTER * 1000
        assert timing.skip_after_ms == SKIP_AFTER * 1000
        await guest.send({"type": "set_timing", "turn_timer_ms": 15_000})
        await host.send({"type": "set_timing", "turn_timer_ms": 20_000, "results_ms": 45_000})
        await guest.wait_until(
            lambda: guest.session.table.timing.turn_timer_ms == 20_000  # type: ignore[union-attr]
        )
        assert guest.session.table.timing.results_ms == 45_000  # type: ignore[union-attr]
        assert refusals(guest) == ["not_host"]
        await host.send({"type": "set_timing", "turn_timer_ms": None})
        await guest.wait_until(
            lambda: guest.session.table.timing.turn_timer_ms is None  # type: ignore[union-attr]
        )
        assert table.limits.turn_timer_ms is None and table.results_ms == 45_000
        for _ in range(2):
            await host.send({"type": "add_bot", "strategy": "random"})
        await host.send({"type": "start"})
        await host.wait_until(lambda: host.phase == "playing")
        await host.send({"type": "set_timing", "turn_timer_ms": 30_000})
        await host.wait_until(lambda: "wrong_phase" in refusals(host))


def test_the_clocks_are_journaled_and_a_resumed_table_keeps_them() -> None:
    table = Table("Clocks", Rules(), seed=3, limits=Limits(turn_timer_ms=60_000))
    table.reserve_seat("Ana", host=True)
    table.set_timing({"turn_timer_ms": 90_000, "results_ms": 10_000})
    rebuilt = Table.replay(table.take_journal(), name="Clocks", seed=3)
    assert rebuilt.limits.turn_timer_ms == 90_000 and rebuilt.results_ms == 10_000
    assert rebuilt.table_message()["timing"]["turn_timer_ms"] == 90_000


async def play_one_hand_with_two_people(
    results_ms: int, ready: tuple[bool, bool]
) -> tuple[list[float], list[dict[str, object]], list[str]]:
    """Ana (host player) and Bo play hand 1 with two bots; after it, each of them says
    ``ready`` or not. When hand 2 was dealt after hand 1 ended, the timers Bo saw."""
    table = Table("Results", Rules(scoring=True, hand_limit=3), seed=21, results_ms=results_ms)
    async with serving(table) as (server, nursery):
        ana = RecordingClient("Ana", strategy=make_strategy("random", 1))
        bo = RecordingClient("Bo", strategy=make_strategy("random", 2))
        await connect(server, nursery, ana)
        await connect(server, nursery, bo)
        for _ in range(2):
            await ana.send({"type": "add_bot", "strategy": "random"})
        await ana.send({"type": "start"})
        await bo.wait_until(lambda: bool(bo.of_type("hand_ended")))
        ended_at = trio.current_time()
        await trio.sleep(1.0)  # reading the results
        for client, says in zip((ana, bo), ready, strict=True):
            if says:
                await client.send({"type": "ready", "ready": True})
        await bo.wait_until(lambda: len(bo.of_type("hand_started")) == 2)
        dealt_at = bo.times[bo.received.index(bo.of_type("hand_started")[1])]
        hand_over = [m["table"] for m in bo.of_type("table") if m["table"]["phase"] == "playing"]
        readiness = [
            next(s["ready"] for s in t["players"] if s["name"] == "Ana") for t in hand_over
        ]
        timers = [m for m in bo.of_type("timers") if m.get("results") is not None]
        return [dealt_at - ended_at], timers, [str(r) for r in readiness]


async def test_results_stay_until_every_connected_person_is_ready(
    autojump_clock: trio.testing.MockClock,
) -> None:
    waited, timers, readiness = await play_one_hand_with_two_people(30_000, (True, True))
    assert 1.0 <= waited[0] < 1.5  # dealt as soon as both said ready, not after 30 s
    assert timers and 29_000 <= timers[0]["results"] <= 30_000  # type: ignore[operator]
    assert "True" in readiness  # everyone saw Ana's ready


async def test_results_stay_until_the_pause_runs_out_when_someone_is_still_reading(
    autojump_clock: trio.testing.MockClock,
) -> None:
    waited, _, _ = await play_one_hand_with_two_people(30_000, (True, False))
    assert 30.0 <= waited[0] < 30.5


async def a_link_drops_during_the_results(
    grace_ms: int, back_after: float | None
) -> tuple[float, list[dict[str, object]]]:
    """Ana (host player) and Bo play hand 1 with two bots at a table whose results stay 30
    s at most; Bo's link drops as the results show, Ana says ready at once; Bo comes back
    (with his token) ``back_after`` seconds later and says ready, or never. How long after
    the results hand 2 was dealt, and what Bo's snapshot on his return said (a snapshot
    and the `timers` after it; nothing if he did not come back)."""
    limits = Limits(grace_period_ms=grace_ms)
    table = Table("Reload", Rules(scoring=True, hand_limit=3), seed=21, limits=limits)
    table.results_ms = 30_000
    async with serving(table) as (server, nursery):
        ana = RecordingClient("Ana", strategy=make_strategy("random", 1))
        bo = RecordingClient("Bo", strategy=make_strategy("random", 2))
        await connect(server, nursery, ana)
        bo_stream = await open_memory_client(server, nursery)
        nursery.start_soon(bo.run, bo_stream)
        await bo.wait_until(lambda: bool(bo.of_type("snapshot")))
        for _ in range(2):
            await ana.send({"type": "add_bot", "strategy": "random"})
        await ana.send({"type": "start"})
        await bo.wait_until(lambda: bool(bo.of_type("hand_ended")))
        ended_at = trio.current_time()
        await bo_stream.aclose()  # a phone reloaded, or put to sleep
        await bo.closed.wait()
        await ana.send({"type": "ready", "ready": True})
        caught_up: list[dict[str, object]] = []
        if back_after is not None:
            await trio.sleep(back_after)
            assert len(ana.of_type("hand_started")) == 1, "dealt while Bo was away"
            back = RecordingClient("Bo", token=bo.session.token)
            await connect(server, nursery, back)
            await back.wait_until(lambda: bool(back.of_type("timers")))
            caught_up = [back.of_type("snapshot")[0], back.of_type("timers")[0]]
            await back.send({"type": "ready", "ready": True})
        await ana.wait_until(lambda: len(ana.of_type("hand_started")) == 2)
        dealt_at = ana.times[ana.received.index(ana.of_type("hand_started")[1])]
        return dealt_at - ended_at, caught_up


async def test_a_seat_whose_link_drops_during_the_results_is_waited_for(
    autojump_clock: trio.testing.MockClock,
) -> None:
    waited, (snapshot, timers) = await a_link_drops_during_the_results(60_000, 5.0)
    assert 5.0 <= waited < 5.5, "dealt once he was back and ready, not before"
    events = snapshot["hand_events"]
    assert isinstance(events, list) and events[-1]["type"] == "hand_ended"
    assert isinstance(timers["results"], int) and 24_000 <= timers["results"] <= 25_000


async def test_a_seat_held_through_the_results_holds_the_table_no_longer_than_they_last(
    autojump_clock: trio.testing.MockClock,
) -> None:
    waited, _ = await a_link_drops_during_the_results(60_000, None)
    assert 30.0 <= waited < 30.5, "the results pause's own clock deals without him"
    waited, _ = await a_link_drops_during_the_results(10_000, None)
    assert 10.0 <= waited < 10.5, "a stand-in plays his seat: it holds nothing"


async def test_the_host_player_nudges_then_skips_an_absent_player(
    autojump_clock: trio.testing.MockClock,
) -> None:
    table = Table("Away", Rules(hand_limit=1), seed=5)  # no turn timer: only the host acts
    async with serving(table) as (server, nursery):
        ana = RecordingClient("Ana", strategy=make_strategy("random", 1))
        away = RecordingClient("Carla")  # connected, never answers
        await connect(server, nursery, ana)
        await connect(server, nursery, away)
        for _ in range(2):
            await ana.send({"type": "add_bot", "strategy": "random"})
        await ana.send({"type": "start"})
        carla = me(away)
        await away.wait_until(lambda: away.session.decision is not None)
        owed = away.session.decision_id
        await ana.send({"type": "skip", "player": carla})
        await ana.send({"type": "nudge", "player": carla})
        await ana.wait_until(lambda: refusals(ana).count("too_soon") == 2)
        await away.send({"type": "nudge", "player": me(ana)})  # not the host player
        await away.wait_until(lambda: "not_host" in refusals(away))
        await trio.sleep(NUDGE_AFTER)
        await ana.send({"type": "nudge", "player": carla})
        await away.wait_until(lambda: bool(away.of_type("nudged")))
        assert away.of_type("nudged")[0] == {"type": "nudged", "player": carla, "by": me(ana)}
        assert ana.of_type("nudged")  # everyone is told
        assert away.session.decision_id == owed  # a nudge changes nothing
        await ana.send({"type": "skip", "player": carla})
        await ana.wait_until(lambda: refusals(ana).count("too_soon") == 3)
        await trio.sleep(SKIP_AFTER - NUDGE_AFTER)
        await ana.send({"type": "skip", "player": carla})
        await ana.wait_until(
            lambda: {"type": "moved_for", "player": carla, "by": "host"} in ana.received
        )
        assert table.decision_id(carla) != owed  # her decision was made for her
        # The host player is never skipped (by herself either).
        await ana.send({"type": "skip", "player": me(ana)})
        await ana.wait_until(lambda: "not_waiting" in refusals(ana))


async def test_a_finished_table_offers_a_rematch_with_the_same_seats(
    autojump_clock: trio.testing.MockClock,
) -> None:
    table = Table("Again", Rules(hand_limit=1), seed=8, results_ms=0)
    async with serving(table) as (server, nursery):
        ana = RecordingClient("Ana", strategy=make_strategy("random", 1))
        bo = RecordingClient("Bo", strategy=make_strategy("random", 2))
        await connect(server, nursery, ana)
        await connect(server, nursery, bo)
        for _ in range(2):
            await ana.send({"type": "add_bot", "strategy": "random"})
        await bo.send({"type": "rematch"})
        await ana.send({"type": "rematch"})
        await ana.wait_until(lambda: "too_soon" in refusals(ana))
        await ana.send({"type": "start"})
        await bo.wait_until(lambda: bo.phase == "ended")
        seats = sorted(s.name for s in bo.session.table.players)  # type: ignore[union-attr]
        await ana.send({"type": "rematch"})
        await bo.wait_until(lambda: bo.phase == "lobby")
        lobby = bo.session.table
        assert lobby is not None and lobby.rematch
        assert sorted(s.name for s in lobby.players) == seats
        assert {s.name: s.ready for s in lobby.players if s.is_human} == {
            "Ana": True,
            "Bo": False,
        }
        assert "not_host" in refusals(bo)
        await bo.send({"type": "ready", "ready": True})  # one key: the rematch starts
        await bo.wait_until(lambda: bo.phase == "playing")
        assert bo.session.table is not None and not bo.session.table.rematch
        await bo.wait_until(lambda: bo.phase == "ended")  # the bots were seated again
        assert len(bo.of_type("table_ended")) == 2


async def test_a_host_that_stops_after_the_table_ended_says_it_ended(
    autojump_clock: trio.testing.MockClock,
) -> None:
    table = Table("Done", Rules(hand_limit=1), seed=9, results_ms=0)
    async with serving(table) as (server, nursery):
        ana = RecordingClient("Ana", strategy=make_strategy("random", 1))
        await connect(server, nursery, ana)
        for _ in range(3):
            await ana.send({"type": "add_bot", "strategy": "random"})
        await ana.send({"type": "start"})
        await ana.wait_until(lambda: ana.phase == "ended")
        await server.shutdown()
        await ana.wait_until(lambda: bool(ana.of_type("goodbye")))
    assert ana.of_type("goodbye")[0]["code"] == "table_ended"


async def test_a_host_that_stops_midway_says_it_stopped(
    autojump_clock: trio.testing.MockClock,
) -> None:
    table = Table("Midway", Rules(), seed=9)
    async with serving(table) as (server, nursery):
        ana = RecordingClient("Ana")
        await connect(server, nursery, ana)
        await server.shutdown()
        await ana.wait_until(lambda: bool(ana.of_type("goodbye")))
    assert ana.of_type("goodbye")[0]["code"] == "shutting_down"


async def test_a_secret_revolution_question_cannot_be_nudged_or_skipped(
    autojump_clock: trio.testing.MockClock,
) -> None:
    """Rule 20: whether a player holds both Jesters is their secret, so the host player's
    nudge and skip are refused for them exactly as for a player owing nothing."""
    asked = 0
    for seed in (12, 28):  # seeds where Sleepy is dealt both Jesters in the first hand
        table = Table("Secret", Rules(hand_limit=1), seed=seed)
        async with serving(table) as (server, nursery):
            host = RecordingClient("Host", strategy=make_strategy("random", seed))
            sleepy = RecordingClient("Sleepy")  # never answers
            await connect(server, nursery, host)
            await connect(server, nursery, sleepy)
            for _ in range(2):
                await host.send({"type": "add_bot", "strategy": "random"})
            await host.send({"type": "start"})
            await sleepy.wait_until(lambda s=sleepy: s.session.decision is not None)  # type: ignore[misc]
            decision = sleepy.of_type("decision")[-1]
            if decision["kind"] != "revolution":
                nursery.cancel_scope.cancel()
                continue
            asked += 1
            await trio.sleep(SKIP_AFTER + 1)
            for kind in ("nudge", "skip"):
                await host.send({"type": kind, "player": me(sleepy)})
            await host.wait_until(
                lambda h=host: refusals(h).count("not_waiting") == 2  # type: ignore[misc]
            )
            assert not sleepy.of_type("nudged") and not host.of_type("moved_for")
            assert sleepy.session.decision_id == decision["decision_id"]
    assert asked > 0, "no seed gave Sleepy both Jesters first: pick others"
