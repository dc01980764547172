"""Helpers for the terminal UI tests: a real sans-I/O table with bots, and screen text."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from typing import Any

import pytest

from dalmuti_net.bots.random_bot import random_answer
from dalmuti_net.client.runner import Status
from dalmuti_net.client.session import ClientSession
from dalmuti_net.client.ui.screen import Line, render
from dalmuti_net.client.ui.state import ClientUi, Effect, Send, Wake
from dalmuti_net.engine import Rules
from dalmuti_net.host.table import Close, StartBot, Table
from dalmuti_net.lang.i18n import LANGUAGES, Translator
from dalmuti_net.lang.text import width
from dalmuti_net.protocol import Direction, ProtocolError, decode, encode
from dalmuti_net.protocol.messages import action_message


def english_by_default() -> list[Any]:
    """Every language as a parameter, all but English under `slow`: for tests that play a
    whole game per language where the language changes only the words (each screen is
    drawn in every language at 80x24 by tests/ui/test_ui_decision_words.py)."""
    return [
        language if language == "en" else pytest.param(language, marks=pytest.mark.slow)
        for language in LANGUAGES
    ]


def screen_text(lines: list[Line]) -> str:
    return "\n".join("".join(text for _, text in line).rstrip() for line in lines)


def draw(ui: ClientUi, cols: int = 80, rows: int = 24) -> str:
    lines = render(ui, cols, rows)
    assert len(lines) == rows
    for line in lines:
        assert width("".join(text for _, text in line)) == cols
    return screen_text(lines)


class LocalTable:
    """A Table, one UI client and random bots, every message through the real codec."""

    def __init__(
        self,
        rules: Rules | None = None,
        *,
        seed: int = 1,
        language: str = "en",
        name: str = "Ana",
        bots: int = 3,
        headless: bool = True,
        spectator: bool = False,
    ) -> None:
        self.table = Table("Test table", rules or Rules(), seed=seed, headless=headless)
        self.rng = random.Random(seed)
        self.session = ClientSession(name, spectator=spectator, person=True)  # a screen
        self.ui = ClientUi(Translator(language), self.session, address="test")
        self.bots: dict[int, ClientSession] = {}
        self.sent: list[dict[str, Any]] = []
        self.wakes: list[Wake] = []
        """Pauses the UI asked for; over at once in ``pump`` unless ``hold_wakes``."""
        self.hold_wakes = False
        self.ui_connection = self._connect(self.session)
        self.ui.on_status(Status.CONNECTED)
        for _ in range(bots):
            self.table.add_bot("random")
        self.pump()

    def _connect(self, session: ClientSession, internal: bool = False) -> int:
        connection = self.table.connect(internal=internal)
        assert connection is not None
        session.table_id = self.table.table_id  # as its `about` would say
        self._send(connection, session.hello())
        return connection

    def _send(self, connection: int, message: dict[str, Any]) -> None:
        """Through the codec; a message it refuses is refused as the server does."""
        try:
            decoded = decode(encode(message)[4:], Direction.TO_HOST)
        except ProtocolError as error:
            self.table.refuse(connection, error, message.get("id"))
            return
        self.table.receive(connection, decoded)

    def send(self, message: dict[str, Any]) -> None:
        """A request from the UI client."""
        self.sent.append(message)
        self._send(self.ui_connection, message)
        self.pump()

    def press(self, *keys: str) -> list[Effect]:
        """Keys to the UI; its messages go to the table."""
        effects: list[Effect] = []
        for key in keys:
            for effect in self.ui.press(key):
                effects.append(effect)
                if isinstance(effect, Send):
                    self.send(effect.message)
        return effects

    def pump(self) -> None:
        """Deliver everything; bots answer their decisions; until nothing moves."""
        while True:
            moved = False
            for effect in self.table.take_effects():
                if isinstance(effect, StartBot):
                    session = ClientSession(effect.name, token=effect.token)
                    self.bots[self._connect(session, internal=True)] = session
                    moved = True
                elif isinstance(effect, Close):
                    self.table.disconnected(effect.connection)
            for message in self._take(self.ui_connection):
                self.session.receive(message)
                for effect in self.ui.on_message(message):
                    if isinstance(effect, Send):
                        self._send(self.ui_connection, effect.message)
                    elif isinstance(effect, Wake):
                        self.wakes.append(effect)
                moved = True
            if self.wakes and not self.hold_wakes:  # a pause (auto-pass's) is over at once
                self.wakes.clear()
                for effect in self.ui.wake():
                    if isinstance(effect, Send):
                        self._send(self.ui_connection, effect.message)
                moved = True
            for connection, session in self.bots.items():
                for message in self._take(connection):
                    session.receive(message)
                    moved = True
                if session.proof_to_send is not None:  # a bot taking its seat back
                    self._send(connection, session.proof_to_send)
                    session.proof_to_send = None
                if session.decision is not None and not session.needs_snapshot:
                    action = random_answer(session.decision, self.rng)
                    session.decision = None
                    self._send(connection, action_message(action))
                    moved = True
            if not moved:
                return

    def _take(self, connection: int) -> list[dict[str, Any]]:
        return [
            decode(encode(m)[4:], Direction.TO_CLIENT) for m in self.table.take_outbox(connection)
        ]

    def start(self) -> None:
        self.send({"type": "start"})

    def next_hand(self) -> None:
        self.table.begin_next_hand()
        self.pump()

    def play_until(self, done: Callable[[], bool], limit: int = 2000) -> None:
        """Answer each decision of the UI's seat at random until ``done()``."""
        for _ in range(limit):
            if done():
                return
            decision = self.session.decision
            if self.ui.model.choosing is None or decision is None:
                self.pump()
                continue
            self.send(self.ui.model._answer_message(random_answer(decision, self.rng)))
        raise AssertionError("never done")


class SecondPlayer:
    """Bo at the same table, with a table model of his own; played at random by the local
    table while ``table.bots`` holds his connection."""

    def __init__(self, table: LocalTable, language: str) -> None:
        self.table = table
        self.language = language
        self.session = ClientSession("Bo", person=True)  # a screen
        self.connection = table._connect(self.session)
        self.look()

    def look(self) -> ClientUi:
        """A table model of Bo's, from a fresh snapshot."""
        self.ui = ClientUi(Translator(self.language), self.session, address="test")
        self.ui.on_status(Status.CONNECTED)
        self.table._send(self.connection, {"type": "snapshot_request"})
        self.pump()
        return self.ui

    def pump(self) -> None:
        self.table.pump()
        for message in self.table._take(self.connection):
            self.session.receive(message)
            self.ui.on_message(message)

    def press(self, key: str) -> None:
        for effect in self.ui.press(key):
            if isinstance(effect, Send):
                self.table._send(self.connection, effect.message)
        self.pump()


CODES = frozenset(
    {"screen", "status", "kind", "tone", "key", "level", "purpose", "action", "waiting_tone"}
)
"""Fields that are codes a front end dispatches on, not words: left as they are."""


def shouted(value: Any, name: str = "") -> Any:
    """The view with each of its words in upper case (its codes as they are)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        changes = {
            f.name: shouted(getattr(value, f.name), f.name) for f in dataclasses.fields(value)
        }
        return dataclasses.replace(value, **changes)
    if isinstance(value, tuple):
        return tuple(shouted(item, name) for item in value)
    if type(value) is str and name not in CODES:
        return value.upper()
    return value
