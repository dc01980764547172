"""A real `dalmuti host --headless` in a subprocess on 127.0.0.1, for the client tests.

Each table is quick: three hands (a rules file with scoring and hand_limit = 3) and no
pause between hands; three heuristic host bots, and the client under test takes the
fourth seat, which starts the table (--autostart 4).
"""

from __future__ import annotations

import os
import re
import selectors
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
QUICK_RULES = """\
[rules]
scoring = true
hand_limit = 3

[table]
between_hands = 0
bot_pace = 0  # programs play here: the host's bots need not wait for a person
"""
START_TIMEOUT_S = 20.0
OPEN_LINE = re.compile(r"is open on port (\d+)")


@dataclass
class RunningHost:
    process: subprocess.Popen[str]
    port: int
    lines: list[str]

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def stop(self) -> str:
        """Stop the host (SIGTERM, as Ctrl-C would) and return everything it printed."""
        if self.process.poll() is None:
            self.process.terminate()
        try:
            rest, _ = self.process.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            rest, _ = self.process.communicate()
        return "".join(self.lines) + (rest or "")


@contextmanager
def running_host(
    rules: Path | str,
    *,
    seed: int = 1,
    name: str = "Client test table",
    announce: bool = False,
    bots: int = 3,
    autostart: int | None = 4,
) -> Iterator[RunningHost]:
    """`dalmuti host` with three bots (or ``bots``), waiting for a fourth seat, until the
    block ends. ``rules``: a rules file or a preset's name; ``autostart`` None: the host
    player starts the table."""
    command = [
        sys.executable,
        "-m",
        "dalmuti_net.cli",
        "host",
        "--headless",
        "--interface",
        "127.0.0.1",
        "--port",
        "0",
        "--table-name",
        name,
        "--bots",
        str(bots),
        "--rules",
        str(rules),
        "--seed",
        str(seed),
    ]
    if autostart is not None:
        command += ["--autostart", str(autostart)]
    if not announce:
        command.append("--no-announce")
    process = subprocess.Popen(
        command,
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    host: RunningHost | None = None
    try:
        lines, port = _wait_until_open(process, announced=announce)
        host = RunningHost(process, port, lines)
        yield host
    finally:
        if host is None:
            process.kill()
            process.communicate()
        else:
            host.stop()


def _wait_until_open(process: subprocess.Popen[str], announced: bool) -> tuple[list[str], int]:
    """The host's first lines, up to the one with its port (and its announcement).

    Read straight from the pipe, unbuffered, so that no line waits in a buffer unseen.
    """
    assert process.stdout is not None
    descriptor = process.stdout.fileno()
    lines: list[str] = []
    pending = b""
    port: int | None = None
    deadline = time.monotonic() + START_TIMEOUT_S
    with selectors.DefaultSelector() as selector:
        selector.register(descriptor, selectors.EVENT_READ)
        while time.monotonic() < deadline:
            if not selector.select(timeout=deadline - time.monotonic()):
                break
            data = os.read(descriptor, 4096)
            if not data:
                break
            pending += data
            *complete, pending = pending.split(b"\n")
            for raw in complete:
                line = raw.decode("utf-8", "replace") + "\n"
                lines.append(line)
                match = OPEN_LINE.search(line)
                if match:
                    port = int(match.group(1))
            if port is not None and (not announced or any("Announced" in x for x in lines)):
                lines.append(pending.decode("utf-8", "replace"))
                return lines, port
    process.kill()
    rest, _ = process.communicate()
    pytest.fail("the host did not start:\n" + "".join(lines) + (rest or ""))


def assert_full_game(host_output: str, player_name: str) -> None:
    """The host's own log shows the three hands played and the client among the scores."""
    assert "Hand 3 is being dealt." in host_output, host_output
    assert "The table has ended." in host_output, host_output
    scores = host_output.split("The table has ended.", 1)[1]
    assert re.search(rf"^\s+{re.escape(player_name)}\s+\d+$", scores, re.MULTILINE), host_output
