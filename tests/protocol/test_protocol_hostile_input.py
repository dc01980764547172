"""Hostile bytes at the decoder: only ProtocolError with a documented code ever comes out."""

from __future__ import annotations

import struct
from typing import Any

import msgpack
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from dalmuti_net.protocol import Direction, FrameReader, ProtocolError, decode, encode
from dalmuti_net.protocol.codec import MAX_DEPTH
from dalmuti_net.protocol.errors import DESCRIPTIONS, ErrorCode
from tools.examples import EXAMPLES

DECODE_CODES = {ErrorCode.BAD_FRAME, ErrorCode.UNKNOWN_TYPE, ErrorCode.BAD_MESSAGE}
VALID_BODIES = [(e.direction, encode(e.message)[4:]) for e in EXAMPLES]
MAX = 64 * 1024


def assert_decodes_or_refuses(body: bytes, direction: Direction) -> None:
    try:
        message = decode(body, direction)
    except ProtocolError as error:
        assert error.code in DECODE_CODES and error.code in DESCRIPTIONS
        assert error.fatal == (error.code is not ErrorCode.BAD_MESSAGE)
    else:
        assert isinstance(message, dict) and isinstance(message["type"], str)


directions = st.sampled_from(list(Direction))

# Any msgpack-able value, including the kinds the codec refuses (bin, float keys, nesting).
scalars = (
    st.none()
    | st.booleans()
    | st.integers(-(2**63), 2**64 - 1)
    | st.floats()
    | st.text(max_size=20)
    | st.binary(max_size=8)
)
msgpack_values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.text(max_size=8) | st.integers(0, 9), inner, max_size=4)
    ),
    max_leaves=20,
)


@given(body=st.binary(max_size=200), direction=directions)
@example(body=b"", direction=Direction.TO_HOST)
@example(body=b"\xc1", direction=Direction.TO_HOST)  # never used in msgpack
@example(body=b"\xdd\xff\xff\xff\xff", direction=Direction.TO_HOST)  # array of 4 G items
@example(body=b"\xdf\xff\xff\xff\xff", direction=Direction.TO_CLIENT)  # map of 4 G entries
@example(body=b"\xdb\xff\xff\xff\xff", direction=Direction.TO_HOST)  # str of 4 GB
@example(body=b"\xd6\xff\x00\x00\x00\x00", direction=Direction.TO_HOST)  # timestamp ext
def test_random_bytes(body: bytes, direction: Direction) -> None:
    assert_decodes_or_refuses(body, direction)


@given(data=st.data())
def test_mutated_valid_frames(data: Any) -> None:
    direction, body = data.draw(st.sampled_from(VALID_BODIES))
    mutated = bytearray(body)
    for _ in range(data.draw(st.integers(1, 4))):
        action = data.draw(st.sampled_from(["flip", "insert", "delete", "truncate"]))
        at = data.draw(st.integers(0, max(len(mutated) - 1, 0)))
        if action == "flip" and mutated:
            mutated[at] ^= data.draw(st.integers(1, 255))
        elif action == "insert":
            mutated[at:at] = data.draw(st.binary(min_size=1, max_size=4))
        elif action == "delete" and mutated:
            del mutated[at]
        else:
            del mutated[at:]
    assert_decodes_or_refuses(bytes(mutated), direction)


@given(data=st.data())
def test_fields_of_the_wrong_type(data: Any) -> None:
    example_ = data.draw(st.sampled_from(EXAMPLES))
    message = dict(example_.message)
    key = data.draw(st.sampled_from(sorted(message)))
    message[key] = data.draw(msgpack_values)
    body = msgpack.packb(message, use_bin_type=True)
    assert_decodes_or_refuses(body, example_.direction)


@given(value=msgpack_values, direction=directions)
def test_arbitrary_msgpack_values(value: Any, direction: Direction) -> None:
    assert_decodes_or_refuses(msgpack.packb(value, use_bin_type=True), direction)


@given(data=st.data())
def test_truncated_frames_wait_and_never_decode_early(data: Any) -> None:
    _, body = data.draw(st.sampled_from(VALID_BODIES))
    frame = struct.pack(">I", len(body)) + body
    cut = data.draw(st.integers(0, len(frame) - 1))
    reader = FrameReader()
    assert reader.feed(frame[:cut]) == []
    assert reader.feed(frame[cut:]) == [body]


@given(length=st.integers(MAX + 1, 2**32 - 1), rest=st.binary(max_size=16))
@example(length=MAX + 1, rest=b"")
@example(length=2**32 - 1, rest=b"\x80")
def test_huge_declared_lengths_are_refused_from_the_header(length: int, rest: bytes) -> None:
    reader = FrameReader()
    with pytest.raises(ProtocolError) as raised:
        reader.feed(struct.pack(">I", length) + rest)
    assert raised.value.code is ErrorCode.TOO_LARGE and raised.value.fatal
    assert reader.buffered == 0


def test_the_largest_allowed_frame_is_accepted() -> None:
    body = bytes(MAX)
    reader = FrameReader()
    assert reader.feed(struct.pack(">I", MAX) + body) == [body]


def _nested_body(depth: int) -> bytes:
    """{"type": "chat", "text": "hi", "x": [[...[1]...]]} with ``depth`` levels under "x"."""
    fields = b"".join(msgpack.packb(v) for v in ("type", "chat", "text", "hi", "x"))
    return b"\x83" + fields + b"\x91" * (depth - 1) + b"\x01"


@pytest.mark.parametrize("depth", [MAX_DEPTH - 1, MAX_DEPTH, 100, 100_000])
def test_deep_nesting(depth: int) -> None:
    body = _nested_body(depth)
    if depth + 1 <= MAX_DEPTH:
        assert decode(body, Direction.TO_HOST)["text"] == "hi"
    else:
        with pytest.raises(ProtocolError) as raised:
            decode(body, Direction.TO_HOST)
        assert raised.value.code is ErrorCode.BAD_FRAME


@pytest.mark.parametrize(
    "value",
    [{1: "x", "type": "chat", "text": "hi"}, {"type": "chat", "text": "hi", "m": {(1, 2): 3}}],
    ids=["int key", "array key"],
)
def test_non_string_keys_are_bad_frames(value: dict[Any, Any]) -> None:
    body = msgpack.packb(value, use_bin_type=True, strict_types=False)
    with pytest.raises(ProtocolError) as raised:
        decode(body, Direction.TO_HOST)
    assert raised.value.code is ErrorCode.BAD_FRAME


def test_unknown_types_and_directions() -> None:
    with pytest.raises(ProtocolError) as raised:
        decode(msgpack.packb({"type": "welcome"}), Direction.TO_HOST)
    assert raised.value.code is ErrorCode.UNKNOWN_TYPE and raised.value.fatal
    with pytest.raises(ProtocolError) as raised:
        decode(msgpack.packb({"type": 7}), Direction.TO_HOST)
    assert raised.value.code is ErrorCode.BAD_MESSAGE


def test_a_map_followed_by_extra_bytes_is_a_bad_frame() -> None:
    body = msgpack.packb({"type": "heartbeat"}) + b"\x00"
    with pytest.raises(ProtocolError) as raised:
        decode(body, Direction.TO_HOST)
    assert raised.value.code is ErrorCode.BAD_FRAME


@pytest.mark.slow
@settings(max_examples=20_000)
@given(body=st.binary(max_size=400), direction=directions)
def test_random_bytes_long_campaign(body: bytes, direction: Direction) -> None:
    assert_decodes_or_refuses(body, direction)


@pytest.mark.slow
@settings(max_examples=20_000)
@given(value=msgpack_values, direction=directions)
def test_arbitrary_msgpack_values_long_campaign(value: Any, direction: Direction) -> None:
    assert_decodes_or_refuses(msgpack.packb(value, use_bin_type=True), direction)


def _with_extra(raw_value: bytes, where: str) -> bytes:
    """{"type": "chat", "text": "hi", "x": VALUE} with the raw msgpack VALUE as "x", or
    inside a list or a map under "x" (a field the host does not know is still decoded)."""
    fields = b"".join(msgpack.packb(v) for v in ("type", "chat", "text", "hi", "x"))
    if where == "in a list":
        raw_value = b"\x91" + raw_value
    elif where == "in a map":
        raw_value = b"\x81" + msgpack.packb("k") + raw_value
    return b"\x83" + fields + raw_value


_BIN_AND_EXT = {
    "bin8 of 0 bytes": b"\xc4\x00",
    "bin8 of 1 byte": b"\xc4\x01a",
    "bin16 of 0 bytes": b"\xc5\x00\x00",
    "bin32 of 0 bytes": b"\xc6\x00\x00\x00\x00",
    "bin8 of 200 bytes": b"\xc4\xc8" + bytes(200),
    "ext8 of 0 bytes": b"\xc7\x00\x05",
    "ext16 of 0 bytes": b"\xc8\x00\x00\x05",
    "ext32 of 0 bytes": b"\xc9\x00\x00\x00\x00\x05",
    "ext8 of 0 bytes, type -1": b"\xc7\x00\xff",
    "fixext1": b"\xd4\x05a",
    "fixext16": b"\xd8\x05" + bytes(16),
    "timestamp32": b"\xd6\xff\x00\x00\x00\x00",
    "timestamp96": b"\xc7\x0c\xff" + bytes(12),
}


@pytest.mark.parametrize("where", ["a field", "in a list", "in a map"])
@pytest.mark.parametrize("raw_value", list(_BIN_AND_EXT.values()), ids=list(_BIN_AND_EXT))
def test_bin_and_ext_of_any_length_are_bad_frames(raw_value: bytes, where: str) -> None:
    body = _with_extra(raw_value, where)
    for direction in Direction:
        with pytest.raises(ProtocolError) as raised:
            decode(body, direction)
        assert raised.value.code is ErrorCode.BAD_FRAME and raised.value.fatal
    # The same frame with a str in place of the bin or ext is fine.
    assert decode(_with_extra(msgpack.packb(""), where), Direction.TO_HOST)["text"] == "hi"
