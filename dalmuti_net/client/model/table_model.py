"""The table as this viewer knows it, sans-I/O: fed each message the session took in, it
keeps the decoded table, the log of what happened in the viewer's language, the trick's
story, the hand just over, the host's countdowns and the decision owed.

Every front end holds one (the terminal's ``ClientUi``, and through it the plain table,
the replay and the web table) and adds only what is its own: keys, layout, prompts. Like
h11's ``Connection``, it is fed (``receive``) and says what happened (``Received``): what
the screen must show besides the model, and what to send. Nothing here imports trio or
prompt_toolkit.
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass, field

from ...engine import Decision, PlayDecision
from ...engine.events import (
    Event,
    HandEnded,
    HandStarted,
    Passed,
    PlayerRemoved,
    TableEnded,
    Waiting,
)
from ...lang.i18n import N_, Translator
from ...lang.text import tidy
from ...protocol.messages import Message
from ..claims import MOVED_ON_JOIN
from ..session import ClientSession, HostError
from .countdowns import Countdowns, moved_for_note, passed_for_you
from .departures import hand_over_sentence, leaving_players, moved_up_sentence
from .errors import describe_error
from .narration import TableChanges, Told
from .story import TrickStory, describe_event
from .views import (
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
    decode_welcome,
    says_host_saves,
)

LOG_LINES = 500
HAND_PHASES = ("dealing", "placement", "misdeal", "revolution", "taxes", "play")
AUTO_PASSED = N_("Nothing of yours beats it: passed for you (auto-pass).")


def _mover(event: Event | None) -> int | None:
    """Who made the move an event tells (its ``player``, a tax's ``giver``)."""
    return getattr(event, "player", getattr(event, "giver", None))


def only_pass(decision: Decision) -> bool:
    """Whether passing is the only legal answer (nothing in the hand beats the table)."""
    return isinstance(decision, PlayDecision) and decision.may_pass and not decision.sets


@dataclass(frozen=True)
class LogLine:
    kind: str
    """event, chat, error or info: how the line is styled; drawing: lines shown as they
    are, whole or not at all (the web table's QR code in the host player's log)."""
    text: str


@dataclass
class Received:
    """What one message asks of the screen that shows the model (the model took in the
    rest): each a fact, none a message type to look at again."""

    welcomed: bool = False
    """The host let this client in: the table is what to show now."""
    closed: HostError | None = None
    """A fatal error: the connection is over for this reason."""
    goodbye: bool = False
    """The host said goodbye: the connection is over."""
    error: str | None = None
    """A refusal that leaves the connection open, in words (the log has it too)."""
    answer_refused: bool = False
    """The refusal was of this seat's answer: ask for a snapshot, the decision comes back."""
    nudge: str | None = None
    """The host player nudged this seat, in words (the log has it too)."""
    saving_again: bool = False
    """The host saves again after it could not."""
    hand_started: bool = False
    table_ended: bool = False
    decision_changed: bool = False
    """Another decision is owed (or none): a front end's chooser or question goes."""
    rules_refused: bool = False
    """An error came: rule changes sent and not shown yet will not come."""
    events: list[Event] = field(default_factory=list)


class TableModel:
    def __init__(
        self,
        t: Translator,
        session: ClientSession | None = None,
        *,
        live: bool = True,
        draws_table: bool = True,
    ) -> None:
        self.t = t
        self.session = session
        self.live = live
        """A table being played over a connection (a replay is not: it answers nothing by
        itself)."""
        self.draws_table = draws_table
        """The front end draws the table (seats with their ready marks): the log leaves out
        what the drawing shows. The plain table draws nothing and says it all."""
        self.log: deque[LogLine] = deque(maxlen=LOG_LINES)
        self.logged = 0
        """Lines added to the log so far (the log itself keeps only the last ones)."""
        self.on_log: Callable[[LogLine], None] | None = None
        """Told each line as the log gains it (the plain table prints them)."""
        self.says_time_up = False
        """The front end says itself, before the move, that the turn timer moved for this
        seat (the plain table's "Time is up"): the move's line leaves out that note."""
        self.trick_story = TrickStory()
        """The trick in progress as it happened, and the last one until the next lead."""
        self.results: HandEnded | None = None
        """The hand just over, shown as results until the next deal (or a key)."""
        self._ended_told: int | None = None
        """The number of the last hand whose end this model told (and showed)."""
        self.countdowns = Countdowns()
        self.changes = TableChanges()
        """Who sits down, leaves, drops, comes back or watches, in sentences."""
        self.timers: TimersView | None = None
        """The host's last timers."""
        self.new_events: list[Event] = []
        """The events the last message brought."""
        self.timed_out = 0
        """How many times the host's turn timer moved for this seat."""
        self.refused_answers = 0
        """How many of this seat's answers the host refused (the decision is still owed)."""
        self.snapshots = 0
        """Snapshots taken in: after the first, the table is there to be shown."""
        self.owed: Decision | None = None
        """The decision owed as followed here (a new object when a new one arrives)."""
        self.answered = False
        """The owed decision's answer is on its way (or auto-pass gives it)."""
        self.auto_passed: Decision | None = None
        """The decision auto-pass answers, after its pause."""
        self.auto_pass_sent = False
        """Auto-pass's pass went out: its event is told as made by auto-pass (once, not
        then "You pass." too)."""
        self.auto_pass = False
        """Pass by itself where passing is the only answer (the player's preference)."""
        self.welcomed = False
        self.opened = False
        """This viewer opened the table (the host player's own terminal, at a new table, not
        one resumed from a save): who sits in its first lobby joined since, and is told."""
        self.resuming = False
        """Reconnected: the next snapshot brings this client up to date."""
        self._arriving = False
        self._moved_for: tuple[int, str] | None = None
        """The next move logged was made for this player: by the turn timer or a stand-in."""
        self._host_player: int | None = None
        """The host player as last seen, to say so when the role changes hands."""
        self._seating: list[int] = []
        """The next hand's seating, as the last result left it: who moves up for a leaver."""
        self._told_made_for: set[tuple[int | None, int]] = set()
        """Moves made for this seat already told (as they were made, or after a return): by
        their hand and place among the hand's events, as a snapshot's marks name them."""
        self._hand_at = 0
        """The place the next event of this hand takes among its events, as a snapshot's
        ``hand_events`` counts them (every one from ``hand_started`` on but ``waiting``)."""
        self._rematch_told = False
        self._moved_told: tuple[str | None, str | None] | None = None
        """The seat's old address and this host's, once told (``MOVED_ON_JOIN``)."""
        self._save_stalled = False
        self._got = Received()
        """What the message being taken in asks of the screen, as it is found out."""

    # ------------------------------------------------------------------ what is known

    @property
    def me(self) -> int | None:
        return None if self.session is None else self.session.player

    @property
    def table(self) -> TableView | None:
        """The host's last ``table``, as the session decoded it when it arrived."""
        return None if self.session is None else self.session.table

    @property
    def in_hand(self) -> bool:
        session = self.session
        if session is None or session.observation is None or self.table is None:
            return False
        return self.table.playing and session.observation.phase in HAND_PHASES

    @property
    def ended(self) -> bool:
        session = self.session
        table_over = self.table is not None and self.table.ended
        return table_over or (
            session is not None
            and session.observation is not None
            and session.observation.ended is not None
        )

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

    def leaving(self) -> set[int]:
        """Players who gave up their seat and are still in the seating until the next hand."""
        session = self.session
        return leaving_players(self.table, None if session is None else session.observation)

    def add_log(self, kind: str, text: str) -> None:
        # Set once here for every front end: no space a template put around a name or a
        # card that turned out Chinese (阿明過牌。, not 阿明 過牌。).
        line = LogLine(kind, tidy(text))
        self.log.append(line)
        self.logged += 1
        if self.on_log is not None:
            self.on_log(line)

    def stalled_text(self) -> str:
        """The words for the host that cannot save (a notice showing them goes with it)."""
        return describe_error(self.t, HostError("cannot_save", "", False))

    # ------------------------------------------------------------------ fed

    def reconnected(self) -> None:
        self.resuming = True
        self.auto_pass_sent = False  # its pass, if the host took it, is in the snapshot
        self.add_log("info", self.t._("Reconnected."))

    def connecting(self) -> None:
        """A new connection (not a reconnection): what its table shows on arrival is on
        screen, not news."""
        self._host_player = None
        self.changes = TableChanges()

    def forget(self) -> None:
        """Back to the list of tables: nothing of the last table is followed."""
        self.owed = None
        self.welcomed = False
        self.changes = TableChanges()
        self.log.clear()

    def receive(self, message: Message) -> Received:
        """A message the session has already taken in: decoded once, dispatched once."""
        session = self.session
        assert session is not None
        decoded = session.decoded
        known = decoded[1] if decoded is not None and decoded[0] is message else None
        incoming = decode_message(message, known, session.table)
        got = self._got = Received()
        self.new_events = got.events
        if says_host_saves(incoming) and self._save_stalled:
            self._save_stalled = False
            got.saving_again = True
            self.add_log("info", self.t._("The host saves the table again; play goes on."))
        match incoming:
            case Welcomed():
                got.welcomed = True
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
                        self.t,
                        self.countdowns,
                        player,
                        self.me,
                        self.name_of,
                        lobby=self.table is not None and self.table.lobby,
                    )
                    self._tell(None if told is None else [told])
            case MovedForSent(player=player, by=by):
                self._moved_for = (player, by)
                if by == "timer" and player == self.me:
                    self.timed_out += 1
            case NudgedSent(player=player, by=by):
                got.nudge = self._nudged(player, by)
            case ErrorSent(code=code):
                got.rules_refused = True
                if code == "cannot_save":
                    self._save_stalled = True
                self._host_error(session, got)
            case EventSent(event=event):
                if event is not None:
                    got.events.append(event)
                self._tell_event(event)
            case OtherSent(type="about"):
                moved = (session.moved_from, session.address)
                if moved[0] is not None and moved[1] and moved != self._moved_told:
                    # A table id is a claim: where the seat was, and where this host is, said
                    # (once: a host that never answers the hello is asked again and again).
                    self._moved_told = moved
                    text = self.t._(MOVED_ON_JOIN).format(old=moved[0], new=moved[1])
                    self.add_log("info", text)
            case OtherSent(type="goodbye"):
                got.goodbye = True
            case OtherSent():
                pass
        got.decision_changed = self._follow_decision()
        return got

    def _welcomed_now(self, session: ClientSession) -> None:
        # The runner says CONNECTED before this message is handled: only the first
        # welcome of a run is a welcome back.
        welcomed, self.welcomed = self.welcomed, True
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
                opened=self.opened,
            )
        )

    def _host_error(self, session: ClientSession, got: Received) -> None:
        error = session.errors[-1]
        if error.fatal:
            got.closed = error
            return
        got.error = describe_error(self.t, error)
        self.add_log("error", got.error)
        if self.answered:
            # Our answer was refused: a fresh snapshot brings back the decision owed.
            self.answered = False
            self.refused_answers += 1
            got.answer_refused = True
            self.auto_pass_sent = False

    def _take_snapshot(self, session: ClientSession, snapshot: SnapshotView) -> None:
        self.snapshots += 1
        marks = snapshot.marks()
        chat = list(snapshot.chat)
        if self._arriving and not any(line.kind == "event" for line in self.log):
            # In the middle of a hand: its log so far, as a watcher from the start saw it,
            # with what was said where it was said (the table's last lines).
            if any(line.kind == "chat" for line in self.log):
                chat = self._chat_not_told(chat)
            for at, event in enumerate(snapshot.hand_events):
                while chat and chat[0].after <= at:
                    self._tell_chat(chat.pop(0))
                # A mark is for the move at its place (the line of its player's event from
                # there), and for no later one.
                if at in marks:
                    self._moved_for = marks[at]
                elif self._moved_for is not None and _mover(event) != self._moved_for[0]:
                    self._moved_for = None
                self._tell_event(event)
            self._moved_for = None
        elif self._arriving:
            # Back with the log kept: the moves made for this seat, then what was said
            # while it was away.
            self._tell_moves_made_for_me(snapshot.hand_events, marks)
            chat = self._chat_not_told(chat)
            self._tell_end_missed(snapshot.hand_events)
        else:
            chat = []  # a snapshot asked for after a gap: the chat came as it was said
        for line in chat:
            self._tell_chat(line)
        self._hand_at = len(snapshot.hand_events)
        observation = session.observation
        if observation is not None:
            self.trick_story.sync(observation)
        self._arriving = False
        if self.resuming:
            self.resuming = False
            self.add_log("info", self.t._("Up to date with the table."))

    def _nudged(self, player: int, by: int) -> str | None:
        """The nudge in the log; to this seat, its words (for a notice and a bell)."""
        t = self.t
        if player == self.me:
            text = t._("{host} nudges you: the table is waiting for you.").format(
                host=self.seat_name(by)
            )
            self.add_log("error", text)
            return text
        if by == self.me:
            text = t._("You nudge {name}: the table is waiting for them.")
        else:
            text = t._("{host} nudges {name}: the table is waiting for them.")
        self.add_log("info", text.format(host=self.seat_name(by), name=self.seat_name(player)))
        return None

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

    def _follow_rematch(self) -> None:
        """A rematch takes the table back to the lobby: the last game's screens go."""
        table = self.table
        offered = table is not None and table.lobby and table.rematch
        if offered and not self._rematch_told:
            self.results = None
            self._ended_told = None  # the new game's hands count from 1 again
            self.trick_story = TrickStory()
            self.countdowns.clear()
            self.add_log("info", self.t._("The host player offers a rematch with the same seats."))
        self._rematch_told = offered

    def _tell_event(self, event: Event | None) -> None:
        if event is None:
            return
        if isinstance(event, HandStarted):
            self.auto_pass_sent = False
            self.results = None
            self._got.hand_started = True
            self._hand_at = 0
        at = self._hand_at
        if not isinstance(event, Waiting):
            self._hand_at += 1
        self.trick_story.feed(event)
        text = describe_event(self.t, event, self.name_of, self.me)
        if isinstance(event, HandEnded):
            self.results = event
            self._ended_told = event.hand
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
        elif isinstance(event, Passed) and event.player == self.me and self.auto_pass_sent:
            self.auto_pass_sent = False
            if self._moved_for is None:  # (not the turn timer's pass, made first)
                text = self.t._(AUTO_PASSED)
        mover = _mover(event)
        if text is not None and self._moved_for is not None and mover == self._moved_for[0]:
            by = self._moved_for[1]
            if not (self.says_time_up and by == "timer" and mover == self.me):
                text += " " + moved_for_note(self.t, by, mine=mover == self.me)
            if mover == self.me:  # read as it was made: not news after a return
                self._told_made_for.add((self._hand_number(), at))
            self._moved_for = None
        if isinstance(event, Waiting):
            self._moved_for = None
        if text is not None:
            self.add_log("event", text)
        if isinstance(event, TableEnded):
            self._got.table_ended = True
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
        self.add_log("chat", self._chat_text(line))

    @staticmethod
    def _chat_text(line: ChatLine) -> str:
        return f"{line.name}: {line.text}"

    def _chat_not_told(self, chat: list[ChatLine]) -> list[ChatLine]:
        """The snapshot's chat lines (the table's last ones) after those the log already
        ends its chat with: what was said while this client was away."""
        told = [line.text for line in self.log if line.kind == "chat"]
        said = [self._chat_text(line) for line in chat]
        for seen in range(len(said), 0, -1):
            overlap = min(seen, len(told))
            if said[seen - overlap : seen] == told[len(told) - overlap :]:
                return chat[seen:]
        return chat

    def _tell_moves_made_for_me(
        self, hand_events: tuple[Event | None, ...], marks: dict[int, tuple[int, str]]
    ) -> None:
        """Back at the table after a drop: which moves the stand-in or the turn timer made
        for this seat while it was away (each once, however often the connection comes
        back)."""
        made = [
            (at, event, by)
            for at, (player, by) in sorted(marks.items())
            if player == self.me
            and by in ("stand_in", "timer")
            and at < len(hand_events)
            and (event := hand_events[at]) is not None
        ]
        hand = self._hand_number()
        fresh = [made_for for made_for in made if (hand, made_for[0]) not in self._told_made_for]
        if not fresh:
            return
        self._told_made_for.update((hand, at) for at, _, _ in fresh)
        # A move that changed the hand (a play, taxes...) is listed; passes are counted.
        # An event the log does not mention (a tax paid, whose cards' line was told live)
        # is nothing to say: no heading over nothing.
        lines = [
            text + " " + moved_for_note(self.t, by, mine=True)
            for _, event, by in fresh
            if not isinstance(event, Passed)
            and (text := describe_event(self.t, event, self.name_of, self.me)) is not None
        ]
        passes = Counter(by for _, event, by in fresh if isinstance(event, Passed))
        if not lines and not passes:
            return
        self.add_log("info", self.t._("While you were away, these moves were made for you:"))
        for line in lines:
            self.add_log("event", line)
        for by in ("timer", "stand_in"):
            if passes[by]:
                self.add_log("info", passed_for_you(self.t, by, passes[by]))

    def _tell_end_missed(self, hand_events: tuple[Event | None, ...]) -> None:
        """Back at the table while the results of a hand that ended while this client
        was away show (the host waits for a seat held through them): its end, told and
        shown as if it had been there."""
        ended = [event for event in hand_events if isinstance(event, HandEnded)]
        if ended and ended[-1].hand != self._ended_told:
            self._got.events.append(ended[-1])  # news: the plain table says the points
            self._tell_event(ended[-1])

    def _hand_number(self) -> int | None:
        session = self.session
        return (
            None
            if session is None or session.observation is None
            else (session.observation.hand_number)
        )

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

    # ------------------------------------------------------------------ the decision

    def _follow_decision(self) -> bool:
        """Whether the decision owed changed (a new one, or none)."""
        session = self.session
        assert session is not None
        decision = session.decision
        if decision is self.owed:
            return False
        self.owed = decision
        self.countdowns.decision_owed(self.me, None if decision is None else session.deadline_ms)
        if decision is None:
            return True
        self.answered = False
        if self.live and self.auto_pass and only_pass(decision):
            # The pass goes out after a pause: the player sees what beat them.
            self.auto_passed = decision
            self.answered = True  # the client answers (the turn line says so): no bell
        return True

    def auto_passing(self) -> bool:
        """The decision owed is the one auto-pass answers (its pause is running)."""
        session = self.session
        decision = None if session is None else session.decision
        return decision is not None and decision is self.auto_passed
