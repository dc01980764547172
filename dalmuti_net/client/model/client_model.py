"""The client as every front end shares it: the table model, plus where the connection
stands, the screens a front end shows around the table (finding a table, a name or code
asked for, a refusal), the questions asked before acting (quit, leave, start anyway,
skip), the decision being chosen, and the intents.

``ClientModel.intend`` takes one typed intent (``client/model/intents.py``), checks it
against what the client knows, says why not in the viewer's language (``notice``) or
returns the effects for the runtime (a message to send, a table to join, quitting): once,
for every front end. The terminal (``client/ui``), the plain table (``client/plain``) and
the web table (``web/``) each hold one, map their input to intents and draw it. Nothing
here imports trio or prompt_toolkit.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any, Protocol

from ...bots.names import LOBBY_STRATEGIES, STRATEGY_NAMES
from ...engine import Action, Pass
from ...engine.rules import MAX_PLAYERS, MIN_PLAYERS
from ...lang.i18n import N_, Nn_, Translator
from ...lang.text import tidy
from ...protocol import PROTOCOL_VERSION
from ...protocol.catalogue import MAX_CHAT_CHARS, MAX_CODE_CHARS, MAX_NAME_CHARS
from ...protocol.discovery import TableListing
from ...protocol.messages import Message, action_message
from ..address import BadAddress, parse_address
from ..claims import Claim, claims
from ..seats import SeatStore
from ..session import HOST_UNPROVEN, ClientSession
from ..status import Status
from . import intents as do
from . import refusals
from .choosers import Chooser, Names, Problem, Result, chooser_for
from .departures import final_rows
from .errors import (
    CONNECT_FAILURES,
    GOODBYE_SENTENCES,
    describe_broken,
    describe_error,
    describe_goodbye,
    describe_unreachable,
)
from .leaving import CHOICE as LEAVE_ENDS_CHOICE
from .leaving import FAREWELL as LEAVE_ENDS_FAREWELL
from .leaving import LEFT, LEFT_MID_GAME, LeaveEnds, leave_ends, named_heirs
from .questions import BACK, Choice, Question
from .refusals import RefusalScreen
from .rules_menu import menu_values, set_rule, step_rule, timing_sent, typed_rule
from .table_model import Received, TableModel

AUTO_PASSING = N_("Nothing of yours beats it: auto-pass passes for you in a moment.")
AUTO_PASS_PAUSE_S = 1.2
"""How long auto-pass waits before it passes. Passing the moment the decision came, the
pass was on screen before the player had looked at the play that beat them. A glance at
the table's line ("Bo: Cook ×2") takes about a second: a little longer than a paced bot's
move (0.8 s, host/settings.py), so the table keeps the rhythm of people playing; much
longer, and a trick where every person auto-passes drags, each waiting in turn. Far below
the shortest turn timer (5 s), which would otherwise answer first."""
NOT_NOW = N_("That is not possible at this point of the game.")
ONLY_HOST = N_("Only the host player may do that.")
BOT_CHOICE = "bot:"
"""The action of the bot question's choice for a strategy: ``bot:`` and its name."""
BOT_CHOICES: dict[str, tuple[str, str]] = {
    "heuristic": (
        STRATEGY_NAMES["heuristic"],
        N_("plays by rules of thumb, its worst cards first and its best kept for the lead"),
    ),
    "random": (STRATEGY_NAMES["random"], N_("plays any legal move at random (an easy opponent)")),
    "montecarlo": (
        STRATEGY_NAMES["montecarlo"],
        N_("plays out imagined deals before each play (the strongest; it takes a moment)"),
    ),
    "learned": (
        STRATEGY_NAMES["learned"],
        N_("plays as it learned from the Monte Carlo bot, and answers at once"),
    ),
}
"""Each strategy a lobby offers (``LOBBY_STRATEGIES``): its name (as ``dalmuti bot`` names
its bots) and what it is like, for the bot question of every front end."""


class Screen(StrEnum):
    DISCOVER = "discover"
    FORM = "form"
    CONNECTING = "connecting"
    TABLE = "table"
    PROBLEM = "problem"


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
    """The host player's program: end the table for everyone before quitting."""
    keep_hosting: bool = False
    """The host player's program: the seat was given up (a `leave` naming the next host
    player was sent first); the table screen closes and the program keeps serving."""


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
    """Call ``ClientModel.wake`` after this many seconds (auto-pass's pause)."""

    after_s: float


Effect = Send | Join | Quit | BackToList | Rejoin | Wake


@dataclass(frozen=True)
class Field:
    """Something to type that the model asks for: a host's address, a name, a join code."""

    purpose: str
    """address, name, code (joining from the list) or retry_code (asked again after a
    refusal)."""
    label: str
    """Marked with N_."""
    text: str = ""
    """What the field offers to start with (the name remembered)."""
    max_chars: int = 100


class Preferences(Protocol):
    """The player's table preferences (the terminal keeps them in its config file)."""

    auto_pass: bool

    def set_auto_pass(self, on: bool) -> None: ...


class KeptPreferences:
    """Preferences kept for this run only (the web table's, a test's)."""

    def __init__(self, auto_pass: bool = True) -> None:
        self.auto_pass = auto_pass

    def set_auto_pass(self, on: bool) -> None:
        self.auto_pass = on


@dataclass
class Notice:
    text: str
    level: str = "info"
    """info, warning or error."""


class ClientModel(TableModel):
    def __init__(
        self,
        t: Translator,
        session: ClientSession | None = None,
        *,
        address: str = "",
        local_host: bool = False,
        name: str = "",
        name_given: bool = False,
        code: str | None = None,
        lists_tables: bool = True,
        preferences: Preferences | None = None,
        draws_table: bool = True,
        live: bool = True,
        in_a_page: bool = False,
    ) -> None:
        super().__init__(t, session, live=live, draws_table=draws_table)
        self.in_a_page = in_a_page
        """The front end is the web table's page: a player comes back by opening the page
        again (it proves the seat by itself), not by running a command."""
        self.preferences: Preferences = preferences or KeptPreferences()
        self.lists_tables = lists_tables and not local_host
        """A refusal may offer the list of tables on the network (the host player's own
        program has none, nor has the web table: a page belongs to one table)."""
        self.address = address
        self.local_host = local_host
        """This program also runs the host: quitting closes the table for everyone."""
        self.screen = Screen.CONNECTING if session is not None else Screen.DISCOVER
        self.status = Status.CONNECTING
        self.ever_connected = False
        self.farewell: str | None = None
        """The line said once the player has left, where leaving ended the table or ends
        it (the table screen prints it after closing, the plain table as it quits)."""
        self.notice: Notice | None = None
        """The last thing said outside the log: why an intent was refused, mostly."""
        self.question: Question | None = None
        """A question to answer before anything else (``Choose``)."""
        self._heir: int | None = None
        """Who the host player, leaving, hands the host role to."""
        self._skipping: int | None = None
        """The player the open skip question is about."""
        self.field: Field | None = None
        """Something asked for, to type (an address, a name, a join code)."""
        self.chooser: Chooser | None = None
        """The selection of the decision owed."""
        self._rules_sent: dict[str, Any] = {}
        """Rule changes sent that the table does not show yet."""
        self.problem: str | None = None
        self.problem_detail: str | None = None
        self.refusal: RefusalScreen | None = None
        """What the refusal screen shows and offers."""
        self.seats: SeatStore | None = None
        """The seats this user remembers, to show a listing whose table id claims one."""
        self.claims: dict[str, Claim] = {}
        """By instance name: listings that claim another listing's table id, or that of a
        table with a remembered seat last seen elsewhere (``client/claims.py``)."""
        self.listings: list[TableListing] = []
        self.discovery_slow = False
        self.name = name
        self.name_given = name_given
        self.code = code
        self._target: tuple[str, int, bool] | None = None
        """The table being joined from the list: host, port, whether it needs a code."""
        self.nudged = False
        """This seat was just nudged: a front end rings its bell (and clears this)."""
        self._drop_told: set[str | None] = set()
        """The reasons said since the connection was lost (each once, however often the
        host is tried again)."""
        self.received = Received()
        """What the last message asked of the screen besides the model."""

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
    def choosing(self) -> Chooser | None:
        """The decision being chosen (none once our answer is on its way)."""
        return None if self.answered else self.chooser

    @property
    def results_shown(self) -> bool:
        """Whether the hand just over is on screen: until it is closed, unless a decision
        is owed first (a newcomer's placement at the end of a hand, which the next deal
        waits for: hidden behind the results, it held the table up)."""
        return self.results is not None and self.choosing is None

    def namer(self) -> Names:
        names = {} if self.session is None else self.session.names
        return Names({p: self.name_of(p) for p in names})

    def say(self, text: str, level: str = "info") -> None:
        self.notice = Notice(text, level)

    def _refuse(self, problem: Problem | str) -> list[Effect]:
        text = problem if isinstance(problem, str) else problem.show(self.t)
        self.say(text, "warning")
        return []

    @property
    def is_host(self) -> bool:
        return self.session is not None and self.session.is_host

    @property
    def seated(self) -> bool:
        """A player at this table, not a spectator."""
        return self.session is not None and not self.session.spectator

    def rules(self) -> dict[str, Any]:
        """The menu's values (the rules and the table's clocks) as they will be: the
        table's, with the changes sent and not yet seen back (five steps down in a burst
        go 20, 19 ... 15, not 20, 19, 19 ...)."""
        return {**menu_values(self.table), **self._rules_sent}

    def waited_for(self) -> list[int]:
        """The players the table waits for that the host player may nudge or skip."""
        session = self.session
        observation = None if session is None else session.observation
        if observation is None or self.table is None or not self.table.playing:
            return []
        hosts = {s.player for s in self.table.players if s.host}
        return [p for p in observation.waiting if p != self.me and p not in hosts]

    def not_ready(self) -> list[str]:
        """The seated people, other than the host player, who have not said ready."""
        table = self.table
        seats = () if table is None else table.players
        return [self.name_of(s.player) for s in seats if s.is_human and not s.ready and not s.host]

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
        # The same people the host waits for: those in the game and those joining it,
        # connected or held through a dropped link (their grace period runs).
        in_game = set(self.session.observation.order) | set(self.session.observation.joining)
        return [
            self.name_of(s.player)
            for s in table.players
            if s.player in in_game
            and s.is_human
            and (s.connected or self.countdowns.grace_left(s.player) is not None)
            and not s.stand_in
            and not s.ready
        ]

    def grace_seconds(self) -> int:
        """How long a dropped seat is kept, as the host said (clamped by the session)."""
        session = self.session
        return round((60_000 if session is None else session.limit_ms("grace_period_ms")) / 1000)

    def how_to_return(self) -> str:
        """Said once this program has quit keeping the seat: how to take it back."""
        if self.in_a_page:
            return self.t._(
                "Your seat is kept. To take it back, open this page again "
                "(a bot plays it while you are away over {n} s)."
            ).format(n=self.grace_seconds())
        return self.t._(
            "Your seat is kept. To take it back, run: dalmuti join {address} "
            "(a bot plays it while you are away over {n} s)."
        ).format(address=self.address, n=self.grace_seconds())

    # ------------------------------------------------------------------ intents

    def intend(self, intent: do.Intent) -> list[Effect]:
        """What a person wants to do: the effects to carry out, or nothing and a notice
        saying why not (in the viewer's language)."""
        if self.question is not None and not isinstance(intent, do.Choose | do.Exit):
            return self._refuse(self.question.title)
        match intent:
            case do.Exit():
                return self._quit()
            case do.Choose(action=action):
                return self._choose(action)
            case do.JoinListing() | do.JoinAddress() | do.GiveName() | do.GiveCode():
                return self._finding(intent)
            case do.CancelForm():
                self.field = None
                if self.session is None:
                    self.screen = Screen.DISCOVER
                return []
        if self.screen is not Screen.TABLE or self.session is None:
            return self._refuse(self.t._("Not connected: that was not sent."))
        match intent:
            case do.Chat(text=text):
                text = tidy(text.strip())[:MAX_CHAT_CHARS]
                return [Send({"type": "chat", "text": text})] if text else []
            case do.AutoPass(on=on):
                return self._auto_pass(on)
            case do.Nudge():
                return self._nudge()
            case do.Skip(player=player):
                return self._skip(player)
            case do.Rematch():
                if not self.is_host:
                    return self._refuse(self.t._(ONLY_HOST))
                return (
                    [Send({"type": "rematch"})] if self.ended else self._refuse(self.t._(NOT_NOW))
                )
            case do.CloseResults():
                self.results = None
                return []
            case do.Ready(on=on):
                return self._ready(on)
            case do.Answer() | do.Commit():
                return self._decide(intent)
        if isinstance(intent, do.SELECTING):
            return self._decide(intent)
        return self._lobby(intent)

    def _decide(self, intent: do.Intent) -> list[Effect]:
        chooser = self.choosing
        if chooser is None:
            if self.owed is not None and self.answered:
                return self._refuse(self.t._("Your answer is on its way."))
            return self._refuse(self.t._("Nothing to answer right now."))
        result = chooser.apply(intent)
        if result.handled and result.problem is None:
            self.notice = None  # the explanation was about the choice before this one
        return self._result(result)

    def _result(self, result: Result) -> list[Effect]:
        if result.problem is not None:
            return self._refuse(result.problem)
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

    def answer(self, action: Action) -> list[Effect]:
        """Answer the owed decision with ``action`` (checked already)."""
        self.answered = True
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

    def _ready(self, on: bool | None) -> list[Effect]:
        if self.reading_results():
            return [Send({"type": "ready", "ready": True})]  # the results stay meanwhile
        table = self.table
        if table is None or not table.lobby:
            return self._refuse(self.t._(NOT_NOW))
        seat = table.seat(self.me)
        if seat is None:
            return self._refuse(self.t._("Spectators have no seat to get ready in."))
        wanted = not seat.ready if on is None else on
        return [Send({"type": "ready", "ready": wanted})]

    def _lobby(self, intent: do.Intent) -> list[Effect]:
        """Starting, bots, kicks and the rules: the host player's, in the lobby."""
        t, table = self.t, self.table
        if table is None or not table.lobby:
            return self._refuse(t._(NOT_NOW))
        if isinstance(intent, do.SetRule | do.TypeRule | do.StepRule):
            if not self.is_host:
                return self._refuse(t._("Only the host player may change the rules."))
            rules = self.rules()
            if isinstance(intent, do.SetRule):
                return self._result(set_rule(intent.key, intent.value, rules))
            if isinstance(intent, do.TypeRule):
                return self._result(typed_rule(intent.key, intent.text, rules))
            return self._result(step_rule(intent.key, intent.up, rules))
        if not self.is_host:
            return self._refuse(t._(ONLY_HOST))
        players = table.players
        match intent:
            case do.Start(anyway=anyway):
                if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
                    return self._refuse(
                        Problem(
                            Nn_(
                                "A table starts with {low} to {high} players; {n} is seated.",
                                "A table starts with {low} to {high} players; {n} are seated.",
                            ),
                            {"low": MIN_PLAYERS, "high": MAX_PLAYERS, "n": len(players)},
                        )
                    )
                unready = self.not_ready()
                if unready and not anyway:
                    self.question = self._start_question(unready)
                    return []
                return [Send({"type": "start"})]
            case do.AddBot(strategy=strategy):
                if len(players) >= MAX_PLAYERS:
                    return self._refuse(
                        Problem(N_("All {high} seats are taken."), {"high": MAX_PLAYERS})
                    )
                if strategy is None:
                    self.question = self._bot_question()
                    return []
                if strategy not in LOBBY_STRATEGIES:
                    return []
                return [Send({"type": "add_bot", "strategy": strategy})]
            case do.RemoveBot(player=player):
                seat = table.seat(player)
                if seat is None or not seat.is_bot:
                    return self._refuse(t._("Only a bot can be removed; kick a person."))
                return [Send({"type": "remove_bot", "player": player})]
            case do.Kick(player=player):
                seat = table.seat(player)
                if seat is None:
                    return []
                if seat.host or seat.player == self.me:
                    return self._refuse(t._("The host player cannot be removed."))
                return [Send({"type": "kick", "player": player})]
        return []

    def _auto_pass(self, on: bool | None) -> list[Effect]:
        if not self.seated:
            return self._refuse(self.t._("Spectators have no cards to pass with."))
        on = not self.preferences.auto_pass if on is None else on
        self.preferences.set_auto_pass(on)
        self.auto_pass = on
        if not on and self.auto_passing():
            # Turned off in the pause: the decision is the player's again.
            self.auto_passed = None
            self.answered = False
        self.say(
            self.t._("Auto-pass is on: when nothing of yours beats the table, you pass.")
            if on
            else self.t._("Auto-pass is off: you pass yourself.")
        )
        return []

    def _nudge(self) -> list[Effect]:
        if not self.is_host:
            return self._refuse(self.t._(ONLY_HOST))
        waiting = self.waited_for()
        if not waiting:
            return self._refuse(self.t._("Nobody is being waited for."))
        return [Send({"type": "nudge", "player": waiting[0]})]

    def _skip(self, player: int | None) -> list[Effect]:
        if not self.is_host:
            return self._refuse(self.t._(ONLY_HOST))
        waiting = self.waited_for()
        if player is not None and player in waiting:
            return [Send({"type": "skip", "player": player})]
        if not waiting:
            return self._refuse(self.t._("Nobody is being waited for."))
        self._skipping = waiting[0]
        name = self.name_of(waiting[0])
        self.question = Question(
            self.t._("Skip {name}?").format(name=name),
            (
                Choice(
                    "skip",
                    N_("skip"),
                    self.t._(
                        "The host makes the default move for {name} now (a pass where "
                        "passing is allowed)."
                    ).format(name=name),
                ),
            ),
        )
        return []

    def _bot_question(self) -> Question:
        """Which bot to seat: every strategy the table knows, each said in a sentence."""
        t = self.t
        return Question(
            t._("Add which bot?"),
            tuple(
                Choice(
                    BOT_CHOICE + strategy,
                    label,
                    t._("{bot}: {what}.").format(bot=t._(label), what=t._(what)),
                )
                for strategy in LOBBY_STRATEGIES
                for label, what in [BOT_CHOICES[strategy]]
            ),
        )

    def _start_question(self, unready: list[str]) -> Question:
        t = self.t
        names = t.list_separator.join(unready)
        return Question(
            t.n_("{n} player is not ready", "{n} players are not ready", len(unready)).format(
                n=len(unready)
            ),
            (
                Choice(
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

    def _follow_start_question(self) -> None:
        """An open "start anyway?" names who is not ready as the table says now: it goes
        once everyone is ready (the lobby's line then says s starts), or the lobby is over."""
        question = self.question
        if question is None or not question.choices or question.choices[0].action != "start":
            return
        table = self.table
        unready = self.not_ready() if table is not None and table.lobby else []
        self.question = self._start_question(unready) if unready else None

    def _follow_rules_sent(self, refused: bool) -> None:
        """A change sent is settled when the table shows it; a refusal drops them all."""
        if not self._rules_sent:
            return
        table = self.table
        if refused or table is None or not table.lobby:
            self._rules_sent = {}
            return
        rules = menu_values(table)
        self._rules_sent = {k: v for k, v in self._rules_sent.items() if rules.get(k) != v}

    # ------------------------------------------------------------------ quitting

    def _quit(self) -> list[Effect]:
        """At a table that is being played, ask first what quitting should mean."""
        if self.question is not None:
            return self._choose(self.question.choices[0].action)  # asked twice: the first
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
            self.question = self._end_question()
        elif session.player is not None and table.playing:
            self.question = self._leave_question()
        elif session.player is not None and table.lobby and self.status is Status.CONNECTED:
            # A seat is held through a dropped link in the lobby too: quitting on purpose
            # gives it up at once, for the next to sit down (and a host player's role).
            self.farewell = self.t._(LEFT)
            return [Send({"type": "leave"}), Quit()]
        else:
            return [Quit()]  # watching, or a link down (the host lets the seat go in time)
        return []

    def _leave_question(self) -> Question:
        t = self.t
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
        if self.in_a_page:
            keep = Choice(
                "quit",
                N_("step away"),
                t._(
                    "Step away: your seat stays yours. Open this page again to take it "
                    "back; a bot plays it if you are away over {n} s."
                ).format(n=self.grace_seconds()),
            )
        else:
            keep = Choice(
                "quit",
                N_("quit this program"),
                t._(
                    "Quit this program: your seat stays yours. Run dalmuti join again "
                    "to take it back; a bot plays it if you are away over {n} s."
                ).format(n=self.grace_seconds()),
            )
        if self.status is not Status.CONNECTED:
            # A `leave` cannot reach the host now: offering it would be a promise not kept.
            unsent = t._("Leaving the table needs the connection to the host; it is down now.")
            return Question(t._("Quit?"), (replace(keep, sentence=f"{keep.sentence} {unsent}"),))
        choices = [keep, Choice("leave", N_("leave the table"), leave)]
        if len(heirs) > 1:
            choices.append(Choice("heir", N_("another host player")))
        return Question(t._("Quit?"), tuple(choices))

    def _end_question(self) -> Question:
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
        choices = [Choice("end", N_("end the table and quit"), sentence)]
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
            choices.append(Choice("host", N_("leave the table, keep hosting"), tidy(leave)))
            if len(heirs) > 1:
                choices.append(Choice("heir", N_("another host player")))
        return Question(t._("Quit?"), tuple(choices))

    def _leave_ends(self) -> LeaveEnds | None:
        """How this player leaving now would end the table, as the host says."""
        return leave_ends(self.table, self.me)

    def _heirs(self) -> list[tuple[int, str]]:
        """Who may take the host role when this host player leaves, the host's own choice
        first (the host says who: the table's ``heirs``)."""
        return named_heirs(self.table) if self.is_host else []

    def _choose(self, action: str) -> list[Effect]:
        """The answer to the open question, or a refusal's choice."""
        if self.question is None:
            if self.screen is Screen.PROBLEM and self.refusal is not None:
                return self._refusal_choice(action)
            return []
        if not self.question.offers(action):
            return []
        self.question = None
        if action == "quit":
            self.farewell = self.how_to_return()
            return [Quit()]
        if action == "heir":  # the next one in line: the question stays open
            heirs = [player for player, _ in self._heirs()]
            at = heirs.index(self._heir) + 1 if self._heir in heirs else 0
            self._heir = heirs[at % len(heirs)]
            self.question = self._end_question() if self.local_host else self._leave_question()
            return []
        if action in ("leave", "host"):
            if action == "leave":  # (a host that keeps hosting prints how the table ends)
                ends = self._leave_ends()
                if ends is not None:
                    self.farewell = self.t._(LEAVE_ENDS_FAREWELL[ends])
                else:
                    self.farewell = self.t._(LEFT_MID_GAME if self.in_hand else LEFT)
            leave: Message = {"type": "leave"}
            if self._heir is not None and self.is_host:
                leave["heir"] = self._heir
            return [Send(leave), Quit(keep_hosting=action == "host")]
        if action == "end":
            return [Quit(end_table=True)]
        if action == "start":
            return [Send({"type": "start"})]
        if action.startswith(BOT_CHOICE):
            return self.intend(do.AddBot(action.removeprefix(BOT_CHOICE)))
        if action == "skip" and self._skipping is not None:
            player, self._skipping = self._skipping, None
            return [Send({"type": "skip", "player": player})]
        assert action in (BACK, "skip")
        return []

    # ------------------------------------------------------------------ finding a table

    def set_listings(self, listings: list[TableListing]) -> None:
        self.listings = list(listings)
        self.claims = claims(self.listings, self.seats)

    def note_discovery_slow(self) -> None:
        """A few seconds went by: say what to check if nothing was found."""
        self.discovery_slow = True

    def _finding(self, intent: do.Intent) -> list[Effect]:
        self.notice = None  # what was wrong with the last answer; a new one is said below
        match intent:
            case do.JoinListing(index=index):
                if self.screen is not Screen.DISCOVER or not 0 <= index < len(self.listings):
                    return []
                return self._pick(self.listings[index])
            case do.JoinAddress(text=text):
                try:
                    host, port = parse_address(text.strip())
                except BadAddress as error:
                    self.say(error.told(self.t._), "error")
                    self.field = Field("address", N_("Host address (HOST or HOST:PORT):"), text)
                    return []
                self._target = (host, port, False)
                self.address = _address_text(host, port)
                return self._ask_name()
            case do.GiveName(text=text):
                if self._target is None:
                    return []
                name = text.strip()[:MAX_NAME_CHARS]
                if not name:
                    self.say(self.t._("Your name cannot be empty."), "error")
                    self.field = Field("name", N_("Your name:"), self.name, MAX_NAME_CHARS)
                    return []
                self.name = name
                return self._ask_code()
            case do.GiveCode(text=text):
                code = text.strip()[:MAX_CODE_CHARS]
                purpose = None if self.field is None else self.field.purpose
                self.field = None
                if purpose == "retry_code" or self.screen is Screen.PROBLEM:
                    if not code:
                        return []
                    self.code = code
                    return [Rejoin(spectator=False, code=code)]
                if self._target is None:
                    return []
                self.code = code or None
                if self.code is None:
                    return self.intend(do.CancelForm())
                return self._ask_code()
        return []

    def ask_address(self) -> None:
        self.field = Field("address", N_("Host address (HOST or HOST:PORT):"))

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
        self.field = Field("name", N_("Your name:"), self.name, MAX_NAME_CHARS)
        return []

    def _ask_code(self) -> list[Effect]:
        assert self._target is not None
        host, port, needs_code = self._target
        if needs_code and not self.code:
            self.screen = Screen.FORM
            self.field = Field("code", N_("Join code:"), "", MAX_CODE_CHARS)
            return []
        self.field = None
        self.screen = Screen.CONNECTING
        return [Join(host, port, self.name, self.code)]

    def _refusal_choice(self, action: str) -> list[Effect]:
        refusal = self.refusal
        assert refusal is not None
        if action == BACK:
            action = refusals.QUIT
        if not refusal.offers(action):
            return []
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

    def _ask_code_again(self) -> None:
        self.field = Field("retry_code", N_("Join code:"), "", MAX_CODE_CHARS)

    # ------------------------------------------------------------------ the connection

    def connecting_to(self, session: ClientSession, address: str) -> None:
        self.session = session
        self.address = address
        self.screen = Screen.CONNECTING
        self.status = Status.CONNECTING
        self.connecting()

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
        self.field = None
        self.chooser = None
        self.code = None
        self.forget()

    def on_status(self, status: Status) -> None:
        previous, self.status = self.status, status
        if status is Status.CONNECTED:
            if previous is Status.RECONNECTING:
                self.reconnected()
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
        """Reconnecting: say the connection is lost, and why, once; a host that stays away
        is tried again and again, and a new reason for it (nothing answers any more) is
        said once as still reconnecting, never as the connection lost again."""
        session = self.session
        reason = None if session is None else session.last_drop
        kind = None if session is None else session.last_drop_kind
        if kind in CONNECT_FAILURES:
            reason = self.t._(CONNECT_FAILURES[kind])
        if previous is not Status.RECONNECTING:
            self._drop_told = {reason}
            if reason is None:
                line = self.t._("Connection lost; reconnecting…")
            else:
                line = self.t._("Connection lost ({reason}); reconnecting…").format(reason=reason)
        elif reason is None or reason in self._drop_told:
            return
        else:
            self._drop_told.add(reason)
            line = self.t._("Still reconnecting ({reason})…").format(reason=reason)
        self.add_log("error", line)
        if self.screen is Screen.CONNECTING:
            self.say(line, "error")

    def _show_closed(self, session: ClientSession) -> None:
        fatal = next((e for e in reversed(session.errors) if e.fatal), None)
        can_list = self.lists_tables
        self.question = None
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
                self.t,
                session.goodbye_code,
                None if ended is None else ended.reason,
                in_a_page=self.in_a_page,
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

    def on_message(self, message: Message) -> list[Effect]:
        """A message the session has already taken in; effects to carry out (if any).
        The table model takes it in (decoded once, dispatched once); this follows what it
        says besides, and the decision owed."""
        session = self.session
        assert session is not None
        self.auto_pass = self.preferences.auto_pass
        got = self.received = self.receive(message)
        effects: list[Effect] = []
        stalled = self.notice is not None and self.notice.text == self.stalled_text()
        if got.saving_again and stalled:
            self.notice = None
        if got.welcomed:
            self.screen = Screen.TABLE
        if got.hand_started:
            self.notice = None
        if got.nudge is not None:
            self.say(got.nudge, "warning")
            self.nudged = True  # a front end rings its bell once
        if got.error is not None:
            self.say(got.error, "error")
        if got.answer_refused:
            # Our answer was refused: a fresh snapshot brings back the decision owed.
            effects.append(Send({"type": "snapshot_request"}))
        if got.closed is not None or got.goodbye:
            self._show_closed(session)
        self._follow_rules_sent(got.rules_refused)
        self._follow_start_question()
        if got.decision_changed:
            effects += self._decision_changed(session)
        return effects

    def _decision_changed(self, session: ClientSession) -> list[Effect]:
        """Another decision is owed (or none): its chooser; auto-pass waits a moment."""
        if self.notice is not None and self.notice.level == "warning":
            self.notice = None  # it explained a choice made for the decision before
        decision = self.owed
        if decision is None:
            self.chooser = None
            return []
        observation = session.observation
        hand = None if observation is None else observation.hand
        order = () if observation is None else observation.order
        self.chooser = chooser_for(decision, hand, order)
        if self.auto_passing():
            # The pass goes out after a pause (``wake``): the player sees what beat them.
            return [Wake(AUTO_PASS_PAUSE_S)]
        return []

    def wake(self) -> list[Effect]:
        """Auto-pass's pause is over: the pass goes out, if the decision is still owed
        and auto-pass still on (turned off in the pause, the decision is given back)."""
        if not self.auto_passing():
            return []
        self.auto_pass_sent = True  # told as the host takes it, as "You pass." would be
        self.chooser = None
        self.auto_passed = None  # given: a second wake sends nothing
        return [Send(self._answer_message(Pass()))]


def _address_text(host: str, port: int) -> str:
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
