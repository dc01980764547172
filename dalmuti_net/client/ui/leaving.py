"""What leaving the table does to the table, said before and after.

The quit panel's leave choice says when leaving ends the table, before the player picks it,
and one line says so after (the table screen prints it once the screen has closed; the
plain table says it as it quits). Two things end a table when a player leaves mid-game: a
host player that no connected human can take over from ends it at once (PROTOCOL.md,
`leave`), and a table left with fewer than four players ends after the hand (RULES.md
rule 12, "A table that cannot reach four players ends"), which a bot plays out for the
one who left.
"""

from __future__ import annotations

from enum import Enum

from ...engine import MIN_PLAYERS, Observation
from .i18n import N_


class LeaveEnds(Enum):
    """How leaving now ends the table (``None`` where it does not)."""

    NOW_TOO_FEW = "now, too few"
    """At once: nobody can take over as host player, and too few would be left anyway."""
    NOW_NO_HOST = "now, no host"
    """At once: nobody connected can take over as host player."""
    AFTER_HAND = "after the hand"
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


def players_left(observation: Observation, me: int | None) -> int:
    """How many players the next hand would have once ``me`` has left: those seated and
    those waiting to join, less the ones leaving."""
    staying = [*observation.order, *observation.joining]
    gone = {*observation.leaving, me}
    return len({player for player in staying if player not in gone})


def leave_ends(
    observation: Observation | None, me: int | None, *, host_player: bool, heirs: bool
) -> LeaveEnds | None:
    """How ``me`` leaving now would end the table: ``host_player`` says whether ``me``
    holds the host role, ``heirs`` whether a connected human could take it over."""
    too_few = observation is not None and players_left(observation, me) < MIN_PLAYERS
    if host_player and not heirs:
        return LeaveEnds.NOW_TOO_FEW if too_few else LeaveEnds.NOW_NO_HOST
    return LeaveEnds.AFTER_HAND if too_few else None
