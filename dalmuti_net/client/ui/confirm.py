"""The model's questions (``client/model/questions.py``) and a refusal's choices, given the
terminal's keys: while a question is open it takes every key, shows only its own keys (the
footer too), and a key that means something on the screen behind it means nothing here.
Esc always goes back (on a refusal screen: quits)."""

from __future__ import annotations

from collections.abc import Iterable

from ...bots.names import LOBBY_STRATEGIES
from ...lang.i18n import N_
from ...lang.text import width, wrap
from ..model.client_model import BOT_CHOICE
from ..model.display import QuestionView
from ..model.questions import BACK, Choice
from .hints import Hint

KEYS = {
    "quit": "q",
    "leave": "l",
    "host": "l",
    "heir": "h",
    "end": "e",
    "start": "s",
    "skip": "y",
    "watch": "w",
    "list": "l",
    "retry": "r",
    "code": "c",
    **{BOT_CHOICE + strategy: str(n) for n, strategy in enumerate(LOBBY_STRATEGIES, 1)},
}
"""Each choice's key, by its action (the bot question's: a number each, in any language)."""


def key_of(choice: Choice) -> str:
    return KEYS[choice.action]


def chosen(choices: Iterable[Choice], key: str, escape: str = BACK) -> str | None:
    """The action ``key`` picks among ``choices``, ``escape`` for Esc, or ``None``."""
    if key == "escape":
        return escape
    return next((choice.action for choice in choices if key_of(choice) == key), None)


def choice_hints(choices: Iterable[Choice], back: bool = True) -> list[Hint]:
    hints = [Hint(key_of(choice), choice.label) for choice in choices]
    return [*hints, Hint("Esc", N_("back"))] if back else hints


def confirmation_lines(question: QuestionView, cols: int) -> list[list[tuple[str, str]]]:
    """The view's question drawn above the footer: a title rule, then one sentence per
    choice after its key."""
    head = f"── {question.title} "
    lines: list[list[tuple[str, str]]] = [
        [("class:warning", head + "─" * max(0, cols - width(head)))]
    ]
    for choice in question.choices:
        if not choice.sentence:
            continue
        key = f"{KEYS[choice.action]}  "
        indent = " " * width(key)
        for index, text in enumerate(wrap(choice.sentence, max(10, cols - width(key)))):
            lead = ("class:key", key) if index == 0 else ("", indent)
            lines.append([lead, ("", text)])
    return lines
