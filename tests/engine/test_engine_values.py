"""The engine's fast-built frozen values behave exactly as the dataclasses they replace."""

from __future__ import annotations

import dataclasses

import pytest

from dalmuti_net.engine import PASS, CardSet, Pass
from dalmuti_net.engine.actions import Play, PlayDecision
from dalmuti_net.engine.cards import is_shared, playable_sets
from dalmuti_net.engine.events import Played
from dalmuti_net.engine.values import fast_init


@dataclasses.dataclass(frozen=True, slots=True)
class Reference:
    a: int
    b: tuple[int, ...]
    c: int = 7


@fast_init
@dataclasses.dataclass(frozen=True, slots=True)
class Fast:
    a: int
    b: tuple[int, ...]
    c: int = 7


def test_a_fast_built_value_keeps_fields_defaults_equality_hash_repr_and_frozenness() -> None:
    for args, kwargs in (((1, (2,)), {}), ((1, (2,), 3), {}), ((), {"a": 1, "b": (), "c": 0})):
        fast, reference = Fast(*args, **kwargs), Reference(*args, **kwargs)  # type: ignore[arg-type]
        assert dataclasses.astuple(fast) == dataclasses.astuple(reference)
        assert repr(fast).removeprefix("Fast") == repr(reference).removeprefix("Reference")
        assert fast == Fast(*args, **kwargs)  # type: ignore[arg-type]
        assert hash(fast) == hash(Fast(*args, **kwargs))  # type: ignore[arg-type]
    with pytest.raises(dataclasses.FrozenInstanceError):
        Fast(1, ()).a = 2  # type: ignore[misc]
    with pytest.raises(TypeError):
        Fast(1)  # type: ignore[call-arg]
    assert CardSet(5, 2) == CardSet(rank=5, count=2, jesters=0)
    assert Played(1, CardSet(5, 2), 3) == Played(player=1, set=CardSet(5, 2, 0), remaining=3)
    assert Play(CardSet(5, 2)) == Play(set=CardSet(5, 2))
    assert PlayDecision((), True, None).may_pass


def test_fast_init_refuses_what_it_cannot_build() -> None:
    @dataclasses.dataclass(slots=True)
    class Mutable:
        a: int

    @dataclasses.dataclass(frozen=True)
    class NoSlots:
        a: int

    @dataclasses.dataclass(frozen=True, slots=True)
    class Factory:
        a: list[int] = dataclasses.field(default_factory=list)

    for cls in (Mutable, NoSlots, Factory):
        with pytest.raises(TypeError):
            fast_init(cls)


def test_the_shared_pass_and_sets_are_ordinary_values() -> None:
    assert Pass() == PASS and hash(PASS) == hash(Pass())
    hand = (0, 1, 2, 0, 0, 3, 0, 0, 0, 0, 0, 0, 1, 2)
    sets = playable_sets(hand, None) + playable_sets(hand, CardSet(9, 2))
    assert sets and all(is_shared(option) for option in sets)
    assert not is_shared(CardSet(2, 2)) and not is_shared((2, 2, 0))
