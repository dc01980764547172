"""What a string from the network may hold: text, never terminal controls; and the one
filter every string from the network or a file passes before it reaches a terminal.

Every msgpack str in a message (names, chat, table names, error sentences) refuses the C0
and C1 control characters (Unicode category Cc: escape sequences, carriage returns, bells),
the bidirectional embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069: they
reorder what follows them on screen) and the line and paragraph separators (U+2028, U+2029).
Other format characters stay allowed: the zero-width joiner holds emoji sequences together.

What is shown (``shown``, for a terminal; ``json_text``, for JSON a terminal may ``cat``)
goes further, since a file is not validated as a frame is: the refused characters, lone
surrogates (JSON can write them, a terminal cannot) and the invisible characters (Unicode's
default-ignorable code points) other than the joiners and variation selectors that emoji
and some scripts need.
"""

from __future__ import annotations

import json
import re
from typing import Any

NOT_TEXT = "\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069"
"""The refused characters, as a regular expression character class body."""

REFUSED = (
    "U+0000-U+001F and U+007F-U+009F (Unicode category Cc), U+2028, U+2029, "
    "U+202A-U+202E, U+2066-U+2069"
)
"""The same, for people (PROTOCOL.md)."""

_NOT_TEXT = re.compile(f"[{NOT_TEXT}]")
JSON_PATTERN = "[\\u0000-\\u001f\\u007f-\\u009f\\u2028\\u2029\\u202a-\\u202e\\u2066-\\u2069]"
"""A refused character, for JSON Schema (ECMA-262): a string must not match it anywhere
(``"not": {"pattern": ...}``; an anchored pattern would let a trailing newline through
in engines where ``$`` matches before one)."""


def first_control(text: str) -> str | None:
    """The first refused character in ``text``, or ``None`` when it is all text."""
    found = _NOT_TEXT.search(text)
    return None if found is None else found.group()


def clean_text(text: str) -> str:
    """``text`` as the host may send it: every refused character and run of whitespace one
    space, none at either end. For the host's own strings (a table name from the command
    line, names in a save written before names were checked), never for input, which is
    refused instead."""
    return " ".join(_NOT_TEXT.sub(" ", text).split())


INVISIBLE = (
    "\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u2060-\u2065"
    "\u206a-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufff8"
    "\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0000-\U000e0fff"
)
"""Unicode's default-ignorable code points (DerivedCoreProperties.txt, Unicode 15) that
``NOT_TEXT`` does not already hold: drawn as nothing, so two strings that differ only by
them look the same."""
JOINERS = "\u200c\u200d\ufe00-\ufe0f\U000e0100-\U000e01ef"
"""Invisible characters a shown string keeps: the zero-width (non-)joiner and the variation
selectors (emoji sequences, Persian and Indic shaping)."""
SURROGATES = "\ud800-\udfff"

_NOT_SHOWN = re.compile(f"[{NOT_TEXT}{SURROGATES}]")
_HIDDEN = re.compile(f"(?![{JOINERS}])[{INVISIBLE}]")
_ESCAPED_IN_JSON = re.compile(f"[{NOT_TEXT}{SURROGATES}{INVISIBLE}]")


def shown(text: str) -> str:
    """``text`` safe to put on a terminal: each refused character (``NOT_TEXT``) and lone
    surrogate a space, each invisible character but the joiners dropped. The one filter for
    every string from the network or a file on its way to a terminal (a whole line of
    output too: it keeps columns, as it neither joins nor trims spaces)."""
    return _HIDDEN.sub("", _NOT_SHOWN.sub(" ", text))


def json_text(value: Any) -> str:
    """``value`` as JSON (UTF-8 text, one line) that is safe to ``cat`` to a terminal: every
    character ``shown`` would change, and every invisible one, written as a ``\\uXXXX``
    escape, so the data is whole and a JSON reader gets it back exactly. (Outside strings
    JSON is ASCII, so only strings are touched.)"""
    return _ESCAPED_IN_JSON.sub(_json_escape, json.dumps(value, ensure_ascii=False))


def _json_escape(found: re.Match[str]) -> str:
    code = ord(found.group())
    if code < 0x10000:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


def escaped_text(text: str) -> str:
    """``text`` with every refused character written as its escape (``\\x1b``,
    ``\\u202e``): for the host's sentences that quote what a client sent, so that a
    refusal stays valid text and still shows what was wrong."""
    return _NOT_TEXT.sub(lambda found: found.group().encode("unicode_escape").decode(), text)
