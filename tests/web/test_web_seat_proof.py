"""The web page takes its seat back as any client does: SHA-256 and HMAC-SHA256 written in
its own script (a LAN http:// address has no ``crypto.subtle``), checked in the real
headless Chromium against Python's ``hashlib`` and ``hmac`` and the protocol kit's golden
frames; the seat's token crosses the wire once, in its first ``welcome``.

Skipped, as the other browser tests are, without chromium and chromium-driver.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import random
import socket
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from selenium.webdriver.common.by import By

from dalmuti_net.protocol.resume import client_proof, host_proof, seat_id
from tests.web import test_web_browser as phones
from tests.web.test_web_browser import chromium, look, start_host, wait_for

pytestmark = phones.pytestmark  # skipped without chromium and chromium-driver

VECTORS = Path(__file__).resolve().parents[2] / "protocol" / "vectors"


def vector(direction: str, name: str) -> dict[str, object]:
    decoded: dict[str, object] = json.loads((VECTORS / direction / f"{name}.json").read_text())[
        "decoded"
    ]
    return decoded


HASHES = """
const bytes = (list) => Uint8Array.from(list);
return arguments[0].map(([key, message]) => [
  hex(sha256(bytes(message))), hex(hmacSha256(bytes(key), bytes(message))),
]);
"""
PROOFS = """
return arguments[0].map(([token, table, client, host]) => [
  seatId(token), seatProof("host", token, table, client, host),
  seatProof("client", token, table, client, host),
]);
"""


def test_the_pages_sha256_and_hmac_are_pythons(tmp_path: Path) -> None:
    host, _, url = start_host(tmp_path)
    rng = random.Random(38)
    # Every length around SHA-256's block edges (55, 56, 63, 64 bytes of message), keys
    # shorter and longer than a block (hashed first), and a few long messages.
    lengths = [*range(0, 130), 1000, 4097]
    cases = [
        (
            list(rng.randbytes(rng.choice([0, 1, 16, 32, 63, 64, 65, 100, 200]))),
            list(rng.randbytes(length)),
        )
        for length in lengths
    ]
    letters = "aZ09-_~ñ漢字🂡\u00e9"
    tokens = ["q7Vd2mXo9LkT4bR1sWc8Ze"] + [
        "".join(rng.choice(letters) for _ in range(rng.randint(1, 40))) for _ in range(40)
    ]
    proofs = [
        (token, rng.randbytes(8).hex(), rng.randbytes(16).hex(), rng.randbytes(16).hex())
        for token in tokens
    ]
    try:
        with chromium() as driver:
            driver.get(url)
            hashed = driver.execute_script(HASHES, cases)
            proved = driver.execute_script(PROOFS, proofs)
            golden = driver.execute_script(
                PROOFS,
                [
                    [
                        "q7Vd2mXo9LkT4bR1sWc8Ze",
                        "3f9c2a7e51d04b68",
                        vector("client_to_host", "hello.resume")["resume"]["nonce"],  # type: ignore[index]
                        vector("host_to_client", "challenge")["nonce"],
                    ]
                ],
            )
    finally:
        host.terminate()
        host.wait(10)
        assert host.stdout is not None
        host.stdout.close()
    for (key, message), (digest, mac) in zip(cases, hashed, strict=True):
        assert digest == hashlib.sha256(bytes(message)).hexdigest(), len(message)
        assert mac == hmac.new(bytes(key), bytes(message), hashlib.sha256).hexdigest()
    for (token, table, client, host_nonce), (seat, by_host, by_client) in zip(
        proofs, proved, strict=True
    ):
        assert seat == seat_id(token), token
        assert by_host == host_proof(token, table, client, host_nonce)
        assert by_client == client_proof(token, table, client, host_nonce)
    # The protocol kit's golden frames: the seat id asked back, the host's proof, the client's.
    assert golden == [
        [
            vector("client_to_host", "hello.resume")["resume"]["seat"],  # type: ignore[index]
            vector("host_to_client", "challenge")["proof"],
            vector("client_to_host", "prove")["proof"],
        ]
    ]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


def stop(process: subprocess.Popen[str] | None) -> None:
    if process is not None and process.poll() is None:
        process.terminate()
        process.wait(10)
    if process is not None and process.stdout is not None:
        process.stdout.close()


class Frames:
    """What the page sent and received over its WebSockets, from Chromium's own log."""

    def __init__(self, driver: Any) -> None:
        self.driver = driver
        self.sent: list[str] = []
        self.received: list[str] = []

    def read(self) -> Frames:
        for entry in self.driver.get_log("performance"):
            message = json.loads(entry["message"])["message"]
            if message["method"] == "Network.webSocketFrameSent":
                self.sent.append(message["params"]["response"]["payloadData"])
            elif message["method"] == "Network.webSocketFrameReceived":
                self.received.append(message["params"]["response"]["payloadData"])
        return self


KEPT = "return JSON.stringify(Object.entries(localStorage));"
"""Everything the page keeps in this browser."""
SEATS = "return JSON.parse(localStorage.getItem('dalmuti.seats.' + location.host) || '[]');"


def start_liar(port: int, table_id: str, record: Path, way: str) -> subprocess.Popen[str]:
    liar = subprocess.Popen(
        [sys.executable, "-m", "tests.web.lying_host", str(port), table_id, str(record), way],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    assert liar.stdout is not None and liar.stdout.readline().strip() == "listening"
    return liar


def new_joins(record: Path) -> int:
    """The joins for a new seat a lying host was sent (not those asking one back)."""
    lines = record.read_text().splitlines()
    return sum('"join"' in line and '"resume"' not in line for line in lines)


def seated(driver: Any, name: str) -> Callable[[], bool]:
    return lambda: f"{name} (you)" in look(driver)["seats"]


def test_a_mistyped_join_code_is_not_remembered(tmp_path: Path) -> None:
    """Issue 40.1: Dan typed "tulp", then "tulip" and got in; after a reload the page sent
    "tulp" again. It keeps no code at all now: the reload proves the seat."""
    host, _, url = start_host(tmp_path, "--code", "tulip", "--bots", "3", "--autostart", "4")
    try:
        with chromium() as driver:
            driver.get(url)
            wait_for(lambda: driver.find_element(By.ID, "code").is_displayed(), "the form")
            driver.find_element(By.ID, "name").send_keys("Dan")
            driver.find_element(By.ID, "code").send_keys("tulp")
            driver.find_element(By.ID, "join-button").click()
            wait_for(lambda: look(driver)["editor"], "the join code asked again")
            driver.find_element(By.ID, "editor-input").send_keys("tulip")
            driver.find_element(By.ID, "editor-send").click()
            wait_for(seated(driver, "Dan"), "Dan at the table")
            driver.refresh()
            wait_for(seated(driver, "Dan"), "Dan's seat back after a reload", timeout=15)
            assert not look(driver)["editor"]
            kept = driver.execute_script(KEPT)
            assert "tulp" not in kept, kept
    finally:
        stop(host)


def test_the_token_crosses_once_and_a_lying_host_learns_nothing(tmp_path: Path) -> None:
    """Issue 38.3: a program that takes the host's address while the host is away gets
    neither the token nor the join code from the page's automatic reconnect, and the page
    takes its seat back from the real host when it returns."""
    port = free_port()
    save = tmp_path / "table.save"
    options = ("--code", "tulip", "--bots", "3", "--autostart", "4")
    host, _, url = start_host(tmp_path, *options, "--save", str(save), web_port=port)
    liar: subprocess.Popen[str] | None = None
    record = tmp_path / "liar.txt"
    try:
        with chromium(frames_log=True) as driver:
            frames = Frames(driver)
            driver.get(url)
            wait_for(lambda: driver.find_element(By.ID, "code").is_displayed(), "the form")
            driver.find_element(By.ID, "name").send_keys("Ana")
            driver.find_element(By.ID, "code").send_keys("tulip")
            driver.find_element(By.ID, "join-button").click()
            wait_for(seated(driver, "Ana"), "Ana at the table")
            [kept] = driver.execute_script(SEATS)
            token = kept["token"]
            driver.refresh()
            wait_for(seated(driver, "Ana"), "Ana's seat back after a reload", timeout=15)
            frames.read()
            # The token crossed once, host to page; the code once, page to host.
            assert sum(token in text for text in frames.received) == 1
            assert not any(token in text for text in frames.sent)
            assert sum("tulip" in text for text in frames.sent) == 1
            assert "tulip" not in driver.execute_script(KEPT)

            # The host goes away; a liar takes its address and claims its table.
            stop(host)
            liar = start_liar(port, kept["table_id"], record, "challenge")
            wait_for(
                lambda: driver.find_element(By.ID, "gone-text").is_displayed(),
                "the page refusing the liar",
                timeout=30,
            )
            gone = driver.find_element(By.ID, "gone-text").text
            assert "could not prove that it holds your seat" in gone
            told = record.read_text().splitlines()
            assert any('"resume"' in line for line in told)
            assert not any(token in line or "tulip" in line for line in told), told
            assert not any('"prove"' in line for line in told), "the page answered a liar"
            assert [seat["token"] for seat in driver.execute_script(SEATS)] == [token]
            stop(liar)

            # Another liar refuses the seat and hands out new ones, again and again: they
            # are kept beside the real seat, which a host proved, and never push it out.
            liar = start_liar(port, kept["table_id"], record, "seats")
            driver.execute_script("RETRY.most = RETRY.first")  # its rounds at once: no backoff
            driver.find_element(By.ID, "again").click()
            # Each of the liar's rounds is one join that asks a kept seat back per seat the
            # page holds, then one for a new seat; so wait for new seats, not joins: the
            # ninth new join comes once eight new seats were handed out, the page keeping
            # at most eight in all (counting joins once stopped mid-round, with the round's
            # new seat not yet kept: 7 held, under load).
            wait_for(lambda: new_joins(record) >= 9, "the liar's rounds", timeout=60)
            stop(liar)
            liar = None
            held = driver.execute_script(SEATS)
            assert len(held) == 8 and token in [seat["token"] for seat in held], held
            assert not any(token in line for line in record.read_text().splitlines())

            # The real table is back (from its save): the page takes its seat back.
            host, _, _ = start_host(tmp_path, *options, "--resume", str(save), web_port=port)
            wait_for(seated(driver, "Ana"), "Ana's seat back at the real table", timeout=30)
            frames.read()
            assert sum(token in text for text in frames.received) == 1
            assert not any(token in text for text in frames.sent)
    finally:
        stop(liar)
        stop(host)


def test_a_page_left_open_asks_before_joining_another_table(tmp_path: Path) -> None:
    """Issue 40 (8): a page left open on a table that ended sat down at the next table on
    that address without asking. It asks now, its name filled in."""
    port = free_port()
    first, _, url = start_host(tmp_path, web_port=port, name="Friday")
    second: subprocess.Popen[str] | None = None
    try:
        with chromium() as driver:
            driver.get(url)
            wait_for(lambda: driver.find_element(By.ID, "name").is_displayed(), "the form")
            driver.find_element(By.ID, "name").send_keys("Pat")
            driver.find_element(By.ID, "join-button").click()
            wait_for(lambda: "Pat (you)" in look(driver)["lobby"], "Pat in the lobby")
            stop(first)
            second, _, _ = start_host(tmp_path, web_port=port, name="Saturday")
            wait_for(
                lambda: driver.find_element(By.ID, "join").is_displayed(),
                "the join form at the new table",
                timeout=30,
            )
            problem = driver.find_element(By.ID, "join-problem").text
            assert problem.startswith("Another table is open at this address now")
            assert driver.find_element(By.ID, "name").get_attribute("value") == "Pat"
            assert driver.find_element(By.ID, "table-name").text == "Saturday"
            # Asked, the player joins.
            driver.find_element(By.ID, "join-button").click()
            wait_for(lambda: "Pat (you)" in look(driver)["lobby"], "Pat at Saturday's table")
    finally:
        stop(second)
        stop(first)
