"""The web table on loopback: how soon a phone sits down, and how soon its moves arrive.

A real `dalmuti host --headless` (subprocess, 127.0.0.1) and headless Chromium at a phone's
size (Debian's chromium and chromium-driver, driven with Selenium):

- **join**: from opening the URL (Chromium already running, as a phone's browser is) to
  the lobby showing the player seated, for a first visit (the page fills in the name and
  joins as soon as its form is up) and for a return (the name and the resume token kept
  by the browser: no form at all). Each is a fresh WebSocket and a fresh session on the
  host.
- **move**: a table of the browser, a terminal client (the terminal's own client stack:
  ``ClientSession`` + ``ClientUi`` + ``ClientRunner`` over TCP, answering through
  ``ClientUi.press``) and two host bots, watched by a spectator over TCP. For each move of
  the browser and of the terminal client: the time from the mover sending it (the page's
  click on the play or pass button, ``Date.now()``; the terminal's ``runner.send``,
  ``time.time()``) to the spectator receiving the ``played`` or ``passed`` event. Both are
  wall-clock times on one machine (a millisecond's resolution in the browser).

- **cost** (``--cost``, issue 43.1): the host's CPU a hand with 8 watchers as pages of the
  web table against 8 watchers over TCP, on the same flat-out table (4 host bots, basic
  rules, ``--bot-pace 0``): a fresh host for each kind, in alternating rounds in one run;
  the host's user+system CPU (``/proc/PID/stat``) over the round divided by the hands
  played in it. A page here is a scripted WebSocket client that does what the page does
  with a view (reads each one and answers pings); a TCP watcher reads every frame.

- **full table** (``--full-table``, issue 43.2): one terminal player (the terminal's own
  client stack over TCP, as in **move**) with 7 seated pages and 8 watching pages, against
  the same table with those 15 over TCP (the 7 players as terminal client stacks); for
  each of the terminal player's moves, the time from its send to a TCP spectator
  receiving it. A seated page here is a scripted WebSocket client answering each
  decision its view shows as a page's taps do (the cheapest legal set and commit, or
  pass; taxes: the last cards offered; the whole answers' first, "do not declare" for a
  revolution). Every scripted player turns auto-pass off as it sits (``AUTO_PASS_OFF``).

Run by hand (not a test): ``python bench/web.py [--hands N] [--joins N]``, or
``python bench/web.py --cost|--full-table [--seconds S] [--rounds N] [--against COMMIT]``.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import deque
from pathlib import Path
from typing import Any

import trio
from wake import cpu_model  # bench/, beside this file

from dalmuti_net.client.model.choosers import TaxChooser
from dalmuti_net.client.runner import ClientRunner
from dalmuti_net.client.session import TABLE_UI_SOFTWARE, ClientSession
from dalmuti_net.client.status import Status
from dalmuti_net.client.ui.state import ClientUi, Send
from dalmuti_net.engine import PlayDecision
from dalmuti_net.lang.i18n import Translator
from dalmuti_net.protocol import PROTOCOL_VERSION, encode
from dalmuti_net.protocol.messages import Message

FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

AUTOPLAY = """
// The browser's player: on its turn, the last legal set offered, or pass; the time of
// the tap that sends the move is kept. Each button sends an intent (data-do).
window.__moves = [];
const tap = (what) => document.querySelector('#buttons button[data-do="' + what + '"]');
setInterval(() => {
  if (!document.body.classList.contains("my-turn") || window.__busy) return;
  const sets = document.querySelectorAll("#sets button");
  const play = tap("commit");
  const answer = tap("answer");
  window.__busy = true;
  setTimeout(() => { window.__busy = false; }, 150);
  if (sets.length && play) {
    sets[sets.length - 1].click();
    setTimeout(() => {
      const now = tap("commit");
      if (now) { window.__moves.push(Date.now()); now.click(); }
    }, 30);
  } else if (answer && !play) {
    // A pass, or the first whole answer (a revolution declared, a misdeal's card kept).
    window.__moves.push(Date.now());
    answer.click();
  } else {
    // Taxes: one more card each time round (another one when a card runs out), then
    // give.
    const cards = document.querySelectorAll("#hand button:not([disabled])");
    if (!cards.length || !play) { if (play) play.click(); return; }
    window.__tax = (window.__tax || 0) + 1;
    cards[cards.length - 1 - (window.__tax % cards.length)].click();
    setTimeout(() => {
      const give = tap("commit");
      if (give) give.click();
    }, 20);
  }
}, 10);
"""


def start_host(hands: int, folder: Path) -> tuple[subprocess.Popen[str], int, str]:
    rules = folder / "rules.toml"
    rules.write_text(f"[rules]\nhand_limit = {hands}\n\n[table]\nbetween_hands = 0.5\n")
    process = subprocess.Popen(
        [
            *(sys.executable, "-m", "dalmuti_net", "host", "--headless"),
            *("--interface", "127.0.0.1", "--port", "0", "--web-port", "0", "--no-announce"),
            *("--bots", "2", "--bot-pace", "0", "--rules", str(rules), "--plain"),
            *("--lang", "en", "--table-name", "Bench"),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    assert process.stdout is not None
    port = url = None
    while port is None or url is None:
        line = process.stdout.readline()
        if not line:
            raise SystemExit("the host did not start")
        if found := re.search(r"is open on port (\d+)", line):
            port = int(found[1])
        if found := re.search(r"Phones join at: (\S+)", line):
            url = found[1]
    threading.Thread(target=process.stdout.read, daemon=True).start()  # drain
    return process, port, url


def browser() -> Any:
    from selenium import webdriver

    options = webdriver.ChromeOptions()
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument("--user-data-dir=" + tempfile.mkdtemp(prefix="dalmuti-bench-"))
    options.binary_location = shutil.which("chromium") or "chromium"
    driver = webdriver.Chrome(
        options=options,
        service=webdriver.ChromeService(executable_path=shutil.which("chromedriver")),
    )
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True},
    )
    return driver


SEATED = "return document.querySelector('#lobby-seats .me') !== null"
FILL_AND_JOIN = """
const go = () => {
  if (document.getElementById('join').hidden) return setTimeout(go, 1);
  document.getElementById('name').value = arguments[0];
  document.getElementById('join').requestSubmit();
};
go();
"""


def time_joins(driver: Any, url: str, joins: int) -> tuple[list[float], list[float]]:
    """Seconds from opening the URL to seated: first visits, then returns."""
    first, back = [], []
    for index in range(joins):
        driver.delete_all_cookies()
        driver.get("about:blank")
        driver.execute_cdp_cmd(
            "Storage.clearDataForOrigin", {"origin": url.rstrip("/"), "storageTypes": "all"}
        )
        start = time.perf_counter()
        driver.get(url)
        driver.execute_script(FILL_AND_JOIN, f"Phone {index}")
        while not driver.execute_script(SEATED):
            time.sleep(0.002)
        first.append(time.perf_counter() - start)
        driver.get("about:blank")
        start = time.perf_counter()
        driver.get(url)  # name and token kept: straight back to the seat
        while not driver.execute_script(SEATED):
            time.sleep(0.002)
        back.append(time.perf_counter() - start)
        # Leave the lobby seat for the next first visit (q leaves a lobby at once).
        driver.execute_script("document.querySelector('#buttons button[data-do=\"exit\"]').click()")
        time.sleep(0.2)
    return first, back


class Terminal:
    """The terminal's client stack playing a seat: answers through ClientUi's keys."""

    def __init__(self, port: int, name: str = "Term") -> None:
        self.port = port
        self.sent: list[float] = []
        self.session = ClientSession(name, software=TABLE_UI_SOFTWARE)
        self.ui = ClientUi(Translator("en"), self.session, lists_tables=False)

    async def run(self) -> None:
        ui, session = self.ui, self.session

        async def connect() -> trio.abc.Stream:
            return await trio.open_tcp_stream("127.0.0.1", self.port)

        async def on_message(message: Message) -> None:
            for effect in ui.on_message(message):
                if isinstance(effect, Send):
                    await runner.send(effect.message)
            if message["type"] == "table" and message["table"]["phase"] == "lobby":
                me = [s for s in message["table"]["players"] if s["player"] == session.player]
                if me and not me[0]["ready"]:
                    await runner.send({"type": "ready", "ready": True})
            chooser = ui.model.choosing
            if chooser is None:
                return
            decision = session.decision
            keys = ["n", "i", "d", "enter"]
            if isinstance(decision, PlayDecision):
                keys = ["p"] if not decision.sets else ["enter"]
            elif isinstance(chooser, TaxChooser):
                while chooser.total < chooser.decision.count:
                    before = chooser.total
                    ui.press("up")
                    if chooser.total == before:
                        ui.press("right")  # none left of that card: the next one
            for key in keys:
                effects = ui.press(key)
                for effect in effects:
                    if isinstance(effect, Send):
                        if effect.message["type"] in ("play", "pass"):
                            self.sent.append(time.time())
                        await runner.send(effect.message)
                if ui.model.choosing is None:
                    break

        runner = ClientRunner(session, connect, on_message=on_message, on_status=ui.on_status)
        await runner.run()


async def watch(port: int, events: list[tuple[int, float]], done: trio.Event) -> None:
    """A spectator: each play or pass with its player and arrival time."""
    session = ClientSession("Watcher", spectator=True)

    async def connect() -> trio.abc.Stream:
        return await trio.open_tcp_stream("127.0.0.1", port)

    async def on_message(message: Message) -> None:
        if message["type"] in ("played", "passed"):
            events.append((message["player"], time.time()))
        if message["type"] == "table_ended":
            done.set()

    await ClientRunner(session, connect, on_message=on_message).run()


def latencies(sent: list[float], arrived: list[float]) -> list[float]:
    """Milliseconds from each move sent to its arrival: a seat's move is the first one
    sent since its previous move arrived (a tap made twice while the page was slow to
    redraw sends nothing the second time, and must not shift the pairs)."""
    out = []
    previous = -math.inf
    for arrival in arrived:
        since = [moment for moment in sent if previous < moment <= arrival]
        if since:
            out.append((arrival - since[0]) * 1000)
        previous = arrival
    return out


async def time_moves(driver: Any, port: int, url: str, hands: int) -> dict[str, list[float]]:
    events: list[tuple[int, float]] = []
    done = trio.Event()
    terminal = Terminal(port)
    await trio.to_thread.run_sync(driver.get, "about:blank")
    await trio.to_thread.run_sync(driver.get, url)
    await trio.to_thread.run_sync(driver.execute_script, FILL_AND_JOIN, "Phone")
    while not await trio.to_thread.run_sync(driver.execute_script, SEATED):
        await trio.sleep(0.05)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(watch, port, events, done)
        nursery.start_soon(terminal.run)
        while terminal.ui.model.status is not Status.CONNECTED or terminal.session.player is None:
            await trio.sleep(0.05)
        await trio.sleep(0.3)
        await trio.to_thread.run_sync(driver.execute_script, AUTOPLAY)
        await trio.to_thread.run_sync(
            driver.execute_script,
            "document.querySelector('#buttons button[data-do=\"start\"]').click()",
        )
        await trio.sleep(0.3)
        await trio.to_thread.run_sync(
            driver.execute_script,
            "const s = document.querySelector('#buttons button[data-do=\"choose\"]');"
            " if (s) s.click()",
        )
        with trio.fail_after(60 * hands):
            await done.wait()
        nursery.cancel_scope.cancel()
    term = terminal.session.player
    table = terminal.session.table
    assert table is not None, "the terminal was never sent the table"
    phone = next(s.player for s in table.players if s.is_human and s.player != term)
    browser_sent = [
        t / 1000
        for t in await trio.to_thread.run_sync(driver.execute_script, "return window.__moves")
    ]
    arrived = {who: [t for p, t in events if p == who] for who in (phone, term)}
    for name, sent, got in (
        ("browser", browser_sent, arrived[phone]),
        ("terminal", terminal.sent, arrived[term]),
    ):
        print(f"{name}: {len(sent)} taps or sends, {len(got)} moves arrived")
    return {
        "browser": latencies(browser_sent, arrived[phone]),
        "terminal": latencies(terminal.sent, arrived[term]),
    }


def summary(values: list[float]) -> str:
    if not values:
        return "n=0"
    values = sorted(values)
    p90 = values[int(len(values) * 0.9)] if values else float("nan")
    return (
        f"n={len(values)} p50={statistics.median(values):.1f} ms "
        f"p90={p90:.1f} ms p99={p99(values):.1f} ms max={values[-1]:.1f} ms"
    )


# ------------------------------------------------------------------------ the host's cost


def host_cpu_s(pid: int) -> float:
    """The process's user + system CPU so far, in seconds."""
    with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def tcp_watcher(port: int, name: str) -> None:
    """A spectator over TCP that reads every frame (a terminal's share of the host)."""
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    # A person, as the page says it is: the host paces its table for people the same
    # way for both kinds (time to read a hand's results), so the hands are alike.
    hello = {
        "type": "hello",
        "version": PROTOCOL_VERSION,
        "role": "spectator",
        "name": name,
        "person": True,
    }
    await stream.send_all(encode(hello))
    heartbeat = encode({"type": "heartbeat"})

    async def beat() -> None:
        while True:
            await trio.sleep(2)
            await stream.send_all(heartbeat)

    async with trio.open_nursery() as nursery:
        nursery.start_soon(beat)
        while await stream.receive_some(65536):
            pass
        nursery.cancel_scope.cancel()


async def page_watcher(web_port: int, name: str, views: list[int]) -> None:
    """A page watching: joins ``/table`` as a spectator and reads every message (the
    WebSocket library answers the host's pings, as the browser does)."""
    from trio_websocket import open_websocket_url

    async with open_websocket_url(f"ws://127.0.0.1:{web_port}/table") as ws:
        await ws.get_message()  # hello
        join = {"join": {"name": name, "lang": "en", "spectator": True}}
        await ws.send_message(json.dumps(join))
        while True:
            message = await ws.get_message()
            if isinstance(message, str) and message.startswith('{"view"'):
                views[0] += 1


async def hand_counter(port: int, hands: list[int]) -> None:
    """One more TCP spectator (in both kinds of round) counting the hands ended."""
    session = ClientSession("Counter", spectator=True, person=True)

    async def connect() -> trio.abc.Stream:
        return await trio.open_tcp_stream("127.0.0.1", port)

    async def on_message(message: Message) -> None:
        if message["type"] == "hand_ended":
            hands[0] += 1

    await ClientRunner(session, connect, on_message=on_message).run()


async def cost_round(
    pid: int, port: int, web_port: int, kind: str, watchers: int, seconds: float
) -> tuple[float, int, int]:
    """(host CPU seconds, hands, views the pages got) over ``seconds`` of watching."""
    hands, views = [0], [0]
    async with trio.open_nursery() as nursery:
        nursery.start_soon(hand_counter, port, hands)
        for index in range(watchers):
            if kind == "web":
                nursery.start_soon(page_watcher, web_port, f"Page {index}", views)
            else:
                nursery.start_soon(tcp_watcher, port, f"Watcher {index}")
        await trio.sleep(2)  # everyone joined and caught up
        cpu, played = host_cpu_s(pid), hands[0]
        await trio.sleep(seconds)
        cpu, played = host_cpu_s(pid) - cpu, hands[0] - played
        nursery.cancel_scope.cancel()
    return cpu, played, views[0]


def cost(commits: list[str | None], seconds: float, rounds: int, watchers: int) -> None:
    from guesses import free_port, source_of
    from web_readers import host as web_host

    print(
        f"{cpu_model()}, {os.cpu_count()} cores, {platform.python_implementation()} "
        f"{platform.python_version()}; load average {os.getloadavg()[0]:.2f} at the start"
    )
    figures: dict[tuple[str | None, str], list[float]] = {}
    for number in range(rounds):
        for commit in commits:
            with source_of(commit) as source:
                for kind in ("tcp", "web"):
                    port, web_port = free_port(), free_port()
                    with web_host(source, port, web_port) as process:
                        cpu, played, views = trio.run(
                            cost_round, process.pid, port, web_port, kind, watchers, seconds
                        )
                    per_hand = cpu * 1000 / max(played, 1)
                    figures.setdefault((commit, kind), []).append(per_hand)
                    print(
                        f"  round {number + 1} {commit or 'this checkout'} {kind}: "
                        f"{cpu:.2f} s CPU, {played} hands, {per_hand:.1f} ms a hand"
                        + (f", {views} views" if kind == "web" else "")
                        + f" (load {os.getloadavg()[0]:.1f})"
                    )
    for commit in commits:
        tcp = statistics.median(figures[(commit, "tcp")])
        web = statistics.median(figures[(commit, "web")])
        print(
            f"{commit or 'this checkout'}: median CPU a hand, {watchers} watchers: "
            f"web {web:.1f} ms, TCP {tcp:.1f} ms: web/TCP {web / tcp:.2f}"
        )


# ------------------------------------------------------------------------ the full table


def start_full_host(source: Path, folder: Path, port: int, web_port: int) -> subprocess.Popen[str]:
    rules = folder / "rules.toml"
    rules.write_text("[table]\nbetween_hands = 0.5\n")
    env = {
        **os.environ,
        "PYTHONPATH": str(source),
        "HOME": str(folder),
        "XDG_STATE_HOME": str(folder),
        "XDG_CONFIG_HOME": str(folder),
    }
    process = subprocess.Popen(
        [
            *(sys.executable, "-m", "dalmuti_net", "host", "--headless", "--no-announce"),
            *("--interface", "127.0.0.1", "--port", str(port), "--web-port", str(web_port)),
            *("--bots", "0", "--autostart", "8", "--bot-pace", "0", "--rules", str(rules)),
            *("--lang", "en", "--no-save"),
        ],
        env=env,
        cwd=folder,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    deadline = time.monotonic() + 30
    while True:
        try:
            import socket

            socket.create_connection(("127.0.0.1", web_port), timeout=1).close()
            return process
        except OSError:
            if time.monotonic() > deadline or process.poll() is not None:
                raise RuntimeError("the host did not start") from None
            time.sleep(0.1)


AUTO_PASS_OFF = {"do": "auto_pass", "on": False}
"""Every scripted player turns auto-pass off, as a person may: with it on (a person's
default), each seat that cannot beat the table passes only after auto-pass's pause
(``AUTO_PASS_PAUSE_S``, 1.2 s, for the person to see what beat them), and a table of 8
made about one move a second: the terminal player moved 4 or 5 times in 30 s, too few
for a p99. Off, each pass is answered the moment the seat's view or model shows it."""


def page_answers(decision: dict[str, Any], hand: dict[str, Any] | None) -> list[dict[str, Any]]:
    """What a page's taps send for the decision its view shows."""
    kind = decision["kind"]
    if kind == "play":
        if decision["sets"]:
            return [{"do": "pick_set", "index": 0}, {"do": "commit"}]
        return [{"do": "answer", "index": 0}]
    if kind == "taxes":
        picks: list[dict[str, Any]] = []
        for card in reversed((hand or {}).get("cards", [])):
            for _ in range(card["count"]):
                if len(picks) < decision["count"]:
                    picks.append({"do": "pick_card", "card": card["card"]})
        return [*picks, {"do": "commit"}]
    if kind == "revolution":
        return [{"do": "answer", "index": 1}]
    if decision["answers"]:
        return [{"do": "answer", "index": 0}]
    return [{"do": "commit"}]


PAGE_MESSAGES_PER_S = 15
"""The most a scripted page sends a second: under the host's limit (20 a second, 40 at
once), which a person's taps never come near. Flat out on a quiet machine, a page that
taps a set and commits each time its prompt changes went past it and was closed."""


async def page_player(web_port: int, name: str) -> None:
    """A seated page: joins, then answers each decision its views show."""
    from trio_websocket import open_websocket_url

    sent: deque[float] = deque(maxlen=PAGE_MESSAGES_PER_S)

    async def send(message: dict[str, Any]) -> None:
        if len(sent) == sent.maxlen:
            await trio.sleep_until(sent[0] + 1.0)
        sent.append(trio.current_time())
        await ws.send_message(json.dumps(message))

    async with open_websocket_url(f"ws://127.0.0.1:{web_port}/table") as ws:
        await ws.get_message()  # hello
        await send({"join": {"name": name, "lang": "en"}})
        answered: tuple[Any, ...] | None = None
        when = 0.0
        while True:
            told = json.loads(await ws.get_message())
            view = told.get("view") or {}
            if view.get("screen") == "table" and view.get("auto_pass"):
                await send(AUTO_PASS_OFF)
            table = view.get("table") or {}
            decision = table.get("decision")
            if decision is None:
                answered = None
                continue
            key = (decision["kind"], decision["prompt"])
            if key == answered and time.monotonic() - when < 2:
                continue  # answered; its effect is on its way
            answered, when = key, time.monotonic()
            for intent in page_answers(decision, table.get("hand")):
                await send(intent)


async def tcp_player(port: int, name: str, sent: list[float]) -> None:
    """A seat over TCP, on the client model under the terminal's screen: it answers each
    decision as a seated page does (the same intents), the moment its model shows it;
    the times it sends a play or a pass are kept in ``sent``."""
    from dalmuti_net.client.model.client_model import ClientModel, Wake
    from dalmuti_net.client.model.client_model import Send as ModelSend
    from dalmuti_net.client.model.display import display
    from dalmuti_net.web.view import page_intent, view_json

    session = ClientSession(name, software=TABLE_UI_SOFTWARE, person=True)
    model = ClientModel(Translator("en"), session, lists_tables=False)

    async def connect() -> trio.abc.Stream:
        return await trio.open_tcp_stream("127.0.0.1", port)

    async def carry_out(effects: list[Any]) -> None:
        for effect in effects:
            if isinstance(effect, ModelSend):
                if effect.message["type"] in ("play", "pass"):
                    sent.append(time.time())
                await runner.send(effect.message)
            elif isinstance(effect, Wake):
                nursery.start_soon(wake, effect.after_s)

    async def wake(after_s: float) -> None:
        await trio.sleep(after_s)
        await carry_out(model.wake())
        await answer()

    async def answer() -> None:
        if model.choosing is None:
            return
        table = view_json(display(model)).get("table") or {}
        decision = table.get("decision")
        if decision is None:
            return
        for tap in page_answers(decision, table.get("hand")):
            intent = page_intent(model, tap)
            if intent is not None:
                await carry_out(model.intend(intent))

    async def on_message(message: Message) -> None:
        await carry_out(model.on_message(message))
        if message["type"] == "welcome" and not session.spectator:
            off = page_intent(model, AUTO_PASS_OFF)  # the same intent as a page's tap
            assert off is not None
            await carry_out(model.intend(off))
        await answer()

    runner = ClientRunner(session, connect, on_message=on_message, on_status=model.on_status)
    async with trio.open_nursery() as nursery:
        await runner.run()


AUTO_PASS_OFF_TAP = """
setInterval(() => {
  const b = document.querySelector('button[data-do="auto_pass"]');
  if (b && b.textContent === window.__strings_auto_pass_on) b.click();
}, 50);
"""
"""The real page's tap that turns auto-pass off, whenever its button says it is on."""


async def chromium_player(driver: Any, web_port: int) -> None:
    """A seat played by the real page in headless Chromium: joined through its form, then
    playing with ``AUTOPLAY`` (its taps) and auto-pass turned off with its own button."""
    url = f"http://127.0.0.1:{web_port}/"
    await trio.to_thread.run_sync(driver.get, url)
    await trio.to_thread.run_sync(driver.execute_script, FILL_AND_JOIN, "Chromium")
    while not await trio.to_thread.run_sync(driver.execute_script, SEATED):
        await trio.sleep(0.05)
    on = Translator("en")._("Auto-pass: on")
    await trio.to_thread.run_sync(
        driver.execute_script, f"window.__strings_auto_pass_on = {json.dumps(on)};"
    )
    await trio.to_thread.run_sync(driver.execute_script, AUTO_PASS_OFF_TAP)
    await trio.to_thread.run_sync(driver.execute_script, AUTOPLAY)
    await trio.sleep_forever()


async def full_round(
    port: int, web_port: int, kind: str, seconds: float, driver: Any = None
) -> list[float]:
    """Milliseconds from each of the terminal player's moves to a spectator; with
    ``driver``, one of the seated pages is the real page in Chromium."""
    events: list[tuple[int, float]] = []
    sent: list[float] = []
    async with trio.open_nursery() as nursery:
        nursery.start_soon(watch, port, events, trio.Event())
        nursery.start_soon(tcp_player, port, "Term", sent)
        await trio.sleep(0.3)
        for index in range(7):
            if kind == "web" and index == 0 and driver is not None:
                nursery.start_soon(chromium_player, driver, web_port)
                await trio.sleep(1)
            elif kind == "web":
                nursery.start_soon(page_player, web_port, f"Page {index}")
            else:
                nursery.start_soon(tcp_player, port, f"Player {index}", [])
            await trio.sleep(0.1)
        for index in range(8):
            if kind == "web":
                nursery.start_soon(page_watcher, web_port, f"Watcher {index}", [0])
            else:
                nursery.start_soon(tcp_watcher, port, f"Watcher {index}")
        await trio.sleep(seconds)
        nursery.cancel_scope.cancel()
    if driver is not None and kind == "web":
        taps = await trio.to_thread.run_sync(
            driver.execute_script, "return (window.__moves || []).length"
        )
        print(f"  Chromium's seat: {taps} plays and passes tapped")
        await trio.to_thread.run_sync(driver.get, "about:blank")  # the page closes
    return latencies(sent, [t for p, t in events if p == 1])  # Term took the first seat


def full_table(
    commits: list[str | None], seconds: float, rounds: int, chromium: bool = False
) -> None:
    from guesses import free_port, source_of

    print(
        f"{cpu_model()}, {os.cpu_count()} cores, {platform.python_implementation()} "
        f"{platform.python_version()}; load average {os.getloadavg()[0]:.2f} at the start"
    )
    figures: dict[tuple[str | None, str], list[float]] = {}
    driver = browser() if chromium else None
    try:
        for number in range(rounds):
            for commit in commits:
                with source_of(commit) as source:
                    for kind in ("tcp", "web"):
                        port, web_port = free_port(), free_port()
                        with tempfile.TemporaryDirectory() as folder:
                            process = start_full_host(source, Path(folder), port, web_port)
                            try:
                                values = trio.run(full_round, port, web_port, kind, seconds, driver)
                            finally:
                                process.terminate()
                                process.wait(10)
                        figures.setdefault((commit, kind), []).extend(values)
                        print(
                            f"  round {number + 1} {commit or 'this checkout'} {kind}: "
                            f"{summary(values)} (load {os.getloadavg()[0]:.1f})"
                        )
    finally:
        if driver is not None:
            driver.quit()
    for commit in commits:
        tcp, web = figures[(commit, "tcp")], figures[(commit, "web")]
        print(
            f"{commit or 'this checkout'}: the terminal's move to the others, p99: "
            f"web table {p99(web):.1f} ms, TCP {p99(tcp):.1f} ms: "
            f"web/TCP {p99(web) / p99(tcp):.2f} (all rounds: {summary(web)} | {summary(tcp)})"
        )


def p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] if ordered else math.nan


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=3)
    parser.add_argument("--joins", type=int, default=10)
    parser.add_argument("--cost", action="store_true", help="the host's CPU a hand")
    parser.add_argument("--full-table", action="store_true", help="a terminal among pages")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--watchers", type=int, default=8)
    parser.add_argument("--against", metavar="COMMIT", help="also the host of this commit")
    parser.add_argument(
        "--chromium", action="store_true", help="--full-table: one seated page in Chromium"
    )
    args = parser.parse_args()
    commits: list[str | None] = [args.against, None] if args.against else [None]
    if args.cost:
        cost(commits, args.seconds, args.rounds, args.watchers)
        return
    if args.full_table:
        full_table(commits, args.seconds, args.rounds, args.chromium)
        return
    with tempfile.TemporaryDirectory() as folder:
        driver = browser()
        host, port, url = start_host(args.hands, Path(folder))
        try:
            first, back = time_joins(driver, url, args.joins)
            print("join, first visit (s):", " ".join(f"{v:.3f}" for v in first))
            print(f"  median {statistics.median(first):.3f} s, max {max(first):.3f} s")
            print("join, return with the kept token (s):", " ".join(f"{v:.3f}" for v in back))
            print(f"  median {statistics.median(back):.3f} s, max {max(back):.3f} s")
            moves = trio.run(time_moves, driver, port, url, args.hands)
            for who, values in moves.items():
                print(f"move reaching the others, {who}: {summary(values)}")
            gap = statistics.median(moves["browser"]) - statistics.median(moves["terminal"])
            print(f"p50 browser - terminal: {gap:+.1f} ms")
        finally:
            driver.quit()
            host.terminate()
            host.wait(10)


if __name__ == "__main__":
    main()
