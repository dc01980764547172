"""The web table's pages in the host are all sent the same frames: a frame is checked once
for all of them (``CheckedFrames``), each still gets its own message, and a frame that was
never checked is checked as any other (``Connection``)."""

from __future__ import annotations

import pytest
import trio
import trio.testing

from dalmuti_net.client.connection import Connection
from dalmuti_net.protocol import ProtocolError, codec, encode
from dalmuti_net.protocol.codec import CheckedFrames
from dalmuti_net.protocol.framing import frame

CHAT = {"type": "chat", "player": None, "name": "Ana (watching)", "text": "hola"}
TIMERS = {"type": "timers", "grace": [], "turn": [[2, 30000]], "results": None}


async def received(checked: CheckedFrames, data: bytes, count: int) -> list[dict[str, object]]:
    client, host = trio.testing.memory_stream_pair()
    await host.send_all(data)
    connection = Connection(client, checked)
    return [await connection.receive() for _ in range(count)]


async def test_a_frame_sent_to_many_pages_is_checked_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    validated: list[str] = []
    validate = codec.validate

    def counting(message: dict[str, object], direction: codec.Direction) -> dict[str, object]:
        validated.append(str(message["type"]))
        return validate(message, direction)

    monkeypatch.setattr("dalmuti_net.client.connection.validate", counting)
    checked = CheckedFrames()
    data = encode(CHAT) + encode(TIMERS)
    pages = [await received(checked, data, 2) for _ in range(8)]
    assert validated == ["chat", "timers"]
    assert checked.hits == 14
    assert all(page == [CHAT, TIMERS] for page in pages)
    # Each page's client has a message of its own: nothing one keeps is another's.
    assert len({id(page[0]) for page in pages}) == 8


async def test_a_frame_never_checked_is_refused_as_ever() -> None:
    checked = CheckedFrames()
    await received(checked, encode(CHAT), 1)
    bad = {**CHAT, "text": "hola\u202e"}  # a bidirectional override: bad_message
    with pytest.raises(ProtocolError) as refused:
        await received(checked, encode(bad), 1)
    assert refused.value.code.value == "bad_message"
    # Refused, it is not kept: the next page's client refuses it too.
    with pytest.raises(ProtocolError):
        await received(checked, encode(bad), 1)
    with pytest.raises(ProtocolError):
        await received(checked, frame(b"\x92\x01\x02"), 1)  # an array, not a map


async def test_a_message_of_an_unknown_type_is_skipped_each_time() -> None:
    checked = CheckedFrames()
    newer = encode({"type": "from_the_future", "seq": 4}) + encode(TIMERS)
    for _ in range(2):
        assert await received(checked, newer, 1) == [TIMERS]


def test_the_bodies_kept_are_bounded() -> None:
    checked = CheckedFrames(most_bytes=100)
    bodies = [bytes([n]) * 30 for n in range(5)]
    for body in bodies:
        checked.add(body)
    assert [body in checked for body in bodies] == [False, False, True, True, True]
    checked.add(b"x" * 101)  # larger than all it may keep: not kept
    assert b"x" * 101 not in checked
