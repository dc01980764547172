"""One browser at the web table: the client's table model, run by the host for it.

The page sends JSON text messages (``join``, then choices); the host runs a
``ClientSession`` and a ``ClientUi`` for it, an ordinary protocol client of this very
table over an in-memory stream (with the seat's own token, so it knows only what that
seat may know), and sends the page each new view, already in the viewer's language.
The browser keeps the resume token (the host tells it, ``{"token": ...}``) and offers it
again after a reload, a sleeping phone or a dropped Wi-Fi: the same seat, as the
terminal's remembered seats do.
"""

from __future__ import annotations

import json
import logging
import math
from collections.abc import Awaitable, Callable
from typing import Any

import trio
from trio_websocket import ConnectionClosed, WebSocketConnection

from ..client.runner import CannotConnect, ClientRunner
from ..client.session import TABLE_UI_SOFTWARE, ClientSession
from ..client.status import Status
from ..client.ui.state import BackToList, ClientUi, Effect, Quit, Rejoin, Send, Wake
from ..host.server import RateLimiter
from ..lang.i18n import DEFAULT_LANGUAGE, Translator, normalize_language
from ..protocol.catalogue import MAX_CODE_CHARS, MAX_NAME_CHARS, MAX_TOKEN_CHARS
from .inbound import NotAPageMessage, page_message
from .view import BadChoice, choose, page_strings, render_view

log = logging.getLogger(__name__)

WEB_SOFTWARE = f"{TABLE_UI_SOFTWARE} web"
"""The web table's name in its hello, for the host's logs (the host paces its bots for
whoever plays a seat, whatever program they use)."""
MAX_PAGE_MESSAGE = 4096
"""Bytes in one message from the page (a chat line of 500 characters fits many times)."""
JOIN_TIMEOUT = 120.0
"""Seconds a page may show its join form before it says whom it is."""
TICK = 1.0
"""While a countdown runs on screen (a turn timer, a grace period), the view every second."""
DEFAULT_SIZE = (44, 40)
PING_INTERVAL = 5.0
PAGE_SILENCE = 20.0
"""A page that answers no WebSocket ping for this long is gone (a phone off the Wi-Fi
sends no close): its connection to the table ends, so that its seat has the grace
period and a stand-in as any dropped player's has; as the protocol's liveness, 5 s and
20 s. The browser answers pings by itself, asleep or not, while its socket lives."""

Connector = Callable[[], Awaitable[trio.abc.Stream]]


async def keep_alive(
    ws: WebSocketConnection, done: trio.CancelScope, interval: float, silence: float
) -> None:
    """Ping ``ws`` every ``interval``; cancel ``done`` when a ping is not answered (or
    cannot even be sent: a peer that reads nothing fills its socket) within ``silence``.
    For both WebSocket channels, ``/table`` and ``/protocol``."""
    while True:
        await trio.sleep(interval)
        with trio.move_on_after(silence) as waited:
            await ws.ping()
        if waited.cancelled_caught:
            log.info("a WebSocket answered no ping for %g s: it is closed", silence)
            done.cancel()
            return


class PageError(Exception):
    """The page broke the rules of its channel: told in one sentence, then closed."""


def _text(value: object, most: int) -> str | None:
    """A short string from the page, or None (absent, empty or of the wrong kind)."""
    if not isinstance(value, str) or not value or len(value) > most:
        return None
    return value


class WebSeat:
    """The host's side of one page."""

    def __init__(
        self,
        ws: WebSocketConnection,
        connect: Connector,
        *,
        table_name: str,
        code_required: bool,
        rate: float,
        ping_interval: float = PING_INTERVAL,
        silence: float = PAGE_SILENCE,
    ) -> None:
        self.ws = ws
        self._ping_interval = ping_interval
        self._silence = silence
        self._connect = connect
        self.table_name = table_name
        self.code_required = code_required
        self._rate = RateLimiter(rate, rate * 2)
        self.ui: ClientUi | None = None
        self._language = DEFAULT_LANGUAGE
        self.runner: ClientRunner | None = None
        self._changed = trio.Event()
        self._size = DEFAULT_SIZE
        self._sent_view = ""
        self._told_token: tuple[str | None, str | None] | None = None
        self._effects_in, self._effects = trio.open_memory_channel[Effect](math.inf)

    # ------------------------------------------------------------------ the channel

    async def _send(self, message: dict[str, Any]) -> None:
        await self.ws.send_message(json.dumps(message, ensure_ascii=False))

    async def _receive(self) -> dict[str, Any]:
        raw = await self.ws.get_message()
        if not self._rate.allow():
            raise PageError("too many messages; slow down")
        if not isinstance(raw, str):
            raise PageError("this channel takes JSON text messages")
        try:
            return page_message(raw)  # checked as the codec checks a frame
        except NotAPageMessage as refused:
            raise PageError(str(refused)) from None

    async def run(self, language: str) -> None:
        """Until the page goes away or breaks the rules of its channel."""
        # The tasks of a session raise in groups: the first refusal is the one told.
        refusal: PageError | None = None
        try:
            async with trio.open_nursery() as nursery:
                nursery.start_soon(self._keep_alive, nursery.cancel_scope)
                await self._run(language)
                nursery.cancel_scope.cancel()
        except* PageError as group:
            first: BaseException = group
            while isinstance(first, BaseExceptionGroup):  # groups nest, task in task
                first = first.exceptions[0]
            assert isinstance(first, PageError)
            refusal = first
        except* ConnectionClosed:
            pass
        if refusal is not None:
            with trio.move_on_after(1):
                try:
                    await self._send({"error": str(refusal)})
                    await self.ws.aclose(1008, str(refusal))
                except ConnectionClosed:
                    pass

    async def _keep_alive(self, done: trio.CancelScope) -> None:
        await keep_alive(self.ws, done, self._ping_interval, self._silence)

    async def _run(self, language: str) -> None:
        self._language = language
        t = Translator(language)
        await self._send(
            {
                "hello": {
                    "table": self.table_name,
                    "code_required": self.code_required,
                    "strings": page_strings(t._),
                    "lang": language,
                }
            }
        )
        with trio.move_on_after(JOIN_TIMEOUT) as waited:
            join = await self._join_message()
        if waited.cancelled_caught:
            raise PageError("no join in time")
        while True:
            session = self._session(join)
            again = await self._play(session, join)
            if again is None:
                return
            join = again

    async def _join_message(self) -> dict[str, Any]:
        while True:
            message = await self._receive()
            if "size" in message:
                self._set_size(message["size"])
            join = message.get("join")
            if isinstance(join, dict):
                return join
            if "join" in message:
                raise PageError("join is an object")

    def _session(self, join: dict[str, Any]) -> ClientSession:
        name = _text(join.get("name"), MAX_NAME_CHARS * 4)
        if name is None or not name.strip():
            raise PageError("join needs a name")
        session = ClientSession(
            name.strip()[:MAX_NAME_CHARS],
            spectator=join.get("spectator") is True,
            code=_text(join.get("code"), MAX_CODE_CHARS),
            software=WEB_SOFTWARE,
            person=True,
        )
        token = _text(join.get("token"), MAX_TOKEN_CHARS)
        table_id = _text(join.get("table_id"), 64)
        if token is not None and table_id is not None and not session.spectator:
            # Kept by this browser from an earlier welcome of a table: offered only to the
            # table that gave it (the host says which table it runs first), and dropped
            # when that table no longer knows it, as the terminal's remembered seats are.
            session.token, session.table_id = token, table_id
            session.token_from_store = True
        return session

    def _set_size(self, size: object) -> None:
        if (
            isinstance(size, list)
            and len(size) == 2
            and all(isinstance(n, int) and not isinstance(n, bool) for n in size)
        ):
            self._size = (size[0], size[1])
            self._changed.set()

    # ------------------------------------------------------------------ one session

    async def _play(self, session: ClientSession, join: dict[str, Any]) -> dict[str, Any] | None:
        """Play ``session`` until the page goes, or asks to join again (returned)."""
        language = normalize_language(_text(join.get("lang"), 16)) or self._language
        ui = ClientUi(Translator(language), session, address="web", lists_tables=False)
        self.ui = ui
        again: list[dict[str, Any]] = []

        async def on_message(message: dict[str, Any]) -> None:
            for effect in ui.on_message(message):
                self._effects_in.send_nowait(effect)
            self._changed.set()

        def on_status(status: Status) -> None:
            ui.on_status(status)
            self._changed.set()

        runner = ClientRunner(
            session, self._connect, on_message=on_message, on_status=on_status, reconnect=False
        )
        self.runner = runner
        async with trio.open_nursery() as nursery:

            async def run_runner() -> None:
                try:
                    await runner.run()
                except CannotConnect as error:
                    ui.cannot_connect(str(error), error.kind)
                self._changed.set()

            nursery.start_soon(run_runner)
            nursery.start_soon(self._views)
            nursery.start_soon(self._carry_out, runner, nursery, again, join)
            await self._choices(ui)
            nursery.cancel_scope.cancel()
        if runner.status is not Status.CLOSED:
            runner.stop()
        return again[0] if again else None

    async def _choices(self, ui: ClientUi) -> None:
        """The page's choices, as presses of the table model, until the page goes."""
        while True:
            message = await self._receive()
            if "size" in message:
                self._set_size(message["size"])
                continue
            if "join" in message:
                continue  # already at the table
            try:
                effects = choose(ui, message)
            except BadChoice as error:
                raise PageError(str(error)) from None
            for effect in effects:
                self._effects_in.send_nowait(effect)
            self._changed.set()

    async def _carry_out(
        self,
        runner: ClientRunner,
        nursery: trio.Nursery,
        again: list[dict[str, Any]],
        join: dict[str, Any],
    ) -> None:
        ui = self.ui
        assert ui is not None
        done = nursery.cancel_scope
        async for effect in self._effects:
            if isinstance(effect, Wake):
                nursery.start_soon(self._wake, ui, effect)
                continue
            if isinstance(effect, Send):
                if not await runner.send(effect.message):
                    ui.say(ui.t._("Not connected: that was not sent."), "error")
                if effect.message["type"] == "leave":
                    await self._tell_token(runner.session)
            elif isinstance(effect, Quit):
                await self._send({"left": True})
                done.cancel()
                return
            elif isinstance(effect, Rejoin):
                again.append({**join, "spectator": effect.spectator, "code": effect.code})
                done.cancel()
                return
            elif isinstance(effect, BackToList):
                await self._send({"left": True})
                done.cancel()
                return
            self._changed.set()

    async def _wake(self, ui: ClientUi, wake: Wake) -> None:
        await trio.sleep(wake.after_s)
        for effect in ui.wake():
            self._effects_in.send_nowait(effect)
        self._changed.set()

    async def _views(self) -> None:
        """The view, each time something changed (several changes drawn once)."""
        ui = self.ui
        assert ui is not None
        while True:
            with trio.move_on_after(TICK if ui.countdowns.running else math.inf):
                await self._changed.wait()
            self._changed = trio.Event()
            session = ui.session
            if session is not None:
                await self._tell_token(session)
            view = json.dumps({"view": render_view(ui, *self._size)}, ensure_ascii=False)
            if view != self._sent_view:
                self._sent_view = view
                await self.ws.send_message(view)

    async def _tell_token(self, session: ClientSession) -> None:
        """The page keeps the seat's resume token (and forgets it with the seat)."""
        told = (session.token if not session.spectator else None, session.table_id)
        if told != self._told_token and session.welcome is not None:
            self._told_token = told
            await self._send({"token": told[0], "table_id": told[1]})
