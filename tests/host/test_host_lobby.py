"""The table's life without sockets: joining, the lobby, the host player's commands, leaving,
joining a game in progress, resuming with a token, and every handshake refusal."""

from __future__ import annotations

import random

import pytest
from harness import Client, Harness, random_chooser

from dalmuti_net.engine import Rules
from dalmuti_net.engine.cards import cards_of
from dalmuti_net.host.table import Limits, Table
from dalmuti_net.protocol import PROTOCOL_VERSION
from dalmuti_net.protocol.catalogue import MAX_PLAYER_ID


def lobby(**table_args: object) -> Harness:
    return Harness(Table("Lobby", seed=7, **table_args))  # type: ignore[arg-type]


def error_codes(client: Client) -> list[str]:
    return [error["code"] for error in client.errors]


def table_names(harness: Harness) -> list[str]:
    return [seat.name for seat in harness.table.seats.values()]


# ---------------------------------------------------------------------- joining


def test_a_player_is_welcomed_then_sent_a_snapshot_holding_the_table() -> None:
    harness = lobby()
    ana = harness.join("Ana")
    kinds = [message["type"] for message in ana.received]
    assert kinds == ["welcome", "snapshot"], "no table right after the snapshot that has it"
    seats = ana.received[1]["table"]["players"]
    assert [seat["name"] for seat in seats] == ["Ana"]
    welcome = ana.received[0]
    assert welcome["player"] == ana.session.player is not None
    assert welcome["token"] == harness.table.seats[welcome["player"]].token
    assert welcome["host"] is True, "a headless table's first player is its host player"
    assert ana.received[1]["game"] is None and ana.received[1]["seq"] == 0


def test_a_seat_a_program_plays_is_said_to_be_one() -> None:
    """A `dalmuti bot` (its hello says no person) had no bot mark on any screen: the table
    says which human seats a program plays; not the host's own bots (their kind says it),
    nor a person's seat, nor one the host's process plays (its page, a replay)."""
    harness = lobby()
    ana = harness.join("Ana", person=True)
    harness.join("Exec bot")
    harness.join("Page", person=True, internal=True)
    harness.join("Inside", internal=True)
    harness.send(ana, {"type": "add_bot", "strategy": "random"})
    seats = harness.table.table_message()["players"]
    assert {seat["name"]: seat["program"] for seat in seats} == {
        "Ana": False,
        "Exec bot": True,
        "Page": False,
        "Inside": False,
        "Random bot": False,
    }
    assert ana.of_type("table")[-1]["table"]["players"][1]["program"] is True


def test_duplicate_names_are_made_unique_for_players_and_spectators() -> None:
    harness = lobby()
    harness.join("Ana")
    harness.join("  Ana ")
    watcher = harness.join("Ana", spectator=True)
    harness.join("Ana")
    assert table_names(harness) == ["Ana", "Ana (2)", "Ana (4)"]
    assert harness.table.connections[watcher.connection].name == "Ana (3)"


def test_a_long_duplicate_name_keeps_its_suffix_within_the_length_limit() -> None:
    harness = lobby()
    long_name = "B" * 32
    harness.join(long_name)
    harness.join(long_name)
    second = table_names(harness)[1]
    assert len(second) == 32 and second.endswith(" (2)")


def test_eight_seats_then_table_full_and_the_connection_closes() -> None:
    harness = lobby()
    players = [harness.join(f"P{i}") for i in range(8)]
    assert len(harness.table.seats) == 8
    assert harness.table.table_message()["can_start"] is True
    ninth = harness.join("Late")
    assert error_codes(ninth) == ["table_full"] and ninth.errors[0]["fatal"] is True
    assert ninth.closed
    assert all(not p.closed for p in players)
    assert len(harness.table.seats) == 8


def test_spectators_watch_up_to_the_limit() -> None:
    harness = lobby(limits=Limits(max_spectators=2))
    harness.join("Ana")
    first = harness.join("Eve", spectator=True)
    second = harness.join("Fay", spectator=True)
    third = harness.join("Gil", spectator=True)
    assert first.received[0]["player"] is None and first.received[0]["token"] is None
    assert not first.closed and not second.closed
    assert error_codes(third) == ["table_full"] and third.closed
    assert harness.table.table_message()["spectators"] == 2
    assert len(harness.table.seats) == 1, "spectators take no seat"


def test_spectators_may_chat_but_not_act() -> None:
    harness = lobby()
    ana = harness.join("Ana")
    eve = harness.join("Eve", spectator=True)
    for request in ({"type": "ready", "ready": True}, {"type": "pass"}, {"type": "start"}):
        harness.send(eve, {**request, "id": 9})
        assert eve.last == {
            "type": "error",
            "code": "spectator",
            "message": eve.last["message"],
            "fatal": False,
            "re": 9,
        }
    harness.send(eve, {"type": "chat", "text": "hello all"})
    said = ana.of_type("chat")[-1]
    assert said["player"] is None and said["name"] == "Eve (watching)"
    assert said["text"] == "hello all"


# ---------------------------------------------------------------------- the host player


HOST_ONLY_REQUESTS = [
    {"type": "start"},
    {"type": "add_bot"},
    {"type": "remove_bot", "player": 1},
    {"type": "set_rules", "rules": {"scoring": True}},
    {"type": "kick", "player": 1},
    {"type": "end_table"},
]


@pytest.mark.parametrize("request_", HOST_ONLY_REQUESTS, ids=lambda r: r["type"])
def test_host_only_commands_are_refused_to_other_players(request_: dict[str, object]) -> None:
    harness = lobby()
    host = harness.join("Host")
    bo = harness.join("Bo")
    for name in ("Cy", "Di"):
        harness.join(name)
    journal_before = list(harness.table.journal)
    rules_before = harness.table.rules
    harness.send(bo, {**request_, "id": "x1"})
    assert bo.last["code"] == "not_host" and bo.last["re"] == "x1"
    assert bo.last["fatal"] is False and not bo.closed
    assert harness.table.journal == journal_before
    assert harness.table.rules == rules_before and harness.table.phase == "lobby"
    assert not host.errors


def test_set_rules_changes_only_the_options_given_and_everyone_sees_them() -> None:
    harness = lobby()
    host = harness.join("Host")
    bo = harness.join("Bo")
    harness.send(host, {"type": "set_rules", "rules": {"scoring": True}, "id": 1})
    harness.send(host, {"type": "set_rules", "rules": {"merchant_exchange": True}, "id": 2})
    assert [m["re"] for m in host.of_type("ack")] == [1, 2]
    rules = harness.table.rules
    assert rules.scoring and rules.merchant_exchange and rules.hand_limit == 20
    assert bo.of_type("table")[-1]["table"]["rules"] == rules.to_dict()
    harness.send(host, {"type": "set_rules", "rules": {"scoring": False}})
    assert harness.table.rules == Rules(merchant_exchange=True, hand_limit=20), (
        "scoring off keeps the hand limit: only the options given change"
    )
    harness.send(host, {"type": "set_rules", "rules": {"hand_limit": None}})
    harness.send(host, {"type": "set_rules", "rules": {"scoring": True}})
    assert harness.table.rules.hand_limit == 20, "scoring on with no limit: rule 15's 20"


@pytest.mark.parametrize(
    ("changes", "code"),
    [
        ({"philanthropic_scoring": True}, "bad_rules"),
        ({"no_such_rule": True}, "bad_rules"),
        ({"misdeal_chance": 2.0}, "bad_message"),
        ({"hand_limit": 0}, "bad_message"),
        ({"scoring": "yes"}, "bad_message"),
    ],
)
def test_bad_rules_change_nothing(changes: dict[str, object], code: str) -> None:
    harness = lobby()
    host = harness.join("Host")
    harness.send(host, {"type": "set_rules", "rules": changes, "id": 3})
    assert host.last["code"] == code and host.last["re"] == 3 and not host.closed
    assert harness.table.rules == Rules()


def test_every_built_in_strategy_is_seated_at_the_host_players_request() -> None:
    """`dalmuti host --strategy` knew learned and montecarlo; `add_bot` refused them."""
    harness = lobby()
    host = harness.join("Host", person=True)
    for strategy in ("heuristic", "random", "montecarlo", "learned"):
        harness.send(host, {"type": "add_bot", "strategy": strategy})
    names = [seat.name for seat in harness.table.seats.values() if seat.kind == "bot"]
    assert names == ["Heuristic bot", "Random bot", "Monte Carlo bot", "Learned bot"]
    assert host.errors == []


def test_add_and_remove_bots() -> None:
    harness = lobby()
    host = harness.join("Host")
    harness.send(host, {"type": "add_bot", "strategy": "random", "id": 1})
    harness.send(host, {"type": "add_bot", "name": "Rook"})
    bots = [seat for seat in harness.table.seats.values() if seat.kind == "bot"]
    assert [bot.name for bot in bots] == ["Random bot", "Rook"]
    assert all(bot.connection is not None for bot in bots), "each bot connected as a client"
    harness.send(host, {"type": "add_bot", "strategy": "no-such", "id": 2})
    assert host.last["code"] == "bad_message" and len(harness.table.seats) == 3
    harness.send(host, {"type": "remove_bot", "player": host.session.player, "id": 3})
    assert host.last["code"] == "unknown_player"
    removed = bots[0]
    bot_client = next(c for c in harness.clients if c.connection == removed.connection)
    harness.send(host, {"type": "remove_bot", "player": removed.player, "id": 4})
    assert host.last == {"type": "table", "table": host.last["table"]}
    assert removed.player not in harness.table.seats and bot_client.closed
    harness.send(host, {"type": "remove_bot", "player": removed.player, "id": 5})
    assert host.last["code"] == "unknown_player"


def test_a_table_starts_with_four_to_eight_players_and_only_once() -> None:
    harness = lobby()
    host = harness.join("Host")
    for _ in range(2):
        harness.send(host, {"type": "add_bot"})
    harness.send(host, {"type": "start", "id": 1})
    assert host.last["code"] == "not_enough_players" and harness.table.phase == "lobby"
    harness.send(host, {"type": "add_bot"})
    harness.send(host, {"type": "start", "id": 2})
    assert {"type": "ack", "re": 2} in host.received
    assert harness.table.phase == "playing"
    harness.send(host, {"type": "start", "id": 3})
    assert host.last["code"] == "wrong_phase"
    harness.send(host, {"type": "set_rules", "rules": {"scoring": True}, "id": 4})
    assert host.last["code"] == "wrong_phase"


def test_the_ack_comes_before_what_the_request_caused() -> None:
    harness = lobby()
    host = harness.join("Host")
    mark = len(host.received)
    harness.send(host, {"type": "add_bot", "id": 77})
    assert host.received[mark] == {"type": "ack", "re": 77}
    assert host.received[mark + 1]["type"] == "table"


def test_kick_in_the_lobby_closes_the_connection_and_frees_the_seat() -> None:
    harness = lobby()
    host = harness.join("Host")
    bo = harness.join("Bo")
    harness.send(host, {"type": "kick", "player": host.session.player, "id": 1})
    assert host.last["code"] == "not_host", "the host player cannot be kicked"
    harness.send(host, {"type": "kick", "player": 99, "id": 2})
    assert host.last["code"] == "unknown_player"
    harness.send(host, {"type": "kick", "player": bo.session.player, "id": 3})
    assert bo.errors[-1]["code"] == "kicked" and bo.errors[-1]["fatal"] is True
    assert bo.closed and table_names(harness) == ["Host"]


def test_leave_in_the_lobby_frees_the_seat_and_closes() -> None:
    harness = lobby()
    harness.join("Host")
    bo = harness.join("Bo")
    harness.send(bo, {"type": "leave"})
    assert bo.closed and table_names(harness) == ["Host"]


def test_a_seat_dropped_in_the_lobby_is_held_for_the_grace_period_then_let_go() -> None:
    """A phone that loses its link in the lobby (screen locked, a page reloaded) keeps its
    seat and name for the grace period, shown away to the others and counted down; then
    the seat is let go as by ``leave``. The host terminal's own player keeps theirs."""
    harness = lobby(headless=False)
    seat = harness.table.reserve_seat("Host", host=True)
    host = harness.join("Host", token=seat.token, internal=True)
    bo = harness.join("Bo")
    cy = harness.join("Cy")
    harness.drop(bo)
    assert table_names(harness) == ["Host", "Bo", "Cy"]
    shown = {s["name"]: s["connected"] for s in cy.of_type("table")[-1]["table"]["players"]}
    assert shown == {"Host": True, "Bo": False, "Cy": True}
    harness.table.take_journal()
    harness.table.tick(0.0)
    harness.deliver()
    grace = cy.of_type("timers")[-1]["grace"]
    assert grace == [[bo.session.player, harness.table.limits.grace_period_ms]]
    harness.drop(host)
    wait_out_grace(harness, 0.0)
    assert table_names(harness) == ["Host", "Cy"], "Bo let go; the host terminal's kept"
    assert all(s["name"] != "Bo" for s in cy.of_type("table")[-1]["table"]["players"])
    back = harness.join("Host again", token=seat.token, internal=True)
    assert back.received[0]["player"] == seat.player and back.received[0]["host"]


def test_a_seat_dropped_in_the_lobby_is_taken_back_with_its_token() -> None:
    """Taken back exactly as in a game: the challenge and the proof, the same seat and
    name, no new token; the grace countdown stops."""
    harness = lobby(code="4521")
    harness.join("Host", code="4521")
    bo = harness.join("Bo", code="4521")
    token, player = bo.session.token, bo.session.player
    harness.drop(bo)
    harness.table.take_journal()
    harness.table.tick(10.0)
    back = harness.join("Someone", token=token, code="4521")
    assert not back.errors and back.session.player == player
    welcome = back.of_type("welcome")[0]
    assert welcome["token"] is None and not back.of_type("welcome")[1:]
    assert table_names(harness) == ["Host", "Bo"]
    harness.table.tick(100.0)
    harness.deliver()
    assert table_names(harness) == ["Host", "Bo"], "back: not let go at the grace's end"
    assert back.of_type("timers")[-1]["grace"] == []


def test_leave_lets_a_held_lobby_seat_go_at_once() -> None:
    """A player who comes back and says ``leave`` frees the seat then, not a grace period
    later; its token names nothing after."""
    harness = lobby()
    harness.join("Host")
    bo = harness.join("Bo")
    token = bo.session.token
    harness.drop(bo)
    back = harness.join("Bo", token=token)
    assert not back.errors and back.session.player == bo.session.player
    harness.send(back, {"type": "leave"})
    assert back.closed and table_names(harness) == ["Host"]
    again = harness.join("Bo", token=token)
    assert error_codes(again) == ["bad_token"]


def test_a_start_deals_in_a_held_lobby_seat_and_its_grace_runs_on() -> None:
    """A seat held in the lobby is a seat: the start deals it in, its grace period goes on
    counting (not a new one), and a stand-in plays it when that runs out."""
    harness = lobby()
    host = harness.join("Host")
    people = [harness.join(name) for name in ("Bo", "Cy", "Di")]
    di = people[-1]
    harness.drop(di)
    harness.table.take_journal()
    harness.table.tick(0.0)
    harness.send(host, {"type": "start"})
    assert harness.table.phase == "playing"
    assert di.session.player in harness.table.game.order  # type: ignore[union-attr]
    harness.table.take_journal()
    harness.table.tick(30.0)
    assert harness.table.next_deadline() == harness.table.limits.grace_period_ms / 1000
    assert not [e for e in harness.table.take_effects() if e.__class__.__name__ == "StartBot"]
    harness.table.tick(harness.table.limits.grace_period_ms / 1000)
    assert [e.name for e in harness.table.take_effects()] == ["Di"], "a stand-in for Di"


def wait_out_grace(harness: Harness, since: float) -> float:
    """The server's part: the batch saved, the grace countdown started at ``since``, then
    the clock past the grace period; the time it ends at."""
    harness.table.take_journal()
    harness.table.tick(since)
    after = since + harness.table.limits.grace_period_ms / 1000 + 1
    harness.table.tick(after)
    harness.deliver()
    return after


def test_without_a_host_terminal_the_host_role_passes_on_when_its_player_stays_away() -> None:
    """The first player of a headless table (its host player) closed their terminal in
    the lobby: the seat and the role wait for them for the grace period (PROTOCOL.md,
    Numbering and resumes: "the host player's excepted"), then the role passes to the
    next connected player, or to whoever joins next, so nobody waits for ever."""
    harness = lobby()
    nina = harness.join("Nina")
    bo = harness.join("Bo")
    cy = harness.join("Cy")
    harness.drop(nina)
    assert table_names(harness) == ["Nina", "Bo", "Cy"] and not bo.session.is_host
    now = wait_out_grace(harness, 0.0)
    assert table_names(harness) == ["Bo", "Cy"]
    assert bo.session.is_host and not cy.session.is_host
    harness.drop(bo)
    harness.drop(cy)
    assert table_names(harness) == ["Bo", "Cy"], "both seats wait for their players"
    wait_out_grace(harness, now)
    assert not harness.table.seats and harness.table.phase == "lobby", "not ended"
    dee = harness.join("Dee")
    assert dee.received[0]["host"] is True
    harness.send(dee, {"type": "leave"})  # said, not dropped: at once, the table waits
    assert not harness.table.seats and harness.table.phase == "lobby", "not ended"
    eve = harness.join("Eve")
    assert eve.received[0]["host"] is True
    harness.start_with_bots(eve, 3)
    assert harness.table.phase == "playing" and not eve.errors


def test_without_a_host_terminal_the_host_player_takes_the_lobby_seat_back() -> None:
    """A dropped link does not cost the host player their seat or the role: their token
    takes it back in the lobby (it used to get ``bad_token``), and everyone saw the
    grace period counted down."""
    harness = lobby()
    nina = harness.join("Nina")
    bo = harness.join("Bo")
    token = nina.session.token
    harness.drop(nina)
    harness.table.take_journal()
    harness.table.tick(0.0)
    harness.deliver()
    grace = bo.of_type("timers")[-1]["grace"]
    assert [player for player, _ in grace] == [nina.session.player]
    back = harness.join("Nina", token=token)
    assert not back.errors
    assert back.received[0]["player"] == nina.session.player and back.received[0]["host"]
    assert table_names(harness) == ["Nina", "Bo"] and not bo.session.is_host


def test_coming_and_going_in_the_lobby_never_uses_up_the_player_numbers() -> None:
    """A lobby seat that is let go is forgotten, and its number given again: a client that
    reconnected without a token in a loop once ran the numbers past the protocol's 9999,
    and from then on every client refused the host's `table` message. A dropped seat is
    held for the grace period, so such a loop fills the table for that long at most."""
    harness = lobby()
    harness.join("Host")
    now = 0.0
    for _ in range(60):
        for _ in range(7):
            harness.drop(harness.join("Bo"))
        assert error_codes(harness.join("Bo")) == ["table_full"]
        now = wait_out_grace(harness, now)
        assert table_names(harness) == ["Host"]
    cy = harness.join("Cy")
    assert cy.session.player == 2 and table_names(harness) == ["Host", "Cy"]
    assert max(c.session.player or 0 for c in harness.clients) <= 8


def test_past_the_largest_player_number_a_game_refuses_a_newcomer_not_everyone() -> None:
    harness, _ = game(players=4)
    harness.table._next_player = MAX_PLAYER_ID + 1  # as if ten thousand had come and gone
    newt = harness.join("Newt")
    assert error_codes(newt) == ["table_full"] and newt.closed
    watcher = harness.join("Watcher", spectator=True)
    assert not watcher.errors and harness.run(max_steps=50) == 50, "the game plays on"


@pytest.mark.parametrize("seats_full", [True, False], ids=["eight-seats", "no-number-left"])
def test_add_bot_on_a_full_table_gets_table_full_not_fatal(seats_full: bool) -> None:
    """``table_full`` answering ``add_bot`` keeps the host player's connection open, whether
    the eight seats are taken or no player number is left (PROTOCOL.md, Error codes)."""
    if seats_full:
        harness = lobby()
        host = harness.join("Host")
        for _ in range(7):
            harness.send(host, {"type": "add_bot", "strategy": "random"})
    else:
        harness, host = game(players=4)
        harness.table._next_player = MAX_PLAYER_ID + 1
    harness.send(host, {"type": "add_bot", "strategy": "random", "id": 9})
    assert host.last == {**host.last, "type": "error", "code": "table_full", "re": 9}
    assert host.last["fatal"] is False and not host.closed


def test_the_next_human_becomes_host_player_when_the_host_leaves() -> None:
    harness = lobby()
    host = harness.join("Host")
    bo = harness.join("Bo")
    harness.send(host, {"type": "leave"})
    assert bo.session.is_host
    harness.send(bo, {"type": "add_bot", "id": 1})
    assert {"type": "ack", "re": 1} in bo.received


def test_end_table_in_the_lobby_ends_it_and_refuses_new_seats() -> None:
    harness = lobby()
    host = harness.join("Host")
    harness.send(host, {"type": "end_table"})
    assert harness.table.phase == "ended"
    late = harness.join("Late")
    assert late.errors[-1]["code"] == "table_ended"


# ---------------------------------------------------------------------- in a game


def game(players: int = 5, rules: Rules | None = None, seed: int = 3) -> tuple[Harness, Client]:
    """A started game: a human host player (played by a random chooser) and bots."""
    harness = Harness(Table("Game", rules or Rules(), seed=seed), random.Random(seed))
    host = harness.join("Host", chooser=random_chooser(harness.rng))
    harness.start_with_bots(host, players - 1)
    return harness, host


def seat_newcomer(harness: Harness, newcomer: Client) -> None:
    """Play on until ``newcomer`` (who joined mid-game) is seated in the next hand."""
    game_now = harness.table.game
    assert game_now is not None
    harness.run_until(lambda: newcomer.session.player in game_now.order)


def test_a_newcomer_is_connected_in_every_table_the_others_are_shown() -> None:
    """A newcomer's seat was shared before its connection was attached: every screen saw
    them "offline", then "back", a moment after they joined."""
    harness, host = game()
    before = len(host.received)
    bo = harness.join("Bo", chooser=random_chooser(harness.rng))
    tables = [m["table"] for m in host.received[before:] if m["type"] == "table"]
    seats = [s for table in tables for s in table["players"] if s["player"] == bo.session.player]
    assert seats, "the others are shown the newcomer"
    assert all(seat["connected"] for seat in seats), seats


def test_kick_in_a_game_leaves_before_the_next_hand_and_a_bot_plays_meanwhile() -> None:
    harness, host = game()
    bo = harness.join("Bo", chooser=random_chooser(harness.rng))
    seat_newcomer(harness, bo)
    harness.send(host, {"type": "kick", "player": bo.session.player})
    assert bo.closed and bo.errors[-1]["code"] == "kicked"
    kinds = [m["type"] for m in host.received if "seq" in m]
    assert "player_leaving" in kinds
    stand_ins = harness.table.unplayed_seats()
    assert stand_ins == [(bo.session.player, True)], "a leaver's seat is played at once"
    harness.table.request_stand_in(bo.session.player)  # as the server does
    harness.deliver()
    harness.run_until(harness.table.hand_over)
    harness.step()
    assert bo.session.player not in harness.table.game.order  # type: ignore[union-attr]
    assert bo.session.player not in harness.table.seats
    assert "player_removed" in [m["type"] for m in host.received if "seq" in m]


def test_leave_in_a_game_is_announced_then_the_seat_is_removed_next_hand() -> None:
    harness, host = game()
    leaver = next(s for s in harness.table.seats.values() if s.kind == "bot")
    bot = next(c for c in harness.clients if c.connection == leaver.connection)
    harness.send(bot, {"type": "leave"})
    assert bot.closed
    assert host.of_type("player_leaving")[-1]["player"] == leaver.player
    harness.table.request_stand_in(leaver.player)
    harness.deliver()
    harness.run_until(harness.table.hand_over)
    harness.step()
    assert leaver.player not in harness.table.seats
    assert leaver.player not in harness.table.game.order  # type: ignore[union-attr]


@pytest.mark.parametrize("moment", ["mid-hand", "between hands"])
def test_a_newcomer_joins_as_a_merchant_placed_by_the_greater_dalmuti(moment: str) -> None:
    harness, host = game(players=5)
    table = harness.table
    if moment == "mid-hand":
        harness.run_until(lambda: table.game is not None and table.game.phase.value == "play")
    else:
        harness.run_until(table.hand_over)
    newcomer = harness.join("Newt", chooser=random_chooser(harness.rng))
    me = newcomer.session.player
    assert newcomer.received[0]["player"] == me
    snapshot = newcomer.of_type("snapshot")[0]
    seat = next(s for s in snapshot["table"]["players"] if s["player"] == me)
    assert seat["seated"] is False
    assert host.of_type("player_joining")[-1]["player"] == me
    joining = next(
        i
        for i, m in enumerate(host.received)
        if m["type"] == "player_joining" and m["player"] == me
    )
    named = [
        i
        for i, m in enumerate(host.received[:joining])
        if m["type"] == "table" and any(s["name"] == "Newt" for s in m["table"]["players"])
    ]
    assert named, "the newcomer's name is known before they are said to be joining"
    assert snapshot["game"] is not None and snapshot["game"]["hand"] is None
    assert me in snapshot["game"]["joining"]
    harness.run_until(table.hand_over)
    gd = table.game.order[0]  # type: ignore[union-attr]
    table.begin_next_hand()
    harness.deliver()
    placing = [c for c in harness.clients if not c.closed and c.session.decision is not None]
    assert [c.session.player for c in placing] == [gd], "only the GD places the newcomer"
    decision = placing[0].of_type("decision")[-1]
    assert decision["kind"] == "placement" and decision["newcomer"] == me
    assert decision["positions"] == [2, 3], "between the Dalmutis and the Peons"
    harness.send(placing[0], {"type": "place", "position": 3, "id": 5})
    order = list(table.game.order)  # type: ignore[union-attr]
    assert order.index(me) == 3
    placed = host.of_type("newcomer_placed")[-1]
    assert placed["player"] == me and placed["position"] == 3
    seat = next(s for s in host.of_type("table")[-1]["table"]["players"] if s["player"] == me)
    assert seat["seated"] is True
    assert newcomer.session.observation is not None
    assert newcomer.session.observation.hand is not None, "the newcomer is dealt in"


# ---------------------------------------------------------------------- resuming


def test_resume_with_token_restores_the_seat_with_a_snapshot_and_replaces_the_old() -> None:
    harness, _host = game(players=4)
    bo = harness.join("Bo", chooser=random_chooser(harness.rng))
    seat_newcomer(harness, bo)
    harness.run_until(lambda: bo.session.decision is not None)
    token, me = bo.session.token, bo.session.player
    owed = bo.of_type("decision")[-1]
    back = harness.join("whatever", token=token)
    assert bo.closed and bo.errors[-1]["code"] == "replaced" and bo.errors[-1]["fatal"]
    welcome, snapshot = back.received[0], back.received[1]
    assert welcome["player"] == me and not welcome["host"]
    assert welcome["token"] is None, "a seat taken back is never sent its token again"
    assert snapshot["type"] == "snapshot" and snapshot["you"] == me
    assert snapshot["seq"] == bo.session.seq
    game_now = harness.table.game
    assert game_now is not None
    assert sorted(snapshot["game"]["hand"]) == list(cards_of(game_now.debug_hands()[me]))
    assert snapshot["decision"] == owed
    assert table_names(harness).count("Bo") == 1, "the seat keeps its name"
    harness.choosers[back.connection] = random_chooser(harness.rng)
    hand = game_now.hand_number
    harness.run_until(lambda: game_now.hand_number == hand + 1)
    assert not back.closed and not back.errors, "the resumed seat plays on"


def test_a_dropped_player_comes_back_to_the_same_seat() -> None:
    harness, host = game(players=4)
    bo = harness.join("Bo", chooser=random_chooser(harness.rng))
    seat_newcomer(harness, bo)
    harness.drop(bo)
    seat = harness.table.seats[bo.session.player]  # type: ignore[index]
    assert seat.connection is None and not seat.gone
    assert any(not p["connected"] for p in host.of_type("table")[-1]["table"]["players"])
    back = harness.join("Bo", token=bo.session.token, chooser=random_chooser(harness.rng))
    assert back.received[0]["player"] == bo.session.player
    assert seat.connection == back.connection


def test_bad_token_is_refused_and_closes() -> None:
    harness = lobby()
    harness.join("Host")
    stranger = harness.join("Mallory", token="not-a-token")
    assert error_codes(stranger) == ["bad_token"] and stranger.closed


def test_a_bot_seat_token_is_refused_to_an_outside_connection() -> None:
    harness = lobby()
    host = harness.join("Host")
    harness.send(host, {"type": "add_bot"})
    bot_token = next(s.token for s in harness.table.seats.values() if s.kind == "bot")
    thief = harness.join("Thief", token=bot_token)
    assert error_codes(thief) == ["bad_token"] and thief.closed


def test_join_code_is_required_and_checked() -> None:
    harness = lobby(code="4521")
    missing = harness.join("Ana")
    wrong = harness.join("Bo", code="0000")
    right = harness.join("Cy", code="4521")
    assert error_codes(missing) == ["bad_code"] and missing.closed
    assert error_codes(wrong) == ["bad_code"] and wrong.closed
    assert right.received[0]["type"] == "welcome"
    assert right.received[1]["table"]["code_required"] is True
    assert table_names(harness) == ["Cy"]


def test_version_mismatch_carries_both_versions_and_closes() -> None:
    harness = lobby()
    newer = PROTOCOL_VERSION + 1
    probe = _raw_client(harness)
    harness.send(
        probe,
        {"type": "hello", "version": newer, "name": "Zed", "role": "player", "id": 4},
    )
    error = probe.errors[-1]
    assert error["code"] == "version_mismatch" and error["fatal"] and error["re"] == 4
    assert error["host_version"] == PROTOCOL_VERSION and error["client_version"] == newer
    assert str(newer) in error["message"] and str(PROTOCOL_VERSION) in error["message"]
    assert probe.closed
    assert probe.session.errors[-1].client_version == newer


def _raw_client(harness: Harness) -> Client:
    """A connection that has not said hello yet."""
    from dalmuti_net.client.session import ClientSession

    client = Client(harness.table, ClientSession("raw"))
    harness.clients.append(client)
    return client


def test_the_first_message_must_be_hello_and_only_once() -> None:
    harness = lobby()
    early = _raw_client(harness)
    harness.send(early, {"type": "chat", "text": "hi"})
    assert error_codes(early) == ["not_hello"] and early.closed
    ana = harness.join("Ana")
    harness.send(ana, {**ana.session.hello(), "id": 1})
    assert ana.last["code"] == "already_hello" and not ana.closed


def test_a_stand_in_that_arrives_after_its_player_came_back_is_sent_away() -> None:
    harness, _host = game(players=4)
    bo = harness.join("Bo", chooser=random_chooser(harness.rng))
    seat_newcomer(harness, bo)
    me = bo.session.player
    assert me is not None
    harness.drop(bo)
    harness.table.request_stand_in(me)  # the grace period ran out...
    (start_bot,) = harness.table.take_effects()  # ...and the server starts a bot
    back = harness.join("Bo", token=bo.session.token, chooser=random_chooser(harness.rng))
    late_bot = harness.join("Bo", token=start_bot.token, internal=True)  # type: ignore[union-attr]
    assert late_bot.closed and late_bot.errors[-1]["code"] == "replaced"
    seat = harness.table.seats[me]
    assert seat.connection == back.connection and seat.stand_in is None
    hand = harness.table.game.hand_number  # type: ignore[union-attr]
    harness.run_until(lambda: harness.table.game.hand_number > hand)  # type: ignore[union-attr]
    assert not back.closed and not back.errors


def test_a_rematch_deals_in_a_seat_held_in_its_lobby() -> None:
    """A player who drops in a rematch's lobby keeps the seat as in any lobby: the start
    deals them in, and their token takes the seat back in the game."""
    harness = lobby()
    host = harness.join("Host")
    people = [harness.join(name) for name in ("Bo", "Cy", "Di")]
    harness.send(host, {"type": "start"})
    harness.send(host, {"type": "end_table"})
    harness.send(host, {"type": "rematch"})
    assert harness.table.rematch and harness.table.phase == "lobby"
    di = people[-1]
    token = di.session.token
    harness.drop(di)
    harness.send(host, {"type": "start", "id": 6})
    assert harness.table.phase == "playing" and len(harness.table.game.order) == 4
    back = harness.join("Di", token=token)
    assert not back.errors and back.received[0]["type"] == "welcome"
    assert back.session.player == di.session.player


def test_a_rematch_waits_for_a_held_seat_until_its_grace_runs_out() -> None:
    """A rematch starts once every seated person is ready; one who dropped before saying
    so is waited for the grace period at most, then let go, and the rest start."""
    harness = lobby()
    host = harness.join("Host")
    people = [harness.join(name) for name in ("Bo", "Cy", "Di", "Ed")]
    harness.send(host, {"type": "start"})
    harness.send(host, {"type": "end_table"})
    harness.send(host, {"type": "rematch"})
    harness.drop(people[-1])
    for person in people[:-1]:
        harness.send(person, {"type": "ready", "ready": True})
    assert harness.table.phase == "lobby", "Ed is not ready yet"
    wait_out_grace(harness, 0.0)
    assert harness.table.phase == "playing"
    assert "Ed" not in table_names(harness)
