"""The table as the pages that watch it in one language see it: one client for all of them.

A spectator is sent only what is public, the same stream for every spectator (the host's
views: ``engine/views.py``, ``protocol/feed.py``), so the pages watching in one language
are drawn from one client of the table (a ``ClientSession`` and a ``ClientModel``) fed
each message once, over an in-process connection that the table counts as nobody's
place (``TableServer.connect_local(unseen=True)``). Each page keeps its own connection,
a spectator of its own name (its presence: the table's watchers, its place and its chat
from its address), whose session keeps only what is its own (``follows_play``: its
welcome, refusals and goodbye, and the seats); its view is the watch's with its own parts
(``view.watching_view``). A seated page never shares a watch: its client is its own.
"""

from __future__ import annotations

import logging
import math
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from typing import Any

import trio

from ..client.model.client_model import ClientModel, Screen, Send
from ..client.model.display import Display, display
from ..client.model.table_model import Received
from ..client.runner import CannotConnect, ClientRunner
from ..client.session import TABLE_UI_SOFTWARE, ClientSession
from ..client.status import Status
from ..faults import CONNECTION_FAILED, LOCAL, log_fault
from ..lang.i18n import Translator
from ..protocol.codec import CheckedFrames
from ..protocol.messages import Message
from ..told import Told
from .view import OwnParts, view_text, watching_view

log = logging.getLogger(__name__)

WATCH_SOFTWARE = f"{TABLE_UI_SOFTWARE} web watch"

Connector = Callable[[], Awaitable[trio.abc.Stream]]
Follower = Callable[[bool], None]
"""A page's: told each new frame of the watch (and whether a hand started since the last
one)."""


class Watch:
    """One language's watching pages' client of the table."""

    def __init__(
        self,
        language: str,
        connect: Connector,
        checked: CheckedFrames | None,
        *,
        gap: float,
        tick: float,
    ) -> None:
        self.language = language
        self.session = ClientSession("web", spectator=True, software=WATCH_SOFTWARE)
        self.model = ClientModel(
            Translator(language), self.session, address="web", lists_tables=False, in_a_page=True
        )
        self.pages: set[Follower] = set()
        self.over = False
        """The watch's connection ended: pages that come now start another."""
        self._connect = connect
        self._checked = checked
        self._scope = trio.CancelScope()
        self._gap = gap
        self._tick = tick
        self._dirty = trio.Event()
        """Set at each change: a frame is due (``_frames``)."""
        self._hand_started = False
        """A hand started since the last frame."""
        self._frame: Display | None = None
        """The typed view of the table as last framed: what every page is drawn from."""
        self._texts: dict[OwnParts, str] = {}
        """The texts made from this frame, by the pages' own parts."""
        self.frames = 0
        self.texts_made = 0
        """Texts made (for the pages drawn from this watch, all told)."""

    @property
    def following(self) -> bool:
        """At the table and connected, and framed: what it shows is the table's."""
        model = self.model
        connected = model.status is Status.CONNECTED and model.screen is Screen.TABLE
        return connected and self._frame is not None

    def text(self, own: OwnParts) -> str:
        """What a page watching from here is sent now: the last frame with the page's own
        parts (``view.watching_view``), made once for every page whose own parts are the
        same (mostly all of them: no notice, no question)."""
        assert self._frame is not None, "following first"
        text = self._texts.get(own)
        if text is None:
            text = self._texts[own] = view_text(watching_view(self._frame, own))
            self.texts_made += 1
        return text

    async def _frames(self) -> None:
        """The table framed for the pages: at once after a quiet spell, then at most one
        every gap while changes keep coming (the latest state winning), and every tick
        while a countdown runs; each page is told and draws it at once, so that the pages
        of a watch are drawn together, from one ``display`` and mostly one text. (What a
        page does itself is drawn by the page, at once.)"""
        drawn = -math.inf
        while True:
            with trio.move_on_after(self._tick if self.model.countdowns.running else math.inf):
                await self._dirty.wait()
            await trio.sleep_until(max(drawn + self._gap, trio.current_time()))
            self._dirty = trio.Event()
            drawn = trio.current_time()
            self._frame_now()

    def _frame_now(self) -> None:
        self._frame = display(self.model)
        self._texts = {}
        self.frames += 1
        started, self._hand_started = self._hand_started, False
        for follower in list(self.pages):
            follower(started)

    def stop(self) -> None:
        self._scope.cancel()

    def _changed(self, received: Received | None) -> None:
        if received is not None and received.hand_started:
            self._hand_started = True
        self._dirty.set()

    async def run(self) -> None:
        model = self.model
        runner: ClientRunner

        async def on_message(message: Message) -> None:
            for effect in model.on_message(message):
                if isinstance(effect, Send):  # a fresh snapshot, say; a spectator does little
                    await runner.send(effect.message)
            self._changed(model.received)

        def on_status(status: Status) -> None:
            model.on_status(status)
            self._changed(None)

        runner = ClientRunner(
            self.session,
            self._connect,
            on_message=on_message,
            on_status=on_status,
            reconnect=False,
            checked_frames=self._checked,
        )
        try:
            with self._scope:
                async with trio.open_nursery() as nursery:
                    nursery.start_soon(self._frames)
                    await runner.run()
                    nursery.cancel_scope.cancel()
        except CannotConnect as error:
            model.cannot_connect(str(error), error.kind)
        except Exception as error:  # what serves many pages must not end the table
            # Nothing foreseen: one line in the log, and the pages each draw their own
            # client's view (the table's seats, their connection) from now on.
            log_fault(log, CONNECTION_FAILED, error, address=Told(LOCAL))
        finally:
            self.over = True
            self._frame = None  # the pages draw their own clients' views from now on
            for follower in list(self.pages):
                follower(False)


class Watches:
    """The watches of a web table's pages, one a language, each while a page watches in
    it. Run (``run``) for as long as the web server serves."""

    def __init__(
        self,
        connect: Connector,
        checked: CheckedFrames | None = None,
        *,
        gap: float,
        tick: float,
    ) -> None:
        self._connect = connect
        self._checked = checked
        self._gap = gap
        """Seconds at least between two frames while the table keeps changing (a
        watching page's gap, ``seat.WATCHING_GAP``)."""
        self._tick = tick
        """A frame every so often while a countdown runs (``seat.TICK``)."""
        self._watches: dict[str, Watch] = {}
        self._nursery: trio.Nursery | None = None

    @contextmanager
    def serving(self, nursery: trio.Nursery) -> Iterator[None]:
        """The watches run in ``nursery`` while this lasts (the web server's)."""
        self._nursery = nursery
        try:
            yield
        finally:
            self._nursery = None

    async def run(self, *, task_status: Any = trio.TASK_STATUS_IGNORED) -> None:
        """The watches in a nursery of their own, until cancelled."""
        async with trio.open_nursery() as nursery:
            with self.serving(nursery):
                task_status.started()
                await trio.sleep_forever()

    @asynccontextmanager
    async def joined(self, language: str, follower: Follower) -> AsyncIterator[Watch | None]:
        """The watch of ``language``, started for the first page that watches in it and
        stopped when the last one goes; ``follower`` is told each of its changes. None
        when the watches are not running (the page follows the play itself)."""
        nursery = self._nursery
        if nursery is None:
            yield None
            return
        watch = self._watches.get(language)
        if watch is None or watch.over:
            watch = Watch(language, self._connect, self._checked, gap=self._gap, tick=self._tick)
            self._watches[language] = watch
            nursery.start_soon(watch.run)
        watch.pages.add(follower)
        try:
            yield watch
        finally:
            watch.pages.discard(follower)
            if not watch.pages:
                watch.stop()
                if self._watches.get(language) is watch:
                    del self._watches[language]
