"""Discovery across a real (virtual) link: two network namespaces joined by a veth pair.

A host announces in one namespace and a client watches from the other; the client must see
the veth address and port, reach the table over TCP, and see it vanish on the host's
SIGTERM. The veth pair is created directly inside the two namespaces, so nothing here
touches the machine's own interfaces or routes.
"""

from __future__ import annotations

import json
import os
import queue
import secrets
import shutil
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

PEER = Path(__file__).with_name("netns_peer.py")
STEP_TIMEOUT = 10


@dataclass(frozen=True)
class Link:
    host_namespace: str
    host_address: str
    client_namespace: str
    client_address: str


def ip(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["ip", *args], capture_output=True, text=True, timeout=10)


@pytest.fixture
def veth_link() -> Iterator[Link]:
    if os.geteuid() != 0:
        pytest.skip("creating network namespaces needs root")
    if shutil.which("ip") is None:
        pytest.skip("the ip tool (iproute2) is not installed")
    suffix = secrets.token_hex(3)
    subnet = f"10.{secrets.randbelow(200) + 50}.{secrets.randbelow(256)}"
    link = Link(f"dz-host-{suffix}", f"{subnet}.1", f"dz-client-{suffix}", f"{subnet}.2")
    namespaces = [link.host_namespace, link.client_namespace]
    created: list[str] = []
    try:
        for namespace in namespaces:
            result = ip("netns", "add", namespace)
            if result.returncode != 0:
                pytest.skip(f"ip netns is unavailable here: {result.stderr.strip()}")
            created.append(namespace)
        host_veth, client_veth = f"dzh{suffix}", f"dzc{suffix}"
        a, b = link.host_namespace, link.client_namespace
        pair = ["type", "veth", "peer", "name", client_veth, "netns", b]
        setup = [
            ["link", "add", host_veth, "netns", a, *pair],
            ["-n", a, "addr", "add", f"{link.host_address}/24", "dev", host_veth],
            ["-n", b, "addr", "add", f"{link.client_address}/24", "dev", client_veth],
            ["-n", a, "link", "set", host_veth, "multicast", "on", "up"],
            ["-n", b, "link", "set", client_veth, "multicast", "on", "up"],
        ]
        for command in setup:
            result = ip(*command)
            assert result.returncode == 0, f"ip {' '.join(command)}: {result.stderr}"
        yield link
    finally:
        for namespace in created:
            ip("netns", "del", namespace)  # takes its end of the veth pair with it


class Peer:
    """A netns_peer.py process inside a namespace, its output read line by line."""

    def __init__(self, namespace: str, *args: str) -> None:
        self.process = subprocess.Popen(
            ["ip", "netns", "exec", namespace, sys.executable, str(PEER), *args],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        self._lines: queue.Queue[str] = queue.Queue()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self._lines.put(line.rstrip("\n"))

    def next_line(self) -> str:
        try:
            return self._lines.get(timeout=STEP_TIMEOUT)
        except queue.Empty:
            stderr = self.stop()
            raise AssertionError(f"no output in {STEP_TIMEOUT} s; stderr: {stderr}") from None

    def stop(self) -> str:
        """End the process if it still runs, release its pipes, return its stderr."""
        assert self.process.stdout is not None and self.process.stderr is not None
        if self.process.stderr.closed:
            return ""
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(timeout=STEP_TIMEOUT)
        self._reader.join(timeout=STEP_TIMEOUT)  # it ends at end of output
        stderr = self.process.stderr.read()
        self.process.stdout.close()
        self.process.stderr.close()
        return stderr


def test_a_table_is_found_across_a_veth_link_and_leaves_on_sigterm(veth_link: Link) -> None:
    name = f"Netns table {secrets.token_hex(3)}"
    peers = [Peer(veth_link.host_namespace, "announce", veth_link.host_address, name)]
    try:
        host = peers[0]
        word, rest = host.next_line().split(" ", 1)
        assert word == "ready"
        instance, port = rest.rsplit(" ", 1)
        assert instance.startswith(name)

        client = Peer(veth_link.client_namespace, "watch", veth_link.client_address, instance)
        peers.append(client)
        word, rest = client.next_line().split(" ", 1)
        assert word == "seen"
        listing = json.loads(rest)
        assert listing == {
            "addresses": [veth_link.host_address],
            "port": int(port),
            "usable": True,
            "seats": [2, 5],
        }

        host.process.send_signal(signal.SIGTERM)
        assert client.next_line() == "gone"
        assert host.process.wait(timeout=STEP_TIMEOUT) == 0
        assert client.process.wait(timeout=STEP_TIMEOUT) == 0
    finally:
        for peer in peers:
            peer.stop()
