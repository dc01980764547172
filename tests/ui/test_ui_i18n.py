"""Languages: every string translated, catalogs compiled, names as RULES.md gives them."""

from __future__ import annotations

import gettext
import re
from types import ModuleType

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from dalmuti_net.engine import JESTER, Role
from dalmuti_net.lang.i18n import (
    DOMAIN,
    LANGUAGES,
    LOCALE_DIR,
    Translator,
    language_from_environment,
    normalize_language,
    translator_for,
)
from dalmuti_net.lang.text import fit, truncate, width, wrap

TRANSLATED = [language for language in LANGUAGES if language != "en"]


def compiled(language: str) -> list[tuple[str, str]]:
    """(English, translation) for every string of the language's .mo, as the program reads
    it (plural forms each on their own; the header left out)."""
    path = LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.mo"
    with path.open("rb") as handle:
        catalog: dict[str | tuple[str, int], str] = gettext.GNUTranslations(handle)._catalog  # type: ignore[attr-defined]
    return [(k if isinstance(k, str) else k[0], v) for k, v in catalog.items() if k != ""]


def babel_catalogs() -> ModuleType:
    """tools.catalogs, which needs Babel (in the test extra, so these tests always run)."""
    from tools import catalogs

    return catalogs


# RULES.md rule 1 (cards) and rule 5 (roles), en / zh-Hant / es.
CARDS = {
    "en": "Dalmuti Archbishop|Earl Marshal|Baroness|Abbess|Knight|Seamstress|Mason|Cook|"
    "Shepherdess|Stonecutter|Peasant|Jester",
    "zh_Hant": "達爾穆蒂 大主教|伯爵元帥|男爵夫人|女修道院院長|騎士|女裁縫|"
    "泥瓦匠|廚師|牧羊女|石匠|農民|小丑",
    "es": "Dalmuti Arzobispo|Conde Mariscal|Baronesa|Abadesa|Caballero|Costurera|Albañil|"
    "Cocinero|Pastora|Cantero|Campesino|Bufón",
}
ROLES = {
    "en": ["Greater Dalmuti", "Lesser Dalmuti", "Merchant", "Lesser Peon", "Greater Peon"],
    "zh_Hant": ["偉大的達爾穆蒂", "次要達爾穆蒂", "商人", "次要農民", "偉大的農民"],
    "es": ["Gran Dalmuti", "Pequeño Dalmuti", "Mercader", "Pequeño Peón", "Gran Peón"],
}
ROLE_ORDER = [
    Role.GREATER_DALMUTI,
    Role.LESSER_DALMUTI,
    Role.MERCHANT,
    Role.LESSER_PEON,
    Role.GREATER_PEON,
]


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_card_and_role_names_follow_the_rules(language: str) -> None:
    t = Translator(language)
    first, rest = CARDS[language].split(" ", 1)
    assert [t.card(card) for card in range(1, JESTER + 1)] == [first, *rest.split("|")]
    assert [t.role(role) for role in ROLE_ORDER] == ROLES[language]


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_string_is_translated_with_its_placeholders(language: str) -> None:
    catalogs = babel_catalogs()
    catalog = catalogs.read_catalog(language)
    assert catalogs.problems(language, catalogs.extract(), catalog) == []


def test_chinese_says_one_word_for_each_thing() -> None:
    """主持人 for the host (the program and its player alike), not also 主持者 or 主機 (but
    主機名稱, a host name); 連接埠 for a port, not also 埠 alone; 聯賽檔案 for a league
    file, not also 聯賽檔; 牌局紀錄檔 for a history file (join --record's), not 歷史檔 nor
    紀錄檔 alone, which is the log file."""
    for msgid, text in compiled("zh_Hant"):
        assert "主持者" not in text, msgid
        assert "主機" not in text.replace("主機名稱", ""), msgid
        assert "埠" not in text.replace("連接埠", ""), msgid
        assert "聯賽檔" not in text.replace("聯賽檔案", ""), msgid
        assert "歷史檔" not in text, msgid
        if "紀錄檔" in text.replace("牌局紀錄檔", ""):
            assert "log" in msgid, msgid


CJK = "[\u2e80-\u9fff\uf900-\ufaff]"
FULL_WIDTH = "，。；：！？（）「」『』、…—"


def test_chinese_follows_taiwanese_typography() -> None:
    """No space between two Chinese characters or beside full-width punctuation, no ASCII
    punctuation against a Chinese character, the dash written ——."""
    wrong = re.compile(
        f"{CJK} +{CJK}|[{FULL_WIDTH}] | [{FULL_WIDTH}]|{CJK}[,;:!?]|[,;:!?]{CJK}|(?<!—)—(?!—)"
    )
    found = [text for _, text in compiled("zh_Hant") if wrong.search(text)]
    assert found == []


@pytest.mark.parametrize("language", TRANSLATED)
def test_compiled_catalog_matches_its_source(language: str) -> None:
    """The .mo holds every translation of the .po, and nothing else, as gettext reads it
    (compared by content: a newer Babel may write the header another way)."""
    catalogs = babel_catalogs()
    source = catalogs.read_catalog(language)
    wanted = catalogs.expected(source)
    assert len(wanted) > 800
    assert catalogs.compiled(catalogs.mo_path(language)) == wanted
    assert catalogs.stale(language, catalogs.updated(language, catalogs.extract())) == []


def test_plural_forms() -> None:
    es = Translator("es")
    assert es.n_("{n} Jester", "{n} Jesters", 1).format(n=1) == "1 Bufón"
    assert es.n_("{n} Jester", "{n} Jesters", 2).format(n=2) == "2 Bufones"
    assert Translator("zh_Hant").n_("{n} Jester", "{n} Jesters", 2).format(n=2) == "2 張小丑"
    assert [Translator("en").ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21)] == [
        "1st",
        "2nd",
        "3rd",
        "4th",
        "11th",
        "12th",
        "13th",
        "21st",
    ]


def test_the_empty_string_is_not_the_catalog_header() -> None:
    assert Translator("es")._("") == ""


def test_language_choice() -> None:
    assert normalize_language("zh-Hant") == "zh_Hant"
    assert normalize_language("zh_TW.UTF-8") == "zh_Hant"
    assert normalize_language("es_MX") == "es"
    assert normalize_language("fr_FR") is None
    assert language_from_environment({"LANG": "es_ES.UTF-8"}) == "es"
    assert language_from_environment({"LANGUAGE": "fr:zh_TW", "LANG": "es_ES"}) == "zh_Hant"
    assert language_from_environment({"LC_ALL": "C", "LANG": "es_ES"}) == "es"
    assert language_from_environment({}) == "en"
    assert translator_for("es").language == "es"
    assert translator_for(None, {"LANG": "zh_HK.UTF-8"}).language == "zh_Hant"
    with pytest.raises(ValueError, match="unknown language"):
        translator_for("klingon")


def test_wide_characters_are_measured_in_cells() -> None:
    assert width("女修道院院長") == 12
    assert width("👑 Ana") == 6
    assert fit("偉大的達爾穆蒂", 10) == "偉大的達… "
    assert fit("Ana", 5, "right") == "  Ana"
    assert truncate("Greater Dalmuti", 8) == "Greater…"
    assert wrap("你的手牌有很多張", 6) == ["你的手", "牌有很", "多張"]


@example(" 々", 2)  # a space, then a wide character that no longer fits beside it
@given(
    st.text(st.characters(codec="utf-8", categories=("L", "N", "Zs")), max_size=40),
    st.integers(1, 30),
)
def test_fit_is_always_exactly_the_width(text: str, cells: int) -> None:
    assert width(fit(text, cells)) == cells
    for line in wrap(text, cells):
        assert width(line) <= max(cells, 2)  # one wide character always fits a line


@given(st.integers(10, 40))
def test_chinese_punctuation_never_starts_a_line(cells: int) -> None:
    text = "下一手座位：Ana（你）、隨機機器人（2）、隨機機器人、隨機機器人（3）。好。"
    for line in wrap(text, cells)[1:]:
        assert line[:1] not in "。，、；：！？）」"
    for line in wrap(text, cells):
        assert line[-1:] not in "（「"
    assert "".join(wrap(text, cells)) == text
