"""End to end through pipes: `dalmuti join --plain` against a real host on 127.0.0.1 plays a
whole table (one hand) in each language, answering like a script would, and not one output
line holds an escape sequence; `dalmuti host --plain` does the same as the host player."""

from __future__ import annotations

import os
import re
import selectors
import subprocess
import sys
import time
from pathlib import Path

import pytest
from host_process import REPO, _wait_until_open, running_host

from dalmuti_net.lang.i18n import Translator

ONE_HAND = """\
[rules]
scoring = true
hand_limit = 1

[table]
between_hands = 0
bot_pace = 0
"""
DEADLINE_S = 60.0
ESCAPES = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


class PlainProcess:
    """A plain client in a subprocess: lines written to its stdin, read from its stdout."""

    def __init__(self, arguments: list[str], home: Path) -> None:
        env = {
            **os.environ,
            "PYTHONIOENCODING": "utf-8",
            "TERM": "dumb",
            "XDG_CONFIG_HOME": str(home / "config"),
            "XDG_STATE_HOME": str(home / "state"),
        }
        self.process = subprocess.Popen(
            [sys.executable, "-m", "dalmuti_net.cli", *arguments],
            cwd=REPO,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
        )
        self.raw = b""
        self.lines: list[str] = []
        self._pending = b""
        self._selector = selectors.DefaultSelector()
        assert self.process.stdout is not None
        self._selector.register(self.process.stdout.fileno(), selectors.EVENT_READ)

    def send(self, line: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line.encode() + b"\n")
        self.process.stdin.flush()

    def read_line(self, timeout: float) -> str | None:
        """The next whole line, or None if none came in time (or the output ended)."""
        assert self.process.stdout is not None
        end = time.monotonic() + timeout
        while b"\n" not in self._pending:
            left = end - time.monotonic()
            if left <= 0 or not self._selector.select(timeout=left):
                return None
            data = os.read(self.process.stdout.fileno(), 65536)
            if not data:
                return None
            self.raw += data
            self._pending += data
        raw, self._pending = self._pending.split(b"\n", 1)
        line = raw.decode("utf-8")
        self.lines.append(line)
        return line

    def finish(self) -> tuple[int, str]:
        """Close its input and wait for it; its exit status and standard error."""
        try:
            rest, errors = self.process.communicate(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            rest, errors = self.process.communicate()
        self.raw += rest
        self.lines += rest.decode("utf-8").splitlines()
        return self.process.returncode, errors.decode("utf-8", "replace")

    def text(self) -> str:
        return "\n".join(self.lines)


def question_end(t: Translator) -> re.Pattern[str]:
    """The line that closes every question: "Type a number from 1 to N..." (or "Type 1..."
    when there is one answer), translated."""
    patterns = []
    for template in (
        "Type a number from 1 to {n}, or help.",
        "Type a number from 1 to {n}, {back} to choose again, or help.",
        "Type 1, or help.",
        "Type 1, {back} to choose again, or help.",
    ):
        pattern = re.escape(t._(template))
        pattern = pattern.replace(r"\{n\}", r"\d+").replace(r"\{back\}", r"\S+")
        patterns.append(pattern)
    return re.compile("^(" + "|".join(patterns) + ")$")


def play_to_the_end(client: PlainProcess, t: Translator) -> None:
    """Answer 1 to every question (and try the commands once) until the standings."""
    end_of_question = question_end(t)
    standings = t._("Final standings")
    tried_commands = False
    deadline = time.monotonic() + DEADLINE_S
    while time.monotonic() < deadline:
        line = client.read_line(deadline - time.monotonic())
        if line is None:
            break
        if line == standings:
            return
        if end_of_question.match(line):
            if not tried_commands:
                tried_commands = True
                for command in ("hand", "table", "scores", "help", "say hello table"):
                    client.send(command)
            client.send("1")
    client.process.kill()
    pytest.fail("the table did not end; the client printed:\n" + client.text())


def host_plain(home: Path, *options: str) -> PlainProcess:
    """`dalmuti host --plain` on 127.0.0.1 as the host player Hal, bots unpaced."""
    command = ["host", "--plain", "--interface", "127.0.0.1", "--port", "0", "--no-announce"]
    return PlainProcess([*command, "--player-name", "Hal", "--bot-pace", "0", *options], home)


@pytest.mark.parametrize("language", ["en", "zh_Hant", "es"])
def test_join_plain_plays_a_whole_hand_through_a_pipe(tmp_path: Path, language: str) -> None:
    rules = tmp_path / "one_hand.toml"
    rules.write_text(ONE_HAND, encoding="utf-8")
    t = Translator(language)
    with running_host(rules, name="Pipe table") as host:
        client = PlainProcess(
            ["join", "--plain", "--lang", language, "--player-name", "Ana", host.address], tmp_path
        )
        play_to_the_end(client, t)
        client.send(t._("quit|q|exit").split("|")[0])
        status, errors = client.finish()
    text = client.text()
    assert status == 0, errors
    assert errors == ""
    assert t._("You are at {table}.").format(table="Pipe table") in client.lines
    assert t._("Your turn!") in client.lines
    assert any(line.startswith("1. ") for line in client.lines)
    assert (
        t._("The table is over: {reason}.").format(reason=t._("every hand has been played")) in text
    )
    assert "Ana: hello table" in client.lines
    help_opens = {"en": "Commands: ", "zh_Hant": "指令：", "es": "Órdenes: "}[language]
    assert any(line.startswith(help_opens) for line in client.lines)
    title = t.n_("Your hand: {n} card", "Your hand: {n} cards", 2).split("{n}")[0]
    assert any(line.startswith(title) for line in client.lines)
    # Never an escape sequence, a carriage return or any other control character.
    assert not ESCAPES.search(client.raw.decode("utf-8"))
    if language != "en":
        assert "Your turn!" not in client.lines and "Final standings" not in client.lines


def test_host_plain_runs_the_lobby_and_the_hand_as_the_host_player(tmp_path: Path) -> None:
    rules = tmp_path / "one_hand.toml"
    rules.write_text(ONE_HAND, encoding="utf-8")
    t = Translator("en")
    client = host_plain(tmp_path, "--table-name", "Host pipe", "--rules", str(rules), "--seed", "3")
    lobby = "Type ready when you are ready, or help for the commands."
    while (line := client.read_line(DEADLINE_S)) != lobby:
        assert line is not None, client.text()
    for command in ("bot", "1", "bot random", "bot heuristic", "rules", "rule 1", "table"):
        client.send(command)
    # Start once the bots sit: each seat is saved before it is shown, and a start typed
    # before them is refused ("A table starts with 4 to 8 players").
    read_until(client, "Enough players: type start to begin.")
    client.send("start")
    play_to_the_end(client, t)
    client.send("quit")  # the table is over: no question asked
    status, errors = client.finish()
    text = client.text()
    assert status == 0, errors
    assert "Host pipe" in text and "is open on port" in text
    assert "1. Hal (you), host\n" in text and "Hal (you), host, not ready" not in text
    assert text.count("joins the table.") == 3
    assert "The rules changed: First deal revolution, no taxes in hand 1 (rule 13)" in text
    assert "No taxes in the first hand." in text
    assert "Final standings" in text
    assert not ESCAPES.search(client.raw.decode("utf-8"))


def test_the_host_player_quitting_mid_hand_ends_the_table_without_a_closed_screen(
    tmp_path: Path,
) -> None:
    """Quitting the host's own terminal ends the table for everyone: the standings, then
    the program ends; no "connection closed" lines or choices after the player's own quit."""
    t = Translator("en")
    client = host_plain(tmp_path, "--bots", "3")
    lobby = "Type ready when you are ready, or help for the commands."
    while (line := client.read_line(DEADLINE_S)) != lobby:
        assert line is not None, client.text()
    client.send("start")
    end_of_question = question_end(t)
    while not end_of_question.match(line or ""):
        line = client.read_line(DEADLINE_S)
        assert line is not None, client.text()
    client.send("quit")
    client.send("1")
    status, errors = client.finish()
    assert status == 0, errors
    after = client.text().rpartition("or back to go back.")[2]
    assert "Final standings" in after, after
    assert "closed" not in after and "Type a number" not in after and "quit to leave" not in after


TIMED = """\
[rules]
hand_limit = 1

[table]
between_hands = 0
bot_pace = 0
turn_timer = 8
"""


def test_the_turn_timer_is_announced_and_its_end_too(tmp_path: Path) -> None:
    rules = tmp_path / "timed.toml"
    rules.write_text(TIMED, encoding="utf-8")
    with running_host(rules, name="Timed table") as host:
        client = PlainProcess(["join", "--plain", "--lang", "en", host.address], tmp_path)
        wanted = [
            "You have 8 seconds to answer.",
            "5 seconds left to answer!",
            "Time is up: the host answers for you with the default move.",
        ]
        seen: list[str] = []
        deadline = time.monotonic() + DEADLINE_S
        while len(seen) < len(wanted) and time.monotonic() < deadline:
            line = client.read_line(deadline - time.monotonic())
            assert line is not None, client.text()
            if line == wanted[len(seen)]:
                seen.append(line)
        client.send("quit")
        client.send("1")  # quit this program, keeping the seat
        status, errors = client.finish()
    assert seen == wanted, client.text()
    assert status == 0, errors


def test_join_plain_finds_the_table_on_the_lan_and_joins_by_number(
    tmp_path: Path, loopback: list[str]
) -> None:
    rules = tmp_path / "one_hand.toml"
    rules.write_text(ONE_HAND, encoding="utf-8")
    with running_host(rules, name="Found table", announce=True) as host:
        client = PlainProcess(
            ["join", "--plain", "--lang", "en", "--name", "Ana", "--interface", loopback[0]],
            tmp_path,
        )
        listed = re.compile(rf"^(\d+)\. Found table, 127\.0\.0\.1:{host.port}, ")
        deadline = time.monotonic() + DEADLINE_S
        number = None
        while number is None and time.monotonic() < deadline:
            line = client.read_line(deadline - time.monotonic())
            assert line is not None, client.text()
            match = listed.match(line)
            number = match.group(1) if match else None
        client.send(str(number))
        play_to_the_end(client, Translator("en"))
        client.send("quit")
        status, errors = client.finish()
    assert client.lines[0] == "Looking for tables…"
    assert "You are at Found table." in client.lines
    assert status == 0, errors


def test_a_wrong_join_code_is_typed_again_and_the_seat_taken(tmp_path: Path) -> None:
    rules = tmp_path / "one_hand.toml"
    rules.write_text(ONE_HAND, encoding="utf-8")
    command = [
        *(sys.executable, "-m", "dalmuti_net.cli", "host", "--headless", "--no-announce"),
        *("--interface", "127.0.0.1", "--port", "0", "--name", "Coded table"),
        *("--code", "tulip", "--bots", "3", "--autostart", "4", "--rules", str(rules)),
    ]
    host = subprocess.Popen(
        command, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    try:
        _, port = _wait_until_open(host, announced=False)
        client = PlainProcess(
            ["join", "--plain", "--name", "Ana", "--code", "rose", f"127.0.0.1:{port}"], tmp_path
        )
        while (line := client.read_line(DEADLINE_S)) != "Join code:":
            assert line is not None, client.text()
        client.send("tulip")
        play_to_the_end(client, Translator("en"))
        client.send("quit")
        status, errors = client.finish()
    finally:
        host.terminate()
        host.communicate(timeout=10)
    assert "This table needs a join code" in client.lines
    assert "You are at Coded table." in client.lines
    assert status == 0, errors


def test_an_unreachable_host_offers_to_try_again_and_exits_4(tmp_path: Path) -> None:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]  # nothing listens there once it is closed
    client = PlainProcess(["join", "--plain", f"127.0.0.1:{port}"], tmp_path)
    while (line := client.read_line(DEADLINE_S)) != "Type a number from 1 to 2, or help.":
        assert line is not None, client.text()
    client.send("quit")
    status, errors = client.finish()
    assert "The host cannot be reached" in client.lines
    # Given an address, it showed no list of tables: none is offered to go back to.
    assert "1. try again" in client.lines and "2. quit" in client.lines
    assert "The connection to the host is closed." not in client.lines  # one failure, one screen
    assert status == 4, errors


def test_the_end_of_input_quits_and_keeps_the_seat(tmp_path: Path) -> None:
    """A script whose input ends mid-hand quits as `quit` does: status 0, one line saying
    so and no "connection closed" news; run again, it has the same seat back."""
    rules = tmp_path / "one_hand.toml"
    rules.write_text(ONE_HAND, encoding="utf-8")
    t = Translator("en")
    arguments = ["join", "--plain", "--player-name", "Ana"]
    with running_host(rules, name="Pipe table") as host:
        first = PlainProcess([*arguments, host.address], tmp_path)
        deadline = time.monotonic() + DEADLINE_S
        while (line := first.read_line(deadline - time.monotonic())) != t._("Your turn!"):
            assert line is not None, first.text()
        status, errors = first.finish()  # closes its standard input
        assert status == 0, errors
        assert errors == ""
        assert (
            t._(
                "End of input: you quit this program. Your seat stays yours: "
                "run dalmuti join again to take it back."
            )
            in first.lines
        )
        assert not any("closed" in line for line in first.lines), first.text()

        again = PlainProcess([*arguments, host.address], tmp_path)
        play_to_the_end(again, t)
        again.send("quit")
        status, errors = again.finish()
    assert status == 0, errors
    assert t._("Welcome back: this is your seat, as you left it.") in again.lines, again.text()
    assert "Ana (2)" not in again.text()


EVENING = """\
[rules]
scoring = true
hand_limit = 2

[table]
between_hands = 120
bot_pace = 0
"""


def read_until(client: PlainProcess, wanted: str, answer: bool = True) -> list[str]:
    """Lines up to the one ``wanted`` starts, answering 1 to every question meanwhile."""
    end_of_question = question_end(Translator("en"))
    seen: list[str] = []
    deadline = time.monotonic() + DEADLINE_S
    while time.monotonic() < deadline:
        line = client.read_line(deadline - time.monotonic())
        assert line is not None, client.text()
        seen.append(line)
        if line.startswith(wanted):
            return seen
        if answer and end_of_question.match(line):
            client.send("1")
    pytest.fail(f"no line {wanted!r}; the client printed:\n" + client.text())


def test_an_evening_in_lines_clocks_results_read_last_points_and_a_rematch(
    tmp_path: Path,
) -> None:
    """Issue 33, points 1 and 4, through `dalmuti host --plain`: the clocks in the rules
    list and set by number; the results wait for the host player's ready (not the two
    minutes of the pause); the last hand's points before the standings; a rematch."""
    rules = tmp_path / "evening.toml"
    rules.write_text(EVENING, encoding="utf-8")
    client = host_plain(tmp_path, "--table-name", "Evening", "--rules", str(rules), "--bots", "3")
    read_until(client, "Type ready when you are ready")
    client.send("rules")
    listed = read_until(client, "rule 8 45 gives 45 seconds per decision")
    assert "8. Turn timer (the default move when it runs out): 60 s" in listed
    assert "9. Results between hands, at most: 120 s" in listed
    client.send("rule 8 20")
    changed = read_until(client, "The rules changed:")[-1]
    assert changed.endswith(
        "Turn timer: 20 seconds per decision; results stay until everyone is ready, "
        "120 seconds at most."
    )
    client.send("autopass off")
    read_until(client, "Auto-pass is off: you pass yourself.")
    client.send("autopass on")
    read_until(client, "Auto-pass is on")
    client.send("start")
    read_until(
        client,
        "Type ready when you have read the results: the next hand is dealt once everyone is "
        "ready, or in 120 seconds.",
    )
    client.send("ready")
    # Dealt on ready, not after the 120 s pause: read_until gives up after DEADLINE_S (60).
    read_until(client, "Hand 2 of 2 begins.")
    last = read_until(client, "Final standings")
    ended = next(i for i, line in enumerate(last) if line.startswith("Hand 2 is over"))
    assert last[ended + 1].startswith("Points this hand: "), last[ended:]  # its points first
    client.send("rematch")
    read_until(client, "The host player offers a rematch with the same seats.", answer=False)
    client.send("start")
    read_until(client, "Hand 1 of 2 begins.")
    client.send("quit")
    client.send("1")
    status, errors = client.finish()
    assert status == 0, errors
    assert not ESCAPES.search(client.raw.decode("utf-8"))


def test_a_host_stopped_after_the_table_ended_says_it_ended(tmp_path: Path) -> None:
    rules = tmp_path / "one_hand.toml"
    rules.write_text(ONE_HAND, encoding="utf-8")
    with running_host(rules, name="Done table") as host:
        client = PlainProcess(["join", "--plain", "--lang", "en", host.address], tmp_path)
        play_to_the_end(client, Translator("en"))
        host.stop()  # Ctrl-C (SIGTERM) at the host, after the table ended
        said = read_until(client, "The table has ended, and the host has closed it.")
        status, errors = client.finish()
    assert not any("The host stopped the table" in line for line in said)
    assert status == 0, errors
