"""Whole frames ahead of an oversize header in the same read still count."""

from __future__ import annotations

import pytest

from dalmuti_net.protocol import ErrorCode, FrameReader, ProtocolError, encode


def test_whole_frames_before_an_oversize_header_are_returned_then_refused() -> None:
    reader = FrameReader()
    bodies = reader.feed(encode({"type": "heartbeat"}) + b"\xff\xff\xff\xff")
    assert len(bodies) == 1
    assert reader.refusal is not None and reader.refusal.code is ErrorCode.TOO_LARGE
    with pytest.raises(ProtocolError) as raised:
        reader.feed(b"more")
    assert raised.value.code is ErrorCode.TOO_LARGE


def test_an_oversize_header_alone_is_refused_at_once() -> None:
    with pytest.raises(ProtocolError) as raised:
        FrameReader().feed(b"\x00\x01\x00\x01")
    assert raised.value.code is ErrorCode.TOO_LARGE
