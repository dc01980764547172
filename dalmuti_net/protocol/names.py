"""The names rule: what name a player, spectator or bot is given, and which names are
refused because they would look like someone already at the table (PROTOCOL.md, "Names").

1. A name is normalised: control characters and runs of whitespace become one space (none
   at either end), then Unicode NFKC (full-width letters, ligatures, compatibility forms
   become the plain ones), then the invisible characters (Unicode's default-ignorable
   code points: zero-width spaces, joiners, bidirectional marks, soft hyphens, Hangul
   fillers, tags...) are removed, except a zero-width joiner or variation selector inside
   an emoji sequence. So "A\\u200bna" is "Ana".
2. Two names look alike when they are equal once the invisible characters are gone and
   either (a) case is folded and the common Cyrillic and Greek look-alikes of Latin
   letters (and 0/O, 1/l) are mapped to the Latin letter, or (b), with case kept, the same
   mapping and capital I for lower-case l ("AIex" and "Alex"). This is a small table in
   the manner of Unicode TR39's confusables skeleton, not all of it: it catches the
   look-alikes a keyboard makes easy, without refusing names in other scripts.
3. The host seats a name that looks like nobody's at the table as it is. A name that is
   exactly someone's (after step 1: a player back without their token, "A\\u200bna" beside
   "Ana") gets the first free " (2)", " (3)"... A name that looks like someone's without
   being it ("Аna" in Cyrillic, "ana", "AIex") is refused with ``name_taken``.
"""

from __future__ import annotations

import re
import unicodedata

from .text import INVISIBLE, clean_text

_INVISIBLE = re.compile(f"[{INVISIBLE}]")
_EMOJI_GLUE = frozenset("\u200d\ufe0e\ufe0f")
"""Invisible characters that hold an emoji sequence together (ZWJ, text/emoji presentation)."""
_EMOJI_CATEGORIES = frozenset({"So", "Sk"})

_LATIN_LOOK_ALIKES = {
    # Cyrillic capitals, then small letters
    "А": "A", "В": "B", "Е": "E", "Ѕ": "S", "І": "I", "Ј": "J", "К": "K", "М": "M",
    "Н": "H", "О": "O", "Р": "P", "С": "C", "Т": "T", "Х": "X", "Ү": "Y", "Ԛ": "Q",
    "Ԝ": "W", "Ѵ": "V", "Ӏ": "I",
    "а": "a", "е": "e", "о": "o", "р": "p", "с": "c", "у": "y", "х": "x", "ѕ": "s",
    "і": "i", "ј": "j", "ԁ": "d", "һ": "h", "ԛ": "q", "ԝ": "w", "ӏ": "l", "ѵ": "v",
    # Greek capitals, then small letters
    "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M",
    "Ν": "N", "Ο": "O", "Ρ": "P", "Τ": "T", "Υ": "Y", "Χ": "X",
    "α": "a", "ι": "i", "ν": "v", "ο": "o", "ρ": "p", "υ": "u",
    # Latin letters that look like others, digits, dashes and quotes
    "ɑ": "a", "ɡ": "g", "ı": "i", "ȷ": "j", "ℓ": "l", "0": "O", "1": "l", "|": "l",
    "‐": "-", "‑": "-", "‒": "-", "–": "-", "—": "-", "―": "-", "−": "-",
    "‘": "'", "’": "'", "ʼ": "'", "`": "'", "´": "'",
}  # fmt: skip
"""Common look-alikes of Latin letters, digits and punctuation, to what they look like."""
_FOLDED = str.maketrans(_LATIN_LOOK_ALIKES)
_CASED = str.maketrans({**_LATIN_LOOK_ALIKES, "I": "l"})


def normal_name(wanted: str, limit: int) -> str:
    """``wanted`` as the host seats it (rule 1), at most ``limit`` characters; may be empty."""
    name = unicodedata.normalize("NFKC", clean_text(wanted))
    kept: list[str] = []
    for index, char in enumerate(name):
        if not _INVISIBLE.fullmatch(char):
            kept.append(char)
        elif char in _EMOJI_GLUE and kept and _emoji_like(kept[-1]):
            following = name[index + 1 : index + 2]
            if char != "\u200d" or (following and _emoji_like(following)):
                kept.append(char)
    return clean_text("".join(kept))[:limit].strip()


def _emoji_like(char: str) -> bool:
    """A symbol (emoji are ``So``, skin tones ``Sk``) or glue already kept after one."""
    return char in _EMOJI_GLUE or unicodedata.category(char) in _EMOJI_CATEGORIES


def _keys(name: str) -> tuple[str, str]:
    bare = unicodedata.normalize("NFD", _INVISIBLE.sub("", name))
    folded = unicodedata.normalize("NFD", bare.translate(_FOLDED).casefold().translate(_FOLDED))
    return folded, bare.translate(_CASED)


def looks_like(name: str, other: str) -> bool:
    """Whether ``name`` and ``other`` look alike (rule 2); a name looks like itself."""
    return any(mine == theirs for mine, theirs in zip(_keys(name), _keys(other), strict=True))


def look_alike(name: str, taken: list[str], shown_as: tuple[str, ...] = ("",)) -> str | None:
    """The first of ``taken`` that ``name`` looks like without being it, or ``None``.
    ``shown_as``: the endings the name is also shown with (a spectator's chat line is
    "Ana (watching)"), each held against ``taken`` too."""
    for ending in shown_as:
        shown = name + ending
        other = next((o for o in taken if o != shown and looks_like(shown, o)), None)
        if other is not None:
            return other
    return None


def free_name(base: str, taken: list[str], limit: int, shown_as: tuple[str, ...] = ("",)) -> str:
    """``base`` or, if it (with any of ``shown_as``) looks like a name in ``taken``,
    ``base (2)``, ``base (3)``... (cut to fit ``limit``): the first that looks like none."""
    candidate, number = base, 1
    while any(looks_like(candidate + end, other) for end in shown_as for other in taken):
        number += 1
        suffix = f" ({number})"
        candidate = base[: limit - len(suffix)] + suffix
    return candidate
