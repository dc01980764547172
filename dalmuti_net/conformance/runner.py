"""Run the cases against one host and report, per section, what passed, failed and why."""

from __future__ import annotations

import fnmatch
import json
import textwrap
import time
import traceback
from dataclasses import dataclass
from typing import Any

import trio

from .context import Context, Options, Shared
from .registry import SECTIONS, Case, Stage
from .wire import CaseFailed, CaseSkipped, Message, frame, pack, unpack

CASE_LIMIT = 40.0
"""Seconds any one case may take before it counts as failed (a host that never answers)."""

PASSED, FAILED, SKIPPED, XFAILED, XPASSED = "passed", "failed", "skipped", "xfailed", "xpassed"
MARKS = {PASSED: "PASS", FAILED: "FAIL", SKIPPED: "SKIP", XFAILED: "XFAIL", XPASSED: "XPASS"}


@dataclass
class Result:
    case: Case
    outcome: str
    detail: str
    seconds: float

    def as_json(self) -> dict[str, Any]:
        return {
            "id": self.case.id,
            "section": self.case.section,
            "statement": self.case.statement,
            "transport": self.case.transport,
            "outcome": self.outcome,
            "detail": self.detail,
            "seconds": round(self.seconds, 3),
        }


def select(cases: list[Case], patterns: list[str]) -> list[Case]:
    """The cases whose id or section holds one of ``patterns`` (globs allowed)."""
    if not patterns:
        return cases

    def matches(case: Case, pattern: str) -> bool:
        pattern = pattern.lower()
        names = (case.id.lower(), case.section.lower())
        if any(ch in pattern for ch in "*?["):
            return any(fnmatch.fnmatchcase(name, pattern) for name in names)
        return any(pattern in name for name in names)

    return [c for c in cases if any(matches(c, p) for p in patterns)]


def _leaves(error: BaseException) -> list[BaseException]:
    if isinstance(error, BaseExceptionGroup):
        return [leaf for inner in error.exceptions for leaf in _leaves(inner)]
    return [error]


def _explain(raised: Exception) -> tuple[str, str]:
    """The outcome and the sentence for what a case raised (trio may wrap it in groups)."""
    leaves = _leaves(raised)
    for kind, outcome in ((CaseFailed, FAILED), (CaseSkipped, SKIPPED)):
        for leaf in leaves:
            if isinstance(leaf, kind):
                return outcome, str(leaf)
    error = leaves[0]
    if isinstance(error, trio.TooSlowError):
        return FAILED, f"the case did not finish within {CASE_LIMIT:g} s"
    where = traceback.extract_tb(error.__traceback__)[-1]
    return FAILED, (
        f"the suite could not go on: {type(error).__name__}: {error}"
        f" (at {where.name}, line {where.lineno}; the host sent something unexpected?)"
    )


async def run_case(case: Case, options: Options, shared: Shared) -> Result:
    started = time.monotonic()
    outcome, detail = PASSED, ""
    try:
        async with trio.open_nursery() as nursery:
            context = Context(options, shared, nursery)
            try:
                async with trio.open_nursery() as helpers:
                    context.helpers = helpers
                    with trio.fail_after(CASE_LIMIT):
                        await case.run(context)
                    helpers.cancel_scope.cancel()  # a seat played in the background
                if context.notes:
                    detail = "; ".join(context.notes)
            finally:
                with trio.CancelScope(shield=True):
                    await context.close_all()
                nursery.cancel_scope.cancel()
    except Exception as raised:
        outcome, detail = _explain(raised)
    return Result(case, outcome, detail, time.monotonic() - started)


async def run_all(
    cases: list[Case],
    options: Options,
    expected: dict[str, str],
    progress: Any = None,
) -> list[Result]:
    """Run ``cases`` in order, those marked background beside the stages before FLOOD."""
    shared = Shared()
    results: dict[str, Result] = {}

    async def one(case: Case) -> None:
        result = _judged(await run_case(case, options, shared), expected.get(case.id))
        results[case.id] = result
        if progress is not None:
            progress(result)

    waiting = [c for c in cases if c.background and c.stage < Stage.FLOOD]
    async with trio.open_nursery() as nursery:
        for case in waiting:
            nursery.start_soon(one, case)
        for case in cases:
            if case.stage < Stage.FLOOD and case not in waiting:
                await one(case)
    for case in cases:
        if case.stage >= Stage.FLOOD:
            await one(case)
    return [results[c.id] for c in cases]


def _judged(result: Result, reason: str | None) -> Result:
    """A result against the list of cases known to fail."""
    if reason is not None:
        if result.outcome == FAILED:
            result.outcome = XFAILED
            result.detail = f"expected to fail: {reason} [{result.detail}]"
        elif result.outcome == PASSED:
            result.outcome = XPASSED
            result.detail = (
                f"listed as expected to fail ({reason}) but passed: take it off the list"
            )
    return result


class Unreachable(Exception):
    """No connection to the host could be made: nothing to check."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


async def reachable(options: Options) -> Message | None:
    """The host's `about` (None if it answers none); Unreachable if nothing answers."""
    try:
        stream = await trio.open_tcp_stream(options.host, options.port)
    except OSError as error:
        causes = _leaves(error.__cause__) if error.__cause__ else [error]
        reason = next((c.strerror for c in causes if isinstance(c, OSError) and c.strerror), None)
        raise Unreachable(reason or str(error)) from None
    async with stream:
        await stream.send_all(frame(pack({"type": "about"})))
        data = b""
        with trio.move_on_after(5):
            while len(data) < 4 or len(data) < 4 + int.from_bytes(data[:4], "big"):
                chunk = await stream.receive_some(65536)
                if not chunk:
                    break
                data += chunk
    try:
        about = unpack(data[4 : 4 + int.from_bytes(data[:4], "big")])
    except ValueError:
        return None
    return about if isinstance(about, dict) and about.get("type") == "about" else None


def failed(results: list[Result]) -> bool:
    return any(r.outcome in (FAILED, XPASSED) for r in results)


def summary(results: list[Result]) -> dict[str, int]:
    counts = {outcome: 0 for outcome in MARKS}
    for result in results:
        counts[result.outcome] += 1
    return counts


WIDTH = 96
"""The report's lines are wrapped to this many characters."""


def _wrapped(text: str, indent: str) -> list[str]:
    return textwrap.wrap(text, WIDTH, initial_indent=indent, subsequent_indent=indent) or [indent]


def render_text(results: list[Result], title: str, seconds: float) -> str:
    """The report: per section of PROTOCOL.md, each case, the statement it holds, its
    outcome and why; then the cases that did not pass, again, one line each."""
    lines = [title, ""]
    by_section: dict[str, list[Result]] = {}
    for result in results:
        by_section.setdefault(result.case.section, []).append(result)
    for section in SECTIONS:
        found = by_section.get(section)
        if not found:
            continue
        counts = summary(found)
        tally = ", ".join(f"{n} {o}" for o, n in counts.items() if n)
        lines.append(f"{section} ({tally})")
        for result in found:
            transport = " [WebSocket]" if result.case.transport == "ws" else ""
            lines.append(f"  {MARKS[result.outcome]:<5} {result.case.id}{transport}")
            lines.extend(_wrapped(result.case.statement, " " * 8))
            if result.detail:
                label = {SKIPPED: "why", PASSED: "note"}.get(result.outcome, "got")
                lines.extend(_wrapped(f"{label}: {result.detail}", " " * 8))
        lines.append("")
    for outcome, heading in (
        (FAILED, "Failed"),
        (XPASSED, "Passed but listed as failing"),
        (XFAILED, "Failed as listed"),
        (SKIPPED, "Skipped"),
    ):
        listed = [r for r in results if r.outcome == outcome]
        if listed:
            lines.append(f"{heading} ({len(listed)}):")
            for result in listed:
                lines.extend(
                    _wrapped(f"{result.case.id} ({result.case.section}): {result.detail}", "  ")
                )
            lines.append("")
    counts = summary(results)
    tally = ", ".join(f"{n} {o}" for o, n in counts.items() if n or o in (PASSED, FAILED))
    lines.append(f"{len(results)} cases: {tally}; {seconds:.1f} s")
    return "\n".join(lines)


def render_json(results: list[Result], target: str, seconds: float) -> str:
    return json.dumps(
        {
            "host": target,
            "seconds": round(seconds, 3),
            "summary": summary(results),
            "cases": [r.as_json() for r in results],
        },
        indent=2,
        ensure_ascii=True,
    )
