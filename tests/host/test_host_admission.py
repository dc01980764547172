"""The admission limits on their own: no table, no sockets, only a clock passed in
(connections waiting for hello, per-address places, join-code guesses, chat)."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from dalmuti_net.host.admission import (
    BURST_FACTOR,
    CODE_DIGITS,
    FIRST_WAIT_S,
    FREE_GUESSES,
    LONGEST_WAIT_S,
    YOUNG_S,
    Admission,
    ChatBudget,
    CodeGuesses,
    MakeRoom,
    WrongCode,
    address_key,
    new_join_code,
    same_code,
)
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


def test_a_young_burst_is_let_in_up_to_the_burst_factor_then_makes_room_itself() -> None:
    young = [Knock("10.0.0.1", 0.0) for _ in range(2 * BURST_FACTOR - 1)]
    wide = Admission(max_connections=3, max_unwelcomed=1000, max_unwelcomed_per_address=2)
    assert wide.arrive(young, "10.0.0.1", 0.1) is None  # bots on one machine, together
    # At four times the limit the newcomer still comes in (it may be a resume: nothing
    # tells a resume from a flood at connect); the oldest of the crowd goes, young or not.
    full = [*young, Knock("10.0.0.1", 0.05)]
    verdict = wide.arrive(full, "10.0.0.1", 0.1)
    assert isinstance(verdict, MakeRoom) and verdict.oldest is young[0]
    assert wide.arrive(full, "10.0.0.2", 0.1) is None  # another address


def test_over_the_limit_in_all_the_biggest_crowd_pays() -> None:
    lone = Knock("10.0.0.5", 0.0)
    flood = [Knock("10.0.0.9", 0.5 + i / 100) for i in range(3)]
    verdict = LIMITS.arrive([lone, *flood], "10.0.0.7", 2.0)
    assert isinstance(verdict, MakeRoom) and verdict.oldest is flood[0]


def test_an_ipv6_address_counts_as_its_64() -> None:
    assert address_key("2001:db8:1:2:aaaa::1") == "2001:db8:1:2::/64"
    assert address_key("2001:db8:1:2:bbbb::7") == address_key("2001:db8:1:2:aaaa::1")
    assert address_key("2001:db8:1:3::1") != address_key("2001:db8:1:2::1")
    assert address_key("fe80::1%eth0") == "fe80::/64"
    assert address_key("::ffff:10.0.0.1") == "10.0.0.1"
    assert address_key("10.0.0.1") == "10.0.0.1" and address_key(None) is None
    # Two addresses of one /64 are one crowd.
    waiting = [Knock("2001:db8::1", 0.0), Knock("2001:db8::2", 0.0)]
    verdict = LIMITS.arrive(waiting, "2001:db8::3", YOUNG_S)
    assert isinstance(verdict, MakeRoom) and verdict.oldest is waiting[0]


def test_hello_is_refused_once_the_host_is_full() -> None:
    LIMITS.check_hello(2)
    with pytest.raises(ProtocolError) as refused:
        LIMITS.check_hello(3)
    assert refused.value.code is ErrorCode.TOO_MANY_CONNECTIONS
    assert "the host is full (3 connections)" in str(refused.value)


def test_places_per_address_are_capped() -> None:
    places = Admission(3, 4, 2, max_seats_per_address=2, max_spectators_per_address=3)
    places.check_place(False, 1)
    places.check_place(True, 2)
    for spectator, taken in ((False, 2), (True, 3)):
        with pytest.raises(ProtocolError) as refused:
            places.check_place(spectator, taken)
        assert refused.value.code is ErrorCode.TABLE_FULL


def test_wrong_codes_make_an_address_wait_longer_each_time() -> None:
    guesses = CodeGuesses()
    now = 100.0
    for _ in range(FREE_GUESSES):
        assert guesses.wrong("10.0.0.1", now) is None
        assert guesses.wait_left("10.0.0.1", now) == 0
    waits = []
    for _ in range(6):
        guesses.wrong("10.0.0.1", now)
        waits.append(guesses.wait_left("10.0.0.1", now))
        now += waits[-1]
    assert waits[0] == FIRST_WAIT_S
    assert waits == sorted(waits) and waits[-1] == LONGEST_WAIT_S
    assert guesses.wait_left("10.0.0.2", now - 1) == 0  # another address
    assert guesses.wait_left("2001:db8::1", now) == 0


def test_sustained_guessing_is_a_few_tries_a_minute() -> None:
    guesses = CodeGuesses()
    now, tries = 0.0, 0
    while now < 3600:
        now += guesses.wait_left("10.0.0.1", now)
        guesses.wrong("10.0.0.1", now)
        tries += 1
    assert tries <= FREE_GUESSES + 60 * 3 + 10  # the free ones, then 3 a minute at most


def test_the_host_player_is_told_once_per_step() -> None:
    guesses = CodeGuesses()
    told = []
    now = 0.0
    for _ in range(120):
        now += guesses.wait_left("2001:db8::9", now)
        said = guesses.wrong("2001:db8::9", now)
        if said is not None:
            told.append(said)
    assert told == [
        WrongCode("2001:db8::/64", 5),
        WrongCode("2001:db8::/64", 20),
        WrongCode("2001:db8::/64", 100),
    ]


def test_a_quiet_address_is_forgiven_slowly() -> None:
    guesses = CodeGuesses()
    for _ in range(FREE_GUESSES + 1):
        guesses.wrong("10.0.0.1", 0.0)
    assert guesses.wait_left("10.0.0.1", 0.0) == FIRST_WAIT_S
    # An hour later a typo costs nothing again.
    guesses.wrong("10.0.0.1", 3600.0)
    assert guesses.wait_left("10.0.0.1", 3600.0) == 0


def test_a_made_code_is_long_and_compared_without_its_dashes() -> None:
    code = new_join_code()
    assert len(code.replace("-", "")) == CODE_DIGITS and code.replace("-", "").isdecimal()
    assert code.count("-") == 2
    assert same_code(code, code) and same_code(code.replace("-", ""), code)
    assert same_code(code.replace("-", " "), code)
    assert not same_code(None, code) and not same_code("1234", code)
    assert len({new_join_code() for _ in range(50)}) == 50


def test_chat_lines_per_address_come_in_bursts_then_slowly() -> None:
    chat = ChatBudget(per_minute=30, burst=10)
    assert all(chat.allow("10.0.0.1", 0.0) for _ in range(10))
    assert not chat.allow("10.0.0.1", 0.0)
    assert chat.allow("10.0.0.2", 0.0)  # another address
    assert chat.allow("10.0.0.1", 2.0) and not chat.allow("10.0.0.1", 2.0)


def test_over_the_limit_in_all_a_young_biggest_crowd_is_kept_up_to_the_factor() -> None:
    idle_elsewhere = [Knock(f"10.0.1.{i}", 0.0) for i in range(2)]
    young_crowd = [Knock("10.0.0.9", 5.0) for _ in range(3)]
    waiting = [*idle_elsewhere, *young_crowd]
    assert LIMITS.arrive(waiting, "10.0.0.7", 5.5) is None  # all together starting
    verdict = LIMITS.arrive(waiting, "10.0.0.7", 6.0)
    assert isinstance(verdict, MakeRoom) and verdict.oldest is young_crowd[0]
    crowd = [Knock("10.0.0.9", 5.0) for _ in range(4 * BURST_FACTOR)]
    verdict = LIMITS.arrive([*idle_elsewhere, *crowd], "10.0.0.7", 5.0)
    assert isinstance(verdict, MakeRoom) and verdict.oldest is crowd[0]
