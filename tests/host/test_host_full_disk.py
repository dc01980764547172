"""A full disk never kills the host: the change is not acknowledged, every player is told
the host cannot save, the operator is told why, the save keeps no half-written change,
and the table goes on by itself once a write succeeds (see full_disk_table.py)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

SCRIPT = Path(__file__).parent / "full_disk_table.py"


def run(command: list[str]) -> dict[str, Any]:
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    seen: dict[str, Any] = json.loads(done.stdout.splitlines()[-1])
    if "skip" in seen:
        pytest.skip(seen["skip"])
    return seen


def judge(seen: dict[str, Any], reason: str) -> None:
    assert seen["fatal_errors"] == [], "nobody was dropped"
    assert seen["acked_while_full"] == 0, "nothing acknowledged that is not saved"
    assert seen["saved_while_full"] == 0
    assert len(seen["told_while_full"]) == 1 and reason in seen["told_while_full"][0]
    assert seen["told_after"][-1] is None, "the operator is told it saves again"
    assert seen["ended"], "the table went on to its end"
    assert seen["every_ack_saved"]
    assert seen["replays_to_the_live_table"]


def test_the_file_size_limit_stops_writes_and_the_table_waits(tmp_path: Path) -> None:
    judge(run([sys.executable, str(SCRIPT), "rlimit", str(tmp_path)]), "error")


@pytest.mark.skipif(
    os.geteuid() != 0 or shutil.which("unshare") is None,
    reason="a tiny tmpfs needs root and unshare (a private mount namespace)",
)
def test_a_full_tmpfs_stops_writes_and_the_table_waits(tmp_path: Path) -> None:
    folder = tmp_path / "tiny"
    folder.mkdir()
    command = ["unshare", "--mount", "--propagation", "private", sys.executable]
    judge(run([*command, str(SCRIPT), "tmpfs", str(folder)]), "disk is full")
