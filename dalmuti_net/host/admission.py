"""Who may connect to the host, and when it is full: the admission limits, sans-I/O.

Everything here takes the clock as a number (``now``, in seconds) and reads no clock,
socket or file itself, so that a test drives it with plain numbers.

Limits apply to connections from outside (the host's own bots and terminal are never
counted), per *address*: an IPv4 address, or an IPv6 /64 (``address_key``: one device
may take any address of its /64, so a /64 is what one attacker holds; a home LAN is
usually one /64, so over IPv6 a whole household counts as one address, which the caps
below are sized for).

- At connect, on connections that have not said ``hello`` yet (``Admission.arrive``). A
  newcomer is **never refused**: a correct resume must be able to get in whatever else
  its address is doing, and at connect nothing tells it apart from a flood. Over the
  limit, room is made by closing the oldest waiting connection of the newcomer's address
  (over the limit in all: of the address with the most waiting), but only once it has
  waited ``YOUNG_S`` (a client says hello as soon as it connects; bots on one machine
  connecting together are not closed by each other) or, for a crowd of young ones,
  once they are ``BURST_FACTOR`` times the limit. A connection that sent a ``hello``
  with ``resume`` and awaits its ``prove`` is not waiting any more (it named a real seat,
  which a flood cannot): it is neither counted nor closed to make room.
- At ``hello``, on connections that have said hello (``max_connections``); a seat taken back
  is let in over it, since it is not a new place at the table; and per address
  (``Admission.check_place``): seats and spectator places.
- Join codes (``CodeGuesses``): after a wrong code an address waits longer each time.
- Chat lines per address (``ChatBudget``).

``Admission`` keeps no state and closes nothing: the table asks and acts on the answer.
``CodeGuesses`` and ``ChatBudget`` remember addresses, in bounded memory.
"""

from __future__ import annotations

import ipaddress
import secrets
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from ..protocol import ErrorCode, ProtocolError

YOUNG_S = 1.0
"""A connection that has not said hello yet is idle after this long: room is made for a
newcomer by closing such a connection before a younger one."""
BURST_FACTOR = 4
"""Up to this many times its limit of connections waiting to say hello, all of them young,
an address (or the host) has its newcomers let in beside them; over it, room is made by
closing the oldest even though it is young. Bounds the descriptors a flood holds: at the
defaults 8 x 4 = 32 per address and 64 x 4 = 256 in all."""


def address_key(address: str | None) -> str | None:
    """What the per-address limits count: an IPv4 address as it is (an IPv4-mapped IPv6
    address as its IPv4), an IPv6 address as its /64 (``2001:db8:1:2::/64``; a
    link-local one with its zone dropped), anything else as it is. ``None`` (an address
    unknown: the peer had gone already) stays ``None``."""
    if address is None:
        return None
    text = address.split("%", 1)[0]
    try:
        ip = ipaddress.ip_address(text)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


def is_loopback(address: str | None) -> bool:
    """Whether ``address`` is this machine's own (127.0.0.0/8, ::1): the host player's
    machine, whose terminals and bots are not strangers of the LAN."""
    if address is None:
        return False
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_loopback


class Waiting(Protocol):
    """A connection from outside that has not said hello yet."""

    @property
    def address(self) -> str | None: ...

    @property
    def connected_at(self) -> float: ...


W = TypeVar("W", bound=Waiting)


@dataclass(frozen=True)
class MakeRoom(Generic[W]):
    """Let the newcomer in once ``oldest`` is closed with ``error``."""

    oldest: W
    error: ProtocolError


@dataclass(frozen=True)
class Admission:
    max_connections: int
    """Connections from outside that have said hello."""
    max_unwelcomed: int
    """Connections from outside that have not said hello yet."""
    max_unwelcomed_per_address: int
    """The same, from one address."""
    max_seats_per_address: int = 6
    """Seats taken from one address (loopback excepted)."""
    max_spectators_per_address: int = 16
    """Spectator places taken from one address (loopback excepted)."""

    def arrive(self, waiting: Sequence[W], address: str | None, now: float) -> MakeRoom[W] | None:
        """Whether room is made for a newcomer from ``address`` at ``now`` (seconds), given
        the connections from outside ``waiting`` to say hello, oldest first: ``None`` lets
        it in as things are. The newcomer is let in either way."""
        key = address_key(address)
        mine = [c for c in waiting if address_key(c.address) == key]
        if self._full(mine, self.max_unwelcomed_per_address, now):
            return MakeRoom(mine[0], _made_room("from your address "))
        if len(waiting) >= self.max_unwelcomed:
            # The biggest crowd pays: a lone client elsewhere is never closed for a flood.
            crowds: dict[str | None, list[W]] = {}
            for c in waiting:
                crowds.setdefault(address_key(c.address), []).append(c)
            biggest = max(crowds.values(), key=len)  # the first of the largest: oldest-led
            if self._full(waiting, self.max_unwelcomed, now, biggest[0]):
                return MakeRoom(biggest[0], _made_room(""))
        return None

    @staticmethod
    def _full(
        crowd: Sequence[Waiting], cap: int, now: float, victim: Waiting | None = None
    ) -> bool:
        """Whether ``crowd`` is over ``cap`` so that ``victim`` (its oldest unless said)
        is closed: once it has waited ``YOUNG_S``, or however young at ``BURST_FACTOR``
        times the cap."""
        if len(crowd) < cap:
            return False
        oldest = crowd[0] if victim is None else victim
        return now - oldest.connected_at >= YOUNG_S or len(crowd) >= cap * BURST_FACTOR

    def check_hello(self, greeted_from_outside: int) -> None:
        """Raise ``too_many_connections`` when a new (not resuming) ``hello`` finds
        ``greeted_from_outside`` connections already in."""
        if greeted_from_outside >= self.max_connections:
            raise ProtocolError(
                ErrorCode.TOO_MANY_CONNECTIONS,
                f"the host is full ({self.max_connections} connections)",
            )

    def check_place(self, spectator: bool, taken_from_address: int) -> None:
        """Raise ``table_full`` when a new seat (or spectator place) finds
        ``taken_from_address`` already taken from the newcomer's address.

        Why 6 seats and 16 spectator places: a household behind one address (a guest
        network's NAT, or one IPv6 /64, which is usually a whole home) seats six of the
        eight and brings their phones as watchers too, yet one machine cannot take the
        whole table in a moment and leave nothing for the LAN's other people."""
        cap = self.max_spectators_per_address if spectator else self.max_seats_per_address
        if taken_from_address >= cap:
            what = "spectator places" if spectator else "seats"
            raise ProtocolError(
                ErrorCode.TABLE_FULL, f"your address has taken {cap} {what}, the most one may"
            )


def _made_room(where: str) -> ProtocolError:
    return ProtocolError(
        ErrorCode.TOO_MANY_CONNECTIONS,
        f"too many connections {where}have not said hello; the oldest is closed",
    )


# ---------------------------------------------------------------------- join codes

FREE_GUESSES = 3
"""Wrong codes an address may give with no wait at all (typing mistakes)."""
FIRST_WAIT_S = 2.0
"""The wait after the first wrong code past the free ones; it doubles with each more."""
LONGEST_WAIT_S = 20.0
"""The wait never grows past this: at most 3 guesses a minute, sustained, per address."""
FORGET_S = 600.0
"""One wrong code is forgiven for every 10 minutes an address gives none."""
TELL_AT = (5, 20, 100, 500, 2000, 10000)
"""The host player is told when an address reaches each of these counts of wrong codes
(then every 10,000): once per step, never once per try."""
MAX_REMEMBERED = 4096
"""Addresses remembered at once; past it the one quiet the longest is forgotten. A LAN
has a few hundred IPv4 addresses and a few IPv6 /64s, so a forgotten address is one that
gave up long ago."""

CODE_DIGITS = 12
"""A join code the host makes (``new_join_code``) has 12 decimal digits.

Why 12: guessing is slowed per address to at most 3 tries a minute (``LONGEST_WAIT_S``),
about 1.58 million a year (3 x 60 x 24 x 365 = 1,576,800). The host itself answered at
most about 2,300 hellos a second before the wait (bench/guesses.py), which bounds every
address of the LAN together: 2,300 x 31,536,000 s = 7.3 x 10^10 tries a year, were a
whole /16 of addresses used at once (65,536 x 3 a minute is more than the host answers).
10^12 codes at 7.3 x 10^10 a year take 6.9 years on average to hit (half the space) and
a year hits with a chance of 7%. At the rate of a /24 LAN's every address (254 x
1,576,800 = 4.0 x 10^8 a year), 1,250 years on average. Twelve digits, typed in three
groups of four (``1234-5678-9012``; spaces and dashes are ignored when comparing), are
still easy to read out and to type on a phone's number pad."""


def new_join_code() -> str:
    """A fresh random join code: 12 digits in groups of four."""
    digits = "".join(secrets.choice("0123456789") for _ in range(CODE_DIGITS))
    return "-".join(digits[i : i + 4] for i in range(0, CODE_DIGITS, 4))


def same_code(given: object, code: str) -> bool:
    """Whether a code given in a ``hello`` is the table's, ignoring spaces and dashes
    (groups typed as shown or run together), in constant time."""
    if not isinstance(given, str):
        return False
    return secrets.compare_digest(_bare(given).encode(), _bare(code).encode())


def _bare(code: str) -> str:
    return "".join(ch for ch in code if ch not in " -")


@dataclass
class _Guesser:
    wrong: float = 0.0
    """Wrong codes counted (forgiven slowly: ``FORGET_S``)."""
    total: int = 0
    """Every wrong code ever, for telling the host player."""
    last: float = 0.0
    """When the last wrong code came."""
    wait_until: float = 0.0


@dataclass(frozen=True)
class WrongCode:
    """What the host player is told: ``count`` wrong codes came from ``address`` (a key
    of ``address_key``)."""

    address: str
    count: int


class CodeGuesses:
    """Wrong join codes per address, sans-I/O: after each wrong code past the free ones,
    the address waits ``FIRST_WAIT_S``, then twice as long each time, up to
    ``LONGEST_WAIT_S``. While it waits, its codes are not even looked at (a wait that
    answered right codes differently would still let them be tried)."""

    def __init__(self) -> None:
        self._by_address: OrderedDict[str, _Guesser] = OrderedDict()

    def wait_left(self, address: str | None, now: float) -> float:
        """Seconds ``address`` must still wait before its next code is looked at."""
        key = address_key(address)
        guesser = None if key is None else self._by_address.get(key)
        return 0.0 if guesser is None else max(0.0, guesser.wait_until - now)

    def wrong(self, address: str | None, now: float) -> WrongCode | None:
        """A wrong code came from ``address`` at ``now``: its wait grows. Returns what to
        tell the host player when the address has just reached a step of ``TELL_AT``."""
        key = address_key(address)
        if key is None:
            return None
        guesser = self._by_address.pop(key, None) or _Guesser(last=now)
        self._by_address[key] = guesser  # the most recent last
        while len(self._by_address) > MAX_REMEMBERED:
            self._by_address.popitem(last=False)
        guesser.wrong = max(0.0, guesser.wrong - (now - guesser.last) / FORGET_S) + 1
        guesser.last = now
        guesser.total += 1
        over = guesser.wrong - FREE_GUESSES
        if over > 0:
            wait = min(LONGEST_WAIT_S, FIRST_WAIT_S * 2 ** (over - 1))
            guesser.wait_until = now + wait
        total = guesser.total
        if total in TELL_AT or (total > TELL_AT[-1] and total % TELL_AT[-1] == 0):
            return WrongCode(key, total)
        return None


# ---------------------------------------------------------------------- chat

CHAT_LINES_PER_MINUTE = 30
"""Chat lines one address may send a minute, sustained: a line every two seconds for a
household typing together, far more than people type, far less than a flood."""
CHAT_BURST = 10
"""...in bursts of up to this many lines."""


class ChatBudget:
    """Chat lines per address, a token bucket, sans-I/O (loopback is the caller's to
    except)."""

    def __init__(
        self, per_minute: float = CHAT_LINES_PER_MINUTE, burst: float = CHAT_BURST
    ) -> None:
        self.rate = per_minute / 60
        self.burst = burst
        self._by_address: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def allow(self, address: str | None, now: float) -> bool:
        key = address_key(address)
        if key is None:
            return True
        tokens, last = self._by_address.pop(key, (self.burst, now))
        tokens = min(self.burst, tokens + max(0.0, now - last) * self.rate)
        allowed = tokens >= 1
        self._by_address[key] = (tokens - 1 if allowed else tokens, now)
        while len(self._by_address) > MAX_REMEMBERED:
            self._by_address.popitem(last=False)
        return allowed
