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
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
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
Follower = Callable[[Received | None], None]
"""A page's: told after each change of the watch (what the message asked of the screen,
or None for a change of the connection)."""


class Watch:
    """One language's watching pages' client of the table."""

    def __init__(self, language: str, connect: Connector, checked: CheckedFrames | None) -> None:
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
        self._version = 0
        self._shown: tuple[int, Display] | None = None
        self._texts: dict[OwnParts, str] = {}
        """The texts made at this version, by the pages' own parts."""
        self._texts_version = -1
        self.texts_made = 0
        """Texts made (for the pages drawn from this watch, all told)."""

    @property
    def following(self) -> bool:
        """At the table and connected: what it shows is the table's."""
        return self.model.status is Status.CONNECTED and self.model.screen is Screen.TABLE

    def shown(self) -> Display:
        """The typed view of the table, made once for every page drawn meanwhile."""
        if self._shown is None or self._shown[0] != self._version:
            self._shown = (self._version, display(self.model))
        return self._shown[1]

    def text(self, own: OwnParts) -> str:
        """What a page watching from here is sent now: the table as shown here with the
        page's own parts (``view.watching_view``), made once for every page drawn at this
        version whose own parts are the same (mostly all of them: no notice, no
        question)."""
        if self._texts_version != self._version:
            self._texts = {}
            self._texts_version = self._version
        text = self._texts.get(own)
        if text is None:
            text = self._texts[own] = view_text(watching_view(self.shown(), own))
            self.texts_made += 1
        return text

    def stop(self) -> None:
        self._scope.cancel()

    def _changed(self, received: Received | None) -> None:
        self._version += 1
        for follower in list(self.pages):
            follower(received)

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
                await runner.run()
        except CannotConnect as error:
            model.cannot_connect(str(error), error.kind)
        except Exception as error:  # what serves many pages must not end the table
            # Nothing foreseen: one line in the log, and the pages each draw their own
            # client's view (the table's seats, their connection) from now on.
            log_fault(log, CONNECTION_FAILED, error, address=Told(LOCAL))
        finally:
            self.over = True
            self._changed(None)


class Watches:
    """The watches of a web table's pages, one a language, each while a page watches in
    it. Run (``run``) for as long as the web server serves."""

    def __init__(self, connect: Connector, checked: CheckedFrames | None = None) -> None:
        self._connect = connect
        self._checked = checked
        self._watches: dict[str, Watch] = {}
        self._nursery: trio.Nursery | None = None

    async def run(self, *, task_status: Any = trio.TASK_STATUS_IGNORED) -> None:
        try:
            async with trio.open_nursery() as nursery:
                self._nursery = nursery
                task_status.started()
                await trio.sleep_forever()
        finally:
            self._nursery = None

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
            watch = self._watches[language] = Watch(language, self._connect, self._checked)
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
