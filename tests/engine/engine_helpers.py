"""Test helpers: games in a chosen state, and an independent oracle of legal answers.

Two ways to put a game where a test wants it, both without hooks in the engine:

* ``dealt_game`` stacks the deck. The game draws every shuffle and random pick from one
  ``random.Random``; the tests swap it for ``StackedRandom``, which hands out prepared
  decks (the seating draw's, then the deal's) and scripted picks, and falls back to real
  randomness once a script runs out. The game then runs its real code from the first card.
* ``game_in_play`` writes a mid-hand position into the public save format and restores it
  with ``Game.from_dict``: the way to replay a rulebook example from the middle of a hand.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from dalmuti_net.engine import (
    Action,
    CardSet,
    DecideMisdeal,
    Decision,
    DeclareRevolution,
    ExchangeDecision,
    Game,
    GiveTax,
    IllegalAction,
    MerchantExchange,
    MisdealChoice,
    MisdealDecision,
    Pass,
    Phase,
    PlacementDecision,
    PlaceNewcomer,
    Play,
    PlayDecision,
    Refusal,
    RevolutionDecision,
    Rules,
    TaxDecision,
    event_to_dict,
)
from dalmuti_net.engine.cards import EMPTY, JESTER, counts_of, full_deck
from dalmuti_net.engine.events import CardsDealt, DealFinished, Event, HandStarted, Waiting
from dalmuti_net.engine.rules import stripped_ranks


class StackedRandom(random.Random):
    """A ``random.Random`` with a stacked deck: scripted shuffles, draws and picks.

    ``decks`` are handed out by successive ``shuffle`` calls (the list is replaced by the
    next deck, which must hold the same cards); ``indexes`` answer ``randrange`` and
    ``picks`` answer ``choice`` (the picked value must be among the choices). Every call is
    recorded so tests can check what the game drew from.
    """

    def __init__(
        self,
        seed: int = 0,
        decks: Iterable[Sequence[int]] = (),
        indexes: Iterable[int] = (),
        picks: Iterable[int] = (),
    ) -> None:
        super().__init__(seed)
        self.decks = [list(deck) for deck in decks]
        self.indexes = list(indexes)
        self.picks = list(picks)
        self.shuffled: list[list[int]] = []
        self.choices_seen: list[list[Any]] = []

    def shuffle(self, x: Any) -> None:  # type: ignore[override]
        self.shuffled.append(list(x))
        if self.decks:
            deck = self.decks.pop(0)
            assert Counter(deck) == Counter(x), "a stacked deck must hold the cards shuffled"
            x[:] = deck
        else:
            super().shuffle(x)

    def randrange(self, *args: Any, **kwargs: Any) -> int:  # type: ignore[override]
        if self.indexes:
            return self.indexes.pop(0)
        return super().randrange(*args, **kwargs)

    def choice(self, seq: Any) -> Any:
        self.choices_seen.append(list(seq))
        if self.picks:
            pick = self.picks.pop(0)
            assert pick in seq, f"scripted pick {pick} is not among {list(seq)}"
            return pick
        return super().choice(seq)


def stacked(deck_top: Sequence[int], stripped: Iterable[int] = ()) -> list[int]:
    """A whole deck whose first cards are ``deck_top`` (the rest in ordinary order)."""
    rest = Counter(full_deck(stripped))
    rest.subtract(deck_top)
    assert all(n >= 0 for n in rest.values()), f"{list(deck_top)} is not in one deck"
    return [*deck_top, *sorted(rest.elements())]


def seating_deck(players: int) -> list[int]:
    """A seating draw in which the players, in the order given, draw 1, 2, 3, ..."""
    return stacked(list(range(1, players + 1)))


def deal_sizes(players: int, deck_size: int) -> list[int]:
    """Cards per seat, GD first: the deal starts with the GD, so the first seats get more."""
    return [
        deck_size // players + (1 if seat < deck_size % players else 0) for seat in range(players)
    ]


def deal_deck(order: Sequence[int], hands: Mapping[int, Sequence[int]]) -> list[int]:
    """The deck, in dealing order, that deals exactly ``hands`` (one card at a time, GD first)."""
    queues = {player: list(hands[player]) for player in order}
    total = sum(len(cards) for cards in queues.values())
    assert [len(queues[p]) for p in order] == deal_sizes(len(order), total), "uneven hands"
    return [queues[order[i % len(order)]].pop(0) for i in range(total)]


def complete_hands(
    order: Sequence[int],
    fixed: Mapping[int, Sequence[int]],
    rules: Rules | None = None,
) -> dict[int, list[int]]:
    """Full dealt hands that contain ``fixed``; the other cards are handed out best first,
    round the table, so that they land predictably (the two Jesters come last)."""
    rules = rules or Rules()
    rest = Counter(full_deck(stripped_ranks(rules, len(order))))
    for cards in fixed.values():
        rest.subtract(cards)
    assert all(n >= 0 for n in rest.values()), "fixed cards are not in one deck"
    sizes = dict(
        zip(
            order, deal_sizes(len(order), rest.total() + sum(map(len, fixed.values()))), strict=True
        )
    )
    hands = {p: list(fixed.get(p, ())) for p in order}
    assert all(len(hands[p]) <= sizes[p] for p in order), "too many fixed cards for a seat"
    pool = sorted(rest.elements())
    seat = 0
    while pool:
        player = order[seat % len(order)]
        if len(hands[player]) < sizes[player]:
            hands[player].append(pool.pop(0))
        seat += 1
    return hands


def dealt_game(
    order: Sequence[int],
    hands: Mapping[int, Sequence[int]],
    rules: Rules | None = None,
    indexes: Iterable[int] = (),
    picks: Iterable[int] = (),
    seed: int = 0,
) -> tuple[Game, list[Event], StackedRandom]:
    """A table started with seats ``order`` (GD first) and exactly ``hands`` dealt."""
    game = Game(list(order), rules or Rules(), seed=seed)
    rng = StackedRandom(seed, [seating_deck(len(order)), deal_deck(order, hands)], indexes, picks)
    game._rng = rng
    events = game.start()
    assert game.order == tuple(order)
    return game, events, rng


def game_in_play(
    order: Sequence[int],
    hands: Mapping[int, Sequence[int]],
    leader: int | None = None,
    rules: Rules | None = None,
    hand_number: int = 2,
    scores: Mapping[int, int] | None = None,
) -> Game:
    """A hand in play at the start of a trick: seats ``order``, ``hands``, ``leader`` to lead.

    Built through the save format, with a log that starts the hand as the engine would,
    so that observations work. Cards in nobody's hand count as played earlier.
    """
    rules = rules or Rules()
    leader = order[0] if leader is None else leader
    game = Game(list(order), rules)
    game.start()
    data = game.to_dict()
    counts = {p: counts_of(hands.get(p, ())) for p in order}
    score = {p: (scores or {}).get(p, 0) for p in order}
    log: list[Event] = [
        HandStarted(
            hand=hand_number,
            order=tuple(order),
            scores=tuple(score[p] for p in order),
            deck_size=sum(sum(c) for c in counts.values()),
            taxes=False,
            hand_limit=rules.hand_limit,
        ),
        *(CardsDealt(p, tuple(sorted(hands.get(p, ())))) for p in order),
        DealFinished(tuple(sum(counts[p]) for p in order)),
        Waiting(Phase.PLAY, (leader,)),
    ]
    data.update(
        phase="play",
        order=list(order),
        hand_number=hand_number,
        scores=[[p, score[p]] for p in order],
        hands=[[p, list(counts[p])] for p in order],
        taxes_this_hand=False,
        deck=[card for p in order for card in hands.get(p, ())],
        dealt=sum(len(hands.get(p, ())) for p in order),
        exposed_at=None,
        revolution_holder=None,
        tax_waiting=[],
        tax_given=[],
        exchange=None,
        turn=leader,
        top=None,
        top_player=None,
        passed=[],
        out=[],
        joining=[],
        leaving=[],
        placing=[],
        ended_reason=None,
        log=[event_to_dict(event) for event in log],
    )
    return Game.from_dict(data)


def hand_of(game: Game, player: int) -> list[int]:
    """A player's true cards, best first."""
    counts = game.debug_hands().get(player, EMPTY)
    return [card for card in range(1, JESTER + 1) for _ in range(counts[card])]


def run(game: Game, moves: Iterable[tuple[int, Action]]) -> list[Event]:
    """Apply moves in turn; each must be owed and legal. Returns every event."""
    events: list[Event] = []
    for player, action in moves:
        assert player in game.pending(), f"player {player} owes nothing; {game.pending()}"
        events.extend(game.apply(player, action))
    return events


def play(rank: int, count: int = 1, jesters: int = 0) -> Play:
    return Play(CardSet(rank, count, jesters))


PASS = Pass()


def refused(game: Game, player: int, action: Any, code: Refusal) -> None:
    """``action`` is refused with ``code`` and the game, saved, is exactly as before."""
    before = game.to_dict()
    log_length = len(game.log)
    try:
        game.apply(player, action)
    except IllegalAction as error:
        assert error.code is code, f"refused with {error.code}, expected {code}"
    else:
        raise AssertionError(f"{action!r} by {player} was accepted")
    assert len(game.log) == log_length
    assert game.to_dict() == before


def is_legal(decision: Decision, action: Any) -> bool:
    """An oracle, written from RULES.md and not from the engine: may ``action`` answer it?"""
    if isinstance(decision, PlayDecision):
        if isinstance(action, Pass):
            return decision.may_pass
        return isinstance(action, Play) and action.set in decision.sets
    if isinstance(decision, TaxDecision):
        if not isinstance(action, GiveTax) or not isinstance(action.cards, tuple | list):
            return False
        if any(type(card) is not int for card in action.cards):
            return False
        wanted, held = Counter(action.cards), Counter(decision.hand)
        return len(action.cards) == decision.count and all(held[k] >= n for k, n in wanted.items())
    if isinstance(decision, ExchangeDecision):
        if not isinstance(action, MerchantExchange):
            return False
        if action.other is None and action.card is None:
            return True
        return action.other in decision.merchants and action.card in decision.cards
    if isinstance(decision, RevolutionDecision):
        return isinstance(action, DeclareRevolution) and type(action.declare) is bool
    if isinstance(decision, MisdealDecision):
        return isinstance(action, DecideMisdeal) and action.choice in list(MisdealChoice)
    assert isinstance(decision, PlacementDecision)
    return isinstance(action, PlaceNewcomer) and action.position in decision.positions


def finish_hand(game: Game, seed: int = 0) -> list[Event]:
    """Answer every owed decision with a seeded random legal answer until the hand is over."""
    from dalmuti_net.bots.random_bot import random_answer

    rng = random.Random(seed)
    events: list[Event] = []
    while game.phase not in (Phase.HAND_OVER, Phase.ENDED):
        pending = game.pending()
        assert pending, f"nobody owes a decision in phase {game.phase}"
        player = min(pending)
        events.extend(game.apply(player, random_answer(pending[player], rng)))
    return events


def greedy_finish(game: Game) -> list[Event]:
    """Play out a hand in play: each player plays their first legal set, else passes."""
    events: list[Event] = []
    while game.phase is Phase.PLAY:
        player, decision = next(iter(game.pending().items()))
        assert isinstance(decision, PlayDecision)
        action: Action = Play(decision.sets[0]) if decision.sets else PASS
        events.extend(game.apply(player, action))
    return events
