"""The names bots sit down with. The host's own bots are named after their strategy
(``Heuristic bot``, ``Heuristic bot (2)``) and keep that name on every screen, in every
language: a bot has one name at the table, as a person has. A bot program started with
``dalmuti bot`` and no name is named the same way, in the language it was started in."""

from __future__ import annotations

from ..told import N_

BOT_NAMES: dict[str, str] = {
    "Heuristic bot": N_("Heuristic bot"),
    "Random bot": N_("Random bot"),
    "Montecarlo bot": N_("Monte Carlo bot"),
    "Learned bot": N_("Learned bot"),
}
"""The names of the strategies' bots (``<Strategy> bot``), translatable for ``dalmuti bot``."""

LOBBY_STRATEGIES: tuple[str, ...] = ("heuristic", "random", "montecarlo", "learned")
"""The strategies a table seats at its host player's request (``add_bot``), its default
first: every built-in one, as ``dalmuti host --strategy`` knows them; each front end's
lobby offers them all (``client/model``)."""
