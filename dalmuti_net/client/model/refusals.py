"""Each refusal gets its own screen: what happened, in words, and what can be done next.

A full table offers to watch instead; a wrong or missing join code is asked for again in
place; an ended table says so and shows the final standings the host still had; a version
mismatch names both versions and what to install; only an unreachable host gets the
network advice. Every one of them can go back to the list of tables (except in the host
player's own terminal, where there is no list) or quit.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...lang.i18n import N_, Translator
from ..session import HostError
from .departures import StandingRow, told_standings
from .errors import ERROR_SENTENCES, TROUBLESHOOTING, describe_error, describe_unreachable
from .questions import Choice

WATCH = "watch"
LIST = "list"
RETRY = "retry"
CODE = "code"
QUIT = "quit"


@dataclass(frozen=True)
class RefusalScreen:
    kind: str
    """full, code, ended, version, unreachable or closed."""
    title: str
    sentences: tuple[str, ...]
    """Already translated, shown in order; the first is the main one."""
    choices: tuple[Choice, ...]
    standings: tuple[StandingRow, ...] = field(default=())
    """The final standings of a table that ended, as every screen shows them (who left
    included, marked)."""

    def offers(self, action: str) -> bool:
        return any(choice.action == action for choice in self.choices)


SAID_IN_FULL = frozenset(
    {
        "kicked",
        "replaced",
        "timeout",
        "slow_consumer",
        "shutting_down",
        "host_unproven",
        "internal_error",
    }
)
"""Fatal refusals whose sentence needs nothing from the host's own words."""


def _ways_out(t: Translator, can_list: bool) -> tuple[Choice, ...]:
    back = (Choice(LIST, N_("back to the list of tables")),) if can_list else ()
    return (*back, Choice(QUIT, N_("quit")))


def for_error(
    t: Translator, error: HostError, *, can_list: bool, spectator: bool = False
) -> RefusalScreen:
    """The screen for a fatal refusal from the host."""
    said = t._("The host said: {reason}").format(reason=error.message)
    if error.code == "table_full":
        watch = () if spectator else (Choice(WATCH, N_("watch instead")),)
        return RefusalScreen(
            "full",
            t._("The table is full"),
            (
                t._(
                    "All the seats are taken. You can watch the game instead, or pick "
                    "another table."
                )
                if can_list
                # No list to pick from (a page, a table joined by its address).
                else t._("All the seats are taken. You can watch the game instead."),
            ),
            (*watch, *_ways_out(t, can_list)),
        )
    if error.code == "bad_code":
        return RefusalScreen(
            "code",
            t._("This table needs a join code"),
            (
                t._(
                    "The join code was missing or wrong. Ask the host player for it and "
                    "type it again."
                ),
                t._(
                    "After several wrong codes from one address the host waits a little "
                    "longer each time before it looks at the next: if you are sure of the "
                    "code, give it a few seconds."
                ),
            ),
            (Choice(CODE, N_("type the code again")), *_ways_out(t, can_list)),
        )
    if error.code == "table_ended":
        sentences = [t._("This table has ended: there is nothing left to join.")]
        if not error.standings:
            sentences.append(t._("The host no longer has its final standings."))
        return RefusalScreen(
            "ended",
            t._("This table has ended"),
            tuple(sentences),
            _ways_out(t, can_list),
            tuple(told_standings(t, error.standings, error.scoring)),
        )
    if error.code == "version_mismatch":
        return RefusalScreen(
            "version",
            t._("Different versions"),
            (
                describe_error(t, error),
                t._(
                    "Install the same release on this computer and on the host's: in "
                    "that release's dalmuti-net folder, pipx install --force . (as in "
                    "the README)."
                ),
            ),
            _ways_out(t, can_list),
        )
    # Where our sentence says it all, the host's English reason would only repeat it; a
    # code this client does not know is told in the host's own words already.
    told = describe_error(t, error)
    repeats = error.code in SAID_IN_FULL or error.code not in ERROR_SENTENCES
    reasons = (told,) if repeats else (told, said)
    return RefusalScreen("closed", t._("Not connected"), reasons, _ways_out(t, can_list))


def unreachable(
    t: Translator, address: str, reason: str, *, can_list: bool, kind: str | None = None
) -> RefusalScreen:
    if kind == "web_port":  # reached, but the wrong port: nothing to troubleshoot or retry
        return RefusalScreen(
            "unreachable",
            t._("Not the table's port"),
            (describe_unreachable(t, address, reason, kind),),
            _ways_out(t, can_list),
        )
    return RefusalScreen(
        "unreachable",
        t._("The host cannot be reached"),
        (describe_unreachable(t, address, reason, kind), t._(TROUBLESHOOTING)),
        (Choice(RETRY, N_("try again")), *_ways_out(t, can_list)),
    )


def closed(
    t: Translator,
    sentence: str,
    detail: str | None,
    *,
    can_list: bool,
    standings: tuple[StandingRow, ...] = (),
    can_retry: bool = False,
) -> RefusalScreen:
    """The connection is over for another reason (a goodbye, a kick, ...); with the final
    ``standings`` when the table had ended before; ``can_retry`` when the same host may be
    back (a host that stopped, to be resumed from its save), so the seat can be taken back."""
    sentences = [sentence]
    if detail:
        sentences.append(t._("The host said: {reason}").format(reason=detail))
    title = t._("This table has ended") if standings else t._("Not connected")
    retry = (Choice(RETRY, N_("try again")),) if can_retry else ()
    return RefusalScreen(
        "closed", title, tuple(sentences), (*retry, *_ways_out(t, can_list)), standings
    )
