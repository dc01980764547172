"""Plays a Table with in-memory client sessions, every message through the real codec."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from dalmuti_net.bots.random_bot import random_answer
from dalmuti_net.client.session import ClientSession
from dalmuti_net.engine import Action, Decision, Observation
from dalmuti_net.host.server import _request_id
from dalmuti_net.host.table import Close, StartBot, Table
from dalmuti_net.protocol import Direction, ProtocolError, decode, encode, unpack, validate
from dalmuti_net.protocol.messages import action_message

Chooser = Callable[[Observation, Decision], Action]


class Client:
    def __init__(self, table: Table, session: ClientSession, *, internal: bool = False) -> None:
        connection = table.connect(internal=internal)
        assert connection is not None
        self.connection = connection
        self.session = session
        self.received: list[dict[str, Any]] = []
        self.challenges: list[dict[str, Any]] = []
        self.closed = False

    def of_type(self, kind: str) -> list[dict[str, Any]]:
        return [message for message in self.received if message["type"] == kind]

    @property
    def errors(self) -> list[dict[str, Any]]:
        return self.of_type("error")

    @property
    def last(self) -> dict[str, Any]:
        return self.received[-1]


def random_chooser(rng: random.Random) -> Chooser:
    return lambda observation, decision: random_answer(decision, rng)


class Harness:
    """A table and its clients; ``pump`` moves messages until everything is quiet."""

    def __init__(self, table: Table, rng: random.Random | None = None) -> None:
        self.table = table
        self.rng = rng or random.Random(0)
        self.clients: list[Client] = []
        self.choosers: dict[int, Chooser] = {}

    def join(
        self,
        name: str,
        *,
        spectator: bool = False,
        token: str | None = None,
        internal: bool = False,
        code: str | None = None,
        chooser: Chooser | None = None,
        person: bool = False,
    ) -> Client:
        session = ClientSession(name, spectator=spectator, token=token, code=code, person=person)
        session.table_id = self.table.table_id  # as its `about` would say
        client = Client(self.table, session, internal=internal)
        self.clients.append(client)
        if chooser is not None:
            self.choosers[client.connection] = chooser
        self.send(client, session.hello())
        return client

    def send(self, client: Client, message: dict[str, Any]) -> None:
        """``message`` through the codec, refused as the server refuses it if it is invalid."""
        self.send_body(client, encode(message)[4:])

    def send_body(self, client: Client, body: bytes) -> None:
        request_id = None
        try:
            raw = unpack(body)
            request_id = _request_id(raw)
            message = validate(raw, Direction.TO_HOST)
        except ProtocolError as error:
            self.table.refuse(client.connection, error, request_id)
        else:
            self.table.receive(client.connection, message)
        self.deliver()

    def deliver(self) -> None:
        for effect in self.table.take_effects():
            if isinstance(effect, StartBot):
                self.join(
                    effect.name,
                    token=effect.token,
                    internal=True,
                    chooser=lambda o, d: random_answer(d, self.rng),
                )
            elif isinstance(effect, Close):
                for client in self.clients:
                    if client.connection == effect.connection:
                        self._flush(client)
                        client.closed = True
                        self.table.disconnected(client.connection)
        for client in self.clients:
            if not client.closed:
                self._flush(client)

    def _flush(self, client: Client) -> None:
        for message in self.table.take_outbox(client.connection):
            decoded = decode(encode(message)[4:], Direction.TO_CLIENT)
            # The handshake's challenge is kept apart: ``received`` starts at `welcome`.
            kept = client.challenges if decoded["type"] == "challenge" else client.received
            kept.append(decoded)
            client.session.receive(decoded)
        proof, client.session.proof_to_send = client.session.proof_to_send, None
        if proof is not None:  # the host proved it holds the seat: the client's answer
            self.send(client, proof)

    def drop(self, client: Client) -> None:
        client.closed = True
        self.table.disconnected(client.connection)
        self.deliver()

    def step(self, next_hand: bool = True) -> bool:
        """One decision answered by some bot client (or, with ``next_hand``, the next hand
        dealt when one is over); False when nothing moved."""
        for client in self.clients:
            chooser = self.choosers.get(client.connection)
            session = client.session
            if client.closed or chooser is None or session.decision is None:
                continue
            if session.needs_snapshot:
                self.send(client, {"type": "snapshot_request"})
            assert session.observation is not None
            action = chooser(session.observation, session.decision)
            session.decision = None
            self.send(client, action_message(action))
            return True
        if next_hand and self.table.hand_over():
            self.table.begin_next_hand()
            self.deliver()
            return True
        return False

    def run(self, max_steps: int = 100_000) -> int:
        steps = 0
        while steps < max_steps and self.step():
            steps += 1
        return steps

    def run_until(self, done: Callable[[], bool], max_steps: int = 100_000) -> None:
        """Step until ``done()`` holds (checked before every step)."""
        for _ in range(max_steps):
            if done():
                return
            if not self.step():
                break
        assert done(), "the table stopped before the condition was met"

    def start_with_bots(self, host: Client, bots: int) -> None:
        """``host`` (the host player) seats ``bots`` bots and starts the game."""
        for _ in range(bots):
            self.send(host, {"type": "add_bot", "strategy": "random"})
        self.send(host, {"type": "start"})
