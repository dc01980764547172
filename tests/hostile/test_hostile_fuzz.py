"""Real hosts' messages (the recorded transcripts), some of them changed at random but
still schema-valid, fed to the session and drawn by every front end's model: whatever a
host sends, a client refuses it as a protocol error or shows it; it never fails."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest

from dalmuti_net.client.plain.narrator import PlainTable
from dalmuti_net.client.session import ClientSession
from dalmuti_net.client.ui.screen import render
from dalmuti_net.client.ui.state import ClientUi
from dalmuti_net.lang.i18n import Translator
from dalmuti_net.protocol import Direction, ProtocolError
from dalmuti_net.protocol.codec import validate

TRANSCRIPTS = Path(__file__).resolve().parents[2] / "protocol" / "transcripts"


def host_messages() -> list[list[dict[str, Any]]]:
    streams = []
    for path in sorted(TRANSCRIPTS.glob("*.jsonl")):
        lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
        streams.append([line["message"] for line in lines if line.get("from") == "host"])
    return streams


def mutate(value: Any, rng: random.Random) -> Any:
    """One change somewhere in ``value``: a number, a list one longer or shorter..."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return rng.choice([0, 1, 2, 3, 5, 8, 12, 13, 14, 80, value + 1, value - 1, 9999])
    if isinstance(value, list) and value:
        value = list(value)
        roll = rng.random()
        if roll < 0.3:
            value.pop(rng.randrange(len(value)))
        elif roll < 0.6:
            value.append(copy.deepcopy(rng.choice(value)))
        else:
            at = rng.randrange(len(value))
            value[at] = mutate(value[at], rng)
        return value
    if isinstance(value, dict) and len(value) > 1:
        value = dict(value)
        key = rng.choice([key for key in value if key != "type"])
        value[key] = mutate(value[key], rng)
    return value


@pytest.mark.parametrize("seed", range(4))
def test_changed_messages_are_refused_or_shown_never_a_failure(seed: int) -> None:
    rng = random.Random(seed)
    streams = host_messages()
    refused = shown = 0
    for _ in range(10):
        session = ClientSession("Ana")
        ui = ClientUi(Translator(rng.choice(["en", "es", "zh_Hant"])), session)
        plain = PlainTable(Translator("en"), session)
        for message in rng.choice(streams):
            if rng.random() < 0.1:
                for _ in range(rng.randint(1, 3)):
                    message = mutate(message, rng)
            try:
                message = validate(message, Direction.TO_CLIENT)
            except ProtocolError:
                continue  # the codec's part, tested elsewhere
            try:
                session.receive(message)
            except ProtocolError:
                refused += 1
                break  # the connection is closed
            ui.on_message(message)
            plain.on_message(message)
            plain.lines()
            if rng.random() < 0.05:
                render(ui, 80, 24)
                render(ui, 40, 12)
            shown += 1
    assert shown > 100 and refused > 0
