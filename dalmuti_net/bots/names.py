"""The names bots sit down with, in one place. A bot is named after its strategy
(``Heuristic bot``, ``Heuristic bot (2)``) in the language of whoever seats it: the host's
own bots in the host's (``dalmuti host --lang``, the table's language: the table names them
through ``bot_name``, given to it as its ``bot_names``), a ``dalmuti bot`` program in the
one it was started in. A seat's name is a fact on the wire, the same for every viewer: a
bot has one name at the table, as a person has, and keeps it on every screen."""

from __future__ import annotations

from collections.abc import Callable

from ..told import N_

STRATEGY_NAMES: dict[str, str] = {
    "heuristic": N_("Heuristic bot"),
    "random": N_("Random bot"),
    "montecarlo": N_("Monte Carlo bot"),
    "learned": N_("Learned bot"),
}
"""The built-in strategies' bots' names, by strategy, to be translated where named."""

OTHER_BOT = N_("{name} bot")
"""Any other strategy's bots: a registered name (``Cautious bot``) or a ``module:Attr``
(``Attr bot``)."""

LOBBY_STRATEGIES: tuple[str, ...] = ("heuristic", "random", "montecarlo", "learned")
"""The strategies a table seats at its host player's request (``add_bot``), its default
first: every built-in one, as ``dalmuti host --strategy`` knows them; each front end's
lobby offers them all (``client/model``)."""


def _untranslated(text: str) -> str:
    return text


def bot_name(strategy: str, translate: Callable[[str], str] = _untranslated) -> str:
    """The name of ``strategy``'s bots in the language of ``translate`` (a
    ``Translator._``; English without one)."""
    if strategy in STRATEGY_NAMES:
        return translate(STRATEGY_NAMES[strategy])
    attribute = strategy.rsplit(":", 1)[1] if ":" in strategy else strategy.capitalize()
    return translate(OTHER_BOT).format(name=attribute or strategy)
