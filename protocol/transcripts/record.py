"""Record a deterministic game as the frames every connection sent and received.

Six players and one spectator at a table with every optional rule on (two hands, a
misdeal chance of one half), driven through the host's sans-I/O table core and the real
codec; each player answers its decisions with the random bot seeded from ``SEED``. The
seed is one whose second hand has a misdeal the Greater Dalmuti decides and a merchant
exchange.

    python protocol/transcripts/record.py [OUT_DIR]

writes ``<name>.jsonl`` per connection (one line per frame: ``from`` "client" or "host",
``hex`` the whole frame, ``message`` the decoded map) and ``game.json`` (the settings and
where PROTOCOL.md's sequences are taken from). A second table (``record_scenes``: five
players, a newcomer, every holder of both Jesters declaring) gives the newcomer and
Greater Revolution sequences; a third (``record_timer_table``: four players and a turn
timer) is played through the host's server itself, on a mock clock, for the `timers` and
`moved_for` it sends; ``stdio.jsonl`` is what ``dalmuti bot --exec`` would have sent one
seat's program for its first decisions, with the answers it gave.
"""

from __future__ import annotations

import itertools
import json
import random
import sys
from pathlib import Path
from typing import Any

import trio
import trio.testing

from dalmuti_net.bots.random_bot import random_answer
from dalmuti_net.engine import DeclareRevolution, RevolutionDecision, Rules
from dalmuti_net.host.server import TableServer
from dalmuti_net.host.table import Close, Limits, Table
from dalmuti_net.protocol import PROTOCOL_VERSION, Direction, FrameReader, decode, encode
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
SCENES_SEED = 6
SCENE_PLAYERS = ("Gus", "Hana", "Ines", "Jon", "Kim")
NEWCOMER = "Lou"
SCENE_SPECTATOR = "Max"
SCENE_RULES = Rules(scoring=True, hand_limit=2)
TIMER_SEED = 2
TIMER_PLAYERS = ("Nia", "Oto", "Pia", "Quin")
TIMER_SPECTATOR = "Rae"
TIMER_RULES = Rules(scoring=True, hand_limit=1, first_deal_revolution=True)
TIMER_LIMITS = Limits(turn_timer_ms=10_000)
STDIO_SEAT = "Eli"
STDIO_DECISIONS = 2
HERE = Path(__file__).resolve().parent

Entry = dict[str, Any]


class Recorder:
    def __init__(
        self,
        seed: int,
        rules: Rules = RULES,
        players: tuple[str, ...] = PLAYERS,
        spectator: str = SPECTATOR,
        *,
        name: str = "Transcript table",
        table_id: str = "transcript-table",
        declares: bool = False,
    ) -> None:
        tokens = (f"token-{n}" for n in itertools.count(1))
        self.table = Table(
            name,
            rules,
            seed=seed,
            token_factory=lambda: next(tokens),
            table_id=table_id,
        )
        self.players = players
        self.spectator = spectator
        self.declares = declares
        """Every holder of both Jesters declares a revolution (else: the random bot's)."""
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
        for name in self.players:
            owed = self.owed.get(name)
            if owed is None:
                continue
            self.owed[name] = None
            decision = decision_from_message(owed)
            action = random_answer(decision, self.rng)
            if self.declares and isinstance(decision, RevolutionDecision):
                action = DeclareRevolution(True)
            answer = {**action_message(action), "decision_id": owed["decision_id"]}
            # The host player numbers its requests, to show `ack`.
            self.send(name, answer, with_id=name == self.players[0])
            return True
        if self.table.hand_over():
            self.table.begin_next_hand()
            self.flush()
            return True
        return False

    def play(self) -> None:
        for name in self.players:
            self.join(name)
        self.join(self.spectator, role="spectator")
        self.send(self.players[0], {"type": "start"}, with_id=True)
        self.send(self.spectator, {"type": "chat", "text": "good luck, all"})
        self.finish()

    def finish(self) -> None:
        while self.answer_one():
            pass
        assert self.table.phase == "ended", "the recorded game did not finish"
        for name in (*self.players, self.spectator):
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


def record_scenes(seed: int) -> Recorder:
    """A second table, for the newcomer and Greater Revolution sequences: five players, a
    sixth joins during the first hand (the next hand's Greater Dalmuti seats them), and
    every holder of both Jesters declares a revolution."""
    recorder = Recorder(
        seed,
        SCENE_RULES,
        SCENE_PLAYERS,
        SCENE_SPECTATOR,
        name="Scenes table",
        table_id="scenes-table",
        declares=True,
    )
    for name in SCENE_PLAYERS:
        recorder.join(name)
    recorder.join(SCENE_SPECTATOR, role="spectator")
    recorder.send(SCENE_PLAYERS[0], {"type": "start"}, with_id=True)
    for _ in range(4):  # the first hand is under way
        recorder.answer_one()
    recorder.players = (*SCENE_PLAYERS, NEWCOMER)
    recorder.join(NEWCOMER)
    recorder.finish()
    return recorder


class TimerTable:
    """A table played through the host's server on a clock that moves only when told:
    every step runs until nothing more happens, so each connection's frames come out the
    same every time, and the countdowns the server announces are exact."""

    def __init__(self, seed: int) -> None:
        tokens = (f"token-{n}" for n in itertools.count(1))
        self.table = Table(
            "Timer table",
            TIMER_RULES,
            limits=TIMER_LIMITS,
            seed=seed,
            token_factory=lambda: next(tokens),
            table_id="timer-table",
        )
        self.server = TableServer(self.table, between_hands=0)
        self.rng = random.Random(seed)
        self.streams: dict[str, trio.abc.Stream] = {}
        self.logs: dict[str, list[Entry]] = {}
        self.owed: dict[str, dict[str, Any] | None] = {}
        self.clock = trio.testing.MockClock()
        self.timed_out: str | None = None
        """The seat whose turn timer was let run out, once."""

    def record(self) -> dict[str, list[Entry]]:
        trio.run(self._play, clock=self.clock)
        return self.logs

    async def _settle(self) -> None:
        await trio.testing.wait_all_tasks_blocked()

    async def _read(self, name: str, stream: trio.abc.Stream) -> None:
        frames = FrameReader()
        while data := await stream.receive_some(65536):
            for body in frames.feed(data):
                frame = len(body).to_bytes(4, "big") + body
                message = decode(body, Direction.TO_CLIENT)
                self.logs[name].append({"from": "host", "hex": frame.hex(), "message": message})
                if message["type"] == "error":
                    raise AssertionError(f"{name} was refused: {message}")
                if message["type"] == "decision":
                    self.owed[name] = message
                elif message["type"] == "snapshot" and message["decision"] is not None:
                    self.owed[name] = message["decision"]
                elif message["type"] == "moved_for" and message["player"] == self._id(name):
                    self.owed[name] = None

    def _id(self, name: str) -> int | None:
        welcome = next(e for e in self.logs[name] if e["message"]["type"] == "welcome")
        player: int | None = welcome["message"]["player"]
        return player

    async def _send(self, name: str, message: dict[str, Any]) -> None:
        frame = encode(message)
        self.logs[name].append({"from": "client", "hex": frame.hex(), "message": message})
        await self.streams[name].send_all(frame)
        await self._settle()

    async def _join(self, nursery: trio.Nursery, name: str, role: str = "player") -> None:
        client_end, server_end = trio.testing.memory_stream_pair()
        nursery.start_soon(self.server.handle_stream, server_end, False)
        self.streams[name], self.logs[name], self.owed[name] = client_end, [], None
        nursery.start_soon(self._read, name, client_end)
        hello = {"type": "hello", "version": PROTOCOL_VERSION, "name": name, "role": role}
        await self._send(name, {**hello, "software": "transcript-recorder"})

    async def _play(self) -> None:
        async with trio.open_nursery() as nursery:
            await nursery.start(self.server.run)
            for name in TIMER_PLAYERS:
                await self._join(nursery, name)
            await self._send(TIMER_PLAYERS[0], {"type": "start", "id": 1})
            while self.table.phase != "ended":
                await self._step(nursery)
            for name in (*TIMER_PLAYERS, TIMER_SPECTATOR):
                await self._send(name, {"type": "goodbye", "reason": "the game is over"})
            nursery.cancel_scope.cancel()

    async def _step(self, nursery: trio.Nursery) -> None:
        """Answer one owed decision; the first time one seat alone owes a play, let its
        turn timer run out instead, with a spectator arriving while it runs."""
        owing = [name for name in TIMER_PLAYERS if self.owed[name] is not None]
        if not owing:
            raise AssertionError("the timer table stopped with nobody to answer")
        name = owing[0]
        owed = self.owed[name]
        assert owed is not None
        if self.timed_out is None and len(owing) == 1 and owed["kind"] == "play":
            self.timed_out = name
            allowed = TIMER_LIMITS.turn_timer_ms
            assert allowed is not None
            self.clock.jump(0.4 * allowed / 1000)  # the spectator arrives 4 s into the turn
            await self._settle()
            await self._join(nursery, TIMER_SPECTATOR, role="spectator")
            for _ in range(2):  # past the host's heartbeats, then past the deadline
                self.clock.jump(0.3 * allowed / 1000)
                await self._settle()
            return
        self.owed[name] = None
        action = random_answer(decision_from_message(owed), self.rng)
        await self._send(name, {**action_message(action), "decision_id": owed["decision_id"]})


def record_timer_table(seed: int) -> dict[str, list[Entry]]:
    return TimerTable(seed).record()


def _names(log: list[Entry]) -> dict[int, str]:
    return {
        seat["player"]: seat["name"]
        for e in log
        if e["message"]["type"] == "table"
        for seat in e["message"]["table"]["players"]
    }


def scene_sources(logs: dict[str, list[Entry]]) -> dict[str, Any] | None:
    """Who decided the newcomer's place and in which hand; who declared a Greater
    Revolution and in which hand (each seat's own stream shows its decision)."""
    spectator = [e["message"] for e in logs[SCENE_SPECTATOR] if e["from"] == "host"]
    names = _names(logs[SCENE_SPECTATOR])
    found: dict[str, Any] = {}
    hand = 0
    for message in spectator:
        kind = message["type"]
        if kind == "hand_started":
            hand = message["hand"]
        elif kind == "newcomer_placed" and message["chosen_by"] is not None:
            found.setdefault("placement", {"seat": names[message["chosen_by"]], "hand": hand + 1})
        elif kind == "revolution_declared" and message["greater"]:
            found.setdefault("greater_revolution", {"seat": names[message["player"]], "hand": hand})
    return found if len(found) == 2 else None


def misdeal_source(logs: dict[str, list[Entry]], hand: int) -> dict[str, str]:
    """The Greater Dalmuti who decided hand ``hand``'s misdeal, and the Greater Peon."""
    spectator = [e["message"] for e in logs[SPECTATOR] if e["from"] == "host"]
    names = _names(logs[SPECTATOR])
    started = next(m for m in spectator if m["type"] == "hand_started" and m["hand"] == hand)
    return {"decider": names[started["order"][0]], "peon": names[started["order"][-1]]}


def stdio_transcript(log: list[Entry]) -> str:
    """What `dalmuti bot --exec` would have sent a program playing this seat for its first
    decisions, and the program's answers (the recorded client's), as JSON lines."""
    from dalmuti_net.client.session import ClientSession
    from dalmuti_net.client.stdio import decision_request, encode_line

    session = ClientSession("stdio")
    lines: list[str] = []
    pending: dict[str, Any] | None = None
    for entry in log:
        message = entry["message"]
        if entry["from"] == "client":
            if pending is not None and message["type"] != "heartbeat":
                answer = encode_line(message).decode().rstrip("\n")
                lines.append(json.dumps({"from": "program", "line": answer}))
                pending = None
            continue
        session.receive(message)
        if message["type"] == "decision" and len(lines) < 2 * STDIO_DECISIONS:
            assert session.decision is not None
            request = decision_request(
                session.player, session.decision, message, session.observation
            )
            line = encode_line(request).decode().rstrip("\n")
            lines.append(json.dumps({"to": "program", "line": line}))
            pending = message
    ended = session.observation.ended if session.observation is not None else None
    assert ended is not None
    last = {
        "type": "table_ended",
        "you": session.player,
        "standings": [list(r) for r in ended.standings],
    }
    lines.append(json.dumps({"to": "program", "line": encode_line(last).decode().rstrip("\n")}))
    return "".join(line + "\n" for line in lines)


def record(seed: int = SEED) -> dict[str, str]:
    """File name -> text of every transcript file."""
    recorder = Recorder(seed)
    recorder.play()
    source = sequence_source(recorder.logs)
    if source is None:
        raise AssertionError(f"seed {seed} gives no hand with a misdeal and an exchange")
    scenes = record_scenes(SCENES_SEED)
    scene = scene_sources(scenes.logs)
    if scene is None:
        raise AssertionError(f"seed {SCENES_SEED} gives no placement and Greater Revolution")
    timer_logs = record_timer_table(TIMER_SEED)
    files = {
        f"{name}.jsonl": "".join(json.dumps(e, ensure_ascii=False) + "\n" for e in log)
        for name, log in (*recorder.logs.items(), *scenes.logs.items(), *timer_logs.items())
    }
    files["stdio.jsonl"] = stdio_transcript(recorder.logs[STDIO_SEAT])
    game = {
        "seed": seed,
        "rules": RULES.to_dict(),
        "players": list(PLAYERS),
        "spectator": SPECTATOR,
        "sequence_hand": source[0],
        "sequence_seat": source[1],
        "misdeal": misdeal_source(recorder.logs, source[0]),
        "stdio_seat": STDIO_SEAT,
        "scenes": {
            "seed": SCENES_SEED,
            "rules": SCENE_RULES.to_dict(),
            "players": list(SCENE_PLAYERS),
            "newcomer": NEWCOMER,
            "spectator": SCENE_SPECTATOR,
            **scene,
        },
        "timers": {
            "seed": TIMER_SEED,
            "rules": TIMER_RULES.to_dict(),
            "turn_timer_ms": TIMER_LIMITS.turn_timer_ms,
            "players": list(TIMER_PLAYERS),
            "spectator": TIMER_SPECTATOR,
        },
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
