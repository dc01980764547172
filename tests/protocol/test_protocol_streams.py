"""Frames survive any split of the byte stream: fed one byte at a time through trio streams."""

from __future__ import annotations

import trio
from trio.testing import MemoryReceiveStream, MemorySendStream, memory_stream_pump

from dalmuti_net.protocol import FrameReader, decode, encode
from tools.examples import EXAMPLES


def one_byte_at_a_time() -> tuple[MemorySendStream, MemoryReceiveStream]:
    """A one-way stream that hands the receiver at most one byte per receive."""
    send_stream = MemorySendStream()
    receive_stream = MemoryReceiveStream()

    async def pump_one_byte() -> None:
        memory_stream_pump(send_stream, receive_stream, max_bytes=1)

    # The receiver pulls: every receive moves one byte (or the end of stream) across.
    receive_stream.receive_some_hook = pump_one_byte
    return send_stream, receive_stream


async def test_every_example_frame_decodes_when_fed_byte_by_byte() -> None:
    send_stream, receive_stream = one_byte_at_a_time()
    frames = [encode(example.message) for example in EXAMPLES]
    received: list[bytes] = []
    chunks = 0

    async def receive_all() -> None:
        nonlocal chunks
        reader = FrameReader()
        while True:
            data = await receive_stream.receive_some()
            if not data:
                return
            chunks += 1
            assert len(data) == 1
            received.extend(reader.feed(data))
            assert reader.buffered <= max(len(f) for f in frames)

    await send_stream.send_all(b"".join(frames))
    await send_stream.aclose()
    await receive_all()
    assert chunks == sum(len(f) for f in frames)
    assert len(received) == len(EXAMPLES)
    for body, example in zip(received, EXAMPLES, strict=True):
        assert decode(body, example.direction) == example.message


async def test_frames_decode_the_same_over_a_bidirectional_memory_stream_pair() -> None:
    left, right = trio.testing.memory_stream_pair()
    frames = b"".join(encode(example.message) for example in EXAMPLES)
    reader = FrameReader()
    bodies: list[bytes] = []
    async with trio.open_nursery() as nursery:
        nursery.start_soon(left.send_all, frames)
        while len(bodies) < len(EXAMPLES):
            bodies.extend(reader.feed(await right.receive_some(7)))
    assert [decode(b, e.direction) for b, e in zip(bodies, EXAMPLES, strict=True)] == [
        e.message for e in EXAMPLES
    ]
