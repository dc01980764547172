"""The client's consistency checks (client/fits.py) refuse what a hostile host makes up and
never what a real one sends: whole tables, every rule on, comings and goings, snapshots at
any moment, are fed to a ClientSession per seat and one for the spectators."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from dalmuti_net.client.fits import HostUnfit, HostVersion
from dalmuti_net.client.session import KEPT_CHAT, ClientSession
from dalmuti_net.engine import Game, Rules, legal_answers
from dalmuti_net.engine.game import Phase
from dalmuti_net.protocol import PROTOCOL_VERSION, Direction, ViewerFeed, snapshot_message
from dalmuti_net.protocol.codec import decode, encode_body, validate
from dalmuti_net.protocol.feed import hand_events
from dalmuti_net.protocol.messages import Message, decision_message
from tests import tables

LIMITS = {
    "max_frame_bytes": 65536,
    "heartbeat_interval_ms": 5000,
    "heartbeat_timeout_ms": 20000,
    "grace_period_ms": 60000,
    "turn_timer_ms": None,
    "max_messages_per_second": 20,
    "max_chat_chars": 500,
}


def table_dict(players: list[int]) -> dict[str, Any]:
    return tables.table_dict(
        *(tables.seat(p, kind="bot", host=p == players[0]) for p in players),
        name="Fits",
        phase="playing",
        spectators=1,
        can_start=True,
    )


def welcome(player: int | None) -> Message:
    return {
        "type": "welcome",
        "version": PROTOCOL_VERSION,
        "player": player,
        "token": None if player is None else f"t{player}",
        "host": False,
        "table": "Fits",
        "table_id": "fits",
        "software": "test",
        "rules": {},
        "limits": LIMITS,
    }


class Viewers:
    """A session and an event feed per viewer, fed as a host feeds its connections."""

    def __init__(self, game: Game, players: list[int], rng: random.Random) -> None:
        self.game = game
        self.rng = rng
        self.everyone = list(players)
        self.feeds: dict[int | None, ViewerFeed] = {}
        self.sessions: dict[int | None, ClientSession] = {}
        for viewer in [*players, None]:
            self.arrive(viewer)

    def arrive(self, viewer: int | None) -> None:
        session = ClientSession(f"P{viewer}", spectator=viewer is None)
        self.sessions[viewer] = session
        self.feeds[viewer] = ViewerFeed(viewer)
        session.receive(welcome(viewer))
        self.snapshot(viewer)

    def snapshot(self, viewer: int | None) -> None:
        game, feed = self.game, self.feeds[viewer]
        started = game.phase is not Phase.NOT_STARTED
        decision = None if viewer is None else game.decision_for(viewer)
        message = snapshot_message(
            feed.seq,
            viewer,
            table_dict(self.everyone),
            game.observation(viewer) if started else None,
            decision,
            decision_id=feed.seq + 1,
            hand_events=hand_events(game.log, viewer),
        )
        self.deliver(viewer, message)

    def deliver(self, viewer: int | None, message: Message) -> None:
        # Over the wire and back, as a connection would: msgpack, then the schema.
        self.sessions[viewer].receive(decode(encode_body(message), Direction.TO_CLIENT))

    def events(self, events: list[Any]) -> None:
        for viewer, feed in self.feeds.items():
            for message in feed.messages(events):
                self.deliver(viewer, message)
        for player, decision in self.game.pending().items():
            if player in self.sessions:
                message = decision_message(decision, decision_id=self.feeds[player].seq + 1)
                self.deliver(player, message)
        if self.rng.random() < 0.05:  # someone reconnects: a snapshot in the middle of it
            self.snapshot(self.rng.choice(list(self.sessions)))


def play_table(seed: int) -> int:
    rng = random.Random(seed)
    players = list(range(1, rng.randint(4, 8) + 1))
    rules = Rules(
        first_deal_revolution=rng.random() < 0.5,
        stripped_decks=rng.random() < 0.5,
        scoring=True,
        hand_limit=rng.randint(2, 4),
        philanthropic_scoring=rng.random() < 0.5,
        merchant_exchange=rng.random() < 0.7,
        misdeal_chance=rng.choice((0.0, 0.3, 1.0)),
    )
    game = Game(players, rules, seed)
    viewers = Viewers(game, players, rng)
    viewers.events(game.start())
    newcomer = 100
    moves = 0
    while game.phase is not Phase.ENDED:
        if game.phase is Phase.HAND_OVER:
            if rng.random() < 0.3 and len(game.order) + len(game.joining) < 8:
                viewers.everyone.append(newcomer)
                viewers.arrive(newcomer)
                viewers.events(game.request_join(newcomer))
                newcomer += 1
            if rng.random() < 0.2 and len(game.order) > 4:
                viewers.events(game.request_leave(rng.choice(game.order)))
            viewers.events(game.begin_next_hand())
            continue
        player, decision = rng.choice(list(game.pending().items()))
        viewers.events(game.apply(player, rng.choice(legal_answers(decision))))
        moves += 1
    return moves


@pytest.mark.parametrize("seed", range(12))
def test_every_message_of_a_real_table_fits(seed: int) -> None:
    assert play_table(seed) > 50


def started_session() -> ClientSession:
    """A seat in the middle of a hand, as a real host told it."""
    game = Game([1, 2, 3, 4], Rules(), 7)
    viewers = Viewers(game, [1, 2, 3, 4], random.Random(1))
    viewers.events(game.start())
    while game.phase is not Phase.PLAY:
        player, decision = next(iter(game.pending().items()))
        viewers.events(game.apply(player, legal_answers(decision)[0]))
    return viewers.sessions[1]


def event(session: ClientSession, kind: str, **fields: Any) -> Message:
    return {"type": kind, "seq": session.seq + 1, **fields}


@pytest.mark.parametrize(
    ("kind", "fields", "why"),
    [
        (
            "hand_ended",
            {
                "hand": 1,
                "finishing": [1, 2, 3, 4],
                "points": [1],
                "bonus": [0, 0, 0, 0],
                "scores": [0, 0, 0, 0],
            },
            "differ in length",
        ),
        (
            "hand_started",
            {
                "hand": 2,
                "order": [1, 2, 3, 4],
                "scores": [0, 0],
                "deck_size": 80,
                "taxes": True,
                "hand_limit": None,
            },
            "differ in length",
        ),
        ("deal_finished", {"counts": [20, 20]}, "differ in length"),
        ("tax_paid", {"giver": 9, "receiver": 1, "count": 2}, "not two players"),
        (
            "played",
            {"player": 42, "set": {"rank": 5, "count": 1, "jesters": 0}, "remaining": 3},
            "not at the table",
        ),
        (
            "played",
            {"player": 2, "set": {"rank": 5, "count": 1, "jesters": 0}, "remaining": 70},
            "does not hold",
        ),
        (
            "played",
            {"player": 2, "set": {"rank": 13, "count": 2, "jesters": 0}, "remaining": 0},
            "not a set",
        ),
        ("passed", {"player": 1}, "nothing to pass on"),
        ("player_joining", {"player": 2}, "already at the table"),
        ("table_ended", {"reason": "hand_limit", "standings": [[1, 0, 1], [1, 0, 2]]}, "twice"),
    ],
)
def test_an_event_that_does_not_fit_is_refused_and_changes_nothing(
    kind: str, fields: dict[str, Any], why: str
) -> None:
    session = started_session()
    seq, observation = session.seq, session.observation.copy()  # type: ignore[union-attr]
    with pytest.raises(HostUnfit, match=why):
        session.receive(validate(event(session, kind, **fields), Direction.TO_CLIENT))
    assert session.seq == seq and session.observation == observation


def test_a_decision_without_a_legal_answer_is_refused() -> None:
    session = started_session()
    nothing = {"type": "decision", "decision_id": 9, "kind": "play", "sets": [], "may_pass": False}
    with pytest.raises(HostUnfit, match="no legal answer"):
        session.receive(validate({**nothing, "to_beat": None}, Direction.TO_CLIENT))
    unheld = {**nothing, "sets": [{"rank": 1, "count": 1, "jesters": 0}] * 2, "to_beat": None}
    hand = session.observation.hand  # type: ignore[union-attr]
    if hand is not None and hand[1] == 0:
        with pytest.raises(HostUnfit, match="not the ones"):
            session.receive(validate(unheld, Direction.TO_CLIENT))


def test_a_welcome_of_another_version_is_refused_with_both_versions() -> None:
    session = ClientSession("Ana")
    with pytest.raises(HostVersion) as raised:
        session.receive({**welcome(1), "version": PROTOCOL_VERSION + 1})
    assert raised.value.details == {
        "host_version": PROTOCOL_VERSION + 1,
        "client_version": PROTOCOL_VERSION,
    }
    assert session.welcome is None


def test_chat_and_limits_kept_by_a_session_are_bounded() -> None:
    session = ClientSession("Ana")
    session.receive({**welcome(1), "limits": {**LIMITS, "heartbeat_interval_ms": 1}})
    for n in range(KEPT_CHAT * 5):
        session.receive({"type": "chat", "player": 2, "name": "Bo", "text": f"{n}"})
    assert len(session.chat) == KEPT_CHAT and session.chat[-1]["text"] == f"{KEPT_CHAT * 5 - 1}"
    assert session.limit_ms("heartbeat_interval_ms") == 250
    session.welcome = {**welcome(1), "limits": {**LIMITS, "heartbeat_timeout_ms": 2**31}}
    assert session.limit_ms("heartbeat_timeout_ms") == 600_000


def test_a_rule_the_host_leaves_out_is_its_default_not_none() -> None:
    from dalmuti_net.client.plain.narrator import PlainTable
    from dalmuti_net.lang.i18n import Translator

    session = ClientSession("Ana")
    session.receive(welcome(1))
    bare = {**table_dict([1, 2, 3, 4]), "phase": "lobby", "rules": {"scoring": True}}
    session.receive({"type": "table", "table": bare})
    assert session.table is not None
    assert session.table.rules.hand_limit is None
    assert session.table.rules.scoring is True
    assert session.table.rules.misdeal_chance == 0.0
    plain = PlainTable(Translator("en"), session)
    rules = plain._rules_text()
    assert "None" not in rules and "no limit" in rules


def test_a_record_keeps_a_bounded_number_of_messages_before_the_snapshot(
    tmp_path: Path,
) -> None:
    from dalmuti_net.client.recorder import MAX_HELD, Recorder, RecordingSession

    session = RecordingSession("Ana")
    session.recorder = Recorder(tmp_path / "record.jsonl")
    session.receive(welcome(1))
    for n in range(MAX_HELD * 10):  # a host that chats instead of sending the snapshot
        session.receive({"type": "chat", "player": 2, "name": "Bo", "text": f"{n}"})
    snapshot = snapshot_message(0, 1, table_dict([1, 2, 3, 4]), None, None)
    session.receive(decode(encode_body(snapshot), Direction.TO_CLIENT))
    session.recorder.close()
    lines = (tmp_path / "record.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(lines) == 1 + MAX_HELD + 1  # the header, what was held, the snapshot


def test_an_event_out_of_its_turn_is_still_held_to_itself() -> None:
    """Not folded in (a gap, or a number already seen), but a front end still tells it:
    a `hand_ended` whose lists do not align drew a results screen that failed."""
    session = started_session()
    told_again = event(session, "hand_ended", hand=1, finishing=[1, 2, 3, 4])
    told_again.update(seq=session.seq, points=[1, 2, 3, 4], bonus=[0], scores=[0, 0, 0, 0])
    with pytest.raises(HostUnfit, match="differ in length"):
        session.receive(validate(told_again, Direction.TO_CLIENT))
    draw = event(session, "seating_draw", round=1, draws=[[1, 14], [2, 9]])
    with pytest.raises(HostUnfit, match="no card of the deck"):
        session.receive(validate(draw, Direction.TO_CLIENT))


def test_a_play_decision_must_offer_what_the_hand_may_play() -> None:
    """The built-in bots rely on it (the heuristic bot failed with StopIteration on a
    list of sets missing the Jesters' set, and passed where passing was not offered)."""
    from dalmuti_net.engine.cards import playable_sets
    from dalmuti_net.protocol.messages import card_set_dict

    session = started_session()
    observation = session.observation
    assert observation is not None and observation.hand is not None
    to_beat = observation.to_beat
    sets = playable_sets(observation.hand, to_beat)
    decision = {
        "type": "decision",
        "decision_id": 9,
        "kind": "play",
        "sets": [card_set_dict(s) for s in sets],
        "may_pass": to_beat is not None,
        "to_beat": None if to_beat is None else card_set_dict(to_beat),
    }
    session.receive(validate(decision, Direction.TO_CLIENT))  # as a real host sends it
    with pytest.raises(HostUnfit, match="not the ones"):
        session.receive(validate({**decision, "sets": decision["sets"][1:]}, Direction.TO_CLIENT))
    with pytest.raises(HostUnfit, match="passing is allowed"):
        flipped = {**decision, "may_pass": not decision["may_pass"]}
        session.receive(validate(flipped, Direction.TO_CLIENT))
