"""Bot pacing (``Table.bot_pace``): the host's bots move at the table's pace while a person
plays a seat or watches (their client's hello says ``person``); never for programs alone
(a stranger's bot, ``--exec``, the SDK: whatever ``software`` they name), nor at a table of
the host's bots alone; and a person's own turn is never delayed."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
import trio
import trio.testing
from harness import Harness

from dalmuti_net.bots import make_strategy
from dalmuti_net.client.bot import play, stream_connector
from dalmuti_net.client.runner import ClientRunner
from dalmuti_net.client.session import SOFTWARE, TABLE_UI_SOFTWARE, ClientSession
from dalmuti_net.engine import Rules
from dalmuti_net.host.server import TableServer
from dalmuti_net.host.settings import DEFAULT_BOT_PACE, settings_from_dict
from dalmuti_net.host.table import Limits, StartBot, Table
from dalmuti_net.protocol.messages import Message, action_message

PACE = 0.8


@pytest.fixture(autouse=True)
def choose_in_the_trio_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bot SDK chooses in a worker thread, and while a thread runs the autojump clock
    jumps: here the bots choose in the trio thread, so that only pacing takes time."""

    async def run_here(function: Any, *args: Any, **_: Any) -> Any:
        return function(*args)

    monkeypatch.setattr(trio.to_thread, "run_sync", run_here)


async def watched_hand(
    software: str,
    spectator: bool = False,
    limits: Limits | None = None,
    pace_ms: int = round(PACE * 1000),
    person: bool = True,
) -> list[tuple[float, str, int]]:
    """One hand: a client (answering at once, a person or a program as ``person`` says)
    with ``software`` and three bots, at a
    table whose ``bot_pace_ms`` is ``pace_ms``. Returns (time, "played"/"passed"/"asked",
    player) as the person saw them, and (time, "timer", milliseconds left on the person's
    turn timer) as the host told it."""
    table = Table(
        "Paced", Rules(), seed=4, headless=True, limits=limits or Limits(), bot_pace_ms=pace_ms
    )
    server = TableServer(table, between_hands=3600)

    async def run_bot(stream: trio.abc.Stream, bot: StartBot) -> None:
        strategy = make_strategy(bot.strategy or "random", 1)
        await play(
            stream_connector(stream),
            strategy,
            bot.name,
            token=bot.token,
            reconnect=False,
            pace=table.bot_pace,
        )

    server.run_bot = run_bot
    seen: list[tuple[float, str, int]] = []
    person_ = ClientSession("Ana", software=software, spectator=spectator, person=person)
    strategy = make_strategy("random", 2)
    async with trio.open_nursery() as nursery:
        await nursery.start(server.run)
        for _ in range(3 if not spectator else 4):
            table.add_bot("random")
        await server.flush()
        stream = server.connect_local()
        runner: ClientRunner

        async def on_message(message: Message) -> None:
            kind = message["type"]
            if kind in ("played", "passed"):
                seen.append((trio.current_time(), kind, message["player"]))
            if kind == "hand_ended":
                nursery.cancel_scope.cancel()
            if kind == "timers":
                for player, left in message["turn"]:
                    if player == person_.player:
                        seen.append((trio.current_time(), "timer", left))
            decision = person_.decision
            if decision is not None and person_.observation is not None:
                seen.append((trio.current_time(), "asked", person_.player or 0))
                person_.decision = None
                await runner.send(action_message(strategy.choose(person_.observation, decision)))

        runner = ClientRunner(
            person_, stream_connector(stream), on_message=on_message, reconnect=False
        )
        nursery.start_soon(runner.run)
        await trio.sleep(0.01)
        table.start()
        await server.flush()
    return seen


@pytest.mark.parametrize("software", [TABLE_UI_SOFTWARE, SOFTWARE, "minibot 1.0"])
async def test_a_program_plays_the_hosts_bots_flat_out(
    autojump_clock: trio.testing.MockClock, software: str
) -> None:
    """PROTOCOL.md, Bot pace: a client whose hello does not say ``person`` (a bot, the
    SDK, ``--exec``), whatever it calls itself, does not slow the host's bots down."""
    seen = await watched_hand(software, person=False)
    moves = [entry for entry in seen if entry[1] in ("played", "passed")]
    assert len(moves) > 8
    assert seen[-1][0] - seen[0][0] < PACE  # the whole hand went by as fast as they think


@pytest.mark.parametrize("software", [TABLE_UI_SOFTWARE, SOFTWARE, "minibot 1.0"])
async def test_bots_move_at_the_tables_pace_while_a_person_plays(
    autojump_clock: trio.testing.MockClock, software: str
) -> None:
    seen = await watched_hand(software)
    moves = [entry for entry in seen if entry[1] in ("played", "passed")]
    assert len(moves) > 8
    me = next(player for _, kind, player in seen if kind == "asked")
    for (before, _, _), (after, _, player) in itertools.pairwise(moves):
        if player != me:
            assert after - before >= PACE - 1e-9  # a bot's move waits for the pace
    for index, (at, kind, _) in enumerate(seen):
        if kind == "asked" and index:
            assert at == seen[index - 1][0]  # my turn comes the moment the last move did


@pytest.mark.parametrize(
    ("spectator", "pace_ms", "person"),
    [(True, 800, False), (False, 0, True)],
    ids=["watched-by-a-program", "pace-off"],
)
async def test_no_pace_with_no_person_at_the_table_or_the_pace_off(
    autojump_clock: trio.testing.MockClock, spectator: bool, pace_ms: int, person: bool
) -> None:
    seen = await watched_hand(TABLE_UI_SOFTWARE, spectator, pace_ms=pace_ms, person=person)
    assert len([entry for entry in seen if entry[1] != "asked"]) > 8
    assert seen[-1][0] - seen[0][0] < PACE  # the whole hand went by as fast as they think


async def test_a_person_watching_the_hosts_bots_sees_them_paced(
    autojump_clock: trio.testing.MockClock,
) -> None:
    seen = await watched_hand(TABLE_UI_SOFTWARE, spectator=True)
    moves = [entry for entry in seen if entry[1] in ("played", "passed")]
    assert len(moves) > 8
    for (before, _, _), (after, _, _) in itertools.pairwise(moves):
        assert after - before >= PACE - 1e-9


def test_the_pace_settings() -> None:
    assert settings_from_dict({}).bot_pace == DEFAULT_BOT_PACE == 0.8
    assert settings_from_dict({"table": {"bot_pace": 0}}).bot_pace == 0
    assert settings_from_dict({"table": {"bot_pace": 1.5}}).bot_pace == 1.5


async def test_the_turn_timer_starts_when_the_decision_is_sent(
    autojump_clock: trio.testing.MockClock,
) -> None:
    """The bots' pace is spent before the person's decision exists: their whole turn
    time is left when they are asked, every time."""
    seen = await watched_hand(TABLE_UI_SOFTWARE, limits=Limits(turn_timer_ms=8_000))
    asked = [at for at, kind, _ in seen if kind == "asked"]
    timers = [(at, left) for at, kind, left in seen if kind == "timer"]
    assert len(asked) >= 2 and timers
    for at in asked:
        told = [left for when, left in timers if abs(when - at) < 1e-6]
        assert told == [8_000], (at, timers)


def test_the_pace_applies_while_a_person_plays_or_watches() -> None:
    """The rule on its own: a person at a seat of their own or watching, as their hello
    said; never a program, a stand-in or the host's own bots."""
    harness = Harness(Table("Rule", bot_pace_ms=800))
    table = harness.table
    assert table.table_message()["timing"]["bot_pace_ms"] == 800
    program = harness.join("Minibot")
    harness.send(program, {"type": "add_bot", "strategy": "random"})
    assert table.bot_pace() == 0.0, "programs and the host's bots go flat out"
    watcher = harness.join("Wes", spectator=True, person=True)
    assert table.bot_pace() == 0.8, "a person watching"
    harness.drop(watcher)
    assert table.bot_pace() == 0.0
    ana = harness.join("Ana", person=True)
    assert table.bot_pace() == 0.8, "a person playing"
    seat = table.seats[ana.session.player or 0]
    seat.stand_in, seat.connection = 9, None
    assert table.bot_pace() == 0.0, "a stand-in plays it: nobody to follow the bots"
    seat.stand_in, seat.connection = None, ana.connection
    table.bot_pace_ms = 0
    assert table.bot_pace() == 0.0


def test_the_host_player_sets_the_pace_in_the_lobby_and_a_resumed_table_keeps_it() -> None:
    harness = Harness(Table("Clocks", bot_pace_ms=800))
    ana = harness.join("Ana")
    harness.send(ana, {"type": "set_timing", "bot_pace_ms": 250, "id": 1})
    assert ana.of_type("ack") == [{"type": "ack", "re": 1}]
    assert ana.of_type("table")[-1]["table"]["timing"]["bot_pace_ms"] == 250
    harness.send(ana, {"type": "set_timing", "results_ms": 5_000})  # the pace stays
    assert harness.table.bot_pace_ms == 250
    harness.send(ana, {"type": "set_timing", "bot_pace_ms": 60_001, "id": 2})
    assert [e["code"] for e in ana.errors] == ["bad_message"]
    resumed = Table.replay(harness.table.journal, bot_pace_ms=800)
    assert resumed.bot_pace_ms == 250
