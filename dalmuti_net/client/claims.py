"""What the tables on the LAN claim to be, set against each other and the seats remembered.

A table id in an announcement (or an ``about``) is a claim anyone can make. It is never
trusted with a seat (the host must prove it holds one: ``client/session.py``), but a player
choosing a table is shown when two listings claim one table id, and when a table whose id
they hold a seat at answers at an address other than the one it was last seen at.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from ..protocol.discovery import TableListing
from ..told import N_
from .seats import SeatStore

TWIN = N_(
    "Another listing claims the same table id, at {addresses}: one of them is not the table "
    "it says it is. Your seat is offered only to a host that proves it holds it."
)
MOVED = N_(
    "You have a seat at a table with this id, last seen at {old}; this one is at {new}. If "
    "it is that table, it will prove it holds your seat; if not, your seat is not offered to "
    "it."
)
MOVED_ON_JOIN = N_(
    "This host says it runs a table where you have a seat, last seen at {old}; it answers at "
    "{new} now. Your seat is offered to it only if it proves it holds it."
)


def address_text(host: str, port: int) -> str:
    """``HOST:PORT``, ``[HOST]:PORT`` for IPv6: one spelling, to compare addresses by."""
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


@dataclass(frozen=True)
class Claim:
    """Something to tell about one listing's table id."""

    address: str
    twins: tuple[str, ...] = ()
    """Where other listings claim the same table id."""
    moved_from: str | None = None
    """Where a remembered seat of this table id was last seen, when this listing is not."""

    def sentences(self, translate: Callable[[str], str]) -> list[str]:
        said = []
        if self.twins:
            said.append(translate(TWIN).format(addresses=", ".join(self.twins)))
        if self.moved_from is not None:
            said.append(translate(MOVED).format(old=self.moved_from, new=self.address))
        return said


def claims(listings: Iterable[TableListing], seats: SeatStore | None) -> dict[str, Claim]:
    """By instance name, the listings with something to tell (the others are absent)."""
    listed = [listing for listing in listings if listing.table_id is not None]
    found: dict[str, Claim] = {}
    for listing in listed:
        here = _addresses(listing)
        if not here:
            continue
        twins = tuple(
            sorted(
                {
                    address
                    for other in listed
                    if other is not listing and other.table_id == listing.table_id
                    for address in _addresses(other)[:1]
                    if address not in here
                }
            )
        )
        moved = None
        if seats is not None and listing.table_id is not None:
            seen = {s.address for s in seats.seats_for(listing.table_id) if s.address}
            if seen and not seen & set(here):
                moved = sorted(seen)[0]
        if twins or moved is not None:
            found[listing.instance_name] = Claim(here[0], twins, moved)
    return found


def _addresses(listing: TableListing) -> list[str]:
    return [address_text(address, listing.port) for address in listing.addresses]
