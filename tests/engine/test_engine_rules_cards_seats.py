"""RULES.md rules 1-6: the cards, sets, players, seating draw, roles and the deal."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from engine_helpers import (
    StackedRandom,
    deal_sizes,
    game_in_play,
    hand_of,
    play,
    refused,
    run,
    seating_deck,
    stacked,
)
from hypothesis import given
from hypothesis import strategies as st

from dalmuti_net.engine import (
    CARDS,
    ENGLISH_NAMES,
    JESTER,
    MAX_PLAYERS,
    CardSet,
    Game,
    IllegalAction,
    Phase,
    PlayDecision,
    Refusal,
    Role,
    RulesError,
    role_at,
    roles_of,
)
from dalmuti_net.engine.cards import counts_of, full_deck, playable_sets
from dalmuti_net.engine.events import (
    CardsDealt,
    DealFinished,
    HandStarted,
    Played,
    SeatingDraw,
    SeatingSettled,
    TrickWon,
    Waiting,
)
from dalmuti_net.engine.roles import merchants_of

A, B, C, D, E, F = 10, 11, 12, 13, 14, 15


# Rule 1 -------------------------------------------------------------------------------


def test_rule_01_eighty_cards_rank_r_r_times_two_jesters_lower_is_better() -> None:
    deck = full_deck()
    assert len(deck) == 80
    assert Counter(deck) == {**{rank: rank for rank in range(1, 13)}, JESTER: 2}
    assert ENGLISH_NAMES[1] == "Dalmuti" and ENGLISH_NAMES[12] == "Peasant"
    assert ENGLISH_NAMES[JESTER] == "Jester" and set(ENGLISH_NAMES) == set(CARDS)
    assert CardSet(4, 1).beats(CardSet(5, 1)) and not CardSet(5, 1).beats(CardSet(4, 1))

    game = Game([A, B, C, D, E])
    game.start()
    dealt = Counter(card for player in game.order for card in hand_of(game, player))
    assert dealt == Counter(deck)


# Rule 2 -------------------------------------------------------------------------------


def test_rule_02_a_lone_jester_counts_13_and_a_peasant_beats_it() -> None:
    game = game_in_play((A, B, C, D), {A: [JESTER, 3], B: [12, 4], C: [5], D: [6]})
    lead = game.pending()[A]
    assert isinstance(lead, PlayDecision) and CardSet(JESTER, 1, 1) in lead.sets
    events = run(game, [(A, play(JESTER, 1, jesters=1)), (B, play(12))])
    assert Played(A, CardSet(JESTER, 1, 1), 1) in events
    assert game.top == CardSet(12, 1)


def test_rule_02_jesters_take_the_rank_of_their_companions() -> None:
    """Jester + Jester + 5 is three 5s: three 4s beat it, three 5s and three 6s do not."""
    game = game_in_play(
        (A, B, C, D),
        {A: [5, JESTER, JESTER, 1], B: [5, 5, 5, 6, 6, 6, 4, 4, 4], C: [7], D: [8]},
    )
    events = run(game, [(A, play(5, 3, jesters=2))])
    assert Played(A, CardSet(5, 3, 2), 1) in events
    refused(game, B, play(5, 3), Refusal.NOT_BETTER)
    refused(game, B, play(6, 3), Refusal.NOT_BETTER)
    run(game, [(B, play(4, 3))])


def test_rule_02_two_jesters_are_a_pair_of_13s_a_legal_lead_never_a_legal_follow() -> None:
    leading = game_in_play((A, B, C, D), {A: [JESTER, JESTER, 3], B: [12, 12], C: [9], D: [8]})
    lead = leading.pending()[A]
    assert isinstance(lead, PlayDecision) and CardSet(JESTER, 2, 2) in lead.sets
    run(leading, [(A, play(JESTER, 2, jesters=2)), (B, play(12, 2))])

    following = game_in_play(
        (A, B, C, D), {A: [12, 12, 3], B: [JESTER, JESTER, 12], C: [9], D: [8]}
    )
    run(following, [(A, play(12, 2))])
    follow = following.pending()[B]
    assert isinstance(follow, PlayDecision)
    assert follow.sets == () and follow.may_pass
    refused(following, B, play(JESTER, 2, jesters=2), Refusal.NOT_BETTER)
    # Nor may two Jesters pretend to be a better pair: a set needs a card of its rank.
    refused(following, B, play(11, 2, jesters=2), Refusal.NOT_A_SET)


@pytest.mark.parametrize(
    "bad",
    [
        CardSet(5, 2, 2),  # all Jesters but claiming a rank
        CardSet(JESTER, 2, 1),  # a 13 is all Jesters
        CardSet(0, 1),
        CardSet(14, 1),
        CardSet(5, 0),
        CardSet(5, 4, 3),  # only two Jesters exist
        CardSet(5, -1),
    ],
)
def test_rule_02_what_is_not_a_set_is_refused(bad: CardSet) -> None:
    game = game_in_play((A, B, C, D), {A: [5, 5, 5, JESTER, JESTER], B: [1], C: [2], D: [3]})
    refused(game, A, play(bad.rank, bad.count, bad.jesters), Refusal.NOT_A_SET)


def _sets_by_definition(hand: list[int], to_beat: CardSet | None) -> set[CardSet]:
    """RULES.md rule 2 read literally: every sub-multiset of the hand that is a set."""
    held = Counter(hand)
    found: set[CardSet] = set()
    for jesters in range(held[JESTER] + 1):
        if jesters:
            found.add(CardSet(JESTER, jesters, jesters))
        for rank in range(1, 13):
            for natural in range(1, held[rank] + 1):
                found.add(CardSet(rank, natural + jesters, jesters))
    if to_beat is None:
        return found
    return {s for s in found if s.count == to_beat.count and s.rank < to_beat.rank}


@given(
    hand=st.lists(st.sampled_from(full_deck()), max_size=20).filter(
        lambda cards: all(n <= (2 if c == JESTER else c) for c, n in Counter(cards).items())
    ),
    to_beat=st.none()
    | st.builds(
        lambda rank, count: CardSet(rank, count, count if rank == JESTER else 0),
        st.integers(1, JESTER),
        st.integers(1, 6),
    ),
)
def test_rule_02_the_offered_sets_are_exactly_the_legal_ones(
    hand: list[int], to_beat: CardSet | None
) -> None:
    offered = playable_sets(counts_of(hand), to_beat)
    assert len(offered) == len(set(offered))
    assert set(offered) == _sets_by_definition(hand, to_beat)


# Rule 3 -------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [0, 1, 3, 9, 12])
def test_rule_03_a_table_has_four_to_eight_players(players: int) -> None:
    with pytest.raises(RulesError):
        Game(list(range(players)))


def test_rule_03_four_and_eight_players_play_and_a_ninth_cannot_join() -> None:
    Game([1, 2, 3, 4]).start()
    full = Game(list(range(MAX_PLAYERS)))
    full.start()
    before = full.to_dict()
    with pytest.raises(IllegalAction) as raised:
        full.request_join(99)
    assert raised.value.code is Refusal.TABLE_FULL
    assert full.to_dict() == before
    with pytest.raises(ValueError):
        Game([1, 1, 2, 3])


# Rule 4 -------------------------------------------------------------------------------


def _seated(draw_rounds: list[list[int]], players: list[int]) -> tuple[Game, list[SeatingDraw]]:
    game = Game(players)
    game._rng = StackedRandom(decks=[stacked(top) for top in draw_rounds])
    events = game.start()
    assert SeatingSettled(game.order) in events
    return game, [e for e in events if isinstance(e, SeatingDraw)]


def test_rule_04_best_card_is_greater_dalmuti_and_jesters_are_worst() -> None:
    game, draws = _seated([[JESTER, 12, 1, 6]], [A, B, C, D])
    assert draws == [SeatingDraw(1, ((A, JESTER), (B, 12), (C, 1), (D, 6)))]
    assert game.order == (C, D, B, A)


def test_rule_04_only_tied_players_redraw_from_a_fresh_shuffle_until_settled() -> None:
    """A, B and C tie on 5s; they alone redraw: C draws a 2, A and B tie on 7s; they
    alone draw again: B's 3 beats A's Jester. D's lone 1 was never redrawn."""
    game, draws = _seated([[5, 5, 5, 1], [7, 7, 2], [JESTER, 3]], [A, B, C, D])
    rng = game._rng
    assert draws == [
        SeatingDraw(1, ((A, 5), (B, 5), (C, 5), (D, 1))),
        SeatingDraw(2, ((A, 7), (B, 7), (C, 2))),
        SeatingDraw(3, ((A, JESTER), (B, 3))),
    ]
    assert game.order == (D, C, B, A)
    assert isinstance(rng, StackedRandom)
    assert [sorted(deck) for deck in rng.shuffled[:3]] == [sorted(full_deck())] * 3


def test_rule_04_separate_ties_are_settled_separately_in_their_own_places() -> None:
    """**Decided** (rule 4): a redraw only orders the tied players among themselves. C and D
    tie on 9s below E's 6; C's redrawn 1 (the best card) never lifts C past E."""
    game, draws = _seated([[3, 3, 9, 9, 6], [8, 2], [4, 4], [1, 12]], [A, B, C, D, E])
    assert [d.draws for d in draws] == [
        ((A, 3), (B, 3), (C, 9), (D, 9), (E, 6)),
        ((A, 8), (B, 2)),
        ((C, 4), (D, 4)),
        ((C, 1), (D, 12)),
    ]
    assert game.order == (B, A, E, C, D)


# Rule 5 -------------------------------------------------------------------------------


def test_rule_05_roles_clockwise_from_the_greater_dalmuti() -> None:
    gd, ld, m, lp, gp = (
        Role.GREATER_DALMUTI,
        Role.LESSER_DALMUTI,
        Role.MERCHANT,
        Role.LESSER_PEON,
        Role.GREATER_PEON,
    )
    expected = {
        4: [gd, ld, lp, gp],
        5: [gd, ld, m, lp, gp],
        6: [gd, ld, m, m, lp, gp],
        8: [gd, ld, m, m, m, m, lp, gp],
    }
    for players, roles in expected.items():
        assert [role_at(i, players) for i in range(players)] == roles
    assert merchants_of((1, 2, 3, 4, 5, 6, 7)) == (3, 4, 5)
    assert roles_of((7, 3, 5, 1)) == {7: gd, 3: ld, 5: lp, 1: gp}


def test_rule_05_play_always_goes_clockwise_in_seat_order() -> None:
    order = (F, B, D, A, C, E)
    hands = {D: [12, 2], A: [11, 3], C: [10, 4], E: [9, 5], F: [8, 6], B: [7, 7]}
    game = game_in_play(order, hands, leader=D)
    # run() checks that each mover is the one owing the decision.
    run(game, [(D, play(12)), (A, play(11)), (C, play(10)), (E, play(9)), (F, play(8))])
    run(game, [(B, play(7))])
    assert game.turn == D


# Rule 6 -------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [4, 5, 6, 7, 8])
def test_rule_06_the_whole_deck_dealt_one_at_a_time_from_the_gd_clockwise(players: int) -> None:
    seats = list(range(100, 100 + players))
    deal = full_deck()
    random.Random(players).shuffle(deal)
    game = Game(seats)
    game._rng = StackedRandom(decks=[seating_deck(players), deal])
    events = game.start()
    assert game.order == tuple(seats)
    for seat, player in enumerate(seats):
        assert Counter(hand_of(game, player)) == Counter(deal[seat::players])
        assert CardsDealt(player, tuple(sorted(deal[seat::players]))) in events
    finished = next(e for e in events if isinstance(e, DealFinished))
    # 80 cards do not split evenly for 6, 7 or 8... players: the first seats get one more.
    assert list(finished.counts) == deal_sizes(players, 80)
    assert max(finished.counts) - min(finished.counts) == (0 if 80 % players == 0 else 1)
    started = next(e for e in events if isinstance(e, HandStarted))
    assert started.order == tuple(seats) and started.deck_size == 80
    assert game.phase is Phase.TAXES and Waiting(Phase.TAXES, (seats[0], seats[1])) in events


def test_rule_06_each_player_is_shown_only_their_own_dealt_cards() -> None:
    game = Game([A, B, C, D, E])
    events = game.start()
    dealt = [e for e in events if isinstance(e, CardsDealt)]
    assert [e.player for e in dealt] == list(game.order)
    for event in dealt:
        assert event.audience() == frozenset((event.player,))
    assert not any(isinstance(e, TrickWon) for e in events)
