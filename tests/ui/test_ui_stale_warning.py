"""A warning about a choice belongs to that choice: when the host moves on without it (the
turn timer made the default move), the next decision is not shown under the old warning."""

from __future__ import annotations

from ui_support import LocalTable

from dalmuti_net.engine import PlayDecision


def test_a_warning_goes_when_the_decision_it_was_about_does() -> None:
    local = LocalTable(seed=4)
    local.start()
    for _ in range(200):
        decision = local.session.decision
        if isinstance(decision, PlayDecision) and decision.to_beat is None:
            break
        assert local.session.player is not None
        local.table.play_default(local.session.player)  # the timer answers, not a key
        local.pump()
    else:
        raise AssertionError("never led a trick")
    local.press("p")  # a leader may not pass: explained
    assert local.ui.model.notice is not None and local.ui.model.notice.level == "warning"
    owed = local.session.decision
    local.table.play_default(local.session.player)
    local.pump()
    assert local.session.decision is not owed
    assert local.ui.model.notice is None, local.ui.model.notice
