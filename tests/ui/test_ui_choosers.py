"""The decision choosers: keys to actions, and illegal choices explained before sending."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from dalmuti_net.client.model.choosers import (
    IGNORED,
    Chooser,
    ExchangeChooser,
    MisdealChooser,
    Names,
    PlacementChooser,
    PlayChooser,
    Result,
    RevolutionChooser,
    TaxChooser,
)
from dalmuti_net.client.ui.choosers import chooser_hints, key_intent
from dalmuti_net.engine import (
    JESTER,
    CardSet,
    DecideMisdeal,
    DeclareRevolution,
    ExchangeDecision,
    GiveTax,
    MerchantExchange,
    MisdealChoice,
    MisdealDecision,
    Pass,
    PlacementDecision,
    PlaceNewcomer,
    Play,
    PlayDecision,
    RevolutionDecision,
    TaxDecision,
)
from dalmuti_net.engine.cards import counts_of, playable_sets
from dalmuti_net.lang.i18n import Translator

EN = Translator("en")


def press(chooser: Chooser, key: str) -> Result:
    """A key of the terminal, as the intent it means to the chooser."""
    intent = key_intent(chooser, key)
    return IGNORED if intent is None else chooser.apply(intent)


NAMES = Names({1: "Ana", 2: "Bo", 3: "Cy", 4: "Di", 5: "Ed", 6: "Flo"})


def play_decision(
    hand: tuple[int, ...], to_beat: CardSet | None
) -> tuple[PlayDecision, PlayChooser]:
    counts = counts_of(hand)
    decision = PlayDecision(tuple(playable_sets(counts, to_beat)), to_beat is not None, to_beat)
    return decision, PlayChooser(decision, counts)


def problem_text(chooser: PlayChooser | TaxChooser, key: str) -> str:
    result = press(chooser, key)
    assert result.action is None and result.problem is not None
    return result.problem.show(EN)


# ----------------------------------------------------------------------------- play (rule 9)


def test_lead_offers_all_of_the_worst_rank_and_keeps_the_jesters() -> None:
    _, chooser = play_decision((2, 7, 7, 9, 9, 9, JESTER), None)
    assert chooser.current() == CardSet(9, 3, 0)
    assert press(chooser, "enter").action == Play(CardSet(9, 3, 0))


def test_leader_may_not_pass() -> None:
    _, chooser = play_decision((2, 7), None)
    assert "must play" in problem_text(chooser, "p")


def test_follow_sizes_the_set_to_the_set_to_beat() -> None:
    _, chooser = play_decision((3, 3, 3, 5, 5, 8), CardSet(6, 2))
    assert chooser.current() == CardSet(5, 2, 0)
    press(chooser, "left")
    assert chooser.current() == CardSet(3, 2, 0)
    assert press(chooser, "enter").action == Play(CardSet(3, 2, 0))
    assert press(chooser, "p").action == Pass()


def test_follow_adds_jesters_when_a_rank_is_short() -> None:
    _, chooser = play_decision((4, 8, 8, JESTER), CardSet(9, 3))
    press(chooser, "left")  # 4: one natural card, two short, but only one Jester held
    assert chooser.current() == CardSet(4, 1, 0)
    press(chooser, "right")  # 8: two natural cards, one Jester makes three
    assert chooser.current() == CardSet(8, 3, 1)
    assert press(chooser, "enter").action == Play(CardSet(8, 3, 1))


def test_wrong_size_is_explained() -> None:
    _, chooser = play_decision((3, 3, 3, 5), CardSet(6, 2))
    assert chooser.current() == CardSet(3, 2, 0)
    press(chooser, "up")  # three 3s on a pair
    assert problem_text(chooser, "enter") == "The set to beat has 2 cards; yours has 3."


def test_not_better_is_explained() -> None:
    _, chooser = play_decision((3, 3, 9, 9), CardSet(6, 2))
    press(chooser, "right")  # two 9s do not beat two 6s
    assert chooser.current() == CardSet(9, 2, 0)
    assert problem_text(chooser, "enter") == "Your rank must be better (lower) than 6 to beat it."


def test_two_jesters_never_follow_rule_2() -> None:
    _, chooser = play_decision((2, JESTER, JESTER), CardSet(12, 2))
    while chooser.cursor_card != JESTER:
        press(chooser, "right")
    assert chooser.current() == CardSet(JESTER, 2, 2)
    assert "never beat" in problem_text(chooser, "enter")


def test_nothing_beats_the_table_says_pass() -> None:
    decision, chooser = play_decision((9, 10), CardSet(2, 1))
    assert decision.sets == ()
    assert "pass" in chooser.prompt(EN, NAMES)
    assert problem_text(chooser, "enter") == "You have no set that beats the table: pass."


def test_j_cycles_the_jesters_added() -> None:
    _, chooser = play_decision((5, 5, JESTER, JESTER), None)
    assert chooser.cursor_card == 5
    seen = []
    for _ in range(3):
        press(chooser, "j")
        seen.append(chooser.current())
    assert seen == [CardSet(5, 3, 1), CardSet(5, 4, 2), CardSet(5, 2, 0)]


def test_tab_visits_every_legal_set_in_order() -> None:
    decision, chooser = play_decision((1, 4, 4, 6, JESTER), CardSet(7, 2))
    visited = set()
    for _ in range(len(decision.sets)):
        press(chooser, "tab")
        visited.add(chooser.current())
    assert visited == set(decision.sets)


KEYS = st.sampled_from(["left", "right", "up", "down", "j", "tab", "s-tab", "enter", "p", "x"])
HANDS = st.lists(st.sampled_from(range(1, 14)), min_size=1, max_size=20).map(
    lambda cards: tuple(
        sorted(c for i, c in enumerate(cards) if c != JESTER or cards[:i].count(JESTER) < 2)
    )
)
TO_BEAT = st.none() | st.builds(CardSet, st.integers(2, 12), st.integers(1, 4))


@given(HANDS, TO_BEAT, st.lists(KEYS, max_size=30))
def test_any_keys_send_only_legal_plays_or_explain(
    hand: tuple[int, ...], to_beat: CardSet | None, keys: list[str]
) -> None:
    decision, chooser = play_decision(hand, to_beat)
    for key in keys:
        result = press(chooser, key)
        if result.action is not None:
            assert (result.action == Pass() and decision.may_pass) or (
                isinstance(result.action, Play) and result.action.set in decision.sets
            )
        if result.problem is not None:
            assert result.problem.show(EN)
        if key == "enter" and result.action is None:
            assert result.problem is not None


# ----------------------------------------------------------------------------- taxes (rule 8)


def test_tax_picks_exactly_the_count() -> None:
    chooser = TaxChooser(TaxDecision(2, (1, 5, 5, 12), receiver=4))
    assert chooser.prompt(EN, NAMES) == "Taxes: give 2 cards of your choice to Di."
    assert problem_text(chooser, "enter") == ("Choose exactly 2 cards to give; you have chosen 0.")
    assert chooser.cursor_card == 12  # what a Dalmuti would likely give
    press(chooser, "left")
    press(chooser, "up")
    press(chooser, "space")
    assert chooser.picked() == {5: 2}
    assert "already chosen enough" in problem_text(chooser, "up")
    press(chooser, "down")
    press(chooser, "right")
    press(chooser, "up")
    assert chooser.selection(EN, NAMES) == "To give: Abbess ×1, Peasant ×1 (2 of 2)"
    assert press(chooser, "enter").action == GiveTax((5, 12))


def test_tax_cannot_give_more_of_a_card_than_held() -> None:
    chooser = TaxChooser(TaxDecision(2, (1, 5, 5, 12), receiver=4))
    press(chooser, "up")
    assert problem_text(chooser, "up") == "You have no more of that card."


# ----------------------------------------------------------------------------- other decisions


def test_revolution_yes_or_no_rule_7() -> None:
    chooser = RevolutionChooser(RevolutionDecision(greater=True))
    assert "Greater Revolution" in chooser.prompt(EN, NAMES)
    assert press(chooser, "y").action == DeclareRevolution(True)
    assert press(chooser, "n").action == DeclareRevolution(False)
    assert not press(chooser, "enter").handled


def test_misdeal_intended_or_peon_rule_18() -> None:
    chooser = MisdealChooser(MisdealDecision(card=3, intended=2, peon=4))
    prompt = chooser.prompt(EN, NAMES)
    assert "3 Earl Marshal" in prompt and "Bo" in prompt and "Di" in prompt
    assert press(chooser, "i").action == DecideMisdeal(MisdealChoice.INTENDED)
    assert press(chooser, "p").action == DecideMisdeal(MisdealChoice.PEON)


def test_merchant_exchange_choose_or_decline_rule_17() -> None:
    chooser = ExchangeChooser(ExchangeDecision(merchants=(4, 5), cards=(2, 7, 11)), None)
    assert chooser.cursor_card == 11
    press(chooser, "down")
    press(chooser, "left")
    assert chooser.selection(EN, NAMES) == "Give 7 Seamstress to Ed"
    assert press(chooser, "enter").action == MerchantExchange(5, 7)
    assert press(chooser, "d").action == MerchantExchange(None, None)


def test_merchant_exchange_shows_the_hand_as_held() -> None:
    hand = counts_of((2, 7, 7, 7, 11, 11, 13))
    chooser = ExchangeChooser(ExchangeDecision(merchants=(4,), cards=(2, 7, 11, 13)), hand)
    assert chooser.groups() == [(2, 1), (7, 3), (11, 2), (13, 1)]
    assert chooser.cursor_card == 11 and chooser.picked() == {11: 1}


def test_tax_cursor_starts_on_the_jesters_when_nothing_else_is_held() -> None:
    assert TaxChooser(TaxDecision(2, (13, 13), receiver=4)).cursor_card == 13


def test_placement_previews_the_seating_rule_12() -> None:
    chooser = PlacementChooser(PlacementDecision(newcomer=6, positions=(2, 3, 4)), (1, 2, 3, 4, 5))
    assert chooser.preview() == (1, 2, 6, 3, 4, 5)
    press(chooser, "right")
    assert chooser.selection(EN, NAMES) == "Seating: Ana › Bo › Cy › [Flo] › Di › Ed"
    assert press(chooser, "enter").action == PlaceNewcomer(3)
    press(chooser, "left")
    press(chooser, "left")
    assert chooser.position == 4  # wraps around


def test_tab_offers_whole_sets_without_jesters_first() -> None:
    # Four Seamstresses, three Cooks, a Jester; a pair of Peasants to beat.
    decision, chooser = play_decision((7, 7, 7, 7, 9, 9, 9, JESTER), CardSet(12, 3))
    assert chooser.current() == CardSet(9, 3)  # all the Cooks: nothing split or wasted
    offered = [chooser.current()]
    for _ in range(len(decision.sets) - 1):
        press(chooser, "tab")
        offered.append(chooser.current())
    assert set(offered) == set(decision.sets)
    assert offered[1] == CardSet(7, 3)  # part of the Seamstresses, still no Jester
    assert all(s.jesters for s in offered[2:])


def test_no_hint_for_a_key_that_does_nothing() -> None:
    _, chooser = play_decision((7, 7, 9), CardSet(12, 1))
    keys = [hint.keys for hint in chooser_hints(chooser)]
    assert "j" not in keys  # no Jester to add
    _, chooser = play_decision((7, 9, JESTER), CardSet(12, 1))
    assert "j" in [hint.keys for hint in chooser_hints(chooser)]
    _, chooser = play_decision((9, 10), CardSet(3, 1))  # nothing beats an Earl Marshal
    assert [hint.keys for hint in chooser_hints(chooser)] == ["p"]
    assert chooser.selection(EN, NAMES) == "" and chooser.picked() == {}


def test_a_single_card_to_beat_is_worded_as_one() -> None:
    _, chooser = play_decision((9, 9, 10), CardSet(12, 1))
    press(chooser, "left")  # the Cooks, sized to one
    press(chooser, "up")
    assert problem_text(chooser, "enter") == "The set to beat is a single card; yours has 2."
