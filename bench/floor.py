"""What one paced move costs the host at the least, part by part, beside what it costs it.

bench/net.py gives the host's CPU per hand with 8 players and 16 spectators; divided by the
moves of a hand it is about 0.8 ms of CPU a paced move on a 2-core machine. This splits
that figure into what no change to the host's own code can remove and what its code adds:

- **wake + writes, select loop**: a process that sleeps in ``select`` until a move's small
  frame arrives, then writes 150 bytes to each of 24 loopback TCP connections (16 read
  by one process, 8 by a process each, as in bench/net.py): the kernel's share of a move.
- **wake + writes, trio**: the same, the frame read by a trio task as the host reads it
  (a non-blocking read, ``wait_readable`` when there is nothing): what trio adds to
  each wake.
- **host code, warm / cold**: the host's own work for one move, in process, the sockets
  replaced by writes to /dev/null: the frame decoded and validated, ``Table.receive``,
  and the delivery (each message framed, every connection's bytes queued and written).
  *Cold* walks some megabytes of other objects between two moves first, as the client
  processes sharing the cores do between two paced moves; *warm* does not.

Run from the repository root:

    python bench/floor.py                 # 400 moves a process figure, 20 hands in process
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import selectors
import socket
import sys
import time
from collections.abc import Callable
from typing import Any

import trio
from wake import cpu_model  # bench/, beside this file

from dalmuti_net.bots.random_bot import random_answer
from dalmuti_net.client.session import ClientSession
from dalmuti_net.engine import Rules
from dalmuti_net.host.server import Link, TableServer
from dalmuti_net.host.table import Limits, Table
from dalmuti_net.protocol import Direction, FrameReader, encode, unpack, validate
from dalmuti_net.protocol.messages import action_message

PLAYERS = 8
SPECTATORS = 16
WATCHER_PROCESSES = [16] + [1] * 8
PAYLOAD = b"x" * 150
MOVE_FRAME = b"\x00\x00\x00\x10" + b"y" * 16
THINK_S = 0.02
WARM_UP = 20


def cpu_s() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


# ---------------------------------------------------------------------- wake + writes


def watch(port: int, connections: int) -> None:
    """A watcher process: reads its connections until each is closed."""
    selector = selectors.DefaultSelector()
    for _ in range(connections):
        selector.register(socket.create_connection(("127.0.0.1", port)), selectors.EVENT_READ)
    while selector.get_map():
        for key, _ in selector.select():
            if not key.fileobj.recv(65536):  # type: ignore[union-attr]
                selector.unregister(key.fileobj)


def act(port: int, moves: int) -> None:
    """The acting player's process: one small frame every THINK_S."""
    sender = socket.create_connection(("127.0.0.1", port))
    for _ in range(moves):
        time.sleep(THINK_S)
        sender.send(MOVE_FRAME)
    sender.close()


def fork(work: Callable[[], None]) -> int:
    child = os.fork()
    if child == 0:
        try:
            work()
        finally:
            os._exit(0)
    return child


def wake_and_write_us(reader: str, moves: int) -> float:
    """Host CPU (user + system) per move, after WARM_UP moves."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    port = listener.getsockname()[1]
    children = [fork(lambda n=n: watch(port, n)) for n in WATCHER_PROCESSES]  # type: ignore[misc]
    watchers = [listener.accept()[0] for _ in range(sum(WATCHER_PROCESSES))]
    children.append(fork(lambda: act(port, moves)))
    actor = listener.accept()[0]
    for connection in [*watchers, actor]:
        connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        connection.setblocking(False)
    descriptors = [w.fileno() for w in watchers]
    began: list[float] = []

    def answer() -> None:
        if len(began) < WARM_UP:
            began.append(cpu_s())
        for descriptor in descriptors:
            os.write(descriptor, PAYLOAD)

    if reader == "select":
        actor.setblocking(True)
        while actor.recv(65536):
            answer()
    else:

        async def read() -> None:
            descriptor = actor.fileno()
            while True:
                try:
                    data = os.read(descriptor, 16384)
                except BlockingIOError:
                    await trio.lowlevel.wait_readable(descriptor)
                    continue
                if not data:
                    return
                answer()

        trio.run(read)
    spent = cpu_s() - began[-1]
    for connection in watchers:
        connection.close()
    for child in children:
        os.waitpid(child, 0)
    return 1e6 * spent / (moves - WARM_UP)


# ---------------------------------------------------------------------- host code


_OTHER_WORK = [{"n": i, "m": -i} for i in range(60_000)]


def other_work() -> int:
    """Touch some megabytes of objects, as other processes on the same cores do."""
    return sum(item["n"] for item in _OTHER_WORK)


async def host_code_us(hands: int, cold: bool) -> dict[str, float]:
    """The host's own work per move, by part, in µs (wall time of an otherwise idle
    process: no I/O happens)."""
    rules = Rules(**{**Rules.all_optional(misdeal_chance=0.1).to_dict(), "hand_limit": hands})
    room = PLAYERS + SPECTATORS
    limits = Limits(max_connections=room, max_unwelcomed=room, max_unwelcomed_per_address=room)
    table = Table("Floor", rules, seed=1, limits=limits)
    server = TableServer(table, between_hands=0)
    nowhere = os.open(os.devnull, os.O_WRONLY)
    spent = {"decode": 0, "table": 0, "delivery": 0}
    moves = 0
    async with trio.open_nursery() as nursery:
        await nursery.start(server.run)
        for index in range(room):
            connection = table.connect(internal=False, address="127.0.0.1", now=trio.current_time())
            assert connection is not None
            stream: Any = None  # never read; written through the descriptor, to /dev/null
            server.links[connection] = Link(connection, stream, nowhere)
            session = ClientSession(f"P{index}", spectator=index >= PLAYERS)
            table.receive(connection, session.hello())
            await server.flush()
        connection_of = {seat.player: seat.connection for seat in table.seats.values()}
        table.start()
        await server.flush()
        rng = random.Random(1)
        while table.phase != "ended":
            if table.hand_over():
                await trio.sleep(0.001)  # the server's own next-hand task deals
                continue
            assert table.game is not None
            player, decision = next(iter(table.game.pending().items()))
            frame = encode(action_message(random_answer(decision, rng)))
            if cold:
                other_work()
            t0 = time.perf_counter_ns()
            (body,) = FrameReader().feed(frame)
            message = validate(unpack(body), Direction.TO_HOST)
            t1 = time.perf_counter_ns()
            table.receive(connection_of[player], message)  # type: ignore[arg-type]
            t2 = time.perf_counter_ns()
            await server.flush()
            t3 = time.perf_counter_ns()
            spent["decode"] += t1 - t0
            spent["table"] += t2 - t1
            spent["delivery"] += t3 - t2
            moves += 1
        nursery.cancel_scope.cancel()
    os.close(nowhere)
    return {part: ns / 1e3 / moves for part, ns in spent.items()}


# ---------------------------------------------------------------------- the report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--moves", type=int, default=400, help="moves a process figure")
    parser.add_argument("--hands", type=int, default=20, help="hands of the in-process table")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    print(f"nproc {os.cpu_count()}, {cpu_model()}, Python {sys.version.split()[0]}, ", end="")
    print(f"load average {os.getloadavg()[0]:.2f}")
    print("| round | wake + writes, select loop | wake + writes, trio | host code, warm | cold |")
    print("|------:|---------:|---------:|---------:|---------:|")
    for round_ in range(1, args.rounds + 1):
        select_us = wake_and_write_us("select", args.moves)
        trio_us = wake_and_write_us("trio", args.moves)
        warm = trio.run(host_code_us, args.hands, False)
        cold = trio.run(host_code_us, args.hands, True)

        def parts(figures: dict[str, float]) -> str:
            detail = " + ".join(f"{value:.0f}" for value in figures.values())
            return f"{sum(figures.values()):.0f} ({detail})"

        print(f"| {round_} | {select_us:.0f} | {trio_us:.0f} | {parts(warm)} | {parts(cold)} |")
    print("µs per move; host code in parts: decode + table + delivery")


if __name__ == "__main__":
    main()
