"""The host packs an event's fields once for every viewer and only each viewer's number
apart (``FrameCache``): the frames must be byte for byte those ``encode`` gives."""

from __future__ import annotations

import random
from typing import Any

import pytest

from dalmuti_net.bots.random_bot import random_answer
from dalmuti_net.engine import Game, Rules
from dalmuti_net.engine.events import event_to_dict
from dalmuti_net.protocol import ViewerFeed, codec, encode
from dalmuti_net.protocol.codec import FrameCache, NumberedEvent

# Each side of every length msgpack gives a positive int (1, 2, 3, 5 and 9 bytes).
SEQ_EDGES = [0, 1, 127, 128, 255, 256, 65535, 65536, 2**32 - 1, 2**32, 2**40]


def events_of_a_game(seed: int) -> list[dict[str, Any]]:
    rules = Rules(**{**Rules.all_optional(misdeal_chance=0.5).to_dict(), "hand_limit": 2})
    game = Game(list(range(6)), rules, seed=seed)
    rng = random.Random(seed)
    events = [event_to_dict(e) for e in game.start()]
    while (pending := game.pending()) or game.phase.value != "ended":
        if not pending:
            events += [event_to_dict(e) for e in game.begin_next_hand()]
            continue
        player, decision = min(pending.items())
        events += [event_to_dict(e) for e in game.apply(player, random_answer(decision, rng))]
    return events


@pytest.mark.parametrize("seq", SEQ_EDGES)
def test_a_numbered_event_is_framed_as_encode_frames_it(seq: int) -> None:
    for fields in events_of_a_game(seq % 7)[:200]:
        message = NumberedEvent(fields, seq)
        assert message == {**fields, "seq": seq}
        assert list(message)[-1] == "seq"
        assert FrameCache().frame(message) == encode({**fields, "seq": seq})


def test_each_message_once_and_an_events_fields_once_for_every_viewer(monkeypatch: Any) -> None:
    game = Game(list(range(5)), Rules(hand_limit=1), seed=3)
    events = game.start()
    feeds = [ViewerFeed(viewer, seq=130 * n) for n, viewer in enumerate([None, 0, 1, 2, 3, 4])]
    shared: dict[int, dict[str, Any]] = {}
    streams = [feed.messages(events, shared) for feed in feeds]
    expected = [[encode(dict(message)) for message in stream] for stream in streams]
    packed: list[str] = []
    real = codec.encode_body

    def counting(message: dict[str, Any]) -> bytes:
        packed.append(message["type"])
        return real(message)

    monkeypatch.setattr(codec, "encode_body", counting)
    cache = FrameCache()
    for _ in range(2):  # the spectators' stream goes to many: the same objects again
        for stream, frames in zip(streams, expected, strict=True):
            assert [cache.frame(message) for message in stream] == frames
    assert cache.frame(streams[0][0]) is cache.frame(streams[0][0])
    assert sorted(packed) == sorted(fields["type"] for fields in shared.values())
    assert len(shared) == len(events)
