"""Every message of the protocol, with its fields, types, ranges and direction.

This is the single source of truth: the codec validates against it, the JSON Schema in
``protocol/schema.json`` and the field tables in protocol/REFERENCE.md are generated from it, and
tests hold the engine's events against it.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from ..engine.rules import MAX_HAND_LIMIT, MAX_PLAYERS
from .errors import MAX_ERROR_CHARS, ErrorCode
from .resume import NONCE_CHARS, PROOF_CHARS, SEAT_ID_CHARS
from .spec import (
    Bool,
    Codes,
    Either,
    Enum,
    Field,
    Float,
    Hex,
    Int,
    List,
    Nullable,
    Obj,
    Str,
    Tagged,
)

PROTOCOL_VERSION = 2
DEFAULT_PORT = 7341
"""The TCP port a host listens on unless told otherwise (or that one is busy)."""

MAX_FRAME_BYTES = 64 * 1024
MAX_NAME_CHARS = 32
MAX_CHAT_CHARS = 500
MAX_TOKEN_CHARS = 64
MAX_CODE_CHARS = 32
MAX_TABLE_NAME_CHARS = 63
MAX_TABLE_ID_CHARS = 64


GOODBYE_CODES = ("shutting_down", "table_ended", "host_left")


class Direction(StrEnum):
    TO_HOST = "client_to_host"
    TO_CLIENT = "host_to_client"


# --------------------------------------------------------------------- shared shapes

MAX_PLAYER_ID = 9999
"""The largest number a player may have: a host gives ids from 1 and never a larger one."""
PLAYER = Int(1, MAX_PLAYER_ID)
CARD = Int(1, 13)
CARDS = List(CARD, 80)
PLAYERS = List(PLAYER, MAX_PLAYERS)
SCORE = Int(0, 1_000_000)
SCORES = List(SCORE, MAX_PLAYERS)
REQUEST_ID = Either((Int(0, 2**31 - 1), Str(64)))
DECISION_ID = Int(1, 2**53)
ANSWER_TYPES = ("play", "pass", "revolution", "tax", "exchange", "misdeal", "place")
"""The requests that answer a decision."""

CARD_SET = Obj(
    name="CardSet",
    fields={
        "rank": Field(
            Int(1, 13), "The rank the set counts as: 1 best .. 12, 13 for Jesters alone."
        ),
        "count": Field(Int(1, 14), "How many cards."),
        "jesters": Field(Int(0, 2), "How many of them are Jesters (wild)."),
    },
)

RULES = Obj(
    name="Rules",
    fields={
        "first_deal_revolution": Field(Bool(), "Rule 13: the first hand has no taxes.", False),
        "stripped_decks": Field(
            Bool(),
            "Rule 14: 5 players play without the 12s, 4 players without the 12s and 11s.",
            False,
        ),
        "scoring": Field(Bool(), "Rule 15: points per hand and a hand limit.", False),
        "hand_limit": Field(
            Nullable(Int(1, MAX_HAND_LIMIT)),
            "Hands before the table ends; nil plays on (with scoring, nil means 20).",
            False,
        ),
        "philanthropic_scoring": Field(Bool(), "Rule 16 (needs scoring).", False),
        "merchant_exchange": Field(Bool(), "Rule 17 (needs 6+ players to matter).", False),
        "misdeal_chance": Field(Float(0.0, 1.0), "Rule 18: chance per deal, 0 is off.", False),
    },
)

SEAT = Obj(
    name="Seat",
    fields={
        "player": Field(PLAYER, "The player's id, stable for the whole table."),
        "name": Field(Str(MAX_NAME_CHARS, 1), "Display name, unique at the table."),
        "kind": Field(Enum(("human", "bot")), "Who plays the seat."),
        "connected": Field(Bool(), "Whether the seat's client is connected now."),
        "ready": Field(
            Bool(),
            "Lobby: the player said they are ready. Between hands: they have read the"
            " results (see `ready`).",
        ),
        "host": Field(Bool(), "This seat is the host player's."),
        "seated": Field(Bool(), "In the game now (false while waiting to join next hand)."),
        "stand_in": Field(Bool(), "A bot plays this seat until its player returns."),
        "program": Field(
            Bool(),
            "A program plays this `human` seat: the last connection to take it said no"
            " `person` in its `hello` (`dalmuti bot`, an SDK bot, one's own). Clients mark"
            " it as a bot. False (or absent) for a person, and for the host's own bots"
            " (`kind` `bot`).",
            False,
        ),
        "left": Field(
            Bool(),
            "The player gave up the seat (left or was kicked): a stand-in plays out the hand,"
            " and the seat is removed before the next one (listed in `departed` then).",
            False,
        ),
        "leave_ends": Field(
            Nullable(Enum(("now_no_host", "now_too_few", "after_hand"))),
            "What this seat's `leave` would do to the table now: `now_no_host` ends it at"
            " once (the host player's, with no `heirs`), `now_too_few` too (and fewer than"
            " four players would be left anyway), `after_hand` ends it when the hand is over"
            " (fewer than four players would be left: rule 12); nil (or absent) ends nothing.",
            False,
        ),
    },
)

DEPARTED = Obj(
    name="Departed",
    fields={
        "player": Field(PLAYER, "The player's id."),
        "name": Field(Str(MAX_NAME_CHARS, 1), "Their name."),
        "kind": Field(Enum(("human", "bot")), "Who played the seat."),
        "score": Field(SCORE, "Their total when they left."),
        "hands": Field(Int(0, 1_000_000), "Hands they played (a stand-in finished the last)."),
    },
)
MAX_DEPARTED = 64
MAX_WATCHING = 16
MAX_SNAPSHOT_CHAT = 20
SNAPSHOT_CHAT_CHARS = 2000
"""A snapshot's chat: at most this many lines, of at most this many characters (names and
texts) in all, so that it never crowds a snapshot out of its frame."""

LIMITS = Obj(
    name="Limits",
    fields={
        "max_frame_bytes": Field(Int(1, 2**31), "Largest frame either side may send."),
        "heartbeat_interval_ms": Field(Int(1, 2**31), "How often each side sends a heartbeat."),
        "heartbeat_timeout_ms": Field(Int(1, 2**31), "Silence after which the host hangs up."),
        "grace_period_ms": Field(
            Int(0, 2**31), "How long a dropped seat is kept before a bot plays it."
        ),
        "turn_timer_ms": Field(Nullable(Int(1, 2**31)), "Time allowed per decision, nil = none."),
        "max_messages_per_second": Field(Int(1, 10_000), "Sustained rate before rate_limited."),
        "max_chat_chars": Field(Int(1, 10_000), "Longest chat text."),
    },
)

MAX_TURN_TIMER_MS = 3_600_000
MIN_TURN_TIMER_MS = 5_000
MAX_RESULTS_MS = 600_000
MAX_BOT_PACE_MS = 60_000
TIMING = Obj(
    name="Timing",
    fields={
        "turn_timer_ms": Field(
            Nullable(Int(1, 2**31)),
            "Time allowed per decision (then the host makes the default move); nil = none."
            " (`set_timing` asks for 5 s to 1 h; a host may run other values.)",
        ),
        "results_ms": Field(
            Int(0, 2**31),
            "Between hands, the longest the results stay: the next hand is dealt as soon as"
            " every human seat in the game (connected, or held through a dropped link for its"
            " grace period) has sent `ready`, or when this runs out.",
        ),
        "nudge_after_ms": Field(
            Int(0, 2**31),
            "How long a player owing a decision is waited for before the host player may"
            " `nudge` them.",
        ),
        "skip_after_ms": Field(
            Int(0, 2**31),
            "How long before the host player may `skip` them (the default move is made).",
        ),
        "bot_pace_ms": Field(
            Int(0, 2**31),
            "How long each answer of the host's own bots takes at least (from its decision's"
            " arrival) while a person plays a seat (connected, not a stand-in) or watches: a"
            " connection whose `hello` said `person`; 0 = never paced. Absent from older"
            " hosts.",
            False,
        ),
    },
)

TABLE = Obj(
    name="Table",
    fields={
        "name": Field(Str(MAX_TABLE_NAME_CHARS), "The table's name."),
        "phase": Field(Enum(("lobby", "playing", "ended")), "Where the table is."),
        "players": Field(List(SEAT, 16), "Everyone with a seat, including newcomers."),
        "spectators": Field(Int(0, 10_000), "How many spectators watch."),
        "rules": Field(RULES, "The rules in force."),
        "code_required": Field(Bool(), "Whether `hello` must carry the join code."),
        "can_start": Field(Bool(), "Lobby: enough players are seated to start."),
        "departed": Field(
            List(DEPARTED, MAX_DEPARTED),
            "Players who left during the game and were removed from the seating, oldest "
            "first (the latest 64): results and final standings still name them.",
            False,
        ),
        "watching": Field(
            List(Str(MAX_NAME_CHARS, 1), MAX_WATCHING),
            "The spectators' names, the first 16 to come (`spectators` counts them all).",
            False,
        ),
        "heirs": Field(
            List(PLAYER, 16),
            "Who would take over as host player if the host player left now, in the host's"
            " order: the first, unless `leave.heir` names another of them. Empty (or absent)"
            " when nobody could: see the host player's `leave_ends`.",
            False,
        ),
        "timing": Field(
            TIMING,
            "The table's clocks, set by the host player in the lobby (`set_timing`).",
            False,
        ),
        "rematch": Field(
            Bool(),
            "Lobby: the host player offered a rematch with the seats of the table that"
            " ended; it starts as soon as every seated human is `ready`.",
            False,
        ),
    },
)


def _event(doc: str, **fields: Field) -> tuple[str, dict[str, Field]]:
    seq = Field(Int(1, 2**53), "This viewer's event number: 1, 2, 3... with no gaps.")
    return doc, {"seq": seq, **fields}


def _f(
    spec: Int | Str | Hex | Bool | Enum | List | Nullable | Obj | Either | Float, doc: str
) -> Field:
    return Field(spec, doc)


EVENT_MESSAGES: dict[str, tuple[str, dict[str, Field]]] = {
    "seating_draw": _event(
        "One round of the seating draw (rule 4); later rounds are tied players redrawing.",
        round=_f(Int(1, 1000), "1 for the first draw."),
        draws=_f(List(List(Int(1, MAX_PLAYER_ID), 2, 2), MAX_PLAYERS), "[player, card] pairs."),
    ),
    "seating_settled": _event(
        "The first seating: Greater Dalmuti first, clockwise.", order=_f(PLAYERS, "Seat order.")
    ),
    "player_joining": _event(
        "A newcomer will be seated as a Merchant when the next hand starts (rule 12).",
        player=_f(PLAYER, "The newcomer."),
    ),
    "player_leaving": _event(
        "A player leaves: removed before the next hand.", player=_f(PLAYER, "Who.")
    ),
    "player_removed": _event("A leaver is removed from the seating.", player=_f(PLAYER, "Who.")),
    "newcomer_placed": _event(
        "A newcomer is seated; position counts seats clockwise from the GD (0).",
        player=_f(PLAYER, "The newcomer."),
        position=_f(Int(0, MAX_PLAYERS), "Their place in the order."),
        chosen_by=_f(Nullable(PLAYER), "The GD who chose, or nil when there was no choice."),
    ),
    "hand_started": _event(
        "A hand begins; everything public about the table. Clients may reset their state here.",
        hand=_f(Int(1, 1_000_000), "Hand number, from 1."),
        order=_f(PLAYERS, "Seat order, GD first; roles follow from it."),
        scores=_f(SCORES, "Scores, aligned with order."),
        deck_size=_f(Int(1, 80), "Cards in this hand's deck (80, or 68/57 stripped)."),
        taxes=_f(Bool(), "False on a first-deal-revolution hand."),
        hand_limit=_f(Nullable(Int(1, MAX_HAND_LIMIT)), "Hands the table plays, nil = no limit."),
    ),
    "misdeal_exposed": _event(
        "A card was exposed while dealing (rule 18).",
        card=_f(CARD, "The exposed card."),
        intended=_f(PLAYER, "Who it was dealt to."),
        index=_f(Int(0, 79), "Its place in the deal, 0 = first card."),
        needs_decision=_f(Bool(), "Whether the GD now decides (false: it goes to `intended`)."),
    ),
    "misdeal_resolved": _event(
        "Where the exposed card went: follows every `misdeal_exposed`, decided or not"
        " (`intended` when `needs_decision` was false).",
        choice=_f(Enum(("intended", "peon")), "The GD's decision."),
        card=_f(CARD, "The exposed card."),
        intended=_f(PLAYER, "The intended receiver."),
        peon=_f(PLAYER, "The Greater Peon (the dealer)."),
    ),
    "misdeal_replacement": _event(
        "Secret, to the GP and the intended receiver: the card drawn from the GP's hand.",
        peon=_f(PLAYER, "The Greater Peon."),
        receiver=_f(PLAYER, "The intended receiver."),
        card=_f(CARD, "The card that moved."),
    ),
    "cards_dealt": _event(
        "Secret, to one player: their whole hand as dealt, after any misdeal (a"
        " `misdeal_replacement` is already in it).",
        player=_f(PLAYER, "You."),
        cards=_f(CARDS, "Your cards, best first."),
    ),
    "deal_finished": _event(
        "Everyone's card count after the deal.",
        counts=_f(SCORES, "Aligned with `hand_started.order` (also if roles mirror later)."),
    ),
    "revolution_declared": _event(
        "A holder of both Jesters declared a revolution: no taxes (rule 7).",
        player=_f(PLAYER, "Who declared."),
        greater=_f(Bool(), "A Greater Revolution (declared by the GP): roles mirror."),
    ),
    "roles_mirrored": _event(
        "After a Greater Revolution: the new seating; the new GD leads.",
        order=_f(PLAYERS, "New seat order, GD first."),
    ),
    "taxes_skipped": _event(
        "No taxes (and no merchant exchange) this hand.",
        reason=_f(Enum(("revolution", "first_deal")), "Why."),
    ),
    "tax_paid": _event(
        "A tax transfer happened (rule 8): to everyone, without the cards.",
        giver=_f(PLAYER, "Who gave."),
        receiver=_f(PLAYER, "Who received."),
        count=_f(Int(1, 2), "How many cards."),
    ),
    "tax_cards": _event(
        "Secret, to the giver and receiver: the cards of a tax transfer.",
        giver=_f(PLAYER, "Who gave."),
        receiver=_f(PLAYER, "Who received."),
        cards=_f(List(CARD, 2, 1), "The cards, in the order the giver named them."),
    ),
    "merchant_exchange_declined": _event(
        "The top Merchant declined the exchange (rule 17).", player=_f(PLAYER, "The top Merchant.")
    ),
    "merchant_exchanged": _event(
        "The top Merchant gave `other` one card and drew one back: to everyone, no cards.",
        giver=_f(PLAYER, "The top Merchant."),
        other=_f(PLAYER, "The other Merchant."),
    ),
    "merchant_exchange_cards": _event(
        "Secret, to the two Merchants: the cards exchanged.",
        giver=_f(PLAYER, "The top Merchant."),
        other=_f(PLAYER, "The other Merchant."),
        given=_f(CARD, "The card the top Merchant gave."),
        received=_f(CARD, "The card drawn at random from the other's hand."),
    ),
    "waiting": _event(
        "Who owes a decision now. After every deal comes the revolution check: a `waiting`"
        " with phase `revolution` and no players, sent to everyone whether or not anyone"
        " holds both Jesters (rule 20); only a holder who may declare gets a `decision`.",
        phase=_f(Enum(("placement", "misdeal", "revolution", "taxes", "play")), "What is decided."),
        players=_f(PLAYERS, "Who owes it; always empty for `revolution`."),
    ),
    "played": _event(
        "A player played a set.",
        player=_f(PLAYER, "Who."),
        set=_f(CARD_SET, "What."),
        remaining=_f(Int(0, 80), "Cards they hold now."),
    ),
    "passed": _event("A player passed.", player=_f(PLAYER, "Who.")),
    "trick_won": _event(
        "The trick is over (everyone else passed).",
        winner=_f(PLAYER, "Who made the last play."),
        leader=_f(PLAYER, "Who leads next (the winner, or the next player with cards)."),
    ),
    "went_out": _event(
        "A player played their last card.",
        player=_f(PLAYER, "Who."),
        place=_f(Int(1, MAX_PLAYERS), "1 = first out, next hand's GD."),
    ),
    "hand_ended": _event(
        "The hand is over; `finishing` is next hand's seating. Lists align with it.",
        hand=_f(Int(1, 1_000_000), "Hand number."),
        finishing=_f(PLAYERS, "Finishing order, first out first."),
        points=_f(SCORES, "Points this hand (rule 15), 0 without scoring."),
        bonus=_f(SCORES, "Philanthropic points this hand (rule 16)."),
        scores=_f(SCORES, "Totals after the hand."),
    ),
    "table_ended": _event(
        "The table is over.",
        reason=_f(Enum(("hand_limit", "host_ended", "too_few_players")), "Why."),
        standings=_f(
            List(List(Int(0, 1_000_000), 3, 3), MAX_PLAYERS),
            "[player, score, place] best first; equal scores share a place.",
        ),
    ),
}

MAX_HAND_EVENTS = 1024
"""The most events a snapshot's ``hand_events`` carries: more than a hand ever has (at
most 80 plays, 7 passes after each); if comings and goings made more, the latest."""
HAND_EVENT = Tagged(
    "type",
    {
        name: Obj(fields={key: f for key, f in fields.items() if key != "seq"})
        for name, (_, fields) in EVENT_MESSAGES.items()
        if name != "waiting"
    },
    name="Event",
)
"""An event as a snapshot retells it: its message without ``seq``."""

DECISION_KINDS: dict[str, tuple[str, dict[str, Field]]] = {
    "play": (
        "Play a set or pass (rule 9).",
        {
            "sets": _f(List(CARD_SET, 1024), "Every set you may play."),
            "may_pass": _f(Bool(), "False when you lead."),
            "to_beat": _f(Nullable(CARD_SET), "The set on the table, nil on a lead."),
        },
    ),
    "revolution": (
        "You hold both Jesters: declare a revolution or not (rule 7).",
        {
            "greater": _f(Bool(), "You are the Greater Peon: it would be a Greater Revolution."),
        },
    ),
    "tax": (
        "Choose the cards you give your Peon (rule 8).",
        {
            "count": _f(Int(1, 2), "How many cards to give."),
            "hand": _f(CARDS, "Your cards as dealt: choose from these."),
            "receiver": _f(PLAYER, "Your Peon."),
        },
    ),
    "exchange": (
        "Top Merchant: decline, or give a Merchant one card (rule 17).",
        {
            "merchants": _f(PLAYERS, "Merchants you may name."),
            "cards": _f(CARDS, "Cards you may give (one of each rank you hold)."),
        },
    ),
    "misdeal": (
        "Greater Dalmuti: where does the exposed card go (rule 18)?",
        {
            "card": _f(CARD, "The exposed card."),
            "intended": _f(PLAYER, "Its intended receiver."),
            "peon": _f(PLAYER, "The Greater Peon."),
        },
    ),
    "placement": (
        "Greater Dalmuti: seat the newcomer (rule 12).",
        {
            "newcomer": _f(PLAYER, "Who is joining."),
            "positions": _f(List(Int(0, MAX_PLAYERS), MAX_PLAYERS, 1), "Where they may sit."),
        },
    ),
}

DECISION = Either(
    tuple(
        Obj(
            name="Decision_" + kind,
            fields={
                "decision_id": Field(
                    DECISION_ID,
                    "This seat's decision number: 1, 2, 3... for the whole table, the same"
                    " in a snapshot, after a reconnect or a host restart. An answer may name it.",
                ),
                "kind": Field(Enum((kind,)), doc),
                **fields,
                "deadline_ms": Field(
                    Nullable(Int(0, 2**31)), "Time left with a turn timer.", False
                ),
            },
        )
        for kind, (doc, fields) in DECISION_KINDS.items()
    )
)

OBSERVATION = Obj(
    name="Observation",
    fields={
        "hand_number": _f(Int(0, 1_000_000), "The current hand, 0 before the first."),
        "hand_limit": _f(Nullable(Int(1, MAX_HAND_LIMIT)), "Hands the table plays."),
        "phase": _f(
            Str(32),
            "not_started before the first hand; dealing from hand_started to the hand's first"
            " waiting; then the phase of the latest waiting (misdeal, revolution, taxes, play;"
            " placement between hands); hand_over after hand_ended; ended after table_ended.",
        ),
        "order": _f(
            PLAYERS, "Seat order, GD first; between hands already the next hand's seating."
        ),
        "scores": _f(SCORES, "Aligned with order."),
        "counts": _f(SCORES, "Cards held, aligned with order."),
        "hand": _f(Nullable(CARDS), "Your cards; nil for a spectator or before the deal."),
        "taxes": _f(
            Bool(), "Whether taxes are paid this hand: false once taxes_skipped (a revolution)."
        ),
        "waiting": _f(PLAYERS, "Who owes a decision."),
        "to_beat": _f(Nullable(CARD_SET), "The set on the table."),
        "top_player": _f(Nullable(PLAYER), "Who played it."),
        "passed": _f(PLAYERS, "Who passed since the last play, in seat order."),
        "trick": _f(List(List(Either((PLAYER, CARD_SET)), 2, 2), 1024), "[player, set] so far."),
        "played": _f(CARDS, "Every card played this hand."),
        "out": _f(PLAYERS, "Who went out, in the order they went out."),
        "revolution": _f(
            Nullable(
                Obj(
                    fields={
                        "player": Field(PLAYER, "Who declared."),
                        "greater": Field(Bool(), "Greater?"),
                    }
                )
            ),
            "The revolution this hand, if any.",
        ),
        "misdeal": _f(
            Nullable(
                Obj(
                    fields={
                        "card": Field(CARD, "Exposed card."),
                        "intended": Field(PLAYER, "Intended receiver."),
                        "choice": Field(
                            Nullable(Enum(("intended", "peon"))), "nil while undecided."
                        ),
                    }
                )
            ),
            "This hand's misdeal, if any.",
        ),
        "transfers": _f(
            List(
                Obj(
                    fields={
                        "kind": Field(
                            Enum(("tax", "exchange", "misdeal")), "What moved the cards."
                        ),
                        "giver": Field(PLAYER, "Who gave (the top Merchant for an exchange)."),
                        "receiver": Field(
                            PLAYER, "Who received (the other Merchant for an exchange)."
                        ),
                        "cards": Field(
                            List(CARD, 2, 1), "The cards; for an exchange [given, received]."
                        ),
                    }
                ),
                16,
            ),
            "Card movements this hand whose cards you saw.",
        ),
        "exchanges": _f(Int(0, 16), "Merchant exchanges this hand."),
        "joining": _f(PLAYERS, "Newcomers waiting for the next hand."),
        "leaving": _f(PLAYERS, "Players leaving after this hand."),
    },
)


@dataclass(frozen=True)
class Message:
    name: str
    direction: Direction
    doc: str
    body: Obj | Either
    is_event: bool = False
    is_request: bool = False


def _message(
    name: str, direction: Direction, doc: str, fields: dict[str, Field], *, is_event: bool = False
) -> Message:
    fields = dict(fields)
    is_request = direction is Direction.TO_HOST
    if is_request:
        fields["id"] = Field(REQUEST_ID, "Optional request id, echoed as `re`.", False)
        if name in ANSWER_TYPES:
            fields["decision_id"] = Field(
                DECISION_ID,
                "Optional: the `decision_id` of the decision answered. If it is not the one"
                " owed now, the answer is refused with `stale_decision` and changes nothing.",
                False,
            )
    elif name == "error":
        fields["re"] = Field(REQUEST_ID, "The `id` of the request refused, if it had one.", False)
    return Message(name, direction, doc, Obj(fields=fields), is_event, is_request)


TO_HOST = Direction.TO_HOST
TO_CLIENT = Direction.TO_CLIENT

_MESSAGES = [
    # Session.
    _message(
        "hello",
        TO_HOST,
        "First message of every connection.",
        {
            "version": _f(Int(0, 65535), "The protocol version the client speaks."),
            "name": _f(Str(MAX_NAME_CHARS, 1), "Display name; made unique by the host."),
            "role": _f(Enum(("player", "spectator")), "Take a seat, or watch."),
            "resume": Field(
                Obj(
                    fields={
                        "seat": Field(
                            Hex(SEAT_ID_CHARS),
                            "The seat's id, derived one-way from its resume token.",
                        ),
                        "nonce": Field(Hex(NONCE_CHARS), "A fresh random nonce of the client's."),
                    }
                ),
                "Take back a seat held before: the host answers with `challenge`. The resume "
                "token itself is never sent.",
                False,
            ),
            "code": Field(Str(MAX_CODE_CHARS), "Join code, if the table has one.", False),
            "software": Field(Str(64), "Client software and version, for logs.", False),
            "person": Field(
                Bool(),
                "True when a person plays or watches here (a table on a screen); absent or "
                "false for a program. The host paces its own bots only for people.",
                False,
            ),
        },
    ),
    _message(
        "about",
        TO_HOST,
        "Before or instead of `hello`: which table is this? (answered with `about`).",
        {},
    ),
    _message(
        "about",
        TO_CLIENT,
        "Which table this host runs; the connection stays open for a `hello`.",
        {
            "version": _f(Int(0, 65535), "The host's protocol version."),
            "table_id": _f(
                Str(MAX_TABLE_ID_CHARS, 1),
                "The table's id: stable for its whole life, across host restarts.",
            ),
            "table": _f(Str(MAX_TABLE_NAME_CHARS), "The table's name."),
            "phase": _f(Enum(("lobby", "playing", "ended")), "Where the table is."),
            "code_required": _f(Bool(), "Whether `hello` must carry the join code."),
            "software": _f(Str(64), "Host software and version."),
        },
    ),
    _message(
        "challenge",
        TO_CLIENT,
        "The answer to a `hello` with `resume`: the host proves it knows the seat's token.",
        {
            "nonce": _f(Hex(NONCE_CHARS), "A fresh random nonce of the host's."),
            "proof": _f(
                Hex(PROOF_CHARS),
                "HMAC-SHA256 keyed by the token over the host's label, the table id, the seat"
                " id and both nonces.",
            ),
        },
    ),
    _message(
        "prove",
        TO_HOST,
        "The answer to a `challenge` whose proof was right: the client proves it knows the"
        " token; the host answers with `welcome`.",
        {
            "proof": _f(
                Hex(PROOF_CHARS),
                "HMAC-SHA256 keyed by the token over the client's label, the table id, the"
                " seat id and both nonces.",
            ),
        },
    ),
    _message(
        "welcome",
        TO_CLIENT,
        "The host accepted `hello`; a `snapshot` follows.",
        {
            "version": _f(Int(0, 65535), "The host's protocol version."),
            "player": _f(Nullable(PLAYER), "Your player id, nil for a spectator."),
            "token": _f(
                Nullable(Str(MAX_TOKEN_CHARS, 1)),
                "A new seat's secret resume token; nil for a spectator and for a seat taken"
                " back with `resume` (the client has it).",
            ),
            "host": _f(Bool(), "You are the host player (may start, set rules, add bots, kick)."),
            "table": _f(Str(MAX_TABLE_NAME_CHARS), "The table's name."),
            "table_id": _f(
                Str(MAX_TABLE_ID_CHARS, 1), "The table's id (as in `about`): key tokens by it."
            ),
            "software": _f(Str(64), "Host software and version."),
            "rules": _f(RULES, "The rules in force."),
            "limits": _f(LIMITS, "Sizes, rates and timeouts the host enforces."),
        },
    ),
    _message(
        "error",
        TO_CLIENT,
        "A refusal. If `fatal`, the host closes the connection.",
        {
            "code": _f(
                Codes(tuple(ErrorCode)),
                "One of the documented codes; a code a client does not know is taken by `fatal`.",
            ),
            "message": _f(Str(MAX_ERROR_CHARS), "A sentence for humans."),
            "fatal": _f(Bool(), "Whether the connection is being closed."),
            "host_version": Field(
                Int(0, 65535), "With version_mismatch: the host's version.", False
            ),
            "client_version": Field(Int(0, 65535), "With version_mismatch: yours.", False),
            "standings": Field(
                List(
                    Obj(
                        name="Standing",
                        fields={
                            "name": Field(Str(MAX_NAME_CHARS, 1), "The player's name."),
                            "score": Field(SCORE, "Their final score."),
                            "place": Field(Int(1, MAX_PLAYERS), "1 = first; ties share."),
                        },
                    ),
                    MAX_PLAYERS,
                ),
                "With table_ended, when the host still has them: the final standings.",
                False,
            ),
            "scoring": Field(
                Bool(),
                "With `standings`: whether the table kept score. False: every score is 0,"
                " and the standings are the last seating's order (best first), not tied"
                " places to show.",
                False,
            ),
        },
    ),
    _message(
        "ack",
        TO_CLIENT,
        "A request with an `id` was accepted.",
        {
            "re": _f(REQUEST_ID, "The request's id."),
        },
    ),
    _message("heartbeat", TO_HOST, "I am alive (send at least every heartbeat interval).", {}),
    _message("heartbeat", TO_CLIENT, "I am alive.", {}),
    _message(
        "goodbye",
        TO_HOST,
        "I am leaving this connection (the seat is kept).",
        {
            "reason": Field(Str(200), "Why, for logs.", False),
        },
    ),
    _message(
        "goodbye",
        TO_CLIENT,
        "The host is closing the connection.",
        {
            "reason": _f(Str(200), "Why, in English."),
            "code": Field(
                Codes(GOODBYE_CODES),
                "Why, for clients to say in the user's language: `shutting_down` (the host "
                "stops; a saved table may be resumed), `table_ended` (the table is over), "
                "`host_left` (the host player left and nobody could take the role).",
                False,
            ),
        },
    ),
    _message("snapshot_request", TO_HOST, "Send me a fresh `snapshot`.", {}),
    _message(
        "snapshot",
        TO_CLIENT,
        "Everything this viewer may know, now.",
        {
            "seq": _f(Int(0, 2**53), "The last event number this snapshot includes."),
            "you": _f(Nullable(PLAYER), "Your player id, nil for a spectator."),
            "table": _f(TABLE, "Seats, rules, phase."),
            "game": _f(Nullable(OBSERVATION), "The game as you may see it; nil in the lobby."),
            "decision": _f(Nullable(DECISION), "The decision you owe, if any."),
            "hand_events": _f(
                List(HAND_EVENT, MAX_HAND_EVENTS),
                "The hand so far, for a viewer arriving in the middle of it: the events"
                " this viewer would have been sent since `hand_started` (the last hand's,"
                " from its `hand_started` to now, between hands; the seating draw before"
                " the first), in order, without `seq` and without `waiting`.",
            ),
            "moved_for": Field(
                List(
                    Obj(
                        name="MovedFor",
                        fields={
                            "at": Field(
                                Int(0, MAX_HAND_EVENTS - 1),
                                "Index in `hand_events` of the move's first event made"
                                " by `player` (else of its first event).",
                            ),
                            "player": Field(PLAYER, "Whose seat moved."),
                            "by": Field(Enum(("timer", "stand_in", "host")), "Who made the move."),
                        },
                    ),
                    MAX_HAND_EVENTS,
                ),
                "The moves in `hand_events` made for a player rather than by them, as"
                " `moved_for` said live (a `revolution` answer only to that seat): a player"
                " who comes back learns which moves the stand-in made for them.",
                False,
            ),
            "chat": Field(
                List(
                    Obj(
                        name="ChatLine",
                        fields={
                            "player": Field(Nullable(PLAYER), "Who, nil for a spectator."),
                            "name": Field(Str(MAX_NAME_CHARS + 16), "Their name."),
                            "text": Field(Str(MAX_CHAT_CHARS, 1), "The text."),
                            "after": Field(
                                Int(0, MAX_HAND_EVENTS),
                                "How many of `hand_events` were told before the line was"
                                " said: a catch-up tells it among them, where it was said."
                                " Absent (0): before all of them (before this hand, or"
                                " outside a game).",
                                False,
                            ),
                        },
                    ),
                    MAX_SNAPSHOT_CHAT,
                ),
                "The table's last chat lines, oldest first (at most 20, and 2,000 characters"
                " of names and texts): someone arriving or coming back reads what was said.",
                False,
            ),
        },
    ),
    # Lobby and table management.
    _message(
        "table",
        TO_CLIENT,
        "The seats, rules and phase changed.",
        {
            "table": _f(TABLE, "The whole table state."),
        },
    ),
    _message(
        "ready",
        TO_HOST,
        "Lobby: say you are ready (or not); a rematch starts once every seated human is."
        " Between hands: you have read the results (the next hand is dealt once every"
        " human in the game, a held seat's too, is ready, or when the pause runs out). Any"
        " other time it changes"
        " nothing and is not refused (it may cross the next deal).",
        {
            "ready": _f(Bool(), "Ready?"),
        },
    ),
    _message("start", TO_HOST, "Host player: start the table (4 to 8 seated).", {}),
    _message(
        "add_bot",
        TO_HOST,
        "Host player: seat a bot (lobby, or joining next hand).",
        {
            "strategy": Field(Str(64, 1), "Strategy name, default the host's default.", False),
            "name": Field(Str(MAX_NAME_CHARS, 1), "Its name.", False),
        },
    ),
    _message(
        "remove_bot",
        TO_HOST,
        "Host player: remove a bot's seat.",
        {
            "player": _f(PLAYER, "The bot's player id."),
        },
    ),
    _message(
        "set_rules",
        TO_HOST,
        "Host player, lobby only: change rule options.",
        {
            "rules": _f(RULES, "Options to change; others stay."),
        },
    ),
    _message(
        "kick",
        TO_HOST,
        "Host player: remove a player or spectator.",
        {
            "player": _f(PLAYER, "Who."),
        },
    ),
    _message(
        "set_timing",
        TO_HOST,
        "Host player, lobby only: change the table's clocks; fields left out stay.",
        {
            "turn_timer_ms": Field(
                Nullable(Int(MIN_TURN_TIMER_MS, MAX_TURN_TIMER_MS)),
                "Time per decision; nil = no turn timer.",
                False,
            ),
            "results_ms": Field(
                Int(0, MAX_RESULTS_MS), "The longest the results stay between hands.", False
            ),
            "bot_pace_ms": Field(
                Int(0, MAX_BOT_PACE_MS),
                "The least time each answer of the host's bots takes; 0 = never paced.",
                False,
            ),
        },
    ),
    _message(
        "nudge",
        TO_HOST,
        "Host player: remind a player the table waits for them (after `nudge_after_ms`"
        " of their decision); everyone is sent `nudged`.",
        {
            "player": _f(PLAYER, "Who owes the decision."),
        },
    ),
    _message(
        "skip",
        TO_HOST,
        "Host player: make the default move for a player who owes a decision (after"
        " `skip_after_ms`); it is told with `moved_for` by `host`.",
        {
            "player": _f(PLAYER, "Who owes the decision."),
        },
    ),
    _message(
        "rematch",
        TO_HOST,
        "Host player, after the table ended: back to the lobby with the same seats (those"
        " still connected); `table.rematch` is true until it starts.",
        {},
    ),
    _message("end_table", TO_HOST, "Host player: end the table now.", {}),
    _message(
        "leave",
        TO_HOST,
        "Give up your seat (removed before the next hand).",
        {
            "heir": Field(
                PLAYER,
                "Host player only: who takes the host role (a connected human; default the "
                "next one in seat order). With nobody to take it, the table ends.",
                False,
            ),
        },
    ),
    _message(
        "chat",
        TO_HOST,
        "Say something to the table.",
        {
            "text": _f(Str(MAX_CHAT_CHARS, 1), "The text."),
        },
    ),
    _message(
        "chat",
        TO_CLIENT,
        "Someone said something.",
        {
            "player": _f(Nullable(PLAYER), "Who, nil for a spectator or the host itself."),
            "name": _f(Str(MAX_NAME_CHARS + 16), "Their name."),
            "text": _f(Str(MAX_CHAT_CHARS, 1), "The text."),
        },
    ),
    _message(
        "timers",
        TO_CLIENT,
        "Every countdown running at the table, to everyone: sent when one starts or stops, "
        "and once after a snapshot. Count down locally from when it arrived.",
        {
            "grace": _f(
                List(List(Int(0, 2**31), 2, 2), 16),
                "[player, ms left]: dropped seats, and when a stand-in bot takes each.",
            ),
            "turn": _f(
                List(List(Int(0, 2**31), 2, 2), 16),
                "[player, ms left]: seats owing a decision, and when the turn timer answers.",
            ),
            "results": Field(
                Nullable(Int(0, 2**31)),
                "Between hands: ms left before the next hand is dealt anyway; nil otherwise.",
                False,
            ),
        },
    ),
    _message(
        "nudged",
        TO_CLIENT,
        "The host player reminded `player` that the table waits for their decision.",
        {
            "player": _f(PLAYER, "Who is waited for."),
            "by": _f(PLAYER, "The host player."),
        },
    ),
    _message(
        "moved_for",
        TO_CLIENT,
        "The events that follow (up to the next `waiting`) are a move made for `player`, "
        "not by them: the turn timer's default move, the stand-in bot's, or the default"
        " move the host player asked for (`skip`). To everyone, but for a `revolution`"
        " decision to that seat alone (rule 20).",
        {
            "player": _f(PLAYER, "Whose seat moved."),
            "by": _f(Enum(("timer", "stand_in", "host")), "Who made the move."),
        },
    ),
    Message("decision", TO_CLIENT, "You owe a decision: `kind` says which; answer it.", DECISION),
    # Answers to decisions.
    _message(
        "play",
        TO_HOST,
        "Play a set (decision `play`).",
        {
            "set": _f(CARD_SET, "One of the sets offered."),
        },
    ),
    _message("pass", TO_HOST, "Pass (decision `play`, not on a lead).", {}),
    _message(
        "revolution",
        TO_HOST,
        "Answer decision `revolution`.",
        {
            "declare": _f(Bool(), "Declare it?"),
        },
    ),
    _message(
        "tax",
        TO_HOST,
        "Answer decision `tax`.",
        {
            "cards": _f(List(CARD, 2, 1), "Exactly `count` cards from your hand."),
        },
    ),
    _message(
        "exchange",
        TO_HOST,
        "Answer decision `exchange`; both nil declines.",
        {
            "merchant": _f(Nullable(PLAYER), "The Merchant to exchange with."),
            "card": _f(Nullable(CARD), "The card you give."),
        },
    ),
    _message(
        "misdeal",
        TO_HOST,
        "Answer decision `misdeal`.",
        {
            "choice": _f(Enum(("intended", "peon")), "Where the exposed card goes."),
        },
    ),
    _message(
        "place",
        TO_HOST,
        "Answer decision `placement`.",
        {
            "position": _f(Int(0, MAX_PLAYERS), "One of the positions offered."),
        },
    ),
]

for _name, (_doc, _fields) in EVENT_MESSAGES.items():
    _MESSAGES.append(_message(_name, TO_CLIENT, _doc, _fields, is_event=True))

MESSAGES: dict[tuple[Direction, str], Message] = {(m.direction, m.name): m for m in _MESSAGES}


def message_spec(direction: Direction, name: str) -> Message | None:
    return MESSAGES.get((direction, name))
