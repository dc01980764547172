"""A seat's flags and lobby marks, written once for every front end."""

from __future__ import annotations

import unicodedata
from dataclasses import replace

import pytest

from dalmuti_net.client.model.countdowns import Countdowns, moved_for_note
from dalmuti_net.client.model.seat_marks import Mark, game_flags, lobby_marks, players_heading
from dalmuti_net.client.model.views import SeatView, TableView, TimersView
from dalmuti_net.engine import Observation
from dalmuti_net.lang.i18n import LANGUAGES, Translator

EN = Translator("en")
ANA = SeatView(1, "Ana", "human", True, False, False, True, False)


class Clock:
    now = 100.0

    def __call__(self) -> float:
        return self.now


def texts(marks: list[Mark]) -> list[str]:
    return [mark.text for mark in marks]


def test_the_host_player_has_no_ready_mark_and_others_do() -> None:
    host = replace(ANA, host=True)
    assert texts(lobby_marks(EN, host)) == ["host"]
    assert texts(lobby_marks(EN, ANA)) == ["not ready"]
    assert texts(lobby_marks(EN, replace(ANA, ready=True, connected=False))) == [
        "ready",
        "offline",
    ]
    assert texts(lobby_marks(EN, replace(ANA, kind="bot", ready=True))) == ["bot", "ready"]
    assert [mark.tone for mark in lobby_marks(EN, replace(host, connected=False))] == [
        "heading",
        "error",
    ]


def test_a_seat_a_program_plays_is_marked_a_bot_as_the_hosts_bots_are() -> None:
    """A `dalmuti bot` seat (kind human, its hello said no person) had no mark at all."""
    program = replace(ANA, program=True, ready=True)
    assert texts(lobby_marks(EN, program)) == ["bot", "ready"]
    observation = Observation(2, order=(1, 2, 3, 4))
    assert texts(game_flags(EN, observation, 1, program, Countdowns())) == ["bot"]
    stood_in = replace(program, connected=False, stand_in=True)
    assert texts(game_flags(EN, observation, 1, stood_in, Countdowns())) == ["bot stands in"]


def test_offline_is_not_said_twice_while_a_grace_period_runs() -> None:
    clock = Clock()
    countdowns = Countdowns(clock)
    observation = Observation(2, order=(1, 2, 3, 4))
    dropped = replace(ANA, connected=False)
    assert texts(game_flags(EN, observation, 1, dropped, countdowns)) == ["offline"]
    countdowns.update(TimersView(grace=((1, 42_000),), turn=((1, 8_000),)))
    flags = game_flags(EN, observation, 1, dropped, countdowns)
    assert texts(flags) == ["◷ 8 s", "bot in 42 s"]
    assert flags[0].tone == "warning"  # ten seconds or less


def test_a_leaver_is_leaving_not_offline_nor_stood_in_for() -> None:
    observation = Observation(2, order=(1, 2, 3, 4), leaving=[1])
    gone = replace(ANA, connected=False, stand_in=True, left=True)
    assert texts(game_flags(EN, observation, 1, gone, Countdowns())) == ["leaving"]
    stood_in = replace(ANA, connected=False, stand_in=True)
    observation = Observation(2, order=(1, 2, 3, 4))
    assert texts(game_flags(EN, observation, 1, stood_in, Countdowns())) == ["bot stands in"]


def test_the_players_heading_counts_the_seats() -> None:
    table = TableView("T", "lobby", (ANA, replace(ANA, player=2)))
    assert players_heading(EN, table) == "Players (2 of 4 to 8)"
    assert players_heading(EN, None) == "Players (0 of 4 to 8)"


def test_the_spanish_stand_in_marks_say_what_the_bot_does() -> None:
    """Issue 40, finding 8: "el bot suplente por ti" had no verb (nor "bot suplente")."""
    es = Translator("es")
    stood_in = replace(ANA, connected=False, stand_in=True)
    observation = Observation(2, order=(1, 2, 3, 4))
    assert texts(game_flags(es, observation, 1, stood_in, Countdowns())) == ["juega un bot"]
    assert moved_for_note(es, "stand_in", mine=True) == "(no fuiste tú: jugó por ti el bot)"
    assert moved_for_note(es, "stand_in") == "(lo jugó el bot suplente)"


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_every_mark_has_words_without_a_symbol(language: str) -> None:
    """The screens draw the turn clock as "◷ 8 s"; the plain table (and whatever reads
    aloud) says a mark's ``words``: letters, digits, spaces and punctuation only."""
    t = Translator(language)
    countdowns = Countdowns()
    countdowns.update(TimersView(grace=((1, 42_000),), turn=((1, 8_000),)))
    observation = Observation(2, order=(1, 2, 3, 4), out=[2], passed=[3])
    marks = [
        *game_flags(t, observation, 1, replace(ANA, connected=False), countdowns),
        *lobby_marks(t, replace(ANA, host=True, connected=False), countdowns),
    ]
    assert any(mark.text != mark.words for mark in marks)  # the clock's symbol
    for mark in marks:
        symbols = [c for c in mark.words if unicodedata.category(c)[0] == "S"]
        assert not symbols, (mark, symbols)
    clock = next(mark for mark in marks if mark.text.startswith("◷"))
    assert clock.words == t._("{n} s to answer").format(n=8)
