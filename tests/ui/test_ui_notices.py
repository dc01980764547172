"""A notice (why a key did nothing, what was wrong with an answer) is cleared as soon as it
no longer applies: on leaving the screen it was about, or with the next valid action."""

from __future__ import annotations

import pytest
import trio
from prompt_toolkit.input import PipeInput
from test_ui_app import KEYS, run_client, wait_for
from ui_support import LocalTable, draw

from dalmuti_net.client.runner import Status
from dalmuti_net.client.session import ClientSession
from dalmuti_net.client.ui.runtime import TerminalClient
from dalmuti_net.client.ui.state import ClientUi, Join, Overlay, Screen
from dalmuti_net.engine import Rules
from dalmuti_net.host.table import Table
from dalmuti_net.lang.i18n import LANGUAGES, Translator

EMPTY_NAME = "Your name cannot be empty."
NEEDS_SCORING = "Philanthropic scoring needs scoring: turn scoring on first."


def type_text(ui: ClientUi, text: str) -> None:
    for char in text:
        ui.press(char)


@pytest.mark.parametrize("language", LANGUAGES)
def test_an_empty_name_is_forgotten_once_a_name_is_given(language: str) -> None:
    t = Translator(language)
    said = t._(EMPTY_NAME)
    ui = ClientUi(t)
    ui.press("a")
    type_text(ui, "127.0.0.1:7400")
    ui.press("enter")
    assert ui.model.screen is Screen.FORM and ui.editor is not None
    ui.press("enter")  # no name
    assert said in draw(ui)
    type_text(ui, "Zed")
    assert ui.press("enter") == [Join("127.0.0.1", 7400, "Zed", None)]
    assert said not in draw(ui)
    # What `dalmuti join` does with that Join: connect, and the lobby comes.
    table = LocalTable(name="Zed", language=language)
    table.ui = ui
    ui.connecting(table.session, "127.0.0.1:7400")
    ui.on_status(Status.CONNECTED)
    table.send({"type": "snapshot_request"})
    screen = draw(ui)
    assert ui.model.screen is Screen.TABLE and t._("Lobby") in screen
    assert said not in screen and ui.model.notice is None


def test_a_wrong_answer_in_the_form_is_forgotten_with_the_next_right_one() -> None:
    ui = ClientUi(Translator("en"))
    ui.press("a")
    type_text(ui, "nope:x")
    ui.press("enter")
    assert ui.model.notice is not None and "port" in draw(ui)
    for _ in "nope:x":
        ui.press("backspace")
    type_text(ui, "127.0.0.1:7400")
    ui.press("enter")
    assert ui.model.screen is Screen.FORM and ui.model.notice is None and "port" not in draw(ui)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_rule_options_notice_goes_when_they_close(language: str) -> None:
    """Through the terminal application: `o`, Philanthropic scoring without scoring (the
    notice), Esc: the lobby does not keep it; nor does it survive the next valid key."""
    t = Translator(language)
    said = t._(NEEDS_SCORING)
    session = ClientSession("Ana")
    ui = ClientUi(t, session, address="memory")

    async def to_philanthropic(pipe: PipeInput) -> None:
        while ui.rules_editor.field.key != "philanthropic_scoring":
            at = ui.rules_editor.index
            pipe.send_text(KEYS["down"])
            await wait_for(lambda at=at: ui.rules_editor.index != at)

    async def script(pipe: PipeInput, ui: ClientUi, client: TerminalClient) -> None:
        await wait_for(lambda: ui.model.screen is Screen.TABLE and session.is_host)
        for close in ("\x1b", "o"):
            pipe.send_text("o")
            await wait_for(lambda: ui.overlay is Overlay.RULES)
            await to_philanthropic(pipe)
            pipe.send_text(" ")
            await wait_for(lambda: ui.model.notice is not None)
            assert said in draw(ui)
            pipe.send_text(close)
            await wait_for(lambda: ui.overlay is None)
            await trio.sleep(0.1)  # anything else the host sends meanwhile
            assert said not in draw(ui) and ui.model.notice is None
        # Inside the panel, the next valid key: the cursor moves on.
        pipe.send_text("o")
        await wait_for(lambda: ui.overlay is Overlay.RULES)
        pipe.send_text(" ")
        await wait_for(lambda: ui.model.notice is not None)
        pipe.send_text(KEYS["up"])
        await wait_for(lambda: ui.model.notice is None)
        assert said not in draw(ui)

    run_client(ui, script, table=Table("Notice table", Rules(), seed=3))
