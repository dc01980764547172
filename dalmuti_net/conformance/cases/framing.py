"""Framing: lengths, msgpack's kinds and limits, the characters strings may hold."""

from __future__ import annotations

import struct

import msgpack

from ..context import Context
from ..game import refuse
from ..registry import Section, Stage, case
from ..wire import CaseFailed, Message, pack

MAX_BODY = 65536


async def _refused_frame(ctx: Context, body: bytes, code: str = "bad_frame") -> None:
    """Send ``body`` as a connection's first frame: the host answers ``code``, fatal, and
    closes the connection."""
    peer = await ctx.connect()
    await peer.send_body(body)
    await peer.expect_error(code, fatal=True)
    await peer.expect_closed()


async def _refused_after_about(ctx: Context, message: Message, code: str = "bad_frame") -> None:
    """As ``_refused_frame``, after an accepted `about` (so the refusal is the frame's)."""
    peer = await ctx.connect()
    await peer.send({"type": "about"})
    await peer.expect("about")
    await peer.send_body(pack(message))
    await peer.expect_error(code, fatal=True)
    await peer.expect_closed()


@case("framing.zero-length", Section.FRAMING)
async def zero_length(ctx: Context) -> None:
    """A frame whose length is 0 is a bad_frame (fatal, closed)."""
    await _refused_frame(ctx, b"")


@case("framing.not-a-map", Section.FRAMING)
async def not_a_map(ctx: Context) -> None:
    """A body that is not a msgpack map is a bad_frame (fatal)."""
    await _refused_frame(ctx, pack(["about"]))


@case("framing.bytes-after-the-map", Section.FRAMING)
async def trailing(ctx: Context) -> None:
    """The body is exactly one map: anything after it inside the frame is a bad_frame."""
    await _refused_frame(ctx, pack({"type": "about"}) + pack(1))


@case("framing.keys-are-strings", Section.FRAMING)
async def int_key(ctx: Context) -> None:
    """A map key that is not a str is a bad_frame."""
    await _refused_frame(ctx, pack({"type": "about", 7: "seven"}))


@case("framing.too-large-refused-from-header", Section.FRAMING)
async def too_large(ctx: Context) -> None:
    """A header declaring more than 65536 bytes gets too_large and the close, before any body is
    sent."""
    peer = await ctx.connect()
    await peer.send_bytes(struct.pack(">I", MAX_BODY + 1))
    await peer.expect_error("too_large", fatal=True)
    await peer.expect_closed()


@case("framing.largest-body-accepted", Section.FRAMING)
async def largest(ctx: Context) -> None:
    """A body of exactly 65536 bytes within every other limit is a frame (and unknown fields in it
    are ignored)."""
    message: Message = {"type": "about"}
    for number in range(8):
        message[f"pad{number}"] = "x" * 8000
    length = MAX_BODY - len(pack(message))
    while len(pack({**message, "pad8": "y" * length})) > MAX_BODY:
        length -= 1
    body = pack({**message, "pad8": "y" * length})
    if len(body) != MAX_BODY:
        raise AssertionError(f"the suite built a body of {len(body)} bytes")
    peer = await ctx.connect()
    await peer.send_body(body)
    await peer.expect("about")


def _ext() -> bytes:
    body: bytes = msgpack.packb({"type": "about", "when": msgpack.ExtType(5, b"1234")})
    return body


@case("framing.no-bin", Section.FRAMING)
async def no_bin(ctx: Context) -> None:
    """A msgpack bin value, of any length, is a bad_frame."""
    await _refused_frame(ctx, msgpack.packb({"type": "about", "blob": b""}, use_bin_type=True))


@case("framing.no-ext", Section.FRAMING)
async def no_ext(ctx: Context) -> None:
    """A msgpack ext value (a timestamp too) is a bad_frame."""
    await _refused_frame(ctx, _ext())


@case("framing.str-limit", Section.FRAMING)
async def str_limit(ctx: Context) -> None:
    """A str over 8192 bytes is a bad_frame (8192 is allowed)."""
    peer = await ctx.connect()
    await peer.send({"type": "about", "note": "z" * 8192})
    await peer.expect("about")
    await peer.send({"type": "about", "note": "z" * 8193})
    await peer.expect_error("bad_frame", fatal=True)
    await peer.expect_closed()


@case("framing.array-limit", Section.FRAMING)
async def array_limit(ctx: Context) -> None:
    """An array over 1024 items is a bad_frame (1024 is allowed)."""
    peer = await ctx.connect()
    await peer.send({"type": "about", "note": [0] * 1024})
    await peer.expect("about")
    await peer.send({"type": "about", "note": [0] * 1025})
    await peer.expect_error("bad_frame", fatal=True)
    await peer.expect_closed()


@case("framing.map-limit", Section.FRAMING)
async def map_limit(ctx: Context) -> None:
    """A map over 64 entries is a bad_frame (64 is allowed)."""
    peer = await ctx.connect()
    allowed: Message = {"type": "about", **{f"k{n}": n for n in range(63)}}
    await peer.send(allowed)
    await peer.expect("about")
    await peer.send({**allowed, "k63": 63})
    await peer.expect_error("bad_frame", fatal=True)
    await peer.expect_closed()


def _nested(levels: int) -> Message:
    """A message whose deepest value sits at ``levels`` (the message map is level 1)."""
    value: object = 1
    for _ in range(levels - 2):
        value = [value]
    return {"type": "about", "deep": value}


@case("framing.nesting-limit", Section.FRAMING)
async def nesting(ctx: Context) -> None:
    """Nesting: at most 8 levels counting the message map as 1 and every value, scalars too; a 9th
    is a bad_frame."""
    peer = await ctx.connect()
    await peer.send(_nested(8))
    await peer.expect("about")
    await peer.send(_nested(9))
    await peer.expect_error("bad_frame", fatal=True)
    await peer.expect_closed()


async def _bad_text_hello(ctx: Context, name: str) -> None:
    """A hello whose name holds ``name`` is refused with bad_message, not fatal; another
    hello on the same connection is then accepted."""
    peer = await ctx.connect()
    await peer.send(ctx.hello(name, role="spectator"))
    await peer.expect_error("bad_message", fatal=False)
    await peer.send(ctx.hello(ctx.name(), role="spectator"))
    await peer.expect("welcome")


@case("framing.control-character-refused", Section.FRAMING)
async def control_char(ctx: Context) -> None:
    """A string with a control character (Cc) is refused with bad_message (not fatal); the refused
    hello may be sent again."""
    await _bad_text_hello(ctx, "Ana\x1b[31m")


@case("framing.c1-control-refused", Section.FRAMING)
async def c1_control(ctx: Context) -> None:
    """U+0085 (a C1 control, Cc) is refused like any Cc."""
    await _bad_text_hello(ctx, "Ana\x85")


@case("framing.bidi-refused", Section.FRAMING)
async def bidi(ctx: Context) -> None:
    """Bidirectional overrides and isolates (U+202E, U+2066) are refused."""
    await _bad_text_hello(ctx, "Ana\u202e")
    await _bad_text_hello(ctx, "Ana\u2066")


@case("framing.separators-refused", Section.FRAMING)
async def separators(ctx: Context) -> None:
    """U+2028 and U+2029 (line, paragraph separators) are refused."""
    await _bad_text_hello(ctx, "Ana\u2028")
    await _bad_text_hello(ctx, "Ana\u2029")


@case("framing.zwj-emoji-allowed", Section.FRAMING)
async def zwj(ctx: Context) -> None:
    """Other format characters stay allowed: a name with a zero-width-joiner emoji sequence is
    accepted."""
    peer = await ctx.connect()
    await peer.send(ctx.hello("Fam \U0001f468\u200d\U0001f469\u200d\U0001f467", "spectator"))
    await peer.expect("welcome")


@case("framing.control-in-unknown-field", Section.FRAMING)
async def control_unknown_field(ctx: Context) -> None:
    """No control character in ANY string: a chat with an unknown field holding ESC is refused with
    bad_message (issue 41, wrong statement 2)."""
    seat = await ctx.join(role="spectator")
    chat = {"type": "chat", "text": "hello", "colour": "\x1b[31m"}
    await refuse(seat.peer, chat, 5, "bad_message", "a chat with ESC in an unknown field")


@case("framing.control-in-key", Section.FRAMING)
async def control_key(ctx: Context) -> None:
    """No control character in any string, map keys too: a chat with a key holding ESC is refused
    with bad_message (issue 41, wrong statement 2)."""
    seat = await ctx.join(role="spectator")
    chat = {"type": "chat", "text": "hello", "x\x1by": 1}
    await refuse(seat.peer, chat, 6, "bad_message", "a chat with ESC in a map key")


@case("framing.any-integer-encoding", Section.FRAMING)
async def int_encoding(ctx: Context) -> None:
    """A decoder MUST accept every valid encoding: a hello whose version is a uint64 (0xcf) is
    accepted."""
    name = ctx.name()
    body = (
        b"\x84"
        + pack("type")
        + pack("hello")
        + pack("version")
        + b"\xcf"
        + struct.pack(">Q", 2)
        + pack("name")
        + pack(name)
        + pack("role")
        + pack("spectator")
    )
    if ctx.options.code is not None:
        body = b"\x85" + body[1:] + pack("code") + pack(ctx.options.code)
    peer = await ctx.connect()
    await peer.send_body(body)
    await peer.expect("welcome")


@case("framing.host-uses-shortest-encoding", Section.FRAMING)
async def shortest(ctx: Context) -> None:
    """Encoders SHOULD use the shortest encoding: every frame the host sends re-encodes to the same
    bytes."""
    seat = await ctx.join(role="spectator")
    await seat.peer.send({"type": "snapshot_request"})
    await seat.peer.expect("snapshot")
    for body in seat.peer.raw_frames:  # type: ignore[attr-defined]
        again = msgpack.packb(msgpack.unpackb(body, raw=False), use_bin_type=True)
        if again != body:
            raise CaseFailed(f"a frame of {len(body)} bytes is not in its shortest encoding")


def clean(text: str) -> bool:
    return not any(
        ord(ch) < 0x20
        or 0x7F <= ord(ch) <= 0x9F
        or ch in "\u2028\u2029"
        or 0x202A <= ord(ch) <= 0x202E
        or 0x2066 <= ord(ch) <= 0x2069
        for ch in text
    )


def strings(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in strings(k) + strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in strings(v)]
    return []


@case("framing.host-strings-clean", Section.FRAMING, stage=Stage.CONNECTION)
async def host_clean(ctx: Context) -> None:
    """No control, bidi or separator character in any string, in both directions: the host's own
    frames hold none."""
    seat = await ctx.join(role="spectator")
    peer = await ctx.connect()
    await peer.send({"type": "chat"})  # refused before hello: its error text counts too
    await peer.expect("error")
    for message in seat.peer.received + peer.received:
        for text in strings(message):
            if not clean(text):
                raise CaseFailed(f"the host sent {text!r}")
