"""As a host closes, it says where the evening went and the command that reads it back:
the table screen that showed it is gone, and the save and league files are the evening."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from dalmuti_net.commands.host import where_the_table_is_kept
from dalmuti_net.lang.i18n import LANGUAGES, Translator


def test_a_headless_host_stopped_with_a_save_and_a_league_says_where_they_are(
    tmp_path: Path,
) -> None:
    save, league = tmp_path / "friday table.dat", tmp_path / "league.dat"
    host = subprocess.Popen(
        [
            sys.executable,
            *("-m", "dalmuti_net", "host", "--headless", "--no-announce", "--lang", "en"),
            *("--interface", "127.0.0.1", "--port", "0", "--table-name", "Kept"),
            *("--save", str(save), "--league", str(league)),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    try:
        assert host.stdout is not None
        assert "Kept" in host.stdout.readline()
    finally:
        host.send_signal(signal.SIGTERM)
        out, err = host.communicate(timeout=30)
    assert host.returncode == 0, err
    quoted = f"'{save}'"  # the name has a space: quoted as a shell would need it
    assert (
        f"The table is saved in {quoted}: dalmuti host --resume {quoted} goes on with it."
    ) in out
    assert f"The league in {league} has its results: dalmuti standings {league}." in out


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_an_ended_table_points_at_history_and_replay(language: str) -> None:
    t = Translator(language)
    lines = where_the_table_is_kept(t, Path("t.dat"), None, ended=True)
    assert len(lines) == 1
    assert "dalmuti history t.dat" in lines[0] and "dalmuti replay t.dat" in lines[0]
    assert "--resume" not in lines[0]
    if language != "en":
        assert (
            lines[0]
            != where_the_table_is_kept(Translator("en"), Path("t.dat"), None, ended=True)[0]
        )


def test_nothing_is_said_without_a_save_or_a_league() -> None:
    assert where_the_table_is_kept(Translator("en"), None, None, ended=False) == []
