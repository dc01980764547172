"""The save as the operator meets it: `dalmuti host --save/--resume` on a host killed
(kill -9) and resumed five times in a row, two hosts on one file, and damaged files
refused in one line."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest
import trio
from test_host_crash import free_port, poll, start_host

from dalmuti_net.cli import main
from dalmuti_net.engine import Rules
from dalmuti_net.host.savefile import SaveFile, read_save

RULES = "[rules]\nhand_limit = 5\nmisdeal_chance = 0.3\n\n[table]\nbetween_hands = 0\n"


async def test_a_host_killed_five_times_resumes_each_time_with_nothing_lost(
    tmp_path: Path,
) -> None:
    rules, save, port = tmp_path / "rules.toml", tmp_path / "table.save", free_port()
    rules.write_text(RULES)
    rng = random.Random(9)
    fresh = ["--headless", "--save", str(save), "--rules", str(rules), "--bots", "4"]
    fresh += ["--autostart", "4", "--seed", "3", "--bot-pace", "0"]
    kept: list[dict[str, object]] = []
    for run in range(6):
        arguments = fresh if run == 0 else ["--headless", "--resume", str(save)]
        log = tmp_path / f"run{run}.log"
        host = await start_host(["--port", str(port), *arguments], log)
        try:
            if run == 5:  # the last one plays the table to its end
                await poll(lambda log=log: b"The table has ended." in log.read_bytes(), 120)
                host.terminate()
                assert await host.wait() == 0, log.read_text()
                break
            wanted = len(kept) + rng.randint(10, 40)
            await poll(lambda wanted=wanted: len(read_save(save).entries) >= wanted, 60)
            host.kill()  # at whatever moment it is
            assert await host.wait() == -9
        finally:
            if host.returncode is None:
                host.kill()
                await host.wait()
        entries = read_save(save).entries
        assert entries[: len(kept)] == kept, f"run {run} lost changes saved before"
        assert len(entries) >= wanted
        kept = entries
    final = read_save(save)
    assert final.entries[: len(kept)] == kept
    assert final.hands[-1] == 5
    assert "Traceback" not in "".join(p.read_text() for p in tmp_path.glob("*.log"))
    # Stopped cleanly, the save is one file to copy or mail, and reading it keeps it so.
    assert sorted(p.name for p in tmp_path.glob("table.save*")) == ["table.save"]
    for command in (["history", str(save)], ["history", str(save), "--hand", "2"]):
        assert main([*command, "--lang", "en"]) == 0
    assert sorted(p.name for p in tmp_path.glob("table.save*")) == ["table.save"]


async def test_a_second_host_on_the_same_file_refuses_at_once(tmp_path: Path) -> None:
    save, port = tmp_path / "table.save", free_port()
    first = await start_host(
        ["--port", str(port), "--headless", "--save", str(save)], tmp_path / "a"
    )
    try:
        command = [sys.executable, "-m", "dalmuti_net.cli", "host", "--no-announce"]
        command += ["--interface", "127.0.0.1", "--port", str(free_port()), "--headless"]
        # --resume, and --save too: not "use --resume", which would be refused in turn.
        for option in ("--resume", "--save"):
            second = await trio.to_thread.run_sync(
                lambda option=option: subprocess.run(
                    [*command, option, str(save)], capture_output=True, text=True, timeout=30
                )
            )
            assert second.returncode == 3, (option, second.stderr)
            assert second.stderr.count("\n") == 1, second.stderr
            assert "is in use by another running host" in second.stderr
        assert first.poll() is None, "the first host goes on"
    finally:
        first.terminate()
        assert await first.wait() == 0
    assert read_save(save).header["headless"] is True


HEADER = {
    "table_id": "00112233445566aa",
    "name": "Damaged",
    "code": None,
    "seed": 1,
    "headless": True,
    "rules": Rules().to_dict(),
    "table": {"turn_timer": 0, "grace_period": 60, "between_hands": 3, "bot_pace": 0},
}


@pytest.mark.parametrize(
    ("make", "says"),
    [
        (lambda path: path.write_bytes(b"garbage" * 100), "is not a dalmuti-net save"),
        (lambda path: path.write_bytes(b"SQLite format 3\x00" + b"\xff" * 4000), "is damaged"),
        (
            lambda path: _save_with(path, [{"op": "seat"}]),
            "is damaged: change 1 cannot be played again (it lacks 'player')",
        ),
        (
            lambda path: _save_with(path, [{"op": "act", "player": 1, "action": {}}]),
            "change 1 cannot be played again (it does not fit the table at that point)",
        ),
        (
            lambda path: _save_with(path, [{"op": "start", "seed": 1, "players": [1, 2]}]),
            "is damaged: change 1 cannot be played again",
        ),
    ],
)
def test_a_damaged_save_is_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], make: object, says: str
) -> None:
    path = tmp_path / "table.save"
    make(path)  # type: ignore[operator]
    code = main(["host", "--headless", "--no-announce", "--resume", str(path)])
    err = capsys.readouterr().err
    assert code == 2 and says in err and err.count("\n") == 1, err
    assert "Traceback" not in err


def _save_with(path: Path, entries: list[dict[str, object]]) -> None:
    save = SaveFile.create(path, HEADER)
    save.append(entries)  # type: ignore[arg-type]
    save.close()
