"""One tmux window at a fixed size, driven as a player would: read the screen, press keys."""

from __future__ import annotations

import subprocess
import time
import uuid
from pathlib import Path


class TmuxWindow:
    def __init__(
        self, shell_command: str, env: dict[str, str], cwd: Path, cols: int = 80, rows: int = 24
    ) -> None:
        self.name = f"dalmuti-e2e-{uuid.uuid4().hex[:8]}"
        # A tmux server already running starts the command with its own environment, not
        # this one: each variable is given with -e, so that the tests' private config and
        # state folders are the program's too (not the user's, which it would write to).
        given = [arg for name, value in env.items() for arg in ("-e", f"{name}={value}")]
        window = ["-s", self.name, "-x", str(cols), "-y", str(rows), *given, shell_command]
        subprocess.run(["tmux", "-u", "new-session", "-d", *window], check=True, env=env, cwd=cwd)

    def screen(self) -> str:
        return subprocess.run(
            ["tmux", "capture-pane", "-p", "-t", self.name],
            check=True,
            capture_output=True,
            text=True,
        ).stdout

    def keys(self, *keys: str) -> None:
        subprocess.run(["tmux", "send-keys", "-t", self.name, *keys], check=True)

    def wait_for(self, text: str, timeout: float = 10.0) -> str:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            screen = self.screen()
            if text in screen:
                return screen
            time.sleep(0.1)
        raise AssertionError(f"{text!r} never appeared; the screen:\n{self.screen()}")

    def close(self) -> None:
        subprocess.run(["tmux", "kill-session", "-t", self.name], check=False)
