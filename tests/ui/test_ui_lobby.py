"""Lobby keys and the host player's rule editor: requests, or why not."""

from __future__ import annotations

from typing import Any

from dalmuti_net.client.ui.i18n import Translator
from dalmuti_net.client.ui.lobby import RULE_FIELDS, LobbyKeys, RulesEditor, rule_value_text
from dalmuti_net.engine import Rules

EN = Translator("en")


def seat(
    player: int, kind: str = "human", host: bool = False, ready: bool = False
) -> dict[str, Any]:
    return {
        "player": player,
        "name": f"P{player}",
        "kind": kind,
        "connected": True,
        "ready": ready,
        "host": host,
        "seated": True,
        "stand_in": False,
    }


def table(*seats: dict[str, Any]) -> dict[str, Any]:
    return {"players": list(seats), "rules": Rules().to_dict(), "phase": "lobby"}


def editor_at(key: str) -> RulesEditor:
    editor = RulesEditor()
    editor.index = [f.key for f in RULE_FIELDS].index(key)
    return editor


def test_ready_toggles() -> None:
    keys = LobbyKeys()
    assert keys.press("r", table(seat(1)), 1, False).request == {"type": "ready", "ready": True}
    ready = table(seat(1, ready=True))
    assert keys.press("r", ready, 1, False).request == {"type": "ready", "ready": False}
    problem = keys.press("r", ready, None, False).problem
    assert problem is not None and "Spectators" in problem.show(EN)


def test_only_the_host_player_starts_or_adds_bots() -> None:
    keys = LobbyKeys()
    for key in "sbBxk":
        result = keys.press(key, table(seat(1, host=True), seat(2)), 2, False)
        assert result.problem is not None and result.request is None


def test_start_needs_four_to_eight_players() -> None:
    keys = LobbyKeys()
    few = table(seat(1, host=True), seat(2, "bot"))
    problem = keys.press("s", few, 1, True).problem
    assert problem is not None
    assert problem.show(EN) == "A table starts with 4 to 8 players; 2 are seated."
    enough = table(seat(1, host=True), *(seat(p, "bot") for p in (2, 3, 4)))
    assert keys.press("s", enough, 1, True).request == {"type": "start"}


def test_bots_added_removed_and_players_kicked() -> None:
    keys = LobbyKeys()
    lobby = table(seat(1, host=True), seat(2, "bot"), seat(3))
    assert keys.press("b", lobby, 1, True).request == {"type": "add_bot", "strategy": "heuristic"}
    assert keys.press("B", lobby, 1, True).request == {"type": "add_bot", "strategy": "random"}
    keys.press("down", lobby, 1, True)
    assert keys.press("x", lobby, 1, True).request == {"type": "remove_bot", "player": 2}
    keys.press("down", lobby, 1, True)
    assert keys.press("x", lobby, 1, True).problem is not None  # not a bot
    assert keys.press("k", lobby, 1, True).request == {"type": "kick", "player": 3}
    keys.press("down", lobby, 1, True)  # wraps to the host player
    problem = keys.press("k", lobby, 1, True).problem
    assert problem is not None and "cannot be removed" in problem.show(EN)
    full = table(seat(1, host=True), *(seat(p, "bot") for p in range(2, 9)))
    assert keys.press("b", full, 1, True).problem is not None


def test_rules_editor_switches_and_steps() -> None:
    rules = Rules().to_dict()
    assert editor_at("stripped_decks").press("space", rules).request == {
        "type": "set_rules",
        "rules": {"stripped_decks": True},
    }
    assert editor_at("hand_limit").press("+", rules).request == {
        "type": "set_rules",
        "rules": {"hand_limit": 20},
    }
    assert editor_at("misdeal_chance").press("right", rules).request == {
        "type": "set_rules",
        "rules": {"misdeal_chance": 0.05},
    }
    assert editor_at("misdeal_chance").press("left", rules).request is None  # already 0


def test_philanthropic_scoring_needs_scoring_rule_16() -> None:
    rules = Rules().to_dict()
    problem = editor_at("philanthropic_scoring").press("space", rules).problem
    assert problem is not None and "turn scoring on first" in problem.show(EN)
    scored = Rules(scoring=True, philanthropic_scoring=True).to_dict()
    assert editor_at("scoring").press("space", scored).request == {
        "type": "set_rules",
        "rules": {"scoring": False, "philanthropic_scoring": False},
    }
    problem = editor_at("hand_limit").press("-", {**scored, "hand_limit": 1}).problem
    assert problem is not None


def test_rule_values_in_words() -> None:
    assert rule_value_text(EN, "scoring", True) == "on"
    assert rule_value_text(EN, "hand_limit", None) == "no limit"
    assert rule_value_text(EN, "misdeal_chance", 0.25) == "25%"
    assert rule_value_text(Translator("es"), "scoring", False) == "no"
