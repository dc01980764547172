"""`dalmuti history`: listing, a hand told as one viewer saw it in three languages, the
operator's view, JSON Lines against their schema and back, and one-sentence refusals."""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from history_support import read_changes, write_changes, write_save
from referencing import Registry, Resource

from dalmuti_net.cli import main
from dalmuti_net.history.record import read_record
from dalmuti_net.rerun.sources import open_history
from tools.schema import REPO_ROOT

SEED = 4


@pytest.fixture(scope="module")
def save(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("history") / "table.dat"
    write_save(path, SEED)
    return path


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["history", *argv])
    out, err = capsys.readouterr()
    return code, out, err


@functools.cache
def history_validator() -> jsonschema.Draft202012Validator:
    kit = REPO_ROOT / "protocol"
    protocol = json.loads((kit / "schema.json").read_text(encoding="utf-8"))
    history = json.loads((kit / "history.schema.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(history)
    registry = Registry().with_resources([(protocol["$id"], Resource.from_contents(protocol))])
    return jsonschema.Draft202012Validator(history, registry=registry)


LISTING = {
    "en": ("Table 1: Secrets", "7 players:", "Hand 3: ", "Final standings: 1. "),
    "zh-Hant": ("第 1 桌：Secrets", "7 位玩家：", "第 3 手：", "最終排名：1. "),
    "es": ("Mesa 1: Secrets", "7 jugadores:", "Mano 3: ", "Clasificación final: 1. "),
}


@pytest.mark.parametrize("lang", LISTING)
def test_the_listing_names_the_table_its_players_and_each_hands_finish(
    save: Path, capsys: pytest.CaptureFixture[str], lang: str
) -> None:
    code, out, err = run(capsys, str(save), "--lang", lang)
    assert code == 0 and err == ""
    for expected in LISTING[lang]:
        assert expected in out
    assert "Hand 4" not in out and "H0" in out and "Late" in out


def test_the_listing_says_who_lost_the_crown_and_names_each_bot_by_its_one_name(
    save: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """ "The hand where I lost the crown": a hand whose first finisher is not the Greater
    Dalmuti it was dealt to says so, naming the one who held the crown."""
    table = open_history(save)[0]
    frames = table.frames(None)
    names = {seat.player: seat.name for seat in table.seats.values()}
    crowned = {f["hand"]: f["order"][0] for f in frames if f["type"] == "hand_started"}
    finished = {f["hand"]: f["finishing"][0] for f in frames if f["type"] == "hand_ended"}
    _, out, _ = run(capsys, str(save))
    lines = {int(line.split()[1].rstrip(":")): line for line in out.splitlines() if "Hand" in line}
    assert set(lines) == set(crowned) == {1, 2, 3}
    for hand, line in lines.items():
        lost = finished.get(hand) not in (None, crowned[hand])
        assert line.endswith(f"; {names[crowned[hand]]} loses the crown") == lost, line
        assert ("loses the crown" in line) == lost, line
    assert "Random bot" in out
    _, out, _ = run(capsys, str(save), "--lang", "es")
    assert "Random bot" in out and "Bot aleatorio" not in out  # a bot's one name
    if any(finished[hand] != crowned[hand] for hand in finished):
        assert "pierde la corona" in out


TOLD = {
    "en": ("Secrets, hand 2, as H0 saw it:", "Hand 2 of 3 begins.", "You are dealt: ", "(you)"),
    "zh-Hant": (
        "Secrets，第 2 手，H0 看到的：",
        "第 2 手開始（共 3 手）。",
        "你拿到的牌：",
        "（你）",
    ),
    "es": ("Secrets, mano 2, tal como la vio H0:", "Empieza la mano 2 de 3.", "Recibes: ", "(tú)"),
}


@pytest.mark.parametrize("lang", TOLD)
def test_a_hand_is_told_as_that_seat_saw_it(
    save: Path, capsys: pytest.CaptureFixture[str], lang: str
) -> None:
    code, out, err = run(capsys, str(save), "--hand", "2", "--as", "H0", "--lang", lang)
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == TOLD[lang][0]
    for expected in TOLD[lang][1:]:
        assert expected in out
    # Only the seat's own cards: one "dealt" line, no other seat's.
    dealt = [line for line in lines if "dealt:" in line or "拿到的牌" in line or "ecib" in line]
    assert len(dealt) == 1, dealt


def test_the_seat_the_spectator_and_the_host_see_different_amounts(
    save: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, seat, _ = run(capsys, str(save), "--hand", "2", "--as", "H0")
    _, spectator, _ = run(capsys, str(save), "--hand", "2", "--spectator")
    _, host, _ = run(capsys, str(save), "--hand", "2", "--as", "host")
    assert "You are dealt" in seat and "is dealt" not in seat
    assert "dealt:" not in spectator and "(you)" not in spectator
    assert host.count(" is dealt: ") >= 4 and "You are dealt" not in host
    # The operator is told each tax with its cards, in the third person.
    assert " gave " in host and ": " in host and "gave you" not in host
    # What the spectator is told is told to the host too (transfers with their cards).
    for line in spectator.splitlines()[1:]:
        if not line.endswith((" card.", " cards.", "exchanged a card with")):
            assert line in host, line


def test_json_lines_match_their_schema_and_read_back_as_the_same_frames(
    save: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    for viewer in (["--as", "H1"], ["--spectator"], ["--as", "host"]):
        code, out, _ = run(capsys, str(save), "--json", *viewer)
        assert code == 0
        lines = [json.loads(line) for line in out.splitlines()]
        # Every kind of line against the schema (all of them would take a minute).
        seen: set[str] = set()
        for line in lines:
            kind = line["message"]["type"] if "message" in line else "header"
            if kind not in seen:
                seen.add(kind)
                history_validator().validate(line)
        assert len(seen) > 12
        assert lines[0]["format"] == "dalmuti-history" and lines[0]["source"] == "save"
        path = tmp_path / "history.jsonl"
        path.write_text(out, encoding="utf-8")
        record = read_record(path)
        table = open_history(save)[0]
        key, _ = table.choose(viewer[-1] if viewer[0] == "--as" else None)
        assert record.frames == table.frames(key)
        assert all("token" not in m or m["token"] is None for m in record.frames)
        # Told again from the file, the history says the same.
        _, from_save, _ = run(capsys, str(save), "--hand", "3", *viewer)
        _, from_file, _ = run(capsys, str(path), "--hand", "3")
        assert from_file == from_save


def test_a_hand_alone_in_json_still_says_whose_it_is(
    save: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, out, _ = run(capsys, str(save), "--json", "--hand", "2", "--as", "H0", "--lang", "es")
    assert code == 0
    lines = [json.loads(line) for line in out.splitlines()]
    kinds = [line["message"]["type"] for line in lines[1:3]]
    assert kinds == ["welcome", "table"]
    assert {line["hand"] for line in lines[3:]} == {2}
    assert any(line.get("text", "").startswith("Recibes: ") for line in lines)
    path = tmp_path / "hand.jsonl"
    path.write_text(out, encoding="utf-8")
    _, told, _ = run(capsys, str(path), "--hand", "2", "--lang", "es")
    _, expected, _ = run(capsys, str(save), "--hand", "2", "--as", "H0", "--lang", "es")
    assert told == expected


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["--as", "Nobody"], "nobody called 'Nobody' sat at this table"),
        (["--hand", "9", "--as", "H0"], "there is no hand 9 in this history (hands 1 to 3)"),
        (["--table", "2"], "there is no table 2"),
        (["--lang", "fr"], "unknown language 'fr'"),
    ],
)
def test_what_cannot_be_shown_is_said_in_one_line(
    save: Path, capsys: pytest.CaptureFixture[str], argv: list[str], says: str
) -> None:
    code, out, err = run(capsys, str(save), *argv)
    assert code == 2 and out == ""
    assert err.startswith("dalmuti history: ") and says in err and err.count("\n") == 1


@pytest.mark.parametrize(
    ("lang", "says"),
    [
        (
            "zh-Hant",
            (
                "沒有 ",
                "沒有叫「Nobody」的人坐過這張牌桌（入座的有：H0、H1、",
                "（只有第 1 到第 3 手）",
                "不是 dalmuti-net 的檔案",
            ),
        ),
        (
            "es",
            (
                "no existe el archivo",
                "nadie llamado «Nobody»",
                "(manos 1 a 3)",
                "no es un archivo de",
            ),
        ),
    ],
)
def test_each_command_refuses_in_the_language_asked_for(
    save: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    lang: str,
    says: tuple[str, str, str, str],
) -> None:
    stray = tmp_path / "notes.txt"
    stray.write_text("not a table\n", encoding="utf-8")
    commands = [
        ["history", str(tmp_path / "missing.dat")],
        ["replay", str(save), "--as", "Nobody"],
        ["history", str(save), "--hand", "9", "--as", "H0"],
        ["standings", str(stray)],
    ]
    for command, sentence in zip(commands, says, strict=True):
        code = main([*command, "--lang", lang])
        err = capsys.readouterr().err
        assert code == 2 and err.startswith(f"dalmuti {command[0]}: "), err
        assert sentence in err and err.count("\n") == 1, err


def test_a_record_holds_one_viewer_and_never_the_hosts(
    save: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    _, out, _ = run(capsys, str(save), "--json", "--as", "H0")
    path = tmp_path / "h0.jsonl"
    path.write_text(out, encoding="utf-8")
    for argv, says in (
        (["--as", "host"], "only in the host's own save"),
        (["--as", "H1"], "holds only what 'H0' was sent"),
        (["--spectator"], "not a spectator"),
    ):
        code, _, err = run(capsys, str(path), *argv)
        assert code == 2 and says in err, err
    assert run(capsys, str(path), "--as", "h0")[0] == 0


@pytest.mark.parametrize(
    ("content", "says"),
    [
        (b"", "is not a dalmuti-net file"),
        (b'{"format": "other"}\n', "is not a dalmuti-net history"),
        (b"\x00\x00\x00\x05hello", "is not a dalmuti-net file"),
        (b"\x00\x00\x00\x05\x81\xa2op", "is a save from an older dalmuti-net"),
        (b'{"format": "dalmuti-history", "version": 2}\n', "history version 2"),
    ],
)
def test_a_file_that_is_not_a_history_is_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes, says: str
) -> None:
    path = tmp_path / "file"
    path.write_bytes(content)
    code, _, err = run(capsys, str(path))
    assert code == 2 and says in err and err.count("\n") == 1, err


@pytest.mark.parametrize(
    ("damage", "says"),
    [
        (lambda entries: entries.insert(5, {"op": "bogus"}), "change 6 cannot be played"),
        (lambda entries: entries[9].pop("player"), "change 10 cannot be played again (it lacks"),
        (lambda entries: entries.insert(0, {"op": "act"}), "change 1 cannot be played"),
    ],
)
def test_a_damaged_save_is_refused_in_one_line(
    save: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    damage: Callable[[list[dict[str, Any]]], object],
    says: str,
) -> None:
    header, entries = read_changes(save)
    damage(entries)
    path = tmp_path / "damaged.dat"
    write_changes(path, header, entries)
    for command in (["history", str(path)], ["replay", str(path)], ["standings", str(path)]):
        assert main(command) == 2
        err = capsys.readouterr().err
        assert f"{path} is damaged: " in err and says in err and err.count("\n") == 1, err


def test_a_hostile_line_in_a_record_is_refused_with_its_number(
    save: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    _, out, _ = run(capsys, str(save), "--json", "--as", "H0")
    lines = out.splitlines(keepends=True)
    where = next(i for i, line in enumerate(lines) if '"cards_dealt"' in line)
    forged = json.loads(lines[where])
    forged["message"]["cards"] = [99]
    lines[where] = json.dumps(forged) + "\n"
    path = tmp_path / "forged.jsonl"
    path.write_text("".join(lines), encoding="utf-8")
    code, _, err = run(capsys, str(path))
    assert code == 2 and f"line {where + 1}:" in err, err
    # A last line cut short by a crash is dropped, the rest read.
    path.write_text(out[:-20], encoding="utf-8")
    assert run(capsys, str(path))[0] == 0


@pytest.mark.parametrize(
    ("lang", "shows"),
    [("en", "Replay: step"), ("zh-Hant", "重播：第"), ("es", "Repetición: paso")],
)
def test_replay_opens_the_table_screen_and_quits_on_q(
    save: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    lang: str,
    shows: str,
) -> None:
    from prompt_toolkit.application import create_app_session
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.layout import UIContent
    from prompt_toolkit.output import DummyOutput

    from dalmuti_net.client.ui.app import ScreenControl

    drawn: list[str] = []
    control_content = ScreenControl.create_content

    def remember(self: ScreenControl, width: int, height: int | None) -> UIContent:
        content = control_content(self, width, height)
        lines = (content.get_line(index) for index in range(content.line_count))
        drawn.append("\n".join("".join(text for _, text, *_ in line) for line in lines))
        return content

    monkeypatch.setattr(ScreenControl, "create_content", remember)
    monkeypatch.setattr("dalmuti_net.commands.replay.has_a_terminal", lambda: True)
    with create_pipe_input() as pipe, create_app_session(input=pipe, output=DummyOutput()):
        pipe.send_text("\x1b[B\x1b[Cq")  # down (next hand), right, q
        code = main(["replay", str(save), "--as", "H1", "--lang", lang, "--hand", "2"])
    assert code == 0 and capsys.readouterr().err == ""
    assert drawn and shows in drawn[-1] and "H1" in drawn[-1]


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["--as", "host"], "use: dalmuti history FILE --as host"),
        (["--as", "Nobody"], "nobody called 'Nobody'"),
        (["--hand", "7"], "there is no hand 7 in this history (hands 1 to 3)"),
        # Under pytest, input and output are not a terminal.
        (["--as", "H1"], "there is no terminal here to show the replay in"),
    ],
)
def test_replay_refuses_in_one_line(
    save: Path, capsys: pytest.CaptureFixture[str], argv: list[str], says: str
) -> None:
    code = main(["replay", str(save), *argv])
    err = capsys.readouterr().err
    assert code in (1, 2, 3) and err.startswith("dalmuti replay: ") and says in err, err
    assert err.count("\n") == 1


@pytest.mark.parametrize(
    ("lang", "title"),
    [
        ("en", "Secrets, hand 2, as Random bot saw it:"),
        ("zh-Hant", "Secrets，第 2 手，Random bot 看到的："),
    ],
)
def test_a_bot_seat_is_named_in_the_title_as_in_the_lines(
    save: Path, capsys: pytest.CaptureFixture[str], lang: str, title: str
) -> None:
    code, out, _ = run(capsys, str(save), "--hand", "2", "--as", "Random bot", "--lang", lang)
    assert code == 0 and out.splitlines()[0] == title
