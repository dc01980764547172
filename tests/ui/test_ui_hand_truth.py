"""What the screen shows of your hand is the game's state, in every kind of decision.

Real games (a sans-I/O table, random bots, the UI answering by keys) are played with
every optional rule on until the UI has owed each kind of decision; at each one the
hand drawn on the screen is compared with the observation's hand.
"""

from __future__ import annotations

import re

import pytest
from test_ui_screens import answer, playing_table
from ui_support import LocalTable, draw, english_by_default

from dalmuti_net.engine import JESTER, PlacementDecision, Rules
from dalmuti_net.engine.cards import Counts
from dalmuti_net.lang.i18n import LANGUAGES, Translator
from dalmuti_net.protocol.messages import decision_message

ALL_RULES = Rules(
    first_deal_revolution=True,
    stripped_decks=True,
    scoring=True,
    hand_limit=12,
    philanthropic_scoring=True,
    merchant_exchange=True,
    misdeal_chance=0.5,
)
KINDS = {"PlayChooser", "TaxChooser", "RevolutionChooser", "MisdealChooser", "ExchangeChooser"}


def shown_hand(screen: str, t: Translator) -> tuple[int, dict[int, int]]:
    """The card total in the hand's title and (card -> count) as drawn below it."""
    lines = screen.splitlines()
    title_at = next(i for i, line in enumerate(lines) if _is_hand_title(line, t))
    total = _total(lines[title_at])
    assert total is not None
    names = {t.card(card): card for card in range(1, JESTER + 1)}
    shown: dict[int, int] = {}
    for line in lines[title_at + 1 :]:
        found = re.findall(r"(?:(\d+) )?([^\s×✓\d][^×✓]*?) ×(\d+)", line)
        if not found:
            break
        for number, name, count in found:
            card = names[name.strip()]
            assert number == ("" if card == JESTER else str(card))
            shown[card] = int(count)
    return total, shown


def _is_hand_title(line: str, t: Translator) -> bool:
    prefix = t.n_("Your hand: {n} card", "Your hand: {n} cards", 2).split("{n}")[0]
    return prefix.strip() in line


def _total(line: str) -> int | None:
    match = re.search(r"(\d+)", line)
    return int(match.group(1)) if match else None


def held(hand: Counts | None) -> dict[int, int]:
    assert hand is not None
    return {card: hand[card] for card in range(1, JESTER + 1) if hand[card]}


# A revolution is owed to us only when we hold both Jesters, about one hand in forty, so
# this plays some 60 hands per language.
@pytest.mark.parametrize("language", english_by_default())
def test_the_hand_on_screen_is_the_hand_in_every_decision(language: str) -> None:
    seen: set[str] = set()
    for seed in range(1, 40):
        table = LocalTable(ALL_RULES, seed=seed, language=language, bots=5)
        table.start()
        for _ in range(3000):
            observation = table.session.observation
            assert observation is not None
            if observation.ended is not None:
                break
            if observation.phase == "hand_over":
                table.next_hand()
                continue
            chooser = table.ui.model.chooser
            assert chooser is not None, "the table waits for nobody but us"
            kind = type(chooser).__name__
            if kind not in seen or kind != "PlayChooser":
                screen = draw(table.ui)
                seen.add(kind)
                if observation.hand is None:  # a misdeal: the deal is not over
                    assert table.ui.t._("Your hand: not dealt yet") in screen
                    answer(table)
                    continue
                total, shown = shown_hand(screen, table.ui.t)
                assert shown == held(observation.hand), kind
                assert total == sum(shown.values())
            seen.add(kind)
            answer(table)
        if seen >= KINDS:
            return
    raise AssertionError(f"never owed: {KINDS - seen}")


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_the_hand_on_screen_while_seating_a_newcomer(language: str) -> None:
    table = playing_table(language)
    message = decision_message(PlacementDecision(newcomer=3, positions=(2, 3)), decision_id=1)
    table.session.receive(message)
    table.ui.on_message(message)
    observation = table.session.observation
    assert observation is not None and table.ui.model.chooser is not None
    total, shown = shown_hand(draw(table.ui), table.ui.t)
    assert shown == held(observation.hand) and total == sum(shown.values())
