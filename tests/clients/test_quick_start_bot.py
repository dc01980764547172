"""PROTOCOL.md's quick start is enough: a bot written from it alone, in Perl (a language the
project ships no example for, with msgpack made by hand), plays a whole table at a real
host the first time. Issue 32 measures the document this way."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from host_process import assert_full_game, running_host

BOT = Path(__file__).resolve().parent / "quick_start_bot.pl"
REPO = Path(__file__).resolve().parents[2]
GAME_TIMEOUT_S = 60


HOSTS_OWN_PAUSE = """\
[rules]
scoring = true
hand_limit = 3
"""
"""Three hands with the host's own pause between them (30 s, unless everyone is ready)."""


def test_a_bot_from_the_quick_start_alone_plays_a_whole_table(tmp_path: Path) -> None:
    perl = shutil.which("perl")
    if perl is None:
        pytest.skip("Perl is not installed: the quick-start bot cannot run")
    rules_file = tmp_path / "pause.toml"
    rules_file.write_text(HOSTS_OWN_PAUSE, encoding="utf-8")
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


def quick_start_bot(folder: Path) -> Path:
    """The quick start's bot exactly as PROTOCOL.md prints it, in a file of its own."""
    text = (REPO / "PROTOCOL.md").read_text(encoding="utf-8")
    block = text.split("<!-- generated: example-bot -->\n```python\n", 1)[1]
    path = folder / "minibot.py"
    path.write_text(block.split("```\n<!-- end generated -->", 1)[0], encoding="utf-8")
    return path


@pytest.mark.parametrize("autostart", [4, None], ids=["autostart", "the-bot-starts-it"])
def test_the_quick_start_bot_plays_twenty_hands_at_a_headless_host_well_under_a_minute(
    tmp_path: Path, autostart: int | None
) -> None:
    """Issue 41, item 3: against `dalmuti host --headless --bots 3 --autostart 4 --rules
    all` (the host's own pause between hands and bot pace), the quick start's bot, verbatim,
    says `ready` after each hand and finishes the 20 hands in well under a minute; without
    --autostart it is the host player and starts the table itself."""
    bot = quick_start_bot(tmp_path)
    with running_host("all", seed=3, autostart=autostart) as host:
        # The host keeps the results up to 30 s unless everyone is ready: two hands
        # dealt after the pause instead of on the bot's ready pass the 60 s time-out.
        finished = subprocess.run(
            [sys.executable, str(bot), "127.0.0.1", str(host.port), "minibot"],
            capture_output=True,
            text=True,
            timeout=GAME_TIMEOUT_S,
        )
        host_output = host.stop()
    assert finished.returncode == 0 and finished.stderr == "", finished.stderr
    assert "'table_ended'" in finished.stdout and "'hand_limit'" in finished.stdout
    assert "Hand 20 is being dealt." in host_output, host_output
