"""The PettingZoo environment: PettingZoo's own tests, one seat's information only, docs."""

from __future__ import annotations

import random
import re
import subprocess
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

with warnings.catch_warnings():
    # pettingzoo.test imports PettingZoo's own games through their deprecated names.
    warnings.simplefilter("ignore", DeprecationWarning)
    from pettingzoo.test import api_test, seed_test

from dalmuti_net import engine
from dalmuti_net.engine import NUM_ACTIONS, IllegalAction, Phase, Rules
from dalmuti_net.research import env, fields_for

# The installed package's copy (package data): CI runs these tests against the wheel.
README = Path(engine.__file__).parent / "README.md"


@pytest.fixture(autouse=True)
def dict_observations_are_meant() -> Iterator[None]:
    """PettingZoo's api_test advises a Box observation space; an action mask needs a dict
    (as in PettingZoo's own classic games), so these two advisories are expected."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "Observation space for each agent probably")
        warnings.filterwarnings("ignore", "Observation is not a NumPy array")
        yield


@pytest.mark.parametrize(
    ("players", "rules"),
    [(4, Rules(scoring=True, hand_limit=3)), (6, Rules.all_optional()), (8, Rules.all_optional())],
)
def test_pettingzoos_api_test(players: int, rules: Rules) -> None:
    api_test(env(players, rules), num_cycles=400)


@pytest.mark.parametrize("players", [4, 6])
def test_pettingzoos_seed_test(players: int) -> None:
    seed_test(lambda: env(players, Rules.all_optional()), num_cycles=300)


def test_a_whole_episode_rewards_what_the_table_scored() -> None:
    table = env(5, Rules(scoring=True, hand_limit=3))
    table.reset(seed=4)
    rng = random.Random(4)
    totals = dict.fromkeys(table.possible_agents, 0.0)
    phases = set()
    while not all(table.terminations.values()):
        observation = table.observe(table.agent_selection)
        legal = np.flatnonzero(observation["action_mask"])
        assert len(legal) > 0 and observation["action_mask"].shape == (NUM_ACTIONS,)
        assert table.game is not None
        phases.add(table.game.phase)
        table.step(int(rng.choice(legal)))
        for name, reward in table.rewards.items():
            totals[name] += reward
    assert table.game is not None and table.game.phase is Phase.ENDED
    assert Phase.TAXES in phases and Phase.PLAY in phases
    returns = table.game.returns()
    assert totals == {f"player_{p}": float(points) for p, points in returns.items()}
    # Three hands of five players: 4 + 3 + 2 + 1 + 0 points a hand.
    assert sum(returns.values()) == 30


def test_the_vector_is_the_fields_documented() -> None:
    documented = re.findall(r"^\| `(\w+)` \| ", README.read_text(), re.MULTILINE)
    for players in (4, 6, 8):
        fields = fields_for(players)
        assert [name for name, _, _ in fields] == documented
        table = env(players)
        table.reset(seed=1)
        vector = table.observe(table.agent_selection)["observation"]
        assert vector.shape == (sum(length for _, length, _ in fields),)
    assert "At 6 players that is 247 numbers" in README.read_text()
    assert sum(length for _, length, _ in fields_for(6)) == 247


@pytest.mark.parametrize("seed", range(6))
def test_another_seats_hidden_cards_do_not_change_an_observation(seed: int) -> None:
    """RULES.md rule 20: two games that differ only in the cards other seats hold (and the
    choices the observer could not see) look the same to the observer."""
    table = env(6, Rules.all_optional())
    table.reset(seed=seed)
    rng = random.Random(seed)
    for _ in range(rng.randrange(5, 120)):
        observation = table.observe(table.agent_selection)
        table.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    real = table.game
    assert real is not None and real.phase is not Phase.ENDED
    for viewer in range(6):
        agent = f"player_{viewer}"
        seen = table.observe(agent)
        other = real.sample_hidden(viewer, random.Random(seed * 10 + viewer))
        hands, redealt = real.debug_hands(), other.debug_hands()
        table.game = other
        try:
            again = table.observe(agent)
        finally:
            table.game = real
        assert hands[viewer] == redealt[viewer]
        assert np.array_equal(seen["observation"], again["observation"])
        assert np.array_equal(seen["action_mask"], again["action_mask"])
    # The check means something: somewhere the others' cards were really dealt again.
    assert any(real.sample_hidden(v, random.Random(v)).debug_hands() != hands for v in range(6))


def test_the_training_loop_example_runs() -> None:
    text = README.read_text()
    section = text[text.index("## A PettingZoo environment for training") :]
    code = re.search(r"```python\n(.*?)```", section, re.DOTALL)
    assert code is not None
    lines = code.group(1).strip().splitlines()
    assert len(lines) <= 30
    done = subprocess.run(
        [sys.executable, "-c", code.group(1)], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    assert re.fullmatch(r"\d+ action ids rated\n", done.stdout)


def test_the_game_never_imports_numpy_or_pettingzoo() -> None:
    probe = (
        "import sys; import dalmuti_net.cli, dalmuti_net.host.server, dalmuti_net.bots,"
        " dalmuti_net.client.ui.app, dalmuti_net.engine;"
        " bad = [m for m in ('numpy', 'pettingzoo', 'gymnasium') if m in sys.modules];"
        " sys.exit(str(bad) if bad else 0)"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr + done.stdout


def test_research_imports_only_the_engine_of_the_project() -> None:
    """The environment imports only the engine; the training recipe (train.py) also the
    bots it learns from and measures against."""
    import ast

    import dalmuti_net.research

    folder = Path(dalmuti_net.research.__file__).parent
    for source in folder.glob("*.py"):
        below = ("engine", "bots") if source.name == "train.py" else ("engine",)
        for node in ast.walk(ast.parse(source.read_text())):
            if isinstance(node, ast.ImportFrom):
                module = node.module or ""
                inside = node.level == 1 or (node.level == 2 and module.split(".")[0] in below)
                outside = node.level == 0 and not module.startswith("dalmuti_net")
                assert inside or outside, (source.name, "." * node.level + module)
            elif isinstance(node, ast.Import):
                assert not any(alias.name.startswith("dalmuti_net") for alias in node.names)


def test_an_id_the_mask_leaves_out_is_refused_and_changes_nothing() -> None:
    table = env(4, Rules(scoring=True, hand_limit=1))
    table.reset(seed=9)
    agent = table.agent_selection
    mask = table.observe(agent)["action_mask"]
    before = table.observe(agent)["observation"]
    table._cumulative_rewards[agent] = 1.0  # as if a reward were waiting to be read
    with pytest.raises(IllegalAction):
        table.step(int(np.flatnonzero(mask == 0)[0]))
    assert table.agent_selection == agent
    assert table._cumulative_rewards[agent] == 1.0
    assert np.array_equal(table.observe(agent)["observation"], before)


def field_of(vector: np.ndarray, players: int, name: str) -> list[float]:
    start = 0
    for field, length, _ in fields_for(players):
        if field == name:
            return [float(v) for v in vector[start : start + length]]
        start += length
    raise KeyError(name)


def test_a_misdeal_decision_sees_the_card_it_is_about() -> None:
    """The seat deciding where a misdealt card goes is shown that card and its intended
    receiver (the vector had neither: the decision was taken blind)."""
    seen_decisions = 0
    for seed in range(8):
        table = env(4, Rules(misdeal_chance=1.0, hand_limit=3))
        table.reset(seed=seed)
        rng = random.Random(seed)
        while not all(table.terminations.values()):
            agent = table.agent_selection
            seen, decision = table.decision(agent)
            vector = table.observe(agent)["observation"]
            if isinstance(decision, engine.MisdealDecision):
                seen_decisions += 1
                card = field_of(vector, 4, "misdeal_card")
                assert card == [1.0 if k == decision.card else 0.0 for k in range(1, 14)]
                order = seen.order
                me = order.index(int(agent.removeprefix("player_")))
                seats = [order[(me + k) % 4] for k in range(4)]
                to = field_of(vector, 4, "misdeal_to")
                assert to == [1.0 if p == decision.intended else 0.0 for p in seats]
            elif seen.misdeal is None:
                assert field_of(vector, 4, "misdeal_card") == [0.0] * 13
            table.step(int(rng.choice(np.flatnonzero(table.observe(agent)["action_mask"]))))
    assert seen_decisions > 0


def test_a_policy_can_answer_with_the_engines_own_decision() -> None:
    """``decision(agent)`` gives the seat's Observation and the decision it owes, whose
    legal answers are exactly the ids the mask marks; ``action_id`` maps one back."""
    table = env(6, Rules.all_optional())
    table.reset(seed=3)
    rng = random.Random(3)
    for _ in range(300):
        if all(table.terminations.values()):
            break
        agent = table.agent_selection
        seen, decision = table.decision(agent)
        assert decision is not None and seen.viewer == int(agent.removeprefix("player_"))
        answers = engine.legal_answers(decision)
        ids = sorted(table.action_id(a) for a in answers)
        assert ids == list(np.flatnonzero(table.observe(agent)["action_mask"]))
        for other in table.agents:
            if other != agent and table.game is not None and table.game.phase is Phase.PLAY:
                assert table.decision(other)[1] is None
        table.step(table.action_id(rng.choice(answers)))
