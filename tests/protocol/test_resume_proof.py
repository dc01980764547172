"""The proofs that take a seat back (dalmuti_net/protocol/resume.py): what each is bound to,
and the golden frames of the protocol kit as a test vector of them."""

from __future__ import annotations

import hashlib
import hmac
import json
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from dalmuti_net.protocol import Direction, unpack, validate
from dalmuti_net.protocol.resume import (
    NONCE_CHARS,
    SEAT_ID_CHARS,
    client_proof,
    host_proof,
    new_nonce,
    proof_matches,
    seat_id,
    seat_ids_match,
)
from tools.examples import (
    RESUME_CLIENT_NONCE,
    RESUME_HOST_NONCE,
    RESUME_TABLE_ID,
    RESUME_TOKEN,
)

VECTORS = Path(__file__).resolve().parents[2] / "protocol" / "vectors"
HEX = "0123456789abcdef"

token = st.text(st.characters(min_codepoint=33, max_codepoint=0x2FFF), min_size=1, max_size=64)
nonce = st.text(HEX, min_size=NONCE_CHARS, max_size=NONCE_CHARS)


def test_a_seat_id_names_the_token_without_giving_it_away() -> None:
    token_text = "q7Vd2mXo9LkT4bR1sWc8Ze"
    ident = seat_id(token_text)
    assert len(ident) == SEAT_ID_CHARS and set(ident) <= set(HEX)
    assert ident == seat_id(token_text) != seat_id(token_text + "x")
    assert token_text not in ident
    expected = hashlib.sha256(b"dalmuti-net seat id\x00" + token_text.encode()).hexdigest()
    assert ident == expected[:SEAT_ID_CHARS]
    assert seat_ids_match(token_text, ident) and not seat_ids_match("other", ident)


@given(token, nonce, nonce)
def test_the_host_and_the_client_prove_different_things(
    secret: str, client: str, host: str
) -> None:
    """A host's proof is never a client's: a relay cannot reflect one as the other."""
    table = "3f9c2a7e51d04b68"
    assert host_proof(secret, table, client, host) != client_proof(secret, table, client, host)


@given(token, nonce, nonce, nonce)
def test_a_proof_is_bound_to_both_nonces(secret: str, client: str, host: str, other: str) -> None:
    table = "3f9c2a7e51d04b68"
    for prove in (host_proof, client_proof):
        made = prove(secret, table, client, host)
        assert len(made) == 64 and set(made) <= set(HEX)
        if other != client:
            assert prove(secret, table, other, host) != made
        if other != host:
            assert prove(secret, table, client, other) != made


def test_a_proof_is_bound_to_the_token_and_the_table() -> None:
    a, b = new_nonce(), new_nonce()
    assert a != b and len(a) == NONCE_CHARS
    made = client_proof("token-1", "table-1", a, b)
    assert made != client_proof("token-2", "table-1", a, b)
    assert made != client_proof("token-1", "table-2", a, b)
    # The fields cannot run together: "ab" + "c" is not "a" + "bc".
    assert client_proof("t", "ab", a, b) != client_proof("t", "a", "b" + a, b)
    # One hex digit changed (to another digit whatever it was) no longer matches.
    altered = made[:-1] + ("1" if made[-1] == "0" else "0")
    assert proof_matches(made, made) and not proof_matches(made, altered)


def test_the_proof_is_hmac_sha256_as_protocol_md_says() -> None:
    a, b = new_nonce(), new_nonce()
    seat = seat_id("tok").encode()
    fields = [b"dalmuti-net host proof", b"table-1", seat, a.encode(), b.encode()]
    expected = hmac.new(b"tok", b"\x00".join(fields), hashlib.sha256).hexdigest()
    assert host_proof("tok", "table-1", a, b) == expected


def test_the_golden_frames_are_a_test_vector_of_the_proofs() -> None:
    def golden(direction: str, key: str) -> dict[str, object]:
        data = json.loads((VECTORS / direction / f"{key}.json").read_text(encoding="utf-8"))
        message = unpack(bytes.fromhex(data["hex"])[4:])  # the frame itself, not its gloss
        assert message == data["decoded"]
        return message

    hello = golden("client_to_host", "hello.resume")
    challenge = golden("host_to_client", "challenge")
    prove = golden("client_to_host", "prove")
    validate(hello, Direction.TO_HOST)
    validate(challenge, Direction.TO_CLIENT)
    validate(prove, Direction.TO_HOST)
    assert hello["resume"] == {"seat": seat_id(RESUME_TOKEN), "nonce": RESUME_CLIENT_NONCE}
    assert challenge["nonce"] == RESUME_HOST_NONCE
    assert challenge["proof"] == host_proof(
        RESUME_TOKEN, RESUME_TABLE_ID, RESUME_CLIENT_NONCE, RESUME_HOST_NONCE
    )
    assert prove["proof"] == client_proof(
        RESUME_TOKEN, RESUME_TABLE_ID, RESUME_CLIENT_NONCE, RESUME_HOST_NONCE
    )
