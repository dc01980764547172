"""The plain table's numbers (rule N V, kick N, a question's answer by number) through the
one parser of typed numbers: ``²`` is refused in a sentence, never a traceback; and a line
whose handling fails anyway is one line in the log (issue 38)."""

from __future__ import annotations

import pytest
from test_plain_narrator import PlainLocal

from dalmuti_net.client.plain import narrator


def test_superscripts_are_refused_in_a_sentence_in_every_numbered_command() -> None:
    table = PlainLocal()
    sent = len(table.local.sent)
    assert table.type("rule ²") == ["Give the option's number from the rules list (1 to 9)."]
    assert table.type("rule 4 ²") == ["Type a whole number from 1 to 1000."]
    assert table.type("kick ²")[0].startswith("Give the seat's number from the table list")
    assert table.type("remove ¹")[0].startswith("Give the seat's number from the table list")
    assert table.type("²") == ["Unknown command ²: type help."]
    assert len(table.local.sent) == sent
    table.type("rule 4 ３")  # a full-width digit is a digit
    assert table.local.sent[-1] == {"type": "set_rules", "rules": {"hand_limit": 3}}


def test_a_question_answered_with_a_superscript_is_asked_again() -> None:
    table = PlainLocal()
    table.type("start")
    while table.plain.question is None:
        table.local.next_hand()
        table.take()
    lines = table.type("²")
    assert lines and lines[0].startswith("Type a number from 1 to")
    lines = table.type("1 ²")
    assert lines and lines[0].startswith("Type a number from 1 to")


def test_a_line_that_fails_is_one_line_in_the_log(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = PlainLocal()

    def buggy(self: narrator.PlainTable) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(narrator.PlainTable, "_tell_rules", buggy)
    assert table.type("rules") == []
    told = [r.getMessage() for r in caplog.records]
    [line] = [message for message in told if "That line could not be handled" in message]
    assert "RuntimeError: a bug" in line
    assert table.type("rule 4 12") is not None
    assert table.local.sent[-1] == {"type": "set_rules", "rules": {"hand_limit": 12}}
