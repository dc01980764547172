"""Bot pacing: the host's own bots answer at a human pace while a person watches.

Three bot moves within 63 ms leave a player nothing to follow, so while at least one
seat is played from the table UI (``dalmuti join`` or the host player's screen, which say
so in their ``hello``), each answer of the host's bots takes at least ``seconds`` from the
moment its decision arrived (thinking time included). Only bots wait: a person's own
decision is sent as soon as the game owes it, and its turn timer starts then. A table of
protocol clients only, ``dalmuti sim`` and the benchmarks are never paced. This is a clock
matter, so it lives here in the trio shell, not in the table core or the engine.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .server import Link, TableServer
    from .table import Table

TABLE_UI_SOFTWARE = "dalmuti-net table/"
"""How the table UI's ``hello`` names its software (followed by the version)."""

DEFAULT_BOT_PACE = 0.8
"""Seconds per bot answer, unless ``--bot-pace`` or ``bot_pace`` in a rules file says."""


def played_from_table_ui(links: Iterable[Link], table: Table) -> bool:
    """Whether some seat (not a spectator) is played from the table UI now."""
    for link in links:
        if not link.software.startswith(TABLE_UI_SOFTWARE):
            continue
        connection = table.connections.get(link.connection)
        if connection is not None and connection.player is not None and not connection.spectator:
            return True
    return False


class BotPace:
    """``seconds()``: how long a bot's answer should take now (0 when nobody watches)."""

    def __init__(self, seconds: float, server: TableServer) -> None:
        self._seconds = max(0.0, seconds)
        self._server = server

    def seconds(self) -> float:
        if not self._seconds:
            return 0.0
        server = self._server
        return self._seconds if played_from_table_ui(server.links.values(), server.table) else 0.0
