"""Languages: English, traditional Chinese and Spanish, through stdlib gettext catalogs.

Every string the program shows (the tables, the commands, the web page) goes through a
``Translator``: ``t._(text)`` and ``t.n_(singular, plural, n)``. Strings kept in tables are
marked with ``N_`` and translated where they are shown. Card and role names follow RULES.md
(rules 1 and 5).
"""

from __future__ import annotations

import gettext
import os
from collections.abc import Iterable, Mapping
from pathlib import Path

from ..engine import JESTER, Role

DOMAIN = "dalmuti"
LOCALE_DIR = Path(__file__).parent / "locale"
DEFAULT_LANGUAGE = "en"
LANGUAGES: dict[str, str] = {"en": "English", "zh_Hant": "繁體中文", "es": "Español"}
"""Language codes (gettext folder names) and their names in their own language."""
LANGUAGE_TAGS: dict[str, str] = {"en": "en", "zh_Hant": "zh-Hant", "es": "es"}
"""How ``--lang`` spells each language (BCP 47); other spellings are aliases."""


def N_(text: str) -> str:
    """Mark ``text`` for translation where it is defined; translate where it is shown."""
    return text


def Nn_(singular: str, plural: str) -> tuple[str, str]:
    """Mark a count's sentence, singular and plural, for the catalogs; it is told with
    ``Translator.n_`` where the count is known (every language's plural forms)."""
    return singular, plural


CARD_NAMES: dict[int, str] = {
    1: N_("Dalmuti"),
    2: N_("Archbishop"),
    3: N_("Earl Marshal"),
    4: N_("Baroness"),
    5: N_("Abbess"),
    6: N_("Knight"),
    7: N_("Seamstress"),
    8: N_("Mason"),
    9: N_("Cook"),
    10: N_("Shepherdess"),
    11: N_("Stonecutter"),
    12: N_("Peasant"),
    JESTER: N_("Jester"),
}

ROLE_NAMES: dict[Role, str] = {
    Role.GREATER_DALMUTI: N_("Greater Dalmuti"),
    Role.LESSER_DALMUTI: N_("Lesser Dalmuti"),
    Role.MERCHANT: N_("Merchant"),
    Role.LESSER_PEON: N_("Lesser Peon"),
    Role.GREATER_PEON: N_("Greater Peon"),
}


def normalize_language(text: str | None) -> str | None:
    """A supported language code for a ``--lang`` value or a locale name, else ``None``.

    Any Chinese maps to traditional Chinese, the one Chinese this client has.
    """
    if not text:
        return None
    base = text.split(".")[0].split("@")[0].replace("-", "_").lower()
    if base.startswith("zh"):
        return "zh_Hant"
    if base.startswith("es"):
        return "es"
    if base.startswith("en") or base in ("c", "posix"):
        return "en"
    return None


def language_from_environment(environ: Mapping[str, str] | None = None) -> str:
    """The language the locale asks for, in gettext's order of variables."""
    env = os.environ if environ is None else environ
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(variable, "")
        for part in value.split(":"):
            found = normalize_language(part)
            if found is not None and not (variable != "LANGUAGE" and part in ("C", "POSIX")):
                return found
    return DEFAULT_LANGUAGE


class Translator:
    def __init__(self, language: str = DEFAULT_LANGUAGE) -> None:
        if language not in LANGUAGES:
            raise ValueError(f"unknown language {language!r}")
        self.language = language
        self._catalog: gettext.NullTranslations
        if language == DEFAULT_LANGUAGE:
            self._catalog = gettext.NullTranslations()
        else:
            self._catalog = gettext.translation(DOMAIN, LOCALE_DIR, languages=[language])

    def _(self, text: str) -> str:
        # "" is the catalog's header entry in gettext, never a string to show.
        return self._catalog.gettext(text) if text else text

    def n_(self, singular: str, plural: str, n: int) -> str:
        return self._catalog.ngettext(singular, plural, n)

    @property
    def list_separator(self) -> str:
        """Between the items of a list of names: Chinese uses the enumeration comma."""
        return "、" if self.language == "zh_Hant" else ", "

    def conjoined(self, names: Iterable[str]) -> str:
        """Names in a sentence: "Ana, Bo and Cy", "Ana, Bo y Cy" ("Ana e Inés": Spanish
        says "e" before the sound of i), "阿明、Bo、Cy" (Chinese lists them with 、)."""
        items = list(names)
        if len(items) < 2 or self.language == "zh_Hant":
            return self.list_separator.join(items)
        *first, last = items
        if self.language != "es":
            return f"{', '.join(first)} and {last}"
        return f"{', '.join(first)} {'e' if _sounds_like_i(last) else 'y'} {last}"

    def card(self, card: int) -> str:
        return self._(CARD_NAMES[card])

    def role(self, role: Role) -> str:
        return self._(ROLE_NAMES[role])

    def ordinal(self, place: int) -> str:
        """1st, 2nd...: English needs its suffixes; the catalogs say how others write it."""
        if self.language != DEFAULT_LANGUAGE:
            return self._("#{place}").format(place=place)
        suffix = (
            "th" if 10 <= place % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
        )
        return f"{place}{suffix}"


def translator_for(requested: str | None, environ: Mapping[str, str] | None = None) -> Translator:
    """``--lang`` if given (ValueError if it is not one we have), else the locale's."""
    local = Translator(language_from_environment(environ))
    if requested:
        language = normalize_language(requested)
        if language is None:
            raise ValueError(
                local._("unknown language {lang}; choose one of {choices}").format(
                    lang=repr(requested), choices=local.list_separator.join(LANGUAGE_TAGS.values())
                )
            )
        return Translator(language)
    return local


def _sounds_like_i(word: str) -> bool:
    """Whether a Spanish word begins with the sound of i (Inés, Hilda; not Hielo, Yolanda)."""
    low = word.lower()
    if low.startswith("h"):
        low = low[1:]
        if low[:1] in ("i", "í") and low[1:2] in ("a", "e", "é", "o", "u"):
            return False  # "hie-", "hia-": a y sound
    return low[:1] in ("i", "í")
