"""A whole dalmuti-net bot: `python example_bot.py HOST PORT NAME` (needs only msgpack)."""

import socket
import struct
import sys
import time

import msgpack

ANSWER = {  # the first legal answer will do; the host lists the options in each decision
    "play": lambda d: {"type": "play", "set": d["sets"][-1]} if d["sets"] else {"type": "pass"},
    "revolution": lambda d: {"type": "revolution", "declare": True},
    "tax": lambda d: {"type": "tax", "cards": d["hand"][-d["count"] :]},
    "exchange": lambda d: {"type": "exchange", "merchant": None, "card": None},
    "misdeal": lambda d: {"type": "misdeal", "choice": "intended"},
    "placement": lambda d: {"type": "place", "position": d["positions"][0]},
}


def send(sock, message):
    body = msgpack.packb(message)
    sock.sendall(struct.pack(">I", len(body)) + body)
    return time.monotonic()


def main(host="127.0.0.1", port="7341", name="minibot"):
    sock = socket.create_connection((host, int(port)), timeout=1)
    sent = send(sock, {"type": "hello", "version": 2, "name": name, "role": "player"})
    buffer, me = b"", None
    while True:
        try:
            data = sock.recv(65536)
            if not data:
                return
            buffer += data
        except TimeoutError:
            pass
        if time.monotonic() - sent > 4:  # heartbeat: the host hangs up after 20 s of silence
            sent = send(sock, {"type": "heartbeat"})
        while len(buffer) >= 4 and len(buffer) >= 4 + struct.unpack(">I", buffer[:4])[0]:
            size = struct.unpack(">I", buffer[:4])[0]
            message, buffer = msgpack.unpackb(buffer[4 : 4 + size]), buffer[4 + size :]
            kind = message.get("type")
            decision = message if kind == "decision" else message.get("decision")
            table = message.get("table") if kind in ("snapshot", "table") else None
            if kind == "welcome":
                me = message["player"]
            if kind in ("decision", "snapshot") and decision and decision["kind"] in ANSWER:
                # Naming the decision makes a second answer to it harmless (stale_decision).
                answer = ANSWER[decision["kind"]](decision)
                sent = send(sock, {**answer, "decision_id": decision["decision_id"]})
            elif kind == "hand_ended":  # results read: the next deal need not wait for us
                sent = send(sock, {"type": "ready", "ready": True})
            elif (kind == "error" and message["fatal"]) or kind in ("goodbye", "table_ended"):
                return print(message)
            mine = [seat for seat in table["players"] if seat["player"] == me] if table else []
            if mine and mine[0]["host"] and table["can_start"]:  # we are the host player
                sent = send(sock, {"type": "start"})


if __name__ == "__main__":
    main(*sys.argv[1:])
