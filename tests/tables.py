"""The host's ``table`` for tests, built one way: as the wire carries it (``table_dict``,
``table_message``) or as a session keeps it (``table_view``: that dict checked and decoded
by the client's own ``fit_table``, as a session does when a ``table`` arrives)."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from dalmuti_net.client.fits import fit_table
from dalmuti_net.client.table_view import TableView
from dalmuti_net.protocol.messages import Message


def seat(
    player: int,
    name: str | None = None,
    *,
    kind: str = "human",
    connected: bool = True,
    ready: bool = True,
    host: bool = False,
    seated: bool = True,
    stand_in: bool = False,
    **more: Any,
) -> dict[str, Any]:
    """One seat (the catalogue's ``Seat``), named ``P<player>`` unless ``name``."""
    return {
        "player": player,
        "name": f"P{player}" if name is None else name,
        "kind": kind,
        "connected": connected,
        "ready": ready,
        "host": host,
        "seated": seated,
        "stand_in": stand_in,
        **more,
    }


def table_dict(
    *seats: dict[str, Any],
    name: str = "T",
    phase: str = "lobby",
    rules: dict[str, Any] | None = None,
    spectators: int = 0,
    code_required: bool = False,
    can_start: bool = False,
    **more: Any,
) -> dict[str, Any]:
    """A ``table`` message's ``table`` (the catalogue's ``Table``); ``more`` adds its
    optional fields (``departed``, ``heirs``, ``timing``, ``rematch``...)."""
    return {
        "name": name,
        "phase": phase,
        "players": list(seats),
        "spectators": spectators,
        "rules": {} if rules is None else rules,
        "code_required": code_required,
        "can_start": can_start,
        **more,
    }


def table_message(*seats: dict[str, Any], **fields: Any) -> Message:
    """The host's ``table`` message, as ``table_dict`` builds its table."""
    return {"type": "table", "table": table_dict(*seats, **fields)}


def table_view(*seats: dict[str, Any], **fields: Any) -> TableView:
    """The table a session keeps after this ``table`` message, checked and decoded as
    the session does (not held to the catalogue: some tests seat a player 0)."""
    return fit_table("table", table_dict(*seats, **fields))


def wire_table(view: TableView) -> dict[str, Any]:
    """``view`` as a ``table`` message carries it (the views' fields are the catalogue's
    names), for a test that sends a session's table back in, changed."""
    return asdict(view)
