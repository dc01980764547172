"""Everything the terminal shows and every key's meaning, without a terminal.

``ClientUi`` is fed the host's messages (``on_message``), the connection's status
(``on_status``) and discovery listings (``set_listings``), and turns keys (``press``) into
effects for the runtime: a message to send, a table to join, or quitting. The screen is
drawn from it by ``screen.render``; nothing here imports prompt_toolkit or trio.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from ...engine import Action, Decision, Pass
from ...engine.events import (
    Event,
    HandEnded,
)
from ...lang.i18n import N_, Translator
from ...lang.numbers import decimal
from ...lang.text import tidy
from ...protocol import PROTOCOL_VERSION
from ...protocol.catalogue import MAX_CHAT_CHARS, MAX_CODE_CHARS, MAX_NAME_CHARS
from ...protocol.discovery import TableListing
from ...protocol.messages import Message, action_message
from ..address import BadAddress, parse_address
from ..claims import Claim, claims
from ..model.countdowns import Countdowns
from ..model.departures import (
    final_rows,
)
from ..model.errors import (
    CONNECT_FAILURES,
    GOODBYE_SENTENCES,
    describe_broken,
    describe_error,
    describe_goodbye,
    describe_unreachable,
)
from ..model.story import TrickStory
from ..model.table_model import AUTO_PASSED, LogLine, TableModel
from ..model.views import (
    TableView,
    TimersView,
)
from ..seats import SeatStore
from ..session import HOST_UNPROVEN, ClientSession
from ..status import Status
from . import refusals
from .choosers import Chooser, Hint, Names, Result, chooser_for
from .config import Preferences
from .confirm import BACK, Choice, Confirmation
from .help import HINTS as HELP_HINTS
from .help import body_rows as help_rows
from .help import max_scroll as help_max_scroll
from .leaving import CHOICE as LEAVE_ENDS_CHOICE
from .leaving import FAREWELL as LEAVE_ENDS_FAREWELL
from .leaving import LEFT, LEFT_MID_GAME, LeaveEnds, leave_ends, named_heirs
from .lobby import (
    TYPED_FIELDS,
    TYPED_RANGES,
    LobbyKeys,
    RulesEditor,
    menu_values,
    timing_sent,
    typed_rule,
)
from .refusals import RefusalScreen

REMATCH_HINT = Hint("r", N_("rematch"))
"""The host player's key once the table is over (the turn line names it too)."""
READ_RESULTS_HINT = Hint("Enter", N_("ready for the next hand"))
FINAL_STANDINGS_HINT = Hint(N_("any key"), N_("final standings"))
"""The results' keys, between hands and after the last (the web table names them)."""
AUTO_PASSING = N_("Nothing of yours beats it: auto-pass passes for you in a moment.")
AUTO_PASS_PAUSE_S = 1.2
"""How long auto-pass waits before it passes. Passing the moment the decision came, the
pass was on screen before the player had looked at the play that beat them. A glance at
the table's line ("Bo: Cook ×2") takes about a second: a little longer than a paced bot's
move (0.8 s, host/settings.py), so the table keeps the rhythm of people playing; much
longer, and a trick where every person auto-passes drags, each waiting in turn. Far below
the shortest turn timer (5 s), which would otherwise answer first."""


class Screen(StrEnum):
    DISCOVER = "discover"
    FORM = "form"
    CONNECTING = "connecting"
    TABLE = "table"
    PROBLEM = "problem"


class Overlay(StrEnum):
    HELP = "help"
    RULES = "rules"


# Effects for the runtime.


@dataclass(frozen=True)
class Send:
    message: Message


@dataclass(frozen=True)
class Join:
    host: str
    port: int
    name: str
    code: str | None


@dataclass(frozen=True)
class Quit:
    end_table: bool = False
    """The host player's terminal: end the table for everyone before quitting."""
    keep_hosting: bool = False
    """The host player's terminal: the seat was given up (a `leave` naming the next host
    player was sent first); the screen closes and the program keeps serving the table."""


@dataclass(frozen=True)
class BackToList:
    """Leave this refusal screen for the list of tables on the network."""


@dataclass(frozen=True)
class Rejoin:
    """Connect to the same host again: to watch, or with a join code typed again."""

    spectator: bool
    code: str | None


@dataclass(frozen=True)
class Wake:
    """Call ``ClientUi.wake`` after this many seconds (auto-pass's pause)."""

    after_s: float


Effect = Send | Join | Quit | BackToList | Rejoin | Wake


class LineEditor:
    """A one-line text field: characters, Backspace, Enter to accept, Esc to cancel."""

    def __init__(
        self,
        purpose: str,
        label: str,
        text: str = "",
        max_chars: int = 100,
        values: dict[str, object] | None = None,
    ) -> None:
        self.purpose = purpose
        self.label = label
        """Marked with N_; ``values`` fill its placeholders."""
        self.values = values or {}
        self.text = text
        self.max_chars = max_chars

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


@dataclass
class Notice:
    text: str
    level: str = "info"
    """info, warning or error."""


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
        draws_table: bool = True,
        live: bool = True,
    ) -> None:
        self.t = t
        self.model = TableModel(t, session, live=live, draws_table=draws_table)
        """The table as this viewer knows it, and its log: the terminal shows it and adds
        its keys, panels and notices (``live``: a replay is not; ``draws_table``: the
        plain table draws no seats, so the log says who is ready)."""
        self.own_hints: Callable[[], list[Hint]] | None = None
        """A front end's own key line in place of the table's (the replay's keys)."""
        self.preferences = preferences or Preferences(stored=False)
        self.lists_tables = lists_tables and not local_host
        """A refusal screen may offer the list of tables on the network (the host player's
        own terminal has none, nor has the web table: a page belongs to one table)."""
        self.session = session
        self.address = address
        self.local_host = local_host
        """This terminal also runs the host: quitting closes the table for everyone."""
        self.ascii_symbols = ascii_symbols
        self.screen = Screen.CONNECTING if session is not None else Screen.DISCOVER
        self.status = Status.CONNECTING
        self.ever_connected = False
        self.log_scroll = 0
        self.farewell: str | None = None
        """The line said once the player has left, where leaving ended the table or ends
        it (the table screen prints it after closing, the plain table as it quits)."""
        self.log_top: int | None = None
        """How far PgUp scrolls the log: to its first page, a full one, as last drawn
        (``screen.render`` says; None before that)."""
        self.show_memory = False
        """``m``: the cards played so far, where the screen has no room to show them always."""
        self.notice: Notice | None = None
        self.overlay: Overlay | None = None
        self.help_scroll = 0
        """The first line of the help's text on screen."""
        self.size = (80, 24)
        """The terminal's columns and rows, as last drawn (paging moves by a screenful)."""
        self.confirmation: Confirmation | None = None
        """A modal question: while it is open, it takes every key."""
        self._heir: int | None = None
        """Who the host player, leaving, hands the host role to."""
        self.editor: LineEditor | None = None
        self.chooser: Chooser | None = None
        self.lobby = LobbyKeys()
        self._rules_sent: dict[str, Any] = {}
        """Rule changes sent that the table does not show yet."""
        self.rules_editor = RulesEditor()
        self.problem: str | None = None
        self.problem_detail: str | None = None
        self.refusal: RefusalScreen | None = None
        self.seats: SeatStore | None = None
        """The seats this user remembers, to show a listing whose table id claims one."""
        self.claims: dict[str, Claim] = {}
        """By instance name: listings that claim another listing's table id, or that of a
        table with a remembered seat last seen elsewhere (``client/claims.py``)."""
        """What the problem screen shows and offers (its own keys)."""
        # Finding a table.
        self.listings: list[TableListing] = []
        self.discovery_index = 0
        self.discovery_slow = False
        self.name = name
        self.name_given = name_given
        self.code = code
        self._target: tuple[str, int, bool] | None = None
        """The table being joined from the list: host, port, whether it needs a code."""

    # ------------------------------------------------------------------ what is known

    @property
    def screen(self) -> Screen:
        return self._screen

    @screen.setter
    def screen(self, screen: Screen) -> None:
        """Leaving a screen drops its notice: what it said was about that screen (a name
        left empty in the form is no news in the lobby)."""
        if screen is not getattr(self, "_screen", screen):
            self.notice = None
        self._screen = screen

    # The table model's, shown here (``client/model/table_model.py``).

    @property
    def session(self) -> ClientSession | None:
        return self.model.session

    @session.setter
    def session(self, session: ClientSession | None) -> None:
        self.model.session = session

    @property
    def me(self) -> int | None:
        return self.model.me

    @property
    def table(self) -> TableView | None:
        return self.model.table

    @property
    def in_hand(self) -> bool:
        return self.model.in_hand

    @property
    def ended(self) -> bool:
        return self.model.ended

    @property
    def live(self) -> bool:
        return self.model.live

    @property
    def log(self) -> deque[LogLine]:
        return self.model.log

    @property
    def logged(self) -> int:
        return self.model.logged

    @property
    def on_log(self) -> Callable[[LogLine], None] | None:
        return self.model.on_log

    @on_log.setter
    def on_log(self, hear: Callable[[LogLine], None] | None) -> None:
        self.model.on_log = hear

    @property
    def trick_story(self) -> TrickStory:
        return self.model.trick_story

    @property
    def results(self) -> HandEnded | None:
        return self.model.results

    @results.setter
    def results(self, results: HandEnded | None) -> None:
        self.model.results = results

    @property
    def countdowns(self) -> Countdowns:
        return self.model.countdowns

    @property
    def timers(self) -> TimersView | None:
        return self.model.timers

    @property
    def new_events(self) -> list[Event]:
        return self.model.new_events

    @property
    def timed_out(self) -> int:
        return self.model.timed_out

    @property
    def refused_answers(self) -> int:
        return self.model.refused_answers

    @property
    def snapshots(self) -> int:
        return self.model.snapshots

    @property
    def owed(self) -> Decision | None:
        return self.model.owed

    @property
    def answered(self) -> bool:
        return self.model.answered

    @property
    def auto_passed(self) -> Decision | None:
        return self.model.auto_passed

    def name_of(self, player: int) -> str:
        return self.model.name_of(player)

    def seat_name(self, player: int) -> str:
        return self.model.seat_name(player)

    def leaving(self) -> set[int]:
        return self.model.leaving()

    def add_log(self, kind: str, text: str) -> None:
        self.model.add_log(kind, text)

    @property
    def choosing(self) -> Chooser | None:
        """The decision being chosen on screen (none once our answer is on its way)."""
        return None if self.model.answered else self.chooser

    def namer(self) -> Names:
        names = {} if self.session is None else self.session.names
        return Names({p: self.name_of(p) for p in names})

    def say(self, text: str, level: str = "info") -> None:
        self.notice = Notice(text, level)

    # ------------------------------------------------------------------ finding a table

    def set_listings(self, listings: list[TableListing]) -> None:
        chosen = self.listings[self.discovery_index] if self.listings else None
        self.listings = list(listings)
        if chosen is not None and chosen in self.listings:
            self.discovery_index = self.listings.index(chosen)
        self.discovery_index = min(self.discovery_index, max(0, len(self.listings) - 1))
        self.claims = claims(self.listings, self.seats)

    def note_discovery_slow(self) -> None:
        """A few seconds went by: say what to check if nothing was found."""
        self.discovery_slow = True

    def _discover_press(self, key: str) -> list[Effect]:
        if key == "up" and self.listings:
            self.discovery_index = (self.discovery_index - 1) % len(self.listings)
        elif key == "down" and self.listings:
            self.discovery_index = (self.discovery_index + 1) % len(self.listings)
        elif key == "a":
            self.editor = LineEditor("address", N_("Host address (HOST or HOST:PORT):"))
        elif key == "enter" and self.listings:
            return self._pick(self.listings[self.discovery_index])
        return []

    def _pick(self, listing: TableListing) -> list[Effect]:
        if not listing.compatible:
            if listing.protocol_version is None:
                self.say(self.t._("That host does not say which protocol it speaks."), "warning")
            else:
                self.say(
                    self.t._(
                        "That host speaks protocol version {host} and this client speaks "
                        "version {client}: they cannot play together."
                    ).format(host=listing.protocol_version, client=PROTOCOL_VERSION),
                    "warning",
                )
            return []
        if not listing.usable:
            self.say(
                self.t._("That listing has no usable address; try joining by address."), "warning"
            )
            return []
        self._target = (listing.addresses[0], listing.port, bool(listing.code_required))
        self.address = _address_text(listing.addresses[0], listing.port)
        return self._ask_name()

    def _ask_name(self) -> list[Effect]:
        if self.name_given and self.name:
            return self._ask_code()
        self.screen = Screen.FORM
        self.editor = LineEditor("name", N_("Your name:"), self.name, MAX_NAME_CHARS)
        return []

    def _ask_code(self) -> list[Effect]:
        assert self._target is not None
        host, port, needs_code = self._target
        if needs_code and not self.code:
            self.screen = Screen.FORM
            self.editor = LineEditor("code", N_("Join code:"), "", MAX_CODE_CHARS)
            return []
        self.screen = Screen.CONNECTING
        return [Join(host, port, self.name, self.code)]

    def _edited(self, editor: LineEditor) -> list[Effect]:
        text = editor.text.strip()
        if editor.purpose == "chat":
            return [Send({"type": "chat", "text": text[:MAX_CHAT_CHARS]})] if text else []
        if editor.purpose in ("address", "name", "code", "retry_code"):
            self.notice = None  # what was wrong with the last answer; a new one is said below
        if editor.purpose == "address":
            try:
                host, port = parse_address(text)
            except BadAddress as error:
                self.say(error.told(self.t._), "error")
                self.editor = editor
                return []
            self._target = (host, port, False)
            self.address = _address_text(host, port)
            return self._ask_name()
        if editor.purpose == "name":
            if not text:
                self.say(self.t._("Your name cannot be empty."), "error")
                self.editor = editor
                return []
            self.name = text
            return self._ask_code()
        if editor.purpose.startswith("rule:"):
            return self._result(typed_rule(editor.purpose[5:], text, self._rules()))
        if editor.purpose == "retry_code":
            if not text:
                return []
            self.code = text
            return [Rejoin(spectator=False, code=text)]
        if editor.purpose == "code":
            self.code = text or None
            return self._ask_code() if self.code else self._cancel_form()
        return []

    def _cancel_form(self) -> list[Effect]:
        if self.session is None:
            self.screen = Screen.DISCOVER
        return []

    # ------------------------------------------------------------------ the connection

    def connecting(self, session: ClientSession, address: str) -> None:
        self.session = session
        self.address = address
        self.screen = Screen.CONNECTING
        self.status = Status.CONNECTING
        self.model.connecting()

    def cannot_connect(self, reason: str, kind: str | None = None) -> None:
        """The first connection failed; ``kind`` is ``CannotConnect.kind``."""
        self.problem = describe_unreachable(self.t, self.address, reason, kind)
        self.problem_detail = None
        self.refusal = refusals.unreachable(
            self.t, self.address, reason, can_list=self.lists_tables, kind=kind
        )
        self.screen = Screen.PROBLEM

    def back_to_list(self) -> None:
        """The refusal screen's way back: the list of tables, as when the program started."""
        self.session = None
        self.screen = Screen.DISCOVER
        self.status = Status.CONNECTING
        self.ever_connected = False
        self.refusal = None
        self.problem = self.problem_detail = None
        self.notice = None
        self.editor = None
        self.chooser = None
        self.code = None
        self.model.forget()

    def on_status(self, status: Status) -> None:
        previous, self.status = self.status, status
        if status is Status.CONNECTED:
            if previous is Status.RECONNECTING:
                self.model.reconnected()
                self.say(self.t._("Reconnected."))
            self.ever_connected = True
            if self.screen is Screen.CONNECTING:
                self.screen = Screen.TABLE
        elif status is Status.RECONNECTING:
            self._tell_drop(previous)
        elif status is Status.CLOSED and self.screen is not Screen.PROBLEM:
            session = self.session
            if session is not None and session.closed_reason is not None:
                self._show_closed(session)
            elif not self.ended:
                self.problem = self.t._("The connection to the host is closed.")
                self.problem_detail = None
                self.refusal = refusals.closed(
                    self.t,
                    self.problem,
                    None,
                    can_list=self.lists_tables,
                    can_retry=not self.local_host,
                )
                self.screen = Screen.PROBLEM

    def _tell_drop(self, previous: Status) -> None:
        """Reconnecting: say why, once for each new reason (a host that stays away is
        tried again and again; its reason is not repeated each time)."""
        session = self.session
        reason = None if session is None else session.last_drop
        kind = None if session is None else session.last_drop_kind
        if kind in CONNECT_FAILURES:
            reason = self.t._(CONNECT_FAILURES[kind])
        if previous is Status.RECONNECTING and reason == self._drop_told:
            return
        self._drop_told = reason
        if reason is None:
            line = self.t._("Connection lost; reconnecting…")
        else:
            line = self.t._("Connection lost ({reason}); reconnecting…").format(reason=reason)
        self.add_log("error", line)
        if self.screen is Screen.CONNECTING:
            self.say(line, "error")

    _drop_told: str | None = None

    def _show_closed(self, session: ClientSession) -> None:
        fatal = next((e for e in reversed(session.errors) if e.fatal), None)
        can_list = self.lists_tables
        if session.broken is not None:
            self.problem = describe_broken(self.t, session.broken)
            self.problem_detail = None
            self.refusal = refusals.closed(self.t, self.problem, None, can_list=can_list)
        elif fatal is not None:
            self.problem = describe_error(self.t, fatal)
            # Not "the host said": this client's own finding, already said in words.
            self.problem_detail = None if fatal.code == HOST_UNPROVEN else fatal.message
            self.refusal = refusals.for_error(
                self.t, fatal, can_list=can_list, spectator=session.spectator
            )
            if self.refusal.kind == "code":
                self._ask_code_again()
        else:
            ended = session.observation.ended if session.observation is not None else None
            self.problem = describe_goodbye(
                self.t, session.goodbye_code, None if ended is None else ended.reason
            )
            # A goodbye with a known code is said in words; its English reason adds nothing.
            known = session.goodbye_code in GOODBYE_SENTENCES
            self.problem_detail = None if known else session.closed_reason
            # The table ended before the goodbye: keep its standings on screen.
            standings = (
                ()
                if ended is None
                else tuple(final_rows(self.t, ended, self.table, session.observation, self.name_of))
            )
            self.refusal = refusals.closed(
                self.t,
                self.problem,
                self.problem_detail,
                can_list=can_list,
                standings=standings,
                can_retry=session.goodbye_code == "shutting_down"
                and ended is None
                and not self.local_host,
            )
        self.screen = Screen.PROBLEM

    def _ask_code_again(self) -> None:
        self.editor = LineEditor("retry_code", N_("Join code:"), "", MAX_CODE_CHARS)

    def _refusal_press(self, key: str) -> list[Effect]:
        assert self.refusal is not None
        action = self.refusal.answer(key)
        spectator = self.session is not None and self.session.spectator
        if action == refusals.QUIT:
            return [Quit()]
        if action == refusals.LIST:
            return [BackToList()]
        if action == refusals.WATCH:
            return [Rejoin(spectator=True, code=self.code)]
        if action == refusals.RETRY:
            return [Rejoin(spectator=spectator, code=self.code)]
        if action == refusals.CODE:
            self._ask_code_again()
        return []

    def on_message(self, message: Message) -> list[Effect]:
        """A message the session has already taken in; effects to carry out (if any).
        The table model takes it in (decoded once, dispatched once); this shows what it
        says the screen must show, and builds the chooser for a new decision."""
        session = self.session
        assert session is not None
        self.model.auto_pass = self.preferences.auto_pass
        got = self.model.receive(message)
        effects: list[Effect] = []
        stalled = self.notice is not None and self.notice.text == self.model.stalled_text()
        if got.saving_again and stalled:
            self.notice = None
        if got.welcomed:
            self.screen = Screen.TABLE
        if got.hand_started:
            self.notice = None
        if got.table_ended:
            self.overlay = None
        if got.nudge is not None:
            self.say(got.nudge, "warning")
            self.nudged = True  # the runtime rings the bell once
        if got.error is not None:
            self.say(got.error, "error")
        if got.answer_refused:
            # Our answer was refused: a fresh snapshot brings back the decision owed.
            effects.append(Send({"type": "snapshot_request"}))
        if got.closed is not None or got.goodbye:
            self._show_closed(session)
        self._follow_rules_sent(got.rules_refused)
        if got.decision_changed:
            effects += self._decision_changed(session)
        return effects

    nudged = False
    """This seat was just nudged: the table screen rings the bell (and clears this)."""

    def _decision_changed(self, session: ClientSession) -> list[Effect]:
        """Another decision is owed (or none): its chooser; auto-pass waits a moment."""
        if self.notice is not None and self.notice.level == "warning":
            self.notice = None  # it explained a key pressed for the decision before
        decision = self.model.owed
        if decision is None:
            self.chooser = None
            return []
        observation = session.observation
        hand = None if observation is None else observation.hand
        order = () if observation is None else observation.order
        # A front end that draws no table asks the decision its own way (the plain
        # table's numbered question): no chooser is built for it.
        self.chooser = chooser_for(decision, hand, order) if self.model.draws_table else None
        if self.model.auto_passing():
            # The pass goes out after a pause (``wake``): the player sees what beat them.
            return [Wake(AUTO_PASS_PAUSE_S)]
        return []

    def wake(self) -> list[Effect]:
        """Auto-pass's pause is over: the pass goes out, if the decision is still owed
        and auto-pass still on (``a`` in the pause gives the decision back)."""
        if not self.model.auto_passing():
            return []
        self.add_log("info", self.t._(AUTO_PASSED))
        self.chooser = None
        self.model.auto_passed = None  # given: a second wake sends nothing
        return [Send(self._answer_message(Pass()))]

    # ------------------------------------------------------------------ keys

    def press(self, key: str) -> list[Effect]:
        if self.confirmation is not None:
            return self._confirm(key)
        if key == "c-c":
            return self._quit()
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
        if self.screen is Screen.DISCOVER:
            if key in ("q", "escape"):
                return [Quit()]
            return self._discover_press(key)
        if self.screen is Screen.PROBLEM and self.refusal is not None:
            return self._refusal_press(key)
        if self.screen in (Screen.PROBLEM, Screen.CONNECTING, Screen.FORM):
            if key in ("q", "escape", "enter"):
                return [Quit()]
            return []
        return self._table_press(key)

    def _scroll_help(self, key: str) -> None:
        cols, rows = self.size
        page = max(1, help_rows(rows) - 1)
        step = {"up": -1, "down": 1, "pageup": -page, "pagedown": page, "space": page}
        if key in step:
            top = help_max_scroll(self.t, cols, rows, discover=self.screen is Screen.DISCOVER)
            self.help_scroll = min(top, max(0, self.help_scroll + step[key]))

    def _edit(self, key: str) -> list[Effect]:
        editor = self.editor
        assert editor is not None
        outcome = editor.press(key)
        if outcome is None:
            return []
        self.editor = None
        if outcome == "cancel":
            if editor.purpose in ("name", "code", "address"):
                return self._cancel_form()
            return []
        return self._edited(editor)

    def _table_press(self, key: str) -> list[Effect]:
        if self.overlay is Overlay.RULES:
            if key in ("escape", "o"):
                self.overlay = None
                self.notice = None  # it was about the rule options, now out of sight
                return []
            field = self.rules_editor.field.key
            typed = decimal(key) is not None
            if field in TYPED_FIELDS and (key == "enter" or typed):
                low, high = TYPED_RANGES[field]
                self.notice = None
                self.editor = LineEditor(
                    f"rule:{field}",
                    TYPED_FIELDS[field],
                    key if typed else "",
                    len(str(high)),
                    {"low": low, "high": high},
                )
                return []
            return self._result(self.rules_editor.press(key, self._rules()))
        if key == "q":
            return self._quit()
        if key == "t":
            self.editor = LineEditor("chat", N_("Say:"), "", MAX_CHAT_CHARS)
            return []
        if key == "a" and self.session is not None and not self.session.spectator:
            return self._toggle_auto_pass()
        if self.results is not None and key not in ("?", "pageup", "pagedown"):
            if key in ("enter", "space", "r") and self.reading_results():
                return [Send({"type": "ready", "ready": True})]  # the results stay meanwhile
            if self.ended:
                self.results = None  # the last hand's points read: the final standings
                return []
            self.results = None  # any other key: back to the table
            return []
        if key == "enter" and self.reading_results() and self.chooser is None:
            return [Send({"type": "ready", "ready": True})]
        if self.ended and key == "r" and self.session is not None and self.session.is_host:
            return [Send({"type": "rematch"})]
        if key == "m" and self.in_hand:
            self.show_memory = not self.show_memory
            return []
        if key == "end":  # back to the newest lines
            self.log_scroll = 0
            return []
        if key in ("pageup", "pagedown"):
            top = max(0, len(self.log) - 1) if self.log_top is None else self.log_top
            step = 5 if key == "pageup" else -5
            self.log_scroll = min(top, max(0, min(self.log_scroll, top) + step))
            return []
        if self.chooser is not None and not self.model.answered:
            result = self.chooser.press(key)
            if result.handled:
                return self._result(result)
        # After the decision's own keys (a revolution's n is no nudge).
        host = self.session is not None and self.session.is_host
        if key in ("n", "N") and host and self.table is not None and self.table.playing:
            return self._nudge(skip=key == "N")
        table = self.table
        if table is not None and table.lobby and self.session is not None:
            if key == "o":
                if not self.session.is_host:
                    self.say(self.t._("Only the host player may change the rules."), "warning")
                    return []
                self.overlay = Overlay.RULES
                self.notice = None  # it was about the lobby's keys
                return []
            result = self.lobby.press(key, table, self.me, self.session.is_host)
            unready = self.not_ready()
            if result.request == {"type": "start"} and unready:
                self.confirmation = self._start_question(unready)
                return []
            return self._result(result)
        return []

    def reading_results(self) -> bool:
        """Between hands, with a seat whose results the next deal waits for."""
        session, table = self.session, self.table
        if session is None or table is None or session.observation is None or self.me is None:
            return False
        if not table.playing or session.observation.phase != "hand_over":
            return False
        seat = table.seat(self.me)
        return seat is not None and not seat.ready

    def still_reading(self) -> list[str]:
        """Between hands, the people the next deal still waits for."""
        table = self.table
        if table is None or self.session is None or self.session.observation is None:
            return []
        # The same people the host waits for: those in the game and those joining it.
        in_game = set(self.session.observation.order) | set(self.session.observation.joining)
        return [
            self.name_of(s.player)
            for s in table.players
            if s.player in in_game and s.is_human and s.connected and not s.stand_in and not s.ready
        ]

    def _toggle_auto_pass(self) -> list[Effect]:
        on = not self.preferences.auto_pass
        self.preferences.set_auto_pass(on)
        if not on and self.model.auto_passing():
            # Turned off in the pause: the decision is the player's again.
            self.model.auto_passed = None
            self.model.answered = False
        self.say(
            self.t._("Auto-pass is on: when nothing of yours beats the table, you pass.")
            if on
            else self.t._("Auto-pass is off: you pass yourself, with p.")
        )
        return []

    def waited_for(self) -> list[int]:
        """The players the table waits for that the host player may nudge or skip."""
        session = self.session
        observation = None if session is None else session.observation
        if observation is None or self.table is None or not self.table.playing:
            return []
        hosts = {s.player for s in self.table.players if s.host}
        return [p for p in observation.waiting if p != self.me and p not in hosts]

    def _nudge(self, skip: bool) -> list[Effect]:
        waiting = self.waited_for()
        if not waiting:
            self.say(self.t._("Nobody is being waited for."), "warning")
            return []
        player = waiting[0]
        if not skip:
            return [Send({"type": "nudge", "player": player})]
        self.confirmation = Confirmation(
            self.t._("Skip {name}?").format(name=self.name_of(player)),
            (
                Choice(
                    "y",
                    f"skip:{player}",
                    N_("skip"),
                    self.t._(
                        "The host makes the default move for {name} now (a pass where "
                        "passing is allowed)."
                    ).format(name=self.name_of(player)),
                ),
            ),
        )
        return []

    def not_ready(self) -> list[str]:
        """The seated people, other than the host player, who have not said ready."""
        table = self.table
        seats = () if table is None else table.players
        return [self.name_of(s.player) for s in seats if s.is_human and not s.ready and not s.host]

    def _start_question(self, unready: list[str]) -> Confirmation:
        t = self.t
        names = t.list_separator.join(unready)
        return Confirmation(
            t.n_("{n} player is not ready", "{n} players are not ready", len(unready)).format(
                n=len(unready)
            ),
            (
                Choice(
                    "s",
                    "start",
                    N_("start anyway"),
                    t.n_(
                        "Not ready yet: {names}. Start the table anyway?",
                        "Not ready yet: {names}. Start the table anyway?",
                        len(unready),
                    ).format(names=names),
                ),
            ),
        )

    def _rules(self) -> dict[str, Any]:
        """The menu's values (the rules and the table's clocks) as they will be: the
        table's, with the changes sent and not yet seen back (five ← in a burst go 20, 19
        ... 15, not 20, 19, 19 ...)."""
        return {**menu_values(self.table), **self._rules_sent}

    def _follow_rules_sent(self, refused: bool) -> None:
        """A change sent is settled when the table shows it; a refusal drops them all."""
        if not self._rules_sent:
            return
        table = self.table
        if refused or table is None or not table.lobby:
            self._rules_sent = {}
            return
        rules = menu_values(table)  # (the same table as before: nothing settles)
        self._rules_sent = {k: v for k, v in self._rules_sent.items() if rules.get(k) != v}

    def answer(self, action: Action) -> list[Effect]:
        """Answer the owed decision with ``action`` (a front end's own prompt chose it)."""
        self.model.answered = True
        self.chooser = None
        self.notice = None
        return [Send(self._answer_message(action))]

    def _answer_message(self, action: Action) -> Message:
        """The answer, naming the decision it answers: a late one is refused, not applied
        to the next decision."""
        message = action_message(action)
        decision_id = None if self.session is None else self.session.decision_id
        if decision_id is not None:
            message["decision_id"] = decision_id
        return message

    def _result(self, result: Result) -> list[Effect]:
        if result.handled and result.problem is None:
            self.notice = None  # the explanation was about the choice before this key
        if result.problem is not None:
            self.say(result.problem.show(self.t), "warning")
            return []
        if result.action is not None:
            return self.answer(result.action)
        if result.request is not None:
            self.notice = None
            if result.request.get("type") == "set_rules":
                self._rules_sent.update(result.request["rules"])
            elif result.request.get("type") == "set_timing":
                self._rules_sent.update(timing_sent(result.request))
            return [Send(result.request)]
        return []

    def _quit(self) -> list[Effect]:
        """``q``: at a table that is being played, ask first what quitting should mean."""
        session = self.session
        table = self.table
        playing = (
            self.screen is Screen.TABLE
            and session is not None
            and table is not None
            and not self.ended
        )
        if not playing or session is None or table is None:
            return [Quit()]
        if self.local_host:
            self.confirmation = self._end_question()
        elif session.player is not None and table.playing:
            self.confirmation = self._leave_question()
        else:
            return [Quit()]  # watching, or in the lobby (where a seat is only a place in line)
        return []

    def _grace_seconds(self) -> int:
        """How long a dropped seat is kept, as the host said (clamped by the session)."""
        session = self.session
        return round((60_000 if session is None else session.limit_ms("grace_period_ms")) / 1000)

    def _leave_question(self) -> Confirmation:
        t = self.t
        seconds = self._grace_seconds()
        heirs = self._heirs()
        if self._heir not in [player for player, _ in heirs]:
            self._heir = heirs[0][0] if heirs else None
        ends = self._leave_ends()
        if ends is not None:
            leave = t._(LEAVE_ENDS_CHOICE[ends])
        else:
            leave = t._("Leave the table: give up your seat for good; a bot finishes this hand.")
        if heirs:
            name = next(name for player, name in heirs if player == self._heir)
            leave += " " + t._("{name} becomes the host player.").format(name=name)
        keep = Choice(
            "q",
            "quit",
            N_("quit this program"),
            t._(
                "Quit this program: your seat stays yours. Run dalmuti join again "
                "to take it back; a bot plays it if you are away over {n} s."
            ).format(n=seconds),
        )
        if self.status is not Status.CONNECTED:
            # A `leave` cannot reach the host now: offering it would be a promise not kept.
            unsent = t._("Leaving the table needs the connection to the host; it is down now.")
            return Confirmation(
                t._("Quit?"), (replace(keep, sentence=f"{keep.sentence} {unsent}"),)
            )
        choices = [keep, Choice("l", "leave", N_("leave the table"), leave)]
        if len(heirs) > 1:
            choices.append(Choice("h", "heir", N_("another host player")))
        return Confirmation(t._("Quit?"), tuple(choices))

    def _how_to_return(self) -> str:
        """Said once this program has quit keeping the seat: how to take it back."""
        seconds = self._grace_seconds()
        return self.t._(
            "Your seat is kept. To take it back, run: dalmuti join {address} "
            "(a bot plays it while you are away over {n} s)."
        ).format(address=self.address, n=seconds)

    def _end_question(self) -> Confirmation:
        t = self.t
        table = self.table
        lobby = table is not None and table.lobby
        if lobby:
            sentence = t._(
                "This program runs the table: quitting closes it before it starts, and "
                "everyone at it is told why."
            )
        else:
            sentence = t._(
                "This program runs the table: quitting ends it for everyone. "
                "Everyone sees the final standings and is told why."
            )
        choices = [Choice("e", "end", N_("end the table and quit"), sentence)]
        heirs = self._heirs() if self.status is Status.CONNECTED else []
        if self._heir not in [player for player, _ in heirs]:
            self._heir = heirs[0][0] if heirs else None
        if heirs:
            name = next(name for player, name in heirs if player == self._heir)
            ends = None if lobby else self._leave_ends()
            if lobby:
                leave = t._("Leave the table: give up your seat.")
            elif ends is not None:
                leave = t._(LEAVE_ENDS_CHOICE[ends])
            else:
                leave = t._(
                    "Leave the table: give up your seat for good; a bot finishes this hand."
                )
            leave += " " + t._("{name} becomes the host player.").format(name=name)
            leave += " " + t._("This program keeps the table running without you until Ctrl-C.")
            choices.append(Choice("l", "host", N_("leave the table, keep hosting"), tidy(leave)))
            if len(heirs) > 1:
                choices.append(Choice("h", "heir", N_("another host player")))
        return Confirmation(t._("Quit?"), tuple(choices))

    def _leave_ends(self) -> LeaveEnds | None:
        """How this player leaving now would end the table, as the host says."""
        return leave_ends(self.table, self.me)

    def _heirs(self) -> list[tuple[int, str]]:
        """Who may take the host role when this host player leaves, the host's own choice
        first (the host says who: the table's ``heirs``)."""
        return named_heirs(self.table) if self.session is not None and self.session.is_host else []

    def _confirm(self, key: str) -> list[Effect]:
        confirmation = self.confirmation
        assert confirmation is not None
        if key == "c-c":
            # Ctrl-C again: the first choice, which never gives anything up by surprise
            # (quit keeping the seat; for the host player, the announced end).
            action: str | None = confirmation.choices[0].action
        else:
            action = confirmation.answer(key)
        if action is None:
            return []
        self.confirmation = None
        if action == "quit":
            self.farewell = self._how_to_return()
            return [Quit()]
        if action == "heir":  # the next one in line: the question stays open
            heirs = [player for player, _ in self._heirs()]
            at = heirs.index(self._heir) + 1 if self._heir in heirs else 0
            self._heir = heirs[at % len(heirs)]
            self.confirmation = self._end_question() if self.local_host else self._leave_question()
            return []
        if action in ("leave", "host"):
            if action == "leave":  # (a host that keeps hosting prints how the table ends)
                ends = self._leave_ends()
                if ends is not None:
                    self.farewell = self.t._(LEAVE_ENDS_FAREWELL[ends])
                else:
                    self.farewell = self.t._(LEFT_MID_GAME if self.in_hand else LEFT)
            leave: Message = {"type": "leave"}
            if self._heir is not None and self.session is not None and self.session.is_host:
                leave["heir"] = self._heir
            return [Send(leave), Quit(keep_hosting=action == "host")]
        if action == "end":
            return [Quit(end_table=True)]
        if action == "start":
            return [Send({"type": "start"})]
        if action.startswith("skip:"):
            return [Send({"type": "skip", "player": int(action[5:])})]
        assert action == BACK
        return []

    # ------------------------------------------------------------------ hints

    def hints(self) -> list[Hint]:
        if self.confirmation is not None:
            return self.confirmation.hints()
        if self.editor is not None:
            return [Hint("Enter", N_("accept")), Hint("Esc", N_("cancel"))]
        if self.own_hints is not None:
            return self.own_hints()
        if self.overlay is Overlay.HELP:
            return list(HELP_HINTS)
        if self.overlay is Overlay.RULES:
            return self.rules_editor.hints()
        if self.screen is Screen.DISCOVER:
            return [
                Hint("↑↓", N_("choose")),
                Hint("Enter", N_("join")),
                Hint("a", N_("join by address")),
                Hint("?", N_("help")),
                Hint("q", N_("quit")),
            ]
        if self.screen is Screen.PROBLEM and self.refusal is not None:
            return [Hint(c.key, c.label) for c in self.refusal.choices]
        if self.screen is not Screen.TABLE:
            return [Hint("q", N_("quit"))]
        hints: list[Hint] = []
        if self.results is not None and self.ended:
            hints.append(FINAL_STANDINGS_HINT)
        elif self.results is not None:
            if self.reading_results():
                hints.append(READ_RESULTS_HINT)
            hints.append(Hint("Esc", N_("back to the table")))
        elif self.ended and self.session is not None and self.session.is_host:
            hints.append(REMATCH_HINT)
        elif self.reading_results():
            hints.append(READ_RESULTS_HINT)
        elif self.chooser is not None and not self.model.answered:
            hints += self.chooser.hints()
        elif (
            self.table is not None
            and self.table.lobby
            and self.session
            and not self.session.spectator
        ):
            hints += self.lobby.hints(self.session.is_host)
        if self.in_hand and self.results is None:
            hints.append(Hint("m", N_("cards played")))
        if self.session is not None and self.session.is_host and self.waited_for():
            hints += [Hint("n", N_("nudge")), Hint("N", N_("skip"))]
        if self.in_hand and self.session is not None and not self.session.spectator:
            on = self.preferences.auto_pass
            hints.append(Hint("a", N_("auto-pass on") if on else N_("auto-pass off")))
        hints += [Hint("t", N_("chat")), Hint("?", N_("help")), Hint("q", N_("quit"))]
        return hints


def _address_text(host: str, port: int) -> str:
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
