"""The page resumes a seat after a reload, and shows a running move clock; whole games are in test_table.py."""

from __future__ import annotations

import re
from pathlib import Path

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from tests.browser.support import create_in_lobby, first_action, post, screenshot, wait


def test_a_reload_resumes_the_seat_from_the_stored_token(browser, base_url: str, tmp_path: Path) -> None:
    driver = browser(390, 844)  # a phone's width
    driver.get(f"{base_url}/#/")
    wait(driver).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#games li, #games p"))
    assert driver.execute_script(
        "return document.documentElement.scrollWidth <= document.documentElement.clientWidth"
    ), "lobby scrolls sideways"
    screenshot(driver, tmp_path, "lobby-phone")
    game_id = create_in_lobby(driver, base_url, "life-is-life", ["you", "bot:heuristic", "bot:heuristic"], {})
    driver.refresh()

    wait(driver).until(lambda d: first_action(d) is not None)
    assert "You: Ann" in driver.find_element(By.CSS_SELECTOR, ".table-head").text
    assert driver.find_element(By.ID, "rated").text == "unrated"  # a guest's game
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


def test_when_the_clock_runs_out_a_banner_says_a_stand_in_moved(browser, clocked_url: str, screens: Path) -> None:
    seats = [{"name": "Ann"}, {"bot": "heuristic"}, {"bot": "heuristic"}]
    created = post(clocked_url, "/games", {"game": "bloede-kuh", "seats": seats, "options": {"clock": {"move_s": 2}}})
    driver = browser()
    driver.get(f"{clocked_url}/#/seat/{created['id']}/{created['seats'][0]['token']}")
    wait(driver).until(lambda d: d.find_elements(By.ID, "turn"))

    banner = wait(driver).until(
        lambda d: d.find_element(By.ID, "stand-in") if d.find_elements(By.ID, "stand-in") else None
    )
    # In words, the way the log says it: no bare event number to decode.
    assert "A bot played for you because your clock ran out" in banner.text
    assert not re.search(r"\d", banner.text), banner.text
    assert "ran out of time" in driver.find_element(By.CSS_SELECTOR, ".log").text
    screenshot(driver, screens, "stand-in")


def test_a_move_is_picked_and_confirmed_with_the_keyboard_alone(browser, base_url: str) -> None:
    driver = browser()
    create_in_lobby(driver, base_url, "life-is-life", ["you", "bot:heuristic", "bot:heuristic"], {})
    wait(driver).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#turn.yours"))
    version = driver.find_element(By.CSS_SELECTOR, ".table-head .facts").text

    row = driver.find_element(By.CSS_SELECTOR, 'button.pick[data-key="row:1"]')
    driver.execute_script("arguments[0].focus()", row)
    driver.switch_to.active_element.send_keys(Keys.ENTER)
    # The table is drawn anew at each pick; the focus stays on the row, now picked.
    picked = wait(driver).until(
        lambda d: d.find_element(By.CSS_SELECTOR, 'button.pick[data-key="row:1"][aria-pressed="true"]')
    )
    assert driver.switch_to.active_element == picked
    card = driver.find_element(By.CSS_SELECTOR, 'button.pick.hand-card[data-addable="true"]')
    # Its name holds what the card shows, in that order ("Bear 8"), then how many are in hand.
    assert re.fullmatch(r"\w+ \d, \d+ in hand", card.get_attribute("aria-label")), card.get_attribute("aria-label")
    driver.execute_script("arguments[0].focus()", card)
    driver.switch_to.active_element.send_keys(Keys.SPACE)
    confirm = wait(driver).until(lambda d: d.find_element(By.CSS_SELECTOR, "#confirm:enabled"))
    assert confirm.text.startswith("Confirm: take row 1")
    driver.execute_script("arguments[0].focus()", confirm)
    driver.switch_to.active_element.send_keys(Keys.ENTER)
    wait(driver).until(lambda d: d.find_element(By.CSS_SELECTOR, ".table-head .facts").text != version)
    assert "Ann (you) took row 1" in driver.find_element(By.CSS_SELECTOR, ".log").text
