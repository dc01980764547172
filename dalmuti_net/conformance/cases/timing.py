"""Time-outs the host keeps: each on a connection of its own, waited out beside the rest."""

from __future__ import annotations

import struct

import trio

from ..context import Context
from ..registry import Section, case
from ..wire import CaseFailed


@case("states.hello-deadline", Section.STATES, background=True)
async def hello_deadline(ctx: Context) -> None:
    """A connection MUST send a valid hello within 10 s; whatever it sends meanwhile (about), the
    host then closes it with timeout."""
    ctx.wait_allowed("the hello deadline", 10_000)
    peer = await ctx.connect()
    started = trio.current_time()
    peer.heartbeats = False
    while trio.current_time() - started < 8:
        await peer.send({"type": "about"})
        await peer.expect("about")
        await trio.sleep(2)
    error = await peer.expect("error", timeout=5)
    took = trio.current_time() - started
    if error.get("code") != "timeout" or error.get("fatal") is not True:
        raise CaseFailed(f"got {error.get('code')!r}")
    if not 9.0 <= took <= 12.0:
        raise CaseFailed(f"the timeout came after {took:.1f} s, not 10 s")
    await peer.expect_closed()


@case("liveness.silence-timeout", Section.LIVENESS, background=True)
async def silence(ctx: Context) -> None:
    """The host closes a connection it has received no whole frame from for heartbeat_timeout_ms
    with a timeout error; bytes of a frame not yet complete do not count."""
    seat = await ctx.join(role="spectator")
    timeout = seat.welcome["limits"]["heartbeat_timeout_ms"]
    ctx.wait_allowed("the heartbeat timeout", timeout)
    peer = seat.peer
    peer.heartbeats = False
    started = trio.current_time()
    await peer.quiet(timeout / 2000)  # read all the while (a slow reader is dropped)
    await peer.send_bytes(struct.pack(">I", 20) + b"\x82")  # a frame begun, never finished
    while True:
        message = await peer.next(timeout=timeout / 1000 + 3)
        if message is None:
            raise CaseFailed(
                f"the host closed the connection without an error after"
                f" {trio.current_time() - started:.1f} s (got"
                f" {[m.get('type') for m in peer.received[-5:]]})"
            )
        if message.get("type") == "error":
            break
    took = trio.current_time() - started
    if message.get("code") != "timeout" or message.get("fatal") is not True:
        raise CaseFailed(f"got {message.get('code')!r}")
    if not timeout / 1000 - 0.5 <= took <= timeout / 1000 + 2.5:
        raise CaseFailed(f"the timeout came after {took:.1f} s, not {timeout / 1000:g} s")


@case("liveness.host-heartbeats", Section.LIVENESS, background=True)
async def host_heartbeats(ctx: Context) -> None:
    """Each side MUST send a frame at least every heartbeat_interval_ms: the host sends a heartbeat
    after an interval in which it sent that connection nothing else."""
    seat = await ctx.join(role="spectator")
    interval = seat.welcome["limits"]["heartbeat_interval_ms"] / 1000
    ctx.wait_allowed("the heartbeat interval", int(interval * 1000 * 1.5))
    peer = seat.peer
    last = trio.current_time()
    deadline = last + interval * 1.6
    beats = 0
    while trio.current_time() < deadline:
        message = await peer.maybe_next(deadline - trio.current_time())
        if message is None:
            raise CaseFailed("the host closed the connection")
        if message is False:
            break
        assert isinstance(message, dict)
        gap = trio.current_time() - last
        if gap > interval + 2.0:
            raise CaseFailed(f"the host was silent {gap:.1f} s")
        last = trio.current_time()
        beats += message.get("type") == "heartbeat"
    if trio.current_time() - last > interval + 2.0:
        raise CaseFailed(f"the host sent nothing for {trio.current_time() - last:.1f} s")
