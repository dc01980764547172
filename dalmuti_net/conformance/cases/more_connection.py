"""More of the connection's life: refusals before hello, join codes, replies, HTTP paths."""

from __future__ import annotations

import trio

from ..context import Context
from ..registry import Section, case
from ..wire import CaseFailed, CaseSkipped, frame, pack


@case("states.unknown-type-before-hello", Section.STATES)
async def unknown_first(ctx: Context) -> None:
    """Before welcome, a type no client may send is refused with unknown_type (fatal), as after
    it."""
    peer = await ctx.connect()
    await peer.send({"type": "x_teleport"})
    await peer.expect_error("unknown_type", fatal=True)
    await peer.expect_closed()


@case("states.timers-after-welcome", Section.STATES)
async def timers_welcome(ctx: Context) -> None:
    """A timers message follows every snapshot, the one after welcome in the lobby too (empty when
    nothing counts down) (issue 41, wrong statement 11)."""
    seat = await ctx.join(role="spectator")
    timers = await seat.peer.expect("timers", timeout=3, what="a timers after the snapshot")
    if not isinstance(timers.get("grace"), list) or not isinstance(timers.get("turn"), list):
        raise CaseFailed(f"the timers is {timers}")


@case("framing.map-without-type", Section.FRAMING)
async def without_type(ctx: Context) -> None:
    """A map without a str type is a message problem: bad_message, not fatal (the map itself is a
    frame)."""
    seat = await ctx.join(role="spectator")
    for body in ({"name": "nobody"}, {"type": 7}):
        await seat.peer.send(body)
        await seat.peer.expect_error("bad_message", fatal=False)
    await seat.peer.send({"type": "about"})
    await seat.peer.expect("about")


@case("security.join-code-missing", Section.SECURITY)
async def code_missing(ctx: Context) -> None:
    """A table MAY require a join code: a hello without the code gets bad_code and is closed."""
    if ctx.options.code is None:
        raise CaseSkipped("the host was not started with a join code (give its --code)")
    peer = await ctx.connect()
    hello = ctx.hello(ctx.name(), "spectator")
    del hello["code"]
    await peer.send(hello)
    await peer.expect_error("bad_code", fatal=True)
    await peer.expect_closed()


@case("security.join-code-wrong", Section.SECURITY)
async def code_wrong(ctx: Context) -> None:
    """A hello with a wrong join code gets bad_code (fatal); about says code_required."""
    if ctx.options.code is None:
        raise CaseSkipped("the host was not started with a join code (give its --code)")
    about = await ctx.about()
    if about.get("code_required") is not True:
        raise CaseFailed("about.code_required is not true at a host with a join code")
    peer = await ctx.connect()
    await peer.send({**ctx.hello(ctx.name(), "spectator"), "code": "x" + ctx.options.code})
    await peer.expect_error("bad_code", fatal=True)
    await peer.expect_closed()


@case("requests.ack-before-chat", Section.REQUESTS)
async def ack_chat(ctx: Context) -> None:
    """A chat with an id: the ack comes before the chat it caused, which carries no re."""
    seat = await ctx.join(role="spectator")
    await seat.peer.send({"type": "chat", "text": "in order", "id": 41})
    reply = await seat.peer.expect(lambda m: m.get("type") in ("ack", "chat"))
    if reply.get("type") != "ack" or reply.get("re") != 41:
        raise CaseFailed(f"the chat came before its ack: {reply}")
    line = await seat.peer.expect("chat")
    if "re" in line:
        raise CaseFailed("the chat carries re")


@case("requests.snapshot-request", Section.REQUESTS)
async def snapshot_request(ctx: Context) -> None:
    """snapshot_request: a fresh snapshot, after the ack when it has an id."""
    seat = await ctx.join(role="spectator")
    await seat.peer.send({"type": "snapshot_request", "id": 9})
    first = await seat.peer.expect(lambda m: m.get("type") in ("ack", "snapshot"))
    if first["type"] != "ack" or first.get("re") != 9:
        raise CaseFailed(f"snapshot_request with an id got {first['type']} before its ack")
    snapshot = await seat.peer.expect("snapshot")
    if snapshot.get("seq", -1) < seat.snapshot["seq"]:
        raise CaseFailed("the fresh snapshot's seq went back")


async def _http(ctx: Context, path: str) -> int:
    try:
        stream = await trio.open_tcp_stream(ctx.options.host, ctx.web_port())
    except OSError as error:
        raise CaseSkipped(f"no web port at {ctx.web_port()} ({error})") from None
    async with stream:
        host = f"{ctx.options.host}:{ctx.web_port()}"
        await stream.send_all(f"GET {path} HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
        data = b""
        with trio.move_on_after(5):
            while b"\r\n" not in data:
                chunk = await stream.receive_some(4096)
                if not chunk:
                    break
                data += chunk
    parts = data.split(b" ", 2)
    if len(parts) < 2 or not parts[1].isdigit():
        raise CaseFailed(f"GET {path} got {data[:60]!r}")
    return int(parts[1])


@case("ws.frame-at-web-port-400", Section.WEBSOCKET, transport="ws")
async def frame_at_web_port(ctx: Context) -> None:
    """A TCP client's frame sent to the web port gets 400 at once, its Dalmuti-Port header
    the host's TCP port."""
    try:
        stream = await trio.open_tcp_stream(ctx.options.host, ctx.web_port())
    except OSError as error:
        raise CaseSkipped(f"no web port at {ctx.web_port()} ({error})") from None
    async with stream:
        await stream.send_all(frame(pack({"type": "hello", "version": 1, "name": "Frame"})))
        data = b""
        with trio.move_on_after(5):  # at once: well within the 10 s a head may take
            while b"\r\n\r\n" not in data and len(data) < 8192:
                chunk = await stream.receive_some(4096)
                if not chunk:
                    break
                data += chunk
    head = data.partition(b"\r\n\r\n")[0]
    if not head.startswith(b"HTTP/1.1 400"):
        raise CaseFailed(f"a frame at the web port got {data[:60]!r} (want 400 at once)")
    ports = [
        value.strip()
        for name, _, value in (line.partition(b":") for line in head.split(b"\r\n")[1:])
        if name.strip().lower() == b"dalmuti-port"
    ]
    if ports != [str(ctx.options.port).encode()]:
        raise CaseFailed(f"its Dalmuti-Port headers were {ports!r}, not [{ctx.options.port}]")


@case("ws.other-paths-404", Section.WEBSOCKET, transport="ws")
async def paths(ctx: Context) -> None:
    """The web port serves the page at / and the WebSockets; any other path is 404."""
    if (status := await _http(ctx, "/")) != 200:
        raise CaseFailed(f"GET / got {status}")
    for path in ("/no-such-page", "/protocol/x", "/../etc/passwd"):
        if (status := await _http(ctx, path)) != 404:
            raise CaseFailed(f"GET {path} got {status}")
