"""The questions the client model asks before it acts, as data: what quitting should mean,
starting with people not ready, skipping a player, and a refusal's ways on.

Each choice names its action (what ``ClientModel.intend(Choose(action))`` does), a short
label (marked with ``N_``) and a sentence saying what it does, already in the viewer's
language; no key. Each front end offers the choices its own way: the terminal gives each
a key, the plain table numbers them, the page shows buttons.
"""

from __future__ import annotations

from dataclasses import dataclass

BACK = "back"
"""Every question may be closed without choosing (``Choose(BACK)``)."""


@dataclass(frozen=True)
class Choice:
    action: str
    """quit, leave, heir, end, host, start, skip (a question); watch, list, retry, code,
    quit (a refusal)."""
    label: str
    """Marked with N_: a short label."""
    sentence: str = ""
    """Already translated: what the choice does, in full."""


@dataclass(frozen=True)
class Question:
    title: str
    """Already translated."""
    choices: tuple[Choice, ...]

    def offers(self, action: str) -> bool:
        return action == BACK or any(choice.action == action for choice in self.choices)
