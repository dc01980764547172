"""Resuming a seat without ever sending its token: a challenge and response both ways.

A seat's resume token is a secret shared by the seat's player and the table that issued it.
It crosses the wire once, in the ``welcome`` of a new seat; after that neither side sends
it. To take the seat back a client sends the seat's **id** (derived one-way from the token,
so it names the seat and gives nothing away) and a fresh nonce of its own; the host answers
with a nonce of its own and a proof that it knows the token; only if that proof is right
does the client answer with its own proof. Each proof is an HMAC-SHA256 keyed by the token
over a label naming who proves (host or client), the table id, the seat id and both
nonces, so

- a host that does not know the token cannot make the client's check pass, and learns
  nothing from the client (a client that finds the proof wrong sends nothing more);
- a proof made for one connection is worthless on another (both nonces are fresh each
  time), and a host's proof is never a client's (the label), so nothing recorded or
  reflected can be replayed.

See PROTOCOL.md, "Security on the LAN", for what a host that relays a connection can still
do. Sans-I/O: the standard library only.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

NONCE_CHARS = 32
"""A nonce is 16 random bytes as lowercase hex."""
SEAT_ID_CHARS = 32
"""A seat id is the first 16 bytes of a SHA-256 as lowercase hex."""
PROOF_CHARS = 64
"""A proof is a whole HMAC-SHA256 as lowercase hex."""

_SEAT_ID_LABEL = b"dalmuti-net seat id"
_HOST_LABEL = b"dalmuti-net host proof"
_CLIENT_LABEL = b"dalmuti-net client proof"
_SEPARATOR = b"\x00"
"""No string on the wire may hold U+0000, so the fields joined by it cannot run together."""


def new_nonce() -> str:
    return secrets.token_hex(NONCE_CHARS // 2)


def seat_id(token: str) -> str:
    """The seat's public name: SHA-256 of a label and the token, cut to 128 bits."""
    digest = hashlib.sha256(_SEAT_ID_LABEL + _SEPARATOR + token.encode("utf-8")).hexdigest()
    return digest[:SEAT_ID_CHARS]


def _proof(label: bytes, token: str, table_id: str, seat: str, client: str, host: str) -> str:
    message = _SEPARATOR.join(
        [label, *(part.encode("utf-8") for part in (table_id, seat, client, host))]
    )
    return hmac.new(token.encode("utf-8"), message, hashlib.sha256).hexdigest()


def host_proof(token: str, table_id: str, client_nonce: str, host_nonce: str) -> str:
    """What the host sends in ``challenge``: it knows ``token``, on this connection."""
    return _proof(_HOST_LABEL, token, table_id, seat_id(token), client_nonce, host_nonce)


def client_proof(token: str, table_id: str, client_nonce: str, host_nonce: str) -> str:
    """What the client sends in ``prove``, once the host's proof checked out."""
    return _proof(_CLIENT_LABEL, token, table_id, seat_id(token), client_nonce, host_nonce)


def proof_matches(expected: str, given: str) -> bool:
    """Compared in constant time: how much of a guess was right must not show in timing."""
    return hmac.compare_digest(expected.encode("utf-8"), given.encode("utf-8"))


def seat_ids_match(token: str, given: str) -> bool:
    return hmac.compare_digest(seat_id(token).encode("utf-8"), given.encode("utf-8"))
