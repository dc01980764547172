"""`dalmuti history` marks what a stand-in bot played and who left (issue 33.7), in the
hand listing, in the final standings and in a hand told move by move; it lists a
rematch apart from the game before it."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from harness import Harness, random_chooser
from history_support import save_table

from dalmuti_net.cli import main
from dalmuti_net.engine import Rules
from dalmuti_net.host.table import Table


@pytest.fixture(scope="module")
def save(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Three hands: Cy drops in hand 1 and a bot stands in for her to the end; Bo leaves
    during hand 2 (a bot plays his seat out) and is gone from hand 3."""
    rng = random.Random(3)
    table = Table("Marks", Rules(scoring=True, hand_limit=3), seed=3)
    harness = Harness(table, rng)
    ana = harness.join("Ana", chooser=random_chooser(rng))
    bo = harness.join("Bo", chooser=random_chooser(rng))
    cy = harness.join("Cy", chooser=random_chooser(rng))
    for _ in range(3):
        harness.send(ana, {"type": "add_bot", "strategy": "random"})
    harness.send(ana, {"type": "start"})
    game = table.game
    assert game is not None
    harness.run_until(lambda: cy.session.decision is not None)
    cy_seat = cy.session.player
    assert cy_seat is not None
    harness.drop(cy)
    table.request_stand_in(cy_seat)  # as the server does when her grace runs out
    harness.deliver()
    harness.run_until(lambda: game.hand_number == 2 and bo.session.decision is not None)
    harness.send(bo, {"type": "leave"})
    for player, _ in table.unplayed_seats():  # as the server does: a bot plays it out
        table.request_stand_in(player)
    harness.deliver()
    harness.run()
    assert table.phase == "ended"
    path = tmp_path_factory.mktemp("marks") / "table.dat"
    save_table(path, table)
    return path


def listing(capsys: pytest.CaptureFixture[str], save: Path, lang: str) -> list[str]:
    assert main(["history", str(save), "--lang", lang]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    return out.splitlines()


MARKS = {
    # (Bo left, a bot stood in for Cy, Bo in the final standings)
    "en": ("Bo (left)", "a bot stood in for Cy", "Bo 3 (left after 2 hands)"),
    "es": ("Bo (se fue)", "un bot jugó por Cy", "Bo 3 (se fue tras 2 manos)"),
    "zh-Hant": ("Bo（已離開）", "機器人代替 Cy 出牌", "Bo 3 分（打了 2 手後離開）"),
}


@pytest.mark.parametrize("lang", MARKS)
def test_the_hand_listing_marks_departures_and_stand_ins(
    save: Path, capsys: pytest.CaptureFixture[str], lang: str
) -> None:
    left, stood_in, standing = MARKS[lang]
    lines = listing(capsys, save, lang)
    hands = [line for line in lines if line.startswith("  ")]
    assert len(hands) == 3
    assert [left in line for line in hands] == [False, True, False]  # only where he left
    assert all(stood_in in line for line in hands)  # she never came back
    assert "Bo" not in hands[2]  # not dealt in after he left
    assert lines[-1].endswith(standing)  # his points, after the ranked players


def test_a_told_hand_marks_each_move_the_stand_in_made(
    save: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["history", str(save), "--as", "Ana", "--hand", "3"]) == 0
    out, _ = capsys.readouterr()
    cy_moves = [line for line in out.splitlines() if line.startswith(("Cy plays", "Cy passes"))]
    assert cy_moves
    assert all(line.endswith("(played by the bot standing in)") for line in cy_moves)
    assert "Bo " not in out.split("Hand 3 of 3 begins.")[1]


@pytest.fixture(scope="module")
def rematch_save(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two hands, then a rematch of two hands with the same seats."""
    rng = random.Random(5)
    table = Table("Again", Rules(scoring=True, hand_limit=2), seed=5)
    harness = Harness(table, rng)
    ana = harness.join("Ana", chooser=random_chooser(rng))
    bo = harness.join("Bo", chooser=random_chooser(rng))
    for _ in range(3):
        harness.send(ana, {"type": "add_bot", "strategy": "random"})
    harness.send(ana, {"type": "start"})
    harness.run()
    harness.send(ana, {"type": "rematch"})
    harness.send(bo, {"type": "ready", "ready": True})  # accepted: the rematch starts
    harness.run()
    assert table.phase == "ended" and table.game_number == 2
    path = tmp_path_factory.mktemp("rematch") / "table.dat"
    save_table(path, table)
    return path


REMATCH = {
    "en": ("Table 1: Again", "Table 1: Again, rematch 1", "Hand 1: ", "Final standings: "),
    "es": ("Mesa 1: Again", "Mesa 1: Again, revancha 1", "Mano 1: ", "Clasificación final: "),
    "zh-Hant": ("第 1 桌：Again", "第 1 桌：Again，第 1 場重賽", "第 1 手：", "最終排名："),
}


@pytest.mark.parametrize("lang", REMATCH)
def test_a_rematch_is_listed_apart_from_the_game_before_it(
    rematch_save: Path, capsys: pytest.CaptureFixture[str], lang: str
) -> None:
    first, second, hand_one, standings = REMATCH[lang]
    lines = listing(capsys, rematch_save, lang)
    assert lines.count(first) == 1 and lines.count(second) == 1
    games = [lines[: lines.index(second)], lines[lines.index(second) :]]
    for game in games:  # each with its own hands, numbered from 1, and its own standings
        assert sum(line.startswith("  " + hand_one) for line in game) == 1
        assert sum(line.startswith(standings) for line in game) == 1
    assert games[0][-1] == ""  # a blank line between them


def test_an_unfinished_hand_reads_as_one_sentence_with_its_stand_ins(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A table stopped mid-hand while a bot stood in: "Hand 1: not finished.; bots stood in
    for Eli, Ben" was printed, a full stop in the middle."""
    rng = random.Random(3)
    table = Table("Stopped", Rules(), seed=3)
    harness = Harness(table, rng)
    ana = harness.join("Ana", chooser=random_chooser(rng))
    cy = harness.join("Cy", chooser=random_chooser(rng))
    for _ in range(2):
        harness.send(ana, {"type": "add_bot", "strategy": "random"})
    harness.send(ana, {"type": "start"})
    harness.run_until(lambda: cy.session.decision is not None)
    cy_seat = cy.session.player
    assert cy_seat is not None
    harness.drop(cy)
    table.request_stand_in(cy_seat)
    harness.deliver()
    harness.run_until(lambda: any(m["type"] == "moved_for" for m in ana.received))
    path = tmp_path / "table.dat"
    save_table(path, table)
    hands = [line.strip() for line in listing(capsys, path, "en") if line.startswith("  ")]
    assert hands == ["Hand 1: not finished; a bot stood in for Cy"]


def test_a_hand_of_a_rematch_is_told_by_its_number_in_the_rematch(
    rematch_save: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Both games have a hand 1: --hand alone is the first game's, --rematch N the Nth
    rematch's (as the listing numbers them); --rematch alone tells that game whole."""

    def told(*argv: str) -> tuple[int, str, str]:
        code = main(["history", str(rematch_save), "--as", "Ana", *argv])
        out, err = capsys.readouterr()
        return code, out, err

    code, first, _ = told("--hand", "1")
    assert code == 0 and first.count("Hand 1 of 2 begins.") == 1
    code, again, _ = told("--hand", "1", "--rematch", "1")
    assert code == 0 and again.count("Hand 1 of 2 begins.") == 1
    assert again.splitlines()[0] == "Again, rematch 1, hand 1, as Ana saw it:"
    assert again != first  # another deal
    code, whole, _ = told("--rematch", "1")
    assert code == 0 and whole.count("begins.") == 2 and again.splitlines()[1] in whole
    code, out, err = told("--rematch", "2", "--lang", "es")
    assert code == 2 and out == ""
    assert err.strip() == "dalmuti history: no hay revancha 2 en esta mesa (tuvo 1 revancha)"


def test_json_lines_say_which_game_each_hand_is_of(
    rematch_save: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A rematch counts its hands from 1 again: the lines said "hand": 1 twice, with
    nothing to tell the two games apart, and the rematch's lobby was the last hand's."""
    import json

    assert main(["history", str(rematch_save), "--json"]) == 0
    out, _ = capsys.readouterr()
    lines = [json.loads(line) for line in out.splitlines()[1:]]
    starts = [(x["game"], x["hand"]) for x in lines if x["message"]["type"] == "hand_started"]
    assert starts == [(1, 1), (1, 2), (2, 1), (2, 2)]
    ended = [i for i, x in enumerate(lines) if x["message"]["type"] == "table_ended"]
    assert [lines[i]["game"] for i in ended] == [1, 2]
    lobby = lines[ended[0] + 1 :]
    first_of_rematch = next(x for x in lobby if x["game"] == 2)
    assert first_of_rematch["hand"] == 0 and first_of_rematch["message"]["type"] in (
        "table",
        "snapshot",
    )
    assert all(x["game"] == 1 for x in lines[: ended[0] + 1])
