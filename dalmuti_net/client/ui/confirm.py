"""Modal questions: while one is open it takes every key, shows only its own keys (the
footer too), and a key that means something on the screen behind it means nothing here.

Each choice names its key, a short label for the footer and a sentence saying what it
does; Esc always goes back. Pure data: ``ClientUi`` opens them and acts on the answer.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...lang.i18n import N_
from ...lang.text import width, wrap
from .choosers import Hint

BACK = "back"


@dataclass(frozen=True)
class Choice:
    key: str
    action: str
    """What the UI does with it: quit, leave, end, watch, list, retry..."""
    label: str
    """Marked with N_: for the footer."""
    sentence: str = ""
    """Already translated: what the choice does, in full."""


@dataclass(frozen=True)
class Confirmation:
    title: str
    """Already translated."""
    choices: tuple[Choice, ...]

    def answer(self, key: str) -> str | None:
        """The action ``key`` picks, ``BACK`` for Esc, or ``None``: the key is ignored."""
        if key == "escape":
            return BACK
        for choice in self.choices:
            if key == choice.key:
                return choice.action
        return None

    def hints(self) -> list[Hint]:
        return [Hint(c.key, c.label) for c in self.choices] + [Hint("Esc", N_("back"))]


def confirmation_lines(confirmation: Confirmation, cols: int) -> list[list[tuple[str, str]]]:
    """The question drawn above the footer: a title rule, then one sentence per choice."""
    head = f"── {confirmation.title} "
    lines: list[list[tuple[str, str]]] = [
        [("class:warning", head + "─" * max(0, cols - width(head)))]
    ]
    for choice in confirmation.choices:
        if not choice.sentence:
            continue
        key = f"{choice.key}  "
        indent = " " * width(key)
        for index, text in enumerate(wrap(choice.sentence, max(10, cols - width(key)))):
            lead = ("class:key", key) if index == 0 else ("", indent)
            lines.append([lead, ("", text)])
    return lines
