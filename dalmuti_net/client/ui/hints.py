"""A key hint of the terminal's footer: the keys as shown, and what they do."""

from __future__ import annotations

from dataclasses import dataclass

from ...lang.i18n import Translator


@dataclass(frozen=True)
class Hint:
    keys: str
    label: str
    """Marked with N_: translated when shown."""


def button(t: Translator, label: str) -> str:
    """A web table's button named in a sentence, as its label reads (``label``: marked
    with N_, the footer hint's own words)."""
    return t._("“{label}”").format(label=t._(label))
