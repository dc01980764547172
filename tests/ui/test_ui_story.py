"""The trick as a story, the hand's results, the cards played, and "you" in every language."""

from __future__ import annotations

import pytest
from test_ui_screens import answer
from ui_support import LocalTable, draw

from dalmuti_net.client.model.choosers import PlayChooser
from dalmuti_net.client.model.departures import hand_over_sentence, moved_up_sentence
from dalmuti_net.client.model.story import TrickStep, TrickStory, describe_event
from dalmuti_net.engine import CardSet, Rules
from dalmuti_net.engine import events as ev
from dalmuti_net.lang.i18n import LANGUAGES, Translator

NAMES = {1: "Ana (you)", 2: "Bo", 3: "Cy"}


def name(player: int) -> str:
    return NAMES[player]


def name_of(player: int) -> str:
    return ["Ana", "Bo", "Cy", "Di"][player - 1]


@pytest.mark.parametrize(
    ("language", "mine", "theirs"),
    [
        ("en", "You win the trick; you lead.", "Bo wins the trick; you lead."),
        ("zh_Hant", "你贏得這一輪；由你先出。", "Bo 贏得這一輪；由你先出。"),
        ("es", "Ganas la baza; abres tú.", "Bo gana la baza; abres tú."),
    ],
)
def test_you_are_told_in_the_second_person(language: str, mine: str, theirs: str) -> None:
    t = Translator(language)
    assert describe_event(t, ev.TrickWon(1, 1), name, 1) == mine
    assert describe_event(t, ev.TrickWon(2, 1), name, 1) == theirs
    for event in (ev.Played(1, CardSet(9, 2), 3), ev.Passed(1), ev.WentOut(1, 1)):
        told = describe_event(t, event, name, 1)
        assert told is not None and "Ana" not in told


def test_a_revolution_says_no_taxes_once() -> None:
    t = Translator("en")
    assert describe_event(t, ev.RevolutionDeclared(2, False), name, 1) == (
        "Bo declares a revolution: no taxes this hand."
    )
    assert describe_event(t, ev.TaxesSkipped("revolution"), name, 1) is None
    assert describe_event(t, ev.TaxesSkipped("first_deal"), name, 1) == (
        "No taxes in the first hand."
    )


def test_seating_draw_ties_are_explained() -> None:
    t = Translator("en")
    first = describe_event(t, ev.SeatingDraw(1, ((1, 5), (2, 5), (3, 9))), name, 1)
    assert first is not None and "the lowest" in first
    again = describe_event(t, ev.SeatingDraw(2, ((1, 3), (2, 8))), name, 1)
    assert again == (
        "A tie: Ana (you) and Bo drew the same card, so they draw again: "
        "Ana (you): 3 Earl Marshal, Bo: 8 Mason."
    )


@pytest.mark.parametrize(
    ("language", "names", "said"),
    [
        ("en", ["Ana"], "Ana"),
        ("en", ["Ana", "Bo"], "Ana and Bo"),
        ("en", ["Ana", "Bo", "Cy"], "Ana, Bo and Cy"),
        ("es", ["Ana", "Bo", "Cy"], "Ana, Bo y Cy"),
        # Spanish says "e" before the sound of i: "Ana e Inés", "Bo e Hilda", not "Hielo".
        ("es", ["Ana", "Inés"], "Ana e Inés"),
        ("es", ["Bo", "Hilda"], "Bo e Hilda"),
        ("es", ["Bo", "Hielo"], "Bo y Hielo"),
        ("zh_Hant", ["阿明", "Bo", "Cy"], "阿明、Bo、Cy"),
    ],
)
def test_names_in_a_sentence_end_with_and(language: str, names: list[str], said: str) -> None:
    assert Translator(language).conjoined(names) == said


def test_tied_players_are_named_with_and_in_spanish() -> None:
    told = describe_event(Translator("es"), ev.SeatingDraw(2, ((2, 3), (3, 8))), name, 1)
    assert told is not None and told.startswith("Empate: Bo y Cy sacaron la misma carta")


def test_the_trick_story_keeps_the_last_trick_until_the_next_lead() -> None:
    story = TrickStory()
    story.feed(ev.Played(2, CardSet(9, 2), 5))
    story.feed(ev.Passed(3))
    story.feed(ev.Played(1, CardSet(4, 2), 3))
    assert story.steps == [
        TrickStep(2, CardSet(9, 2)),
        TrickStep(3, None),
        TrickStep(1, CardSet(4, 2)),
    ]
    story.feed(ev.Passed(2))
    story.feed(ev.TrickWon(1, 1))
    assert story.steps == [] and len(story.last) == 4 and story.last_winner == 1
    story.feed(ev.Played(1, CardSet(12, 1), 2))
    assert story.last == [] and story.steps == [TrickStep(1, CardSet(12, 1))]


def _to_hand_end(table: LocalTable) -> None:
    for _ in range(500):
        observation = table.session.observation
        assert observation is not None
        if observation.phase == "hand_over":
            return
        answer(table)
    raise AssertionError("the hand did not end")


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_the_screen_tells_the_trick_and_the_results(language: str) -> None:
    table = LocalTable(Rules(scoring=True), language=language, seed=11)
    t = table.ui.t
    table.start()
    seen_story = False
    for _ in range(500):
        observation = table.session.observation
        assert observation is not None
        if observation.phase == "hand_over":
            break
        screen = draw(table.ui)
        for step in table.ui.model.trick_story.steps[-1:]:
            if step.set is not None and step.player != table.ui.model.me:
                assert table.ui.model.seat_name(step.player) in screen
                seen_story = True
        answer(table)
    assert seen_story
    screen = draw(table.ui)
    assert t._("Hand {hand} is over").format(hand=1) in screen
    assert t._("Next hand") in screen and t._("Total") in screen
    for player in table.session.observation.order:  # type: ignore[union-attr]
        assert table.ui.model.name_of(player)[:10] in screen
    table.ui.press("x")  # any key goes back to the table
    assert t._("Next hand") not in draw(table.ui)


def test_the_cards_played_are_a_key_away_at_80x24_and_always_on_a_big_screen() -> None:
    table = LocalTable(seed=2)
    table.start()
    answer(table)
    title = "Cards played so far"
    assert title not in draw(table.ui, 80, 24)
    assert title in draw(table.ui, 80, 40) and title in draw(table.ui, 120, 30)
    assert "m cards played" in draw(table.ui, 80, 24)
    assert "m cards played" not in draw(table.ui, 120, 30)
    table.ui.press("m")
    screen = draw(table.ui, 80, 24)
    assert title in screen
    observation = table.session.observation
    assert observation is not None
    played = next(line for line in screen.splitlines() if line.startswith("Played"))
    assert [int(n) for n in played.split()[1:]] == [observation.played[c] for c in range(1, 14)]


def test_an_explanation_goes_when_the_choice_changes() -> None:
    table = LocalTable(seed=4)
    table.start()
    for _ in range(200):
        chooser = table.ui.model.chooser
        if isinstance(chooser, PlayChooser) and chooser.decision.to_beat is not None:
            card = chooser.cursor_card
            if card is not None and chooser.hand[card] > chooser.decision.to_beat.count:
                break
        answer(table)
    table.press("up", "enter")  # too many cards for the set to beat
    assert table.ui.model.notice is not None
    problem = table.ui.model.notice.text
    assert problem in draw(table.ui)
    table.press("down")
    assert problem not in draw(table.ui)


def test_those_who_left_and_moved_up_are_named_with_and() -> None:
    t = Translator("en")
    over = hand_over_sentence(t, 5, [1, 2, 3, 4], [3, 4], name_of)
    assert over == "Hand 5 is over. Next seating: Ana, Bo (Cy and Di left the table)."
    assert moved_up_sentence(t, "Ana", ["Bo", "Cy"]) == (
        "Ana has left the table, so Bo and Cy move up one place."
    )
