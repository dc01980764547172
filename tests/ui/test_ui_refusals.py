"""Each refusal gets its own screen, driven through the whole terminal client (pipe input,
DummyOutput) against the real host over TCP on 127.0.0.1: a full table offers to watch, a
wrong code is asked for again in place, an ended table shows its standings, only an
unreachable host gets the network advice, and every one of them can go back to the list."""

from __future__ import annotations

import socket
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
import trio
from prompt_toolkit.input import PipeInput, create_pipe_input
from prompt_toolkit.output import DummyOutput
from ui_support import LocalTable, draw

from dalmuti_net.bots import make_strategy
from dalmuti_net.client.bot import play, stream_connector
from dalmuti_net.client.model.errors import CONNECT_FAILURES
from dalmuti_net.client.runner import NotAHost, Status, connect_failure_kind
from dalmuti_net.client.seats import SeatStore
from dalmuti_net.client.session import ClientSession
from dalmuti_net.client.ui.runtime import NextStep, TerminalClient, run_with_trio
from dalmuti_net.client.ui.state import BackToList, ClientUi, Rejoin, Screen
from dalmuti_net.engine import Rules
from dalmuti_net.host.server import TableServer
from dalmuti_net.host.table import StartBot, Table
from dalmuti_net.lang.i18n import LANGUAGES, Translator

STEP = 10.0
ADVICE = "firewall"


async def run_bot(stream: trio.abc.Stream, bot: StartBot) -> None:
    strategy = make_strategy("random", 5)
    await play(stream_connector(stream), strategy, bot.name, token=bot.token, reconnect=False)


async def wait_for(condition: Callable[[], bool]) -> None:
    with trio.fail_after(STEP):
        while not condition():
            await trio.sleep(0.01)


Script = Callable[[PipeInput, ClientUi, list[NextStep | None]], Awaitable[None]]


def run_app(
    ui: ClientUi,
    table: Table | None,
    script: Script,
    *,
    refuse_connections: bool = False,
) -> list[NextStep | None]:
    """The client joins ``table`` served over TCP; each Rejoin the player picks connects
    again as `dalmuti join` does; returns what each round of play ended with."""
    steps: list[NextStep | None] = []
    with create_pipe_input() as pipe:
        client = TerminalClient(ui, input=pipe, output=DummyOutput())

        async def main() -> None:
            async with trio.open_nursery() as nursery:
                port = 9
                if table is not None:
                    server = TableServer(table, run_bot=run_bot, between_hands=0.05)
                    await nursery.start(server.run)
                    listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
                    port = listeners[0].socket.getsockname()[1]
                    nursery.start_soon(server.serve_tcp, listeners)

                async def connect() -> trio.abc.Stream:
                    if refuse_connections:
                        raise ConnectionRefusedError("connection refused")
                    return await trio.open_tcp_stream("127.0.0.1", port)

                async def join_loop() -> None:
                    session = ui.model.session
                    assert session is not None
                    while True:
                        step = await client.play(session, connect)
                        steps.append(step)
                        if not isinstance(step, Rejoin):
                            return
                        session = ClientSession(
                            session.name, spectator=step.spectator, code=step.code
                        )
                        ui.connecting(session, "127.0.0.1")

                nursery.start_soon(join_loop)
                await script(pipe, ui, steps)
                nursery.cancel_scope.cancel()

        run_with_trio(client, main)
    return steps


def full_table() -> Table:
    table = Table("Full table", Rules(), seed=2)
    for _ in range(8):
        table.add_bot("random")
    return table


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_a_full_table_offers_to_watch_instead(language: str) -> None:
    ui = ClientUi(Translator(language), ClientSession("Ana"), address="127.0.0.1")
    t = ui.t

    async def script(pipe: PipeInput, ui: ClientUi, steps: list[NextStep | None]) -> None:
        await wait_for(lambda: ui.model.screen is Screen.PROBLEM)
        screen = draw(ui)
        assert t._("The table is full") in screen
        assert t._("watch instead") in screen
        assert t._("back to the list of tables") in screen
        assert t._(ADVICE) not in screen and "VPN" not in screen
        pipe.send_text("x")  # a key the screen does not offer: nothing happens
        await trio.sleep(0.1)
        assert steps == []
        pipe.send_text("w")
        await wait_for(lambda: len(steps) == 1)
        await wait_for(lambda: ui.model.screen is Screen.TABLE and ui.model.session is not None)
        assert ui.model.session is not None and ui.model.session.spectator
        await wait_for(lambda: ui.model.table is not None)
        assert t._("You are watching") in draw(ui) or ui.model.table.lobby  # type: ignore[union-attr]

    steps = run_app(ui, full_table(), script)
    assert steps[0] == Rejoin(spectator=True, code=None)


def test_a_wrong_code_is_asked_for_again_in_place() -> None:
    ui = ClientUi(Translator("en"), ClientSession("Ana", code="tulpi"), address="127.0.0.1")
    ui.model.code = "tulpi"
    table = Table("Coded table", Rules(), seed=3, code="tulip")

    async def script(pipe: PipeInput, ui: ClientUi, steps: list[NextStep | None]) -> None:
        await wait_for(lambda: ui.model.screen is Screen.PROBLEM and ui.editor is not None)
        screen = draw(ui)
        assert "This table needs a join code" in screen and "Join code:" in screen
        assert ADVICE not in screen
        pipe.send_text("tulip\r")
        await wait_for(lambda: ui.model.screen is Screen.TABLE and ui.model.table is not None)
        assert ui.model.session is not None and ui.model.session.player is not None

    steps = run_app(ui, table, script)
    assert steps[0] == Rejoin(spectator=False, code="tulip")


def test_an_ended_table_is_a_fatal_refusal_with_its_standings() -> None:
    table = Table("Over", Rules(scoring=True), seed=4)
    for name in ("Bo", "Chen", "Dara", "Eli"):
        table.reserve_seat(name)
    table.start()
    table.end_table()
    ui = ClientUi(Translator("es"), ClientSession("Ana"), address="127.0.0.1")
    t = ui.t

    async def script(pipe: PipeInput, ui: ClientUi, steps: list[NextStep | None]) -> None:
        await wait_for(lambda: ui.model.screen is Screen.PROBLEM)
        screen = draw(ui)
        assert t._("This table has ended") in screen
        assert t._("Final standings") in screen and "Chen" in screen
        assert "hello" not in screen  # not "send hello first"
        assert ui.model.session is not None and ui.model.session.errors[-1].code == "table_ended"
        pipe.send_text("l")
        await wait_for(lambda: len(steps) == 1)

    assert run_app(ui, table, script) == [BackToList()]


def test_only_the_unreachable_host_gets_network_advice_and_may_try_again() -> None:
    ui = ClientUi(Translator("en"), ClientSession("Ana"), address="127.0.0.1:9")

    async def script(pipe: PipeInput, ui: ClientUi, steps: list[NextStep | None]) -> None:
        await wait_for(lambda: ui.model.screen is Screen.PROBLEM)
        screen = draw(ui)
        assert "The host cannot be reached" in screen and ADVICE in screen
        assert "r try again" in screen and "l back to the list" in screen
        pipe.send_text("r")
        await wait_for(lambda: len(steps) == 1)
        await wait_for(lambda: ui.model.screen is Screen.PROBLEM)
        pipe.send_text("l")
        await wait_for(lambda: len(steps) == 2)

    steps = run_app(ui, None, script, refuse_connections=True)
    assert steps == [Rejoin(spectator=False, code=None), BackToList()]


def test_the_host_players_own_terminal_has_no_list_to_go_back_to() -> None:
    ui = ClientUi(Translator("en"), ClientSession("Ana"), address="localhost", local_host=True)
    ui.model.cannot_connect("gone")
    screen = draw(ui)
    assert "back to the list" not in screen and "q quit" in screen


def test_back_to_the_list_starts_over() -> None:
    ui = ClientUi(Translator("en"), ClientSession("Ana"), address="127.0.0.1:9")
    ui.model.cannot_connect("refused")
    assert ui.press("l") == [BackToList()]
    ui.back_to_list()
    assert ui.model.screen is Screen.DISCOVER and ui.model.session is None
    assert "Tables on this network" in draw(ui)


async def test_a_refused_connection_is_told_apart_from_a_name_nobody_knows() -> None:
    with socket.socket() as probe:  # a port on this machine that nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    failures = []
    for host in ("127.0.0.1", "no-such-host.invalid"):
        try:
            await trio.open_tcp_stream(host, port)
        except OSError as error:
            failures.append(connect_failure_kind(error))
    assert failures == ["refused", "unknown_name"]


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_why_the_host_cannot_be_reached_is_said_in_the_players_language(language: str) -> None:
    ui = ClientUi(Translator(language), ClientSession("Ana"), address="127.0.0.1:8013")
    ui.model.cannot_connect("all attempts to connect to 127.0.0.1:8013 failed", "refused")
    screen = "".join(draw(ui).split())  # lines joined again, whatever the script
    assert "allattempts" not in screen
    assert "".join(ui.t._(CONNECT_FAILURES["refused"]).split()) in screen
    silent = NotAHost("no answer in 15 s: is it a dalmuti-net host?")
    ui.model.cannot_connect(str(silent), silent.kind)
    screen = "".join(draw(ui).split())
    assert "".join(ui.t._(CONNECT_FAILURES["not_a_host"]).split()) in screen
    assert "noanswerin15s" not in screen
    ui.model.cannot_connect("something the system said", None)  # a failure of no known kind
    assert "somethingthesystemsaid" in "".join(draw(ui).split())


def test_a_goodbye_after_the_end_keeps_the_final_standings_in_columns() -> None:
    table = LocalTable(Rules(scoring=True), bots=3)
    table.press("s")
    table.table.end_table()
    table.pump()
    goodbye = {"type": "goodbye", "reason": "the host player ended it", "code": "table_ended"}
    table.session.receive(goodbye)
    table.ui.on_message(goodbye)
    screen = draw(table.ui)
    assert screen.splitlines()[0] == "This table has ended"
    assert "The host player ended the table." in screen
    rows = screen.splitlines()
    head = rows.index("Final standings")
    standings = rows[head + 1 : head + 5]
    assert any("Ana (you)" in row for row in standings)
    assert len({len(row) for row in standings}) == 1, standings  # scores line up


def test_back_at_a_table_that_ended_meanwhile_shows_its_final_standings(tmp_path: Path) -> None:
    """Killed mid-game, started again after the end: the seat's token still opens the
    table, whose snapshot has no `table_ended` event; the screen says it is over anyway."""
    table = LocalTable(Rules(scoring=True), bots=3)
    table.press("s")
    token = table.session.token
    assert token is not None
    table.table.disconnected(table.ui_connection)  # kill -9
    table.table.end_table()
    table.pump()
    store = SeatStore(tmp_path)
    store.remember(table.table.table_id, token, "Ana", "Test table")
    again = ClientSession("Ana", seats=store)
    again.receive(table.table.about_message())
    assert again.token == token
    ui = ClientUi(Translator("zh_Hant"), again, address="test")
    ui.on_status(Status.CONNECTED)
    connection = table._connect(again)
    for message in table._take(connection):  # the challenge: the host proves the seat
        again.receive(message)
    assert again.proof_to_send is not None
    table._send(connection, again.proof_to_send)
    for message in table._take(connection):
        again.receive(message)
        ui.on_message(message)
    screen = draw(ui)
    assert ui.t._("The table is over.") in screen and ui.t._("Final standings") in screen
    assert "Ana（你）" in screen
    assert store.seat_for(table.table.table_id) is None  # nothing left to resume


def test_a_host_that_stopped_may_be_tried_again_for_the_same_seat() -> None:
    table = LocalTable(Rules(scoring=True), bots=3)
    table.press("s")
    stopped = {"type": "goodbye", "reason": "stopping", "code": "shutting_down"}
    table.session.receive(stopped)
    table.ui.on_message(stopped)
    screen = draw(table.ui)
    assert "The host stopped the table." in screen and "r try again" in screen
    assert table.ui.press("r") == [Rejoin(spectator=False, code=None)]
    assert table.session.token is not None  # kept: the resumed host knows this seat
    ended = {"type": "goodbye", "reason": "ended", "code": "table_ended"}
    over = LocalTable(bots=3)
    over.session.receive(ended)
    over.ui.on_message(ended)
    assert "try again" not in draw(over.ui)  # an ended table is not coming back
