"""A viewer's messages cut into hands: pure functions of the messages, nothing else."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

from ..protocol.messages import Message


def event_frames(frames: list[Message]) -> list[Message]:
    """The numbered game events among ``frames`` (what a history tells)."""
    return [frame for frame in frames if "seq" in frame and frame["type"] != "snapshot"]


@dataclass(frozen=True)
class HandSpan:
    """Where a hand's messages are in a viewer's frames: ``frames[start:end]``."""

    number: int
    """The hand's number; 0 for what came before the first hand (lobby, seating draw)."""
    start: int
    end: int


def hand_spans(frames: list[Message]) -> list[HandSpan]:
    """The hands in a viewer's frames, in order (a newcomer's first hand is the one it
    was dealt into)."""
    starts = [
        (index, frame["hand"])
        for index, frame in enumerate(frames)
        if frame["type"] == "hand_started"
    ]
    spans: list[HandSpan] = []
    first = starts[0][0] if starts else len(frames)
    if first > 0:
        spans.append(HandSpan(0, 0, first))
    for position, (index, number) in enumerate(starts):
        end = starts[position + 1][0] if position + 1 < len(starts) else len(frames)
        spans.append(HandSpan(number, index, end))
    return spans


def hand_result(frames: list[Message], span: HandSpan) -> dict[str, Any] | None:
    """The ``hand_ended`` message of that hand, if it was finished."""
    return next(
        (f for f in frames[span.start : span.end] if f["type"] == "hand_ended"),
        None,
    )


@dataclass(frozen=True)
class GameSpan:
    """Where one game at a table is in a viewer's frames: ``frames[start:end]``. A table
    plays a second game, and more, when its host player offers a rematch."""

    number: int
    """1 for the table's first game, 2 for its first rematch..."""
    start: int
    end: int


class HandCounter:
    """Which game and hand each message of a viewer's stream belongs to, as the stream
    goes (a recorder cannot look ahead). Game 1 is the table's first; a rematch's lobby
    (the table back in its lobby after ``table_ended``) opens the next, whose hands count
    from 1 again. Hand 0 is what comes before a game's first hand (lobby, seating draw)."""

    def __init__(self) -> None:
        self.game = 1
        self.hand = 0
        self._ended = False

    def of(self, message: Message) -> tuple[int, int]:
        """``(game, hand)`` of ``message``, the next message of the stream."""
        kind = message["type"]
        if kind == "table_ended":
            self._ended = True
        elif self._ended and kind in ("table", "snapshot"):
            if message["table"]["phase"] == "lobby":
                self.game, self.hand, self._ended = self.game + 1, 0, False
        elif kind == "hand_started":
            self.hand = int(message["hand"])
        return self.game, self.hand


def game_spans(frames: list[Message]) -> list[GameSpan]:
    """The games in a viewer's frames, in order, numbered as ``HandCounter`` numbers
    them. A rematch offered but never dealt is no game: its lobby stays with the game
    before it."""
    counter = HandCounter()
    numbers = [counter.of(frame)[0] for frame in frames]
    games: list[GameSpan] = []
    for _, group in itertools.groupby(range(len(frames)), key=numbers.__getitem__):
        indices = list(group)
        start, end = indices[0], indices[-1] + 1
        dealt = any(frames[i]["type"] == "hand_started" for i in indices)
        if games and not dealt:
            games[-1] = GameSpan(games[-1].number, games[-1].start, end)
        else:
            games.append(GameSpan(len(games) + 1, start, end))
    return games or [GameSpan(1, 0, 0)]
