"""A number a person typed: the one parser of every front end's number fields (the
terminal's rule and timing fields, the plain table's words, the web table's fields, the
replay's go-to-hand).

``str.isdigit`` is not the question to ask: ``"²".isdigit()`` is true and ``int("²")``
refuses it. ``str.isdecimal`` holds exactly for the digits ``int`` reads (ASCII, and the
decimal digits of other scripts: full-width ``３``, Arabic-Indic ``٣``), so a number typed
on any keyboard is read, and nothing else reaches ``int``. A refusal is one sentence, told
in the reader's language.
"""

from __future__ import annotations

from ..told import N_, Told

MAX_DIGITS = 9
"""Digits read at most: every number field's range is far below; a longer line is refused
before ``int`` spends time on it."""

WHOLE_NUMBER = N_("Type a whole number from {low} to {high}.")
"""The usual refusal: the field's range."""


class NumberRefused(Told):
    """Why a typed number is refused: one sentence (``told(t._)`` in the reader's
    language; ``template`` and ``values`` for a front end that keeps them apart)."""


def decimal(text: str) -> int | None:
    """The whole number ``text`` spells in decimal digits (spaces around it allowed), or
    ``None`` when it is anything else: empty, signed, a fraction, ``²``, too long."""
    text = text.strip()
    if not text.isdecimal() or len(text) > MAX_DIGITS:
        return None
    return int(text)


def whole_number(
    text: str, low: int, high: int, refusal: str = WHOLE_NUMBER, **values: object
) -> int:
    """The whole number ``text`` spells, from ``low`` to ``high``; else ``NumberRefused``
    with ``refusal`` (marked with ``N_``; its placeholders may use ``low``, ``high`` and
    ``values``)."""
    number = decimal(text)
    if number is None or not low <= number <= high:
        raise NumberRefused(refusal, low=low, high=high, **values)
    return number
