"""Quitting is a modal question: it shows only its own keys, and the keys of the screen
behind it mean nothing while it is open; quitting the program keeps the seat, leaving the
table gives it up, and the host player's terminal ends the table for everyone."""

from __future__ import annotations

import pytest
from ui_support import LocalTable, draw

from dalmuti_net.client.runner import Status
from dalmuti_net.client.session import ClientSession
from dalmuti_net.client.ui.state import ClientUi, Quit, Send
from dalmuti_net.engine import RevolutionDecision
from dalmuti_net.lang.i18n import LANGUAGES, Translator
from dalmuti_net.protocol.messages import decision_message


def playing_table(language: str = "en") -> LocalTable:
    table = LocalTable(language=language, seed=5)
    table.press("s")
    return table


def owe_revolution(table: LocalTable) -> None:
    """A decision whose keys are y and n, behind the question."""
    message = decision_message(RevolutionDecision(greater=False), decision_id=1)
    table.session.receive(message)
    table.ui.on_message(message)
    assert "y declare" in draw(table.ui) or table.ui.t.language != "en"


def footer(screen: str, lines: int = 2) -> str:
    return "\n".join(line for line in screen.splitlines()[-lines:])


def test_q_then_y_during_a_revolution_decision_does_not_close_the_table() -> None:
    table = playing_table()
    owe_revolution(table)
    assert table.press("q") == []
    screen = draw(table.ui)
    assert "Quit this program: your seat stays yours" in screen
    assert "Leave the table: give up your seat" in screen
    # The footer shows the question's keys only: not the decision's y/n behind it.
    assert "declare" not in footer(screen) and "chat" not in footer(screen)
    assert "quit this program" in footer(screen) and "leave the table" in footer(screen)
    for key in ("y", "n", "enter", "t", "p", "?"):
        assert table.press(key) == []
        assert table.ui.model.question is not None
    assert not any(m["type"] in ("revolution", "leave") for m in table.sent)
    assert table.press("escape") == []
    assert table.ui.model.question is None
    assert table.ui.model.chooser is not None  # the decision is still owed, and answerable
    assert "y declare" in draw(table.ui)


def test_quit_keeps_the_seat_and_leave_gives_it_up() -> None:
    table = playing_table()
    table.press("q")
    assert table.ui.press("q") == [Quit()]
    table.ui.model.question = None
    table.press("q")
    assert table.ui.press("l") == [Send({"type": "leave"}), Quit()]
    table.press("q")
    assert table.ui.press("c-c") == [Quit()]  # Ctrl-C twice quits and keeps the seat


def test_quitting_in_the_lobby_gives_the_seat_up_at_once() -> None:
    """The host holds a lobby seat through a dropped link for the grace period: a quit
    on purpose says ``leave`` first, so the seat (and a host player's role) is free at
    once. Nothing is asked; with the link down only the quit is left."""
    lobby = LocalTable()
    assert lobby.ui.press("q") == [Send({"type": "leave"}), Quit()]
    assert lobby.ui.model.farewell == "You left the table."
    away = LocalTable()
    away.ui.on_status(Status.RECONNECTING)
    assert away.ui.press("q") == [Quit()]


def test_nothing_to_ask_when_watching() -> None:
    watching = LocalTable(spectator=True, bots=4, headless=True)
    watching.table.start()
    watching.pump()
    assert watching.ui.press("q") == [Quit()]


def test_the_host_players_terminal_ends_the_table_for_everyone() -> None:
    host = playing_table()
    host.ui.model.local_host = True
    assert host.press("q") == []
    screen = draw(host.ui)
    assert "quitting ends it for everyone" in screen
    assert "end the table and quit" in footer(screen)
    assert host.press("y") == [] and host.press("q") == []
    assert host.ui.press("e") == [Quit(end_table=True)]


@pytest.mark.parametrize("language", list(LANGUAGES))
@pytest.mark.parametrize("size", [(80, 24), (60, 20), (120, 40)])
def test_the_question_fits_in_every_language(language: str, size: tuple[int, int]) -> None:
    table = playing_table(language)
    owe_revolution(table)
    table.press("q")
    t = table.ui.t
    screen = draw(table.ui, *size)
    assert t._("quit this program") in screen
    assert t._("leave the table") in screen
    assert t._("back") in footer(screen)


def test_the_help_over_a_decision_takes_the_decisions_keys() -> None:
    table = playing_table()
    owe_revolution(table)
    assert table.press("?") == []
    screen = draw(table.ui)
    assert "declare" not in footer(screen)  # the help's footer shows the help's keys
    assert table.press("y") == [] and table.press("n") == [] and table.ui.overlay is not None
    assert not any(m["type"] == "revolution" for m in table.sent)
    assert table.press("q") == [] and table.ui.overlay is None  # q closes the help first
    assert table.ui.model.chooser is not None and "y declare" in draw(table.ui)
    assert table.press("q") == [] and table.ui.model.question is not None


def test_leaving_is_not_offered_while_the_connection_is_down() -> None:
    table = playing_table()
    table.ui.on_status(Status.RECONNECTING)
    table.press("q")
    screen = draw(table.ui)
    assert "Leaving the table needs the connection to the host" in " ".join(screen.split())
    assert "leave the table" not in footer(screen, 1)
    assert table.ui.press("l") == []  # no `leave` that could not be sent
    assert table.ui.press("q") == [Quit()]


def test_a_spectator_is_not_offered_the_lobby_keys() -> None:
    watching = LocalTable(spectator=True, bots=4, headless=True)
    screen = draw(watching.ui)
    assert "ready" not in footer(screen) and "q quit" in footer(screen)


def test_the_host_players_terminal_in_the_lobby_closes_the_table() -> None:
    host = LocalTable()
    host.ui.model.local_host = True
    host.press("q")
    screen = draw(host.ui)
    assert "closes it before it starts" in screen and "final standings" not in screen


def test_the_host_player_leaving_picks_who_takes_over() -> None:
    table = LocalTable(bots=1)  # Ana (the host player), a bot, and two people at the table
    for name in ("Bo", "Chen"):
        session = ClientSession(name)
        table.bots[table._connect(session)] = session  # answered at random, as people
    table.pump()
    table.press("s", "s")  # Bo and Chen are not ready: started anyway
    people = {s.name: s.player for s in table.session.table.players}  # type: ignore[union-attr]
    table.press("q")
    screen = " ".join(draw(table.ui).split())
    first = "Bo" if "Bo becomes the host player." in screen else "Chen"
    other = "Chen" if first == "Bo" else "Bo"
    assert f"{first} becomes the host player." in screen and "h another host player" in screen
    assert table.ui.press("h") == [] and table.ui.model.question is not None
    assert f"{other} becomes the host player." in " ".join(draw(table.ui).split())
    assert table.ui.press("l") == [Send({"type": "leave", "heir": people[other]}), Quit()]
    table.send({"type": "leave", "heir": people[other]})
    hosts = [seat.name for seat in table.table.seats.values() if seat.host]
    assert hosts == [other]


def test_everyone_is_told_who_took_over_as_host_player() -> None:
    table = LocalTable(bots=2, headless=True)
    bo = ClientSession("Bo")
    bo_connection = table._connect(bo)
    table.bots[bo_connection] = bo
    table.pump()
    assert table.session.is_host
    table.send({"type": "start"})
    bo_ui = ClientUi(Translator("es"), bo, address="test")  # Bo's screen, fed what Bo got
    bo_ui.on_message({"type": "table", "table": bo.table})
    table.send({"type": "leave"})
    bo_ui.on_message({"type": "table", "table": bo.table})
    assert any("Ahora eres el jugador anfitrión." in line.text for line in bo_ui.model.log)
