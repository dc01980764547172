"""Quitting is a modal question: it shows only its own keys, and the keys of the screen
behind it mean nothing while it is open; quitting the program keeps the seat, leaving the
table gives it up, and the host player's terminal ends the table for everyone."""

from __future__ import annotations

import pytest
from ui_support import LocalTable, draw

from dalmuti_net.client.ui.i18n import LANGUAGES
from dalmuti_net.client.ui.state import Quit, Send
from dalmuti_net.engine import RevolutionDecision
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
        assert table.ui.confirmation is not None
    assert not any(m["type"] in ("revolution", "leave") for m in table.sent)
    assert table.press("escape") == []
    assert table.ui.confirmation is None
    assert table.ui.chooser is not None  # the decision is still owed, and answerable
    assert "y declare" in draw(table.ui)


def test_quit_keeps_the_seat_and_leave_gives_it_up() -> None:
    table = playing_table()
    table.press("q")
    assert table.ui.press("q") == [Quit()]
    table.ui.confirmation = None
    table.press("q")
    assert table.ui.press("l") == [Send({"type": "leave"}), Quit()]
    table.press("q")
    assert table.ui.press("c-c") == [Quit()]  # Ctrl-C twice quits and keeps the seat


def test_nothing_to_ask_in_the_lobby_or_when_watching() -> None:
    lobby = LocalTable()
    assert lobby.ui.press("q") == [Quit()]
    watching = LocalTable(spectator=True, bots=4, headless=True)
    watching.table.start()
    watching.pump()
    assert watching.ui.press("q") == [Quit()]


def test_the_host_players_terminal_ends_the_table_for_everyone() -> None:
    host = LocalTable()
    host.ui.local_host = True
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
