"""Issue 33, points 1 and 4, in the table screen's model and its drawing: the clocks in the
host player's rules menu and the lobby's summary, auto-pass, nudge and skip, results that
wait for Enter, the last hand's points before the standings, the rematch, and the words of
a host that closes a table that ended."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from ui_support import LocalTable, draw

from dalmuti_net.bots.random_bot import random_answer
from dalmuti_net.client.model.rules_menu import RULE_FIELDS
from dalmuti_net.client.model.table_model import AUTO_PASSED, only_pass
from dalmuti_net.client.table_view import DepartedView
from dalmuti_net.client.ui.config import Preferences
from dalmuti_net.client.ui.state import AUTO_PASS_PAUSE_S, AUTO_PASSING, Send, Wake
from dalmuti_net.engine import Rules
from dalmuti_net.lang.i18n import LANGUAGES, Translator


def to_option(table: LocalTable, key: str) -> None:
    table.press("o")
    for _ in RULE_FIELDS:
        if table.ui.rules_editor.field.key == key:
            return
        table.press("down")
    raise AssertionError(f"no option {key}")


def test_the_host_player_sets_the_turn_timer_and_the_pause_in_the_rules_menu() -> None:
    table = LocalTable()
    lobby = draw(table.ui)
    # The summary says the clocks (this table was made without a turn timer).
    assert "No turn timer; results stay until everyone is ready, 3 seconds at most." in lobby
    to_option(table, "turn_timer")
    assert "Turn timer (the default move when it runs out)" in draw(table.ui)
    table.press("right")
    assert table.sent[-1] == {"type": "set_timing", "turn_timer_ms": 15_000}
    table.press("right")
    assert table.sent[-1] == {"type": "set_timing", "turn_timer_ms": 20_000}
    table.press("4", "5", "enter")  # typed
    assert table.sent[-1] == {"type": "set_timing", "turn_timer_ms": 45_000}
    table.press("left")
    assert table.sent[-1] == {"type": "set_timing", "turn_timer_ms": 30_000}
    table.press("down", "right")  # the pause: 3 s -> the next step, 5 s
    assert table.sent[-1] == {"type": "set_timing", "results_ms": 5_000}
    table.press("o")
    lobby = draw(table.ui)
    assert "Turn timer: 30 seconds per decision; results stay until everyone is ready," in lobby
    to_option(table, "turn_timer")
    table.press("0", "enter")  # 0: no turn timer
    assert table.sent[-1] == {"type": "set_timing", "turn_timer_ms": None}
    assert table.table.limits.turn_timer_ms is None


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_the_clock_options_fit_the_rules_panel(language: str) -> None:
    table = LocalTable(language=language)
    t = Translator(language)
    table.press("o")
    screen = draw(table.ui)
    for option in RULE_FIELDS[-2:]:
        assert t._(option.label) in screen, screen


def first_only_pass(table: LocalTable) -> bool:
    decision = table.session.decision
    return decision is not None and only_pass(decision)


def play_until_ended(table: LocalTable, limit: int = 2000) -> None:
    for _ in range(limit):
        observation = table.session.observation
        if observation is not None and observation.ended is not None:
            return
        if table.table.hand_over():
            table.next_hand()
            continue
        chooser = table.ui.model.choosing
        decision = table.session.decision
        if chooser is None or decision is None:
            table.pump()
            continue
        action = random_answer(decision, table.rng)
        table.send(table.ui.model._answer_message(action))
    raise AssertionError("the table did not end")


def test_auto_pass_passes_when_passing_is_all_there_is_and_a_turns_it_off() -> None:
    table = LocalTable(Rules(hand_limit=1), seed=4)
    table.press("s")
    play_until_ended(table)
    said = [line.text for line in table.ui.model.log]
    auto = table.ui.t._(AUTO_PASSED)
    assert auto in said, said  # it happened, without a key
    # Said once: the pass's own event is that line (no "You pass." after it).
    after = [said[at + 1] for at, text in enumerate(said) if text == auto]
    assert "You pass." not in after, after
    # Off: the same kind of decision waits for the player's p.
    table = LocalTable(Rules(hand_limit=1), seed=4)
    table.press("a")
    assert not table.ui.model.preferences.auto_pass
    assert "a auto-pass off" not in draw(table.ui)  # the lobby has no hint for it
    table.press("s")
    for _ in range(2000):
        if first_only_pass(table):
            break
        decision = table.session.decision
        if decision is None:
            if table.table.hand_over():
                table.next_hand()
            table.pump()
            continue
        table.send(table.ui.model._answer_message(random_answer(decision, table.rng)))
    assert first_only_pass(table)
    assert table.ui.model.choosing is not None  # asked, not answered
    assert "a auto-pass off" in draw(table.ui)
    table.press("p")
    assert table.sent[-1]["type"] == "pass"


def until_auto_pass_pauses(table: LocalTable) -> None:
    """Play (answering at random) until auto-pass asks for its pause."""
    table.hold_wakes = True
    for _ in range(2000):
        if table.wakes:
            return
        decision = table.session.decision
        if decision is None or table.ui.model.choosing is None:
            if table.table.hand_over():
                table.next_hand()
            table.pump()
            continue
        table.send(table.ui.model._answer_message(random_answer(decision, table.rng)))
    raise AssertionError("no decision was only a pass")


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_auto_pass_pauses_so_the_player_sees_what_beat_them(language: str) -> None:
    table = LocalTable(Rules(hand_limit=1), seed=4, language=language)
    t = table.ui.t
    table.press("s")
    until_auto_pass_pauses(table)
    assert table.wakes == [Wake(AUTO_PASS_PAUSE_S)]
    sent = len(table.sent)
    table.pump()
    assert len(table.sent) == sent and not any(m["type"] == "pass" for m in table.sent[-1:])
    assert first_only_pass(table)  # still owed: nothing went out yet
    screen = draw(table.ui)
    assert t._(AUTO_PASSING) in screen  # said on screen, during the pause
    assert t._(AUTO_PASSED) not in [line.text for line in table.ui.model.log]
    assert table.ui.model.choosing is None  # no keys for it, and no bell
    effects = table.ui.wake()
    assert len(effects) == 1 and isinstance(effects[0], Send)
    assert effects[0].message["type"] == "pass"
    assert effects[0].message["decision_id"] == table.session.decision_id
    logged = table.ui.model.logged
    table.send(effects[0].message)
    said = [line.text for line in list(table.ui.model.log)[logged - table.ui.model.logged :]]
    # The pass is told once, as the host takes it: not then "You pass." too.
    assert said[0] == t._(AUTO_PASSED) and t._("You pass.") not in said, said
    assert t._(AUTO_PASSING) not in draw(table.ui)
    assert table.ui.wake() == []  # once


def test_a_in_auto_passs_pause_gives_the_decision_back() -> None:
    table = LocalTable(Rules(hand_limit=1), seed=4)
    table.press("s")
    until_auto_pass_pauses(table)
    assert table.ui.model.choosing is None
    table.press("a")  # off, in the pause
    assert not table.ui.model.preferences.auto_pass
    assert table.ui.model.choosing is not None  # the player's to answer
    assert table.ui.wake() == []  # the pause passes nothing now
    table.press("p")
    assert table.sent[-1]["type"] == "pass"


def test_the_auto_pass_preference_is_remembered(tmp_path: Path) -> None:
    preferences = Preferences(tmp_path)
    assert preferences.auto_pass  # on by default
    preferences.set_auto_pass(False)
    assert not Preferences(tmp_path).auto_pass
    Preferences(tmp_path).set_auto_pass(True)
    assert Preferences(tmp_path).auto_pass


def test_the_host_player_nudges_and_skips_whoever_the_table_waits_for() -> None:
    table = LocalTable(Rules(hand_limit=1), seed=4)
    table.press("s")
    observation = table.session.observation
    assert observation is not None
    bot = next(p for p in observation.order if p != table.session.player)
    observation.waiting = (bot,)  # as if the bot had not answered yet
    name = table.ui.model.name_of(bot)
    assert "n nudge" in draw(table.ui)
    effects = table.ui.press("n")
    assert effects == [Send({"type": "nudge", "player": bot})]
    assert table.ui.press("N") == []
    assert f"Skip {name}?" in draw(table.ui)
    assert table.ui.press("y") == [Send({"type": "skip", "player": bot})]
    # The nudged player hears of it; everyone else's log says so too.
    me = table.session.player
    assert me is not None
    table.ui.on_message({"type": "nudged", "player": me, "by": bot})
    assert table.ui.model.nudged
    assert f"{table.ui.model.seat_name(bot)} nudges you: the table is waiting for you." in draw(
        table.ui
    )


def test_results_stay_until_enter_and_say_how_long_at_most() -> None:
    table = LocalTable(Rules(scoring=True, hand_limit=2), seed=3)
    table.press("s")
    for _ in range(2000):
        if table.table.hand_over():
            break
        decision = table.session.decision
        if decision is None:
            table.pump()
            continue
        table.send(table.ui.model._answer_message(random_answer(decision, table.rng)))
    assert table.table.hand_over()
    table.ui.on_message({"type": "timers", "grace": [], "turn": [], "results": 30_000})
    screen = draw(table.ui)
    assert "Hand 1 is over" in screen
    assert "The next hand is dealt once everyone is ready, or in 30 seconds;" in screen
    assert "Enter ready for the next hand  Esc back to the table" in screen  # the keys
    table.press("enter")
    assert table.sent[-1] == {"type": "ready", "ready": True}
    assert not table.table.hand_over()  # the only person read them: dealt at once


def test_the_last_hands_points_come_before_the_standings_then_a_rematch() -> None:
    table = LocalTable(Rules(scoring=True, hand_limit=1), seed=2)
    table.press("s")
    play_until_ended(table)
    screen = draw(table.ui, 80, 30)
    assert "Hand 1 is over" in screen and "Points" in screen
    assert "Final standings" not in screen
    table.press("enter")
    screen = draw(table.ui, 80, 30)
    assert "Final standings" in screen
    assert "r rematch" in screen
    table.press("r")
    assert table.sent[-1] == {"type": "rematch"}
    lobby = draw(table.ui)
    assert table.ui.model.table is not None and table.ui.model.table.rematch
    assert "The host player offers a rematch with the same seats." in lobby
    assert table.session.observation is None and not table.ui.model.ended
    table.press("s")
    assert table.ui.model.table is not None and table.ui.model.table.playing
    assert "Hand 1" in draw(table.ui)


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_a_host_that_closes_a_table_that_ended_says_it_ended(language: str) -> None:
    table = LocalTable(Rules(hand_limit=1), seed=2, language=language)
    t = Translator(language)
    table.press("s")
    play_until_ended(table)
    goodbye = {"type": "goodbye", "reason": "the table has ended", "code": "table_ended"}
    table.session.receive(goodbye)
    table.ui.on_message(goodbye)
    screen = draw(table.ui)
    assert t._("The table has ended, and the host has closed it.") in screen
    assert t._("The host stopped the table.") not in screen
    # Even a host of an earlier version, which said it stopped, is told as ended.
    table = LocalTable(Rules(hand_limit=1), seed=2, language=language)
    table.press("s")
    play_until_ended(table)
    table.session.receive({"type": "goodbye", "reason": "stop", "code": "shutting_down"})
    table.ui.on_message({"type": "goodbye", "reason": "stop", "code": "shutting_down"})
    assert t._("The table has ended, and the host has closed it.") in draw(table.ui)


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_the_closed_tables_standings_keep_who_left_as_the_table_screen_does(
    language: str,
) -> None:
    """The standings on the screen after the host closed an ended table are the table
    screen's own (one presentation rule): a player who left is there, marked."""
    table = LocalTable(Rules(scoring=True, hand_limit=1), seed=2, language=language)
    t = Translator(language)
    table.press("s")
    play_until_ended(table)
    assert table.session.table is not None
    gone = DepartedView(99, "Carla", "human", 3, 1)
    table.session.table = replace(table.session.table, departed=(gone,))
    table.press("enter")  # past the last hand's results, to the final standings
    during = [line for line in draw(table.ui, 80, 30).splitlines() if "Carla" in line]
    goodbye = {"type": "goodbye", "reason": "the table has ended", "code": "table_ended"}
    table.session.receive(goodbye)
    table.ui.on_message(goodbye)
    after = [line for line in draw(table.ui, 80, 30).splitlines() if "Carla" in line]
    assert len(during) == len(after) == 1
    for line in (during[0], after[0]):
        assert line.split()[:3] == ["-", "Carla", "3"], line
        assert t.n_("left after {n} hand", "left after {n} hands", 1).format(n=1) in line
