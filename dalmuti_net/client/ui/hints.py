"""A key hint of the terminal's footer: the keys as shown, and what they do."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Hint:
    keys: str
    label: str
    """Marked with N_: translated when shown."""
