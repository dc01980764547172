"""Where a client's connection to its host stands, as the runner reports it to the table
model (sans-I/O: the model imports this, not the trio runner)."""

from __future__ import annotations

from enum import StrEnum


class Status(StrEnum):
    CONNECTING = "connecting"
    CONNECTED = "connected"
    RECONNECTING = "reconnecting"
    CLOSED = "closed"
