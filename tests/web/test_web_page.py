"""The page's own logic in headless Chromium, with no host behind it: its WebSocket, its
timers and its clock are stand-ins the test moves (installed before ``app.js`` runs), so
what the page does after a hang-up or with a view is checked without waiting on anything.

Skipped, as the other browser tests are, without chromium and chromium-driver.
"""

from __future__ import annotations

import functools
import json
import threading
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

import dalmuti_net.web
from dalmuti_net.engine import CardSet, PlayDecision, TaxDecision
from dalmuti_net.lang.i18n import Translator
from dalmuti_net.protocol.resume import seat_id
from dalmuti_net.web.view import languages, page_strings
from tests.web import test_web_browser as phones
from tests.web.test_web_browser import chromium
from tests.web.test_web_view import HAND, model_at, owing, tap, view

pytestmark = phones.pytestmark  # skipped without chromium and chromium-driver

# The installed package's files, not the checkout's: CI's second leg runs the suite from
# the sdist without its dalmuti_net/ folder, against the wheel.
STATIC = Path(dalmuti_net.web.__file__).resolve().parent / "static"

STAND_INS = """
window.fake = {now: 1e12, sockets: [], timers: []};
Date.now = () => window.fake.now;
window.setTimeout = (run, ms) => { window.fake.timers.push({run: run, ms: ms}); return 0; };
class FakeSocket {
  constructor(url) {
    this.url = url; this.readyState = 0; this.sent = []; window.fake.sockets.push(this);
  }
  send(text) { this.sent.push(JSON.parse(text)); }
  close() { if (this.readyState !== 3) { this.readyState = 3; this.onclose && this.onclose({}); } }
}
FakeSocket.CONNECTING = 0; FakeSocket.OPEN = 1; FakeSocket.CLOSING = 2; FakeSocket.CLOSED = 3;
window.WebSocket = FakeSocket;
const newest = () => window.fake.sockets[window.fake.sockets.length - 1];
// The host's side of the newest connection: it opens, says something, hangs up.
window.hostOpens = () => { const s = newest(); s.readyState = 1; s.onopen && s.onopen({}); };
window.hostSays = (message) => newest().onmessage({data: JSON.stringify(message)});
window.hostSaysText = (text) => newest().onmessage({data: text});
window.hostHangsUp = () => { const s = newest(); s.readyState = 3; s.onclose && s.onclose({}); };
// The page's timers that are due, run (its retry among them); the waits they asked for.
window.timersRun = () => {
  const due = window.fake.timers.splice(0);
  for (const timer of due) timer.run();
  return due.map((timer) => timer.ms);
};
"""


class QuietFiles(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def page_url() -> Iterator[str]:
    """The page's own files, served on 127.0.0.1 (no table behind them)."""
    server = ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(QuietFiles, directory=str(STATIC))
    )
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/index.html"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="module")
def page(page_url: str) -> Iterator[Any]:
    with chromium() as driver:
        driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": STAND_INS})
        yield driver


def load(driver: Any, url: str) -> None:
    driver.get(url)
    assert driver.execute_script("return window.fake.sockets.length") == 1


def test_a_host_that_hangs_up_at_once_is_asked_ever_more_slowly(page: Any, page_url: str) -> None:
    """A host (or a program at its address) that takes the connection and hangs up at
    once was asked again every half second for ever: the page reset its wait as soon as a
    connection opened. It waits twice as long each time now, up to 8 s, and comes back at
    once again only after a connection that stayed up."""
    load(page, page_url)
    waits = []
    for _ in range(6):
        page.execute_script("hostOpens(); fake.now += 300; hostHangsUp();")
        [wait] = page.execute_script("return timersRun();")
        waits.append(wait)
    assert waits == [500, 1000, 2000, 4000, 8000, 8000]
    # A host not there at all (the connection never opens): the wait keeps growing.
    page.execute_script("hostHangsUp();")
    assert page.execute_script("return timersRun();") == [8000]
    # A connection that stayed up a minute: the next try comes soon again.
    page.execute_script("hostOpens(); fake.now += 60000; hostHangsUp();")
    assert page.execute_script("return timersRun();") == [500]
    page.execute_script("hostOpens(); fake.now += 300; hostHangsUp();")
    assert page.execute_script("return timersRun();") == [1000]
    assert page.execute_script("return fake.sockets.length") == 10


def hello(language: str = "en") -> dict[str, Any]:
    return {
        "hello": {
            "table": "Friday",
            "table_id": "0123456789abcdef",
            "code_required": False,
            "strings": page_strings(Translator(language)),
            "lang": language,
            "languages": languages(),
            "help": [],
        }
    }


PORTRAIT = {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True}
LANDSCAPE = {"width": 844, "height": 390, "deviceScaleFactor": 1, "mobile": True}
STATUS = "const s = document.getElementById('status'); return [s.innerText, s.className];"


def test_the_connection_line_is_the_views(page: Any, page_url: str) -> None:
    """The page drew its own "Connecting…" and cleared the line at every view, whatever
    the view's ``connection`` said: the line is the view's now (nothing while all is
    well), and the page's own words only for its own link lost."""
    load(page, page_url)
    page.execute_script("hostOpens(); hostSays(arguments[0]);", hello())
    shown = view(model_at("lobby"))
    line = shown["connection"]
    assert (line["text"], line["tone"]) == ("connected", "good")
    page.execute_script("hostSays(arguments[0]);", {"view": shown})
    assert page.execute_script(STATUS) == ["", ""]
    shown["connection"] = {**line, "text": "connecting…", "tone": "warning"}
    page.execute_script("hostSays(arguments[0]);", {"view": shown})
    assert page.execute_script(STATUS) == ["Connecting…", "warning"]
    shown["connection"] = {**line, "text": "disconnected", "tone": "error"}
    page.execute_script("hostSays(arguments[0]);", {"view": shown})
    assert page.execute_script(STATUS) == ["Disconnected", "bad"]
    page.execute_script("hostHangsUp();")
    assert page.execute_script(STATUS) == ["Connection lost, reconnecting…", "bad"]


SLOTS = """
const box = (e) => e.getBoundingClientRect();
return Array.from(document.querySelectorAll("#hand .slot"), (slot) => {
  const card = box(slot.firstElementChild), whole = box(slot);
  return {card: card.bottom - card.top, below: whole.bottom - card.bottom, height: whole.height};
});
"""


def test_a_tax_leaves_no_gap_under_the_cards_and_moves_none(page: Any, page_url: str) -> None:
    """Each card of a tax or a gift kept an empty place under it for the button that takes
    one back: on a phone, a gap under every row. The card not picked fills that place now;
    a picked one gives it to its button, and no slot changes its height."""
    load(page, page_url)
    page.execute_script("hostOpens(); hostSays(arguments[0]);", hello())
    model = owing(TaxDecision(2, HAND, 3))
    page.execute_script("hostSays(arguments[0]);", {"view": view(model)})
    before = page.execute_script(SLOTS)
    assert len(before) == len(set(HAND))
    assert all(slot["below"] < 1 for slot in before), before  # the card down to the slot's foot
    tap(model, do="pick_card", card=12)
    page.execute_script("hostSays(arguments[0]);", {"view": view(model)})
    after = page.execute_script(SLOTS)
    picked = [slot for slot in after if slot["below"] >= 30]  # its take-back under it
    assert len(picked) == 1
    heights = {round(slot["height"]) for slot in before + after}
    assert len(heights) == 1, heights  # nothing moved


def test_the_cards_left_go_once_the_table_is_over(page: Any, page_url: str) -> None:
    """The final standings were drawn above the last hand's leftover cards ("Your hand:
    10 cards"), as if there were still something to play."""
    load(page, page_url)
    page.execute_script("hostOpens(); hostSays(arguments[0]);", hello())
    shown = view(owing(PlayDecision((CardSet(3, 1, 0),), False, None)))
    page.execute_script("hostSays(arguments[0]);", {"view": shown})
    hand = "return document.getElementById('hand').getClientRects().length > 0;"
    assert page.execute_script(hand)
    table = shown["table"]
    table["decision"], table["my_turn"] = None, False
    page.execute_script("hostSays(arguments[0]);", {"view": shown})
    assert page.execute_script(hand)  # waiting for one's turn: the hand stays in sight
    row = {"place": "1st", "name": "Bo", "figure": "6", "points": True, "note": None, "me": False}
    table["standings"] = [row]
    page.execute_script("hostSays(arguments[0]);", {"view": shown})
    assert not page.execute_script(hand)
    assert "Final standings" in page.execute_script("return document.body.innerText;")


LINES = """
const lines = (cell) => { const range = document.createRange(); range.selectNodeContents(cell);
  return new Set(Array.from(range.getClientRects(), (r) => Math.round(r.top))).size; };
return Array.from(document.querySelectorAll("#results th, #results td:first-child"),
  (cell) => [cell.innerText, lines(cell)]);
"""


def test_a_hands_results_keep_places_and_headings_whole_on_a_phone_on_its_side(
    page: Any, page_url: str
) -> None:
    """At 844x390 the results sit in the left column: in Chinese "第 1 名" broke after
    the 1 and "得分" after 得, a character to a line."""
    load(page, page_url)
    page.execute_script("hostOpens(); hostSays(arguments[0]);", hello("zh_Hant"))
    shown = view(owing(PlayDecision((CardSet(3, 1, 0),), False, None), "zh_Hant"))
    shown["table"]["decision"] = None
    roles = ["偉大的達爾穆蒂", "次要達爾穆蒂", "次要農民", "偉大的農民"]
    shown["table"]["results"] = {
        "title": "第 1 手結束",
        "headers": ["名次", "玩家", "下一手身分", "得分", "總分"],
        "rows": [
            {"cells": [f"第 {n} 名", name, role, "+3", "3"], "me": n == 3, "role": None}
            for n, name, role in zip(
                range(1, 5), ["Ana", "Heuristic bot", "Bo", "Cy"], roles, strict=True
            )
        ],
        "notes": [],
        "next": "",
        "last": False,
        "reading": True,
    }
    try:
        page.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", LANDSCAPE)
        page.execute_script("hostSays(arguments[0]);", {"view": shown})
        cells = page.execute_script(LINES)
    finally:
        page.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", PORTRAIT)
    assert len(cells) == 9
    assert [text for text, lines in cells if lines != 1] == []


GONE = """
const gone = document.getElementById("gone");
return [gone.getClientRects().length > 0 ? document.getElementById("gone-text").innerText : "",
  window.fake.sockets[window.fake.sockets.length - 1].readyState, window.fake.timers.length];
"""


@pytest.mark.parametrize(
    "said", ["}{ not json", json.dumps({"view": {"phase": 7, "seats": "everyone"}})]
)
def test_what_the_page_cannot_read_ends_it_in_a_sentence(
    page: Any, page_url: str, said: str
) -> None:
    """Another program at the host's address (issue 38's case) that sent what is not JSON,
    or not a view, left the page frozen on a stale table or half drawn, an uncaught error
    in its console. It says so in one sentence now, closes, and tries no more."""
    load(page, page_url)
    page.execute_script("hostOpens(); hostSays(arguments[0]);", hello("es"))
    page.execute_script("hostSays(arguments[0]);", {"view": view(model_at("lobby", "es"))})
    page.execute_script("hostSaysText(arguments[0]);", said)
    text, state, timers = page.execute_script(GONE)
    assert text == page_strings(Translator("es"))["unreadable"]
    assert text.startswith("Lo que responde en esta dirección")
    assert state == 3 and timers == 0  # closed, and no retry


JOIN = """
document.getElementById("name").value = arguments[0];
document.getElementById("join-button").click();
"""
SENT = "return window.fake.sockets[window.fake.sockets.length - 1].sent;"
BUTTONS = "return Array.from(document.querySelectorAll('#buttons button'), (b) => b.innerText);"


def seated(page: Any, token: str) -> None:
    """The host's hello, then Pat joins and is given the seat of ``token``."""
    page.execute_script("hostOpens(); hostSays(arguments[0]);", hello())
    page.execute_script(JOIN, "Pat")
    seat = {"token": token, "table_id": hello()["hello"]["table_id"]}
    page.execute_script("hostSays(arguments[0]);", {"seat": seat})


def at_final_standings() -> dict[str, Any]:
    """A view of the table over: no decision, Bo first in the final standings."""
    shown = view(owing(PlayDecision((CardSet(3, 1, 0),), False, None)))
    table = shown["table"]
    table["decision"], table["my_turn"] = None, False
    row = {"place": "1st", "name": "Bo", "figure": "6", "points": True, "note": None, "me": False}
    table["standings"] = [row]
    return shown


def test_a_page_at_the_final_standings_goes_back_to_them_after_a_drop(
    page: Any, page_url: str
) -> None:
    """At the end of the table the host tells the page to forget its seat (a new table
    may open at this address); a new language or a dropped link then showed the join form,
    the standings (and the host player's rematch) gone. The page asks back the seat it
    still holds, and proves it as ever."""
    load(page, page_url)
    token = "q7Vd2mXo9LkT4bR1sWc8Ze"
    seated(page, token)
    shown = at_final_standings()
    page.execute_script("hostSays(arguments[0]); hostSays({seat: 'forget'});", {"view": shown})
    kept = page.execute_script("return JSON.stringify(Object.entries(localStorage));")
    assert token not in kept  # forgotten, as the host said
    page.execute_script("hostHangsUp(); timersRun(); hostOpens(); hostSays(arguments[0]);", hello())
    [join] = page.execute_script(SENT)
    assert join["join"]["resume"]["seat"] == seat_id(token)
    assert not page.execute_script("return document.getElementById('join').getClientRects().length")


def test_a_new_language_is_not_a_connection_lost(page: Any, page_url: str) -> None:
    """Choosing a language closed the page's connection as a drop would: "Connection lost,
    reconnecting…" in red, then half a second's wait. The page opens the new one at once
    now, and says nothing of a loss."""
    load(page, page_url)
    page.execute_script("hostOpens(); hostSays(arguments[0]);", hello())
    page.execute_script("hostSays(arguments[0]);", {"view": view(model_at("lobby"))})
    page.execute_script(
        "const s = document.getElementById('lang'); s.value = 'es';"
        "s.dispatchEvent(new Event('change'));"
    )
    assert page.execute_script(STATUS) == ["", ""]
    assert page.execute_script("return fake.timers.length") == 0
    urls = page.execute_script("return fake.sockets.map((s) => [s.url, s.readyState]);")
    assert len(urls) == 2 and urls[0][1] == 3 and urls[1][0].endswith("/table?lang=es")


def test_a_phone_on_its_side_gives_the_lobby_most_of_its_width(page: Any, page_url: str) -> None:
    """At 844x390 the lobby had 42% of the width, its seats and rules cramped and
    scrolling, beside a log column of 58% made for a hand of cards that the lobby has
    not (its only control: Start)."""
    load(page, page_url)
    page.execute_script("hostOpens(); hostSays(arguments[0]);", hello("es"))
    page.execute_script("hostSays(arguments[0]);", {"view": view(model_at("lobby", "es"))})
    width = "return document.getElementById('lobby').getBoundingClientRect().width;"
    try:
        page.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", LANDSCAPE)
        lobby = page.execute_script(width)
    finally:
        page.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", PORTRAIT)
    assert lobby > 844 * 0.55, lobby


CHOOSE = """
const s = document.getElementById('lang'); s.value = arguments[0];
s.dispatchEvent(new Event('change'));
"""


def test_a_new_language_leaves_the_focus_on_the_language_menu(page: Any, page_url: str) -> None:
    """The join form took the focus to its name box at each hello, a new language's too:
    a keyboard user who chose "Español" by typing "Esp" in the menu had the "p" typed
    into their name (the screen reader's test heard "pAna", one CI run in a few). The
    name box takes the focus when the form first comes, not from the language menu."""
    load(page, page_url)
    page.execute_script("localStorage.clear();")  # no seat kept by an earlier test
    load(page, page_url)
    page.execute_script("hostOpens(); hostSays(arguments[0]);", hello())
    assert page.execute_script("return document.activeElement.id") == "name"
    page.execute_script("document.getElementById('lang').focus();" + CHOOSE, "es")
    page.execute_script("hostOpens(); hostSays(arguments[0]);", hello("es"))
    assert page.execute_script("return document.activeElement.id") == "lang"


def test_a_new_language_redraws_the_left_screen_in_it(page: Any, page_url: str) -> None:
    """On "You have left the table" the language menu did nothing (the page had no
    connection to come back on). It asks the host for the page's words in the new
    language now and says the same in them, asking back no seat (a seat kept while the
    player steps away stays away)."""
    load(page, page_url)
    page.execute_script(CHOOSE, "en")
    token = "q7Vd2mXo9LkT4bR1sWc8Zf"
    seated(page, token)
    page.execute_script("hostSays(arguments[0]);", {"view": view(model_at("lobby"))})
    page.execute_script("hostSays({left: true});")  # stepped away: the seat is kept
    assert page.execute_script(GONE)[0] == "You have left the table."
    page.execute_script(CHOOSE, "es")
    assert page.execute_script("return fake.sockets.length") == 3
    page.execute_script("hostOpens(); hostSays(arguments[0]);", hello("es"))
    text, state, timers = page.execute_script(GONE)
    es = page_strings(Translator("es"))
    assert text == es["you_left"]
    assert page.execute_script("return document.getElementById('again').innerText") == es["again"]
    assert page.execute_script(SENT) == []  # nothing asked of the host: no seat back
    assert state == 3 and timers == 0  # that connection closed, and no retry
    assert page.execute_script("return document.documentElement.lang") == "es"


def test_a_new_language_at_the_final_standings_goes_back_to_them(page: Any, page_url: str) -> None:
    """After a change of language at the final standings the page showed the last hand's
    results again (the host's client for the page is a new one, and shows a hand that
    ended while it was away), the standings a tap further. The page closes them again at
    once: the standings, as before the change."""
    load(page, page_url)
    page.execute_script("localStorage.clear();")  # no seat kept by an earlier test
    load(page, page_url)
    page.execute_script(CHOOSE, "en")
    token = "q7Vd2mXo9LkT4bR1sWc8Zg"
    seated(page, token)
    shown = at_final_standings()
    table = shown["table"]
    results = {
        "title": "Hand 3 is over",
        "headers": ["Place", "Player", "Points", "Total"],
        "rows": [{"cells": ["1st", "Bo", "+3", "6"], "me": False, "role": None}],
        "notes": [],
        "next": "",
        "last": True,
        "reading": False,
    }
    table["results"] = results
    page.execute_script("hostSays(arguments[0]);", {"view": shown})
    assert "Final standings" in page.execute_script(BUTTONS)  # then the standings
    page.execute_script(
        "Array.from(document.querySelectorAll('#buttons button'))"
        ".find((b) => b.innerText === 'Final standings').click();"
    )
    assert page.execute_script(SENT)[-1] == {"do": "close_results"}
    table["results"] = None
    page.execute_script("hostSays(arguments[0]); hostSays({seat: 'forget'});", {"view": shown})
    page.execute_script(CHOOSE, "es")
    page.execute_script("hostOpens(); hostSays(arguments[0]);", hello("es"))
    [join] = page.execute_script(SENT)
    assert join["join"]["resume"]["seat"] == seat_id(token)
    again = view(owing(PlayDecision((CardSet(3, 1, 0),), False, None), "es"))
    again["table"].update(
        decision=None, my_turn=False, standings=table["standings"], results=results
    )
    page.execute_script("hostSays(arguments[0]);", {"view": again})
    assert page.execute_script(SENT)[-1] == {"do": "close_results"}
    assert not page.execute_script(
        "return document.getElementById('results').getClientRects().length"
    )
    again["table"]["results"] = None
    page.execute_script("hostSays(arguments[0]);", {"view": again})
    assert "Clasificación final" in page.execute_script("return document.body.innerText;")


def test_a_seat_in_a_new_language_keeps_its_connection_until_it_is_back(
    page: Any, page_url: str
) -> None:
    """A player who changed language was "offline: a bot takes the seat in 60 s", then
    "back", on every other player's screen: the page closed its connection before it
    opened the new one. It opens the new one first now (the host closes the old one,
    "replaced", once the seat is proved on the new) and closes the old one once the new
    one is at the seat."""
    load(page, page_url)
    page.execute_script("localStorage.clear();")
    load(page, page_url)
    page.execute_script(CHOOSE, "en")
    token = "q7Vd2mXo9LkT4bR1sWc8Zh"
    seated(page, token)
    page.execute_script("hostSays(arguments[0]);", {"view": view(model_at("lobby"))})
    page.execute_script(CHOOSE, "es")
    states = "return fake.sockets.map((s) => s.readyState);"
    assert page.execute_script(states)[-2:] == [1, 0]  # the old one still open
    page.execute_script("hostOpens(); hostSays(arguments[0]);", hello("es"))
    [join] = page.execute_script(SENT)
    assert join["join"]["resume"]["seat"] == seat_id(token)
    assert page.execute_script(states)[-2:] == [1, 1]
    page.execute_script("hostSays(arguments[0]);", {"view": view(model_at("lobby", "es"))})
    assert page.execute_script(states)[-2:] == [3, 1]  # at the seat: the old one closed
    assert (
        page.execute_script(STATUS) == ["", ""]
        and page.execute_script("return fake.timers.length") == 0
    )
