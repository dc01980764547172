"""`dalmuti sim --jobs 2` stopped by a signal leaves no worker process behind."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest


def children_of(parent: int) -> set[int]:
    found = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        # pid (comm) state ppid ...: comm may hold spaces, so split after its ")".
        if int(stat.rsplit(")", 1)[1].split()[1]) == parent:
            found.add(int(entry.name))
    return found


def alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc (Linux)")
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGKILL])
def test_the_workers_end_with_a_killed_sim(signum: int) -> None:
    command = [sys.executable, "-m", "dalmuti_net.cli", "sim", "--players", "6"]
    command += ["--hands", "100000", "--jobs", "2", "--seed", "1"]
    sim = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        workers: set[int] = set()
        while len(workers) < 2:
            assert time.monotonic() < deadline, "the workers never started"
            assert sim.poll() is None, "sim ended before its workers started"
            time.sleep(0.2)
            workers = {pid for pid in children_of(sim.pid) if "spawn_main" in cmdline(pid)}
        os.kill(sim.pid, signum)
        sim.wait(timeout=10)
        deadline = time.monotonic() + 10
        while any(alive(pid) for pid in workers):
            assert time.monotonic() < deadline, "a worker outlived its sim"
            time.sleep(0.2)
    finally:
        if sim.poll() is None:
            sim.kill()
            sim.wait()


def cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""
