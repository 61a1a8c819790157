"""What matters, in view: your hand and the move bar together when your turn begins, the result at the end
with every tile face up, on a desktop (a tall and a short window) and a phone, for each of the four games."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
import uuid
from collections.abc import Callable
from typing import Any

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from tests.browser.support import (
    assert_hand_and_bar_in_view,
    assert_result_in_view,
    finished,
    play_one,
    post,
    split_score_entries,
    wait,
)

# Each game with the fewest seats it allows (the guest first, bots after); a short Zop Zoo.
GAMES = {"life-is-life": 3, "animals-on-board": 2, "bloede-kuh": 3, "zop-zoo": 2}
OPTIONS = {"zop-zoo": {"target": 100}}
SIZES = {"short": (1280, 757), "phone": (390, 844)}
MAX_READS = 3000
# The whole plays of test_table.py check the hand before every move and the result at the end, at
# desktop and phone width: here the shortest desktop window, and what those plays do not do.
CASES = [(game, "short") for game in GAMES]


def _call(base_url: str, path: str, token: str, body: dict[str, Any] | None = None) -> Any:
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    if body is not None:
        headers["Idempotency-Key"] = str(uuid.uuid4())
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(base_url + path, data, headers, method="POST" if body is not None else "GET")
    with urllib.request.urlopen(request) as response:
        return json.load(response)


def _sit(
    browser: Callable[..., WebDriver], base_url: str, game: str, size: str, options: dict[str, Any] | None = None
) -> tuple[WebDriver, str, str]:
    seats = [{"name": f"Fit-{uuid.uuid4().hex[:6]}"}] + [{"bot": "heuristic"}] * (GAMES[game] - 1)
    options = OPTIONS.get(game, {}) if options is None else options
    made = post(base_url, "/games", {"game": game, "seats": seats, "options": options})
    driver = browser(*SIZES[size])
    driver.get(f"{base_url}/#/seat/{made['id']}/{made['seats'][0]['token']}")
    wait(driver).until(lambda d: d.find_elements(By.ID, "turn"))
    return driver, made["id"], made["seats"][0]["token"]


def _play_out(driver: WebDriver, base_url: str, game_id: str, token: str) -> None:
    """Play the seat's first legal move until the end through the API while the page follows its feed."""
    # The player reads the log at the page's foot; the game is played out meanwhile (the seat's moves sent
    # through the API, the page following its feed).
    view = _call(base_url, f"/games/{game_id}", token)
    for _ in range(MAX_READS):
        if view["status"] == "finished":
            break
        driver.execute_script("window.scrollTo(0, document.documentElement.scrollHeight)")
        if view["legal_actions"]:
            body = {"action": view["legal_actions"][0], "expected_version": view["version"]}
            try:
                _call(base_url, f"/games/{game_id}/actions", token, body)
            except urllib.error.HTTPError as err:
                assert err.code == 409, err.code  # a bot moved first: read the game again
        view = _call(base_url, f"/games/{game_id}", token)
    assert view["status"] == "finished"


def _version(driver: WebDriver) -> int:
    return int(driver.find_element(By.ID, "turn").get_attribute("data-version") or -1)


@pytest.mark.parametrize(("game", "size"), CASES, ids=[f"{g}-{s}" for g, s in CASES])
def test_your_hand_and_the_move_bar_are_in_view_when_your_turn_begins(
    browser: Callable[..., WebDriver], base_url: str, game: str, size: str
) -> None:
    driver, _, _ = _sit(browser, base_url, game, size)
    assert_hand_and_bar_in_view(driver)  # on load, at your turn

    # A redraw within the turn (a switch turned, a pick) leaves the page where the reader put it.
    # The reader clicks the title and goes back to the top of the page (the page keeps the hand in view
    # through redraws only while the reader has done nothing since it brought it there).
    wait(driver).until(lambda d: d.find_element(By.CSS_SELECTOR, ".table-head h1").click() is None)
    driver.execute_script("window.scrollTo(0, 0)")
    # (Clicked afresh if the feed redrew the table between finding the switch and clicking it.)
    wait(driver).until(lambda d: d.find_element(By.ID, "pref-sound").click() is None)
    wait(driver).until(lambda d: d.find_element(By.ID, "pref-sound").is_selected())
    assert driver.execute_script("return window.scrollY") == 0, "a redraw within the turn moved the page"

    # Your move (the pick scrolled to the window's middle first), the bots' replies: your next turn shows the hand again.
    before = _version(driver)
    assert play_one(driver)
    wait(driver).until(
        lambda d: _version(d) > before and (finished(d) or d.find_elements(By.CSS_SELECTOR, "#turn.yours"))
    )
    if not finished(driver):
        assert_hand_and_bar_in_view(driver)


@pytest.mark.parametrize(("game", "size"), CASES, ids=[f"{g}-{s}" for g, s in CASES])
def test_the_result_comes_into_view_at_the_end_with_every_tile_face_up(
    browser: Callable[..., WebDriver], base_url: str, game: str, size: str
) -> None:
    driver, game_id, token = _sit(browser, base_url, game, size)
    _play_out(driver, base_url, game_id, token)
    wait(driver).until(finished)
    assert driver.find_elements(By.CSS_SELECTOR, ".board-panel .card:not(.back)")
    # Every player's tiles face up (a seat's card backs left are only its hand's count, beside the numbers).
    hidden = driver.execute_script(
        "return [...document.querySelectorAll('.board-panel .seats .card.back')].filter((c) => !c.closest('.stat')).length"
    )
    assert hidden == 0, f"{hidden} of the players' tiles still face down at the end"
    assert_result_in_view(driver)
    assert split_score_entries(driver) == [], "a card's name apart from its value in the score table"


def test_a_long_score_table_keeps_every_total_in_sight_on_a_phone(
    browser: Callable[..., WebDriver], base_url: str
) -> None:
    # Zop Zoo to its default 800 points: a column for each of several rounds, wider than a phone.
    driver, game_id, token = _sit(browser, base_url, "zop-zoo", "phone", options={})
    _play_out(driver, base_url, game_id, token)
    assert len(driver.find_elements(By.CSS_SELECTOR, "#result table.scores thead th")) > 4, "a table of a few rounds"
    assert_result_in_view(driver)


def test_without_reduced_motion_the_page_glides_to_your_hand(browser: Callable[..., WebDriver], base_url: str) -> None:
    made = post(base_url, "/games", {"game": "bloede-kuh", "seats": [{"name": "Glide"}, *[{"bot": "heuristic"}] * 2]})
    driver = browser(1280, 757, motion=True)
    driver.get(f"{base_url}/#/seat/{made['id']}/{made['seats'][0]['token']}")
    assert_hand_and_bar_in_view(driver)  # a smooth scroll, waited for to its end
