"""Spectators by name, for every front end: the lobby's line and the log's comings and
goings ("Eli is watching"), from the table's ``watching`` (the host names the first 16)."""

from __future__ import annotations

from ...lang.i18n import Translator
from ..model.views import TableView


def watching(table: TableView | None) -> list[str]:
    return [] if table is None else list(table.watching)


def watchers_line(t: Translator, table: TableView | None) -> str | None:
    """``Watching: Eli, Fay``; a count where the host names nobody (or not everyone)."""
    if table is None or not table.spectators:
        return None
    count = table.spectators
    names = watching(table)
    if not names:
        return t._("Spectators: {n}").format(n=count)
    listed = t.list_separator.join(names)
    if count > len(names):
        listed = t._("{names} and {n} more").format(names=listed, n=count - len(names))
    return t._("Watching: {names}").format(names=listed)


def watcher_changes(t: Translator, before: list[str], after: list[str]) -> list[str]:
    """A log line for each spectator who came or went."""
    lines = [t._("{name} is watching.").format(name=name) for name in after if name not in before]
    lines += [
        t._("{name} stopped watching.").format(name=name) for name in before if name not in after
    ]
    return lines
