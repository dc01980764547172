"""The client model's intents: each checked against what the client knows, an impossible
one explained in the viewer's language before anything is sent, and the request built once
for every front end (issue 39)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from dalmuti_net.client.model import intents as do
from dalmuti_net.client.model.client_model import ClientModel, KeptPreferences, Screen, Send, Wake
from dalmuti_net.client.session import ClientSession
from dalmuti_net.client.status import Status
from dalmuti_net.client.table_view import DepartedView
from dalmuti_net.engine import (
    CardSet,
    GiveTax,
    Observation,
    Pass,
    Play,
    PlayDecision,
    Rules,
    TaxDecision,
)
from dalmuti_net.engine.cards import counts_of
from dalmuti_net.lang.i18n import Translator
from tests.tables import seat, table_view

HAND = (3, 5, 5, 7, 9, 9, 9, 12, 13)


def model_at(
    phase: str = "playing", rules: Rules | None = None, language: str = "en"
) -> ClientModel:
    """Ana's model (player 0, the host player) at a table of four."""
    session = ClientSession("Ana")
    session.player, session.is_host = 0, True
    session.table = table_view(
        seat(0, "Ana", host=True),
        seat(1, "Bo"),
        *(seat(p, f"Bot{p}", kind="bot") for p in (2, 3)),
        phase=phase,
        rules=(rules or Rules(scoring=True)).to_dict(),
    )
    model = ClientModel(Translator(language), session, preferences=KeptPreferences(True))
    model.screen = Screen.TABLE
    return model


def owe(model: ClientModel, decision: Any, waiting: tuple[int, ...] = (0,)) -> list[Any]:
    session = model.session
    assert session is not None
    session.observation = Observation(
        0,
        hand_number=1,
        phase="play",
        order=(0, 1, 2, 3),
        counts={0: len(HAND), 1: 9, 2: 9, 3: 9},
        hand=counts_of(HAND),
        waiting=waiting,
    )
    session.decision = decision
    return model.on_message({"type": "heartbeat"})  # follows the decision owed


def sent(effects: list[Any]) -> list[dict[str, Any]]:
    return [effect.message for effect in effects if isinstance(effect, Send)]


def said(model: ClientModel) -> str | None:
    return None if model.notice is None else model.notice.text


def test_auto_pass_turned_off_in_its_pause_gives_the_decision_back() -> None:
    model = model_at()
    effects = owe(model, PlayDecision((), True, CardSet(1, 1)))  # nothing beats a Dalmuti
    assert effects == [Wake(1.2)] and model.choosing is None  # the pause runs
    assert model.intend(do.AutoPass(False)) == []
    assert model.choosing is not None and not model.answered  # the player's again
    assert model.wake() == []  # the pause ends: nothing is sent for them
    assert sent(model.intend(do.Answer(Pass()))) == [{"type": "pass"}]


def test_auto_pass_left_on_passes_after_its_pause() -> None:
    model = model_at()
    owe(model, PlayDecision((), True, CardSet(1, 1)))
    assert sent(model.wake()) == [{"type": "pass"}]
    assert model.wake() == []  # given once


@pytest.mark.parametrize("intent", [do.SetRule("hand_limit", None), do.TypeRule("hand_limit", "")])
def test_no_hand_limit_with_scoring_is_refused_before_anything_is_sent(intent: do.Intent) -> None:
    model = model_at("lobby")
    assert model.intend(intent) == []
    assert said(model) == "With scoring on, the table plays at least 1 hand."
    free = model_at("lobby", Rules(hand_limit=3))
    assert sent(free.intend(intent)) == [{"type": "set_rules", "rules": {"hand_limit": None}}]


def test_a_rule_value_out_of_range_is_explained_in_the_viewers_language() -> None:
    model = model_at("lobby", language="es")
    assert model.intend(do.TypeRule("misdeal_chance", "150")) == []
    assert said(model) == Translator("es")._("Type a whole number from {low} to {high}.").format(
        low=0, high=100
    )
    assert sent(model.intend(do.TypeRule("turn_timer", "45 s"))) == [
        {"type": "set_timing", "turn_timer_ms": 45_000}
    ]


def test_an_illegal_play_is_explained_and_a_legal_one_sent_with_its_decision() -> None:
    model = model_at()
    owe(model, PlayDecision((CardSet(3, 1, 0), CardSet(5, 1, 0)), True, CardSet(7, 1)))
    model.session.decision_id = 9  # type: ignore[union-attr]
    assert model.intend(do.Answer(Play(CardSet(9, 1, 0)))) == []
    assert said(model) == "Your rank must be better (lower) than 7 to beat it."
    assert model.intend(do.PickSet(1)) == [] and model.notice is None
    assert sent(model.intend(do.Commit())) == [
        {"type": "play", "set": {"rank": 5, "count": 1, "jesters": 0}, "decision_id": 9}
    ]
    assert model.intend(do.Commit()) == []
    assert said(model) == "Your answer is on its way."


def test_taxes_are_picked_and_dropped_card_by_card() -> None:
    model = model_at()
    owe(model, TaxDecision(2, HAND, 3))
    model.intend(do.PickCard(12))
    model.intend(do.PickCard(12))  # only one 12 held
    assert said(model) == "You have no more of that card."
    assert model.intend(do.Commit()) == []
    assert said(model) == "Choose exactly 2 cards to give; you have chosen 1."
    model.intend(do.PickCard(13))
    assert sent(model.intend(do.Commit())) == [{"type": "tax", "cards": [12, 13]}]
    other = model_at()
    owe(other, TaxDecision(2, HAND, 3))
    assert sent(other.intend(do.Answer(GiveTax((13, 3))))) == [{"type": "tax", "cards": [3, 13]}]


@pytest.mark.parametrize(
    ("language", "names"),
    [
        ("en", ["Heuristic bot", "Random bot", "Monte Carlo bot", "Learned bot"]),
        ("es", ["Bot astuto", "Bot aleatorio", "Bot Montecarlo", "Bot entrenado"]),
        ("zh_Hant", ["聰明機器人", "隨機機器人", "蒙地卡羅機器人", "學習型機器人"]),
    ],
)
def test_adding_a_bot_asks_which_of_every_strategy(language: str, names: list[str]) -> None:
    """The lobby offered the heuristic and random bots only: every front end now asks
    which, of every strategy the host knows, each named and said in the language."""
    model = model_at("lobby", language=language)
    assert model.intend(do.AddBot()) == [] and model.question is not None
    choices = model.question.choices
    assert [model.t._(choice.label) for choice in choices] == names
    sentences = [choice.sentence for choice in choices]
    assert all(text.startswith(name) for text, name in zip(sentences, names, strict=True))
    assert sent(model.intend(do.Choose(choices[2].action))) == [
        {"type": "add_bot", "strategy": "montecarlo"}
    ]
    assert model.question is None
    assert sent(model.intend(do.AddBot("learned"))) == [{"type": "add_bot", "strategy": "learned"}]


def test_what_only_the_host_player_may_do_is_said_so() -> None:
    model = model_at("lobby")
    model.session.is_host = False  # type: ignore[union-attr]
    for intent in (do.Start(), do.AddBot(), do.Kick(1), do.Nudge(), do.Rematch()):
        model.notice = None
        assert model.intend(intent) == []
        assert said(model) == "Only the host player may do that.", intent


def test_quitting_mid_game_asks_first_and_skip_asks_whom() -> None:
    model = model_at()
    model.status = Status.CONNECTED
    owe(model, None, waiting=(1,))
    assert model.intend(do.Exit()) == [] and model.question is not None
    assert [choice.action for choice in model.question.choices] == ["quit", "leave"]
    assert model.intend(do.Chat("hi")) == [] and said(model) == "Quit?"  # answer it first
    assert model.intend(do.Choose("back")) == [] and model.question is None
    assert model.intend(do.Skip()) == [] and model.question is not None
    assert model.question.title == "Skip Bo?"
    assert sent(model.intend(do.Choose("skip"))) == [{"type": "skip", "player": 1}]
    assert sent(model.intend(do.Nudge())) == [{"type": "nudge", "player": 1}]


@pytest.mark.parametrize("language", ["en", "es", "zh_Hant"])
def test_a_page_is_never_told_to_run_a_command(language: str) -> None:
    """Issue 40, finding 5: the phone's quit menu said "Quit this program... Run dalmuti join
    again". A page comes back by being opened again, and says so in its own words."""
    from dalmuti_net.client.model.errors import describe_goodbye

    model = model_at(language=language)
    model.in_a_page = True
    model.session.is_host = False  # type: ignore[union-attr]
    model.status = Status.CONNECTED
    owe(model, None, waiting=(1,))
    assert model.intend(do.Exit()) == [] and model.question is not None
    keep = model.question.choices[0]
    assert keep.action == "quit" and keep.label == "step away"
    page_words = [keep.sentence or "", model.how_to_return()]
    page_words.append(describe_goodbye(model.t, "shutting_down", in_a_page=True))
    for sentence in page_words:
        assert sentence and "dalmuti" not in sentence and "program" not in sentence, sentence
    # The terminal's words are unchanged where a command is what brings a player back.
    model.in_a_page = False
    assert "dalmuti join" in model.how_to_return()
    assert "dalmuti join" in describe_goodbye(Translator("en"), "shutting_down")


def test_a_placement_owed_at_a_hand_end_comes_before_its_results() -> None:
    """Found in an evening: a late arrival's placement, owed by the Greater Dalmuti as a
    hand ended, was hidden behind that hand's results on every front end, and the table
    waited for it. A decision owed comes first; the results come back once answered."""
    from dalmuti_net.client.model.display import display
    from dalmuti_net.engine import PlacementDecision
    from dalmuti_net.engine.events import HandEnded

    model = model_at()
    model.status = Status.CONNECTED
    owe(model, None, waiting=())
    model.results = HandEnded(1, (0, 1, 2, 3), (0, 0, 0, 0), (0, 0, 0, 0), (0, 0, 0, 0))
    session = model.session
    assert session is not None and session.observation is not None
    session.observation.phase = "hand_over"
    shown = display(model)
    assert shown.table is not None and shown.table.results is not None
    assert "close_results" in shown.can
    owe(model, PlacementDecision(newcomer=4, positions=(1, 2, 3, 4)), waiting=(0,))
    session.observation.phase = "hand_over"
    shown = display(model)
    assert shown.table is not None and shown.table.results is None
    assert shown.table.turn == "Your turn!" and shown.table.decision is not None
    assert "close_results" not in shown.can


def test_a_player_removed_before_the_next_deal_has_no_next_role() -> None:
    """Found in an evening: after a placement at a hand's end the host had removed Bo, who
    had left, from the seating, and the results on screen gave him the next hand's crown."""
    from dalmuti_net.client.model.display import display
    from dalmuti_net.engine.events import HandEnded

    model = model_at()
    model.status = Status.CONNECTED
    owe(model, None, waiting=())
    session = model.session
    assert session is not None and session.observation is not None and session.table
    session.table = replace(
        session.table,
        players=tuple(p for p in session.table.players if p.player != 1),
        departed=(DepartedView(1, "Bo", "human", 4, 1),),
    )
    model.results = HandEnded(1, (1, 0, 2, 3), (4, 2, 1, 0), (0, 0, 0, 0), (4, 2, 1, 0))
    session.observation.phase = "hand_over"
    shown = display(model)
    assert shown.table is not None and shown.table.results is not None
    roles = {row.cells[1]: row.cells[2] for row in shown.table.results.rows}
    assert roles["Bo"] == "left" and roles["Ana (you)"] == "Greater Dalmuti", roles
