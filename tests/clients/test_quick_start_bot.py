"""PROTOCOL.md's quick start is enough: a bot written from it alone, in Perl (a language the
project ships no example for, with msgpack made by hand), plays a whole table at a real
host the first time. Issue 32 measures the document this way."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from host_process import assert_full_game, running_host

BOT = Path(__file__).resolve().parent / "quick_start_bot.pl"
GAME_TIMEOUT_S = 60


def test_a_bot_from_the_quick_start_alone_plays_a_whole_table(rules_file: Path) -> None:
    perl = shutil.which("perl")
    if perl is None:
        pytest.skip("Perl is not installed: the quick-start bot cannot run")
    with running_host(rules_file, seed=5) as host:
        finished = subprocess.run(
            [perl, str(BOT), "127.0.0.1", str(host.port), "Perl bot"],
            capture_output=True,
            text=True,
            timeout=GAME_TIMEOUT_S,
        )
        host_output = host.stop()
    assert finished.returncode == 0, finished.stdout + finished.stderr
    assert finished.stderr == ""
    assert finished.stdout.startswith("table ended after "), finished.stdout
    assert "error" not in finished.stdout, finished.stdout
    assert_full_game(host_output, "Perl bot")
