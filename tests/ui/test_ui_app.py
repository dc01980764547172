"""The whole terminal client without a terminal: prompt_toolkit on asyncio reading a pipe
(``create_pipe_input``), drawing to ``DummyOutput``, trio as its guest running the real
table server over in-memory streams (or a fake host)."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

import pytest
import trio
import trio.testing
from prompt_toolkit.input import PipeInput, create_pipe_input
from prompt_toolkit.output import DummyOutput
from ui_support import draw

from dalmuti_net.bots import make_strategy
from dalmuti_net.client.bot import play, stream_connector
from dalmuti_net.client.model.choosers import (
    ExchangeChooser,
    MisdealChooser,
    PlayChooser,
    RevolutionChooser,
    TaxChooser,
)
from dalmuti_net.client.runner import Status
from dalmuti_net.client.session import ClientSession
from dalmuti_net.client.ui.config import Preferences
from dalmuti_net.client.ui.runtime import TerminalClient, run_with_trio
from dalmuti_net.client.ui.state import ClientUi, Join, Screen
from dalmuti_net.engine import Rules
from dalmuti_net.host.server import TableServer
from dalmuti_net.host.table import StartBot, Table
from dalmuti_net.lang.i18n import Translator
from dalmuti_net.protocol import encode
from dalmuti_net.protocol.discovery import TableInfo

KEYS = {
    "enter": "\r",
    "tab": "\t",
    "left": "\x1b[D",
    "right": "\x1b[C",
    "up": "\x1b[A",
    "down": "\x1b[B",
    "backspace": "\x7f",
}
STEP = 10.0
"""Seconds any one wait may take before the test fails."""


async def run_bot(stream: trio.abc.Stream, bot: StartBot) -> None:
    strategy = make_strategy(bot.strategy or "heuristic", 7)
    await play(stream_connector(stream), strategy, bot.name, token=bot.token, reconnect=False)


async def wait_for(condition: Callable[[], bool]) -> None:
    with trio.fail_after(STEP):
        while not condition():
            await trio.sleep(0.01)


Script = Callable[[PipeInput, ClientUi, TerminalClient], Awaitable[None]]


def run_client(
    ui: ClientUi,
    script: Script,
    *,
    connect: Callable[[], Awaitable[trio.abc.Stream]] | None = None,
    table: Table | None = None,
) -> None:
    """Run the application with ``script`` typing into it; the session connects to a real
    server around ``table`` (or through ``connect``)."""
    with create_pipe_input() as pipe:
        client = TerminalClient(ui, input=pipe, output=DummyOutput())

        async def main() -> None:
            async with trio.open_nursery() as nursery:
                if table is not None:
                    server = TableServer(table, run_bot=run_bot, between_hands=0.05)
                    await nursery.start(server.run)

                    async def local() -> trio.abc.Stream:
                        stream: trio.abc.Stream = server.connect_local()
                        return stream

                    session_connect = local
                else:
                    assert connect is not None
                    session_connect = connect
                assert ui.model.session is not None
                nursery.start_soon(client.play, ui.model.session, session_connect)
                await script(pipe, ui, client)
                nursery.cancel_scope.cancel()

        run_with_trio(client, main)


async def answer_by_keys(pipe: PipeInput, ui: ClientUi) -> None:
    """Answer the decision on screen by typing, as a player would, and wait until it left."""
    chooser = ui.model.chooser
    if isinstance(chooser, TaxChooser):
        while chooser.total < chooser.decision.count:
            before = chooser.total
            ui.model.notice = None
            pipe.send_text(KEYS["up"])
            await wait_for(lambda b=before: chooser.total != b or ui.model.notice is not None)
            if chooser.total == before:  # no more of that card: the next one
                pipe.send_text(KEYS["right"])
        keys = ["enter"]
    elif isinstance(chooser, PlayChooser):
        if chooser.current() in chooser.decision.sets:
            keys = ["enter"]
        else:
            keys = ["p"] if chooser.decision.may_pass else ["tab", "enter"]
    elif isinstance(chooser, RevolutionChooser):
        keys = ["n"]
    elif isinstance(chooser, MisdealChooser):
        keys = ["i"]
    elif isinstance(chooser, ExchangeChooser):
        keys = ["d"]
    else:
        keys = ["enter"]
    pipe.send_text("".join(KEYS.get(key, key) for key in keys))
    await wait_for(lambda: ui.model.chooser is not chooser)


def test_a_hand_played_by_keystrokes_against_the_real_server() -> None:
    session = ClientSession("Ana")
    # Every pass typed too (p): auto-pass would pause a second and more before each.
    by_hand = Preferences(stored=False)
    by_hand.auto_pass = False
    ui = ClientUi(Translator("en"), session, address="memory", preferences=by_hand)

    async def script(pipe: PipeInput, ui: ClientUi, client: TerminalClient) -> None:
        await wait_for(lambda: ui.model.screen is Screen.TABLE and session.is_host)
        pipe.send_text("b1b1b1")  # b asks which bot: 1, the heuristic one
        await wait_for(lambda: session.table is not None and len(session.table.players) == 4)
        pipe.send_text("s")
        await wait_for(lambda: session.observation is not None)
        with trio.fail_after(STEP * 3):
            while session.observation is not None and session.observation.phase != "hand_over":
                if ui.model.choosing is not None:
                    await answer_by_keys(pipe, ui)
                await trio.sleep(0.01)
        assert session.observation is not None and len(session.observation.out) == 3
        assert "Hand 1 is over" in draw(ui)

    run_client(ui, script, table=Table("App table", Rules(), seed=11))


def test_the_client_reconnects_by_itself_and_shows_it() -> None:
    session = ClientSession("Ana")
    ui = ClientUi(Translator("en"), session, address="memory")
    table = Table("Flaky table", Rules(), seed=4)
    streams: list[trio.abc.Stream] = []
    servers: list[TableServer] = []
    statuses: list[Status] = []
    shown = ui.on_status

    def on_status(status: Status) -> None:
        statuses.append(status)
        shown(status)

    ui.on_status = on_status  # type: ignore[method-assign]

    async def connect() -> trio.abc.Stream:
        stream: trio.abc.Stream = servers[0].connect_local()
        streams.append(stream)
        return stream

    async def script(pipe: PipeInput, ui: ClientUi, client: TerminalClient) -> None:
        await wait_for(lambda: ui.model.status is Status.CONNECTED and session.is_host)
        pipe.send_text("b1b1b1")  # b asks which bot: 1, the heuristic one
        await wait_for(lambda: session.table is not None and len(session.table.players) == 4)
        pipe.send_text("s")
        await wait_for(lambda: session.observation is not None)
        token = session.token
        await streams[0].aclose()  # the network drops
        await wait_for(lambda: Status.RECONNECTING in statuses)
        assert "connection lost, reconnecting" in draw(ui)
        await wait_for(
            lambda: any(line.text == "Up to date with the table." for line in ui.model.log)
        )
        assert ui.model.status is Status.CONNECTED and len(streams) == 2
        assert session.token == token
        screen = draw(ui)
        assert "Reconnected." in screen and "● connected" in screen
        assert ui.model.screen is Screen.TABLE and session.observation is not None

    with create_pipe_input() as pipe:
        client = TerminalClient(ui, input=pipe, output=DummyOutput())

        async def main() -> None:
            async with trio.open_nursery() as nursery:
                server = TableServer(table, run_bot=run_bot, between_hands=0.05)
                await nursery.start(server.run)
                servers.append(server)
                nursery.start_soon(client.play, session, connect)
                await script(pipe, ui, client)
                nursery.cancel_scope.cancel()

        run_with_trio(client, main)
    assert statuses.index(Status.RECONNECTING) < len(statuses) - 1
    assert statuses[-1] is Status.CLOSED or statuses[-1] is Status.CONNECTED


def fake_host(reply: dict[str, object]) -> Callable[[], Awaitable[trio.abc.Stream]]:
    """A host that answers any hello with ``reply`` and hangs up."""

    async def connect() -> trio.abc.Stream:
        client_end, host_end = trio.testing.memory_stream_pair()

        async def answer() -> None:
            await host_end.receive_some(65536)
            await host_end.send_all(encode(reply))
            await host_end.aclose()

        trio.lowlevel.spawn_system_task(answer)
        return client_end

    return connect


def test_version_mismatch_screen_names_both_versions() -> None:
    ui = ClientUi(Translator("es"), ClientSession("Ana"), address="10.1.1.1:7341")
    refusal = {
        "type": "error",
        "code": "version_mismatch",
        "message": "this host speaks protocol version 3",
        "fatal": True,
        "host_version": 3,
        "client_version": 1,
    }

    async def script(pipe: PipeInput, ui: ClientUi, client: TerminalClient) -> None:
        await wait_for(lambda: ui.model.screen is Screen.PROBLEM)
        screen = draw(ui)
        assert "versión 3" in screen and "versión 1" in screen
        assert "Traceback" not in screen

    run_client(ui, script, connect=fake_host(refusal))


def test_unreachable_host_screen() -> None:
    ui = ClientUi(Translator("en"), ClientSession("Ana"), address="127.0.0.1:9")

    async def refused() -> trio.abc.Stream:
        raise ConnectionRefusedError("connection refused")

    async def script(pipe: PipeInput, ui: ClientUi, client: TerminalClient) -> None:
        await wait_for(lambda: ui.model.screen is Screen.PROBLEM)
        screen = draw(ui)
        # A failure of no known kind: the system's words, as details.
        assert "Could not reach the host at 127.0.0.1:9. (Details for a bug" in screen
        assert "connection refused)" in " ".join(screen.split())  # however wrapped
        assert "firewall" in screen

    run_client(ui, script, connect=refused)


def test_the_discovery_list_finds_a_table_and_joins_it(loopback: list[str]) -> None:
    from dalmuti_net.host.announce import announce_table

    ui = ClientUi(Translator("en"), name="Ana")
    joined: list[Join] = []
    with create_pipe_input() as pipe:
        client = TerminalClient(ui, input=pipe, output=DummyOutput())

        async def main() -> None:
            info = TableInfo("Loopback table UI test", seats_taken=2)
            async with (
                announce_table(info, 4111, interfaces=loopback),
                trio.open_nursery() as nursery,
            ):

                async def pick() -> None:
                    await wait_for(lambda: any(t.name == info.name for t in ui.model.listings))
                    assert "Loopback table UI test" in draw(ui)
                    while ui.model.listings[ui.discovery_index].name != info.name:
                        pipe.send_text(KEYS["down"])
                        await trio.sleep(0.05)
                    pipe.send_text(KEYS["enter"])
                    await wait_for(lambda: ui.editor is not None)
                    pipe.send_text(KEYS["backspace"] * 3 + "Bea" + KEYS["enter"])

                nursery.start_soon(pick)
                joined.append(await client.find_table(loopback))

        run_with_trio(client, main)
    assert joined == [Join("127.0.0.1", 4111, "Bea", None)]


def test_warnings_go_to_the_log_not_over_the_screen(caplog: pytest.LogCaptureFixture) -> None:
    ui = ClientUi(Translator("en"), ClientSession("Ana"), address="127.0.0.1:9")

    async def refused() -> trio.abc.Stream:
        raise ConnectionRefusedError("connection refused")

    async def script(pipe: PipeInput, ui: ClientUi, client: TerminalClient) -> None:
        logging.getLogger("dalmuti_net.client.discovery").warning("a garbled listing")
        assert ui.model.log[-1].text == "a garbled listing"

    run_client(ui, script, connect=refused)
    assert "a garbled listing" not in caplog.text
    assert logging.getLogger("dalmuti_net").propagate


def test_a_warning_for_the_player_is_in_the_tables_language() -> None:
    from dalmuti_net.host.server import BOT_FAILED
    from dalmuti_net.told import Told

    ui = ClientUi(Translator("zh_Hant"), ClientSession("Ana"), address="127.0.0.1:9")

    async def refused() -> trio.abc.Stream:
        raise ConnectionRefusedError("connection refused")

    async def script(pipe: PipeInput, ui: ClientUi, client: TerminalClient) -> None:
        told = Told(BOT_FAILED, name="Random bot", error="RuntimeError: x")
        logging.getLogger("dalmuti_net.host.server").warning(told)
        assert ui.model.log[-1].text == (
            "Random bot 因為錯誤而停止了（RuntimeError: x）；寬限時間過後，由代打的機器人接手它的"
            "座位。請回報這個問題。"
        )  # the bot's one name, as every screen shows it

    run_client(ui, script, connect=refused)
