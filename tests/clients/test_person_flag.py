"""Who says a person plays there (PROTOCOL.md, Bot pace): the tables people use send
``person: true`` in their hello; bots, ``--exec`` programs and the SDK send no such field,
so the host's bots play them flat out."""

from __future__ import annotations

import io

from dalmuti_net.client.plain.runtime import PlainClient
from dalmuti_net.client.session import ClientSession
from dalmuti_net.web.seat import WebSeat


def test_a_session_says_person_only_when_a_person_is_there() -> None:
    assert "person" not in ClientSession("Minibot").hello()
    assert ClientSession("Ana", person=True).hello()["person"] is True
    assert ClientSession("Wes", spectator=True, person=True).hello()["person"] is True


def test_the_web_and_plain_tables_say_a_person_plays() -> None:
    page = object.__new__(WebSeat)  # only its join form is read
    assert page._session({"name": "Ana"}).hello()["person"] is True
    plain = object.__new__(PlainClient)
    plain.seats, plain.recorder = None, None
    plain.stdout = io.StringIO()
    assert plain.new_session("Bo", False, None).hello()["person"] is True
