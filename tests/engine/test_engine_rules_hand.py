"""RULES.md rules 7-11: revolution, taxes, play, going out and the end of a hand."""

from __future__ import annotations

from collections import Counter

import pytest
from engine_helpers import (
    PASS,
    complete_hands,
    dealt_game,
    game_in_play,
    greedy_finish,
    hand_of,
    play,
    refused,
    run,
)

from dalmuti_net.engine import (
    JESTER,
    CardSet,
    DeclareRevolution,
    GiveTax,
    MerchantExchange,
    Pass,
    Phase,
    PlayDecision,
    Refusal,
    RevolutionDecision,
    Role,
    Rules,
    TaxDecision,
    observe,
    roles_of,
)
from dalmuti_net.engine.cards import best_cards, counts_of
from dalmuti_net.engine.events import (
    HandEnded,
    HandStarted,
    Played,
    RevolutionDeclared,
    RolesMirrored,
    TaxCards,
    TaxesSkipped,
    TaxPaid,
    TrickWon,
    Waiting,
    WentOut,
)

GD, LD, M, LP, GP = 1, 2, 3, 4, 5
FIVE = (GD, LD, M, LP, GP)


# Rule 7 -------------------------------------------------------------------------------


def test_rule_07_a_revolution_cancels_the_taxes_and_the_gd_still_leads() -> None:
    hands = complete_hands(FIVE, {M: [JESTER, JESTER]})
    game, events, _ = dealt_game(FIVE, hands)
    assert game.phase is Phase.REVOLUTION
    assert game.pending() == {M: RevolutionDecision(greater=False)}
    # Who holds both Jesters is secret: every hand's revolution check names nobody.
    assert events[-1] == Waiting(Phase.REVOLUTION, ()) and events[-1].audience() is None
    declared = game.apply(M, DeclareRevolution(True))
    assert RevolutionDeclared(M, greater=False) in declared
    assert TaxesSkipped("revolution") in declared
    assert not any(isinstance(e, TaxPaid | RolesMirrored) for e in declared)
    assert game.order == FIVE and game.phase is Phase.PLAY and game.turn == GD
    assert all(Counter(hand_of(game, p)) == Counter(hands[p]) for p in FIVE)


def test_rule_07_a_greater_revolution_mirrors_the_roles_and_the_new_gd_leads() -> None:
    seven = (11, 12, 13, 14, 15, 16, 17)
    hands = complete_hands(seven, {17: [JESTER, JESTER]})
    game, _, _ = dealt_game(seven, hands)
    assert game.pending() == {17: RevolutionDecision(greater=True)}
    declared = game.apply(17, DeclareRevolution(True))
    assert RevolutionDeclared(17, greater=True) in declared
    mirrored = (17, 16, 15, 14, 13, 12, 11)
    assert RolesMirrored(mirrored) in declared and TaxesSkipped("revolution") in declared
    roles = roles_of(game.order)
    # GP <-> GD, LP <-> LD, Merchant k <-> the Merchant from the other end.
    assert roles[17] is Role.GREATER_DALMUTI and roles[11] is Role.GREATER_PEON
    assert roles[16] is Role.LESSER_DALMUTI and roles[12] is Role.LESSER_PEON
    assert game.order[2:5] == (15, 14, 13)
    # Everyone keeps the cards they were dealt; the new GD leads.
    assert all(Counter(hand_of(game, p)) == Counter(hands[p]) for p in seven)
    assert game.turn == 17
    assert observe(game, 11).roles[17] is Role.GREATER_DALMUTI


def test_rule_07_declaring_is_optional_and_the_holder_is_asked_once() -> None:
    """The GD holds both Jesters, declines, then gives both to the GP as tax: the GP now
    holds both Jesters but nobody is asked again (the revolution comes before any tax)."""
    hands = complete_hands(FIVE, {GD: [JESTER, JESTER]})
    game, _, _ = dealt_game(FIVE, hands)
    assert game.pending() == {GD: RevolutionDecision(greater=False)}
    refused(game, GD, DeclareRevolution("yes"), Refusal.WRONG_DECISION)  # type: ignore[arg-type]
    refused(game, GD, Pass(), Refusal.WRONG_DECISION)
    refused(game, GP, DeclareRevolution(True), Refusal.NO_DECISION_OWED)
    declined = game.apply(GD, DeclareRevolution(False))
    assert not any(isinstance(e, RevolutionDeclared | TaxesSkipped) for e in declined)
    assert set(game.pending()) == {GD, LD} and game.phase is Phase.TAXES
    run(game, [(GD, GiveTax((JESTER, JESTER))), (LD, GiveTax((hands[LD][0],)))])
    assert Counter(hand_of(game, GP))[JESTER] == 2
    assert game.phase is Phase.PLAY and game.turn == GD
    assert not any(isinstance(d, RevolutionDecision) for d in game.pending().values())


def test_rule_07_a_greater_revolution_can_be_declined_too() -> None:
    hands = complete_hands(FIVE, {GP: [JESTER, JESTER]})
    game, _, _ = dealt_game(FIVE, hands)
    game.apply(GP, DeclareRevolution(False))
    assert game.order == FIVE and set(game.pending()) == {GD, LD}


# Rule 8 -------------------------------------------------------------------------------


def test_rule_08_the_peons_best_cards_jesters_counting_worst() -> None:
    assert best_cards(counts_of([JESTER, 7, 12, 3]), 2) == (3, 7)
    assert best_cards(counts_of([JESTER, JESTER, 12]), 2) == (12, JESTER)
    assert best_cards(counts_of([JESTER, 11]), 1) == (11,)


def test_rule_08_taxes_are_simultaneous_from_the_hands_as_dealt() -> None:
    hands = complete_hands(
        FIVE, {GD: [12, 12, 11], LD: [10], LP: [3, 9, JESTER], GP: [1, 2, JESTER]}
    )
    game, _, _ = dealt_game(FIVE, hands)
    dealt = {p: hand_of(game, p) for p in FIVE}
    # Only the Dalmutis choose; the Peons' cards are chosen by the rule.
    assert game.pending() == {
        GD: TaxDecision(2, tuple(dealt[GD]), GP),
        LD: TaxDecision(1, tuple(dealt[LD]), LP),
    }
    refused(game, GP, GiveTax((JESTER, 1)), Refusal.NO_DECISION_OWED)
    refused(game, M, MerchantExchange(None, None), Refusal.NO_DECISION_OWED)
    # The GD cannot give what they are about to receive (the GP's 1 is not theirs yet).
    assert 1 not in dealt[GD]
    refused(game, GD, GiveTax((1, 12)), Refusal.NOT_HELD)
    once = next(card for card in dealt[GD] if dealt[GD].count(card) == 1)
    refused(game, GD, GiveTax((once, once)), Refusal.NOT_HELD)
    refused(game, GD, GiveTax((12,)), Refusal.BAD_CARDS)
    refused(game, GD, GiveTax((12, 12, 11)), Refusal.BAD_CARDS)
    refused(game, GD, GiveTax((12, "12")), Refusal.BAD_CARDS)  # type: ignore[arg-type]
    refused(game, GD, GiveTax(12), Refusal.BAD_CARDS)  # type: ignore[arg-type]
    refused(game, GD, play(12), Refusal.WRONG_DECISION)

    first = game.apply(LD, GiveTax((10,)))
    assert first == [Waiting(Phase.TAXES, (GD,))]
    assert {p: hand_of(game, p) for p in FIVE} == dealt  # nothing moves until all have chosen
    refused(game, LD, GiveTax((10,)), Refusal.NO_DECISION_OWED)
    settled = game.apply(GD, GiveTax((12, 11)))

    expected = {p: Counter(dealt[p]) for p in FIVE}
    expected[GD] += Counter([1, 2])
    expected[GD] -= Counter([12, 11])
    expected[GP] += Counter([12, 11])
    expected[GP] -= Counter([1, 2])
    expected[LD] += Counter([3])
    expected[LD] -= Counter([10])
    expected[LP] += Counter([10])
    expected[LP] -= Counter([3])
    assert {p: Counter(hand_of(game, p)) for p in FIVE} == expected
    assert TaxCards(GP, GD, (1, 2)) in settled and TaxCards(GD, GP, (12, 11)) in settled
    assert TaxCards(LP, LD, (3,)) in settled and TaxCards(LD, LP, (10,)) in settled
    for paid in (TaxPaid(GP, GD, 2), TaxPaid(GD, GP, 2), TaxPaid(LP, LD, 1), TaxPaid(LD, LP, 1)):
        assert paid in settled
    for cards in (e for e in settled if isinstance(e, TaxCards)):
        assert cards.audience() == frozenset((cards.giver, cards.receiver))
    assert game.phase is Phase.PLAY and game.turn == GD


def test_rule_08_the_order_in_which_the_dalmutis_answer_does_not_matter() -> None:
    hands = complete_hands(FIVE, {})
    results = []
    for first, second in ((GD, LD), (LD, GD)):
        game, _, _ = dealt_game(FIVE, hands)
        answers = {GD: GiveTax(tuple(hands[GD][-2:])), LD: GiveTax((hands[LD][0],))}
        run(game, [(first, answers[first]), (second, answers[second])])
        results.append(game.to_dict()["hands"])
    assert results[0] == results[1]


def test_rule_08_four_players_lesser_dalmuti_and_lesser_peon_are_seats_1_and_2() -> None:
    four = (GD, LD, LP, GP)
    hands = complete_hands(four, {LP: [1]})
    game, _, _ = dealt_game(four, hands)
    assert game.pending()[LD] == TaxDecision(1, tuple(hand_of(game, LD)), LP)
    settled = run(game, [(GD, GiveTax(tuple(hands[GD][:2]))), (LD, GiveTax((hands[LD][0],)))])
    assert TaxCards(LP, LD, (1,)) in settled


# Rule 9 -------------------------------------------------------------------------------


def test_rule_09_the_gd_leads_and_the_leader_must_play() -> None:
    game, _, _ = dealt_game(FIVE, complete_hands(FIVE, {}), Rules(first_deal_revolution=True))
    assert game.phase is Phase.PLAY and game.turn == GD
    decision = game.pending()[GD]
    assert isinstance(decision, PlayDecision) and not decision.may_pass and decision.to_beat is None
    refused(game, GD, PASS, Refusal.MUST_LEAD)
    refused(game, LD, play(hand_of(game, LD)[0]), Refusal.NO_DECISION_OWED)


def test_rule_09_a_follow_has_the_same_size_and_a_strictly_better_rank() -> None:
    game = game_in_play(FIVE, {GD: [8, 8, 1], LD: [7, 7, 7, 9, 8], M: [2], LP: [3], GP: [4]})
    run(game, [(GD, play(8, 2))])
    refused(game, LD, play(7, 3), Refusal.WRONG_SIZE)
    refused(game, LD, play(7), Refusal.WRONG_SIZE)
    refused(game, LD, play(8, 1), Refusal.WRONG_SIZE)
    refused(game, LD, play(9, 1), Refusal.WRONG_SIZE)
    refused(game, LD, play(6, 2), Refusal.NOT_HELD)
    game2 = game_in_play(FIVE, {GD: [8, 8, 1], LD: [8, 9, 9, JESTER], M: [2], LP: [3], GP: [4]})
    run(game2, [(GD, play(8, 2))])
    refused(game2, LD, play(8, 2, jesters=1), Refusal.NOT_BETTER)  # equal is not better
    refused(game2, LD, play(9, 2), Refusal.NOT_BETTER)
    run(game, [(LD, play(7, 2))])


def test_rule_09_a_player_who_passed_may_play_later_in_the_same_trick() -> None:
    game = game_in_play(FIVE, {GD: [12, 9, 9], LD: [8, 8], M: [10, 6], LP: [11, 11], GP: [5, 5]})
    events = run(
        game,
        [(GD, play(12)), (LD, PASS), (M, play(10)), (LP, PASS), (GP, PASS), (GD, play(9))],
    )
    assert not any(isinstance(e, TrickWon) for e in events)
    events = run(game, [(LD, play(8)), (M, play(6))])
    assert Played(LD, CardSet(8, 1), 1) in events


def test_rule_09_the_trick_ends_when_all_others_pass_in_a_row_and_its_winner_leads() -> None:
    game = game_in_play(FIVE, {GD: [12, 9, 9], LD: [8, 8], M: [10, 6], LP: [11, 11], GP: [5, 5]})
    events = run(game, [(GD, play(12)), (LD, PASS), (M, play(10)), (LP, PASS), (GP, PASS)])
    events += run(game, [(GD, PASS)])
    assert not any(isinstance(e, TrickWon) for e in events), "LD has not passed since M played"
    events = run(game, [(LD, PASS)])
    assert events[-2:] == [TrickWon(M, M), Waiting(Phase.PLAY, (M,))]
    decision = game.pending()[M]
    assert isinstance(decision, PlayDecision) and decision.to_beat is None
    assert game.passed == set()


def test_rule_09_players_who_are_out_are_skipped() -> None:
    game = game_in_play(FIVE, {GD: [12, 9], LD: [2], M: [10, 6], LP: [11, 11], GP: [5, 5]})
    run(game, [(GD, play(12)), (LD, play(2))])  # LD is out
    run(game, [(M, PASS), (LP, PASS), (GP, PASS), (GD, PASS)])
    assert game.turn == M  # lead passes on from the out LD
    run(game, [(M, play(10)), (LP, PASS), (GP, PASS), (GD, play(9))])
    assert game.turn == M  # LD is skipped


# Rule 10 ------------------------------------------------------------------------------


# Played greedily (first legal set, else pass): GD 12, LD 1 (out 1st), all pass, the lead
# skips to M: M 3 (out 2nd), LP 2, all pass; LP 11 (out 3rd), GP 10, all pass; GP 11
# (out 4th); GD is left holding 12.
SHORT_HAND = {GD: [12, 12], LD: [1], M: [3], LP: [2, 11], GP: [11, 10]}


def test_rule_10_going_out_fixes_next_hands_places_in_order() -> None:
    game = game_in_play(FIVE, SHORT_HAND)
    events = greedy_finish(game)
    outs = [e for e in events if isinstance(e, WentOut)]
    assert [(e.player, e.place) for e in outs] == [(LD, 1), (M, 2), (LP, 3), (GP, 4)]
    assert TrickWon(LD, M) in events
    ended = next(e for e in events if isinstance(e, HandEnded))
    assert ended.finishing == (LD, M, LP, GP, GD)


def test_rule_10_when_the_winner_is_out_the_lead_skips_every_out_player() -> None:
    """LD went out earlier; now GD plays their last card and wins the trick: the lead goes
    clockwise past the out LD to M."""
    game = game_in_play(FIVE, {GD: [12, 1], LD: [2], M: [10, 6], LP: [11, 11], GP: [5, 5]})
    run(game, [(GD, play(12)), (LD, play(2)), (M, PASS), (LP, PASS), (GP, PASS), (GD, play(1))])
    events = run(game, [(M, PASS), (LP, PASS), (GP, PASS)])
    assert TrickWon(winner=GD, leader=M) in events
    assert game.turn == M and game.out == [LD, GD]


def test_rule_10_a_player_going_out_on_a_beatable_play_leaves_the_trick_open() -> None:
    game = game_in_play(FIVE, {GD: [12, 1], LD: [9], M: [8, 6], LP: [11, 11], GP: [5, 5]})
    events = run(game, [(GD, play(12)), (LD, play(9))])
    assert WentOut(LD, 1) in events and game.turn == M
    events = run(game, [(M, play(8)), (LP, PASS), (GP, PASS), (GD, PASS)])
    assert TrickWon(M, M) in events


# Rule 11 ------------------------------------------------------------------------------


def test_rule_11_the_hand_ends_when_one_player_holds_cards_and_they_are_next_gp() -> None:
    game = game_in_play(FIVE, SHORT_HAND)
    events = greedy_finish(game)
    assert game.phase is Phase.HAND_OVER and game.pending() == {}
    assert isinstance(events[-1], HandEnded)
    assert hand_of(game, GD) == [12]
    assert game.order == (LD, M, LP, GP, GD)
    refused(game, GD, PASS, Refusal.NO_DECISION_OWED)
    started = game.begin_next_hand()
    hand = next(e for e in started if isinstance(e, HandStarted))
    assert hand.order == (LD, M, LP, GP, GD) and hand.hand == 3
    assert roles_of(game.order)[GD] is Role.GREATER_PEON
    assert roles_of(game.order)[LD] is Role.GREATER_DALMUTI


def test_rule_11_the_hand_ends_at_once_even_in_the_middle_of_a_trick() -> None:
    four = (GD, LD, LP, GP)
    game = game_in_play(four, {GD: [5], LD: [12, 12], LP: [4], GP: [3]}, leader=LD)
    run(game, [(LD, play(12)), (LP, play(4)), (GP, play(3))])
    assert game.phase is Phase.PLAY
    events = run(game, [(GD, PASS), (LD, PASS)])
    assert TrickWon(GP, GD) in events
    events = run(game, [(GD, play(5))])
    assert events[-1] == HandEnded(2, (LP, GP, GD, LD), (0, 0, 0, 0), (0, 0, 0, 0), (0, 0, 0, 0))


@pytest.mark.parametrize("action", [PASS, play(5)])
def test_rule_11_nothing_is_owed_between_hands(action: object) -> None:
    game = game_in_play((GD, LD, LP, GP), {GD: [5], LD: [12], LP: [4], GP: [3]})
    greedy_finish(game)
    for player in (GD, LD, LP, GP):
        refused(game, player, action, Refusal.NO_DECISION_OWED)
