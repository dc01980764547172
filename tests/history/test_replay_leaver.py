"""Replaying a player who left mid-game goes on to the final standings (issue 33.7), and a
history's own listener is no spectator anyone sees (issue 33.6: "Watching" names people)."""

from __future__ import annotations

import random
from pathlib import Path

from harness import Harness, random_chooser
from history_support import save_table

from dalmuti_net.engine import Rules
from dalmuti_net.host.table import Table
from dalmuti_net.rerun.sources import open_history


def test_a_leavers_replay_goes_on_to_the_final_standings(tmp_path: Path) -> None:
    rng = random.Random(3)
    table = Table("Leaving", Rules(scoring=True, hand_limit=2), seed=3)
    harness = Harness(table, rng)
    ana = harness.join("Ana", chooser=random_chooser(rng))
    harness.join("Bo", chooser=random_chooser(rng))  # takes over as host player
    for _ in range(3):
        harness.send(ana, {"type": "add_bot", "strategy": "random"})
    harness.send(ana, {"type": "start"})
    harness.run_until(lambda: ana.session.decision is not None)
    harness.send(ana, {"type": "leave"})
    for player, _ in table.unplayed_seats():  # as the server does: a bot plays it out
        table.request_stand_in(player)
    harness.deliver()
    harness.run()
    assert table.phase == "ended"
    save = tmp_path / "table.dat"
    save_table(save, table)
    history = open_history(save)[-1]
    viewer, _ = history.choose("Ana")
    own = history.frames(viewer)
    assert not any(frame["type"] == "table_ended" for frame in own)  # her connection closed
    replayed = history.frames_to_the_end(viewer)
    assert replayed[: len(own)] == own
    assert any(f["type"] == "table_ended" for f in replayed[len(own) :])
    tables = [frame["table"] for frame in replayed if frame["type"] in ("table", "snapshot")]
    assert tables and all(t["spectators"] == 0 and not t.get("watching") for t in tables)
    assert any(gone["name"] == "Ana" for gone in tables[-1]["departed"])
