"""The WebSocket channel at /protocol: the same messages, one binary message each."""

from __future__ import annotations

import trio
from trio_websocket import ConnectionRejected

from ..context import Context
from ..registry import Section, case
from ..wire import CaseFailed, CaseSkipped, WsPeer, open_ws, pack


@case("ws.hello-welcome", Section.WEBSOCKET, transport="ws")
async def hello(ctx: Context) -> None:
    """Each message is one binary WebSocket message holding the msgpack body alone; the host answers
    in binary messages too."""
    peer = await ctx.ws()
    await peer.send(ctx.hello(ctx.name(), "spectator"))
    await peer.expect("welcome")
    await peer.expect("snapshot")


@case("ws.text-is-bad-frame", Section.WEBSOCKET, transport="ws")
async def text(ctx: Context) -> None:
    """A text message is not a frame: its bytes are taken as a body, refused as any malformed body
    (bad_frame), and the WebSocket closed (1000)."""
    peer = await ctx.ws()
    await peer.send_text("hello")
    await peer.expect_error("bad_frame", fatal=True)
    await peer.expect_closed()
    if peer.close_code not in (1000, None):
        raise CaseFailed(f"the WebSocket closed with code {peer.close_code}")


@case("ws.too-large", Section.WEBSOCKET, transport="ws")
async def too_large(ctx: Context) -> None:
    """A message over 65536 bytes (up to twice that) is refused with too_large and the connection
    closed."""
    peer = await ctx.ws()
    await peer.send_body(pack({"type": "about", "pad": ["x" * 8000] * 9}))
    await peer.expect_error("too_large", fatal=True)
    await peer.expect_closed()


@case("ws.far-too-large", Section.WEBSOCKET, transport="ws")
async def far_too_large(ctx: Context) -> None:
    """A message over twice the limit is refused by the WebSocket layer itself (close code 1009)."""
    peer = await ctx.ws()
    await peer.send_body(b"\x81" + b"x" * (2 * 65536 + 10))
    got = await peer.expect_closed()
    if peer.close_code != 1009:
        raise CaseFailed(
            f"the WebSocket closed with code {peer.close_code} after {[m.get('type') for m in got]}"
        )


@case("ws.foreign-origin-403", Section.WEBSOCKET, transport="ws")
async def origin(ctx: Context) -> None:
    """An Origin that is not the host's own page is refused with HTTP 403 before the WebSocket
    opens."""
    refused: ConnectionRejected | None = None
    try:
        async with trio.open_nursery() as nursery:
            await open_ws(
                nursery, ctx.options.host, ctx.web_port(), "foreign", origin="http://evil.example"
            )
            nursery.cancel_scope.cancel()
    except* ConnectionRejected as group:
        found = group.exceptions[0]
        assert isinstance(found, ConnectionRejected)
        refused = found
    except* OSError as group:
        raise CaseSkipped(
            f"no WebSocket at port {ctx.web_port()} ({group.exceptions[0]})"
        ) from None
    if refused is not None:
        if refused.status_code != 403:
            raise CaseFailed(f"a foreign Origin got HTTP {refused.status_code}")
        return
    raise CaseFailed("a WebSocket from http://evil.example was accepted")


@case("ws.own-origin-accepted", Section.WEBSOCKET, transport="ws")
async def own_origin(ctx: Context) -> None:
    """The host's own page (Origin http://HOST:WEBPORT) is accepted."""
    peer = await ctx.ws(origin=f"http://{ctx.options.host}:{ctx.web_port()}")
    await peer.send({"type": "about"})
    await peer.expect("about")


@case("ws.fatal-closes-1000", Section.WEBSOCKET, transport="ws")
async def fatal_close(ctx: Context) -> None:
    """After a fatal error the host closes the WebSocket with code 1000."""
    peer = await ctx.ws()
    await peer.send({"type": "x_nonsense"})
    await peer.expect("error")
    await peer.expect_closed()
    if peer.close_code != 1000:
        raise CaseFailed(f"the WebSocket closed with code {peer.close_code}")


@case("ws.same-rules", Section.WEBSOCKET, transport="ws")
async def same_rules(ctx: Context) -> None:
    """Everything of the TCP protocol holds: not_hello first, ack before its effects."""
    peer: WsPeer = await ctx.ws()
    await peer.send({"type": "about", "id": 3})
    first = await peer.next()
    if not first or first.get("type") != "ack":
        raise CaseFailed(f"about with an id got {first}")
    await peer.expect("about")
    other = await ctx.ws()
    await other.send({"type": "chat", "text": "hi"})
    await other.expect_error("not_hello", fatal=True)
    await trio.sleep(0)
