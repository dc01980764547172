"""RULES.md rules 12-20: comings and goings, the optional rules, and what a player may know."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from engine_helpers import (
    PASS,
    complete_hands,
    dealt_game,
    finish_hand,
    game_in_play,
    greedy_finish,
    hand_of,
    refused,
    run,
)

from dalmuti_net.engine import (
    JESTER,
    DecideMisdeal,
    DeclareRevolution,
    ExchangeDecision,
    Game,
    GiveTax,
    IllegalAction,
    MerchantExchange,
    MisdealChoice,
    MisdealDecision,
    Phase,
    PlacementDecision,
    PlaceNewcomer,
    Play,
    Refusal,
    RevolutionDecision,
    Role,
    Rules,
    TaxDecision,
    observe,
    roles_of,
    visible,
)
from dalmuti_net.engine.events import (
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
    PlayerJoining,
    PlayerLeaving,
    PlayerRemoved,
    TableEnded,
    TaxCards,
    TaxesSkipped,
    TaxPaid,
    Waiting,
)

GD, LD, M, LP, GP = 1, 2, 3, 4, 5
FIVE = (GD, LD, M, LP, GP)
FOUR = (GD, LD, LP, GP)
SIX = (1, 2, 3, 4, 5, 6)


def refused_call(game: Game, call: Callable[[], Any], code: Refusal) -> None:
    """A table request (join, leave, ...) is refused with ``code`` and changes nothing."""
    before = game.to_dict()
    with pytest.raises(IllegalAction) as raised:
        call()
    assert raised.value.code is code
    assert game.to_dict() == before


def one_card_each(
    order: tuple[int, ...], rules: Rules | None = None, leader: int | None = None, **kw: Any
) -> Game:
    """A hand about to end: everyone holds one card, worse the further clockwise from the
    leader, so played greedily the finishing order is the seat order from the leader."""
    first = order.index(order[0] if leader is None else leader)
    hands = {p: [1 + (i - first) % len(order)] for i, p in enumerate(order)}
    return game_in_play(order, hands, rules=rules, leader=order[first], **kw)


def between_hands(order: tuple[int, ...], rules: Rules | None = None, **kw: Any) -> Game:
    game = one_card_each(order, rules, **kw)
    greedy_finish(game)
    assert game.phase is Phase.HAND_OVER
    return game


# Rule 12 ------------------------------------------------------------------------------


def test_rule_12_a_newcomer_waits_for_the_next_hand_and_sits_as_a_merchant() -> None:
    game = one_card_each(FOUR)
    assert game.request_join(9) == [PlayerJoining(9)]
    assert game.order == FOUR and game.turn == GD and 9 not in game.debug_hands()
    greedy_finish(game)
    events = game.begin_next_hand()
    # With four seated there is one Merchant seat: no choice, nobody is asked.
    assert NewcomerPlaced(9, 2, None) in events
    started = next(e for e in events if isinstance(e, HandStarted))
    assert started.order == (GD, LD, 9, LP, GP)
    assert roles_of(game.order)[9] is Role.MERCHANT
    assert len(hand_of(game, 9)) == 16


def test_rule_12_the_gd_chooses_among_the_merchant_seats() -> None:
    game = one_card_each(SIX)
    game.request_join(9)
    greedy_finish(game)
    events = game.begin_next_hand()
    assert events[-1] == Waiting(Phase.PLACEMENT, (1,))
    assert game.phase is Phase.PLACEMENT
    assert game.pending() == {1: PlacementDecision(9, (2, 3, 4))}
    for position in (0, 1, 5, 6, -1, "2", None):
        refused(game, 1, PlaceNewcomer(position), Refusal.BAD_POSITION)  # type: ignore[arg-type]
    refused(game, 1, PASS, Refusal.WRONG_DECISION)
    refused(game, 2, PlaceNewcomer(3), Refusal.NO_DECISION_OWED)
    refused(game, 9, PlaceNewcomer(3), Refusal.NO_DECISION_OWED)
    placed = game.apply(1, PlaceNewcomer(4))
    assert NewcomerPlaced(9, 4, chosen_by=1) in placed
    assert game.order == (1, 2, 3, 4, 9, 5, 6) and game.phase is not Phase.PLACEMENT
    assert roles_of(game.order)[9] is Role.MERCHANT


def test_rule_12_several_newcomers_are_placed_one_after_another() -> None:
    game = between_hands(FIVE)
    game.request_join(8)
    game.request_join(9)
    game.begin_next_hand()
    assert game.pending() == {GD: PlacementDecision(8, (2, 3))}
    game.apply(GD, PlaceNewcomer(3))
    assert game.pending() == {GD: PlacementDecision(9, (2, 3, 4))}
    game.apply(GD, PlaceNewcomer(2))
    assert game.order == (GD, LD, 9, M, 8, LP, GP)


def test_rule_12_a_leaver_plays_out_the_hand_then_the_others_keep_their_order() -> None:
    game = one_card_each(SIX)
    assert game.request_leave(3) == [PlayerLeaving(3)]
    refused_call(game, lambda: game.request_leave(3), Refusal.UNKNOWN_PLAYER)
    events = greedy_finish(game)
    ended = next(e for e in events if isinstance(e, HandEnded))
    assert 3 in ended.finishing
    events = game.begin_next_hand()
    assert events[0] == PlayerRemoved(3)
    assert game.order == (1, 2, 4, 5, 6)
    assert 3 not in game.scores and 3 not in game.debug_hands()


def test_rule_12_the_table_ends_when_fewer_than_four_would_play() -> None:
    game = between_hands(FOUR)
    game.request_leave(LP)
    events = game.begin_next_hand()
    assert events[0] == PlayerRemoved(LP)
    assert isinstance(events[-1], TableEnded) and events[-1].reason == "too_few_players"
    assert game.phase is Phase.ENDED
    refused(game, GD, PASS, Refusal.TABLE_ENDED)
    refused_call(game, lambda: game.request_join(9), Refusal.TABLE_ENDED)
    refused_call(game, lambda: game.request_leave(GD), Refusal.TABLE_ENDED)
    refused_call(game, game.begin_next_hand, Refusal.TABLE_ENDED)
    refused_call(game, game.end_table, Refusal.TABLE_ENDED)


def test_rule_12_a_newcomer_may_replace_a_leaver_at_four() -> None:
    """**Decided** (rule 12): with fewer than four others left there are no Merchant seats;
    a newcomer sits right after the two Dalmutis (position 2), never above them, and the
    last finisher stays Greater Peon."""
    game = between_hands(FOUR)
    game.request_leave(LD)
    game.request_join(9)
    game.begin_next_hand()
    assert game.order == (GD, LP, 9, GP)


def test_rule_12_a_newcomer_may_withdraw_before_being_seated() -> None:
    game = one_card_each(FIVE)
    game.request_join(9)
    assert game.request_leave(9) == [PlayerLeaving(9)]
    greedy_finish(game)
    events = game.begin_next_hand()
    assert not any(isinstance(e, NewcomerPlaced) for e in events)
    assert game.order == FIVE


def test_rule_12_join_and_leave_requests_that_are_refused() -> None:
    game = Game(list(range(7)))
    refused_call(game, lambda: game.request_join(9), Refusal.WRONG_PHASE)
    refused_call(game, lambda: game.request_leave(3), Refusal.WRONG_PHASE)
    game.start()
    refused_call(game, lambda: game.request_join(3), Refusal.ALREADY_SEATED)
    refused_call(game, lambda: game.request_join(-1), Refusal.UNKNOWN_PLAYER)
    refused_call(game, lambda: game.request_join("x"), Refusal.UNKNOWN_PLAYER)  # type: ignore[arg-type]
    refused_call(game, lambda: game.request_join(True), Refusal.UNKNOWN_PLAYER)
    refused_call(game, lambda: game.request_leave(42), Refusal.UNKNOWN_PLAYER)
    game.request_join(7)
    refused_call(game, lambda: game.request_join(7), Refusal.ALREADY_SEATED)
    refused_call(game, lambda: game.request_join(8), Refusal.TABLE_FULL)
    game.request_leave(0)  # a leaver frees a seat for the next hand
    game.request_join(8)
    refused_call(game, lambda: game.request_join(10), Refusal.TABLE_FULL)


def test_rule_12_a_join_while_the_gd_places_is_seated_before_the_coming_hand() -> None:
    """**Decided** (rule 12): while the GD is placing newcomers the next hand has not begun,
    so someone who asks to join then is placed before it too, and counts against the
    eight seats at once."""
    game = between_hands((1, 2, 3, 4, 5, 6, 7))
    game.request_join(8)
    game.begin_next_hand()
    assert game.pending() == {1: PlacementDecision(8, (2, 3, 4, 5))}
    refused_call(game, lambda: game.request_join(9), Refusal.TABLE_FULL)
    refused_call(game, lambda: game.request_join(8), Refusal.ALREADY_SEATED)

    game = between_hands(SIX)
    game.request_join(8)
    game.begin_next_hand()
    game.request_join(9)
    game.apply(1, PlaceNewcomer(2))
    assert game.pending() == {1: PlacementDecision(9, (2, 3, 4, 5))}
    events = game.apply(1, PlaceNewcomer(5))
    assert isinstance(next(e for e in events if isinstance(e, HandStarted)), HandStarted)
    assert game.order == (1, 2, 8, 3, 4, 9, 5, 6)


def test_rule_12_a_leave_while_the_gd_places_takes_effect_at_once() -> None:
    """**Decided** (rule 12): a player who leaves while newcomers are being placed is removed
    before the coming hand, at once; a newcomer being placed may withdraw, and the GD's
    question passes on (or the hand starts when nobody is left to place)."""
    game = between_hands(SIX)
    game.request_join(8)
    game.begin_next_hand()
    events = game.request_leave(1)  # the GD, who owed the placement, leaves
    assert events[:2] == [PlayerLeaving(1), PlayerRemoved(1)]
    assert game.order == (2, 3, 4, 5, 6)
    assert game.pending() == {2: PlacementDecision(8, (2, 3))}
    events = game.request_leave(8)
    assert events[0] == PlayerLeaving(8)
    assert any(isinstance(e, HandStarted) for e in events)
    assert game.order == (2, 3, 4, 5, 6) and game.phase is not Phase.PLACEMENT

    game = between_hands(FIVE)
    game.request_join(8)
    game.begin_next_hand()
    events = game.request_leave(M)  # four left: one Merchant seat, no choice any more
    assert NewcomerPlaced(8, 2, None) in events and any(isinstance(e, HandStarted) for e in events)
    assert game.order == (GD, LD, 8, LP, GP)


def test_rule_12_observations_follow_joins_and_leaves() -> None:
    game = between_hands(SIX)
    game.request_join(8)
    game.request_leave(6)
    seen = observe(game, 2)
    assert seen.joining == [8] and seen.leaving == [6]
    game.begin_next_hand()
    seen = observe(game, 2)
    assert seen.order == game.order == (1, 2, 3, 4, 5) and seen.joining == [8]
    game.request_leave(3)
    seen = observe(game, 2)
    assert seen.order == game.order and seen.leaving == []
    assert seen.roles == roles_of(game.order)


# Rule 13 ------------------------------------------------------------------------------


def test_rule_13_the_first_hand_has_no_taxes_later_hands_do() -> None:
    rules = Rules(first_deal_revolution=True)
    game, events, _ = dealt_game(FIVE, complete_hands(FIVE, {}), rules)
    started = next(e for e in events if isinstance(e, HandStarted))
    assert started.taxes is False and TaxesSkipped("first_deal") in events
    assert not any(isinstance(e, TaxPaid) for e in events)
    assert game.phase is Phase.PLAY and game.turn == GD
    finish_hand(game)
    events = game.begin_next_hand()
    assert next(e for e in events if isinstance(e, HandStarted)).taxes is True
    pending = game.pending()
    assert any(isinstance(d, TaxDecision | RevolutionDecision) for d in pending.values())


def test_rule_13_only_a_gp_dealt_both_jesters_is_asked_in_the_first_hand() -> None:
    rules = Rules(first_deal_revolution=True)
    game, _, _ = dealt_game(FIVE, complete_hands(FIVE, {LP: [JESTER, JESTER]}), rules)
    assert game.phase is Phase.PLAY  # an ordinary revolution would change nothing
    game, _, _ = dealt_game(FIVE, complete_hands(FIVE, {GP: [JESTER, JESTER]}), rules)
    assert game.pending() == {GP: RevolutionDecision(greater=True)}
    game.apply(GP, DeclareRevolution(True))
    assert game.order == tuple(reversed(FIVE)) and game.turn == GP


def test_rule_13_off_the_first_hand_is_taxed() -> None:
    game, _, _ = dealt_game(FIVE, complete_hands(FIVE, {}))
    assert set(game.pending()) == {GD, LD}


# Rule 14 ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "stripped", "size", "removed"),
    [
        (4, True, 57, {11, 12}),
        (5, True, 68, {12}),
        (6, True, 80, set()),
        (8, True, 80, set()),
        (4, False, 80, set()),
        (5, False, 80, set()),
    ],
)
def test_rule_14_stripped_decks(players: int, stripped: bool, size: int, removed: set[int]) -> None:
    game = Game(list(range(players)), Rules(stripped_decks=stripped))
    events = game.start()
    assert next(e for e in events if isinstance(e, HandStarted)).deck_size == size
    cards = Counter(card for p in game.order for card in hand_of(game, p))
    assert cards.total() == size and cards[JESTER] == 2
    assert all(cards[rank] == (0 if rank in removed else rank) for rank in range(1, 13))


def test_rule_14_the_deck_follows_the_number_of_players_each_hand() -> None:
    game = between_hands(FIVE, Rules(stripped_decks=True))
    game.request_join(9)
    game.request_leave(M)
    game.request_leave(LP)
    events = game.begin_next_hand()
    assert next(e for e in events if isinstance(e, HandStarted)).deck_size == 57
    finish_hand(game)
    game.request_join(10)
    game.request_join(11)
    game.begin_next_hand()  # the first newcomer takes the one Merchant seat of four
    assert game.phase is Phase.PLACEMENT  # the second has two to choose from
    events = game.apply(game.order[0], PlaceNewcomer(2))
    assert next(e for e in events if isinstance(e, HandStarted)).deck_size == 80


# Rule 15 ------------------------------------------------------------------------------


def test_rule_15_the_kth_out_of_n_scores_n_minus_k() -> None:
    rules = Rules(scoring=True)
    assert rules.hand_limit == 20
    game = one_card_each(FIVE, rules, leader=M, scores={GD: 3, LD: 1})
    events = greedy_finish(game)
    assert events[-1] == HandEnded(
        hand=2,
        finishing=(M, LP, GP, GD, LD),
        points=(4, 3, 2, 1, 0),
        bonus=(0, 0, 0, 0, 0),
        scores=(4, 3, 2, 4, 1),
    )
    assert game.scores == {M: 4, LP: 3, GP: 2, GD: 4, LD: 1}


def test_rule_15_without_scoring_nobody_scores() -> None:
    game = between_hands(FIVE)
    ended = game.log[-1]
    assert isinstance(ended, HandEnded)
    assert ended.points == (0,) * 5 and set(game.scores.values()) == {0}


def test_rule_15_the_table_ends_after_its_hands_and_ties_share_a_place() -> None:
    rules = Rules(scoring=True, hand_limit=3)
    game = one_card_each(FIVE, rules, hand_number=3, scores={GD: 10, LD: 11, M: 9, LP: 14, GP: 0})
    events = greedy_finish(game)
    # Points this hand: GD 4, LD 3, M 2, LP 1, GP 0 -> 14, 14, 11, 15, 0.
    assert events[-1] == TableEnded(
        "hand_limit",
        ((LP, 15, 1), (GD, 14, 2), (LD, 14, 2), (M, 11, 4), (GP, 0, 5)),
    )
    assert game.phase is Phase.ENDED and game.pending() == {}


def test_rule_15_the_host_may_end_a_table_at_any_time() -> None:
    game = Game(list(FIVE), Rules(scoring=True))
    game.start()
    events = game.end_table()
    assert len(events) == 1 and isinstance(events[0], TableEnded)
    assert events[0].reason == "host_ended" and {place for *_, place in events[0].standings} == {1}


# Rule 16 ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("leader", "finishing", "bonus"),
    [
        # The GP finishes better than last -> GD +1; the LP better than second to last -> LD +1.
        (GD, (GD, LD, M, LP, GP), {}),
        (GP, (GP, GD, LD, M, LP), {GD: 1}),
        (LD, (LD, M, LP, GP, GD), {GD: 1, LD: 1}),
        (M, (M, LP, GP, GD, LD), {GD: 1, LD: 1}),
        (LP, (LP, GP, GD, LD, M), {GD: 1, LD: 1}),
    ],
)
def test_rule_16_philanthropic_bonus(
    leader: int, finishing: tuple[int, ...], bonus: dict[int, int]
) -> None:
    rules = Rules(scoring=True, philanthropic_scoring=True)
    game = one_card_each(FIVE, rules, leader=leader)
    events = greedy_finish(game)
    ended = events[-1]
    assert isinstance(ended, HandEnded)
    assert ended.finishing == finishing
    assert ended.bonus == tuple(bonus.get(p, 0) for p in finishing)
    assert ended.points == (4, 3, 2, 1, 0)
    assert game.scores == {p: ended.points[i] + bonus.get(p, 0) for i, p in enumerate(finishing)}


def test_rule_16_only_the_lp_rising_gives_the_ld_a_point() -> None:
    rules = Rules(scoring=True, philanthropic_scoring=True)
    hands = {LP: [1], GD: [2], LD: [3], M: [4], GP: [12, 12]}
    game = game_in_play(FIVE, hands, rules=rules, leader=LP)
    ended = greedy_finish(game)[-1]
    assert isinstance(ended, HandEnded)
    assert ended.finishing == (LP, GD, LD, M, GP) and ended.bonus == (0, 0, 1, 0, 0)


def test_rule_16_after_a_greater_revolution_the_mirrored_roles_count() -> None:
    """**Decided** (rules 7 and 16): a Greater Revolution swaps the roles for this hand, so
    "this hand's GP" is the old GD and the bonus goes to the new GD (the old GP)."""
    rules = Rules(scoring=True, philanthropic_scoring=True)
    game, _, _ = dealt_game(FIVE, complete_hands(FIVE, {GP: [JESTER, JESTER]}), rules)
    game.apply(GP, DeclareRevolution(True))
    new_gd, new_ld, _, new_lp, new_gp = game.order
    assert (new_gd, new_ld, new_lp, new_gp) == (GP, LP, LD, GD)
    ended = greedy_finish(game)[-1]
    assert isinstance(ended, HandEnded)
    place = {p: i for i, p in enumerate(ended.finishing)}
    expected = {new_gd: int(place[new_gp] < 4), new_ld: int(place[new_lp] < 3)}
    assert ended.bonus == tuple(expected.get(p, 0) for p in ended.finishing)


def test_rule_16_needs_scoring() -> None:
    with pytest.raises(ValueError):
        Rules(philanthropic_scoring=True)


# Rule 17 ------------------------------------------------------------------------------


def test_rule_17_the_top_merchant_gives_one_card_and_draws_one_blind() -> None:
    rules = Rules(merchant_exchange=True)
    hands = complete_hands(SIX, {3: [1, 12], 4: [2, 11, 11]})
    game, _, rng = dealt_game(SIX, hands, rules, picks=[11])
    dealt = {p: Counter(hand_of(game, p)) for p in SIX}
    assert game.pending()[3] == ExchangeDecision(merchants=(4,), cards=tuple(sorted(dealt[3])))
    assert 4 not in game.pending()  # the other Merchant has no choice
    run(game, [(1, GiveTax(tuple(hands[1][:2]))), (2, GiveTax((hands[2][0],)))])
    assert game.phase is Phase.TAXES
    events = game.apply(3, MerchantExchange(4, 12))
    # The card is drawn from the other Merchant's hand as dealt, before the gift joins it.
    assert Counter(rng.choices_seen[-1]) == dealt[4]
    assert Counter(hand_of(game, 3)) == dealt[3] - Counter([12]) + Counter([11])
    assert Counter(hand_of(game, 4)) == dealt[4] - Counter([11]) + Counter([12])
    assert MerchantExchanged(3, 4) in events
    cards = next(e for e in events if isinstance(e, MerchantExchangeCards))
    assert cards == MerchantExchangeCards(3, 4, given=12, received=11)
    assert cards.audience() == frozenset((3, 4))
    assert MerchantExchanged(3, 4).audience() is None


def test_rule_17_the_top_merchant_may_decline() -> None:
    game, _, _ = dealt_game(SIX, complete_hands(SIX, {}), Rules(merchant_exchange=True))
    events = run(
        game,
        [
            (3, MerchantExchange(None, None)),
            (1, GiveTax(tuple(hand_of(game, 1)[:2]))),
            (2, GiveTax(tuple(hand_of(game, 2)[:1]))),
        ],
    )
    assert MerchantExchangeDeclined(3) in events
    assert not any(isinstance(e, MerchantExchanged | MerchantExchangeCards) for e in events)


def test_rule_17_any_other_merchant_may_be_named() -> None:
    eight = tuple(range(1, 9))
    game, _, _ = dealt_game(eight, complete_hands(eight, {}), Rules(merchant_exchange=True))
    decision = game.pending()[3]
    assert isinstance(decision, ExchangeDecision) and decision.merchants == (4, 5, 6)


def test_rule_17_bad_exchanges_are_refused() -> None:
    game, _, _ = dealt_game(SIX, complete_hands(SIX, {3: [1]}), Rules(merchant_exchange=True))
    missing = next(card for card in range(1, 13) if card not in hand_of(game, 3))
    for other in (1, 2, 3, 5, 6, 42, "4", None):
        card = None if other is None else 1
        if other is None:
            refused(game, 3, MerchantExchange(None, 1), Refusal.BAD_MERCHANT)
        else:
            refused(game, 3, MerchantExchange(other, card), Refusal.BAD_MERCHANT)  # type: ignore[arg-type]
    refused(game, 3, MerchantExchange(4, None), Refusal.BAD_MERCHANT)
    refused(game, 3, MerchantExchange(4, missing), Refusal.NOT_HELD)
    refused(game, 3, MerchantExchange(4, "1"), Refusal.NOT_HELD)  # type: ignore[arg-type]
    refused(game, 3, GiveTax((1,)), Refusal.WRONG_DECISION)
    refused(game, 4, MerchantExchange(3, 1), Refusal.NO_DECISION_OWED)


def test_rule_17_needs_two_merchants() -> None:
    game, _, _ = dealt_game(FIVE, complete_hands(FIVE, {}), Rules(merchant_exchange=True))
    assert set(game.pending()) == {GD, LD}
    events = run(game, [(GD, GiveTax(tuple(hand_of(game, GD)[:2]))), (LD, GiveTax((2,)))])
    assert not any(isinstance(e, MerchantExchangeDeclined) for e in events)


def test_rule_17_a_revolution_cancels_it_with_the_taxes() -> None:
    rules = Rules(merchant_exchange=True)
    game, _, _ = dealt_game(SIX, complete_hands(SIX, {4: [JESTER, JESTER]}), rules)
    assert game.pending() == {4: RevolutionDecision(greater=False)}
    events = game.apply(4, DeclareRevolution(True))
    assert game.phase is Phase.PLAY
    assert not any(isinstance(e, MerchantExchangeDeclined | MerchantExchanged) for e in events)
    first_deal = Rules(merchant_exchange=True, first_deal_revolution=True)
    game, _, _ = dealt_game(SIX, complete_hands(SIX, {}), first_deal)
    assert game.phase is Phase.PLAY


# Rule 18 ------------------------------------------------------------------------------

MISDEAL = Rules(misdeal_chance=1.0)


def test_rule_18_no_misdeal_at_chance_zero_and_one_every_deal_at_chance_one() -> None:
    for seed in range(30):
        off = Game(list(FIVE), Rules(), seed)
        assert not any(isinstance(e, MisdealExposed) for e in off.start())
        on = Game(list(FIVE), MISDEAL, seed)
        assert sum(isinstance(e, MisdealExposed) for e in on.start()) == 1


def _misdealt(exposed: int) -> Any:
    hands = complete_hands(FIVE, {})
    game, events, rng = dealt_game(FIVE, hands, MISDEAL, indexes=[exposed])
    return game, events, rng, hands


def test_rule_18_the_exposed_card_is_public_and_the_gd_decides() -> None:
    # Card 7 of the deal (0-based) goes to seat 7 % 5 = 2, the Merchant: its 2nd card.
    game, events, _, hands = _misdealt(7)
    exposed = MisdealExposed(card=hands[M][1], intended=M, index=7, needs_decision=True)
    assert exposed in events and exposed.audience() is None
    assert events[-1] == Waiting(Phase.MISDEAL, (GD,))
    assert not any(isinstance(e, CardsDealt | DealFinished) for e in events)
    assert game.pending() == {GD: MisdealDecision(hands[M][1], M, GP)}
    refused(game, GD, DecideMisdeal("maybe"), Refusal.WRONG_DECISION)  # type: ignore[arg-type]
    refused(game, GD, PASS, Refusal.WRONG_DECISION)
    refused(game, GP, DecideMisdeal(MisdealChoice.PEON), Refusal.NO_DECISION_OWED)
    events = game.apply(GD, DecideMisdeal(MisdealChoice.INTENDED))
    assert events[0] == MisdealResolved("intended", hands[M][1], M, GP)
    assert all(Counter(hand_of(game, p)) == Counter(hands[p]) for p in FIVE)


def test_rule_18_to_the_peon_who_replaces_it_from_their_hand_before_it_joins() -> None:
    # By card 7 the GP (seat 4) has been dealt one card: the deal's 5th, hands[GP][0].
    game, _, rng, hands = _misdealt(7)
    card, replacement = hands[M][1], hands[GP][0]
    events = game.apply(GD, DecideMisdeal(MisdealChoice.PEON))
    assert rng.choices_seen[-1] == [replacement]
    assert MisdealResolved("peon", card, M, GP) in events
    swap = MisdealReplacement(peon=GP, receiver=M, card=replacement)
    assert swap in events and swap.audience() == frozenset((GP, M))
    expected_m = Counter(hands[M]) - Counter([card]) + Counter([replacement])
    expected_gp = Counter(hands[GP]) - Counter([replacement]) + Counter([card])
    assert Counter(hand_of(game, M)) == expected_m and Counter(hand_of(game, GP)) == expected_gp
    assert [len(hand_of(game, p)) for p in FIVE] == [16] * 5


@pytest.mark.parametrize("exposed", [0, 1, 2, 3])
def test_rule_18_before_the_gp_holds_a_card_there_is_no_decision(exposed: int) -> None:
    game, events, _, hands = _misdealt(exposed)
    intended = FIVE[exposed]
    card = hands[intended][0]
    assert MisdealExposed(card, intended, exposed, needs_decision=False) in events
    assert MisdealResolved("intended", card, intended, GP) in events
    assert game.phase is Phase.TAXES
    assert all(Counter(hand_of(game, p)) == Counter(hands[p]) for p in FIVE)


def test_rule_18_a_card_meant_for_the_gp_needs_no_decision() -> None:
    game, events, _, hands = _misdealt(9)
    assert MisdealExposed(hands[GP][1], GP, 9, needs_decision=False) in events
    assert game.phase is Phase.TAXES


def test_rule_18_the_revolution_check_comes_after_the_whole_deal() -> None:
    """The exposed card (the deal's 13th, the Merchant's 3rd) is a Jester; sent to the GP,
    who already held the other Jester and gives a 3 in its place, it gives the GP both:
    the GP is asked for a Greater Revolution."""
    fixed = {M: [5, 6, JESTER], GP: [JESTER, 3]}
    hands = complete_hands(FIVE, fixed)
    game, _, rng = dealt_game(FIVE, hands, MISDEAL, indexes=[12], picks=[3])
    game.apply(GD, DecideMisdeal(MisdealChoice.PEON))
    assert sorted(rng.choices_seen[-1]) == [3, JESTER]
    assert game.pending() == {GP: RevolutionDecision(greater=True)}
    assert hand_of(game, M).count(JESTER) == 0


# Rule 19 ------------------------------------------------------------------------------


def test_rule_19_seats_are_shown_in_role_order() -> None:
    game, _, _ = dealt_game(FIVE, complete_hands(FIVE, {GP: [JESTER, JESTER]}))
    game.apply(GP, DeclareRevolution(True))
    for viewer in (*FIVE, None):
        seen = observe(game, viewer)
        assert seen.order == game.order == tuple(reversed(FIVE))
        assert seen.roles == roles_of(game.order)
        assert seen.roles[GP] is Role.GREATER_DALMUTI


# Rule 20 ------------------------------------------------------------------------------

PRIVATE = {
    CardsDealt: lambda e: {e.player},
    TaxCards: lambda e: {e.giver, e.receiver},
    MerchantExchangeCards: lambda e: {e.giver, e.other},
    MisdealReplacement: lambda e: {e.peon, e.receiver},
}


def assert_secrecy(log: list[Event], players: tuple[int, ...]) -> None:
    for event in log:
        parties = PRIVATE.get(type(event))
        if parties is None:
            assert event.audience() is None, f"{event} should be public"
        else:
            assert event.audience() == frozenset(parties(event)), f"{event} leaks"
    for viewer in (*players, None):
        for event in visible(log, viewer):
            parties = PRIVATE.get(type(event))
            assert parties is None or viewer in parties(event)


def test_rule_20_each_seat_sees_only_its_own_cards_and_public_facts() -> None:
    rules = Rules(merchant_exchange=True, misdeal_chance=1.0)
    hands = complete_hands(SIX, {})
    # Card 13 of the deal goes to seat 1 (the LD) after the GP holds two cards.
    game, _, _ = dealt_game(SIX, hands, rules, indexes=[13], picks=[hands[6][0], 12])
    run(game, [(1, DecideMisdeal(MisdealChoice.PEON))])
    run(game, [(1, GiveTax(tuple(hand_of(game, 1)[:2]))), (2, GiveTax((hand_of(game, 2)[0],)))])
    run(game, [(3, MerchantExchange(4, hand_of(game, 3)[0]))])
    for _ in range(12):
        player, decision = next(iter(game.pending().items()))
        game.apply(player, Play(decision.sets[0]) if decision.sets else PASS)  # type: ignore[union-attr]
    types = {type(e) for e in game.log}
    assert {CardsDealt, TaxCards, MerchantExchangeCards, MisdealReplacement} <= types
    assert_secrecy(game.log, SIX)
    for viewer in SIX:
        seen = observe(game, viewer)
        assert seen.hand is not None
        assert [c for c in range(1, 14) for _ in range(seen.hand[c])] == hand_of(game, viewer)
        assert seen.counts == {p: len(hand_of(game, p)) for p in SIX}
        for transfer in seen.transfers:
            audience = transfer.audience()
            assert audience is None or viewer in audience
    spectator = observe(game, None)
    assert spectator.hand is None and spectator.transfers == []
    assert spectator.counts == {p: len(hand_of(game, p)) for p in SIX}


def test_rule_20_nobody_learns_that_the_gp_holds_both_jesters_on_a_first_deal() -> None:
    rules = Rules(first_deal_revolution=True)
    game, events, _ = dealt_game(FIVE, complete_hands(FIVE, {GP: [JESTER, JESTER]}), rules)
    assert game.pending() == {GP: RevolutionDecision(greater=True)}
    events += game.apply(GP, DeclareRevolution(False))
    split = complete_hands(FIVE, {GD: [JESTER], LD: [JESTER]})
    control = dealt_game(FIVE, split, rules)[1]
    for viewer in (GD, LD, M, LP, None):
        # The same events as a deal where nobody holds the pair, cards aside.
        seen, expected = visible(events, viewer), visible(control, viewer)
        assert [type(e) for e in seen] == [type(e) for e in expected]
        public = [e for e in seen if e.audience() is None]
        assert public == [e for e in expected if e.audience() is None]
        assert Waiting(Phase.REVOLUTION, ()) in public


# The decisions RULES.md added on rules 12, 18 and 20 (rule 4's are in the seats tests, rule
# 16's is test_rule_16_after_a_greater_revolution_the_mirrored_roles_count).


def test_rule_12_decided_the_coming_hands_gd_chooses_before_the_deal() -> None:
    """**Decided** (rule 12): the GD who chooses is the last hand's first out, not the GD
    who led it, and the choice comes before the coming hand is dealt."""
    game = one_card_each(SIX, leader=4)  # finishing order 4, 5, 6, 1, 2, 3
    game.request_join(9)
    greedy_finish(game)
    events = game.begin_next_hand()
    assert game.pending() == {4: PlacementDecision(9, (2, 3, 4))}
    assert not any(isinstance(e, HandStarted | CardsDealt) for e in events)
    placed = game.apply(4, PlaceNewcomer(3))
    assert NewcomerPlaced(9, 3, chosen_by=4) in placed
    started = next(e for e in placed if isinstance(e, HandStarted))
    assert started.order == (4, 5, 6, 9, 1, 2, 3)


def test_rule_12_decided_below_four_each_newcomer_takes_the_third_seat_unasked() -> None:
    """**Decided** (rule 12): with fewer than four seated there is no Merchant seat: each
    newcomer, in order of arrival, sits directly after the Dalmutis without a question,
    so the remaining Peons stay at the bottom."""
    game = between_hands(FOUR)
    game.request_leave(LD)
    game.request_leave(LP)
    game.request_join(8)
    game.request_join(9)
    events = game.begin_next_hand()
    assert [e for e in events if isinstance(e, NewcomerPlaced)] == [
        NewcomerPlaced(8, 2, None),
        NewcomerPlaced(9, 2, None),
    ]
    assert game.order == (GD, GP, 9, 8)
    assert not any(isinstance(e, Waiting) and e.phase == "placement" for e in events)


@pytest.mark.parametrize("seed", range(40))
def test_rule_18_decided_the_gp_as_intended_receiver_is_never_asked(seed: int) -> None:
    """**Decided** (rule 18): a card whose intended receiver is the GP, or exposed before the
    GP holds a card, goes to the intended receiver without a decision; any other exposed
    card pauses the deal for the GD."""
    game = Game(list(SIX), Rules(misdeal_chance=1.0), seed=seed)
    events = game.start()
    exposed = next(e for e in events if isinstance(e, MisdealExposed))
    gp = game.order[-1]
    expected = exposed.index >= len(SIX) - 1 and exposed.intended != gp
    assert exposed.needs_decision is expected
    assert (game.phase is Phase.MISDEAL) is expected
    if not expected:
        assert MisdealResolved(MisdealChoice.INTENDED, exposed.card, exposed.intended, gp) in events


def _public_shape(events: list[Event], viewer: int | None) -> list[tuple[str, tuple[str, ...]]]:
    return [(e.TYPE, tuple(e.__slots__)) for e in visible(events, viewer)]  # type: ignore[attr-defined]


@pytest.mark.parametrize("holder", [GD, LD, M, LP, GP])
@pytest.mark.parametrize("first_deal", [True, False])
def test_rule_20_decided_others_are_sent_the_same_whether_or_not_someone_holds_both_jesters(
    holder: int, first_deal: bool
) -> None:
    """**Decided** (rule 20): what anyone but the holder sees, event types and fields in
    their order, is the same whether or not somebody holds both Jesters (and declines)."""
    rules = Rules(first_deal_revolution=first_deal)

    def deal(fixed: dict[int, list[int]]) -> list[Event]:
        game, events, _ = dealt_game(FIVE, complete_hands(FIVE, fixed), rules)
        if game.phase is Phase.REVOLUTION:
            events += game.apply(holder, DeclareRevolution(False))
        return events

    split = {GD: [JESTER], GP: [JESTER]} if holder not in (GD, GP) else {LD: [JESTER], M: [JESTER]}
    with_pair, without = deal({holder: [JESTER, JESTER]}), deal(split)
    for viewer in (*(p for p in FIVE if p != holder), None):
        assert _public_shape(with_pair, viewer) == _public_shape(without, viewer)
