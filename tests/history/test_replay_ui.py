"""`dalmuti replay` at 80x24: every step of a replay rebuilt from the host's save draws
the screen the player had at that moment (seats, trick, hand, decision, log), and the
keys move by event, by hand, to a hand, to either end; then the final standings."""

from __future__ import annotations

from typing import Any

import pytest
from test_ui_screens import answer
from ui_support import LocalTable, draw, english_by_default

from dalmuti_net.client.ui.replay import Replay
from dalmuti_net.client.ui.replay_app import build_replay_application
from dalmuti_net.engine import Rules
from dalmuti_net.lang.i18n import Translator
from dalmuti_net.rerun.frames import rerun
from dalmuti_net.rerun.save import SavedTable

RULES = Rules(scoring=True, hand_limit=3, merchant_exchange=True)
LOG_RULE = {"en": "── Log and chat", "zh_Hant": "── 紀錄與聊天", "es": "── Registro"}


def above_the_log(screen: str, language: str) -> str:
    """The table part of a screen: the log below it, and the key lines, are laid out by
    how many key lines there are (the replay's own, not the decision's)."""
    lines = screen.splitlines()
    rules = [i for i, line in enumerate(lines) if line.startswith(LOG_RULE[language])]
    return "\n".join(lines[1 : rules[0] if rules else len(lines) - 2])


def played_live(language: str, seed: int) -> tuple[LocalTable, list[tuple[str, list[Any], bool]]]:
    """A whole table played from the UI; the screen (and log) as it was drawn after the
    message before each one that added a line to the log, and at the end; and whether the
    player had answered the decision on screen by then (keys a save does not hold)."""
    table = LocalTable(RULES, seed=seed, language=language, bots=3)
    ui = table.ui
    # Auto-pass is the client's own line, which no save holds: the player passes by key.
    ui.model.preferences.set_auto_pass(False)
    shown: list[tuple[str, list[Any], bool]] = []
    latest: list[tuple[str, list[Any], bool]] = [("", [], False)]
    receive = ui.on_message

    def taken_in(message: dict[str, Any]) -> Any:
        logged = len(ui.model.log)
        effects = receive(message)
        if len(ui.model.log) > logged:
            shown.append(latest[0])
        # As the last message left it, before any key the player then pressed.
        latest[0] = (draw(ui), list(ui.model.log), ui.model.answered)
        return effects

    ui.on_message = taken_in  # type: ignore[method-assign]
    table.start()
    for _ in range(3000):
        observation = table.session.observation
        assert observation is not None
        if observation.ended is not None:
            break
        if observation.phase == "hand_over":
            table.next_hand()
            continue
        answer(table)
    # The last hand's points stay until a key; the player then sees the final standings.
    table.press("enter")
    shown.append((draw(ui), list(ui.model.log), ui.model.answered))
    return table, shown[1:]  # the first is before anything was logged


def replay_of(table: LocalTable, language: str) -> Replay:
    saved = SavedTable(
        1,
        "Test table",
        {
            "name": "Test table",
            "rules": RULES,
            "seed": table.table.seed,
            "headless": True,
            "table_id": table.table.table_id,
        },
        tuple(table.table.take_journal()),
    )
    me = table.session.player
    assert me is not None
    return Replay(Translator(language), rerun(saved).frames[me], spectator=False)


@pytest.mark.parametrize("language", english_by_default())
def test_every_step_is_the_screen_the_player_had(language: str) -> None:
    table, live = played_live(language, seed=3)
    replay = replay_of(table, language)
    # The three bots sat down in the lobby before the live harness watched: the replay
    # has a step for each join, the live list starts after them.
    lobby = len(replay.steps) - len(live)
    assert lobby == 3 and len(live) > 100
    replay.press("home")
    for _ in range(lobby):
        replay.press("right")
    whole = 0
    for step, (screen, log, answered) in enumerate(live):
        if step:
            replay.press("right")
        assert replay.position == step + lobby
        assert list(replay.ui.model.log) == log, f"step {step}"
        shown = above_the_log(draw(replay.ui), language)
        expected = above_the_log(screen, language)
        if answered:
            # The replay shows the decision as it was asked; live, the player had already
            # answered it (its legal marks gone): the same screen down to the hand.
            hand_rule = next(i for i, line in enumerate(expected.splitlines()) if "──" in line)
            shown, expected = (s.splitlines()[: hand_rule + 1] for s in (shown, expected))
        else:
            whole += 1
        assert shown == expected, f"step {step}"
    assert whole > 30
    # The last step shows the final standings.
    assert replay.ui.t._("Final standings") in draw(replay.ui)
    replay.press("right")
    assert replay.position == len(live) + lobby - 1


def test_keys_move_by_event_hand_and_to_a_hand() -> None:
    table, _ = played_live("en", seed=4)
    replay = replay_of(table, "en")
    assert replay.hands == [1, 2, 3]
    assert "Replay: step 1 of" in draw(replay.ui)
    replay.press("down")
    assert replay.hand == 1 and "Hand 1 of 3 begins." in draw(replay.ui)
    start_of_1 = replay.position
    replay.press("down")
    assert replay.hand == 2
    replay.press("right")
    replay.press("right")
    replay.press("up")  # back to the start of this hand
    assert replay.hand == 2 and replay.ui.model.log[-1].text == "Hand 2 of 3 begins."
    replay.press("up")
    assert replay.position == start_of_1
    replay.press("left")
    assert replay.position == start_of_1 - 1 and replay.hand == 0
    for key in ("g", "3", "enter"):
        replay.press(key)
    assert replay.hand == 3 and "Hand 3 of 3" in draw(replay.ui)
    for key in ("g", "9", "enter"):
        replay.press(key)
    screen = draw(replay.ui)
    assert "There is no hand 9: hands 1 to 3." in screen and replay.hand == 3
    replay.press("g")
    assert "Go to hand:" in draw(replay.ui)
    replay.press("escape")
    replay.press("end")
    assert replay.position == len(replay.steps) - 1
    assert "Final standings" in draw(replay.ui)
    replay.press("home")
    assert replay.position == 0
    assert replay.press("q")


def test_the_replay_runs_in_a_terminal_application() -> None:
    """Keys through prompt_toolkit (pipe input, no terminal) reach the replay."""
    from prompt_toolkit.application import create_app_session
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    table, _ = played_live("es", seed=5)
    replay = replay_of(table, "es")
    with create_pipe_input() as pipe, create_app_session(input=pipe, output=DummyOutput()):
        app = build_replay_application(replay, input=pipe, output=DummyOutput())
        pipe.send_text("g2\r")
        pipe.send_text("\x1b[C\x1b[C")  # right, right
        pipe.send_text("q")
        app.run()
    assert replay.hand == 2 and replay.ui.model.log[-1].text != "Empieza la mano 2 de 3."
    assert "Repetición: paso" in draw(replay.ui)
