"""What the whole run received, looked at once at the end."""

from __future__ import annotations

from ..context import Context
from ..registry import Section, Stage, case
from ..wire import CaseFailed, CaseSkipped

FATAL = frozenset(
    {
        "bad_frame",
        "too_large",
        "unknown_type",
        "not_hello",
        "version_mismatch",
        "bad_token",
        "bad_proof",
        "bad_code",
        "too_many_connections",
        "name_taken",
        "timeout",
        "slow_consumer",
        "kicked",
        "replaced",
        "shutting_down",
    }
)
NOT_FATAL = frozenset(
    {
        "bad_message",
        "rate_limited",
        "already_hello",
        "not_host",
        "spectator",
        "wrong_phase",
        "bad_rules",
        "not_enough_players",
        "unknown_player",
        "no_decision_owed",
        "stale_decision",
        "wrong_decision",
        "not_a_set",
        "not_held",
        "wrong_size",
        "not_better",
        "must_lead",
        "bad_cards",
        "bad_merchant",
        "bad_position",
        "already_seated",
        "not_waiting",
        "too_soon",
        "cannot_save",
    }
)
"""PROTOCOL.md, Error codes: `table_full` and `table_ended` depend on what they refuse."""


@case("errors.fatal-flags", Section.ERROR_CODES, stage=Stage.LAST)
async def fatal_flags(ctx: Context) -> None:
    """Every error the host sent in this run carries the fatal flag the table of error codes gives
    its code."""
    if not ctx.shared.errors:
        raise CaseSkipped("no error was received in this run (run it with the other cases)")
    wrong = sorted(
        {
            f"{error.get('code')} (fatal {error.get('fatal')})"
            for error, _ in ctx.shared.errors
            if (error.get("code") in FATAL and error.get("fatal") is not True)
            or (error.get("code") in NOT_FATAL and error.get("fatal") is not False)
            or error.get("code") not in FATAL | NOT_FATAL | {"table_full", "table_ended"}
        }
    )
    if wrong:
        raise CaseFailed(f"against the table: {', '.join(wrong)}")
    ctx.notes.append(f"{len(ctx.shared.errors)} errors looked at")


@case("errors.fatal-then-closed", Section.REQUESTS, stage=Stage.LAST)
async def fatal_closes(ctx: Context) -> None:
    """If fatal is true the host closes the connection right after the error (nothing follows
    it)."""
    fatal = [(error, closed) for error, closed in ctx.shared.errors if error.get("fatal")]
    if not fatal:
        raise CaseSkipped("no fatal error was received in this run")
    open_after = sorted({str(error.get("code")) for error, closed in fatal if not closed})
    if open_after:
        raise CaseFailed(f"after a fatal {', '.join(open_after)} the connection went on")
    ctx.notes.append(f"{len(fatal)} fatal errors looked at")
