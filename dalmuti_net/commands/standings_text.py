"""Standings in columns, in the chosen language (``dalmuti standings``)."""

from __future__ import annotations

from ..history.standings import Standing
from ..lang.i18n import Translator
from ..lang.text import fit, width


def standings_lines(t: Translator, standings: list[Standing], tables: int) -> list[str]:
    """A title, then one row per player: place, name, tables, hands, points, average
    place and Greater Dalmuti count, each column as wide as its widest cell."""
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
    rows = [headers]
    for index, standing in enumerate(standings, start=1):
        average = standing.average_place
        rows.append(
            [
                str(index),
                standing.name,
                str(standing.tables),
                str(standing.hands),
                str(standing.points),
                "-" if average is None else f"{average:.2f}",
                str(standing.crowns),
            ]
        )
    widths = [max(width(row[column]) for row in rows) for column in range(len(headers))]
    lines = [title]
    for row in rows:
        cells = [
            fit(cell, widths[column], "left" if column == 1 else "right")
            for column, cell in enumerate(row)
        ]
        lines.append("  ".join(cells).rstrip())
    return lines
