"""The heuristic bot: each kind of decision on a hand built for it, then whole games."""

from __future__ import annotations

from collections.abc import Sequence

from hypothesis import given
from hypothesis import strategies as st

from dalmuti_net.bots.heuristic import HeuristicBot, tax_cards
from dalmuti_net.engine import (
    JESTER,
    Action,
    CardSet,
    DecideMisdeal,
    DeclareRevolution,
    ExchangeDecision,
    GiveTax,
    MerchantExchange,
    MisdealChoice,
    MisdealDecision,
    Observation,
    Pass,
    PlacementDecision,
    PlaceNewcomer,
    Play,
    PlayDecision,
    RevolutionDecision,
    TaxDecision,
)
from dalmuti_net.engine.cards import counts_of, playable_sets

ORDER = (0, 1, 2, 3, 4, 5)


def seat(
    hand: Sequence[int],
    played: Sequence[int] = (),
    viewer: int = 0,
    order: tuple[int, ...] = ORDER,
) -> Observation:
    """A seat's view mid-hand: the hidden cards spread evenly over the other players."""
    observation = Observation(viewer)
    observation.order = order
    observation.hand = counts_of(hand)
    observation.played = counts_of(played)
    others = [p for p in order if p != viewer]
    hidden = 80 - len(hand) - len(played)
    observation.counts = {viewer: len(hand)}
    for i, player in enumerate(others):
        observation.counts[player] = hidden // len(others) + (i < hidden % len(others))
    observation.scores = {p: 0 for p in order}
    return observation


def play(hand: Sequence[int], to_beat: CardSet | None = None, played: Sequence[int] = ()) -> Action:
    counts = counts_of(hand)
    decision = PlayDecision(tuple(playable_sets(counts, to_beat)), to_beat is not None, to_beat)
    action = HeuristicBot().choose(seat(hand, played), decision)
    if isinstance(action, Play):
        assert action.set in decision.sets
    else:
        assert isinstance(action, Pass) and decision.may_pass
    return action


# Leads.


def test_leads_its_worst_group() -> None:
    assert play([1, 5, 5, 9, 9, 9, 12]) == Play(CardSet(12, 1))


def test_keeps_a_lone_jester_while_it_holds_other_cards() -> None:
    assert play([3, 7, JESTER]) == Play(CardSet(7, 1))


def test_leads_a_lone_jester_when_that_is_all_it_has() -> None:
    assert play([JESTER]) == Play(CardSet(JESTER, 1, 1))


def test_goes_out_with_jesters_finishing_its_last_set() -> None:
    assert play([8, 8, JESTER]) == Play(CardSet(8, 3, 1))


def test_chains_an_unbeatable_set_before_its_last_one() -> None:
    # Nothing beats a lone 1: lead it, keep the lead, then lead the 12 and go out.
    assert play([1, 12]) == Play(CardSet(1, 1))


# Follows.


def test_dumps_a_whole_bad_group_on_a_trick() -> None:
    assert play([2, 6, 10], to_beat=CardSet(11, 1)) == Play(CardSet(10, 1))


def test_uses_a_jester_to_finish_a_set() -> None:
    assert play([2, 9, JESTER], to_beat=CardSet(10, 2)) == Play(CardSet(9, 2, 1))


def test_takes_the_lead_with_its_best_card_when_it_has_bad_sets_to_lead() -> None:
    assert play([1, 7, 7, 11, 11], to_beat=CardSet(10, 1)) == Play(CardSet(1, 1))


def test_passes_rather_than_break_a_valuable_set() -> None:
    # Four 5s are hard to beat; a pair of them would be an ordinary pair.
    assert play([5, 5, 5, 5, 11], to_beat=CardSet(8, 2)) == Pass()


def test_breaks_a_worthless_set_to_shed_cards() -> None:
    assert play([2, 11, 11, 11], to_beat=CardSet(12, 2)) == Play(CardSet(11, 2))


# Before play.


def test_a_greater_dalmuti_gives_lone_bad_cards_and_keeps_jesters_and_top_cards() -> None:
    hand = (1, 2, 2, 6, 6, 6, 10, 10, 11, 12, JESTER)
    assert sorted(tax_cards(TaxDecision(2, hand, 5))) == [11, 12]


def test_a_lesser_dalmuti_gives_one_awkward_card() -> None:
    hand = (1, 4, 4, 7, 7, 7, 9, 12, 12, JESTER)
    assert tax_cards(TaxDecision(1, hand, 4)) == (9,)


@given(st.lists(st.sampled_from(range(1, 14)), min_size=2, max_size=20), st.sampled_from([1, 2]))
def test_taxes_are_legal_and_spare_jesters_1s_and_2s_when_possible(
    cards: list[int], count: int
) -> None:
    hand = tuple(sorted(cards))
    given_cards = tax_cards(TaxDecision(count, hand, 5))
    assert len(given_cards) == count
    for card in set(given_cards):
        assert given_cards.count(card) <= hand.count(card)
    others = [card for card in hand if 2 < card < JESTER]
    if len(others) >= count:
        assert all(2 < card < JESTER for card in given_cards)


def test_a_greater_peon_always_declares_a_greater_revolution() -> None:
    view = seat([1, 2, 12, JESTER, JESTER], viewer=5)
    assert HeuristicBot().choose(view, RevolutionDecision(greater=True)) == DeclareRevolution(True)


def test_a_peon_or_merchant_declares_and_a_dalmuti_does_not() -> None:
    hand = [4, 8, 12, JESTER, JESTER]
    bot = HeuristicBot()
    assert bot.choose(seat(hand, viewer=4), RevolutionDecision(False)) == DeclareRevolution(True)
    assert bot.choose(seat(hand, viewer=2), RevolutionDecision(False)) == DeclareRevolution(True)
    assert bot.choose(seat(hand, viewer=0), RevolutionDecision(False)) == DeclareRevolution(False)
    assert bot.choose(seat(hand, viewer=1), RevolutionDecision(False)) == DeclareRevolution(False)


def test_the_top_merchant_trades_away_a_lone_bad_card() -> None:
    hand = [3, 5, 5, 8, 8, 12]
    view = seat(hand, viewer=2)
    view.scores[4] = 9
    decision = ExchangeDecision(merchants=(3, 4), cards=(3, 5, 8, 12))
    assert HeuristicBot().choose(view, decision) == MerchantExchange(4, 12)


def test_the_top_merchant_declines_without_a_lone_bad_card() -> None:
    hand = [3, 5, 5, 8, 8, 11, 11, JESTER]
    decision = ExchangeDecision(merchants=(3, 4), cards=(3, 5, 8, 11, JESTER))
    assert HeuristicBot().choose(seat(hand, viewer=2), decision) == MerchantExchange(None, None)


def test_misdeal_keeps_a_good_card_and_sends_a_bad_one_away() -> None:
    bot = HeuristicBot()
    view = Observation(0)
    view.order = ORDER
    good = bot.choose(view, MisdealDecision(card=2, intended=0, peon=5))
    bad = bot.choose(view, MisdealDecision(card=12, intended=0, peon=5))
    jester = bot.choose(view, MisdealDecision(card=JESTER, intended=3, peon=5))
    assert good == DecideMisdeal(MisdealChoice.INTENDED)
    assert bad == DecideMisdeal(MisdealChoice.PEON)
    # A Jester in the Greater Peon's hand could become a Greater Revolution.
    assert jester == DecideMisdeal(MisdealChoice.INTENDED)


def test_places_a_newcomer_at_a_legal_position() -> None:
    action = HeuristicBot().choose(seat([5], viewer=0), PlacementDecision(9, (2, 3, 4)))
    assert action == PlaceNewcomer(4)


def test_gives_tax_through_choose() -> None:
    view = seat([1, 1, 4, 9, 12], viewer=0)
    action = HeuristicBot().choose(view, TaxDecision(2, (1, 1, 4, 9, 12), 5))
    assert action == GiveTax((9, 12))
