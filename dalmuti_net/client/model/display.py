"""What a front end shows, from the client model, as frozen typed data: the typed view.

``display(model)`` builds it once per change: the seats' rows (built here only: the
terminal's columns, the plain table's lines and the page's table all draw these), the
trick, the hand and the decision owed with its legal answers, the log, the lobby and its
rules, the results, the final standings, and each overlay (a question, a refusal, a field
to type in) as structured content in the viewer's language. No text here is wrapped for a
terminal and none names a key: each front end lays its own text out and offers its own
input (the page gets this as JSON, ``web/view.py``; its schema is generated from these
classes by ``tools/view_schema.py``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ...engine import JESTER, Observation
from ...engine.roles import Role, roles_of
from ...lang.i18n import N_, Translator
from ...lang.text import tidy
from ...lang.words import card_label, describe_set, role_symbol
from ...protocol import PROTOCOL_VERSION
from ...protocol.discovery import VERSION_ISSUES, TableListing
from ...told import NEXT_CLAUSE, Listed
from ..status import Status
from .choosers import ExchangeChooser, PlacementChooser, PlayChooser, TaxChooser, whole_answers
from .client_model import AUTO_PASSING, ClientModel, Screen
from .countdowns import offline_sentence
from .departures import LEFT_MARK, StandingRow, final_rows, next_seating
from .errors import TROUBLESHOOTING
from .questions import Choice
from .rules_menu import (
    RULE_FIELDS,
    TIMING_FIELDS,
    TYPED_FIELDS,
    TYPED_RANGES,
    clocks_text,
    not_applicable,
    rule_value_text,
    rules_summary,
)
from .seat_marks import Mark, game_flags, joining_row, lobby_marks, players_heading, your_time
from .story import describe_event, describe_last_trick, describe_step
from .views import TableView
from .watchers import watchers_line

PHASE_TEXT = {
    "dealing": N_("The cards are being dealt."),
    "placement": N_("The Greater Dalmuti is seating a newcomer."),
    "misdeal": N_("A misdeal: the Greater Dalmuti decides."),
    "revolution": N_("The holder of both Jesters may declare a revolution."),
    "taxes": N_("Taxes are being paid."),
    "play": N_("The table is empty."),
}
LOG_SHOWN = 80
"""The log's last lines in the view (a terminal keeps more, to scroll back)."""


@dataclass(frozen=True)
class SeatRow:
    """One seat in the game: who, their role, cards, score, and their flags."""

    player: int
    name: str
    """As every screen names them (``Ana (you)``)."""
    me: bool
    turn: bool
    """The table waits for them."""
    role: Role
    """The role (its value, on the page: ``greater_dalmuti``...)."""
    role_name: str
    symbol: str
    cards: int
    score: int | None
    """``None`` at a table without scoring."""
    flags: tuple[Mark, ...]
    """Out, passed, on top, leaving, offline, a stand-in, countdowns: most needed first."""


@dataclass(frozen=True)
class LobbySeat:
    """A seat in the lobby, with its marks (host, bot, ready, offline)."""

    player: int
    name: str
    me: bool
    bot: bool
    host: bool
    marks: tuple[Mark, ...]


@dataclass(frozen=True)
class RuleRow:
    """A rule option or clock of the lobby, as the host player may change it."""

    key: str
    label: str
    value: str
    """In words (``on``, ``20``, ``5%``, ``45 s``)."""
    switch: bool
    """On or off (else a number, typed or stepped: ``low`` to ``high``)."""
    on: bool
    low: int
    high: int
    field: str
    """The number's field label, ``{low}`` and ``{high}`` filled ('' for a switch)."""
    idle: str | None
    """Why the option does nothing with the seats there are, if it does nothing."""
    clock: bool
    """A clock of the evening (the turn timer, the results pause), which ``LobbyView.clocks``
    also says in a sentence: a front end that shows the sentence lists the row only where
    the host player changes it."""


@dataclass(frozen=True)
class LobbyView:
    """The lobby: its seats, watchers, rules and clocks."""

    heading: str
    seats: tuple[LobbySeat, ...]
    watchers: str | None
    rules_title: str
    rules: tuple[RuleRow, ...]
    summary: str
    """The rules in force in one sentence (the optional rules on, the hands to play)."""
    clocks: str
    can_start: bool
    ready: bool | None
    """This seat's ready mark (None: a spectator, or the host player, whose start is it)."""
    not_ready: tuple[str, ...]
    rematch: bool
    """The host player offered a rematch with the same seats: ready accepts it."""
    waiting: str
    """What the lobby waits for, in words: the host player, whether it may start and who
    is not ready; a guest, the host player ('' for a host player who cannot start yet)."""
    waiting_tone: str
    """good (the host player may start), warning (people not ready), or dim."""


@dataclass(frozen=True)
class CardView:
    """A card of the hand, with how many are held and picked."""

    card: int
    rank: str
    """``12``, or ``J`` for the Jester."""
    name: str
    label: str
    count: int
    """How many are held (while choosing: of those that may be chosen)."""
    picked: int
    pointed: bool


@dataclass(frozen=True)
class HandView:
    """The viewer's hand (while choosing: the cards that may be chosen)."""

    title: str
    cards: tuple[CardView, ...]
    tappable: bool
    """The decision owed takes taps on the cards (pick, drop, point)."""


@dataclass(frozen=True)
class SetView:
    """A legal set of a play (``pick_set`` by its index)."""

    index: int
    label: str
    chosen: bool


@dataclass(frozen=True)
class AnswerView:
    """A whole answer, one tap (``Choose`` an answer by its index: ``answer`` intents)."""

    index: int
    label: str


@dataclass(frozen=True)
class DecisionView:
    """The decision owed, as it is being chosen, with everything that answers it."""

    kind: str
    """play, taxes, revolution, misdeal, exchange or placement."""
    prompt: str
    selection: str
    sets: tuple[SetView, ...]
    """A play's legal sets, cheapest first."""
    answers: tuple[AnswerView, ...]
    """Answers given whole: pass, declare or not, the misdeal's two, decline."""
    commit: str
    """The label of the button that sends the selection ('' where there is none)."""
    count: int
    """Cards to pick (taxes), else 0."""
    merchants: tuple[AnswerView, ...]
    """The Merchant exchange: whom to give to (``index`` is the player)."""
    merchant: int | None
    positions: tuple[AnswerView, ...]
    """Seating a newcomer: where they may sit."""
    position: int | None


@dataclass(frozen=True)
class LogEntry:
    """A line of the log, in the viewer's language."""

    kind: str
    """event, chat, error, info or drawing."""
    text: str


@dataclass(frozen=True)
class ResultRow:
    """A player's row of a hand's results."""

    cells: tuple[str, ...]
    me: bool
    role: Role | None
    """The next hand's role, named in the third cell (a front end may add its symbol)."""


@dataclass(frozen=True)
class ResultsView:
    """The hand just over, until the next deal (or a tap)."""

    title: str
    headers: tuple[str, ...]
    rows: tuple[ResultRow, ...]
    notes: tuple[str, ...]
    """The cards that changed hands with this seat."""
    next: str
    """Who the next deal waits for (after the last hand: that the final standings come)."""
    last: bool
    """The last hand's: the final standings come next."""
    reading: bool
    """The next deal waits for this seat to have read them."""


@dataclass(frozen=True)
class StandingView:
    """A row of the final standings."""

    place: str
    name: str
    figure: str
    """The points, or the role at a table without scoring."""
    points: bool
    """The figure is the points (a number), else the role in words."""
    note: str | None
    me: bool


@dataclass(frozen=True)
class ChoiceView:
    """A choice of a question or a refusal, sent back as ``choose`` with its action."""

    action: str
    label: str
    sentence: str


@dataclass(frozen=True)
class QuestionView:
    """Asked before acting (quit, leave, start anyway, skip): answered before anything else."""

    title: str
    choices: tuple[ChoiceView, ...]


@dataclass(frozen=True)
class RefusalView:
    """Why the connection is over, with the final standings it keeps and the ways on."""

    kind: str
    title: str
    sentences: tuple[str, ...]
    choices: tuple[ChoiceView, ...]
    standings: tuple[StandingView, ...]


@dataclass(frozen=True)
class FieldView:
    """Something the model asks to be typed (a join code asked again)."""

    purpose: str
    label: str
    text: str
    max: int


@dataclass(frozen=True)
class NoticeView:
    """The last thing said outside the log: mostly why an intent was refused."""

    text: str
    level: str


@dataclass(frozen=True)
class TrickPlay:
    """A turn of the trick in a sentence (``Bo: Cook ×2``, ``Cy passes``), or the phase
    in words while nothing is on the table."""

    text: str
    played: bool
    """A set was played (else a pass, a note or the phase)."""
    top: bool
    """The set on top of the trick being played: what is to beat."""


@dataclass(frozen=True)
class TableState:
    """The table while a hand is played or over."""

    heading: str
    """``Hand 2 of 5``."""
    columns: tuple[str, ...]
    """The seats' headings: player, role, cards (and score)."""
    seats: tuple[SeatRow, ...]
    joining: str | None
    trick_title: str
    """``On the table:``, or the last trick's (``Bo took the trick:``)."""
    trick: tuple[TrickPlay, ...]
    """The trick turn by turn, as it happened (or the phase in words)."""
    trick_current: bool
    """The trick is being played (else: the last one, until the next lead)."""
    turn: str
    """What the table waits for, in words."""
    turn_tone: str
    """turn (yours), warning (someone offline), heading (the table is over) or dim."""
    time_left: Mark | None
    """Your turn: how long you have (its tone ``error`` when it is short)."""
    my_turn: bool
    auto_passing: bool
    hand: HandView | None
    decision: DecisionView | None
    results: ResultsView | None
    standings: tuple[StandingView, ...]
    over: bool


@dataclass(frozen=True)
class ListingView:
    """A table found on the network, as the list shows it."""

    name: str
    address: str
    """``HOST:PORT`` (its first address)."""
    seats: str
    """``3/8`` (``?``: not said)."""
    phase: str
    """lobby, playing or ended, in words."""
    code: str
    """Whether joining needs a join code: yes, no (in words) or ``?``."""
    protocol: str
    """The host's protocol version (``?``: not said)."""
    compatible: bool
    claimed: bool
    """Its table id is claimed elsewhere too: see ``notes``."""
    notes: tuple[str, ...]
    """What to know before joining it: another protocol, a claimed table id, an
    incomplete announcement."""


@dataclass(frozen=True)
class FindingView:
    """Finding a table on the network: the tables found, or what is being done."""

    headers: tuple[str, ...]
    """Table, address, seats, phase, code, protocol."""
    tables: tuple[ListingView, ...]
    looking: str
    """While none is found: that the search goes on ('' once there is one)."""
    slow: tuple[str, ...]
    """None found for a while: what to check."""


@dataclass(frozen=True)
class Display:
    screen: str
    """discover, form, connecting, table or problem."""
    title: str
    """The screen's title (the table's name at a table)."""
    status: str
    """connecting, connected, reconnecting or closed."""
    connection: Mark
    """Where the connection stands, in words, and its tone."""
    name: str
    """The table's."""
    me: int | None
    host: bool
    """This seat is the host player's."""
    watching: bool
    finding: FindingView | None
    lobby: LobbyView | None
    table: TableState | None
    log: tuple[LogEntry, ...]
    question: QuestionView | None
    refusal: RefusalView | None
    field: FieldView | None
    notice: NoticeView | None
    auto_pass: bool
    can: tuple[str, ...]
    """The intents that make sense now, by name (``ready``, ``start``, ``nudge``...)."""


def seat_rows(model: ClientModel, observation: Observation) -> tuple[SeatRow, ...]:
    """The seats of the game, in playing order: the one place they are built."""
    t = model.t
    table = model.table
    by_player = {} if table is None else table.by_player
    scoring = table is not None and table.rules.scoring
    return tuple(
        SeatRow(
            player=player,
            name=model.name_of(player),
            me=player == model.me,
            turn=player in observation.waiting,
            role=observation.roles[player],
            role_name=t.role(observation.roles[player]),
            symbol=role_symbol(observation.roles[player]),
            cards=observation.counts.get(player, 0),
            score=observation.scores.get(player, 0) if scoring else None,
            flags=tuple(
                game_flags(t, observation, player, by_player.get(player), model.countdowns)
            ),
        )
        for player in observation.order
    )


def seat_columns(t: Translator, scoring: bool) -> tuple[str, ...]:
    columns = (t._("Player"), t._("Role"), t._("Cards"))
    return (*columns, t._("Score")) if scoring else columns


def lobby_view(model: ClientModel) -> LobbyView | None:
    t, table = model.t, model.table
    if table is None or not table.lobby:
        return None
    rules = model.rules()
    seated = len(table.players)
    rows = []
    for option in RULE_FIELDS:
        value = rules.get(option.key)
        low, high = TYPED_RANGES.get(option.key, (0, 1))
        idle = not_applicable(option.key, seated) if value is True else None
        rows.append(
            RuleRow(
                key=option.key,
                label=t._(option.label),
                value=rule_value_text(t, option.key, value),
                switch=option.key not in TYPED_FIELDS,
                on=bool(value),
                low=low,
                high=high,
                field=""
                if option.key not in TYPED_FIELDS
                else t._(TYPED_FIELDS[option.key]).format(low=low, high=high),
                idle=None if idle is None else idle.show(t),
                clock=option.key in TIMING_FIELDS,
            )
        )
    mine = table.seat(model.me)
    waiting, tone = _lobby_waiting(model, table)
    return LobbyView(
        heading=players_heading(t, table),
        seats=tuple(
            LobbySeat(
                seat.player,
                model.name_of(seat.player),
                seat.player == model.me,
                seat.is_bot,
                seat.host,
                tuple(lobby_marks(t, seat, model.countdowns)),
            )
            for seat in table.players
        ),
        watchers=watchers_line(t, table),
        rules_title=t._("Rules"),
        rules=tuple(rows),
        summary=rules_summary(t, table),
        clocks=clocks_text(t, table),
        can_start=table.can_start,
        ready=None if mine is None or mine.host else mine.ready,
        not_ready=tuple(model.not_ready()),
        rematch=table.rematch,
        waiting=waiting,
        waiting_tone=tone,
    )


def _lobby_waiting(model: ClientModel, table: TableView) -> tuple[str, str]:
    """What the lobby waits for, in words, and its tone."""
    t = model.t
    if model.is_host:
        if not table.can_start:
            return "", "dim"
        unready = model.not_ready()
        if not unready:
            return t._("Enough players, all ready: the table can start."), "good"
        return t.n_(
            "Enough players. Not ready yet: {names}.",
            "Enough players. Not ready yet: {names}.",
            len(unready),
        ).format(names=t.list_separator.join(unready)), "warning"
    mine = table.seat(model.me)
    if table.rematch and mine is not None and not mine.ready:
        return t._("The host player offers a rematch with the same seats."), "dim"
    if table.rematch:
        return t._("Rematch: it starts as soon as everyone has accepted."), "dim"
    return t._("Waiting for the host player to start."), "dim"


def hand_view(model: ClientModel, observation: Observation) -> HandView | None:
    """The viewer's cards (none for a spectator), with the picks of the decision being
    chosen. The game's hand where it is known: a chooser says where its cursor is and what
    is picked, never how many cards are held."""
    t = model.t
    if model.me is None:
        return None
    chooser = model.choosing
    hand = observation.hand
    if hand is not None:
        groups = [(card, hand[card]) for card in range(1, JESTER + 1) if hand[card] > 0]
    else:
        groups = (None if chooser is None else chooser.groups()) or []
    if hand is None and not groups:  # a misdeal stops the deal before anyone's cards are known
        return HandView(title=t._("Your hand: not dealt yet"), cards=(), tappable=False)
    picked = {} if chooser is None else chooser.picked()
    pointed = None if chooser is None else chooser.cursor_card
    total = sum(count for _, count in groups)
    return HandView(
        title=t.n_("Your hand: {n} card", "Your hand: {n} cards", total).format(n=total),
        cards=tuple(
            CardView(
                card=card,
                rank=t._("J") if card == JESTER else str(card),
                name=t.card(card),
                label=card_label(t, card),
                count=count,
                picked=picked.get(card, 0),
                pointed=card == pointed,
            )
            for card, count in groups
        ),
        tappable=chooser is not None and chooser.groups() is not None,
    )


def decision_view(model: ClientModel) -> DecisionView | None:
    chooser = model.choosing
    if chooser is None:
        return None
    t, names = model.t, model.namer()
    sets: tuple[SetView, ...] = ()
    commit = ""
    count = 0
    merchants: tuple[AnswerView, ...] = ()
    merchant = position = None
    positions: tuple[AnswerView, ...] = ()
    if isinstance(chooser, PlayChooser):
        if not chooser.must_pass:
            current = chooser.current()
            sets = tuple(
                SetView(index, describe_set(t, card_set), card_set == current)
                for index, card_set in enumerate(chooser.offers)
            )
            commit = t._("play")
    elif isinstance(chooser, TaxChooser):
        count, commit = chooser.decision.count, t._("give")
    elif isinstance(chooser, ExchangeChooser):
        merchants = tuple(AnswerView(p, names(p)) for p in chooser.decision.merchants)
        merchant, commit = chooser.merchant, t._("exchange")
    elif isinstance(chooser, PlacementChooser):
        positions = tuple(
            AnswerView(index, str(at)) for index, at in enumerate(chooser.decision.positions)
        )
        position, commit = chooser.index, t._("seat them here")
    return DecisionView(
        kind=chooser.kind,
        prompt=chooser.prompt(t, names),
        selection=chooser.selection(t, names),
        sets=sets,
        answers=tuple(
            AnswerView(index, t._(label)) for index, (label, _) in enumerate(whole_answers(chooser))
        ),
        commit=commit,
        count=count,
        merchants=merchants,
        merchant=merchant,
        positions=positions,
        position=position,
    )


def results_view(model: ClientModel, observation: Observation) -> ResultsView | None:
    """The hand just over: place, player, next hand's role (none after the last hand),
    and with scoring the points and totals; the cards that changed hands with you."""
    t, result = model.t, model.results
    if result is None or not model.results_shown:
        return None
    scoring = model.table is not None and model.table.rules.scoring
    last = observation.ended is not None
    # Those leaving, and those already removed from the seating (a placement at the hand's
    # end can come between the results and the next deal): neither has a next role.
    table = model.table
    removed = () if table is None else table.departed
    leaving = model.leaving() | {gone.player for gone in removed}
    roles = roles_of(tuple(next_seating(result.finishing, leaving)))
    headers = [t._("Place"), t._("Player")]
    if not last:
        headers.append(t._("Next hand"))
    if scoring:
        headers += [t._("Points"), t._("Total")]
    rows = []
    for index, player in enumerate(result.finishing):
        role = roles.get(player)
        name = model.name_of(player)
        if last and player in leaving:  # no role column to say it: beside the name
            name = t._("{name} ({note})").format(name=name, note=t._(LEFT_MARK))
        row = [t.ordinal(index + 1), name]
        if not last:
            row.append(t._(LEFT_MARK) if role is None else t.role(role))
        if scoring:
            points = f"+{result.points[index] + result.bonus[index]}"
            if result.bonus[index]:
                points = t._("{points} (bonus {bonus} included)").format(
                    points=points, bonus=f"+{result.bonus[index]}"
                )
            row += [points, str(result.scores[index])]
        rows.append(ResultRow(tuple(row), player == model.me, None if last else role))
    notes = [
        describe_event(t, transfer, model.name_of, model.me) for transfer in observation.transfers
    ]
    return ResultsView(
        title=t._("Hand {hand} is over").format(hand=result.hand),
        headers=tuple(headers),
        rows=tuple(rows),
        notes=tuple(note for note in notes if note is not None),
        next=t._("That was the last hand: the final standings come next.")
        if last
        else next_deal(model),
        last=last,
        reading=model.reading_results(),
    )


def next_deal(model: ClientModel) -> str:
    """Between hands: who the next deal waits for, and how long it waits at most."""
    t = model.t
    left = model.countdowns.results_left()
    reading = model.still_reading()
    if not reading:
        return t._("The next hand is being dealt.")
    names = t.list_separator.join(reading)
    if left is None:
        return t._("The next hand is dealt once everyone is ready; waiting for {names}.").format(
            names=names
        )
    return t.n_(
        "The next hand is dealt once everyone is ready, or in {n} second; waiting for {names}.",
        "The next hand is dealt once everyone is ready, or in {n} seconds; waiting for {names}.",
        left,
    ).format(n=left, names=names)


def standings_view(model: ClientModel, observation: Observation) -> tuple[StandingView, ...]:
    if observation.ended is None:
        return ()
    rows = final_rows(model.t, observation.ended, model.table, observation, model.name_of)
    return standing_views(rows, model.me)


def standing_views(rows: Iterable[StandingRow], me: int | None) -> tuple[StandingView, ...]:
    """Final standings' rows as the view has them (the table's, a refusal's)."""
    return tuple(
        StandingView(row.place, row.name, row.figure, row.role is None, row.note, row.player == me)
        for row in rows
    )


def _turn(model: ClientModel, observation: Observation) -> tuple[str, str, Mark | None]:
    """What the table waits for, in words, its tone, and the time left on your turn."""
    t = model.t
    if observation.ended is not None:
        return t._("The table is over."), "heading", None
    if observation.phase == "hand_over" and model.choosing is None:
        return next_deal(model), "dim", None
    if model.chooser is not None and model.choosing is None:
        return t._(AUTO_PASSING), "dim", None
    if model.chooser is not None:
        return t._("Your turn!"), "turn", your_time(t, model.countdowns, model.me)
    offline = [
        offline_sentence(t, model.countdowns, p, model.name_of(p)) for p in observation.waiting
    ]
    if any(offline):
        return Listed((o for o in offline if o), NEXT_CLAUSE).told(t._), "warning", None
    if observation.waiting:
        names = t.list_separator.join(model.name_of(p) for p in observation.waiting)
        return t._("Waiting for {names}").format(names=names), "dim", None
    return "", "dim", None


def _heading(t: Translator, observation: Observation) -> str:
    if observation.hand_limit:
        return t._("Hand {hand} of {limit}").format(
            hand=observation.hand_number, limit=observation.hand_limit
        )
    return (
        t._("Hand {hand}").format(hand=observation.hand_number) if observation.hand_number else ""
    )


def trick_plays(
    model: ClientModel, observation: Observation
) -> tuple[str, tuple[TrickPlay, ...], bool]:
    """The trick's title, its plays, and whether it is being played: the trick being
    played turn by turn; once over, the last trick with who took it, until the next lead;
    else the phase in words (nothing once the table is over)."""
    t = model.t
    story = model.trick_story
    if observation.phase == "play" and story.steps:
        title, steps, current = t._("On the table:"), story.steps, True
    elif observation.phase in ("play", "hand_over") and story.last:
        last = tidy(describe_last_trick(t, story, model.seat_name, model.me))
        title, steps, current = t._("{label}:").format(label=last), story.last, False
    else:
        phase = PHASE_TEXT.get(observation.phase)
        plays = () if phase is None else (TrickPlay(t._(phase), played=False, top=False),)
        return t._("On the table:"), plays, False
    top = next((step for step in reversed(steps) if step.set is not None), None)
    return (
        title,
        tuple(
            TrickPlay(
                tidy(describe_step(t, step, model.seat_name, model.me)),
                played=step.set is not None,
                top=current and step is top,
            )
            for step in steps
        ),
        current,
    )


def table_state(model: ClientModel) -> TableState | None:
    session, table = model.session, model.table
    observation = None if session is None else session.observation
    if table is None or table.lobby or observation is None or not observation.order:
        return None
    t = model.t
    title, trick, current = trick_plays(model, observation)
    turn, turn_tone, time_left = _turn(model, observation)
    joining = joining_row(t, table, observation, model.name_of)
    return TableState(
        heading=_heading(t, observation),
        columns=seat_columns(t, table.rules.scoring),
        seats=seat_rows(model, observation),
        joining=None if joining is None else joining.text,
        trick_title=title,
        trick=trick,
        trick_current=current,
        turn=turn,
        turn_tone=turn_tone,
        time_left=time_left,
        my_turn=model.choosing is not None,
        auto_passing=model.chooser is not None and model.choosing is None,
        hand=hand_view(model, observation),
        decision=decision_view(model),
        results=results_view(model, observation),
        standings=standings_view(model, observation),
        over=observation.ended is not None,
    )


def can(model: ClientModel) -> tuple[str, ...]:
    """The intents that make sense now, by name: what a page offers as buttons, and the
    terminal as keys."""
    table, can = model.table, ["chat", "exit"]
    if model.question is not None or table is None or model.session is None:
        return ("exit",)
    if table.lobby and model.seated:
        if not model.is_host:  # the host player's start is their ready
            can.append("ready")
        if model.is_host:
            can += ["start", "add_bot", "remove_bot", "kick", "set_rule"]
    if model.reading_results():
        can.append("ready")
    if model.results_shown:
        can.append("close_results")
    if model.in_hand and model.seated:
        can.append("auto_pass")
    if model.is_host and model.waited_for():
        can += ["nudge", "skip"]
    if model.ended and model.is_host:
        can.append("rematch")
    return tuple(dict.fromkeys(can))


CONNECTION_WORDS = {
    Status.CONNECTING: (N_("connecting…"), "warning"),
    Status.CONNECTED: (N_("connected"), "good"),
    Status.RECONNECTING: (N_("connection lost, reconnecting…"), "error"),
    Status.CLOSED: (N_("disconnected"), "error"),
}


def connection_mark(model: ClientModel) -> Mark:
    """Where the connection stands, in words and a tone."""
    if not model.live:  # nothing is connected: what is shown is a replay
        return Mark(model.t._("replay"), "dim")
    words, tone = CONNECTION_WORDS[model.status]
    return Mark(model.t._(words), tone)


def _title(model: ClientModel) -> str:
    t, screen = model.t, model.screen
    if screen is Screen.DISCOVER:
        return t._("Tables on this network")
    if screen is Screen.FORM:
        return t._("Joining {address}").format(address=model.address)
    if screen is Screen.CONNECTING:
        return t._("Connecting to {address}…").format(address=model.address)
    if screen is Screen.PROBLEM:
        return t._("Not connected") if model.refusal is None else model.refusal.title
    return "" if model.table is None else model.table.name


def listing_view(model: ClientModel, listing: TableListing) -> ListingView:
    t = model.t
    phases = {"lobby": t._("lobby"), "playing": t._("playing"), "ended": t._("ended")}
    codes = {True: t._("yes"), False: t._("no"), None: "?"}  # None: not said
    address = listing.addresses[0] if listing.addresses else "?"
    taken, total = listing.seats_taken, listing.seats_total
    theirs = listing.protocol_version
    notes = []
    if not listing.compatible:
        notes.append(
            t._("protocol {host}, ours {ours}").format(
                host="?" if theirs is None else theirs, ours=PROTOCOL_VERSION
            )
        )
    claim = model.claims.get(listing.instance_name)
    notes += [] if claim is None else claim.sentences(t._)
    others = [issue for issue in listing.issues if issue.template not in VERSION_ISSUES]
    if others:
        told = Listed(others, NEXT_CLAUSE).told(t._)
        notes.append(t._("Its announcement is incomplete: {issues}.").format(issues=told))
    return ListingView(
        name=listing.name,
        address=f"{address}:{listing.port}",
        seats="?" if taken is None else f"{taken}/{total}",
        phase=phases.get(str(listing.phase), "?"),
        code=codes[listing.code_required],
        protocol="?" if theirs is None else str(theirs),
        compatible=listing.compatible,
        claimed=claim is not None,
        notes=tuple(notes),
    )


def finding_view(model: ClientModel) -> FindingView | None:
    if model.screen is not Screen.DISCOVER:
        return None
    t = model.t
    headers = (t._("Table"), t._("Address"), t._("Seats"), t._("Phase"), t._("Code"))
    found = tuple(listing_view(model, listing) for listing in model.listings)
    slow = not found and model.discovery_slow
    return FindingView(
        headers=(*headers, t._("Protocol")),
        tables=found,
        looking="" if found else t._("Looking for tables…"),
        slow=(t._("No table found yet. Still looking."), t._(TROUBLESHOOTING)) if slow else (),
    )


def _refusal(model: ClientModel) -> RefusalView | None:
    """The refusal screen's content (a connection over without one said: why, in words)."""
    t, refusal = model.t, model.refusal
    if model.screen is not Screen.PROBLEM:
        return None
    if refusal is None:
        said = [model.problem or ""]
        if model.problem_detail:
            said.append(t._("The host said: {reason}").format(reason=model.problem_detail))
        return RefusalView("closed", t._("Not connected"), tuple(said), (), ())
    return RefusalView(
        refusal.kind,
        refusal.title,
        refusal.sentences,
        choice_views(t, refusal.choices),
        standing_views(refusal.standings, model.me),
    )


def choice_views(t: Translator, choices: Iterable[Choice]) -> tuple[ChoiceView, ...]:
    """A question's or a refusal's choices, their labels in the viewer's language."""
    return tuple(
        ChoiceView(choice.action, t._(choice.label), choice.sentence) for choice in choices
    )


def question_view(model: ClientModel) -> QuestionView | None:
    question = model.question
    if question is None:
        return None
    return QuestionView(question.title, choice_views(model.t, question.choices))


def field_view(model: ClientModel) -> FieldView | None:
    field = model.field
    if field is None:
        return None
    return FieldView(field.purpose, model.t._(field.label), field.text, field.max_chars)


def notice_view(model: ClientModel) -> NoticeView | None:
    notice = model.notice
    return None if notice is None else NoticeView(notice.text, notice.level)


def display(model: ClientModel) -> Display:
    """Everything a front end shows now, in the viewer's language."""
    return Display(
        screen=model.screen.value,
        title=_title(model),
        status=model.status.value,
        connection=connection_mark(model),
        name="" if model.table is None else model.table.name,
        me=model.me,
        host=model.is_host,
        watching=model.session is not None and model.session.spectator,
        finding=finding_view(model),
        lobby=lobby_view(model),
        table=table_state(model),
        log=tuple(LogEntry(line.kind, line.text) for line in list(model.log)[-LOG_SHOWN:]),
        question=question_view(model),
        refusal=_refusal(model),
        field=field_view(model),
        notice=notice_view(model),
        auto_pass=model.preferences.auto_pass,
        can=can(model),
    )
