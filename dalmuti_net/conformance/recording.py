"""One whole table the suite plays and records once a run: a seat of its own and a
spectator, six seats with the merchant exchange, three hands. Cases of many sections check
their statements on it. Three, not two: a hand whose Peon declares a revolution pays no
taxes and makes no exchange, and with two hands both did about one run in fifty, which left
the tax and exchange cases nothing to read (their "skipped" failed CI once)."""

from __future__ import annotations

from dataclasses import dataclass

import trio

from .context import Context
from .game import new_game, of_type, play_until
from .wire import CaseFailed, CaseSkipped, Message

EVENTS = frozenset(
    {
        "seating_draw",
        "seating_settled",
        "player_joining",
        "player_leaving",
        "player_removed",
        "newcomer_placed",
        "hand_started",
        "misdeal_exposed",
        "misdeal_resolved",
        "misdeal_replacement",
        "cards_dealt",
        "deal_finished",
        "revolution_declared",
        "roles_mirrored",
        "taxes_skipped",
        "tax_paid",
        "tax_cards",
        "merchant_exchange_declined",
        "merchant_exchanged",
        "merchant_exchange_cards",
        "waiting",
        "played",
        "passed",
        "trick_won",
        "went_out",
        "hand_ended",
        "table_ended",
    }
)
"""The event types of this version (REFERENCE.md, Events)."""
PRIVATE = frozenset({"cards_dealt", "tax_cards", "merchant_exchange_cards", "misdeal_replacement"})
NOT_NUMBERED = frozenset(
    {
        "table",
        "decision",
        "timers",
        "moved_for",
        "chat",
        "ack",
        "error",
        "heartbeat",
        "welcome",
        "about",
        "goodbye",
        "challenge",
        "nudged",
    }
)
"""PROTOCOL.md, Numbering and resumes: messages without seq (the snapshot carries the seq of
the last event it includes, but is no event)."""


@dataclass
class Recording:
    player: int
    seat: list[Message]
    """Everything the suite's seat read, from its snapshot to table_ended."""
    watcher: list[Message]
    snapshot_seq: int
    watcher_seq: int


_LOCK = trio.Lock()


async def recording(ctx: Context) -> Recording:
    """The recorded table (played once a run, at the first case that asks)."""
    async with _LOCK:
        found = ctx.shared.recording
        if isinstance(found, Recording):
            return found
        if ctx.shared.recording_failed:
            raise CaseSkipped(
                f"the recorded table could not be played: {ctx.shared.recording_failed}"
            )
        try:
            made = await _record(ctx)
        except (CaseFailed, CaseSkipped) as error:
            ctx.shared.recording_failed = str(error)
            raise
        ctx.shared.recording = made
        return made


async def _record(ctx: Context) -> Recording:
    game = await new_game(
        ctx, bots=5, rules={"merchant_exchange": True, "hand_limit": 3}, start=False
    )
    watcher = await ctx.join(role="spectator")
    seat = game.host
    seat_from = len(seat.peer.received)
    snapshot_seq = seat.snapshot["seq"]
    await seat.peer.send({"type": "snapshot_request"})
    snapshot_seq = (await seat.peer.expect("snapshot"))["seq"]
    await seat.peer.send({"type": "start"})
    await play_until(seat.peer, of_type("table_ended"), timeout=30, what="the table's end")
    await watcher.peer.expect("table_ended", timeout=10)
    await seat.peer.quiet(0.3)
    await watcher.peer.quiet(0.1)
    return Recording(
        seat.player,
        seat.peer.received[seat_from:],
        watcher.peer.received,
        snapshot_seq,
        watcher.snapshot["seq"],
    )


def hands(messages: list[Message]) -> list[list[Message]]:
    """The messages from each hand_started to the next (the first hand from its start)."""
    found: list[list[Message]] = []
    for message in messages:
        if message.get("type") == "hand_started":
            found.append([])
        if found:
            found[-1].append(message)
    return found
