"""The table's record of accepted changes: a table rebuilt from it by ``Table.replay`` is
the live table, at any point of any game (the save file itself: test_host_save.py)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from harness import Harness, random_chooser
from hypothesis import given, settings
from hypothesis import strategies as st

from dalmuti_net.engine import Rules
from dalmuti_net.host.table import Table


def table_state(table: Table) -> dict[str, Any]:
    """Everything about a table that must survive a restart."""
    return {
        "name": table.name,
        "rules": table.rules.to_dict(),
        "phase": table.phase,
        "seed": table.seed,
        "seats": [
            (s.player, s.name, s.kind, s.token, s.host, s.strategy, s.gone)
            for s in table.seats.values()
        ],
        "game": None if table.game is None else table.game.to_dict(),
        "feeds": {viewer: feed.seq for viewer, feed in table._feeds.items()},
        "next_player": table._next_player,
        "listing": [
            # Who is connected now (and so what a leave would end) is not saved.
            {
                k: v
                for k, v in seat.items()
                if k not in ("connected", "stand_in", "leave_ends", "program")
            }
            for seat in table.table_message()["players"]
        ],
    }


def rebuilt(table: Table, rules: Rules) -> Table:
    return Table.replay(list(table.journal), name=table.name, rules=rules, seed=table.seed)


def random_table_life(seed: int, checkpoints: int) -> None:
    """Plays a table with every kind of change, checking the replay at random moments."""
    rng = random.Random(seed)
    start_rules = Rules()
    table = Table("Journal", start_rules, seed=seed)
    harness = Harness(table, rng)
    host = harness.join("Host", chooser=random_chooser(rng))
    humans = [host]
    harness.send(host, {"type": "set_rules", "rules": Rules.all_optional(0.4).to_dict()})
    harness.send(host, {"type": "set_rules", "rules": {"hand_limit": rng.randint(2, 4)}})
    for _ in range(rng.randint(3, 6)):
        harness.send(host, {"type": "add_bot", "strategy": "random"})
    if rng.random() < 0.5:
        extra = next(s.player for s in table.seats.values() if s.kind == "bot")
        harness.send(host, {"type": "remove_bot", "player": extra})
        harness.send(host, {"type": "add_bot"})
    lobby_guest = harness.join("Guest")
    harness.drop(lobby_guest)  # held for the grace period, then let go: journaled as a leave
    table.tick(0.0)
    table.tick(table.limits.grace_period_ms / 1000 + 1)
    humans.append(harness.join("Bo", chooser=random_chooser(rng)))
    assert table_state(rebuilt(table, start_rules)) == table_state(table)
    harness.send(host, {"type": "start"})
    moments = sorted(rng.sample(range(1, 2000), checkpoints))
    step = 0
    for moment in moments:
        while step < moment and harness.step():
            step += 1
        if table.phase == "ended":
            break
        change = rng.choice(["join", "drop", "leave", "kick", "nothing"])
        if change == "join" and len(table.seated_players) < 8:
            humans.append(harness.join(f"New{step}", chooser=random_chooser(rng)))
        elif change == "drop" and len(humans) > 1:
            gone = humans.pop(rng.randrange(1, len(humans)))
            if not gone.closed:
                harness.drop(gone)
                back = harness.join("Back", token=gone.session.token, chooser=random_chooser(rng))
                if not back.closed:
                    humans.append(back)
        elif change in ("leave", "kick") and len(table.seated_players) > 5:
            victim = rng.choice([s for s in table.seats.values() if not s.host and not s.gone])
            client = next(c for c in harness.clients if c.connection == victim.connection)
            if change == "leave":
                harness.send(client, {"type": "leave"})
            else:
                harness.send(host, {"type": "kick", "player": victim.player})
            table.request_stand_in(victim.player)  # the server would at once
            harness.deliver()
        assert table_state(rebuilt(table, start_rules)) == table_state(table)
    harness.run()
    assert table_state(rebuilt(table, start_rules)) == table_state(table)


@settings(max_examples=8)
@given(seed=st.integers(0, 2**32), checkpoints=st.integers(1, 12))
def test_replaying_the_journal_rebuilds_the_live_table(seed: int, checkpoints: int) -> None:
    random_table_life(seed, checkpoints)


@pytest.mark.slow
@settings(max_examples=200)
@given(seed=st.integers(0, 2**32), checkpoints=st.integers(1, 12))
def test_campaign_replaying_the_journal_rebuilds_the_live_table(
    seed: int, checkpoints: int
) -> None:
    random_table_life(seed, checkpoints)


def test_a_replayed_table_plays_on_like_the_live_one() -> None:
    """Same moves from the same point give the same events: the engine's randomness too."""
    table = Table("Twins", Rules.all_optional(0.5), seed=5)
    harness = Harness(table, random.Random(5))
    host = harness.join("Host", chooser=random_chooser(harness.rng))
    harness.start_with_bots(host, 4)
    for _ in range(150):
        harness.step()
    twin = rebuilt(table, Rules.all_optional(0.5))
    assert table.game is not None and twin.game is not None
    for _ in range(300):
        pending = table.game.pending()
        if not pending:
            if not table.hand_over():
                break
            table.begin_next_hand()
            twin.begin_next_hand()
            continue
        player, decision = next(iter(pending.items()))
        from dalmuti_net.host.default_moves import default_move

        action = default_move(decision)
        assert table.game.apply(player, action) == twin.game.apply(player, action)
    assert table.game.to_dict() == twin.game.to_dict()
