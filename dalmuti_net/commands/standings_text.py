"""Standings in columns, in the chosen language (``dalmuti standings``)."""

from __future__ import annotations

from ..history.standings import Standing
from ..lang.i18n import Translator
from ..lang.text import fit, width


def standings_lines(t: Translator, standings: list[Standing], tables: int) -> list[str]:
    """A title, then one row per person: place, name, tables, hands, points, average place
    and Greater Dalmuti count, each column as wide as its widest cell; the host's bots
    after them, ranked apart (a bot is no person of the league); and what a table without
    scoring counts in."""
    title = t.n_("Standings over {n} table", "Standings over {n} tables", tables).format(n=tables)
    if not standings:
        return [title, t._("No hand has been played yet.")]
    headers = [
        "#",
        t._("Player"),
        t._("Tables"),
        t._("Hands"),
        t._("Points"),
        t._("Average place"),
        t._("Greater Dalmuti"),
    ]
    people = [standing for standing in standings if not standing.bot]
    bots = [standing for standing in standings if standing.bot]
    rows = [headers, *_rows(people)]
    if bots:
        rows += [[t._("The host's bots, ranked apart:")], *_rows(bots)]
    widths = [
        max(width(row[column]) for row in rows if len(row) > 1) for column in range(len(headers))
    ]
    lines = [title]
    for row in rows:
        if len(row) == 1:  # a heading over the bots
            lines.append(row[0])
            continue
        cells = [
            fit(cell, widths[column], "left" if column == 1 else "right")
            for column, cell in enumerate(row)
        ]
        lines.append("  ".join(cells).rstrip())
    if any(standing.scored_tables < standing.tables for standing in standings):
        lines.append(
            t._(
                "Tables played without scoring count in tables, hands, average place and"
                " Greater Dalmuti, not in points."
            )
        )
    return lines


def _rows(standings: list[Standing]) -> list[list[str]]:
    rows = []
    for index, standing in enumerate(standings, start=1):
        average = standing.average_place
        rows.append(
            [
                str(index),
                standing.name,
                str(standing.tables),
                str(standing.hands),
                str(standing.points) if standing.scored_tables else "-",
                "-" if average is None else f"{average:.2f}",
                str(standing.crowns),
            ]
        )
    return rows
