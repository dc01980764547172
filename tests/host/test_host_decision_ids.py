"""Decisions have ids: every `decision` (also inside a snapshot) carries the seat's
decision number; an answer may name it, and an answer naming a decision no longer owed is
refused with `stale_decision`, changing nothing. Ids survive reconnects, snapshots and a
host rebuilt from its journal."""

from __future__ import annotations

import random
from typing import Any

from harness import Client, Harness, random_chooser

from dalmuti_net.bots.random_bot import random_answer
from dalmuti_net.engine import Rules
from dalmuti_net.host.table import Table
from dalmuti_net.protocol.messages import action_message, decision_from_message


def game(seed: int = 5) -> tuple[Harness, Client, Client]:
    """A started 4-player game: the host player (a chooser), Bo (answered by hand), bots."""
    harness = Harness(Table("Ids", Rules(), seed=seed), random.Random(seed))
    host = harness.join("Host", chooser=random_chooser(harness.rng))
    bo = harness.join("Bo")
    harness.start_with_bots(host, 2)
    return harness, host, bo


def decisions(client: Client) -> list[dict[str, Any]]:
    return [m for m in client.received if m["type"] == "decision"]


def until_owed(harness: Harness, client: Client) -> dict[str, Any]:
    """Play on until ``client`` owes a decision; the decision message it was sent."""
    harness.run_until(lambda: client.session.decision is not None)
    return decisions(client)[-1]


def answer(client: Client, decision: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    action = random_answer(decision_from_message(decision), rng)
    return {**action_message(action), "decision_id": decision["decision_id"]}


def test_every_decision_has_the_next_id_of_its_seat() -> None:
    harness, host, bo = game()
    rng = random.Random(1)
    for _ in range(12):
        owed = until_owed(harness, bo)
        bo.session.decision = None
        harness.send(bo, answer(bo, owed, rng))
        assert not bo.errors
    for client in (host, bo):
        ids = [m["decision_id"] for m in decisions(client)]
        assert ids == list(range(1, len(ids) + 1)), ids


def test_an_answer_to_a_decision_no_longer_owed_is_stale_and_changes_nothing() -> None:
    harness, _, bo = game()
    rng = random.Random(2)
    owed = until_owed(harness, bo)
    first = answer(bo, owed, rng)
    bo.session.decision = None
    harness.send(bo, first)
    assert not bo.errors
    # The same answer again (a client that answered a snapshot's copy, say).
    journal = list(harness.table.journal)
    seen = len(bo.received)
    harness.send(bo, {**first, "id": 9})
    assert [m["type"] for m in bo.received[seen:]] == ["error"]
    error = bo.received[-1]
    assert error["code"] == "stale_decision" and not error["fatal"] and error["re"] == 9
    assert str(owed["decision_id"]) in error["message"]
    assert harness.table.journal == journal, "a stale answer changes nothing"


def test_an_answer_naming_a_future_decision_is_stale_too() -> None:
    harness, _, bo = game()
    owed = until_owed(harness, bo)
    action = random_answer(decision_from_message(owed), random.Random(3))
    harness.send(bo, {**action_message(action), "decision_id": owed["decision_id"] + 1})
    assert bo.errors[-1]["code"] == "stale_decision"
    assert bo.session.decision is not None, "the decision is still owed"


def test_an_answer_without_an_id_is_taken_as_before() -> None:
    harness, _, bo = game()
    owed = until_owed(harness, bo)
    action = random_answer(decision_from_message(owed), random.Random(4))
    bo.session.decision = None
    harness.send(bo, action_message(action))
    assert not bo.errors


def test_a_snapshot_holds_the_owed_decision_with_its_id() -> None:
    harness, _, bo = game()
    owed = until_owed(harness, bo)
    harness.send(bo, {"type": "snapshot_request"})
    snapshot = bo.of_type("snapshot")[-1]
    assert snapshot["decision"] == owed


def test_a_snapshot_crossing_an_answer_holds_it_and_a_second_answer_is_stale() -> None:
    """The sequence PROTOCOL.md describes: snapshot_request, then the answer, arrive before
    the host replies; the snapshot holds the decision already answered."""
    harness, _, bo = game()
    owed = until_owed(harness, bo)
    table = harness.table
    table.receive(bo.connection, {"type": "snapshot_request"})  # both sent before reading
    reply = answer(bo, owed, random.Random(5))
    harness.send(bo, reply)
    snapshot = bo.of_type("snapshot")[-1]
    assert snapshot["decision"]["decision_id"] == owed["decision_id"]
    harness.send(bo, reply)  # a client that answers the snapshot's copy
    assert bo.errors[-1]["code"] == "stale_decision"


def test_ids_survive_a_reconnect_and_a_host_rebuilt_from_its_journal() -> None:
    harness, _, bo = game(seed=8)
    rng = random.Random(6)
    for _ in range(5):
        owed = until_owed(harness, bo)
        bo.session.decision = None
        harness.send(bo, answer(bo, owed, rng))
    owed = until_owed(harness, bo)
    harness.drop(bo)
    back = harness.join("Bo", token=bo.session.token)
    assert back.of_type("snapshot")[-1]["decision"]["decision_id"] == owed["decision_id"]

    journal = [entry for entry in harness.table.journal]
    rebuilt = Table.replay(journal, name="Ids", rules=Rules(), seed=8)
    again = Harness(rebuilt)
    resumed = again.join("Bo", token=bo.session.token)
    assert resumed.of_type("snapshot")[-1]["decision"]["decision_id"] == owed["decision_id"]
    again.send(resumed, answer(resumed, owed, rng))
    assert not resumed.errors


def engine_owes(table: Table) -> dict[int, type]:
    if table.game is None or table.game.phase.value == "ended":
        return {}
    return {player: type(decision) for player, decision in table.game.pending().items()}


def test_who_owes_is_the_engines_answer_after_every_change() -> None:
    """The table answers "who owes a decision" (turn timers, the rate limit's exemption,
    the revolution's secret timer) from what its last batch left owed, not by asking the
    engine again: after every change, with every optional rule, newcomers and a leaver,
    that is exactly the engine's answer."""
    rules = Rules(**{**Rules.all_optional(misdeal_chance=0.3).to_dict(), "hand_limit": 8})
    for seed in range(3):
        table = Table("Owed", rules, seed=seed)
        harness = Harness(table, random.Random(seed))
        host = harness.join("Host", chooser=random_chooser(harness.rng))
        leaver = harness.join("Leaver", chooser=random_chooser(harness.rng))
        harness.start_with_bots(host, 4)
        steps = 0
        while harness.step():
            steps += 1
            if steps == 40:
                harness.join("Late", chooser=random_chooser(harness.rng))
            if steps == 90:
                harness.send(leaver, {"type": "leave"})
            for player, _ in table.unplayed_seats():  # the server's stand-in, at once
                table.request_stand_in(player)
                harness.deliver()
            owed = engine_owes(table)
            assert table.pending_players() == list(owed), steps
            secret = {p for p, kind in owed.items() if kind.__name__ == "RevolutionDecision"}
            assert table.secretly_pending() == secret, steps
            for client in harness.clients:
                connection = table.connections.get(client.connection)
                if connection is not None:
                    seated = connection.player is not None and not connection.spectator
                    expected = seated and connection.player in owed
                    assert table.owes_decision(client.connection) == expected, steps
        assert table.phase == "ended" and steps > 200
