"""`dalmuti hosts`: print the tables discovery sees on the LAN, then exit (for scripts)."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from ..lang.i18n import N_
from ..protocol.discovery import TableListing
from ..protocol.text import json_text
from ..told import NEXT_CLAUSE, Listed
from .common import ExitCode, check_interfaces, say, tell
from .language import messages

if TYPE_CHECKING:
    from ..lang.i18n import Translator


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--timeout",
        type=float,
        default=2.0,
        metavar="SECONDS",
        help=N_("how long to listen for answers (default 2)"),
    )
    parser.add_argument("--json", action="store_true", help=N_("one JSON array, for scripts"))
    parser.add_argument(
        "--plain",
        action="store_true",
        help=N_("the web table's address as a URL only, without its QR code"),
    )
    parser.add_argument(
        "--interface",
        metavar="ADDRESS",
        action="append",
        help=N_("listen on this interface address only (repeatable; default: all)"),
    )


def listing_dict(listing: TableListing) -> dict[str, Any]:
    return {
        "name": listing.name,
        "instance": listing.instance_name,
        "server": listing.server,
        "addresses": list(listing.addresses),
        "port": listing.port,
        "protocol_version": listing.protocol_version,
        "compatible": listing.compatible,
        "phase": None if listing.phase is None else str(listing.phase),
        "seats_taken": listing.seats_taken,
        "seats_total": listing.seats_total,
        "code_required": listing.code_required,
        "software": listing.software,
        "issues": [str(issue) for issue in listing.issues],  # English: for scripts
        "web_port": listing.web_port,
        "web_url": web_url(listing),
        "table_id": listing.table_id,
    }


def web_url(listing: TableListing) -> str | None:
    """The address of the host's web table (for phones), when it announces one."""
    if listing.web_port is None or not listing.addresses:
        return None
    address = listing.addresses[0]
    host = f"[{address}]" if ":" in address else address
    return f"http://{host}:{listing.web_port}/"


def listing_lines(listing: TableListing, t: Translator, *, qr: bool) -> list[str]:
    """A table's line, then its web table's address for phones and (``qr``) its QR code."""
    lines = [listing_line(listing, t)]
    url = web_url(listing)
    if url is not None:
        lines.append("  " + t._("Phones join at: {url}").format(url=url))
        if qr:
            from ..web.qr import qr_lines

            lines += ["  " + line for line in qr_lines(url)]
    return lines


def listing_line(listing: TableListing, t: Translator | None = None) -> str:
    """``NAME  ADDRESS:PORT  seats 3/8  lobby  code  [issues]`` in ``t``'s language."""
    _ = (t or messages(None))._
    address = listing.addresses[0] if listing.addresses else "?"
    if ":" in address:
        address = f"[{address}]"
    seats = (
        f"{listing.seats_taken}/{listing.seats_total}" if listing.seats_taken is not None else "?"
    )
    phase = PHASE_WORDS.get(str(listing.phase)) if listing.phase is not None else None
    parts = [
        listing.name,
        f"{address}:{listing.port}",
        _("seats {seats}").format(seats=seats),
        _(phase) if phase is not None else _("phase ?"),
        {True: _("join code needed"), False: _("open"), None: _("join code ?")}[
            listing.code_required
        ],
    ]
    if not listing.compatible:
        parts.append(_("incompatible"))
    line = "  ".join(parts)
    if listing.issues:
        line += "  " + _("({issues})").format(issues=Listed(listing.issues, NEXT_CLAUSE).told(_))
    return line


PHASE_WORDS = {"lobby": N_("lobby"), "playing": N_("playing"), "ended": N_("ended")}


def run(args: argparse.Namespace) -> int:
    try:
        t = messages(args.lang)
    except ValueError as error:
        print(f"dalmuti hosts: {error}", file=sys.stderr)
        return 2
    _ = t._
    if not 0 < args.timeout <= 600:
        print(
            "dalmuti hosts: "
            + _("{option} must be more than {low} and at most {high}").format(
                option="--timeout", low=0, high=600
            ),
            file=sys.stderr,
        )
        return 2
    check_interfaces(args.interface, t)
    import trio

    from ..client.discovery import find_tables

    listings = trio.run(lambda: find_tables(args.timeout, interfaces=args.interface))
    if args.json:
        # Nothing found is an empty array for the script, and exit status 4 as without --json.
        print(json_text([listing_dict(listing) for listing in listings]))
        return ExitCode.OK if listings else ExitCode.NOT_FOUND
    if not listings:
        tell(
            _(
                "No table answered within {seconds} s. Check that you are on the same "
                "network as the host, that no firewall blocks UDP port 5353, and that no VPN "
                "is in the way; `dalmuti join HOST[:PORT]` works without discovery."
            ).format(seconds=f"{args.timeout:g}")
        )
        return ExitCode.NOT_FOUND
    from ..client.claims import claims
    from ..client.seats import SeatStore

    claimed = claims(listings, SeatStore())
    for listing in listings:
        for line in listing_lines(listing, t, qr=not args.plain):
            say(line)
        claim = claimed.get(listing.instance_name)
        for sentence in [] if claim is None else claim.sentences(_):
            say("  ! " + sentence)  # a table id claimed twice, or a seat's table moved
    return 0
