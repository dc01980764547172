"""A fake host that lies: it speaks the protocol (every frame is schema-valid) but what it
says does not fit, floods, or sets absurd limits. Each scenario is a script run on every
connection a client opens, on 127.0.0.1, so that reconnecting meets the same host again.

The first thing a connection gets is the real start of a table in the middle of a hand
(``mid_hand``, made by the engine), so that a client has a game to keep; the scenario
then sends what it likes after it.
"""

from __future__ import annotations

import math
import random
import subprocess
import sys
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Sequence
from contextlib import AsyncExitStack, asynccontextmanager, contextmanager
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import trio

from dalmuti_net.engine import Game, PlayDecision, Rules, legal_answers
from dalmuti_net.engine.cards import counts_of, playable_sets
from dalmuti_net.engine.game import Phase
from dalmuti_net.protocol import (
    PROTOCOL_VERSION,
    Direction,
    FrameReader,
    ViewerFeed,
    encode,
    snapshot_message,
    unpack,
)
from dalmuti_net.protocol.catalogue import MAX_FRAME_BYTES
from dalmuti_net.protocol.codec import validate
from dalmuti_net.protocol.feed import hand_events
from dalmuti_net.protocol.messages import Message, card_set_from, decision_message
from dalmuti_net.protocol.resume import host_proof, new_nonce

ME = 1
TOKEN = "liar-token"
TABLE_ID = "liars"
PLAYERS = [1, 2, 3, 4]
LIMITS = {
    "max_frame_bytes": 65536,
    "heartbeat_interval_ms": 5000,
    "heartbeat_timeout_ms": 20000,
    "grace_period_ms": 60000,
    "turn_timer_ms": None,
    "max_messages_per_second": 20,
    "max_chat_chars": 500,
}


def seat(player: int) -> dict[str, Any]:
    return {
        "player": player,
        "name": "Ana" if player == ME else f"Bot {player}",
        "kind": "human" if player == ME else "bot",
        "connected": True,
        "ready": True,
        "host": player == ME,
        "seated": True,
        "stand_in": False,
    }


def table(phase: str = "playing") -> dict[str, Any]:
    return {
        "name": "Liars",
        "phase": phase,
        "players": [seat(p) for p in PLAYERS],
        "spectators": 0,
        "rules": {"scoring": True, "hand_limit": 3},
        "code_required": False,
        "can_start": True,
    }


def welcome(**changes: Any) -> Message:
    message: Message = {
        "type": "welcome",
        "version": PROTOCOL_VERSION,
        "player": ME,
        "token": TOKEN,
        "host": True,
        "table": "Liars",
        "table_id": TABLE_ID,
        "software": "hostile/1",
        "rules": {"scoring": True, "hand_limit": 3},
        "limits": dict(LIMITS),
    }
    message.update(changes)
    return message


@dataclass
class MidHand:
    """A real table's start, as seat ``ME`` sees it: the snapshot when the play begins."""

    snapshot: Message
    seq: int
    decision: Message | None


def mid_hand(seed: int = 3) -> MidHand:
    game = Game(PLAYERS, Rules(scoring=True, hand_limit=3), seed)
    feed = ViewerFeed(ME)
    rng = random.Random(seed)
    feed.messages(game.start())
    while game.phase is not Phase.PLAY or game.turn == ME:
        player, decision = next(iter(game.pending().items()))
        feed.messages(game.apply(player, rng.choice(legal_answers(decision))))
    # Someone else's turn in play: the client owes nothing until the liar says so.
    snapshot = snapshot_message(
        feed.seq,
        ME,
        table(),
        game.observation(ME),
        None,
        hand_events=hand_events(game.log, ME),
    )
    return MidHand(_wire(snapshot), feed.seq, None)


def _wire(message: Message) -> Message:
    """As it would arrive: through msgpack, and valid (a liar's frames are all valid)."""
    return validate(unpack(encode(message)[4:]), Direction.TO_CLIENT)


@dataclass
class Link:
    """One client's connection, as a scenario sees it."""

    stream: trio.SocketStream

    async def send(self, message: Message) -> None:
        _wire(message)  # a liar, but a valid one: this raises for a frame that is not
        await self.stream.send_all(encode(message))


Scenario = Callable[[Link, MidHand], Awaitable[None]]


@dataclass
class HostileHost:
    scenario: Scenario
    welcome: Message = field(default_factory=welcome)
    port: int = 0
    connections: int = 0
    heartbeats: int = 0
    """Heartbeats the clients sent, all connections together."""
    received: list[str] = field(default_factory=list)
    """The types of every other message the clients sent."""

    async def serve(self, stream: trio.SocketStream) -> None:
        self.connections += 1
        frames = FrameReader(MAX_FRAME_BYTES)
        hello = trio.Event()
        resumed = False
        start = mid_hand()

        link = Link(stream)

        async def read() -> None:
            nonlocal resumed
            while True:
                try:
                    data = await stream.receive_some(65536)
                except trio.BrokenResourceError:
                    data = b""
                if not data:
                    return
                for body in frames.feed(data):
                    message = unpack(body)
                    kind = message.get("type")
                    if kind == "heartbeat":
                        self.heartbeats += 1
                        continue
                    self.received.append(str(kind))
                    if kind == "about":
                        await link.send(
                            {
                                "type": "about",
                                "version": PROTOCOL_VERSION,
                                "table_id": TABLE_ID,
                                "table": "Liars",
                                "phase": "playing",
                                "code_required": False,
                                "software": "hostile/1",
                            }
                        )
                    elif kind == "hello" and "resume" in message:
                        # The liar issued this token: it can prove it holds the seat.
                        client_nonce = message["resume"]["nonce"]
                        host_nonce = new_nonce()
                        proof = host_proof(TOKEN, TABLE_ID, client_nonce, host_nonce)
                        await link.send({"type": "challenge", "nonce": host_nonce, "proof": proof})
                        resumed = True
                    elif kind in ("hello", "prove"):
                        hello.set()

        try:
            async with trio.open_nursery() as nursery:
                nursery.start_soon(read)
                await hello.wait()
                if self.scenario is mute:
                    await trio.sleep_forever()
                await link.send({**self.welcome, "token": None} if resumed else self.welcome)
                await link.send(start.snapshot)
                await self.scenario(link, start)
                await trio.sleep_forever()
        except* (trio.BrokenResourceError, trio.ClosedResourceError):
            pass  # the client hung up: what it should do
        finally:
            await trio.aclose_forcefully(stream)


@asynccontextmanager
async def hostile_host(
    scenario: Scenario, welcome_message: Message | None = None
) -> AsyncIterator[HostileHost]:
    host = HostileHost(scenario, welcome_message or welcome())
    async with trio.open_nursery() as nursery:
        listeners = await nursery.start(partial(trio.serve_tcp, host.serve, 0, host="127.0.0.1"))
        host.port = listeners[0].socket.getsockname()[1]
        yield host
        nursery.cancel_scope.cancel()


# ---------------------------------------------------------------------- the scenarios


def event(start: MidHand, kind: str, offset: int = 1, **fields: Any) -> Message:
    return {"type": kind, "seq": start.seq + offset, **fields}


async def unaligned_hand_end(link: Link, start: MidHand) -> None:
    """A `hand_ended` whose lists differ in length (the zip() crash)."""
    await link.send(
        event(
            start,
            "hand_ended",
            hand=1,
            finishing=PLAYERS,
            points=[3, 2],
            bonus=[0, 0, 0, 0],
            scores=[3, 2, 1, 0],
        )
    )


async def unaligned_snapshot(link: Link, start: MidHand) -> None:
    """A second snapshot whose game's scores do not align with its order."""
    game = dict(start.snapshot["game"])
    game["scores"] = game["scores"][:2]
    await link.send({**start.snapshot, "game": game})


async def tax_from_nobody(link: Link, start: MidHand) -> None:
    await link.send(event(start, "tax_paid", giver=77, receiver=ME, count=2))


async def no_legal_answer(link: Link, start: MidHand) -> None:
    """A decision with nothing to play and no pass (StopIteration in a bot, max() of an
    empty sequence in --exec)."""
    await link.send(
        {
            "type": "decision",
            "decision_id": 5,
            "kind": "play",
            "sets": [],
            "may_pass": False,
            "to_beat": None,
            "deadline_ms": None,
        }
    )


async def endless_trick(link: Link, start: MidHand) -> None:
    """Plays and passes without a `trick_won`, far more than any hand holds."""
    for n in range(1, 1001):
        await link.send(event(start, "passed", n, player=2))


CHAT = "x" * 500


async def chat_flood(link: Link, start: MidHand) -> None:
    """Chat as fast as the socket takes it, until the client hangs up."""
    message = {"type": "chat", "player": 2, "name": "Bot 2", "text": CHAT}
    frame = encode(message)
    batch = frame * 100
    while True:
        await link.stream.send_all(batch)


async def mixed_flood(link: Link, start: MidHand) -> None:
    """Every message a host may send at any time, as fast as the socket takes them:
    tables, countdowns, refusals, chat, heartbeats."""
    messages = [
        {"type": "table", "table": table()},
        {"type": "timers", "grace": [[2, 30_000]], "turn": [[3, 8_000]]},
        {"type": "error", "code": "rate_limited", "message": "slow down", "fatal": False},
        {"type": "moved_for", "player": 2, "by": "timer"},
        {"type": "heartbeat"},
        {"type": "chat", "player": 2, "name": "Bot 2", "text": CHAT},
    ]
    batch = b"".join(encode(message) for message in messages) * 20
    while True:
        await link.stream.send_all(batch)


async def event_flood(link: Link, start: MidHand) -> None:
    """Events that each fit (who is waiting, a seating draw), numbered on and on."""
    seq = start.seq
    while True:
        frames = []
        for _ in range(50):
            seq += 1
            frames.append(
                encode(event(start, "waiting", seq - start.seq, phase="play", players=[2]))
            )
            seq += 1
            draws = [[p, 5] for p in PLAYERS]
            frames.append(
                encode(event(start, "seating_draw", seq - start.seq, round=2, draws=draws))
            )
        await link.stream.send_all(b"".join(frames))


async def many_decisions_then_the_end(link: Link, start: MidHand) -> None:
    """Decisions one after the other (a pass each time: they fit), without waiting for
    answers, then the table's end: a program that never reads has a full pipe by then."""
    game = start.snapshot["game"]
    to_beat = None if game["to_beat"] is None else card_set_from(game["to_beat"])
    sets = playable_sets(counts_of(game["hand"]), to_beat)
    play = PlayDecision(tuple(sets), to_beat is not None, to_beat)
    decision = decision_message(play, None, decision_id=1)
    for decision_id in range(1, 65):  # 64 lines of 1.3 KB: more than a pipe holds
        await link.send({**decision, "decision_id": decision_id})
    standings = [[p, 0, 1] for p in PLAYERS]
    await link.send(event(start, "table_ended", reason="host_ended", standings=standings))
    await link.send({"type": "table", "table": table("ended")})


def tiny_heartbeats() -> Message:
    limits = {**LIMITS, "heartbeat_interval_ms": 1, "heartbeat_timeout_ms": 1}
    return welcome(limits=limits)


def other_version() -> Message:
    return welcome(version=PROTOCOL_VERSION + 1)


OTHER_WELCOMES = {"tiny_heartbeats": tiny_heartbeats, "other_version": other_version}


async def mute(link: Link, start: MidHand) -> None:
    """Never answers the hello at all (the connection stays open, silent)."""
    await trio.sleep(math.inf)


async def hang_up(link: Link, start: MidHand) -> None:
    """Closes every connection right after its snapshot."""
    await link.stream.aclose()


async def quiet(link: Link, start: MidHand) -> None:
    """Nothing more after the snapshot (and no heartbeats either)."""
    await trio.sleep(math.inf)


SCENARIOS: dict[str, Scenario] = {
    "unaligned_hand_end": unaligned_hand_end,
    "unaligned_snapshot": unaligned_snapshot,
    "tax_from_nobody": tax_from_nobody,
    "no_legal_answer": no_legal_answer,
    "endless_trick": endless_trick,
}
"""The lies that end a session: the client gives up after reconnecting."""


FLOODS: dict[str, Scenario] = {
    "chat_flood": chat_flood,
    "event_flood": event_flood,
    "mixed_flood": mixed_flood,
}
OTHERS: dict[str, Scenario] = {
    "quiet": quiet,
    "mute": mute,
    "hang_up": hang_up,
    "many_decisions_then_the_end": many_decisions_then_the_end,
}


LIARS = sorted({**SCENARIOS, **FLOODS, **OTHERS, **OTHER_WELCOMES})
"""Every liar by name: the scenarios, and the quiet hosts with another welcome."""


@contextmanager
def liars_in_process(
    names: Sequence[str],
) -> Iterator[tuple[dict[str, int], subprocess.Popen[str]]]:
    """The liars ``names`` served by one host process (a flood must not share the
    client's thread), each on its own port: their ports by name, and the process (to make
    the hosts vanish). A scenario runs afresh on every connection, so tests may share it."""
    process = subprocess.Popen(
        [sys.executable, str(Path(__file__)), *names], stdout=subprocess.PIPE, text=True
    )
    try:
        assert process.stdout is not None
        yield {name: int(process.stdout.readline()) for name in names}, process
    finally:
        process.kill()
        process.wait()
        if process.stdout is not None:
            process.stdout.close()


@contextmanager
def liar_in_process(name: str) -> Iterator[tuple[int, subprocess.Popen[str]]]:
    """The liar ``name`` alone in its own process, with the process (to make it vanish)."""
    with liars_in_process([name]) as (ports, process):
        yield ports[name], process


async def _serve_forever(names: list[str]) -> None:
    async with AsyncExitStack() as stack:
        for name in names:
            scenario = {**SCENARIOS, **FLOODS, **OTHERS}.get(name, quiet)
            welcome_message = OTHER_WELCOMES[name]() if name in OTHER_WELCOMES else None
            host = await stack.enter_async_context(hostile_host(scenario, welcome_message))
            print(host.port, flush=True)
        await trio.sleep_forever()


if __name__ == "__main__":  # liars in their own process: python hostile_host.py SCENARIO...
    trio.run(_serve_forever, sys.argv[1:])
