"""Bot pacing (host/pacing.py): the host's bots move at a human pace while a seat is
played from the table UI, never otherwise, and a person's own turn is never delayed."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
import trio
import trio.testing

from dalmuti_net.bots import make_strategy
from dalmuti_net.client.bot import play, stream_connector
from dalmuti_net.client.runner import ClientRunner
from dalmuti_net.client.session import SOFTWARE, TABLE_UI_SOFTWARE, ClientSession
from dalmuti_net.engine import Rules
from dalmuti_net.host.pacing import DEFAULT_BOT_PACE, BotPace
from dalmuti_net.host.pacing import TABLE_UI_SOFTWARE as UI_PREFIX
from dalmuti_net.host.server import TableServer
from dalmuti_net.host.settings import settings_from_dict
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
    software: str, spectator: bool = False, limits: Limits | None = None
) -> list[tuple[float, str, int]]:
    """One hand: a person (answering at once) with ``software`` and three paced bots.
    Returns (time, "played"/"passed"/"asked", player) as the person saw them, and
    (time, "timer", milliseconds left on the person's turn timer) as the host told it."""
    table = Table("Paced", Rules(), seed=4, headless=True, limits=limits or Limits())
    server = TableServer(table, between_hands=3600)
    pace = BotPace(PACE, server)

    async def run_bot(stream: trio.abc.Stream, bot: StartBot) -> None:
        strategy = make_strategy(bot.strategy or "random", 1)
        await play(
            stream_connector(stream),
            strategy,
            bot.name,
            token=bot.token,
            reconnect=False,
            pace=pace.seconds,
        )

    server.run_bot = run_bot
    seen: list[tuple[float, str, int]] = []
    person = ClientSession("Ana", software=software, spectator=spectator)
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
                    if player == person.player:
                        seen.append((trio.current_time(), "timer", left))
            decision = person.decision
            if decision is not None and person.observation is not None:
                seen.append((trio.current_time(), "asked", person.player or 0))
                person.decision = None
                await runner.send(action_message(strategy.choose(person.observation, decision)))

        runner = ClientRunner(
            person, stream_connector(stream), on_message=on_message, reconnect=False
        )
        nursery.start_soon(runner.run)
        await trio.sleep(0.01)
        table.start()
        await server.flush()
    return seen


async def test_bots_move_at_a_human_pace_for_the_table_ui(
    autojump_clock: trio.testing.MockClock,
) -> None:
    seen = await watched_hand(TABLE_UI_SOFTWARE)
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
    ("software", "spectator"),
    [(SOFTWARE, False), ("minibot 1.0", False), (TABLE_UI_SOFTWARE, True)],
)
async def test_nobody_at_the_table_ui_no_pace(
    autojump_clock: trio.testing.MockClock, software: str, spectator: bool
) -> None:
    seen = await watched_hand(software, spectator)
    assert len([entry for entry in seen if entry[1] != "asked"]) > 8
    assert seen[-1][0] - seen[0][0] < PACE  # the whole hand went by as fast as they think


def test_the_pace_settings() -> None:
    assert TABLE_UI_SOFTWARE.startswith(UI_PREFIX) and not SOFTWARE.startswith(UI_PREFIX)
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
