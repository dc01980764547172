"""What a seat can infer from its observation: deck, hidden cards, chances (bots.reading)."""

from __future__ import annotations

from itertools import pairwise
from math import comb

import pytest

from dalmuti_net.bots.reading import TableReading, chance_to_hold, deck_composition
from dalmuti_net.engine import JESTER, Observation
from dalmuti_net.engine.cards import counts_of


@pytest.mark.parametrize(("deck_size", "missing"), [(80, ()), (68, (12,)), (57, (11, 12))])
def test_deck_composition_knows_stripped_decks(deck_size: int, missing: tuple[int, ...]) -> None:
    # RULES.md rule 14: 5 players drop the 12s, 4 players the 11s and 12s.
    deck = deck_composition(deck_size)
    assert sum(deck) == deck_size
    assert deck[JESTER] == 2
    for rank in range(1, 13):
        assert deck[rank] == (0 if rank in missing else rank)


def test_chance_to_hold_matches_the_hypergeometric_tail() -> None:
    # 3 useful cards among 20 hidden, a hand of 5: chance of at least 2 useful.
    expected = (comb(3, 2) * comb(17, 3) + comb(3, 3) * comb(17, 2)) / comb(20, 5)
    assert chance_to_hold(20, 3, 5, 2) == pytest.approx(expected)
    assert chance_to_hold(20, 3, 5, 4) == 0.0
    assert chance_to_hold(10, 10, 4, 4) == 1.0


def view(hand: list[int], played: list[int], others: dict[int, int]) -> Observation:
    observation = Observation(0)
    observation.order = (0, *others)
    observation.hand = counts_of(hand)
    observation.played = counts_of(played)
    observation.counts = {0: len(hand), **others}
    return observation


def test_hidden_cards_are_the_deck_less_my_hand_and_the_table() -> None:
    played = [1, 2, 2, 13]
    hand = [3, 3, 3, 12]
    hidden_total = 80 - len(played) - len(hand)
    observation = view(hand, played, {1: hidden_total // 2, 2: hidden_total - hidden_total // 2})
    reading = TableReading(observation, counts_of(hand))
    assert reading.hidden[1] == 0
    assert reading.hidden[2] == 0
    assert reading.hidden[3] == 0
    assert reading.hidden[12] == 11
    assert reading.hidden[JESTER] == 1
    assert sum(reading.hidden) == reading.hidden_total == hidden_total


def test_a_set_nobody_can_beat_is_sure() -> None:
    # The 1 and both 2s are gone and so is a Jester: a pair of 3s has no better pair left.
    played = [1, 2, 2, 13]
    hand = [3, 3, 9]
    rest = 80 - len(played) - len(hand)
    reading = TableReading(view(hand, played, {1: rest - 40, 2: 40}), counts_of(hand))
    assert not reading.could_be_beaten(3, 2)
    assert reading.safety(3, 2) == 1.0
    # A lone 9 can be beaten by any hidden 4..8.
    assert reading.could_be_beaten(9, 1)
    assert 0.0 <= reading.safety(9, 1) < 0.01


def test_jesters_threaten_a_set_only_beside_a_natural_card() -> None:
    # Every card better than a 5 is gone but one 4; both Jesters are hidden.
    played = [1, 2, 2, 3, 3, 3, 4, 4, 4]
    hand = [5, 5]
    rest = 80 - len(played) - len(hand)
    reading = TableReading(view(hand, played, {1: rest // 2, 2: rest - rest // 2}), counts_of(hand))
    # The 4 and a Jester make a better pair: some chance an opponent holds both.
    assert reading.could_be_beaten(5, 2)
    assert 0.0 < reading.safety(5, 2) < 1.0
    # Three cards too: the 4 and both Jesters.
    assert 0.0 < reading.safety(5, 3) < 1.0
    # With the last 4 gone, the Jesters alone (a pair of rank 13) beat no pair of 5s.
    played.append(4)
    rest -= 1
    reading = TableReading(view(hand, played, {1: rest // 2, 2: rest - rest // 2}), counts_of(hand))
    assert not reading.could_be_beaten(5, 2)
    assert reading.safety(5, 2) == 1.0


def test_nobody_beats_a_set_bigger_than_their_hand() -> None:
    hand = [12] * 5 + [11] * 11
    reading = TableReading(view(hand, [], {1: 3, 2: 4}), counts_of(hand))
    assert not reading.could_be_beaten(12, 5)
    assert reading.could_be_beaten(12, 4)


def test_safety_falls_as_the_rank_gets_worse() -> None:
    hand = [5, 9]
    rest = 80 - len(hand)
    reading = TableReading(
        view(hand, [], {1: rest // 3, 2: rest // 3, 3: rest - 2 * (rest // 3)}), counts_of(hand)
    )
    chances = [reading.safety(rank, 2) for rank in range(1, 14)]
    assert chances[0] == 1.0
    assert all(a >= b for a, b in pairwise(chances))
    assert chances[-1] < chances[3]
