"""A refusal screen of the typed view (``client/model/display.RefusalView``) drawn for the
terminal: its title, its sentences wrapped, and the final standings it keeps, in columns
(the table's final standings are drawn the same way)."""

from __future__ import annotations

from collections.abc import Iterable

from ...lang.i18n import Translator
from ...lang.text import fit, width, wrap
from ..model.display import RefusalView, StandingView

Line = list[tuple[str, str]]


def refusal_lines(t: Translator, refusal: RefusalView, cols: int) -> list[Line]:
    lines: list[Line] = [[("class:title", refusal.title)], []]
    for index, sentence in enumerate(refusal.sentences):
        style = "class:error" if index == 0 else ""
        lines += [[(style, text)] for text in wrap(sentence, cols)]
        lines.append([])
    if refusal.standings:
        lines.append([("class:heading", t._("Final standings"))])
        lines += standings_lines(refusal.standings, cols)
        lines.append([])
    return lines


def standings_lines(rows: Iterable[StandingView], cols: int) -> list[Line]:
    """Final standings in columns, without headings: place, name, points right-aligned
    (without scoring, the role), and why a row is marked (who left); a name is cut only
    where the screen has no room for it; the viewer's own row stressed."""
    rows = list(rows)
    place_cols = max(width(row.place) for row in rows)
    name_cols = min(max(width(row.name) for row in rows), cols // 2)
    score_cols = max(width(row.figure) for row in rows)
    lines: list[Line] = []
    for row in rows:
        text = f"  {fit(row.place, place_cols)}  {fit(row.name, name_cols)}  "
        text += fit(row.figure, score_cols, "right" if row.points else "left")
        if row.note:
            text += f"  {row.note}"
        style = "class:me" if row.me else ("class:dim" if row.note else "")
        lines.append([(style, text)])
    return lines
