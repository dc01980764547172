"""The research API: clone, legal_actions, action ids, sample_hidden, returns, observations."""

from __future__ import annotations

import itertools
import math
import random
import re
from collections import Counter
from pathlib import Path

import pytest
from engine_helpers import game_in_play
from hypothesis import given, settings
from hypothesis import strategies as st
from test_engine_properties import rule_options

from dalmuti_net import engine
from dalmuti_net.bots.random_bot import random_answer
from dalmuti_net.engine import (
    ACTION_NAMES,
    JESTER,
    NUM_ACTIONS,
    Game,
    IllegalAction,
    Phase,
    Rules,
    action_name,
    observe,
)
from dalmuti_net.engine.cards import counts_of, full_deck
from dalmuti_net.engine.encoding import decode, encode
from dalmuti_net.engine.hidden import Knowledge, sample_unseen
from dalmuti_net.engine.rules import stripped_ranks

EIGHT = (10, 11, 12, 13, 14, 15, 16, 17)


def step(game: Game, rng: random.Random) -> bool:
    """One random legal answer (or the next hand); false once the table has ended."""
    if game.is_terminal():
        return False
    if game.phase is Phase.HAND_OVER:
        game.begin_next_hand()
        return True
    player, decision = next(iter(game.pending().items()))
    game.apply(player, random_answer(decision, rng))
    return True


def random_game(players: int, rules: Rules, seed: int, steps: int) -> Game:
    game = Game(list(range(players)), rules, seed)
    game.start()
    rng = random.Random(seed)
    for _ in range(steps):
        if not step(game, rng):
            break
    return game


def chi_square_p(statistic: float, df: int) -> float:
    """Upper tail of the chi-square distribution (Wilson-Hilferty approximation)."""
    z = ((statistic / df) ** (1 / 3) - (1 - 2 / (9 * df))) / math.sqrt(2 / (9 * df))
    return 0.5 * math.erfc(z / math.sqrt(2))


# ---------------------------------------------------------------------- action ids


def test_every_action_id_round_trips_and_has_a_unique_name() -> None:
    assert len(set(ACTION_NAMES)) == NUM_ACTIONS == len(ACTION_NAMES)
    assert action_name(0) == "pass"
    for action_id in range(NUM_ACTIONS):
        assert encode(decode(action_id, EIGHT), EIGHT) == action_id
        assert ACTION_NAMES[action_id] == action_name(action_id)


@settings(max_examples=10, deadline=None)
@given(players=st.integers(4, 8), rules=rule_options(), seed=st.integers(0, 2**32 - 1))
def test_legal_actions_are_exactly_what_apply_accepts_for_every_decision_kind(
    players: int, rules: Rules, seed: int
) -> None:
    game = Game(list(range(players)), rules, seed)
    game.start()
    rng = random.Random(seed)
    kinds: set[str] = set()
    for _ in range(25):
        if game.is_terminal():
            break
        if game.phase is Phase.HAND_OVER:
            game.begin_next_hand()
            continue
        before = game.to_dict()
        for player, decision in game.pending().items():
            kinds.add(type(decision).__name__)
            ids = game.legal_action_ids(player)
            assert ids == [game.action_id(a) for a in game.legal_actions(player)]
            assert len(set(ids)) == len(ids)
            for action_id in range(NUM_ACTIONS):
                try:
                    action = game.action_of(action_id)
                except ValueError:
                    assert action_id not in ids
                    continue
                trial = game.clone()
                try:
                    trial.apply(player, action)
                    accepted = True
                except IllegalAction:
                    accepted = False
                assert accepted == (action_id in ids), ACTION_NAMES[action_id]
        assert game.to_dict() == before  # the trials ran on clones
        step(game, rng)
    assert "PlayDecision" in kinds


# ---------------------------------------------------------------------- clone


@settings(max_examples=20, deadline=None)
@given(
    players=st.integers(4, 8),
    rules=rule_options(),
    seed=st.integers(0, 2**32 - 1),
    cut=st.integers(0, 400),
)
def test_a_clone_is_independent_and_plays_on_identically(
    players: int, rules: Rules, seed: int, cut: int
) -> None:
    game = random_game(players, rules, seed, cut)
    for viewer in (*game.order, None):
        game.observation(viewer)
    saved = game.to_dict()
    twin = game.clone()
    assert twin.to_dict() == saved
    wild = random.Random(seed + 1)
    for _ in range(300):  # the clone plays on its own way: the original is untouched
        if not step(twin, wild):
            break
    assert game.to_dict() == saved
    same = game.clone()
    left, right = random.Random(7), random.Random(7)
    for _ in range(300):
        alive = step(game, left)
        assert step(same, right) == alive and same.log == game.log
        if not alive:
            break
    assert same.to_dict() == game.to_dict()
    for viewer in (*game.order, None):
        if viewer is None or viewer in game.order:
            assert same.observation(viewer) == game.observation(viewer)


# ---------------------------------------------------------------------- observations


def test_the_games_observation_is_kept_across_hands() -> None:
    game = Game(list(range(5)), Rules(scoring=True, hand_limit=4), seed=3)
    view = game.observation(2)
    game.start()
    rng = random.Random(3)
    while step(game, rng):
        assert game.observation(2) is view
        assert view == observe(game, 2)
    assert [result.hand for result in view.results] == [1, 2, 3, 4]
    assert game.is_terminal()
    assert game.returns() == game.scores


def test_returns_count_places_even_without_scoring() -> None:
    game = Game(list(range(6)), Rules(hand_limit=3), seed=5)
    game.start()
    rng = random.Random(5)
    while step(game, rng):
        pass
    assert set(game.scores.values()) == {0}
    assert sum(game.returns().values()) == 3 * (5 + 4 + 3 + 2 + 1)
    assert game.debug_hands() and not hasattr(game, "hands")


# ---------------------------------------------------------------------- sample_hidden


@settings(max_examples=25, deadline=None)
@given(
    players=st.integers(4, 8),
    rules=rule_options(),
    seed=st.integers(0, 2**32 - 1),
    cut=st.integers(0, 500),
)
def test_a_sample_looks_the_same_to_its_viewer_and_holds_a_consistent_deal(
    players: int, rules: Rules, seed: int, cut: int
) -> None:
    game = random_game(players, rules, seed, cut)
    rng = random.Random(seed)
    for viewer in (*game.order, None):
        real = game.observation(viewer)
        sample = game.sample_hidden(viewer, rng)
        assert sample.observation(viewer) == real
        assert observe(sample, viewer) == observe(game, viewer)
        assert sample.decision_for(viewer) == game.decision_for(viewer) if viewer else True
        assert sample.phase is game.phase and sample.order == game.order
        hands, truth = sample.debug_hands(), game.debug_hands()
        if real.hand is not None:  # mid-deal (a misdeal) nobody has seen their cards yet
            assert hands[viewer] == truth[viewer]
        assert {p: sum(h) for p, h in hands.items()} == {p: sum(h) for p, h in truth.items()}
        if game.phase in (Phase.REVOLUTION, Phase.TAXES, Phase.PLAY):
            deck = Counter(full_deck(stripped_ranks(game.rules, len(game.order))))
            held: Counter[int] = Counter()
            for counts in hands.values():
                held.update({card: counts[card] for card in range(1, 14) if counts[card]})
            played = Counter({card: real.played[card] for card in range(1, 14)})
            assert held + played == deck
            for player in sample.order:
                if player != viewer:
                    assert sample.observation(player).hand == hands[player]
        trial = random.Random(seed)
        for _ in range(60):  # the sample is a game like any other
            if not step(sample, trial):
                break


def _assignment(game: Game, players: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    hands = game.debug_hands()
    return tuple(tuple(c for c in range(1, 14) for _ in range(hands[p][c])) for p in players)


def test_sample_hidden_deals_the_unseen_cards_uniformly() -> None:
    """Six unseen distinct cards, two to each of three players: 90 deals, equally likely."""
    hands = {1: [1, 2], 2: [3, 4], 3: [5, 6], 4: [7, 8]}
    game = game_in_play((1, 2, 3, 4), hands)
    rng = random.Random(11)
    seen = Counter(_assignment(game.sample_hidden(1, rng), (2, 3, 4)) for _ in range(9000))
    assert len(seen) == 90
    expected = 9000 / 90
    statistic = sum((n - expected) ** 2 / expected for n in seen.values())
    assert chi_square_p(statistic, 89) > 0.001
    assert seen[((3, 4), (5, 6), (7, 8))] > 0  # the real deal is one of them


def test_sample_unseen_respects_known_cards_and_a_peons_floor_uniformly() -> None:
    """Unseen 2, 3, 5, 7, 9, 11: player 1 surely holds the 7 (and one more card); player 2,
    a Peon who paid its tax, holds nothing better than a 5; player 3 takes the rest."""
    unseen = list(counts_of([2, 3, 5, 7, 9, 11]))
    knowledge = {1: Knowledge(known=list(counts_of([7]))), 2: Knowledge(floor=5)}
    rng = random.Random(5)
    draws: Counter[tuple[tuple[int, ...], ...]] = Counter()
    for _ in range(6000):
        hands = sample_unseen(unseen, {1: 2, 2: 2, 3: 2}, knowledge, rng)
        assert hands[1][7] == 1 and all(hands[2][card] == 0 for card in range(1, 5)), (
            "knowledge broken"
        )
        draws[tuple(hands[p] for p in (1, 2, 3))] += 1
    # Every deal allowed: player 2 takes two of 5, 9, 11; player 1 one of the other three.
    allowed = []
    cards = [2, 3, 5, 9, 11]
    for two in itertools.combinations(cards, 2):
        if min(two) < 5:
            continue
        rest = [card for card in cards if card not in two]
        for one in rest:
            third = [card for card in rest if card != one]
            allowed.append((counts_of([7, one]), counts_of(two), counts_of(third)))
    assert set(draws) == set(allowed)
    expected = 6000 / len(allowed)
    statistic = sum((draws[deal] - expected) ** 2 / expected for deal in allowed)
    assert chi_square_p(statistic, len(allowed) - 1) > 0.001


def test_a_revolution_the_viewer_cannot_see_keeps_someone_holding_both_jesters() -> None:
    for seed in range(300):
        game = Game(list(range(5)), Rules(first_deal_revolution=True), seed)
        game.start()
        if game.phase is Phase.REVOLUTION:
            break
    else:
        raise AssertionError("no revolution question in 300 deals")
    holder = next(iter(game.pending()))
    rng = random.Random(1)
    for viewer in (p for p in game.order if p != holder):
        for _ in range(20):
            sample = game.sample_hidden(viewer, rng)
            (asked,) = sample.pending()
            assert sample.debug_hands()[asked][JESTER] == 2
            assert asked == game.order[-1]  # on a first deal only the GP is asked


def test_the_engine_pages_example_runs(capsys: pytest.CaptureFixture[str]) -> None:
    # The page ships beside the engine, so the installed package's copy is the one read.
    page = (Path(engine.__file__).parent / "README.md").read_text(encoding="utf-8")
    example = re.search(r"```python\n(.*?)```", page, re.S)
    assert example is not None
    exec(compile(example.group(1), "engine-README-example", "exec"), {})
    assert re.fullmatch(r"\d+ (Play|Pass)\(.*\)\n", capsys.readouterr().out)
