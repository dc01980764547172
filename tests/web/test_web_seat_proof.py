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
from pathlib import Path

from dalmuti_net.protocol.resume import client_proof, host_proof, seat_id
from tests.web import test_web_browser as phones
from tests.web.test_web_browser import chromium, start_host

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
