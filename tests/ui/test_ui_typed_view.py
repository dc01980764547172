"""The typed view (issue 39): what every front end shows comes from the model as frozen
typed data, the seats' rows built once, in the viewer's language, with no key named."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from ui_support import LocalTable

from dalmuti_net.client.model.display import Display, SeatRow, display
from dalmuti_net.engine import Rules
from dalmuti_net.lang.i18n import Translator


def walk(value: Any) -> Any:
    """The view as JSON-able data, every level frozen on the way."""
    if dataclasses.is_dataclass(value):
        assert type(value).__dataclass_params__.frozen, type(value)  # type: ignore[attr-defined]
        return {f.name: walk(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, tuple):
        return [walk(item) for item in value]
    assert not isinstance(value, list | dict | set), value
    return value


def test_the_view_of_a_hand_is_frozen_typed_and_json() -> None:
    table = LocalTable(Rules(scoring=True, hand_limit=1), language="es", seed=4)
    table.press("s")
    view = display(table.ui.model)
    assert isinstance(view, Display) and view.table is not None and view.lobby is None
    json.dumps(walk(view), ensure_ascii=False)
    seats = view.table.seats
    assert all(isinstance(seat, SeatRow) for seat in seats) and len(seats) == 4
    t = Translator("es")
    mine = [seat for seat in seats if seat.me]
    assert [seat.name for seat in mine] == [t._("{name} (you)").format(name="Ana")]
    assert view.table.columns[-1] == t._("Score") and all(s.score == 0 for s in seats)
    assert sum(seat.cards for seat in seats) == 80


def test_the_lobby_view_has_its_rules_as_data() -> None:
    table = LocalTable(Rules(scoring=True, hand_limit=3))
    view = display(table.ui.model)
    assert view.lobby is not None and view.table is None
    limit = next(rule for rule in view.lobby.rules if rule.key == "hand_limit")
    assert (limit.value, limit.switch, limit.low) == ("3", False, 1)
    assert "start" in view.can and "set_rule" in view.can  # Ana is the host player
    json.dumps(walk(view))


def test_no_text_of_the_view_names_a_terminal_key() -> None:
    table = LocalTable(Rules(scoring=True, hand_limit=1), seed=4)
    table.press("s")
    texts: list[str] = []

    def strings(value: Any) -> None:
        if isinstance(value, str):
            texts.append(value)
        elif isinstance(value, list):
            for item in value:
                strings(item)
        elif isinstance(value, dict):
            for item in value.values():
                strings(item)

    for _ in range(60):
        strings(walk(display(table.ui.model)))
        if table.ui.model.choosing is not None:
            table.press("p" if table.ui.model.choosing.kind == "play" else "enter")
        table.pump()
    for text in texts:
        for keyed in ("press Enter", "Esc ", " with p", "with ↓", "Tab", "decline with d"):
            assert keyed not in text, text
