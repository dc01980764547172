"""What a screen reader gets from the web table: Chromium's own accessibility tree (the
DevTools protocol's ``Accessibility.getFullAXTree``), not the page's attributes.

In Spanish, in headless Chromium at a phone's size: each new line of the log is a node of
its own, named with its sentence, inside a polite live region, and the lines already there
stay the same nodes (a region redrawn whole would be read out whole again); and a whole
hand, taxes included, is played by finding each control only by its role and accessible
name, as a screen reader's user finds it, and pressing it with the keyboard (Enter on the
focused control; typing into a text box found by its label); then the player leaves, and
hears that they did.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from dalmuti_net.lang.i18n import Translator
from dalmuti_net.web.view import page_strings
from tests.web.test_web_browser import CHROMIUM, DRIVER, chromium, start_host, wait_for
from tests.web.test_web_phone import ONE_HAND

webdriver = pytest.importorskip("selenium.webdriver")
from selenium.common.exceptions import WebDriverException  # noqa: E402
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402

pytestmark = pytest.mark.skipif(
    CHROMIUM is None or DRIVER is None, reason="chromium and chromium-driver are not installed"
)
LANGUAGE = "es"
T = Translator(LANGUAGE)
WORDS = page_strings(T)


def said(label: str) -> str:
    """A model's word as the page's button says it ("pass" → "Pasar")."""
    word = T._(label)
    return word[:1].upper() + word[1:]


class Redrawn(Exception):
    """The control read a moment ago is no longer on the page (a new view came): the
    reader reads the page again, as a person would."""


class Reader:
    """The page as a screen reader has it: Chromium's accessibility tree, and the keyboard."""

    def __init__(self, driver: Any) -> None:
        self.driver = driver
        self.nodes: dict[str, dict[str, Any]] = {}
        driver.execute_cdp_cmd("Accessibility.enable", {})

    def read(self) -> None:
        found = self.driver.execute_cdp_cmd("Accessibility.getFullAXTree", {})["nodes"]
        self.nodes = {node["nodeId"]: node for node in found}

    @staticmethod
    def role(node: dict[str, Any]) -> str:
        return str(node.get("role", {}).get("value", ""))

    @staticmethod
    def name(node: dict[str, Any]) -> str:
        return str(node.get("name", {}).get("value", ""))

    @staticmethod
    def prop(node: dict[str, Any], key: str) -> Any:
        for found in node.get("properties", []):
            if found["name"] == key:
                return found["value"].get("value")
        return None

    def shown(self) -> list[dict[str, Any]]:
        return [node for node in self.nodes.values() if not node.get("ignored")]

    def find(
        self, role: str, name: str | Callable[[str], bool], within: dict[str, Any] | None = None
    ) -> list[dict[str, Any]]:
        """The nodes of a role whose name is ``name`` (or passes it), in the tree's order."""
        fits = name if callable(name) else (lambda text: text == name)
        return [
            node
            for node in self.shown()
            if self.role(node) == role
            and fits(self.name(node))
            and (within is None or self.inside(node, within))
        ]

    def inside(self, node: dict[str, Any], ancestor: dict[str, Any]) -> bool:
        parent = node.get("parentId")
        while parent is not None:
            if parent == ancestor["nodeId"]:
                return True
            parent = self.nodes.get(parent, {}).get("parentId")
        return False

    def names(self, role: str) -> list[str]:
        return [self.name(node) for node in self.shown() if self.role(node) == role]

    def text(self, node: dict[str, Any]) -> list[str]:
        """The text a node holds, as the reader reads it: its static texts, in order."""
        out: list[str] = []
        for child in node.get("childIds", []):
            found = self.nodes.get(child)
            if found is None or found.get("ignored"):
                continue
            if self.role(found) == "StaticText":
                out.append(self.name(found))
            else:
                out += self.text(found)
        return out

    def press(self, node: dict[str, Any]) -> None:
        """Move the focus to a control found in the tree, as a screen reader does, and press
        Enter on it: a real key event, which a page that only listens to taps ignores."""
        assert self.prop(node, "focusable"), f"{self.name(node)!r} cannot take the focus"
        try:
            self.driver.execute_cdp_cmd("DOM.focus", {"backendNodeId": node["backendDOMNodeId"]})
        except WebDriverException as problem:  # gone from the page since it was read
            raise Redrawn(self.name(node)) from problem
        if self.driver.switch_to.active_element.accessible_name != self.name(node):
            raise Redrawn(self.name(node))
        ActionChains(self.driver).send_keys(Keys.ENTER).perform()

    def press_button(
        self, name: str | Callable[[str], bool], within: dict[str, Any] | None = None
    ) -> None:
        self.read()
        found = self.find("button", name, within)
        assert found, f"no button named {name!r}: {self.names('button')}"
        self.press(found[0])

    def type_into(self, label: str, text: str) -> None:
        """Type into the text box a label names, then Enter (its form is sent)."""
        self.read()
        boxes = self.find("textbox", label)
        assert boxes, f"no text box named {label!r}: {self.names('textbox')}"
        self.driver.execute_cdp_cmd("DOM.focus", {"backendNodeId": boxes[0]["backendDOMNodeId"]})
        ActionChains(self.driver).send_keys(text, Keys.ENTER).perform()

    def wait(self, what: str, holds: Callable[[], bool], timeout: float = 15.0) -> None:
        def read_then() -> bool:
            self.read()
            return holds()

        try:
            wait_for(read_then, what, timeout)
        except BaseException:
            found = {role: self.names(role) for role in ("button", "textbox", "heading", "group")}
            print(f"waiting for {what}, the page had {found}")
            raise


def test_a_screen_reader_hears_the_log_and_plays_a_hand(tmp_path: Path) -> None:
    rules = tmp_path / "one-hand.toml"
    rules.write_text(ONE_HAND)
    host, _, url = start_host(tmp_path, "--rules", str(rules))
    try:
        with chromium() as driver:
            driver.get(url)
            reader = Reader(driver)
            # The host's hello fills the language menu: then it can be used.
            reader.wait("the language menu", lambda: bool(reader.find("option", "Español")))
            choose_spanish(reader)
            reader.type_into(WORDS["name"], "Ana")
            reader.wait("the lobby", lambda: bool(reader.find("button", WORDS["start"])))
            for seated in (3, 4):
                reader.press_button(WORDS["add_bot"])
                clever = said("Heuristic bot")  # the page asks which bot
                reader.wait(clever, lambda: bool(reader.find("button", clever)))  # noqa: B023
                reader.press_button(clever)
                heading = T._("Players ({n} of 4 to 8)").format(n=seated)
                reader.wait(heading, lambda: bool(reader.find("heading", heading)))  # noqa: B023
            log_lines_are_heard(reader)
            the_lobby_tools_say_what_they_change(reader)
            reader.press_button(WORDS["start"])
            play_the_hand(reader)
            # The hand's own lines, as the chat's: one node and one sentence each.
            reader.read()
            played = heard(reader)
            assert len(played) >= 10 and T._("Hand {hand} is over.").format(hand=1) in str(played)
            # Leaving, once the table is over: the page says it was the player's choice.
            reader.press_button(WORDS["quit"])
            reader.wait(WORDS["you_left"], lambda: WORDS["you_left"] in reader.names("StaticText"))
            assert reader.find("button", WORDS["again"]), reader.names("button")
    finally:
        if host.poll() is None:
            host.terminate()
            host.wait(10)
        assert host.stdout is not None
        host.stdout.close()


def choose_spanish(reader: Reader) -> None:
    """The language menu, from the keyboard: its options are read by name."""
    menu = reader.find("combobox", "Language")[0]
    reader.driver.execute_cdp_cmd("DOM.focus", {"backendNodeId": menu["backendDOMNodeId"]})
    ActionChains(reader.driver).send_keys("Esp").perform()
    reader.wait(
        "the page in Spanish",
        lambda: (
            bool(reader.find("textbox", WORDS["name"]))
            and bool(reader.find("button", WORDS["join"]))
        ),
    )


def log_lines_are_heard(reader: Reader) -> None:
    reader.read()
    regions = reader.find("log", WORDS["log"])
    assert len(regions) == 1, reader.names("log")
    region = regions[0]
    assert reader.prop(region, "live") == "polite", region
    assert "additions" in str(reader.prop(region, "relevant")), region
    assert not reader.prop(region, "atomic"), "an atomic log is read out whole at each line"
    before = lines_of(reader, region)
    for text in ("hola a todos", "¿empezamos?"):
        reader.press_button(WORDS["chat"])
        reader.wait("the chat box", lambda: bool(reader.find("textbox", WORDS["say"])))
        reader.type_into(WORDS["say"], text)
        reader.wait(f"the line {text!r} in the log", lambda: text in str(heard(reader)))  # noqa: B023
    after = heard(reader)
    # The lines heard before are the same nodes still, each new sentence one node more.
    assert after[: len(before)] == before, (before, after)
    new = [name for _, name in after[len(before) :]]
    assert len(new) == 2 and "hola a todos" in new[0] and "¿empezamos?" in new[1], new
    assert all(name.startswith("Ana") for name in new), new


def the_lobby_tools_say_what_they_change(reader: Reader) -> None:
    """A rule's switch is named for its rule and says whether it is on; "Remove bot" is
    said with the bot's name (a row of identical "Remove bot" buttons tells nothing)."""
    reader.read()
    removers = reader.find("button", WORDS["remove_bot"])
    described = sorted(str(node.get("description", {}).get("value", "")) for node in removers)
    assert described == ["Heuristic bot", "Heuristic bot (2)", "Heuristic bot (3)"], described
    reader.press_button(WORDS["rules"])
    scoring = T._("Scoring (rule 15)")
    reader.wait("the rules' switches", lambda: bool(reader.find("button", scoring)))
    switch = reader.find("button", scoring)[0]
    assert reader.prop(switch, "pressed") in ("true", True), switch  # ONE_HAND scores
    reader.press_button(WORDS["rules"])


def heard(reader: Reader) -> list[tuple[int, str]]:
    return lines_of(reader, reader.find("log", WORDS["log"])[0])


def lines_of(reader: Reader, region: dict[str, Any]) -> list[tuple[int, str]]:
    """Each line of a live region: its node (the DOM node behind it) and the one sentence
    it is read as (one text node each: a line split in pieces is heard in pieces)."""
    lines = []
    for child in region.get("childIds", []):
        node = reader.nodes.get(child)
        if node is None or node.get("ignored"):
            continue
        spoken = reader.text(node)
        assert len(spoken) == 1 and spoken[0].strip(), f"a log line heard as {spoken!r}"
        lines.append((node["backendDOMNodeId"], spoken[0]))
    return lines


def play_the_hand(reader: Reader) -> None:
    """Seed 7 makes Ana the Greater Dalmuti: taxes, then the hand's plays and passes,
    then the final standings (one hand is the whole table)."""
    give, play, answer_pass = said("give"), said("play"), said("pass")
    last_word = WORDS["final_standings"]
    done: set[str] = set()
    redrawn = 0
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        reader.read()
        try:
            if reader.find("heading", last_word):
                break
            if reader.find("button", last_word):  # the results: on to the standings
                reader.press_button(last_word)
                done.add("results")
            elif reader.find("button", WORDS["auto_pass_on"]):
                # Off, from the keyboard: each pass auto-pass makes waits 1.2 s so that the
                # player hears it coming; the reader's passes are pressed by name instead.
                reader.press_button(WORDS["auto_pass_on"])
                done.add("auto-pass off")
            elif reader.find("button", give):
                pay_taxes(reader, give)
                done.add("taxes")
            elif reader.find("button", play):
                sets = reader.find("group", WORDS["legal_sets"])
                assert sets, "the legal sets are not a group a screen reader can find"
                options = reader.find("button", lambda name: bool(name), sets[0])
                if not any(reader.prop(node, "pressed") for node in options):
                    reader.press(options[0])  # the cheapest legal set
                    time.sleep(0.3)
                    continue
                reader.press_button(play)
                done.add("play")
            elif reader.find("button", answer_pass):
                reader.press_button(answer_pass)
                done.add("pass")
        except Redrawn:
            redrawn += 1  # the page redrew under the reader's finger: read it again
        time.sleep(0.2)
    else:
        pytest.fail(f"the hand did not end in time; done: {sorted(done)}")
    assert {"auto-pass off", "taxes", "play", "pass", "results"} <= done, done
    assert redrawn < 10, f"{redrawn} controls were gone before they could be pressed"


def prefix(text: str, field: str) -> str:
    """What a translated sentence says before its ``field``."""
    return text.split("{" + field + "}")[0]


def pay_taxes(reader: Reader, give: str) -> None:
    """Hear how many cards the prompt asks for, pick one from the hand's group, take it
    back by its own button, then pick that many and give."""
    asked = prefix(
        T.n_(
            "Taxes: give {count} card of your choice to {peon}.",
            "Taxes: give {count} cards of your choice to {peon}.",
            2,
        ),
        "count",
    )
    prompt = next((name for name in reader.names("StaticText") if name.startswith(asked)), "")
    count = int(match[0]) if (match := re.match(r"\d+", prompt[len(asked) :])) else 0
    assert count > 0, f"no tax count heard: {reader.names('StaticText')}"
    # Begun before and cut short by a redraw: what was picked is taken back first.
    picked = prefix(T._("Chosen: {n}. Take one back: {card}"), "n")
    while backs := reader.find("button", lambda name: name.startswith(picked)):
        reader.press(backs[0])
        time.sleep(0.3)
        reader.read()
    hand = prefix(T.n_("Your hand: {n} card", "Your hand: {n} cards", 2), "n")
    groups = reader.find("group", lambda name: name.startswith(hand))
    assert groups, f"the hand is not a group a screen reader finds: {reader.names('group')}"
    cards = [reader.name(node) for node in reader.find("button", bool, groups[0])]
    assert len(cards) >= count + 1, cards
    reader.press_button(cards[-1])
    reader.wait("the take-back button", lambda: bool(take_backs(reader, cards[-1], 1)))
    reader.press(take_backs(reader, cards[-1], 1)[0])
    reader.wait("the card taken back", lambda: not take_backs(reader, cards[-1], 1))
    for name in cards[-count:]:
        reader.press_button(name)
        reader.wait(f"{name} picked", lambda: bool(take_backs(reader, name, 1)))  # noqa: B023
    reader.press_button(give)
    reader.wait("the taxes given", lambda: not reader.find("button", give))


def take_backs(reader: Reader, card: str, chosen: int) -> list[dict[str, Any]]:
    """The button that takes back one of ``card`` (a card button's name, "12 Campesino ×2"),
    named as the page's words say: "Elegidas: 1. Devolver una a la mano: 12 Campesino"."""
    said = T._("Chosen: {n}. Take one back: {card}").format(n=chosen, card="{card}")
    before, after = said.split("{card}")
    return reader.find(
        "button",
        lambda name: (
            name.startswith(before)
            and name.endswith(after)
            and name[len(before) : len(name) - len(after)] in card
        ),
    )
