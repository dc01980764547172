"""The table's changes in sentences, once for every front end (client/model/narration)."""

from __future__ import annotations

from dataclasses import replace

from dalmuti_net.client.model.countdowns import Countdowns
from dalmuti_net.client.model.narration import TableChanges, Told
from dalmuti_net.client.model.views import SeatView, TableView, TimersView
from dalmuti_net.lang.i18n import Translator

EN = Translator("en")
ANA = SeatView(1, "Ana", "human", True, False, True, True, False)
BO = SeatView(2, "Bo", "human", True, False, False, True, False)
CY = SeatView(3, "Cy", "human", True, False, False, True, False)


def name(player: int) -> str:
    return {1: "Ana (you)", 2: "Bo", 3: "Cy", 9: "Quinn"}.get(player, f"#{player}")


def follow(
    changes: TableChanges,
    phase: str,
    *seats: SeatView,
    watching: tuple[str, ...] = (),
    countdowns: Countdowns | None = None,
    grace: bool = False,
) -> list[Told]:
    table = TableView("T", phase, seats, spectators=len(watching), watching=watching)
    return changes.follow(EN, table, 1, name, countdowns or Countdowns(), countdown_follows=grace)


def texts(told: list[Told]) -> list[str]:
    return [line.text for line in told]


def test_what_was_there_on_arrival_is_not_news() -> None:
    changes = TableChanges()
    assert follow(changes, "lobby", ANA, BO, watching=("Eli",)) == []


def test_the_lobby_says_who_sits_down_is_ready_and_leaves() -> None:
    changes = TableChanges()
    follow(changes, "lobby", ANA, BO)
    assert texts(follow(changes, "lobby", ANA, BO, CY)) == ["Cy joins the table."]
    told = follow(changes, "lobby", replace(ANA, ready=True), replace(BO, ready=True), CY)
    assert told == [Told("You are ready.", shown=True), Told("Bo is ready.", shown=True)]
    left = follow(changes, "lobby", replace(ANA, ready=True), CY)
    assert texts(left) == ["Bo leaves the table."]


def test_ones_own_removal_is_not_told_as_a_seat_change() -> None:
    changes = TableChanges()
    follow(changes, "lobby", ANA, BO)
    assert follow(changes, "lobby", BO) == []


def test_in_a_game_drops_returns_and_stand_ins_are_told() -> None:
    changes = TableChanges()
    follow(changes, "playing", ANA, BO)
    assert texts(follow(changes, "playing", ANA, replace(BO, connected=False))) == [
        "Bo is offline."
    ]
    away = replace(BO, connected=False, stand_in=True)
    assert texts(follow(changes, "playing", ANA, away)) == ["A bot stands in for Bo."]
    assert texts(follow(changes, "playing", ANA, BO)) == [
        "Bo is back.",
        "Bo plays again; the bot stands aside.",
    ]
    gone = replace(BO, connected=False, stand_in=True, left=True)
    assert texts(follow(changes, "playing", ANA, gone)) == ["A bot plays out this hand for Bo."]


def test_a_newcomers_first_connection_is_not_a_return() -> None:
    changes = TableChanges()
    follow(changes, "playing", ANA, BO)
    quinn = SeatView(9, "Quinn", "human", False, False, False, False, False)
    assert follow(changes, "playing", ANA, BO, quinn) == []  # the game's event says it
    assert follow(changes, "playing", ANA, BO, replace(quinn, connected=True)) == []
    assert texts(follow(changes, "playing", ANA, BO, quinn)) == ["Quinn is offline."]
    assert texts(follow(changes, "playing", ANA, BO, replace(quinn, connected=True))) == [
        "Quinn is back."
    ]


def test_with_a_grace_period_the_countdown_says_offline_once_per_drop() -> None:
    changes = TableChanges()
    countdowns = Countdowns()
    follow(changes, "playing", ANA, BO, grace=True)
    dropped = replace(BO, connected=False)
    assert follow(changes, "playing", ANA, dropped, grace=True, countdowns=countdowns) == []
    countdowns.update(TimersView(grace=((2, 60_000),)))
    said = changes.grace(EN, countdowns, 2, 1, name)
    assert said == Told("Bo is offline: a bot takes the seat in 60 s.")
    assert changes.grace(EN, countdowns, 2, 1, name) is None
    assert texts(follow(changes, "playing", ANA, BO, grace=True)) == ["Bo is back."]
    assert changes.grace(EN, countdowns, 2, 1, name) is not None  # a new drop


def test_a_lobby_seat_dropped_is_kept_and_its_return_told() -> None:
    """In the lobby a seat outlives its link for the grace period: its drop says how long
    it is kept (no bot stands in there), and its return is told, each drop once."""
    changes = TableChanges()
    countdowns = Countdowns()
    follow(changes, "lobby", ANA, BO, grace=True)
    dropped = replace(BO, connected=False)
    assert follow(changes, "lobby", ANA, dropped, grace=True, countdowns=countdowns) == []
    countdowns.update(TimersView(grace=((2, 60_000),)))
    said = changes.grace(EN, countdowns, 2, 1, name, lobby=True)
    assert said == Told("Bo is offline: the seat is kept for 60 s.")
    assert texts(follow(changes, "lobby", ANA, BO, grace=True)) == ["Bo is back."]
    assert texts(follow(changes, "lobby", ANA, dropped, grace=False)) == ["Bo is offline."]


def test_after_a_host_is_resumed_returns_are_told_not_the_seats_offline() -> None:
    """A host resumed from its save has every seat offline until its player's client is
    back, a second later: the host player's log said "Bo is offline: a bot takes the seat
    in 60 s" for each, and never that they were back."""
    changes = TableChanges()
    countdowns = Countdowns()
    away = replace(BO, connected=False), replace(CY, connected=False)
    assert follow(changes, "playing", ANA, *away, grace=True, countdowns=countdowns) == []
    countdowns.update(TimersView(grace=((2, 60_000), (3, 60_000))))
    assert changes.grace(EN, countdowns, 2, 1, name) is None  # on screen, not news
    assert texts(follow(changes, "playing", ANA, BO, away[1], grace=True)) == ["Bo is back."]
    assert texts(follow(changes, "playing", ANA, BO, CY, grace=True)) == ["Cy is back."]
    # Seen connected since: a drop of theirs is news again.
    assert follow(changes, "playing", ANA, BO, away[1], grace=True) == []
    countdowns.update(TimersView(grace=((3, 60_000),)))
    said = changes.grace(EN, countdowns, 3, 1, name)
    assert said == Told("Cy is offline: a bot takes the seat in 60 s.")


def test_spectators_coming_and_going_are_told() -> None:
    changes = TableChanges()
    follow(changes, "lobby", ANA, watching=("Eli",))
    assert texts(follow(changes, "lobby", ANA, watching=("Fay",))) == [
        "Fay is watching.",
        "Eli stopped watching.",
    ]
