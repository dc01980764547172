"""One browser at the web table: the client's table model, run by the host for it.

The page sends JSON text messages (``join``, then intents); the host runs a
``ClientSession`` and a ``ClientModel`` for it, an ordinary protocol client of this very
table over an in-memory stream (seated as that page's seat, so it knows only what that
seat may know), and sends the page each new view, already in the viewer's language. A
page that watches is drawn from the watch of its language (``watch.py``: one client for
all the pages watching in it, a spectator's stream being the same for every spectator);
its own client then keeps only its presence and what is its own.

The page holds its seat's resume token, and proves it as any client does (PROTOCOL.md,
"Taking a seat back"), so that a program that takes this address while the host is away
learns neither the token nor the join code from a page that reconnects:

- host → page: ``{"hello": {"table", "table_id", "code_required", "strings", "lang",
  "languages", "help"}}``
  first; ``{"seat": {"token", "table_id"}}`` once, after a new seat's ``welcome`` (the
  token's one crossing); ``{"seat": "forget"}`` when the seat is over (left, kicked, the
  table ended) and ``{"seat": "keep"}`` when a rematch makes it a seat again;
  ``{"challenge": {"nonce", "proof"}}``, the table's own, for the page to check;
  ``{"refused": "seat"}`` when the table does not give the seat back (the page asks
  again: a seat it proved nothing for is never replaced here by a new one).
- page → host: ``{"join": {"name", "lang", "spectator", "code"}}`` for a new seat or a
  place to watch, or ``{"join": {"name", "lang", "resume": {"table_id", "seat",
  "nonce"}}}`` with the seat's id and the page's nonce, then ``{"prove": proof}`` only if
  the host's proof was right (the page closes otherwise). The host's client here sends
  the table's join code with a resume (the page keeps none once seated); a resume the
  table refuses never becomes a new seat. At the table the page sends intents
  (``{"do": "pick_card", "card": 5}``, ``web/view.page_intent``) and is sent the client
  model's typed view as ``{"view": ...}`` (its schema: ``web/static/view.schema.json``).
"""

from __future__ import annotations

import json
import logging
import math
from collections import deque
from collections.abc import Awaitable, Callable
from contextlib import AbstractAsyncContextManager, nullcontext
from typing import Any

import msgpack
import trio
from trio_websocket import ConnectionClosed, WebSocketConnection

from ..client.model import intents as do
from ..client.model.client_model import (
    BackToList,
    ClientModel,
    Effect,
    Quit,
    Rejoin,
    Screen,
    Send,
    Wake,
)
from ..client.model.display import display
from ..client.model.errors import PAGE_REFUSED, with_details
from ..client.model.table_model import LogLine
from ..client.runner import CannotConnect, ClientRunner
from ..client.session import TABLE_UI_SOFTWARE, ClientSession
from ..client.status import Status
from ..host.ratelimit import RateLimiter
from ..lang.i18n import DEFAULT_LANGUAGE, Translator, normalize_language
from ..protocol.catalogue import MAX_CODE_CHARS, MAX_NAME_CHARS
from ..protocol.codec import CheckedFrames, encode_body
from ..protocol.resume import NONCE_CHARS, PROOF_CHARS, SEAT_ID_CHARS, seat_id
from .inbound import NotAPageMessage, page_message
from .view import (
    BadIntent,
    OwnParts,
    languages,
    page_help,
    page_intent,
    page_strings,
    view_text,
)
from .watch import Watch, Watches

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
VIEW_GAP = 0.1
"""Seconds at least between two views sent to one page while changes keep coming (a table
of bots playing flat out changes many times a second) and its seat owes a decision: the
first change after a quiet spell is drawn at once, the ones that follow within the gap
are drawn together at its end, the latest state winning. So no view (the final state)
waits more than this for its turn, and a page costs the host a bounded number of renders
a second whatever the table's pace. What the page itself does, and a decision its seat
newly owes, are drawn at once."""
WATCHING_GAP = 0.25
"""The same for a page that only follows the play: it watches, or its seat owes nothing
now. A quarter of a second is less than a person notices in a view that only follows
the play; the moment the seat owes a decision, it is drawn at once. (Every page at a
table of 7 seated pages and 8 watching ones was drawn up to 10 times a second while not
its turn: the renders were half the host's time, and the terminal player's moves waited
behind them.)"""
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


def _hex(value: object, length: int) -> str | None:
    """Lowercase hexadecimal of exactly ``length`` digits from the page, or None."""
    if not isinstance(value, str) or len(value) != length:
        return None
    if any(c not in "0123456789abcdef" for c in value):
        return None
    return value


ASK_AGAIN: dict[str, Any] = {}
"""What ``_play`` returns when the page must be asked again whom to seat (the table did
not give its seat back)."""


KEPT_MESSAGE_BYTES = 1 << 20
"""Bytes of a seat's messages kept (msgpack) to tell its log again in another language. A
table of 8 sends a seat about 24 kB a hand (57 hands of bots: 1.38 MB, 30,501
messages), so a mebibyte is some 40 hands, an evening; past it, a new language gets the
log as it was."""


class KeptLog:
    """One seat's log as its last page had it, and the messages it was told from (packed
    end to end, since the seat's first welcome): a page in another language tells them
    again in its own, as a player who changes language mid-game is owed."""

    def __init__(self, language: str, log: deque[LogLine]) -> None:
        self.language = language
        self.log = log
        self.messages: bytearray | None = bytearray()
        """None once past ``KEPT_MESSAGE_BYTES``: the log cannot be told again."""

    def take(self, message: dict[str, Any]) -> None:
        """A message the seat's client was sent (a welcome's token left out)."""
        if self.messages is None:
            return
        if message["type"] == "welcome":
            message = {**message, "token": None}
        self.messages += encode_body(message)
        if len(self.messages) > KEPT_MESSAGE_BYTES:
            self.messages = None

    def told_in(self, language: str, name: str) -> list[LogLine]:
        """The log in ``language``: told again from the messages (a client of that
        language fed them, as a replay is), or as it was when they are not all kept.
        What the page's client said by itself (not the table) is not told again. Up to
        a second's work for a long evening's messages: run it in a thread."""
        if language == self.language or self.messages is None:
            return list(self.log)
        session = ClientSession(name)
        model = ClientModel(
            Translator(language),
            session,
            address="web",
            lists_tables=False,
            in_a_page=True,
            live=False,
        )
        messages = msgpack.Unpacker(raw=False, strict_map_key=True, use_list=True)
        messages.feed(bytes(self.messages))
        for message in messages:
            session.receive(message)
            model.on_message(message)
        return list(model.log)


class KeptLogs:
    """Each seat's log as its last page had it, by seat id: a page that takes its seat
    back (a reload, a phone that slept, a dropped link, a new language) goes on from what
    its log said, as a terminal's log goes on across a reconnect; in another language,
    told again in it. Given only to a page that proved the seat (the table's ``welcome``
    comes after the proof)."""

    def __init__(self, most: int = 16) -> None:
        self._logs: dict[str, KeptLog] = {}
        self._most = most

    def keep(self, seat: str, language: str, log: deque[LogLine]) -> KeptLog:
        """``log`` is the page's own, kept as it grows; the seat's messages so far are
        kept with it (a new seat's are its own: ``forget`` first)."""
        found = self._logs.pop(seat, None)
        kept = KeptLog(language, log)
        if found is not None:
            kept.messages = found.messages
        self._logs[seat] = kept
        while len(self._logs) > self._most:
            del self._logs[next(iter(self._logs))]
        return kept

    def forget(self, seat: str) -> None:
        self._logs.pop(seat, None)

    async def kept(self, seat: str, language: str, name: str) -> list[LogLine]:
        found = self._logs.get(seat)
        if found is None:
            return []
        return await trio.to_thread.run_sync(found.told_in, language, name)


class WebSeat:
    """The host's side of one page."""

    def __init__(
        self,
        ws: WebSocketConnection,
        connect: Connector,
        *,
        table_name: str,
        table_id: str,
        code: str | None,
        rate: float,
        ping_interval: float = PING_INTERVAL,
        silence: float = PAGE_SILENCE,
        view_gap: float = VIEW_GAP,
        watching_gap: float = WATCHING_GAP,
        checked_frames: CheckedFrames | None = None,
        kept_logs: KeptLogs | None = None,
        watches: Watches | None = None,
    ) -> None:
        self.ws = ws
        self._kept_logs = kept_logs
        self._watches = watches
        """Where a page that watches finds the table as its language's watchers see it."""
        self._watch: Watch | None = None
        """The watch this page is drawn from while it watches (None: its own client
        follows the play, as a seated page's always does)."""
        self._closed_results: object = None
        """The results this watching page closed (the watch's, still shown to others)."""
        self._checked_frames = checked_frames
        self._view_gap = view_gap
        self._watching_gap = watching_gap
        self.views_rendered = 0
        """Views rendered for this page so far (the cost the gap bounds)."""
        self._answer = False
        """The page did something since the last view: the next one is not held back
        (its own taps, rate-limited as its messages are, answered at once)."""
        self._drawn_choice: object = None
        """The decision being chosen when the page was last drawn (a new one is drawn at
        once)."""
        self._ping_interval = ping_interval
        self._silence = silence
        self._connect = connect
        self.table_name = table_name
        self.table_id = table_id
        self._code = code
        self._rate = RateLimiter(rate, rate * 2, trio.current_time())
        self.model: ClientModel | None = None
        self._language = DEFAULT_LANGUAGE
        self.runner: ClientRunner | None = None
        self._changed = trio.Event()
        """Set at each change: the next view is due (``_views``)."""
        self._at_once = trio.Event()
        """Set at a change to draw at once, gap or not (``_urgent``)."""
        self._sent_view = ""
        self._told_seat: tuple[bool, bool] = (False, False)
        """(a new seat's token told, the seat kept) as the page was last told."""
        self._effects_in, self._effects = trio.open_memory_channel[Effect](math.inf)

    # ------------------------------------------------------------------ the channel

    async def _send(self, message: dict[str, Any]) -> None:
        await self.ws.send_message(json.dumps(message, ensure_ascii=False))

    async def _receive(self) -> dict[str, Any]:
        raw = await self.ws.get_message()
        if not self._rate.allow(trio.current_time()):
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
            t = Translator(self._language)  # the reason is technical: details
            with trio.move_on_after(1):
                try:
                    await self._send({"error": with_details(t, t._(PAGE_REFUSED), str(refusal))})
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
                    "table_id": self.table_id,
                    "code_required": self._code is not None,
                    "strings": page_strings(t),
                    "lang": language,
                    "languages": languages(),
                    "help": page_help(t),
                }
            }
        )
        join = ASK_AGAIN
        while True:
            if join is ASK_AGAIN:
                with trio.move_on_after(JOIN_TIMEOUT) as waited:
                    join = await self._join_message()
                if waited.cancelled_caught:
                    raise PageError("no join in time")
            session = self._session(join)
            again = await self._play(session, join)
            if again is None:
                return
            join = again

    async def _join_message(self) -> dict[str, Any]:
        while True:
            message = await self._receive()
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
        resume = join.get("resume")
        if resume is None or session.spectator:
            return session
        if not isinstance(resume, dict):
            raise PageError("resume is an object")
        seat = _hex(resume.get("seat"), SEAT_ID_CHARS)
        nonce = _hex(resume.get("nonce"), NONCE_CHARS)
        if seat is None or nonce is None:
            raise PageError("resume needs a seat id and a nonce, in lowercase hexadecimal")
        if resume.get("table_id") != self.table_id:
            raise PageError("that seat is another table's")
        # The page holds the token and makes both proofs; this client only relays them,
        # and gives the table's code for the page (a proof is a stronger key than a code).
        session.relayed_resume = (seat, nonce)
        session.table_id = self.table_id
        session.code = self._code
        return session

    # ------------------------------------------------------------------ one session

    async def _play(self, session: ClientSession, join: dict[str, Any]) -> dict[str, Any] | None:
        """Play ``session`` until the page goes, or asks to join again (returned)."""
        language = normalize_language(_text(join.get("lang"), 16)) or self._language
        self._language = language  # a refusal is said in it too
        model = ClientModel(
            Translator(language), session, address="web", lists_tables=False, in_a_page=True
        )
        self.model = model
        again: list[dict[str, Any]] = []
        watching: AbstractAsyncContextManager[Watch | None] = nullcontext(None)
        if session.spectator and self._watches is not None:
            watching = self._watches.joined(language, self._follow_watch)
        async with watching as watch:
            self._watch = watch
            if watch is not None:
                session.follows_play = False  # the watch follows it, once for all
            try:
                await self._follow(session, model, again, join, language)
            finally:
                self._watch = None
        return again[0] if again else None

    def _follow_watch(self, hand_started: bool) -> None:
        """The watch framed the table anew: drawn at once (the watch keeps the gap, for
        all its pages together). A new hand drops this page's notice, as it drops the
        notice of a client that follows the play itself (``ClientModel.on_message``)."""
        if hand_started and self.model is not None:
            self.model.notice = None
        self._changed.set()
        self._at_once.set()

    async def _follow(
        self,
        session: ClientSession,
        model: ClientModel,
        again: list[dict[str, Any]],
        join: dict[str, Any],
        language: str,
    ) -> None:
        kept: KeptLog | None = None

        async def on_message(message: dict[str, Any]) -> None:
            nonlocal kept
            if session.challenge_to_relay is message:
                await self._send(
                    {"challenge": {"nonce": message["nonce"], "proof": message["proof"]}}
                )
                return
            if (
                session.relayed_resume is not None
                and session.welcome is None
                and message["type"] == "error"
                and message["code"] == "bad_token"
            ):
                # The table does not give that seat back: the page asks again whom to
                # seat; a new seat is never taken for it on the code given for a resume.
                await self._send({"refused": "seat"})
                again.append(ASK_AGAIN)
                nursery.cancel_scope.cancel()
                return
            if message["type"] == "welcome" and not model.welcomed:
                kept = await self._keep_log(session, model, message, language)
            if kept is not None:
                kept.take(message)
            if not session.takes(message):
                return  # the play: the watch has it
            for effect in model.on_message(message):
                self._effects_in.send_nowait(effect)
            self._change()

        def on_status(status: Status) -> None:
            model.on_status(status)
            self._change()

        runner = ClientRunner(
            session,
            self._connect,
            on_message=on_message,
            on_status=on_status,
            reconnect=False,
            checked_frames=self._checked_frames,
        )
        self.runner = runner
        self._told_seat = (False, session.relayed_resume is not None)
        async with trio.open_nursery() as nursery:

            async def run_runner() -> None:
                try:
                    await runner.run()
                except CannotConnect as error:
                    model.cannot_connect(str(error), error.kind)
                self._change()

            nursery.start_soon(run_runner)
            nursery.start_soon(self._views)
            nursery.start_soon(self._carry_out, runner, nursery, again, join)
            await self._choices(model, runner)
            nursery.cancel_scope.cancel()
        if runner.status is not Status.CLOSED:
            runner.stop()

    async def _keep_log(
        self, session: ClientSession, model: ClientModel, welcome: dict[str, Any], language: str
    ) -> KeptLog | None:
        """A seat proved back goes on from its log (before the welcome: what the table
        says next is told after it, as to a terminal back with its log), told again in
        the page's language if it is another; a new seat's log is kept from now on.
        Returned: where the seat's messages are kept."""
        kept = self._kept_logs
        if kept is None or session.spectator:
            return None
        if session.relayed_resume is not None:
            seat = session.relayed_resume[0]
            model.log.extend(await kept.kept(seat, language, session.name))
        elif isinstance(welcome.get("token"), str):
            seat = seat_id(welcome["token"])
            kept.forget(seat)
        else:
            return None
        return kept.keep(seat, language, model.log)

    async def _choices(self, model: ClientModel, runner: ClientRunner) -> None:
        """The page's intents, to the client model, until the page goes."""
        while True:
            message = await self._receive()
            if "join" in message:
                continue  # already at the table
            if "prove" in message:
                await self._prove(runner, message["prove"])
                continue
            try:
                intent = page_intent(model, message)
            except BadIntent as error:
                raise PageError(str(error)) from None
            if isinstance(intent, do.CloseResults) and self._watch is not None:
                self._closed_results = self._watch.model.results  # for this page only
            effects = [] if intent is None else model.intend(intent)
            for effect in effects:
                self._effects_in.send_nowait(effect)
            self._answer = True  # what the page did is drawn at once
            self._change()

    async def _prove(self, runner: ClientRunner, proof: object) -> None:
        """The page's proof of its seat, for the challenge relayed to it."""
        given = _hex(proof, PROOF_CHARS)
        if given is None:
            raise PageError("a proof is 64 lowercase hexadecimal digits")
        try:
            prove = runner.session.relay_proof(given)
        except ValueError:
            raise PageError("no challenge is waiting for a proof") from None
        await runner.send(prove)  # a wrong one is the table's to refuse (bad_proof)

    async def _carry_out(
        self,
        runner: ClientRunner,
        nursery: trio.Nursery,
        again: list[dict[str, Any]],
        join: dict[str, Any],
    ) -> None:
        model = self.model
        assert model is not None
        done = nursery.cancel_scope
        async for effect in self._effects:
            if isinstance(effect, Wake):
                nursery.start_soon(self._wake, model, effect)
                continue
            if isinstance(effect, Send):
                if not await runner.send(effect.message):
                    model.say(model.t._("Not connected: that was not sent."), "error")
                if effect.message["type"] == "leave":
                    await self._tell_seat(runner.session)
            elif isinstance(effect, Quit):
                await self._send({"left": True})
                done.cancel()
                return
            elif isinstance(effect, Rejoin):
                # A new join, not a resume: its nonce was the last connection's.
                fresh = {key: value for key, value in join.items() if key != "resume"}
                again.append({**fresh, "spectator": effect.spectator, "code": effect.code})
                done.cancel()
                return
            elif isinstance(effect, BackToList):
                await self._send({"left": True})
                done.cancel()
                return
            self._change()

    async def _wake(self, model: ClientModel, wake: Wake) -> None:
        await trio.sleep(wake.after_s)
        for effect in model.wake():
            self._effects_in.send_nowait(effect)
        self._change()

    async def _views(self) -> None:
        """The view, each time something changed: at once after a quiet spell, then at
        most one every gap while changes keep coming (those made meanwhile drawn once,
        the latest state winning), and every ``TICK`` while a countdown runs; at once
        whatever the gap for the page's own taps and a decision newly owed."""
        drawn = -math.inf
        while True:
            with trio.move_on_after(TICK if self._counting_down() else math.inf):
                await self._changed.wait()
            if not self._urgent():
                with trio.move_on_at(drawn + self._gap()):
                    await self._at_once.wait()  # changes gather meanwhile
            self._changed = trio.Event()
            self._at_once = trio.Event()
            self._answer = False
            drawn = trio.current_time()
            self.views_rendered += 1
            self._drawn_choice = None if self.model is None else self.model.choosing
            await self._draw()

    def _change(self) -> None:
        """Something changed: a view is due; at once if it is urgent. (So a change within
        the gap wakes nothing: at a busy table, the page's views task wakes once a view.)"""
        self._changed.set()
        if self._urgent():
            self._at_once.set()

    def _counting_down(self) -> bool:
        """While a countdown runs on screen (the watch ticks for its pages)."""
        return self._watch is None and self.model is not None and self.model.countdowns.running

    def _urgent(self) -> bool:
        """What is drawn at once, gap or not: what the page did, a decision newly owed."""
        if self._answer:
            return True
        choosing = None if self.model is None else self.model.choosing
        return choosing is not None and choosing is not self._drawn_choice

    def _gap(self) -> float:
        """``WATCHING_GAP`` for a page that follows the play (it watches, or its seat owes
        nothing now), else ``VIEW_GAP``."""
        model = self.model
        if model is None or model.session is None:
            return self._view_gap
        following = model.session.spectator or model.choosing is None
        return self._watching_gap if following else self._view_gap

    async def _draw(self) -> None:
        """Renders the view and sends it if it changed (after what the seat's token
        needs to say)."""
        model = self.model
        assert model is not None
        session = model.session
        if session is not None:
            await self._tell_seat(session)
        watch = self._watch
        if watch is not None and watch.following and model.screen is Screen.TABLE:
            results = watch.model.results
            closed = results is not None and results is self._closed_results
            view = watch.text(OwnParts.of(model, results_closed=closed))
        else:
            view = view_text(display(model))
        if view != self._sent_view:
            self._sent_view = view
            await self.ws.send_message(view)

    async def _tell_seat(self, session: ClientSession) -> None:
        """The page keeps the seat's resume token: told once, after the seat's first
        ``welcome``; then only whether to keep it (forgotten with the seat, kept again at
        a rematch)."""
        welcome = session.welcome
        if welcome is None or session.spectator:
            return
        told_token, kept = self._told_seat
        if welcome["token"] is not None and not told_token:
            told_token = kept = True
            await self._send({"seat": {"token": welcome["token"], "table_id": welcome["table_id"]}})
        if kept == session.seat_over:
            kept = not session.seat_over
            await self._send({"seat": "keep" if kept else "forget"})
        self._told_seat = (told_token, kept)
