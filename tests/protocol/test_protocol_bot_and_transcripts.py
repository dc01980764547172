"""The example bot plays every decision against a scripted host; the transcripts replay."""

from __future__ import annotations

import importlib.util
import json
import re
import socket
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import trio

from dalmuti_net.protocol import Direction, FrameReader, decode, encode
from tools.examples import DECISIONS, example
from tools.schema import REPO_ROOT

KIT = REPO_ROOT / "protocol"
BOT = KIT / "example_bot.py"
TRANSCRIPTS = KIT / "transcripts"
SECRET_EVENTS = {
    "cards_dealt",
    "tax_cards",
    "merchant_exchange_cards",
    "misdeal_replacement",
}


def test_example_bot_compiles() -> None:
    compile(BOT.read_text(encoding="utf-8"), str(BOT), "exec")


class ScriptedHost:
    """One accepted connection, read frame by frame through the real codec."""

    def __init__(self, stream: trio.SocketStream) -> None:
        self.stream = stream
        self.reader = FrameReader()
        self.bodies: list[bytes] = []

    async def send(self, message: dict[str, Any]) -> None:
        await self.stream.send_all(encode(message))

    async def receive(self) -> dict[str, Any]:
        while not self.bodies:
            data = await self.stream.receive_some(65536)
            assert data, "the bot closed the connection early"
            self.bodies.extend(self.reader.feed(data))
        return decode(self.bodies.pop(0), Direction.TO_HOST)

    async def answer_to(self, decision: dict[str, Any]) -> dict[str, Any]:
        await self.send({"type": "decision", **decision})
        while True:
            message = await self.receive()
            if message["type"] != "heartbeat":
                return message


def _legal(decision: dict[str, Any], answer: dict[str, Any]) -> bool:
    kind = decision["kind"]
    if kind == "play":
        if answer["type"] == "pass":
            return bool(decision["may_pass"])
        return answer["type"] == "play" and answer["set"] in decision["sets"]
    if kind == "tax":
        cards = list(answer["cards"])
        hand = list(decision["hand"])
        return len(cards) == decision["count"] and all(
            cards.count(c) <= hand.count(c) for c in cards
        )
    if kind == "exchange":
        declined = answer["merchant"] is None and answer["card"] is None
        named = answer["merchant"] in decision["merchants"] and answer["card"] in decision["cards"]
        return answer["type"] == "exchange" and (declined or named)
    if kind == "placement":
        return answer["type"] == "place" and answer["position"] in decision["positions"]
    if kind == "misdeal":
        return answer["type"] == "misdeal"
    return answer["type"] == "revolution"


async def test_example_bot_answers_every_decision_over_tcp() -> None:
    listener = (await trio.open_tcp_listeners(0, host="127.0.0.1"))[0]
    port = listener.socket.getsockname()[1]
    finished: dict[str, Any] = {}

    async def run_bot() -> None:
        finished["process"] = await trio.run_process(
            [sys.executable, str(BOT), "127.0.0.1", str(port), "minibot"],
            capture_stdout=True,
            capture_stderr=True,
            check=False,
        )

    async with trio.open_nursery() as nursery:
        nursery.start_soon(run_bot)
        with trio.fail_after(30):
            async with listener:
                host = ScriptedHost(await listener.accept())
            hello = await host.receive()
            assert hello["type"] == "hello" and hello["role"] == "player"
            await host.send(example(Direction.TO_CLIENT, "welcome"))
            # A snapshot that carries a decision is answered like a decision message.
            snapshot = example(Direction.TO_CLIENT, "snapshot")
            await host.send({**snapshot, "decision": {"type": "decision", **DECISIONS["play"]}})
            answer = await host.receive()
            assert _legal(DECISIONS["play"], answer), answer
            follow_with_nothing = {**DECISIONS["play"], "sets": []}
            for decision in (*DECISIONS.values(), follow_with_nothing):
                answer = await host.answer_to(decision)
                assert _legal(decision, answer), (decision, answer)
            # Unknown messages and fields are ignored; the table's end stops the bot.
            await host.send({"type": "from_the_future", "x": 1})
            await host.send({**example(Direction.TO_CLIENT, "table_ended"), "new_field": True})
            await host.stream.aclose()
    process = finished["process"]
    assert process.returncode == 0, process.stderr.decode()
    assert b"table_ended" in process.stdout


# ------------------------------------------------------------------ transcripts


def _recorder() -> ModuleType:
    spec = importlib.util.spec_from_file_location("transcript_record", TRANSCRIPTS / "record.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_transcripts_regenerate_identically_from_their_seed() -> None:
    files = _recorder().record()
    committed = {p.name for p in TRANSCRIPTS.iterdir() if p.suffix in (".jsonl", ".json")}
    assert committed == set(files), "run `python protocol/transcripts/record.py`"
    for name, text in files.items():
        assert (TRANSCRIPTS / name).read_text(encoding="utf-8") == text, (
            f"protocol/transcripts/{name} is stale: run `python protocol/transcripts/record.py`"
        )


def _entries(name: str) -> list[dict[str, Any]]:
    lines = (TRANSCRIPTS / f"{name}.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines]


def test_transcripts_hold_real_frames_of_a_game_with_every_optional_rule() -> None:
    game = json.loads((TRANSCRIPTS / "game.json").read_text(encoding="utf-8"))
    assert all(value for key, value in game["rules"].items() if key != "hand_limit")
    seen_types: set[str] = set()
    for name in (*game["players"], game["spectator"]):
        for entry in _entries(name):
            direction = Direction.TO_HOST if entry["from"] == "client" else Direction.TO_CLIENT
            frame = bytes.fromhex(entry["hex"])
            assert decode(frame[4:], direction) == entry["message"]
            assert encode(entry["message"]) == frame
            seen_types.add(entry["message"]["type"])
    for wanted in ("misdeal_resolved", "misdeal_replacement", "merchant_exchange_cards", "ack"):
        assert wanted in seen_types


def test_the_spectator_transcript_has_no_secrets() -> None:
    game = json.loads((TRANSCRIPTS / "game.json").read_text(encoding="utf-8"))
    received = [e["message"] for e in _entries(game["spectator"]) if e["from"] == "host"]
    assert not SECRET_EVENTS & {m["type"] for m in received}
    assert all(
        m["game"] is None or m["game"]["hand"] is None for m in received if m["type"] == "snapshot"
    )
    events = [m["seq"] for m in received if "seq" in m and m["type"] != "snapshot"]
    assert events == list(range(1, len(events) + 1))


LIVE_RULES = """
[rules]
scoring = true
hand_limit = 1
misdeal_chance = 0.5
merchant_exchange = true

[table]
between_hands = 0
bot_pace = 0
"""


async def test_two_example_bots_play_a_whole_table_at_a_real_host(tmp_path: Path) -> None:
    rules = tmp_path / "rules.toml"
    rules.write_text(LIVE_RULES, encoding="utf-8")
    with socket.socket() as probe:  # a port free now; the host picks another if it is taken
        probe.bind(("127.0.0.1", 0))
        wanted = probe.getsockname()[1]
    command = [sys.executable, "-m", "dalmuti_net.cli", "host", "--headless", "--no-announce"]
    command += ["--interface", "127.0.0.1", "--port", str(wanted), "--rules", str(rules)]
    command += ["--bots", "4", "--autostart", "6", "--seed", "5"]
    host = await trio.lowlevel.open_process(command, stdout=subprocess.PIPE)
    results: list[subprocess.CompletedProcess[bytes]] = []
    try:
        with trio.fail_after(60):
            assert host.stdout is not None
            said = b""
            while (found := re.search(rb"open on port (\d+)", said)) is None:
                chunk = await host.stdout.receive_some()
                assert chunk, said.decode()
                said += chunk
            port = found.group(1).decode()

            async def bot(name: str) -> None:
                bot_command = [sys.executable, str(BOT), "127.0.0.1", port, name]
                results.append(await trio.run_process(bot_command, capture_stdout=True))

            async with trio.open_nursery() as nursery:
                nursery.start_soon(bot, "alpha")
                nursery.start_soon(bot, "beta")
    finally:
        host.terminate()
        await host.wait()
        if host.stdout is not None:
            await host.stdout.aclose()
    assert len(results) == 2
    for result in results:
        assert b"'table_ended'" in result.stdout and b"'hand_limit'" in result.stdout
