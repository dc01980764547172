"""The lobby's keys: ready for everyone; rules, bots, kicking and starting for the host
player. Each key is an intent of the client model, which checks it
(``client/model/client_model.py``, ``client/model/rules_menu.py``); only the cursors are
the terminal's own."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from ...lang.i18n import N_
from ..model import intents as do
from ..model.rules_menu import RULE_FIELDS, TYPED_FIELDS, RuleField
from ..model.views import TableView
from .hints import Hint


class RulesEditor:
    """The host player's rule options: a cursor; each change an intent, sent as the key
    is pressed."""

    def __init__(self) -> None:
        self.index = 0

    @property
    def field(self) -> RuleField:
        return RULE_FIELDS[self.index]

    def press(self, key: str, rules: dict[str, Any]) -> do.Intent | bool:
        """The intent ``key`` means, True where it only moved the cursor, False: nothing."""
        if key in ("up", "down"):
            self.index = (self.index + (1 if key == "down" else -1)) % len(RULE_FIELDS)
            return True
        name = self.field.key
        value = rules.get(name)
        if key in ("space", "enter") and isinstance(value, bool):
            return do.SetRule(name, not value)
        if key in ("+", "right", "-", "left"):
            return do.StepRule(name, key in ("+", "right"))
        return False

    def hints(self) -> list[Hint]:
        hints = [Hint("↑↓", N_("option"))]
        if self.field.key in TYPED_FIELDS:
            hints += [Hint("←→", N_("less/more")), Hint(N_("0-9/Enter"), N_("type a number"))]
        else:
            hints.append(Hint(N_("Space"), N_("switch")))
        return [*hints, Hint("o/Esc", N_("close"))]


READY_HINT = Hint("r", N_("ready"))
START_HINT = Hint("s", N_("start"))
LOBBY_HINTS = {
    "ready": READY_HINT,
    "start": START_HINT,
    "add_bot": Hint("b", N_("add bot")),
    "remove_bot": Hint("↑↓ x", N_("remove bot")),
    "kick": Hint("k", N_("kick")),
    "set_rule": Hint("o", N_("rules")),
}
"""The lobby's keys, by the intent each gives, in the order the footer shows them."""


class LobbyKeys:
    """The seats' cursor, and the lobby's keys as intents."""

    def __init__(self) -> None:
        self.index = 0

    def press(self, key: str, table: TableView) -> do.Intent | bool:
        """The intent ``key`` means, True where it only moved the cursor, False: nothing."""
        players = table.players
        if key in ("up", "down"):
            if players:
                self.index = (self.index + (1 if key == "down" else -1)) % len(players)
            return True
        simple: dict[str, do.Intent] = {
            "r": do.Ready(),
            "s": do.Start(),
            "b": do.AddBot(),  # the model asks which one
        }
        if key in simple:
            return simple[key]
        if key not in ("x", "k") or not players:
            return False
        seat = players[min(self.index, len(players) - 1)]
        return do.RemoveBot(seat.player) if key == "x" else do.Kick(seat.player)

    def hints(self, can: Collection[str]) -> list[Hint]:
        """The keys of the intents that make sense now (``display.can``)."""
        return [hint for name, hint in LOBBY_HINTS.items() if name in can]
