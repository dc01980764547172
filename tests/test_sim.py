"""`dalmuti sim` end to end through the command line, and its errors."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest

from dalmuti_net.bots import STRATEGIES, strategy_names
from dalmuti_net.bots.arena import simulate
from dalmuti_net.cli import main
from dalmuti_net.commands.sim import parse_rules, simulate_with_progress
from dalmuti_net.engine import Action, Decision, Observation, Pass, Rules, RulesError
from dalmuti_net.host.settings import PRESETS
from dalmuti_net.lang.i18n import Translator


def sim(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["sim", *argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def seat_rows(out: str) -> dict[str, list[str]]:
    """The per-seat table: seat number -> the rest of its row."""
    rows = {}
    for line in out.splitlines():
        cells = line.split()
        if cells and cells[0].isdigit() and len(cells) == 9:
            rows[cells[0]] = cells[1:]
    return rows


def test_sim_plays_and_prints_a_table_per_seat_and_per_strategy(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = sim(
        capsys,
        "--players",
        "6",
        "--hands",
        "45",
        "--seed",
        "3",
        "--rules",
        "all",
        "--strategies",
        "heuristic,random",
        "--rotate",
    )
    assert code == 0, err
    assert "6 players, 45 hands, seed 3, rotating seats" in out
    assert "merchant_exchange" in out and "misdeal_chance=0.05" in out
    # A table lasts 20 hands: 45 hands take three tables, the last one cut short.
    assert re.search(r"^45 hands over 3 tables: \d+ revolutions?", out, re.MULTILINE)
    rows = seat_rows(out)
    assert sorted(rows) == ["1", "2", "3", "4", "5", "6"]
    for seat, row in rows.items():
        strategy, hands, place, points, gd, gp = row[:6]
        assert strategy == ("heuristic" if int(seat) % 2 else "random")
        assert hands == "45"
        assert 1.0 <= float(place) <= 6.0
        assert 0.0 <= float(points) <= 6.0
        assert int(gd) + int(gp) <= 45
    # Every hand has exactly one Greater Dalmuti and one Greater Peon.
    assert sum(int(row[4]) for row in rows.values()) == 45
    assert sum(int(row[5]) for row in rows.values()) == 45
    strategy_lines = [
        line.split() for line in out.splitlines() if line.startswith(("heuristic ", "random "))
    ]
    assert [cells[:2] for cells in strategy_lines] == [["heuristic", "135"], ["random", "135"]]


def test_sim_is_deterministic_given_the_seed(capsys: pytest.CaptureFixture[str]) -> None:
    args = ("--players", "5", "--hands", "25", "--seed", "9", "--rules", "all")
    first = sim(capsys, *args)
    second = sim(capsys, *args)
    other = sim(capsys, "--players", "5", "--hands", "25", "--seed", "10", "--rules", "all")
    assert first == second
    assert first[0] == 0
    assert other[1] != first[1]


def test_sim_without_scoring_shows_no_points(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = sim(capsys, "--hands", "10", "--rules", "no_scoring", "--strategies", "random")
    assert code == 0
    assert "rules: basic" in out
    rows = seat_rows(out)
    assert len(rows) == 4
    assert all(row[3] == "-" for row in rows.values())


def test_sim_accepts_a_strategy_given_as_module_and_attribute(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = sim(
        capsys, "--hands", "5", "--strategies", "heuristic,dalmuti_net.bots.random_bot:RandomBot"
    )
    assert code == 0, err
    assert "dalmuti_net.bots.random_bot:RandomBot" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["--strategies", "heuristic,clever"],
            f"unknown strategy 'clever'; known strategies: {', '.join(strategy_names())} ",
        ),
        (["--strategies", "heuristic,,random"], "comma-separated strategy names"),
        (["--strategies", "no.such.module:Bot"], "cannot import 'no.such.module'"),
        (["--rules", "merchant_exchange,sparkles"], "unknown rule option 'sparkles'"),
        (["--rules", "none,philanthropic_scoring"], "philanthropic_scoring needs scoring"),
        (["--rules", "misdeal_chance=2"], "misdeal_chance must be a number from 0 (off) to 1"),
        (["--rules", "misdeal_chance"], "misdeal_chance needs a value"),
        (["--rules", "stripped_decks=maybe"], "stripped_decks is on or off"),
        (["--players", "9"], "--players must be from 4 to 8, not 9"),
        (
            ["--players", "4", "--strategies", "random,random,random,random,random"],
            "5 strategies named for 4 seats",
        ),
        (["--hands", "0"], "--hands must be at least 1"),
    ],
)
def test_bad_input_gets_a_clear_error(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code, out, err = sim(capsys, *argv)
    assert code == 2
    assert message in err
    assert out == ""


def test_a_malformed_number_is_an_argparse_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["sim", "--players", "six"])
    assert exit_info.value.code == 2
    assert "argument --players: a number of players, or a comma list such as 4,6,8, not 'six'" in (
        capsys.readouterr().err
    )


class PassingBot:
    """Always passes, even when it must lead: the game refuses it."""

    name = "passer"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed

    def choose(self, observation: Observation, decision: Decision) -> Action:
        return Pass()


def test_a_bot_answering_illegally_is_named(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(STRATEGIES, "passer", PassingBot)
    code, _, err = sim(capsys, "--strategies", "passer", "--hands", "1")
    assert code == 1
    assert "strategy 'passer' (player" in err
    assert "with Pass(), which the game refused" in err


def test_rules_start_from_scoring_and_add_options() -> None:
    assert parse_rules("") == Rules(scoring=True)
    assert parse_rules("merchant_exchange, misdeal_chance=0.1") == Rules(
        scoring=True, merchant_exchange=True, misdeal_chance=0.1
    )
    assert parse_rules("all") == PRESETS["all"]
    assert parse_rules("all,no_merchant_exchange,hand_limit=5") == Rules(
        first_deal_revolution=True,
        stripped_decks=True,
        scoring=True,
        hand_limit=5,
        philanthropic_scoring=True,
        misdeal_chance=0.05,
    )
    assert parse_rules("none") == Rules()
    assert parse_rules("scoring=off") == Rules()
    with pytest.raises(RulesError):
        parse_rules("hand_limit=twenty")


def test_rules_take_the_hosts_presets_and_rules_files(tmp_path: Path) -> None:
    for preset, rules in PRESETS.items():
        assert parse_rules(preset) == rules
    assert parse_rules("party,merchant_exchange") == replace(
        PRESETS["party"], merchant_exchange=True
    )
    assert parse_rules("basic,no_scoring") == Rules()
    rules_file = tmp_path / "mine.toml"
    rules_file.write_text("[rules]\nscoring = true\nhand_limit = 7\n", encoding="utf-8")
    assert parse_rules(f"{rules_file},stripped_decks") == Rules(
        scoring=True, hand_limit=7, stripped_decks=True
    )
    with pytest.raises(RulesError, match="after a preset"):
        parse_rules("scoring,party")
    with pytest.raises(RulesError, match="neither a rules file nor a preset"):
        parse_rules(str(tmp_path / "missing.toml"))


def test_the_old_bots_spelling_still_names_the_strategies(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = sim(capsys, "--hands", "3", "--bots", "random", "--rules", "party")
    assert code == 0, err
    assert "first_deal_revolution" in out and "stripped_decks" in out


def test_rotation_moves_every_strategy_round_every_seat() -> None:
    # One strategy against three copies of another: over a round of four tables sharing
    # one seed, the odd one out plays from each player id once.
    result = simulate(
        ["heuristic", "random", "random", "random"],
        Rules(scoring=True, hand_limit=1),
        hands=4,
        seed=1,
        rotate=True,
    )
    assert result.tables == 4
    assert [t.hands for t in result.entrants] == [4, 4, 4, 4]


def test_the_progress_bar_counts_every_hand() -> None:
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    with create_pipe_input() as terminal_input:
        shown = simulate_with_progress(
            ["heuristic", "random"] * 2,
            Rules(scoring=True),
            30,
            seed=4,
            terminal=(DummyOutput(), terminal_input),
        )
    plain = simulate(["heuristic", "random"] * 2, Rules(scoring=True), 30, seed=4)
    assert shown == plain


def test_the_same_seed_gives_the_same_result_for_any_number_of_jobs() -> None:
    """Tables are seeded units of work: two processes play them as one does, in order."""
    rules = Rules(scoring=True, hand_limit=5)
    runs = [
        simulate(["heuristic", "random"] * 2, rules, 23, seed=9, rotate=True, jobs=jobs)
        for jobs in (1, 2, 3)
    ]
    one = runs[0]
    assert one.tables == 5 and one.hands == 23
    for other in runs[1:]:
        assert other == one


def test_progress_counts_every_workers_hands() -> None:
    counted: list[int] = []
    rules = Rules(scoring=True, hand_limit=4)
    result = simulate(
        ["heuristic", "random"] * 2, rules, 12, seed=2, on_hand=lambda: counted.append(1), jobs=2
    )
    assert result.hands == len(counted) == 12


def test_a_bot_answering_illegally_is_named_in_the_language_from_any_process(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import pickle

    monkeypatch.setitem(STRATEGIES, "passer", PassingBot)
    code, _, err = sim(capsys, "--strategies", "passer", "--hands", "1", "--lang", "es")
    assert code == 1
    assert err.startswith("dalmuti sim: la estrategia 'passer' (jugador ")
    assert "con Pass(), que el juego rechazó: " in err
    from dalmuti_net.bots.arena import StrategyError

    with pytest.raises(StrategyError) as caught:
        simulate(["passer"] * 4, Rules(), 1, seed=0)
    back = pickle.loads(pickle.dumps(caught.value))  # as a sim worker sends it back
    assert type(back) is StrategyError and back.values == caught.value.values
    assert back.told(Translator("zh_Hant")._).startswith("策略 'passer'（玩家 ")


def test_the_known_strategies_are_listed_the_languages_way(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, _, err = sim(capsys, "--strategies", "clever", "--lang", "zh-Hant")
    assert code == 2, err
    assert "已知的策略：" + "、".join(strategy_names()) + "（" in err
    assert len(err.strip().splitlines()) == 1


BROKEN_STRATEGY = """\
class Broken:
    name = "broken"

    def __init__(self, seed=None):
        pass

    def choose(self, observation, decision):
        raise RuntimeError("my strategy is broken")
"""


@pytest.mark.parametrize(
    ("language", "told"),
    [
        ("zh-Hant", "dalmuti sim: 策略 'broken'（玩家 0）在 TaxDecision 出錯：RuntimeError: my "),
        ("es", "dalmuti sim: la estrategia 'broken' (jugador 0) falló en TaxDecision: "),
    ],
)
def test_a_strategy_that_raises_is_one_sentence_not_an_unexpected_error(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    language: str,
    told: str,
) -> None:
    (tmp_path / "broken_strategy.py").write_text(BROKEN_STRATEGY, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    strategies = "broken_strategy:Broken,heuristic"
    for more in ([], ["--duplicate", "--deals", "1"]):
        argv = ["--strategies", strategies, "--hands", "1", "--jobs", "1", "--lang", language]
        code, _, err = sim(capsys, *argv, *more)
        assert code == 1 and err.startswith(told) and err.count("\n") == 1, err
        assert "unexpected" not in err and "please report" not in err


@pytest.mark.parametrize(
    ("language", "wanted"),
    [
        ("en", "1 hand over 1 table: 1 revolution (0 greater), 0 misdeals"),
        ("es", "1 mano en 1 mesa: 1 revolución (0 grandes), 0 repartos fallidos"),
    ],
)
def test_the_report_counts_in_plural_forms(
    capsys: pytest.CaptureFixture[str], language: str, wanted: str
) -> None:
    code, out, err = sim(
        capsys, "--players", "4", "--hands", "1", "--seed", "1", "--jobs", "1", "--lang", language
    )
    assert code == 0, err
    assert out.splitlines()[1].startswith(wanted), out
