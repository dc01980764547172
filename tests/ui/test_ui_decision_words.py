"""Each decision screen in every language at 80x24: every catalog sentence translated (no
English sentence left on a Chinese or Spanish screen) and no line cut short with an
ellipsis, over tables that reach every kind of decision."""

from __future__ import annotations

import gettext
import re

import pytest
from test_ui_screens import answer
from ui_support import LocalTable, draw

from dalmuti_net.engine import Rules
from dalmuti_net.lang.i18n import DOMAIN, LANGUAGES, LOCALE_DIR

PLACEHOLDER = re.compile(r"\{[^}]*\}")


def catalog_sentences() -> set[str]:
    """Every English sentence the catalogs translate, read from the compiled catalogs as the
    program reads them (the source's strings: tests/ui/test_ui_i18n.py checks that each is
    translated)."""
    found: set[str] = set()
    for language in LANGUAGES:
        if language == "en":
            continue
        with (LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.mo").open("rb") as handle:
            for key in gettext.GNUTranslations(handle)._catalog:  # type: ignore[attr-defined]
                msgid = key if isinstance(key, str) else key[0]
                if msgid:
                    found.add(msgid)
    return found


def english_fragments() -> list[str]:
    """Pieces of catalog sentences long enough to be recognised as untranslated English:
    the text between placeholders, at least three words."""
    fragments: set[str] = set()
    for msgid in catalog_sentences():
        for piece in PLACEHOLDER.split(msgid):
            piece = piece.strip(" .,;:()")
            if len(piece.split()) >= 3 and re.search("[a-z]{3}", piece):
                fragments.add(piece)
    return sorted(fragments)


@pytest.mark.parametrize("language", [lang for lang in LANGUAGES if lang != "en"])
def test_every_decision_screen_is_in_the_players_language(language: str) -> None:
    fragments = english_fragments()
    assert len(fragments) > 100
    kinds: set[str] = set()
    for seed in range(2):
        table = LocalTable(Rules.all_optional(misdeal_chance=0.5), seed=seed, bots=5,
                           language=language)  # fmt: skip
        table.press("s")
        for _ in range(300):
            observation = table.session.observation
            assert observation is not None
            if observation.ended is not None or (
                observation.hand_number >= 3 and observation.phase == "hand_over"
            ):
                break  # fmt: skip
            if observation.phase == "hand_over":
                table.press("enter")  # from the results screen back to the table
                table.next_hand()
                continue
            chooser = table.ui.model.chooser
            assert chooser is not None
            kinds.add(type(chooser).__name__)
            screen = draw(table.ui, 80, 24)
            english = [f for f in fragments if f in screen]
            assert not english, f"untranslated on the {type(chooser).__name__} screen:\n{screen}"
            for line in screen.splitlines():
                assert not line.endswith("…"), f"a line cut short:\n{screen}"
            answer(table)
    assert {"PlayChooser", "TaxChooser", "ExchangeChooser"} <= kinds


def test_the_fragments_catch_an_english_sentence() -> None:
    fragments = english_fragments()
    assert any(f in "Nothing of yours beats Cook ×2: pass." for f in fragments)
