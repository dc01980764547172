"""Fixtures for discovery tests: real mDNS, confined to the loopback interface."""

from __future__ import annotations

import os
import socket
import struct
import subprocess
from collections.abc import Iterator

import pytest

LOOPBACK = ["127.0.0.1"]
MDNS_GROUP = "224.0.0.251"


def loopback_multicast_works() -> bool:
    """Whether a multicast datagram sent out of 127.0.0.1 comes back to a group member."""
    with (
        socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as receiver,
        socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sender,
    ):
        receiver.bind(("", 0))
        port = receiver.getsockname()[1]
        membership = socket.inet_aton(MDNS_GROUP) + socket.inet_aton("127.0.0.1")
        try:
            receiver.setsockopt(socket.IPPROTO_IP, socket.IP_ADD_MEMBERSHIP, membership)
            sender.setsockopt(
                socket.IPPROTO_IP, socket.IP_MULTICAST_IF, socket.inet_aton("127.0.0.1")
            )
            sender.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_LOOP, struct.pack("B", 1))
            sender.sendto(b"probe", (MDNS_GROUP, port))
        except OSError:
            return False
        receiver.settimeout(1)
        try:
            return receiver.recv(16) == b"probe"
        except TimeoutError:
            return False


def loopback_has_multicast_flag() -> bool:
    output = subprocess.run(
        ["ip", "-o", "link", "show", "lo"], capture_output=True, text=True, check=True
    ).stdout
    flags = output.split("<", 1)[1].split(">", 1)[0].split(",")
    return "MULTICAST" in flags


@pytest.fixture(scope="session")
def loopback() -> Iterator[list[str]]:
    """The interface list every discovery test uses; skips when mDNS cannot run on loopback."""
    if loopback_multicast_works():
        yield LOOPBACK
        return
    if os.geteuid() != 0 or loopback_has_multicast_flag():
        pytest.skip("multicast on the loopback interface does not work here (needs root to try)")
    subprocess.run(["ip", "link", "set", "lo", "multicast", "on"], check=True)
    try:
        if not loopback_multicast_works():
            pytest.skip("multicast on the loopback interface does not work even with the flag on")
        yield LOOPBACK
    finally:
        subprocess.run(["ip", "link", "set", "lo", "multicast", "off"], check=True)
