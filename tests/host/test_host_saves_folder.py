"""Every table saved by default in the user's state folder (issue 38.5): where and under
what name, `--no-save`, the offer to take up a table whose host was killed (a real host,
kill -9), `--resume` with no file, `dalmuti history` listing the folder, and pruning.

Each test has its own state folder (``XDG_STATE_HOME`` in ``tmp_path``): nothing here
touches the user's folders, nor the folder the other tests share."""

from __future__ import annotations

import os
import re
import socket
import stat
import sys
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
import trio
from test_host_crash import free_port, poll
from test_host_save import played_table

from dalmuti_net.cli import build_parser, main
from dalmuti_net.commands.host import options_from
from dalmuti_net.commands.host_runtime import PreparedHost
from dalmuti_net.commands.host_saves import latest_unfinished, offer_interrupted
from dalmuti_net.commands.language import messages
from dalmuti_net.engine import Rules
from dalmuti_net.host.saved_tables import (
    file_stem,
    new_save_path,
    prune,
    saved_tables,
    tables_folder,
)
from dalmuti_net.host.savefile import SaveFile, read_save, summarize

EN = messages("en")
RULES = "[rules]\nhand_limit = 40\n\n[table]\nbetween_hands = 0\nbot_pace = 0\n"


@pytest.fixture
def state(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """This test's own state folder; the saves folder inside it."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    folder = tables_folder()
    assert folder == tmp_path / "state" / "dalmuti-net" / "tables"
    return folder


def host_options(*argv: str) -> Any:
    return options_from(build_parser().parse_args(["host", "--lang", "en", *argv]))


# ------------------------------------------------------------------ where, and named how


def test_a_table_is_saved_by_default_in_a_private_file_named_by_day_time_and_name(
    state: Path,
) -> None:
    options = host_options("--headless", "--table-name", "Ana's table", "--no-announce")
    assert options.save is None and options.saves_folder == state
    host = PreparedHost.create(options)
    assert host.save is not None
    try:
        path = host.save.path
        assert path.parent == state
        assert re.fullmatch(r"\d{4}-\d\d-\d\d_\d\d-\d\d_Anas-table\.save", path.name), path.name
        opened = datetime.fromisoformat(read_save(path).header["opened"])
        assert path.name.startswith(f"{opened:%Y-%m-%d_%H-%M}_")
        assert stat.S_IMODE(state.stat().st_mode) == 0o700  # a save holds resume tokens
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        # Another table opened in the same minute under the same name: a file of its own.
        when = datetime(2026, 12, 7, 21, 40)
        names = [new_save_path(state, "Ana's table", when).name for _ in range(3)]
        assert names == [
            "2026-12-07_21-40_Anas-table.save",
            "2026-12-07_21-40_Anas-table_2.save",
            "2026-12-07_21-40_Anas-table_3.save",
        ]
    finally:
        host.save.close()


@pytest.mark.parametrize(
    ("name", "stem"),
    [
        ("Ana's table", "Anas-table"),
        ("Friday / night: 8*", "Friday-night-8"),
        ("安娜的牌桌", "安娜的牌桌"),
        ("Mesa de José", "Mesa-de-José"),
        ("../../etc", "etc"),
        ("\x1b[31m\u202e", "31m"),
        ("...", "table"),
        ("x" * 100, "x" * 40),
    ],
)
def test_a_file_name_is_safe_on_every_file_system_and_readable(name: str, stem: str) -> None:
    when = datetime(2026, 12, 7, 21, 40)
    assert file_stem(name, when) == f"2026-12-07_21-40_{stem}"


def test_no_save_writes_nothing_and_refuses_a_file_beside_it(
    state: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    options = host_options("--headless", "--no-save")
    assert options.saves_folder is None
    host = PreparedHost.create(options)
    assert host.save is None
    assert not state.exists()
    assert main(["host", "--no-save", "--save", str(state / "x.save"), "--lang", "en"]) == 2
    assert "give --save or --no-save, not both" in capsys.readouterr().err
    assert main(["host", "--no-save", "--resume", "--lang", "en"]) == 2
    assert "give --resume or --no-save, not both" in capsys.readouterr().err
    assert main(["host", "--save", str(state / "x.save"), "--resume", "--lang", "en"]) == 2
    assert "give --save or --resume, not both" in capsys.readouterr().err
    # --save FILE keeps working, and puts nothing in the folder.
    assert host_options("--save", str(state.parent / "mine.save")).saves_folder is None


def test_a_folder_that_cannot_be_written_stops_no_evening(
    state: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state.parent.mkdir(parents=True)
    state.write_text("a file where the folder should be")
    host = PreparedHost.create(host_options("--headless", "--table-name", "Unsaved"))
    assert host.save is None and host.unsaved_because is not None
    # The command says so in one line, and the table opens (here: its port is refused).
    port = free_port()
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", port))
        taken.listen()
        argv = ["host", "--headless", "--no-announce", "--interface", "127.0.0.1"]
        assert main([*argv, "--port", str(port), "--lang", "en"]) == 3
    err = capsys.readouterr().err
    assert f"cannot save the table in {state} (File exists); it is played without a save" in err
    assert f"port {port} is already in use" in err
    assert state.read_text() == "a file where the folder should be"


def test_a_folder_table_that_never_dealt_a_hand_is_not_kept(state: Path) -> None:
    host = PreparedHost.create(host_options("--headless", "--table-name", "Tried"))
    assert host.save is not None and host.kept_save is not None
    host.close_save()
    assert host.kept_save is None
    assert list(state.iterdir()) == []
    # One that dealt a hand is kept, marked as stopped cleanly.
    host = PreparedHost.create(host_options("--headless", "--table-name", "Played"))
    assert host.save is not None
    host.save.append(played_table(steps=20).take_journal())
    host.close_save()
    assert host.kept_save is not None and host.kept_save.exists()
    summary = summarize(host.kept_save)
    assert summary.stopped is not None and not summary.finished and summary.hands >= 1
    # A --save FILE of the user's own is never let go.
    own = state.parent / "own.save"
    host = PreparedHost.create(host_options("--headless", "--save", str(own)))
    host.close_save()
    assert host.kept_save == own and own.exists()


# ------------------------------------------------------------------ saves of every kind

HEADER = {
    "name": "File",
    "code": None,
    "seed": 9,
    "headless": True,
    "rules": Rules.all_optional(0.3).to_dict(),
    "table": {"turn_timer": 0, "grace_period": 60, "between_hands": 3},
}
ENDED = played_table(steps=3000)
assert ENDED.phase == "ended"
ENDED_JOURNAL = ENDED.take_journal()
GOING_JOURNAL = played_table(steps=200).take_journal()


def folder_save(
    folder: Path, name: str, opened: str, how: str, journal: list[dict[str, Any]] | None = None
) -> Path:
    """A save in ``folder`` of a table opened at ``opened`` (``2026-12-07T21:40``), whose
    host ``how``: "finished" (stopped cleanly, the table ended), "stopped" (cleanly, before
    the end), "crashed" (killed: no clean stop, the log left beside the file)."""
    when = datetime.fromisoformat(opened).astimezone()
    path = new_save_path(folder, name, when)
    header = {**HEADER, "name": name, "opened": when.isoformat(), "table_id": os.urandom(8).hex()}
    save = SaveFile.create(path, header)
    save.append(journal if journal is not None else GOING_JOURNAL)
    if how == "crashed":
        save._db.close()  # as a process killed -9 leaves it: no mark, no fold
        os.close(save._lock)
    else:
        save.close(finished=how == "finished")
    return path


def test_whether_a_host_stopped_cleanly_is_read_from_the_save_itself(state: Path) -> None:
    stopped = folder_save(state, "Stopped", "2026-12-01T20:00", "stopped")
    crashed = folder_save(state, "Crashed", "2026-12-02T20:00", "crashed")
    assert summarize(stopped).stopped is not None
    assert summarize(crashed).stopped is None
    # Resumed, the file says "not stopped cleanly" until its next clean stop.
    save, _ = SaveFile.resume(stopped)
    [listed] = [s for s in saved_tables(state) if s.path == stopped]
    assert listed.in_use and not listed.interrupted
    save._db.close()
    os.close(save._lock)
    assert summarize(stopped).stopped is None


def test_resume_with_no_file_takes_the_latest_unfinished_table(state: Path) -> None:
    older = folder_save(state, "Older", "2026-12-01T20:00", "stopped")
    crashed = folder_save(state, "Crashed", "2026-12-02T20:00", "crashed")
    folder_save(state, "Ended", "2026-12-03T20:00", "finished", ENDED_JOURNAL)
    options = host_options("--headless")
    assert latest_unfinished(options, EN).resume == crashed
    # A table whose host died after it ended is not taken up: it is marked finished.
    ended_then_killed = folder_save(state, "Late", "2026-12-04T20:00", "crashed", ENDED_JOURNAL)
    assert latest_unfinished(options, EN).resume == crashed
    assert summarize(ended_then_killed).finished
    # One a running host holds is not taken either.
    held, _ = SaveFile.resume(crashed)
    try:
        assert latest_unfinished(options, EN).resume == older
    finally:
        held.close()


def test_resume_with_no_file_and_nothing_to_resume_says_so(
    state: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder_save(state, "Ended", "2026-12-03T20:00", "finished", ENDED_JOURNAL)
    assert main(["host", "--headless", "--resume", "--lang", "en"]) == 2
    err = capsys.readouterr().err
    assert f"there is no unfinished table to resume in {state}" in err
    assert "Traceback" not in err


def test_history_with_no_file_lists_the_saved_tables_newest_first(
    state: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["history", "--lang", "en"]) == 0
    assert f"No table is saved in {state} yet" in capsys.readouterr().out
    folder_save(state, "Monday", "2026-11-30T20:15", "finished", ENDED_JOURNAL)
    folder_save(state, "Tuesday", "2026-12-01T21:00", "stopped")
    folder_save(state, "Wednesday", "2026-12-02T19:30", "crashed")
    (state / "2026-12-03_10-00_broken.save").write_bytes(b"not a save")
    running = SaveFile.create(
        state / "2026-12-04_18-00_Now.save", {**HEADER, "name": "Now", "opened": "2026-12-04T18:00"}
    )
    try:
        assert main(["history", "--lang", "en"]) == 0
    finally:
        running.close()
    out = capsys.readouterr().out
    tables = [line for line in out.splitlines() if re.match(r"\d{4}-\d\d-\d\d \d\d:\d\d  ", line)]
    hands = {path: summarize(path).hands for path in state.glob("*_*day.save")}
    monday, tuesday = (hands[p] for p in sorted(hands) if "Monday" in p.name or "Tuesday" in p.name)
    assert tables[0].startswith("2026-12-04 18:00  “Now”: being played now; 0 hands dealt")
    assert tables[1].startswith("2026-12-03 10:00  cannot be read:")
    assert tables[2].startswith("2026-12-02 19:30  “Wednesday”: its host did not end cleanly;")
    assert tables[3].startswith(f"2026-12-01 21:00  “Tuesday”: stopped before its end; {tuesday}")
    assert tables[4].startswith(f"2026-11-30 20:15  “Monday”: finished; {monday} hands dealt; ")
    assert tables[4].endswith("; Host, Random bot, Random bot (2), Random bot (3), Random bot (4)")
    assert f"    {state}/2026-11-30_20-15_Monday.save" in out
    assert main(["history", "--hand", "2", "--lang", "en"]) == 2
    assert "--hand needs a FILE" in capsys.readouterr().err


@pytest.mark.parametrize("language", ["zh_Hant", "es"])
def test_the_listing_and_the_offer_are_in_the_users_language(
    state: Path, capsys: pytest.CaptureFixture[str], language: str
) -> None:
    folder_save(state, "Wednesday", "2026-12-02T19:30", "crashed")
    assert main(["history", "--lang", "en"]) == 0
    english = capsys.readouterr().out
    assert main(["history", "--lang", language]) == 0
    assert capsys.readouterr().out.splitlines()[0] != english.splitlines()[0]
    said: list[str] = []
    offer_interrupted(host_options("--headless"), messages(language), say=said.append)
    [line] = said
    assert "did not end cleanly" not in line and "--resume" in line


def test_pruning_keeps_the_newest_finished_and_every_unfinished_or_held_save(
    state: Path,
) -> None:
    finished = [
        folder_save(state, f"Done {day}", f"2026-11-{day:02}T20:00", "finished")
        for day in (1, 2, 3, 4, 5)
    ]
    unfinished = [
        folder_save(state, "Old stopped", "2026-10-01T20:00", "stopped"),
        folder_save(state, "Old crash", "2026-10-02T20:00", "crashed"),
    ]
    broken = state / "2026-09-01_10-00_broken.save"
    broken.write_bytes(b"not a save")
    held, _ = SaveFile.resume(finished[0])  # the oldest finished, taken up again now
    try:
        deleted = prune(state, keep=2)
    finally:
        held.close(finished=True)
    assert sorted(deleted) == sorted(finished[1:3])
    left = set(state.iterdir())
    assert {*finished[3:], finished[0], *unfinished, broken} <= left
    assert not left & set(finished[1:3])
    assert prune(state, keep=2) == [finished[0]]  # no longer held: the oldest goes


# ------------------------------------------------------------------ a real host, kill -9


def host_command(*argv: str) -> list[str]:
    return [
        sys.executable,
        "-m",
        "dalmuti_net.cli",
        "host",
        "--no-announce",
        "--lang",
        "en",
        "--interface",
        "127.0.0.1",
        *argv,
    ]


async def open_host(argv: list[str], log: Path, env: dict[str, str]) -> Any:
    output = log.open("ab")
    process = await trio.lowlevel.open_process(argv, stdout=output, stderr=output, env=env)
    output.close()
    await poll(lambda: b"is open on port" in log.read_bytes() or process.poll() is not None, 60)
    assert process.returncode is None, log.read_text()
    return process


async def test_a_host_killed_is_offered_again_and_resumed_on_its_ports(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    folder = tables_folder()
    rules = tmp_path / "rules.toml"
    rules.write_text(RULES)
    port, web_port = free_port(), free_port()
    first = await open_host(
        host_command(
            "--headless",
            "--port",
            str(port),
            "--web-port",
            str(web_port),
            "--table-name",
            "Friday",
            "--bots",
            "4",
            "--autostart",
            "4",
            "--rules",
            str(rules),
            "--seed",
            "3",
        ),
        tmp_path / "first.log",
        env,
    )
    try:
        await poll(lambda: any(folder.glob("*.save")), 30)
        [path] = folder.glob("*_Friday.save")
        await poll(lambda: summarize(path).hands >= 2, 60)
    finally:
        first.kill()
        assert await first.wait() == -9
    kept = read_save(path)
    [saved] = saved_tables(folder)
    assert saved.interrupted and saved.summary is not None
    assert saved.summary.ports == {"port": port, "web_port": web_port}

    # Headless, nobody to ask: one line says how, and a new table opens beside it.
    log = tmp_path / "second.log"
    second = await open_host(host_command("--headless", "--port", "0"), log, env)
    second.terminate()
    assert await second.wait() == 0
    assert (
        f"“Friday” (opened {saved.when:%Y-%m-%d %H:%M}; {saved.summary.hands} hands dealt; "
        f"Heuristic bot, Heuristic bot (2), Heuristic bot (3), Heuristic bot (4)) did not end "
        f"cleanly: dalmuti host --resume {path} goes on with it."
    ) in log.read_text()
    assert sorted(folder.iterdir()) == [path, Path(f"{path}-shm"), Path(f"{path}-wal")]

    # At a terminal, the host player is asked; "n" opens a new table and marks that one as
    # stopped: it is not asked about again.
    said: list[str] = []
    prompts: list[str] = []

    def answer(*words: str) -> Any:
        replies = iter(words)

        def read(prompt: str) -> str:
            prompts.append(prompt)
            return next(replies)

        return read

    options = host_options()
    assert (
        offer_interrupted(options, EN, interactive=True, read=answer("yes"), say=said.append).resume
        == path
    )
    assert said[-1].startswith("“Friday” (opened") and said[-1].endswith("did not end cleanly.")
    assert prompts == ["Take it up again where it stopped? [Y/n] "]
    assert (
        offer_interrupted(
            options, EN, interactive=True, read=answer("maybe", ""), say=said.append
        ).resume
        == path
    )
    assert said[-1] == "Please answer y (take it up again) or n (open a new table)."
    assert summarize(path).stopped is None  # still not stopped cleanly: nothing was written
    assert (
        offer_interrupted(options, EN, interactive=True, read=answer("n"), say=said.append)
        is options
    )
    assert said[-1] == (
        f"A new table opens; that one stays in {path} (dalmuti host --resume {path} goes on "
        "with it)."
    )
    assert summarize(path).stopped is not None
    assert sorted(folder.iterdir()) == [path]
    asked = len(prompts)
    assert (
        offer_interrupted(options, EN, interactive=True, read=answer(), say=said.append) is options
    )
    assert len(prompts) == asked  # not asked again

    # --resume with no file takes it up: the same table, on the same ports, nothing lost.
    log = tmp_path / "third.log"
    third = await open_host(host_command("--headless", "--resume"), log, env)
    try:
        await poll(lambda: len(read_save(path).entries) > len(kept.entries) + 5, 60)
    finally:
        third.terminate()
        assert await third.wait() == 0
    text = log.read_text()
    assert f"Table “Friday” is open on port {port} (127.0.0.1)." in text, text
    assert f"Phones join at: http://127.0.0.1:{web_port}/" in text, text
    again = read_save(path)
    assert again.entries[: len(kept.entries)] == kept.entries
    assert again.header["table_id"] == kept.header["table_id"]
    assert "Traceback" not in text
    assert sorted(folder.iterdir()) == [path]


@pytest.mark.parametrize(
    ("language", "answer", "resumed"),
    [("zh_Hant", "是", True), ("zh_Hant", "不要", False), ("es", "Sí", True), ("es", "n", False)],
)
def test_the_offer_takes_answers_in_the_players_language(
    state: Path, language: str, answer: str, resumed: bool
) -> None:
    crashed = folder_save(state, "Wednesday", "2026-12-02T19:30", "crashed")
    said: list[str] = []
    options = offer_interrupted(
        host_options(), messages(language), interactive=True, read=lambda _: answer, say=said.append
    )
    assert (options.resume == crashed) is resumed
    assert "did not end cleanly" not in said[0]


def test_a_host_that_cannot_open_leaves_no_table_to_offer(
    state: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # No terminal to show the host player's table in: refused after the save was made.
    assert main(["host", "--no-announce", "--interface", "127.0.0.1", "--lang", "en"]) == 3
    assert "there is no terminal here" in capsys.readouterr().err
    assert list(state.iterdir()) == []  # let go, never dealt: nothing to offer next time
    own = state.parent / "own.save"
    assert main(["host", "--save", str(own), "--interface", "127.0.0.1", "--lang", "en"]) == 3
    assert summarize(own).stopped is not None  # closed cleanly, not "did not end cleanly"


def test_a_table_taken_up_again_keeps_its_join_code(state: Path) -> None:
    """A --code given with --resume once locked the host player out of their own table:
    their terminal, the bots and the join line used the new code, the table the old one."""
    saved = new_save_path(state, "Coded", datetime.now().astimezone())
    save = SaveFile.create(saved, {**HEADER, "name": "Coded", "code": "4521"})
    save.append(GOING_JOURNAL)
    save.close(finished=False)
    options = host_options("--resume", str(saved), "--code", "9999")
    again = PreparedHost.create(options)
    try:
        assert again.table.code == "4521"
        assert options.code == "4521"  # what the host's own player and bots will send
        assert again.code_not_used
    finally:
        again.close_save()
    # The same code given again, or none, is no news.
    for argv in ((), ("--code", "4521")):
        options = host_options("--resume", str(saved), *argv)
        quiet = PreparedHost.create(options)
        try:
            assert options.code == "4521" and not quiet.code_not_used
        finally:
            quiet.close_save()
