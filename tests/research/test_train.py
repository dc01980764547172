"""The learned bot's training recipe: the same seed gives the same weights, byte for byte."""

from __future__ import annotations

import io
import json
import shlex
from pathlib import Path

import pytest

from dalmuti_net.bots import learned, strategy_names
from dalmuti_net.research import train

TINY = [
    "--iterations", "1", "--hands", "2", "--teacher-rollouts", "6", "--steps", "30",
    "--eval-deals", "2", "--players", "4",
]  # fmt: skip


def run(seed: int, folder: Path) -> tuple[str, list[dict[str, object]]]:
    out = folder / f"weights-{seed}.json"
    args = train.parse([*TINY, "--seed", str(seed), "--out", str(out)])
    weights, curve = train.train(args, io.StringIO())
    out.write_text(json.dumps(train.weights_document(weights, args)))
    for row in curve:
        row.pop("cpu_s")
    return out.read_text(), curve


def test_the_same_seed_trains_the_same_weights(tmp_path: Path) -> None:
    first, first_curve = run(5, tmp_path)
    second, second_curve = run(5, tmp_path)
    assert first == second and first_curve == second_curve
    assert train.CANDIDATE not in strategy_names()  # measured, then forgotten
    assert json.loads(first)["features"] == list(learned.FEATURES)
    assert first_curve[-1]["labelled"] > 0 and "margin_4" in first_curve[-1]
    assert first_curve[-1]["weights"] == json.loads(first)["weights"]
    other, _ = run(6, tmp_path)
    assert other != first  # the seed matters: other episodes, other labels


def test_the_shipped_weights_say_how_they_were_trained() -> None:
    shipped = json.loads((Path(learned.__file__).parent / learned.WEIGHTS_FILE).read_text("utf-8"))
    command = shlex.split(shipped["trained_by"])
    assert command[:3] == ["python", "-m", "dalmuti_net.research.train"]
    args = train.parse(command[3:])
    assert args.seed is not None and args.iterations > 0


@pytest.mark.slow
def test_the_documented_command_trains_the_shipped_weights() -> None:
    """The whole recipe (about a quarter of an hour of CPU; bench/README.md)."""
    folder = Path(learned.__file__).parent
    shipped = json.loads((folder / learned.WEIGHTS_FILE).read_text("utf-8"))
    args = train.parse([*shlex.split(shipped["trained_by"])[3:], "--eval-deals", "0"])
    weights, _ = train.train(args, io.StringIO())
    assert weights == shipped["weights"]  # --eval-deals draws nothing from the seed
