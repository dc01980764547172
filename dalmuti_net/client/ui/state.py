"""The terminal's front end, without a terminal: every key's meaning, and what only the
terminal has (text fields, the help and rules panels, scrolling, the cursors).

``ClientUi`` holds the client model (``model``: ``client/model/client_model.py``), which is
fed the host's messages, the connection's status and discovery listings, and turns each
key into an intent of it (``press``), whose effects go to the runtime: a message to send,
a table to join, or quitting. The screen is drawn from both by ``screen.render``; nothing
here imports prompt_toolkit or trio.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum

from ...lang.i18n import N_, Translator
from ...lang.numbers import decimal
from ...protocol.catalogue import MAX_CHAT_CHARS
from ...protocol.discovery import TableListing
from ...protocol.messages import Message
from ..model import intents as do
from ..model.client_model import (
    AUTO_PASS_PAUSE_S,
    AUTO_PASSING,
    BackToList,
    ClientModel,
    Effect,
    Field,
    Join,
    Notice,
    Preferences,
    Quit,
    Rejoin,
    Screen,
    Send,
    Wake,
)
from ..model.display import can
from ..model.refusals import QUIT as REFUSAL_QUIT
from ..model.rules_menu import TYPED_FIELDS, TYPED_RANGES
from ..session import ClientSession
from ..status import Status
from .choosers import chooser_hints, key_intent
from .confirm import choice_hints, chosen
from .help import HINTS as HELP_HINTS
from .help import body_rows as help_rows
from .help import max_scroll as help_max_scroll
from .hints import Hint
from .lobby import LobbyKeys, RulesEditor

__all__ = [
    "AUTO_PASSING",
    "AUTO_PASS_PAUSE_S",
    "BackToList",
    "ClientUi",
    "Effect",
    "Join",
    "LineEditor",
    "Notice",
    "Overlay",
    "Quit",
    "Rejoin",
    "Screen",
    "Send",
    "Wake",
]

REMATCH_HINT = Hint("r", N_("rematch"))
"""The host player's key once the table is over (the turn line names it too)."""
READ_RESULTS_HINT = Hint("Enter", N_("ready for the next hand"))
FINAL_STANDINGS_HINT = Hint(N_("any key"), N_("final standings"))
"""The results' keys, between hands and after the last."""


class Overlay(StrEnum):
    HELP = "help"
    RULES = "rules"


class LineEditor:
    """A one-line text field: characters, Backspace, Enter to accept, Esc to cancel."""

    def __init__(
        self,
        purpose: str,
        label: str,
        text: str = "",
        max_chars: int = 100,
        values: dict[str, object] | None = None,
        field: Field | None = None,
    ) -> None:
        self.purpose = purpose
        self.label = label
        """Marked with N_; ``values`` fill its placeholders."""
        self.values = values or {}
        self.text = text
        self.max_chars = max_chars
        self.field = field
        """The model's field this one types into (a name, a code...), if any."""

    def press(self, key: str) -> str | None:
        """``"done"``, ``"cancel"`` or ``None`` (still editing)."""
        if key == "enter":
            return "done"
        if key == "escape":
            return "cancel"
        if key == "backspace":
            self.text = self.text[:-1]
        elif key == "space":
            self.text = (self.text + " ")[: self.max_chars]
        elif len(key) == 1 and key.isprintable():
            self.text = (self.text + key)[: self.max_chars]
        return None


class ClientUi:
    def __init__(
        self,
        t: Translator,
        session: ClientSession | None = None,
        *,
        address: str = "",
        local_host: bool = False,
        ascii_symbols: bool = False,
        name: str = "",
        name_given: bool = False,
        code: str | None = None,
        lists_tables: bool = True,
        preferences: Preferences | None = None,
        live: bool = True,
    ) -> None:
        self.t = t
        self.model = ClientModel(
            t,
            session,
            address=address,
            local_host=local_host,
            name=name,
            name_given=name_given,
            code=code,
            lists_tables=lists_tables,
            preferences=preferences,
            live=live,
        )
        """The client as every front end has it: the table, its log, the screens around
        it, the intents (``live``: a replay is not)."""
        self.own_hints: Callable[[], list[Hint]] | None = None
        """A front end's own key line in place of the table's (the replay's keys)."""
        self.ascii_symbols = ascii_symbols
        self.log_scroll = 0
        self.log_top: int | None = None
        """How far PgUp scrolls the log: to its first page, a full one, as last drawn
        (``screen.render`` says; None before that)."""
        self.show_memory = False
        """``m``: the cards played so far, where the screen has no room to show them always."""
        self.overlay: Overlay | None = None
        self.help_scroll = 0
        """The first line of the help's text on screen."""
        self.size = (80, 24)
        """The terminal's columns and rows, as last drawn (paging moves by a screenful)."""
        self._editor: LineEditor | None = None
        """The terminal's own field: a chat line, a rule's value."""
        self._field_editor: LineEditor | None = None
        """The field the model asks for, as typed so far."""
        self.lobby = LobbyKeys()
        self.rules_editor = RulesEditor()
        self.discovery_index = 0

    # ------------------------------------------------------------------ what is shown

    @property
    def editor(self) -> LineEditor | None:
        """The text field open: the terminal's own, or the one the model asks for."""
        if self._editor is not None:
            return self._editor
        field = self.model.field
        if field is None:
            return None
        if self._field_editor is None or self._field_editor.field is not field:
            self._field_editor = LineEditor(
                field.purpose, field.label, field.text, field.max_chars, field=field
            )
        return self._field_editor

    @editor.setter
    def editor(self, editor: LineEditor | None) -> None:
        self._editor = editor

    # ------------------------------------------------------------------ fed

    def set_listings(self, listings: list[TableListing]) -> None:
        model = self.model
        chosen_one = model.listings[self.discovery_index] if model.listings else None
        model.set_listings(listings)
        if chosen_one is not None and chosen_one in model.listings:
            self.discovery_index = model.listings.index(chosen_one)
        self.discovery_index = min(self.discovery_index, max(0, len(model.listings) - 1))

    def connecting(self, session: ClientSession, address: str) -> None:
        self.model.connecting_to(session, address)

    def back_to_list(self) -> None:
        self.model.back_to_list()
        self._editor = None

    def on_status(self, status: Status) -> None:
        self.model.on_status(status)

    def on_message(self, message: Message) -> list[Effect]:
        effects = self.model.on_message(message)
        table = self.model.table
        if self.model.received.table_ended:
            self.overlay = None
        elif self.overlay is Overlay.RULES and (table is None or not table.lobby):
            self.overlay = None  # the rule options are the lobby's
        return effects

    def wake(self) -> list[Effect]:
        return self.model.wake()

    # ------------------------------------------------------------------ keys

    def press(self, key: str) -> list[Effect]:
        model = self.model
        if model.question is not None:
            if key == "c-c":  # Ctrl-C again: the first choice, never a surprise
                return model.intend(do.Exit())
            action = chosen(model.question.choices, key)
            return [] if action is None else model.intend(do.Choose(action))
        if key == "c-c":
            return model.intend(do.Exit())
        if self.editor is not None:
            return self._edit(key)
        if key == " ":
            key = "space"
        if self.overlay is Overlay.HELP:
            if key in ("escape", "?", "q", "enter"):
                self.overlay = None
            else:
                self._scroll_help(key)
            return []
        if key == "?":
            self.overlay = Overlay.HELP
            self.help_scroll = 0
            return []
        if model.screen is Screen.DISCOVER:
            return self._discover_press(key)
        if model.screen is Screen.PROBLEM and model.refusal is not None:
            action = chosen(model.refusal.choices, key, escape=REFUSAL_QUIT)
            return [] if action is None else model.intend(do.Choose(action))
        if model.screen in (Screen.PROBLEM, Screen.CONNECTING, Screen.FORM):
            if key in ("q", "escape", "enter"):
                return [Quit()]
            return []
        return self._table_press(key)

    def _discover_press(self, key: str) -> list[Effect]:
        listings = self.model.listings
        if key in ("q", "escape"):
            return [Quit()]
        if key in ("up", "down") and listings:
            step = 1 if key == "down" else -1
            self.discovery_index = (self.discovery_index + step) % len(listings)
        elif key == "a":
            self.model.ask_address()
        elif key == "enter" and listings:
            return self.model.intend(do.JoinListing(self.discovery_index))
        return []

    def _scroll_help(self, key: str) -> None:
        cols, rows = self.size
        page = max(1, help_rows(rows) - 1)
        step = {"up": -1, "down": 1, "pageup": -page, "pagedown": page, "space": page}
        if key in step:
            discover = self.model.screen is Screen.DISCOVER
            top = help_max_scroll(self.t, cols, rows, discover=discover)
            self.help_scroll = min(top, max(0, self.help_scroll + step[key]))

    def _edit(self, key: str) -> list[Effect]:
        editor = self.editor
        assert editor is not None
        outcome = editor.press(key)
        if outcome is None:
            return []
        if editor.field is None:
            self._editor = None
        if outcome == "cancel":
            if editor.field is not None:
                return self.model.intend(do.CancelForm())
            return []
        text = editor.text
        purpose = editor.purpose
        if purpose == "chat":
            return self.model.intend(do.Chat(text))
        if purpose.startswith("rule:"):
            return self.model.intend(do.TypeRule(purpose[5:], text))
        if purpose == "address":
            return self.model.intend(do.JoinAddress(text))
        if purpose == "name":
            return self.model.intend(do.GiveName(text))
        return self.model.intend(do.GiveCode(text))

    def _table_press(self, key: str) -> list[Effect]:
        model = self.model
        if self.overlay is Overlay.RULES:
            return self._rules_press(key)
        if key == "q":
            return model.intend(do.Exit())
        if key == "t":
            self.editor = LineEditor("chat", N_("Say:"), "", MAX_CHAT_CHARS)
            return []
        if key == "a" and model.seated:
            return model.intend(do.AutoPass())
        if model.results_shown and key not in ("?", "pageup", "pagedown"):
            if key in ("enter", "space", "r") and model.reading_results():
                return model.intend(do.Ready(True))  # the results stay meanwhile
            # The last hand's points read: the final standings; else back to the table.
            return model.intend(do.CloseResults())
        if key == "enter" and model.reading_results() and model.chooser is None:
            return model.intend(do.Ready(True))
        if model.ended and key == "r" and model.is_host:
            return model.intend(do.Rematch())
        if key == "m" and model.in_hand:
            self.show_memory = not self.show_memory
            return []
        if key == "end":  # back to the newest lines
            self.log_scroll = 0
            return []
        if key in ("pageup", "pagedown"):
            top = max(0, len(model.log) - 1) if self.log_top is None else self.log_top
            step = 5 if key == "pageup" else -5
            self.log_scroll = min(top, max(0, min(self.log_scroll, top) + step))
            return []
        chooser = model.choosing
        if chooser is not None:
            intent = key_intent(chooser, key)
            if intent is not None:
                return model.intend(intent)
        # After the decision's own keys (a revolution's n is no nudge).
        table = model.table
        if key in ("n", "N") and model.is_host and table is not None and table.playing:
            return model.intend(do.Nudge() if key == "n" else do.Skip())
        if table is not None and table.lobby and model.session is not None:
            if key == "o":
                if not model.is_host:
                    model.say(self.t._("Only the host player may change the rules."), "warning")
                    return []
                self.overlay = Overlay.RULES
                model.notice = None  # it was about the lobby's keys
                return []
            meant = self.lobby.press(key, table)
            if isinstance(meant, bool):
                if meant:
                    model.notice = None
                return []
            return model.intend(meant)
        return []

    def _rules_press(self, key: str) -> list[Effect]:
        model = self.model
        if key in ("escape", "o"):
            self.overlay = None
            model.notice = None  # it was about the rule options, now out of sight
            return []
        field = self.rules_editor.field.key
        typed = decimal(key) is not None
        if field in TYPED_FIELDS and (key == "enter" or typed):
            low, high = TYPED_RANGES[field]
            model.notice = None
            self.editor = LineEditor(
                f"rule:{field}",
                TYPED_FIELDS[field],
                key if typed else "",
                len(str(high)),
                {"low": low, "high": high},
            )
            return []
        meant = self.rules_editor.press(key, model.rules())
        if isinstance(meant, bool):
            if meant:
                model.notice = None
            return []
        return model.intend(meant)

    # ------------------------------------------------------------------ hints

    def hints(self) -> list[Hint]:
        model = self.model
        if model.question is not None:
            return choice_hints(model.question.choices)
        if self.editor is not None:
            return [Hint("Enter", N_("accept")), Hint("Esc", N_("cancel"))]
        if self.own_hints is not None:
            return self.own_hints()
        if self.overlay is Overlay.HELP:
            return list(HELP_HINTS)
        if self.overlay is Overlay.RULES:
            return self.rules_editor.hints()
        if model.screen is Screen.DISCOVER:
            return [
                Hint("↑↓", N_("choose")),
                Hint("Enter", N_("join")),
                Hint("a", N_("join by address")),
                Hint("?", N_("help")),
                Hint("q", N_("quit")),
            ]
        if model.screen is Screen.PROBLEM and model.refusal is not None:
            return choice_hints(model.refusal.choices, back=False)
        if model.screen is not Screen.TABLE:
            return [Hint("q", N_("quit"))]
        hints: list[Hint] = []
        able = can(model)
        if model.results_shown and model.ended:
            hints.append(FINAL_STANDINGS_HINT)
        elif model.results_shown:
            if model.reading_results():
                hints.append(READ_RESULTS_HINT)
            hints.append(Hint("Esc", N_("back to the table")))
        elif "rematch" in able:
            hints.append(REMATCH_HINT)
        elif model.reading_results():
            hints.append(READ_RESULTS_HINT)
        elif model.choosing is not None:
            hints += chooser_hints(model.choosing)
        elif model.table is not None and model.table.lobby:
            hints += self.lobby.hints(able)
        if model.in_hand and model.results is None:
            hints.append(Hint("m", N_("cards played")))
        if "nudge" in able:
            hints += [Hint("n", N_("nudge")), Hint("N", N_("skip"))]
        if "auto_pass" in able:
            on = model.preferences.auto_pass
            hints.append(Hint("a", N_("auto-pass on") if on else N_("auto-pass off")))
        hints += [Hint("t", N_("chat")), Hint("?", N_("help")), Hint("q", N_("quit"))]
        return hints
