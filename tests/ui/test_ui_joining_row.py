"""Who joins at the next hand, as a typed row every front end takes from the model
(issue 40, finding 8: no "Joining next hand: Fay" row on the phone); the terminal and the
plain table worked it out each their own way."""

from __future__ import annotations

from ui_support import LocalTable, draw

from dalmuti_net.client.model.seat_marks import joining_row
from dalmuti_net.client.session import ClientSession
from dalmuti_net.engine import Rules
from dalmuti_net.lang.i18n import Translator


def test_the_next_hands_newcomers_make_a_row_of_their_own() -> None:
    local = LocalTable(Rules(hand_limit=3), seed=5, bots=3)
    local.start()
    ui = local.ui
    assert joining_row(ui.t, ui.model.table, local.session.observation, ui.model.name_of) is None
    local._connect(ClientSession("Fay"))
    local.pump()
    row = joining_row(ui.t, ui.model.table, local.session.observation, ui.model.name_of)
    assert row is not None and row.names == ("Fay",) and len(row.players) == 1
    assert row.text == "Joining next hand: Fay"
    assert "Joining next hand: Fay" in draw(ui, 80, 30)
    es = joining_row(Translator("es"), ui.model.table, local.session.observation, ui.model.name_of)
    zh = joining_row(
        Translator("zh_Hant"), ui.model.table, local.session.observation, ui.model.name_of
    )
    assert es is not None and es.text == "Entran en la próxima mano: Fay"
    assert zh is not None and "Fay" in zh.text and "Joining" not in zh.text
