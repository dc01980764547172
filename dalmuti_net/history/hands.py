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


def game_spans(frames: list[Message]) -> list[GameSpan]:
    """The games in a viewer's frames, in order: each ends with its ``table_ended``, and
    what follows (the rematch's lobby and seating) belongs to the next. A rematch offered
    but never dealt is no game."""
    ends = [index + 1 for index, frame in enumerate(frames) if frame["type"] == "table_ended"]
    bounds = [0, *ends]
    if not ends or ends[-1] < len(frames):
        bounds.append(len(frames))
    games: list[GameSpan] = []
    for start, end in itertools.pairwise(bounds):
        dealt = any(frame["type"] == "hand_started" for frame in frames[start:end])
        if not games or dealt:
            games.append(GameSpan(len(games) + 1, start, end))
    return games
