"""What a connection is sent to catch up: a snapshot of the table as its viewer may see it.

A room of its own because a snapshot is the one message that tells a viewer everything at
once (the hand's events it may see, the decision it owes and the time left on it, who moved
for whom, the chat said among those events), so it is where a catch-up could let a secret
through; it reads the table's state (``state.TableState``) and changes nothing but the
connection's outbox. The handshake sends one after every ``welcome``, the table on a
``snapshot_request``.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from typing import Any

from ..engine import Event, Phase, observe
from ..protocol import snapshot_message
from ..protocol.catalogue import SNAPSHOT_CHAT_CHARS
from ..protocol.feed import hand_event_positions
from .records import Connection
from .state import TableState


def _made_by(event: Event) -> int | None:
    """The player who made the move an event tells (``player``, or ``giver`` of a tax)."""
    player = getattr(event, "player", None)
    return player if player is not None else getattr(event, "giver", None)


def send_snapshot(state: TableState, connection: Connection) -> None:
    viewer = None if connection.spectator else connection.player
    feed = state._feeds[viewer]
    observation = decision = None
    told: list[Event] = []
    positions: list[int] = []
    if state.game is not None:
        observation = observe(state.game, viewer)
        positions = hand_event_positions(state.game.log, viewer)
        told = [state.game.log[at] for at in positions]
        if viewer is not None and state.game.phase is not Phase.ENDED:
            decision = state.game.decision_for(viewer)
    asked = state.decisions_asked.get(viewer, 0) if viewer is not None else 0
    snapshot = snapshot_message(
        feed.seq,
        viewer,
        state.table_message(),
        observation,
        decision,
        _time_left(state, viewer, asked) if decision is not None else None,
        asked,
        told,
    )
    marks = _moved_for_marks(state, positions, viewer)
    if marks:
        snapshot["moved_for"] = marks
    chat = chat_for_snapshot(state, positions)
    if chat:
        snapshot["chat"] = chat
    connection.outbox.append(snapshot)
    connection.timers_told = False  # a `timers` follows every snapshot (``tick``)


def _time_left(state: TableState, player: int | None, decision_id: int) -> int | None:
    """A snapshot's ``deadline_ms``: the time left on the seat's turn timer now, the
    whole timer if it has not started yet; None without a turn timer."""
    allowed = state.limits.turn_timer_ms
    if allowed is None or player is None:
        return allowed
    left = state.countdowns.turn_left(player, decision_id, state._now)
    return allowed if left is None else min(allowed, round(left * 1000))


def _moved_for_marks(
    state: TableState, positions: list[int], viewer: int | None
) -> list[dict[str, Any]]:
    """Where in a snapshot's hand events (``positions``: their places in the game's log)
    each move made for a player is: at its first event this viewer was told that the
    player made (a play, a pass, a tax: the last tax given completes everyone's, whose
    events come first), else at its first event this viewer was told."""
    at = {place: index for index, place in enumerate(positions)}
    log = [] if state.game is None else state.game.log
    marks = []
    for start, end, player, by, secret in state._made_for:
        if secret and viewer != player:
            continue
        told = [place for place in range(start, end) if place in at]
        own = [place for place in told if _made_by(log[place]) == player]
        if own or told:
            marks.append({"at": at[(own or told)[0]], "player": player, "by": by})
    return marks


def chat_for_snapshot(state: TableState, positions: Sequence[int] = ()) -> list[dict[str, Any]]:
    """The last chat lines, oldest first, as many as fit ``SNAPSHOT_CHAT_CHARS``; with
    the places in the game's log of a snapshot's hand events (``positions``), each line
    said after some of them says after how many (``after``)."""
    kept: list[dict[str, Any]] = []
    room = SNAPSHOT_CHAT_CHARS
    for line, said in zip(reversed(state.chat), reversed(state._chat_said), strict=True):
        room -= len(line["text"]) + len(line["name"])
        if room < 0:
            break
        after = 0
        if said is not None and said[0] == state._logs:
            after = bisect_left(positions, said[1])
        kept.append({**line, "after": after} if after else line)
    return kept[::-1]
