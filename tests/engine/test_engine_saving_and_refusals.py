"""Saving and restoring in every phase, and every refusal code reached with nothing changed."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import msgpack
import pytest
from engine_helpers import (
    PASS,
    complete_hands,
    dealt_game,
    game_in_play,
    greedy_finish,
    play,
)

from dalmuti_net.bots.random_bot import random_answer
from dalmuti_net.engine import (
    JESTER,
    CardSet,
    DecideMisdeal,
    GiveTax,
    IllegalAction,
    MerchantExchange,
    MisdealChoice,
    Phase,
    PlaceNewcomer,
    Refusal,
    Rules,
    observe,
)
from dalmuti_net.engine.events import Event
from dalmuti_net.engine.game import Game

SIX = (1, 2, 3, 4, 5, 6)


def restored(game: Game) -> Game:
    return Game.from_dict(msgpack.unpackb(msgpack.packb(game.to_dict())))


def not_started() -> Game:
    return Game(list(SIX), Rules.all_optional())


def misdeal() -> Game:
    rules = Rules(misdeal_chance=1.0)
    return dealt_game(SIX, complete_hands(SIX, {}), rules, indexes=[20])[0]


def revolution() -> Game:
    return dealt_game(SIX, complete_hands(SIX, {6: [JESTER, JESTER]}))[0]


def taxes_half_answered() -> Game:
    game = exchange_owed()
    game.apply(3, MerchantExchange(4, game.pending()[3].cards[0]))  # type: ignore[union-attr]
    game.apply(2, GiveTax((12,)))
    return game


def exchange_owed() -> Game:
    return dealt_game(SIX, complete_hands(SIX, {}), Rules(merchant_exchange=True))[0]


def full_table() -> Game:
    game = Game(list(range(8)))
    game.start()
    return game


def mid_trick() -> Game:
    """Seat 5 to play on a pair of 9s, holding 9 9 7 7 5; seat 4 passed."""
    hands = {1: [11, 11, 1], 2: [10, 10, 2], 3: [9, 9, 3], 4: [8, 8, 4], 5: [9, 9, 7, 7, 5]}
    game = game_in_play(SIX, {**hands, 6: [6, 6, 6]})
    for player, action in ((1, play(11, 2)), (2, play(10, 2)), (3, play(9, 2)), (4, PASS)):
        game.apply(player, action)
    assert game.passed == {4}
    return game


def hand_started() -> Game:
    return game_in_play(SIX, {p: [p] for p in SIX})


def hand_over_with_comings_and_goings() -> Game:
    game = hand_started()
    game.request_join(9)
    game.request_leave(4)
    greedy_finish(game)
    return game


def placement() -> Game:
    game = hand_over_with_comings_and_goings()
    game.request_join(10)
    game.begin_next_hand()
    assert game.phase is Phase.PLACEMENT
    return game


def ended() -> Game:
    game = Game(list(SIX))
    game.start()
    game.end_table()
    return game


PHASES: list[Callable[[], Game]] = [
    not_started,
    misdeal,
    revolution,
    taxes_half_answered,
    mid_trick,
    hand_over_with_comings_and_goings,
    placement,
    ended,
]


def drive(game: Game, rng: random.Random, steps: int) -> list[list[Event]]:
    log = []
    for _ in range(steps):
        if game.phase is Phase.ENDED:
            break
        if game.phase is Phase.NOT_STARTED:
            log.append(game.start())
        elif game.phase is Phase.HAND_OVER:
            log.append(game.begin_next_hand())
        else:
            player, decision = sorted(game.pending().items())[0]
            log.append(game.apply(player, random_answer(decision, rng)))
    return log


@pytest.mark.parametrize("setup", PHASES, ids=lambda f: f.__name__)
def test_a_game_saved_in_any_phase_continues_identically(setup: Callable[[], Game]) -> None:
    game = setup()
    copy = restored(game)
    assert copy.to_dict() == game.to_dict()
    assert copy.phase is game.phase and copy.pending() == game.pending()
    for viewer in (*game.order, None):
        assert observe(copy, viewer) == observe(game, viewer)
    assert drive(copy, random.Random(7), 300) == drive(game, random.Random(7), 300)
    assert copy.to_dict() == game.to_dict()


def test_saves_that_list_newcomers_being_placed_apart_still_load() -> None:
    game = placement()
    data = game.to_dict()
    assert "placing" not in data
    newcomer, *waiting = data["joining"]
    data["placing"], data["joining"] = [newcomer], waiting
    assert Game.from_dict(data).to_dict() == game.to_dict()


def test_an_unknown_save_format_is_refused() -> None:
    data = not_started().to_dict()
    data["format"] = 99
    with pytest.raises(ValueError):
        Game.from_dict(data)


# Every refusal code, reached through the public API; each leaves the game as it was.

REFUSALS: list[tuple[Refusal, Callable[[], Game], Callable[[Game], Any]]] = [
    (Refusal.NO_DECISION_OWED, mid_trick, lambda g: g.apply(3, PASS)),
    (Refusal.NO_DECISION_OWED, mid_trick, lambda g: g.apply(None, PASS)),
    (Refusal.WRONG_DECISION, mid_trick, lambda g: g.apply(5, GiveTax((1,)))),
    (Refusal.WRONG_DECISION, misdeal, lambda g: g.apply(1, DecideMisdeal("both"))),
    (Refusal.NOT_A_SET, mid_trick, lambda g: g.apply(5, play(3, 2, jesters=2))),
    (Refusal.NOT_A_SET, mid_trick, lambda g: g.apply(5, play(True, 2))),
    (Refusal.NOT_HELD, mid_trick, lambda g: g.apply(5, play(1, 2))),
    (Refusal.WRONG_SIZE, mid_trick, lambda g: g.apply(5, play(5, 1))),
    (Refusal.NOT_BETTER, mid_trick, lambda g: g.apply(5, play(9, 2))),
    (Refusal.MUST_LEAD, hand_started, lambda g: g.apply(1, PASS)),
    (Refusal.BAD_CARDS, taxes_half_answered, lambda g: g.apply(1, GiveTax((12, 12, 12)))),
    (Refusal.BAD_MERCHANT, exchange_owed, lambda g: g.apply(3, MerchantExchange(2, 12))),
    (Refusal.BAD_POSITION, placement, lambda g: g.apply(g.order[0], PlaceNewcomer(1))),
    (Refusal.UNKNOWN_PLAYER, mid_trick, lambda g: g.request_leave(77)),
    (Refusal.ALREADY_SEATED, mid_trick, lambda g: g.request_join(2)),
    (Refusal.TABLE_FULL, full_table, lambda g: g.request_join(9)),
    (Refusal.WRONG_PHASE, mid_trick, lambda g: g.begin_next_hand()),
    (Refusal.WRONG_PHASE, mid_trick, lambda g: g.start()),
    (Refusal.TABLE_ENDED, ended, lambda g: g.apply(1, PASS)),
]


@pytest.mark.parametrize(
    ("code", "setup", "call"), REFUSALS, ids=[f"{c}-{i}" for i, (c, _, _) in enumerate(REFUSALS)]
)
def test_refusals_carry_their_code_and_change_nothing(
    code: Refusal, setup: Callable[[], Game], call: Callable[[Game], Any]
) -> None:
    game = setup()
    before = game.to_dict()
    with pytest.raises(IllegalAction) as raised:
        call(game)
    assert raised.value.code is code and raised.value.message
    assert game.to_dict() == before


def test_every_refusal_code_is_exercised() -> None:
    assert {code for code, _, _ in REFUSALS} == set(Refusal)


def test_a_set_is_plain_data() -> None:
    assert CardSet(5, 3, 2).cards() == (5, JESTER, JESTER)
    assert CardSet(JESTER, 2, 2).cards() == (JESTER, JESTER)
    assert MisdealChoice("peon") is MisdealChoice.PEON
