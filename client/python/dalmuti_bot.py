"""A dalmuti-net bot in plain Python: the standard library and msgpack, nothing else.

    python dalmuti_bot.py HOST[:PORT] [--name NAME] [--code CODE]

It takes a seat, answers every decision the host sends (shedding its worst cards first),
keeps the connection alive with heartbeats, and exits when the table ends. If the
connection drops it takes its seat back, proving it holds the seat's resume token without
ever sending it (PROTOCOL.md, "Taking a seat back"). Written from PROTOCOL.md alone: it
does not import dalmuti_net.
"""

from __future__ import annotations

import argparse
import hashlib
import hmac
import secrets
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
RECONNECT_DELAYS = (0.5, 1, 2, 4, 8)


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


# ---------------------------------------------------------------------- taking a seat back


def seat_id(token: str) -> str:
    """The seat's name, derived one-way from its token: safe to send to any host."""
    return hashlib.sha256(b"dalmuti-net seat id\x00" + token.encode()).hexdigest()[:32]


def proof(label: str, token: str, table_id: str, client_nonce: str, host_nonce: str) -> str:
    """HMAC-SHA256 keyed by the token over the label, the table id, the seat id and both
    nonces, joined by zero bytes; ``label`` is "host" or "client"."""
    parts = [f"dalmuti-net {label} proof", table_id, seat_id(token), client_nonce, host_nonce]
    message = b"\x00".join(part.encode() for part in parts)
    return hmac.new(token.encode(), message, hashlib.sha256).hexdigest()


class NotTheTable(Exception):
    """The host could not prove it holds this bot's seat: nothing more is sent to it."""


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
        self.token: str | None = None  # the seat's secret: never sent, never shown
        self.table_id: str | None = None
        self.nonce: str | None = None  # ours, while taking the seat back

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
        if self.token is not None:
            self.nonce = secrets.token_hex(16)
            message["resume"] = {"seat": seat_id(self.token), "nonce": self.nonce}
        self.connection.send(message)

    def run(self) -> int:
        """One connection: a new seat, or (with a token) the same seat taken back."""
        if self.token is None:
            self.hello()
        else:
            self.connection.send({"type": "about"})  # which table is this?
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
        if kind == "about":
            if message.get("table_id") != self.table_id:
                raise NotTheTable("another table answers there now")
            self.hello()
        elif kind == "challenge":
            self.prove(message)
        elif kind == "welcome":
            if self.nonce is not None:
                raise NotTheTable("it let this bot in without proving it holds the seat")
            if message.get("token") is not None:  # a new seat (a resumed one gets none)
                self.token, self.table_id = message["token"], message["table_id"]
            self.player = message["player"]
            self.answered = None  # an answer cut off with the last connection is owed again
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

    def prove(self, challenge: dict) -> None:
        """Check the host's proof first; only then prove ours (on this connection only)."""
        if self.token is None or self.nonce is None or self.table_id is None:
            raise NotTheTable("it sent a challenge this bot did not ask for")
        host_nonce = challenge["nonce"]
        expected = proof("host", self.token, self.table_id, self.nonce, host_nonce)
        if host_nonce == self.nonce or not hmac.compare_digest(expected, challenge["proof"]):
            raise NotTheTable("its proof of the seat is wrong")
        mine = proof("client", self.token, self.table_id, self.nonce, host_nonce)
        self.nonce = None
        self.connection.send({"type": "prove", "proof": mine})

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
    bot = Bot(None, args.name, args.code)  # type: ignore[arg-type]
    failures = 0
    while True:
        try:
            with socket.create_connection((host, port), timeout=10) as sock:
                bot.connection = Connection(sock)
                return bot.run()
        except NotTheTable as error:
            print(
                f"dalmuti_bot: the host could not prove it is the table: {error}", file=sys.stderr
            )
            return 1
        except (OSError, HostClosed) as error:
            if bot.token is None:  # no seat yet: nothing to take back
                print(f"dalmuti_bot: {error}", file=sys.stderr)
                return 1
            failures = 0 if bot.player is not None else failures + 1
            if failures >= len(RECONNECT_DELAYS):
                print("dalmuti_bot: the host did not come back", file=sys.stderr)
                return 1
            print(f"connection lost ({error}); taking the seat back")
            bot.player = None  # set again by the next welcome
            time.sleep(RECONNECT_DELAYS[failures])


if __name__ == "__main__":
    sys.exit(main())
