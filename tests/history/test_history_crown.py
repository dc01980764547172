"""Only a Greater Revolution takes the crown (RULES.md rule 7): a history's hand line said
"Bo loses the crown (a revolution)" after an ordinary revolution Bo finished 5th in, as if
the revolution had taken it (issue 40, finding 8)."""

from __future__ import annotations

from typing import Any

from dalmuti_net.commands.history_text import hand_summary
from dalmuti_net.history.hands import HandSpan
from dalmuti_net.lang.i18n import Translator
from dalmuti_net.lang.text import tidy

NAMES = {1: "Ana", 2: "Bo", 3: "Cy", 4: "Di", 5: "Eli"}


def hand(revolution: dict[str, Any] | None, finishing: list[int]) -> list[dict[str, Any]]:
    """Hand 3, dealt with Bo the Greater Dalmuti and Eli the Greater Peon."""
    frames: list[dict[str, Any]] = [
        {"type": "hand_started", "hand": 3, "order": [2, 1, 3, 4, 5], "seq": 1},
    ]
    if revolution is not None:
        frames.append({"type": "revolution_declared", **revolution, "seq": 2})
    scores = [0] * len(finishing)
    frames.append({"type": "hand_ended", "hand": 3, "finishing": finishing, "scores": scores})
    return frames


def summary(frames: list[dict[str, Any]], language: str = "en") -> str:
    """The hand's line as the listing prints it."""
    line = hand_summary(Translator(language), frames, HandSpan(3, 0, len(frames)), NAMES)
    return tidy(line)


def test_an_ordinary_revolution_takes_no_crown() -> None:
    line = summary(hand({"player": 1, "greater": False}, [1, 3, 4, 5, 2]))
    assert line == "Hand 3: Ana, Cy, Di, Eli, Bo (a revolution: no taxes); Bo loses the crown"
    assert summary(hand({"player": 1, "greater": False}, [2, 1, 3, 4, 5])) == (
        "Hand 3: Bo, Ana, Cy, Di, Eli (a revolution: no taxes)"
    )


def test_a_greater_revolution_takes_the_crown_and_its_declarer_may_lose_it() -> None:
    greater = {"player": 5, "greater": True}
    assert summary(hand(greater, [5, 1, 3, 4, 2])) == (
        "Hand 3: Eli, Ana, Cy, Di, Bo (Eli's Greater Revolution takes Bo's crown)"
    )
    assert summary(hand(greater, [2, 1, 3, 4, 5])) == (
        "Hand 3: Bo, Ana, Cy, Di, Eli (Eli's Greater Revolution takes Bo's crown);"
        " Eli loses the crown"
    )


def test_the_revolutions_are_told_in_every_language() -> None:
    ordinary = hand({"player": 1, "greater": False}, [1, 3, 4, 5, 2])
    greater = hand({"player": 5, "greater": True}, [2, 1, 3, 4, 5])
    assert summary(ordinary, "es") == (
        "Mano 3: Ana, Cy, Di, Eli, Bo (hubo revolución: sin impuestos); Bo pierde la corona"
    )
    assert summary(greater, "es") == (
        "Mano 3: Bo, Ana, Cy, Di, Eli (la Gran Revolución de Eli le quita la corona a Bo);"
        " Eli pierde la corona"
    )
    assert summary(ordinary, "zh_Hant") == (
        "第 3 手：Ana、Cy、Di、Eli、Bo（有人發動革命：不收稅）；Bo 失去了王冠"
    )
    assert summary(greater, "zh_Hant") == (
        "第 3 手：Bo、Ana、Cy、Di、Eli（Eli 的大革命奪走了 Bo 的王冠）；Eli 失去了王冠"
    )
