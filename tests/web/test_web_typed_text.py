"""What a person types on the page goes to the table as text, whatever was pasted in."""

from __future__ import annotations

from pathlib import Path

from tests.web.test_web_browser import (
    By,
    browser,
    look,
    press,
    pytestmark,
    start_host,
    wait_for,
)

__all__ = ["browser", "pytestmark"]

PASTED = "tab\there \u202eok\u0007 \U0001f44d\U0001f3fd"
"""A tab, a right-to-left override and a bell pasted into the chat field (the host
refuses a message that holds one: PROTOCOL.md, Framing), with an emoji and its skin
tone that stay."""


def test_a_pasted_control_character_in_the_chat_is_a_space_not_a_lost_page(
    browser: object, tmp_path: Path
) -> None:
    # The evening's phone was closed by the table ("the page sent something the table
    # cannot accept") for a chat line holding a tab or a U+202E.
    driver = browser
    host, _port, url = start_host(tmp_path)
    try:
        driver.get(url)
        wait_for(lambda: driver.find_element(By.ID, "name").is_displayed(), "the join form")
        driver.find_element(By.ID, "name").send_keys("Pat")
        driver.find_element(By.ID, "join-button").click()
        wait_for(lambda: "chat" in look(driver)["taps"], "the lobby")
        press(driver, "chat")
        wait_for(lambda: look(driver)["editor"], "the chat field")
        paste = "document.getElementById('editor-input').value = arguments[0]"
        driver.execute_script(paste, PASTED)
        driver.find_element(By.ID, "editor-send").click()
        wait_for(lambda: "tab here" in look(driver)["log"], "the chat line")
        said = look(driver)["log"]
        assert "ok" in said and "\U0001f44d\U0001f3fd" in said, said
        assert driver.find_element(By.ID, "gone").get_attribute("hidden") is not None
        assert "start" in look(driver)["taps"]  # still at the table
    finally:
        host.terminate()
        host.wait(timeout=10)
        assert host.stdout is not None
        host.stdout.close()
