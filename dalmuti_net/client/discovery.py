"""Find tables on the LAN: a live set of DNS-SD listings, usable from trio.

zeroconf calls our handler on its own browser thread; the handler only hops into trio with
``TrioToken.run_sync_soon``. Resolving a listing's details blocks, so it runs in trio worker
threads. Nothing here assumes which loop trio runs on, so it also works with trio running
as a guest of asyncio (the prompt_toolkit client).
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager, suppress

import trio
from zeroconf import (
    DNSQuestionType,
    ServiceBrowser,
    ServiceInfo,
    ServiceStateChange,
    Zeroconf,
)
from zeroconf import Error as ZeroconfError

from ..lan import open_zeroconf
from ..nurseries import lone_error_as_itself
from ..protocol.discovery import SERVICE_TYPE, TableListing, listing_from_record

log = logging.getLogger(__name__)

RESOLVE_TIMEOUT = 3.0
"""Seconds to wait for a listing's details (SRV, TXT, address) before giving up on it."""
RESOLVE_WORKERS = 4
"""Listings resolved at once, so one silent name cannot hold up the others."""
MAX_KNOWN_NAMES = 256
"""Names tracked at most: a flood of bogus announcements cannot grow memory without end."""
DEFAULT_FIND_TIMEOUT = 2.0
DISCOVERY_PATIENCE = 4.0
"""Seconds a table list waits for tables before it says what to check."""


class TableBrowser:
    """The tables currently seen on the LAN.

    ``snapshot()`` gives the current list; ``async for tables in browser`` gives the
    current list at once and then a new list after each change (changes that come faster
    than the consumer reads are merged, the newest list wins).
    """

    def __init__(self, zc: Zeroconf, token: trio.lowlevel.TrioToken) -> None:
        self._zc = zc
        self._token = token
        self._tables: dict[str, TableListing] = {}
        # Each zeroconf event for a name bumps its generation; a resolution whose
        # generation is no longer current is stale and dropped.
        self._generations: dict[str, int] = {}
        self._next_generation = 0
        self._pending: dict[str, bool] = {}  # name -> removed?
        self._work_ready = trio.Event()
        self._version = 0
        self._changed = trio.Event()

    def snapshot(self) -> list[TableListing]:
        return sorted(self._tables.values(), key=lambda t: (t.name.casefold(), t.instance_name))

    def __aiter__(self) -> TableChanges:
        return TableChanges(self)

    @property
    def version(self) -> int:
        """Bumped on every change of the listing."""
        return self._version

    async def wait_changed(self, since_version: int) -> None:
        """Return once the version differs from ``since_version``."""
        while self._version == since_version:
            await self._changed.wait()

    def on_service_state_change(
        self,
        zeroconf: Zeroconf,
        service_type: str,
        name: str,
        state_change: ServiceStateChange,
    ) -> None:
        """ServiceBrowser handler: runs on zeroconf's thread, so it only hops into trio."""
        removed = state_change is ServiceStateChange.Removed
        with suppress(trio.RunFinishedError):  # trio has already finished: nobody is looking
            self._token.run_sync_soon(self.note_change, name, removed)

    def note_change(self, name: str, removed: bool) -> None:
        """Queue a name for resolution or removal (trio thread)."""
        if name not in self._generations and len(self._generations) >= MAX_KNOWN_NAMES:
            log.debug("ignoring %r: already tracking %d names", name, MAX_KNOWN_NAMES)
            return
        self._next_generation += 1
        self._generations[name] = self._next_generation
        self._pending.pop(name, None)
        self._pending[name] = removed
        self._work_ready.set()

    async def resolve_pending(self) -> None:
        """A worker task: resolves or removes queued names until cancelled."""
        while True:
            if not self._pending:
                if self._work_ready.is_set():
                    self._work_ready = trio.Event()
                await self._work_ready.wait()
                continue
            name = next(iter(self._pending))
            removed = self._pending.pop(name)
            generation = self._generations[name]
            if removed:
                self._forget(name)
                continue
            info = await trio.to_thread.run_sync(self._resolve, name, abandon_on_cancel=True)
            if self._generations.get(name) != generation:
                continue
            if info is None:
                if name not in self._tables:
                    del self._generations[name]
                continue
            self._store(name, _listing_from_service(info))

    def _resolve(self, name: str) -> ServiceInfo | None:
        """Worker thread: the listing's details, from zeroconf's cache or by asking (QM)."""
        try:
            return self._zc.get_service_info(
                SERVICE_TYPE,
                name,
                timeout=int(RESOLVE_TIMEOUT * 1000),
                question_type=DNSQuestionType.QM,
            )
        except (ZeroconfError, ValueError) as error:
            # Anyone on the LAN can announce any name; a bad one is skipped, not fatal.
            log.debug("cannot resolve %r: %s", name, error)
            return None

    def _store(self, name: str, listing: TableListing) -> None:
        if self._tables.get(name) != listing:
            self._tables[name] = listing
            self._announce_change()

    def _forget(self, name: str) -> None:
        del self._generations[name]
        if self._tables.pop(name, None) is not None:
            self._announce_change()

    def _announce_change(self) -> None:
        self._version += 1
        self._changed.set()
        self._changed = trio.Event()


class TableChanges:
    """Iterates the browser's listing: the current one first, then one after each change.

    A plain iterator, not an async generator, so leaving an ``async for`` early needs no
    clean-up.
    """

    def __init__(self, browser: TableBrowser) -> None:
        self._browser = browser
        self._seen: int | None = None

    def __aiter__(self) -> TableChanges:
        return self

    async def __anext__(self) -> list[TableListing]:
        if self._seen is None:
            await trio.lowlevel.checkpoint()
        else:
            await self._browser.wait_changed(self._seen)
        self._seen = self._browser.version
        return self._browser.snapshot()


@asynccontextmanager
async def browse_tables(*, interfaces: Sequence[str] | None = None) -> AsyncIterator[TableBrowser]:
    """Watch the LAN for tables while the block runs.

    ``interfaces`` are the IP addresses of the interfaces to listen on; ``None`` means all.
    """
    zc = await trio.to_thread.run_sync(open_zeroconf, interfaces)
    try:
        browser = TableBrowser(zc, trio.lowlevel.current_trio_token())
        service_browser = await trio.to_thread.run_sync(_start_browsing, zc, browser)
        try:
            with lone_error_as_itself():
                async with trio.open_nursery() as nursery:
                    for _ in range(RESOLVE_WORKERS):
                        nursery.start_soon(browser.resolve_pending)
                    yield browser
                    nursery.cancel_scope.cancel()
        finally:
            with trio.CancelScope(shield=True):
                await trio.to_thread.run_sync(service_browser.cancel)
    finally:
        with trio.CancelScope(shield=True):
            await trio.to_thread.run_sync(zc.close)


@asynccontextmanager
async def showing_tables(
    show: Callable[[list[TableListing]], None],
    slow: Callable[[], None],
    *,
    interfaces: Sequence[str] | None = None,
) -> AsyncIterator[None]:
    """Feed a table list while the block runs (the block waits for the player's pick):
    ``show`` gets the tables found at once and again after each change, and ``slow`` is
    called once ``DISCOVERY_PATIENCE`` seconds in (the list says what to check if it is
    still empty). The terminal table and the plain table share this."""
    async with browse_tables(interfaces=interfaces) as browser, trio.open_nursery() as nursery:

        async def show_listings() -> None:
            async for listings in browser:
                show(listings)

        async def say_when_slow() -> None:
            await trio.sleep(DISCOVERY_PATIENCE)
            slow()

        nursery.start_soon(show_listings)
        nursery.start_soon(say_when_slow)
        yield
        nursery.cancel_scope.cancel()


async def find_tables(
    timeout: float = DEFAULT_FIND_TIMEOUT, *, interfaces: Sequence[str] | None = None
) -> list[TableListing]:
    """The tables that answer within ``timeout`` seconds (for `dalmuti hosts`).

    Most answer within a few tenths of a second; a table registered less than a second ago
    answers only the browser's second query, about 1.1 s in, hence the default of 2 s.
    """
    async with browse_tables(interfaces=interfaces) as browser:
        await trio.sleep(timeout)
        return browser.snapshot()


def _start_browsing(zc: Zeroconf, browser: TableBrowser) -> ServiceBrowser:
    # QM questions: answers come by multicast, so every browser on this machine hears them
    # (a unicast answer to port 5353 would reach only one of the sockets sharing it).
    return ServiceBrowser(
        zc,
        SERVICE_TYPE,
        handlers=[browser.on_service_state_change],
        question_type=DNSQuestionType.QM,
    )


def _listing_from_service(info: ServiceInfo) -> TableListing:
    return listing_from_record(
        instance_name=info.name,
        server=info.server or "",
        addresses=info.parsed_scoped_addresses(),
        port=info.port or 0,
        txt=info.properties,
    )
