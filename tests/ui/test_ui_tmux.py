"""End to end in a real terminal: `dalmuti host --bots 3` in tmux, the host player's UI
plays a whole hand by keystrokes, and the test reads the screen with capture-pane."""

from __future__ import annotations

import os
import re
import shutil
import sys
import time
from pathlib import Path

import pytest
from tmux_window import TmuxWindow

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")

ROOT = Path(__file__).resolve().parents[2]
DEADLINE = 90.0


class Tmux(TmuxWindow):
    def __init__(self, command: list[str], cols: int = 80, rows: int = 24) -> None:
        env = {**os.environ, "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TERM": "xterm-256color"}
        env.pop("TMUX", None)
        shell_command = " ".join(command) + "; echo EXITED $?; sleep 30"
        super().__init__(shell_command, env, ROOT, cols, rows)


def changed(tmux: Tmux, before: str, timeout: float = 3.0) -> str:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        screen = tmux.screen()
        if screen != before:
            return screen
        time.sleep(0.05)
    return tmux.screen()


def test_host_player_plays_a_hand_in_tmux() -> None:
    command = [
        sys.executable, "-m", "dalmuti_net.cli", "host", "--bots", "3", "--no-announce",
        "--interface", "127.0.0.1", "--port", "0", "--player-name", "Ana", "--seed", "5",
        "--lang", "en", "--bot-pace", "0.05",
    ]  # fmt: skip
    tmux = Tmux(command)
    try:
        lobby = tmux.wait_for("Enough players, all ready: the table can start.")
        assert "Ana (you)" in lobby and "Heuristic bot (3)" in lobby
        tmux.keys("s")
        screen = tmux.wait_for("Hand 1")
        end = time.monotonic() + DEADLINE
        turns = 0
        auto_pass = ""  # "pausing" (on the turn line), then "passed" (in the log)
        # The hand's results stay until read ("Hand 1 is over"): no wait for hand 2.
        while "Hand 1 is over" not in screen and "Hand 2" not in screen:
            assert time.monotonic() < end, f"the hand did not end; the screen:\n{screen}"
            flat = " ".join(screen.split())
            if not auto_pass and "auto-pass passes for you in a moment" in flat:
                auto_pass = "pausing"
            if auto_pass == "pausing" and "passed for you (auto-pass)" in flat:
                auto_pass = "passed"  # seen once, end to end; then off (1.2 s each)
                tmux.keys("a")
            if "Your turn!" not in screen:
                time.sleep(0.1)
                screen = tmux.screen()
                continue
            turns += 1
            assert len(screen.splitlines()) <= 24
            taxes = re.search(r"\((\d) of (\d)\)", screen)
            if taxes:
                chosen, count = int(taxes[1]), int(taxes[2])
                tmux.keys("Up" if chosen < count else "Enter")
                screen = changed(tmux, screen)
                if "no more of that card" in screen:
                    tmux.keys("Right")
            elif "declare a revolution" in screen:
                tmux.keys("n")
            elif "(legal)" in screen:
                tmux.keys("Enter")
            elif ", or pass." in screen or ": pass." in screen:
                tmux.keys("p")
            else:
                tmux.keys("Tab")
            screen = changed(tmux, screen)
        assert turns >= 2 and auto_pass == "passed"
        tmux.keys("q")
        tmux.wait_for("quitting ends it for everyone")
        tmux.keys("y")  # a decision key behind the question: it means nothing here
        time.sleep(0.3)
        assert "EXITED" not in tmux.screen() and "Quit?" in tmux.screen()
        tmux.keys("e")
        tmux.wait_for("EXITED 0")
    finally:
        tmux.close()


@pytest.mark.slow
def test_the_host_terminal_leaves_and_a_joined_player_plays_on_as_host() -> None:
    """`dalmuti host` in tmux at 80x24: Bo joins over TCP (a client in this test), Ana
    starts, leaves with q then l; Bo becomes the host player and the hand goes on while
    the host's terminal shows console lines; Ctrl-C there says goodbye to Bo. (About 5 s:
    slow; tests/ui/test_ui_host_leaves.py runs the same terminal by default, through a
    pipe and DummyOutput.)"""
    import threading

    import trio

    from dalmuti_net.bots import make_strategy
    from dalmuti_net.client.bot import play
    from dalmuti_net.client.session import ClientSession

    command = [
        sys.executable, "-m", "dalmuti_net.cli", "host", "--bots", "2", "--no-announce",
        "--interface", "127.0.0.1", "--port", "0", "--player-name", "Ana", "--seed", "5",
        "--lang", "en", "--bot-pace", "0.2",
    ]  # fmt: skip
    tmux = Tmux(command)
    bo: list[ClientSession] = []
    try:
        lobby = tmux.wait_for("Players join with: dalmuti join 127.0.0.1:")
        port = int(re.search(r"127\.0\.0\.1:(\d+)", lobby)[1])  # type: ignore[index]

        async def connect() -> trio.abc.Stream:
            return await trio.open_tcp_stream("127.0.0.1", port)

        def bo_plays() -> None:
            bo.append(trio.run(play, connect, make_strategy("heuristic", 1), "Bo"))

        player = threading.Thread(target=bo_plays, daemon=True)
        player.start()
        tmux.wait_for("all ready: the table can start")  # Bo, a bot program, too
        tmux.keys("s")
        tmux.wait_for("Hand 1")
        tmux.keys("q")
        screen = tmux.wait_for("l leave the table, keep hosting")
        assert "Bo becomes the host player." in " ".join(screen.split())
        assert len(screen.splitlines()) <= 24
        tmux.keys("l")
        screen = tmux.wait_for("Ctrl-C closes it for everyone.")
        assert "You left the table; Bo is the host player now." in screen
        assert "EXITED" not in screen
        time.sleep(1.0)  # Bo and the bots play on; the host process serves them
        assert "EXITED" not in tmux.screen() and player.is_alive()
        tmux.keys("C-c")
        tmux.wait_for("Closing the table (SIGINT).")
        tmux.wait_for("EXITED 0")
        player.join(10)
        assert bo and bo[0].goodbye_code == "shutting_down"
        seat = next(s for s in bo[0].table.players if s.name == "Bo")  # type: ignore[union-attr]
        assert seat.host
    finally:
        tmux.close()
