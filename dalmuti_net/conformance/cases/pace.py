"""Bot pace: the host's bots wait for people, and play flat out for programs."""

from __future__ import annotations

import trio

from ..context import Context
from ..game import autoplay, must, new_game
from ..registry import Section, Stage, case
from ..wire import CaseFailed, Message, Peer

PACE_MS = 400


async def bot_gaps(peer: Peer, bots: set[int], moves: int) -> list[float]:
    """Seconds between consecutive moves of two of the host's bots, as ``peer`` saw them."""
    gaps: list[float] = []
    last: tuple[int, float] | None = None
    while len(gaps) < moves:
        message: Message = await peer.expect(
            lambda m: m.get("type") in ("played", "passed", "hand_started"),
            timeout=10,
            what="the bots' moves",
        )
        now = trio.current_time()
        if message["type"] == "hand_started":
            last = None
            continue
        if message.get("player") in bots:
            if last is not None and last[0] != message["player"]:
                gaps.append(now - last[1])
            last = (message["player"], now)
        else:
            last = None
    return gaps


@case("liveness.bot-pace-for-people", Section.LIVENESS, stage=Stage.GAME)
async def paced(ctx: Context) -> None:
    """While a connection that said person: true watches, the host's bots answer no sooner than
    bot_pace_ms after their decision arrived."""
    game = await new_game(ctx, timing={"bot_pace_ms": PACE_MS}, start=False)
    watcher = await ctx.join(role="spectator", person=True)
    await must(game.host.peer, {"type": "start"}, 1)
    ctx.helpers.start_soon(autoplay, game.host.peer)
    gaps = await bot_gaps(watcher.peer, set(game.bots), 3)
    if min(gaps) < PACE_MS / 1000 * 0.9:
        raise CaseFailed(
            f"with a person watching, bots moved {min(gaps) * 1000:.0f} ms apart"
            f" (bot_pace_ms {PACE_MS})"
        )


@case("liveness.bot-pace-not-for-programs", Section.LIVENESS, stage=Stage.GAME)
async def flat_out(ctx: Context) -> None:
    """At a table of programs (no hello said person: true) the host's bots play flat out, whatever
    bot_pace_ms says."""
    game = await new_game(ctx, timing={"bot_pace_ms": 5000}, start=False)
    watcher = await ctx.join(role="spectator")
    await must(game.host.peer, {"type": "start"}, 1)
    ctx.helpers.start_soon(autoplay, game.host.peer)
    gaps = await bot_gaps(watcher.peer, set(game.bots), 3)
    if min(gaps) >= 2.5:
        raise CaseFailed(
            f"with programs only, bots moved {min(gaps):.1f} s apart (bot_pace_ms 5000)"
        )
