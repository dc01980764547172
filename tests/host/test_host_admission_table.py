"""Admission at the table core, with addresses and the clock as plain values: a resume is
never locked out by a flood from its own address, join codes are slowed per address and
the host player is told, and one address cannot take every seat, spectator place or the
chat."""

from __future__ import annotations

from typing import Any

from dalmuti_net.host.admission import BURST_FACTOR, FIRST_WAIT_S, FREE_GUESSES
from dalmuti_net.host.table import WRONG_CODES, Limits, Table, Tell
from dalmuti_net.protocol import PROTOCOL_VERSION
from dalmuti_net.protocol.resume import client_proof, seat_id


def hello(name: str, **more: Any) -> dict[str, Any]:
    return {"type": "hello", "version": PROTOCOL_VERSION, "role": "player", "name": name, **more}


def say(table: Table, connection: int, message: dict[str, Any], now: float) -> list[Any]:
    table.receive(connection, message, now)
    return table.take_outbox(connection)


def codes(messages: list[dict[str, Any]]) -> list[str]:
    return [m["code"] for m in messages if m["type"] == "error"]


def seated(table: Table, name: str, address: str, now: float = 0.0, **more: Any) -> str:
    connection = table.connect(address=address, now=now)
    welcome = say(table, connection, hello(name, **more), now)[0]
    assert welcome["type"] == "welcome", welcome
    return str(welcome["token"])


def resume(table: Table, address: str, token: str, now: float, **more: Any) -> list[Any]:
    """A resume's two steps from a new connection at ``address``: what the second got."""
    connection = table.connect(address=address, now=now)
    nonce = "1" * 32
    asked = hello("Ana", resume={"seat": seat_id(token), "nonce": nonce}, **more)
    challenge = say(table, connection, asked, now)
    assert [m["type"] for m in challenge] == ["challenge"], challenge
    # The flood goes on between the challenge and the proof.
    for _ in range(40):
        table.connect(address=address, now=now)
    assert not table.connections[connection].closing
    proof = client_proof(token, table.table_id, nonce, challenge[0]["nonce"])
    return say(table, connection, {"type": "prove", "proof": proof}, now)


def test_a_resume_is_let_in_right_after_a_flood_from_its_own_address() -> None:
    table = Table("Flooded", limits=Limits(max_unwelcomed_per_address=8))
    token = seated(table, "Ana", "10.0.0.1")
    # (still connected: in the lobby a dropped seat is freed; a resume replaces it)
    # A flood of young idle connections, four times the limit and more, all at once.
    flood = [table.connect(address="10.0.0.1", now=5.0) for _ in range(8 * BURST_FACTOR + 20)]
    assert all(connection is not None for connection in flood)
    waiting = [c for c in table.connections.values() if not (c.closing or c.greeted)]
    assert len(waiting) == 8 * BURST_FACTOR  # the flood holds no more than this
    got = resume(table, "10.0.0.1", token, 5.0)
    assert [m["type"] for m in got][:2] == ["welcome", "snapshot"], got
    assert got[0]["player"] == 1


def test_wrong_codes_make_the_address_wait_and_the_host_player_is_told() -> None:
    table = Table("Coded", code="4321-8765-1111")
    now = 0.0
    for _ in range(FREE_GUESSES + 1):
        connection = table.connect(address="192.168.1.7", now=now)
        assert codes(say(table, connection, hello("Eve", code="0000"), now)) == ["bad_code"]
    # Waiting now: even the right code is not looked at, and says so.
    connection = table.connect(address="192.168.1.7", now=now + 1)
    refused = say(table, connection, hello("Eve", code="432187651111"), now + 1)
    assert codes(refused) == ["bad_code"] and "try again in 1 s" in refused[0]["message"]
    # Another address is not slowed; groups typed run together or with spaces are fine.
    seated(table, "Bea", "192.168.1.8", now, code="4321 8765 1111")
    now += FIRST_WAIT_S
    seated(table, "Cid", "192.168.1.7", now, code="4321-8765-1111")
    tells = [e for e in table.take_effects() if isinstance(e, Tell)]
    assert tells == []
    connection = table.connect(address="192.168.1.7", now=now)
    say(table, connection, hello("Eve", code="9"), now)
    (tell,) = [e for e in table.take_effects() if isinstance(e, Tell)]
    assert tell.told.template == WRONG_CODES
    assert str(tell.told) == "Someone at 192.168.1.7 has tried 5 wrong join codes."


def test_a_resume_is_judged_by_its_proof_while_its_address_waits() -> None:
    table = Table("Coded", code="1")
    token = seated(table, "Ana", "10.0.0.1", code="1")
    # (still connected: in the lobby a dropped seat is freed; a resume replaces it)
    for _ in range(FREE_GUESSES + 3):  # a neighbour behind the same address guesses
        connection = table.connect(address="10.0.0.1", now=1.0)
        say(table, connection, hello("Eve", code="2"), 1.0)
    assert table.guesses.wait_left("10.0.0.1", 1.0) > 0
    got = resume(table, "10.0.0.1", token, 1.0, code="1")
    assert got[0]["type"] == "welcome"


def test_one_address_takes_at_most_six_seats_and_sixteen_spectator_places() -> None:
    table = Table("Places")
    for n in range(6):
        seated(table, f"P{n}", f"2001:db8::{n + 1}")  # one /64: one address
    connection = table.connect(address="2001:db8::99")
    refused = say(table, connection, hello("Seventh"), 0.0)
    assert codes(refused) == ["table_full"] and "6 seats" in refused[0]["message"]
    seated(table, "Other", "2001:db8:0:1::1")  # another /64
    seated(table, "Home", "127.0.0.1")  # the host's own machine: not held to the caps
    for n in range(16):
        seated(table, f"W{n}", "10.0.0.5", role="spectator")
    connection = table.connect(address="10.0.0.5")
    refused = say(table, connection, hello("W16", role="spectator"), 0.0)
    assert codes(refused) == ["table_full"]
    assert "16 spectator places" in refused[0]["message"]


def test_chat_from_one_address_is_slowed_not_from_the_next() -> None:
    table = Table("Chatty")
    seated(table, "Ana", "10.0.0.1")
    seated(table, "Bea", "10.0.0.1")
    ana, bea = list(table.connections)
    refused = []
    for n in range(12):
        who = ana if n % 2 else bea
        refused += codes(say(table, who, {"type": "chat", "text": f"line {n}"}, 0.0))
    assert refused == ["rate_limited", "rate_limited"]  # both of one address share a budget
    seated(table, "Cid", "10.0.0.2")
    cid = list(table.connections)[-1]
    assert codes(say(table, cid, {"type": "chat", "text": "hi"}, 0.0)) == []
    assert codes(say(table, ana, {"type": "chat", "text": "later"}, 4.0)) == []


def test_a_resume_needs_no_join_code_its_proof_lets_it_in() -> None:
    # A player's terminal killed and started again with `dalmuti join ADDRESS` (as the
    # table screen tells them) has the seat's token but not the code: the proof of the
    # token says more than the code (a page's seat comes back so through the web port).
    table = Table("Coded", code="4321-8765-1111")
    token = seated(table, "Ana", "10.0.0.1", code="4321-8765-1111")
    got = resume(table, "10.0.0.1", token, 1.0)
    assert got[0]["type"] == "welcome" and got[0]["player"] == 1
    # A wrong code beside a resume is not a guess: the proof is what is judged.
    for _ in range(FREE_GUESSES + 2):
        got = resume(table, "10.0.0.1", token, 2.0, code="0000")
        assert got[0]["type"] == "welcome"
    assert table.guesses.wait_left("10.0.0.1", 2.0) == 0
    # A new seat still needs the code.
    connection = table.connect(address="10.0.0.1", now=3.0)
    assert codes(say(table, connection, hello("Eve"), 3.0)) == ["bad_code"]


def test_an_unseen_listener_takes_no_spectators_place_nor_name() -> None:
    """A listener for others who each hold a place (the web table's watch for its pages)
    is let in when every spectator place is taken, leaves the last place to a person,
    and holds no name against anyone; the table shows only the person watching."""
    table = Table("Watched", limits=Limits(max_spectators=1))
    listener = table.connect(internal=True, unseen=True)
    welcome = say(table, listener, hello("Ana", role="spectator"), 0.0)[0]
    assert welcome["type"] == "welcome", welcome
    person = table.connect(address="10.0.0.1")
    welcome = say(table, person, hello("Ana", role="spectator"), 0.0)[0]
    assert welcome["type"] == "welcome", welcome
    assert table.connections[person].name == "Ana"  # not "Ana (2)"
    assert table.table_message()["watching"] == ["Ana"]
    assert table.table_message()["spectators"] == 1
    third = table.connect(internal=True, unseen=True)
    assert say(table, third, hello("Bo", role="spectator"), 0.0)[0]["type"] == "welcome"
    refused = table.connect(address="10.0.0.2")
    assert codes(say(table, refused, hello("Cy", role="spectator"), 0.0)) == ["table_full"]
