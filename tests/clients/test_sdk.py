"""The bot SDK (`dalmuti_net.client`): legal answers, and whole games at a real host, found
by address and by discovery on the loopback interface."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from host_process import assert_full_game, running_host

from dalmuti_net.bots import HeuristicBot
from dalmuti_net.client import (
    Action,
    CardSet,
    Decision,
    DeclareRevolution,
    ExchangeDecision,
    GiveTax,
    IllegalAnswer,
    MerchantExchange,
    Observation,
    Pass,
    PlacementDecision,
    PlaceNewcomer,
    Play,
    PlayDecision,
    RevolutionDecision,
    RulesView,
    TableView,
    TaxDecision,
    as_strategy,
    is_legal,
    legal_actions,
    play_bot,
    run_bot,
)
from dalmuti_net.engine import Game, Phase, Rules

# ---------------------------------------------------------------------- legal answers


def test_every_answer_legal_actions_offers_is_accepted_by_the_engine() -> None:
    rules = Rules.all_optional(misdeal_chance=0.5)
    rng = random.Random(3)
    kinds: set[str] = set()
    for seed in range(6):
        game = Game(list(range(6)), rules, seed)
        game.start()
        while game.phase is not Phase.ENDED:
            if game.phase is Phase.HAND_OVER:
                game.begin_next_hand()
                continue
            player, decision = next(iter(game.pending().items()))
            answers = legal_actions(decision)
            assert answers and all(is_legal(decision, answer) for answer in answers)
            kinds.add(type(decision).__name__)
            game.apply(player, rng.choice(answers))  # raises IllegalAction if it is not
    assert kinds >= {"PlayDecision", "TaxDecision", "ExchangeDecision", "MisdealDecision"}


def test_legal_actions_lists_passing_first_then_every_set() -> None:
    sets = (CardSet(3, 2), CardSet(5, 2, 1))
    follow = PlayDecision(sets, may_pass=True, to_beat=CardSet(7, 2))
    assert legal_actions(follow) == [Pass(), Play(sets[0]), Play(sets[1])]
    lead = PlayDecision(sets, may_pass=False, to_beat=None)
    assert legal_actions(lead) == [Play(sets[0]), Play(sets[1])]
    tax = TaxDecision(count=2, hand=(1, 4, 4, 13), receiver=3)
    assert legal_actions(tax) == [
        GiveTax(cards)
        for cards in [(1, 4), (1, 13), (4, 4), (4, 13)]  # each distinct choice once
    ]
    assert legal_actions(PlacementDecision(newcomer=7, positions=(2, 3))) == [
        PlaceNewcomer(2),
        PlaceNewcomer(3),
    ]


@pytest.mark.parametrize(
    ("decision", "action"),
    [
        (PlayDecision((CardSet(3, 1),), may_pass=False, to_beat=None), Pass()),
        (PlayDecision((CardSet(3, 1),), may_pass=True, to_beat=CardSet(4, 1)), Play(CardSet(2, 1))),
        (PlayDecision((CardSet(3, 1),), may_pass=True, to_beat=CardSet(4, 1)), GiveTax((3,))),
        (TaxDecision(count=2, hand=(1, 4, 9), receiver=3), GiveTax((9,))),
        (TaxDecision(count=2, hand=(1, 4, 9), receiver=3), GiveTax((9, 9))),
        (TaxDecision(count=1, hand=(1, 4, 9), receiver=3), GiveTax((0,))),
        (ExchangeDecision(merchants=(4,), cards=(6, 9)), MerchantExchange(5, 9)),
        (ExchangeDecision(merchants=(4,), cards=(6, 9)), MerchantExchange(4, 7)),
        (ExchangeDecision(merchants=(4,), cards=(6, 9)), MerchantExchange(4, None)),
        (RevolutionDecision(greater=False), DeclareRevolution(1)),  # type: ignore[arg-type]
        (PlacementDecision(newcomer=7, positions=(2, 3)), PlaceNewcomer(4)),
    ],
)
def test_is_legal_refuses_what_the_host_would_refuse(decision: Decision, action: Action) -> None:
    assert not is_legal(decision, action)


def test_as_strategy_takes_functions_objects_and_names() -> None:
    def shed(observation: Observation, decision: Decision) -> Action:
        return legal_actions(decision)[-1]

    assert as_strategy(shed).name == "shed"
    assert as_strategy("heuristic").name == "heuristic"
    bot = HeuristicBot()
    assert as_strategy(bot) is bot

    class Nameless:
        def choose(self, observation: Observation, decision: Decision) -> Action:
            return legal_actions(decision)[0]

    assert as_strategy(Nameless()).name == "Nameless"
    with pytest.raises(TypeError):
        as_strategy(42)  # type: ignore[arg-type]


# ---------------------------------------------------------------------- at a real host


def test_run_bot_plays_a_whole_game_with_a_plain_function(rules_file: Path) -> None:
    seen: list[tuple[int | None, str]] = []

    def last_legal(observation: Observation, decision: Decision) -> Action:
        assert observation.hand is not None
        seen.append((observation.viewer, type(decision).__name__))
        return legal_actions(decision)[-1]

    with running_host(rules_file, seed=5) as host:
        result = run_bot(host.address, last_legal, name="SDK function")
        host_output = host.stop()
    assert result.finished and result.refusal is None
    assert result.player is not None and result.names[result.player] == "SDK function"
    # The last table, typed, as README.md's "Write a bot" describes it.
    table = result.table
    assert isinstance(table, TableView) and table.ended and table.name
    me = table.seat(result.player)
    assert me is not None and me.name == "SDK function"
    assert result.names == {seat.player: seat.name for seat in table.players}
    assert len(table.players) == 4 and isinstance(table.rules, RulesView)
    assert result.place in range(1, 5) and result.score is not None
    assert {viewer for viewer, _ in seen} == {result.player}
    assert "PlayDecision" in {kind for _, kind in seen}
    assert_full_game(host_output, "SDK function")


def test_an_illegal_answer_stops_the_bot_with_a_clear_error(rules_file: Path) -> None:
    def always_pass(observation: Observation, decision: Decision) -> Action:
        return Pass()

    with running_host(rules_file, seed=6) as host, pytest.raises(IllegalAnswer, match="Pass"):
        run_bot(host.address, always_pass, name="Passer", reconnect=False)


async def test_play_bot_finds_the_table_on_the_lan(rules_file: Path, loopback: list[str]) -> None:
    name = f"SDK discovery {random.randrange(10**6)}"
    with running_host(rules_file, seed=7, name=name, announce=True) as host:
        result = await play_bot(
            None, "heuristic", name="SDK finder", table=name, interfaces=loopback
        )
        host_output = host.stop()
    assert result.finished, result
    assert_full_game(host_output, "SDK finder")
