"""The `dalmuti` command's naming scheme (README, Development), its old spellings, the
shared diagnostics options and `python -m dalmuti_net`."""

from __future__ import annotations

import argparse
import logging
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from importlib.metadata import version
from pathlib import Path

import pytest

from dalmuti_net import __version__
from dalmuti_net.cli import build_parser, main
from dalmuti_net.commands.common import ExitCode, configure_logging

STEP_TIMEOUT_S = 30


def parse(*argv: str) -> argparse.Namespace:
    return build_parser().parse_args(argv)


def test_the_version_comes_from_the_installed_distribution() -> None:
    assert __version__ == version("dalmuti-net")
    finished = subprocess.run(
        [sys.executable, "-m", "dalmuti_net", "--version"],
        capture_output=True,
        text=True,
        timeout=STEP_TIMEOUT_S,
    )
    assert finished.returncode == 0, finished.stderr
    assert finished.stdout.strip() == f"dalmuti-net {__version__}"


def test_python_dash_m_runs_the_same_command() -> None:
    finished = subprocess.run(
        [sys.executable, "-m", "dalmuti_net", "sim", "--hands", "2", "--strategies", "random"],
        capture_output=True,
        text=True,
        timeout=STEP_TIMEOUT_S,
    )
    assert finished.returncode == 0, finished.stderr
    assert "2 hands" in finished.stdout


def test_names_follow_one_scheme() -> None:
    host = parse("host", "--table-name", "Friday", "--player-name", "Ana", "--bots", "3")
    assert (host.table_name, host.player_name, host.bots) == ("Friday", "Ana", 3)
    assert parse("host", "--strategy", "random").strategy == "random"
    assert parse("join", "--player-name", "Bea").player_name == "Bea"
    assert parse("bot", "127.0.0.1", "--player-name", "Robo").player_name == "Robo"
    assert parse("bot", "127.0.0.1", "--strategy", "random").strategy == "random"
    assert parse("sim", "--strategies", "random,heuristic").strategies == "random,heuristic"
    assert parse("sim", "--rules", "party").rules == "party"


def test_the_old_spellings_still_work_but_are_not_advertised() -> None:
    assert parse("host", "--name", "Friday").table_name == "Friday"
    assert parse("host", "--bot-strategy", "random").strategy == "random"
    assert parse("join", "--name", "Bea").player_name == "Bea"
    assert parse("bot", "127.0.0.1", "--name", "Robo").player_name == "Robo"
    assert parse("sim", "--bots", "random").strategies == "random"
    parser = build_parser()
    subcommands = next(
        a for a in parser._actions if isinstance(a, argparse._SubParsersAction)
    ).choices
    for command, old in (("host", "--bot-strategy"), ("join", "--name"), ("sim", "--bots")):
        assert old not in subcommands[command].format_help()


@pytest.mark.parametrize("command", ["bot", "host", "hosts", "join", "sim"])
def test_every_command_has_the_diagnostics_options(command: str) -> None:
    extra = ["127.0.0.1"] if command == "bot" else []
    args = parse(command, *extra, "-vv", "--log-file", "x.log", "--debug")
    assert (args.verbose, args.log_file, args.debug) == (2, Path("x.log"), True)


def test_the_exit_codes_are_documented_in_the_help(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    help_text = capsys.readouterr().out
    for code in ExitCode:
        assert f"\n  {int(code):<4} " in help_text, code


@pytest.fixture
def clean_logging() -> Iterator[None]:
    loggers = [logging.getLogger(name) for name in ("dalmuti_net", "zeroconf", "trio")]
    saved = [(logger.level, list(logger.handlers)) for logger in loggers]
    yield
    for logger, (level, handlers) in zip(loggers, saved, strict=True):
        for handler in logger.handlers:
            if handler not in handlers:
                handler.close()
        logger.handlers[:] = handlers
        logger.setLevel(level)


@pytest.mark.usefixtures("clean_logging")
def test_verbose_logs_to_the_file_and_not_over_a_table_screen(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log_file = tmp_path / "dalmuti.log"
    configure_logging(argparse.Namespace(verbose=1, log_file=log_file), screen=True)
    logging.getLogger("dalmuti_net.test").info("an info line")
    logging.getLogger("dalmuti_net.test").debug("a debug line")
    assert "an info line" in log_file.read_text(encoding="utf-8")
    assert "a debug line" not in log_file.read_text(encoding="utf-8")
    assert capsys.readouterr().err == ""


@pytest.mark.usefixtures("clean_logging")
def test_verbose_logs_to_stderr_without_a_screen(capsys: pytest.CaptureFixture[str]) -> None:
    configure_logging(argparse.Namespace(verbose=2, log_file=None), screen=False)
    logging.getLogger("dalmuti_net.test").debug("a debug line")
    assert "DEBUG dalmuti_net.test: a debug line" in capsys.readouterr().err


def test_a_log_file_that_cannot_be_written_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "no-such-folder" / "host.log"
    code = main(
        ["hosts", "--timeout", "0.1", "--interface", "127.0.0.1", "--log-file", str(missing)]
    )
    err = capsys.readouterr().err
    assert code == ExitCode.USAGE
    assert err.count("\n") == 1 and err.startswith("dalmuti hosts: cannot write the log file")


def test_a_headless_host_logs_what_it_does_with_verbose(tmp_path: Path) -> None:
    log_file = tmp_path / "host.log"
    host = subprocess.Popen(
        [
            sys.executable,
            *("-m", "dalmuti_net", "host", "--headless", "--no-announce"),
            *("--interface", "127.0.0.1", "--port", "0", "--table-name", "Logged table"),
            *("-v", "--log-file", str(log_file)),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    try:
        assert host.stdout is not None
        first_line = host.stdout.readline()
        assert "Logged table" in first_line, first_line
    finally:
        host.send_signal(signal.SIGTERM)
        _, err = host.communicate(timeout=STEP_TIMEOUT_S)
    assert host.returncode == 0, err
    logged = log_file.read_text(encoding="utf-8")
    assert "INFO dalmuti_net.commands.host_runtime: table 'Logged table' listening on" in logged
    assert "listening on" in err  # -v without a table screen: stderr too
