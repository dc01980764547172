"""Plays a Table with in-memory client sessions, every message through the real codec."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from dalmuti_net.bots.random_bot import random_answer
from dalmuti_net.client.session import ClientSession
from dalmuti_net.engine import Action, Decision, Observation
from dalmuti_net.host.table import Close, StartBot, Table
from dalmuti_net.protocol import Direction, decode, encode
from dalmuti_net.protocol.messages import action_message

Chooser = Callable[[Observation, Decision], Action]


class Client:
    def __init__(self, table: Table, session: ClientSession, *, internal: bool = False) -> None:
        connection = table.connect(internal=internal)
        assert connection is not None
        self.connection = connection
        self.session = session
        self.received: list[dict[str, Any]] = []
        self.closed = False


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
    ) -> Client:
        session = ClientSession(name, spectator=spectator, token=token, code=code)
        client = Client(self.table, session, internal=internal)
        self.clients.append(client)
        if chooser is not None:
            self.choosers[client.connection] = chooser
        self.send(client, session.hello())
        return client

    def send(self, client: Client, message: dict[str, Any]) -> None:
        frame = encode(message)
        self.table.receive(client.connection, decode(frame[4:], Direction.TO_HOST))
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
            client.received.append(decoded)
            client.session.receive(decoded)

    def drop(self, client: Client) -> None:
        client.closed = True
        self.table.disconnected(client.connection)
        self.deliver()

    def step(self) -> bool:
        """One decision answered by some bot client; False when nobody can act."""
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
        if self.table.hand_over():
            self.table.begin_next_hand()
            self.deliver()
            return True
        return False

    def run(self, max_steps: int = 100_000) -> int:
        steps = 0
        while steps < max_steps and self.step():
            steps += 1
        return steps
