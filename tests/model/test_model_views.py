"""The host's messages decoded once into typed views (client/model/views.py)."""

from __future__ import annotations

import dataclasses
import subprocess
import sys

import pytest

from dalmuti_net.client.model.views import (
    ChatLine,
    ChatSent,
    ErrorSent,
    EventSent,
    MovedFor,
    MovedForSent,
    NudgedSent,
    OtherSent,
    RulesView,
    TimersSent,
    TimersView,
    TimingView,
    decode_message,
    decode_snapshot,
    decode_table,
    decode_welcome,
    says_host_saves,
)
from dalmuti_net.engine import Rules
from dalmuti_net.engine.events import HandStarted
from tests.tables import seat

SEAT = seat(3, "Ana", ready=False, host=True)


def test_a_table_with_only_its_required_fields_gets_the_documented_defaults() -> None:
    table = decode_table({"name": "T", "phase": "lobby", "players": [SEAT], "rules": {}})
    assert table.lobby and not table.playing
    assert table.rules == RulesView() and table.timing == TimingView()
    assert table.departed == () and table.watching == () and table.heirs == ()
    assert not table.rematch and not table.can_start and table.spectators == 0
    (seat,) = table.players
    assert seat.name == "Ana" and seat.is_human and not seat.is_bot
    assert not seat.left and seat.leave_ends is None
    assert table.host_player == 3 and table.seat(3) is seat and table.seat(4) is None


def test_every_field_of_a_full_table_is_read() -> None:
    table = decode_table(
        {
            "name": "T",
            "phase": "playing",
            "players": [
                {**SEAT, "left": True, "leave_ends": "after_hand"},
                {**SEAT, "player": 5, "name": "Bot", "kind": "bot", "host": False},
            ],
            "spectators": 20,
            "rules": {"scoring": True, "hand_limit": 5, "misdeal_chance": 0},
            "code_required": True,
            "can_start": True,
            "departed": [{"player": 9, "name": "Eli", "kind": "human", "score": 4, "hands": 2}],
            "watching": ["Fay"],
            "heirs": [5],
            "timing": {"turn_timer_ms": 30_000, "results_ms": 10_000},
            "rematch": True,
        }
    )
    assert table.playing and table.code_required and table.can_start and table.rematch
    assert table.players[0].left and table.players[0].leave_ends == "after_hand"
    assert table.players[1].is_bot and table.host_player == 3
    assert table.rules.scoring and table.rules.hand_limit == 5
    assert table.rules.misdeal_chance == 0.0 and isinstance(table.rules.misdeal_chance, float)
    assert table.rules.values()["scoring"] is True and "turn_timer" not in table.rules.values()
    gone = table.departed_seat(9)
    assert gone is not None and (gone.name, gone.score, gone.hands) == ("Eli", 4, 2)
    assert table.watching == ("Fay",) and table.spectators == 20 and table.heirs == (5,)
    assert table.timing == TimingView(turn_timer_ms=30_000, results_ms=10_000)


def test_views_are_frozen() -> None:
    table = decode_table({"name": "T", "phase": "lobby", "players": [SEAT], "rules": {}})
    with pytest.raises(dataclasses.FrozenInstanceError):
        table.phase = "playing"  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        table.players[0].ready = True  # type: ignore[misc]


def test_a_welcome_says_the_seat_and_the_grace_period_when_given() -> None:
    message = {"type": "welcome", "player": 2, "host": False, "table_id": "abc", "limits": {}}
    welcome = decode_welcome(message)
    assert (welcome.player, welcome.host, welcome.table_id) == (2, False, "abc")
    assert welcome.grace_period_ms is None
    message["limits"] = {"grace_period_ms": 60_000}
    assert decode_welcome(message).grace_period_ms == 60_000


def test_a_snapshot_decodes_its_hand_events_once_with_its_marks_and_chat() -> None:
    snapshot = decode_snapshot(
        {
            "type": "snapshot",
            "seq": 4,
            "you": 3,
            "table": {"name": "T", "phase": "playing", "players": [SEAT], "rules": {}},
            "game": None,
            "decision": None,
            "hand_events": [
                {
                    "type": "hand_started",
                    "hand": 1,
                    "order": [3, 4, 5, 6],
                    "scores": [0, 0, 0, 0],
                    "deck_size": 80,
                    "taxes": True,
                    "hand_limit": None,
                },
                {"type": "no_such_event"},
            ],
            "moved_for": [{"at": 0, "player": 3, "by": "stand_in"}],
            "chat": [{"player": None, "name": "Eli", "text": "hi"}],
        }
    )
    first, unknown = snapshot.hand_events
    assert isinstance(first, HandStarted) and first.order == (3, 4, 5, 6)
    assert unknown is None
    assert snapshot.moved_for == (MovedFor(0, 3, "stand_in"),)
    assert snapshot.marks() == {0: (3, "stand_in")}
    assert snapshot.chat == (ChatLine(None, "Eli", "hi"),)
    assert snapshot.you == 3 and snapshot.table.playing


@pytest.mark.parametrize(
    "module",
    [
        "dalmuti_net.client.model.views",
        "dalmuti_net.client.model.narration",
        "dalmuti_net.client.model.seat_marks",
        "dalmuti_net.client.model.table_model",
        "dalmuti_net.client.ui.state",
        "dalmuti_net.client.ui.screen",
        "dalmuti_net.client.ui.replay",
        "dalmuti_net.client.plain.narrator",
        "dalmuti_net.web.view",
    ],
)
def test_the_model_and_what_renders_it_import_no_io_library(module: str) -> None:
    """Sans-I/O: importing the model, or a front end's model-side half, pulls in neither
    trio nor prompt_toolkit nor asyncio, even by the way (a fresh interpreter)."""
    code = (
        "import sys\n"
        f"import {module}\n"
        "io = ('trio', 'prompt_toolkit', 'asyncio')\n"
        "bad = sorted({m.split('.')[0] for m in sys.modules if m.split('.')[0] in io})\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_each_message_is_decoded_once_into_what_the_model_reads() -> None:
    assert decode_message({"type": "moved_for", "player": 2, "by": "timer"}) == MovedForSent(
        2, "timer"
    )
    assert decode_message({"type": "nudged", "player": 2, "by": 0}) == NudgedSent(2, 0)
    error = {"type": "error", "code": "cannot_save", "message": "disk", "fatal": False}
    assert decode_message(error) == ErrorSent("cannot_save", False)
    timers = {"type": "timers", "grace": [[1, 5000]], "turn": [], "results": 9000}
    assert decode_message(timers) == TimersSent(TimersView(((1, 5000),), (), 9000))
    chat = {"type": "chat", "player": 1, "name": "Ana", "text": "hi"}
    assert decode_message(chat) == ChatSent(ChatLine(1, "Ana", "hi"))
    unknown = decode_message({"type": "something_new", "seq": 7})
    assert unknown == EventSent(7, None)
    assert decode_message({"type": "heartbeat"}) == OtherSent("heartbeat")


def test_only_a_heartbeat_or_cannot_save_leaves_a_save_stall_in_place() -> None:
    assert not says_host_saves(OtherSent("heartbeat"))
    assert not says_host_saves(ErrorSent("cannot_save", False))
    assert says_host_saves(ErrorSent("rate_limited", False))
    assert says_host_saves(OtherSent("decision"))
    assert says_host_saves(EventSent(3, None))


def test_a_rule_left_out_of_a_table_is_the_engines_default() -> None:
    """PROTOCOL.md: every rule option is optional; the view fills in the engine's default
    (the session once merged ``RULE_DEFAULTS`` for this)."""
    assert RulesView().values() == dataclasses.asdict(Rules())
