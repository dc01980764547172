"""A dalmuti-net bot in plain Python: the standard library and msgpack, nothing else.

    python dalmuti_bot.py HOST[:PORT] [--name NAME] [--code CODE]

It takes a seat, answers every decision the host sends (shedding its worst cards first),
keeps the connection alive with heartbeats, and exits when the table ends. Written from
PROTOCOL.md alone: it does not import dalmuti_net.
"""

from __future__ import annotations

import argparse
import select
import socket
import struct
import sys
import time

import msgpack

PROTOCOL_VERSION = 2
DEFAULT_PORT = 7341
MAX_FRAME_BYTES = 64 * 1024
JESTER = 13
SOFTWARE = "dalmuti-example-python/1.0"


class HostClosed(Exception):
    """The host closed the connection."""


class Connection:
    """Frames over a TCP socket: a 4-byte big-endian length, then one msgpack map."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.buffer = b""
        self.last_sent = time.monotonic()

    def send(self, message: dict) -> None:
        body = msgpack.packb(message, use_bin_type=True)
        self.sock.sendall(struct.pack(">I", len(body)) + body)
        self.last_sent = time.monotonic()

    def receive(self, timeout: float) -> list[dict]:
        """Every whole message that arrives within ``timeout`` seconds (maybe none)."""
        readable, _, _ = select.select([self.sock], [], [], timeout)
        if readable:
            data = self.sock.recv(65536)
            if not data:
                raise HostClosed("the host closed the connection")
            self.buffer += data
        messages = []
        while len(self.buffer) >= 4:
            (size,) = struct.unpack(">I", self.buffer[:4])
            if size == 0 or size > MAX_FRAME_BYTES:
                raise HostClosed(f"the host sent a frame of {size} bytes")
            if len(self.buffer) < 4 + size:
                break
            body, self.buffer = self.buffer[4 : 4 + size], self.buffer[4 + size :]
            message = msgpack.unpackb(body, raw=False)
            if isinstance(message, dict) and isinstance(message.get("type"), str):
                messages.append(message)
        return messages


# ---------------------------------------------------------------------- choosing


def choose_play(decision: dict) -> dict:
    """Shed the worst cards first: the set of the worst rank, the fewest Jesters used."""
    sets = decision["sets"]
    if not sets:
        return {"type": "pass"}
    if decision["to_beat"] is None:
        # Lead the worst rank held, all of it (a lone Jester lead is kept for last).
        ranked = [s for s in sets if s["rank"] != JESTER] or sets
        worst = max(s["rank"] for s in ranked)
        group = [s for s in ranked if s["rank"] == worst and s["jesters"] == 0] or ranked
        return {"type": "play", "set": max(group, key=lambda s: s["count"])}
    return {"type": "play", "set": max(sets, key=lambda s: (s["rank"], -s["jesters"]))}


def choose_tax(decision: dict) -> dict:
    """Give the Peon the worst cards, keeping the Jesters while anything else is left."""
    hand = decision["hand"]  # best first, Jesters last
    plain = [card for card in hand if card != JESTER]
    pool = plain if len(plain) >= decision["count"] else hand
    return {"type": "tax", "cards": sorted(pool)[-decision["count"] :]}


def answer(decision: dict, my_position: int | None) -> dict | None:
    """The answer to one decision, or None for a kind this bot does not know."""
    kind = decision.get("kind")
    if kind == "play":
        return choose_play(decision)
    if kind == "tax":
        return choose_tax(decision)
    if kind == "revolution":
        # Worth it below the Dalmutis (no taxes to pay), and always for the Greater Peon.
        below_dalmutis = my_position is not None and my_position >= 2
        return {"type": "revolution", "declare": decision["greater"] or below_dalmutis}
    if kind == "exchange":
        return {"type": "exchange", "merchant": None, "card": None}
    if kind == "misdeal":
        return {"type": "misdeal", "choice": "intended"}
    if kind == "placement":
        # The newcomer as the lowest Merchant: everyone else keeps their rank.
        return {"type": "place", "position": max(decision["positions"])}
    return None


# ---------------------------------------------------------------------- the session


class Bot:
    def __init__(self, connection: Connection, name: str, code: str | None) -> None:
        self.connection = connection
        self.name = name
        self.code = code
        self.player: int | None = None
        self.order: list[int] = []
        self.seq = 0
        self.heartbeat_s = 5.0
        self.decisions = 0
        self.answered = None  # the decision_id of our last answer
        self.standings: list | None = None
        self.done = False

    def hello(self) -> None:
        message = {
            "type": "hello",
            "version": PROTOCOL_VERSION,
            "name": self.name,
            "role": "player",
            "software": SOFTWARE,
        }
        if self.code is not None:
            message["code"] = self.code
        self.connection.send(message)

    def run(self) -> int:
        self.hello()
        while not self.done:
            wait = max(0.0, self.heartbeat_s - (time.monotonic() - self.connection.last_sent))
            for message in self.connection.receive(timeout=min(wait, 1.0)):
                status = self.handle(message)
                if status is not None:
                    return status
            if time.monotonic() - self.connection.last_sent >= self.heartbeat_s:
                self.connection.send({"type": "heartbeat"})
        return 0

    def handle(self, message: dict) -> int | None:
        """Act on one message; an exit status once the session is over."""
        kind = message["type"]
        if kind == "welcome":
            self.player = message["player"]
            interval = (message.get("limits") or {}).get("heartbeat_interval_ms")
            if interval:
                self.heartbeat_s = interval / 1000
        elif kind == "snapshot":
            self.seq = message["seq"]
            game = message.get("game")
            if game is not None:
                self.order = list(game["order"])
            if message.get("decision") is not None:
                self.decide(message["decision"])
        elif kind == "decision":
            self.decide(message)
        elif kind == "error":
            if message["code"] != "stale_decision":  # stale: a second answer, harmless
                print(f"host error {message['code']}: {message['message']}", file=sys.stderr)
                self.answered = None  # refused: the decision is still owed
            if message["fatal"]:
                return 1
            self.connection.send({"type": "snapshot_request"})  # the decision comes again
        elif kind == "goodbye":
            print(f"the host said goodbye: {message.get('reason')}")
            return 0
        elif "seq" in message:
            return self.event(message)
        return None  # heartbeat, ack, table, chat and anything unknown: nothing to do

    def event(self, message: dict) -> int | None:
        seq = message["seq"]
        if not isinstance(seq, int) or seq <= self.seq:
            return None  # already in the snapshot
        if seq > self.seq + 1:
            self.connection.send({"type": "snapshot_request"})  # missed something
        self.seq = seq
        kind = message["type"]
        if kind in ("hand_started", "roles_mirrored", "seating_settled"):
            self.order = list(message["order"])
        elif kind == "table_ended":
            self.standings = message["standings"]
            self.report(message["reason"])
            self.connection.send({"type": "goodbye", "reason": "the table ended"})
            self.done = True
            return 0
        return None

    def decide(self, decision: dict) -> None:
        decision_id = decision.get("decision_id")
        if decision_id is not None and decision_id == self.answered:
            return  # a snapshot that crossed our answer: it is on its way
        position = self.order.index(self.player) if self.player in self.order else None
        reply = answer(decision, position)
        if reply is not None:
            self.decisions += 1
            self.answered = decision_id
            if decision_id is not None:
                reply["decision_id"] = decision_id  # a second answer to it is then harmless
            self.connection.send(reply)

    def report(self, reason: str) -> None:
        print(f"table ended ({reason}) after {self.decisions} decisions; standings:")
        for player, score, place in self.standings or []:
            me = "  <- this bot" if player == self.player else ""
            print(f"  {place}. player {player}: {score} points{me}")


def parse_address(text: str) -> tuple[str, int]:
    host, _, port = text.rpartition(":") if text.count(":") == 1 else (text, "", "")
    return (host, int(port)) if port else (text, DEFAULT_PORT)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="A dalmuti-net bot (Python + msgpack).")
    parser.add_argument("address", nargs="?", default="127.0.0.1", help="HOST[:PORT]")
    parser.add_argument("--name", default="Python bot", help="the name to sit under")
    parser.add_argument("--code", help="the table's join code, if it has one")
    args = parser.parse_args(argv)
    host, port = parse_address(args.address)
    try:
        with socket.create_connection((host, port), timeout=10) as sock:
            return Bot(Connection(sock), args.name, args.code).run()
    except (OSError, HostClosed) as error:
        print(f"dalmuti_bot: {error}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
