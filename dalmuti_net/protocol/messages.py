"""Engine objects to protocol messages and back: events, decisions, actions, observations.

The host turns events and decisions into messages; clients and bots turn validated
messages back into the engine's own types and keep an ``Observation`` with them.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from ..engine import (
    EVENT_TYPES,
    Action,
    CardSet,
    DecideMisdeal,
    Decision,
    DeclareRevolution,
    Event,
    ExchangeDecision,
    GiveTax,
    MerchantExchange,
    MisdealChoice,
    MisdealDecision,
    Observation,
    Pass,
    PlacementDecision,
    PlaceNewcomer,
    Play,
    PlayDecision,
    RevolutionDecision,
    TaxDecision,
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


# ------------------------------------------------------------------ decisions


def decision_message(
    decision: Decision, deadline_ms: int | None = None, *, decision_id: int
) -> Message:
    """``decision_id``: the seat's decision number (1, 2, 3...), which an answer may name."""
    body: Message
    if isinstance(decision, PlayDecision):
        body = {
            "kind": "play",
            "sets": [card_set_dict(s) for s in decision.sets],
            "may_pass": decision.may_pass,
            "to_beat": None if decision.to_beat is None else card_set_dict(decision.to_beat),
        }
    elif isinstance(decision, RevolutionDecision):
        body = {"kind": "revolution", "greater": decision.greater}
    elif isinstance(decision, TaxDecision):
        body = {
            "kind": "tax",
            "count": decision.count,
            "hand": list(decision.hand),
            "receiver": decision.receiver,
        }
    elif isinstance(decision, ExchangeDecision):
        body = {
            "kind": "exchange",
            "merchants": list(decision.merchants),
            "cards": list(decision.cards),
        }
    elif isinstance(decision, MisdealDecision):
        body = {
            "kind": "misdeal",
            "card": decision.card,
            "intended": decision.intended,
            "peon": decision.peon,
        }
    else:
        body = {
            "kind": "placement",
            "newcomer": decision.newcomer,
            "positions": list(decision.positions),
        }
    body["deadline_ms"] = deadline_ms
    return {"type": "decision", "decision_id": decision_id, **body}


def decision_from_message(message: Message) -> Decision:
    kind = message["kind"]
    if kind == "play":
        to_beat = message["to_beat"]
        return PlayDecision(
            sets=tuple(card_set_from(s) for s in message["sets"]),
            may_pass=message["may_pass"],
            to_beat=None if to_beat is None else card_set_from(to_beat),
        )
    if kind == "revolution":
        return RevolutionDecision(greater=message["greater"])
    if kind == "tax":
        return TaxDecision(message["count"], tuple(message["hand"]), message["receiver"])
    if kind == "exchange":
        return ExchangeDecision(tuple(message["merchants"]), tuple(message["cards"]))
    if kind == "misdeal":
        return MisdealDecision(message["card"], message["intended"], message["peon"])
    return PlacementDecision(message["newcomer"], tuple(message["positions"]))


# ------------------------------------------------------------------ actions

ACTION_TYPES = ANSWER_TYPES


def action_from_message(message: Message) -> Action:
    """The engine action in a validated request of one of ``ACTION_TYPES``."""
    kind = message["type"]
    if kind == "play":
        return Play(card_set_from(message["set"]))
    if kind == "pass":
        return Pass()
    if kind == "revolution":
        return DeclareRevolution(message["declare"])
    if kind == "tax":
        return GiveTax(tuple(message["cards"]))
    if kind == "exchange":
        return MerchantExchange(message["merchant"], message["card"])
    if kind == "misdeal":
        return DecideMisdeal(MisdealChoice(message["choice"]))
    if kind == "place":
        return PlaceNewcomer(message["position"])
    raise ValueError(f"{kind!r} is not an action message")


def action_message(action: Action) -> Message:
    if isinstance(action, Play):
        return {"type": "play", "set": card_set_dict(action.set)}
    if isinstance(action, Pass):
        return {"type": "pass"}
    if isinstance(action, DeclareRevolution):
        return {"type": "revolution", "declare": action.declare}
    if isinstance(action, GiveTax):
        return {"type": "tax", "cards": list(action.cards)}
    if isinstance(action, MerchantExchange):
        return {"type": "exchange", "merchant": action.other, "card": action.card}
    if isinstance(action, DecideMisdeal):
        return {"type": "misdeal", "choice": str(action.choice)}
    return {"type": "place", "position": action.position}


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
