"""The Great Dalmuti as a state machine: feed it actions, get events back.

No I/O, no clock: the game owns one seeded ``random.Random`` for every shuffle and draw,
so the same seed and the same inputs give the same game. ``pending()`` says who owes
which decision with every legal answer; ``apply`` takes an answer or raises
``IllegalAction`` and changes nothing. Between hands the driver (the host, a simulation)
calls ``begin_next_hand``, which is when newcomers and leavers take effect.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from enum import StrEnum
from typing import Any

from . import actions, encoding, hidden
from . import cards as c
from .actions import Action, Decision, legal_answers
from .cards import JESTER, CardSet, Counts
from .encoding import PASS_ID
from .errors import IllegalAction, Refusal
from .events import (
    REVOLUTION_CHECK,
    CardsDealt,
    DealFinished,
    Event,
    HandEnded,
    HandStarted,
    MerchantExchangeCards,
    MerchantExchanged,
    MerchantExchangeDeclined,
    MisdealExposed,
    MisdealReplacement,
    MisdealResolved,
    NewcomerPlaced,
    Passed,
    Played,
    PlayerJoining,
    PlayerLeaving,
    PlayerRemoved,
    RevolutionDeclared,
    RolesMirrored,
    SeatingDraw,
    SeatingSettled,
    TableEnded,
    TaxCards,
    TaxesSkipped,
    TaxPaid,
    TrickWon,
    Waiting,
    WentOut,
    event_from_dict,
    event_to_dict,
)
from .observation import Observation
from .roles import merchants_of, mirrored
from .rules import MAX_PLAYERS, MIN_PLAYERS, Rules, check_player_count, stripped_ranks

_SETS = c.SETS
_EMPTY = c.EMPTY
_is_shared = c.is_shared
_playable = c.playable
_SET_IDS = encoding.SET_IDS
_SET_OF_ID = {action_id: s for action_id, s in enumerate(encoding.PLAY_SETS) if s is not None}

GREATER_TAX = 2
LESSER_TAX = 1


SAVE_FORMAT = 1
"""The version of ``Game.to_dict``'s layout; ``from_dict`` refuses any other."""


def place_points(place: int, seats: int) -> int:
    """Rule 15: the player out in ``place`` (0 first) of ``seats`` scores one point per
    player still in the hand then."""
    return seats - 1 - place


def final_standings(
    scores: dict[int, int], order: Sequence[int]
) -> tuple[tuple[int, int, int], ...]:
    """(player, score, place) best first: higher scores first, ties in seat order sharing
    a place, as the table's end announces them."""
    seat = {player: index for index, player in enumerate(order)}
    ranked = sorted(scores.items(), key=lambda item: (-item[1], seat.get(item[0], 0)))
    return tuple(
        (player, score, 1 + sum(1 for _, other in ranked if other > score))
        for player, score in ranked
    )


class Phase(StrEnum):
    NOT_STARTED = "not_started"
    PLACEMENT = "placement"
    MISDEAL = "misdeal"
    REVOLUTION = "revolution"
    TAXES = "taxes"
    PLAY = "play"
    HAND_OVER = "hand_over"
    ENDED = "ended"


_PLAY = Phase.PLAY


class Game:
    def __init__(
        self, players: list[int] | tuple[int, ...], rules: Rules | None = None, seed: int = 0
    ) -> None:
        if len(set(players)) != len(players):
            raise ValueError("player ids must be distinct")
        if any(type(p) is not int or p < 0 for p in players):
            raise ValueError("player ids are whole numbers, 0 or more")
        check_player_count(len(players))
        self._init_state(tuple(players), rules if rules is not None else Rules(), seed)

    def _init_state(self, players: tuple[int, ...], rules: Rules, seed: int) -> None:
        self.rules = rules
        self.seed = seed
        self._rng = random.Random(seed)
        self.phase = Phase.NOT_STARTED
        self.order: tuple[int, ...] = tuple(players)
        self.hand_number = 0
        self.scores: dict[int, int] = {p: 0 for p in players}
        self._returns: dict[int, int] = {p: 0 for p in players}
        """Each player's points by rule 15 (and 16 when on), counted even without scoring."""
        self._hands: dict[int, Counts] = {}
        """Private: every hand. Read through ``observation`` or, to debug, ``debug_hands``."""
        self.taxes_this_hand = False
        # Deal in progress (paused by a misdeal).
        self._deck: list[int] = []
        self._dealt = 0
        self._exposed_at: int | None = None
        # Revolution and taxes.
        self._revolution_holder: int | None = None
        self._tax_waiting: list[int] = []
        self._tax_given: dict[int, tuple[int, ...]] = {}
        self._exchange: tuple[int, int] | None = None
        # The trick.
        self.turn: int | None = None
        self.top: CardSet | None = None
        self.top_player: int | None = None
        self.passed: set[int] = set()
        self.out: list[int] = []
        self._holding = 0
        """How many players still hold cards, counted during play so a turn need not."""
        self._trick_passes = 0
        """During a trick with a top: how many passes end it (everyone else still holding
        cards; the top's player too if they went out on it), set by the play."""
        self._successor: dict[int, int] | None = None
        """During play: each seat's next player clockwise still holding cards (built when
        first needed, dropped when someone goes out); ``None`` until then."""
        # Events are immutable values, so each player's turn and pass are built once per
        # table and the same instance is emitted again on every turn (the hot path).
        self._turns: dict[int, Waiting] = {}
        self._passes: dict[int, Passed] = {}
        self._nothing_beats: actions.PlayDecision | None = None
        self._tax_decisions: dict[
            int, tuple[Counts, tuple[int, ...], actions.TaxDecision | actions.ExchangeDecision]
        ] = {}
        """Each taxpayer's last decision, with the hand and seating it was made from: the
        fast path asks for it twice a decision (``legal_ids``, ``step``). Read only while
        that hand and seating are the very same objects, so a clone may share it."""
        # Between hands.
        self.joining: list[int] = []
        """Newcomers waiting for a seat, first come first placed (RULES.md rule 12)."""
        self.leaving: list[int] = []
        self.ended_reason: str | None = None
        self.log: list[Event] = []
        """This hand's events after the last hand's result: what ``observe`` folds."""
        self._views: dict[int | None, Observation] = {}
        """The observations asked for so far, kept up to date event by event."""
        self._keeps_log = True
        """False once stepped without events (``step``): the log is then incomplete."""

    # ----------------------------------------------------------------- what is owed

    def pending(self) -> dict[int, Decision]:
        """Every player who owes a decision now, with its legal answers."""
        if self.phase is _PLAY:
            turn = self.turn
            assert turn is not None
            return {turn: self._play_decision(turn)}
        if self.phase is Phase.TAXES:
            return {p: self._tax_decision(p) for p in self._tax_waiting}
        if self.phase is Phase.REVOLUTION:
            assert self._revolution_holder is not None
            holder = self._revolution_holder
            return {holder: actions.RevolutionDecision(greater=holder == self.order[-1])}
        if self.phase is Phase.MISDEAL:
            assert self._exposed_at is not None
            return {
                self.order[0]: actions.MisdealDecision(
                    card=self._deck[self._exposed_at],
                    intended=self._receiver(self._exposed_at),
                    peon=self.order[-1],
                )
            }
        if self.phase is Phase.PLACEMENT:
            return {
                self.order[0]: actions.PlacementDecision(
                    newcomer=self.joining[0], positions=self._positions_for_newcomer()
                )
            }
        return {}

    def decision_for(self, player: int) -> Decision | None:
        if self.phase is Phase.PLAY:
            return self._play_decision(player) if player == self.turn else None
        if self.phase is Phase.TAXES:  # the one phase owing several decisions at once
            return self._tax_decision(player) if player in self._tax_waiting else None
        return self.pending().get(player)

    def _tax_decision(self, player: int) -> actions.TaxDecision | actions.ExchangeDecision:
        hand, order = self._hands[player], self.order
        made = self._tax_decisions.get(player)
        if made is not None and made[0] is hand and made[1] is order:
            return made[2]
        decision: actions.TaxDecision | actions.ExchangeDecision
        if player == order[0]:
            decision = actions.TaxDecision(GREATER_TAX, c.cards_of(hand), order[-1])
        elif player == order[1]:
            decision = actions.TaxDecision(LESSER_TAX, c.cards_of(hand), order[-2])
        else:
            decision = actions.ExchangeDecision(
                merchants=merchants_of(order)[1:],
                cards=tuple(card for card in c.CARDS if hand[card]),
            )
        self._tax_decisions[player] = (hand, order, decision)
        return decision

    def _play_decision(self, player: int) -> actions.PlayDecision:
        top = self.top
        sets = _playable(self._hands[player], top, _SETS, [])
        if sets or top is None:
            return actions.PlayDecision(tuple(sets), top is not None, top)
        # Most follows have nothing that beats the top: they share one decision per top.
        nothing = self._nothing_beats
        if nothing is None or nothing.to_beat is not top:
            nothing = self._nothing_beats = actions.PlayDecision((), True, top)
        return nothing

    @property
    def in_hand(self) -> tuple[int, ...]:
        """Players still holding cards, in seat order."""
        return tuple(p for p in self.order if self._hands.get(p, c.EMPTY) != c.EMPTY)

    # ----------------------------------------------------------------- research API

    def legal_actions(self, player: int) -> list[Action]:
        """Every answer ``apply`` accepts from ``player`` now (empty if they owe none), in
        the stable order of ``legal_answers``; every decision kind, taxes included."""
        decision = self.decision_for(player)
        return [] if decision is None else legal_answers(decision)

    def legal_action_ids(self, player: int) -> list[int]:
        """The ids of ``legal_actions(player)``, in the same order."""
        decision = self.decision_for(player)
        return [] if decision is None else encoding.answer_ids(decision, self.order)

    def action_id(self, action: Action) -> int:
        """``action``'s stable integer id (``encoding``) at this hand's seating."""
        return encoding.encode(action, self.order)

    def action_of(self, action_id: int) -> Action:
        """The action an id stands for at this hand's seating."""
        return encoding.decode(action_id, self.order)

    # ----------------------------------------------------------------- the fast path

    def to_move(self) -> int | None:
        """The player whose answer ``step`` takes now, ``None`` when nobody owes one. In
        the taxes, where several owe theirs at once, the first of them (the Greater
        Dalmuti, then the Lesser, then the top Merchant)."""
        phase = self.phase
        if phase is _PLAY:
            return self.turn
        if phase is Phase.TAXES:
            return self._tax_waiting[0]
        if phase is Phase.REVOLUTION:
            return self._revolution_holder
        if phase is Phase.MISDEAL or phase is Phase.PLACEMENT:
            return self.order[0]
        return None

    def legal_ids(self) -> list[int]:
        """The ids of every answer ``step`` takes now from ``to_move()``: the same ids, in
        the same order, as ``legal_action_ids(to_move())``; in play, read from tables
        without building a decision or an action."""
        if self.phase is _PLAY:
            top = self.top
            return _playable(self._hands[self.turn], top, _SET_IDS, [] if top is None else [0])  # type: ignore[index]
        player = self.to_move()
        return [] if player is None else self.legal_action_ids(player)

    def step(self, action_id: int, events: list[Event] | None = None) -> None:
        """``to_move()``'s answer by its id: the fast path, for playouts and training.

        The same rules code as ``apply`` runs (its checks too: an illegal id raises
        ``IllegalAction`` and changes nothing). In play no decision or action object is
        made; outside play (a few answers a hand) the id is decoded into its action and
        checked against the decision owed, as ``apply`` does. Either way no event is
        built unless ``events`` is given: then they are added to it and kept in the log
        and the observations as ``apply`` keeps them. A game stepped without ``events``
        keeps no log from then on: its ``observation``, ``sample_hidden`` and ``to_dict``
        refuse (``ValueError``), which a playout never asks for.
        """
        if self.phase is _PLAY:
            if type(action_id) is not int:
                raise IllegalAction(Refusal.WRONG_DECISION, "an action id is a whole number")
            played = _SET_OF_ID.get(action_id)
            if played is None and action_id != PASS_ID:
                raise IllegalAction(Refusal.WRONG_DECISION, "play a set or pass")
            if events is None:  # a playout's step: nothing built, nothing kept
                self._turn(self.turn, played, None)  # type: ignore[arg-type]
                if self._keeps_log:
                    self._drop_log()
                return
            new: list[Event] = []
            self._turn(self.turn, played, new)  # type: ignore[arg-type]
        else:
            self._check_not_ended()
            player = self.to_move()
            if player is None:
                raise IllegalAction(Refusal.NO_DECISION_OWED, "nobody owes a decision right now")
            try:
                action = encoding.decode(action_id, self.order)
            except ValueError as error:
                raise IllegalAction(Refusal.WRONG_DECISION, str(error)) from None
            if events is None:  # nothing built, nothing kept
                self._answer(player, action, None)
                if self._keeps_log:
                    self._drop_log()
                return
            new = []
            self._answer(player, action, new)
        events.extend(self._logged(new))

    def playout(self, rng: random.Random) -> int:
        """Answer uniformly drawn legal ids for whoever owes a decision until the hand is
        over (or nobody owes one); return how many were answered. A playout's loop: the
        same draws, so the same game, as ``ids = legal_ids(); step(ids[rng.randrange(len(
        ids))])`` repeated, and like that ``step`` it builds no event and keeps no log.

        In play, the turn is the one ``step`` and ``apply`` take (``_turn``), fed the legal
        sets straight from the table walk that lists the legal ids: no id is made or
        looked up, and no method of the API is called per decision.
        """
        randrange = rng.randrange
        turn = self._turn
        decisions = 0
        while True:
            if self.phase is _PLAY:
                if self._keeps_log:
                    self._drop_log()
                hands = self._hands
                while True:
                    player = self.turn
                    top = self.top
                    sets = _playable(hands[player], top, _SETS, [])  # type: ignore[index]
                    decisions += 1
                    if top is None:
                        turn(player, sets[randrange(len(sets))], None)  # type: ignore[arg-type]
                    else:  # passing is id 0, before the sets
                        index = randrange(len(sets) + 1)
                        turn(player, sets[index - 1] if index else None, None)  # type: ignore[arg-type]
                    if self.phase is not _PLAY:
                        break
                continue
            if self.to_move() is None:
                return decisions
            ids = self.legal_ids()
            self.step(ids[randrange(len(ids))])
            decisions += 1

    @property
    def keeps_log(self) -> bool:
        """Whether the game still keeps its log (and so its observations): false once it
        has been stepped without events."""
        return self._keeps_log

    def _drop_log(self) -> None:
        self._keeps_log = False
        self.log = []
        self._views = {}

    def _check_log_kept(self) -> None:
        if not self._keeps_log:
            raise ValueError(
                "this game was stepped without events (Game.step): it keeps no log, so no"
                " observation, sample or save of it can be made"
            )

    def is_terminal(self) -> bool:
        """The table has ended (its hand limit, too few players, or the host)."""
        return self.phase is Phase.ENDED

    def returns(self) -> dict[int, int]:
        """Each player's points so far as rule 15 counts them (N - k for the k-th out of N,
        the last 0), plus rule 16's bonus when it is on: the table's scores when scoring
        is on, and the same count when it is off. Players who left keep theirs."""
        return dict(self._returns)

    def observation(self, viewer: int | None) -> Observation:
        """What ``viewer`` (a player, or ``None`` for a spectator) knows now (rule 20).

        Kept up to date event by event from the first call on, across hands (``results``
        holds every hand's result since then): the game's own, so read it, do not change
        it; ``observe`` gives a copy rebuilt from this hand's events.
        """
        view = self._views.get(viewer)
        if view is None:
            self._check_log_kept()
            view = Observation(viewer)
            for event in self.log:
                audience = event.audience()
                if audience is None or (viewer is not None and viewer in audience):
                    view.apply(event)
            self._views[viewer] = view
        return view

    def clone(self, observations: Iterable[int | None] | None = None) -> Game:
        """An independent copy that plays on exactly as this game would (same random draws).

        The copy keeps up the observations this game keeps, or only those of the viewers
        in ``observations`` (others are rebuilt from the hand's events if asked for): a
        playout that reads one seat's view need not pay for every seat's.
        """
        twin = Game.__new__(Game)
        state = twin.__dict__
        state.update(self.__dict__)
        # Not random.Random(): that seeds from the system's entropy first (30 µs, more
        # than the rest of a clone) only for the state to be replaced.
        twin._rng = random.Random.__new__(random.Random)
        twin._rng.setstate(self._rng.getstate())
        twin.scores = self.scores.copy()
        twin._returns = self._returns.copy()
        twin._hands = self._hands.copy()
        twin._tax_waiting = self._tax_waiting.copy()
        twin._tax_given = self._tax_given.copy()
        twin.passed = self.passed.copy()
        twin.out = self.out.copy()
        twin.joining = self.joining.copy()
        twin.leaving = self.leaving.copy()
        twin.log = self.log.copy()
        twin._turns = self._turns.copy()
        twin._passes = self._passes.copy()
        views = self._views
        kept = views if observations is None else [v for v in observations if v in views]
        twin._views = {viewer: views[viewer].copy() for viewer in kept}
        return twin

    def debug_hands(self) -> dict[int, Counts]:
        """Every player's hand: for tests and debugging only. A bot that reads this cheats;
        bots see their ``observation`` and determinize with ``sample_hidden``."""
        return dict(self._hands)

    def sample_hidden(self, viewer: int | None, rng: random.Random) -> Game:
        """A full game that ``viewer`` cannot tell from this one: a determinization.

        The cards ``viewer`` cannot see are dealt again at random, uniformly among the
        deals that agree with what it knows (``hidden.sample_unseen``): card counts,
        every card played and by whom, the cards of transfers it gave or received, a
        Peon's floor, a declared revolution's Jesters, a misdeal's exposed card. A choice
        already made that it cannot see (a Dalmuti's tax, the Merchant's exchange) is
        drawn again among that player's legal answers, and the copy's random draws
        (exchange draws, later deals) are reseeded from ``rng``, so the real ones stay
        secret. The copy's ``observation(viewer)`` equals this game's; its log holds only
        what ``viewer`` may see; the other seats' observations are rebuilt on the
        sampled hands.
        """
        self._check_log_kept()
        real = self.observation(viewer)
        twin = self.clone()
        twin._rng = random.Random(rng.getrandbits(64))
        if self.phase is Phase.MISDEAL:
            twin._redeal_around_exposed(rng)
        elif self.phase in (Phase.REVOLUTION, Phase.TAXES, Phase.PLAY):
            twin._hands.update(self._sampled_hands(real, viewer, rng))
            if self.phase is Phase.REVOLUTION and self._revolution_holder != viewer:
                twin._revolution_holder = next(p for p in twin.order if twin._hands[p][JESTER] == 2)
            if self.phase is Phase.TAXES:
                twin._redraw_hidden_tax_choices(viewer, rng)
        twin.log = [
            event
            for event in self.log
            if (audience := event.audience()) is None or (viewer is not None and viewer in audience)
        ]
        twin._views = {viewer: real.copy()}
        for player in twin.order:
            if player != viewer:
                twin._views[player] = hidden.their_view(real, player, twin._hands.get(player))
        return twin

    @classmethod
    def from_observation(
        cls, seen: Observation, rng: random.Random, rules: Rules | None = None
    ) -> Game:
        """A game in play that a seat's ``seen`` observation cannot tell from the real one:
        ``sample_hidden`` for a bot that holds only its observation (a remote seat).

        The seat must be in a hand being played (phase ``play``); it is that seat's turn
        in the copy. The other seats' cards are dealt as ``sample_hidden`` deals them; the
        copy plays with ``rules`` (default: scoring, so that ``returns`` count places) and
        its random draws are seeded from ``rng``. Its log is empty: its observations are
        the seat's own (copied) and the others' rebuilt on their sampled hands.
        """
        viewer, hand = seen.viewer, seen.hand
        if seen.phase != "play" or viewer is None or hand is None or viewer not in seen.order:
            raise ValueError("a game can be rebuilt only from a seated player's view of play")
        game = cls.__new__(cls)
        order = seen.order
        game._init_state(order, rules or Rules(scoring=True), rng.getrandbits(64))
        counts = {p: seen.counts.get(p, 0) for p in order}
        counts[viewer] = sum(hand)
        deck = c.deck_of_size(sum(counts.values()) + sum(seen.played))
        unseen = [deck[card] - seen.played[card] - hand[card] for card in range(14)]
        needs = {p: counts[p] for p in order if p != viewer}
        game._hands = dict(hidden.sample_unseen(unseen, needs, hidden.knowledge_of(seen), rng))
        game._hands[viewer] = hand
        game._deck = list(c.cards_of(deck))
        game._dealt = len(game._deck)
        game.phase = Phase.PLAY
        game.hand_number = seen.hand_number
        game.scores = {p: seen.scores.get(p, 0) for p in order}
        game.taxes_this_hand = seen.taxes
        game.turn = viewer
        game.top, game.top_player = seen.to_beat, seen.top_player
        game.passed = set(seen.passed)
        game.out = list(seen.out)
        game._holding = sum(1 for p in order if game._hands[p] != c.EMPTY)
        game._count_trick_passes()
        game._views = {viewer: seen.copy(), None: hidden.their_view(seen, None, None)}
        for player in order:
            if player != viewer:
                game._views[player] = hidden.their_view(seen, player, game._hands[player])
        return game

    def _sampled_hands(
        self, real: Observation, viewer: int | None, rng: random.Random
    ) -> dict[int, Counts]:
        deck = c.counts_of(self._deck)
        own = self._hands.get(viewer, c.EMPTY) if viewer is not None else c.EMPTY
        unseen = [deck[card] - real.played[card] - own[card] for card in range(14)]
        needs = {p: sum(self._hands[p]) for p in self.order if p != viewer}
        holder_must_be: tuple[int, ...] = ()
        if self.phase is Phase.REVOLUTION and self._revolution_holder != viewer:
            # Someone else is being asked: they hold both Jesters (the GP, on a first deal).
            holder_must_be = (self.order[-1],) if not self.taxes_this_hand else tuple(needs)
        return hidden.sample_unseen(unseen, needs, hidden.knowledge_of(real), rng, holder_must_be)

    def _redeal_around_exposed(self, rng: random.Random) -> None:
        """Mid-deal (a misdeal): nobody has seen a card but the exposed one."""
        assert self._exposed_at is not None
        exposed = self._exposed_at
        others = [card for index, card in enumerate(self._deck) if index != exposed]
        rng.shuffle(others)
        others.insert(exposed, self._deck[exposed])
        self._deck = others
        dealing = {player: [0] * 14 for player in self.order}
        for index in range(self._dealt):
            dealing[self._receiver(index)][others[index]] += 1
        self._hands = {player: tuple(counts) for player, counts in dealing.items()}

    def _redraw_hidden_tax_choices(self, viewer: int | None, rng: random.Random) -> None:
        for player in list(self._tax_given):
            if player != viewer:
                count = len(self._tax_given[player])
                self._tax_given[player] = tuple(rng.sample(c.cards_of(self._hands[player]), count))
        merchants = merchants_of(self.order)
        if (
            self._exchange_active()
            and merchants[0] != viewer
            and merchants[0] not in self._tax_waiting
        ):
            decision = actions.ExchangeDecision(
                merchants=merchants[1:],
                cards=tuple(card for card in c.CARDS if self._hands[merchants[0]][card]),
            )
            answer = rng.choice(legal_answers(decision))
            assert isinstance(answer, actions.MerchantExchange)
            self._exchange = (
                None if answer.other is None or answer.card is None else (answer.other, answer.card)
            )

    # ----------------------------------------------------------------- driving

    def start(self) -> list[Event]:
        """The seating draw, then the first hand."""
        if self.phase is not Phase.NOT_STARTED:
            raise IllegalAction(Refusal.WRONG_PHASE, "the table has already started")
        events: list[Event] = []
        self.order = self._seating_draw(events)
        events.append(SeatingSettled(self.order))
        self._start_hand(events)
        return self._logged(events)

    def begin_next_hand(self) -> list[Event]:
        """After a hand: remove leavers, seat newcomers, deal the next hand."""
        events: list[Event] = []
        self._begin_next_hand(events)
        return self._logged(events)

    def next_hand(self, events: list[Event] | None = None) -> None:
        """``begin_next_hand`` on the fast path, as ``step`` is ``apply``'s: the same steps,
        no event built unless ``events`` is given (then they are added to it and kept in
        the log); without, the game keeps no log from then on. A playout's driver deals
        here: building a deal's events cost about a twentieth of a random hand's time."""
        if events is None:
            self._begin_next_hand(None)
            if self._keeps_log:
                self._drop_log()
            return
        new: list[Event] = []
        self._begin_next_hand(new)
        events.extend(self._logged(new))

    def _begin_next_hand(self, events: list[Event] | None) -> None:
        self._check_not_ended()
        if self.phase is not Phase.HAND_OVER:
            raise IllegalAction(Refusal.WRONG_PHASE, "a hand is still being played")
        for player in self.leaving:
            self._remove(player, events)
        self.leaving = []
        self._place_newcomers(events)

    def request_join(self, player: int) -> list[Event]:
        """A newcomer asks to join; they are seated at the start of the next hand.

        While the GD is placing newcomers that hand has not begun, so they are placed too.
        """
        self._check_not_ended()
        if type(player) is not int or player < 0:
            raise IllegalAction(Refusal.UNKNOWN_PLAYER, "player ids are whole numbers, 0 or more")
        if player in self.order or player in self.joining:
            raise IllegalAction(Refusal.ALREADY_SEATED, "that player is already at the table")
        if self.phase is Phase.NOT_STARTED:
            raise IllegalAction(Refusal.WRONG_PHASE, "seat players before the table starts")
        staying = len(self.order) - len(self.leaving) + len(self.joining)
        if staying >= MAX_PLAYERS:
            raise IllegalAction(Refusal.TABLE_FULL, f"the table already has {MAX_PLAYERS} players")
        self.joining.append(player)
        return self._logged([PlayerJoining(player)])

    def request_leave(self, player: int) -> list[Event]:
        """A player leaves: removed before the next hand (a newcomer simply withdraws).

        During a hand the leaver plays it out; while the GD is placing newcomers, before
        the next hand, the leaver is removed at once and the placing goes on.
        """
        self._check_not_ended()
        if self.phase is Phase.NOT_STARTED:
            raise IllegalAction(Refusal.WRONG_PHASE, "seat players before the table starts")
        placing = self.phase is Phase.PLACEMENT
        events: list[Event] = []
        if player in self.joining:
            self.joining.remove(player)
            events.append(PlayerLeaving(player))
        elif player in self.order and player not in self.leaving:
            events.append(PlayerLeaving(player))
            if placing:
                self._remove(player, events)
            else:
                self.leaving.append(player)
        else:
            raise IllegalAction(Refusal.UNKNOWN_PLAYER, "that player is not at the table")
        if placing:
            self._place_newcomers(events)
        return self._logged(events)

    def end_table(self, reason: str = "host_ended") -> list[Event]:
        self._check_not_ended()
        events: list[Event] = []
        self._end(reason, events)
        return self._logged(events)

    def apply(self, player: int, action: Action) -> list[Event]:
        """Apply one player's answer to the decision they owe."""
        events: list[Event] = []
        # A turn in play first, the common case (a bool would pass for seat 0 or 1).
        if self.phase is _PLAY and player == self.turn and type(player) is int:
            # The answer's type and shape are checked here; the turn itself (its rules)
            # is the one ``step`` takes too.
            if isinstance(action, actions.Pass):
                self._turn(player, None, events)
            else:
                if not isinstance(action, actions.Play):
                    raise IllegalAction(Refusal.WRONG_DECISION, "play a set or pass")
                played = action.set
                if not _is_shared(played) and (  # a set the engine handed out is well formed
                    not isinstance(played, CardSet)
                    or type(played.rank) is not int
                    or type(played.count) is not int
                    or type(played.jesters) is not int
                    or not played.is_well_formed()
                ):
                    raise IllegalAction(Refusal.NOT_A_SET, "that is not a set of cards")
                self._turn(player, played, events)
            self.log.extend(events)  # a play never starts a hand: nothing to forget
            if self._views:
                self._fold(events)
            return events
        self._check_not_ended()
        if type(player) is not int:
            raise IllegalAction(Refusal.NO_DECISION_OWED, "you owe no decision right now")
        self._answer(player, action, events)
        return self._logged(events)

    def _answer(self, player: int, action: Action, events: list[Event] | None) -> None:
        """Any answer but a turn in play (a few a hand): checked against the decision owed."""
        decision = None if self.phase is Phase.PLAY else self.decision_for(player)
        if decision is None:
            raise IllegalAction(Refusal.NO_DECISION_OWED, "you owe no decision right now")
        if isinstance(decision, actions.TaxDecision | actions.ExchangeDecision):
            self._apply_tax(player, decision, action, events)
        elif isinstance(decision, actions.RevolutionDecision):
            self._apply_revolution(player, action, events)
        elif isinstance(decision, actions.MisdealDecision):
            self._apply_misdeal(action, events)
        else:
            self._apply_placement(decision, action, events)

    # ----------------------------------------------------------------- seating

    def _seating_draw(self, events: list[Event]) -> tuple[int, ...]:
        """Order players best card first; only tied players redraw, from a fresh shuffle."""
        rounds = [0]

        def settle(group: list[int]) -> list[int]:
            rounds[0] += 1
            deck = c.full_deck()
            self._rng.shuffle(deck)
            drawn = dict(zip(group, deck, strict=False))
            events.append(SeatingDraw(rounds[0], tuple((p, drawn[p]) for p in group)))
            settled: list[int] = []
            for card in sorted(set(drawn.values())):
                tied = [p for p in group if drawn[p] == card]
                settled.extend(tied if len(tied) == 1 else settle(tied))
            return settled

        return tuple(settle(list(self.order)))

    def _remove(self, player: int, events: list[Event] | None) -> None:
        self.order = tuple(p for p in self.order if p != player)
        self.scores.pop(player, None)
        self._hands.pop(player, None)
        if events is not None:
            events.append(PlayerRemoved(player))

    def _place_newcomers(self, events: list[Event] | None) -> None:
        """Seat the waiting newcomers (asking the GD where there is a choice), then deal."""
        if len(self.order) + len(self.joining) < MIN_PLAYERS:
            self._end("too_few_players", events)
            return
        while self.joining:
            positions = self._positions_for_newcomer()
            if len(positions) > 1:
                self.phase = Phase.PLACEMENT
                if events is not None:
                    events.append(Waiting(self.phase, (self.order[0],)))
                return
            self._seat_newcomer(positions[0], None, events)
        self._start_hand(events)

    def _positions_for_newcomer(self) -> tuple[int, ...]:
        """Between the Dalmutis and the Peons (RULES.md rule 12).

        With fewer than four seated there are no Merchant seats: the newcomer sits right
        after the Dalmutis (position 2), never above them.
        """
        last = max(2, len(self.order) - 2)
        return tuple(range(2, last + 1))

    def _seat_newcomer(
        self, position: int, chosen_by: int | None, events: list[Event] | None
    ) -> None:
        newcomer = self.joining.pop(0)
        self.order = (*self.order[:position], newcomer, *self.order[position:])
        self.scores[newcomer] = 0
        self._returns.setdefault(newcomer, 0)
        if events is not None:
            events.append(NewcomerPlaced(newcomer, position, chosen_by))

    def _apply_placement(
        self, decision: Decision, action: Action, events: list[Event] | None
    ) -> None:
        assert isinstance(decision, actions.PlacementDecision)
        if not isinstance(action, actions.PlaceNewcomer):
            raise IllegalAction(Refusal.WRONG_DECISION, "place the newcomer first")
        if type(action.position) is not int or action.position not in decision.positions:
            raise IllegalAction(
                Refusal.BAD_POSITION,
                f"a newcomer sits at one of positions {list(decision.positions)}",
            )
        self._seat_newcomer(action.position, self.order[0], events)
        self._place_newcomers(events)

    # ----------------------------------------------------------------- the deal

    def _start_hand(self, events: list[Event] | None) -> None:
        self.hand_number += 1
        self.taxes_this_hand = not (self.rules.first_deal_revolution and self.hand_number == 1)
        self._deck = c.full_deck(stripped_ranks(self.rules, len(self.order)))
        self._rng.shuffle(self._deck)
        self._dealt = 0
        self._exposed_at = None
        self._hands = {p: c.EMPTY for p in self.order}
        self.out = []
        self.turn = self.top = self.top_player = None
        self.passed = set()
        self._revolution_holder = None
        self._tax_waiting = []
        self._tax_given = {}
        self._exchange = None
        if events is not None:
            events.append(
                HandStarted(
                    hand=self.hand_number,
                    order=self.order,
                    scores=tuple(self.scores[p] for p in self.order),
                    deck_size=len(self._deck),
                    taxes=self.taxes_this_hand,
                    hand_limit=self.rules.hand_limit,
                )
            )
        if self.rules.misdeal_chance and self._rng.random() < self.rules.misdeal_chance:
            self._exposed_at = self._rng.randrange(len(self._deck))
        self._continue_deal(events)

    def _receiver(self, index: int) -> int:
        return self.order[index % len(self.order)]

    def _give(self, player: int, card: int) -> None:
        counts = list(self._hands[player])
        counts[card] += 1
        self._hands[player] = tuple(counts)

    def _continue_deal(self, events: list[Event] | None) -> None:
        # Cards are counted into lists, and the hands written back once, when the deal
        # pauses for a misdeal or ends: not a new tuple per card.
        dealing = {player: list(self._hands[player]) for player in self.order}
        paused = self._deal_until_paused(dealing, events)
        for player, counts in dealing.items():
            self._hands[player] = tuple(counts)
        if paused:
            return
        if events is not None:
            for player in self.order:
                events.append(CardsDealt(player, c.cards_of(self._hands[player])))
            events.append(DealFinished(tuple(sum(self._hands[p]) for p in self.order)))
        self._after_deal(events)

    def _deal_until_paused(self, dealing: dict[int, list[int]], events: list[Event] | None) -> bool:
        """Deal the rest of the deck into ``dealing``; true if a misdeal needs deciding."""
        deck, order = self._deck, self.order
        seats, exposed = len(order), self._exposed_at
        # Each seat's counts by seat index: the deal is every hand's first 80 steps.
        by_seat = [dealing[player] for player in order]
        index, end = self._dealt, len(deck)
        while index < end:
            if index == exposed:
                card, intended, peon = deck[index], self._receiver(index), order[-1]
                # Nothing to decide when the Peon holds no card yet or the card is theirs.
                needs_decision = index >= seats - 1 and intended != peon
                if events is not None:
                    events.append(MisdealExposed(card, intended, index, needs_decision))
                if needs_decision:
                    self._dealt = index
                    self.phase = Phase.MISDEAL
                    if events is not None:
                        events.append(Waiting(self.phase, (order[0],)))
                    return True
                if events is not None:
                    events.append(
                        MisdealResolved(actions.MisdealChoice.INTENDED, card, intended, peon)
                    )
            by_seat[index % seats][deck[index]] += 1
            index += 1
        self._dealt = index
        return False

    def _apply_misdeal(self, action: Action, events: list[Event] | None) -> None:
        if not (
            isinstance(action, actions.DecideMisdeal) and action.choice in ("intended", "peon")
        ):
            raise IllegalAction(Refusal.WRONG_DECISION, "decide the misdeal: 'intended' or 'peon'")
        choice = actions.MisdealChoice(action.choice)
        assert self._exposed_at is not None
        index = self._exposed_at
        card, intended, peon = self._deck[index], self._receiver(index), self.order[-1]
        if events is not None:
            events.append(MisdealResolved(choice, card, intended, peon))
        if choice is actions.MisdealChoice.PEON:
            replacement = self._rng.choice(c.cards_of(self._hands[peon]))
            self._hands[peon] = c.remove(self._hands[peon], (replacement,))
            self._give(intended, replacement)
            self._give(peon, card)
            if events is not None:
                events.append(MisdealReplacement(peon, intended, replacement))
        else:
            self._give(intended, card)
        self._dealt += 1
        self._continue_deal(events)

    # ----------------------------------------------------------------- revolution, taxes

    def _after_deal(self, events: list[Event] | None) -> None:
        # Every hand passes through the same public revolution check, whoever holds both
        # Jesters (RULES.md rule 20): its ``Waiting`` names nobody, and the hand goes on
        # exactly as a holder's "no" would make it go on. Only the holder is asked.
        self.phase = Phase.REVOLUTION
        if events is not None:
            events.append(REVOLUTION_CHECK)
        holder = next((p for p in self.order if self._hands[p][JESTER] == 2), None)
        greater_possible = holder == self.order[-1]
        if holder is not None and (self.taxes_this_hand or greater_possible):
            self._revolution_holder = holder
            return
        self._begin_taxes(events)

    def _apply_revolution(self, player: int, action: Action, events: list[Event] | None) -> None:
        if not isinstance(action, actions.DeclareRevolution) or type(action.declare) is not bool:
            raise IllegalAction(Refusal.WRONG_DECISION, "declare a revolution or not: yes or no")
        self._revolution_holder = None
        if not action.declare:
            self._begin_taxes(events)
            return
        greater = player == self.order[-1]
        if events is not None:
            events.append(RevolutionDeclared(player, greater))
        if greater:
            self.order = mirrored(self.order)
            if events is not None:
                events.append(RolesMirrored(self.order))
        self.taxes_this_hand = False
        if events is not None:
            events.append(TaxesSkipped("revolution"))
        self._begin_play(self.order[0], events)

    def _begin_taxes(self, events: list[Event] | None) -> None:
        if not self.taxes_this_hand:
            if events is not None:
                events.append(TaxesSkipped("first_deal"))
            self._begin_play(self.order[0], events)
            return
        self._tax_waiting = [self.order[0], self.order[1]]
        if self._exchange_active():
            self._tax_waiting.append(merchants_of(self.order)[0])
        self.phase = Phase.TAXES
        if events is not None:
            events.append(Waiting(self.phase, tuple(self._tax_waiting)))

    def _exchange_active(self) -> bool:
        """The merchant exchange needs two Merchants (RULES.md rule 17)."""
        return self.rules.merchant_exchange and len(merchants_of(self.order)) >= 2

    def _apply_tax(
        self,
        player: int,
        decision: actions.TaxDecision | actions.ExchangeDecision,
        action: Action,
        events: list[Event] | None,
    ) -> None:
        if isinstance(decision, actions.TaxDecision):
            if not isinstance(action, actions.GiveTax):
                raise IllegalAction(Refusal.WRONG_DECISION, "choose the cards to give your Peon")
            cards = action.cards
            if (
                not isinstance(cards, tuple | list)
                or len(cards) != decision.count
                or any(type(card) is not int or card not in c.CARDS for card in cards)
            ):
                raise IllegalAction(
                    Refusal.BAD_CARDS, f"give exactly {decision.count} card(s) from your hand"
                )
            given = tuple(cards)
            if not c.holds(self._hands[player], given):
                raise IllegalAction(Refusal.NOT_HELD, "you do not hold those cards")
            self._tax_given[player] = given
        else:
            if not isinstance(action, actions.MerchantExchange):
                raise IllegalAction(Refusal.WRONG_DECISION, "decide the merchant exchange")
            if (action.other is None) != (action.card is None):
                raise IllegalAction(
                    Refusal.BAD_MERCHANT, "name both a Merchant and a card, or neither to decline"
                )
            if action.other is not None and action.card is not None:
                if type(action.other) is not int or action.other not in decision.merchants:
                    raise IllegalAction(
                        Refusal.BAD_MERCHANT, "exchange with another Merchant of this hand"
                    )
                if type(action.card) is not int or action.card not in decision.cards:
                    raise IllegalAction(Refusal.NOT_HELD, "you do not hold that card")
                self._exchange = (action.other, action.card)
        self._tax_waiting.remove(player)
        if self._tax_waiting:
            if events is not None:
                events.append(Waiting(self.phase, tuple(self._tax_waiting)))
            return
        self._settle_taxes(events)

    def _settle_taxes(self, events: list[Event] | None) -> None:
        """Every transfer at once, each giver choosing from the hand they were dealt."""
        gd, ld, lp, gp = self.order[0], self.order[1], self.order[-2], self.order[-1]
        transfers = [
            (gp, gd, c.best_cards(self._hands[gp], GREATER_TAX)),
            (gd, gp, self._tax_given[gd]),
            (lp, ld, c.best_cards(self._hands[lp], LESSER_TAX)),
            (ld, lp, self._tax_given[ld]),
        ]
        merchants = merchants_of(self.order)
        exchange: tuple[int, int, int, int] | None = None
        if self._exchange is not None:
            top, (other, given) = merchants[0], self._exchange
            received = self._rng.choice(c.cards_of(self._hands[other]))
            exchange = (top, other, given, received)
        elif self._exchange_active() and events is not None:
            events.append(MerchantExchangeDeclined(merchants[0]))
        for giver, _, cards in transfers:
            self._hands[giver] = c.remove(self._hands[giver], cards)
        if exchange is not None:
            top, other, given, received = exchange
            self._hands[top] = c.remove(self._hands[top], (given,))
            self._hands[other] = c.remove(self._hands[other], (received,))
        for giver, receiver, cards in transfers:
            self._hands[receiver] = c.add(self._hands[receiver], cards)
            if events is not None:
                events.append(TaxPaid(giver, receiver, len(cards)))
            if events is not None:
                events.append(TaxCards(giver, receiver, cards))
        if exchange is not None:
            top, other, given, received = exchange
            self._give(other, given)
            self._give(top, received)
            if events is not None:
                events.append(MerchantExchanged(top, other))
            if events is not None:
                events.append(MerchantExchangeCards(top, other, given, received))
        self._tax_given = {}
        self._exchange = None
        self._begin_play(self.order[0], events)

    # ----------------------------------------------------------------- play

    def _begin_play(self, leader: int, events: list[Event] | None) -> None:
        self.phase = Phase.PLAY
        self._holding = len(self.in_hand)
        self._successor = None
        self._new_trick(leader, events)

    def _new_trick(self, leader: int, events: list[Event] | None) -> None:
        self.top = self.top_player = None
        self.passed = set()
        self.turn = leader
        if events is not None:
            events.append(self._turn_of(leader))

    def _next_in_hand(self, player: int) -> int:
        """The next player clockwise after ``player`` who still holds cards."""
        successor = self._successor
        if successor is None:
            successor = self._successor = self._successors()
        return successor[player]

    def _successors(self) -> dict[int, int]:
        order, hands = self.order, self._hands
        seats = len(order)
        after: dict[int, int] = {}
        for start, player in enumerate(order):
            for step in range(1, seats + 1):
                candidate = order[(start + step) % seats]
                if hands[candidate] != c.EMPTY:
                    after[player] = candidate
                    break
            else:
                raise AssertionError("nobody holds cards")
        return after

    def _turn(self, player: int, played: CardSet | None, events: list[Event] | None) -> None:
        """``player``'s turn: pass (``None``) or play a well-formed ``played``. Events go to
        ``events``, or are not built at all when it is ``None`` (the fast path).

        The hot path of every game and playout, the object API's and the fast path's
        alike: the checks and the step to the next turn are written out here rather than
        spread over calls.
        """
        if played is None:
            if self.top is None:
                raise IllegalAction(Refusal.MUST_LEAD, "the leader must play a set")
            passed = self.passed
            passed.add(player)
            if events is not None:
                event = self._passes.get(player)
                if event is None:
                    event = self._passes[player] = Passed(player)
                events.append(event)
            # Only players holding cards pass and a play clears the passes, so the trick
            # is over once everyone else still holding cards has passed: a count says so.
            if len(passed) == self._trick_passes:
                winner = self.top_player
                assert winner is not None
                leader = winner if self._hands[winner] != _EMPTY else self._next_in_hand(winner)
                if events is not None:
                    events.append(TrickWon(winner, leader))
                self._new_trick(leader, events)
                return
        else:
            rank, jesters = played.rank, played.jesters
            naturals = played.count - jesters  # 0 for Jesters alone
            hand = self._hands[player]
            if hand[rank] < naturals or hand[JESTER] < jesters:
                raise IllegalAction(Refusal.NOT_HELD, "you do not hold those cards")
            top = self.top
            if top is not None:
                if played.count != top.count:
                    raise IllegalAction(
                        Refusal.WRONG_SIZE, f"play exactly {top.count} card(s), or pass"
                    )
                if not played.rank < top.rank:
                    raise IllegalAction(
                        Refusal.NOT_BETTER, f"play a better rank than {top.rank}, or pass"
                    )
            left = list(hand)
            left[rank] -= naturals
            left[JESTER] -= jesters
            hand = self._hands[player] = tuple(left)
            remaining = sum(hand)
            self.top, self.top_player = played, player
            self.passed = set()
            if events is not None:
                events.append(Played(player, played, remaining))
            if remaining == 0:
                self.out.append(player)
                if events is not None:
                    events.append(WentOut(player, len(self.out)))
                self._holding -= 1
                if self._holding == 1:
                    self._end_hand(events)
                    return
                successor = self._successor
                if successor is not None:
                    # Whoever passed the turn to ``player`` passes it on to the next one:
                    # a new table (a clone shares this one), not a walk round the seats.
                    after = successor[player]
                    self._successor = {
                        seat: after if then == player else then for seat, then in successor.items()
                    }
            self._trick_passes = self._holding - 1 if remaining else self._holding
            # A play never ends the trick: someone else still holds cards to answer it.
        successor = self._successor
        if successor is None:
            successor = self._successor = self._successors()
        turn = self.turn = successor[player]
        if events is not None:
            waiting = self._turns.get(turn)
            if waiting is None:
                waiting = self._turns[turn] = Waiting(_PLAY, (turn,))
            events.append(waiting)

    def _count_trick_passes(self) -> None:
        """``_trick_passes`` for a game not built by play (loaded, or from an observation)."""
        winner = self.top_player
        if winner is None:
            self._trick_passes = 0
        else:
            holds = self._hands.get(winner, _EMPTY) != _EMPTY
            self._trick_passes = self._holding - 1 if holds else self._holding

    def _turn_of(self, player: int) -> Waiting:
        """The event saying it is ``player``'s turn to play."""
        waiting = self._turns.get(player)
        if waiting is None:
            waiting = self._turns[player] = Waiting(Phase.PLAY, (player,))
        return waiting

    def _end_hand(self, events: list[Event] | None) -> None:
        finishing = (*self.out, *self.in_hand)
        seats = len(finishing)
        place = {p: i for i, p in enumerate(finishing)}
        points = [place_points(i, seats) if self.rules.scoring else 0 for i in range(seats)]
        bonus = [0] * seats
        if self.rules.philanthropic_scoring:
            gd, ld, lp, gp = self.order[0], self.order[1], self.order[-2], self.order[-1]
            if place[gp] < seats - 1:
                bonus[place[gd]] += 1
            if place[lp] < seats - 2:
                bonus[place[ld]] += 1
        for i, player in enumerate(finishing):
            self.scores[player] += points[i] + bonus[i]
            self._returns[player] = self._returns.get(player, 0) + place_points(i, seats) + bonus[i]
        if events is not None:
            events.append(
                HandEnded(
                    hand=self.hand_number,
                    finishing=finishing,
                    points=tuple(points),
                    bonus=tuple(bonus),
                    scores=tuple(self.scores[p] for p in finishing),
                )
            )
        self.order = finishing
        self.turn = self.top = self.top_player = None
        self.phase = Phase.HAND_OVER
        if self.rules.hand_limit is not None and self.hand_number >= self.rules.hand_limit:
            self._end("hand_limit", events)

    def _end(self, reason: str, events: list[Event] | None) -> None:
        self.phase = Phase.ENDED
        self.turn = None
        self.ended_reason = reason
        if events is not None:
            events.append(TableEnded(reason, final_standings(self.scores, self.order)))

    def _check_not_ended(self) -> None:
        if self.phase is Phase.ENDED:
            raise IllegalAction(Refusal.TABLE_ENDED, "the table has ended")

    def _logged(self, events: list[Event]) -> list[Event]:
        """Keep the log that observations are rebuilt from: the current hand's events,
        after the previous hand's result (which an observation remembers)."""
        for event in events:
            if isinstance(event, HandStarted):
                # The last result is near the end: search from there, not the whole hand.
                result = next((e for e in reversed(self.log) if isinstance(e, HandEnded)), None)
                self.log = [] if result is None else [result]
            self.log.append(event)
        if self._views:
            self._fold(events)
        return events

    def _fold(self, events: list[Event]) -> None:
        views = self._views.items()
        for event in events:
            audience = event.audience()
            for viewer, view in views:
                if audience is None or (viewer is not None and viewer in audience):
                    view.apply(event)

    # ----------------------------------------------------------------- saving

    def to_dict(self) -> dict[str, Any]:
        """The whole game as plain data (str keys, ints, lists), mid-hand included."""
        self._check_log_kept()
        version, internal, gauss = self._rng.getstate()
        return {
            "format": SAVE_FORMAT,
            "rules": self.rules.to_dict(),
            "seed": self.seed,
            "rng": [version, list(internal), gauss],
            "phase": str(self.phase),
            "order": list(self.order),
            "hand_number": self.hand_number,
            "scores": [[p, s] for p, s in self.scores.items()],
            "returns": [[p, r] for p, r in self._returns.items()],
            "hands": [[p, list(counts)] for p, counts in self._hands.items()],
            "taxes_this_hand": self.taxes_this_hand,
            "deck": list(self._deck),
            "dealt": self._dealt,
            "exposed_at": self._exposed_at,
            "revolution_holder": self._revolution_holder,
            "tax_waiting": list(self._tax_waiting),
            "tax_given": [[p, list(cards)] for p, cards in self._tax_given.items()],
            "exchange": None if self._exchange is None else list(self._exchange),
            "turn": self.turn,
            "top": _set_as_list(self.top),
            "top_player": self.top_player,
            "passed": sorted(self.passed),
            "out": list(self.out),
            "joining": list(self.joining),
            "leaving": list(self.leaving),
            "ended_reason": self.ended_reason,
            "log": [event_to_dict(event) for event in self.log],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Game:
        """The game ``to_dict`` saved, identical: it continues exactly as it would have."""
        if data.get("format") != SAVE_FORMAT:
            raise ValueError(f"unsupported saved game format {data.get('format')!r}")
        game = cls.__new__(cls)
        game._init_state(tuple(data["order"]), Rules.from_dict(data["rules"]), data["seed"])
        version, internal, gauss = data["rng"]
        game._rng.setstate((version, tuple(internal), gauss))
        game.phase = Phase(data["phase"])
        game.order = tuple(data["order"])
        game.hand_number = data["hand_number"]
        game.scores = {p: s for p, s in data["scores"]}
        # Saves before returns() was kept: the scores are the best guess there is.
        game._returns = {p: r for p, r in data.get("returns", data["scores"])}
        game._hands = {p: tuple(counts) for p, counts in data["hands"]}
        game.taxes_this_hand = data["taxes_this_hand"]
        game._deck = list(data["deck"])
        game._dealt = data["dealt"]
        game._exposed_at = data["exposed_at"]
        game._revolution_holder = data["revolution_holder"]
        game._tax_waiting = list(data["tax_waiting"])
        game._tax_given = {p: tuple(cards) for p, cards in data["tax_given"]}
        game._exchange = (
            None if data["exchange"] is None else (data["exchange"][0], data["exchange"][1])
        )
        game.turn = data["turn"]
        game.top = _set_from(data["top"])
        game.top_player = data["top_player"]
        game.passed = set(data["passed"])
        game.out = list(data["out"])
        game._holding = len(game.in_hand)
        game._count_trick_passes()
        # Older saves listed the newcomers being placed apart, under "placing".
        game.joining = [*data.get("placing", ()), *data["joining"]]
        game.leaving = list(data["leaving"])
        game.ended_reason = data["ended_reason"]
        game.log = [event_from_dict(event) for event in data["log"]]
        return game


def _set_as_list(value: CardSet | None) -> list[int] | None:
    return None if value is None else [value.rank, value.count, value.jesters]


def _set_from(value: list[int] | None) -> CardSet | None:
    return None if value is None else CardSet(*value)
