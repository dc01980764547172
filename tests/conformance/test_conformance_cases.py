"""The conformance suite and PROTOCOL.md name each other, and the suite speaks the wire
from the document alone (none of the project's protocol or client code)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import dalmuti_net.conformance
from dalmuti_net.commands.conformance import read_expected
from dalmuti_net.conformance.cases import all_cases
from dalmuti_net.conformance.registry import NOT_HELD, SECTIONS
from dalmuti_net.conformance.runner import select
from dalmuti_net.lang.i18n import translator_for

REPO = Path(__file__).resolve().parents[2]
# The suite as installed (CI's second leg runs these tests from the sdist against the wheel,
# with no dalmuti_net/ folder beside them: the checkout's path would hold no file to check).
SUITE = Path(dalmuti_net.conformance.__file__).resolve().parent
HEADING = re.compile(r"^#{2,3} (.+)$", re.MULTILINE)


def test_every_section_a_case_names_is_a_heading_of_protocol_md() -> None:
    headings = set(HEADING.findall((REPO / "PROTOCOL.md").read_text(encoding="utf-8")))
    assert set(SECTIONS) <= headings, set(SECTIONS) - headings
    assert {case.section for case in all_cases()} <= set(SECTIONS)
    assert set(NOT_HELD) <= headings
    assert not {case.section for case in all_cases()} & set(NOT_HELD)


def test_case_ids_are_unique_and_say_what_they_check() -> None:
    cases = all_cases()
    assert len({case.id for case in cases}) == len(cases)
    for case in cases:
        assert re.fullmatch(r"[a-z]+(-[a-z]+)*\.[a-z0-9]+(-[a-z0-9]+)*", case.id), case.id
        assert case.statement.endswith((".", ")")), case.id


@pytest.mark.parametrize("path", sorted(SUITE.rglob("*.py")), ids=lambda p: p.name)
def test_the_suite_imports_nothing_of_the_project_outside_itself(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            depth = len(path.relative_to(SUITE).parts) - 1
            assert node.level == 0 or node.level <= depth + 1, (path.name, node.module)
            assert node.level or not (node.module or "").startswith("dalmuti_net"), node.module
        elif isinstance(node, ast.Import):
            assert not any(a.name.startswith("dalmuti_net") for a in node.names), path.name


def test_filter_by_id_section_or_glob() -> None:
    cases = all_cases()
    assert {c.id for c in select(cases, ["framing.no-bin"])} == {"framing.no-bin"}
    assert {c.section for c in select(cases, ["websocket"])} == {"WebSocket"}
    assert select(cases, ["ws.*"]) == [c for c in cases if c.id.startswith("ws.")]
    assert select(cases, []) == cases


def test_expected_failures_file_names_cases_with_reasons(tmp_path: Path) -> None:
    listed = tmp_path / "known.txt"
    listed.write_text("# a comment\nframing.no-bin  waits for a fix\n\n", encoding="utf-8")
    assert read_expected(str(listed), translator_for("en")) == {"framing.no-bin": "waits for a fix"}


def test_an_unreachable_host_is_one_sentence_and_exit_4(capsys: pytest.CaptureFixture[str]) -> None:
    from dalmuti_net.cli import main

    assert main(["--lang", "en", "conformance", "127.0.0.1:1"]) == 4
    err = capsys.readouterr().err
    assert err.startswith("dalmuti conformance: cannot connect to 127.0.0.1:1")
    assert err.count("\n") == 1


def test_list_names_every_case_and_its_section(capsys: pytest.CaptureFixture[str]) -> None:
    from dalmuti_net.cli import main

    assert main(["conformance", "--list", "-k", "framing"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == len(select(all_cases(), ["framing"]))
    assert all(line.split()[-1] == "Framing" for line in lines)


def test_the_address_is_read_as_join_and_bot_read_it(capsys: pytest.CaptureFixture[str]) -> None:
    from dalmuti_net.cli import main

    assert main(["--lang", "en", "conformance", "[::1]:1"]) == 4
    assert capsys.readouterr().err.startswith("dalmuti conformance: cannot connect to [::1]:1: ")
    assert main(["--lang", "en", "conformance", "127.0.0.1:70000"]) == 2
    err = capsys.readouterr().err
    assert err == (
        "dalmuti conformance: '127.0.0.1:70000': the port must be a number from 1 to 65535\n"
    )
