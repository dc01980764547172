"""A stable integer for every action, with a name: for search trees, policies, replay files.

The ids cover every action any table (4 to 8 players, any rules) may ask for, in one fixed
list that never depends on the game: ``NUM_ACTIONS`` ids, ``0`` passing. A Merchant named
in the merchant exchange is encoded by its seat (clockwise from the Greater Dalmuti, 0),
not by its player id, so the encoding needs the seating (``order``) of the hand; every
other action's id is the same at every table. ``Game.action_id`` / ``Game.action_of`` fill
in the seating; ``action_name(id)`` is the id's name, e.g. ``play 5x3 (2 Jesters)``.
"""

from __future__ import annotations

import itertools

from . import actions
from .actions import Action, Decision, tax_choices
from .cards import (
    CARDS,
    ENGLISH_NAMES,
    JESTER,
    JESTERS_IN_DECK,
    RANKS,
    SETS,
    CardSet,
    Counts,
    SetTables,
    playable,
)
from .rules import MAX_PLAYERS

_Key = tuple[object, ...]
"""An action with player ids replaced by seats: what one id stands for."""


def _universe() -> list[_Key]:
    keys: list[_Key] = [("pass",)]
    for rank in RANKS:
        for count in range(1, rank + JESTERS_IN_DECK + 1):
            for jesters in range(max(0, count - rank), min(JESTERS_IN_DECK, count - 1) + 1):
                keys.append(("play", rank, count, jesters))
    keys.extend(("play", JESTER, count, count) for count in range(1, JESTERS_IN_DECK + 1))
    keys.extend([("revolution", False), ("revolution", True)])
    for size in (1, 2):
        keys.extend(
            ("tax", cards) for cards in itertools.combinations_with_replacement(CARDS, size)
        )
    keys.append(("exchange", None, None))
    # The top Merchant sits at seat 2; the others at seats 3 .. MAX_PLAYERS - 3.
    for seat in range(3, MAX_PLAYERS - 2):
        keys.extend(("exchange", seat, card) for card in CARDS)
    keys.extend(("misdeal", choice) for choice in actions.MisdealChoice)
    # A newcomer is placed among at most MAX_PLAYERS - 1 seated: seats 2 .. MAX_PLAYERS - 3.
    keys.extend(("place", position) for position in range(2, MAX_PLAYERS - 2))
    return keys


_KEYS = _universe()
_IDS = {key: index for index, key in enumerate(_KEYS)}
_TAX_IDS = {key[1]: index for key, index in _IDS.items() if key[0] == "tax"}
"""The tax ids by the cards given alone (``answer_ids``: no key tuple built per choice)."""
NUM_ACTIONS = len(_KEYS)
"""How many action ids there are: every id is in ``range(NUM_ACTIONS)``."""
PASS_ID = 0

# The fast path (``Game.legal_ids``, ``Game.step``) answers by id: each of the engine's
# shared sets knows its id, and each play's id its shared set, by table lookups.
_SHARED_SETS: dict[_Key, CardSet] = {}


def _id_of_shared(card_set: CardSet) -> int:
    key = ("play", card_set.rank, card_set.count, card_set.jesters)
    if key not in _IDS:
        return -1  # more cards of a rank than the deck holds: no hand of one deck has them
    _SHARED_SETS[card_set.rank, card_set.count, card_set.jesters] = card_set
    return _IDS[key]


SET_IDS: SetTables[int] = SETS.mapped(_id_of_shared)
"""``cards.SETS`` as action ids: ``playable(hand, to_beat, SET_IDS, [])`` lists the legal
plays' ids, in the order ``playable_sets`` lists the sets."""
PLAY_SETS: tuple[CardSet | None, ...] = tuple(
    _SHARED_SETS.get(key[1:]) if key[0] == "play" else None for key in _KEYS
)
"""For each id, the engine's shared set it plays, or ``None`` if it plays none (passing
and every decision other than play)."""
_ID_BY_IDENTITY = {id(shared): _IDS[("play", *key)] for key, shared in _SHARED_SETS.items()}


def play_id(card_set: CardSet) -> int:
    """The id of playing ``card_set`` (any well-formed set); a table lookup for the sets
    the engine hands out."""
    found = _ID_BY_IDENTITY.get(id(card_set))
    if found is not None:
        return found
    return _IDS["play", card_set.rank, card_set.count, card_set.jesters]


def playable_ids(hand: Counts, to_beat: CardSet | None) -> list[int]:
    """The ids of the sets ``hand`` may play, passing (``PASS_ID``) first on a follow:
    the ids of ``legal_answers`` to its ``PlayDecision``, in the same order."""
    return playable(hand, to_beat, SET_IDS, [] if to_beat is None else [PASS_ID])


def _set_name(rank: int, count: int, jesters: int) -> str:
    name = "Jester" if rank == JESTER else str(rank)
    extra = f" ({jesters} Jester{'s' if jesters > 1 else ''})" if jesters and rank != JESTER else ""
    return f"play {name}x{count}{extra}"


def action_name(action_id: int) -> str:
    """A short English name for an id, stable like the id itself."""
    key = _KEYS[action_id]
    kind = key[0]
    if kind == "pass":
        return "pass"
    if kind == "play":
        rank, count, jesters = key[1:]
        assert isinstance(rank, int) and isinstance(count, int) and isinstance(jesters, int)
        return _set_name(rank, count, jesters)
    if kind == "revolution":
        return "declare revolution" if key[1] else "no revolution"
    if kind == "tax":
        cards = key[1]
        assert isinstance(cards, tuple)
        return "give " + ", ".join(ENGLISH_NAMES[card] for card in cards)
    if kind == "exchange":
        if key[1] is None:
            return "decline the exchange"
        card = key[2]
        assert isinstance(card, int)
        return f"exchange with seat {key[1]}: give {ENGLISH_NAMES[card]}"
    if kind == "misdeal":
        return f"misdeal: {key[1]}"
    return f"place the newcomer at seat {key[1]}"


ACTION_NAMES: tuple[str, ...] = tuple(action_name(index) for index in range(NUM_ACTIONS))


def encode(action: Action, order: tuple[int, ...]) -> int:
    """The id of ``action`` at a hand seated ``order`` (GD first); ``ValueError`` if no
    table could take it."""
    key: _Key
    if isinstance(action, actions.Pass):
        key = ("pass",)
    elif isinstance(action, actions.Play):
        key = ("play", action.set.rank, action.set.count, action.set.jesters)
    elif isinstance(action, actions.DeclareRevolution):
        key = ("revolution", action.declare)
    elif isinstance(action, actions.GiveTax):
        key = ("tax", tuple(sorted(action.cards)))
    elif isinstance(action, actions.MerchantExchange):
        if action.other is None:
            key = ("exchange", None, action.card)
        else:
            seat = order.index(action.other) if action.other in order else -1
            key = ("exchange", seat, action.card)
    elif isinstance(action, actions.DecideMisdeal):
        key = ("misdeal", actions.MisdealChoice(action.choice))
    elif isinstance(action, actions.PlaceNewcomer):
        key = ("place", action.position)
    else:
        raise ValueError(f"{action!r} is not an action")
    try:
        return _IDS[key]
    except (KeyError, TypeError):
        raise ValueError(f"no action id for {action!r}") from None


def decode(action_id: int, order: tuple[int, ...]) -> Action:
    """The action an id stands for at a hand seated ``order`` (GD first)."""
    if type(action_id) is not int or not 0 <= action_id < NUM_ACTIONS:
        raise ValueError(f"action ids are 0 to {NUM_ACTIONS - 1}, not {action_id!r}")
    key = _KEYS[action_id]
    kind = key[0]
    if kind == "pass":
        return actions.Pass()
    if kind == "play":
        rank, count, jesters = key[1:]
        assert isinstance(rank, int) and isinstance(count, int) and isinstance(jesters, int)
        return actions.Play(CardSet(rank, count, jesters))
    if kind == "revolution":
        return actions.DeclareRevolution(bool(key[1]))
    if kind == "tax":
        cards = key[1]
        assert isinstance(cards, tuple)
        return actions.GiveTax(cards)
    if kind == "exchange":
        seat, card = key[1], key[2]
        if seat is None:
            return actions.MerchantExchange(None, None)
        assert isinstance(seat, int) and isinstance(card, int)
        if seat >= len(order):
            raise ValueError(f"{ACTION_NAMES[action_id]!r}: no seat {seat} at this table")
        return actions.MerchantExchange(order[seat], card)
    if kind == "misdeal":
        choice = key[1]
        assert isinstance(choice, actions.MisdealChoice)
        return actions.DecideMisdeal(choice)
    position = key[1]
    assert isinstance(position, int)
    return actions.PlaceNewcomer(position)


def answer_ids(decision: Decision, order: tuple[int, ...]) -> list[int]:
    """The ids of ``legal_answers(decision)`` at a hand seated ``order``, in its order,
    found without building the answers (``Game.legal_action_ids``, ``Game.legal_ids``)."""
    if isinstance(decision, actions.PlayDecision):
        plays = [play_id(option) for option in decision.sets]
        return [PASS_ID, *plays] if decision.may_pass else plays
    if isinstance(decision, actions.TaxDecision):
        tax_ids = _TAX_IDS
        return [tax_ids[cards] for cards in tax_choices(decision.hand, decision.count)]
    if isinstance(decision, actions.ExchangeDecision):
        ids = [_IDS["exchange", None, None]]
        for other in decision.merchants:
            seat = order.index(other)
            ids.extend(_IDS["exchange", seat, card] for card in decision.cards)
        return ids
    if isinstance(decision, actions.RevolutionDecision):
        return [_IDS["revolution", False], _IDS["revolution", True]]
    if isinstance(decision, actions.MisdealDecision):
        return [_IDS["misdeal", choice] for choice in actions.MisdealChoice]
    return [_IDS["place", position] for position in decision.positions]
