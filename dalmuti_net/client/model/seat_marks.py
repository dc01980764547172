"""A seat's status in words, written once for every front end: the flags beside a seat
in a game (out, passed, on top, leaving, offline, a stand-in, its countdowns) and the
marks beside a seat in the lobby (host, bot, ready, offline); the row of who joins at
the next hand.

The terminal screen styles each mark by its ``tone``; the plain table joins their
``words`` (no symbol: it promises none, and a screen reader would name the symbol); the web
table sends them all to the page.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ...engine import Observation
from ...lang.i18n import Translator
from .countdowns import WARN_AT, Countdowns
from .views import SeatView, TableView


@dataclass(frozen=True)
class Mark:
    text: str
    """In the viewer's language."""
    tone: str
    """How it is styled: ``good``, ``dim``, ``heading``, ``warning`` or ``error``."""
    said: str | None = None
    """The mark in words, where ``text`` draws part of it as a symbol ("◷ 7 s" is said
    "7 s to answer")."""

    @property
    def words(self) -> str:
        """What the mark says, without a symbol: for the plain table, or to be read aloud."""
        return self.text if self.said is None else self.said


def your_time(t: Translator, countdowns: Countdowns, me: int | None) -> Mark | None:
    """Beside "Your turn!": how long you have (an error's tone when it is short)."""
    left = countdowns.turn_left(me)
    if left is None:
        return None
    if left <= WARN_AT:
        return Mark(t._("Only {n} s left!").format(n=left), "error")
    return Mark(t._("{n} s left").format(n=left), "dim")


def countdown_marks(t: Translator, countdowns: Countdowns, player: int) -> list[Mark]:
    """The turn timer running for a seat, and the time before a stand-in takes it."""
    marks: list[Mark] = []
    turn = countdowns.turn_left(player)
    if turn is not None:
        tone = "warning" if turn <= WARN_AT else "dim"
        said = t._("{n} s to answer").format(n=turn)
        marks.append(Mark(t._("◷ {n} s").format(n=turn), tone, said))
    grace = countdowns.grace_left(player)
    if grace is not None:
        marks.append(Mark(t._("bot in {n} s").format(n=grace), "warning"))
    return marks


def game_flags(
    t: Translator,
    observation: Observation,
    player: int,
    seat: SeatView | None,
    countdowns: Countdowns,
) -> list[Mark]:
    """What a seat's row says during a game, the most needed first (a narrow row drops
    the last ones)."""
    flags: list[Mark] = []
    if player in observation.out:
        place = observation.out.index(player) + 1
        flags.append(Mark(t._("out {place}").format(place=t.ordinal(place)), "good"))
    elif player in observation.passed:
        flags.append(Mark(t._("passed"), "dim"))
    if player == observation.top_player and observation.to_beat is not None:
        flags.append(Mark(t._("on top"), "heading"))
    if player in observation.leaving:
        # Gone for good: a bot finishes the hand (the log said so); "offline" adds nothing.
        flags.append(Mark(t._("leaving"), "warning"))
    elif seat is not None:
        waiting = countdowns.grace_left(player) is not None  # "bot in 42 s" says offline
        # A bot standing in says the player is away: "offline" beside it adds nothing.
        away = not seat.connected and seat.is_human and not seat.stand_in
        if away and not waiting:
            flags.append(Mark(t._("offline"), "error"))
        if seat.stand_in:
            flags.append(Mark(t._("bot stands in"), "warning"))
        elif seat.played_by_a_program:  # the host's own bot, or `dalmuti bot`'s
            flags.append(Mark(t._("bot"), "dim"))
    return flags + countdown_marks(t, countdowns, player)


def lobby_marks(t: Translator, seat: SeatView, countdowns: Countdowns | None = None) -> list[Mark]:
    """What a seat's line says in the lobby. The host player has no ready mark: their
    start is their ready (the table waits for everyone else's). A seat whose player
    dropped says how long it is kept for them (then it is let go)."""
    marks: list[Mark] = []
    if seat.host:
        marks.append(Mark(t._("host"), "heading"))
    if seat.played_by_a_program:  # the host's own bot, or `dalmuti bot`'s
        marks.append(Mark(t._("bot"), "dim"))
    if not seat.host:
        if seat.ready:
            marks.append(Mark(t._("ready"), "good"))
        elif seat.is_human:
            marks.append(Mark(t._("not ready"), "warning"))
    if not seat.connected:
        marks.append(Mark(t._("offline"), "error"))
        kept = None if countdowns is None else countdowns.grace_left(seat.player)
        if kept is not None:
            marks.append(Mark(t._("kept {n} s").format(n=kept), "warning"))
    return marks


def players_heading(t: Translator, table: TableView | None) -> str:
    """The lobby's heading over the seats: how many, of how many a table takes."""
    seated = 0 if table is None else len(table.players)
    return t._("Players ({n} of 4 to 8)").format(n=seated)


@dataclass(frozen=True)
class JoiningRow:
    """Who joins at the start of the next hand, for a row under the seats ("Joining next
    hand: Fay, Gus"): during a game a newcomer has a seat but no place in the seating
    until the next deal."""

    players: tuple[int, ...]
    names: tuple[str, ...]
    text: str
    """The row in the viewer's language."""


def joining_row(
    t: Translator,
    table: TableView | None,
    observation: Observation | None,
    name: Callable[[int], str],
) -> JoiningRow | None:
    """The next hand's newcomers (the host's seats not seated in the game, and those the
    game said are joining), in seat order; ``None`` when nobody is waiting to join."""
    if table is None or not table.playing:
        return None
    waiting = {seat.player for seat in table.players if not seat.seated and not seat.left}
    if observation is not None:
        waiting |= set(observation.joining) - set(observation.order)
    players = tuple(seat.player for seat in table.players if seat.player in waiting)
    if not players:
        return None
    names = tuple(name(player) for player in players)
    text = t._("Joining next hand: {names}").format(names=t.list_separator.join(names))
    return JoiningRow(players, names, text)
