"""End to end (issue 33.5): chat is part of the table. Said before a drop, it is read again
on coming back (the snapshot's last lines), and the host's save keeps it for `history`."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from host_process import REPO, _wait_until_open
from test_plain_departures import player, read_until


def test_chat_is_shown_after_a_rejoin_and_kept_in_the_save(tmp_path: Path) -> None:
    rules = tmp_path / "rules.toml"
    rules.write_text(
        "[rules]\nhand_limit = 1\n\n[table]\nbetween_hands = 0\nbot_pace = 0\n", encoding="utf-8"
    )
    save = tmp_path / "table.dat"
    command = [
        *(sys.executable, "-m", "dalmuti_net.cli", "host", "--headless", "--no-announce"),
        *("--interface", "127.0.0.1", "--port", "0", "--table-name", "Chatty"),
        *(
            "--bots",
            "3",
            "--autostart",
            "4",
            "--rules",
            str(rules),
            "--save",
            str(save),
            "--seed",
            "4",
        ),
    ]
    host = subprocess.Popen(
        command, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    try:
        _, port = _wait_until_open(host, announced=False)
        address = f"127.0.0.1:{port}"
        ana = player(tmp_path, "Ana", address)
        read_until(ana, re.compile(r"^Your turn!$"), answer=False)
        ana.send("say the Heuristic bot is bluffing")
        read_until(ana, re.compile(r"^Ana: the Heuristic bot is bluffing$"), answer=False)
        ana.send("quit")
        ana.send("q")  # keep the seat
        ana.finish()
        back = player(tmp_path, "Ana", address)
        read_until(back, re.compile(r"^Ana: the Heuristic bot is bluffing$"), answer=False)
        back.send("again")
        read_until(back, re.compile(r"^Final standings$"))
        back.send("quit")
        back.finish()
    finally:
        host.terminate()
        host.communicate(timeout=15)
    history = subprocess.run(
        [sys.executable, "-m", "dalmuti_net.cli", "history", str(save), "--as", "Ana", "--json"],
        cwd=REPO,
        capture_output=True,
        text=True,
    )
    assert history.returncode == 0, history.stderr
    chats = [
        line["message"]
        for line in map(json.loads, history.stdout.splitlines()[1:])
        if line["message"]["type"] == "chat"
    ]
    assert [(c["name"], c["text"]) for c in chats] == [("Ana", "the Heuristic bot is bluffing")]
