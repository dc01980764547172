"""The command blocks of README.md and host/README.md, run as their reader runs them.

Each test finds its command in the page itself (a page that drifts from its test fails it).
Commands that host a table run in a private network namespace where this process may make
one (root, `unshare`): there they run verbatim, every interface and announcement included,
and touch no real network. Elsewhere they get `--interface 127.0.0.1 --no-announce`.
The tests that take minutes (the player's install, the examples that play whole tables or
simulations) are marked slow; .ci/run runs them, and the README's test command verbatim, on
every change. host/README.md's settings file is run by tests/host/test_host_kit.py; its
systemctl lines need systemd as the machine's init, and the unit is checked there by
systemd-analyze instead.
"""

from __future__ import annotations

import fcntl
import os
import re
import select
import shlex
import shutil
import signal
import socket
import struct
import subprocess
import sys
import termios
import time
import tomllib
from pathlib import Path

import pytest
from private_network import why_no_private_namespace

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
HOST_README = (ROOT / "host" / "README.md").read_text(encoding="utf-8")
STEP_TIMEOUT_S = 120
INSTALL_TIMEOUT_S = 900
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][A-Z0-9]|\x1b[=>]|\r")


def indented_commands(page: str, heading: str) -> list[str]:
    """The indented command lines of one section of a page (comments cut off)."""
    section = page.split(f"\n## {heading}\n", 1)[1].split("\n## ", 1)[0]
    lines = [line[4:] for line in section.splitlines() if line.startswith("    ")]
    return [line.split("  #", 1)[0].rstrip() for line in lines if line.strip()]


def console_block(after: str) -> list[str]:
    """The `$ ` lines and the output of the console block that follows ``after``."""
    block = README.split(after, 1)[1].split("```console\n", 1)[1].split("```", 1)[0]
    return block.splitlines()


def python_blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", README, re.S)


def inline_command(start: str) -> str:
    found = re.search(rf"`({re.escape(start)}[^`]*)`", README)
    assert found is not None, f"README.md no longer shows `{start}...`"
    return found.group(1)


def dalmuti() -> list[str]:
    """The `dalmuti` command installed beside this Python (the wheel's, in CI's leg 2)."""
    script = Path(sys.executable).parent / "dalmuti"
    return [str(script)] if script.exists() else [sys.executable, "-m", "dalmuti_net"]


def as_run_here(command: str) -> list[str]:
    words = shlex.split(command)
    assert words[0] == "dalmuti", command
    return [*dalmuti(), *words[1:]]


def private_network() -> bool:
    return why_no_private_namespace() is None


def hosting(argv: list[str]) -> list[str]:
    """A command that opens a table: verbatim in a private network, else on 127.0.0.1."""
    if private_network():
        return ["unshare", "--net", "--", "sh", "-c", 'ip link set lo up && exec "$@"', "sh", *argv]
    return [*argv, "--interface", "127.0.0.1", "--no-announce"]


class Terminal:
    """A program in a pseudo-terminal of 80x24, its screen read as text."""

    def __init__(self, argv: list[str], cwd: Path, env: dict[str, str]) -> None:
        main, side = os.openpty()
        fcntl.ioctl(side, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        self.process = subprocess.Popen(
            argv, cwd=cwd, env=env, stdin=side, stdout=side, stderr=side, start_new_session=True
        )
        os.close(side)
        self.main = main
        self.seen = ""

    def wait_for(self, *words: str, timeout: float = STEP_TIMEOUT_S) -> str:
        deadline = time.monotonic() + timeout
        while not all(word in self.seen for word in words):
            left = deadline - time.monotonic()
            assert left > 0, f"never showed {words}:\n{self.seen[-3000:]}"
            ready, _, _ = select.select([self.main], [], [], min(left, 0.5))
            if ready:
                try:
                    chunk = os.read(self.main, 65536)
                except OSError:  # the program ended and closed the terminal
                    chunk = b""
                if not chunk:
                    assert all(word in self.seen for word in words), self.seen[-3000:]
                    break
                self.seen += ANSI.sub(" ", chunk.decode("utf-8", "replace"))
        return self.seen

    def type(self, keys: str) -> None:
        os.write(self.main, keys.encode())

    def stop(self) -> int:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            while select.select([self.main], [], [], 0.2)[0] and os.read(self.main, 65536):
                pass
        except OSError:
            pass
        code = self.process.wait(timeout=STEP_TIMEOUT_S)
        os.close(self.main)
        return code


def clean_env(home: Path) -> dict[str, str]:
    """A new user's environment: a fresh HOME, the system's PATH, and what reaches the
    package index from this machine (pip's and the proxy's settings)."""
    env = {"HOME": str(home), "PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8"}
    env["TERM"] = "xterm-256color"
    for name, value in os.environ.items():
        if name.startswith("PIP_") or name.lower() in ("http_proxy", "https_proxy", "no_proxy"):
            env[name] = value
    return env


def fresh_checkout(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A copy of the checkout as a new user clones it, and a new user's environment."""
    checkout = tmp_path / "dalmuti-net"
    shutil.copytree(
        ROOT,
        checkout,
        ignore=shutil.ignore_patterns(
            ".git", ".venv", ".ci-venv", "node_modules", "__pycache__", "build", "*.egg-info"
        ),
    )
    home = tmp_path / "home"
    home.mkdir()
    return checkout, clean_env(home)


@pytest.fixture
def here(tmp_path: Path) -> Path:
    folder = tmp_path / "here"
    folder.mkdir()
    return folder


# -- Set up: the player's command ------------------------------------------------------


@pytest.mark.slow
def test_the_players_command_in_a_clean_home(tmp_path: Path) -> None:
    system, play, test = indented_commands(README, "Set up")
    assert system == "sudo apt install pipx python3-venv"
    steps = play.split(" && ")
    assert steps[0] == "pipx install ." and steps[-1].startswith("~/.local/bin/dalmuti ")
    assert "sudo" not in play and "sudo" not in test
    assert test.startswith("python3 -m venv .venv && ")
    if shutil.which("pipx", path="/usr/local/bin:/usr/bin:/bin") is None:
        pytest.skip(f"pipx is not installed (README's first line, as root: {system})")
    if not (ROOT / "dalmuti_net").is_dir():
        pytest.skip("the package's sources are not here (the suite runs against a wheel)")
    checkout, env = fresh_checkout(tmp_path)
    installed = subprocess.run(
        ["bash", "-c", " && ".join(steps[:-1])],
        cwd=checkout,
        env=env,
        capture_output=True,
        text=True,
        timeout=INSTALL_TIMEOUT_S,
    )
    assert installed.returncode == 0, installed.stdout + installed.stderr
    command = Path(env["HOME"]) / ".local" / "bin" / "dalmuti"
    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    shown = subprocess.run(
        [str(command), "--version"], env=env, capture_output=True, text=True, timeout=60
    )
    assert shown.stdout == f"dalmuti-net {version}\n", shown.stdout + shown.stderr
    if not private_network():
        pytest.skip(
            f"the host part needs a private network namespace: {why_no_private_namespace()}"
        )
    # The last step as the README writes it, in a terminal, in a network of its own.
    argv = ["bash", "-c", steps[-1]]
    terminal = Terminal(hosting(argv), checkout, env)
    try:
        terminal.wait_for("Your name at the table [")  # a new user: asked once
        terminal.type("\r")
        terminal.wait_for("Lobby", "Heuristic", "(4 of 4 to 8)", "the table can start")
    finally:
        terminal.stop()


# -- Playing ----------------------------------------------------------------------------


@pytest.mark.parametrize("command", indented_commands(README, "Playing")[:4])
def test_each_hosting_example_opens_its_table(command: str, here: Path) -> None:
    env = {**os.environ, "LANG": "C.UTF-8", "TERM": "xterm-256color"}
    env["XDG_CONFIG_HOME"] = str(here / "config")  # a new user, whom the host asks a name
    env.pop("DALMUTI_LANG", None)
    terminal = Terminal(hosting(as_run_here(command)), here, env)
    try:
        if "--headless" in command:
            terminal.wait_for("is open on port")
        else:
            # A new user is asked their name once (the login name offered): accept it.
            terminal.wait_for("Your name at the table [")
            terminal.type("\r")
            terminal.wait_for("Lobby", "Heuristic bot" if "--bots" in command else "add bot")
    finally:
        terminal.stop()
    if "--save table.dat" in command:
        # The comment beside it: the saved table comes back.
        assert (here / "table.dat").stat().st_size > 0
        resume = README.split("survive a crash: ", 1)[1].split("\n", 1)[0].strip()
        terminal = Terminal(hosting(as_run_here(resume)), here, env)
        try:
            terminal.wait_for("Lobby")
        finally:
            terminal.stop()


# -- Bots and the protocol --------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def write_shedder(folder: Path, port: int | None = None) -> None:
    program, strategy_class = python_blocks()[:2]
    if port is not None:
        program = program.replace("127.0.0.1:7341", f"127.0.0.1:{port}")
    (folder / "shedder.py").write_text(program + "\n\n" + strategy_class, encoding="utf-8")


SHEDDER_BLOCK = "Try it against three built-in bots"
BOT_VENV_LINE = "$ python3 -m venv .venv && .venv/bin/pip install -e ."
BOT_LINE = "$ .venv/bin/python shedder.py"


def test_the_shedder_runs_with_a_python_that_has_the_package() -> None:
    """Debian has no `python`, and pipx keeps the game's environment to itself: the
    example makes a venv in the checkout (the test command's `.venv`) and runs its Python.
    Both lines are run by the slow tests below."""
    venv_line, _, bot_line, _ = console_block(SHEDDER_BLOCK)
    assert (venv_line, bot_line) == (BOT_VENV_LINE, BOT_LINE)
    test_command = indented_commands(README, "Set up")[2]
    assert test_command.startswith("python3 -m venv .venv && .venv/bin/pip install -e '.[")
    assert not re.search(r"^\$ python ", README, re.M), "Debian has no `python` command"


@pytest.mark.parametrize(("score", "words"), [(0, "0 points"), (1, "1 point"), (5, "5 points")])
def test_the_shedder_says_its_points_in_words(
    score: int, words: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import dalmuti_net.client
    from dalmuti_net.client.sdk import BotResult

    standings = ((1, 6, 1), (2, score, 2), (3, 0, 3), (4, 0, 4))
    result = BotResult("Shedder", player=2, standings=standings)
    monkeypatch.setattr(dalmuti_net.client, "run_bot", lambda *args, **kwargs: result)
    exec(python_blocks()[0], {"__name__": "__main__"})
    assert capsys.readouterr().out == f"Shedder finished 2 of 4 with {words}\n"


@pytest.mark.slow
def test_the_bots_environment_line_makes_a_python_that_imports_the_bot(tmp_path: Path) -> None:
    """The README's first line of the example, verbatim, in a copy of the checkout and a
    new user's environment (the system's python3): its Python imports shedder.py."""
    if not (ROOT / "dalmuti_net").is_dir():
        pytest.skip("the package's sources are not here (the suite runs against a wheel)")
    checkout, env = fresh_checkout(tmp_path)
    made = subprocess.run(
        ["bash", "-c", BOT_VENV_LINE[2:]],
        cwd=checkout,
        env=env,
        capture_output=True,
        text=True,
        timeout=INSTALL_TIMEOUT_S,
    )
    assert made.returncode == 0, made.stdout + made.stderr
    write_shedder(checkout)
    python = BOT_LINE[2:].split()[0]
    imported = subprocess.run(
        [python, "-c", "import shedder; print(shedder.run_bot.__module__)"],
        cwd=checkout,
        env=env,
        capture_output=True,
        text=True,
        timeout=STEP_TIMEOUT_S,
    )
    assert imported.stdout == "dalmuti_net.client.sdk\n", imported.stdout + imported.stderr


@pytest.mark.slow
def test_the_shedder_bot_plays_a_whole_table(here: Path) -> None:
    lines = console_block(SHEDDER_BLOCK)
    venv_line, host_line, bot_line, said = lines
    assert venv_line == BOT_VENV_LINE and bot_line == BOT_LINE
    assert host_line.startswith("$ dalmuti host ") and host_line.endswith(" &")
    # The environment the first line makes (run by the test above) is this suite's own.
    stand_in = here / ".venv" / "bin" / "python"
    stand_in.parent.mkdir(parents=True)
    stand_in.write_text(f'#!/bin/sh\nexec {shlex.quote(sys.executable)} "$@"\n')
    stand_in.chmod(0o755)
    before = README.split(SHEDDER_BLOCK)[1].split(host_line)[0]
    seconds = re.search(r"takes\s+about\s+(\d+)\s+(seconds|minutes?)", before)
    assert seconds is not None, "the README says how long the example takes"
    limit = int(seconds.group(1)) * (60 if seconds.group(2).startswith("minute") else 1)
    # As typed in one shell; that shell then stops the host it left running (an ended
    # table stays open for its players to read the scores).
    # The reader types the second line once the host is up; here, once its port answers.
    wait_for_port = (
        "import socket, sys, time\n"
        "for _ in range(600):\n"
        "    try: socket.create_connection(('127.0.0.1', int(sys.argv[1])), 1).close(); break\n"
        "    except OSError: time.sleep(0.2)\n"
    )
    script = (
        f"{shlex.join(as_run_here(host_line[2:-2]))} & "
        f"{sys.executable} -c {shlex.quote(wait_for_port)} PORT && "
        f"{bot_line[2:]}; "
        'status=$?; kill "$!"; wait; exit "$status"'
    )
    if private_network():
        write_shedder(here)
        script = script.replace(" PORT &&", " 7341 &&")
        argv = ["unshare", "--net", "--", "sh", "-c", f"ip link set lo up && {script}"]
    else:
        port = free_port()
        write_shedder(here, port)
        script = script.replace(" PORT &&", f" {port} &&")
        argv = ["sh", "-c", script.replace(" --bots", f" --port {port} --bots", 1)]
    # As a reader's shell has it: xdist's workers export PYTHONUNBUFFERED, with which the
    # bot's print writes its line and its newline apart, and the host's "The table has
    # ended." could land between them (it did, one CI run in a few).
    shell = {key: value for key, value in os.environ.items() if key != "PYTHONUNBUFFERED"}
    started = time.monotonic()
    finished = subprocess.run(
        argv,
        cwd=here,
        env=shell,
        capture_output=True,
        text=True,
        timeout=3 * limit,
        start_new_session=True,
    )
    took = time.monotonic() - started
    expected = re.sub(r"\d+", r"\\d+", re.escape(said)).replace("points", "points?")
    # The host's lines come to the same terminal as the bot's.
    lines = finished.stdout.splitlines()
    assert any(re.fullmatch(expected, line) for line in lines), finished.stdout + finished.stderr
    # Twice the stated time at most: the machine running the suite may be busy.
    assert took < 2 * limit, f"took {took:.0f} s, the README says {limit} s"


@pytest.mark.slow
def test_the_shedder_class_in_a_simulation(here: Path) -> None:
    command = console_block("folder that holds `shedder.py`")[0]
    assert command.startswith("$ dalmuti sim --strategies shedder:Shedder,")
    write_shedder(here)
    finished = subprocess.run(
        as_run_here(command[2:]), cwd=here, capture_output=True, text=True, timeout=600
    )
    assert finished.returncode == 0, finished.stderr
    assert re.search(r"shedder:Shedder +-?\d", finished.stdout), finished.stdout


@pytest.mark.slow
def test_the_simulation_example(here: Path) -> None:
    command = inline_command("dalmuti sim --players 6")
    finished = subprocess.run(
        as_run_here(command), cwd=here, capture_output=True, text=True, timeout=600
    )
    assert finished.returncode == 0, finished.stderr
    for strategy in command.split("--strategies ", 1)[1].split()[0].split(","):
        assert re.search(rf"^{strategy} +-?\d", finished.stdout, re.M), finished.stdout


BOT_COMMANDS = re.findall(r"`(dalmuti bot HOST\[:PORT\][^`]*)`", README)


def test_the_readme_shows_both_bot_commands() -> None:
    assert [command.split()[3] for command in BOT_COMMANDS] == ["--strategy", "--exec"]


@pytest.mark.parametrize("command", BOT_COMMANDS)
def test_the_bot_command_seats_its_bots(command: str) -> None:
    count = int(command.split("--count ", 1)[1].split()[0]) if "--count" in command else 1
    port = free_port()
    # A table that starts as soon as the bots fill it: its first deal proves them seated.
    host = subprocess.Popen(
        [
            *(*dalmuti(), "host", "--headless", "--interface", "127.0.0.1", "--no-announce"),
            *("--port", str(port), "--bots", str(4 - count), "--autostart", "4"),
        ],
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={**os.environ, "LANG": "C.UTF-8"},
    )
    bots = None
    told: list[str] = []
    try:
        assert host.stdout is not None
        for line in host.stdout:
            told.append(line)
            if "is open on port" in line:
                argv = as_run_here(command.replace("HOST[:PORT]", f"127.0.0.1:{port}"))
                # From the project's folder, where the README's paths lead.
                bots = subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.DEVNULL)
            if line.startswith("Hand 1 is being dealt"):
                break
        assert bots is not None and bots.poll() is None, "".join(told)
    finally:
        host.terminate()
        host.communicate(timeout=STEP_TIMEOUT_S)
        if bots is not None:
            bots.terminate()
            bots.wait(timeout=STEP_TIMEOUT_S)
    assert any(line.startswith("Hand 1 is being dealt") for line in told), "".join(told)


# -- host/README.md -----------------------------------------------------------------------


def test_the_kits_rules_file_example_loads(tmp_path: Path) -> None:
    from dalmuti_net.host.settings import load_settings

    lines = indented_commands(HOST_README, "Rules files")
    example = tmp_path / "example.toml"
    example.write_text("\n".join(lines[: lines.index("[table]") + 2]) + "\n", encoding="utf-8")
    settings = load_settings(str(example))
    assert settings.rules.scoring and settings.rules.hand_limit == 10
    assert settings.rules.misdeal_chance == 0.05 and settings.turn_timer == 45


def test_the_kits_rules_file_command_opens_its_table() -> None:
    lines = indented_commands(HOST_README, "Rules files")
    (command,) = [line for line in lines if line.startswith("dalmuti ")]
    env = {**os.environ, "LANG": "C.UTF-8"}
    terminal = Terminal(hosting(as_run_here(command)), ROOT, env)
    try:
        terminal.wait_for("is open on port")
    finally:
        terminal.stop()
