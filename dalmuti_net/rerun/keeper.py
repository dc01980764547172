"""`dalmuti host --league FILE`: the running table's results go into the league file
when the table ends (a resumed table's earlier hands counted from its save)."""

from __future__ import annotations

import logging
from pathlib import Path

from ..engine import Event
from ..engine.events import TableEnded
from ..history.league import LeagueError, open_league, save_results
from ..history.problems import N_
from ..history.standings import TableResults, Tally
from ..host.table import Table
from ..told import Told
from .sources import HistoryError, open_history

log = logging.getLogger(__name__)

NOT_ADDED = N_("This table's results were not added to the league: {reason}.")


def keep_league(table: Table, league: Path, resumed_from: Path | None = None) -> Tally:
    """Watch ``table``'s events; when it ends, write its results to ``league``.

    Raises ``LeagueError`` at once if ``league`` cannot be a league file."""
    open_league(league)
    tally = Tally()
    if resumed_from is not None:
        try:
            saved = open_history(resumed_from)[-1]
            tally.feed_messages(saved.frames(None))
        except HistoryError as error:
            raise LeagueError(
                N_("cannot count the hands already played: {reason}"), reason=error
            ) from None
    watched = table.on_events

    def on_events(events: list[Event]) -> None:
        if watched is not None:
            watched(events)
        tally.feed(events)
        if any(isinstance(event, TableEnded) for event in events):
            # Who left during the game played hands too: counted under their name.
            names = {gone.player: gone.name for gone in table.departed}
            names.update({player: seat.name for player, seat in table.seats.items()})
            bots = frozenset(p for p, seat in table.seats.items() if seat.kind == "bot") | {
                gone.player for gone in table.departed if gone.kind == "bot"
            }
            scored = table.rules.scoring
            results = TableResults(
                table.results_key, table.name, tally.results(names, bots, scored=scored), scored
            )
            try:
                save_results(league, results)
            except LeagueError as error:
                log.warning(Told(NOT_ADDED, reason=error))
            tally.reset()  # a rematch is a table of its own in the league

    table.on_events = on_events
    return tally
