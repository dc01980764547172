"""Host throughput and latency over loopback TCP: 8 bot players, then 16, 64 and 256 spectators.

This process runs the host (a ``TableServer`` serving 127.0.0.1); the clients run in other
processes (``python bench/net.py client ...``, started by this one): one process per player,
and the spectators split across processes of at most 64 connections. So the host's CPU time
and memory are its own, while the clients compete with it for the machine's cores as they
would not on a real LAN (each player would have their own machine there).

Each configuration is played twice:

* **flat out**: the players answer at once; gives hands per second, the host's CPU per
  hand, and latency under full load;
* **paced**: the players wait ``--think-ms`` before each answer (a person takes seconds),
  so the machine is not saturated; gives the latency a player feels.

Latency is measured for every play and pass: from the moment the acting client sends it to
the moment its ``played``/``passed`` event has arrived at every client (players and
spectators), on the system-wide monotonic clock that all processes share. Host memory is
its peak resident set (VmHWM) at the end.

Run from the repository root:

    python bench/net.py                       # the table in bench/README.md
    python bench/net.py --spectators 16 --profile   # cProfile of the host, hottest first
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import io
import json
import math
import os
import pstats
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import trio

from dalmuti_net.bots.random_bot import random_answer
from dalmuti_net.client.connection import Connection, ConnectionClosed
from dalmuti_net.client.session import ClientSession
from dalmuti_net.engine import PlayDecision, Rules
from dalmuti_net.host.savefile import SaveFile
from dalmuti_net.host.server import Receive, TableServer
from dalmuti_net.host.table import Limits, Table
from dalmuti_net.protocol import encode
from dalmuti_net.protocol.messages import action_message

PLAYERS = 8
SPECTATORS_PER_PROCESS = 16
TIMED_EVENTS = ("played", "passed")
HEARTBEAT_FRAME = encode({"type": "heartbeat"})


def now_ns() -> int:
    return time.clock_gettime_ns(time.CLOCK_MONOTONIC)


# ---------------------------------------------------------------------- the clients


class TimedClient:
    """One connection: answers decisions at random (players) and notes when each play or
    pass was sent (by its player) and when its event arrived here."""

    first_hand_cpu_s: float | None = None
    """This process's CPU time when any of its clients first saw a hand start."""

    def __init__(self, name: str, spectator: bool, think_s: float, seed: int) -> None:
        self.session = ClientSession(name, spectator=spectator)
        self.think_s = think_s
        self.rng = random.Random(seed)
        self.sent: dict[str, int] = {}
        self.arrived: dict[str, int] = {}
        self._hand = 0
        self._timed_in_hand = 0

    async def run(self, port: int) -> None:
        connection = Connection(await trio.open_tcp_stream("127.0.0.1", port))
        await connection.send(self.session.hello())
        async with trio.open_nursery() as nursery:
            nursery.start_soon(self._heartbeats, connection)
            with contextlib.suppress(ConnectionClosed):
                await self._receive(connection)
            nursery.cancel_scope.cancel()
        await connection.aclose()

    async def _heartbeats(self, connection: Connection) -> None:
        with contextlib.suppress(ConnectionClosed):
            while True:
                await trio.sleep(5)
                await connection.send({"type": "heartbeat"})

    async def _receive(self, connection: Connection) -> None:
        session = self.session
        while True:
            message = await connection.receive()
            arrived = now_ns()
            kind = message["type"]
            if kind == "hand_started":
                if TimedClient.first_hand_cpu_s is None:
                    TimedClient.first_hand_cpu_s = time.process_time()
                self._hand += 1
                self._timed_in_hand = 0
            elif kind in TIMED_EVENTS:
                self._timed_in_hand += 1
                self.arrived[self._key(self._timed_in_hand)] = arrived
            session.receive(message)
            if kind in ("goodbye", "table_ended") or (kind == "error" and message["fatal"]):
                return
            decision = session.decision
            if decision is None or session.observation is None:
                continue
            session.decision = None
            if self.think_s:
                await trio.sleep(self.think_s)
            action = random_answer(decision, self.rng)
            if isinstance(decision, PlayDecision):
                self.sent[self._key(self._timed_in_hand + 1)] = now_ns()
            await connection.send(action_message(action))

    def _key(self, index: int) -> str:
        return f"{self._hand}:{index}"


async def run_clients(
    port: int, players: int, spectators: int, think_s: float, seed: int, out: Path
) -> None:
    clients = [TimedClient(f"P{seed}-{i}", False, think_s, seed * 100 + i) for i in range(players)]
    clients += [TimedClient(f"S{seed}-{i}", True, 0, 0) for i in range(spectators)]
    async with trio.open_nursery() as nursery:
        for client in clients:
            nursery.start_soon(client.run, port)
    sent: dict[str, int] = {}
    for client in clients:
        sent.update(client.sent)
    table_cpu_s = time.process_time() - (TimedClient.first_hand_cpu_s or 0.0)
    out.write_text(
        json.dumps({"sent": sent, "arrived": [c.arrived for c in clients], "cpu_s": table_cpu_s})
    )


# ---------------------------------------------------------------------- the host


class TimedStream(trio.abc.Stream):
    """A connection's socket, noting when each write the host makes has gone out."""

    def __init__(self, stream: trio.abc.Stream, clock: HostClock) -> None:
        self.inner = stream
        self._stream = stream
        self._clock = clock

    async def send_all(self, data: bytes | bytearray | memoryview) -> None:
        await self._stream.send_all(data)
        if data != HEARTBEAT_FRAME:  # the host's own heartbeats follow no action
            self._clock.wrote()

    async def wait_send_all_might_not_block(self) -> None:
        await self._stream.wait_send_all_might_not_block()

    async def receive_some(self, max_bytes: int | None = None) -> bytes | bytearray:
        return await self._stream.receive_some(max_bytes)

    async def aclose(self) -> None:
        await self._stream.aclose()


class HostClock:
    """The host's own share of each action's latency: from the table being handed the
    action to the last write that followed it (meaningful when paced: nothing else runs)."""

    def __init__(self) -> None:
        self.durations_ms: list[float] = []
        self._action_at: int | None = None
        self._last_write = 0

    def action(self) -> None:
        self._close()
        self._action_at = now_ns()

    def wrote(self) -> None:
        self._last_write = now_ns()

    def _close(self) -> None:
        if self._action_at is not None and self._last_write > self._action_at:
            self.durations_ms.append((self._last_write - self._action_at) / 1e6)
        self._action_at = None


class TimedServer(TableServer):
    def __init__(self, table: Table, clock: HostClock, **kwargs: Any) -> None:
        super().__init__(table, **kwargs)
        self.clock = clock
        receive = table.receive

        def timed_receive(connection: int, message: dict[str, Any]) -> None:
            if message["type"] in TIMED_EVENTS_CAUSES:
                clock.action()
            receive(connection, message)

        table.receive = timed_receive  # type: ignore[method-assign,assignment]

    async def handle_tcp(self, stream: trio.SocketStream) -> None:
        await self.handle_stream(TimedStream(stream, self.clock), internal=False)

    def _receiver(self, stream: trio.abc.Stream) -> Receive:
        """The host reads the socket itself, as it does untimed."""
        return super()._receiver(untimed(stream))

    def _socket_descriptor(self, stream: trio.abc.Stream) -> int | None:
        """The host writes the socket itself, as it does untimed."""
        return super()._socket_descriptor(untimed(stream))

    def _hand_out(self) -> None:
        """A delivery ends with its direct socket writes: timed once, at its end."""
        super()._hand_out()
        self.clock.wrote()


TIMED_EVENTS_CAUSES = ("play", "pass")


def untimed(stream: trio.abc.Stream) -> trio.abc.Stream:
    return stream.inner if isinstance(stream, TimedStream) else stream


def peak_rss_mib() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return math.nan


def host_cpu_s() -> tuple[float, float]:
    """User and system CPU seconds of this process so far."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime, usage.ru_stime


async def host_one_table(
    spectators: int,
    hands: int,
    think_ms: float,
    seed: int,
    workdir: Path,
    journal: bool,
    client_cores: set[int] | None = None,
    timed: bool = True,
) -> dict[str, Any]:
    rules = Rules(**{**Rules.all_optional(misdeal_chance=0.1).to_dict(), "hand_limit": hands})
    room = spectators + 64  # every client connects at once, from one address
    limits = Limits(
        max_spectators=max(64, spectators),
        max_connections=room,
        max_unwelcomed=room,
        max_unwelcomed_per_address=room,
    )
    table = Table("Bench", rules, seed=seed, limits=limits)
    ended = trio.Event()

    def on_change() -> None:
        if table.phase == "ended":
            ended.set()

    clock = HostClock()
    saving = SaveFile.create(workdir / "table.save", {"name": "Bench"}) if journal else None
    settings: dict[str, Any] = {"save": saving, "between_hands": 0, "on_change": on_change}
    server = TimedServer(table, clock, **settings) if timed else TableServer(table, **settings)
    outputs: list[Path] = []
    processes: list[subprocess.Popen[bytes]] = []
    async with trio.open_nursery() as nursery:
        await nursery.start(server.run)
        listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
        port = listeners[0].socket.getsockname()[1]
        nursery.start_soon(server.serve_tcp, listeners)

        def launch(players: int, watchers: int) -> None:
            out = workdir / f"client-{len(outputs)}.json"
            outputs.append(out)
            command = [sys.executable, __file__, "client", "--port", str(port)]
            command += ["--players", str(players), "--spectators", str(watchers)]
            command += ["--think-ms", str(think_ms), "--seed", str(len(outputs)), "--out", str(out)]
            process = subprocess.Popen(command)
            if client_cores is not None:
                os.sched_setaffinity(process.pid, client_cores)
            processes.append(process)

        remaining = spectators
        while remaining:
            batch = min(remaining, SPECTATORS_PER_PROCESS)
            launch(0, batch)
            remaining -= batch
        for _ in range(PLAYERS):
            launch(1, 0)
        with trio.fail_after(60):
            while len(table.seats) < PLAYERS or (
                sum(c.spectator for c in table.connections.values()) < spectators
            ):
                await trio.sleep(0.01)
        cpu_before, began = host_cpu_s(), time.perf_counter()
        table.start()
        await server.flush()
        with trio.fail_after(600):
            await ended.wait()
        elapsed = time.perf_counter() - began
        cpu_after = host_cpu_s()
        user, system = cpu_after[0] - cpu_before[0], cpu_after[1] - cpu_before[1]
        with trio.fail_after(60):
            while any(process.poll() is None for process in processes):
                await trio.sleep(0.01)
        nursery.cancel_scope.cancel()
    sent: dict[str, int] = {}
    arrivals: list[dict[str, int]] = []
    clients_cpu_s = 0.0
    for out in outputs:
        data = json.loads(out.read_text())
        clients_cpu_s += data["cpu_s"]
        sent.update(data["sent"])
        arrivals.extend(data["arrived"])
    latencies = []
    for key, sent_at in sent.items():
        last = max(arrived.get(key, 0) for arrived in arrivals)
        if all(key in arrived for arrived in arrivals):
            latencies.append((last - sent_at) / 1e6)
    clock.action()  # closes the last one
    assert table.game is not None
    return {
        "host_p50_ms": percentile(clock.durations_ms, 50),
        "host_p99_ms": percentile(clock.durations_ms, 99),
        "spectators": spectators,
        "hands": table.game.hand_number,
        "seconds": elapsed,
        "hands_per_s": table.game.hand_number / elapsed,
        "host_cpu_ms_per_hand": 1000 * (user + system) / table.game.hand_number,
        "host_system_share": system / (user + system),
        "clients_cpu_ms_per_action": 1000 * clients_cpu_s / max(1, len(sent)),
        "timed_actions": len(latencies),
        "missing": len(sent) - len(latencies),
        "p50_ms": percentile(latencies, 50),
        "p99_ms": percentile(latencies, 99),
        "max_ms": max(latencies),
        "peak_rss_mib": peak_rss_mib(),
    }


def percentile(values: list[float], q: float) -> float:
    if not values:
        return math.nan
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, math.ceil(q / 100 * len(ordered)) - 1))
    return ordered[index]


# ---------------------------------------------------------------------- the driver


def row(result: dict[str, Any], mode: str) -> str:
    return (
        f"| {mode:8} | {result['spectators']:10d} | {result['hands_per_s']:7.2f} | "
        f"{result['host_cpu_ms_per_hand']:9.1f} | {100 * result['host_system_share']:5.0f} | "
        f"{result['p50_ms']:7.2f} | "
        f"{result['p99_ms']:7.2f} | {result['max_ms']:7.1f} | {result['host_p50_ms']:7.2f} | "
        f"{result['host_p99_ms']:7.2f} | {result['timed_actions']:6d} | "
        f"{result['clients_cpu_ms_per_action']:7.2f} | "
        f"{result['peak_rss_mib']:8.1f} |"
    )


HEADER = (
    "| mode     | spectators | hands/s | host CPU ms/hand | of it kernel % | p50 ms | p99 ms | "
    "max ms | host p50 ms | host p99 ms | actions | clients CPU ms/action | host peak RSS MiB |\n"
    "|----------|-----------:|--------:|-----------------:|---------------:|-------:|-------:|"
    "-------:|------------:|------------:|--------:|----------------------:|------------------:|"
)


def main_driver(args: argparse.Namespace) -> None:
    print(f"nproc {os.cpu_count()}, Python {sys.version.split()[0]}, {time.strftime('%Y-%m-%d')}")
    print(f"load average before: {os.getloadavg()}")
    print(HEADER)
    modes = [("flat out", 0.0, args.hands), ("paced", args.think_ms, args.paced_hands)]
    with tempfile.TemporaryDirectory() as workdir:
        result_file = Path(workdir) / "result.json"
        for spectators in args.spectators:
            for mode, think_ms, hands in modes:
                if hands == 0:  # --hands 0 or --paced-hands 0: that mode is left out
                    continue
                # A fresh host process per row: its peak memory is this row's alone.
                command = [sys.executable, __file__, "host", "--spectators", str(spectators)]
                command += ["--hands", str(hands), "--think-ms", str(think_ms)]
                command += ["--seed", str(args.seed), "--out", str(result_file)]
                if args.profile:
                    command.append("--profile")
                if args.journal:
                    command.append("--save")
                if args.pin_host:
                    command.append("--pin-host")
                if args.untimed:
                    command.append("--untimed")
                subprocess.run(command, check=True)
                print(row(json.loads(result_file.read_text()), mode), flush=True)
    print(f"load average after: {os.getloadavg()}")


def main_host(args: argparse.Namespace) -> None:
    client_cores = None
    if args.pin_host:
        cores = sorted(os.sched_getaffinity(0))
        if len(cores) < 2:
            sys.exit("--pin-host needs at least 2 cores")
        os.sched_setaffinity(0, {cores[0]})
        client_cores = set(cores[1:])
    profiler = cProfile.Profile(time.process_time) if args.profile else None
    with tempfile.TemporaryDirectory() as workdir:
        if profiler is not None:
            profiler.enable()
        result = trio.run(
            host_one_table,
            args.spectators,
            args.hands,
            args.think_ms,
            args.seed,
            Path(workdir),
            args.journal,
            client_cores,
            not args.untimed,
        )
        if profiler is not None:
            profiler.disable()
            text = io.StringIO()
            stats = pstats.Stats(profiler, stream=text)
            stats.sort_stats("tottime").print_stats(45)
            stats.sort_stats("cumulative").print_stats("dalmuti_net", 20)
            print(text.getvalue(), file=sys.stderr)
    args.out.write_text(json.dumps(result))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--spectators", type=int, nargs="*", default=[0, 16, 64, 256])
    parser.add_argument("--hands", type=int, default=20, help="hands played flat out")
    parser.add_argument("--paced-hands", type=int, default=3, help="hands played paced")
    parser.add_argument("--think-ms", type=float, default=20, help="a paced player's pause")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", action="store_true", help="cProfile the host (stderr)")
    parser.add_argument(
        "--save",
        "--journal",
        dest="journal",
        action="store_true",
        help="the host saves every change to its SQLite save (WAL, synchronous=FULL), as "
        "`dalmuti host --save` does",
    )
    parser.add_argument(
        "--pin-host",
        action="store_true",
        help="the host on the first core alone, every client process on the others: the "
        "host's own latency without waiting for a core its clients hold",
    )
    parser.add_argument(
        "--untimed",
        action="store_true",
        help="the host without the benchmark's own timing of it (a clock read and a call "
        "per socket write, which cost it CPU and add to the end-to-end latency): host CPU "
        "and end-to-end figures of the host alone; host p50/p99 not measured (nan)",
    )
    sub = parser.add_subparsers(dest="role")
    host = sub.add_parser("host", help="(started by the driver) one table's host")
    host.add_argument("--spectators", type=int, required=True)
    host.add_argument("--hands", type=int, required=True)
    host.add_argument("--think-ms", type=float, required=True)
    host.add_argument("--seed", type=int, required=True)
    host.add_argument("--out", type=Path, required=True)
    host.add_argument("--profile", action="store_true")
    host.add_argument("--save", "--journal", dest="journal", action="store_true")
    host.add_argument("--pin-host", action="store_true")
    host.add_argument("--untimed", action="store_true")
    client = sub.add_parser("client", help="(started by a host) clients of one process")
    client.add_argument("--port", type=int, required=True)
    client.add_argument("--players", type=int, default=0)
    client.add_argument("--spectators", type=int, default=0)
    client.add_argument("--think-ms", type=float, default=0)
    client.add_argument("--seed", type=int, default=0)
    client.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    if args.role == "client":
        trio.run(
            run_clients,
            args.port,
            args.players,
            args.spectators,
            args.think_ms / 1000,
            args.seed,
            args.out,
        )
    elif args.role == "host":
        main_host(args)
    else:
        main_driver(args)


if __name__ == "__main__":
    main()
