"""Strategies by name, for the simulator, the host's stand-in players and `dalmuti bot`.

A strategy is made by a factory that takes a seed (``None`` for unseeded) and returns a
``Strategy``; a ``Strategy`` subclass whose ``__init__`` takes the seed is such a factory.
Besides the names in ``STRATEGIES``, ``make_strategy`` accepts ``"package.module:attr"``,
so anyone can pit their own bot against these without touching this package.
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Callable

from ..told import N_, Listed, Told
from .base import SeededStrategy, Strategy
from .heuristic import HeuristicBot
from .learned import LearnedBot
from .montecarlo import MonteCarloBot
from .random_bot import RandomBot

StrategyFactory = Callable[[int | None], Strategy]

STRATEGIES: dict[str, StrategyFactory] = {
    "random": RandomBot,
    "heuristic": HeuristicBot,
    "montecarlo": MonteCarloBot,
    "learned": LearnedBot,
}


class UnknownStrategy(Told, ValueError):
    """A strategy name that is neither registered nor an importable ``module:attr``:
    ``str()`` is the English sentence, ``told`` the sentence in a ``Translator._``'s."""


def register_strategy(name: str, factory: StrategyFactory) -> None:
    if not name or ":" in name or "," in name:
        raise ValueError(f"a strategy name is a plain word, not {name!r}")
    STRATEGIES[name] = factory


def strategy_names() -> list[str]:
    return sorted(STRATEGIES)


def resolve_strategy(name: str) -> StrategyFactory:
    """The factory for ``name``: a registered name or ``module:attr``."""
    if ":" in name:
        return _import_factory(name)
    factory = STRATEGIES.get(name)
    if factory is None:
        raise UnknownStrategy(
            N_(
                "unknown strategy {name}; known strategies: {known} (or package.module:attr "
                "for your own)"
            ),
            name=repr(name),
            known=Listed(strategy_names()),
        )
    return factory


def make_strategy(name: str, seed: int | None = None) -> Strategy:
    factory = resolve_strategy(name)
    try:
        strategy = factory(seed)
    except Exception as error:
        raise UnknownStrategy(
            N_("could not make strategy {name} with a seed: {error}"), name=repr(name), error=error
        ) from error
    if not callable(getattr(strategy, "choose", None)):
        raise UnknownStrategy(
            N_("{name} made {strategy}, which has no choose() method"),
            name=repr(name),
            strategy=repr(strategy),
        )
    return strategy


def _import_from_here(module_name: str) -> object:
    """Import ``module_name``, also from the current folder: the `dalmuti` console script,
    unlike `python -m`, does not put it on the path, and that is where a user's bot is."""
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        here = os.getcwd()
        if error.name != module_name.partition(".")[0] or here in sys.path:
            raise
        sys.path.append(here)
        return importlib.import_module(module_name)


def _import_factory(spec: str) -> StrategyFactory:
    module_name, _, attribute = spec.partition(":")
    if not module_name or not attribute:
        raise UnknownStrategy(
            N_("write a strategy to import as package.module:attr, not {spec}"), spec=repr(spec)
        )
    try:
        target: object = _import_from_here(module_name)
    except ImportError as error:
        raise UnknownStrategy(
            N_("cannot import {module} for strategy {spec}: {error}"),
            module=repr(module_name),
            spec=repr(spec),
            error=error,
        ) from error
    for part in attribute.split("."):
        try:
            target = getattr(target, part)
        except AttributeError:
            raise UnknownStrategy(
                N_("{module} has no {attribute} (strategy {spec})"),
                module=repr(module_name),
                attribute=repr(attribute),
                spec=repr(spec),
            ) from None
    if not callable(target):
        raise UnknownStrategy(
            N_("{spec} is not a strategy factory: it cannot be called"), spec=repr(spec)
        )
    return target


__all__ = [
    "STRATEGIES",
    "HeuristicBot",
    "LearnedBot",
    "RandomBot",
    "SeededStrategy",
    "Strategy",
    "StrategyFactory",
    "UnknownStrategy",
    "make_strategy",
    "register_strategy",
    "resolve_strategy",
    "strategy_names",
]
