"""Seats in a game: newcomers placed, kicks, what a leave would do."""

from __future__ import annotations

from ..context import Context
from ..game import (
    autoplay,
    guest_past_revolution_check,
    latest_table,
    must,
    new_game,
    play_until,
    removed_before_next_hand,
    seat_of,
)
from ..registry import Section, Stage, case
from ..wire import CaseFailed


@case("shape.newcomer-placed-before-hand", Section.SHAPE, stage=Stage.GAME)
async def placed(ctx: Context) -> None:
    """Between hands a newcomer's newcomer_placed (after a waiting placement and the Greater
    Dalmuti's decision, if it may sit in more than one place) comes before the table and
    hand_started, whose order holds it."""
    game = await new_game(ctx, rules={"hand_limit": 3})
    peer = game.host.peer
    await peer.expect("hand_started")
    late = await ctx.join(name=ctx.name("Late"))
    ctx.helpers.start_soon(autoplay, late.peer)  # its ready, and a placement if it is asked
    got = await play_until(
        peer, lambda m: m.get("type") == "hand_started", timeout=20, what="the next hand"
    )
    kinds = [m.get("type") for m in got]
    if "newcomer_placed" not in kinds:
        raise CaseFailed("no newcomer_placed before the next hand")
    where = kinds.index("newcomer_placed")
    placed_event = got[where]
    if placed_event.get("player") != late.player or late.player not in got[-1]["order"]:
        raise CaseFailed(f"newcomer_placed {placed_event}, order {got[-1]['order']}")
    if got[-1]["order"][placed_event["position"]] != late.player:
        raise CaseFailed("the newcomer does not sit at the position newcomer_placed said")
    ended = next(m for m in got if m.get("type") == "hand_ended")
    chosen = "placement" in [m.get("phase") for m in got if m.get("type") == "waiting"]
    if chosen and placed_event.get("chosen_by") != ended["finishing"][0]:
        raise CaseFailed(f"chosen_by {placed_event.get('chosen_by')}, not the coming GD")
    events_after = [k for k in kinds[where + 1 :] if k not in ("timers", "decision", "chat")]
    if events_after[-1] != "hand_started" or "table" not in events_after:
        raise CaseFailed(f"after newcomer_placed came {events_after}")


@case("lobby.kick-mid-game", Section.LOBBY, stage=Stage.GAME)
async def kick(ctx: Context) -> None:
    """kick in a game: the connection is closed with kicked; the player leaves before the next hand
    (player_removed)."""
    game, guest = await guest_past_revolution_check(ctx)
    peer = game.host.peer
    guest.peer.leave_on_close = False
    await must(peer, {"type": "kick", "player": guest.player}, 1)
    await guest.peer.expect_error("kicked", fatal=True)
    await removed_before_next_hand(peer, guest.player, "the kicked player")


async def _guest_leave_ends(ctx: Context, bots: int) -> object:
    game = await new_game(ctx, bots=bots, humans=1, start=False)
    await must(game.host.peer, {"type": "start"}, 1)
    guest = game.others[0]
    table = await latest_table(guest.peer, lambda t: t["phase"] == "playing")
    return (seat_of(table, guest.player) or {}).get("leave_ends")


@case("lobby.leave-ends-nothing", Section.LOBBY, stage=Stage.GAME)
async def leave_ends_nil(ctx: Context) -> None:
    """Each seat's leave_ends says what its leave would do now: nil (or absent) when it ends nothing
    (five seats: four would remain)."""
    found = await _guest_leave_ends(ctx, bots=3)
    if found is not None:
        raise CaseFailed(f"with five seats a guest's leave_ends is {found!r}")


@case("lobby.leave-ends-after-hand", Section.LOBBY, stage=Stage.GAME)
async def leave_ends_after(ctx: Context) -> None:
    """leave_ends is after_hand when fewer than four players would be left (a bot plays the seat to
    the end of the hand, then the table ends)."""
    found = await _guest_leave_ends(ctx, bots=2)
    if found != "after_hand":
        raise CaseFailed(f"with four seats a guest's leave_ends is {found!r}")
