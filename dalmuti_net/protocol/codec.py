"""Messages to bytes and bytes to validated messages.

``decode`` is the one door for input from the network: msgpack with hard limits, a map
with string keys, a known ``type`` for the direction, every field checked against the
catalogue. Anything else becomes a ``ProtocolError`` with a documented code.
"""

from __future__ import annotations

from typing import Any

import msgpack

from .catalogue import Direction, message_spec
from .errors import ErrorCode, ProtocolError
from .framing import frame
from .text import first_control

Message = dict[str, Any]

MAX_DEPTH = 8
_LIMITS = {
    "max_str_len": 8 * 1024,
    "max_bin_len": 0,
    "max_ext_len": 0,
    "max_array_len": 1024,
    "max_map_len": 64,
}


_NOT_ALLOWED = (bytes, msgpack.ExtType, msgpack.Timestamp)
"""What msgpack decodes a bin or an ext (timestamps included) into."""


def encode_body(message: Message) -> bytes:
    body: bytes = msgpack.packb(message, use_bin_type=True)
    return body


def encode(message: Message) -> bytes:
    """One whole frame: length header and msgpack body."""
    return frame(encode_body(message))


class NumberedEvent(dict[str, Any]):
    """An event's message for one viewer: ``fields``, the same object for every viewer the
    event goes to, then this viewer's ``seq`` as the last key (as any event message has
    it). A ``FrameCache`` packs ``fields`` once for all of them."""

    __slots__ = ("fields",)

    def __init__(self, fields: Message, seq: int) -> None:
        super().__init__(fields)
        self["seq"] = seq
        self.fields = fields


_SMALL_UINTS = [bytes((n,)) for n in range(0x80)]


def _packed_uint(value: int) -> bytes:
    """What msgpack packs a non-negative int into (its shortest form)."""
    if value < 0x80:
        return _SMALL_UINTS[value]
    if value < 0x100:
        return b"\xcc" + value.to_bytes(1, "big")
    if value < 0x10000:
        return b"\xcd" + value.to_bytes(2, "big")
    if value < 0x100000000:
        return b"\xce" + value.to_bytes(4, "big")
    return b"\xcf" + value.to_bytes(8, "big")


class FrameCache:
    """The frames of one delivery: each message object encoded once however many
    connections it goes to, and a ``NumberedEvent``'s shared fields once for every viewer
    (only the number is packed per viewer; the bytes are those ``encode`` gives). Keyed by
    object identity: the messages must stay alive (in their outboxes) while it is used."""

    def __init__(self) -> None:
        self._frames: dict[int, bytes] = {}
        self._unnumbered: dict[int, bytes] = {}

    def frame(self, message: Message) -> bytes:
        found = self._frames.get(id(message))
        if found is None:
            found = self._frames[id(message)] = self._encode(message)
        return found

    def _encode(self, message: Message) -> bytes:
        if type(message) is not NumberedEvent:
            return encode(message)
        shared = message.fields
        head = self._unnumbered.get(id(shared))
        if head is None:
            # The map with "seq" last, its value (0: one byte) cut off.
            head = self._unnumbered[id(shared)] = encode_body({**shared, "seq": 0})[:-1]
        return frame(head + _packed_uint(message["seq"]))


def _check_shape(value: Any, depth: int) -> None:
    """String keys only, bounded nesting, no bin or ext of any length (msgpack's limits
    refuse the longer ones; a zero-length bin or ext gets this far); msgpack's own limits
    cap the sizes."""
    if depth > MAX_DEPTH:
        raise ProtocolError(ErrorCode.BAD_FRAME, f"nesting deeper than {MAX_DEPTH} levels")
    if isinstance(value, dict):
        for key, item in value.items():
            if type(key) is not str:
                raise ProtocolError(ErrorCode.BAD_FRAME, "map keys must be strings")
            _check_shape(item, depth + 1)
    elif isinstance(value, list):
        for item in value:
            _check_shape(item, depth + 1)
    elif isinstance(value, _NOT_ALLOWED):
        raise ProtocolError(ErrorCode.BAD_FRAME, "msgpack bin and ext values are not allowed")


def unpack(body: bytes) -> Message:
    """The msgpack map in a frame body, or ``bad_frame``."""
    try:
        value = msgpack.unpackb(body, raw=False, strict_map_key=True, use_list=True, **_LIMITS)
    except (ValueError, msgpack.UnpackException) as error:
        raise ProtocolError(ErrorCode.BAD_FRAME, "the frame is not valid msgpack") from error
    if type(value) is not dict:
        raise ProtocolError(ErrorCode.BAD_FRAME, "a frame must hold one msgpack map")
    _check_shape(value, 1)
    return value


def unpack_checked(body: bytes) -> Message:
    """The map in a frame body that ``unpack`` and ``validate`` already passed (the same
    bytes: ``CheckedFrames``), decoded again without checking it again."""
    value: Message = msgpack.unpackb(body, raw=False, strict_map_key=True, use_list=True)
    return value


class CheckedFrames:
    """Frame bodies already decoded and checked, for the clients of one process that are
    sent the same bytes (the web table's pages in the host: every watcher is sent each
    event's and table's very frame). A body seen before is decoded again (a fresh map for
    each client: nothing is shared between them) but not checked again: the checks are a
    function of the bytes alone, so a body from anywhere, checked once, is checked. Only
    bodies that passed are kept, the most recent ones, up to ``most_bytes``."""

    def __init__(self, most_bytes: int = 1024 * 1024) -> None:
        self._bodies: dict[bytes, None] = {}
        self._bytes = 0
        self._most = most_bytes
        self.hits = 0
        """Bodies found already checked (what the shared checks saved)."""

    def __contains__(self, body: bytes) -> bool:
        found = body in self._bodies
        self.hits += found
        return found

    def add(self, body: bytes) -> None:
        if body in self._bodies or len(body) > self._most:
            return
        self._bodies[body] = None
        self._bytes += len(body)
        while self._bytes > self._most:
            oldest = next(iter(self._bodies))
            del self._bodies[oldest]
            self._bytes -= len(oldest)


def validate(message: Message, direction: Direction) -> Message:
    """Check a decoded map against the catalogue for messages travelling ``direction``."""
    kind = message.get("type")
    if type(kind) is not str:
        raise ProtocolError(ErrorCode.BAD_MESSAGE, "type: missing or not a string")
    spec = message_spec(direction, kind)
    if spec is None:
        raise ProtocolError(
            ErrorCode.UNKNOWN_TYPE, f"no message type {kind[:40]!r} for {direction}"
        )
    spec.body.check(message, "")
    _check_text(message, "")
    return message


def _check_text(value: Any, path: str) -> None:
    """No string anywhere in a message may hold a character text may not (a control
    character, a bidirectional override, a line separator): the catalogue checks the
    fields it knows, this every other string too, unknown fields and map keys included,
    so nothing a client sends reaches anyone with them (``bad_message``)."""
    if isinstance(value, dict):
        for key, item in value.items():
            where = f"{path}.{key}" if path else key  # the error's message is escaped
            if first_control(key) is not None:
                _refuse_text(key, where)
            _check_text(item, where)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            _check_text(item, f"{path}[{index}]")
    elif isinstance(value, str) and first_control(value) is not None:
        _refuse_text(value, path)


def _refuse_text(text: str, path: str) -> None:
    control = first_control(text)
    assert control is not None
    raise ProtocolError(
        ErrorCode.BAD_MESSAGE, f"{path}: control character U+{ord(control):04X} not allowed in text"
    )


def decode(body: bytes, direction: Direction) -> Message:
    return validate(unpack(body), direction)
