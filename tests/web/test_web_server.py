"""The web table's server over real TCP on 127.0.0.1: only its own files, Origin checked,
the raw protocol over WebSocket with the TCP protocol's limits and errors, and the page's
channel refusing what a broken or hostile page sends, in one sentence."""

from __future__ import annotations

import json
from collections import deque
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager

import msgpack
import pytest
import trio
from trio_websocket import ConnectionClosed, WebSocketConnection, wrap_client_stream
from wsproto import ConnectionType, WSConnection
from wsproto.events import AcceptConnection, Request, TextMessage

from dalmuti_net.client.model.table_model import LogLine
from dalmuti_net.client.session import ClientSession
from dalmuti_net.host.server import TableServer
from dalmuti_net.host.table import StartBot, Table
from dalmuti_net.protocol import PROTOCOL_VERSION
from dalmuti_net.protocol.resume import client_proof, host_proof, new_nonce, seat_id
from dalmuti_net.web import seat as seat_module
from dalmuti_net.web.seat import KeptLog, WebSeat
from dalmuti_net.web.server import FILES, MAX_PER_ADDRESS, TableDoor, WebServer


async def no_bots(stream: trio.abc.Stream, bot: StartBot) -> None:
    await trio.sleep_forever()


@asynccontextmanager
async def web_table(code: str | None = None, **timing: float) -> AsyncIterator[int]:
    async with web_table_of(Table("Web", code=code), **timing) as port:
        yield port


@asynccontextmanager
async def web_table_of(table: Table, **timing: float) -> AsyncIterator[int]:
    code = table.code
    server = TableServer(table, run_bot=no_bots, between_hands=0)
    door = TableDoor(
        connect=lambda address: server.connect_local(outside=address),
        table_name=lambda: table.name,
        table_id=table.table_id,
        code=code,
        max_frame_bytes=table.max_frame_bytes,
        rate=table.limits.max_messages_per_second,
        watch=lambda: server.connect_local(unseen=True),
    )
    async with trio.open_nursery() as nursery:
        await nursery.start(server.run)
        listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
        nursery.start_soon(WebServer(door, **timing).serve, listeners)
        yield listeners[0].socket.getsockname()[1]
        nursery.cancel_scope.cancel()


@asynccontextmanager
async def websocket(
    port: int, path: str, headers: list[tuple[bytes, bytes]] | None = None
) -> AsyncIterator[WebSocketConnection]:
    """A WebSocket client over a TCP stream this test owns and closes, whatever the host
    did (the library's own connect leaves its socket to the garbage collector when the
    host closes first)."""
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    async with stream, trio.open_nursery() as nursery:
        ws = await wrap_client_stream(
            nursery, stream, f"127.0.0.1:{port}", path, extra_headers=headers
        )
        try:
            yield ws
        finally:
            with trio.move_on_after(1):
                await ws.aclose()
            nursery.cancel_scope.cancel()


async def http(port: int, request: bytes, *, head_only: bool = False) -> bytes:
    """The host's answer to ``request``: all of it, or its head (a WebSocket stays open)."""
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    async with stream:
        await stream.send_all(request)
        answer = b""
        with trio.fail_after(5):
            while data := await stream.receive_some():
                answer += data
                if head_only and b"\r\n\r\n" in answer:
                    break
    return answer


def hello(**more: object) -> bytes:
    message = {"type": "hello", "version": PROTOCOL_VERSION, "name": "Ana", "role": "player"}
    return msgpack.packb({**message, **more})


async def next_message(ws: WebSocketConnection) -> dict[str, object]:
    with trio.fail_after(5):
        while True:
            data = await ws.get_message()
            assert isinstance(data, bytes), "the host sends binary messages only"
            message = msgpack.unpackb(data)
            if message["type"] != "heartbeat":
                return message  # type: ignore[no-any-return]


async def test_only_its_own_files_are_served() -> None:
    async with web_table() as port:
        for path in FILES:
            answer = await http(port, f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
            assert answer.startswith(b"HTTP/1.1 200 OK\r\n"), path
            assert b"content-security-policy: default-src 'self'" in answer
        for path in ("/../pyproject.toml", "/static/app.js", "/etc/passwd", "/%2e%2e/x"):
            answer = await http(port, f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
            assert answer.startswith(b"HTTP/1.1 404 "), path
        answer = await http(port, b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n")
        assert answer.startswith(b"HTTP/1.1 405 ")
        assert (await http(port, b"NONSENSE\r\n\r\n")).startswith(b"HTTP/1.1 400 ")
        too_long = b"GET / HTTP/1.1\r\nHost: x\r\nX: " + b"a" * 9000
        assert (await http(port, too_long)).startswith(b"HTTP/1.1 431 ")


def upgrade(port: int, path: str, origin: str | None, host: str = "127.0.0.1") -> bytes:
    """A browser's WebSocket handshake, as sent (the client library leaves its socket
    open when the host refuses: a raw request keeps the test's own house clean)."""
    lines = [
        f"GET {path} HTTP/1.1",
        f"Host: {host}:{port}",
        "Upgrade: websocket",
        "Connection: Upgrade",
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
        "Sec-WebSocket-Version: 13",
    ]
    if origin is not None:
        lines.append(f"Origin: {origin}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


async def test_a_page_from_elsewhere_is_refused() -> None:
    async with web_table() as port:
        for path in ("/protocol", "/table"):
            answer = await http(port, upgrade(port, path, "http://evil.example"))
            assert answer.startswith(b"HTTP/1.1 403 "), path
            own = upgrade(port, path, f"http://127.0.0.1:{port}")
            answer = await http(port, own, head_only=True)
            assert answer.startswith(b"HTTP/1.1 101 "), path
        assert (await http(port, upgrade(port, "/other", None))).startswith(b"HTTP/1.1 404 ")
        # A site on the internet whose name now points at this host (DNS rebinding): its
        # page has its own name as Host and Origin, and is refused; a .local name is not.
        rebound = upgrade(port, "/table", f"http://evil.example:{port}", "evil.example")
        assert (await http(port, rebound)).startswith(b"HTTP/1.1 403 ")
        local = upgrade(port, "/table", f"http://laptop.local:{port}", "laptop.local")
        assert (await http(port, local, head_only=True)).startswith(b"HTTP/1.1 101 ")
        own = [(b"origin", f"http://127.0.0.1:{port}".encode())]
        async with websocket(port, "/protocol", own) as ws:
            await ws.send_message(hello())
            assert (await next_message(ws))["type"] == "welcome"


async def test_the_raw_protocol_over_websocket() -> None:
    async with web_table(code="tulip") as port, websocket(port, "/protocol") as ws:
        await ws.send_message(hello())  # no join code
        refusal = await next_message(ws)
        assert refusal["type"] == "error" and refusal["code"] == "bad_code"
    async with web_table(code="tulip") as port:
        async with websocket(port, "/protocol") as ws:
            await ws.send_message(hello(code="tulip"))
            welcome = await next_message(ws)
            assert welcome["type"] == "welcome" and welcome["player"] is not None
            assert (await next_message(ws))["type"] == "snapshot"
        # Over the limit: refused as a TCP header announcing it is, and closed.
        async with websocket(port, "/protocol") as ws:
            await ws.send_message(b"\x80" * (64 * 1024 + 1))
            refusal = await next_message(ws)
            assert refusal["code"] == "too_large" and refusal["fatal"] is True
            with trio.fail_after(5), pytest.raises(ConnectionClosed):
                await ws.get_message()
        # A text message is not a frame.
        async with websocket(port, "/protocol") as ws:
            await ws.send_message("hello")
            refusal = await next_message(ws)
            assert refusal["type"] == "error" and refusal["code"] == "bad_frame"


async def page(ws: WebSocketConnection) -> dict[str, object]:
    with trio.fail_after(5):
        return json.loads(await ws.get_message())  # type: ignore[no-any-return]


async def test_the_pages_channel_joins_and_refuses_nonsense() -> None:
    table = Table("Web", code="tulip")
    async with web_table_of(table) as port:
        async with websocket(port, "/table?lang=es") as ws:
            first = await page(ws)
            assert first["hello"]["code_required"] is True  # type: ignore[index]
            assert first["hello"]["table_id"] == table.table_id  # type: ignore[index]
            assert first["hello"]["strings"]["join"] == "Unirse a la mesa"  # type: ignore[index]
            await ws.send_message(json.dumps({"join": {"name": "Ana", "code": "tulip"}}))
            token = await told_seat(ws)
            # The page takes the same seat back on a new connection by proving it (in the
            # lobby a seat is freed when its connection closes: this one is still open).
            async with websocket(port, "/table") as again:
                await page(again)
                await take_back(again, token, table.table_id)
                # A key press is another front end's: the page sends intents.
                await again.send_message(json.dumps({"key": "enter"}))
                while "error" not in (message := await page(again)):
                    pass
                assert message["error"] == (
                    "The table closed this page's connection: the page sent something the "
                    "table cannot take. Join again, or reload the page. (Details for a bug "
                    "report: no such intent)"
                )
        async with websocket(port, "/table?lang=es") as ws:
            await page(ws)
            await ws.send_message("not json")
            while "error" not in (message := await page(ws)):
                pass
            # In the page's language; the technical reason only as details.
            assert message["error"].startswith("La mesa cerró la conexión de esta página")
            assert message["error"].endswith(
                "(Detalles para informar del fallo: a message is not JSON)"
            )
        async with websocket(port, "/table") as ws:
            await page(ws)
            await ws.send_message(json.dumps({"join": {"name": "x" * 5000}}))
            with trio.fail_after(5), pytest.raises(ConnectionClosed):
                while True:
                    await ws.get_message()


async def told_seat(ws: WebSocketConnection) -> str:
    """The seat's token, told to the page once after its first welcome."""
    while True:
        message = await page(ws)
        seat = message.get("seat")
        if isinstance(seat, dict):
            assert isinstance(seat["token"], str)
            return seat["token"]


def resume(token: str, table_id: str, nonce: str, lang: str = "en") -> str:
    """A page's join that asks its seat back: the seat's id and a nonce, not its token."""
    seat = {"table_id": table_id, "seat": seat_id(token), "nonce": nonce}
    return json.dumps({"join": {"name": "Ana", "lang": lang, "resume": seat}})


async def take_back(
    ws: WebSocketConnection, token: str, table_id: str, lang: str = "en", you: str = "Ana (you)"
) -> list[str]:
    """What a page does to take its seat back: the host's proof checked, the page's sent;
    until the seat (``you``, in ``lang``) is on screen. Every message the page sent, for
    a look at them."""
    nonce = new_nonce()
    sent = [resume(token, table_id, nonce, lang)]
    await ws.send_message(sent[0])
    while "challenge" not in (message := await page(ws)):
        assert "seat" not in message, "nothing is given before the seat is proved"
    challenge = message["challenge"]
    assert isinstance(challenge, dict)
    assert challenge["proof"] == host_proof(token, table_id, nonce, challenge["nonce"])
    sent.append(json.dumps({"prove": client_proof(token, table_id, nonce, challenge["nonce"])}))
    await ws.send_message(sent[-1])
    while True:
        message = await page(ws)
        assert "seat" not in message, "a seat taken back is not told again"
        view = message.get("view")
        if isinstance(view, dict) and you in json.dumps(view, ensure_ascii=False):
            return sent


async def test_a_page_proves_its_seat_and_its_token_never_crosses_again() -> None:
    """The page holds the token and makes both checks: its host-side client relays the
    table's challenge and the page's proof, and gives the code for it (the page keeps
    none once seated). What a lying page sends gets it nothing."""
    table = Table("Web", code="tulip")
    async with web_table_of(table) as port, AsyncExitStack() as stack:
        first = await stack.enter_async_context(websocket(port, "/table"))
        await page(first)
        await first.send_message(json.dumps({"join": {"name": "Ana", "code": "tulip"}}))
        token = await told_seat(first)
        # Two reloads (the first connection is kept open: the one that takes the seat
        # back replaces it).
        for _ in range(2):
            ws = await stack.enter_async_context(websocket(port, "/table"))
            await page(ws)
            sent = await take_back(ws, token, table.table_id)
            assert not any(token in text or "tulip" in text for text in sent)
        assert [seat.name for seat in table.seats.values()] == ["Ana"]
        # A wrong proof: the table refuses it, and the seat stays with the page that holds it.
        held = [seat.connection for seat in table.seats.values()]
        async with websocket(port, "/table") as ws:
            await page(ws)
            nonce = new_nonce()
            await ws.send_message(resume(token, table.table_id, nonce))
            while "challenge" not in await page(ws):
                pass
            await ws.send_message(json.dumps({"prove": "0" * 64}))
            while "could not confirm" not in json.dumps(await page(ws)):
                pass
            assert [seat.connection for seat in table.seats.values()] == held
        # A seat id the table does not know, at a table with a code: refused, and no new
        # seat taken on the code the host gives for a resume.
        async with websocket(port, "/table") as ws:
            await page(ws)
            await ws.send_message(resume("not a token of this table", table.table_id, new_nonce()))
            while "refused" not in (message := await page(ws)):
                assert "challenge" not in message
            assert message["refused"] == "seat"
            # The page asks its player again, on the same channel: a wrong code is refused.
            await ws.send_message(json.dumps({"join": {"name": "Bo", "code": "tulp"}}))
            while "view" not in (message := await page(ws)) or "code" not in str(message):
                pass
        assert [seat.name for seat in table.seats.values()] == ["Ana"]
        # A proof with no challenge, a resume of another table: the page broke the rules.
        for sent in (
            json.dumps({"prove": "0" * 64}),
            resume(token, "another table", new_nonce()),
            json.dumps({"join": {"name": "Ana", "resume": {"seat": token, "nonce": "x"}}}),
        ):
            async with websocket(port, "/table") as ws:
                await page(ws)
                if "prove" in sent:
                    await ws.send_message(json.dumps({"join": {"name": "Cy", "code": "tulip"}}))
                    await told_seat(ws)
                await ws.send_message(sent)
                while "error" not in (message := await page(ws)):
                    assert "challenge" not in message
        assert "Ana" in [seat.name for seat in table.seats.values()]


async def test_a_page_dropped_in_the_lobby_takes_its_seat_back_and_its_leave_frees_it() -> None:
    """A phone whose page lost its link in the lobby (a reload, a locked screen) finds its
    seat and name held: it proves the seat, the host gives the join code for it, and the
    player types nothing. Meanwhile the others see the seat away. Its Leave in the lobby
    gives the seat up at once, and the page forgets it."""
    table = Table("Web", code="tulip")
    async with web_table_of(table) as port, AsyncExitStack() as stack:
        watcher = await stack.enter_async_context(websocket(port, "/table"))
        await page(watcher)
        await watcher.send_message(json.dumps({"join": {"name": "Bo", "code": "tulip"}}))
        await told_seat(watcher)
        async with websocket(port, "/table") as first:
            await page(first)
            await first.send_message(json.dumps({"join": {"name": "Ana", "code": "tulip"}}))
            token = await told_seat(first)
        ana = next(seat for seat in table.seats.values() if seat.name == "Ana")
        with trio.fail_after(5):
            while ana.connection is not None:
                await trio.sleep(0.02)
        assert [seat.name for seat in table.seats.values()] == ["Bo", "Ana"]
        while "offline" not in json.dumps(await page(watcher)):  # Bo's page: Ana away
            pass
        ws = await stack.enter_async_context(websocket(port, "/table"))
        await page(ws)
        sent = await take_back(ws, token, table.table_id)
        assert not any(token in text or "tulip" in text for text in sent)
        assert table.seats[ana.player] is ana and ana.connection is not None
        await ws.send_message(json.dumps({"do": "exit"}))
        told = []
        while "left" not in (message := await page(ws)):
            told.append(message)
        assert {"seat": "forget"} in told
        with trio.fail_after(5):
            while ana.player in table.seats:
                await trio.sleep(0.02)
        assert [seat.name for seat in table.seats.values()] == ["Bo"]


async def test_a_page_back_at_its_seat_goes_on_from_its_log() -> None:
    """A reloaded page (a phone that slept, a new tab) found its lobby's log empty: who
    had joined while it was there was gone, where a terminal back from a dropped link
    keeps its log. The page that proves the seat goes on from it now; a new seat starts
    its own."""
    table = Table("Web")
    async with web_table_of(table) as port, AsyncExitStack() as stack:
        first = await stack.enter_async_context(websocket(port, "/table"))
        await page(first)
        await first.send_message(json.dumps({"join": {"name": "Ana"}}))
        token = await told_seat(first)
        bo = await stack.enter_async_context(websocket(port, "/table"))
        await page(bo)
        await bo.send_message(json.dumps({"join": {"name": "Bo"}}))
        await told_seat(bo)
        joined = "Bo joins the table."
        while joined not in json.dumps(await page(first)):  # Ana's page says so
            pass
        again = await stack.enter_async_context(websocket(port, "/table"))
        await page(again)
        await take_back(again, token, table.table_id)
        await again.send_message(json.dumps({"do": "chat", "text": "back"}))  # a view more
        while "view" not in (message := await page(again)):
            pass
        assert joined in [line["text"] for line in message["view"]["log"]]
        cy = await stack.enter_async_context(websocket(port, "/table"))
        await page(cy)
        await cy.send_message(json.dumps({"join": {"name": "Cy"}}))
        await told_seat(cy)
        while "view" not in (message := await page(cy)):
            pass
        assert joined not in json.dumps(message)  # another seat's log is its own


async def test_a_page_back_in_another_language_has_its_log_in_it() -> None:
    """A player who changed the page's language found its log empty: the log kept for
    the seat was in the old language. It is told again in the new one now, from the
    messages the seat was sent."""
    table = Table("Web")
    async with web_table_of(table) as port, AsyncExitStack() as stack:
        first = await stack.enter_async_context(websocket(port, "/table"))
        await page(first)
        await first.send_message(json.dumps({"join": {"name": "Ana"}}))
        token = await told_seat(first)
        bo = await stack.enter_async_context(websocket(port, "/table"))
        await page(bo)
        await bo.send_message(json.dumps({"join": {"name": "Bo"}}))
        await told_seat(bo)
        while "Bo joins the table." not in json.dumps(await page(first)):
            pass
        await bo.send_message(json.dumps({"do": "chat", "text": "hola"}))
        while "hola" not in json.dumps(await page(first)):
            pass
        again = await stack.enter_async_context(websocket(port, "/table"))
        await page(again)
        await take_back(again, token, table.table_id, "es", "Ana (tú)")
        await again.send_message(json.dumps({"do": "chat", "text": "de vuelta"}))
        while "view" not in (message := await page(again)):
            pass
        log = [line["text"] for line in message["view"]["log"]]
        assert "Bo se une a la mesa." in log
        assert [line for line in log if "hola" in line] == ["Bo: hola"]  # once
        assert not any("joins the table" in line for line in log)


async def test_a_page_gone_silent_lets_its_seat_go() -> None:
    """A phone off the Wi-Fi sends no close: its page answers no ping, and its seat is
    let go (then the grace period and a stand-in, as for any dropped player)."""
    table = Table("Web")
    async with web_table_of(table, ping_interval=0.1, silence=0.3) as port:
        stream = await trio.open_tcp_stream("127.0.0.1", port)
        async with stream:
            client = WSConnection(ConnectionType.CLIENT)
            await stream.send_all(client.send(Request(host=f"127.0.0.1:{port}", target="/table")))
            with trio.fail_after(5):
                accepted = False
                while not accepted:
                    client.receive_data(await stream.receive_some())
                    accepted = any(isinstance(e, AcceptConnection) for e in client.events())
            join = json.dumps({"join": {"name": "Ana"}})
            await stream.send_all(client.send(TextMessage(join)))
            with trio.fail_after(5):
                while not any(seat.connection is not None for seat in table.seats.values()):
                    await trio.sleep(0.02)
            # From now on nothing is read, so no ping is answered.
            with trio.fail_after(5):
                while any(seat.connection is not None for seat in table.seats.values()):
                    await trio.sleep(0.02)


async def test_one_address_cannot_take_every_connection() -> None:
    async with web_table() as port:
        idle = [await trio.open_tcp_stream("127.0.0.1", port) for _ in range(MAX_PER_ADDRESS)]
        try:
            answer = await http(port, b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            assert answer.startswith(b"HTTP/1.1 503 ")
        finally:
            for stream in idle:
                await stream.aclose()
        with trio.fail_after(5):
            while True:  # once they are gone, the address is served again
                answer = await http(port, b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
                if answer.startswith(b"HTTP/1.1 200 "):
                    break
                await trio.sleep(0.05)


async def test_a_seats_token_is_told_once_then_only_whether_to_keep_it() -> None:
    """After a new seat's first welcome the page is told its token, once; then only to
    forget the seat (left, kicked, the table ended) or keep it again (a rematch). A seat
    the page took back by proving it is never told a token."""
    told: list[object] = []

    class Page:
        async def send_message(self, text: str) -> None:
            told.append(json.loads(text))

    async def no_connection() -> trio.abc.Stream:
        raise OSError("not used")

    web = WebSeat(
        Page(),  # type: ignore[arg-type]
        no_connection,
        table_name="Web",
        table_id="t1",
        code=None,
        rate=10.0,
    )
    new = ClientSession("Ana")
    new.welcome = {"token": "the-token", "table_id": "t1"}
    for _ in range(3):
        await web._tell_seat(new)
    assert told == [{"seat": {"token": "the-token", "table_id": "t1"}}]
    new.forget_seat()  # a leave
    await web._tell_seat(new)
    new.seat_over = False  # a rematch with the same seats
    await web._tell_seat(new)
    await web._tell_seat(new)
    assert told[1:] == [{"seat": "forget"}, {"seat": "keep"}]

    told.clear()
    proved = ClientSession("Ana")
    proved.relayed_resume = ("0" * 32, "1" * 32)
    proved.welcome = {"token": None, "table_id": "t1"}
    web._told_seat = (False, True)  # as _play starts a session that asks a seat back
    await web._tell_seat(proved)
    proved.seat_over = True
    await web._tell_seat(proved)
    assert told == [{"seat": "forget"}]


def test_a_log_past_its_kept_messages_stays_as_it_was(monkeypatch: pytest.MonkeyPatch) -> None:
    """Past the bound on a seat's messages, another language gets the log as it was
    (the next best thing to having it told again), not nothing."""
    monkeypatch.setattr(seat_module, "KEPT_MESSAGE_BYTES", 64)
    lines = deque([LogLine("event", "Bo joins the table.")])
    kept = KeptLog("en", lines)
    kept.take({"type": "chat", "player": 1, "text": "x" * 80})
    assert kept.messages is None
    assert kept.told_in("es", "Ana") == [LogLine("event", "Bo joins the table.")]
