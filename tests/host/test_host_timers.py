"""The server's clocks, on trio's autojump clock: grace period and stand-ins, the turn timer
and its default moves, the heartbeat timeout, the pause between hands, the rate limit."""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest
import trio
import trio.testing
from recording_clients import JournalTap, RecordingClient, bot_runner, open_memory_client

from dalmuti_net.bots import make_strategy
from dalmuti_net.engine import (
    Action,
    CardSet,
    DecideMisdeal,
    Decision,
    DeclareRevolution,
    ExchangeDecision,
    GiveTax,
    MerchantExchange,
    MisdealChoice,
    MisdealDecision,
    Pass,
    PlacementDecision,
    PlaceNewcomer,
    Play,
    PlayDecision,
    RevolutionDecision,
    Rules,
    TaxDecision,
)
from dalmuti_net.host.default_moves import default_move
from dalmuti_net.host.savefile import SaveWriteError
from dalmuti_net.host.server import TableServer
from dalmuti_net.host.table import Limits, StartBot, Table
from dalmuti_net.protocol.messages import action_message, decision_from_message


@asynccontextmanager
async def serving(
    table: Table, between_hands: float = 0.0
) -> AsyncIterator[tuple[TableServer, trio.Nursery]]:
    server = TableServer(table, run_bot=bot_runner(), between_hands=between_hands)
    async with trio.open_nursery() as nursery:
        await nursery.start(server.run)
        yield server, nursery
        nursery.cancel_scope.cancel()


async def connect(
    server: TableServer, nursery: trio.Nursery, client: RecordingClient
) -> trio.abc.Stream:
    stream = await open_memory_client(server, nursery)
    nursery.start_soon(client.run, stream)
    await client.wait_until(lambda: bool(client.of_type("snapshot")))
    return stream


async def seat_bots_and_start(host: RecordingClient, bots: int) -> None:
    for _ in range(bots):
        await host.send({"type": "add_bot", "strategy": "random"})
    await host.send({"type": "start"})


def player_of(client: RecordingClient) -> int:
    assert client.session.player is not None
    return client.session.player


async def test_a_dropped_seat_waits_the_grace_period_then_a_stand_in_plays_it(
    autojump_clock: trio.testing.MockClock,
) -> None:
    table = Table("Grace", Rules(), seed=11)  # no hand limit: the host player ends it
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
        dropped_at = trio.current_time()
        await trio.sleep(59.5)
        seat = table.seats[me]
        assert seat.connection is None and seat.stand_in is None
        assert me in table.pending_players(), "the table waits for the dropped player"

        def my_listing(message: dict[str, Any]) -> dict[str, Any]:
            return next(p for p in message["table"]["players"] if p["player"] == me)

        def stood_in() -> list[float]:
            return [
                time
                for time, message in zip(watcher.times, watcher.received, strict=True)
                if message["type"] == "table" and my_listing(message)["stand_in"]
            ]

        await watcher.wait_until(lambda: bool(stood_in()))
        assert 60.0 <= stood_in()[0] - dropped_at < 60.5
        hands = len(watcher.of_type("hand_started"))
        await watcher.wait_until(lambda: len(watcher.of_type("hand_started")) >= hands + 2)

        stand_in_connection = seat.stand_in
        assert stand_in_connection is not None
        back = RecordingClient("Ana", token=ana.session.token, strategy=make_strategy("random"))
        await connect(server, nursery, back)
        assert back.received[0]["player"] == me and back.received[1]["type"] == "snapshot"
        assert seat.stand_in is None and seat.connection is not None
        await trio.sleep(0.1)
        assert stand_in_connection not in table.connections, "the stand-in was sent away"
        assert my_listing(watcher.of_type("table")[-1])["stand_in"] is False
        hands = len(watcher.of_type("hand_started"))
        await watcher.wait_until(lambda: len(watcher.of_type("hand_started")) >= hands + 1)
        await back.send({"type": "end_table"})
        await back.wait_until(lambda: back.phase == "ended")
        assert not back.errors
        assert back.of_type("table_ended")[0]["reason"] == "host_ended"


async def test_a_stand_in_plays_a_seat_that_left_during_the_hand(
    autojump_clock: trio.testing.MockClock,
) -> None:
    table = Table("Leaver", Rules(scoring=True, hand_limit=2), seed=12)
    async with serving(table) as (server, nursery):
        ana = RecordingClient("Ana", strategy=make_strategy("random", 2))
        bo = RecordingClient("Bo", strategy=make_strategy("random", 3))
        await connect(server, nursery, ana)
        await connect(server, nursery, bo)
        bo.paused = True
        await seat_bots_and_start(ana, 3)
        await bo.wait_until(lambda: bo.session.decision is not None)
        await bo.send({"type": "leave"})
        await bo.closed.wait()
        left_at = trio.current_time()
        await ana.wait_until(lambda: table.phase == "ended")
        assert trio.current_time() - left_at < 5, "no grace period for a seat that left"
        assert player_of(bo) not in table.seats
        assert [e["player"] for e in ana.of_type("player_removed")] == [player_of(bo)]


async def test_the_turn_timer_makes_the_documented_default_move(
    autojump_clock: trio.testing.MockClock,
) -> None:
    rules = Rules(**{**Rules.all_optional(misdeal_chance=0.5).to_dict(), "hand_limit": 2})
    table = Table("Timer", rules, seed=13, limits=Limits(turn_timer_ms=30_000))
    tap = JournalTap(table)
    async with serving(table) as (server, nursery):
        host = RecordingClient("Host", strategy=make_strategy("random", 4))
        sleepy = RecordingClient("Sleepy")  # heartbeats, never answers
        await connect(server, nursery, host)
        await connect(server, nursery, sleepy)
        await seat_bots_and_start(host, 3)
        await host.wait_until(lambda: table.phase == "ended")
    me = player_of(sleepy)
    asked = [
        (time, message)
        for time, message in zip(sleepy.times, sleepy.received, strict=True)
        if message["type"] == "decision"
    ]
    acts = [
        (time, entry)
        for time, entry in zip(tap.times, tap.entries, strict=True)
        if entry["op"] == "act" and entry["player"] == me
    ]
    assert len(asked) == len(acts) > 5
    for (asked_at, message), (acted_at, entry) in zip(asked, acts, strict=True):
        assert message["deadline_ms"] == 30_000
        expected = action_message(default_move(decision_from_message(message)))
        assert entry["action"] == expected
        assert 30.0 <= acted_at - asked_at < 30.5


async def test_a_silent_connection_is_dropped_after_the_heartbeat_timeout(
    autojump_clock: trio.testing.MockClock,
) -> None:
    table = Table("Quiet")
    async with serving(table) as (server, nursery):
        talker = RecordingClient("Talker")
        silent = RecordingClient("Silent", heartbeat_s=None)
        await connect(server, nursery, talker)
        await connect(server, nursery, silent)
        began = trio.current_time()
        await silent.closed.wait()
        assert 20.0 <= trio.current_time() - began < 20.5
        assert [e["code"] for e in silent.errors] == ["timeout"]
        assert silent.errors[0]["fatal"] is True
        await trio.sleep(60)
        assert talker.closed.is_set() is False and not talker.errors


async def test_the_host_sends_a_heartbeat_only_after_an_interval_of_silence(
    autojump_clock: trio.testing.MockClock,
) -> None:
    """Any frame tells a client the host is alive (PROTOCOL.md, Liveness): a heartbeat
    goes only where nothing else was sent for a whole interval, so a table in play sends
    none; a quiet table still sends one every interval, to everyone."""
    table = Table("Beat")
    async with serving(table) as (server, nursery):
        host = RecordingClient("Host", heartbeat_s=1.0)
        watcher = RecordingClient("Watcher", spectator=True, heartbeat_s=1.0)
        await connect(server, nursery, host)
        await connect(server, nursery, watcher)
        began = trio.current_time()
        await trio.sleep(16)  # a quiet lobby
        for client in (host, watcher):
            beats = [
                time - began
                for time, message in zip(client.times, client.received, strict=True)
                if message["type"] == "heartbeat" and time > began
            ]
            assert len(beats) == 3, beats
            gaps = [later - earlier for earlier, later in itertools.pairwise(beats)]
            assert all(4.99 < gap < 5.01 for gap in gaps), beats
        # Now something is said every second: frames to everyone, and no heartbeat.
        talking = trio.current_time()
        for _ in range(20):
            await host.send({"type": "chat", "text": "still here"})
            await trio.sleep(1)
        last_chat = trio.current_time() - 1
        await trio.sleep(6)
        heard = [
            (round(time - last_chat, 2), message["type"])
            for time, message in zip(watcher.times, watcher.received, strict=True)
            if time >= talking
        ]
        assert [kind for _, kind in heard] == ["chat"] * 20 + ["heartbeat"], heard
        assert 4.99 < heard[-1][0] < 5.01, heard


async def test_the_host_pauses_between_hands(autojump_clock: trio.testing.MockClock) -> None:
    table = Table("Pause", Rules(scoring=True, hand_limit=3), seed=14)
    async with serving(table, between_hands=4.0) as (server, nursery):
        host = RecordingClient("Host", strategy=make_strategy("random", 5))
        await connect(server, nursery, host)
        await seat_bots_and_start(host, 3)
        await host.wait_until(lambda: host.phase == "ended")
    moments = [
        (time, message["type"])
        for time, message in zip(host.times, host.received, strict=True)
        if message["type"] in ("hand_ended", "hand_started")
    ]
    kinds = [kind for _, kind in moments]
    assert kinds == ["hand_started", "hand_ended"] * 3
    for (ended, _), (started, _) in zip(moments[1::2], moments[2::2], strict=False):
        assert 4.0 <= started - ended < 4.5


async def test_requests_over_the_rate_are_refused_but_answers_never_are(
    autojump_clock: trio.testing.MockClock,
) -> None:
    table = Table("Rate", Rules(scoring=True, hand_limit=1), seed=15)
    async with serving(table) as (server, nursery):
        chatty = RecordingClient("Chatty", strategy=make_strategy("random", 6))
        await connect(server, nursery, chatty)
        chatty.paused = True
        await seat_bots_and_start(chatty, 3)
        await chatty.wait_until(lambda: chatty.session.decision is not None)
        for index in range(60):
            await chatty.send({"type": "chat", "text": f"spam {index}"})
        await trio.sleep(0.1)
        chats = {i for i, m in chatty.sent.items() if m["type"] == "chat"}
        limited = [e for e in chatty.errors if e["code"] == "rate_limited" and e.get("re") in chats]
        assert limited and all(not e["fatal"] for e in limited)
        assert len(chatty.of_type("chat")) + len(limited) == 60
        await chatty.resume()
        await chatty.wait_until(lambda: table.phase == "ended")
        refused = {e["code"] for e in chatty.errors} - {"rate_limited"}
        assert not refused, "the answers owed were never rate limited"


@pytest.mark.parametrize(
    ("decision", "expected"),
    [
        (PlayDecision((CardSet(3, 1), CardSet(9, 2), CardSet(9, 1)), True, CardSet(10, 1)), Pass()),
        (
            PlayDecision(
                (CardSet(3, 1), CardSet(9, 2), CardSet(9, 1), CardSet(9, 1, 1)), False, None
            ),
            Play(CardSet(9, 1)),
        ),
        (TaxDecision(2, (1, 2, 5, 12, 12, 13), 4), GiveTax((12, 12))),
        (TaxDecision(2, (3, 13, 13), 4), GiveTax((3, 13))),
        (ExchangeDecision((2, 3), (4, 6)), MerchantExchange(None, None)),
        (RevolutionDecision(greater=True), DeclareRevolution(False)),
        (MisdealDecision(7, 2, 5), DecideMisdeal(MisdealChoice.INTENDED)),
        (PlacementDecision(9, (3, 4, 5)), PlaceNewcomer(3)),
    ],
)
def test_default_moves(decision: Decision, expected: Action) -> None:
    assert default_move(decision) == expected


async def test_a_bot_that_fails_leaves_its_seat_empty_and_the_host_serving(
    autojump_clock: trio.testing.MockClock,
) -> None:
    async def failing_bot(stream: trio.abc.Stream, bot: StartBot) -> None:
        raise RuntimeError("this strategy is broken")

    table = Table("Broken bot")
    server = TableServer(table, run_bot=failing_bot)
    async with trio.open_nursery() as nursery:
        await nursery.start(server.run)
        host = RecordingClient("Host")
        await connect(server, nursery, host)
        await host.send({"type": "add_bot"})
        await trio.sleep(1)
        bot_seat = next(s for s in table.seats.values() if s.kind == "bot")
        assert bot_seat.connection is None
        await host.send({"type": "chat", "text": "still here"})
        await host.wait_until(lambda: bool(host.of_type("chat")))
        nursery.cancel_scope.cancel()


async def test_a_player_who_drops_again_gets_a_fresh_grace_period(
    autojump_clock: trio.testing.MockClock,
) -> None:
    table = Table("Regrace", Rules(), seed=12)
    async with serving(table, between_hands=1.0) as (server, nursery):
        ana = RecordingClient("Ana", strategy=make_strategy("random", 1))
        stream = await connect(server, nursery, ana)
        me = player_of(ana)
        ana.paused = True
        await seat_bots_and_start(ana, 3)
        await ana.wait_until(lambda: ana.session.decision is not None)
        await stream.aclose()
        await ana.closed.wait()
        await trio.sleep(40)
        back = RecordingClient("Ana", token=ana.session.token)
        back.paused = True
        second = await connect(server, nursery, back)
        await trio.sleep(1)
        await second.aclose()
        await back.closed.wait()
        dropped_again_at = trio.current_time()
        seat = table.seats[me]
        # The first drop's 60 s run out 21 s from now: no stand-in may come then.
        await trio.sleep(59.0)
        assert seat.stand_in is None and me not in table._awaiting_stand_in
        await trio.sleep(2.0)
        assert seat.stand_in is not None or me in table._awaiting_stand_in
        assert trio.current_time() - dropped_again_at < 61.5


class HeldUpSave:
    """A save that cannot be written while ``failing`` is set (a full disk, say)."""

    def __init__(self) -> None:
        self.failing = False
        self.records: list[dict[str, Any]] = []

    def append(self, records: list[dict[str, Any]]) -> None:
        if self.failing:
            raise SaveWriteError("No space left on device")
        self.records.extend(records)


async def test_a_client_that_kept_talking_while_the_save_held_the_host_up_stays(
    autojump_clock: trio.testing.MockClock,
) -> None:
    """Silence is the client's, not the host's: a reader held up past the client's
    deadline by a save that cannot be written reads what came meanwhile before judging;
    a client that said nothing at all is still cut off, once its deadline has passed."""
    table = Table("Held up")
    save = HeldUpSave()
    # The save is written in trio's thread: while a worker thread runs, the autojump clock
    # jumps, and the talker's heartbeats, due every 5 s, would all come at once and be
    # refused as a flood (its add_bot with them, leaving nothing to save).
    server = TableServer(
        table,
        save=save,  # type: ignore[arg-type]
        run_bot=bot_runner(),
        between_hands=0,
        save_in_thread=False,
    )
    async with trio.open_nursery() as nursery:
        await nursery.start(server.run)
        talker = RecordingClient("Talker", heartbeat_s=5.0)
        silent = RecordingClient("Silent", spectator=True, heartbeat_s=None)
        await connect(server, nursery, talker)
        await connect(server, nursery, silent)
        save.failing = True
        began = trio.current_time()
        tables_told = len(talker.of_type("table"))
        # A change to save: its reader waits for the save, the talker keeps talking.
        await talker.send({"type": "add_bot", "strategy": "random"})
        await trio.sleep(45)  # more than twice the 20 s heartbeat timeout
        assert "rate_limited" not in [e["code"] for e in talker.errors]
        assert not talker.closed.is_set()
        assert len(talker.of_type("table")) == tables_told, "told before it was saved"
        save.failing = False
        await talker.wait_until(lambda: len(talker.of_type("table")) > tables_told)
        await trio.sleep(30)
        assert not talker.closed.is_set()
        assert "timeout" not in [e["code"] for e in talker.errors]
        assert silent.closed.is_set()
        assert [e["code"] for e in silent.errors][-1] == "timeout"
        assert trio.current_time() - began > 20
        nursery.cancel_scope.cancel()
