"""A 60x20 terminal keeps every seat's tags and at least three log lines (issue 33.7),
with 4, 5 and 8 seats, in every language (Chinese names and roles are wide)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from test_ui_screens import answer
from ui_support import LocalTable, draw

from dalmuti_net.client.model.display import seat_rows as model_seat_rows
from dalmuti_net.client.model.rules_menu import clocks_text
from dalmuti_net.client.ui.screen import LOG_MIN_LINES, fit_name
from dalmuti_net.engine import Rules
from dalmuti_net.lang.i18n import LANGUAGES, Translator
from dalmuti_net.lang.words import ROLE_SYMBOLS

COLS, ROWS = 60, 20


def mark_seats(table: LocalTable) -> None:
    """As the host's table message says it: a bot stands in for the second seat (its
    player dropped), the third seat's player is offline."""
    assert table.session.table is not None
    players = []
    for index, seat in enumerate(table.session.table.players):
        if index == 1:
            seat = replace(seat, kind="human", connected=False, stand_in=True)
        elif index == 2:
            seat = replace(seat, kind="human", connected=False)
        players.append(seat)
    table.session.table = replace(table.session.table, players=tuple(players))


def log_rows(screen: list[str], t: Translator) -> int:
    """Rows between the log's title and the footer (two lines of keys)."""
    title = next(i for i, line in enumerate(screen) if line.startswith("── " + t._("Log and chat")))
    return len(screen) - 2 - title - 1


def seat_rows(screen: list[str]) -> list[str]:
    symbols = set(ROLE_SYMBOLS.values())
    return [line for line in screen if line[2:3] in symbols]


@pytest.mark.parametrize("language", list(LANGUAGES))
@pytest.mark.parametrize("seats", [4, 5, 8])
def test_60x20_keeps_the_seat_tags_and_three_log_lines(language: str, seats: int) -> None:
    t = Translator(language)
    table = LocalTable(Rules(scoring=True, hand_limit=1), seed=7, language=language, bots=seats - 1)
    table.start()
    decisions = 0
    for _ in range(500):
        observation = table.session.observation
        assert observation is not None
        if table.ui.model.results is not None or observation.phase in ("hand_over", "ended"):
            break
        assert table.ui.model.chooser is not None, "the table waits for nobody but us"
        mark_seats(table)
        screen = draw(table.ui, COLS, ROWS).splitlines()
        assert log_rows(screen, t) >= LOG_MIN_LINES, "\n".join(screen)
        rows = seat_rows(screen)
        assert len(rows) == seats, "\n".join(screen)
        for seat, row in zip(model_seat_rows(table.ui.model, observation), rows, strict=True):
            for flag in seat.flags:
                assert f"  {flag.text}" in row, f"{flag!r} is missing:\n" + "\n".join(screen)
        if observation.top_player is not None and observation.phase == "play":
            at = next(i for i, line in enumerate(screen) if line.startswith(t._("On the table:")))
            story = " ".join(screen[at : at + 2])  # one line, or two (then a rule or the hand)
            top = table.ui.model.seat_name(observation.top_player)
            assert top in story, "the set to beat and who played it:\n" + "\n".join(screen)
        names = [row[5:].split("  ")[0].strip() for row in rows]
        assert len(set(names)) == seats, names  # cut names still tell the seats apart
        decisions += 1
        answer(table)
    assert decisions >= 3
    assert t._("bot stands in") in "\n".join(screen)


def test_a_cut_name_keeps_its_number() -> None:
    assert fit_name("Random bot (3)", 11) == "Random… (3)"
    assert fit_name("Random bot (3)", 14) == "Random bot (3)"
    assert fit_name("Ana (you)", 20) == "Ana (you)" + " " * 11
    assert fit_name("Bartholomew", 8) == "Barthol…"  # no number to keep


@pytest.mark.parametrize("language", list(LANGUAGES))
@pytest.mark.parametrize("seats", [5, 8])
def test_60x20_lobby_keeps_every_seat_and_what_it_waits_for(language: str, seats: int) -> None:
    """Eight seats used to push the lobby's last lines off a 60x20 screen: "press r when
    you are ready" was cut in two, the host player's "Enough players" was gone."""
    from ui_support import SecondPlayer

    t = Translator(language)
    rules = Rules(scoring=True, first_deal_revolution=True, stripped_decks=True, hand_limit=20)
    table = LocalTable(rules, language=language, bots=seats - 2)
    bo = SecondPlayer(table, language)
    waiting = t._("Waiting for the host player to start.")
    enough = t.n_(
        "Enough players. Not ready yet: {names}.",
        "Enough players. Not ready yet: {names}.",
        1,
    ).format(names="Bo")
    for ui, sentence in ((bo.ui, waiting), (table.ui, enough)):
        screen = draw(ui, COLS, ROWS).splitlines()
        title = next(
            i for i, line in enumerate(screen) if line.startswith("── " + t._("Log and chat"))
        )
        above = "".join(line.strip() for line in screen[:title])
        assert "".join(sentence.split()) in "".join(above.split()), "\n".join(screen)
        for seat in table.ui.model.table.players:  # type: ignore[union-attr]
            assert seat.name in "\n".join(screen)
        clocks = "".join(clocks_text(t, ui.model.table).split())
        assert clocks in "".join(above.split())  # whole, not cut at two lines


def test_the_qr_code_in_the_log_is_drawn_whole_or_not_at_all() -> None:
    """The host player's log had the web table's QR code cut by its edge (at 80x24 the top
    rows were gone: no phone can scan that). It is one drawing: whole, or left out for the
    lines around it (the address is told in words too)."""
    from dalmuti_net.web.qr import qr_lines

    table = LocalTable(bots=3)
    drawing = qr_lines("http://127.0.0.1:7401/")
    table.ui.model.add_log("info", "Phones join at: http://127.0.0.1:7401/")
    table.ui.model.add_log("drawing", "\n".join(drawing))
    for cols, rows in ((60, 20), (80, 24), (120, 40), (100, 60)):
        screen = draw(table.ui, cols, rows)
        shown = [line for line in drawing if line.rstrip() in screen]
        assert len(shown) in (0, len(drawing)), (cols, rows, screen)
        assert "Phones join at" in screen
        if (cols, rows) == (100, 60):  # room for it: whole, in order
            assert "\n".join(line.rstrip() for line in drawing) in screen
        elif cols >= 110:  # the log's panel beside the chat's: whole, row by row
            assert len(shown) == len(drawing)
    table.ui.model.add_log("info", "Bo joins the table.")
    screen = draw(table.ui, 80, 24)
    assert "Bo joins the table." in screen and "Phones join at" in screen
