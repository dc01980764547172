"""One example of every message, for protocol/REFERENCE.md and the golden frames in
``protocol/vectors``.

The examples written by hand below cover every message. Wherever the games recorded from
the host (``protocol/transcripts``) hold a message, the recorded one replaces the one
written by hand: the most informative (fewest empty fields), then the shortest; its
``source`` names the transcript and line. What stays written by hand (requests and
refusals the recorded games never make) says so.

The hand-written examples tell one story: a six-player table ("Friday table"), hand 3,
seen mostly by player 5 (Eli), the top Merchant. Seat order is GD 3 (Chen), LD 1 (Ana),
Merchants 5 (Eli) and 2 (Bo), LP 6 (Rook), GP 4 (Dara); player 7 is a newcomer. Player
ids start at 1, as the host gives them. Every example is checked against the catalogue by
the tests; the bytes shown anywhere are produced by the codec from these values, never
written by hand.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dalmuti_net.protocol.catalogue import EVENT_MESSAGES, PROTOCOL_VERSION, Direction
from dalmuti_net.protocol.resume import client_proof, host_proof, seat_id

Message = dict[str, Any]


@dataclass(frozen=True)
class Example:
    key: str
    """File name of the golden frame: the type, or ``type.variant`` for a second example."""
    direction: Direction
    message: Message
    source: str = "written by hand: the recorded games never send it"
    """Where the example comes from: a transcript's file and line, or by hand."""


def card_set(rank: int, count: int, jesters: int = 0) -> dict[str, int]:
    return {"rank": rank, "count": count, "jesters": jesters}


RULES: Message = {
    "first_deal_revolution": True,
    "stripped_decks": True,
    "scoring": True,
    "hand_limit": 20,
    "philanthropic_scoring": False,
    "merchant_exchange": True,
    "misdeal_chance": 0.1,
}

LIMITS: Message = {
    "max_frame_bytes": 65536,
    "heartbeat_interval_ms": 5000,
    "heartbeat_timeout_ms": 20000,
    "grace_period_ms": 60000,
    "turn_timer_ms": None,
    "max_messages_per_second": 20,
    "max_chat_chars": 500,
}


def _seat(player: int, name: str, kind: str = "human", host: bool = False) -> Message:
    return {
        "player": player,
        "name": name,
        "kind": kind,
        "connected": True,
        "ready": True,
        "host": host,
        "seated": True,
        "stand_in": False,
    }


TABLE: Message = {
    "name": "Friday table",
    "phase": "playing",
    "players": [
        _seat(1, "Ana", host=True),
        _seat(2, "Bo"),
        _seat(3, "Chen"),
        _seat(4, "Dara"),
        _seat(5, "Eli"),
        _seat(6, "Rook", kind="bot"),
    ],
    "spectators": 1,
    "rules": RULES,
    "code_required": False,
    "can_start": False,
    "timing": {
        "turn_timer_ms": 60_000,
        "results_ms": 30_000,
        "nudge_after_ms": 10_000,
        "skip_after_ms": 30_000,
        "bot_pace_ms": 800,
    },
    "rematch": False,
}

ORDER = [3, 1, 5, 2, 6, 4]
ELI_DEALT = [2, 4, 5, 6, 7, 8, 9, 9, 10, 10, 11, 12, 12]
ELI_NOW = [2, 4, 5, 6, 6, 7, 8, 9, 10, 10, 11, 12, 12]

DECISIONS: dict[str, Message] = {
    "play": {
        "decision_id": 31,
        "kind": "play",
        "sets": [card_set(6, 2), card_set(10, 2)],
        "may_pass": True,
        "to_beat": card_set(11, 2),
        "deadline_ms": None,
    },
    "revolution": {"decision_id": 8, "kind": "revolution", "greater": False, "deadline_ms": None},
    "tax": {
        "decision_id": 9,
        "kind": "tax",
        "count": 2,
        "hand": [1, 1, 2, 3, 3, 4, 5, 6, 7, 8, 8, 11, 12, 13],
        "receiver": 4,
        "deadline_ms": 30000,
    },
    "exchange": {
        "decision_id": 10,
        "kind": "exchange",
        "merchants": [2],
        "cards": [2, 4, 5, 6, 7, 8, 9, 10, 11, 12],
        "deadline_ms": None,
    },
    "misdeal": {
        "decision_id": 7,
        "kind": "misdeal",
        "card": 7,
        "intended": 2,
        "peon": 4,
        "deadline_ms": None,
    },
    "placement": {
        "decision_id": 12,
        "kind": "placement",
        "newcomer": 7,
        "positions": [2, 3, 4],
        "deadline_ms": None,
    },
}

OBSERVATION: Message = {
    "hand_number": 3,
    "hand_limit": 20,
    "phase": "play",
    "order": ORDER,
    "scores": [9, 7, 5, 4, 3, 2],
    "counts": [12, 14, 13, 13, 13, 13],
    "hand": ELI_NOW,
    "taxes": True,
    "waiting": [5],
    "to_beat": card_set(11, 2),
    "top_player": 3,
    "passed": [1],
    "trick": [[3, card_set(11, 2)]],
    "played": [11, 11],
    "out": [],
    "revolution": None,
    "misdeal": {"card": 7, "intended": 2, "choice": "peon"},
    "transfers": [{"kind": "exchange", "giver": 5, "receiver": 2, "cards": [9, 6]}],
    "exchanges": 1,
    "joining": [],
    "leaving": [],
}

HAND_SO_FAR: list[Message] = [
    {
        "type": "hand_started",
        "hand": 3,
        "order": ORDER,
        "scores": [9, 7, 5, 4, 3, 2],
        "deck_size": 80,
        "taxes": True,
        "hand_limit": 20,
    },
    {"type": "misdeal_exposed", "card": 7, "intended": 2, "index": 33, "needs_decision": True},
    {"type": "misdeal_resolved", "choice": "peon", "card": 7, "intended": 2, "peon": 4},
    {"type": "cards_dealt", "player": 5, "cards": ELI_DEALT},
    {"type": "deal_finished", "counts": [14, 14, 13, 13, 13, 13]},
    {"type": "tax_paid", "giver": 4, "receiver": 3, "count": 2},
    {"type": "tax_paid", "giver": 3, "receiver": 4, "count": 2},
    {"type": "tax_paid", "giver": 6, "receiver": 1, "count": 1},
    {"type": "tax_paid", "giver": 1, "receiver": 6, "count": 1},
    {"type": "merchant_exchanged", "giver": 5, "other": 2},
    {"type": "merchant_exchange_cards", "giver": 5, "other": 2, "given": 9, "received": 6},
    {"type": "played", "player": 3, "set": card_set(11, 2), "remaining": 12},
    {"type": "passed", "player": 1},
]
"""What Eli (player 5) was told of hand 3 so far, for the snapshot's ``hand_events``."""

RESUME_TOKEN = "q7Vd2mXo9LkT4bR1sWc8Ze"
"""Eli's seat in the examples: its token, and the nonces of the seat asked back, so that the
golden frames of `hello` with `resume`, `challenge` and `prove` are a test vector of the
proofs (PROTOCOL.md, "Security on the LAN")."""
RESUME_TABLE_ID = "3f9c2a7e51d04b68"
RESUME_CLIENT_NONCE = "8b1e4f0c2d7a93556e0f1a2b3c4d5e6f"
RESUME_HOST_NONCE = "c3a1f07d9e2b4c6a8d0e1f2a3b4c5d6e"

TO_HOST_BODIES: list[tuple[str, Message]] = [
    (
        "hello",
        {"version": PROTOCOL_VERSION, "name": "Eli", "role": "player", "software": "minibot 1.0"},
    ),
    (
        "hello.resume",
        {
            "version": PROTOCOL_VERSION,
            "name": "Eli",
            "role": "player",
            "software": "minibot 1.0",
            "resume": {"seat": seat_id(RESUME_TOKEN), "nonce": RESUME_CLIENT_NONCE},
        },
    ),
    (
        "prove",
        {
            "proof": client_proof(
                RESUME_TOKEN, RESUME_TABLE_ID, RESUME_CLIENT_NONCE, RESUME_HOST_NONCE
            )
        },
    ),
    ("about", {}),
    ("heartbeat", {}),
    ("goodbye", {"reason": "closing the laptop"}),
    ("snapshot_request", {"id": 12}),
    ("ready", {"ready": True}),
    ("start", {"id": 1}),
    ("add_bot", {"strategy": "random", "name": "Rook", "id": 2}),
    ("remove_bot", {"player": 6}),
    ("set_rules", {"rules": {"merchant_exchange": True, "misdeal_chance": 0.1}, "id": "rules-1"}),
    ("set_timing", {"turn_timer_ms": 60_000, "results_ms": 30_000, "id": 3}),
    ("kick", {"player": 7}),
    ("nudge", {"player": 4}),
    ("skip", {"player": 4, "id": 4}),
    ("rematch", {}),
    ("end_table", {}),
    ("leave", {}),
    ("chat", {"text": "good game"}),
    ("play", {"set": card_set(6, 2), "decision_id": 31, "id": 31}),
    ("pass", {"decision_id": 31, "id": 32}),
    ("revolution", {"declare": True}),
    ("tax", {"cards": [11, 12]}),
    ("exchange", {"merchant": 2, "card": 9}),
    ("misdeal", {"choice": "peon"}),
    ("place", {"position": 3}),
]

TO_CLIENT_BODIES: list[tuple[str, Message]] = [
    (
        "about",
        {
            "version": PROTOCOL_VERSION,
            "table_id": RESUME_TABLE_ID,
            "table": "Friday table",
            "phase": "playing",
            "code_required": False,
            "software": "dalmuti-net/0.1.0",
        },
    ),
    (
        "challenge",
        {
            "nonce": RESUME_HOST_NONCE,
            "proof": host_proof(
                RESUME_TOKEN, RESUME_TABLE_ID, RESUME_CLIENT_NONCE, RESUME_HOST_NONCE
            ),
        },
    ),
    (
        "welcome",
        {
            "version": PROTOCOL_VERSION,
            "player": 5,
            "token": RESUME_TOKEN,
            "host": False,
            "table": "Friday table",
            "table_id": RESUME_TABLE_ID,
            "software": "dalmuti-net/0.1.0",
            "rules": RULES,
            "limits": LIMITS,
        },
    ),
    (
        "error",
        {
            "code": "not_better",
            "message": "play a better rank than 6, or pass",
            "fatal": False,
            "re": 31,
        },
    ),
    (
        "error.stale_decision",
        {
            "code": "stale_decision",
            "message": "decision 30 is no longer owed; decision 31 is owed now",
            "fatal": False,
            "re": 30,
        },
    ),
    (
        "error.version_mismatch",
        {
            "code": "version_mismatch",
            "message": f"this host speaks protocol version {PROTOCOL_VERSION}, the client 1",
            "fatal": True,
            "host_version": PROTOCOL_VERSION,
            "client_version": 1,
        },
    ),
    (
        "error.table_ended",
        {
            "code": "table_ended",
            "message": "this table has ended",
            "fatal": True,
            "standings": [
                {"name": "Ana", "score": 31, "place": 1},
                {"name": "Bo", "score": 24, "place": 2},
                {"name": "Chen", "score": 24, "place": 2},
                {"name": "Dara", "score": 9, "place": 4},
            ],
        },
    ),
    ("ack", {"re": 31}),
    ("timers", {"grace": [[4, 42000]], "turn": [[2, 17500]], "results": None}),
    ("moved_for", {"player": 2, "by": "timer"}),
    ("nudged", {"player": 4, "by": 1}),
    ("heartbeat", {}),
    ("goodbye", {"reason": "the host player ended the table", "code": "table_ended"}),
    (
        "snapshot",
        {
            "seq": 57,
            "you": 5,
            "table": TABLE,
            "game": OBSERVATION,
            "decision": {"type": "decision", **DECISIONS["play"]},
            "hand_events": HAND_SO_FAR,
        },
    ),
    ("table", {"table": TABLE}),
    ("chat", {"player": 1, "name": "Ana", "text": "good game"}),
    *((f"decision.{kind}", body) for kind, body in DECISIONS.items()),
    ("seating_draw", {"round": 1, "draws": [[1, 7], [2, 3], [3, 1], [4, 12], [5, 7], [6, 13]]}),
    ("seating_settled", {"order": [3, 2, 5, 1, 4, 6]}),
    ("player_joining", {"player": 7}),
    ("player_leaving", {"player": 6}),
    ("player_removed", {"player": 6}),
    ("newcomer_placed", {"player": 7, "position": 3, "chosen_by": 3}),
    (
        "hand_started",
        {
            "hand": 3,
            "order": ORDER,
            "scores": [9, 7, 5, 4, 3, 2],
            "deck_size": 80,
            "taxes": True,
            "hand_limit": 20,
        },
    ),
    ("misdeal_exposed", {"card": 7, "intended": 2, "index": 33, "needs_decision": True}),
    ("misdeal_resolved", {"choice": "peon", "card": 7, "intended": 2, "peon": 4}),
    ("misdeal_replacement", {"peon": 4, "receiver": 2, "card": 10}),
    ("cards_dealt", {"player": 5, "cards": ELI_DEALT}),
    ("deal_finished", {"counts": [14, 14, 13, 13, 13, 13]}),
    ("revolution_declared", {"player": 4, "greater": True}),
    ("roles_mirrored", {"order": [4, 6, 2, 5, 1, 3]}),
    ("taxes_skipped", {"reason": "revolution"}),
    ("tax_paid", {"giver": 4, "receiver": 3, "count": 2}),
    ("tax_cards", {"giver": 4, "receiver": 3, "cards": [3, 5]}),
    ("merchant_exchange_declined", {"player": 5}),
    ("merchant_exchanged", {"giver": 5, "other": 2}),
    ("merchant_exchange_cards", {"giver": 5, "other": 2, "given": 9, "received": 6}),
    ("waiting", {"phase": "play", "players": [5]}),
    ("played", {"player": 3, "set": card_set(11, 2), "remaining": 12}),
    ("passed", {"player": 1}),
    ("trick_won", {"winner": 3, "leader": 3}),
    ("went_out", {"player": 3, "place": 1}),
    (
        "hand_ended",
        {
            "hand": 3,
            "finishing": [3, 5, 1, 2, 4, 6],
            "points": [5, 4, 3, 2, 1, 0],
            "bonus": [0, 0, 0, 0, 0, 0],
            "scores": [14, 9, 10, 6, 3, 3],
        },
    ),
    (
        "table_ended",
        {
            "reason": "hand_limit",
            "standings": [[3, 61, 1], [1, 55, 2], [5, 55, 2], [2, 40, 4], [4, 31, 5], [6, 20, 6]],
        },
    ),
]

_EVENT_SEQ_START = 40


TRANSCRIPTS_DIR = Path(__file__).resolve().parents[1] / "protocol" / "transcripts"


def example_key(message: Message) -> str:
    """The key a recorded message is an example for: its type, or ``decision.KIND``."""
    if message["type"] == "decision":
        return f"decision.{message['kind']}"
    return str(message["type"])


def _emptiness(message: Message) -> int:
    return sum(1 for value in message.values() if value in (None, [], {}, ""))


def recorded() -> dict[tuple[Direction, str], Example]:
    """The best recorded example of each message the transcripts hold."""
    best: dict[tuple[Direction, str], tuple[tuple[int, int], Example]] = {}
    for path in sorted(TRANSCRIPTS_DIR.glob("*.jsonl")):
        if path.stem == "stdio":
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            entry = json.loads(line)
            direction = Direction.TO_HOST if entry["from"] == "client" else Direction.TO_CLIENT
            message = entry["message"]
            key = example_key(message)
            rank = (_emptiness(message), len(entry["hex"]))
            where = f"recorded from the host: transcripts/{path.name}, line {number}"
            if (direction, key) not in best or rank < best[(direction, key)][0]:
                best[(direction, key)] = (rank, Example(key, direction, message, where))
    return {place: example for place, (_, example) in best.items()}


def _examples() -> list[Example]:
    written = [
        Example(key, Direction.TO_HOST, {"type": key.split(".")[0], **body})
        for key, body in TO_HOST_BODIES
    ]
    seq = _EVENT_SEQ_START
    for key, body in TO_CLIENT_BODIES:
        name = key.split(".")[0]
        message: Message = {"type": name}
        if name in EVENT_MESSAGES:
            seq += 1
            message["seq"] = seq
        message.update(body)
        written.append(Example(key, Direction.TO_CLIENT, message))
    found = recorded()
    return [found.get((e.direction, e.key), e) for e in written]


EXAMPLES: list[Example] = _examples()


def example(direction: Direction, key: str) -> Message:
    for item in EXAMPLES:
        if item.direction is direction and item.key == key:
            return item.message
    raise KeyError((direction, key))
