"""Delivery is cancellation-safe: clients that reset their connections (SO_LINGER 0) at
random moments, right after an action or in the middle of anything, never make the host
lose an accepted change. Every acknowledged action is in the save, the save replays to the
live table, and every decision owed is delivered (the table, played by host bots and
stand-ins while the players are away, always finishes).

A short run by default; the long one (``-m slow``) is the campaign that found the bug."""

from __future__ import annotations

import random
import socket
import struct
import threading
from pathlib import Path
from typing import Any

import pytest
import trio
from recording_clients import RecordingClient, bot_runner, open_memory_client
from test_host_journal import table_state

from dalmuti_net.bots.random_bot import random_answer
from dalmuti_net.client.connection import Connection, ConnectionClosed
from dalmuti_net.client.session import ClientSession
from dalmuti_net.engine import Rules
from dalmuti_net.host.savefile import SaveFile, SaveWriteError, read_save
from dalmuti_net.host.server import TableServer
from dalmuti_net.host.table import Limits, Table
from dalmuti_net.protocol import ProtocolError
from dalmuti_net.protocol.messages import action_message

RESETTING_PLAYERS = 4
HOST_BOTS = 3
SPECTATORS = 3


def reset(stream: trio.SocketStream) -> None:
    """Close with a TCP reset, as a crashed or unplugged client looks to the host."""
    stream.socket.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    stream.socket.close()


class ResettingPlayer:
    """Plays one seat over TCP with its token, resetting the connection at random."""

    def __init__(self, port: int, name: str, token: str, rng: random.Random) -> None:
        self.port, self.name, self.token, self.rng = port, name, token, rng
        self.acked: list[dict[str, Any]] = []
        self.resets = 0
        self.finished = False

    async def run(self) -> None:
        while not self.finished:
            await self.once()
            await trio.sleep(self.rng.uniform(0, 0.03))

    async def once(self) -> None:
        stream = await trio.open_tcp_stream("127.0.0.1", self.port)
        connection = Connection(stream)
        session = ClientSession(self.name, token=self.token)
        sent: dict[int, dict[str, Any]] = {}
        next_id = 1
        try:
            await connection.send({"type": "about"} if session.asks_about else session.hello())
            while True:
                message = await connection.receive()
                session.receive(message)
                kind = message["type"]
                if kind == "about":
                    await connection.send(session.hello())
                if kind == "challenge" and session.proof_to_send is not None:
                    await connection.send(session.proof_to_send)
                if kind == "ack" and message["re"] in sent:
                    self.acked.append(sent.pop(message["re"]))
                if kind == "table" and message["table"]["phase"] == "ended":
                    self.finished = True
                if kind == "snapshot" and message["table"]["phase"] == "ended":
                    self.finished = True
                if self.finished or kind == "goodbye" or (kind == "error" and message["fatal"]):
                    return
                if self.rng.random() < 0.02:
                    break  # in the middle of anything
                if session.needs_snapshot:
                    await connection.send({"type": "snapshot_request"})
                    continue
                if session.decision is None or session.observation is None:
                    continue
                action = action_message(random_answer(session.decision, self.rng))
                session.decision = None
                sent[next_id] = action
                await connection.send({**action, "id": next_id})
                next_id += 1
                if self.rng.random() < 0.3:
                    break  # right after an action, before its ack can arrive
        except (ConnectionClosed, ProtocolError, trio.BrokenResourceError):
            pass
        finally:
            self.resets += 1
            reset(stream)


class ResettingSpectator:
    def __init__(self, port: int, name: str, rng: random.Random) -> None:
        self.port, self.name, self.rng = port, name, rng
        self.done = False

    async def run(self) -> None:
        while not self.done:
            stream = await trio.open_tcp_stream("127.0.0.1", self.port)
            connection = Connection(stream)
            try:
                await connection.send(ClientSession(self.name, spectator=True).hello())
                for _ in range(self.rng.randrange(1, 60)):
                    await connection.receive()
            except (ConnectionClosed, ProtocolError, trio.BrokenResourceError):
                pass
            finally:
                reset(stream)
            await trio.sleep(self.rng.uniform(0, 0.05))


def acted(entries: list[dict[str, Any]], player: int) -> list[dict[str, Any]]:
    return [e["action"] for e in entries if e["op"] == "act" and e["player"] == player]


def is_subsequence(wanted: list[Any], within: list[Any]) -> bool:
    remaining = iter(within)
    return all(any(item == candidate for candidate in remaining) for item in wanted)


async def play_with_resets(path: Path, seed: int, hands: int, minimum_resets: int) -> None:
    rng = random.Random(seed)
    rules = Rules(**{**Rules.all_optional(misdeal_chance=0.2).to_dict(), "hand_limit": hands})
    table = Table("Resets", rules, seed=seed, limits=Limits(grace_period_ms=100))
    tokens = {}
    for number in range(RESETTING_PLAYERS):
        seat = table.reserve_seat(f"Player {number}", host=number == 0)
        tokens[seat.player] = seat.token
    for _ in range(HOST_BOTS):
        table.add_bot("random")
    table.start()
    save = SaveFile.create(path, {"name": table.name, "seed": seed})
    server = TableServer(table, save=save, run_bot=bot_runner(), between_hands=0)
    players = [
        ResettingPlayer(0, f"Player {n}", token, random.Random(rng.random()))
        for n, token in enumerate(tokens.values())
    ]
    spectators = [
        ResettingSpectator(0, f"Watcher {n}", random.Random(rng.random()))
        for n in range(SPECTATORS)
    ]
    async with trio.open_nursery() as nursery:
        await nursery.start(server.run)
        listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
        port = listeners[0].socket.getsockname()[1]
        nursery.start_soon(server.serve_tcp, listeners)
        for client in [*players, *spectators]:
            client.port = port
            nursery.start_soon(client.run)
        await watch_progress(table)
        for spectator in spectators:
            spectator.done = True
        with trio.fail_after(30):
            while not all(p.finished for p in players):
                await trio.sleep(0.05)
        await server.flush()
        nursery.cancel_scope.cancel()
    save.close()

    assert sum(p.resets for p in players) >= minimum_resets
    entries = read_save(path).entries
    for player, client in zip(tokens, players, strict=True):
        assert client.acked, f"{client.name} had actions acknowledged"
        assert is_subsequence(client.acked, acted(entries, player)), (
            f"an action acknowledged to {client.name} is missing from the save"
        )
    twin = Table.replay(entries, name=table.name, rules=rules, seed=seed)
    assert table_state(twin) == table_state(table)


async def watch_progress(table: Table, quiet_limit: float = 10.0) -> None:
    """Until the table ends; fails if a decision stays owed with nothing happening (a
    decision that was never delivered freezes the table)."""
    last_moves, quiet_since = -1, trio.current_time()
    while table.phase != "ended":
        await trio.sleep(0.05)
        assert table.game is not None
        moves = len(table.game.log)
        now = trio.current_time()
        if moves != last_moves:
            last_moves, quiet_since = moves, now
        assert now - quiet_since < quiet_limit, (
            f"nothing moved for {quiet_limit} s while {table.pending_players()} owed decisions"
        )


async def test_resets_at_random_moments_lose_nothing(tmp_path: Path) -> None:
    await play_with_resets(tmp_path / "table.save", seed=3, hands=2, minimum_resets=20)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(5))
async def test_many_resets_lose_nothing(tmp_path: Path, seed: int) -> None:
    await play_with_resets(tmp_path / "table.save", seed=seed, hands=30, minimum_resets=1000)


class GatedSave:
    """A save whose every write waits, in its worker thread, until the test opens that
    write's gate: the host is held mid-save while the test feeds it more input."""

    def __init__(self, writes: int) -> None:
        self.started = [threading.Event() for _ in range(writes)]
        self.gates = [threading.Event() for _ in range(writes)]
        self.written: list[list[dict[str, Any]]] = []

    def append(self, entries: list[dict[str, Any]]) -> None:
        write = len(self.written)
        self.started[write].set()
        if not self.gates[write].wait(timeout=30):
            raise SaveWriteError("the test never opened this write's gate")
        self.written.append(list(entries))

    async def wait_started(self, write: int) -> None:
        with trio.fail_after(10):
            while not self.started[write].is_set():
                await trio.sleep(0.005)

    def open_all(self) -> None:
        for gate in self.gates:
            gate.set()


async def nothing_arrives(stream: trio.abc.Stream, seconds: float = 0.2) -> bool:
    with trio.move_on_after(seconds):
        await stream.receive_some()
        return False
    return True


async def test_a_reply_leaves_only_after_its_own_batch_is_saved() -> None:
    """While the host's save is held in its worker thread, another connection's input is
    accepted: no byte of what that input produced (a newcomer's welcome) may leave when
    the held save returns, only once the newcomer's own batch is written."""
    table = Table("Gated")
    ana = table.reserve_seat("Ana", host=True)
    save = GatedSave(writes=4)
    save.gates[0].set()  # Ana's seat, reserved before anyone connected
    server = TableServer(table, save=save, run_bot=bot_runner(), between_hands=0)  # type: ignore[arg-type]
    try:
        async with trio.open_nursery() as nursery:
            await nursery.start(server.run)
            await server.flush()
            host = RecordingClient("Ana", token=ana.token, heartbeat_s=None)
            nursery.start_soon(host.run, await open_memory_client(server, nursery))
            with trio.fail_after(10):
                await host.wait_until(lambda: bool(host.of_type("snapshot")))

            await host.send({"type": "set_rules", "rules": {"hand_limit": 3}})
            await save.wait_started(1)  # Ana's change is being written, and held there

            newcomer = await open_memory_client(server, nursery)
            await Connection(newcomer).send(ClientSession("Bea").hello())
            with trio.fail_after(10):
                while not table.unsaved():
                    await trio.sleep(0.005)  # Bea's seat is taken, not yet saved
            assert await nothing_arrives(newcomer)

            save.gates[1].set()  # Ana's batch is written: her ack leaves, Bea's welcome not
            with trio.fail_after(10):
                await host.wait_until(lambda: bool(host.acked))
            await save.wait_started(2)  # Bea's own batch, held in turn
            assert await nothing_arrives(newcomer), "told before it was saved"
            assert [entry["op"] for entry in save.written[-1]] == ["rules"]

            save.gates[2].set()
            with trio.fail_after(10):
                assert await newcomer.receive_some()  # her welcome, now that it is saved
            assert [entry["op"] for entry in save.written[-1]] == ["seat"]
            nursery.cancel_scope.cancel()
    finally:
        save.open_all()
