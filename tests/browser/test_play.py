"""The page resumes a seat after a reload, and shows a running move clock; whole games are in test_table.py."""

from __future__ import annotations

import re
from pathlib import Path

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from tests.browser.support import create_in_lobby, first_action, screenshot, wait


def test_a_reload_resumes_the_seat_from_the_stored_token(browser, base_url: str, tmp_path: Path) -> None:
    driver = browser(390, 844)  # a phone's width
    driver.get(f"{base_url}/#/")
    wait(driver).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#games li, #games p"))
    assert driver.execute_script("return document.documentElement.scrollWidth <= window.innerWidth"), (
        "lobby scrolls sideways"
    )
    screenshot(driver, tmp_path, "lobby-phone")
    game_id = create_in_lobby(driver, base_url, "life-is-life", ["you", "bot:heuristic", "bot:heuristic"], {})
    driver.refresh()

    wait(driver).until(lambda d: first_action(d) is not None)
    assert "You: Ann" in driver.find_element(By.CSS_SELECTOR, ".table-head").text
    assert game_id in driver.current_url
    # The token is the tab's own: another tab (here: the stored copy read back) holds none of it.
    assert driver.execute_script(f"return localStorage.getItem('menagerie:seat:{game_id}')") is None
    assert driver.execute_script(f"return sessionStorage.getItem('menagerie:seat:{game_id}')")
    screenshot(driver, tmp_path, "life-is-life-phone")


def test_a_game_with_a_move_clock_shows_the_countdown_of_the_seat_to_act(
    browser, base_url: str, tmp_path: Path
) -> None:
    driver = browser()
    driver.get(f"{base_url}/#/")
    wait(driver).until(lambda d: d.find_elements(By.ID, "option-clock"))
    clock_choices = [o.get_attribute("value") for o in Select(driver.find_element(By.ID, "option-clock")).options]
    assert "0" in clock_choices and "120" in clock_choices
    Select(driver.find_element(By.ID, "option-clock")).select_by_value("300")
    driver.find_element(By.ID, "create-game").click()
    wait(driver).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#turn.yours"))

    clock = wait(driver).until(
        lambda d: d.find_element(By.ID, "clock") if re.search(r"\d:\d\d", d.find_element(By.ID, "clock").text) else None
    )
    assert "You have" in clock.text
    assert "300 s a move" in driver.find_element(By.CSS_SELECTOR, ".table-head").text
    screenshot(driver, tmp_path, "clock")
