"""Frames on a byte stream: a 4-byte big-endian length, then that many bytes of msgpack.

Sans-I/O: feed bytes in as they arrive, take whole frame bodies out. A declared length
over the limit is refused from the header alone, before any of the body is buffered.
"""

from __future__ import annotations

import struct

from .catalogue import MAX_FRAME_BYTES
from .errors import ErrorCode, ProtocolError

HEADER = struct.Struct(">I")


def frame(body: bytes) -> bytes:
    if len(body) > MAX_FRAME_BYTES:
        raise ProtocolError(ErrorCode.TOO_LARGE, f"a frame of {len(body)} bytes is over the limit")
    return HEADER.pack(len(body)) + body


class FrameReader:
    """Splits a byte stream into frame bodies."""

    def __init__(self, max_frame_bytes: int = MAX_FRAME_BYTES) -> None:
        self._buffer = bytearray()
        self._max = max_frame_bytes
        self._expected: int | None = None
        self._refusal: ProtocolError | None = None

    def feed(self, data: bytes | bytearray) -> list[bytes]:
        """Add received bytes; return every frame body now complete, in order."""
        if self._refusal is not None:
            raise self._refusal
        self._buffer += data
        bodies: list[bytes] = []
        while True:
            if self._expected is None:
                if len(self._buffer) < HEADER.size:
                    return bodies
                (length,) = HEADER.unpack_from(self._buffer)
                if length > self._max:
                    self._buffer.clear()
                    self._refusal = ProtocolError(
                        ErrorCode.TOO_LARGE,
                        f"declared frame length {length} is over the {self._max} byte limit",
                    )
                    if bodies:
                        # The whole frames before it still count; the refusal comes next.
                        return bodies
                    raise self._refusal
                del self._buffer[: HEADER.size]
                self._expected = length
            if len(self._buffer) < self._expected:
                return bodies
            bodies.append(bytes(self._buffer[: self._expected]))
            del self._buffer[: self._expected]
            self._expected = None

    @property
    def refusal(self) -> ProtocolError | None:
        """An oversize frame seen after whole frames that ``feed`` returned first."""
        return self._refusal

    @property
    def buffered(self) -> int:
        """Bytes held waiting for the rest of a frame (never more than one frame's worth)."""
        return len(self._buffer)
