"""Duplicate deals: every deal played in every rotation, the same cards each time."""

from __future__ import annotations

from collections import Counter

from dalmuti_net.bots.duplicate import plan_deals, play_deal, play_duplicate
from dalmuti_net.commands.sim_report import format_duplicate
from dalmuti_net.engine import Game, Rules
from dalmuti_net.engine.events import CardsDealt, SeatingSettled
from dalmuti_net.lang.i18n import Translator


def test_every_deal_is_played_once_in_every_rotation() -> None:
    entrants = ["heuristic", "random", "random", "heuristic", "random"]
    result = play_duplicate(entrants, Rules(scoring=True), deals=6, seed=3)
    assert [deal.index for deal in result.deals] == list(range(6))
    for deal in result.deals:
        rotations = [rotation for rotation, _ in deal.played]
        assert rotations == list(range(5))
        # Each player plays every entrant's strategy once over the rotations ...
        for player in range(5):
            seen = Counter(strategies[player] for _, strategies in deal.played)
            assert seen == Counter(entrants)
        # ... and each strategy's hands add up to its seats times the rotations.
        hands = {name: tally.hands for name, tally in deal.by_strategy.items()}
        assert hands == {"heuristic": 2 * 5, "random": 3 * 5}
        total_points = sum(tally.points for tally in deal.by_strategy.values())
        assert total_points == 5 * (4 + 3 + 2 + 1)
        assert sum(tally.greater_dalmuti for tally in deal.by_strategy.values()) == 5


def test_the_rotations_of_a_deal_share_its_seating_and_cards() -> None:
    (plan,) = plan_deals(6, 1, seed=8)
    rules = Rules.all_optional(misdeal_chance=0.0)
    first = Game(list(range(6)), rules, plan.seed)
    again = Game(list(range(6)), rules, plan.seed)
    dealt = [
        [e for e in game.start() if isinstance(e, CardsDealt | SeatingSettled)]
        for game in (first, again)
    ]
    assert dealt[0] == dealt[1] and dealt[0]
    outcome = play_deal(plan, ["heuristic", "random"] * 3, rules, None)
    assert len(outcome.played) == 6


def test_the_same_seed_gives_the_same_duplicate_result_for_any_number_of_jobs() -> None:
    entrants = ["heuristic", "random", "random", "random"]
    counted: list[int] = []
    one = play_duplicate(entrants, Rules(scoring=True), deals=5, seed=4)
    two = play_duplicate(
        entrants, Rules(scoring=True), deals=5, seed=4, jobs=2, on_hand=lambda: counted.append(1)
    )
    assert one == two and len(counted) == 5 * 4
    report = format_duplicate(one, Translator())
    assert "4 players: 5 deals, each played in 4 rotations (20 hands)" in report
    assert "heuristic - random" in report
