"""Lobby keys and the host player's rule editor: requests, or why not."""

from __future__ import annotations

from typing import Any

import pytest

from dalmuti_net.client.model import intents as do
from dalmuti_net.client.model.client_model import ClientModel, Screen, Send
from dalmuti_net.client.model.rules_menu import (
    RULE_FIELDS,
    not_applicable,
    rule_value_text,
    typed_rule,
)
from dalmuti_net.client.session import ClientSession
from dalmuti_net.client.table_view import TableView
from dalmuti_net.client.ui.lobby import LobbyKeys, RulesEditor
from dalmuti_net.engine import Rules
from dalmuti_net.lang.i18n import LANGUAGES, Translator
from dalmuti_net.lang.text import tidy
from tests import tables

EN = Translator("en")


def seat(
    player: int, kind: str = "human", host: bool = False, ready: bool = False
) -> dict[str, Any]:
    """A lobby seat, not ready unless said."""
    return tables.seat(player, kind=kind, host=host, ready=ready)


def table(*seats: dict[str, Any], rules: dict[str, Any] | None = None) -> TableView:
    return tables.table_view(*seats, rules=rules)


def at(table: TableView, me: int | None, host: bool) -> ClientModel:
    """The client model of ``me`` (None: a spectator) at a lobby ``table``."""
    session = ClientSession("P", spectator=me is None)
    session.player, session.is_host, session.table = me, host, table
    model = ClientModel(EN, session)
    model.screen = Screen.TABLE
    return model


def intend(model: ClientModel, intent: do.Intent) -> dict[str, Any] | str | None:
    """The request an intent sends, or the sentence why not (None: neither)."""
    model.notice = None
    sent = [effect.message for effect in model.intend(intent) if isinstance(effect, Send)]
    if sent:
        return sent[0]
    return None if model.notice is None else model.notice.text


def editor_at(key: str) -> RulesEditor:
    editor = RulesEditor()
    editor.index = [f.key for f in RULE_FIELDS].index(key)
    return editor


def rule_key(key: str, field: str, rules: dict[str, Any]) -> dict[str, Any] | str | None:
    """A key of the rules menu at ``field``, through the model (the host player's)."""
    meant = editor_at(field).press(key, rules)
    assert not isinstance(meant, bool)
    return intend(at(table(seat(1, host=True), rules=rules), 1, True), meant)


def test_ready_toggles() -> None:
    assert intend(at(table(seat(1)), 1, False), do.Ready()) == {"type": "ready", "ready": True}
    ready = table(seat(1, ready=True))
    assert intend(at(ready, 1, False), do.Ready()) == {"type": "ready", "ready": False}
    assert "Spectators" in str(intend(at(ready, None, False), do.Ready()))


def test_only_the_host_player_starts_or_adds_bots() -> None:
    lobby = at(table(seat(1, host=True), seat(2)), 2, False)
    for intent in (do.Start(), do.AddBot(), do.AddBot("random"), do.RemoveBot(1), do.Kick(1)):
        assert intend(lobby, intent) == "Only the host player may do that."


def test_start_needs_four_to_eight_players() -> None:
    few = at(table(seat(1, host=True), seat(2, "bot")), 1, True)
    assert intend(few, do.Start()) == "A table starts with 4 to 8 players; 2 are seated."
    enough = at(table(seat(1, host=True), *(seat(p, "bot") for p in (2, 3, 4))), 1, True)
    assert intend(enough, do.Start()) == {"type": "start"}


def test_the_lobby_keys_mean_intents() -> None:
    keys = LobbyKeys()
    lobby = at(table(seat(1, host=True), seat(2, "bot"), seat(3)), 1, True)
    assert lobby.table is not None
    assert keys.press("b", lobby.table) == do.AddBot()  # the model asks which
    assert keys.press("down", lobby.table) is True
    assert keys.press("x", lobby.table) == do.RemoveBot(2)
    assert keys.press("k", lobby.table) == do.Kick(2)
    assert keys.press("z", lobby.table) is False


def test_bots_added_removed_and_players_kicked() -> None:
    lobby = at(table(seat(1, host=True), seat(2, "bot"), seat(3)), 1, True)
    assert intend(lobby, do.AddBot("heuristic")) == {"type": "add_bot", "strategy": "heuristic"}
    assert intend(lobby, do.AddBot("random")) == {"type": "add_bot", "strategy": "random"}
    assert intend(lobby, do.RemoveBot(2)) == {"type": "remove_bot", "player": 2}
    assert "Only a bot" in str(intend(lobby, do.RemoveBot(3)))  # not a bot
    assert intend(lobby, do.Kick(3)) == {"type": "kick", "player": 3}
    assert "cannot be removed" in str(intend(lobby, do.Kick(1)))
    full = at(table(seat(1, host=True), *(seat(p, "bot") for p in range(2, 9))), 1, True)
    assert intend(full, do.AddBot()) == "All 8 seats are taken."


def test_rules_editor_switches_and_steps() -> None:
    rules = Rules().to_dict()
    assert rule_key("space", "stripped_decks", rules) == {
        "type": "set_rules",
        "rules": {"stripped_decks": True},
    }
    assert rule_key("+", "hand_limit", rules) == {
        "type": "set_rules",
        "rules": {"hand_limit": 20},
    }
    assert rule_key("right", "misdeal_chance", rules) == {
        "type": "set_rules",
        "rules": {"misdeal_chance": 0.05},
    }
    assert rule_key("left", "misdeal_chance", rules) is None  # already 0


def test_philanthropic_scoring_needs_scoring_rule_16() -> None:
    rules = Rules().to_dict()
    assert "turn scoring on first" in str(rule_key("space", "philanthropic_scoring", rules))
    scored = Rules(scoring=True, philanthropic_scoring=True).to_dict()
    assert rule_key("space", "scoring", scored) == {
        "type": "set_rules",
        "rules": {"scoring": False, "philanthropic_scoring": False},
    }
    assert "at least 1 hand" in str(rule_key("-", "hand_limit", {**scored, "hand_limit": 1}))


def test_only_the_host_player_changes_the_rules() -> None:
    guest = at(table(seat(1, host=True), seat(2)), 2, False)
    said = intend(guest, do.SetRule("scoring", True))
    assert said == "Only the host player may change the rules."


def test_rule_values_in_words() -> None:
    assert rule_value_text(EN, "scoring", True) == "on"
    assert rule_value_text(EN, "hand_limit", None) == "no limit"
    assert rule_value_text(EN, "misdeal_chance", 0.25) == "25%"
    assert rule_value_text(Translator("es"), "scoring", False) == "no"


# ----------------------------------------------------------------------------- at a table


def lobby_with_bea(language: str = "en") -> tuple[Any, Any]:
    from ui_support import LocalTable

    from dalmuti_net.client.session import ClientSession

    local = LocalTable(language=language, bots=2)  # Ana, the first to come, is the host
    bea = ClientSession("Bea")
    local._connect(bea)
    local.pump()
    return local, bea


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_start_says_who_is_not_ready_and_the_host_may_start_anyway(language: str) -> None:
    from ui_support import draw

    local, _ = lobby_with_bea(language)
    t = local.ui.t
    assert local.ui.model.not_ready() == ["Bea"]
    screen = draw(local.ui)
    assert "Bea" in screen and t._("not ready") in screen
    local.press("s")
    assert local.table.phase == "lobby" and local.ui.model.question is not None
    assert "Bea" in draw(local.ui) and t._("start anyway") in draw(local.ui)
    local.press("escape")
    assert local.table.phase == "lobby" and local.ui.model.question is None
    local.press("s", "s")
    assert local.sent[-1] == {"type": "start"} and local.table.phase == "playing"


def test_when_everyone_is_ready_start_starts() -> None:
    local, _ = lobby_with_bea()
    local._send(max(local.table.connections), {"type": "ready", "ready": True})  # Bea's
    local.pump()
    assert local.ui.model.not_ready() == []
    local.press("s")
    assert local.ui.model.question is None and local.table.phase == "playing"


def test_numbers_are_typed_in_the_rules_panel() -> None:
    from ui_support import LocalTable, draw

    local = LocalTable()
    local.press("o", *["down"] * 3)  # Hands to play
    local.press("2", "0", "enter")
    assert local.sent[-1] == {"type": "set_rules", "rules": {"hand_limit": 20}}
    local.press("enter", "enter")  # empty: no limit
    assert local.sent[-1] == {"type": "set_rules", "rules": {"hand_limit": None}}
    local.press("7", "x", "backspace", "backspace", "enter")
    assert local.sent[-1]["rules"] == {"hand_limit": None}
    local.press("0", "enter")
    assert "Type a whole number from 1 to 1000." in draw(local.ui)
    local.press(*["down"] * 3, "1", "5", "enter")  # Misdeal chance, in percent
    assert local.sent[-1] == {"type": "set_rules", "rules": {"misdeal_chance": 0.15}}
    assert "15%" in draw(local.ui)


def test_typed_values_are_checked() -> None:
    rules = Rules(scoring=True).to_dict()
    assert typed_rule("hand_limit", "", rules).problem is not None
    assert typed_rule("hand_limit", "1001", rules).problem is not None
    assert typed_rule("misdeal_chance", "101", rules).problem is not None
    assert typed_rule("misdeal_chance", "20%", rules).request == {
        "type": "set_rules",
        "rules": {"misdeal_chance": 0.2},
    }


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_rules_that_cannot_apply_to_the_seats_say_so(language: str) -> None:
    from ui_support import LocalTable, draw

    local = LocalTable(language=language)
    t = local.ui.t
    local.press("o", *["down"] * 5, "space")  # Merchant exchange on, with 4 seated
    needs = t.n_(
        "The Merchant exchange needs 6 players or more: {n} is seated.",
        "The Merchant exchange needs 6 players or more: {n} are seated.",
        4,
    ).format(n=4)
    assert needs in draw(local.ui, 120, 40).replace("\n", "")
    local.press("escape", "b", "1", "b", "1")  # two bots: the first of the question's
    assert needs.split(":")[0] not in draw(local.ui, 120, 40)  # 6 seated: it applies
    assert not_applicable("stripped_decks", 6) is not None
    assert not_applicable("stripped_decks", 5) is None
    assert not_applicable("merchant_exchange", 6) is None


def test_one_cursor_at_a_time() -> None:
    from ui_support import LocalTable, draw

    local = LocalTable()
    assert draw(local.ui).count("▶") == 1  # the seats'
    local.press("o")
    assert draw(local.ui).count("▶") == 1  # the rules panel's only


def test_joins_and_leaves_are_in_everyones_log() -> None:
    from ui_support import draw

    local, _ = lobby_with_bea("es")
    assert "Bea se une a la mesa." in draw(local.ui)
    bea_connection = max(local.table.connections)
    local._send(bea_connection, {"type": "leave"})
    local.pump()
    assert "Bea deja la mesa." in draw(local.ui)
    local.press("down", "x")  # Ana removes a bot
    assert "deja la mesa." in local.ui.model.log[-1].text


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_a_spectator_arriving_mid_hand_gets_the_hand_so_far(language: str) -> None:
    from test_ui_screens import answer
    from ui_support import LocalTable, draw

    from dalmuti_net.client.session import ClientSession
    from dalmuti_net.client.ui.state import ClientUi

    def watcher(name: str) -> tuple[ClientSession, ClientUi, int]:
        session = ClientSession(name, spectator=True)
        return session, ClientUi(t, session, address="test"), local._connect(session)

    def catch_up(session: ClientSession, ui: ClientUi, connection: int) -> list[str]:
        for message in local._take(connection):
            session.receive(message)
            ui.on_message(message)
        return [line.text for line in ui.model.log if line.kind == "event"]

    t = Translator(language)
    local = LocalTable(Rules(scoring=True), seed=5, bots=3)
    early = watcher("Eve")
    local.press("s")
    for hand in (1, 2):
        for _ in range(3):
            answer(local)
        observation = local.session.observation
        assert observation is not None and observation.hand_number == hand
        seen_from_the_start = catch_up(*early)
        begins = t._("Hand {hand} of {limit} begins.").format(hand=hand, limit=20)
        start = seen_from_the_start.index(begins)
        late = watcher(f"Zoe{hand}")
        arrived = catch_up(*late)
        assert arrived == seen_from_the_start[start:]  # the same lines, in the same order
        assert len(arrived) > 4
        assert tidy(arrived[-1]) in draw(late[1], 120, 40)  # as the screen writes it
        while local.session.observation.phase != "hand_over":  # type: ignore[union-attr]
            answer(local)
        local.next_hand()


def test_the_rules_menu_takes_every_key_of_a_burst() -> None:
    """Five ← pressed before the host's answer arrives move the value by five, not one."""
    from ui_support import LocalTable

    from dalmuti_net.client.ui.lobby import RULE_FIELDS
    from dalmuti_net.client.ui.state import Send
    from dalmuti_net.engine import Rules

    local = LocalTable(Rules(scoring=True, hand_limit=20))
    local.press("o", *["down"] * [f.key for f in RULE_FIELDS].index("hand_limit"))
    burst = [effect for _ in range(5) for effect in local.ui.press("left")]
    for effect in burst:  # sent one after the other; the table answers only afterwards
        assert isinstance(effect, Send)
        local.send(effect.message)
    assert local.table.rules.hand_limit == 15
    local.press("left")  # the table has caught up: on from there
    assert local.table.rules.hand_limit == 14


def test_the_start_anyway_question_goes_once_everyone_is_ready() -> None:
    # Seen at an evening's table: the host pressed s while the phone was not ready; the
    # phone then said ready, the lobby's line said "press s to start", and the question
    # still said "Not ready yet: Phone. Start the table anyway?".
    local, _ = lobby_with_bea()
    local.press("s")
    assert local.ui.model.question is not None
    local._send(max(local.table.connections), {"type": "ready", "ready": True})  # Bea's
    local.pump()
    assert local.ui.model.question is None
    local.press("s")
    assert local.sent[-1] == {"type": "start"} and local.table.phase == "playing"
