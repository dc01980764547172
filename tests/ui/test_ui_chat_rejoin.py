"""Chat said before a drop is read again on coming back, at the foot of the log where the
newest lines are: it was told above the hand so far, out of sight on a full screen."""

from __future__ import annotations

from ui_support import LocalTable

from dalmuti_net.client.runner import Status
from dalmuti_net.client.session import ClientSession
from dalmuti_net.client.ui.state import ClientUi
from dalmuti_net.lang.i18n import Translator


def test_chat_comes_after_the_hand_so_far_on_a_rejoin() -> None:
    local = LocalTable(seed=2)
    local.start()
    local.send({"type": "chat", "text": "good luck"})
    for _ in range(6):  # the hand goes on: the turn timer answers for Ana
        assert local.session.player is not None
        local.table.play_default(local.session.player)
        local.pump()
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
    told = [line.text for line in ui.log]
    assert "Ana: good luck" in told
    events = [i for i, line in enumerate(ui.log) if line.kind == "event"]
    assert events and told.index("Ana: good luck") > events[-1], told
