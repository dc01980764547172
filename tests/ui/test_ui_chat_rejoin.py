"""Chat said before a drop is read again on coming back, where it was said among the
hand's events (issue 40, finding 2): it was told above the hand so far (out of sight on a
full screen), then below it, out of order. The snapshot now says after how many of its
hand events each line was said."""

from __future__ import annotations

from ui_support import LocalTable

from dalmuti_net.client.runner import Status
from dalmuti_net.client.session import ClientSession
from dalmuti_net.client.ui.state import ClientUi
from dalmuti_net.lang.i18n import Translator


def hand_so_far(ui: ClientUi) -> list[str]:
    """The log's events and chat from the hand's first line on."""
    lines = [line.text for line in ui.model.log if line.kind in ("event", "chat")]
    return lines[lines.index("Hand 1 begins.") :]


def test_chat_comes_back_where_it_was_said_on_a_rejoin() -> None:
    local = LocalTable(seed=2)
    local.start()
    local.send({"type": "chat", "text": "good luck"})
    for turn in range(6):  # the hand goes on: the turn timer answers for Ana
        assert local.session.player is not None
        local.table.play_default(local.session.player)
        local.pump()
        if turn == 2:
            local.send({"type": "chat", "text": "my turn already?"})
    local.send({"type": "chat", "text": "brb"})
    seen = hand_so_far(local.ui)
    local.table.disconnected(local.ui_connection)
    local.pump()

    back = ClientSession("Ana", token=local.session.token)
    back.table_id = local.table.table_id
    ui = ClientUi(Translator("en"), back, address="test")
    ui.on_status(Status.CONNECTED)
    connection = local.table.connect()
    assert connection is not None
    local._send(connection, back.hello())
    for _ in range(5):
        for message in local._take(connection):
            back.receive(message)
            ui.on_message(message)
        if back.proof_to_send is not None:
            local._send(connection, back.proof_to_send)
            back.proof_to_send = None
    told = hand_so_far(ui)
    assert told.index("Ana: good luck") < told.index("Ana: my turn already?")
    assert told == seen
