"""What one wake-up costs a client process: the CPU a trio program spends each time a small
frame arrives on an idle socket, beside a plain blocking ``recv`` loop reading the same.

bench/net.py's paced end-to-end latency waits for every client process to wake and read
each change; on a machine whose cores the clients share, this per-wake cost, paid by each
client process for every play, is what the end-to-end figure is made of. Run from the
repository root:

    python bench/wake.py                 # 1,000 frames, one every 5 ms, 3 rounds
"""

from __future__ import annotations

import argparse
import os
import platform
import socket
import sys
import time

import trio


def feed(sock: socket.socket, frames: int, interval_s: float) -> None:
    """The other end (a child process): one small frame every ``interval_s``."""
    for _ in range(frames):
        time.sleep(interval_s)
        sock.send(b"x" * 120)
    sock.close()


def blocking_reader(sock: socket.socket) -> int:
    wakes = 0
    while sock.recv(65536):
        wakes += 1
    return wakes


def trio_reader(sock: socket.socket) -> int:
    async def read() -> int:
        stream = trio.SocketStream(trio.socket.from_stdlib_socket(sock))
        wakes = 0
        while await stream.receive_some(65536):
            wakes += 1
        return wakes

    return trio.run(read)


def cpu_us_per_wake(reader: str, frames: int, interval_s: float) -> float:
    ours, theirs = socket.socketpair()
    child = os.fork()
    if child == 0:
        ours.close()
        feed(theirs, frames, interval_s)
        os._exit(0)
    theirs.close()
    began = time.process_time()
    wakes = trio_reader(ours) if reader == "trio" else blocking_reader(ours)
    spent = time.process_time() - began
    os.waitpid(child, 0)
    return 1e6 * spent / max(1, wakes)


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            for line in info:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--frames", type=int, default=1000)
    parser.add_argument("--interval-ms", type=float, default=5.0)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    print(f"nproc {os.cpu_count()}, {cpu_model()}, ", end="")
    print(f"Python {sys.version.split()[0]}, load average {os.getloadavg()[0]:.2f}")
    for round_ in range(1, args.rounds + 1):
        figures = {
            reader: cpu_us_per_wake(reader, args.frames, args.interval_ms / 1000)
            for reader in ("trio", "blocking")
        }
        print(
            f"round {round_}: CPU per wake, trio {figures['trio']:.0f} us, "
            f"blocking recv {figures['blocking']:.0f} us "
            f"(trio / blocking {figures['trio'] / figures['blocking']:.1f})"
        )


if __name__ == "__main__":
    main()
