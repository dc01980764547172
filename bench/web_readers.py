"""Web protocol clients that never read: how much the host grows.

A real ``dalmuti host --headless --bots 4 --autostart 4 --bot-pace 0`` (a subprocess, on
127.0.0.1, its bots playing flat out, basic rules: no end) and ``--clients`` WebSocket
clients on ``/protocol`` that say hello as spectators, then send a heartbeat every 2 s (so
the host never finds them silent) and never read a byte. The host's resident memory
(``VmRSS``) every 5 s, and how many of those clients it still holds. Meanwhile
``--chatters`` TCP clients from 127.0.0.1 (which read everything) say a 400-character
chat line 18 times a second each, so that there is traffic to fall behind on. The same against the
host of another commit (``--against``, from git at run time), in one run on one machine.

``--channel table``: the page's channel instead, each client joining as a watcher (the
host renders its views for it) and sending its screen size every 2 s.

Run by hand (not a test): ``python bench/web_readers.py [--seconds S] [--against COMMIT]``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import socket
import subprocess
import time
from contextlib import AbstractContextManager
from pathlib import Path

import msgpack
import trio
from guesses import free_port, running_host, source_of  # bench/, beside this file
from wake import cpu_model
from wsproto import ConnectionType, WSConnection
from wsproto.events import AcceptConnection, BytesMessage, Request, TextMessage

from dalmuti_net.protocol import PROTOCOL_VERSION, encode


def host(source: Path, port: int, web_port: int) -> AbstractContextManager[subprocess.Popen[str]]:
    return running_host(
        source,
        [
            *("--headless", "--no-announce", "--interface", "127.0.0.1"),
            *("--port", str(port), "--web-port", str(web_port)),
            *("--bots", "4", "--autostart", "4", "--bot-pace", "0", "--lang", "en"),
        ],
        web_port,
    )


def rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


async def deaf_client(web_port: int, held: list[bool], index: int, channel: str) -> None:
    """Handshake, hello (or the page's join), then heartbeats only (on ``/table``, a
    ``size`` now and then); never reads past the handshake."""
    stream = await trio.open_tcp_stream("127.0.0.1", web_port)
    stream.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    client = WSConnection(ConnectionType.CLIENT)
    target = f"/{channel}"
    await stream.send_all(client.send(Request(host=f"127.0.0.1:{web_port}", target=target)))
    while not any(isinstance(e, AcceptConnection) for e in client.events()):
        client.receive_data(await stream.receive_some(4096))
    if channel == "table":
        join = {"join": {"name": f"Deaf {index}", "spectator": True}}
        first = client.send(TextMessage(json.dumps(join)))
        heartbeat = client.send(TextMessage(json.dumps({"size": [40, 30]})))
    else:
        hello = {"type": "hello", "version": PROTOCOL_VERSION, "role": "spectator"}
        first = client.send(BytesMessage(msgpack.packb({**hello, "name": "Deaf"})))
        heartbeat = client.send(BytesMessage(msgpack.packb({"type": "heartbeat"})))
    held[index] = True
    try:
        await stream.send_all(first)
        while True:
            await trio.sleep(2)
            with trio.move_on_after(1):  # a host that stopped reading us is fine too
                await stream.send_all(heartbeat)
    except (trio.BrokenResourceError, trio.ClosedResourceError):
        held[index] = False
    finally:
        await trio.aclose_forcefully(stream)


async def chatter(port: int, number: int) -> None:
    """Says a long chat line 18 times a second (under the rate limit) and reads all."""
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    hello = {"type": "hello", "version": PROTOCOL_VERSION, "role": "spectator"}
    await stream.send_all(encode({**hello, "name": f"Chatter {number}"}))

    async def drain() -> None:
        while await stream.receive_some(65536):
            pass

    async with trio.open_nursery() as nursery:
        nursery.start_soon(drain)
        line = encode({"type": "chat", "text": "x" * 400})
        while True:
            await stream.send_all(line)
            await trio.sleep(1 / 18)


async def measure(
    pid: int, port: int, web_port: int, clients: int, chatters: int, seconds: float, channel: str
) -> list[tuple[float, float, int]]:
    held = [False] * clients
    rows = []
    async with trio.open_nursery() as nursery:
        for index in range(clients):
            nursery.start_soon(deaf_client, web_port, held, index, channel)
        for number in range(chatters):
            nursery.start_soon(chatter, port, number)
        start = trio.current_time()
        while True:
            elapsed = trio.current_time() - start
            rows.append((elapsed, rss_mb(pid), _connections(pid, web_port)))
            if elapsed >= seconds:
                break
            await trio.sleep(5)
        nursery.cancel_scope.cancel()
    return rows


def _connections(pid: int, web_port: int) -> int:
    """Established connections to the web port the host holds (from /proc/net/tcp)."""
    established = 0
    port_hex = f"{web_port:04X}"
    with open("/proc/net/tcp", encoding="ascii") as table:
        next(table)
        for line in table:
            fields = line.split()
            if fields[1].endswith(":" + port_hex) and fields[3] == "01":
                established += 1
    return established


def run(
    label: str, commit: str | None, clients: int, chatters: int, seconds: float, channel: str
) -> None:
    with source_of(commit) as source:
        port, web_port = free_port(), free_port()
        with host(source, port, web_port) as process:
            time.sleep(2)  # the bots' first hand under way
            rows = trio.run(
                measure, process.pid, port, web_port, clients, chatters, seconds, channel
            )
    print(f"  {label}")
    for elapsed, rss, held in rows:
        print(f"    {elapsed:>5.0f} s  {rss:>7.1f} MB   web connections held {held:>3}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--clients", type=int, default=12)
    parser.add_argument("--chatters", type=int, default=4)
    parser.add_argument("--channel", choices=("protocol", "table"), default="protocol")
    parser.add_argument("--against", metavar="COMMIT", help="the host before, from git")
    args = parser.parse_args()
    print(
        f"{cpu_model()}, {os.cpu_count()} cores, {platform.python_implementation()} "
        f"{platform.python_version()}; {args.clients} /{args.channel} clients that never read"
    )
    if args.against:
        run(
            f"as of {args.against}",
            args.against,
            args.clients,
            args.chatters,
            args.seconds,
            args.channel,
        )
    run("this checkout", None, args.clients, args.chatters, args.seconds, args.channel)


if __name__ == "__main__":
    main()
