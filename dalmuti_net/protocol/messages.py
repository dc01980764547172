"""Engine objects to protocol messages and back: events, decisions, actions, observations.

The host turns events and decisions into messages; clients and bots turn validated
messages back into the engine's own types and keep an ``Observation`` with them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any

from ..engine import (
    EVENT_TYPES,
    Action,
    CardSet,
    Decision,
    Event,
    Observation,
    actions,
    event_from_dict,
    event_to_dict,
)
from ..engine import cards as c
from ..engine.events import (
    MerchantExchangeCards,
    MisdealExposed,
    MisdealReplacement,
    MisdealResolved,
    RevolutionDeclared,
    TaxCards,
)
from .catalogue import ANSWER_TYPES

Message = dict[str, Any]


def card_set_dict(card_set: CardSet) -> dict[str, int]:
    return {"rank": card_set.rank, "count": card_set.count, "jesters": card_set.jesters}


def card_set_from(data: dict[str, int]) -> CardSet:
    return CardSet(data["rank"], data["count"], data["jesters"])


# ------------------------------------------------------------------ events


def event_message(event: Event, seq: int) -> Message:
    message = event_to_dict(event)
    message["seq"] = seq
    return message


def event_from_message(message: Message) -> Event | None:
    """The engine event in a validated event message; ``None`` for a type we do not know."""
    cls = EVENT_TYPES.get(message["type"])
    if cls is None:
        return None
    return event_from_dict({"type": cls.TYPE, **{f.name: message[f.name] for f in fields(cls)}})


# ------------------------------------------------------------------ decisions and actions
#
# Like events (which go by their ``TYPE`` and fields), decisions and actions cross the
# wire by table: one row per kind names the engine class, the wire's name for it and its
# fields, each with the wire's key and how its value is written and read back. The rows
# keep the wire's key order, which the golden frames pin.


def _same(value: Any) -> Any:
    return value


def _optional_card_set_dict(card_set: CardSet | None) -> dict[str, int] | None:
    return None if card_set is None else card_set_dict(card_set)


def _optional_card_set_from(data: dict[str, int] | None) -> CardSet | None:
    return None if data is None else card_set_from(data)


@dataclass(frozen=True)
class _Field:
    """One field: the engine's attribute, the wire's key (the same name if not given), and
    the two conversions."""

    attribute: str
    wire_key: str = ""
    out: Callable[[Any], Any] = _same
    back: Callable[[Any], Any] = _same

    @property
    def key(self) -> str:
        return self.wire_key or self.attribute


def _cards(attribute: str) -> _Field:
    """A tuple of cards (or of players) in the engine, a list on the wire."""
    return _Field(attribute, "", list, tuple)


@dataclass(frozen=True)
class _Kind:
    """One kind of decision or action: its engine class, its name on the wire, its fields."""

    cls: type
    name: str
    fields: tuple[_Field, ...] = ()

    def body(self, value: object) -> Message:
        return {f.key: f.out(getattr(value, f.attribute)) for f in self.fields}

    def build(self, message: Message) -> Any:
        return self.cls(**{f.attribute: f.back(message[f.key]) for f in self.fields})


DECISION_WIRE = (
    _Kind(
        actions.PlayDecision,
        "play",
        (
            _Field(
                "sets",
                "",
                lambda sets: [card_set_dict(s) for s in sets],
                lambda sets: tuple(card_set_from(s) for s in sets),
            ),
            _Field("may_pass"),
            _Field("to_beat", "", _optional_card_set_dict, _optional_card_set_from),
        ),
    ),
    _Kind(actions.RevolutionDecision, "revolution", (_Field("greater"),)),
    _Kind(
        actions.TaxDecision,
        "tax",
        (_Field("count"), _cards("hand"), _Field("receiver")),
    ),
    _Kind(actions.ExchangeDecision, "exchange", (_cards("merchants"), _cards("cards"))),
    _Kind(
        actions.MisdealDecision,
        "misdeal",
        (_Field("card"), _Field("intended"), _Field("peon")),
    ),
    _Kind(actions.PlacementDecision, "placement", (_Field("newcomer"), _cards("positions"))),
)
"""Host to client: a decision is the ``decision`` message's ``kind`` and fields."""

ACTION_WIRE = (
    _Kind(actions.Play, "play", (_Field("set", "", card_set_dict, card_set_from),)),
    _Kind(actions.Pass, "pass"),
    _Kind(actions.DeclareRevolution, "revolution", (_Field("declare"),)),
    _Kind(actions.GiveTax, "tax", (_cards("cards"),)),
    _Kind(actions.MerchantExchange, "exchange", (_Field("other", "merchant"), _Field("card"))),
    _Kind(actions.DecideMisdeal, "misdeal", (_Field("choice", "", str, actions.MisdealChoice),)),
    _Kind(actions.PlaceNewcomer, "place", (_Field("position"),)),
)
"""Client to host: an action is a request's ``type`` and fields."""

_DECISION_BY_CLASS = {kind.cls: kind for kind in DECISION_WIRE}
_DECISION_BY_NAME = {kind.name: kind for kind in DECISION_WIRE}
_ACTION_BY_CLASS = {kind.cls: kind for kind in ACTION_WIRE}
_ACTION_BY_NAME = {kind.name: kind for kind in ACTION_WIRE}


def decision_message(
    decision: Decision, deadline_ms: int | None = None, *, decision_id: int
) -> Message:
    """``decision_id``: the seat's decision number (1, 2, 3...), which an answer may name."""
    kind = _DECISION_BY_CLASS[type(decision)]
    body = {"kind": kind.name, **kind.body(decision), "deadline_ms": deadline_ms}
    return {"type": "decision", "decision_id": decision_id, **body}


def decision_from_message(message: Message) -> Decision:
    """The engine decision in a validated ``decision`` message."""
    kind = _DECISION_BY_NAME.get(message["kind"])
    if kind is None:
        raise ValueError(f"{message['kind']!r} is not a decision kind")
    decision: Decision = kind.build(message)
    return decision


ACTION_TYPES = ANSWER_TYPES


def action_from_message(message: Message) -> Action:
    """The engine action in a validated request of one of ``ACTION_TYPES``."""
    kind = _ACTION_BY_NAME.get(message["type"])
    if kind is None:
        raise ValueError(f"{message['type']!r} is not an action message")
    action: Action = kind.build(message)
    return action


def action_message(action: Action) -> Message:
    kind = _ACTION_BY_CLASS[type(action)]
    return {"type": kind.name, **kind.body(action)}


# ------------------------------------------------------------------ observations


def _transfer_dict(event: Event) -> dict[str, Any]:
    if isinstance(event, TaxCards):
        return {
            "kind": "tax",
            "giver": event.giver,
            "receiver": event.receiver,
            "cards": list(event.cards),
        }
    if isinstance(event, MerchantExchangeCards):
        return {
            "kind": "exchange",
            "giver": event.giver,
            "receiver": event.other,
            "cards": [event.given, event.received],
        }
    assert isinstance(event, MisdealReplacement)
    return {
        "kind": "misdeal",
        "giver": event.peon,
        "receiver": event.receiver,
        "cards": [event.card],
    }


def _transfer_from(data: dict[str, Any]) -> Event:
    if data["kind"] == "tax":
        return TaxCards(data["giver"], data["receiver"], tuple(data["cards"]))
    if data["kind"] == "exchange":
        given, received = data["cards"]
        return MerchantExchangeCards(data["giver"], data["receiver"], given, received)
    return MisdealReplacement(data["giver"], data["receiver"], data["cards"][0])


def observation_dict(observation: Observation) -> dict[str, Any]:
    o = observation
    misdeal = None
    if o.misdeal is not None:
        misdeal = {
            "card": o.misdeal.card,
            "intended": o.misdeal.intended,
            "choice": None if o.misdeal_result is None else str(o.misdeal_result.choice),
        }
    return {
        "hand_number": o.hand_number,
        "hand_limit": o.hand_limit,
        "phase": o.phase,
        "order": list(o.order),
        "scores": [o.scores.get(p, 0) for p in o.order],
        "counts": [o.counts.get(p, 0) for p in o.order],
        "hand": None if o.hand is None else list(c.cards_of(o.hand)),
        "taxes": o.taxes,
        "waiting": list(o.waiting),
        "to_beat": None if o.to_beat is None else card_set_dict(o.to_beat),
        "top_player": o.top_player,
        "passed": [p for p in o.order if p in o.passed],
        "trick": [[player, card_set_dict(s)] for player, s in o.trick],
        "played": list(c.cards_of(o.played)),
        "out": list(o.out),
        "revolution": None
        if o.revolution is None
        else {"player": o.revolution.player, "greater": o.revolution.greater},
        "misdeal": misdeal,
        "transfers": [_transfer_dict(event) for event in o.transfers],
        "exchanges": o.exchanges,
        "joining": list(o.joining),
        "leaving": list(o.leaving),
    }


def observation_from_dict(data: dict[str, Any], viewer: int | None) -> Observation:
    """A validated snapshot's ``game`` back into an ``Observation`` to keep folding events."""
    order = tuple(data["order"])
    observation = Observation(viewer)
    observation.hand_number = data["hand_number"]
    observation.hand_limit = data["hand_limit"]
    observation.phase = data["phase"]
    observation.order = order
    observation.scores = dict(zip(order, data["scores"], strict=False))
    observation.counts = dict(zip(order, data["counts"], strict=False))
    observation.hand = None if data["hand"] is None else c.counts_of(data["hand"])
    observation.taxes = data["taxes"]
    observation.waiting = tuple(data["waiting"])
    to_beat = data["to_beat"]
    observation.to_beat = None if to_beat is None else card_set_from(to_beat)
    observation.top_player = data["top_player"]
    observation.passed = set(data["passed"])
    observation.trick = [(player, card_set_from(s)) for player, s in data["trick"]]
    observation.played = c.counts_of(data["played"])
    observation.out = list(data["out"])
    revolution = data["revolution"]
    if revolution is not None:
        observation.revolution = RevolutionDeclared(revolution["player"], revolution["greater"])
    misdeal = data["misdeal"]
    if misdeal is not None:
        observation.misdeal = MisdealExposed(misdeal["card"], misdeal["intended"], 0, False)
        if misdeal["choice"] is not None and order:
            observation.misdeal_result = MisdealResolved(
                misdeal["choice"], misdeal["card"], misdeal["intended"], order[-1]
            )
    observation.transfers = [_transfer_from(t) for t in data["transfers"]]
    observation.exchanges = data["exchanges"]
    observation.joining = list(data["joining"])
    observation.leaving = list(data["leaving"])
    return observation
