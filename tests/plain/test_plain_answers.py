"""The plain table's questions: each decision kind numbered from its legal answers, and
typed numbers and short words turned into exactly those answers."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from dalmuti_net.client.model.choosers import Names
from dalmuti_net.client.plain.answers import (
    HOW_TO_ANSWER,
    HOW_TO_CONFIRM,
    Question,
    how_to_answer,
)
from dalmuti_net.client.sdk import is_legal, legal_actions
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
from dalmuti_net.lang.text import tidy

EN = Translator("en")
ZH = Translator("zh_Hant")
ES = Translator("es")
NAMES = Names({1: "Ana", 2: "Bo", 3: "Cy", 4: "Di", 5: "Ed", 6: "Flo"})


def play_question(hand: tuple[int, ...], to_beat: CardSet | None, t: Translator = EN) -> Question:
    counts = counts_of(hand)
    decision = PlayDecision(tuple(playable_sets(counts, to_beat)), to_beat is not None, to_beat)
    return Question(t, decision, NAMES, hand=counts)


# ----------------------------------------------------------------------------- play


def test_a_follow_lists_pass_first_then_every_legal_set_in_words() -> None:
    question = play_question((2, 7, 7, 9, 9, JESTER), CardSet(10, 2, 0))
    lines = question.lines()
    assert lines[0] == "Beat Shepherdess ×2 with 2 better cards, or pass."
    assert lines[1] == "1. pass"
    labels = [line.split(". ", 1)[1] for line in lines[1:-1]]
    assert labels == ["pass"] + [
        f"{s.rank} {EN.card(s.rank)} ×{s.count}" + (f" ({s.jesters} Jester)" if s.jesters else "")
        for s in question.decision.sets  # type: ignore[union-attr]
    ]
    assert "7 Seamstress ×2" in labels and "2 Archbishop ×2 (1 Jester)" in labels
    assert lines[-1] == f"Type a number from 1 to {len(labels)}, or help."


def test_numbers_and_the_pass_word_answer_a_play() -> None:
    question = play_question((2, 7, 7, 9, 9, JESTER), CardSet(10, 2, 0))
    assert question.answer("1").action == Pass()
    assert question.answer("pass").action == Pass()
    assert question.answer("P").action == Pass()
    second = question.answer("2").action
    assert second == legal_actions(question.decision)[1]
    assert isinstance(second, Play)


def test_a_lead_has_no_pass_and_refuses_the_word() -> None:
    question = play_question((5, 5, 12), None)
    assert question.lines()[0] == "Your lead: play any set."
    assert all(isinstance(option.action, Play) for option in question.options())
    outcome = question.answer("pass")
    assert outcome.action is None
    assert outcome.problem == "Type a number from 1 to 3, or help."


def test_out_of_range_and_nonsense_are_explained_not_sent() -> None:
    question = play_question((5, 5, 12), CardSet(8, 1, 0))
    for text in ("0", "99", "fold", "", "1 2"):
        outcome = question.answer(text)
        assert outcome.action is None and outcome.problem is not None


def test_the_translated_pass_word_works_beside_the_english_one() -> None:
    question = play_question((5, 12), CardSet(8, 1, 0), ES)
    assert question.options()[0].label == ES._("pass")
    assert question.answer(ES._("pass|p").split("|")[0]).action == Pass()
    assert question.answer("pass").action == Pass()


@given(
    st.lists(st.integers(1, 12), min_size=1, max_size=16),
    st.integers(0, 2),
    st.one_of(st.none(), st.builds(CardSet, st.integers(2, 12), st.integers(1, 3), st.just(0))),
)
def test_every_number_answers_with_a_legal_action(
    hand: list[int], jesters: int, to_beat: CardSet | None
) -> None:
    question = play_question(tuple(sorted(hand)) + (JESTER,) * jesters, to_beat)
    options = question.options()
    assert len(options) == len(legal_actions(question.decision))
    for number in range(1, len(options) + 1):
        action = question.answer(str(number)).action
        assert action is not None and is_legal(question.decision, action)


# ----------------------------------------------------------------------------- taxes


def test_taxes_are_picked_one_card_at_a_time_from_the_legal_gifts() -> None:
    decision = TaxDecision(2, (1, 3, 3, 9, JESTER), receiver=4)
    question = Question(EN, decision, NAMES)
    lines = question.lines()
    assert lines[0] == (
        "Taxes: give 2 cards of your choice to Di. To give: nothing yet (0 of 2). "
        "Choose card 1 of 2."
    )
    assert lines[1:5] == [
        "1. 1 Dalmuti (you hold 1)",
        "2. 3 Earl Marshal (you hold 2)",
        "3. 9 Cook (you hold 1)",
        "4. Jester (you hold 1)",
    ]
    assert question.answer("2").stepped
    lines = question.lines()
    assert "To give: Earl Marshal ×1 (1 of 2)" in lines[0]
    assert "2. 3 Earl Marshal (you hold 1)" in lines
    assert lines[-1] == "Type a number from 1 to 4, back to choose again, or help."
    outcome = question.answer("3")
    assert outcome.action == GiveTax((3, 9))


def test_the_tax_prompts_step_is_a_sentence_of_its_own_in_every_language() -> None:
    decision = TaxDecision(2, (1, 3, 3, 9, JESTER), receiver=4)
    zh = tidy(Question(ZH, decision, NAMES).lines()[0])  # as the narrator says it
    assert zh.endswith("要給：尚未選擇（0／2）。請選第 1 張，共 2 張。")
    es = Question(ES, decision, NAMES).lines()[0]
    assert es.endswith("Para dar: nada todavía (0 de 2). Elige la carta 1 de 2.")


def test_a_tax_can_be_answered_in_one_line_and_taken_back() -> None:
    decision = TaxDecision(2, (1, 3, 3, 9), receiver=4)
    question = Question(EN, decision, NAMES)
    assert question.answer("2 2").action == GiveTax((3, 3))
    question = Question(EN, decision, NAMES)
    assert question.answer("1").stepped
    assert question.answer("back").stepped
    assert question.picked == []
    assert question.answer("3 1").action == GiveTax((1, 9))


def test_a_bad_number_in_a_tax_line_leaves_the_picks_alone() -> None:
    question = Question(EN, TaxDecision(2, (1, 3, 9), receiver=4), NAMES)
    outcome = question.answer("1 7")
    assert outcome.problem is not None and question.picked == []


# ----------------------------------------------------------------------------- the others


def test_revolution_answers_by_number_or_yes_and_no() -> None:
    question = Question(EN, RevolutionDecision(greater=False), NAMES)
    assert [o.label for o in question.options()] == ["do not declare", "declare"]
    assert question.answer("2").action == DeclareRevolution(True)
    assert question.answer("yes").action == DeclareRevolution(True)
    assert question.answer("n").action == DeclareRevolution(False)
    zh = Question(ZH, RevolutionDecision(greater=True), NAMES)
    assert zh.answer(ZH._("yes|y").split("|")[0]).action == DeclareRevolution(True)


def test_misdeal_names_both_receivers() -> None:
    question = Question(EN, MisdealDecision(card=7, intended=2, peon=4), NAMES)
    labels = [o.label for o in question.options()]
    assert labels == ["to the intended player, Bo", "to the Greater Peon, Di"]
    assert question.answer("peon").action == DecideMisdeal(MisdealChoice.PEON)
    assert question.answer("1").action == DecideMisdeal(MisdealChoice.INTENDED)
    assert "7 Seamstress" in question.prompt()


def test_the_exchange_asks_for_the_merchant_then_the_card() -> None:
    decision = ExchangeDecision(merchants=(3, 5), cards=(4, 8, 8))
    question = Question(EN, decision, NAMES)
    assert [o.label for o in question.options()] == [
        "decline",
        "exchange with Cy",
        "exchange with Ed",
    ]
    assert question.answer("decline").action == MerchantExchange(None, None)
    assert question.answer("3").stepped
    assert question.prompt() == "Which card do you give Ed?"
    assert [o.label for o in question.options()] == ["4 Baroness", "8 Mason"]
    assert question.answer("2").action == MerchantExchange(5, 8)
    assert Question(EN, decision, NAMES).answer("2 1").action == MerchantExchange(3, 4)


def test_placement_says_between_whom_each_seat_is() -> None:
    decision = PlacementDecision(newcomer=6, positions=(2, 3, 4))
    question = Question(EN, decision, NAMES, order=(1, 2, 3, 4, 6))
    assert [o.label for o in question.options()] == [
        "between Bo and Cy",
        "between Cy and Di",
        "last, after Di",
    ]
    assert question.answer("2").action == PlaceNewcomer(3)


def test_every_kind_of_question_is_worded_in_each_language() -> None:
    decisions = [
        PlayDecision((CardSet(3, 1, 0),), True, CardSet(5, 1, 0)),
        TaxDecision(1, (2, 5), receiver=3),
        RevolutionDecision(greater=True),
        MisdealDecision(card=1, intended=2, peon=3),
        ExchangeDecision(merchants=(4,), cards=(6,)),
        PlacementDecision(newcomer=6, positions=(2,)),
    ]
    for t in (ZH, ES):
        for decision in decisions:
            english = Question(EN, decision, NAMES, order=(1, 2, 3, 4, 6)).lines()
            translated = Question(t, decision, NAMES, order=(1, 2, 3, 4, 6)).lines()
            assert len(translated) == len(english)
            assert translated[0] != english[0] and translated[-1] != english[-1]


def test_a_list_of_one_says_type_1_not_from_1_to_1() -> None:
    assert how_to_answer(EN, HOW_TO_ANSWER, 1) == "Type 1, or help."
    assert how_to_answer(EN, HOW_TO_ANSWER, 3) == "Type a number from 1 to 3, or help."
    assert how_to_answer(ZH, HOW_TO_CONFIRM, 1, back="返回") == "請輸入 1，或輸入「返回」返回。"
    assert how_to_answer(ES, HOW_TO_CONFIRM, 1, back="atrás") == "Escribe 1, o atrás para volver."
