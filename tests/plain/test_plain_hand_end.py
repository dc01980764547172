"""End to end (issue 33.7): the plain table prints the points at each hand's end, says no
"Next seating" after the last hand, and offers the remembered name when joining from the
list."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

from host_process import QUICK_RULES, running_host
from test_plain_e2e import DEADLINE_S, PlainProcess, play_to_the_end

from dalmuti_net.lang.i18n import Translator

TWO_HANDS = "[rules]\nscoring = true\nhand_limit = 2\n\n[table]\nbetween_hands = 0\nbot_pace = 0\n"


def test_points_at_each_hand_end_and_no_next_seating_after_the_last(tmp_path: Path) -> None:
    rules = tmp_path / "rules.toml"
    rules.write_text(TWO_HANDS, encoding="utf-8")
    with running_host(rules) as host:
        client = PlainProcess(["join", "--plain", "--player-name", "Ana", host.address], tmp_path)
        play_to_the_end(client, Translator("en"))
        client.send("quit")
        client.finish()
    points = [line for line in client.lines if line.startswith("Points this hand: ")]
    assert len(points) == 2, client.text()
    assert re.search(r"Ana \(you\) \+\d+ \(\d+ in all\)", points[0]), points[0]
    assert any(line.startswith("Hand 1 is over. Next seating: ") for line in client.lines)
    assert "Hand 2 is over." in client.lines, client.text()  # the last: no next seating


def test_joining_from_the_list_offers_the_remembered_name(
    tmp_path: Path, loopback: list[str]
) -> None:
    config = tmp_path / "config" / "dalmuti-net"
    config.mkdir(parents=True)
    (config / "client.json").write_text(json.dumps({"name": "Ana"}), encoding="utf-8")
    rules = tmp_path / "rules.toml"
    rules.write_text(QUICK_RULES, encoding="utf-8")
    with running_host(rules, name="Found table", announce=True) as host:
        client = PlainProcess(
            ["join", "--plain", "--lang", "en", "--interface", loopback[0]], tmp_path
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
        while (line := client.read_line(DEADLINE_S)) != "Your name (Enter keeps Ana):":
            assert line is not None, client.text()
        client.send("")
        while (line := client.read_line(DEADLINE_S)) != "You are at Found table.":
            assert line is not None, client.text()
        client.send("quit")
        client.finish()
    assert "Your name cannot be empty." not in client.lines
