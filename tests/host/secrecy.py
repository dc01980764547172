"""Checks a capture of everything one connection was sent for anything it may not know
(RULES.md rule 20): another seat's cards, tokens or decisions."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from dalmuti_net.client.session import ClientSession
from dalmuti_net.engine.cards import JESTER, cards_of

SECRET_PARTIES = {
    "cards_dealt": ("player",),
    "tax_cards": ("giver", "receiver"),
    "merchant_exchange_cards": ("giver", "other"),
    "misdeal_replacement": ("peon", "receiver"),
}


def strings_in(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from strings_in(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings_in(item)


def check_capture(
    messages: list[dict[str, Any]], me: int | None, others_tokens: set[str]
) -> dict[str, int]:
    """Fails on the first message ``me`` (a player id, or None for a spectator) may not
    see; returns how many messages of each secret kind were checked."""
    session = ClientSession("checker", spectator=me is None)
    session.player = me
    checked: dict[str, int] = {}
    for index, message in enumerate(messages):
        where = f"message {index} to viewer {me}: {message}"
        kind = message["type"]
        leaked = others_tokens.intersection(strings_in(message))
        assert not leaked, f"another seat's token in {where}"
        if kind in SECRET_PARTIES:
            parties = {message[field] for field in SECRET_PARTIES[kind]}
            assert me is not None and me in parties, f"a secret of others in {where}"
        elif kind == "snapshot":
            _check_snapshot(message, me, where)
        elif kind == "decision":
            assert me is not None, f"a decision sent to a spectator: {where}"
            _check_decision(message, session, where)
        elif kind == "waiting" and message["phase"] == "revolution":
            # Every hand's revolution check names nobody: who holds both Jesters is secret.
            assert message["players"] == [], f"Jesters leaked: {where}"
        if kind in SECRET_PARTIES or kind in ("snapshot", "decision"):
            checked[kind] = checked.get(kind, 0) + 1
        session.receive(message)
    return checked


def _check_snapshot(message: dict[str, Any], me: int | None, where: str) -> None:
    assert message["you"] == me, where
    game = message["game"]
    if game is None:
        return
    if me is None:
        assert game["hand"] is None and game["transfers"] == [], where
        assert message["decision"] is None, where
    for transfer in game["transfers"]:
        assert me in (transfer["giver"], transfer["receiver"]), where


def _check_decision(message: dict[str, Any], session: ClientSession, where: str) -> None:
    """The cards a decision lists are this viewer's own, as its own events told it."""
    observation = session.observation
    hand = None if observation is None else observation.hand
    kind = message["kind"]
    if kind not in ("play", "tax", "exchange"):
        return
    assert hand is not None, f"a {kind} decision before this seat was dealt: {where}"
    mine = list(cards_of(hand))
    if kind == "tax":
        assert sorted(message["hand"]) == sorted(mine), where
    elif kind == "exchange":
        assert set(message["cards"]) <= set(mine), where
    else:
        jesters = mine.count(JESTER)
        for card_set in message["sets"]:
            natural = card_set["count"] - card_set["jesters"]
            assert card_set["jesters"] <= jesters, where
            if card_set["rank"] != JESTER:
                assert mine.count(card_set["rank"]) >= natural, where
