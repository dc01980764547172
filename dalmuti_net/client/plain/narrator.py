"""The table as lines of text: each event one sentence, each decision a numbered list.

``PlainTable`` holds the client model (``ClientModel``), as every front end does: the
host's messages go through it, so every event, chat line, error and reconnection is worded
exactly as the table's log words it; what the log gains is printed once, in order. Typed
lines become intents of the model (answers from ``answers.Question``, lobby requests, rule
changes, auto-pass, nudge and skip...), which checks each as it does for every front end,
or commands that tell what the model knows (``hand``, ``table``, ``scores``, ``help``).
Nothing here does I/O: callers feed it and take ``lines()`` and the effects it returns.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any

from ...bots.names import LOBBY_STRATEGIES
from ...engine.cards import Counts
from ...engine.events import CardsDealt, Event, HandEnded, Played, TableEnded
from ...faults import LINE_FAILED, log_fault
from ...lang.i18n import N_, Translator
from ...lang.numbers import NumberRefused, decimal, whole_number
from ...lang.text import label_gap, tidy
from ...protocol.discovery import TableListing
from ...protocol.messages import Message
from ...protocol.text import shown
from ..model import intents as do
from ..model.client_model import BOT_CHOICE, ClientModel, Effect, Quit, Screen, Send
from ..model.departures import NO_PLACE, StandingRow, final_rows, hand_over_sentence
from ..model.display import display, listing_view
from ..model.errors import GOODBYE_SENTENCES, TROUBLESHOOTING
from ..model.questions import BACK
from ..model.rules_menu import (
    RULE_FIELDS,
    TYPED_FIELDS,
    clocks_text,
    menu_values,
    rule_value_text,
    rules_summary,
)
from ..model.story import END_REASONS
from ..model.views import TableView
from ..session import ClientSession
from ..status import Status
from .answers import (
    BACK_WORDS,
    HOW_TO_ANSWER,
    HOW_TO_CONFIRM,
    Question,
    how_to_answer,
    words_for,
)

log = logging.getLogger(__name__)

COMMANDS: dict[str, str] = {
    "hand": N_("hand|cards"),
    "table": N_("table|seats"),
    "scores": N_("scores|score"),
    "help": N_("help|h|?"),
    "say": N_("say"),
    "quit": N_("quit|q|exit"),
    "again": N_("again|repeat"),
    "ready": N_("ready|r"),
    "start": N_("start"),
    "bot": N_("bot"),
    "remove": N_("remove"),
    "kick": N_("kick"),
    "rules": N_("rules"),
    "rule": N_("rule|set"),
    "autopass": N_("autopass|auto"),
    "nudge": N_("nudge|poke"),
    "skip": N_("skip|skipturn"),
    "rematch": N_("rematch|replay"),
}
"""Command -> its words, ``|``-separated (the English words are always understood)."""

CHOICE_WORDS: dict[str, tuple[str, ...]] = {
    "quit": ("quit", "q"),
    "leave": ("leave", "l"),
    "host": ("leave", "l"),
    "heir": ("heir", "h"),
    "end": ("end", "e"),
    "start": ("start", "s"),
    "skip": ("skip", "y"),
    "watch": ("watch", "w"),
    "list": ("list", "l"),
    "retry": ("retry", "r"),
    "code": ("code", "c"),
    **{BOT_CHOICE + strategy: (strategy,) for strategy in LOBBY_STRATEGIES},
}
"""Short words for a question's or a refusal's choices, by action, besides their number
and their label in the player's language (the terminal's letters, kept by scripts; a
strategy's own name)."""

TIMER_WARNINGS = (30, 10, 5, 0)
"""Seconds left on a turn timer at which a warning is printed (when there was more)."""


TIME_UP = N_("Time is up: the host answers for you with the default move.")


def warns_at(deadline_ms: int, seconds_left: int) -> bool:
    """Whether a question given ``deadline_ms`` gets the warning at ``seconds_left``: only
    when it had a couple of seconds more than that to begin with."""
    return deadline_ms / 1000 > seconds_left + 2


def clean(text: str) -> str:
    """``text`` through the one terminal filter (``protocol.text.shown``): no escape
    sequence, bidirectional override or hidden character ever reaches the output, whatever
    a player put in a name or a chat line (tabs and line ends are spaces)."""
    return shown(text)


class PlainTable:
    def __init__(self, t: Translator, session: ClientSession | None = None, **options: Any) -> None:
        """``options``: the client model's (``ClientModel``: address, local_host, name,
        name_given, code, preferences)."""
        self.t = t
        # No seats on screen: who is ready is said in words.
        self.model = ClientModel(t, session, draws_table=False, **options)
        self.fresh: list[str] = []
        """What the table's log gained and is not printed yet."""
        self.model.on_log = lambda line: self.fresh.append(line.text)
        self.model.says_time_up = True
        self._out: list[str] = []
        self.question: Question | None = None
        self.question_serial = 0
        """Counts the questions asked, so that a timer knows whether its one is still open."""
        self.deadline_ms: int | None = None
        self._asked: object = None
        """The decision last asked (the model follows which one is owed)."""
        self._standings_told = False
        """This table's final standings were said (as it ended, or when asked)."""
        self._asked_id: int | None = None
        """Its ``decision_id``: a reconnection that brings back this very decision keeps
        its question open rather than asking it again."""
        self._back = False
        """Reconnected since the last question was asked."""
        self._snapshots_seen = 0
        self._timers_seen: object = None
        self._timed_out_seen = 0
        self._refused_seen = 0
        self._time_up_told = 0
        """The question (its serial) whose turn timer's end has been said."""
        self._hand_told: object = None
        self._table_seen: TableView | None = None
        self._listed: dict[str, int] = {}
        self._listings: list[TableListing] = []
        self._claims_said: set[tuple[str, str]] = set()
        self.quitting = False
        self.farewell_said = False
        """The player left, and the last line about it is said: nothing the host still
        sends before the connection closes is news."""
        """The player quit: the connection closing is no news."""
        self.finished = False
        """The connection is over for good: the caller may stop."""

    # ------------------------------------------------------------------ output

    def say(self, *lines: str) -> None:
        for line in lines:
            self._out += [tidy(clean(part)) for part in line.split("\n")]

    def lines(self) -> list[str]:
        """What to print now, each line once."""
        self.say(*self.fresh)
        self.fresh.clear()
        out, self._out = self._out, []
        return out

    @property
    def session(self) -> ClientSession | None:
        return self.model.session

    def _join(self, parts: list[str]) -> str:
        """Parts of one description, with the language's comma."""
        return self.t._(", ").join(parts)

    def _pair(self, label: str, value: str) -> str:
        """``label: value``, with the language's colon."""
        return label + self.t._(": ") + value

    def _name(self, player: int) -> str:
        return self.model.name_of(player)

    # ------------------------------------------------------------------ finding a table

    def looking(self) -> None:
        self.say(self.t._("Looking for tables…"), self.t._("Type a table's number to join it."))

    def looking_slow(self) -> None:
        if not self._listings:
            self.say(self.t._("No table found yet. Still looking."), self.t._(TROUBLESHOOTING))

    def set_listings(self, listings: list[TableListing]) -> None:
        t = self.t
        keys = {listing.instance_name for listing in listings}
        for old in self._listings:
            if old.instance_name not in keys:
                self.say(
                    t._("Table {number} is gone: {name}.").format(
                        number=self._listed[old.instance_name], name=old.name
                    )
                )
        self.model.set_listings(listings)
        for listing in listings:
            found = listing_view(self.model, listing)  # as every front end lists it
            if listing.instance_name not in self._listed:
                self._listed[listing.instance_name] = len(self._listed) + 1
                self.say(f"{self._listed[listing.instance_name]}. {self._listing_text(listing)}")
            for sentence in found.notes:
                # Another protocol, a table id claimed twice or a seat's table at a new
                # address, an incomplete announcement: each said once.
                if (listing.instance_name, sentence) not in self._claims_said:
                    self._claims_said.add((listing.instance_name, sentence))
                    self.say(f"{self._listed[listing.instance_name]}. ! {sentence}")
        self._listings = list(listings)

    def _listing_text(self, listing: TableListing) -> str:
        """A table found, in one line: the view's words (``display.listing_view``), its
        seats and its code said in full."""
        t = self.t
        found = listing_view(self.model, listing)
        parts = [found.name, found.address]
        if listing.seats_taken is not None:
            parts.append(
                t._("{taken} of {total} seats taken").format(
                    taken=listing.seats_taken, total=listing.seats_total
                )
            )
        parts.append(found.phase)
        if listing.code_required:
            parts.append(t._("needs a join code"))
        return self._join(parts)

    def _discover_line(self, text: str) -> list[Effect]:
        model = self.model
        listed = decimal(text)
        if listed is not None:
            wanted = next(
                (
                    index
                    for index, listing in enumerate(model.listings)
                    if self._listed.get(listing.instance_name) == listed
                ),
                None,
            )
            if wanted is None:
                self.say(self.t._("There is no table {number} on the list.").format(number=text))
                return []
            return self._intend(do.JoinListing(wanted))
        if any(char in text for char in ".:") and " " not in text:
            return self._intend(do.JoinAddress(text))
        self.say(self.t._("Type a table's number to join it."))
        return []

    def _field_line(self, text: str) -> list[Effect]:
        field = self.model.field
        assert field is not None
        if field.purpose == "address":
            return self._intend(do.JoinAddress(text))
        if field.purpose == "name":  # an empty name keeps the one offered
            return self._intend(do.GiveName(text if text.strip() else field.text))
        if self.is_quit(text):
            # At "Join code:" the quit command quits, as everywhere else: it used to go to
            # the host as a code, be refused, and ask for the code again.
            return self._quitting(self._intend(do.Exit()))
        return self._intend(do.GiveCode(text))

    def _field_prompt(self) -> str:
        """The field's label; the name field offers the remembered name, as the table
        screen pre-fills it."""
        field = self.model.field
        assert field is not None
        if field.purpose == "name" and field.text.strip():
            return self.t._("Your name (Enter keeps {name}):").format(name=field.text.strip())
        return self.t._(field.label)

    def _intend(self, intent: do.Intent) -> list[Effect]:
        """An intent of the client model; its refusal, question or field as lines."""
        model = self.model
        model.notice = None
        field, question = model.field, model.question
        effects = model.intend(intent)
        if model.notice is not None:
            self.say(model.notice.text)
            model.notice = None
        if model.field is not None and model.field is not field:
            self.say(self._field_prompt())
        if model.question is not None and model.question is not question:
            self._tell_confirmation()
        return effects

    # ------------------------------------------------------------------ the connection

    def connecting(self, session: ClientSession, address: str) -> None:
        self.model.connecting_to(session, address)
        self._forget_table()
        self.say(self.t._("Connecting to {address}…").format(address=address))

    def cannot_connect(self, reason: str, kind: str | None = None) -> None:
        self.model.cannot_connect(reason, kind)
        self._tell_problem()

    def on_status(self, status: Status) -> None:
        model = self.model
        was_problem = model.screen is Screen.PROBLEM
        if status is Status.CONNECTED and model.status is Status.RECONNECTING:
            self._back = True
        model.on_status(status)
        if status is Status.CLOSED:
            if self.quitting:
                self.fresh.clear()
            elif self._never_reached():
                self.fresh.clear()  # cannot_connect comes next and says why, once
            elif model.screen is Screen.PROBLEM and not was_problem:
                self._tell_problem()
            self.finished = True

    def _never_reached(self) -> bool:
        """Closed before the host answered the hello (an ``about`` answered is not let in):
        the first connection attempt failed, and the runner says why (``CannotConnect``)."""
        session = self.model.session
        return (
            session is not None
            and not self.model.ever_connected
            and session.welcome is None
            and not session.errors
            and session.goodbye_code is None
            and session.closed_reason is None
        )

    def back_to_list(self) -> None:
        """From a refusal back to the tables on the network, as when the program started."""
        self.model.back_to_list()
        self._forget_table()
        self._listed.clear()
        self._listings = []

    def _forget_table(self) -> None:
        self._standings_told = False
        self._table_seen = None
        self._asked = None
        self._hand_told = None
        self.question = None
        self.deadline_ms = None
        self.finished = self.quitting = self.farewell_said = False

    def _tell_problem(self) -> None:
        model, t = self.model, self.t
        self.finished = True
        if self.quitting:  # the player's own quit closed it: no news, no choices
            self.fresh.clear()
            return
        self.say(*self.fresh)
        self.fresh.clear()
        if model.refusal is not None:
            self._tell_refusal()
            return
        self.say(model.problem or t._("The connection to the host is closed."))
        if model.problem_detail:
            self.say(t._("The host said: {reason}").format(reason=model.problem_detail))
        if not model.ever_connected:
            self.say(t._(TROUBLESHOOTING))
        self.finished = True

    def on_message(self, message: Message) -> list[Effect]:
        """A message the session has already taken in; effects to carry out."""
        model = self.model
        was_problem = model.screen is Screen.PROBLEM
        effects = [e for e in model.on_message(message) if not _is_snapshot_request(e)]
        if self.farewell_said:
            self.fresh.clear()
            return effects
        self.say(*self.fresh)  # the log's lines first: what follows comments on them
        self.fresh.clear()
        if model.screen is Screen.PROBLEM and not was_problem:
            self._tell_problem()
            return effects
        self._follow_model()
        return effects

    def _follow_model(self) -> None:
        """What the last message changed in the table model, said where the log does not
        say it (the model has read the message; this reads the model)."""
        model = self.model
        arrived = model.snapshots != self._snapshots_seen
        self._snapshots_seen = model.snapshots
        if model.table is not self._table_seen:
            if self._table_seen is None and arrived:
                self._welcome()
            else:
                self._table_changes()
            self._table_seen = model.table
        if model.timers is not self._timers_seen:
            self._timers_seen = model.timers
            if model.timers is not None:
                self._tell_results_wait(model.timers.results)
        if model.timed_out != self._timed_out_seen:
            self._timed_out_seen = model.timed_out
            self._tell_time_up()
        if model.refused_answers != self._refused_seen:
            self._refused_seen = model.refused_answers
            if self.question is not None:
                # Our answer was refused: the decision is still owed; ask it again.
                self.say(*self.question.lines())
        for event in model.new_events:
            self._after_event(event)
        self._follow_decision()

    def _welcome(self) -> None:
        t, model = self.t, self.model
        table = model.table
        self.say(t._("You are at {table}.").format(table="" if table is None else table.name))
        session = model.session
        watching = session is not None and session.player is None
        if watching:
            self.say(t._("You watch as a spectator: you see what the whole table sees."))
        self._tell_table()
        if table is not None and table.lobby:
            if watching:
                self.say(t._("Type help for the commands."))
            else:
                self.say(t._("Type ready when you are ready, or help for the commands."))
        self._tell_hand_if_new()

    def _after_event(self, event: Event) -> None:
        session = self.session
        if session is None:
            return
        me = session.player
        if isinstance(event, Played) and event.player == me:
            self._hand_told = self._hand()  # the play's own line says what left the hand
            return
        if isinstance(event, CardsDealt):
            return  # told once the deal is over
        observation = session.observation
        if observation is not None and observation.phase == "dealing":
            return
        self._tell_hand_if_new()
        if isinstance(event, HandEnded):
            self._tell_points(event)
        if isinstance(event, TableEnded):
            self._tell_standings(just_ended=True)

    def _tell_points(self, result: HandEnded) -> None:
        """At each hand's end, with scoring: what each player scored and their total (the
        table screen shows it in its results)."""
        t, model = self.t, self.model
        if model.table is None or not model.table.rules.scoring:
            return
        items = []
        for index, player in enumerate(result.finishing):
            bonus = result.bonus[index]
            # The bonus is part of the points, as the table screen's results say.
            text = (
                t._("{name} +{points} ({total} in all, bonus {bonus} included)")
                if bonus
                else t._("{name} +{points} ({total} in all)")
            )
            items.append(
                text.format(
                    name=model.name_of(player),
                    points=result.points[index] + bonus,
                    total=result.scores[index],
                    bonus=f"+{bonus}",
                )
            )
        self.say(t._("Points this hand: {list}.").format(list=self._join(items)))

    def _hand(self) -> Counts | None:
        session = self.session
        observation = None if session is None else session.observation
        return None if observation is None else observation.hand

    def _tell_hand_if_new(self) -> None:
        hand = self._hand()
        if hand is not None and hand != self._hand_told and sum(hand) > 0:
            self._hand_told = hand
            self._tell_hand()

    # ------------------------------------------------------------------ table changes

    def _table_changes(self) -> None:
        """What the terminal's panels show and the log does not say: the rules changed,
        enough players to start (seats' changes are the model's narration, in the log)."""
        before, after = self._table_seen, self.model.table
        if before is None or after is None:
            return
        t = self.t
        if before.rules != after.rules or before.timing != after.timing:
            self.say(t._("The rules changed:") + " " + self._rules_text())
        session = self.session
        if after.can_start and not before.can_start and session is not None and session.is_host:
            self.say(t._("Enough players: type start to begin."))

    _results_told: object = None

    def _tell_results_wait(self, results_ms: int | None) -> None:
        """Once a pause between hands: how to say the results are read, and how long the
        next deal waits at most."""
        model = self.model
        session = model.session
        hand = None if session is None or session.observation is None else session.observation
        if results_ms is None or hand is None or not model.reading_results():
            return
        if self._results_told == hand.hand_number:
            return
        self._results_told = hand.hand_number
        seconds = max(1, round(results_ms / 1000))
        self.say(
            self.t.n_(
                "Type ready when you have read the results: the next hand is dealt once "
                "everyone is ready, or in {n} second.",
                "Type ready when you have read the results: the next hand is dealt once "
                "everyone is ready, or in {n} seconds.",
                seconds,
            ).format(n=seconds)
        )

    # ------------------------------------------------------------------ decisions

    def _follow_decision(self) -> None:
        """The decision the table model follows, asked as a numbered question when it is
        new (the model says which decision is owed and whether it is answered)."""
        session = self.session
        if session is None:
            return
        decision = self.model.owed
        if decision is self._asked:
            return
        back, self._back = self._back, False
        if (
            back
            and decision is not None
            and self.question is not None
            and decision == self._asked
            and session.decision_id == self._asked_id
            and not self.model.answered
        ):
            # The host came back owing the question already asked, with its clock
            # started again: the question stays open (its numbers too), said once.
            self._asked = decision
            self._still_owed()
            return
        self._asked, self._asked_id = decision, session.decision_id
        if decision is None or decision is self.model.auto_passed:
            # (passed by the client itself: its log line said so)
            self.question = None
            self.deadline_ms = None
            return
        observation = session.observation
        self.question = Question(
            self.t,
            decision,
            self.model.namer(),
            hand=None if observation is None else observation.hand,
            order=() if observation is None else observation.order,
        )
        self.question_serial += 1
        self.deadline_ms = session.deadline_ms
        self.say(self.t._("Your turn!"), *self.question.lines())
        self._tell_time_to_answer()

    def _still_owed(self) -> None:
        """Back at the table, the question asked before the connection was lost is still
        owed: said in one line, not asked a second time; its clock starts again."""
        session = self.session
        assert session is not None
        self.question_serial += 1
        self.deadline_ms = session.deadline_ms
        self.say(self.t._("Still your turn: type again to hear the question."))
        self._tell_time_to_answer()

    def _tell_time_to_answer(self) -> None:
        if self.deadline_ms:
            seconds = max(1, round(self.deadline_ms / 1000))
            self.say(
                self.t.n_(
                    "You have {n} second to answer.", "You have {n} seconds to answer.", seconds
                ).format(n=seconds)
            )

    def _tell_time_up(self) -> None:
        """The host's timer moved for us: say that time is up, unless our own countdown
        (which starts when the decision arrives, so ends a little after the host's)
        already said so for the open question. It is said here, before the move, and
        the move's line leaves out its note (``says_time_up``): once."""
        if self.question is not None and self._time_up_told == self.question_serial:
            return
        self._time_up_told = self.question_serial
        self.say(self.t._(TIME_UP))

    def timer_warning(self, serial: int, seconds_left: int) -> None:
        """The turn timer of question ``serial`` has ``seconds_left``: say so if it is open
        and the host is there (while the connection is lost the host's clock is not ours to
        read: a host killed and restarted starts it again; back, the time left is said)."""
        if serial != self.question_serial or self.question is None or self.model.answered:
            return
        if self.model.status is not Status.CONNECTED:
            return
        if seconds_left <= 0:
            if self._time_up_told == serial:
                return
            self._time_up_told = serial
            self.say(self.t._(TIME_UP))
            return
        self.say(
            self.t.n_(
                "{n} second left to answer!", "{n} seconds left to answer!", seconds_left
            ).format(n=seconds_left)
        )

    def wake(self) -> list[Effect]:
        """A pause asked for (``Wake``) is over; effects to carry out."""
        effects = self.model.wake()
        self.say(*self.fresh)
        self.fresh.clear()
        return effects

    # ------------------------------------------------------------------ typed lines

    def on_line(self, text: str) -> list[Effect]:
        """One line the player typed; effects to carry out. A line whose handling fails in
        a way nothing foresaw is one line in the log, never a traceback: the table goes on."""
        try:
            return self._on_line(text)
        except Exception as error:
            log_fault(log, LINE_FAILED, error)
            return []

    def _on_line(self, text: str) -> list[Effect]:
        text = clean(text).strip()
        model = self.model
        if model.question is not None:
            return self._confirm_line(text)
        if model.field is not None:
            return self._field_line(text)
        if not text:
            return []
        command, _, rest = text.partition(" ")
        found = self._command(command.casefold())
        if found == "help":
            self._tell_help()
            return []
        if found == "quit":
            return self._quitting(self._intend(do.Exit()))
        if model.screen is Screen.DISCOVER:
            return self._discover_line(text)
        if model.screen is Screen.PROBLEM and model.refusal is not None:
            return self._refusal_line(text)
        if model.screen is not Screen.TABLE:
            self.say(self.t._("Not connected: that was not sent."))
            return []
        if self.question is not None and not self.model.answered and found is None:
            return self._answer(text)
        if found is None:
            if self.question is not None and self.model.answered:
                self.say(self.t._("Your answer is on its way."))
            elif decimal(command) is not None:
                self.say(self.t._("Nothing to answer right now."))
            else:
                self.say(self.t._("Unknown command {command}: type help.").format(command=command))
            return []
        return self._run(found, rest.strip())

    def is_quit(self, text: str) -> bool:
        """Whether the line typed is the quit command (in any of its words)."""
        command = clean(text).strip().partition(" ")[0]
        return self._command(command.casefold()) == "quit"

    def end_of_input(self) -> None:
        """Standard input has ended (a script is done, or Ctrl-D): quit as the quit
        command's first answer does, keeping the seat."""
        self.quitting = True
        model = self.model
        if model.local_host:
            self.say(self.t._("End of input: you quit, and the table closes for everyone."))
        elif (
            model.screen is Screen.TABLE
            and model.session is not None
            and not model.session.spectator
        ):
            self.say(
                self.t._(
                    "End of input: you quit this program. Your seat stays yours: "
                    "run dalmuti join again to take it back."
                )
            )
        else:
            self.say(self.t._("End of input: you quit this program."))

    def _quitting(self, effects: list[Effect]) -> list[Effect]:
        if any(isinstance(effect, Quit) for effect in effects):
            self.quitting = True
            if self.model.farewell is not None:  # leaving ended the table, or ends it: say so
                self.say(self.model.farewell)
                self.farewell_said = True
        return effects

    def _tell_refusal(self) -> None:
        """A refusal screen as lines: what happened, the standings it has, what next."""
        t, model = self.t, self.model
        refusal = model.refusal
        assert refusal is not None
        if refusal.standings and self._standings_told:
            # Told as the table ended, with why it ended: not said again when its host
            # closes ("The host player ended the table." was "The table is over: the host
            # player ended it."; that the host has closed it since is news).
            ended_by_host = t._(GOODBYE_SENTENCES["table_ended"])
            self.say(refusal.title, *(s for s in refusal.sentences if s != ended_by_host))
        else:
            self.say(refusal.title, *refusal.sentences)
            if refusal.standings:
                self.say(t._("Final standings"))
                self._tell_rows(refusal.standings)
        if model.field is not None:
            self.say(self._field_prompt())
            return
        for number, choice in enumerate(refusal.choices, 1):
            self.say(f"{number}. {t._(choice.label)}")
        self.say(how_to_answer(t, HOW_TO_ANSWER, len(refusal.choices)))

    def _refusal_line(self, text: str) -> list[Effect]:
        refusal = self.model.refusal
        assert refusal is not None
        word = text.casefold()
        for number, choice in enumerate(refusal.choices, 1):
            if word in (
                str(number),
                self.t._(choice.label).casefold(),
                *CHOICE_WORDS[choice.action],
            ):
                effects = self._quitting(self._intend(do.Choose(choice.action)))
                if self.model.field is None and not effects:
                    self._tell_refusal()
                return effects
        self._tell_refusal()
        return []

    def _tell_confirmation(self) -> None:
        """The table's modal question (quit or leave...) as a numbered list."""
        confirmation = self.model.question
        if confirmation is None:
            return
        t = self.t
        self.say(confirmation.title)
        for number, choice in enumerate(confirmation.choices, 1):
            self.say(f"{number}. " + (choice.sentence or t._(choice.label)))
        back = words_for(t, BACK_WORDS)[0]
        self.say(how_to_answer(t, HOW_TO_CONFIRM, len(confirmation.choices), back=back))

    def _confirm_line(self, text: str) -> list[Effect]:
        """An answer to the modal question: its number or label; back closes it (another
        host player: the question, as it is now, is told again)."""
        confirmation = self.model.question
        assert confirmation is not None
        word = text.casefold()
        choices = confirmation.choices
        chosen = next(
            (
                choice
                for number, choice in enumerate(choices, 1)
                if word
                in (str(number), self.t._(choice.label).casefold(), *CHOICE_WORDS[choice.action])
            ),
            None,
        )
        if chosen is not None:
            return self._quitting(self._intend(do.Choose(chosen.action)))
        if word in words_for(self.t, BACK_WORDS) or self._command(word) == "quit":
            self._intend(do.Choose(BACK))
            self.say(self.t._("You stay at the table."))
            if self.question is not None and not self.model.answered:
                self.say(*self.question.lines())
            return []
        self._tell_confirmation()
        return []

    def _command(self, word: str) -> str | None:
        for name, marked in COMMANDS.items():
            if word in words_for(self.t, marked):
                return name
        return None

    def _answer(self, text: str) -> list[Effect]:
        question = self.question
        assert question is not None
        outcome = question.answer(text)
        if outcome.problem is not None:
            self.say(outcome.problem)
            return []
        if outcome.action is not None:
            return self._intend(do.Answer(outcome.action))
        self.say(*question.lines())
        return []

    def _run(self, command: str, rest: str) -> list[Effect]:
        t = self.t
        if command == "autopass":
            words = {"on": True, "off": False, t._("on").casefold(): True}
            words[t._("off").casefold()] = False
            passing = self.model.auto_passing()
            effects = self._intend(do.AutoPass(words.get(rest.casefold())))
            if passing and not self.model.auto_passing():
                # Turned off in auto-pass's pause: the decision is the player's again.
                self._asked = None
                self._follow_decision()
            return effects
        if command == "nudge":
            return self._intend(do.Nudge())
        if command == "skip":
            return self._intend(do.Skip())
        if command == "rematch":
            return self._intend(do.Rematch())
        if command == "ready" and self.model.reading_results():
            return self._intend(do.Ready(True))
        if command == "hand":
            self._tell_hand()
        elif command == "table":
            self._tell_table()
        elif command == "scores":
            self._tell_scores()
        elif command == "again":
            if self.question is not None and not self.model.answered:
                self.say(*self.question.lines())
            else:
                self.say(t._("Nothing to answer right now."))
        elif command == "rules":  # read at any point; set in the lobby
            self._tell_rules()
        elif command == "say":
            if not rest:
                self.say(t._("Type say and then what to say."))
                return []
            return self._intend(do.Chat(rest))
        else:
            return self._lobby(command, rest)
        return []

    # ------------------------------------------------------------------ the lobby

    def _lobby(self, command: str, rest: str) -> list[Effect]:
        t, model = self.t, self.model
        table = model.table
        if table is None or not table.lobby:
            self.say(t._("That is not possible at this point of the game."))
            return []
        if command == "ready":
            return self._intend(do.Ready())
        if command == "start":
            return self._intend(do.Start())
        if command == "bot":  # `bot montecarlo`; `bot` alone (or a name unknown) asks which
            strategy = rest.strip().casefold()
            return self._intend(do.AddBot(strategy if strategy in LOBBY_STRATEGIES else None))
        if command in ("remove", "kick"):
            players = table.players
            try:
                number = whole_number(
                    rest,
                    1,
                    len(players),
                    N_("Give the seat's number from the table list (1 to {n})."),
                    n=len(players),
                )
            except NumberRefused as refused:
                self.say(refused.told(t._))
                return []
            seat = players[number - 1]
            if command == "remove" and not seat.is_bot:
                bots = [str(n) for n, p in enumerate(players, 1) if p.is_bot]
                if bots:
                    self.say(
                        t._("Seat {n} is not a bot: remove takes a bot's number ({bots}).").format(
                            n=rest, bots=t.list_separator.join(bots)
                        )
                    )
                else:
                    self.say(t._("There is no bot at the table."))
                return []
            return self._intend(
                do.RemoveBot(seat.player) if command == "remove" else do.Kick(seat.player)
            )
        return self._set_rule(rest)

    def _tell_rules(self) -> None:
        t = self.t
        rules = menu_values(self.model.table)
        self.say(t._("Rule options (the host player's)"))
        for number, option in enumerate(RULE_FIELDS, 1):
            value = rule_value_text(t, option.key, rules.get(option.key))
            self.say(f"{number}. " + self._pair(t._(option.label), value))
        session, table = self.session, self.model.table
        if session is not None and session.is_host and table is not None and table.lobby:
            self.say(
                t._(
                    "Type rule and a number to switch an option on or off, or rule, a number "
                    "and a value: rule 4 10 plays 10 hands, rule 4 0 has no limit, "
                    "rule 7 5 sets a 5% misdeal chance."
                )
            )
            self.say(
                t._(
                    "rule 8 45 gives 45 seconds per decision (rule 8 0: no turn timer); "
                    "rule 9 20 keeps the results up to 20 seconds."
                )
            )

    def _set_rule(self, rest: str) -> list[Effect]:
        """``rule N`` switches option N, ``rule N VALUE`` sets it (0 switches off, or for
        the hands to play: no limit); the model checks the value, as for every front end."""
        t = self.t
        parts = rest.split()
        if not self.model.is_host:
            return self._intend(do.StepRule(RULE_FIELDS[0].key, True))  # (only the host's)
        try:
            option = whole_number(
                parts[0] if parts else "",
                1,
                len(RULE_FIELDS),
                N_("Give the option's number from the rules list (1 to {n})."),
                n=len(RULE_FIELDS),
            )
        except NumberRefused as refused:
            self.say(refused.told(t._))
            return []
        key = RULE_FIELDS[option - 1].key
        now = self.model.rules().get(key)
        switch = isinstance(now, bool) or key not in TYPED_FIELDS
        if len(parts) == 1:
            if not switch:
                self.say(
                    t._("That option needs a value, for example: rule {n} 10.").format(n=parts[0])
                )
                return []
            return self._intend(do.SetRule(key, not now))
        value = parts[1]
        if switch:
            return self._intend(do.SetRule(key, decimal(value) != 0))
        if key == "hand_limit" and decimal(value) == 0:
            value = ""  # (this table's words for no limit)
        return self._intend(do.TypeRule(key, value))

    def _rules_text(self) -> str:
        """The rules and clocks in force, as every front end's lobby says them."""
        table = self.model.table
        return rules_summary(self.t, table) + " " + clocks_text(self.t, table)

    # ------------------------------------------------------------------ told on request

    def _tell_hand(self) -> None:
        """The viewer's hand as every front end has it (``display.hand_view``), in a line."""
        t = self.t
        session = self.session
        if session is None or session.player is None:
            self.say(t._("You are watching"))
            return
        state = display(self.model).table
        hand = None if state is None else state.hand
        if hand is None or not hand.cards:
            self.say(t._("(no cards)"))
            return
        groups = self._join([f"{card.label} ×{card.count}" for card in hand.cards])
        self.say(self._pair(hand.title, groups))

    def _tell_table(self) -> None:
        """The table as every front end has it (``client/model/display``), in lines: the
        lobby's seats, rules and what it waits for; in a game, the seats' rows, the trick
        turn by turn and what the table waits for."""
        t, model = self.t, self.model
        session = self.session
        view = display(model)
        if model.table is None or session is None:
            self.say(t._("Not connected"))
            return
        lobby = view.lobby
        if lobby is not None:
            self.say(lobby.heading)
            for number, seat in enumerate(lobby.seats, 1):
                self.say(f"{number}. " + self._join([seat.name, *(m.words for m in seat.marks)]))
            if lobby.watchers is not None:
                self.say(lobby.watchers)
            self.say(self._pair(lobby.rules_title, lobby.summary + " " + lobby.clocks))
            if session.is_host:
                self.say(
                    t._(
                        "Lobby commands: ready, start, bot (it asks which one), remove N (a "
                        "bot), kick N, rules, rule N."
                    )
                )
            if lobby.waiting:
                self.say(lobby.waiting)
            return
        state = view.table
        if state is None:
            self.say(t._("Waiting for the first hand…"))
            return
        if state.heading:
            self.say(state.heading)
        for row in state.seats:
            parts = [
                row.name,
                row.role_name,
                t.n_("{n} card", "{n} cards", row.cards).format(n=row.cards),
            ]
            if row.score is not None:
                parts.append(t.n_("{n} point", "{n} points", row.score).format(n=row.score))
            parts += [flag.words for flag in row.flags]
            self.say(self._join(parts))
        if state.joining is not None:
            self.say(state.joining)
        if state.trick:
            plays = " · ".join(play.text for play in state.trick)
            self.say(state.trick_title + label_gap(state.trick_title) + plays)
        if state.over:
            self._tell_standings()
        elif state.turn:
            self.say(state.turn)

    def _tell_scores(self) -> None:
        t, model = self.t, self.model
        session = self.session
        observation = None if session is None else session.observation
        if observation is None or not observation.order:
            self.say(t._("No hand has been played yet."))
            return
        if observation.ended is not None:
            self._tell_standings()
            return
        if model.table is None or not model.table.rules.scoring:
            self.say(t._("This table keeps no score."))
        else:
            ranked = sorted(observation.order, key=lambda p: -observation.scores.get(p, 0))
            for player in ranked:
                score = observation.scores.get(player, 0)
                self.say(
                    self._pair(
                        model.name_of(player),
                        t.n_("{n} point", "{n} points", score).format(n=score),
                    )
                )
        last = observation.last_hand
        if last is not None and observation.phase == "hand_over":
            self.say(
                hand_over_sentence(t, last.hand, last.finishing, model.leaving(), model.name_of)
            )

    def _tell_rows(self, rows: Iterable[StandingRow]) -> None:
        """Final standings, a line each: place, name, points (without scoring, the role),
        and who left."""
        t = self.t
        for row in rows:
            points = (
                t.n_("{n} point", "{n} points", row.score).format(n=row.score)
                if row.role is None
                else row.role
            )
            parts = [row.name, *filter(None, [points, row.note])]
            if row.place == NO_PLACE:  # (the screens' "-", which would be read "dash")
                self.say(self._join(parts))
            else:
                self.say(self._pair(row.place, self._join(parts)))

    def _tell_standings(self, just_ended: bool = False) -> None:
        """The final standings; ``just_ended`` right after the log said why it ended."""
        t, model = self.t, self.model
        session = self.session
        if session is None or session.observation is None or session.observation.ended is None:
            return
        ended = session.observation.ended
        self.say(t._("Final standings"))
        self._tell_rows(final_rows(t, ended, model.table, session.observation, model.name_of))
        self._standings_told = True
        if just_ended:
            if not self.quitting:
                self.say(t._("Type quit to leave."))
        elif not ended.reason:  # a host that did not say why
            self.say(t._("The table is over."))
        else:
            reason = t._(END_REASONS.get(ended.reason, ended.reason))
            self.say(t._("The table is over: {reason}.").format(reason=reason))

    def _tell_help(self) -> None:
        t, model = self.t, self.model
        if model.screen is Screen.DISCOVER:
            self.say(
                t._(
                    "Type a table's number to join it, or an address (HOST or HOST:PORT). "
                    "quit leaves."
                )
            )
            return
        if not model.seated:  # no cards, nothing to answer, no seat to make ready
            self.say(
                t._(
                    "Commands for a spectator: table (seats, roles and the trick), scores, "
                    "rules (the table's), say and a text (chat), quit, help."
                )
            )
            return
        self.say(
            t._(
                "Commands: hand (your cards), table (seats, roles and the trick), scores, "
                "rules (the table's), again (repeat the question), say and a text (chat), "
                "quit, help."
            )
        )
        self.say(
            t._(
                "autopass on or off: pass by yourself when nothing of yours beats the table "
                "(now {state}). Between hands: ready once you have read the results. The host "
                "player also has nudge and skip for whoever the table waits for, and rematch "
                "once the table ended."
            ).format(state=t._("on") if model.preferences.auto_pass else t._("off"))
        )
        if self.question is not None and not self.model.answered:
            self.say(
                t._(
                    "To answer, type the number of an answer, or its short word "
                    "(pass, yes, no, decline...)."
                )
            )
        table = model.table
        if table is not None and table.lobby:
            self.say(
                t._(
                    "Lobby: ready. The host player also has start, bot [heuristic, random, "
                    "montecarlo or learned], remove N, kick N (N from the table list) and "
                    "rule N [VALUE]."
                )
            )


def _is_snapshot_request(effect: Effect) -> bool:
    return isinstance(effect, Send) and effect.message.get("type") == "snapshot_request"


__all__ = ["PlainTable", "Quit", "clean"]
