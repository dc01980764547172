"""`dalmuti join --record`: what the client was sent, in the history format, read back by
`dalmuti history` and `dalmuti replay` as the same hands the host's save tells."""

from __future__ import annotations

import json
import stat
from pathlib import Path
from typing import Any

import pytest
from test_history_command import history_validator
from test_replay_ui import RULES, replay_of
from test_ui_screens import answer
from ui_support import LocalTable

from dalmuti_net.cli import main
from dalmuti_net.client.recorder import Recorder, RecordError, RecordingSession
from dalmuti_net.commands.history_text import tell
from dalmuti_net.history.record import read_record
from dalmuti_net.lang.i18n import Translator


def played(seed: int) -> tuple[LocalTable, list[dict[str, Any]]]:
    """A whole table played from the UI, and every message its session was sent."""
    table = LocalTable(RULES, seed=seed, bots=3)
    sent: list[dict[str, Any]] = []
    receive = table.session.receive

    def keep(message: dict[str, Any]) -> None:
        sent.append(message)
        receive(message)

    table.session.receive = keep  # type: ignore[method-assign]
    table.send({"type": "chat", "text": "hola"})
    table.start()
    while table.session.observation is not None and table.session.observation.ended is None:
        if table.session.observation.phase == "hand_over":
            table.next_hand()
        else:
            answer(table)
    return table, sent


def test_a_record_is_what_the_client_was_sent_and_tells_the_same_hands(tmp_path: Path) -> None:
    table, sent = played(seed=6)
    path = tmp_path / "ana.jsonl"
    recorder = Recorder(path)
    session = RecordingSession("Ana")
    session.recorder = recorder
    # What the UI's session took in before the capture began: the welcome and snapshot.
    rebuilt = replay_of(table, "en").frames  # the seat's messages, from the host's save
    early = rebuilt[:2]
    for message in [*early, *sent]:
        session.receive(message)
    recorder.close()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    record = read_record(path)
    assert record.viewer.kind == "seat" and record.viewer.name == "Ana"
    assert record.header["source"] == "client"
    # A record is the documented format too: each kind of line against the schema.
    seen: set[str] = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        value = json.loads(line)
        kind = value["message"]["type"] if "message" in value else "header"
        if kind not in seen:
            seen.add(kind)
            history_validator().validate(value)
    assert {"header", "welcome", "snapshot", "cards_dealt", "decision", "chat"} <= seen
    assert record.frames[0]["type"] == "welcome" and record.frames[0]["token"] is None
    assert record.frames[2:] == sent
    # Told from the record, each line the save tells is there, the chat too (a save
    # keeps the chat: issue 33.5).
    t = Translator("en")
    from_record = [line for line in tell(t, record.frames, 1) if line]
    from_save = [line for line in tell(t, rebuilt, 1) if line]
    assert from_record == from_save
    assert "Ana: hola" in from_save


def test_a_record_starts_only_in_a_new_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "kept.jsonl"
    path.write_text("mine\n")
    with pytest.raises(RecordError, match="already exists"):
        Recorder(path)
    code = main(["join", "127.0.0.1:8499", "--record", str(path)])
    err = capsys.readouterr().err
    assert code == 2 and err == f"dalmuti join: {path} already exists; record to a new file\n"
    assert path.read_text() == "mine\n"


def test_a_record_of_another_table_after_the_first_is_left_out(tmp_path: Path) -> None:
    table, _ = played(seed=7)
    frames = replay_of(table, "en").frames
    path = tmp_path / "two.jsonl"
    recorder = Recorder(path)
    session = RecordingSession("Ana")
    session.recorder = recorder
    for message in frames:
        session.receive(message)
    other = {**frames[0], "table_id": "another"}
    for message in (other, *frames[1:5]):
        session.receive(message)
    recorder.close()
    lines = path.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 1 + len(frames)
    assert all(json.loads(line).get("message", {}).get("table_id") != "another" for line in lines)


def test_join_plain_records_too(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`dalmuti join --plain --record`: the line-by-line table keeps the same record,
    which `dalmuti history` tells and `dalmuti standings` counts."""
    from host_process import running_host
    from test_plain_e2e import ONE_HAND, PlainProcess, play_to_the_end

    rules = tmp_path / "one_hand.toml"
    rules.write_text(ONE_HAND, encoding="utf-8")
    path = tmp_path / "ana.jsonl"
    t = Translator("es")
    with running_host(rules, name="Pipe table") as host:
        arguments = ["join", "--plain", "--lang", "es", "--player-name", "Ana"]
        client = PlainProcess([*arguments, "--record", str(path), host.address], tmp_path)
        play_to_the_end(client, t)
        client.send(t._("quit|q|exit").split("|")[0])
        status, errors = client.finish()
    assert status == 0 and errors == ""
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    record = read_record(path)
    assert record.viewer.kind == "seat" and record.viewer.name == "Ana"
    assert any(frame["type"] == "table_ended" for frame in record.frames)
    assert main(["history", str(path), "--hand", "1", "--lang", "es"]) == 0
    told = capsys.readouterr().out
    assert told.startswith("Pipe table, mano 1, tal como la vio Ana:") and "Recibes: " in told
    assert main(["standings", str(path)]) == 0
    assert "Ana" in capsys.readouterr().out
