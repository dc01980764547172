"""Everything the host sends each connection, over many games, holds nothing that viewer
may not know: no other seat's cards, transfers, decisions or resume token."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from harness import Client, Harness, random_chooser
from secrecy import check_capture

from dalmuti_net.engine import Rules
from dalmuti_net.host.table import Table


def all_optional(hand_limit: int, misdeal_chance: float = 0.5) -> Rules:
    rules = Rules.all_optional(misdeal_chance=misdeal_chance).to_dict()
    return Rules(**{**rules, "hand_limit": hand_limit})


def eventful_game(seed: int) -> tuple[Harness, list[Client]]:
    """A game of 4 to 8 seats with spectators, a newcomer, a drop and resume, a leaver."""
    rng = random.Random(seed)
    table = Table("Secrets", all_optional(hand_limit=3), seed=seed)
    harness = Harness(table, rng)
    humans = rng.randint(1, 4)
    clients = [harness.join(f"H{i}", chooser=random_chooser(rng)) for i in range(humans)]
    clients.append(harness.join("Watcher", spectator=True))
    for _ in range(rng.randint(max(0, 4 - humans), 7 - humans)):
        harness.send(clients[0], {"type": "add_bot", "strategy": "random"})
    harness.send(clients[0], {"type": "start"})
    game = table.game
    assert game is not None
    harness.run_until(lambda: game.hand_number == 2 or table.phase == "ended")
    if len(table.seats) < 8:
        clients.append(harness.join("Late", chooser=random_chooser(rng)))
    if humans > 1:
        dropped = clients[1]
        harness.run_until(lambda: dropped.session.decision is not None or table.phase == "ended")
        harness.drop(dropped)
        clients.append(
            harness.join("Back", token=dropped.session.token, chooser=random_chooser(rng))
        )
    harness.run()
    assert table.phase == "ended"
    return harness, clients


@pytest.mark.parametrize("seeds", [range(0, 12)], ids=["12 games"])
def test_no_connection_is_sent_what_it_may_not_see(seeds: range) -> None:
    checked: Counter[str] = Counter()
    for seed in seeds:
        harness, _ = eventful_game(seed)
        tokens = {seat.token for seat in harness.table.seats.values()}
        for client in harness.clients:
            welcome = client.received[0] if client.received else None
            if welcome is None or welcome["type"] != "welcome":
                continue
            mine = welcome["player"]
            others = tokens - {welcome["token"]}
            checked.update(check_capture(client.received, mine, others))
    for kind in ("cards_dealt", "tax_cards", "merchant_exchange_cards", "misdeal_replacement"):
        assert checked[kind] > 0, f"no {kind} was checked: the games did not exercise it"
    assert checked["decision"] > 100 and checked["snapshot"] > 20


@pytest.mark.slow
def test_no_connection_is_sent_what_it_may_not_see_over_many_games() -> None:
    test_no_connection_is_sent_what_it_may_not_see(range(100, 400))


def test_the_checker_catches_a_leak() -> None:
    """The capture check fails on a frame that shows another seat's cards or token."""
    dealt = {"type": "cards_dealt", "seq": 1, "player": 2, "cards": [1, 2]}
    with pytest.raises(AssertionError):
        check_capture([dealt], 3, set())
    check_capture([dealt], 2, set())
    with pytest.raises(AssertionError):
        check_capture([{"type": "chat", "player": 1, "name": "x", "text": "tok"}], 2, {"tok"})
    own = {"type": "cards_dealt", "seq": 1, "player": 2, "cards": [1, 2, 3]}
    foreign = {"type": "decision", "kind": "tax", "count": 1, "hand": [5, 6, 7], "receiver": 4}
    with pytest.raises(AssertionError):
        check_capture([own, foreign], 2, set())
    check_capture([own, {**foreign, "hand": [1, 2, 3]}], 2, set())
