"""The player at the `dalmuti host` terminal may leave the table and keep hosting: another
connected person takes the host role (the next in seat order, or the one picked with h),
the screen closes, and the process serves on with console lines until Ctrl-C, which still
says goodbye to everyone. With nobody else connected, quitting ends the table as before."""

from __future__ import annotations

import os
import signal
import threading
import time

import pytest
import trio
from loopback_options import loopback_options
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from ui_support import LocalTable, draw

from dalmuti_net.bots import make_strategy
from dalmuti_net.client.bot import play
from dalmuti_net.client.session import ClientSession
from dalmuti_net.client.ui.state import Quit, Send
from dalmuti_net.commands.host import run_with_local_player
from dalmuti_net.commands.host_runtime import PreparedHost
from dalmuti_net.lang.i18n import LANGUAGES, Translator

STEP = 10.0


def host_with_people(language: str = "en", people: tuple[str, ...] = ("Bo",)) -> LocalTable:
    """Ana at the host's own terminal, a bot, and people connected from elsewhere."""
    table = LocalTable(language=language, bots=1)
    table.ui.model.local_host = True
    for name in people:
        session = ClientSession(name)
        table.bots[table._connect(session)] = session  # answered at random, as people
    table.pump()
    return table


def footer(screen: str) -> str:
    return "\n".join(screen.splitlines()[-2:])


def test_with_someone_connected_the_host_terminal_may_leave_and_keep_hosting() -> None:
    table = host_with_people(people=("Bo", "Chen"))
    table.press("s", "s")  # Bo and Chen are not ready: started anyway
    people = {s.name: s.player for s in table.session.table.players}  # type: ignore[union-attr]
    assert table.press("q") == []
    screen = " ".join(draw(table.ui).split())
    assert "quitting ends it for everyone" in screen
    assert "keeps the table running without you until Ctrl-C" in screen
    first = "Bo" if "Bo becomes the host player." in screen else "Chen"
    other = "Chen" if first == "Bo" else "Bo"
    assert "l leave the table, keep hosting" in footer(draw(table.ui))
    assert "h another host player" in footer(draw(table.ui))
    for key in ("y", "n", "p", "s", "enter"):  # keys of the screen behind mean nothing
        assert table.press(key) == [] and table.ui.model.question is not None
    assert table.ui.press("h") == [] and table.ui.model.question is not None
    assert f"{other} becomes the host player." in " ".join(draw(table.ui).split())
    effects = table.ui.press("l")
    assert effects == [Send({"type": "leave", "heir": people[other]}), Quit(keep_hosting=True)]
    table.send({"type": "leave", "heir": people[other]})
    assert [s.name for s in table.table.seats.values() if s.host] == [other]
    assert table.table.phase == "playing"  # the table goes on


def test_ctrl_c_twice_and_e_still_end_the_table() -> None:
    table = host_with_people()
    table.press("s", "s")
    table.press("q")
    assert table.ui.press("c-c") == [Quit(end_table=True)]  # never gives the seat away
    table.press("q")
    assert table.ui.press("e") == [Quit(end_table=True)]


def test_in_the_lobby_the_seat_is_given_up_without_a_hand_to_finish() -> None:
    table = host_with_people()
    table.press("q")
    screen = " ".join(draw(table.ui).split())
    assert "closes it before it starts" in screen
    assert "Leave the table: give up your seat. Bo becomes the host player." in screen
    assert "h another host player" not in footer(draw(table.ui))  # only Bo could take it
    assert table.ui.press("l")[-1] == Quit(keep_hosting=True)


def test_with_nobody_else_connected_quitting_ends_the_table() -> None:
    table = LocalTable(bots=3)
    table.ui.model.local_host = True
    table.press("s")
    table.press("q")
    assert "leave the table" not in footer(draw(table.ui))
    assert table.ui.press("l") == []
    assert table.ui.press("e") == [Quit(end_table=True)]


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_the_question_is_in_the_players_language_and_fits(language: str) -> None:
    table = host_with_people(language, ("Bo", "Chen"))
    table.press("s", "s")
    table.press("q")
    t = table.ui.t
    screen = draw(table.ui, 80, 24)  # every line exactly 80 columns, 24 lines
    joined = "".join(screen.split())
    for sentence in (
        "leave the table, keep hosting",
        "another host player",
        "This program keeps the table running without you until Ctrl-C.",
    ):
        assert "".join(t._(sentence).split()) in joined
    if language != "en":
        assert "keep hosting" not in screen


def test_the_host_terminal_leaves_and_the_table_plays_on_until_ctrl_c(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The real `dalmuti host` terminal (pipe input, DummyOutput): Bo joins over TCP on
    127.0.0.1, Ana starts, leaves with l, Bo becomes the host player and plays on; SIGINT
    then closes the table and Bo is told why."""
    options = loopback_options("Leaving table", bots=2, headless=False, bot_pace=0)
    host = PreparedHost.create(options)
    table = host.table
    bo: list[ClientSession] = []
    failures: list[BaseException] = []
    finished = threading.Event()

    def until(condition: object, what: str) -> None:
        end = time.monotonic() + STEP
        while not condition():  # type: ignore[operator]
            if time.monotonic() > end:
                raise AssertionError(f"never: {what}")
            time.sleep(0.02)

    def bo_plays() -> None:
        async def connect() -> trio.abc.Stream:
            assert host.port is not None
            return await trio.open_tcp_stream("127.0.0.1", host.port)

        bo.append(trio.run(play, connect, make_strategy("heuristic", 1), "Bo"))

    def seated(name: str) -> bool:
        return any(s.name == name and s.connection is not None for s in table.seats.values())

    with create_pipe_input() as pipe:

        def script() -> None:
            try:
                until(lambda: host.port is not None, "the host listens")
                player = threading.Thread(target=bo_plays, daemon=True)
                player.start()
                until(lambda: seated("Bo"), "Bo is seated")
                end = time.monotonic() + STEP
                while table.phase != "playing":  # Bo is not ready: s asks, s again starts
                    assert time.monotonic() < end, "the hand never starts"
                    pipe.send_text("s")  # (once the screen has Bo at the table)
                    time.sleep(0.4)
                pipe.send_text("q")
                time.sleep(0.3)
                pipe.send_text("l")
                until(lambda: not host.table_on_screen, "the screen closes, the host serves on")
                bo_seat = next(s for s in table.seats.values() if s.name == "Bo")
                assert bo_seat.host
                ana = next(s for s in table.seats.values() if s.name == "Ana")
                assert ana.gone and not ana.host
                assert table.game is not None
                asked = sum(table.decisions_asked.values())
                until(
                    lambda: sum(table.decisions_asked.values()) > asked + 3,
                    "Bo and the bots play on",
                )
                os.kill(os.getpid(), signal.SIGINT)
                player.join(STEP)
            except BaseException as error:  # reported below
                failures.append(error)
                if not finished.is_set():  # SIGTERM quits the screen or the serving host
                    os.kill(os.getpid(), signal.SIGTERM)

        runner = threading.Thread(target=script, daemon=True)
        runner.start()
        try:
            status = run_with_local_player(host, Translator("en"), input=pipe, output=DummyOutput())
        finally:
            finished.set()
        runner.join(STEP)
    if failures:
        raise failures[0]
    assert status == 0
    out = capsys.readouterr().out.splitlines()
    assert "You left the table; Bo is the host player now." in out
    assert "This program keeps the table running; Ctrl-C closes it for everyone." in out
    assert "Closing the table (SIGINT)." in out
    assert bo and bo[0].goodbye_code == "shutting_down"


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_the_cannot_save_notice_goes_once_the_host_delivers_again(language: str) -> None:
    """`cannot_save` holds everything but heartbeats: what comes next means it saves."""
    table = LocalTable(language=language)
    table.press("s")
    t = table.ui.t
    stalled = {"type": "error", "code": "cannot_save", "message": "disk full", "fatal": False}
    table.session.receive(stalled)
    table.ui.on_message(stalled)
    assert table.ui.model.notice is not None
    assert "".join(table.ui.model.notice.text.split()) in "".join(draw(table.ui).split())
    table.ui.on_message({"type": "heartbeat"})
    assert table.ui.model.notice is not None  # a heartbeat says nothing about the save
    table.send({"type": "chat", "text": "hi"})  # anything delivered: saved again
    assert table.ui.model.notice is None
    again = t._("The host saves the table again; play goes on.")
    assert language == "en" or again != "The host saves the table again; play goes on."
    assert any(line.text == again for line in table.ui.model.log)
    assert sum(line.text == again for line in table.ui.model.log) == 1
