"""What `dalmuti host` sets up from its options: `--bots N --strategy S` seats N bots
playing S, for every strategy the command accepts (a registered name, montecarlo too, or a
user's module:attr: other strategies than heuristic and random were refused by the table
and the host stopped with "unexpected error ... please report it"); the line that tells
players how to join gives the join code too."""

from __future__ import annotations

import pytest
import trio
from loopback_options import loopback_options

from dalmuti_net.commands.host_runtime import PreparedHost


def prepared(strategy: str, code: str | None = None) -> PreparedHost:
    return PreparedHost.create(
        loopback_options("Strategies", bots=3, bot_strategy=strategy, code=code, seed=1)
    )


@pytest.mark.parametrize(
    ("strategy", "names"),
    [
        ("montecarlo", ["Monte Carlo bot", "Monte Carlo bot (2)", "Monte Carlo bot (3)"]),
        ("random", ["Random bot", "Random bot (2)", "Random bot (3)"]),
        ("learned", ["Learned bot", "Learned bot (2)", "Learned bot (3)"]),
        (
            "dalmuti_net.bots.random_bot:RandomBot",
            ["RandomBot bot", "RandomBot bot (2)", "RandomBot bot (3)"],
        ),
    ],
)
def test_the_bots_asked_for_are_seated_with_their_strategy(strategy: str, names: list[str]) -> None:
    table = prepared(strategy).table
    seats = list(table.seats.values())
    assert [seat.name for seat in seats] == names
    assert all(seat.kind == "bot" and seat.strategy == strategy for seat in seats)


@pytest.mark.parametrize(
    ("lang", "names"),
    [
        ("es", ["Bot astuto", "Bot astuto (2)", "Bot astuto (3)", "Bot aleatorio"]),
        ("zh_Hant", ["聰明機器人", "聰明機器人 (2)", "聰明機器人 (3)", "隨機機器人"]),
    ],
)
def test_the_hosts_bots_are_named_in_the_tables_language(lang: str, names: list[str]) -> None:
    """A Spanish or Chinese table named its bots in English ("Heuristic bot"), the name
    every viewer reads: its own (--bots) and those its host player seats (add_bot), in the
    host's language, from bots/names.py."""
    table = PreparedHost.create(
        loopback_options("Mesa", bots=3, bot_strategy="heuristic", lang=lang)
    ).table
    table.add_bot("random")
    assert [seat.name for seat in table.seats.values()] == names


def test_a_module_strategys_bots_are_named_in_the_tables_language() -> None:
    table = PreparedHost.create(
        loopback_options(
            "Mesa", bots=1, bot_strategy="dalmuti_net.bots.random_bot:RandomBot", lang="es"
        )
    ).table
    assert [seat.name for seat in table.seats.values()] == ["Bot RandomBot"]


@pytest.mark.parametrize(
    ("code", "command"),
    [
        (None, "dalmuti join 127.0.0.1:{port}"),
        ("two words", "dalmuti join 127.0.0.1:{port} --code 'two words'"),
    ],
)
async def test_the_join_line_gives_the_code_players_need(code: str | None, command: str) -> None:
    host = prepared("random", code)
    said: list[str] = []
    host.say = said.append
    async with trio.open_nursery() as nursery:
        await nursery.start(host.serve)
        nursery.cancel_scope.cancel()
    assert f"Players join with: {command.format(port=host.port)}" in said
