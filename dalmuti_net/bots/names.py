"""The names the host gives the bots it seats (``Heuristic bot``, ``Heuristic bot (2)``),
told in the reader's language wherever they are shown: the table, the commands' lines,
the host's warnings (see ``dalmuti_net.told``)."""

from __future__ import annotations

import re
from collections.abc import Callable

from ..told import N_

BOT_NAMES: dict[str, str] = {
    "Heuristic bot": N_("Heuristic bot"),
    "Random bot": N_("Random bot"),
    "Montecarlo bot": N_("Monte Carlo bot"),
}
"""The names the host gives the bots it seats (``<Strategy> bot``), shown translated."""
NUMBERED = N_("{name} ({number})")
"""A bot's name and the number that tells two bots of one strategy apart."""
_NUMBERED = re.compile(r"^(?P<base>.*?)(?: \((?P<number>\d+)\))?$")


class BotName:
    """A bot seat's name as a ``Told``'s value: told in the reader's language when it is
    one the host gives (keeping its number), any other name as given."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __str__(self) -> str:
        return self.name

    def told(self, translate: Callable[[str], str]) -> str:
        match = _NUMBERED.match(self.name)
        assert match is not None  # the pattern matches every string
        base = BOT_NAMES.get(match["base"])
        if base is None:
            return self.name
        shown = translate(base)
        if match["number"]:
            shown = translate(NUMBERED).format(name=shown, number=match["number"])
        return shown
