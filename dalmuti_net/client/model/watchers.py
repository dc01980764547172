"""Spectators by name, for every front end: the lobby's line ("Watching: Eli, Fay"), from
the table's ``watching`` (the host names the first 16). Their comings and goings are told
by the table model's narration (``client/model/narration.py``)."""

from __future__ import annotations

from ...lang.i18n import Translator
from ..model.views import TableView


def watchers_line(t: Translator, table: TableView | None) -> str | None:
    """``Watching: Eli, Fay``; a count where the host names nobody (or not everyone)."""
    if table is None or not table.spectators:
        return None
    count = table.spectators
    names = list(table.watching)
    if not names:
        return t._("Spectators: {n}").format(n=count)
    listed = t.list_separator.join(names)
    if count > len(names):
        listed = t._("{names} and {n} more").format(names=listed, n=count - len(names))
    return t._("Watching: {names}").format(names=listed)
