"""Files passed between friends are hostile: a crafted save, history file or league never
writes an escape sequence, a bidirectional override or an invisible character into the
terminal (`history`, `--hand`, `--as`, `--json`, `standings`), and `hosts --json` writes
what it heard escaped, listing only addresses a client can join."""

from __future__ import annotations

import json
import os
import re
import sqlite3
import tracemalloc
import zlib
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from test_host_secrecy import all_optional, eventful_game
from test_standings import bots_only_table

from dalmuti_net.cli import main
from dalmuti_net.commands.hosts import listing_dict
from dalmuti_net.history.record import read_record
from dalmuti_net.host.savefile import SaveFile
from dalmuti_net.protocol.discovery import listing_from_record
from dalmuti_net.protocol.text import INVISIBLE, JOINERS, NOT_TEXT, SURROGATES, json_text, shown
from dalmuti_net.rerun.keeper import keep_league

NASTY = "\x1b]0;pwned\x07\x1b[2J\x1b[6n\x9b31m\u202eevil\u200b\u2066\ufeff\U000e0041"
"""A window title, a cleared screen, a cursor report typed into the shell, a C1 CSI, a
right-to-left override, invisible characters and an isolate."""

ON_A_TERMINAL = re.compile(f"(?!\n)[{NOT_TEXT}{SURROGATES}]|(?![{JOINERS}])[{INVISIBLE}]")
"""What must never reach a terminal (a newline between lines is fine)."""
IN_JSON = re.compile(f"(?!\n)[{NOT_TEXT}{SURROGATES}{INVISIBLE}]")


def assert_safe(text: str) -> None:
    found = ON_A_TERMINAL.search(text)
    assert found is None, f"U+{ord(found.group()):04X} in {text[max(0, found.start() - 40) :]!r}"


def assert_safe_json(text: str) -> None:
    found = IN_JSON.search(text)
    assert found is None, f"U+{ord(found.group()):04X} raw in {text[: found.start() + 20]!r}"


def nasty_save(path: Path) -> None:
    """A played table whose header name and a player's name carry ``NASTY``."""
    harness, _ = eventful_game(4)
    table = harness.table
    header = {
        "name": "Friday" + NASTY,
        "code": None,
        "seed": table.seed,
        "headless": True,
        "table_id": table.table_id,
        "rules": all_optional(hand_limit=3).to_dict(),
        "table": {"turn_timer": 0, "grace_period": 60, "between_hands": 3},
    }
    changes = table.take_journal()
    for change in changes:
        if change["op"] == "seat" and change["name"] == "H0":
            change["name"] = "H0" + NASTY
    save = SaveFile.create(path, header)
    save.append(changes)
    save.close()


@pytest.fixture(scope="module")
def save(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("hostile") / "table.dat"
    nasty_save(path)
    return path


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(
    ("options", "status"),
    [
        ((), 0),
        (("--hand", "1"), 0),
        (("--as", "H0 ]0;pwned"), 2),
        (("--as", "H1"), 0),
        (("--as", "host"), 0),
    ],
    ids=["list", "hand", "as-nasty", "as-other", "host"],
)
def test_history_of_a_crafted_save_writes_no_control_to_the_terminal(
    save: Path, capsys: pytest.CaptureFixture[str], options: tuple[str, ...], status: int
) -> None:
    code, out, err = run(capsys, "history", str(save), *options)
    assert code == status
    assert_safe(out + err)
    assert "evil" in out + err  # shown, not hidden


def test_history_json_of_a_crafted_save_is_escaped_and_whole(
    save: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, out, err = run(capsys, "history", str(save), "--json")
    assert code == 0 and err == ""
    assert_safe_json(out)
    lines = [json.loads(line) for line in out.splitlines()]
    assert lines[0]["table"].startswith("Friday")
    # What the JSON says is what the table was told: read back, the same names.
    record = tmp_path / "record.jsonl"
    record.write_text(out, encoding="utf-8")
    assert read_record(record).frames == [line["message"] for line in lines[1:]]


def nasty_record(path: Path, source: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A history file whose header names the table and the viewer with ``NASTY`` (and a
    lone surrogate, which JSON can write and a terminal cannot take)."""
    assert main(["history", str(source), "--json", "--as", "H1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    header: dict[str, Any] = json.loads(lines[0])
    header["table"] = "Record" + NASTY + "\ud800"
    header["viewer"]["name"] = "H1" + NASTY + "\udfff"
    path.write_text(
        "\n".join([json.dumps(header), *lines[1:]]) + "\n", encoding="utf-8", errors="surrogatepass"
    )


@pytest.mark.parametrize(
    ("options", "status"),
    [
        ((), 0),
        (("--hand", "2"), 0),
        (("--spectator",), 2),
        (("--as", "Nobody"), 2),
        (("--json",), 0),
    ],
    ids=["list", "hand", "spectator", "as-other", "json"],
)
def test_history_of_a_crafted_record_writes_no_control_to_the_terminal(
    save: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    options: tuple[str, ...],
    status: int,
) -> None:
    record = tmp_path / "record.jsonl"
    nasty_record(record, save, capsys)
    code, out, err = run(capsys, "history", str(record), *options)
    assert code == status
    (assert_safe_json if "--json" in options else assert_safe)(out)
    assert_safe(err)
    assert "Record" in out + err or "H1" in out + err


def test_standings_of_crafted_files_write_no_control(
    save: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    league = tmp_path / "league.db"
    harness = bots_only_table(1)
    keep_league(harness.table, league)
    harness.run()
    with sqlite3.connect(league) as connection:
        connection.execute(
            "UPDATE results SET player = player || ?, table_name = ?", (NASTY, NASTY)
        )
    record = tmp_path / "record.jsonl"
    nasty_record(record, save, capsys)
    code, out, err = run(capsys, "standings", str(league), str(save), str(record))
    assert code == 0 and err == ""
    assert_safe(out)
    assert "Ana ]0;pwned" in out and "H0 ]0;pwned" in out


def test_a_league_with_wrong_typed_columns_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    league = tmp_path / "league.db"
    harness = bots_only_table(1)
    keep_league(harness.table, league)
    harness.run()
    for column, value in (("score", "lots"), ("player", b"Ana"), ("place", 1.5), ("hands", 2**62)):
        broken = tmp_path / f"{column}.db"
        broken.write_bytes(league.read_bytes())
        with sqlite3.connect(broken) as connection:
            connection.execute(
                f"UPDATE results SET {column} = ? WHERE rowid = (SELECT min(rowid) FROM results)",
                (value,),
            )
        code, out, err = run(capsys, "standings", str(broken))
        assert (code, out) == (2, "")
        assert err.count("\n") == 1 and "of the wrong kind or size" in err, err


def test_hosts_json_escapes_what_a_listing_carries_and_drops_unjoinable_addresses(
    capsys: pytest.CaptureFixture[str],
) -> None:
    listing = listing_from_record(
        "Ana\x9b2J\u202e._dalmuti._tcp.local.",
        "host\x1b]0;x\x07.local.",
        [
            *("0.0.0.0", "0.1.2.3", "255.255.255.255", "224.0.0.251", "240.0.0.1", "10.0.0.7"),
            *("ff02::fb", "::", "::ffff:0.0.0.0", "fe80::1%\x1b[2J", "fe80::2%eth0"),
        ],
        8470,
        {b"pv": b"1", b"name": "Ana\u202e\x85\u200b".encode(), b"sw": b"x\x1b[6n"},
    )
    assert listing.addresses == ("10.0.0.7", "fe80::2%eth0")
    text = json_text([listing_dict(listing)])
    assert_safe_json(text)
    [back] = json.loads(text)
    assert back["instance"] == "Ana\x9b2J\u202e._dalmuti._tcp.local."  # whole for scripts
    assert back["addresses"] == ["10.0.0.7", "fe80::2%eth0"]
    nowhere = listing_from_record("x._dalmuti._tcp.local.", "h.", ["0.0.0.0", "ff02::1"], 1, {})
    assert not nowhere.usable and nowhere.addresses == ()


def test_hosts_json_command_output_is_escaped(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    listing = listing_from_record(
        "Ana\x9b2J\u202e._dalmuti._tcp.local.", "h\x1b.local.", ["127.0.0.1"], 8470, {}
    )

    async def find_tables(*args: object, **kwargs: object) -> list[object]:
        return [listing]

    monkeypatch.setattr("dalmuti_net.client.discovery.find_tables", find_tables)
    for options in (["--json"], []):
        code, out, err = run(capsys, "hosts", "--timeout", "0.1", *options)
        assert code == 0 and err == ""
        (assert_safe_json if options else assert_safe)(out)


def test_shown_keeps_text_and_joiners_and_json_text_round_trips() -> None:
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
    assert shown(f"Añа 李 {family}") == f"Añа 李 {family}"
    assert shown("a\x1b[2Jb\u202ec\u200bd\ud800e") == "a [2Jb cd e"
    value = {"n": "a\x1b\x9b\u2028\u202e\u200b\U000e0041\ud800" + family}
    assert json.loads(json_text(value)) == value
    assert_safe_json(json_text(value))


# ---------------------------------------------------------------- bounds: size, depth, types


def append_raw_change(path: Path, text: str) -> None:
    """``text`` as the save's next change, checksummed and counted as the host would."""
    with closing(sqlite3.connect(path)) as db, db:
        seq, hand = db.execute("SELECT max(seq), max(hand) FROM changes").fetchone()
        db.execute(
            "INSERT INTO changes (seq, hand, op, entry, crc) VALUES (?, ?, 'act', ?, ?)",
            (seq + 1, hand, text, zlib.crc32(text.encode())),
        )
        db.execute("UPDATE saved_table SET changes = ?", (seq + 1,))


def one_line_refusal(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    code, out, err = run(capsys, *argv)
    assert (code, out) == (2, ""), err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert_safe(err)
    return err


@pytest.mark.parametrize("depth", [17, 100_000])
def test_a_deeply_nested_change_in_a_save_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], depth: int
) -> None:
    path = tmp_path / "deep.dat"
    nasty_save(path)
    append_raw_change(
        path, '{"op": "act", "player": 1, "action": ' + "[" * depth + "]" * depth + "}"
    )
    for command in ("history", "replay", "standings"):
        err = one_line_refusal(capsys, command, str(path))
        assert "cannot be read" in err


@pytest.mark.parametrize("depth", [17, 100_000])
def test_a_deeply_nested_line_in_a_record_is_one_line(
    save: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], depth: int
) -> None:
    record = tmp_path / "record.jsonl"
    nasty_record(record, save, capsys)
    lines = record.read_text(encoding="utf-8", errors="surrogatepass").splitlines()
    lines.insert(3, '{"hand": 0, "message": ' + "[" * depth + "]" * depth + "}")
    record.write_text("\n".join(lines) + "\n", encoding="utf-8", errors="surrogatepass")
    err = one_line_refusal(capsys, "history", str(record))
    assert "line 4: nested more than 16 deep" in err


def sparse(path: Path, head: bytes, size: int) -> None:
    """A file of ``size`` bytes that begins with ``head`` (the rest a hole: no disk used)."""
    with path.open("wb") as file:
        file.write(head)
        file.truncate(size)


def test_a_huge_record_is_refused_before_it_is_read(
    save: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = tmp_path / "huge.jsonl"
    nasty_record(record, save, capsys)
    sparse(record, record.read_bytes(), 400 * 1024 * 1024)
    tracemalloc.start()
    try:
        err = one_line_refusal(capsys, "history", str(record))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert "is too large to read: 400 MiB, and at most 32 MiB is read" in err
    assert peak < 16 * 1024 * 1024


def test_a_record_read_a_line_at_a_time_stops_at_its_limit(
    save: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The limit holds while reading too (a file that grows as it is read): what was read
    is counted, not what the file said its size was."""
    record = tmp_path / "record.jsonl"
    nasty_record(record, save, capsys)
    size = record.stat().st_size
    monkeypatch.setattr("os.fstat", lambda fd: os.stat_result((0,) * 10))  # claims to be empty
    monkeypatch.setattr("dalmuti_net.history.record.MAX_RECORD_BYTES", size // 2)
    err = one_line_refusal(capsys, "history", str(record))
    assert "is too large to read" in err


def test_a_huge_save_or_league_is_refused_before_it_is_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "huge.dat"
    nasty_save(path)
    sparse(path, path.read_bytes(), 64 * 1024 * 1024)
    for command in ("history", "replay", "standings"):
        assert "is too large to read: 64 MiB" in one_line_refusal(capsys, command, str(path))
    league = tmp_path / "league.db"
    harness = bots_only_table(1)
    keep_league(harness.table, league)
    harness.run()
    sparse(league, league.read_bytes(), 64 * 1024 * 1024)
    assert "is too large to read: 64 MiB" in one_line_refusal(capsys, "standings", str(league))


def test_a_save_with_more_changes_than_are_played_again_is_one_line(
    save: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("dalmuti_net.rerun.save.MAX_SAVE_CHANGES", 100)
    err = one_line_refusal(capsys, "history", str(save))
    assert "holds more changes than this version plays again (609; at most 100)" in err


@pytest.mark.parametrize(
    ("field", "value"),
    [("seed", "x"), ("seed", 2**70), ("headless", 1), ("table_id", ["a"]), ("name", "x" * 5000)],
)
def test_a_save_header_of_the_wrong_types_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], field: str, value: object
) -> None:
    path = tmp_path / "header.dat"
    nasty_save(path)
    with closing(sqlite3.connect(path)) as db, db:
        [header] = db.execute("SELECT header FROM saved_table").fetchone()
        changed = {**json.loads(header), field: value}
        db.execute("UPDATE saved_table SET header = ?", (json.dumps(changed),))
    for command in ("history", "replay", "standings"):
        assert "has a damaged header" in one_line_refusal(capsys, command, str(path))


@pytest.mark.parametrize("kind", ["hand_ended", "table", "deal_finished", "played"])
def test_a_record_whose_message_does_not_fit_is_one_line_naming_it(
    save: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str
) -> None:
    """Schema-valid but inconsistent (the issue's `zip()` crash): refused as a host's would
    be, at its line, by every reader of the file."""
    assert main(["history", str(save), "--json", "--as", "H1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    where = next(i for i, line in enumerate(lines) if f'"type": "{kind}"' in line)
    forged = json.loads(lines[where])
    message = forged["message"]
    if kind == "hand_ended":
        message["scores"] = message["scores"][:-2]
    elif kind == "table":
        message["table"]["players"].append(dict(message["table"]["players"][0]))
    elif kind == "deal_finished":
        message["counts"] = message["counts"][1:]
    else:
        message["player"] = 99  # nobody seated
    lines[where] = json.dumps(forged)
    record = tmp_path / "forged.jsonl"
    record.write_text("\n".join(lines) + "\n", encoding="utf-8")
    for command in (["history"], ["history", "--hand", "1"], ["replay"], ["standings"]):
        err = one_line_refusal(capsys, *command, str(record))
        assert f"line {where + 1}: a `{kind}` that does not fit" in err, err
