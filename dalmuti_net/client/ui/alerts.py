"""Your turn, told outside the screen too: the terminal bell and the window title.

A player who looks away (another window, the phone) hears the bell and sees the title
say it is their turn; both can be turned off (``--no-bell``, ``--no-title``). Pure: what
to do when the state changes, for ``TerminalClient`` to carry out on its output.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...lang.i18n import Translator


@dataclass(frozen=True)
class Alert:
    bell: bool
    title: str | None
    """The window title to set, or ``None`` to leave it."""


class TurnAlerts:
    def __init__(self, t: Translator, *, bell: bool = True, title: bool = True) -> None:
        self.t = t
        self.bell = bell
        self.title = title
        self._my_turn = False
        self._table = ""

    def update(self, my_turn: bool, table_name: str) -> Alert | None:
        """What changed since the last call, if anything (``None``: nothing to do)."""
        if my_turn == self._my_turn and table_name == self._table:
            return None
        began = my_turn and not self._my_turn
        self._my_turn, self._table = my_turn, table_name
        title = None
        if self.title:
            name = table_name or "dalmuti"
            title = self.t._("Your turn — {table}").format(table=name) if my_turn else name
        alert = Alert(bell=self.bell and began, title=title)
        return alert if alert.bell or alert.title is not None else None
