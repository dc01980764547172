"""The fast path (``to_move``, ``legal_ids``, ``step``) is the object API's rules, by id.

The same seeded games are played both ways, answer for answer, and every state compared.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dalmuti_net.engine import (
    NUM_ACTIONS,
    CardSet,
    Event,
    Game,
    IllegalAction,
    Phase,
    Rules,
    observe,
)
from dalmuti_net.engine.actions import tax_choices
from dalmuti_net.engine.cards import can_beat, playable_sets
from dalmuti_net.engine.encoding import PASS_ID, encode, playable_ids

# Caches of values the game builds once and hands out again (not the game's state), and
# the log, which the fast path does not keep.
NOT_STATE = {
    "log",
    "_views",
    "_keeps_log",
    "_turns",
    "_passes",
    "_nothing_beats",
    "_successor",
    "_tax_decisions",
}


def state(game: Game) -> dict[str, Any]:
    fields = {k: v for k, v in vars(game).items() if k not in NOT_STATE}
    fields["_rng"] = game._rng.getstate()
    return fields


def between_hands(games: tuple[Game, Game], rng: random.Random) -> None:
    """Newcomers and leavers now and then, told to both games alike, then the next hand."""
    order = games[0].order
    if rng.random() < 0.3:
        if rng.random() < 0.5 and len(order) < 8:
            newcomer = 100 + rng.randrange(1000)
            if newcomer not in order and newcomer not in games[0].joining:
                for game in games:
                    game.request_join(newcomer)
        elif len(order) > 4:
            leaver = rng.choice(order)
            for game in games:
                game.request_leave(leaver)
    by_object, by_id = games
    by_object.begin_next_hand()
    by_id.next_hand()  # the fast path's, building no event


RULE_SETS = [Rules.all_optional(), Rules(scoring=True), Rules(), Rules.all_optional(0.9)]


@pytest.mark.parametrize("seed", range(24))
def test_the_same_games_both_ways_pass_through_the_same_states(seed: int) -> None:
    players = list(range(4 + seed % 5))
    rules = RULE_SETS[seed % len(RULE_SETS)]
    by_object, by_id = Game(players, rules, seed), Game(players, rules, seed)
    by_object.start()
    by_id.start()
    rng = random.Random(seed)
    decisions = 0
    while by_object.phase is not Phase.ENDED and by_object.hand_number <= 6:
        assert state(by_id) == state(by_object)
        for game in (by_object, by_id):  # the next player, kept up as players go out
            if game.phase is Phase.PLAY and game._successor is not None:
                assert game._successor == game._successors()
            if game.phase is Phase.PLAY and game.top is not None:  # kept up by each play
                twin = game.clone()
                twin._count_trick_passes()
                assert twin._trick_passes == game._trick_passes
        if by_object.phase is Phase.HAND_OVER:
            between_hands((by_object, by_id), rng)
            continue
        player = next(iter(by_object.pending()))
        assert by_id.to_move() == player
        actions = by_object.legal_actions(player)
        ids = by_id.legal_ids()
        assert ids == by_object.legal_action_ids(player)
        assert ids == [encode(action, by_object.order) for action in actions]
        assert len(ids) == len(actions)
        index = rng.randrange(len(ids))
        by_object.apply(player, actions[index])
        by_id.step(ids[index])
        decisions += 1
    assert state(by_id) == state(by_object)
    assert by_id.returns() == by_object.returns()
    assert decisions > 100


def test_play_ids_are_the_legal_answers_of_the_play_decision() -> None:
    game = Game(list(range(6)), Rules(), seed=3)
    game.start()
    rng = random.Random(3)
    seen = 0
    while game.hand_number < 4 and game.phase is not Phase.ENDED:
        if game.phase is Phase.HAND_OVER:
            game.begin_next_hand()
            continue
        player = game.to_move()
        assert player is not None
        if game.phase is Phase.PLAY:
            hand, top = game.debug_hands()[player], game.top
            assert playable_ids(hand, top) == game.legal_action_ids(player)
            seen += 1
        ids = game.legal_ids()
        game.step(ids[rng.randrange(len(ids))])
    assert seen > 50


NOT_IDS: list[Any] = [-1, NUM_ACTIONS, 10**9, None, "0", 1.0, True, []]


def illegal_ids(game: Game, rng: random.Random) -> list[Any]:
    """Every kind of thing that is not an id, and a few ids not legal now."""
    legal = set(game.legal_ids())
    wrong = [i for i in range(NUM_ACTIONS) if i not in legal]
    return [*NOT_IDS, *rng.sample(wrong, 8)]


@pytest.mark.parametrize("seed", range(6))
def test_an_illegal_id_is_refused_and_changes_nothing(seed: int) -> None:
    game = Game(list(range(4 + seed % 5)), Rules.all_optional(0.5), seed)
    game.start()
    rng = random.Random(seed)
    refused = set()
    for _ in range(400):
        if game.phase is Phase.ENDED:
            break
        if game.phase is Phase.HAND_OVER:
            game.begin_next_hand()
            continue
        before = state(game)
        for wrong in illegal_ids(game, rng):
            with pytest.raises(IllegalAction) as refusal:
                game.step(wrong)
            refused.add(refusal.value.code)
            assert state(game) == before
        ids = game.legal_ids()
        game.step(ids[rng.randrange(len(ids))])
    assert len(refused) >= 3  # play and pass, a wrong decision, cards not held...


def test_nobody_to_move_between_hands_and_after_the_end() -> None:
    game = Game(list(range(4)), Rules(hand_limit=1), seed=1)
    game.start()
    rng = random.Random(1)
    while game.to_move() is not None:
        ids = game.legal_ids()
        game.step(ids[rng.randrange(len(ids))])
    assert game.phase is Phase.ENDED
    assert game.legal_ids() == []
    with pytest.raises(IllegalAction):
        game.step(PASS_ID)


@pytest.mark.parametrize("seed", range(8))
def test_events_asked_for_are_the_object_apis_and_the_log_is_kept(seed: int) -> None:
    players = list(range(4 + seed % 5))
    rules = Rules.all_optional()
    by_object, by_id = Game(players, rules, seed), Game(players, rules, seed)
    by_object.start()
    by_id.start()
    watched = players[seed % len(players)]
    by_id.observation(watched)  # kept up to date event by event from here on
    rng = random.Random(seed)
    while by_object.hand_number <= 3 and by_object.phase is not Phase.ENDED:
        if by_object.phase is Phase.HAND_OVER:
            by_object.begin_next_hand()
            by_id.begin_next_hand()
            continue
        player = next(iter(by_object.pending()))
        actions = by_object.legal_actions(player)
        index = rng.randrange(len(actions))
        expected = by_object.apply(player, actions[index])
        got: list[Event] = [expected[0]]  # the step adds to what the list holds
        by_id.step(by_id.legal_ids()[index], got)
        assert got[1:] == expected
        assert by_id.log == by_object.log
        assert by_id.observation(watched) == observe(by_object, watched)
    assert by_id.keeps_log


def test_a_game_stepped_without_events_keeps_no_log_and_says_so() -> None:
    game = Game(list(range(5)), Rules(), seed=2)
    game.start()
    game.observation(0)
    twin = game.clone()
    while game.phase is not Phase.PLAY:
        game.step(game.legal_ids()[0])
    game.step(game.legal_ids()[0])
    assert not game.keeps_log
    for refused in (
        lambda: game.observation(0),
        lambda: game.to_dict(),
        lambda: game.sample_hidden(0, random.Random(0)),
        lambda: observe(game, 1),
    ):
        with pytest.raises(ValueError, match="stepped without events"):
            refused()
    # The game it was cloned from still keeps everything.
    assert twin.keeps_log
    assert twin.observation(0).viewer == 0


@settings(max_examples=400, deadline=None)
@given(
    hand=st.lists(st.integers(0, 12), min_size=12, max_size=12),
    jesters=st.integers(0, 2),
    rank=st.integers(1, 13),
    count=st.integers(1, 16),
)
def test_can_beat_says_whether_any_set_is_playable(
    hand: list[int], jesters: int, rank: int, count: int
) -> None:
    counts = (0, *hand, jesters)
    to_beat = CardSet(rank, count, count if rank == 13 else 0)
    assert can_beat(counts, to_beat) == bool(playable_sets(counts, to_beat))


@settings(max_examples=300, deadline=None)
@given(hand=st.lists(st.sampled_from([*range(1, 14)]), max_size=30), count=st.integers(1, 3))
def test_tax_choices_are_the_distinct_sorted_combinations(hand: list[int], count: int) -> None:
    expected = sorted(set(itertools.combinations(sorted(hand), count)))
    assert tax_choices(tuple(hand), count) == expected


@pytest.mark.parametrize("seed", range(8))
def test_a_playout_is_the_same_game_as_stepping_drawn_ids(seed: int) -> None:
    players = list(range(4 + seed % 5))
    rules = RULE_SETS[seed % len(RULE_SETS)]
    by_playout, by_step = Game(players, rules, seed), Game(players, rules, seed)
    by_playout.start()
    by_step.start()
    draws_playout, draws_step = random.Random(seed), random.Random(seed)
    for _hand in range(5):
        answered = by_playout.playout(draws_playout)
        stepped = 0
        while by_step.to_move() is not None:
            ids = by_step.legal_ids()
            by_step.step(ids[draws_step.randrange(len(ids))])
            stepped += 1
        assert answered == stepped > 0
        assert by_playout.phase in (Phase.HAND_OVER, Phase.ENDED)
        assert state(by_playout) == state(by_step)
        assert draws_playout.getstate() == draws_step.getstate()
        assert not by_playout.keeps_log
        assert by_playout.playout(draws_playout) == 0  # nobody owes a decision between hands
        if by_playout.phase is Phase.ENDED:
            break
        by_playout.next_hand()
        by_step.next_hand()


@pytest.mark.parametrize("seed", range(6))
def test_next_hand_is_begin_next_hand_and_builds_events_only_when_asked(seed: int) -> None:
    game = Game(list(range(4 + seed % 5)), Rules.all_optional(0.9), seed)
    game.start()
    rng = random.Random(seed)
    for _hand in range(3):
        game.playout(rng)
        if game.phase is Phase.ENDED:
            break
        by_object, by_id, quiet = game.clone(), game.clone(), game.clone()
        expected = by_object.begin_next_hand()
        told: list[Event] = []
        by_id.next_hand(told)
        quiet.next_hand()
        assert told == expected
        assert by_id.log == by_object.log
        assert state(by_id) == state(by_object) == state(quiet)
        assert not quiet.keeps_log
        game = quiet
    with pytest.raises(IllegalAction):  # a hand is being played: nothing to begin
        game.next_hand()
