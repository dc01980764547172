"""The save file (SQLite): every accepted change kept, by hand; a crash at any byte of the
last transaction loses that transaction only; damage refused in one sentence; one host
per file; a table rebuilt from it is the live table."""

from __future__ import annotations

import os
import random
import shutil
import sqlite3
from pathlib import Path

import pytest
from harness import Harness, random_chooser
from test_host_journal import table_state

from dalmuti_net.engine import Rules
from dalmuti_net.host.savefile import (
    PAGE_SIZE,
    SaveBusy,
    SaveError,
    SaveFile,
    read_save,
)
from dalmuti_net.host.table import Table

HEADER = {"name": "File", "seed": 9, "table_id": "0123456789abcdef"}


def played_table(seed: int = 9, steps: int = 300) -> Table:
    table = Table("File", Rules.all_optional(0.3), seed=seed)
    harness = Harness(table, random.Random(seed))
    host = harness.join("Host", chooser=random_chooser(harness.rng))
    harness.start_with_bots(host, 4)
    harness.run(max_steps=steps)
    return table


def batches(entries: list[dict], rng: random.Random) -> list[list[dict]]:
    """The entries cut into batches of 1 to 4, as the server commits them."""
    out, index = [], 0
    while index < len(entries):
        size = rng.randint(1, 4)
        out.append(entries[index : index + size])
        index += size
    return out


def test_the_save_keeps_every_change_by_hand_and_replays_to_the_live_table(
    tmp_path: Path,
) -> None:
    path = tmp_path / "table.save"
    table = played_table()
    entries = table.take_journal()
    save = SaveFile.create(path, HEADER)
    for batch in batches(entries[:40], random.Random(1)):
        save.append(batch)
    save.close()
    save, saved = SaveFile.resume(path)  # reopened to go on, as --resume does
    assert saved.entries == entries[:40]
    for batch in batches(entries[40:], random.Random(2)):
        save.append(batch)
    save.close()
    saved = read_save(path)
    assert saved.header == HEADER
    assert saved.entries == entries
    assert saved.hands[0] == 0 and saved.hands[-1] == table.game.hand_number
    starts = [i for i, e in enumerate(entries) if e["op"] in ("start", "next_hand")]
    for number, first in enumerate(starts, start=1):
        assert saved.hands[first] == number
    twin = Table.replay(saved.entries, name="File", rules=Rules.all_optional(0.3), seed=9)
    assert table_state(twin) == table_state(table)
    with sqlite3.connect(path) as db:  # the format says what it is, for other tools
        # At rest the log is folded in (one file to copy); a host writing it uses one.
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
        assert db.execute("PRAGMA user_version").fetchone()[0] == 1
        hands = db.execute("SELECT count(DISTINCT hand) FROM changes").fetchone()[0]
        assert hands == table.game.hand_number + 1
    assert path.stat().st_mode & 0o777 == 0o600


def crash_image(path: Path, into: Path, wal: bytes | None) -> Path:
    """The files a host killed now would leave: the database and its write-ahead log."""
    into.mkdir(exist_ok=True)
    copy = into / path.name
    shutil.copyfile(path, copy)
    for suffix in ("-wal", "-shm"):
        Path(f"{copy}{suffix}").unlink(missing_ok=True)
    if wal is not None:
        Path(f"{copy}-wal").write_bytes(wal)
    return copy


FRAME = 24 + PAGE_SIZE
"""A write-ahead log frame: its header, then one page."""


def some_bytes(start: int, end: int) -> list[int]:
    """Cut points between ``start`` and ``end`` of the log: every byte of each frame's
    header and of the ends of its page, and every 61st byte in between."""
    cuts = []
    for cut in range(start, end + 1):
        within = (cut - start) % FRAME
        if within < 40 or within > FRAME - 16 or cut % 61 == 0 or cut == end:
            cuts.append(cut)
    return cuts


@pytest.mark.parametrize(
    "every_byte", [False, pytest.param(True, marks=pytest.mark.slow)], ids=["some", "every"]
)
def test_a_crash_at_any_byte_of_the_last_transaction_loses_that_transaction_only(
    tmp_path: Path, every_byte: bool
) -> None:
    path = tmp_path / "table.save"
    entries = played_table(steps=120).take_journal()
    save = SaveFile.create(path, HEADER)
    for batch in batches(entries[:-3], random.Random(3)):
        save.append(batch)
    wal = Path(f"{path}-wal")
    before = wal.read_bytes()
    save.append(entries[-3:])  # the last transaction
    after = wal.read_bytes()
    assert after.startswith(before) and len(after) > len(before)
    image = crash_image(path, tmp_path / "crash", None)
    cuts = range(len(before), len(after) + 1) if every_byte else some_bytes(len(before), len(after))
    for cut in cuts:
        Path(f"{image}-shm").unlink(missing_ok=True)
        Path(f"{image}-wal").write_bytes(after[:cut])
        saved = read_save(image)
        expected = entries if cut == len(after) else entries[:-3]
        assert saved.entries == expected, f"cut at byte {cut} of the write-ahead log"
    # What a resumed host then holds, and writes on.
    image = crash_image(path, tmp_path / "crash", after[: len(after) - 1])
    resumed, saved = SaveFile.resume(image)
    assert saved.entries == entries[:-3]
    resumed.append(entries[-3:])
    resumed.close()
    assert read_save(image).entries == entries
    save.close()


def test_a_file_cut_short_is_refused_never_read_as_an_older_table(tmp_path: Path) -> None:
    path = tmp_path / "table.save"
    entries = played_table().take_journal()
    save = SaveFile.create(path, HEADER)
    for batch in batches(entries, random.Random(4)):
        save.append(batch)
    save.close()
    whole = path.read_bytes()
    cut = tmp_path / "cut.save"
    for size in range(len(whole) - 1, 99, -997):
        cut.write_bytes(whole[:size])
        with pytest.raises(SaveError) as refused:
            read_save(cut)
        assert str(refused.value).startswith(str(cut))


def test_garbage_in_the_middle_is_refused_in_one_sentence(tmp_path: Path) -> None:
    path = tmp_path / "table.save"
    entries = played_table().take_journal()
    save = SaveFile.create(path, HEADER)
    for batch in batches(entries, random.Random(5)):
        save.append(batch)
    save.close()
    whole = path.read_bytes()
    rng = random.Random(6)
    damaged = tmp_path / "damaged.save"
    refused = 0
    for offset in range(100, len(whole) - 64, 211):
        garbage = bytes(rng.randrange(256) for _ in range(16))
        damaged.write_bytes(whole[:offset] + garbage + whole[offset + 16 :])
        try:
            saved = read_save(damaged)
        except SaveError as error:
            message = str(error)
            assert message.startswith(str(damaged)) and "\n" not in message
            refused += 1
        else:
            # Garbage on a page's unused bytes changes nothing: never an older table.
            assert saved.entries == entries and saved.header == HEADER
    assert refused > 0


def test_files_that_are_not_saves_are_refused_in_words(tmp_path: Path) -> None:
    empty = tmp_path / "empty.save"
    empty.write_bytes(b"")
    with pytest.raises(SaveError, match="is empty"):
        read_save(empty)
    old = tmp_path / "old.dat"
    old.write_bytes(b"\x00\x00\x00\x10\x82\xa2op\xa6header")
    with pytest.raises(SaveError, match="older dalmuti-net"):
        read_save(old)
    text = tmp_path / "notes.txt"
    text.write_text("hello\n")
    with pytest.raises(SaveError, match="not an SQLite database"):
        read_save(text)
    other = tmp_path / "other.db"
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE t (x)")
    with pytest.raises(SaveError, match="not a dalmuti-net save"):
        read_save(other)
    future = tmp_path / "future.save"
    SaveFile.create(future, HEADER).close()
    with sqlite3.connect(future) as db:
        db.execute("PRAGMA user_version = 7")
    with pytest.raises(SaveError, match="newer dalmuti-net"):
        read_save(future)
    with pytest.raises(SaveError, match="there is no file"):
        read_save(tmp_path / "missing.save")


def test_a_change_changed_behind_the_save_is_refused(tmp_path: Path) -> None:
    """A change altered or removed (a disk error SQLite cannot see) is named."""
    path = tmp_path / "table.save"
    save = SaveFile.create(path, HEADER)
    save.append([{"op": "next_hand"}, {"op": "end"}])
    save.close()
    altered = tmp_path / "altered.save"
    shutil.copyfile(path, altered)
    with sqlite3.connect(altered) as db:
        db.execute("""UPDATE changes SET entry = '{"op":"end" }' WHERE seq = 2""")
    with pytest.raises(SaveError, match="change 2 does not match its checksum"):
        read_save(altered)
    removed = tmp_path / "removed.save"
    shutil.copyfile(path, removed)
    with sqlite3.connect(removed) as db:
        db.execute("DELETE FROM changes WHERE seq = 2")
    with pytest.raises(SaveError, match="counts 2 changes but holds 1"):
        read_save(removed)


def test_one_host_at_a_time_on_a_file(tmp_path: Path) -> None:
    path = tmp_path / "table.save"
    first = SaveFile.create(path, HEADER)
    first.append([{"op": "next_hand"}])
    with pytest.raises(SaveBusy, match="in use by another running host"):
        SaveFile.resume(path)
    with pytest.raises(SaveBusy):
        SaveFile.create(path, HEADER)
    assert read_save(path).entries == [{"op": "next_hand"}]  # readers still read
    first.close()
    second, saved = SaveFile.resume(path)
    assert saved.entries == [{"op": "next_hand"}]
    second.close()


def files_in(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def test_a_save_at_rest_is_one_file_and_reading_it_leaves_nothing(tmp_path: Path) -> None:
    path = tmp_path / "table.save"
    entries = played_table(steps=60).take_journal()
    save = SaveFile.create(path, HEADER)
    save.append(entries[:10])
    assert files_in(tmp_path) == ["table.save", "table.save-shm", "table.save-wal"]
    # A reader while the host writes: through the host's log, adding nothing.
    assert read_save(path).entries == entries[:10]
    assert files_in(tmp_path) == ["table.save", "table.save-shm", "table.save-wal"]
    save.close()
    assert files_in(tmp_path) == ["table.save"], "a clean stop folds the log into the file"
    assert read_save(path).entries == entries[:10]
    assert files_in(tmp_path) == ["table.save"]
    # Resumed, written on and stopped again: still one file, with everything.
    resumed, saved = SaveFile.resume(path)
    assert saved.entries == entries[:10]
    resumed.append(entries[10:])
    resumed.close()
    assert files_in(tmp_path) == ["table.save"]
    assert read_save(path).entries == entries


def test_a_save_left_in_log_mode_by_an_older_host_is_read_leaving_nothing(
    tmp_path: Path,
) -> None:
    path = tmp_path / "table.save"
    save = SaveFile.create(path, HEADER)
    save.append([{"op": "next_hand"}])
    save._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    save._db.close()  # closed as hosts before this change did: the file says "WAL"
    os.close(save._lock)
    Path(f"{path}-wal").unlink(missing_ok=True)
    Path(f"{path}-shm").unlink(missing_ok=True)
    assert path.read_bytes()[18:20] == b"\x02\x02"  # the header's WAL read/write versions
    assert read_save(path).entries == [{"op": "next_hand"}]
    assert files_in(tmp_path) == ["table.save"]
