"""`dalmuti bot --strategy package.module:attr` whose strategy raises: the bot stops with
one sentence in the language asked for, exit 1 (a strategy failed), not an 'unexpected
error' to report; --debug adds the traceback."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from host_process import REPO, running_host

BROKEN_STRATEGY = """\
class Broken:
    name = "broken"

    def __init__(self, seed=None):
        pass

    def choose(self, observation, decision):
        raise RuntimeError("my strategy is broken")
"""
ONE_HAND = "[rules]\nscoring = true\nhand_limit = 1\n"


@pytest.mark.parametrize(
    ("language", "told"),
    [
        ("zh-Hant", "dalmuti bot: 策略 broken_strategy:Broken 在 {d} 出錯：RuntimeError: my "),
        ("es", "dalmuti bot: la estrategia broken_strategy:Broken falló en {d}: RuntimeError: "),
    ],
)
def test_a_strategy_that_raises_stops_the_bot_in_one_sentence(
    tmp_path: Path, language: str, told: str
) -> None:
    (tmp_path / "broken_strategy.py").write_text(BROKEN_STRATEGY, encoding="utf-8")
    rules = tmp_path / "one_hand.toml"
    rules.write_text(ONE_HAND, encoding="utf-8")
    environment = {**os.environ, "PYTHONPATH": str(tmp_path)}
    with running_host(rules, seed=3) as host:
        bot = [sys.executable, "-m", "dalmuti_net.cli", "bot", host.address]
        bot += ["--strategy", "broken_strategy:Broken", "--lang", language]
        finished = subprocess.run(
            bot, cwd=REPO, env=environment, capture_output=True, text=True, timeout=60
        )
    assert finished.returncode == 1, finished.stderr
    assert finished.stdout == "" and finished.stderr.count("\n") == 1, finished.stderr
    decision = re.search(r"\b(\w+Decision)\b", finished.stderr)
    assert decision is not None, finished.stderr  # the decision it failed on
    assert finished.stderr.startswith(told.format(d=decision[1])), finished.stderr
