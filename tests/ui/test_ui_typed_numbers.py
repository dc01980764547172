"""Number fields typed by a person, in every front end: one parser (``lang.numbers``) that
reads the digits ``int`` reads and refuses the rest in one sentence (``²`` is a digit to
``isdigit`` and not to ``int``: it once filled the host player's screen with a traceback).
And a key whose handling fails anyway is one line in the log, not a traceback (issue 38)."""

from __future__ import annotations

import pytest
from test_ui_piped_keys import type_keys
from ui_support import LocalTable, draw

from dalmuti_net.client.ui.lobby import RULE_FIELDS, TYPED_FIELDS
from dalmuti_net.client.ui.state import ClientUi
from dalmuti_net.lang.i18n import Translator
from dalmuti_net.lang.numbers import NumberRefused, decimal, whole_number


def test_one_parser_reads_decimal_digits_and_refuses_the_rest() -> None:
    assert decimal("20") == 20 and decimal(" 7 ") == 7
    assert decimal("３") == 3 and decimal("٣") == 3  # full-width, Arabic-Indic
    for text in ("²", "¼", "-1", "+1", "1.5", "1e3", "", " ", "0x10", "9" * 10, "①"):
        assert decimal(text) is None, text
    assert whole_number("5", 1, 9) == 5
    with pytest.raises(NumberRefused) as refused:
        whole_number("²", 1, 9)
    assert str(refused.value) == "Type a whole number from 1 to 9."
    es = refused.value.told(Translator("es")._)
    assert es != str(refused.value) and "1" in es and "9" in es


@pytest.mark.parametrize("field", sorted(TYPED_FIELDS))
@pytest.mark.parametrize("typed", ["²", "¹", "①", "½"])
def test_the_host_players_rules_panel_refuses_a_superscript_in_one_sentence(
    field: str, typed: str
) -> None:
    local = LocalTable()
    index = [option.key for option in RULE_FIELDS].index(field)
    local.press("o", *["down"] * index)
    sent = len(local.sent)
    local.press(typed)  # no digit to int: opens no field
    assert local.ui.editor is None
    local.press("enter", typed, "enter")
    assert "Type a whole number from" in draw(local.ui)
    assert len(local.sent) == sent


def test_digits_of_other_scripts_are_read() -> None:
    local = LocalTable()
    local.press("o", *["down"] * 3)  # Hands to play
    local.press("３", "٣", "enter")
    assert local.sent[-1] == {"type": "set_rules", "rules": {"hand_limit": 33}}


def test_a_key_that_fails_is_one_line_in_the_log_not_a_traceback(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    local = LocalTable()
    press = ClientUi.press

    def buggy(self: ClientUi, key: str) -> list[object]:
        if key == "x":
            raise ValueError("a bug with \x1b[2J in it")
        return press(self, key)  # type: ignore[return-value]

    monkeypatch.setattr(ClientUi, "press", buggy)
    effects = type_keys(local.ui, "x", "t", "hi")  # on after it: the chat field opens
    assert effects == []
    assert local.ui.editor is not None and local.ui.editor.text == "hi"
    [line] = [r.getMessage() for r in caplog.records if "That key could not" in r.getMessage()]
    assert "ValueError: a bug with" in line and "\x1b" not in line
    assert "test_ui_typed_numbers.py" in line


def test_a_message_the_screen_fails_on_is_one_line_and_the_table_goes_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The host player's screen runs in the host: a message it cannot show must not end
    the program, and the table with it."""
    import trio
    from prompt_toolkit.input import PipeInput
    from test_ui_app import run_client, wait_for

    from dalmuti_net.client.session import ClientSession
    from dalmuti_net.client.ui.runtime import TerminalClient
    from dalmuti_net.client.ui.state import Screen
    from dalmuti_net.host.table import Table

    on_message = ClientUi.on_message

    def buggy(self: ClientUi, message: dict[str, object]) -> list[object]:
        if message.get("type") == "chat" and message.get("text") == "boom":
            raise LookupError("a bug showing a chat line")
        return on_message(self, message)  # type: ignore[arg-type, return-value]

    monkeypatch.setattr(ClientUi, "on_message", buggy)
    session = ClientSession("Ana")
    ui = ClientUi(Translator("en"), session, address="memory")

    def logged(text: str) -> bool:
        return any(text in line.text for line in ui.model.log)

    async def script(pipe: PipeInput, ui: ClientUi, client: TerminalClient) -> None:
        await wait_for(lambda: ui.model.screen is Screen.TABLE)
        pipe.send_text("tboom\r")
        await wait_for(lambda: logged("could not be shown because of an error"))
        pipe.send_text("tstill here\r")
        await wait_for(lambda: logged("still here"))
        await trio.sleep(0)

    run_client(ui, script, table=Table("Shown"))
