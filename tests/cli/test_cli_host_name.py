"""The host player is one person (issue 33.2): `dalmuti host` at a terminal asks the name
once and remembers it, as `dalmuti join` does; the league counts a person once."""

from __future__ import annotations

import os
import pty
import select
import subprocess
import sys
import time
from pathlib import Path

from dalmuti_net.client.ui.config import load_name
from dalmuti_net.history.standings import PlayerResult, TableResults, combine

REPO = Path(__file__).resolve().parents[2]
DEADLINE_S = 30.0


class PtyHost:
    """`dalmuti host --plain` (or another command) with a pseudo-terminal for its standard
    input and output."""

    def __init__(self, home: Path, command: list[str] | None = None) -> None:
        self.main, child = pty.openpty()
        env = {
            **os.environ,
            "PYTHONIOENCODING": "utf-8",
            "TERM": "dumb",
            "XDG_CONFIG_HOME": str(home / "config"),
            "XDG_STATE_HOME": str(home / "state"),
            "LANG": "C.UTF-8",
        }
        env.pop("LANGUAGE", None)
        if command is None:
            # --no-save: a host this test kills is not offered again (that offer is
            # test_host_saves_folder's); what is asked here is the name.
            command = ["host", "--plain", "--no-announce", "--interface", "127.0.0.1"]
            command += ["--port", "0", "--no-save"]
        self.process = subprocess.Popen(
            [sys.executable, "-m", "dalmuti_net.cli", *command, "--lang", "en"],
            cwd=REPO,
            stdin=child,
            stdout=child,
            stderr=child,
            env=env,
        )
        os.close(child)
        self.output = ""

    def wait_for(self, text: str) -> None:
        deadline = time.monotonic() + DEADLINE_S
        while text not in self.output:
            left = deadline - time.monotonic()
            assert left > 0, self.output
            ready, _, _ = select.select([self.main], [], [], left)
            if ready:
                try:
                    self.output += os.read(self.main, 4096).decode("utf-8", "replace")
                except OSError:  # the program ended
                    raise AssertionError(self.output) from None

    def type(self, line: str) -> None:
        os.write(self.main, line.encode() + b"\r")

    def close(self) -> None:
        self.process.kill()
        self.process.wait(timeout=10)
        os.close(self.main)


def test_the_host_player_is_asked_once_and_remembered(tmp_path: Path) -> None:
    first = PtyHost(tmp_path)
    try:
        first.wait_for("Your name at the table [")
        first.type("Ana")
        first.wait_for("1. Ana (you), host")
        # The table is named after her, not after the login.
        first.wait_for("Table “Ana's table” is open")
    finally:
        first.close()
    assert load_name(tmp_path / "config" / "dalmuti-net") == "Ana"

    again = PtyHost(tmp_path)
    try:
        again.wait_for("1. Ana (you), host")
        again.wait_for("Table “Ana's table” is open")
    finally:
        again.close()
    assert "Your name at the table" not in again.output


def test_joining_by_address_asks_the_name_once_and_remembers_it(tmp_path: Path) -> None:
    host = PtyHost(
        tmp_path / "ana",
        [
            "host",
            "--plain",
            "--no-announce",
            "--port",
            "0",
            "--interface",
            "127.0.0.1",
            "--player-name",
            "Ana",
        ],
    )
    try:
        host.wait_for("Players join with: dalmuti join 127.0.0.1:")
        host.wait_for("\n")
        address = host.output.split("dalmuti join ")[1].split()[0]
        ben = tmp_path / "ben"
        first = PtyHost(ben, ["join", "--plain", address])
        try:
            first.wait_for("Your name at the table [")
            first.type("Ben")
            first.wait_for("Ben (you)")
        finally:
            first.close()
        assert load_name(ben / "config" / "dalmuti-net") == "Ben"
        again = PtyHost(ben, ["join", "--plain", address])
        try:
            again.wait_for("Ben (you)")
        finally:
            again.close()
        assert "Your name at the table" not in again.output
    finally:
        host.close()


def test_the_league_counts_a_person_once_whatever_the_case_of_the_name() -> None:
    def table(table_id: str, name: str, score: int) -> TableResults:
        return TableResults(table_id, "Friday", (PlayerResult(name, score, 1, 5, 9, 2),))

    standings = combine([table("a", "Ana", 7), table("b", "ana", 5), table("c", "Bo", 3)])
    assert [(s.name, s.points, s.tables) for s in standings] == [("Ana", 12, 2), ("Bo", 3, 1)]
