"""Announce a table on the LAN over mDNS/DNS-SD for as long as the host serves it.

zeroconf runs its own thread and event loop and its calls block, so every call into it goes
through ``trio.to_thread.run_sync``; nothing here depends on which loop trio runs on.
Start serving TCP before announcing: a listing must never point at a closed port.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import math
import re
import secrets
import socket
import struct
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from typing import NoReturn

import ifaddr
import trio
from zeroconf import (
    DNSQuestionType,
    ServiceBrowser,
    ServiceInfo,
    Zeroconf,
)
from zeroconf import Error as ZeroconfError
from zeroconf._protocol.incoming import DNSIncoming

from ..faults import fault_line
from ..lan import open_zeroconf
from ..nurseries import lone_error_as_itself
from ..protocol.discovery import SERVICE_TYPE, TableInfo, encode_txt, instance_name_for
from ..told import N_, Told

log = logging.getLogger(__name__)

MIN_UPDATE_INTERVAL = 1.0
"""Seconds between two published changes (RFC 6762 asks for at most one a second)."""
RECORD_TTL = 120
"""Seconds a listing lives in caches: a host that dies without a goodbye fades this fast."""

Publish = Callable[[TableInfo], Awaitable[None]]


class TableAnnouncer:
    """Keeps the announced TXT record in step with the table.

    ``update`` never waits for the network: it records the wanted state and returns, and
    ``publish_changes`` (a task) publishes the latest wanted state at most once per
    ``min_interval`` seconds, so a burst of seat changes becomes one announcement.
    """

    def __init__(
        self,
        info: TableInfo,
        publish: Publish,
        *,
        instance_name: str,
        min_interval: float = MIN_UPDATE_INTERVAL,
    ) -> None:
        self._wanted = info
        self._published = info
        self._publish = publish
        self._min_interval = min_interval
        self._changed = trio.Event()
        self._last_publish_at = -math.inf
        self._failing = False
        self.instance_name = instance_name
        """The announced instance name; zeroconf may have added a suffix to keep it unique."""

    @property
    def info(self) -> TableInfo:
        """The state most recently asked for."""
        return self._wanted

    @property
    def published(self) -> TableInfo:
        """The state the LAN was last told about."""
        return self._published

    async def update(self, info: TableInfo) -> None:
        """Ask for ``info`` to be announced; returns at once."""
        self._wanted = info
        self._changed.set()
        await trio.lowlevel.checkpoint()

    def mark_published_now(self) -> None:
        """Start the rate limit from now (the registration itself just announced)."""
        self._last_publish_at = trio.current_time()

    async def publish_changes(self) -> NoReturn:
        while True:
            await self._changed.wait()
            self._changed = trio.Event()
            await trio.sleep_until(self._last_publish_at + self._min_interval)
            wanted = self._wanted
            if wanted == self._published:
                continue
            try:
                await self._publish(wanted)
            except Exception as error:
                # The table goes on without a fresh listing; try again after the interval
                # (the host is told once, and again when it works). A listing is only a
                # hint: not even an error nothing foresaw ends the evening for it.
                if not self._failing:
                    foreseen = isinstance(error, ZeroconfError | OSError)
                    reason = _reason(error) if foreseen else fault_line(error)
                    log.warning(Told(CANNOT_UPDATE, reason=reason))
                    log.debug("the announcement failed", exc_info=error)
                self._failing = True
                self._changed.set()
            else:
                self._published = wanted
                if self._failing:
                    log.warning(Told(UPDATED_AGAIN))
                self._failing = False
            self.mark_published_now()


@asynccontextmanager
async def announce_table(
    info: TableInfo,
    port: int,
    *,
    interfaces: Sequence[str] | None = None,
    min_update_interval: float = MIN_UPDATE_INTERVAL,
) -> AsyncIterator[TableAnnouncer]:
    """Announce the table served on ``port`` while the block runs, then say goodbye.

    ``interfaces`` are the IP addresses of the interfaces to announce on, and the listing
    advertises exactly those addresses; ``None`` means every interface, advertising every
    non-loopback IPv4 address of this machine. The goodbye is sent on any exit, including
    cancellation. Registration probes the LAN for a name clash first (about 1.7 s); on a
    clash the instance name gets a suffix (``announcer.instance_name``).
    """
    if not 0 < port < 65536:
        raise ValueError(f"port must be 1 to 65535, not {port}")
    addresses = advertised_addresses(interfaces)
    zc = await trio.to_thread.run_sync(open_zeroconf, interfaces)
    try:
        service = _service_info(instance_name_for(info.name), port, addresses, _server_name(), info)
        async with trio.open_nursery() as nursery:
            # While zeroconf probes for a clash, every table's name comes into its cache.
            nursery.start_soon(_ask_for_tables, zc, addresses)
            await trio.to_thread.run_sync(_register_unique, zc, service)
            nursery.cancel_scope.cancel()
        log.info("announced as %r at %s port %d", service.name, ", ".join(addresses), port)

        async def publish(new_info: TableInfo) -> None:
            changed = _service_info(service.name, port, addresses, service.server or "", new_info)
            await trio.to_thread.run_sync(zc.update_service, changed)

        announcer = TableAnnouncer(
            info, publish, instance_name=service.name, min_interval=min_update_interval
        )
        announcer.mark_published_now()
        with lone_error_as_itself():
            async with trio.open_nursery() as nursery:
                nursery.start_soon(announcer.publish_changes)
                yield announcer
                nursery.cancel_scope.cancel()
    finally:
        with trio.CancelScope(shield=True):
            await trio.to_thread.run_sync(_say_goodbye_and_close, zc)


def advertised_addresses(interfaces: Sequence[str] | None) -> list[str]:
    """The addresses a listing gives: the chosen interfaces' own, or all but loopback."""
    if interfaces is not None:
        if not interfaces:
            raise ValueError("interfaces must name at least one address, or be None for all")
        chosen = [ipaddress.ip_address(address) for address in interfaces]
        for address in chosen:
            if address.is_unspecified or address.is_multicast:
                raise ValueError(f"{address} is not one interface's address; use None for all")
        return [str(address) for address in chosen]
    found = [
        str(ip.ip)
        for adapter in ifaddr.get_adapters()
        for ip in adapter.ips
        if ip.is_IPv4 and isinstance(ip.ip, str)
    ]
    outward = [address for address in found if not ipaddress.ip_address(address).is_loopback]
    return outward or found or ["127.0.0.1"]


def _service_info(
    instance_name: str, port: int, addresses: list[str], server: str, info: TableInfo
) -> ServiceInfo:
    return ServiceInfo(
        SERVICE_TYPE,
        instance_name,
        port=port,
        properties=encode_txt(info),
        server=server,
        host_ttl=RECORD_TTL,
        other_ttl=RECORD_TTL,
        parsed_addresses=addresses,
    )


def _register_unique(zc: Zeroconf, service: ServiceInfo) -> None:
    """Register, renaming ``service`` (``name-2``, ...) if another table has its name."""
    # zeroconf sees a clash only in its cache (where _ask_for_tables puts every table's
    # name). The answer to its probe comes by unicast to port 5353, which several mDNS
    # sockets on one machine may share, so it can land in another one; a QM browse
    # meanwhile brings the other tables' records by multicast.
    listening = ServiceBrowser(
        zc, SERVICE_TYPE, handlers=[_ignore_state_change], question_type=DNSQuestionType.QM
    )
    try:
        zc.register_service(service, allow_name_change=True)
    finally:
        listening.cancel()


def _ignore_state_change(**_: object) -> None:
    pass


MDNS_GROUP = "224.0.0.251"
MDNS_PORT = 5353
TYPE_PTR = 12
CLASS_IN = 1
ASK_EVERY_S = 0.25
"""Seconds between the questions asked while zeroconf probes (a lost datagram is asked
again; the probe takes about a second)."""


async def _ask_for_tables(zc: Zeroconf, addresses: Sequence[str]) -> NoReturn:
    """Ask the LAN for every table from a port of our own, and put the answers in
    ``zc``'s cache, until cancelled.

    A question from a port other than 5353 is a "legacy unicast" query (RFC 6762 section
    6.7): a responder answers it at once, by unicast to that very port. Its multicast
    answer to anyone else comes at most once a second, and the unicast answer to a probe
    may land in another socket on port 5353: under load, either can come after zeroconf's
    probe has looked, and two tables kept one name."""
    sockets = []
    try:
        for address in addresses:
            sock = trio.socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
            sockets.append(sock)
            try:
                await sock.bind((address, 0))
                multicast_from = socket.inet_aton(address)
                sock.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_IF, multicast_from)
                sock.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_TTL, 255)
            except OSError as error:  # zeroconf's own probe still looks, as it always did
                log.debug("cannot ask for tables from %s: %s", address, error)
                sockets.remove(sock)
                sock.close()
        async with trio.open_nursery() as nursery:
            for sock in sockets:
                nursery.start_soon(_take_answers, zc, sock)
            while True:
                for sock in sockets:
                    question = _ptr_question(SERVICE_TYPE, query_id=secrets.randbits(16))
                    with contextlib.suppress(OSError):  # (asked again after a while)
                        await sock.sendto(question, (MDNS_GROUP, MDNS_PORT))
                await trio.sleep(ASK_EVERY_S)
    finally:
        for sock in sockets:
            sock.close()


def _ptr_question(name: str, query_id: int) -> bytes:
    """A DNS query (RFC 1035 section 4.1) with one question: the PTR records of ``name``.

    Each gets an id of its own: a responder ignores a datagram that is the same, byte for
    byte, as one it had in the last 0.8 s (zeroconf does), and a browser's first question
    for the tables (id 0, no known answers) would be just that."""
    header = struct.pack(">HHHHHH", query_id, 0, 1, 0, 0, 0)  # a standard query, 1 question
    labels = b"".join(bytes([len(label)]) + label for label in name.encode().split(b".") if label)
    return header + labels + b"\0" + struct.pack(">HH", TYPE_PTR, CLASS_IN)


async def _take_answers(zc: Zeroconf, sock: trio.socket.SocketType) -> None:
    while True:
        try:
            data, source = await sock.recvfrom(9000)
        except OSError:
            return
        if source[1] != MDNS_PORT:
            continue  # not a responder (RFC 6762 section 6.7: they answer from 5353)
        answer = DNSIncoming(data, source)
        if answer.valid and answer.is_response() and zc.loop is not None:
            # Into the cache in zeroconf's own loop, as if it had heard the answer itself.
            zc.loop.call_soon_threadsafe(zc.record_manager.async_updates_from_response, answer)


def _server_name() -> str:
    # Unique per announcement: two tables on one machine (or in two network namespaces
    # with the same host name) must not fight over one host name's address records.
    host = re.sub(r"[^A-Za-z0-9-]+", "-", socket.gethostname().split(".")[0]).strip("-")
    return f"{host[:40] or 'dalmuti'}-{secrets.token_hex(3)}.local."


GOODBYES = 3
GOODBYE_EVERY_S = 0.125
GOODBYE_TIMEOUT_S = 5.0


def _say_goodbye_and_close(zc: Zeroconf) -> None:
    try:
        assert zc.loop is not None
        goodbye = asyncio.run_coroutine_threadsafe(_say_goodbye(zc), zc.loop)
        goodbye.result(GOODBYE_TIMEOUT_S)
    except (ZeroconfError, OSError) as error:  # (a TimeoutError is an OSError)
        # Never mask the error that ended the block; the listing fades with its TTL.
        log.warning(Told(NO_GOODBYE, reason=_reason(error), seconds=RECORD_TTL))
    finally:
        zc.close()


async def _say_goodbye(zc: Zeroconf) -> None:
    """zeroconf's ``unregister_all_services``, and the answers it had queued dropped.

    An answer to someone's question goes out by multicast up to a second or so later
    (RFC 6762 section 6 and 14), and zeroconf kept sending those after the goodbye: the
    listing came back on every browser for two minutes. Run in zeroconf's loop, so that
    nothing is queued between the two steps."""
    goodbye = zc.generate_unregister_all_services()  # out of the registry: no new answers
    for outgoing in (zc.out_queue, zc.out_delay_queue):
        outgoing.queue.clear()
    if goodbye is None:
        return
    for n in range(GOODBYES):
        if n:
            await asyncio.sleep(GOODBYE_EVERY_S)
        zc.async_send(goodbye)


CANNOT_UPDATE = N_(
    "Could not update the table's announcement on the local network ({reason}); players "
    "looking for tables may see it out of date until it works again."
)
UPDATED_AGAIN = N_("The table's announcement on the local network is up to date again.")
NO_GOODBYE = N_(
    "Could not tell the local network that the table is closed ({reason}); other computers "
    "may still list it for up to {seconds} seconds."
)


def _reason(error: BaseException) -> str:
    """What went wrong, in the system's words (an ``OSError``'s without its number)."""
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    return str(error) or type(error).__name__
