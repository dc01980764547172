"""Decisions and actions cross the wire by table, as events do: every engine kind has one
row, the rows name every answer request, and each kind goes out and back unchanged."""

from __future__ import annotations

import typing

import pytest

from dalmuti_net.engine import (
    Action,
    CardSet,
    DecideMisdeal,
    Decision,
    DeclareRevolution,
    ExchangeDecision,
    GiveTax,
    MerchantExchange,
    MisdealChoice,
    MisdealDecision,
    Pass,
    PlacementDecision,
    PlaceNewcomer,
    Play,
    PlayDecision,
    RevolutionDecision,
    TaxDecision,
)
from dalmuti_net.protocol.catalogue import ANSWER_TYPES, DECISION_KINDS, MESSAGES, Direction, Obj
from dalmuti_net.protocol.codec import validate
from dalmuti_net.protocol.messages import (
    ACTION_WIRE,
    DECISION_WIRE,
    action_from_message,
    action_message,
    decision_from_message,
    decision_message,
)

DECISIONS: list[Decision] = [
    PlayDecision((CardSet(3, 2, 1), CardSet(13, 1, 1)), True, None),
    PlayDecision((CardSet(2, 1, 0),), False, CardSet(5, 1, 0)),
    RevolutionDecision(greater=True),
    TaxDecision(2, (1, 2, 2, 13), 4),
    ExchangeDecision((3, 5), (7, 9)),
    MisdealDecision(card=4, intended=2, peon=6),
    PlacementDecision(9, (2, 3, 4)),
]
ACTIONS: list[Action] = [
    Play(CardSet(6, 3, 1)),
    Pass(),
    DeclareRevolution(False),
    GiveTax((12, 12)),
    MerchantExchange(3, 8),
    MerchantExchange(None, None),
    DecideMisdeal(MisdealChoice("peon")),
    PlaceNewcomer(3),
]


def test_every_engine_kind_has_one_row() -> None:
    assert {k.cls for k in DECISION_WIRE} == set(typing.get_args(Decision))
    assert {k.cls for k in ACTION_WIRE} == set(typing.get_args(Action))
    assert len({k.name for k in DECISION_WIRE}) == len(DECISION_WIRE)
    assert tuple(k.name for k in ACTION_WIRE) == ANSWER_TYPES


def test_the_rows_carry_the_catalogues_fields_in_its_order() -> None:
    """The wire tables convert; the catalogue says the shape: they name the same fields."""
    for kind in DECISION_WIRE:
        assert [f.key for f in kind.fields] == list(DECISION_KINDS[kind.name][1])
    for kind in ACTION_WIRE:
        body = MESSAGES[(Direction.TO_HOST, kind.name)].body
        assert isinstance(body, Obj)
        keys = [key for key in body.fields if key not in ("type", "id", "decision_id")]
        assert [f.key for f in kind.fields] == keys


@pytest.mark.parametrize("decision", DECISIONS, ids=repr)
def test_a_decision_goes_out_valid_and_comes_back_the_same(decision: Decision) -> None:
    message = decision_message(decision, 1500, decision_id=7)
    assert list(message)[:3] == ["type", "decision_id", "kind"]
    assert list(message)[-1] == "deadline_ms"
    validate(message, Direction.TO_CLIENT)
    assert decision_from_message(message) == decision


@pytest.mark.parametrize("action", ACTIONS, ids=repr)
def test_an_action_goes_out_valid_and_comes_back_the_same(action: Action) -> None:
    message = action_message(action)
    validate(message, Direction.TO_HOST)
    assert action_from_message(message) == action


def test_an_unknown_kind_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match="'chat' is not an action message"):
        action_from_message({"type": "chat", "text": "hi"})
    with pytest.raises(ValueError, match="'dance' is not a decision kind"):
        decision_from_message({"type": "decision", "kind": "dance"})
