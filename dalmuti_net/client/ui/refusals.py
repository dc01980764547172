"""A refusal screen (``client/model/refusals.py``) drawn for the terminal: its title, its
sentences wrapped, and the final standings it keeps, in columns."""

from __future__ import annotations

from ...lang.i18n import Translator
from ...lang.text import fit, width, wrap
from ..model.departures import StandingRow
from ..model.refusals import RefusalScreen

Line = list[tuple[str, str]]


def refusal_lines(t: Translator, screen: RefusalScreen, cols: int) -> list[Line]:
    lines: list[Line] = [[("class:title", screen.title)], []]
    for index, sentence in enumerate(screen.sentences):
        style = "class:error" if index == 0 else ""
        lines += [[(style, text)] for text in wrap(sentence, cols)]
        lines.append([])
    if screen.standings:
        lines.append([("class:heading", t._("Final standings"))])
        lines += standings_lines(screen.standings, cols)
        lines.append([])
    return lines


def standings_lines(rows: tuple[StandingRow, ...] | list[StandingRow], cols: int) -> list[Line]:
    """Final standings in columns: place, name, points right-aligned (without scoring, the
    role), and why a row is marked (who left); a name is cut only where the screen has no
    room for it."""
    place_cols = max(width(row.place) for row in rows)
    name_cols = min(max(width(row.name) for row in rows), cols // 2)
    score_cols = max(width(row.figure) for row in rows)
    lines: list[Line] = []
    for row in rows:
        text = f"{fit(row.place, place_cols)}  {fit(row.name, name_cols)}  "
        text += fit(row.figure, score_cols, "right" if row.role is None else "left")
        if row.note:
            text += f"  {row.note}"
        lines.append([("class:dim" if row.note else "", text)])
    return lines
