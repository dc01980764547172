"""What a case gets: the host's address, connections it opens, seats and tables."""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import itertools
import secrets
from dataclasses import dataclass, field
from typing import Any

import trio
from trio_websocket import ConnectionRejected

from .wire import (
    DEFAULT_WAIT,
    CaseFailed,
    CaseSkipped,
    Message,
    Peer,
    TcpPeer,
    WsPeer,
    open_tcp,
    open_ws,
    reply_to,
)

VERSION = 2
_LETTERS = "abcdefghjkmnpqrstuvwxyz"  # no i, l, o: no look-alikes of 1 and 0 between names


@dataclass
class Options:
    host: str
    port: int
    web_port: int | None
    code: str | None
    max_wait: float
    """The longest host time-out (as the host announces it) a case waits out."""


@dataclass
class Seat:
    peer: Peer
    welcome: Message
    snapshot: Message

    @property
    def player(self) -> int:
        player = self.welcome.get("player")
        assert isinstance(player, int)
        return player

    @property
    def token(self) -> str:
        token = self.welcome.get("token")
        assert isinstance(token, str)
        return token


def seat_id(token: str) -> str:
    return hashlib.sha256(b"dalmuti-net seat id\x00" + token.encode()).digest()[:16].hex()


def proof(label: str, token: str, table_id: str, seat: str, nc: str, nh: str) -> str:
    data = b"\x00".join(x.encode() for x in (label, table_id, seat, nc, nh))
    return hmac.new(token.encode(), data, hashlib.sha256).hexdigest()


@dataclass
class Shared:
    """What the cases of one run share: the host player's seat once a game has begun."""

    names: itertools.count[int] = field(default_factory=lambda: itertools.count(1))
    host_token: str | None = None
    host_player: int | None = None
    table_id: str | None = None
    about: Message | None = None
    recording: Any = None
    errors: list[tuple[Message, bool]] = field(default_factory=list)
    """Every error the host sent in the run, and whether the host then closed at once."""
    lost: bool = False
    """The suite lost its host player's seat in a lobby and sat down again."""
    recording_failed: str | None = None


class Context:
    def __init__(self, options: Options, shared: Shared, nursery: trio.Nursery) -> None:
        self.options = options
        self.shared = shared
        self.nursery = nursery
        """Runs the WebSockets' own tasks until the case's connections are closed."""
        self.helpers = nursery
        """Runs tasks of the case (a seat played in the background), stopped at its end."""
        self.peers: list[Peer] = []
        self.notes: list[str] = []

    # Names and connections.
    def name(self, prefix: str = "Suite") -> str:
        number = next(self.shared.names)
        letters = ""
        while True:
            number, digit = divmod(number, len(_LETTERS))
            letters = _LETTERS[digit] + letters
            if number == 0:
                break
        return f"{prefix} {letters}"

    async def connect(self, label: str = "client") -> TcpPeer:
        peer = await open_tcp(self.options.host, self.options.port, label)
        self.peers.append(peer)
        return peer

    def web_port(self) -> int:
        if self.options.web_port is None:
            raise CaseSkipped("no WebSocket port was given (--web-port none)")
        return self.options.web_port

    async def ws(self, label: str = "ws client", origin: str | None = None) -> WsPeer:
        try:
            peer = await open_ws(
                self.nursery, self.options.host, self.web_port(), label, origin=origin
            )
        except ConnectionRejected as refused:
            raise CaseFailed(
                f"the WebSocket handshake was refused with HTTP {refused.status_code}"
            ) from refused
        except OSError as error:
            raise CaseSkipped(
                f"the host offers no WebSocket at port {self.web_port()} ({error});"
                " give --web-port if it serves one elsewhere"
            ) from error
        self.peers.append(peer)
        return peer

    async def close_all(self) -> None:
        """Close every connection of the case, last opened first: guests go before the host
        player, whose role would otherwise pass to a guest about to drop (and a dropped
        host player's lobby seat is kept a while)."""
        for peer in self.peers:
            final = peer.received[-1] if peer.received else {}
            if final.get("type") == "error" and final.get("fatal") and not peer.closed:
                with trio.move_on_after(1), contextlib.suppress(CaseFailed):
                    await peer.expect_closed(1)  # whether anything follows a fatal error
            for index, message in enumerate(peer.received):
                if message.get("type") == "error":
                    at_end = index == len(peer.received) - 1
                    self.shared.errors.append((message, at_end and peer.host_closed))
        for peer in reversed(self.peers):
            if peer.closed:
                continue
            if peer.leave_on_close:  # a lobby seat, given up at once
                with trio.move_on_after(1), contextlib.suppress(CaseFailed):
                    await peer.send({"type": "leave"})
                    await peer.expect_closed(1)
            await peer.aclose()
        self.peers.clear()

    # The handshake.
    def hello(self, name: str, role: str = "player", **extra: Any) -> Message:
        message: Message = {"type": "hello", "version": VERSION, "name": name, "role": role}
        if self.options.code is not None:
            message["code"] = self.options.code
        message.update(extra)
        return message

    async def join(
        self,
        role: str = "player",
        name: str | None = None,
        peer: Peer | None = None,
        **extra: Any,
    ) -> Seat:
        """A new connection's hello, its welcome and its snapshot."""
        peer = peer or await self.connect(role)
        await peer.send(self.hello(name or self.name(), role, **extra))
        welcome = await peer.expect(
            lambda m: m.get("type") in ("welcome", "error"), what="the welcome"
        )
        if welcome["type"] == "error":
            raise CaseFailed(
                f"hello was refused: {welcome.get('code')} ({welcome.get('message')})"
                + (
                    " (does the host need a join code? give --code)"
                    if welcome.get("code") == "bad_code"
                    else ""
                )
            )
        snapshot = await peer.expect("snapshot", what="the snapshot after welcome")
        if role == "player" and snapshot["table"]["phase"] == "lobby":
            peer.leave_on_close = True  # a lobby seat is given up at the case's end
        return Seat(peer, welcome, snapshot)

    async def about(self) -> Message:
        peer = await self.connect("about")
        await peer.send({"type": "about"})
        about = await peer.expect("about")
        await peer.aclose()
        self.shared.about = about
        return about

    async def resume(self, token: str, label: str = "resume") -> Seat:
        """Take a seat back with ``token`` (about, hello with resume, challenge, prove)."""
        seat = await self.try_resume(token, label)
        if isinstance(seat, str):
            raise CaseFailed(seat)
        return seat

    async def try_resume(self, token: str, label: str = "resume") -> Seat | str:
        """As ``resume``; a refusal before the challenge comes back as its sentence."""
        peer = await self.connect(label)
        await peer.send({"type": "about"})
        about = await peer.expect("about")
        seat = seat_id(token)
        nonce = secrets.token_hex(16)
        await peer.send(self.hello(self.name(), resume={"seat": seat, "nonce": nonce}))
        challenge = await peer.expect(
            lambda m: m.get("type") in ("challenge", "error", "welcome"), what="the challenge"
        )
        if challenge["type"] != "challenge":
            return (
                f"the resume got {challenge.get('type')} {challenge.get('code', '')}"
                f" instead of a challenge ({challenge.get('message', '')})"
            )
        table_id = about["table_id"]
        expected = proof("dalmuti-net host proof", token, table_id, seat, nonce, challenge["nonce"])
        if challenge.get("proof") != expected:
            raise CaseFailed(
                "the host's proof in the challenge is not the one the document defines"
            )
        answer = proof("dalmuti-net client proof", token, table_id, seat, nonce, challenge["nonce"])
        await peer.send({"type": "prove", "proof": answer})
        welcome = await peer.expect(lambda m: m.get("type") in ("welcome", "error"))
        if welcome["type"] == "error":
            raise CaseFailed(f"the right proof was refused: {welcome.get('code')}")
        snapshot = await peer.expect("snapshot")
        return Seat(peer, welcome, snapshot)

    async def lobby_host(self, first: bool = True) -> Seat:
        """The host player's seat in an empty first lobby (the suite's first seat there);
        not ``first``: in any lobby where nobody else is connected."""
        about = await self.about()
        if about.get("phase") != "lobby":
            raise CaseSkipped(
                f"the table is {about.get('phase')!r}, not in its lobby (this case needs the"
                " lobby of a fresh headless host)"
            )
        seat = await self.join(name=self.name("Host"))
        seat.peer.leave_on_close = True
        if seat.welcome.get("host") is not True:
            raise CaseSkipped(
                "the suite's seat is not the host player: start the host with no player of"
                " its own and nobody seated (dalmuti-net: `dalmuti host --headless`)"
            )
        table = seat.snapshot["table"]
        if table.get("rematch") and first:
            raise CaseSkipped("the lobby is a rematch's, not the table's first")
        others = [p for p in table["players"] if p["player"] != seat.player]
        if any(p["kind"] != "bot" and (first or p["connected"]) for p in others):
            raise CaseSkipped(
                f"the lobby holds {len(others)} other seats: start the host with nobody seated"
            )
        others = [p for p in others if p["kind"] == "bot"]
        for number, bot in enumerate(others):  # an earlier case's bots (or --bots)
            rid = 8000 + number
            await seat.peer.send({"type": "remove_bot", "player": bot["player"], "id": rid})
            reply = await seat.peer.expect(reply_to(rid))
            if reply["type"] != "ack":
                raise CaseSkipped(f"the lobby's bots cannot be removed ({reply.get('code')})")
        if others:
            seat.snapshot = {
                **seat.snapshot,
                "table": (
                    await seat.peer.expect(
                        lambda m: (
                            m.get("type") == "table"
                            and not any(p["kind"] == "bot" for p in m["table"]["players"])
                        ),
                        what="the lobby without bots",
                    )
                )["table"],
            }
        return seat

    def wait_allowed(self, what: str, ms: int) -> None:
        """Skip unless a host time-out of ``ms`` may be waited out."""
        if ms / 1000 > self.options.max_wait:
            raise CaseSkipped(
                f"{what} is {ms / 1000:g} s at this host, over --max-wait"
                f" {self.options.max_wait:g} s"
            )


async def settle(seconds: float = 0.2) -> None:
    """A short pause for messages crossing on the loopback."""
    await trio.sleep(seconds)


__all__ = ["DEFAULT_WAIT", "CaseFailed", "CaseSkipped", "Context", "Options", "Seat", "Shared"]
