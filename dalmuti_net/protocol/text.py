"""What a string from the network may hold: text, never terminal controls.

Every msgpack str in a message (names, chat, table names, error sentences) refuses the C0
and C1 control characters (Unicode category Cc: escape sequences, carriage returns, bells),
the bidirectional embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069: they
reorder what follows them on screen) and the line and paragraph separators (U+2028, U+2029).
Other format characters stay allowed: the zero-width joiner holds emoji sequences together.
"""

from __future__ import annotations

import re

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
