"""Strategies by name: the registry, module:attr strategies, and clear errors."""

from __future__ import annotations

import pytest

from dalmuti_net.bots import (
    STRATEGIES,
    HeuristicBot,
    RandomBot,
    UnknownStrategy,
    make_strategy,
    register_strategy,
    strategy_names,
)


def test_the_built_in_strategies_are_registered_by_name() -> None:
    assert {"heuristic", "random"} <= set(strategy_names())
    assert strategy_names() == sorted(STRATEGIES)
    assert isinstance(make_strategy("heuristic", 1), HeuristicBot)
    random_bot = make_strategy("random", 7)
    assert isinstance(random_bot, RandomBot)
    assert random_bot.name == "random"


def test_the_seed_makes_a_random_bot_repeat_itself() -> None:
    first, second = make_strategy("random", 3), make_strategy("random", 3)
    assert isinstance(first, RandomBot) and isinstance(second, RandomBot)
    assert [first.rng.random() for _ in range(3)] == [second.rng.random() for _ in range(3)]


def test_a_strategy_may_be_imported_as_module_and_attribute() -> None:
    bot = make_strategy("dalmuti_net.bots.heuristic:HeuristicBot", 0)
    assert isinstance(bot, HeuristicBot)


def test_an_unknown_name_lists_the_known_ones() -> None:
    known = ", ".join(strategy_names())
    with pytest.raises(UnknownStrategy, match=f"'clever'; known strategies: {known} "):
        make_strategy("clever")


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("no_such_module_here:Bot", "cannot import 'no_such_module_here'"),
        ("dalmuti_net.bots.heuristic:NoSuchBot", "has no 'NoSuchBot'"),
        ("dalmuti_net.bots.heuristic:CLOSE_TO_OUT", "cannot be called"),
        ("dalmuti_net.bots.heuristic:groups_of", "could not make strategy"),
        ("dalmuti_net.bots.heuristic:TableReading.__name__", "cannot be called"),
        ("dalmuti_net.bots.base:Strategy", "could not make strategy"),
        (":Bot", "package.module:attr"),
    ],
)
def test_a_bad_module_attr_strategy_says_what_is_wrong(spec: str, message: str) -> None:
    with pytest.raises(UnknownStrategy, match=message):
        make_strategy(spec)


def test_a_new_strategy_can_be_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("dalmuti_net.bots.STRATEGIES", dict(STRATEGIES))
    register_strategy("cautious", HeuristicBot)
    assert isinstance(make_strategy("cautious"), HeuristicBot)
    with pytest.raises(ValueError, match="plain word"):
        register_strategy("a:b", HeuristicBot)


def test_a_factory_must_make_something_with_choose() -> None:
    with pytest.raises(UnknownStrategy, match="has no choose"):
        make_strategy("dalmuti_net.bots.reading:deck_composition", 80)
