"""PROTOCOL.md's hand-written statements, held against the host.

Each test names the section it holds (PROTOCOL.md, "How this text is held true", lists
them). Some read the transcripts in protocol/transcripts/, which record.py records from
the host's table core through the real codec (test_protocol_kit holds them fresh); the
others talk to a live host over TCP on 127.0.0.1, or to its table core through the
in-memory harness where the point is what the table sends, not the socket.
"""

from __future__ import annotations

import functools
import itertools
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import trio
from harness import Harness, random_chooser
from recording_clients import loopback_server

from dalmuti_net.engine import Rules
from dalmuti_net.host.table import Limits, Table
from dalmuti_net.protocol import PROTOCOL_VERSION, FrameReader, encode, unpack

TRANSCRIPTS = Path(__file__).resolve().parents[2] / "protocol" / "transcripts"
Message = dict[str, Any]


@functools.cache
def transcripts() -> dict[str, list[Message]]:
    """What the host sent each recorded connection, by name."""
    return {
        path.stem: [
            entry["message"]
            for line in path.read_text(encoding="utf-8").splitlines()
            if (entry := json.loads(line))["from"] == "host"
        ]
        for path in sorted(TRANSCRIPTS.glob("*.jsonl"))
        if path.stem != "stdio"
    }


# ------------------------------------------------------------------ over TCP


class Raw:
    """A bare TCP connection: frames out, every frame in, until the host closes it."""

    def __init__(self, stream: trio.SocketStream) -> None:
        self.stream = stream
        self.received: list[Message] = []
        self.closed = trio.Event()

    async def send(self, *messages: Message) -> None:
        await self.stream.send_all(b"".join(encode(m) for m in messages))

    async def read(self) -> None:
        frames = FrameReader()
        async with self.stream:  # closed however the reading ends, cancelled too
            try:
                while data := await self.stream.receive_some(65536):
                    self.received.extend(unpack(body) for body in frames.feed(data))
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                pass
            self.closed.set()

    async def until(self, count: int) -> list[Message]:
        with trio.fail_after(10):
            while len(self.received) < count and not self.closed.is_set():
                await trio.sleep(0.01)
        return self.received


async def raw(port: int, nursery: trio.Nursery) -> Raw:
    connection = Raw(await trio.open_tcp_stream("127.0.0.1", port))
    nursery.start_soon(connection.read)
    return connection


def hello(name: str, role: str = "player", **extra: Any) -> Message:
    return {"type": "hello", "version": PROTOCOL_VERSION, "name": name, "role": role, **extra}


async def test_requests_an_ack_comes_first_and_the_about_reply_carries_no_re() -> None:
    """Requests, replies and errors: `about` with an id gets `ack` {re} before the `about`
    reply, which has no `re`; so does `hello` before `welcome`."""
    async with loopback_server(Table("Statements")) as (_server, port, nursery):
        client = await raw(port, nursery)
        await client.send({"type": "about", "id": 7}, hello("Ana", id="h"))
        first = await client.until(4)
        assert [m["type"] for m in first[:4]] == ["ack", "about", "ack", "welcome"]
        assert first[0] == {"type": "ack", "re": 7} and "re" not in first[1]
        assert first[2] == {"type": "ack", "re": "h"} and "re" not in first[3]


async def test_words_player_ids_start_at_one() -> None:
    """Words used here: the host gives player ids from 1 up."""
    async with loopback_server(Table("Statements")) as (_server, port, nursery):
        ana, bo = await raw(port, nursery), await raw(port, nursery)
        await ana.send(hello("Ana"))
        await ana.until(1)
        await bo.send(hello("Bo"))
        welcomes = [(await c.until(1))[0] for c in (ana, bo)]
        assert [w["player"] for w in welcomes] == [1, 2]


async def test_states_a_new_seat_at_an_ended_table_is_refused_fatally() -> None:
    """The connection's states and Error codes: `table_ended` refusing a new seat's `hello`
    is fatal and carries the standings; the connection closes."""
    table = Table("Statements")
    async with loopback_server(table) as (_server, port, nursery):
        host = await raw(port, nursery)
        await host.send(hello("Ana"))
        await host.until(2)
        await host.send({"type": "end_table", "id": 1})
        with trio.fail_after(10):
            while table.phase != "ended":
                await trio.sleep(0.01)
        late = await raw(port, nursery)
        await late.send(hello("Late"))
        with trio.fail_after(10):
            await late.closed.wait()
        (error,) = late.received
        assert error["type"] == "error" and error["code"] == "table_ended"
        assert error["fatal"] is True
        await host.send({"type": "end_table", "id": 2})
        refusal = (await host.until(len(host.received) + 1))[-1]
        while refusal.get("re") != 2:
            refusal = (await host.until(len(host.received) + 1))[-1]
        assert refusal["code"] == "table_ended" and refusal["fatal"] is False


async def test_liveness_heartbeats_and_abouts_count_against_the_rate() -> None:
    """Liveness and limits: every whole frame counts against the rate limit, heartbeats
    and messages before `hello` too; over it, `rate_limited`, not fatal."""
    limits = Limits(max_messages_per_second=5)
    async with loopback_server(Table("Statements", limits=limits)) as (_server, port, nursery):
        early = await raw(port, nursery)
        await early.send(*[{"type": "about"}] * 30)
        received = await early.until(30)
        codes = [m.get("code") for m in received if m["type"] == "error"]
        assert codes and set(codes) == {"rate_limited"}
        assert len([m for m in received if m["type"] == "about"]) < 30
        greeted = await raw(port, nursery)
        await greeted.send(hello("Ana"))
        await greeted.until(2)
        await greeted.send(*[{"type": "heartbeat", "id": n} for n in range(30)])
        replies = await greeted.until(2 + 30)
        refused = [m for m in replies if m["type"] == "error"]
        assert refused and all(m["code"] == "rate_limited" and not m["fatal"] for m in refused)
        assert not greeted.closed.is_set()


async def test_states_an_empty_timers_follows_a_snapshot_while_no_countdown_runs() -> None:
    """The connection's states: a `timers` follows every snapshot, after `hello` and after
    `snapshot_request`; in a lobby nothing counts down, so it is empty."""
    async with loopback_server(Table("Statements")) as (_server, port, nursery):
        ana = await raw(port, nursery)
        await ana.send(hello("Ana"))
        await ana.until(3)
        await ana.send({"type": "snapshot_request"})
        await ana.until(5)
        kinds = [m["type"] for m in ana.received]
        assert kinds == ["welcome", "snapshot", "timers", "snapshot", "timers"]
        empty = {"type": "timers", "grace": [], "turn": [], "results": None}
        assert ana.received[2] == ana.received[4] == empty


async def test_states_timers_follow_the_snapshot_of_a_viewer_arriving_mid_countdown() -> None:
    """The connection's states and Liveness: a viewer arriving while the turn timer runs
    gets `timers` right after its snapshot, naming the seat on turn."""
    table = Table("Statements", limits=Limits(turn_timer_ms=30_000), seed=3)
    async with loopback_server(table) as (_server, port, nursery):
        seats = [await raw(port, nursery) for _ in range(4)]
        for n, seat in enumerate(seats):
            await seat.send(hello(f"P{n}"))
            await seat.until(2)
        await seats[0].send({"type": "start"})
        with trio.fail_after(10):
            while not any(
                m["type"] == "decision" and m["kind"] != "revolution"  # a public one
                for seat in seats
                for m in seat.received
            ):
                await trio.sleep(0.01)
        watcher = await raw(port, nursery)
        await watcher.send(hello("W", role="spectator"))
        welcome, snapshot, timers = (await watcher.until(3))[:3]
        assert (welcome["type"], snapshot["type"], timers["type"]) == (
            "welcome",
            "snapshot",
            "timers",
        )
        assert [player for player, _ in timers["turn"]] == snapshot["game"]["waiting"]
        assert all(0 < left <= 30_000 for _, left in timers["turn"])


# ------------------------------------------------------------------ the table core


RULES = Rules(scoring=True, hand_limit=2, first_deal_revolution=True, merchant_exchange=True)


def played_table(seed: int, players: int = 6) -> Harness:
    """A started table of ``players`` random bots and a spectator (the last client)."""
    rng = random.Random(seed)
    harness = Harness(Table("Statements", RULES, seed=seed), rng)
    seats = [harness.join(f"P{n}", chooser=random_chooser(rng)) for n in range(players)]
    harness.join("Watcher", spectator=True)
    harness.send(seats[0], {"type": "start"})
    return harness


def test_seating_draw_redraws_tied_groups_depth_first() -> None:
    """The lobby and the table, the seating draw: round 1 is everyone; each group that tied
    redraws alone in a round of its own, groups best card first, a group's own ties
    settled before the next group; the settled order follows the cards."""
    tied_seen = 0
    for seed in range(60):
        harness = played_table(seed, players=8)
        watcher = harness.clients[-1]
        draws = [m for m in watcher.received if m["type"] == "seating_draw"]
        (settled,) = [m for m in watcher.received if m["type"] == "seating_settled"]
        rounds = iter(draws)

        def settle(group: list[int], rounds: Iterator[Message] = rounds) -> list[int]:
            drawn = next(rounds)
            assert sorted(p for p, _ in drawn["draws"]) == sorted(group)
            cards = dict(map(tuple, drawn["draws"]))
            order: list[int] = []
            for card in sorted(set(cards.values())):
                tied = [p for p in group if cards[p] == card]
                order += tied if len(tied) == 1 else settle(tied)
            return order

        everyone = [p for p, _ in draws[0]["draws"]]
        assert settle(everyone) == settled["order"]
        assert [d["round"] for d in draws] == list(range(1, len(draws) + 1))
        assert next(rounds, None) is None
        tied_seen += len(draws) > 1
    assert tied_seen >= 5, "the seeds tried gave too few redraws to hold the statement"


def _phase_by_the_text(events: list[Message]) -> str:
    """Observation.phase as PROTOCOL.md tells it from the events a viewer was sent."""
    phase = "not_started"
    for event in events:
        kind = event["type"]
        if kind == "hand_started":
            phase = "dealing"
        elif kind == "waiting":
            phase = event["phase"]
        elif kind == "hand_ended":
            phase = "hand_over"
        elif kind == "table_ended":
            phase = "ended"
    return phase


def test_game_state_phase_order_and_taxes_are_as_the_text_says() -> None:
    """Cards, sets, seats and the game state: a snapshot's `phase` follows the events as
    the text says; between hands `order` is the finishing order with scores and counts
    aligned to it; `taxes` is false once `taxes_skipped` came."""
    checked = {"hand_over": 0, "taxes_skipped": 0}
    for seed in range(2):
        harness = played_table(seed)
        watcher = harness.clients[-1]
        while harness.step():
            harness.send(watcher, {"type": "snapshot_request"})
            snapshot = watcher.of_type("snapshot")[-1]
            game = snapshot["game"]
            events = [m for m in watcher.received if "seq" in m and m["type"] != "snapshot"]
            assert game["phase"] == _phase_by_the_text(events)
            assert len(game["scores"]) == len(game["counts"]) == len(game["order"])
            this_hand = events[
                max(i for i, e in enumerate(events) if e["type"] == "hand_started") :
            ]
            skipped = any(e["type"] == "taxes_skipped" for e in this_hand)
            assert game["taxes"] == (this_hand[0]["taxes"] and not skipped)
            checked["taxes_skipped"] += skipped
            if game["phase"] == "hand_over":
                ended = [e for e in events if e["type"] == "hand_ended"][-1]
                assert game["order"] == ended["finishing"]
                assert game["scores"] == ended["scores"]
                checked["hand_over"] += 1
    assert all(checked.values()), checked


@pytest.mark.parametrize("name", sorted(transcripts()))
def test_two_table_messages_in_a_row_always_differ(name: str) -> None:
    """The lobby and the table: never the same `table` twice in a row to one connection."""
    tables = [m["table"] for m in transcripts()[name] if m["type"] == "table"]
    assert tables
    assert all(a != b for a, b in itertools.pairwise(tables))


@pytest.mark.parametrize("name", sorted(transcripts()))
def test_events_are_numbered_from_the_snapshot_without_gaps(name: str) -> None:
    """Numbering and resumes: after a snapshot with `seq` S, events S+1, S+2..."""
    last = None
    for message in transcripts()[name]:
        if message["type"] == "snapshot":
            last = message["seq"]
        elif "seq" in message:
            assert last is not None and message["seq"] == last + 1
            last = message["seq"]


def test_play_sets_are_best_rank_then_fewest_cards_then_fewest_jesters() -> None:
    """Decisions and their ids: the order of `play.sets`."""
    seen = 0
    for messages in transcripts().values():
        for message in messages:
            if message["type"] == "decision" and message["kind"] == "play":
                keys = [(s["rank"], s["count"], s["jesters"]) for s in message["sets"]]
                assert keys == sorted(keys) and len(set(keys)) == len(keys)
                seen += len(keys) > 1
    assert seen > 20


def test_tax_transfers_come_in_the_documented_order() -> None:
    """The shape of a hand, step 5: GP to GD, GD to GP, LP to LD, LD to LP."""
    seen = 0
    for messages in transcripts().values():
        order: list[int] = []
        paid: list[tuple[int, int]] = []
        for message in [*messages, {"type": "hand_started", "order": []}]:
            if message["type"] in ("hand_started", "roles_mirrored"):
                if paid:
                    gd, ld, lp, gp = order[0], order[1], order[-2], order[-1]
                    assert paid == [(gp, gd), (gd, gp), (lp, ld), (ld, lp)]
                    seen += 1
                order, paid = message["order"], []
            elif message["type"] == "tax_paid":
                paid.append((message["giver"], message["receiver"]))
    assert seen >= 2


def test_the_transcripts_hold_timers_and_a_move_made_by_the_timer() -> None:
    """Liveness and limits, as recorded from the host's server: a spectator arriving mid-turn
    gets `timers` right after its snapshot, and `moved_for` comes before the move made."""
    game = json.loads((TRANSCRIPTS / "game.json").read_text(encoding="utf-8"))["timers"]
    watched = transcripts()[game["spectator"]]
    assert [m["type"] for m in watched[:3]] == ["welcome", "snapshot", "timers"]
    assert [p for p, _ in watched[2]["turn"]] == watched[1]["game"]["waiting"]
    moved = next(i for i, m in enumerate(watched) if m["type"] == "moved_for")
    assert watched[moved]["by"] == "timer"
    assert watched[moved + 1]["type"] == "played"
    assert watched[moved + 1]["player"] == watched[moved]["player"]


def test_states_what_a_greeted_spectator_may_send() -> None:
    """The connection's states and The lobby and the table: a spectator's `about`, `chat`,
    `snapshot_request` and `heartbeat` are taken; `hello` again is `already_hello`;
    anything else is refused with `spectator`, none of it fatal."""
    harness = Harness(Table("Statements"))
    watcher = harness.join("W", spectator=True)
    for request in ("about", "snapshot_request", "heartbeat"):
        harness.send(watcher, {"type": request, "id": request})
        assert {"type": "ack", "re": request} in watcher.received
    harness.send(watcher, {"type": "chat", "text": "hi", "id": "chat"})
    assert {"type": "ack", "re": "chat"} in watcher.received
    assert watcher.of_type("about")
    harness.send(watcher, hello("W", role="spectator"))
    assert watcher.errors[-1]["code"] == "already_hello"
    for refused in ({"type": "ready", "ready": True}, {"type": "start"}):
        harness.send(watcher, refused)
        assert watcher.errors[-1]["code"] == "spectator"
    assert not any(error["fatal"] for error in watcher.errors)
    assert not watcher.closed


def test_table_players_are_in_the_order_the_seats_were_taken() -> None:
    """The lobby and the table: `table.players` in the order seats were taken, so a lobby id
    given again comes last, not in the order of ids."""
    harness = Harness(Table("Statements"))
    ana, bo, _chen = (harness.join(name) for name in ("Ana", "Bo", "Chen"))
    harness.send(bo, {"type": "leave"})
    harness.join("Dara")
    seats = ana.of_type("table")[-1]["table"]["players"]
    assert [(s["player"], s["name"]) for s in seats] == [(1, "Ana"), (3, "Chen"), (2, "Dara")]


def test_waiting_lists_are_in_seat_order() -> None:
    """Cards, sets, seats and the game state, lists of players: `waiting` in seat order."""
    seen = 0
    for messages in transcripts().values():
        order: list[int] = []
        for message in messages:
            if message["type"] in ("hand_started", "roles_mirrored"):
                order = message["order"]
            elif message["type"] == "waiting" and len(message["players"]) > 1:
                places = [order.index(player) for player in message["players"]]
                assert places == sorted(places), (message, order)
                seen += 1
    assert seen >= 10


@pytest.mark.parametrize("how", ["everyone ready", "results pause over, a leaver"])
def test_a_new_hands_table_comes_right_before_its_hand_started(how: str) -> None:
    """The shape of a hand, step 1: between hands, the `table` that the new hand changes
    (a leaver removed, `ready` cleared) comes before `hand_started`, never after it, whether
    everyone said `ready` or the results pause ran out."""
    rng = random.Random(5)
    harness = Harness(Table("Statements", Rules(), seed=5), rng)
    host = harness.join("Host", chooser=random_chooser(rng))
    bo = harness.join("Bo", chooser=random_chooser(rng))
    harness.start_with_bots(host, 3)
    if how != "everyone ready":
        harness.send(bo, {"type": "leave"})
        harness.table.tick(0.0)  # the leaver's stand-in
        harness.deliver()
    harness.run_until(harness.table.hand_over)
    if how == "everyone ready":
        for person in (host, bo):
            harness.send(person, {"type": "ready", "ready": True})
    else:
        harness.table.begin_next_hand()
        harness.deliver()
    kinds = [message["type"] for message in host.received]
    second = [i for i, kind in enumerate(kinds) if kind == "hand_started"][1]
    assert kinds[second - 1] == "table", kinds[second - 6 : second + 2]
    table = host.received[second - 1]["table"]
    assert not any(seat["ready"] for seat in table["players"] if seat["kind"] == "human")
    if how != "everyone ready":
        assert kinds[second - 2] == "player_removed"
        assert "Bo" not in [seat["name"] for seat in table["players"]]
    dealt = kinds.index("waiting", second)
    assert "table" not in kinds[second:dealt], "no second table for the same hand's start"


def turn_timer_table() -> tuple[Harness, list[Any]]:
    """Four people at a table with a 60 s turn timer, its first countdowns started at 0."""
    rng = random.Random(4)
    harness = Harness(Table("Statements", limits=Limits(turn_timer_ms=60_000), seed=4), rng)
    seats = [harness.join(f"P{n}", chooser=random_chooser(rng)) for n in range(4)]
    harness.send(seats[0], {"type": "start"})
    tick(harness, 0.0)
    return harness, seats


def tick(harness: Harness, now: float) -> None:
    """The server's part: the batch saved (its journal taken), then the clock's tick."""
    harness.table.take_journal()
    harness.table.tick(now)
    harness.deliver()


def test_a_snapshots_decision_carries_the_time_left_and_timers_follow_it() -> None:
    """Liveness, turn timer: a decision's `deadline_ms` is the time left when it was sent:
    in a snapshot 2.6 s into the turn, 57400; and a `timers` saying the same follows that
    snapshot (The connection's states)."""
    harness, seats = turn_timer_table()
    owing = next(seat for seat in seats if seat.session.decision is not None)
    assert owing.of_type("decision")[-1]["deadline_ms"] == 60_000, "sent as it became owed"
    harness.table.receive(owing.connection, {"type": "snapshot_request"}, 2.6)
    tick(harness, 2.6)
    snapshot, timers = owing.received[-2:]
    assert snapshot["type"] == "snapshot" and timers["type"] == "timers"
    assert snapshot["decision"]["deadline_ms"] == 57_400
    assert [owing.session.player, 57_400] in timers["turn"]


def test_a_resumed_seat_is_told_the_time_left_on_its_decision() -> None:
    """Numbering and resumes, Liveness: a seat taken back mid-turn gets, in its snapshot's
    decision, the time its turn timer still has, not the whole timer."""
    harness, seats = turn_timer_table()
    owing = next(seat for seat in seats if seat.session.decision is not None)
    token = owing.session.token
    harness.drop(owing)
    tick(harness, 5.0)
    back = harness.join("P", token=token)
    snapshot = back.of_type("snapshot")[0]
    assert snapshot["decision"] is not None
    assert snapshot["decision"]["deadline_ms"] == 55_000
