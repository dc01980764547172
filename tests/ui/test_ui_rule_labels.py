"""The host player's rule options (`o` in the lobby): every label whole, in every language,
its value in one column after the longest label; a label longer than a narrow screen has
room for is wrapped, never cut."""

from __future__ import annotations

import pytest
from ui_support import LocalTable, draw

from dalmuti_net.client.model.rules_menu import RULE_FIELDS, menu_values, rule_value_text
from dalmuti_net.client.model.views import TableView
from dalmuti_net.client.ui.state import Overlay
from dalmuti_net.engine import Rules
from dalmuti_net.lang.i18n import LANGUAGES, Translator
from dalmuti_net.lang.text import width

HEADING = "Rule options (the host player's)"
RULES = [
    Rules(),
    Rules(
        first_deal_revolution=True,
        stripped_decks=True,
        scoring=True,
        hand_limit=1000,
        philanthropic_scoring=True,
        merchant_exchange=True,
        misdeal_chance=1.0,
    ),
]


def table_of(language: str, rules: Rules, bots: int) -> TableView | None:
    """The table message the panel is drawn from (the clocks are the table's)."""
    return LocalTable(rules, language=language, bots=bots).ui.model.table


def rules_panel(language: str, rules: Rules, cols: int, bots: int) -> str:
    table = LocalTable(rules, language=language, bots=bots)
    table.press("o")
    assert table.ui.overlay is Overlay.RULES
    return draw(table.ui, cols, 24)


@pytest.mark.parametrize("bots", [3, 7])
@pytest.mark.parametrize("rules", RULES, ids=["basic", "all"])
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_rule_label_is_whole_at_80_columns(language: str, rules: Rules, bots: int) -> None:
    t = Translator(language)
    screen = rules_panel(language, rules, 80, bots)
    lines = screen.splitlines()
    starts = set()
    for option in RULE_FIELDS:
        label = t._(option.label)
        value = rule_value_text(
            t, option.key, menu_values(table_of(language, rules, bots))[option.key]
        )
        row = next((line for line in lines if line[2:].startswith(label)), None)
        assert row is not None, f"{label!r} is not whole on screen:\n{screen}"
        assert row.endswith(" " + value), row
        starts.add(width(row) - width(value))
    assert len(starts) == 1, f"the values are not in one column:\n{screen}"
    footer = t._("close")
    assert footer in lines[-1], "the panel pushed the keys off the screen"


def cut(line: str, cells: int) -> tuple[str, str]:
    """``line`` split at ``cells`` cells."""
    used = 0
    for index, char in enumerate(line):
        if used >= cells:
            return line[:index], line[index:]
        used += width(char)
    return line, ""


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_narrow_screen_wraps_a_long_label_whole(language: str) -> None:
    t = Translator(language)
    screen = rules_panel(language, Rules(), 50, 3)
    lines = screen.splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith(t._(HEADING)))
    off = t._("off")
    row = lines[first + 1]
    assert row.endswith(" " + off)
    value_at = width(row) - width(off)
    labels, values = [], []
    for line in lines[first + 1 :]:
        if not line.startswith(("  ", "▶ ")):
            break  # the panel is over
        label, value = cut(line, value_at)
        if value.strip():
            labels.append(label[2:].strip())
            values.append(value)
        elif labels:
            labels[-1] += " " + label.strip()  # a label's next line
    assert len(labels) == len(RULE_FIELDS)
    assert len(values) == len(RULE_FIELDS)
    for option, shown in zip(RULE_FIELDS, labels, strict=True):
        label = t._(option.label)
        assert shown in (label, label.replace(" ", "")) or shown.replace(" ", "") == label, (
            label,
            shown,
        )


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_panels_notice_is_said_once(language: str) -> None:
    t = Translator(language)
    table = LocalTable(language=language, bots=3)
    table.press("o", *["down"] * 4, "space")
    said = t._("Philanthropic scoring needs scoring: turn scoring on first.")
    assert draw(table.ui).count(said) == 1
