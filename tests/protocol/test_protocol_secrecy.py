"""Over random games, no viewer's messages carry another seat's hidden cards (rule 20)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dalmuti_net.bots.random_bot import random_answer
from dalmuti_net.engine import Game, Rules, observe
from dalmuti_net.protocol import Direction, ViewerFeed, decode, encode, snapshot_message
from dalmuti_net.protocol.feed import hand_events
from dalmuti_net.protocol.messages import decision_message

# The secret events and the fields naming who may see each one.
PARTIES = {
    "cards_dealt": ("player",),
    "tax_cards": ("giver", "receiver"),
    "merchant_exchange_cards": ("giver", "other"),
    "misdeal_replacement": ("peon", "receiver"),
}
SNAPSHOT_EVERY = 9
TABLE = {
    "name": "secrecy",
    "phase": "playing",
    "players": [],
    "spectators": 0,
    "rules": Rules().to_dict(),
    "code_required": False,
    "can_start": False,
}


def _wire(message: dict[str, Any]) -> dict[str, Any]:
    return decode(encode(message)[4:], Direction.TO_CLIENT)


def check_event(message: dict[str, Any], viewer: int | None, game: Game) -> None:
    kind = message["type"]
    if kind in PARTIES:
        parties = {message[field] for field in PARTIES[kind]}
        assert viewer is not None and viewer in parties, (viewer, message)
    if kind == "waiting" and message["phase"] == "revolution":
        # Rule 20: the revolution check names nobody, whoever holds both Jesters.
        assert message["players"] == [], (viewer, message)


def check_snapshot(
    message: dict[str, Any], viewer: int | None, hands: dict[int, list[int]]
) -> None:
    state = message["game"]
    if viewer is None:
        assert state["hand"] is None and state["transfers"] == []
    else:
        # nil while the deal is paused by a misdeal: nobody has seen their cards yet.
        assert state["hand"] in (None, hands[viewer])
        for transfer in state["transfers"]:
            assert viewer in (transfer["giver"], transfer["receiver"])


def play_and_check(seed: int, players: int, misdeal_chance: float, hands_played: int) -> set[str]:
    rng = random.Random(seed)
    seats = list(range(10, 10 + players))
    rules = Rules.all_optional(misdeal_chance=misdeal_chance)
    game = Game(seats, Rules(**{**rules.to_dict(), "hand_limit": hands_played}), seed=seed)
    viewers: list[int | None] = [*seats, None]
    feeds = {viewer: ViewerFeed(viewer) for viewer in viewers}
    seen: set[str] = set()
    # What each viewer was sent since the hand began, as a snapshot's hand_events retells it.
    this_hand: dict[int | None, list[dict[str, Any]]] = {viewer: [] for viewer in viewers}

    def deliver(events: list[Any]) -> None:
        for viewer, feed in feeds.items():
            for message in feed.messages(events):
                wired = _wire(message)
                seen.add(wired["type"])
                check_event(wired, viewer, game)
                if wired["type"] == "hand_started":
                    this_hand[viewer] = []
                if wired["type"] != "waiting":
                    this_hand[viewer].append({k: v for k, v in wired.items() if k != "seq"})

    deliver(game.start())
    for step in range(5000):
        hands = {p: list(_cards(game, p)) for p in seats}
        # Snapshots rebuild from the whole hand's log: sample them to keep the test quick.
        for viewer in viewers if step % SNAPSHOT_EVERY == 0 or game.phase != "play" else ():
            decision = None if viewer is None else game.decision_for(viewer)
            snapshot = _wire(
                snapshot_message(
                    feeds[viewer].seq,
                    viewer,
                    TABLE,
                    observe(game, viewer),
                    decision,
                    None,
                    1,
                    hand_events(game.log, viewer),
                )
            )
            check_snapshot(snapshot, viewer, hands)
            # Someone arriving now is told the hand exactly as a watcher from the start was.
            assert snapshot["hand_events"] == this_hand[viewer], viewer
        pending = game.pending()
        if not pending:
            if game.phase != "hand_over":
                break
            deliver(game.begin_next_hand())
            continue
        player, decision = rng.choice(sorted(pending.items(), key=lambda item: item[0]))
        message = _wire(decision_message(decision, decision_id=1))
        # A decision lists only its own seat's cards: the hand it was dealt, or its own ranks.
        if message["kind"] == "tax":
            assert sorted(message["hand"]) == sorted(hands[player])
        if message["kind"] == "exchange":
            assert set(message["cards"]) <= set(hands[player])
        deliver(game.apply(player, random_answer(decision, rng)))
    return seen


def _cards(game: Game, player: int) -> tuple[int, ...]:
    from dalmuti_net.engine import cards

    return cards.cards_of(game.debug_hands().get(player, cards.EMPTY))


@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(4, 8))
def test_no_viewer_is_sent_another_seats_hidden_cards(seed: int, players: int) -> None:
    play_and_check(seed, players, misdeal_chance=0.5, hands_played=2)


def test_the_random_games_reach_every_secret_event() -> None:
    seen: set[str] = set()
    for seed in range(4):
        seen |= play_and_check(seed, 6 + seed % 3, misdeal_chance=1.0, hands_played=2)
    assert set(PARTIES) <= seen


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(4, 8))
def test_no_viewer_is_sent_another_seats_hidden_cards_long(seed: int, players: int) -> None:
    play_and_check(seed, players, misdeal_chance=0.5, hands_played=4)
