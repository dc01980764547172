"""The admission limits on their own: no table, no sockets, only a clock passed in."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from dalmuti_net.host.admission import BURST_FACTOR, YOUNG_S, Admission, MakeRoom, Refuse
from dalmuti_net.protocol import ErrorCode, ProtocolError

LIMITS = Admission(max_connections=3, max_unwelcomed=4, max_unwelcomed_per_address=2)


@dataclass(frozen=True)
class Knock:
    address: str | None
    connected_at: float


def test_under_the_limits_a_newcomer_comes_in_as_things_are() -> None:
    waiting = [Knock("10.0.0.1", 0.0), Knock("10.0.0.2", 0.0)]
    assert LIMITS.arrive(waiting, "10.0.0.1", 5.0) is None
    assert LIMITS.arrive([], None, 0.0) is None


def test_over_the_address_limit_the_oldest_idle_one_from_it_makes_room() -> None:
    oldest, younger = Knock("10.0.0.1", 0.0), Knock("10.0.0.1", 0.5)
    verdict = LIMITS.arrive([Knock("10.0.0.9", 0.0), oldest, younger], "10.0.0.1", YOUNG_S)
    assert isinstance(verdict, MakeRoom) and verdict.oldest is oldest
    assert verdict.error.code is ErrorCode.TOO_MANY_CONNECTIONS
    assert "from your address" in str(verdict.error)


def test_over_the_limit_in_all_the_oldest_idle_one_anywhere_makes_room() -> None:
    waiting = [Knock(f"10.0.0.{i}", float(i)) for i in range(4)]
    verdict = LIMITS.arrive(waiting, "10.0.0.7", 1.0 + YOUNG_S)
    assert isinstance(verdict, MakeRoom) and verdict.oldest is waiting[0]
    assert "from your address" not in str(verdict.error)


def test_a_young_burst_is_let_in_up_to_the_burst_factor_then_refused() -> None:
    young = [Knock("10.0.0.1", 0.0) for _ in range(2 * BURST_FACTOR - 1)]
    wide = Admission(max_connections=3, max_unwelcomed=1000, max_unwelcomed_per_address=2)
    assert wide.arrive(young, "10.0.0.1", 0.1) is None  # bots on one machine, together
    assert isinstance(wide.arrive([*young, young[0]], "10.0.0.1", 0.1), Refuse)
    assert wide.arrive([*young, young[0]], "10.0.0.2", 0.1) is None  # another address


def test_hello_is_refused_once_the_host_is_full() -> None:
    LIMITS.check_hello(2)
    with pytest.raises(ProtocolError) as refused:
        LIMITS.check_hello(3)
    assert refused.value.code is ErrorCode.TOO_MANY_CONNECTIONS
    assert "the host is full (3 connections)" in str(refused.value)
