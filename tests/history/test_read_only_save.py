"""A save in a read-only folder, or a read-only save, is read, not called damaged: a save
on a read-only share, a CD, a friend's folder we may not write in. (SQLite's write-ahead
log needs a ``-shm`` file beside the save to read it: a save at rest needs none.)"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from history_support import read_changes, write_save
from test_standings import bots_only_table

from dalmuti_net.host.savefile import SaveFile
from dalmuti_net.rerun.keeper import keep_league


def reader(folder: Path, *argv: str) -> list[str]:
    """``dalmuti *argv`` run where ``folder`` cannot be written: as root (who may write
    anywhere) in a mount namespace of its own where ``folder`` is bound read-only."""
    command = [sys.executable, "-m", "dalmuti_net", *argv]
    if os.geteuid() != 0:
        folder.chmod(0o555)
        return command
    if shutil.which("unshare") is None:
        pytest.skip("a read-only folder for root needs unshare(1)")
    script = 'mount --bind "$0" "$0" && mount -o remount,bind,ro "$0" && exec "$@"'
    return ["unshare", "--mount", "sh", "-c", script, str(folder), *command]


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("played") / "table.dat"
    write_save(path, 4)
    return path


def copy_at_rest(played: Path, folder: Path) -> Path:
    folder.mkdir()
    path = folder / "table.dat"
    shutil.copyfile(played, path)
    return path


@pytest.mark.parametrize("command", [["history"], ["history", "--hand", "2"], ["standings"]])
def test_a_save_in_a_read_only_folder_is_read(
    played: Path, tmp_path: Path, command: list[str]
) -> None:
    folder = tmp_path / "share"
    path = copy_at_rest(played, folder)
    expected = subprocess.run(
        [sys.executable, "-m", "dalmuti_net", *command, str(played)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    try:
        done = subprocess.run(
            reader(folder, *command, str(path)), capture_output=True, text=True, timeout=120
        )
        if done.returncode and "mount" in done.stderr and "dalmuti" not in done.stderr:
            pytest.skip(f"no read-only bind mount here: {done.stderr.strip()}")
        assert (done.returncode, done.stderr) == (0, "")
        assert done.stdout == expected
        assert sorted(p.name for p in folder.iterdir()) == ["table.dat"]  # nothing beside it
    finally:
        folder.chmod(0o755)


def test_a_read_only_save_is_read(played: Path, tmp_path: Path) -> None:
    path = copy_at_rest(played, tmp_path / "mine")
    path.chmod(0o444)
    done = subprocess.run(
        [sys.executable, "-m", "dalmuti_net", "history", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert (done.returncode, done.stderr) == (0, ""), done.stderr
    assert "Hand 3" in done.stdout
    assert sorted(p.name for p in path.parent.iterdir()) == ["table.dat"]


def test_a_crashed_hosts_save_in_a_read_only_folder_says_why_in_one_line(
    played: Path, tmp_path: Path
) -> None:
    """A host that crashed leaves the save's log beside it; SQLite reads a log only with an
    index (``-shm``) it creates beside it, which a read-only folder forbids: not "damaged",
    but what to do."""
    header, changes = read_changes(played)
    live = tmp_path / "live" / "table.dat"
    live.parent.mkdir()
    save = SaveFile.create(live, header)
    save.append(changes)  # committed to the log, which the host has not folded back yet
    folder = tmp_path / "share"
    folder.mkdir()
    for suffix in ("", "-wal"):
        shutil.copyfile(f"{live}{suffix}", folder / f"table.dat{suffix}")
    save.close()
    try:
        done = subprocess.run(
            reader(folder, "history", str(folder / "table.dat")),
            capture_output=True,
            text=True,
            timeout=120,
        )
        if done.returncode and "mount" in done.stderr and "dalmuti" not in done.stderr:
            pytest.skip(f"no read-only bind mount here: {done.stderr.strip()}")
    finally:
        folder.chmod(0o755)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "cannot be read in this folder" in done.stderr
    assert "copy both files to a folder you can write in" in done.stderr


def test_a_league_in_a_read_only_folder_is_read(tmp_path: Path) -> None:
    folder = tmp_path / "share"
    folder.mkdir()
    league = folder / "league.db"
    harness = bots_only_table(1)
    keep_league(harness.table, league)
    harness.run()
    try:
        done = subprocess.run(
            reader(folder, "standings", str(league)), capture_output=True, text=True, timeout=120
        )
        if done.returncode and "mount" in done.stderr and "dalmuti" not in done.stderr:
            pytest.skip(f"no read-only bind mount here: {done.stderr.strip()}")
    finally:
        folder.chmod(0o755)
    assert (done.returncode, done.stderr) == (0, "")
    assert "Standings over 1 table" in done.stdout
    assert sorted(p.name for p in folder.iterdir()) == ["league.db"]
