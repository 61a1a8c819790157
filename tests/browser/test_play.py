"""A whole game of each of the four games, played through the page by one human seat against bots."""

from __future__ import annotations

from pathlib import Path

import pytest
from selenium.webdriver.common.by import By

from tests.browser.support import create_in_lobby, play_to_end, screenshot

# Small tables and a low Zop Zoo target keep each game to a few dozen moves.
GAMES = [
    ("life-is-life", ["you", "bot:heuristic", "bot:heuristic"], {}),
    ("animals-on-board", ["you", "bot:heuristic"], {}),
    ("bloede-kuh", ["you", "bot:heuristic", "bot:random"], {}),
    ("zop-zoo", ["you", "bot:heuristic"], {"target": 100}),
]


@pytest.mark.parametrize(("game", "seats", "options"), GAMES, ids=[g[0] for g in GAMES])
def test_a_human_plays_a_whole_game_against_bots_through_the_page(
    browser, base_url: str, tmp_path: Path, game: str, seats: list[str], options: dict
) -> None:
    driver = browser()
    create_in_lobby(driver, base_url, game, seats, options)
    assert driver.find_elements(By.CSS_SELECTOR, ".hand, .board"), "the table shows the game"

    moves = play_to_end(driver)

    assert moves > 0
    result = driver.find_element(By.ID, "result").text
    assert "Ann" in result
    assert driver.find_element(By.ID, "replay-link").is_displayed()
    screenshot(driver, tmp_path, f"{game}-final")


def test_a_reload_resumes_the_seat_from_the_stored_token(browser, base_url: str, tmp_path: Path) -> None:
    driver = browser(390, 844)  # a phone's width
    game_id = create_in_lobby(driver, base_url, "life-is-life", ["you", "bot:heuristic", "bot:heuristic"], {})
    driver.refresh()
    from tests.browser.support import first_action, wait

    wait(driver).until(lambda d: first_action(d) is not None)
    assert "You: Ann" in driver.find_element(By.CSS_SELECTOR, ".table-head").text
    assert game_id in driver.current_url
    screenshot(driver, tmp_path, "life-is-life-phone")
