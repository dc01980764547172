"""Record a deterministic game as the frames every connection sent and received.

Six players and one spectator at a table with every optional rule on (two hands, a
misdeal chance of one half), driven through the host's sans-I/O table core and the real
codec; each player answers its decisions with the random bot seeded from ``SEED``. The
seed is one whose second hand has a misdeal the Greater Dalmuti decides and a merchant
exchange.

    python protocol/transcripts/record.py [OUT_DIR]

writes ``<name>.jsonl`` per connection (one line per frame: ``from`` "client" or "host",
``hex`` the whole frame, ``message`` the decoded map) and ``game.json`` (the settings and
where PROTOCOL.md's hand sequence is taken from).
"""

from __future__ import annotations

import itertools
import json
import random
import sys
from pathlib import Path
from typing import Any

from dalmuti_net.bots.random_bot import random_answer
from dalmuti_net.engine import Rules
from dalmuti_net.host.table import Close, Table
from dalmuti_net.protocol import PROTOCOL_VERSION, Direction, decode, encode
from dalmuti_net.protocol.messages import action_message, decision_from_message

SEED = 16
PLAYERS = ("Ana", "Bo", "Chen", "Dara", "Eli", "Fay")
SPECTATOR = "Sam"
RULES = Rules(
    first_deal_revolution=True,
    stripped_decks=True,
    scoring=True,
    hand_limit=2,
    philanthropic_scoring=True,
    merchant_exchange=True,
    misdeal_chance=0.5,
)
HERE = Path(__file__).resolve().parent

Entry = dict[str, Any]


class Recorder:
    def __init__(self, seed: int) -> None:
        tokens = (f"token-{n}" for n in itertools.count(1))
        self.table = Table(
            "Transcript table",
            RULES,
            seed=seed,
            token_factory=lambda: next(tokens),
            table_id="transcript-table",
        )
        self.rng = random.Random(seed)
        self.connections: dict[str, int] = {}
        self.logs: dict[str, list[Entry]] = {}
        self.owed: dict[str, dict[str, Any] | None] = {}
        self.next_id = 1

    def join(self, name: str, role: str = "player") -> None:
        connection = self.table.connect()
        assert connection is not None
        self.connections[name] = connection
        self.logs[name] = []
        self.owed[name] = None
        hello = {
            "type": "hello",
            "version": PROTOCOL_VERSION,
            "name": name,
            "role": role,
            "software": "transcript-recorder",
        }
        self.send(name, hello)

    def send(self, name: str, message: dict[str, Any], with_id: bool = False) -> None:
        if with_id:
            message = {**message, "id": self.next_id}
            self.next_id += 1
        frame = encode(message)
        self.logs[name].append({"from": "client", "hex": frame.hex(), "message": message})
        self.table.receive(self.connections[name], decode(frame[4:], Direction.TO_HOST))
        self.flush()

    def flush(self) -> None:
        for effect in self.table.take_effects():
            assert isinstance(effect, Close), f"unexpected effect {effect}"
            self.table.disconnected(effect.connection)
        for name, connection in self.connections.items():
            for message in self.table.take_outbox(connection):
                frame = encode(message)
                decoded = decode(frame[4:], Direction.TO_CLIENT)
                self.logs[name].append({"from": "host", "hex": frame.hex(), "message": decoded})
                if decoded["type"] == "error":
                    raise AssertionError(f"{name} was refused: {decoded}")
                if decoded["type"] == "decision":
                    self.owed[name] = decoded
                elif decoded["type"] == "snapshot" and decoded["decision"] is not None:
                    self.owed[name] = decoded["decision"]

    def answer_one(self) -> bool:
        for name in PLAYERS:
            owed = self.owed[name]
            if owed is None:
                continue
            self.owed[name] = None
            action = random_answer(decision_from_message(owed), self.rng)
            # The host player numbers its requests, to show `ack`.
            self.send(name, action_message(action), with_id=name == PLAYERS[0])
            return True
        if self.table.hand_over():
            self.table.begin_next_hand()
            self.flush()
            return True
        return False

    def play(self) -> None:
        for name in PLAYERS:
            self.join(name)
        self.join(SPECTATOR, role="spectator")
        self.send(PLAYERS[0], {"type": "start"}, with_id=True)
        self.send(SPECTATOR, {"type": "chat", "text": "good luck, all"})
        while self.answer_one():
            pass
        assert self.table.phase == "ended", "the recorded game did not finish"
        for name in (*PLAYERS, SPECTATOR):
            self.send(name, {"type": "goodbye", "reason": "the game is over"})


def sequence_source(logs: dict[str, list[Entry]]) -> tuple[int, str] | None:
    """A hand with a decided misdeal and a merchant exchange, and the Merchant who gave."""
    spectator = [e["message"] for e in logs[SPECTATOR] if e["from"] == "host"]
    hand = 0
    misdeal = False
    for message in spectator:
        kind = message["type"]
        if kind == "hand_started":
            hand, misdeal = message["hand"], False
        elif kind == "misdeal_resolved" and message["choice"] == "peon":
            misdeal = True
        elif kind == "merchant_exchanged" and misdeal:
            names = {
                seat["player"]: seat["name"]
                for m in spectator
                if m["type"] == "table"
                for seat in m["table"]["players"]
            }
            return hand, names[message["giver"]]
    return None


def record(seed: int = SEED) -> dict[str, str]:
    """File name -> text of every transcript file."""
    recorder = Recorder(seed)
    recorder.play()
    source = sequence_source(recorder.logs)
    if source is None:
        raise AssertionError(f"seed {seed} gives no hand with a misdeal and an exchange")
    files = {
        f"{name}.jsonl": "".join(json.dumps(e, ensure_ascii=False) + "\n" for e in log)
        for name, log in recorder.logs.items()
    }
    game = {
        "seed": seed,
        "rules": RULES.to_dict(),
        "players": list(PLAYERS),
        "spectator": SPECTATOR,
        "sequence_hand": source[0],
        "sequence_seat": source[1],
    }
    files["game.json"] = json.dumps(game, indent=2) + "\n"
    return files


def main(argv: list[str]) -> int:
    out = Path(argv[0]) if argv else HERE
    out.mkdir(parents=True, exist_ok=True)
    for stale in out.glob("*.jsonl"):
        stale.unlink()
    files = record()
    for name, text in files.items():
        (out / name).write_text(text, encoding="utf-8")
    print(f"wrote {len(files)} files to {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
