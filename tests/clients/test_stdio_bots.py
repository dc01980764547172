"""`dalmuti bot --exec`: any program plays a seat over its stdin and stdout.

The examples in client/stdio/ (Python, and POSIX sh with awk) each play a whole table at a
real `dalmuti host --headless` on 127.0.0.1, as a user would start them. Then one program
per misbehaviour (garbage, an illegal answer, a hang, an exit): each is reported in one
line, the seat plays the default move, and the table still finishes.
"""

from __future__ import annotations

import ast
import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from host_process import REPO, assert_full_game, running_host

from dalmuti_net.client.stdio import shell_command

STDIO_DIR = REPO / "client" / "stdio"
GAME_TIMEOUT_S = 90
ONE_HAND = """\
[rules]
scoring = true
hand_limit = 1

[table]
between_hands = 0
bot_pace = 0  # programs play here: the host's bots need not wait for a person
"""
REPORT = re.compile(
    r"^dalmuti bot: (?P<name>[^:]+): the program (?P<what>.+);"
    r" playing the default move (?P<move>\{.*\})$"
)


@pytest.fixture
def one_hand(tmp_path: Path) -> Path:
    path = tmp_path / "one_hand.toml"
    path.write_text(ONE_HAND, encoding="utf-8")
    return path


def bot_command(address: str, program: str, name: str, *extra: str) -> list[str]:
    return [
        sys.executable,
        "-m",
        "dalmuti_net.cli",
        "bot",
        address,
        "--exec",
        program,
        "--player-name",
        name,
        *extra,
    ]


def reports(stderr: str) -> list[re.Match[str]]:
    lines = [line for line in stderr.splitlines() if line.strip()]
    matches = [REPORT.match(line) for line in lines]
    assert all(matches), stderr
    return [m for m in matches if m is not None]


def test_the_python_example_uses_only_the_standard_library() -> None:
    tree = ast.parse((STDIO_DIR / "bot.py").read_text(encoding="utf-8"))
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            imported.add(node.module.split(".")[0])
    assert imported and imported <= set(sys.stdlib_module_names)


def test_both_examples_play_a_whole_table_together(rules_file: Path) -> None:
    """Two host bots, the Python example and the sh/awk example: three hands, no report."""
    with running_host(rules_file, seed=5, name="Stdio table", bots=2) as host:
        python = subprocess.Popen(
            bot_command(host.address, f"{sys.executable} client/stdio/bot.py", "Py stdio"),
            cwd=REPO,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        shell = subprocess.run(
            bot_command(host.address, "sh client/stdio/bot.sh", "Sh stdio"),
            cwd=REPO,
            capture_output=True,
            text=True,
            timeout=GAME_TIMEOUT_S,
        )
        python_out, python_err = python.communicate(timeout=GAME_TIMEOUT_S)
        host_output = host.stop()
    assert shell.returncode == 0, shell.stdout + shell.stderr
    assert python.returncode == 0, python_out + python_err
    assert shell.stderr == "" and python_err == ""
    assert_full_game(host_output, "Py stdio")
    assert_full_game(host_output, "Sh stdio")


def play_misbehaving(one_hand: Path, program: str, *extra: str) -> tuple[str, str]:
    """One hand with ``program`` in the fourth seat: the bot's stderr and the host's log."""
    with running_host(one_hand, seed=7) as host:
        finished = subprocess.run(
            bot_command(host.address, program, "Odd", *extra),
            cwd=REPO,
            capture_output=True,
            text=True,
            timeout=GAME_TIMEOUT_S,
        )
        host_output = host.stop()
    assert finished.returncode == 0, finished.stdout + finished.stderr
    assert "The table has ended." in host_output, host_output
    assert re.search(r"^\s+Odd\s+\d+$", host_output, re.MULTILINE), host_output
    return finished.stderr, host_output


def answers_then(first: str) -> str:
    """A program that prints ``first`` for its first decision, then answers index 0."""
    script = (
        "import sys\n"
        f"first = {first!r}\n"
        "for n, line in enumerate(sys.stdin):\n"
        "    print(first if n == 0 else 0, flush=True)\n"
    )
    return f"{sys.executable} -c {shlex.quote(script)}"


def test_garbage_is_reported_once_and_the_default_move_played(one_hand: Path) -> None:
    stderr, _ = play_misbehaving(one_hand, answers_then("this is not JSON"))
    (report,) = reports(stderr)
    assert report["name"] == "Odd"
    assert report["what"] == "printed something that is not an answer: 'this is not JSON'"
    assert json.loads(report["move"])["type"] in ("pass", "play", "tax", "revolution")


def test_an_illegal_answer_is_reported_once_and_the_default_move_played(one_hand: Path) -> None:
    wrong = json.dumps({"type": "misdeal", "choice": "peon"})  # never the first decision
    stderr, _ = play_misbehaving(one_hand, answers_then(wrong))
    (report,) = reports(stderr)
    assert report["what"] == f"answered illegally: {wrong!r}"


def test_a_hang_is_reported_once_its_late_answer_dropped(one_hand: Path) -> None:
    """The program sleeps through its first decision (1.6 s against a 1 s timeout), then
    answers it (with its id: the late answer is dropped) and every later one at once: the
    next decision's wait has begun by then and ends later than the program wakes."""
    script = (
        "import json, sys, time\n"
        "for n, line in enumerate(sys.stdin):\n"
        "    request = json.loads(line)\n"
        "    if request['type'] != 'decision':\n"
        "        continue\n"
        "    if n == 0:\n"
        "        time.sleep(1.6)\n"
        "    answer = dict(request['legal'][-1], decision_id=request['decision_id'])\n"
        "    print(json.dumps(answer), flush=True)\n"
    )
    program = f"{sys.executable} -c {shlex.quote(script)}"
    stderr, _ = play_misbehaving(one_hand, program, "--exec-timeout", "1")
    (report,) = reports(stderr)
    assert report["what"] == "said nothing within 1 s"


def test_an_exit_is_reported_once_and_the_seat_plays_on(one_hand: Path) -> None:
    """The program answers twice and exits: every later decision gets the default move."""
    stderr, _ = play_misbehaving(one_hand, "read l; echo 0; read l; echo 0; read l; exit 3")
    (report,) = reports(stderr)
    assert report["what"] == "exited (status 3)"


def test_a_program_that_closes_its_output_is_gone_reported_once(one_hand: Path) -> None:
    """The program answers once, closes its stdout and lives on: it is reported at once,
    once, and every later decision gets the default move at once (not a wait of
    ``--exec-timeout`` each: the shell that runs it must not hold its stdout open)."""
    script = "import os, sys, time\nsys.stdin.readline()\nos.write(1, b'0\\n')\nos.close(1)\n"
    script += "time.sleep(60)\n"  # a program of several lines, as one command: exec'd
    program = f"{sys.executable} -c {shlex.quote(script)}"
    stderr, _ = play_misbehaving(one_hand, program, "--exec-timeout", "1")
    (report,) = reports(stderr)
    assert report["what"] == "closed its output"


def test_a_shell_that_closes_its_output_is_gone_reported_once(one_hand: Path) -> None:
    stderr, _ = play_misbehaving(
        one_hand, "read l; echo 0; exec >&-; sleep 5", "--exec-timeout", "1"
    )
    (report,) = reports(stderr)
    assert report["what"] == "closed its output"


@pytest.mark.parametrize(
    ("command", "given"),
    [
        ("python3 client/stdio/bot.py", "exec python3 client/stdio/bot.py"),
        ("python3 -c 'import sys; print(0)' 2>&1", "exec python3 -c 'import sys; print(0)' 2>&1"),
        ("read l; echo 0", "read l; echo 0"),
        ("a | b", "a | b"),
        ("a && b", "a && b"),
        ("a &", "a &"),
        ("(a)", "(a)"),
        ("$(which python3) bot.py", "$(which python3) bot.py"),
        ("LANG=C a", "LANG=C a"),
        ("exec a", "exec a"),
        ("read l", "read l"),
        ("a\nb", "a\nb"),
        ("a # comment\nb", "a # comment\nb"),
        ("python3 -c 'import sys\nprint(0)'", "exec python3 -c 'import sys\nprint(0)'"),
        ("a 'unclosed", "a 'unclosed"),
    ],
)
def test_one_simple_command_runs_in_the_shells_place(command: str, given: str) -> None:
    assert shell_command(command) == given


@pytest.mark.parametrize(
    ("language", "told"),
    [
        ("zh-Hant", "dalmuti bot: Odd：程式已結束（結束碼 3）；改出預設的一手 {"),
        ("es", "dalmuti bot: Odd: el programa terminó (estado 3); se hace la jugada por omisión {"),
    ],
)
def test_a_misbehaving_program_is_reported_in_the_language(
    one_hand: Path, language: str, told: str
) -> None:
    exits = "read l; echo 0; read l; echo 0; read l; exit 3"
    stderr, _ = play_misbehaving(one_hand, exits, "--lang", language)
    assert stderr.startswith(told) and stderr.count("\n") == 1, stderr
