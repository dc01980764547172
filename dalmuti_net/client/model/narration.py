"""The table's changes in sentences, written once for every front end: who sits down and
who leaves in the lobby, who is ready, who comes to watch, who drops, comes back or has a
bot standing in during a game.

``TableChanges`` is fed each new table (a decoded ``TableView``) and the host's timers,
and returns what is news since the last one, in the viewer's language: what was there
when this viewer came in is on screen, not news. Each sentence says whether a screen that
draws the table already shows it (a seat's ready mark): the terminal's log leaves those
out, the plain table, which has no such screen, says them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ...lang.i18n import Translator
from .countdowns import Countdowns, offline_sentence
from .views import TableView

Namer = Callable[[int], str]


@dataclass(frozen=True)
class Told:
    text: str
    shown: bool = False
    """A screen that draws the table shows it already (its log need not say it)."""


def watcher_changes(t: Translator, before: tuple[str, ...], after: tuple[str, ...]) -> list[str]:
    """A sentence for each spectator who came or went."""
    lines = [t._("{name} is watching.").format(name=name) for name in after if name not in before]
    lines += [
        t._("{name} stopped watching.").format(name=name) for name in before if name not in after
    ]
    return lines


class TableChanges:
    """Follows the table from one ``table`` message to the next and says what changed."""

    def __init__(self) -> None:
        self._before: TableView | None = None
        self._seen_connected: set[int] = set()
        """Seats seen connected: only those, and those away when this viewer came in, can
        come back (a newcomer's seat is listed before its first connection, which is not a
        return); only their drops are news."""
        self._away_on_arrival: set[int] = set()
        """Seats offline in the first table this viewer saw (a host resumed from its
        save has every seat offline until each one's client is back)."""
        self._grace_told: set[int] = set()
        """Dropped seats whose grace countdown was said (once per drop)."""

    def follow(
        self,
        t: Translator,
        table: TableView | None,
        me: int | None,
        name: Namer,
        countdowns: Countdowns,
        *,
        countdown_follows: bool,
        opened: bool = False,
    ) -> list[Told]:
        """What changed since the last table. ``countdown_follows``: the host follows a
        seat's drop with its grace countdown (``timers``), whose sentence says the player
        is offline (``grace``); a sentence before it would say it twice. ``opened``: this
        viewer opened the table (the host player's own, new): whoever already sits in its
        first lobby, but bots, joined since (in the host's first second) and is news."""
        if table is None:
            return []
        before, self._before = self._before, table
        if before is None:
            self._away_on_arrival = {s.player for s in table.players if not s.connected}
        told: list[Told] = []
        if before is None and opened and table.lobby:
            told += [
                Told(t._("{name} joins the table.").format(name=name(seat.player)))
                for seat in table.players
                if seat.player != me and seat.is_human
            ]
        if before is not None and before is not table:
            if before.lobby and table.lobby:
                told += self._lobby(t, before, table, me, name)
            if before.phase == table.phase and table.phase in ("lobby", "playing"):
                # A seat outlives its link in the lobby too (kept for the grace period).
                told += self._presence(t, before, table, me, name, countdowns, countdown_follows)
            told += [Told(line) for line in watcher_changes(t, before.watching, table.watching)]
        self._seen_connected.update(seat.player for seat in table.players if seat.connected)
        return told

    def _lobby(
        self, t: Translator, before: TableView, after: TableView, me: int | None, name: Namer
    ) -> list[Told]:
        """Who sat down, who is ready and who left (in a game, the game's own events say
        who joins and who leaves)."""
        told: list[Told] = []
        old = before.by_player
        for seat in after.players:
            was = old.get(seat.player)
            if was is None:
                if seat.player != me:
                    told.append(Told(t._("{name} joins the table.").format(name=name(seat.player))))
            elif seat.ready != was.ready:
                if seat.player == me:
                    text = t._("You are ready.") if seat.ready else t._("You are not ready.")
                else:
                    ready = t._("{name} is ready.") if seat.ready else t._("{name} is not ready.")
                    text = ready.format(name=name(seat.player))
                told.append(Told(text, shown=True))
        new = after.by_player
        for seat in before.players:
            # One's own leaving is told as a refusal (kicked) or was chosen.
            if seat.player not in new and seat.player != me:
                told.append(Told(t._("{name} leaves the table.").format(name=seat.name)))
        return told

    def _presence(
        self,
        t: Translator,
        before: TableView,
        after: TableView,
        me: int | None,
        name: Namer,
        countdowns: Countdowns,
        countdown_follows: bool,
    ) -> list[Told]:
        """Who lost the connection, who is back, and (in a game) when a bot stands in."""
        told: list[Told] = []
        old = before.by_player
        for seat in after.players:
            was = old.get(seat.player)
            if was is None or seat.player == me or not seat.is_human:
                continue
            who = name(seat.player)
            if was.connected and not seat.connected and not seat.left:
                grace = self.grace(t, countdowns, seat.player, me, name, lobby=after.lobby)
                if grace is not None:
                    told.append(grace)
                elif not countdown_follows:
                    told.append(Told(t._("{name} is offline.").format(name=who)))
            elif seat.connected and not was.connected:
                self._grace_told.discard(seat.player)
                if seat.player in self._seen_connected | self._away_on_arrival:
                    told.append(Told(t._("{name} is back.").format(name=who)))
            if seat.stand_in and not was.stand_in:
                if seat.left:
                    line = t._("A bot plays out this hand for {name}.")
                else:
                    line = t._("A bot stands in for {name}.")
                told.append(Told(line.format(name=who)))
            elif was.stand_in and not seat.stand_in and not seat.left:
                told.append(Told(t._("{name} plays again; the bot stands aside.").format(name=who)))
        return told

    def grace(
        self,
        t: Translator,
        countdowns: Countdowns,
        player: int,
        me: int | None,
        name: Namer,
        *,
        lobby: bool = False,
    ) -> Told | None:
        """Once per drop: how long before a bot takes ``player``'s seat. Only a drop this
        viewer saw: a seat already offline when they came in (every seat of a host just
        resumed from its save, whose players' clients are coming back) is on screen, not
        news; its return is."""
        if player in self._grace_told or player == me or player not in self._seen_connected:
            return None
        sentence = offline_sentence(t, countdowns, player, name(player), lobby=lobby)
        if sentence is None:
            return None
        self._grace_told.add(player)
        return Told(sentence + t._("."))
