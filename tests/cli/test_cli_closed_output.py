"""A command whose reader goes away (`dalmuti join --plain | head`) ends quietly: no
"unexpected error ... please report it" for a pipe closed on purpose."""

from __future__ import annotations

import subprocess
import sys

# A command that prints many lines: standings' run replaced, the rest the real `dalmuti`.
SCRIPT = """
import sys
from dalmuti_net.commands import standings

def run(args):
    for number in range(200_000):
        print("line", number)
    return 0

standings.run = run
from dalmuti_net.cli import main
sys.exit(main(["standings", "league.db"]))
"""


def test_a_reader_that_closes_the_pipe_ends_the_command_quietly() -> None:
    process = subprocess.Popen(
        [sys.executable, "-c", SCRIPT],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert process.stdout is not None and process.stderr is not None
    assert process.stdout.readline() == b"line 0\n"
    process.stdout.close()  # as `head -1` does
    with process.stderr:
        complaint = process.stderr.read().decode()
    assert process.wait(timeout=30) == 1
    assert complaint == ""
