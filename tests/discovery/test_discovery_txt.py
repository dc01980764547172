"""The TXT record of a table listing: exact encoding, round trips, and hostile records."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest
from hypothesis import given
from hypothesis import strategies as st
from zeroconf import DNSIncoming, DNSOutgoing, DNSText, ServiceInfo
from zeroconf.const import _FLAGS_QR_RESPONSE

from dalmuti_net import __version__
from dalmuti_net.protocol import PROTOCOL_VERSION
from dalmuti_net.protocol.discovery import (
    FALLBACK_TABLE_NAME,
    MAX_NAME_BYTES,
    SERVICE_TYPE,
    TableInfo,
    TableListing,
    TablePhase,
    encode_txt,
    instance_label,
    instance_name_for,
    listing_from_record,
    printable,
    truncate_utf8,
)

INSTANCE = "Ana's table." + SERVICE_TYPE

table_infos = st.builds(
    lambda name, phase, total, taken_fraction, code: TableInfo(
        name=name,
        phase=phase,
        seats_total=total,
        seats_taken=round(total * taken_fraction),
        code_required=code,
    ),
    name=st.text(min_size=1, max_size=80),
    phase=st.sampled_from(TablePhase),
    total=st.integers(1, 99),
    taken_fraction=st.floats(0, 1),
    code=st.booleans(),
)


def listing_of(
    txt: Mapping[bytes, bytes | None],
    *,
    instance_name: str = INSTANCE,
    addresses: Sequence[str] = ("192.0.2.7",),
    port: int = 4242,
) -> TableListing:
    return listing_from_record(instance_name, "ana-1a2b3c.local.", addresses, port, txt)


def test_encoding_is_exactly_the_documented_record() -> None:
    info = TableInfo("Ana's table", TablePhase.PLAYING, seats_taken=3, seats_total=8)
    assert encode_txt(info) == {
        b"pv": str(PROTOCOL_VERSION).encode(),
        b"name": b"Ana's table",
        b"phase": b"playing",
        b"seats": b"3/8",
        b"code": b"0",
        b"sw": f"dalmuti-net/{__version__}".encode(),
    }
    assert encode_txt(TableInfo("x", code_required=True))[b"code"] == b"1"


def test_a_good_record_gives_a_usable_listing() -> None:
    listing = listing_of(encode_txt(TableInfo("Ana's table", seats_taken=3, seats_total=8)))
    assert listing.usable and listing.compatible and listing.issues == ()
    assert (listing.name, listing.phase, listing.seats_taken, listing.seats_total) == (
        "Ana's table",
        TablePhase.LOBBY,
        3,
        8,
    )
    assert listing.protocol_version == PROTOCOL_VERSION
    assert listing.code_required is False
    assert listing.addresses == ("192.0.2.7",) and listing.port == 4242


def test_long_names_are_cut_on_a_character_boundary() -> None:
    name = "é" * 40  # 80 bytes of UTF-8
    encoded = encode_txt(TableInfo(name))[b"name"]
    assert encoded == ("é" * 31).encode()  # 62 bytes: the 32nd é would need 64
    assert truncate_utf8("ab€", 4) == "ab"


def test_instance_labels_have_no_dots_and_leave_room_for_a_suffix() -> None:
    assert instance_name_for("Ana's table") == "Ana's table._dalmuti._tcp.local."
    assert instance_label("v1.2 night") == "v1_2 night"
    assert instance_label(" \x00\n ") == FALLBACK_TABLE_NAME
    assert len(instance_label("x" * 100).encode()) == MAX_NAME_BYTES - 4


def test_control_and_bidi_characters_never_reach_a_display() -> None:
    assert printable("a\x1b[2Jb\u202ec\td\u2028") == "a[2Jbc d"


def test_invalid_table_info_is_refused() -> None:
    with pytest.raises(ValueError):
        TableInfo("x", seats_taken=9, seats_total=8)
    with pytest.raises(ValueError):
        TableInfo("x", seats_total=0)


@pytest.mark.parametrize(
    ("txt", "field", "value"),
    [
        ({b"pv": b"one"}, "protocol_version", None),
        ({b"pv": b"+1"}, "protocol_version", None),
        ({b"pv": "١".encode()}, "protocol_version", None),  # Arabic-Indic one: int() takes it
        ({b"pv": None}, "protocol_version", None),
        ({b"seats": b"9/3"}, "seats_total", None),
        ({b"seats": b"3/8/9"}, "seats_taken", None),
        ({b"seats": b" 3/8"}, "seats_taken", None),
        ({b"phase": b"Lobby"}, "phase", None),
        ({b"code": b"yes"}, "code_required", None),
        ({b"code": None}, "code_required", None),
    ],
)
def test_garbled_values_become_unknown(
    txt: dict[bytes, bytes | None], field: str, value: object
) -> None:
    listing = listing_of(txt)
    assert getattr(listing, field) == value
    assert listing.issues


def test_an_incompatible_version_is_listed_but_not_usable() -> None:
    good = encode_txt(TableInfo("Ana's table"))
    listing = listing_of({**good, b"pv": str(PROTOCOL_VERSION + 1).encode()})
    assert listing.protocol_version == PROTOCOL_VERSION + 1
    assert not listing.compatible and not listing.usable
    assert any("protocol version" in str(issue) for issue in listing.issues)


def test_keys_are_case_insensitive_and_the_first_wins() -> None:
    good = encode_txt(TableInfo("Ana's table", seats_taken=2, seats_total=5))
    shouted = {key.upper(): value for key, value in good.items()}
    assert listing_of(shouted).seats_taken == 2
    assert listing_of({b"PV": b"1", b"pv": b"99"}).protocol_version == 1


def test_missing_name_falls_back_to_the_instance_label() -> None:
    listing = listing_of({b"pv": str(PROTOCOL_VERSION).encode()})
    assert listing.name == "Ana's table"
    assert listing_of({}, instance_name="\x07." + SERVICE_TYPE).name == FALLBACK_TABLE_NAME


def test_no_address_or_a_zero_port_is_unusable() -> None:
    good = encode_txt(TableInfo("Ana's table"))
    assert not listing_of(good, addresses=["not an address"]).usable
    assert not listing_of(good, port=0).usable
    listing = listing_of(good, addresses=["fe80::1", "192.0.2.9", "192.0.2.7", "192.0.2.9"])
    assert listing.addresses == ("192.0.2.7", "192.0.2.9", "fe80::1")


@given(table_infos)
def test_round_trip_through_the_wire_format(info: TableInfo) -> None:
    # Through zeroconf's own TXT packing, a DNS packet and its parser, as a browser gets it.
    sent = ServiceInfo(SERVICE_TYPE, instance_name_for(info.name), properties=encode_txt(info))
    packet = DNSOutgoing(_FLAGS_QR_RESPONSE)
    packet.add_answer_at_time(sent.dns_text(), 0)
    (text_record,) = DNSIncoming(packet.packets()[0]).answers()
    assert isinstance(text_record, DNSText)
    received = ServiceInfo(SERVICE_TYPE, sent.name, properties=text_record.text)
    listing = listing_of(received.properties, instance_name=instance_name_for(info.name))
    assert listing.usable
    assert (listing.phase, listing.seats_taken, listing.seats_total, listing.code_required) == (
        info.phase,
        info.seats_taken,
        info.seats_total,
        info.code_required,
    )
    expected_name = truncate_utf8(printable(info.name), MAX_NAME_BYTES).strip()
    assert listing.name == (expected_name or listing.name)
    assert [str(issue) for issue in listing.issues] == (
        [] if expected_name else ["table name missing"]
    )


@given(
    txt=st.dictionaries(
        st.one_of(
            st.sampled_from([b"pv", b"name", b"phase", b"seats", b"code", b"sw"]), st.binary()
        ),
        st.one_of(st.none(), st.binary(max_size=300)),
        max_size=10,
    ),
    instance_name=st.text(max_size=300),
    server=st.text(max_size=50),
    addresses=st.lists(st.one_of(st.text(max_size=40), st.ip_addresses().map(str)), max_size=4),
    port=st.integers(-(2**31), 2**31),
)
def test_hostile_records_never_raise(
    txt: dict[bytes, bytes | None],
    instance_name: str,
    server: str,
    addresses: list[str],
    port: int,
) -> None:
    listing = listing_from_record(instance_name, server, addresses, port, txt)
    assert listing.name and listing.name == printable(listing.name)
    assert len(listing.name.encode()) <= MAX_NAME_BYTES
    assert listing.software == printable(listing.software)
    if listing.seats_total is not None:
        assert listing.seats_taken is not None
        assert 0 <= listing.seats_taken <= listing.seats_total
    assert listing.compatible == (listing.protocol_version == PROTOCOL_VERSION)
    if listing.usable:
        assert listing.addresses and 0 < listing.port < 65536
    if not listing.usable:
        assert listing.issues
