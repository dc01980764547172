"""Keys typed into the real application (``create_pipe_input``, drawn to ``DummyOutput``):
Ctrl-C in the chat field asks the same quit question as ``q``, and ``?`` on the table
list explains the list's own keys."""

from __future__ import annotations

import asyncio

import pytest
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from test_ui_quitting import footer, playing_table
from ui_support import draw

from dalmuti_net.client.ui.app import build_application
from dalmuti_net.client.ui.help import discover_help_text_lines, help_text_lines
from dalmuti_net.client.ui.state import ClientUi, Effect
from dalmuti_net.lang.i18n import LANGUAGES, Translator
from dalmuti_net.lang.text import width

CTRL_C = "\x03"
ESC = "\x1b"


def type_keys(ui: ClientUi, *chunks: str) -> list[Effect]:
    """Each chunk through a pipe into the application, one after the other (Esc alone
    needs its own chunk: prompt_toolkit waits a moment to tell it from a sequence)."""
    effects: list[Effect] = []
    with create_pipe_input() as pipe:
        app = build_application(ui, effects.extend, input=pipe, output=DummyOutput())

        async def main() -> None:
            async def send() -> None:
                for chunk in chunks:
                    pipe.send_text(chunk)
                    await asyncio.sleep(0.2)
                app.exit()

            task = asyncio.ensure_future(send())
            await app.run_async()
            await task

        asyncio.run(main())
    return effects


def test_ctrl_c_in_the_chat_field_asks_the_quit_question_as_q_does() -> None:
    table = playing_table()
    asked = playing_table()
    asked.press("q")
    question = draw(asked.ui).splitlines()
    assert type_keys(table.ui, "tabc", CTRL_C) == []
    screen = draw(table.ui)
    assert "── Quit? ──" in screen
    assert "Quit this program: your seat stays yours" in screen
    assert "Leave the table: give up your seat" in screen
    assert "Say: abc" not in screen  # the question, not the field, above the footer
    assert screen.splitlines()[-5:] == question[-5:]
    assert "quit this program" in footer(screen) and "leave the table" in footer(screen)
    # Esc: back to the chat field as it was left, to finish the line.
    assert type_keys(table.ui, ESC) == []
    assert table.ui.model.question is None
    assert draw(table.ui).splitlines()[-2].startswith("Say: abc")


def test_ctrl_c_twice_in_the_chat_field_quits_keeping_the_seat() -> None:
    table = playing_table()
    effects = type_keys(table.ui, "tabc", CTRL_C, CTRL_C)
    assert [type(e).__name__ for e in effects] == ["Quit"]
    assert not any(m["type"] == "chat" for m in table.sent)


def test_ctrl_c_in_the_host_players_chat_field_shows_the_end_question() -> None:
    table = playing_table()
    table.ui.model.local_host = True
    type_keys(table.ui, "tabc", CTRL_C)
    screen = draw(table.ui)
    assert "quitting ends it for everyone" in screen and "Say: abc" not in screen
    assert "end the table and quit" in footer(screen)


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_question_mark_on_the_table_list_shows_the_lists_keys(language: str) -> None:
    t = Translator(language)
    ui = ClientUi(t, name="Ana")
    type_keys(ui, "?")
    screen = draw(ui)
    wanted = [
        "".join(text for _, text in line).rstrip() for line in discover_help_text_lines(t, 80)
    ]
    for line in wanted:
        assert line in screen
    game = "".join(text for _, text in help_text_lines(t, 80)[1])  # the table's keys
    assert game not in screen
    assert t._("close") in footer(screen, 1)
    for line in screen.splitlines():
        assert width(line) <= 80
    type_keys(ui, "?")
    assert ui.overlay is None and t._("Tables on this network") in draw(ui)
    type_keys(ui, "?")
    type_keys(ui, ESC)
    assert ui.overlay is None and t._("Tables on this network") in draw(ui)
