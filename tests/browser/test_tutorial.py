"""A guided first game: a real unrated game against bots, with steps over the table, walked to its end."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path

from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support import expected_conditions as EC

from tests.browser.support import finished, play_one, play_to_end, screenshot, wait


def step(driver: WebDriver) -> str:
    """Return the guide's step as the page marks it on <main> (the step's id)."""
    return str(driver.execute_script("return document.getElementById('main').dataset.guide || ''"))


def next_step(driver: WebDriver, expected: str) -> None:
    """Press Next and wait for the step after it."""
    driver.find_element(By.ID, "guide-next").click()
    wait(driver).until(lambda d: step(d) == expected)


def test_a_guided_first_game_walks_from_the_hand_to_the_end_and_is_remembered(
    browser, base_url: str, screens: Path
) -> None:
    driver = browser()
    driver.get(f"{base_url}/#/")
    lobby = wait(driver).until(EC.presence_of_element_located((By.ID, "tutorials")))
    lobby.find_element(By.CSS_SELECTOR, 'li[data-game="animals-on-board"] a').click()
    wait(driver).until(EC.element_to_be_clickable((By.ID, "guide-start"))).click()

    wait(driver).until(EC.url_contains("#/game/"))
    game_id = driver.current_url.rsplit("/", 1)[-1]
    guide = wait(driver).until(EC.visibility_of_element_located((By.ID, "guide")))
    assert "Step 1 of 7" in guide.text and "Animals on Board" in guide.text
    # A real game of the API: you and a bot, no clock, so unrated.
    with urllib.request.urlopen(f"{base_url}/games/{game_id}") as response:
        game = json.load(response)
    assert [bool(s["bot"]) for s in game["seats"]] == [False, True] and not game.get("clock")

    next_step(driver, "hand")
    assert "Your ark" in driver.find_element(By.ID, "guide-text").text
    assert driver.execute_script("return getComputedStyle(document.querySelector('.hand')).outlineStyle") == "dashed"
    next_step(driver, "legal")
    # What may be picked is what the API lists as legal: the outlined controls are the table's own.
    wait(driver).until(lambda d: d.find_elements(By.CSS_SELECTOR, "button.pick"))
    next_step(driver, "pick")
    screenshot(driver, screens, "guide-pick")

    assert play_one(driver)  # the first move moves the guide on by itself
    wait(driver).until(lambda d: step(d) == "scoring")
    assert "overboard" in driver.find_element(By.ID, "guide-text").text
    next_step(driver, "play-on")

    play_to_end(driver)
    assert finished(driver)
    wait(driver).until(lambda d: step(d) == "end")
    screenshot(driver, screens, "guide-end")
    driver.find_element(By.ID, "guide-done").click()
    wait(driver).until(EC.invisibility_of_element_located((By.ID, "guide")))

    assert json.loads(driver.execute_script("return localStorage.getItem('menagerie:tutorial-done')")) == {
        "animals-on-board": "done"
    }
    driver.get(f"{base_url}/#/")
    done = wait(driver).until(
        EC.presence_of_element_located((By.CSS_SELECTOR, '#tutorials li[data-game="animals-on-board"]'))
    )
    assert "done" in done.text


def test_the_guide_speaks_the_page_language_and_can_be_skipped(browser, base_url: str) -> None:
    driver = browser(lang="de-DE")
    driver.get(f"{base_url}/#/learn/zop-zoo")
    wait(driver).until(EC.element_to_be_clickable((By.ID, "guide-start"))).click()
    guide = wait(driver).until(EC.visibility_of_element_located((By.ID, "guide")))
    assert "Schritt 1 von 7" in guide.text and "Zop Zoo" in guide.text
    driver.find_element(By.ID, "guide-skip").click()
    wait(driver).until(EC.invisibility_of_element_located((By.ID, "guide")))
    assert step(driver) == ""
    assert json.loads(driver.execute_script("return localStorage.getItem('menagerie:tutorial-done')")) == {
        "zop-zoo": "skipped"
    }
    driver.refresh()  # the game goes on without the guide
    wait(driver).until(EC.presence_of_element_located((By.ID, "turn")))
    assert not driver.find_elements(By.ID, "guide")
