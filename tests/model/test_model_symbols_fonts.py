"""The role symbols and the seat marks' symbols are drawn without an emoji font (issue
40, finding 8): 👑🎩💰🌾👒 and ⏱ were empty boxes on a system with only the fonts
Debian's chromium brings (DejaVu, Liberation). Each must be one terminal cell wide and
have a glyph in a font fontconfig lists that is not an emoji font."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from dalmuti_net.client.model.countdowns import Countdowns
from dalmuti_net.client.model.seat_marks import countdown_marks
from dalmuti_net.client.model.views import TimersView
from dalmuti_net.lang.i18n import LANGUAGES, Translator
from dalmuti_net.lang.text import width
from dalmuti_net.lang.words import ROLE_SYMBOLS


def symbols() -> set[str]:
    """Every character of a role symbol or a countdown mark that is neither a letter, a
    digit, punctuation nor a space (in every language)."""
    found = set("".join(ROLE_SYMBOLS.values()))
    countdowns = Countdowns()
    countdowns.update(TimersView(grace=((1, 42_000),), turn=((1, 8_000),)))
    for language in LANGUAGES:
        for mark in countdown_marks(Translator(language), countdowns, 1):
            found |= {c for c in mark.text if not (c.isalnum() or c.isspace() or c in "()")}
    return found


def test_every_symbol_is_one_cell_wide() -> None:
    assert {symbol: width(symbol) for symbol in symbols()} == dict.fromkeys(symbols(), 1)


@pytest.mark.skipif(shutil.which("fc-list") is None, reason="no fontconfig here")
def test_every_symbol_has_a_glyph_in_a_font_that_is_not_an_emoji_font() -> None:
    for symbol in sorted(symbols()):
        listed = subprocess.run(
            ["fc-list", f":charset={ord(symbol):x}", "family"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.splitlines()
        fonts = [family for family in listed if family and "emoji" not in family.lower()]
        assert fonts, f"{symbol} (U+{ord(symbol):04X}) needs an emoji font"
