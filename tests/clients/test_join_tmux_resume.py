"""End to end in a real terminal: `dalmuti join` in tmux plays a hand against a real host,
is killed with SIGKILL, is started again, and the same seat, with its points, plays on."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from host_process import REPO, running_host
from tmux_window import TmuxWindow

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")

RULES = """\
[rules]
scoring = true
hand_limit = 3

[table]
between_hands = 1
bot_pace = 0
"""
DEADLINE = 60.0
ROW = re.compile(r"Bea \(you\)\s+\S.*?\s(\d+)\s+(\d+)\s")
"""Bea's seat row: ... cards, score."""


class Terminal(TmuxWindow):
    """One tmux window at 80x24 running ``command`` again each time it ends."""

    def __init__(self, command: str, env: dict[str, str]) -> None:
        super().__init__(f"while true; do {command}; echo EXITED $?; sleep 0.2; done", env, REPO)

    def wait_for(self, text: str, timeout: float = 15.0) -> str:
        return super().wait_for(text, timeout)

    def client_pid(self) -> int:
        shell = subprocess.run(
            ["tmux", "list-panes", "-t", self.name, "-F", "#{pane_pid}"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout.split()[0]
        children = subprocess.run(
            ["pgrep", "-P", shell, "-f", "dalmuti_net.cli"], capture_output=True, text=True
        ).stdout.split()
        assert children, "the client is not running"
        return int(children[0])


def play_a_turn(terminal: Terminal, screen: str) -> None:
    """Answer whatever is asked, as a player reading the screen would."""
    taxes = re.search(r"\((\d) of (\d)\)", screen)
    if taxes:
        chosen, count = int(taxes[1]), int(taxes[2])
        terminal.keys("Up" if chosen < count else "Enter")
        if "no more of that card" in screen:
            terminal.keys("Right")
    elif "declare a revolution" in screen:
        terminal.keys("n")
    elif "(legal)" in screen:
        terminal.keys("Enter")
    elif ", or pass." in screen or ": pass." in screen:
        terminal.keys("p")
    elif "Merchant" in screen and "d decline" in screen:
        terminal.keys("d")
    else:
        terminal.keys("Tab")
    changed(terminal, screen)


def changed(terminal: Terminal, before: str, timeout: float = 3.0) -> None:
    """Until the screen is not ``before`` any more (the key was taken), or ``timeout``."""
    end = time.monotonic() + timeout
    while terminal.screen() == before and time.monotonic() < end:
        time.sleep(0.02)


def seat_row(screen: str) -> tuple[int, int]:
    match = ROW.search(screen)
    assert match, f"no seat row for Bea; the screen:\n{screen}"
    return int(match[1]), int(match[2])


def test_a_killed_client_comes_back_to_its_seat_with_its_points(tmp_path: Path) -> None:
    rules = tmp_path / "rules.toml"
    rules.write_text(RULES, encoding="utf-8")
    env = {**os.environ, "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TERM": "xterm-256color"}
    env["XDG_STATE_HOME"] = str(tmp_path / "state")
    env["XDG_CONFIG_HOME"] = str(tmp_path / "config")
    # Bea passes by hand: auto-pass's pause (a moment to see what beat her) would add
    # more than a second to each of her many passes, and is not what this test is about.
    settings = tmp_path / "config" / "dalmuti-net" / "client.json"
    settings.parent.mkdir(parents=True)
    settings.write_text(json.dumps({"auto_pass": False}), encoding="utf-8")
    env.pop("TMUX", None)
    with running_host(rules, seed=3) as host:
        # The tmux server may be older than this test: its environment is not ours.
        where = f"XDG_STATE_HOME={tmp_path / 'state'} XDG_CONFIG_HOME={tmp_path / 'config'}"
        command = (
            f"{where} LANG=C.UTF-8 LC_ALL=C.UTF-8 "
            f"{sys.executable} -m dalmuti_net.cli join {host.address} --name Bea --lang en"
        )
        terminal = Terminal(command, env)
        try:
            screen = terminal.wait_for("Hand 1")
            end = time.monotonic() + DEADLINE
            while "Hand 2" not in screen:
                assert time.monotonic() < end, f"hand 1 did not end; the screen:\n{screen}"
                if "Your turn!" in screen:
                    play_a_turn(terminal, screen)
                time.sleep(0.1)
                screen = terminal.screen()
            screen = terminal.wait_for("Hand 2")
            _, score = seat_row(screen)
            seats = (tmp_path / "state" / "dalmuti-net" / "seats.json").stat()
            assert seats.st_mode & 0o777 == 0o600

            os.kill(terminal.client_pid(), signal.SIGKILL)
            terminal.wait_for("EXITED 137")
            screen = terminal.wait_for("Welcome back: this is your seat, as you left it.")
            terminal.wait_for("Hand 2")
            assert "Bea (2)" not in screen
            assert seat_row(terminal.screen())[1] == score, "the points came back with the seat"

            end = time.monotonic() + DEADLINE
            turns = 0
            screen = terminal.screen()
            while turns < 2 and "Hand 3" not in screen:
                assert time.monotonic() < end, f"the seat did not play on:\n{screen}"
                if "Your turn!" in screen:
                    play_a_turn(terminal, screen)
                    turns += 1
                time.sleep(0.1)
                screen = terminal.screen()
            assert "Bea (you)" in screen
        finally:
            terminal.close()
