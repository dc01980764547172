"""A table whose save runs out of disk mid-hand, then gets space back (run by
test_host_full_disk.py in its own process, since the disk is filled for the whole process).

    python full_disk_table.py rlimit DIR   the file size limit (RLIMIT_FSIZE) stops writes
    python full_disk_table.py tmpfs DIR    DIR is a tiny tmpfs this process mounted (run it
                                           under ``unshare -m``, as root); a filler fills it

Prints one JSON object saying what each side saw; the test judges it.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import resource
import subprocess
import sys
from pathlib import Path
from typing import Any

import trio

sys.path.insert(0, str(Path(__file__).parent))
from recording_clients import RecordingClient, bot_runner
from test_host_journal import table_state

from dalmuti_net.bots import make_strategy
from dalmuti_net.engine import Rules
from dalmuti_net.host.savefile import SaveFile, read_save
from dalmuti_net.host.server import TableServer
from dalmuti_net.host.table import Limits, Table


class Disk:
    """Fills and frees the disk under the save, one way or the other."""

    def __init__(self, how: str, folder: Path) -> None:
        self.how, self.folder = how, folder
        self.filler = folder / "filler"
        if how == "tmpfs":
            subprocess.run(
                ["mount", "-t", "tmpfs", "-o", "size=4m,mode=0700", "tmpfs", str(folder)],
                check=True,
            )

    def fill(self, save: Path) -> None:
        if self.how == "rlimit":
            # Files may not grow past their size now (the soft limit; the hard one stays).
            biggest = max(p.stat().st_size for p in save.parent.glob(save.name + "*"))
            _, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
            resource.setrlimit(resource.RLIMIT_FSIZE, (biggest, hard))
            return
        filler = os.open(self.filler, os.O_WRONLY | os.O_CREAT, 0o600)
        try:
            for size in (4096, 1):  # to the last byte
                with contextlib.suppress(OSError):
                    while True:
                        os.write(filler, b"\0" * size)
        finally:
            os.close(filler)

    def free(self) -> None:
        if self.how == "rlimit":
            _, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
            resource.setrlimit(resource.RLIMIT_FSIZE, (hard, hard))
        else:
            self.filler.unlink()

    def close(self) -> None:
        if self.how == "tmpfs":
            subprocess.run(["umount", "-l", str(self.folder)], check=False)


async def play(how: str, folder: Path) -> dict[str, Any]:
    disk = Disk(how, folder)
    path = folder / "table.save"
    rules = Rules(**{**Rules.all_optional(misdeal_chance=0.0).to_dict(), "hand_limit": 2})
    table = Table("Full disk", rules, seed=5, limits=Limits(grace_period_ms=60_000))
    seat = table.reserve_seat("Ana", host=True)
    for _ in range(3):
        table.add_bot("random")
    table.start()
    save = SaveFile.create(path, {"name": table.name, "seed": 5})
    told: list[str | None] = []
    server = TableServer(
        table, save=save, run_bot=bot_runner(), between_hands=0, on_save_problem=told.append
    )
    ana = RecordingClient("Ana", token=seat.token, strategy=make_strategy("random", 3))
    watcher = RecordingClient("Watcher", spectator=True)
    seen: dict[str, Any] = {}
    try:
        async with trio.open_nursery() as nursery:
            await nursery.start(server.run)
            for client in (ana, watcher):
                nursery.start_soon(client.run, server.connect_local())
            with trio.fail_after(30):
                await ana.wait_until(lambda: len(ana.acked) >= 4)
            ana.paused = True
            await ana.wait_until(lambda: ana.session.decision is not None)
            await server.flush()
            saved_before = len(read_save(path).entries)

            disk.fill(path)
            await ana.resume()  # this move, or one soon after, cannot be saved
            with trio.fail_after(10):
                await ana.wait_until(lambda: any(e["code"] == "cannot_save" for e in ana.errors))
                await watcher.wait_until(
                    lambda: any(e["code"] == "cannot_save" for e in watcher.errors)
                )
            acked_at_failure = len(ana.acked)
            saved_at_failure = len(read_save(path).entries)
            seen["saved_before_failure"] = saved_at_failure - saved_before
            await trio.sleep(2.5)  # two retries, still full
            seen["acked_while_full"] = len(ana.acked) - acked_at_failure
            seen["saved_while_full"] = len(read_save(path).entries) - saved_at_failure
            seen["told_while_full"] = list(told)
            seen["fatal_errors"] = [e for e in ana.errors + watcher.errors if e["fatal"]]

            disk.free()
            with trio.fail_after(10):
                await ana.wait_until(lambda: told[-1] is None)
            seen["told_after"] = list(told)
            with trio.fail_after(60):
                await ana.wait_until(lambda: ana.phase == "ended")
            await server.flush()
            nursery.cancel_scope.cancel()
    finally:
        save.close()
        entries = read_save(path).entries
        disk.close()
    twin = Table.replay(entries, name=table.name, rules=rules, seed=5)
    seen["replays_to_the_live_table"] = table_state(twin) == table_state(table)
    acted = [e["action"] for e in entries if e["op"] == "act" and e["player"] == seat.player]
    acked = [{k: v for k, v in m.items() if k != "id"} for m in ana.acked]
    remaining = iter(acted)
    seen["every_ack_saved"] = all(any(a == b for b in remaining) for a in acked)
    seen["ended"] = table.phase == "ended"
    return seen


def main() -> None:
    how, folder = sys.argv[1], Path(sys.argv[2])
    try:
        print(json.dumps(trio.run(play, how, folder)))
    except OSError as error:
        if error.errno == errno.EPERM:
            print(json.dumps({"skip": str(error)}))
            return
        raise


if __name__ == "__main__":
    main()
