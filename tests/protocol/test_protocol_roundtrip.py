"""Every message type survives encode -> frame -> decode; the engine mapping is lossless."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from protocol_strategies import messages

from dalmuti_net.bots.random_bot import random_answer
from dalmuti_net.engine import EVENT_TYPES, Game, Observation, Rules, observe
from dalmuti_net.engine.errors import Refusal
from dalmuti_net.engine.events import event_to_dict
from dalmuti_net.protocol import Direction, FrameReader, ViewerFeed, decode, encode
from dalmuti_net.protocol.catalogue import EVENT_MESSAGES, MESSAGES, Message
from dalmuti_net.protocol.errors import ErrorCode
from dalmuti_net.protocol.feed import hand_events
from dalmuti_net.protocol.messages import (
    ACTION_TYPES,
    action_from_message,
    action_message,
    decision_from_message,
    decision_message,
    event_from_message,
    observation_dict,
    observation_from_dict,
)

ALL_MESSAGES = sorted(MESSAGES.values(), key=lambda m: (m.direction.value, m.name))


@pytest.mark.parametrize("spec", ALL_MESSAGES, ids=lambda m: f"{m.direction.value}/{m.name}")
@settings(max_examples=15)
@given(data=st.data())
def test_every_message_type_round_trips_through_the_codec(spec: Message, data: Any) -> None:
    message = data.draw(messages(spec))
    frame = encode(message)
    reader = FrameReader()
    (body,) = reader.feed(frame)
    assert decode(body, spec.direction) == message


# ------------------------------------------------------------------ catalogue <-> engine


def test_catalogue_has_exactly_the_engine_events() -> None:
    assert set(EVENT_MESSAGES) == set(EVENT_TYPES)
    event_messages = {m.name for m in MESSAGES.values() if m.is_event}
    assert event_messages == set(EVENT_TYPES)


@pytest.mark.parametrize("name", sorted(EVENT_TYPES))
def test_event_fields_match_the_engine_dataclass(name: str) -> None:
    _, fields = EVENT_MESSAGES[name]
    names = [f.name for f in dataclasses.fields(EVENT_TYPES[name])]
    assert list(fields) == ["seq", *names]
    assert all(fields[n].required for n in names)


def test_every_engine_refusal_is_a_protocol_error_code() -> None:
    assert {r.value for r in Refusal} <= {c.value for c in ErrorCode}


def test_every_action_message_type_is_a_client_message() -> None:
    assert all((Direction.TO_HOST, kind) in MESSAGES for kind in ACTION_TYPES)


# ------------------------------------------------------------------ engine mapping over games


def _play(game: Game, seed: int) -> Any:
    """Drives ``game`` with random bots; yields (events, answered decisions) as they happen."""
    rng = random.Random(seed)
    yield game.start(), {}
    for _ in range(4000):
        pending = game.pending()
        if not pending:
            if game.phase == "hand_over":
                yield game.begin_next_hand(), {}
                continue
            return
        player, decision = min(pending.items())
        action = random_answer(decision, rng)
        yield game.apply(player, action), {player: (decision, action)}


@pytest.mark.parametrize("seed", range(3))
def test_events_decisions_actions_and_observations_map_losslessly(seed: int) -> None:
    rules = Rules.all_optional(misdeal_chance=0.5)
    players = 6 + seed % 3
    seats = list(range(3, 3 + players))
    feeds = {p: ViewerFeed(p) for p in seats}
    folded = {p: Observation(p) for p in seats}
    game = Game(seats, dataclasses.replace(rules, hand_limit=3), seed=seed)
    for events, answered in _play(game, seed):
        for event in events:
            assert (
                event_from_message(
                    decode(encode({"seq": 1, **event_to_dict(event)})[4:], Direction.TO_CLIENT)
                )
                == event
            )
        for player, feed in feeds.items():
            for message in feed.messages(events):
                decoded = decode(encode(message)[4:], Direction.TO_CLIENT)
                event = event_from_message(decoded)
                assert event is not None
                folded[player].apply(event)
        for decision, action in answered.values():
            message = decode(
                encode(decision_message(decision, 500, decision_id=7))[4:], Direction.TO_CLIENT
            )
            assert decision_from_message(message) == decision
            request = decode(encode(action_message(action))[4:], Direction.TO_HOST)
            assert action_from_message(request) == action
    for player in seats:
        # A client that kept state from events alone knows what the host's snapshot says.
        observed = observation_dict(observe(game, player))
        assert observation_dict(folded[player]) == observed
        snapshot_game = decode(
            encode(
                {
                    "type": "snapshot",
                    "seq": 0,
                    "you": player,
                    "table": _TABLE,
                    "game": observed,
                    "decision": None,
                    "hand_events": [event_to_dict(e) for e in hand_events(game.log, player)],
                }
            )[4:],
            Direction.TO_CLIENT,
        )["game"]
        assert observation_dict(observation_from_dict(snapshot_game, player)) == observed


_TABLE = {
    "name": "t",
    "phase": "playing",
    "players": [],
    "spectators": 0,
    "rules": Rules().to_dict(),
    "code_required": False,
    "can_start": False,
}


def test_unknown_event_types_map_to_none() -> None:
    assert event_from_message({"type": "from_the_future", "seq": 3}) is None
