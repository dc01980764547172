"""`dalmuti host --code` alone makes a join code too long to guess in an evening."""

from __future__ import annotations

from dalmuti_net.cli import build_parser
from dalmuti_net.commands.host import options_from
from dalmuti_net.host.admission import CODE_DIGITS, same_code


def test_code_alone_makes_a_long_code_and_a_given_code_is_kept() -> None:
    parser = build_parser()
    made = options_from(parser.parse_args(["host", "--code", "--headless"])).code
    assert made is not None and len(made.replace("-", "")) == CODE_DIGITS
    assert made.replace("-", "").isdecimal()
    again = options_from(parser.parse_args(["host", "--code"])).code
    assert again != made and again is not None and not same_code(again, made)
    assert options_from(parser.parse_args(["host", "--code", "tulip"])).code == "tulip"
    assert options_from(parser.parse_args(["host"])).code is None
