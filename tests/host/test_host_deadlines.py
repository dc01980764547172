"""The table's clocks without trio: ``Countdowns`` and ``Table.next_deadline``/``tick``
driven with plain numbers (seconds), as the server drives them with its clock."""

from __future__ import annotations

import random

from harness import Client, Harness, random_chooser

from dalmuti_net.engine import Rules
from dalmuti_net.host.countdowns import Countdowns, Due
from dalmuti_net.host.table import Close, Limits, StartBot, Table
from dalmuti_net.protocol import PROTOCOL_VERSION


def follow(
    countdowns: Countdowns,
    now: float,
    owed: dict[int, int] | None = None,
    *,
    turn: float | None = 30.0,
    away: tuple[int, ...] = (),
    results_of: int | None = None,
) -> None:
    countdowns.follow(
        now,
        owed=owed or {},
        turn_seconds=turn,
        away=away,
        grace_seconds=60.0,
        results_of=results_of,
        results_seconds=3.0,
    )


# ---------------------------------------------------------------------- the countdowns alone


def test_nothing_runs_without_a_decision_a_drop_or_results() -> None:
    countdowns = Countdowns()
    follow(countdowns, 5.0)
    assert countdowns.next_deadline() is None
    assert countdowns.due(1e9) == Due()


def test_a_turn_timer_runs_out_once_and_a_new_decision_restarts_it() -> None:
    countdowns = Countdowns()
    follow(countdowns, 100.0, {1: 4})
    assert countdowns.next_deadline() == 130.0
    follow(countdowns, 120.0, {1: 4})  # the same decision: its clock keeps running
    assert countdowns.next_deadline() == 130.0
    assert countdowns.due(129.9) == Due()
    assert countdowns.due(130.0) == Due(turn=[1])
    assert countdowns.due(131.0) == Due(), "each deadline is acted on once"
    follow(countdowns, 132.0, {1: 4})  # the default move not applied yet: not again
    assert countdowns.next_deadline() is None
    follow(countdowns, 133.0, {1: 5})
    assert countdowns.next_deadline() == 163.0


def test_a_decision_answered_in_time_drops_its_turn_timer() -> None:
    countdowns = Countdowns()
    follow(countdowns, 0.0, {1: 1, 2: 1})
    follow(countdowns, 10.0, {2: 1})
    assert countdowns.due(30.0) == Due(turn=[2])


def test_without_a_turn_timer_only_the_wait_is_kept() -> None:
    countdowns = Countdowns(nudge_after=10.0, skip_after=30.0)
    follow(countdowns, 50.0, {3: 2}, turn=None)
    assert countdowns.next_deadline() is None
    assert countdowns.waited(3, 49.0) == 0.0
    assert countdowns.waited(3, 62.5) == 12.5
    assert countdowns.waited(4, 62.5) == 0.0, "owes nothing"
    follow(countdowns, 70.0, {3: 3}, turn=None)
    assert countdowns.waited(3, 75.0) == 5.0, "a new decision, a new wait"


def test_a_grace_period_runs_while_the_seat_is_away_and_afresh_after_a_return() -> None:
    countdowns = Countdowns()
    follow(countdowns, 10.0, away=(2,))
    assert countdowns.next_deadline() == 70.0
    follow(countdowns, 40.0, away=(2,))
    assert countdowns.next_deadline() == 70.0
    follow(countdowns, 50.0)  # back
    assert countdowns.next_deadline() is None
    follow(countdowns, 55.0, away=(2,))  # away again: a fresh grace period
    assert countdowns.due(114.9) == Due()
    assert countdowns.due(115.0) == Due(grace=[2])


def test_the_results_pause_runs_once_per_hand() -> None:
    countdowns = Countdowns()
    follow(countdowns, 10.0, results_of=1)
    follow(countdowns, 12.0, results_of=1)
    assert countdowns.next_deadline() == 13.0
    assert countdowns.due(13.0) == Due(next_hand=1)
    follow(countdowns, 14.0, results_of=1)  # still showing: not restarted
    assert countdowns.next_deadline() is None
    follow(countdowns, 15.0)
    follow(countdowns, 20.0, results_of=2)
    assert countdowns.next_deadline() == 23.0


def test_the_earliest_deadline_of_every_kind_is_next() -> None:
    countdowns = Countdowns()
    follow(countdowns, 0.0, {1: 1}, away=(2,), results_of=None)
    assert countdowns.next_deadline() == 30.0
    follow(countdowns, 0.0, {}, away=(2,), results_of=7)
    assert countdowns.next_deadline() == 3.0
    assert countdowns.due(100.0) == Due(grace=[2], next_hand=7)


def test_the_announcement_says_what_changed_and_hides_secrets() -> None:
    countdowns = Countdowns()
    assert countdowns.announcement(0.0, humans=set(), secret=set()) is None
    follow(countdowns, 0.0, {1: 1, 2: 1}, away=(3, 4))
    first = countdowns.announcement(1.0, humans={3}, secret={2})
    assert first is not None and first.changed
    assert first.message == {
        "type": "timers",
        "grace": [[3, 59_000]],  # a bot's seat (4) has no grace period to show
        "turn": [[1, 29_000]],  # 2's revolution question is its holder's secret
        "results": None,
    }
    again = countdowns.announcement(2.0, humans={3}, secret={2})
    assert again is not None and not again.changed  # only for viewers never told
    assert again.message["turn"] == [[1, 28_000]]
    follow(countdowns, 3.0)
    gone = countdowns.announcement(3.0, humans={3}, secret={2})
    assert gone is not None and gone.changed  # every countdown ended: said once
    assert gone.message == {"type": "timers", "grace": [], "turn": [], "results": None}
    assert countdowns.announcement(4.0, humans={3}, secret={2}) is None


# ---------------------------------------------------------------------- the table


def people_table(*, choose: bool = False, **limits: int) -> tuple[Harness, list[Client]]:
    """Four people, the game started (seed 5: the first deal's taxes are owed by two of
    them); they answer only when the test steps the harness, and only with ``choose``."""
    table = Table("Clock", Rules(), seed=5, limits=Limits(**limits))  # type: ignore[arg-type]
    harness = Harness(table, random.Random(1))
    rng = random.Random(2)
    chooser = random_chooser(rng) if choose else None
    people = [harness.join(name, chooser=chooser) for name in ("Ana", "Bo", "Cy", "Di")]
    harness.send(people[0], {"type": "start"})
    table.take_journal()  # as the server does once it is saved
    return harness, people


def test_the_table_starts_the_turn_timer_at_its_first_tick_and_moves_when_it_runs_out() -> None:
    harness, people = people_table(turn_timer_ms=30_000)
    table = harness.table
    assert table.next_deadline() is None, "nothing is dated before the server's clock is"
    owing = sorted(table.pending_players())
    assert len(owing) == 2
    table.tick(100.0)
    assert table.next_deadline() == 130.0
    harness.deliver()
    for person in people:
        timers = person.of_type("timers")
        assert [m["turn"] for m in timers] == [[[player, 30_000] for player in owing]]
    table.tick(129.0)
    assert not table.unsaved() and sorted(table.pending_players()) == owing
    table.tick(130.0)
    assert [(entry["player"], entry.get("by")) for entry in table.journal] == [
        (player, "timer") for player in owing
    ]
    harness.deliver()
    assert all(person.of_type("moved_for") for person in people)
    assert len(people[1].of_type("timers")) == 1, "not told again while the moves are unsaved"
    table.take_journal()
    table.tick(131.0)
    assert table.next_deadline() == 161.0
    harness.deliver()
    assert len(people[1].of_type("timers")) == 2


def test_an_answer_in_time_leaves_no_default_move_behind() -> None:
    harness, people = people_table(choose=True, turn_timer_ms=30_000)
    table = harness.table
    table.tick(0.0)
    owing = set(table.pending_players())
    asked = {p.session.player for p in people if p.session.decision is not None}
    assert harness.step()  # the first of them answers at once
    answered = asked - {p.session.player for p in people if p.session.decision is not None}
    assert len(answered) == 1 and answered <= owing
    table.take_journal()
    table.tick(31.0)
    timed_out = {entry["player"] for entry in table.journal if entry.get("by") == "timer"}
    assert timed_out == owing - answered


def test_a_dropped_seat_gets_a_stand_in_when_its_grace_period_runs_out() -> None:
    harness, people = people_table(grace_period_ms=60_000)
    table = harness.table
    table.tick(10.0)
    harness.drop(people[2])
    table.take_effects()
    table.tick(20.0)
    assert table.next_deadline() == 80.0
    table.tick(79.0)
    assert table.take_effects() == []
    table.tick(80.0)
    (stand_in,) = table.take_effects()
    assert isinstance(stand_in, StartBot) and stand_in.name == "Cy"
    assert table.next_deadline() is None


def test_the_next_hand_is_dealt_when_the_results_pause_runs_out() -> None:
    table = Table("Clock", Rules(), seed=3, results_ms=3_000)
    harness = Harness(table, random.Random(1))
    host = harness.join("Ana", chooser=random_chooser(random.Random(2)))
    harness.start_with_bots(host, 3)
    harness.run_until(table.hand_over)
    table.take_journal()
    table.tick(50.0)
    assert table.next_deadline() == 53.0
    table.tick(52.9)
    assert table.hand_over()
    table.tick(53.0)
    assert not table.hand_over()
    assert [entry["op"] for entry in table.journal] == ["next_hand"]


def test_a_nudge_counts_from_the_tick_that_first_saw_the_decision() -> None:
    harness, people = people_table()
    table = harness.table
    host = people[0]
    table.tick(100.0)
    player = next(p for p in table.pending_players() if p != host.session.player)
    nudge = {"type": "nudge", "player": player}
    table.receive(host.connection, nudge, now=109.0)
    harness.deliver()
    assert host.errors[-1]["code"] == "too_soon"
    table.receive(host.connection, nudge, now=110.0)
    harness.deliver()
    assert host.of_type("nudged") == [
        {"type": "nudged", "player": player, "by": host.session.player}
    ]


def test_a_connection_from_outside_owes_its_hello_by_a_deadline() -> None:
    table = Table("Door", limits=Limits(hello_timeout_ms=10_000))
    silent = table.connect(address="10.0.0.5", now=5.0)
    polite = table.connect(address="10.0.0.6", now=6.0)
    table.connect(internal=True, now=0.0)  # the host's own: never timed
    assert silent is not None and polite is not None
    assert table.next_deadline() == 15.0
    hello = {"type": "hello", "version": PROTOCOL_VERSION, "name": "Bo", "role": "player"}
    table.receive(polite, hello, now=7.0)
    table.take_batch()
    table.tick(14.9)
    assert table.take_batch().effects == []
    table.tick(15.0)
    batch = table.take_batch()
    assert batch.effects == [Close(silent)]
    (refusal,) = batch.outboxes[silent]
    assert refusal["code"] == "timeout" and refusal["fatal"] is True
    assert polite not in batch.outboxes and table.next_deadline() is None


def test_a_hello_deadline_ends_with_the_connection() -> None:
    countdowns = Countdowns()
    countdowns.expect_hello(3, 10.0)
    countdowns.expect_hello(4, 12.0)
    countdowns.no_hello_due(3)
    assert countdowns.next_deadline() == 12.0
    assert countdowns.due(12.0) == Due(hello=[4])
    assert countdowns.next_deadline() is None
