"""`dalmuti conformance HOST[:PORT]`: hold a host to PROTOCOL.md, case by case.

The suite (``dalmuti_net.conformance``) is a client written from the document alone: raw
frames over TCP and the WebSocket channel, none of the project's protocol code. Its report
is in English, as the document it quotes is.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from ..lang.i18n import N_
from .common import CommandError, ExitCode, add_address_argument, say
from .language import messages

if TYPE_CHECKING:
    from ..lang.i18n import Translator


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = N_(
        "Check that a host speaks the protocol as PROTOCOL.md says: one case per statement"
        " the document makes, over TCP and the WebSocket channel, each naming its section;"
        " the report says which passed, which failed and why, and which were skipped and why."
        " The suite sets its own tables up through the protocol: start the host with no"
        " player of its own and nobody seated (dalmuti-net: dalmuti host --headless), give"
        " its join code if it has one, and for the stand-in cases a short grace period (a"
        " rules file with [table] grace_period = 2). Use a host for one run only: the suite"
        " ends its table."
    )
    parser.epilog = N_(
        "exit status: 0 when every case passed (or was skipped), 1 when one failed, 4 when"
        " the host could not be reached; see `dalmuti --help`"
    )
    add_address_argument(parser, N_("the host to check (port 7341 by default)"))
    parser.add_argument(
        "--code", metavar="CODE", help=N_("the host's join code, if it was started with one")
    )
    parser.add_argument(
        "--web-port",
        metavar="PORT",
        help=N_("the port of its WebSocket channel (default: the port + 1; none: skip it)"),
    )
    parser.add_argument(
        "-k",
        dest="patterns",
        metavar="PATTERN",
        action="append",
        default=[],
        help=N_("run only the cases whose id or section holds PATTERN (repeatable; * ? allowed)"),
    )
    parser.add_argument(
        "--json", metavar="FILE", help=N_("also write the report as JSON to FILE (- for stdout)")
    )
    parser.add_argument(
        "--max-wait",
        type=float,
        default=25.0,
        metavar="SECONDS",
        help=N_("the longest host time-out a case waits out; longer ones are skipped (default 25)"),
    )
    parser.add_argument(
        "--expect-fail",
        metavar="FILE",
        help=N_(
            "a file of cases known to fail, one `ID  reason` a line: reported as such, and a"
            " failure only if they pass"
        ),
    )
    parser.add_argument("--list", action="store_true", help=N_("list the cases and exit"))


def read_expected(path: str, t: Translator) -> dict[str, str]:
    expected: dict[str, str] = {}
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except OSError as error:
        raise CommandError(
            t._("cannot read {path}: {reason}").format(path=path, reason=error.strerror)
        ) from None
    for line in lines:
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        case_id, _, reason = line.partition(" ")
        expected[case_id] = reason.strip() or "listed as known to fail"
    return expected


def run(args: argparse.Namespace) -> int:
    import trio

    from ..client.address import BadAddress, parse_address
    from ..conformance.cases import all_cases
    from ..conformance.context import Options
    from ..conformance.runner import (
        Unreachable,
        failed,
        reachable,
        render_json,
        render_text,
        run_all,
        select,
    )

    t = messages(args.lang)
    cases = select(all_cases(), args.patterns)
    if args.list:
        for case in cases:
            print(f"{case.id:<44} {case.section}")
        return ExitCode.OK
    if args.address is None:
        raise CommandError(t._("say which host to check: dalmuti conformance HOST[:PORT]"))
    if not cases:
        raise CommandError(
            t._("no case matches {patterns} (--list shows them)").format(
                patterns=" ".join(args.patterns)
            )
        )
    try:
        host, port = parse_address(args.address)
    except BadAddress as error:
        raise CommandError(error.told(t._)) from None
    shown = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    if args.web_port in (None, ""):
        web_port: int | None = port + 1
    elif args.web_port == "none":
        web_port = None
    else:
        try:
            web_port = int(args.web_port)
        except ValueError:
            raise CommandError(
                t._("--web-port {value} is neither a port nor none").format(
                    value=repr(args.web_port)
                )
            ) from None
    expected = read_expected(args.expect_fail, t) if args.expect_fail else {}
    unknown = sorted(set(expected) - {c.id for c in all_cases()})
    if unknown:
        raise CommandError(
            t._("{path} names cases the suite does not have: {cases}").format(
                path=args.expect_fail, cases=", ".join(unknown)
            )
        )
    options = Options(host, port, web_port, args.code, args.max_wait)

    def progress(result: object) -> None:
        if sys.stderr.isatty():
            print(".", end="", file=sys.stderr, flush=True)

    try:
        about = trio.run(reachable, options)
    except Unreachable as error:
        raise CommandError(
            t._("cannot connect to {address}: {reason}").format(address=shown, reason=error.reason),
            ExitCode.NOT_FOUND,
        ) from None
    if about is not None and about.get("code_required") is True and args.code is None:
        raise CommandError(
            t._("{address} needs a join code: give it with --code").format(address=shown),
            ExitCode.REFUSED,
        )
    started = time.monotonic()
    results = trio.run(run_all, cases, options, expected, progress)
    seconds = time.monotonic() - started
    if sys.stderr.isatty():
        print(file=sys.stderr)
    title = f"PROTOCOL.md (protocol version 2) conformance of {shown}"
    if about is not None:
        title += (
            f": {about.get('software')!s:.64}, protocol version {about.get('version')!s:.8},"
            f" table {str(about.get('table'))!r:.70}"
        )
    text = render_text(results, title, seconds)
    say(text)
    if args.json:
        document = render_json(results, shown, seconds)
        if args.json == "-":
            print(document)
        else:
            Path(args.json).write_text(document + "\n", encoding="utf-8")
    return ExitCode.FAILED if failed(results) else ExitCode.OK
