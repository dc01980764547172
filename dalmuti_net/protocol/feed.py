"""Numbered event streams per viewer, and snapshots: what each connection is sent.

Which events a viewer sees is decided by ``engine.views.can_see`` alone; this module only
numbers them (1, 2, 3... per viewer, so a gap means a missed message) and packs them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from ..engine import Decision, Event, Observation, Viewer, can_see
from ..engine.events import HandStarted, Waiting, event_to_dict
from .catalogue import MAX_HAND_EVENTS
from .codec import NumberedEvent
from .messages import Message, decision_message, event_message, observation_dict


class ViewerFeed:
    """One viewer's event stream: a player's seat, or all spectators (viewer ``None``)."""

    def __init__(self, viewer: Viewer, seq: int = 0) -> None:
        self.viewer = viewer
        self.seq = seq

    def messages(
        self, events: Iterable[Event], fields: dict[int, Message] | None = None
    ) -> list[Message]:
        """The events this viewer may see, numbered. ``fields``, shared by the feeds of
        one batch, keeps each event's fields converted once for every viewer."""
        out: list[Message] = []
        for event in events:
            if can_see(event, self.viewer):
                self.seq += 1
                if fields is None:
                    out.append(event_message(event, self.seq))
                    continue
                converted = fields.get(id(event))
                if converted is None:
                    converted = fields[id(event)] = event_to_dict(event)
                out.append(NumberedEvent(converted, self.seq))
        return out


def snapshot_message(
    seq: int,
    viewer: Viewer,
    table: dict[str, Any],
    observation: Observation | None,
    decision: Decision | None,
    deadline_ms: int | None = None,
    decision_id: int = 0,
    hand_events: Sequence[Event] = (),
) -> Message:
    return {
        "type": "snapshot",
        "seq": seq,
        "you": viewer,
        "table": table,
        "game": None if observation is None else observation_dict(observation),
        "decision": None
        if decision is None
        else decision_message(decision, deadline_ms, decision_id=decision_id),
        "hand_events": [event_to_dict(event) for event in hand_events],
    }


def hand_events(log: Sequence[Event], viewer: Viewer) -> list[Event]:
    """The hand so far as ``viewer`` was told it, for a snapshot: the events of ``log`` (the
    game's, from the last hand's result on) that ``viewer`` may see, from ``hand_started``
    on, without ``waiting`` (the snapshot's decision and game say who owes what now)."""
    return [log[at] for at in hand_event_positions(log, viewer)]


def hand_event_positions(log: Sequence[Event], viewer: Viewer) -> list[int]:
    """Where in ``log`` each of ``hand_events(log, viewer)`` is: an event is known by its
    place, never by its identity (the engine builds a seat's ``passed`` and ``waiting``
    once and logs the same object at every pass)."""
    start = next((i for i, event in enumerate(log) if isinstance(event, HandStarted)), 0)
    told = [
        at
        for at in range(start, len(log))
        if not isinstance(log[at], Waiting) and can_see(log[at], viewer)
    ]
    return told[-MAX_HAND_EVENTS:]
