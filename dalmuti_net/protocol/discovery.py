"""What a table announces on the LAN (DNS-SD over mDNS), as data: no sockets, no zeroconf.

A host publishes one service instance of type ``_dalmuti._tcp.local.`` whose TXT record
carries the keys below; a client turns whatever TXT record it receives (from anyone on the
LAN, so possibly garbage) into a ``TableListing``. Decoding never raises: a missing or
garbled key leaves that field unknown (``None``) and is named in ``TableListing.issues``.
Listings are hints; a client can always join a host by address.
"""

from __future__ import annotations

import ipaddress
import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum

from .. import __version__
from ..told import N_, Told
from .catalogue import PROTOCOL_VERSION

SERVICE_TYPE = "_dalmuti._tcp.local."

KEY_PROTOCOL_VERSION = "pv"
KEY_NAME = "name"
KEY_PHASE = "phase"
KEY_SEATS = "seats"
KEY_CODE = "code"
KEY_SOFTWARE = "sw"
KEY_WEB = "web"
"""The port of the host's web table (a page for phones), when it serves one."""
KEY_TABLE_ID = "id"
"""The table's id (as in ``about``): a claim, like everything announced, but it lets a client
show two listings that claim one table, or a table seen at a new address, as such."""

HOST_SOFTWARE = f"dalmuti-net/{__version__}"

MAX_NAME_BYTES = 63
"""TXT ``name`` limit, and the DNS label limit for the instance name."""
MAX_SOFTWARE_BYTES = 63
MAX_SEATS = 99
"""Largest seat count the TXT ``seats`` value can carry (two digits)."""
INSTANCE_SUFFIX_ROOM = 4
"""Bytes left free in the instance label for a uniqueness suffix such as ``-12``."""
FALLBACK_TABLE_NAME = "Dalmuti table"

_VERSION_VALUE = re.compile(rb"[0-9]{1,5}")
_SEATS_VALUE = re.compile(rb"([0-9]{1,2})/([0-9]{1,2})")
_PORT_VALUE = re.compile(rb"[0-9]{1,5}")
_TABLE_ID_VALUE = re.compile(rb"[0-9A-Za-z_-]{1,64}")
_CODE_VALUES = {b"1": True, b"0": False}
_THIS_NETWORK = ipaddress.IPv4Network("0.0.0.0/8")
_SCOPE = re.compile(r"[A-Za-z0-9_.-]{1,64}")
_UNPRINTABLE_CATEGORIES = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}


class TablePhase(StrEnum):
    LOBBY = "lobby"
    PLAYING = "playing"
    ENDED = "ended"


@dataclass(frozen=True, slots=True)
class TableInfo:
    """What a host says about its table; the host updates it as seats fill and play moves on."""

    name: str
    phase: TablePhase = TablePhase.LOBBY
    seats_taken: int = 0
    seats_total: int = 8
    code_required: bool = False
    web_port: int | None = None
    """The web table's port, or None when the host serves none (``--no-web``)."""
    table_id: str | None = None

    def __post_init__(self) -> None:
        if not 1 <= self.seats_total <= MAX_SEATS:
            raise ValueError(f"seats_total must be 1 to {MAX_SEATS}, not {self.seats_total}")
        if not 0 <= self.seats_taken <= self.seats_total:
            raise ValueError(f"seats_taken must be 0 to {self.seats_total}, not {self.seats_taken}")


VERSION_UNKNOWN = N_("protocol version missing or garbled")
VERSION_NOT_OURS = N_("protocol version {version}, ours is {ours}")
VERSION_ISSUES = (VERSION_UNKNOWN, VERSION_NOT_OURS)
"""The issues that make a listing incompatible (a chooser says so in its own words)."""


@dataclass(frozen=True)
class Issue:
    """One thing missing or garbled in a listing: an English template and its values, told
    in the reader's language where it is shown (``str()`` is the English)."""

    template: str
    values: tuple[tuple[str, int | str], ...] = ()

    def __str__(self) -> str:
        return str(Told(self.template, **dict(self.values)))

    def told(self, translate: Callable[[str], str]) -> str:
        return Told(self.template, **dict(self.values)).told(translate)


@dataclass(frozen=True, slots=True)
class TableListing:
    """One table seen on the LAN. ``None`` marks a field its TXT record left unknown."""

    instance_name: str
    """The full DNS-SD instance name, e.g. ``Ana's table._dalmuti._tcp.local.``: the key."""
    name: str
    """Display name: TXT ``name``, else the instance label; always printable."""
    server: str
    addresses: tuple[str, ...]
    port: int
    protocol_version: int | None
    compatible: bool
    """Whether this host speaks our protocol version."""
    phase: TablePhase | None
    seats_taken: int | None
    seats_total: int | None
    code_required: bool | None
    software: str
    issues: tuple[Issue, ...] = ()
    """What was missing or garbled, in words, for `dalmuti hosts` to show."""
    web_port: int | None = None
    """The host's web table port (TXT ``web``), or None: none announced, or garbled."""
    table_id: str | None = None
    """The table id the host claims (TXT ``id``), or None: none announced, or garbled."""

    @property
    def usable(self) -> bool:
        """Whether a client of ours can try to join: compatible, with an address and a port."""
        return self.compatible and bool(self.addresses) and 0 < self.port < 65536


def is_compatible(protocol_version: int | None) -> bool:
    return protocol_version == PROTOCOL_VERSION


def truncate_utf8(text: str, max_bytes: int) -> str:
    """The longest prefix of ``text`` whose UTF-8 encoding fits in ``max_bytes``."""
    encoded = text.encode("utf-8", "surrogatepass")
    if len(encoded) <= max_bytes:
        return text
    return encoded[:max_bytes].decode("utf-8", "ignore")


def printable(text: str) -> str:
    """``text`` safe to show in a terminal: no control, format or separator characters,
    every whitespace a plain space, no leading or trailing space."""
    kept = []
    for char in text:
        if char.isspace():
            kept.append(" ")
        elif unicodedata.category(char) not in _UNPRINTABLE_CATEGORIES:
            kept.append(char)
    return "".join(kept).strip()


def instance_label(table_name: str) -> str:
    """The DNS-SD instance label for a table name: printable, no dots (a dot would split
    the label), short enough for a uniqueness suffix, never empty."""
    label = printable(table_name).replace(".", "_")
    label = truncate_utf8(label, MAX_NAME_BYTES - INSTANCE_SUFFIX_ROOM).strip()
    return label or FALLBACK_TABLE_NAME


def instance_name_for(table_name: str) -> str:
    return f"{instance_label(table_name)}.{SERVICE_TYPE}"


def encode_txt(info: TableInfo) -> dict[bytes, bytes]:
    """The TXT record a host publishes for ``info``."""
    name = truncate_utf8(printable(info.name), MAX_NAME_BYTES).strip()
    record = {
        KEY_PROTOCOL_VERSION.encode(): str(PROTOCOL_VERSION).encode(),
        KEY_NAME.encode(): name.encode("utf-8"),
        KEY_PHASE.encode(): info.phase.value.encode(),
        KEY_SEATS.encode(): f"{info.seats_taken}/{info.seats_total}".encode(),
        KEY_CODE.encode(): b"1" if info.code_required else b"0",
        KEY_SOFTWARE.encode(): truncate_utf8(HOST_SOFTWARE, MAX_SOFTWARE_BYTES).encode(),
    }
    if info.web_port is not None:
        record[KEY_WEB.encode()] = str(info.web_port).encode()
    if info.table_id is not None and _TABLE_ID_VALUE.fullmatch(info.table_id.encode()):
        record[KEY_TABLE_ID.encode()] = info.table_id.encode()
    return record


def listing_from_record(
    instance_name: str,
    server: str,
    addresses: Iterable[str],
    port: int,
    txt: Mapping[bytes, bytes | None],
) -> TableListing:
    """Build a listing from a resolved service, trusting nothing in it."""
    issues: list[Issue] = []
    fields = _lowercase_keys(txt)

    version = _decode_version(fields.get(KEY_PROTOCOL_VERSION), issues)
    name = _decode_name(fields.get(KEY_NAME), instance_name, issues)
    phase = _decode_phase(fields.get(KEY_PHASE), issues)
    seats_taken, seats_total = _decode_seats(fields.get(KEY_SEATS), issues)
    code_required = _decode_code(fields.get(KEY_CODE), issues)
    software = _decode_text(fields.get(KEY_SOFTWARE), MAX_SOFTWARE_BYTES)
    web_port = _decode_web_port(fields.get(KEY_WEB), issues)
    table_id = _decode_table_id(fields.get(KEY_TABLE_ID), issues)

    valid_addresses = _valid_addresses(addresses)
    if not valid_addresses:
        issues.append(Issue(N_("no usable address")))
    if not 0 < port < 65536:
        issues.append(Issue(N_("bad port {port}"), (("port", port),)))
    if version is not None and not is_compatible(version):
        issues.append(
            Issue(
                VERSION_NOT_OURS,
                (("version", version), ("ours", PROTOCOL_VERSION)),
            )
        )

    return TableListing(
        instance_name=instance_name,
        name=name,
        server=server,
        addresses=valid_addresses,
        port=port,
        protocol_version=version,
        compatible=is_compatible(version),
        phase=phase,
        seats_taken=seats_taken,
        seats_total=seats_total,
        code_required=code_required,
        software=software,
        issues=tuple(issues),
        web_port=web_port,
        table_id=table_id,
    )


def label_of_instance(instance_name: str) -> str:
    """The instance label of a full instance name (the part before the service type)."""
    suffix = "." + SERVICE_TYPE
    if instance_name.lower().endswith(suffix):
        return instance_name[: -len(suffix)]
    return instance_name


def joinable(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    """Whether a TCP connection to ``address`` can reach a host: not "any" (``::``, and
    0.0.0.0/8, "this network"), not multicast, not broadcast or another reserved IPv4 block
    (240.0.0.0/4, which holds 255.255.255.255), nor the IPv4-mapped form of one of those;
    an IPv6 zone (``%eth0``) is an interface's name or number, nothing else."""
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    if address.is_unspecified or address.is_multicast:
        return False
    if isinstance(address, ipaddress.IPv4Address):
        return not (address.is_reserved or address in _THIS_NETWORK)
    return address.scope_id is None or _SCOPE.fullmatch(address.scope_id) is not None


def _lowercase_keys(txt: Mapping[bytes, bytes | None]) -> dict[str, bytes | None]:
    # RFC 6763 section 6.4: keys are case-insensitive and the first occurrence wins.
    fields: dict[str, bytes | None] = {}
    for raw_key, value in txt.items():
        key = raw_key.decode("ascii", "replace").lower()
        fields.setdefault(key, value)
    return fields


def _decode_version(value: bytes | None, issues: list[Issue]) -> int | None:
    if value is None or not _VERSION_VALUE.fullmatch(value):
        issues.append(Issue(VERSION_UNKNOWN))
        return None
    return int(value)


def _decode_name(value: bytes | None, instance_name: str, issues: list[Issue]) -> str:
    name = _decode_text(value, MAX_NAME_BYTES)
    if name:
        return name
    issues.append(Issue(N_("table name missing")))
    fallback = truncate_utf8(printable(label_of_instance(instance_name)), MAX_NAME_BYTES).strip()
    return fallback or FALLBACK_TABLE_NAME


def _decode_phase(value: bytes | None, issues: list[Issue]) -> TablePhase | None:
    for phase in TablePhase:
        if value == phase.value.encode():
            return phase
    issues.append(Issue(N_("phase missing or garbled")))
    return None


def _decode_seats(value: bytes | None, issues: list[Issue]) -> tuple[int | None, int | None]:
    match = _SEATS_VALUE.fullmatch(value) if value is not None else None
    if match is not None:
        taken, total = int(match[1]), int(match[2])
        if 0 <= taken <= total and total >= 1:
            return taken, total
    issues.append(Issue(N_("seats missing or garbled")))
    return None, None


def _decode_code(value: bytes | None, issues: list[Issue]) -> bool | None:
    if value is not None and value in _CODE_VALUES:
        return _CODE_VALUES[value]
    issues.append(Issue(N_("join code flag missing or garbled")))
    return None


def _decode_web_port(value: bytes | None, issues: list[Issue]) -> int | None:
    """Absent is no issue: a host may serve no web table (or predate it)."""
    if value is None:
        return None
    if _PORT_VALUE.fullmatch(value) and 0 < int(value) < 65536:
        return int(value)
    issues.append(Issue(N_("web table port garbled")))
    return None


def _decode_table_id(value: bytes | None, issues: list[Issue]) -> str | None:
    """Absent is no issue: an older host announces none."""
    if value is None:
        return None
    if _TABLE_ID_VALUE.fullmatch(value):
        return value.decode("ascii")
    issues.append(Issue(N_("table id garbled")))
    return None


def _decode_text(value: bytes | None, max_bytes: int) -> str:
    if value is None:
        return ""
    text = printable(value.decode("utf-8", "replace"))
    return truncate_utf8(text, max_bytes).strip()


def _valid_addresses(addresses: Iterable[str]) -> tuple[str, ...]:
    """The addresses a client can connect to, each once, IPv4 first."""
    parsed: list[ipaddress.IPv4Address | ipaddress.IPv6Address] = []
    for address in addresses:
        try:
            candidate = ipaddress.ip_address(address)
        except ValueError:
            continue
        if joinable(candidate):
            parsed.append(candidate)
    unique = dict.fromkeys(parsed)
    ordered = sorted(unique, key=lambda address: (address.version, address.packed))
    return tuple(str(address) for address in ordered)
