"""PgUp and PgDn on the log: its top is a full page of the earliest lines, PgUp stops
there and the first PgDn from there moves."""

from __future__ import annotations

import pytest
from ui_support import LocalTable, draw

from dalmuti_net.lang.i18n import LANGUAGES, Translator
from dalmuti_net.lang.text import wrap

LOG_TITLE = {80: "Log and chat", 120: "Log"}


def log_rows(screen: str, title: str, footer_rows: int = 2) -> list[str]:
    lines = screen.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith(f"── {title} "))
    return lines[at + 1 : len(lines) - footer_rows]


def earliest_lines(table: LocalTable, cols: int, rows: int) -> list[str]:
    """The first ``rows`` lines of the log, wrapped to ``cols`` (no chat in these tests)."""
    wrapped: list[str] = []
    for entry in table.ui.model.log:
        wrapped += wrap(entry.text, cols)
    return wrapped[:rows]


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize(("cols", "rows"), [(80, 24), (120, 40)])
def test_the_top_of_the_log_is_a_full_page_of_its_earliest_lines(
    language: str, cols: int, rows: int
) -> None:
    table = LocalTable(seed=5, language=language)
    table.start()  # the lobby's joins, the seating draw, the deal, the taxes
    t = Translator(language)
    for n in range(30):  # and more, some over two lines
        table.ui.model.add_log(
            "info", t._("{name} joins the table.").format(name=f"P{n}" * (n % 7))
        )
    title = t._(LOG_TITLE[cols])
    newest = log_rows(draw(table.ui, cols, rows), title)
    page = len(newest)
    assert len(earliest_lines(table, 200, 999)) > page, "the log must be longer than a page"
    screens = []
    for _ in range(len(table.ui.model.log)):  # as the app does: a drawing after each key
        table.press("pageup")
        screens.append(draw(table.ui, cols, rows))
    shown = [line.split(" │")[0].rstrip() for line in log_rows(screens[-1], title)]
    left_cols = cols - max(36, cols // 3) - 3 if cols >= 110 else cols
    assert shown == earliest_lines(table, left_cols, page)
    assert all(shown), "blank rows under the first lines"
    assert screens.index(screens[-1]) < len(screens) - 1, "PgUp never reached the top"
    top = table.ui.log_scroll
    table.press("pagedown")
    assert table.ui.log_scroll < top
    assert draw(table.ui, cols, rows) != screens[-1], "the first PgDn from the top did nothing"
    for _ in range(len(table.ui.model.log)):
        table.press("pagedown")
    assert table.ui.log_scroll == 0
    assert log_rows(draw(table.ui, cols, rows), title) == newest


def test_three_pgup_at_80x24_show_a_full_first_page() -> None:
    """The case as it was found: a log a little longer than its rows."""
    table = LocalTable(seed=5)
    table.start()
    draw(table.ui)
    for _ in range(3):
        table.press("pageup")
        screen = draw(table.ui)
    rows = log_rows(screen, "Log and chat")
    assert rows[0] == table.ui.model.log[0].text
    assert all(rows), "\n".join(rows)


@pytest.mark.parametrize("language", LANGUAGES)
def test_newer_lines_hidden_are_said_and_end_goes_back_to_them(language: str) -> None:
    table = LocalTable(seed=5, language=language)
    table.start()
    t = Translator(language)
    for n in range(30):
        table.ui.model.add_log("info", t._("{name} joins the table.").format(name=f"P{n}"))
    newest = draw(table.ui, 80, 24)
    hidden = t.n_(
        "{title} · {n} newer entry below, End shows it",
        "{title} · {n} newer entries below, End shows them",
        5,
    ).format(title=t._("Log and chat"), n=5)
    assert hidden not in newest
    table.press("pageup")
    assert hidden in draw(table.ui, 80, 24)
    table.press("end")
    assert table.ui.log_scroll == 0
    assert draw(table.ui, 80, 24) == newest
