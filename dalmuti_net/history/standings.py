"""Standings: each table's results by player name, and totals over many tables (evenings).

Pure functions of the public events (``hand_ended``, ``table_ended``): every viewer, a
spectator too, was told them, so standings never need anything secret.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from ..engine import Event, Rules
from ..engine.events import HandEnded, TableEnded
from ..protocol.messages import Message, event_from_message


@dataclass(frozen=True)
class PlayerResult:
    """One player's evening at one table."""

    name: str
    score: int
    place: int | None
    """The table's final place; ``None`` if the table did not end."""
    hands: int
    place_sum: int
    """The finishing places of every hand played, added up (1 is first)."""
    crowns: int
    """Hands finished first: the Greater Dalmuti of the next hand."""
    bot: bool = False
    """One of the host's bots played the seat (its name is shown in the reader's language)."""


@dataclass(frozen=True)
class TableResults:
    table_id: str | None
    table: str
    results: tuple[PlayerResult, ...]
    scored: bool = True
    """The table kept score: without, nobody has points (its hands, places and crowns
    still count; its points count in no total)."""


@dataclass
class Tally:
    """Fed a table's events (live, or from its history), says each player's results."""

    hands: list[HandEnded] = field(default_factory=list)
    ended: TableEnded | None = None

    def feed(self, events: Iterable[Event]) -> None:
        for event in events:
            if isinstance(event, HandEnded):
                self.hands.append(event)
            elif isinstance(event, TableEnded):
                self.ended = event

    def reset(self) -> None:
        """Start counting another game (a rematch at the same table)."""
        self.hands = []
        self.ended = None

    def feed_messages(self, frames: Iterable[Message]) -> None:
        self.feed(
            event
            for frame in frames
            if frame["type"] in ("hand_ended", "table_ended")
            and (event := event_from_message(frame)) is not None
        )

    def results(
        self, names: dict[int, str], bots: frozenset[int] = frozenset(), *, scored: bool = True
    ) -> tuple[PlayerResult, ...]:
        """Each player's results; ``scored``: the table kept score (without, the final
        places are the last seating's order, where the host ranks the tied scores)."""
        scores: dict[int, int] = {}
        hands: dict[int, int] = {}
        place_sum: dict[int, int] = {}
        crowns: dict[int, int] = {}
        for hand in self.hands:
            for index, player in enumerate(hand.finishing):
                hands[player] = hands.get(player, 0) + 1
                place_sum[player] = place_sum.get(player, 0) + index + 1
                scores[player] = hand.scores[index]
            if hand.finishing:
                crowns[hand.finishing[0]] = crowns.get(hand.finishing[0], 0) + 1
        places: dict[int, int] = {}
        if self.ended is not None:
            for index, (player, score, place) in enumerate(self.ended.standings):
                scores[player] = score
                places[player] = place if scored else index + 1
        return tuple(
            PlayerResult(
                names.get(player, f"#{player}"),
                scores.get(player, 0),
                places.get(player),
                hands.get(player, 0),
                place_sum.get(player, 0),
                crowns.get(player, 0),
                player in bots,
            )
            for player in sorted(set(hands) | set(places))
        )


def keeps_score(frames: Iterable[Message]) -> bool:
    """Whether the table of a viewer's frames kept score, as its last ``table`` said (a
    rule the host leaves out is its default: no scoring)."""
    tables = [f["table"] for f in frames if f["type"] in ("table", "snapshot")]
    table = tables[-1] if tables else None
    rules = {} if table is None else table.get("rules") or {}
    return rules.get("scoring", Rules().scoring) is True


@dataclass
class Standing:
    """A player's totals over every table counted."""

    name: str
    tables: int = 0
    hands: int = 0
    points: int = 0
    place_sum: int = 0
    crowns: int = 0
    bot: bool = True
    """Every table counted under this name had it as one of the host's bots."""
    scored_tables: int = 0
    """Tables that kept score: only their points are in ``points``."""

    @property
    def average_place(self) -> float | None:
        """Over every hand played."""
        return self.place_sum / self.hands if self.hands else None


def combine(tables: Iterable[TableResults]) -> list[Standing]:
    """Totals by person, most points first (then the better average place), counting a
    table seen in several files once; the host's bots after every person, ranked among
    themselves (a bot is no person of the league).

    A table without scoring counts in tables, hands, the average place (each hand's
    finishing place) and Greater Dalmuti crowns, not in points (it has none: its players'
    points would be zeros pulling them down).

    A person is their name (README.md, "One person, one name"): ``dalmuti join`` and
    ``dalmuti host`` remember it, and names that differ only in case are one person
    (``Ana`` typed as ``ana`` on another machine), shown as first seen."""
    seen: set[str] = set()
    by_name: dict[str, Standing] = {}
    for table in tables:
        if table.table_id is not None:
            if table.table_id in seen:
                continue
            seen.add(table.table_id)
        for result in table.results:
            standing = by_name.setdefault(result.name.casefold(), Standing(result.name))
            standing.tables += 1
            standing.hands += result.hands
            if table.scored:
                standing.points += result.score
                standing.scored_tables += 1
            standing.place_sum += result.place_sum
            standing.crowns += result.crowns
            standing.bot = standing.bot and result.bot
    return sorted(
        by_name.values(),
        key=lambda s: (s.bot, -s.points, s.average_place or float("inf"), s.name.casefold()),
    )
