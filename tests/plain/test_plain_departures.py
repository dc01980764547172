"""End to end through pipes (issue 33.3): departures are told and scored. Two plain
players at a real host on 127.0.0.1 with three bots: one leaves, or drops and comes back,
and the other's log says so; the leaver keeps their points in the final standings."""

from __future__ import annotations

import re
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from host_process import REPO, _wait_until_open
from test_plain_e2e import DEADLINE_S, PlainProcess, question_end

from dalmuti_net.lang.i18n import Translator

T = Translator("en")
HISTORY = [sys.executable, "-m", "dalmuti_net.cli", "history"]


@contextmanager
def five_seat_host(tmp_path: Path, hands: int) -> Iterator[str]:
    """A headless host with three bots that starts when two people have joined."""
    rules = tmp_path / "rules.toml"
    rules.write_text(
        f"[rules]\nscoring = true\nhand_limit = {hands}\n\n"
        "[table]\nbetween_hands = 0\nbot_pace = 0\ngrace_period = 1\n",
        encoding="utf-8",
    )
    command = [
        *(sys.executable, "-m", "dalmuti_net.cli", "host", "--headless", "--no-announce"),
        *("--interface", "127.0.0.1", "--port", "0", "--table-name", "Evening"),
        *("--bots", "3", "--autostart", "5", "--rules", str(rules), "--seed", "5"),
        *("--league", str(tmp_path / "league.db"), "--save", str(tmp_path / "table.dat")),
    ]
    host = subprocess.Popen(
        command, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    try:
        _, port = _wait_until_open(host, announced=False)
        yield f"127.0.0.1:{port}"
    finally:
        host.terminate()
        try:
            host.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            host.kill()
            host.communicate()


def player(tmp_path: Path, name: str, address: str) -> PlainProcess:
    home = tmp_path / name
    home.mkdir(exist_ok=True)
    return PlainProcess(["join", "--plain", "--lang", "en", "--player-name", name, address], home)


def read_until(client: PlainProcess, wanted: re.Pattern[str], answer: bool = True) -> str:
    """Lines until one matches ``wanted``, answering 1 to each question on the way."""
    end_of_question = question_end(T)
    deadline = time.monotonic() + DEADLINE_S
    while time.monotonic() < deadline:
        line = client.read_line(deadline - time.monotonic())
        assert line is not None, client.text()
        if wanted.search(line):
            return line
        if answer and end_of_question.match(line):
            client.send("1")
    client.process.kill()
    raise AssertionError(f"never printed {wanted.pattern!r}:\n{client.text()}")


def test_a_leaver_is_told_moved_past_and_kept_in_the_final_standings(tmp_path: Path) -> None:
    with five_seat_host(tmp_path, hands=2) as address:
        ana = player(tmp_path, "Ana", address)
        bo = player(tmp_path, "Bo", address)
        read_until(ana, re.compile(r"^Your turn!$"), answer=False)
        ana.send("quit")
        ana.send("l")  # leave the table
        status, errors = ana.finish()
        assert status == 0, errors
        read_until(bo, re.compile(r"^Final standings$"))
        gone = read_until(bo, re.compile(r"^Ana, .*left after"))
        bo.send("quit")
        status, errors = bo.finish()
    text = bo.text()
    assert re.match(r"^Ana, \d+ points?, left after 1 hand$", gone), text  # no "-: "
    league = subprocess.run(
        [sys.executable, "-m", "dalmuti_net.cli", "standings", str(tmp_path / "league.db")],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    ana = next(line for line in league.splitlines() if " Ana " in line)
    assert ana.split()[2:4] == ["1", "1"], league  # one table, one hand: counted as Ana
    # The history marks the stand-in's moves and the departure.
    told = subprocess.run(
        [*HISTORY, str(tmp_path / "table.dat"), "--as", "Bo", "--hand", "1"],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert re.search(r"^Ana .*\(played by the bot standing in\)$", told, re.M), told
    assert "Ana is leaving the table." in told, told
    after = subprocess.run(
        [*HISTORY, str(tmp_path / "table.dat"), "--as", "Bo", "--hand", "2"],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "Ana has left the table." in told + after, told + after
    assert status == 0 and errors == "", errors
    assert "Ana is leaving the table." in bo.lines, text
    assert "A bot plays out this hand for Ana." in bo.lines, text
    over = next(line for line in bo.lines if line.startswith("Hand 1 is over."))
    assert over.endswith("(Ana left the table)."), over
    assert "Ana" not in over.partition("(")[0], over  # not in the next seating
    assert any(line.startswith("Ana has left the table") for line in bo.lines), text


def test_quitting_says_how_to_return_and_the_stand_in_moves_are_told_back(
    tmp_path: Path,
) -> None:
    with five_seat_host(tmp_path, hands=1) as address:
        ana = player(tmp_path, "Ana", address)
        bo = player(tmp_path, "Bo", address)
        read_until(ana, re.compile(r"^Your turn!$"), answer=False)
        ana.send("quit")
        ana.send("q")  # quit this program, keeping the seat
        status, errors = ana.finish()
        assert status == 0, errors
        assert ana.lines[-1] == (
            f"Your seat is kept. To take it back, run: dalmuti join {address} "
            "(a bot plays it while you are away over 1 s)."
        ), ana.text()
        read_until(bo, re.compile(r"^Ana is offline"))
        read_until(bo, re.compile(r"^A bot stands in for Ana\.$"))
        read_until(bo, re.compile(r"^Ana .*\(played by the bot standing in\)$"))
        back = player(tmp_path, "Ana", address)
        read_until(back, re.compile(r"^Welcome back"), answer=False)
        read_until(bo, re.compile(r"^Ana is back\.$"), answer=False)
        mine = read_until(back, re.compile(r"\(not you: the bot standing in for you\)$"), False)
        assert mine.startswith("You "), back.text()
        back.send("quit")
        back.send("l")  # leave for good: the stand-in finishes the hand
        back.finish()
        bo.send("again")  # the question Bo left unanswered while Ana came back
        read_until(bo, re.compile(r"^Final standings$"))
        bo.send("quit")
        bo.finish()
