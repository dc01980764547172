"""`dalmuti replay` says in its header that it is a replay (nothing is connected), and the
final standings, there and at a live table, stand in columns."""

from __future__ import annotations

import pytest
from test_replay_ui import played_live, replay_of
from test_ui_screens import answer
from ui_support import LocalTable, draw

from dalmuti_net.client.runner import Status
from dalmuti_net.engine import Rules
from dalmuti_net.lang.i18n import LANGUAGES, Translator
from dalmuti_net.lang.text import width

LONG_NAME = "Bartholomew Featherstone"


def standings_rows(screen: str, t: Translator, players: int) -> list[str]:
    lines = screen.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith(f"── {t._('Final standings')}"))
    return lines[at + 1 : at + 1 + players]


def assert_in_columns(rows: list[str], names: list[str], scores: list[int]) -> None:
    """Places, names and points each in a column: the names start in one cell, the
    points end in one."""
    starts = set()
    for row, name, score in zip(rows, names, scores, strict=True):
        assert name in row and row.endswith(f" {score}"), row
        starts.add(width(row[: row.index(name)]))
    assert len(starts) == 1, "\n".join(rows)
    assert len({width(row) for row in rows}) == 1, "\n".join(rows)


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_replay_says_replay_not_connected(language: str) -> None:
    t = Translator(language)
    table, _ = played_live(language, seed=3)
    replay = replay_of(table, language)
    assert replay.ui.model.status is Status.CONNECTED  # what its messages need, not a connection
    for key in ("home", "down", "right", "end"):
        replay.press(key)
        header = draw(replay.ui).splitlines()[0]
        assert t._("connected") not in header and "●" not in header, header
        assert header.endswith(" " + t._("replay")), header
    observation = replay.ui.model.session.observation if replay.ui.model.session else None
    assert observation is not None and observation.ended is not None
    standings = observation.ended.standings
    rows = standings_rows(draw(replay.ui), t, len(standings))
    names = [replay.ui.model.name_of(player) for player, _, _ in standings]
    assert_in_columns(rows, names, [score for _, score, _ in standings])
    # The live table's header is left as it was.
    assert draw(table.ui).splitlines()[0].endswith("● " + t._("connected"))


@pytest.mark.parametrize("language", LANGUAGES)
def test_eight_players_final_standings_in_columns_at_80x24(language: str) -> None:
    """With a long name: where the screen has room, it is whole (not cut at 22 cells), in
    the hand's results as in the final standings."""
    t = Translator(language)
    table = LocalTable(
        Rules(scoring=True, hand_limit=1), seed=2, bots=7, language=language, name=LONG_NAME
    )
    table.start()
    mine = table.ui.model.name_of(table.session.player or 0)
    assert width(mine) > 26
    for _ in range(3000):
        observation = table.session.observation
        assert observation is not None
        if observation.ended is not None:
            break
        if observation.phase == "hand_over":
            assert mine in draw(table.ui)  # the results screen
            table.next_hand()
        elif table.ui.model.chooser is not None:
            answer(table)
        else:
            table.pump()
    assert observation.ended is not None
    assert mine in draw(table.ui)  # the last hand's results first
    table.press("enter")  # then the final standings
    standings = observation.ended.standings
    rows = standings_rows(draw(table.ui), t, len(standings))
    names = [table.ui.model.name_of(player) for player, _, _ in standings]
    assert_in_columns(rows, names, [score for _, score, _ in standings])
