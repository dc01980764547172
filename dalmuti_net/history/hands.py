"""A viewer's messages cut into hands: pure functions of the messages, nothing else."""

from __future__ import annotations

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
