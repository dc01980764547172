"""Between hands the screen names the people the next deal waits for: the host's list,
newcomers joining at the next hand included (the screen said "The next hand is being
dealt." while the host waited 30 seconds for a newcomer)."""

from __future__ import annotations

from ui_support import LocalTable

from dalmuti_net.client.session import ClientSession


def test_the_screen_waits_for_whom_the_host_waits_for() -> None:
    local = LocalTable(bots=3)
    local.press("s", "s")
    assert local.session.table is not None and local.session.table.playing
    dan = ClientSession("Dan")
    local.bots[local._connect(dan)] = dan  # a person arriving mid-hand; never says ready
    local.pump()
    for _ in range(500):
        if local.table.hand_over():
            break
        assert local.session.player is not None
        local.table.play_default(local.session.player)
        local.pump()
    assert local.table.hand_over()
    waited = [seat for seat in local.table.lobby.readers() if not seat.ready]
    assert "Dan" in [seat.name for seat in waited]
    assert set(local.ui.model.still_reading()) == {
        local.ui.model.name_of(seat.player) for seat in waited
    }
