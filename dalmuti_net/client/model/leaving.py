"""What leaving the table does to the table, said before and after.

The quit panel's leave choice says when leaving ends the table, before the player picks it,
and one line says so after (the table screen prints it once the screen has closed; the
plain table says it as it quits). Only the host knows it for sure (who is connected, who
would take over as host player, who is leaving): it says so in each seat's `leave_ends`
and the table's `heirs` (PROTOCOL.md, the lobby and the table); this module only words it.
"""

from __future__ import annotations

from enum import Enum

from ...lang.i18n import N_
from ..model.views import TableView


class LeaveEnds(Enum):
    """How leaving now ends the table (``None`` where it does not): a seat's
    ``leave_ends``, as the host sends it."""

    NOW_TOO_FEW = "now_too_few"
    """At once: nobody can take over as host player, and too few would be left anyway."""
    NOW_NO_HOST = "now_no_host"
    """At once: nobody connected can take over as host player."""
    AFTER_HAND = "after_hand"
    """When the hand is over: fewer than four players would be left."""


CHOICE = {
    LeaveEnds.NOW_TOO_FEW: N_(
        "Leave the table: give up your seat for good. That ends the table now, for "
        "everyone: fewer than four players would be left."
    ),
    LeaveEnds.NOW_NO_HOST: N_(
        "Leave the table: give up your seat for good. That ends the table now, for "
        "everyone: nobody else connected could take over as host player."
    ),
    LeaveEnds.AFTER_HAND: N_(
        "Leave the table: give up your seat for good; a bot finishes this hand, then the "
        "table ends: fewer than four players would be left."
    ),
}
"""The leave choice's sentence where leaving ends the table."""

FAREWELL = {
    LeaveEnds.NOW_TOO_FEW: N_(
        "You left the table, and it ended: fewer than four players were left."
    ),
    LeaveEnds.NOW_NO_HOST: N_(
        "You left the table, and it ended: nobody else connected could take over as host player."
    ),
    LeaveEnds.AFTER_HAND: N_(
        "You left the table; a bot finishes this hand, then the table ends: fewer than "
        "four players are left."
    ),
}
"""The one line said after leaving where leaving ends the table."""

LEFT_MID_GAME = N_("You left the table; a bot plays your cards until this hand ends.")
LEFT = N_("You left the table.")
"""The one line said after leaving a table that goes on without you."""


def leave_ends(table: TableView | None, me: int | None) -> LeaveEnds | None:
    """How ``me`` leaving now would end the table, as the host said in its last ``table``
    (``None`` where it would not, or where the host said nothing it knows of)."""
    seat = None if table is None or me is None else table.seat(me)
    said = None if seat is None else seat.leave_ends
    return next((ends for ends in LeaveEnds if ends.value == said), None)


def named_heirs(table: TableView | None) -> list[tuple[int, str]]:
    """Who would take over as host player, the host's default first, with their names
    (the table's ``heirs``; an id that names no seat is left out)."""
    if table is None:
        return []
    names = {seat.player: seat.name for seat in table.players}
    return [(player, names[player]) for player in table.heirs if player in names]
