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

from ...engine import Action, Decision, Pass, PlayDecision
from ...engine.events import (
    Event,
    HandEnded,
    HandStarted,
    PlayerRemoved,
    TableEnded,
    Waiting,
)
from ...lang.i18n import N_, Translator
from ...lang.text import tidy
from ...protocol import PROTOCOL_VERSION
from ...protocol.catalogue import MAX_CHAT_CHARS, MAX_CODE_CHARS, MAX_NAME_CHARS
from ...protocol.discovery import TableListing
from ...protocol.messages import Message, action_message
from ..address import BadAddress, parse_address
from ..claims import MOVED_ON_JOIN, Claim, claims
from ..model.countdowns import Countdowns, moved_for_note
from ..model.departures import (
    final_rows,
    hand_over_sentence,
    leaving_players,
    moved_up_sentence,
)
from ..model.narration import TableChanges, Told
from ..model.story import TrickStory, describe_event
from ..model.views import (
    ChatLine,
    ChatSent,
    ErrorSent,
    EventSent,
    MovedForSent,
    NudgedSent,
    OtherSent,
    SnapshotSent,
    SnapshotView,
    TableSent,
    TableView,
    TimersSent,
    TimersView,
    Welcomed,
    decode_message,
    decode_table,
    decode_welcome,
    says_host_saves,
)
from ..seats import SeatStore
from ..session import HOST_UNPROVEN, ClientSession, HostError
from ..status import Status
from . import refusals
from .choosers import Chooser, Hint, Names, Result, chooser_for
from .config import Preferences
from .confirm import BACK, Choice, Confirmation
from .errors import (
    CONNECT_FAILURES,
    GOODBYE_SENTENCES,
    describe_broken,
    describe_error,
    describe_goodbye,
    describe_unreachable,
)
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

LOG_LINES = 500
REMATCH_HINT = Hint("r", N_("rematch"))
"""The host player's key once the table is over (the turn line names it too)."""
READ_RESULTS_HINT = Hint("Enter", N_("ready for the next hand"))
FINAL_STANDINGS_HINT = Hint(N_("any key"), N_("final standings"))
"""The results' keys, between hands and after the last (the web table names them)."""
AUTO_PASSED = N_("Nothing of yours beats it: passed for you (auto-pass).")
AUTO_PASSING = N_("Nothing of yours beats it: auto-pass passes for you in a moment.")
AUTO_PASS_PAUSE_S = 1.2
"""How long auto-pass waits before it passes. Passing the moment the decision came, the
pass was on screen before the player had looked at the play that beat them. A glance at
the table's line ("Bo: Cook ×2") takes about a second: a little longer than a paced bot's
move (0.8 s, host/settings.py), so the table keeps the rhythm of people playing; much
longer, and a trick where every person auto-passes drags, each waiting in turn. Far below
the shortest turn timer (5 s), which would otherwise answer first."""


def only_pass(decision: Decision) -> bool:
    """Whether passing is the only legal answer (nothing in the hand beats the table)."""
    return isinstance(decision, PlayDecision) and decision.may_pass and not decision.sets


HAND_PHASES = ("dealing", "placement", "misdeal", "revolution", "taxes", "play")


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


@dataclass(frozen=True)
class LogLine:
    kind: str
    """event, chat, error or info: how the line is styled."""
    text: str


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
        self.live = live
        """A table being played over a connection (a replay is not: it has no connection
        to show in the header, and it answers nothing by itself)."""
        self.logged = 0
        """Lines added to the log so far (the log itself keeps only the last ones)."""
        self.on_log: Callable[[LogLine], None] | None = None
        """Told each line as the log gains it (the plain table prints them)."""
        self.own_hints: Callable[[], list[Hint]] | None = None
        """A front end's own key line in place of the table's (the replay's keys)."""
        # What the last messages changed, for front ends that say more than the log
        # (the plain table reads them instead of looking at the messages again).
        self.new_events: list[Event] = []
        """The events the last message brought."""
        self.timers: TimersView | None = None
        """The host's last timers."""
        self.timed_out = 0
        """How many times the host's turn timer moved for this seat."""
        self.refused_answers = 0
        """How many of this seat's answers the host refused (the decision is still owed)."""
        self.snapshots = 0
        """Snapshots taken in: after the first, the table is there to be shown."""
        self.draws_table = draws_table
        """This front end draws the table (seats with their ready marks): its log leaves
        out what the drawing shows. The plain table draws nothing and says it all."""
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
        self.log: deque[LogLine] = deque(maxlen=LOG_LINES)
        self.log_scroll = 0
        self.farewell: str | None = None
        """The line said once the player has left, where leaving ended the table or ends
        it (the table screen prints it after closing, the plain table as it quits)."""
        self.log_top: int | None = None
        """How far PgUp scrolls the log: to its first page, a full one, as last drawn
        (``screen.render`` says; None before that)."""
        self.trick_story = TrickStory()
        """The trick in progress as it happened, and the last one until the next lead."""
        self.results: HandEnded | None = None
        """The hand just over, shown as a results screen until the next deal or a key."""
        self.show_memory = False
        """``m``: the cards played so far, where the screen has no room to show them always."""
        self.notice: Notice | None = None
        self.overlay: Overlay | None = None
        self._welcomed = False
        self.help_scroll = 0
        """The first line of the help's text on screen."""
        self.size = (80, 24)
        """The terminal's columns and rows, as last drawn (paging moves by a screenful)."""
        self.countdowns = Countdowns()
        self._moved_for: tuple[int, str] | None = None
        """The next move logged was made for this player: by the turn timer or a stand-in."""
        self.confirmation: Confirmation | None = None
        """A modal question: while it is open, it takes every key."""
        self._host_player: int | None = None
        """The host player as last seen, to say so when the role changes hands."""
        self._heir: int | None = None
        """Who the host player, leaving, hands the host role to."""
        self.editor: LineEditor | None = None
        self.chooser: Chooser | None = None
        self._decision_seen: Decision | None = None
        self._answered = False
        self._resumed = False
        self._arriving = False
        self.lobby = LobbyKeys()
        self.changes = TableChanges()
        """Who sits down, leaves, drops, comes back or watches, in sentences."""
        self._seating: list[int] = []
        """The next hand's seating, as the last result left it: who moves up for a leaver."""
        self._told_made_for: set[tuple[int | None, int]] = set()
        self._rules_sent: dict[str, Any] = {}
        """Rule changes sent that the table does not show yet."""
        """Moves the stand-in made for this seat already told after a return."""
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

    @property
    def me(self) -> int | None:
        return None if self.session is None else self.session.player

    @property
    def table(self) -> TableView | None:
        """The host's last ``table``, decoded once (``client.model.views``)."""
        raw = None if self.session is None else self.session.table
        if raw is None:
            return None
        if raw is not self._raw_table:
            self._raw_table, self._table_view = raw, decode_table(raw)
        return self._table_view

    _raw_table: object = None
    _table_view: TableView | None = None

    @property
    def in_hand(self) -> bool:
        session = self.session
        if session is None or session.observation is None or self.table is None:
            return False
        return self.table.playing and session.observation.phase in HAND_PHASES

    @property
    def ended(self) -> bool:
        session = self.session
        table_over = self.table is not None and self.table.phase == "ended"
        return table_over or (
            session is not None
            and session.observation is not None
            and session.observation.ended is not None
        )

    @property
    def choosing(self) -> Chooser | None:
        """The decision being chosen on screen (none once our answer is on its way)."""
        return None if self._answered else self.chooser

    def name_of(self, player: int) -> str:
        name = self.seat_name(player)
        return self.t._("{name} (you)").format(name=name) if player == self.me else name

    def seat_name(self, player: int) -> str:
        """The seat's name as the host gave it (a bot's too: one name on every screen)."""
        table = self.table
        seat = None if table is None else table.seat(player)
        if seat is not None:
            return seat.name
        gone = None if table is None else table.departed_seat(player)
        if gone is not None:  # left earlier: results still name them
            return gone.name
        return f"#{player}"

    def namer(self) -> Names:
        names = {} if self.session is None else self.session.names
        return Names({p: self.name_of(p) for p in names})

    def leaving(self) -> set[int]:
        """Players who gave up their seat and are still in the seating until the next hand."""
        session = self.session
        return leaving_players(self.table, None if session is None else session.observation)

    def say(self, text: str, level: str = "info") -> None:
        self.notice = Notice(text, level)

    def add_log(self, kind: str, text: str) -> None:
        line = LogLine(kind, text)
        self.log.append(line)
        self.logged += 1
        if self.on_log is not None:
            self.on_log(line)

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
        self._host_player = None

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
        self._decision_seen = None
        self.code = None
        self._welcomed = False
        self.log.clear()

    def on_status(self, status: Status) -> None:
        previous, self.status = self.status, status
        if status is Status.CONNECTED:
            if previous is Status.RECONNECTING:
                self._resumed = True
                self.add_log("info", self.t._("Reconnected."))
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
        The message is decoded once (``client.model.views.decode_message``) and
        dispatched here, once; the plain table reads what it changed from the model."""
        session = self.session
        assert session is not None
        incoming = decode_message(message)
        effects: list[Effect] = []
        self.new_events = []
        if says_host_saves(incoming):
            self._saving_again()
        refused = False  # an error: the rule changes sent are dropped
        match incoming:
            case Welcomed():
                self._welcomed_now(session)
            case TableSent():
                self._follow_table()
            case SnapshotSent(snapshot=snapshot):
                self._take_snapshot(session, snapshot)
                self._follow_table()
            case ChatSent(line=line):
                self._tell_chat(line)
            case TimersSent(timers=timers):
                self.timers = timers
                self.countdowns.update(timers)
                for player, _ in timers.grace:
                    told = self.changes.grace(
                        self.t, self.countdowns, player, self.me, self.name_of
                    )
                    self._tell(None if told is None else [told])
            case MovedForSent(player=player, by=by):
                self._moved_for = (player, by)
                if by == "timer" and player == self.me:
                    self.timed_out += 1
            case NudgedSent(player=player, by=by):
                self._nudged(player, by)
            case ErrorSent(code=code):
                refused = True
                if code == "cannot_save":
                    self._save_stalled = True
                effects += self._host_error(session)
            case EventSent(event=event):
                if event is not None:
                    self.new_events.append(event)
                self._tell_event(event)
            case OtherSent(type="about"):
                if session.moved_from is not None and session.address:
                    # A table id is a claim: where the seat was, and where this host is, said.
                    text = self.t._(MOVED_ON_JOIN).format(
                        old=session.moved_from, new=session.address
                    )
                    self.add_log("info", text)
            case OtherSent(type="goodbye"):
                self._show_closed(session)
            case OtherSent():
                pass
        self._follow_rules_sent(refused)
        effects += self._follow_decision()
        return effects

    def _welcomed_now(self, session: ClientSession) -> None:
        self.screen = Screen.TABLE
        # The runner says CONNECTED before this message is handled: only the first
        # welcome of a run is a welcome back.
        welcomed, self._welcomed = self._welcomed, True
        self._arriving = True  # the snapshot that follows may be the middle of a hand
        if session.seat_was_lost:
            self.add_log(
                "info",
                self.t._("Your earlier seat at this table is gone: you have a new one."),
            )
        elif session.token_from_store and not welcomed:
            self.add_log("info", self.t._("Welcome back: this is your seat, as you left it."))
        self._follow_rematch()
        self._tell_changes()

    def _follow_table(self) -> None:
        """A new table (``table`` or a snapshot's): who holds the host role, a rematch,
        and the seats' changes in words."""
        self._follow_host_player()
        self._follow_rematch()
        self._tell_changes()

    def _tell_changes(self) -> None:
        self._tell(
            self.changes.follow(
                self.t,
                self.table,
                self.me,
                self.name_of,
                self.countdowns,
                countdown_follows=self._countdown_follows(),
            )
        )

    def _host_error(self, session: ClientSession) -> list[Effect]:
        error = session.errors[-1]
        text = describe_error(self.t, error)
        if error.fatal:
            self._show_closed(session)
            return []
        self.add_log("error", text)
        self.say(text, "error")
        if not self._answered:
            return []
        # Our answer was refused: a fresh snapshot brings back the decision owed.
        self._answered = False
        self.refused_answers += 1
        return [Send({"type": "snapshot_request"})]

    def _take_snapshot(self, session: ClientSession, snapshot: SnapshotView) -> None:
        self.snapshots += 1
        marks = snapshot.marks()
        if self._arriving and not any(line.kind == "chat" for line in self.log):
            # What was said before this viewer came (back): the table's last lines.
            for line in snapshot.chat:
                self._tell_chat(line)
        if self._arriving and not any(line.kind == "event" for line in self.log):
            # In the middle of a hand: its log so far, as a watcher from the start saw it.
            for at, event in enumerate(snapshot.hand_events):
                self._moved_for = marks.get(at, self._moved_for)
                self._tell_event(event)
            self._moved_for = None
        elif self._arriving:
            self._tell_moves_made_for_me(snapshot.hand_events, marks)
        observation = session.observation
        if observation is not None:
            self.trick_story.sync(observation)
        self._arriving = False
        if self._resumed:
            self._resumed = False
            self.add_log("info", self.t._("Up to date with the table."))

    def _nudged(self, player: int, by: int) -> None:
        t = self.t
        if player == self.me:
            text = t._("{host} nudges you: the table is waiting for you.").format(
                host=self.seat_name(by)
            )
            self.add_log("error", text)
            self.say(text, "warning")
            self.nudged = True  # the runtime rings the bell once
        else:
            self.add_log(
                "info",
                t._("{host} nudges {name}: the table is waiting for them.").format(
                    host=self.name_of(by), name=self.name_of(player)
                ),
            )

    nudged = False
    """This seat was just nudged: the table screen rings the bell (and clears this)."""
    auto_passed: object = None
    """The decision the client passed on by itself (the plain table asks nothing then)."""

    def _saving_again(self) -> None:
        """After `cannot_save`, the host delivers nothing but heartbeats until it saves
        again (PROTOCOL.md): whatever else comes next says that it does."""
        if not self._save_stalled:
            return
        self._save_stalled = False
        if self.notice is not None and self.notice.text == self._stalled_text():
            self.notice = None
        self.add_log("info", self.t._("The host saves the table again; play goes on."))

    def _stalled_text(self) -> str:
        return describe_error(self.t, HostError("cannot_save", "", False))

    _save_stalled = False

    def _follow_host_player(self) -> None:
        """Say who took over when the host player left (everyone learns it from `table`)."""
        table = self.table
        if table is None:
            return
        host = table.host_player
        before, self._host_player = self._host_player, host
        if before is None or host is None or host == before:
            return
        if host == self.me:
            self.add_log("info", self.t._("You are now the host player."))
        else:
            self.add_log(
                "info", self.t._("{name} is now the host player.").format(name=self.name_of(host))
            )

    _rematch_told = False

    def _follow_rematch(self) -> None:
        """A rematch takes the table back to the lobby: the last game's screens go."""
        table = self.table
        offered = table is not None and table.lobby and table.rematch
        if offered and not self._rematch_told:
            self.results = None
            self.trick_story = TrickStory()
            self.countdowns.clear()
            self.add_log("info", self.t._("The host player offers a rematch with the same seats."))
        self._rematch_told = offered

    def _tell_event(self, event: Event | None) -> None:
        if event is None:
            return
        if isinstance(event, HandStarted):
            self.notice = None
            self.results = None
        self.trick_story.feed(event)
        text = describe_event(self.t, event, self.name_of, self.me)
        if isinstance(event, HandEnded):
            self.results = event
            leaving = self.leaving()
            self._seating = [p for p in event.finishing if p not in leaving]
            limit = None if self.table is None else self.table.rules.hand_limit
            text = hand_over_sentence(
                self.t,
                event.hand,
                event.finishing,
                leaving,
                self.name_of,
                last=limit is not None and event.hand >= limit,
            )
        elif isinstance(event, PlayerRemoved):
            text = self._removed_sentence(event.player)
        mover = getattr(event, "player", getattr(event, "giver", None))
        if text is not None and self._moved_for is not None and mover == self._moved_for[0]:
            text += " " + moved_for_note(self.t, self._moved_for[1], mine=mover == self.me)
            self._moved_for = None
        if isinstance(event, Waiting):
            self._moved_for = None
        if text is not None:
            self.add_log("event", text)
        if isinstance(event, TableEnded):
            self.overlay = None
            if not self.live:
                # A replay steps on its own: its last step is the final standings (the
                # last hand's points are the step before).
                self.results = None

    def _tell(self, told: list[Told] | None) -> None:
        """Table changes into the log (what the screen shows already, only where it does
        not draw the table)."""
        for line in told or []:
            if not (line.shown and self.draws_table):
                self.add_log("info", line.text)

    def _countdown_follows(self) -> bool:
        """At a table with a grace period the host follows a seat's drop with its countdown
        (``timers``), whose sentence says the player is offline."""
        welcome = None if self.session is None else self.session.welcome
        return welcome is not None and bool(decode_welcome(welcome).grace_period_ms)

    def _tell_chat(self, line: ChatLine) -> None:
        self.add_log("chat", f"{line.name}: {line.text}")

    def _tell_moves_made_for_me(
        self, hand_events: tuple[Event | None, ...], marks: dict[int, tuple[int, str]]
    ) -> None:
        """Back at the table after a drop: which moves the stand-in made for this seat
        while it was away (each once, however often the connection comes back)."""
        made = [
            (at, event)
            for at, (player, by) in sorted(marks.items())
            if player == self.me
            and by == "stand_in"
            and at < len(hand_events)
            and (event := hand_events[at]) is not None
        ]
        hand = (
            None
            if self.session is None or self.session.observation is None
            else (self.session.observation.hand_number)
        )
        fresh = [(at, event) for at, event in made if (hand, at) not in self._told_made_for]
        if not fresh:
            return
        self.add_log("info", self.t._("While you were away, the bot standing in for you:"))
        for at, event in fresh:
            self._told_made_for.add((hand, at))
            text = describe_event(self.t, event, self.name_of, self.me)
            if text is not None:
                self.add_log("event", text + " " + moved_for_note(self.t, "stand_in", mine=True))

    def _removed_sentence(self, player: int) -> str:
        """A leaver is out of the seating: those after them move up one place."""
        seating = self._seating
        # Removed before their place was settled (while newcomers were placed): nobody moves.
        movers = seating[seating.index(player) + 1 :] if player in seating else []
        self._seating = [p for p in seating if p != player]
        leaving = self.leaving()
        return moved_up_sentence(
            self.t, self.name_of(player), [self.name_of(p) for p in movers if p not in leaving]
        )

    def _follow_decision(self) -> list[Effect]:
        session = self.session
        assert session is not None
        decision = session.decision
        if decision is self._decision_seen:
            return []
        self._decision_seen = decision
        if self.notice is not None and self.notice.level == "warning":
            self.notice = None  # it explained a key pressed for the decision before
        self.countdowns.decision_owed(self.me, None if decision is None else session.deadline_ms)
        if decision is None:
            self.chooser = None
            return []
        observation = session.observation
        hand = None if observation is None else observation.hand
        order = () if observation is None else observation.order
        self.chooser = chooser_for(decision, hand, order)
        self._answered = False
        if self.live and self.preferences.auto_pass and only_pass(decision):
            # The pass goes out after a pause (``wake``): the player sees what beat them.
            self.auto_passed = decision
            self._answered = True  # the client answers (the turn line says so): no bell
            return [Wake(AUTO_PASS_PAUSE_S)]
        return []

    def wake(self) -> list[Effect]:
        """Auto-pass's pause is over: the pass goes out, if the decision is still owed
        and auto-pass still on (``a`` in the pause gives the decision back)."""
        session = self.session
        decision = None if session is None else session.decision
        if decision is None or decision is not self.auto_passed or self.chooser is None:
            return []
        self.add_log("info", self.t._(AUTO_PASSED))
        self.chooser = None
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
            if field in TYPED_FIELDS and (key == "enter" or key.isdigit()):
                low, high = TYPED_RANGES[field]
                self.notice = None
                self.editor = LineEditor(
                    f"rule:{field}",
                    TYPED_FIELDS[field],
                    key if key.isdigit() else "",
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
        if self.chooser is not None and not self._answered:
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
        owed = None if self.session is None else self.session.decision
        if not on and owed is not None and owed is self.auto_passed and self.chooser is not None:
            # Turned off in the pause: the decision is the player's again.
            self.auto_passed = None
            self._answered = False
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

    @property
    def owed(self) -> Decision | None:
        """The decision owed as this model follows it (new when a new one arrives)."""
        return self._decision_seen

    @property
    def answered(self) -> bool:
        """The owed decision's answer is on its way (or auto-pass gives it)."""
        return self._answered

    def answer(self, action: Action) -> list[Effect]:
        """Answer the owed decision with ``action`` (a front end's own prompt chose it)."""
        self._answered = True
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
        elif self.chooser is not None and not self._answered:
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
