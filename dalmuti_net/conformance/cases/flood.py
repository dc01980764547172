"""Connection limits: many connections at once (run last, so no other case meets them)."""

from __future__ import annotations

import secrets

import trio

from ..context import Context, seat_id
from ..registry import Section, Stage, case
from ..wire import CaseFailed, CaseSkipped


@case("limits.waiting-per-address", Section.LIVENESS, stage=Stage.FLOOD)
async def waiting(ctx: Context) -> None:
    """At most 8 connections from one address wait to say hello: a newcomer over that is let in, and
    the oldest waiting one, once it has waited 1 s, is closed with too_many_connections (issue 41,
    wrong statement 6)."""
    peers = [await ctx.connect(f"idle {n + 1}") for n in range(8)]
    await trio.sleep(1.2)
    newcomer = await ctx.connect("newcomer")
    try:
        await peers[0].expect_error("too_many_connections", fatal=True, timeout=3)
    except CaseFailed:
        raise CaseFailed(
            "with 8 connections from this address waiting for over 1 s, a ninth did not make"
            " the host close the oldest with too_many_connections"
        ) from None
    await peers[0].expect_closed()
    for peer in peers[1:]:
        await peer.send({"type": "about"})
        await peer.expect("about")
    await newcomer.send(ctx.hello(ctx.name(), "spectator"))
    await newcomer.expect("welcome")


@case("limits.waiting-young-kept", Section.LIVENESS, stage=Stage.FLOOD)
async def young(ctx: Context) -> None:
    """Connections younger than 1 s are kept (clients starting together do not close each other), up
    to four times the number: 32 from one address."""
    peers = [await ctx.connect(f"young {n + 1}") for n in range(12)]
    for peer in peers:
        await peer.send({"type": "about"})
        await peer.expect("about")


@case("limits.waiting-beyond-four-times", Section.LIVENESS, stage=Stage.FLOOD)
async def beyond(ctx: Context) -> None:
    """Beyond four times the number (a 33rd waiting connection from one address) the oldest is
    closed however young."""
    peers = [await ctx.connect(f"crowd {n + 1}") for n in range(33)]
    await peers[0].expect_error("too_many_connections", fatal=True, timeout=2)
    await peers[-1].send({"type": "about"})
    await peers[-1].expect("about")


@case("limits.resume-after-flood", Section.LIVENESS, stage=Stage.FLOOD)
async def resume_after_flood(ctx: Context) -> None:
    """A connection that sent a hello with resume is neither counted nor closed to make room: a
    resume right after a flood from its own address gets its challenge and keeps it."""
    if ctx.shared.host_token is None:
        raise CaseSkipped("the suite holds no seat at this table (no game case ran)")
    token = ctx.shared.host_token
    flood = [await ctx.connect(f"flood {n + 1}") for n in range(20)]
    peer = await ctx.connect("resume")
    nonce = secrets.token_hex(16)
    await peer.send(ctx.hello(ctx.name(), resume={"seat": seat_id(token), "nonce": nonce}))
    reply = await peer.expect(lambda m: m.get("type") in ("challenge", "error"))
    if reply["type"] != "challenge":
        raise CaseFailed(f"a resume after {len(flood)} idle connections got {reply.get('code')}")
    await trio.sleep(1.2)
    for extra in range(3):
        await ctx.connect(f"late {extra}")
    await peer.stays_open(0.5)
