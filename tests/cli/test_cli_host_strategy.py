"""`dalmuti host --bots N --strategy S` seats N bots playing S, for every strategy the
command accepts: a registered name (montecarlo too, not only the two a lobby offers) or a
user's module:attr. Other strategies than heuristic and random were refused by the table
and the host stopped with "unexpected error ... please report it"."""

from __future__ import annotations

import pytest

from dalmuti_net.commands.host_options import HostOptions
from dalmuti_net.commands.host_runtime import PreparedHost


def prepared(strategy: str) -> PreparedHost:
    return PreparedHost.create(
        HostOptions(
            name="Strategies",
            port=0,
            interface="127.0.0.1",
            announce=False,
            rules=None,
            bots=3,
            bot_strategy=strategy,
            code=None,
            headless=True,
            player_name="Ana",
            save=None,
            resume=None,
            autostart=None,
            seed=1,
            lang="en",
        )
    )


@pytest.mark.parametrize(
    ("strategy", "names"),
    [
        ("montecarlo", ["Montecarlo bot", "Montecarlo bot (2)", "Montecarlo bot (3)"]),
        ("random", ["Random bot", "Random bot (2)", "Random bot (3)"]),
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
