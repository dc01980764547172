"""Every start failure is one line on stderr, what is wrong and what to do, with the exit
code `dalmuti --help` documents; `--debug` adds the traceback."""

from __future__ import annotations

import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from dalmuti_net.cli import main, user_failure
from dalmuti_net.client import runner
from dalmuti_net.commands.common import ExitCode
from dalmuti_net.commands.host_runtime import HostStartError
from dalmuti_net.protocol import encode

QUIET_HOST = ["host", "--headless", "--no-announce"]
STEP_TIMEOUT_S = 60


def fails(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    err = capsys.readouterr().err
    assert code != 0, err
    assert err.count("\n") == 1, err
    assert err.startswith(f"dalmuti {argv[0]}: "), err
    assert "Traceback" not in err
    return code, err


@pytest.fixture
def busy_port() -> Iterator[int]:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        yield taken.getsockname()[1]


def test_a_busy_explicit_port(capsys: pytest.CaptureFixture[str], busy_port: int) -> None:
    code, err = fails(capsys, *QUIET_HOST, "--interface", "127.0.0.1", "--port", str(busy_port))
    assert code == ExitCode.CANNOT_START
    assert f"port {busy_port} is already in use; try another --port" in err


@pytest.mark.parametrize(
    ("language", "told"),
    [
        ("en", "port {port} is already in use; try another --port"),
        ("zh-Hant", "連接埠 {port} 已被占用；請換一個 --port"),
    ],
)
def test_a_busy_port_for_the_plain_table_is_the_same_one_line(
    capsys: pytest.CaptureFixture[str], busy_port: int, language: str, told: str
) -> None:
    # It said "Exceptions from Trio nursery (1 sub-exception)", exit 1.
    host = ["host", "--plain", "--no-announce", "--interface", "127.0.0.1"]
    code, err = fails(capsys, *host, "--port", str(busy_port), "--lang", language)
    assert code == ExitCode.CANNOT_START
    assert err == f"dalmuti host: {told.format(port=busy_port)}\n"


@pytest.mark.parametrize(
    "command",
    [["hosts", "--timeout", "0.1"], ["bot"], ["join", "--plain"]],
    ids=["hosts", "bot", "join"],
)
def test_discovery_on_an_interface_that_is_not_one_is_refused_in_one_line(
    capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    # Each was an 'unexpected error' (ValueError, or OSError: No such device) in English.
    code, err = fails(capsys, *command, "--interface", "nope", "--lang", "es")
    assert code == ExitCode.USAGE
    assert "--interface necesita una dirección IP de esta máquina" in err and "nope" in err
    code, err = fails(capsys, *command, "--interface", "10.9.9.9", "--lang", "zh-Hant")
    assert code == ExitCode.CANNOT_START
    assert "10.9.9.9 不是這台電腦的位址；請給 --interface" in err


def test_an_address_that_is_not_this_machines(capsys: pytest.CaptureFixture[str]) -> None:
    code, err = fails(capsys, *QUIET_HOST, "--interface", "10.9.9.9", "--port", "0")
    assert code == ExitCode.CANNOT_START
    assert "10.9.9.9 is not an address of this machine; give --interface" in err


def test_an_interface_that_is_not_an_address(capsys: pytest.CaptureFixture[str]) -> None:
    code, err = fails(capsys, *QUIET_HOST, "--interface", "not-an-ip")
    assert code == ExitCode.USAGE
    assert "--interface wants an IP address of this machine" in err and "not-an-ip" in err


def test_a_save_in_a_missing_folder(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    save = tmp_path / "no-such-folder" / "table.db"
    code, err = fails(capsys, *QUIET_HOST, "--interface", "127.0.0.1", "--save", str(save))
    assert code == ExitCode.USAGE
    assert f"the folder {save.parent} does not exist" in err


def test_host_without_a_terminal_suggests_headless(capsys: pytest.CaptureFixture[str]) -> None:
    # Under pytest, stdin is not a terminal: as under cron, systemd or a pipe.
    code, err = fails(capsys, "host", "--no-announce", "--interface", "127.0.0.1")
    assert code == ExitCode.CANNOT_START
    assert "no terminal" in err and "--headless" in err


def test_join_without_a_terminal_suggests_plain(capsys: pytest.CaptureFixture[str]) -> None:
    code, err = fails(capsys, "join", "127.0.0.1:9")
    assert code == ExitCode.CANNOT_START
    assert "no terminal" in err and "--plain" in err


def test_hosts_json_finding_nothing_exits_as_hosts_does(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # A private address no table answers on: nothing is found, whatever this machine runs.
    code = main(["hosts", "--json", "--timeout", "0.3", "--interface", "127.0.0.1"])
    out = capsys.readouterr().out
    if out.strip() != "[]":  # someone else's table is announced on this machine right now
        assert code == ExitCode.OK
        return
    assert code == ExitCode.NOT_FOUND


def test_bot_without_an_address_looks_on_the_lan(capsys: pytest.CaptureFixture[str]) -> None:
    code, err = fails(
        capsys, "bot", "--table-name", "No such table 8127", "--interface", "127.0.0.1"
    )
    assert code == ExitCode.NOT_FOUND
    assert "no table named 'No such table 8127' to join was found" in err
    assert "dalmuti bot HOST[:PORT]" in err


def test_bot_at_an_unreachable_host(capsys: pytest.CaptureFixture[str], busy_port: int) -> None:
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    code, err = fails(capsys, "bot", f"127.0.0.1:{port}")
    assert code == ExitCode.NOT_FOUND
    assert f"Could not reach the host at 127.0.0.1:{port} (nothing answers on that port" in err


def test_an_error_inside_nested_exception_groups_is_found() -> None:
    inner = HostStartError("port 7341 is already in use; try another --port")
    wrapped = BaseExceptionGroup("outer", [ExceptionGroup("nursery", [ValueError(), inner])])
    assert user_failure(wrapped) is inner
    assert user_failure(ExceptionGroup("nursery", [ValueError()])) is None


def test_debug_shows_the_traceback() -> None:
    finished = subprocess.run(
        [sys.executable, "-m", "dalmuti_net", *QUIET_HOST, "--interface", "10.9.9.9", "--debug"],
        capture_output=True,
        text=True,
        timeout=STEP_TIMEOUT_S,
        stdin=subprocess.DEVNULL,
    )
    assert finished.returncode == ExitCode.CANNOT_START
    assert "Traceback" in finished.stderr
    assert finished.stderr.rstrip().endswith(
        "dalmuti host: 10.9.9.9 is not an address of this machine; give --interface one "
        "of its addresses, or leave it out for every interface"
    )


@pytest.fixture
def closing_peer() -> Iterator[int]:
    """A listener that is not a dalmuti-net host: it closes every connection at once."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        listener.settimeout(0.05)
        stop = threading.Event()

        def serve() -> None:
            while not stop.is_set():
                try:
                    connection, _ = listener.accept()
                except TimeoutError:
                    continue
                connection.close()

        thread = threading.Thread(target=serve, daemon=True)
        thread.start()
        yield listener.getsockname()[1]
        stop.set()
        thread.join()


def test_bot_at_something_that_is_not_a_host(
    capsys: pytest.CaptureFixture[str], closing_peer: int
) -> None:
    code, err = fails(capsys, "bot", f"127.0.0.1:{closing_peer}")
    assert code == ExitCode.NOT_FOUND
    assert f"127.0.0.1:{closing_peer} (something answers there, but it is not a dalmuti" in err


ANSWER = {"type": "error", "code": "rate_limited", "message": "slow down", "fatal": False}


@pytest.fixture(params=[ANSWER, {"type": "heartbeat"}], ids=["answered", "heartbeat"])
def peer_that_lets_go(request: pytest.FixtureRequest) -> Iterator[tuple[int, bool]]:
    """Sends one message after the hello, then closes without a seat: its port, and
    whether that message answered the hello (an error that is not fatal, as a host may
    send) or not (a heartbeat, as any host sends)."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        listener.settimeout(0.05)
        stop = threading.Event()

        def serve() -> None:
            while not stop.is_set():
                try:
                    connection, _ = listener.accept()
                except TimeoutError:
                    continue
                with connection:
                    connection.settimeout(5)
                    connection.recv(65536)  # the hello
                    connection.sendall(encode(request.param))

        thread = threading.Thread(target=serve, daemon=True)
        thread.start()
        yield listener.getsockname()[1], request.param is ANSWER
        stop.set()
        thread.join()


@pytest.mark.parametrize(
    ("language", "told", "not_a_host"),
    [
        ("en", "Heuristic bot: The connection ended before the bot had a seat.\n", "but it is"),
        ("zh-Hant", "聰明機器人：連線在機器人入座之前就結束了。\n", "但不是 dalmuti-net 牌桌"),
    ],
)
def test_bot_let_go_without_a_seat_says_so_and_fails(
    capsys: pytest.CaptureFixture[str],
    peer_that_lets_go: tuple[int, bool],
    language: str,
    told: str,
    not_a_host: str,
) -> None:
    # It exited 0 saying nothing. A hello never answered is no host's, as at a silent one.
    port, answered = peer_that_lets_go
    code = main(["bot", f"127.0.0.1:{port}", "--lang", language])
    out, err = capsys.readouterr()
    if answered:
        assert code == ExitCode.FAILED, err
        assert out == told and err == ""
    else:
        assert code == ExitCode.NOT_FOUND, out
        assert out == "" and not_a_host in err and err.count("\n") == 1


def test_bot_at_a_peer_that_never_answers(
    capsys: pytest.CaptureFixture[str], busy_port: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # busy_port listens and never accepts: the hello goes unanswered.
    monkeypatch.setattr(runner, "HANDSHAKE_TIMEOUT_S", 0.5)
    code, err = fails(capsys, "bot", f"127.0.0.1:{busy_port}")
    assert code == ExitCode.NOT_FOUND
    assert f"127.0.0.1:{busy_port} (something answers there, but it is not a dalmuti" in err


def test_two_hosts_on_one_port() -> None:
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    command = [sys.executable, "-m", "dalmuti_net", *QUIET_HOST, "--interface", "127.0.0.1"]
    first = subprocess.Popen(
        [*command, "--port", str(port)],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + STEP_TIMEOUT_S
        while time.monotonic() < deadline:
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", port)) == 0:
                    break
            assert first.poll() is None, first.communicate()
            time.sleep(0.1)
        second = subprocess.run(
            [*command, "--port", str(port)],
            capture_output=True,
            text=True,
            timeout=STEP_TIMEOUT_S,
            stdin=subprocess.DEVNULL,
        )
    finally:
        first.terminate()
        first.communicate(timeout=STEP_TIMEOUT_S)
    assert second.returncode == ExitCode.CANNOT_START, second.stderr
    assert second.stderr == f"dalmuti host: port {port} is already in use; try another --port\n"


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["--players", "3"], "--players must be from 4 to 8, not 3"),
        (["--strategies", "nope"], "unknown strategy 'nope'"),
        (["--hands", "0"], "--hands must be at least 1, not 0"),
        (["--rules", "nope"], "unknown rule option 'nope'"),
    ],
)
def test_sim_with_a_wrong_option(
    capsys: pytest.CaptureFixture[str], argv: list[str], says: str
) -> None:
    code, err = fails(capsys, "sim", *argv)
    assert code == ExitCode.USAGE and says in err


@pytest.mark.parametrize("command", ["history", "replay", "standings"])
@pytest.mark.parametrize("content", [None, "a shopping list\n"])
def test_reading_a_missing_file_or_one_that_is_not_a_save(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, command: str, content: str | None
) -> None:
    path = tmp_path / "table.dat"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    code, err = fails(capsys, command, str(path))
    assert code == ExitCode.USAGE
    says = "there is no file" if content is None else "is not a dalmuti-net file"
    assert says in err and str(path) in err
