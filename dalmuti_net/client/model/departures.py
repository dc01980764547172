"""Players who leave during a game, in words: who is leaving, who has left and with how
many points, and who moves up in the seating because of it.

Written once for every front end (the table screen, the plain table, the replay): the host
says who gave up a seat (a seat's ``left``) and who has been removed from the seating
since, with their points (the table's ``departed``); nothing here is worked out again from
the events.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from ...engine import Observation
from ...engine.events import TableEnded
from ...engine.roles import role_at, roles_of
from ...lang.i18n import N_, Translator
from .views import DepartedView, TableView

Namer = Callable[[int], str]

LEFT_MARK = N_("left")
"""Beside a player who left, wherever results or standings list them."""


def leaving_players(table: TableView | None, observation: Observation | None) -> set[int]:
    """Players who gave up their seat and are still in the seating (until the next hand)."""
    leaving = set() if observation is None else set(observation.leaving)
    for seat in () if table is None else table.players:
        if seat.left:
            leaving.add(seat.player)
    return leaving


def departed(table: TableView | None) -> tuple[DepartedView, ...]:
    """Players removed from the seating after leaving, oldest first, with their points."""
    return () if table is None else table.departed


def next_seating(finishing: Sequence[int], leaving: Iterable[int]) -> list[int]:
    """The next hand's seating: the finishing order without those who are leaving."""
    gone = set(leaving)
    return [player for player in finishing if player not in gone]


def hand_over_sentence(
    t: Translator,
    hand: int,
    finishing: Sequence[int],
    leaving: Iterable[int],
    name: Namer,
    *,
    last: bool = False,
) -> str:
    """``Hand 5 is over. Next seating: A, B, D (Carla left the table).``; after the last
    hand, only that it is over (there is no next seating)."""
    if last:
        return t._("Hand {hand} is over.").format(hand=hand)
    gone = [player for player in finishing if player in set(leaving)]
    order = t.list_separator.join(name(p) for p in next_seating(finishing, gone))
    if not gone:
        return t._("Hand {hand} is over. Next seating: {order}.").format(hand=hand, order=order)
    return t.n_(
        "Hand {hand} is over. Next seating: {order} ({names} left the table).",
        "Hand {hand} is over. Next seating: {order} ({names} left the table).",
        len(gone),
    ).format(hand=hand, order=order, names=t.conjoined(name(p) for p in gone))


def moved_up_sentence(t: Translator, leaver: str, movers: Sequence[str]) -> str:
    """Why the seating changed: a player was removed, and those after them move up."""
    if not movers:
        return t._("{name} has left the table.").format(name=leaver)
    return t.n_(
        "{name} has left the table, so {names} moves up one place.",
        "{name} has left the table, so {names} move up one place.",
        len(movers),
    ).format(name=leaver, names=t.conjoined(movers))


def left_note(t: Translator, hands: int | None) -> str:
    """``left``, ``left after 5 hands``: beside a leaver's name."""
    if hands is None:
        return t._(LEFT_MARK)
    return t.n_("left after {n} hand", "left after {n} hands", hands).format(n=hands)


@dataclass(frozen=True)
class StandingRow:
    place: str
    """``1st``, or a dash (``NO_PLACE``) for a player who left before the end, and for
    everyone at a table that ended before any hand was scored (nobody is ranked)."""
    player: int
    name: str
    score: int
    note: str | None
    """Why the row is marked (the player left), else ``None``."""
    role: str | None = None
    """At a table that keeps no score: the role the last seating gave the player, in words,
    shown where the points would be (there are none: everyone would be "1st, 0 points")."""

    @property
    def figure(self) -> str:
        """What the row shows after the name: the points, or the role without scoring."""
        return str(self.score) if self.role is None else self.role


NO_PLACE = "-"
"""The place of a row that ranks nobody."""


def scored_any(scores: Iterable[int]) -> bool:
    """Whether a scoring table scored a hand: its first out scores at least 1 (N - 1 of N,
    rule 15), so a table ended in its first hand has every score 0 and ranks nobody (not
    everyone "1st")."""
    return any(scores)


def final_rows(
    t: Translator,
    ended: TableEnded,
    table: TableView | None,
    observation: Observation | None,
    name: Namer,
) -> list[StandingRow]:
    """The final standings, then everyone who left before the end with their points: no
    one who played a hand is left out. Without scoring, the finishing order instead: the
    last seating, each with the role it gave (the host ranks the tied scores in it)."""
    leaving = leaving_players(table, observation)
    scoring = table is None or table.rules.scoring
    order = tuple(player for player, _, _ in ended.standings)
    roles = roles_of(order)
    ranked = not scoring or scored_any(score for _, score, _ in ended.standings)
    rows = [
        StandingRow(
            (t.ordinal(place if scoring else index + 1) if ranked else NO_PLACE),
            player,
            name(player),
            score,
            t._(LEFT_MARK) if player in leaving else None,
            None if scoring else t.role(roles[player]),
        )
        for index, (player, score, place) in enumerate(ended.standings)
    ]
    standing = {player for player, _, _ in ended.standings}
    gone = [g for g in departed(table) if g.player not in standing]
    for entry in sorted(gone, key=lambda g: -g.score):
        rows.append(
            StandingRow(
                NO_PLACE,
                entry.player,
                name(entry.player),
                entry.score,
                left_note(t, entry.hands),
                None if scoring else "",  # the note says they left
            )
        )
    return rows


def told_standings(
    t: Translator, standings: Sequence[tuple[str, int, int]], scoring: bool
) -> list[StandingRow]:
    """Final standings as the host told them with a refusal ((name, score, place), best
    first): without scoring, the last seating's order with each role, as ``final_rows``."""
    count = len(standings)
    ranked = not scoring or scored_any(score for _, score, _ in standings)
    return [
        StandingRow(
            (t.ordinal(place if scoring else index + 1) if ranked else NO_PLACE),
            0,
            name,
            score,
            None,
            None if scoring else t.role(role_at(index, count)),
        )
        for index, (name, score, place) in enumerate(standings)
    ]
