"""Who may see what: the one place that turns the events' audience tags into views.

A viewer is a player id, or ``None`` for a spectator, who sees public events only.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from .events import Event
from .observation import Observation

if TYPE_CHECKING:
    from .game import Game

Viewer = int | None


def can_see(event: Event, viewer: Viewer) -> bool:
    audience = event.audience()
    return audience is None or (viewer is not None and viewer in audience)


def visible(events: Iterable[Event], viewer: Viewer) -> list[Event]:
    return [event for event in events if can_see(event, viewer)]


def observe(game: Game, viewer: Viewer) -> Observation:
    """What ``viewer`` may know now (RULES.md rule 20), rebuilt from the hand's events."""
    if not game.keeps_log:
        raise ValueError("this game was stepped without events: it keeps no log to observe")
    observation = Observation(viewer)
    for event in visible(game.log, viewer):
        observation.apply(event)
    return observation
