"""`dalmuti join --plain`, `dalmuti bot` and `dalmuti bot --exec` as a user runs them,
against a lying host in its own process: one sentence and a documented exit status for
each lie, never a traceback; quitting works while connecting; Ctrl-C is quiet."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from hostile_host import FLOODS, SCENARIOS

from dalmuti_net.protocol import PROTOCOL_VERSION

UNEXPECTED = ("Traceback", "unexpected error", "please report")


def dalmuti(*arguments: str, home: Path, ctrl_c: bool = False) -> subprocess.Popen[str]:
    """The command; with ``ctrl_c``, as run in a terminal's foreground, where SIGINT has
    its default action.

    A job a non-interactive shell starts in the background (`pytest ... &`) ignores
    SIGINT, and so does everything it starts unless told otherwise: Python then keeps it
    ignored, as it should, and a Ctrl-C test would see the program play on."""
    environment = {
        **os.environ,
        "HOME": str(home),
        "XDG_CONFIG_HOME": str(home / "config"),
        "XDG_STATE_HOME": str(home / "state"),
        "XDG_DATA_HOME": str(home / "data"),
    }
    return subprocess.Popen(
        [sys.executable, "-m", "dalmuti_net.cli", *arguments],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=environment,
        preexec_fn=ctrl_c_as_in_a_terminal if ctrl_c else None,
    )


def ctrl_c_as_in_a_terminal() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def finish(process: subprocess.Popen[str], stdin: str = "", timeout: float = 15) -> str:
    """Everything it printed (stdout, then stderr), once it ends by itself."""
    out, err = process.communicate(stdin, timeout=timeout)
    for marker in UNEXPECTED:
        assert marker not in out + err, out + err
    return out + err


ANSWERS_ZERO = f'{sys.executable} -c "import sys\nfor line in sys.stdin: print(0, flush=True)"'


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_a_lie_ends_the_bot_with_one_sentence_and_status_1(
    name: str, tmp_path: Path, liars: dict[str, int]
) -> None:
    port = liars[name]
    bot = dalmuti("bot", "--lang", "en", f"127.0.0.1:{port}", home=tmp_path)
    said = finish(bot)
    assert bot.returncode == 1, said
    assert "do not fit the table, again after reconnecting" in said
    assert said.count("cannot read") == 1  # said once, not once per connection closed


def test_a_lie_is_told_in_the_bots_language_its_reason_as_details(
    tmp_path: Path, liars: dict[str, int]
) -> None:
    """The reason (English, technical) used to sit inside the Spanish sentences."""
    port = liars["tax_from_nobody"]
    bot = dalmuti("bot", "--lang", "es", f"127.0.0.1:{port}", home=tmp_path)
    said = finish(bot)
    assert bot.returncode == 1, said
    closed, ended = sorted(said.splitlines(), key=lambda line: "Detalles" in line)
    assert closed == (
        "El anfitrión envió un mensaje que este programa no puede leer, así que se cerró la "
        "conexión con él; se vuelve a intentar."
    )
    sentence, details = ended.split(" (Detalles para informar del fallo: ")
    assert sentence.endswith("este cliente dejó de hablar con él."), ended
    assert details.startswith("a `tax_paid` that does not fit the table"), ended


@pytest.mark.parametrize("name", ["no_legal_answer", "unaligned_hand_end"])
def test_a_lie_ends_an_exec_bot_too(name: str, tmp_path: Path, liars: dict[str, int]) -> None:
    port = liars[name]
    bot = dalmuti("bot", "--exec", ANSWERS_ZERO, f"127.0.0.1:{port}", home=tmp_path)
    said = finish(bot)
    assert bot.returncode == 1, said
    assert "do not fit the table" in said


@pytest.mark.parametrize("name", ["no_legal_answer", "tax_from_nobody"])
def test_a_lie_ends_the_plain_table_with_its_reason(
    name: str, tmp_path: Path, liars: dict[str, int]
) -> None:
    port = liars[name]
    plain = dalmuti("join", "--plain", "--lang", "es", f"127.0.0.1:{port}", home=tmp_path)
    assert plain.stdout is not None
    deadline = time.monotonic() + 10
    lines = []
    while time.monotonic() < deadline:  # the reason is said before any input is asked
        lines.append(plain.stdout.readline())
        if "no encajan con la mesa" in lines[-1]:
            break
    said = finish(plain, "quit\n")  # from the refusal's choices
    assert "no encajan con la mesa" in "".join(lines), "".join(lines) + said
    assert plain.returncode == 0


def test_a_welcome_of_another_version_is_refused_by_the_commands(
    tmp_path: Path, liars: dict[str, int]
) -> None:
    port = liars["other_version"]
    bot = dalmuti("bot", "--lang", "en", f"127.0.0.1:{port}", home=tmp_path)
    said = finish(bot)
    plain = dalmuti("join", "--plain", "--lang", "en", f"127.0.0.1:{port}", home=tmp_path)
    said_plain = finish(plain, "")
    assert bot.returncode == 5
    assert (
        f"protocol version {PROTOCOL_VERSION + 1}" in said
        and f"version {PROTOCOL_VERSION}:" in said
    )
    assert plain.returncode == 5, said_plain
    assert f"protocol version {PROTOCOL_VERSION + 1}" in said_plain


def test_the_plain_table_quits_while_connecting(tmp_path: Path, liars: dict[str, int]) -> None:
    """A host that never lets us in: `quit` is honoured at once (it used to be read only
    once the table was shown), and the status is 0."""
    port = liars["mute"]
    plain = dalmuti("join", "--plain", "--lang", "en", f"127.0.0.1:{port}", home=tmp_path)
    assert plain.stdin is not None and plain.stdout is not None
    assert "Connecting to" in plain.stdout.readline()
    plain.stdin.write("quit\n")
    plain.stdin.flush()
    # The mute host never lets it in: a quit read only once the table is shown would never
    # be read, and finish() would time out.
    finish(plain, timeout=10)
    assert plain.returncode == 0


def test_ctrl_c_in_the_plain_table_is_quiet(tmp_path: Path, liars: dict[str, int]) -> None:
    port = liars["quiet"]
    plain = dalmuti(
        "join", "--plain", "--lang", "en", f"127.0.0.1:{port}", home=tmp_path, ctrl_c=True
    )
    assert plain.stdout is not None
    while "You are at" not in plain.stdout.readline():
        pass
    plain.send_signal(signal.SIGINT)
    said = finish(plain, timeout=10)
    assert plain.returncode == 130
    assert said.strip().endswith("interrupted"), said


def test_an_exec_bot_whose_program_never_reads_ends_with_the_table(
    tmp_path: Path, liars: dict[str, int]
) -> None:
    """Its pipe fills up: the last line (the table's end) is given up after a while, and
    the program is killed with what it started (a shell's child here)."""
    marker = tmp_path / "child.pid"
    deaf = f"sh -c 'sleep 300 & echo $! > {marker}; sleep 300'"
    port = liars["many_decisions_then_the_end"]
    bot = dalmuti(
        "bot", "--exec", deaf, "--exec-timeout", "0.01", f"127.0.0.1:{port}", home=tmp_path
    )
    said = finish(bot, timeout=30)
    assert bot.returncode == 0, said
    child = int(marker.read_text())
    deadline = time.monotonic() + 10  # a hang guard: killed, it is gone or a zombie at once
    while still_running(child):
        assert time.monotonic() < deadline, f"the program's child {child} outlived the bot"
        time.sleep(0.1)


def still_running(pid: int) -> bool:
    """Whether ``pid`` still runs. A killed orphan stays a zombie until whatever adopted it
    reaps it, which a container's first process may do late or never: a zombie has been
    killed, and counts as gone."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False  # gone between the two looks
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


@pytest.mark.parametrize("name", sorted(FLOODS))
def test_the_plain_table_quits_under_a_flood(
    name: str, tmp_path: Path, liars: dict[str, int]
) -> None:
    port = liars[name]
    with dalmuti("join", "--plain", "--lang", "en", f"127.0.0.1:{port}", home=tmp_path) as plain:
        assert plain.stdin is not None and plain.stdout is not None
        while "You are at" not in plain.stdout.readline():
            pass
        # A reader that keeps up, as a terminal does.
        draining = threading.Thread(target=lambda: sum(1 for _ in plain.stdout or ()))
        draining.start()
        time.sleep(1.5)
        plain.stdin.write("quit\n1\n")  # quit, keeping the seat
        plain.stdin.flush()
        # The flood never stops: a quit starved by it would never be read, and the wait
        # would time out.
        plain.wait(timeout=10)
        draining.join()
        err = plain.stderr.read() if plain.stderr is not None else ""
    assert plain.returncode == 0, err
    assert not any(marker in err for marker in UNEXPECTED), err
