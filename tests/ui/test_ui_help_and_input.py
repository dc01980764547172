"""Help scrolls with its own footer, the chat field scrolls sideways, and your turn rings
the bell and sets the window title unless turned off (points 5 of the table screen)."""

from __future__ import annotations

import pytest
from prompt_toolkit.output import DummyOutput
from ui_support import LocalTable, draw

from dalmuti_net.client.model.choosers import PlayChooser
from dalmuti_net.client.ui.alerts import TurnAlerts
from dalmuti_net.client.ui.help import help_text_lines
from dalmuti_net.client.ui.runtime import TerminalClient
from dalmuti_net.lang.i18n import LANGUAGES, Translator
from dalmuti_net.protocol.catalogue import MAX_CHAT_CHARS


def text_of(line: list[tuple[str, str]]) -> str:
    return "".join(text for _, text in line).rstrip()


@pytest.mark.parametrize("language", list(LANGUAGES))
@pytest.mark.parametrize(("cols", "rows"), [(80, 24), (60, 20), (120, 40)])
def test_help_scrolls_to_every_line_with_its_own_footer(
    language: str, cols: int, rows: int
) -> None:
    table = LocalTable(language=language)
    table.ui.size = (cols, rows)
    t = table.ui.t
    table.press("?")
    wanted = [text_of(line) for line in help_text_lines(t, cols)]
    seen: set[str] = set()
    for _ in range(len(wanted) + 2):
        screen = draw(table.ui, cols, rows).splitlines()
        footer = screen[-1]
        assert t._("scroll") in footer and t._("close") in footer
        assert t._("ready") not in footer and t._("quit") not in footer  # not the game's keys
        seen.update(screen[1:-1])
        table.press("down")
    assert set(wanted) <= seen | {""}
    table.press("pageup", "pageup", "pageup", "pageup")
    assert table.ui.help_scroll == 0
    table.press("pagedown")
    assert table.ui.help_scroll > 0 or len(wanted) <= rows - 2
    table.press("escape")
    assert table.ui.overlay is None


def test_help_is_longer_than_80x24_so_scrolling_matters() -> None:
    for language in ("en", "es"):  # Chinese is denser: it fits
        assert len(help_text_lines(Translator(language), 80)) > 22


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_the_keys_help_names_end_as_the_log_title_does(language: str) -> None:
    """End goes back to the newest log line; the log's title says so when PgUp hid some,
    and the help's keys say so too, with the key as this language names it."""
    t = Translator(language)
    keys = text_of(help_text_lines(t, 1000)[1])  # the Keys section, on one line
    end_key = {"en": "End", "es": "Fin", "zh_Hant": "End"}[language]
    title = t.n_(
        "{title} · {n} newer entry below, End shows it",
        "{title} · {n} newer entries below, End shows them",
        2,
    )
    assert end_key in title
    assert f"{end_key} " in keys


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_the_chat_field_scrolls_sideways_up_to_the_limit(language: str) -> None:
    table = LocalTable(language=language)
    typed = "".join(f"{n % 10}" for n in range(MAX_CHAT_CHARS + 20))
    table.press("t", *typed)
    for cols in (80, 60, 120):
        field = draw(table.ui, cols).splitlines()[-2]
        assert field.endswith(typed[MAX_CHAT_CHARS - 5 : MAX_CHAT_CHARS])  # the end typed
        assert "…" in field
    table.press("enter")
    assert table.sent[-1] == {"type": "chat", "text": typed[:MAX_CHAT_CHARS]}


def test_a_short_chat_line_is_shown_whole() -> None:
    table = LocalTable()
    table.press("t", *"hello")
    assert draw(table.ui).splitlines()[-2].startswith("Say: hello")


class RecordingOutput(DummyOutput):
    def __init__(self) -> None:
        self.bells = 0
        self.titles: list[str] = []

    def bell(self) -> None:
        self.bells += 1

    def set_title(self, title: str) -> None:
        self.titles.append(title)


def test_turn_alerts_ring_once_per_turn_and_set_the_title() -> None:
    alerts = TurnAlerts(Translator("es"))
    assert alerts.update(False, "Mesa") is not None  # the title names the table
    began = alerts.update(True, "Mesa")
    assert began is not None and began.bell and began.title == "Tu turno — Mesa"
    assert alerts.update(True, "Mesa") is None  # still my turn: nothing again
    ended = alerts.update(False, "Mesa")
    assert ended is not None and not ended.bell and ended.title == "Mesa"
    quiet = TurnAlerts(Translator("en"), bell=False, title=False)
    assert quiet.update(True, "T") is None


@pytest.mark.parametrize(("bell", "title"), [(True, True), (False, True), (False, False)])
def test_the_terminal_is_told_on_my_turn_unless_turned_off(bell: bool, title: bool) -> None:
    table = LocalTable(language="zh_Hant")
    output = RecordingOutput()
    client = TerminalClient(table.ui, output=output)
    client.alerts.bell, client.alerts.title = bell, title
    client.app._is_running = True  # as while the application runs
    try:
        table.press("s")
        rings = 0
        while not isinstance(table.ui.model.chooser, PlayChooser):
            assert table.ui.model.chooser is not None
            client.refresh()
            rings += 1  # a tax or a revolution is a turn of mine too
            table.press("up", "right", "up", "enter", "n")
        client.refresh()
        assert output.bells == (rings + 1 if bell else 0)
        assert (output.titles[-1:] == ["輪到你了——Test table"]) == title
        assert bool(output.titles) == title
    finally:
        client.app._is_running = False
