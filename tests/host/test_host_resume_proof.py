"""The host gives a seat back only to a connection that proves it holds the seat's token,
on that connection: a wrong proof, a proof replayed from another connection, or a proof
with no challenge asked is refused and changes nothing (the seat's player stays on)."""

from __future__ import annotations

import random
from typing import Any

import pytest
import trio
from harness import Client, Harness, random_chooser
from recording_clients import loopback_server

from dalmuti_net.client.session import ClientSession
from dalmuti_net.host.table import Table
from dalmuti_net.protocol import PROTOCOL_VERSION, FrameReader, encode, unpack
from dalmuti_net.protocol.resume import client_proof, host_proof, new_nonce, seat_id


def game() -> tuple[Harness, Client]:
    harness = Harness(Table("Game", seed=3), random.Random(3))
    host = harness.join("Host", chooser=random_chooser(harness.rng))
    harness.start_with_bots(host, 3)
    return harness, host


def raw_client(harness: Harness) -> Client:
    """A connection that sends only what the test says (its session just listens)."""
    client = Client(harness.table, ClientSession("Mallory"))
    harness.clients.append(client)
    return client


def asking_back(harness: Harness, token: str, client_nonce: str) -> Client:
    """A connection that says `hello` with ``resume`` and answers nothing by itself."""
    client = raw_client(harness)
    hello: dict[str, Any] = {
        "type": "hello",
        "version": PROTOCOL_VERSION,
        "name": "Mallory",
        "role": "player",
        "resume": {"seat": seat_id(token), "nonce": client_nonce},
    }
    harness.send(client, hello)
    return client


def test_the_challenge_proves_the_host_holds_the_token_and_the_welcome_omits_it() -> None:
    harness, host = game()
    seat = harness.table.seats[host.session.player or 0]
    nonce = new_nonce()
    client = asking_back(harness, seat.token, nonce)
    (challenge,) = client.challenges
    assert challenge["proof"] == host_proof(
        seat.token, harness.table.table_id, nonce, challenge["nonce"]
    )
    assert challenge["nonce"] != nonce and not client.received, "nothing before the proof"
    assert seat.connection == host.connection, "the seat's player is still on"
    proof = client_proof(seat.token, harness.table.table_id, nonce, challenge["nonce"])
    harness.send(client, {"type": "prove", "proof": proof})
    welcome = client.received[0]
    assert welcome["type"] == "welcome" and welcome["player"] == seat.player
    assert welcome["token"] is None and welcome["host"]
    assert host.closed and host.errors[-1]["code"] == "replaced"


def test_a_wrong_proof_is_refused_and_changes_nothing() -> None:
    harness, host = game()
    seat = harness.table.seats[host.session.player or 0]
    nonce = new_nonce()
    client = asking_back(harness, seat.token, nonce)
    challenge = client.challenges[0]
    wrong = client_proof("not-the-token", harness.table.table_id, nonce, challenge["nonce"])
    harness.send(client, {"type": "prove", "proof": wrong})
    assert [e["code"] for e in client.errors] == ["bad_proof"] and client.closed
    assert seat.connection == host.connection and not host.closed


def test_a_proof_from_another_connection_is_worthless_here() -> None:
    """A recorded (or relayed after the fact) `prove` answers one challenge only."""
    harness, host = game()
    seat = harness.table.seats[host.session.player or 0]
    nonce = new_nonce()
    first = asking_back(harness, seat.token, nonce)
    first_challenge = first.challenges[0]
    proof = client_proof(seat.token, harness.table.table_id, nonce, first_challenge["nonce"])
    harness.drop(first)
    again = asking_back(harness, seat.token, nonce)  # the same client nonce, replayed
    assert again.challenges[0]["nonce"] != first_challenge["nonce"], "a fresh host nonce"
    harness.send(again, {"type": "prove", "proof": proof})
    assert [e["code"] for e in again.errors] == ["bad_proof"] and again.closed
    assert seat.connection == host.connection


def test_the_hosts_own_proof_sent_back_is_refused() -> None:
    """Reflection: the challenge's proof, returned as the client's, is not the client's."""
    harness, host = game()
    seat = harness.table.seats[host.session.player or 0]
    client = asking_back(harness, seat.token, new_nonce())
    harness.send(client, {"type": "prove", "proof": client.challenges[0]["proof"]})
    assert [e["code"] for e in client.errors] == ["bad_proof"]
    assert seat.connection == host.connection


def test_a_prove_without_a_challenge_is_refused() -> None:
    harness, host = game()
    client = raw_client(harness)
    harness.send(client, {"type": "prove", "proof": "0" * 64})
    assert [e["code"] for e in client.errors] == ["bad_proof"] and client.closed
    harness.send(host, {"type": "prove", "proof": "0" * 64})
    assert host.errors[-1]["code"] == "bad_proof"


def test_an_unknown_seat_is_refused_before_any_challenge() -> None:
    harness, _host = game()
    client = asking_back(harness, "no-such-token", new_nonce())
    assert not client.challenges and [e["code"] for e in client.errors] == ["bad_token"]


def test_a_token_field_is_no_longer_a_way_in() -> None:
    """Protocol 1's `hello` carried the token itself: now it is an unknown field, ignored,
    and the connection gets a new seat, never the one the token named."""
    harness, host = game()
    seat = harness.table.seats[host.session.player or 0]
    client = raw_client(harness)
    hello = {
        "type": "hello",
        "version": PROTOCOL_VERSION,
        "name": "Old",
        "role": "player",
        "token": seat.token,
    }
    harness.send(client, hello)
    assert client.received[0]["player"] != seat.player
    assert seat.connection == host.connection


async def test_a_client_of_another_version_is_told_both_and_so_is_the_operator(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Both sides show both versions: the client in its refusal, the host's operator in
    one warning per address (an old client retrying does not flood the console)."""
    async with loopback_server(Table("Versions")) as (_server, port, _nursery):
        for _ in range(3):
            stream = await trio.open_tcp_stream("127.0.0.1", port)
            async with stream:
                old = {"type": "hello", "version": 1, "name": "Old", "role": "player"}
                await stream.send_all(encode(old))
                reader = FrameReader()
                with trio.fail_after(10):
                    frames: list[bytes] = []
                    while not frames:
                        frames = reader.feed(await stream.receive_some())
                refusal = unpack(frames[0])
                assert refusal["code"] == "version_mismatch"
                assert (refusal["host_version"], refusal["client_version"]) == (
                    PROTOCOL_VERSION,
                    1,
                )
    told = [r.getMessage() for r in caplog.records if "protocol version 1" in r.getMessage()]
    assert len(told) == 1 and "127.0.0.1" in told[0] and f"version {PROTOCOL_VERSION}" in told[0]
