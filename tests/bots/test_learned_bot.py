"""The learned bot: registered like the others, legal and cheap, its weights shipped and
readable without numpy."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from dalmuti_net.bots import LearnedBot, make_strategy, strategy_names
from dalmuti_net.bots import learned as learned_module
from dalmuti_net.bots.arena import simulate
from dalmuti_net.bots.learned import FEATURES, WEIGHTS_FILE, load_weights
from dalmuti_net.bots.names import STRATEGY_NAMES
from dalmuti_net.engine import Game, Phase, PlayDecision, Rules, is_legal_answer
from dalmuti_net.engine.actions import legal_answers

WEIGHTS = Path(learned_module.__file__).parent / WEIGHTS_FILE


def test_it_is_registered_and_named_like_the_others() -> None:
    assert "learned" in strategy_names()
    bot = make_strategy("learned", 5)
    assert isinstance(bot, LearnedBot) and bot.name == "learned"
    assert STRATEGY_NAMES["learned"] == "Learned bot"


def test_the_weights_ship_as_small_package_data_for_these_features() -> None:
    assert WEIGHTS.stat().st_size < 1_000_000
    document = json.loads(WEIGHTS.read_text("utf-8"))
    assert document["features"] == list(FEATURES)
    assert load_weights() == [float(w) for w in document["weights"]]
    # pyproject's package-data globs take it into the wheel.
    pyproject = (Path(__file__).parents[2] / "pyproject.toml").read_text()
    assert '"**/*.json"' in pyproject
    # and the trained weights are not the heuristic's starting point.
    start = [0.0] * len(FEATURES)
    start[FEATURES.index("heuristic_choice")] = 1.0
    assert load_weights() != start


def test_weights_for_other_features_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="weights needed"):
        LearnedBot(0, [1.0])


def games(seed: int, players: int, rules: Rules) -> Iterator[tuple[Game, int]]:
    game = Game(list(range(players)), rules, seed)
    views = {p: game.observation(p) for p in range(players)}
    game.start()
    bots = {p: LearnedBot(p) for p in range(players)}
    while game.phase is not Phase.ENDED:
        if game.phase is Phase.HAND_OVER:
            game.begin_next_hand()
            continue
        player, decision = next(iter(game.pending().items()))
        action = bots[player].choose(views[player], decision)
        assert is_legal_answer(decision, action), (decision, action)
        yield game, player
        game.apply(player, action)


@pytest.mark.parametrize(
    ("players", "rules"),
    [
        (4, Rules(scoring=True, hand_limit=4)),
        (6, Rules.all_optional(0.5)),
        (8, Rules.all_optional()),
    ],
)
def test_it_only_ever_picks_a_legal_answer(players: int, rules: Rules) -> None:
    seen = 0
    for seed in range(3):
        for _ in games(seed, players, replace_limit(rules, 4)):
            seen += 1
    assert seen > 100


def replace_limit(rules: Rules, hands: int) -> Rules:
    from dataclasses import replace

    return replace(rules, hand_limit=hands)


def test_each_decision_scores_every_legal_play_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The cost of a decision, counted rather than timed: one feature vector per legal
    answer (and one heuristic choice), so it is bounded by the engine's answer list.
    bench/learned.py times it."""
    scored: list[int] = []
    real = learned_module.move_features
    monkeypatch.setattr(
        learned_module,
        "move_features",
        lambda *args: scored.append(1) or real(*args),
    )
    game = Game([0, 1, 2, 3, 4, 5], Rules(scoring=True, hand_limit=2), 11)
    views = {p: game.observation(p) for p in range(6)}
    game.start()
    bot = LearnedBot(0)
    rng = random.Random(11)
    decisions = 0
    while game.phase is not Phase.ENDED:
        if game.phase is Phase.HAND_OVER:
            game.begin_next_hand()
            continue
        player, decision = next(iter(game.pending().items()))
        scored.clear()
        action = bot.choose(views[player], decision)
        if isinstance(decision, PlayDecision):
            hand = views[player].hand
            assert hand is not None
            goes_out = any(s.count == sum(hand) for s in decision.sets)
            assert len(scored) == (0 if goes_out else len(legal_answers(decision)))
            decisions += 1
        game.apply(player, action if rng.random() < 0.8 else rng.choice(legal_answers(decision)))
    assert decisions > 50


def test_it_plays_with_the_standard_library_only() -> None:
    probe = (
        "import sys; sys.modules['numpy'] = None\n"
        "from dalmuti_net.bots.arena import simulate\n"
        "from dalmuti_net.engine import Rules\n"
        "r = simulate(['learned', 'heuristic'] * 2, Rules(scoring=True), 3, seed=1)\n"
        "assert r.hands == 3\n"
        "bad = [m for m in ('numpy', 'pettingzoo') if sys.modules.get(m) is not None]\n"
        "sys.exit(str(bad) if bad else 0)\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr + done.stdout


def test_it_is_deterministic_whatever_the_seed() -> None:
    first = simulate(["learned", "heuristic"] * 2, Rules(scoring=True), 4, seed=3)
    second = simulate(["learned", "heuristic"] * 2, Rules(scoring=True), 4, seed=3)
    assert first.by_strategy["learned"] == second.by_strategy["learned"]


def test_its_bot_has_a_name_in_every_language() -> None:
    from dalmuti_net.commands.bot import default_bot_name
    from dalmuti_net.lang.i18n import Translator

    assert default_bot_name(Translator("en"), "learned") == "Learned bot"
    assert default_bot_name(Translator("es"), "learned") == "Bot entrenado"
    assert default_bot_name(Translator("zh_Hant"), "learned") == "學習型機器人"
