"""The host's output path: one message object for every connection it goes to, encoded once
by the server; `table` only when it changed; every frame still valid (the harness and the
recording clients validate each one as a client does, so the host need not)."""

from __future__ import annotations

import itertools
import random
from typing import Any

import trio
from harness import Harness, random_chooser
from recording_clients import RecordingClient, join_over_tcp, loopback_server

from dalmuti_net.bots import make_strategy
from dalmuti_net.engine import Rules
from dalmuti_net.host.table import Table
from dalmuti_net.protocol import codec


def tables_in(stream: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each table state the stream told, in order: snapshots' and `table` messages'."""
    return [m["table"] for m in stream if m["type"] in ("table", "snapshot")]


def test_a_table_is_sent_only_when_it_changed_over_whole_games() -> None:
    rules = Rules(**{**Rules.all_optional(misdeal_chance=0.3).to_dict(), "hand_limit": 4})
    harness = Harness(Table("Output", rules, seed=12), random.Random(3))
    host = harness.join("Host", chooser=random_chooser(harness.rng))
    watchers = [harness.join(f"W{i}", spectator=True) for i in range(3)]
    harness.start_with_bots(host, 4)
    late = harness.join("Late", spectator=True)
    harness.run()
    assert harness.table.phase == "ended"
    for client in [host, *watchers, late]:
        told = tables_in(client.received)
        assert len(told) >= 2
        for before, after in itertools.pairwise(told):
            assert before != after, client.session.name
        assert told[-1] == harness.table.table_message()


def test_one_message_object_for_every_connection_it_goes_to() -> None:
    harness = Harness(Table("Shared", Rules(), seed=2))
    host = harness.join("Host")
    watchers = [harness.join(f"W{i}", spectator=True) for i in range(3)]
    table = harness.table
    table.receive(host.connection, {"type": "chat", "text": "hello all"})
    outboxes = [table.connections[c.connection].outbox for c in [host, *watchers]]
    chats = [next(m for m in box if m["type"] == "chat") for box in outboxes]
    assert all(chat is chats[0] for chat in chats)
    harness.deliver()
    for _ in range(4):
        harness.send(host, {"type": "add_bot", "strategy": "random"})
    table.receive(host.connection, {"type": "start"})
    spectator_boxes = [table.connections[c.connection].outbox for c in watchers]
    assert len(spectator_boxes[0]) > 3
    for box in spectator_boxes[1:]:
        assert len(box) == len(spectator_boxes[0])
        assert all(a is b for a, b in zip(box, spectator_boxes[0], strict=True))


async def test_the_server_encodes_a_message_once_for_all_its_viewers(monkeypatch: Any) -> None:
    encoded: list[str] = []
    real_encode = codec.encode

    def counting_encode(message: dict[str, Any]) -> bytes:
        encoded.append(message["type"])
        return real_encode(message)

    monkeypatch.setattr(codec, "encode", counting_encode)
    table = Table("Once", seed=4)
    async with loopback_server(table) as (_server, port, nursery):
        host = await join_over_tcp(
            port, RecordingClient("Host", strategy=make_strategy("random", 1)), nursery
        )
        watchers = [
            await join_over_tcp(port, RecordingClient(f"W{i}", spectator=True), nursery)
            for i in range(5)
        ]
        encoded.clear()
        await host.send({"type": "chat", "text": "once"})
        with trio.fail_after(10):
            for watcher in watchers:
                await watcher.wait_until(lambda w=watcher: bool(w.of_type("chat")))
        assert encoded.count("chat") == 1
        assert all(w.of_type("chat")[0]["text"] == "once" for w in watchers)
