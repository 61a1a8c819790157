"""The page at a glance: replay captions and autoplay, a rematch, cards that slide in (or not, with reduced motion),
and the small things: totals kept whole, "Move played." gone at the end, the lobby's true default clock, the
pinned turn line on a short phone."""

from __future__ import annotations

import json
import re
import urllib.request
from collections.abc import Callable
from typing import Any

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import Select

from tests.browser.support import axe_violations, create_in_lobby, finished, play_one, play_to_end, post, wait
from tests.browser.test_account import open_account
from tests.browser.test_table import EVENT_TYPES, SNAKE

# A game of bots only plays to its end as it is created.
BOT_GAMES = {
    "life-is-life": ({"bot": "heuristic"}, {"bot": "random"}, {"bot": "heuristic"}),
    "animals-on-board": ({"bot": "heuristic"}, {"bot": "random"}),
    "bloede-kuh": ({"bot": "heuristic"}, {"bot": "random"}, {"bot": "heuristic"}),
    "zop-zoo": ({"bot": "heuristic"}, {"bot": "random"}),
}
OPTIONS = {"zop-zoo": {"target": 100}}

# Every caption as the slider would show it (a caption is written as the slider moves, before the table is read).
CAPTIONS = """
const slider = document.getElementById('replay-slider');
const out = [];
for (let at = 1; at <= Number(slider.max); at++) {
  slider.value = String(at);
  slider.dispatchEvent(new Event('input'));
  out.push(document.getElementById('replay-event').textContent);
}
return out;
"""


def _get(base_url: str, path: str, token: str | None = None) -> Any:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    with urllib.request.urlopen(urllib.request.Request(base_url + path, headers=headers)) as response:
        return json.load(response)


@pytest.mark.parametrize(
    ("game", "lang"), [(g, "en-US") for g in BOT_GAMES] + [("bloede-kuh", "fr"), ("zop-zoo", "de")]
)
def test_every_replay_event_has_a_caption_in_words(
    browser: Callable[..., WebDriver], base_url: str, game: str, lang: str
) -> None:
    created = post(base_url, "/games", {"game": game, "seats": list(BOT_GAMES[game]), "options": OPTIONS.get(game, {})})
    driver = browser(lang=lang)
    driver.get(f"{base_url}/#/replay/{created['id']}")
    wait(driver).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#replay-board[data-shown]"))

    # With every card open, a hand's species held once is named alone: no "×1".
    assert "×1" not in driver.find_element(By.ID, "replay-board").text
    captions = driver.execute_script(CAPTIONS)
    assert len(captions) == _get(base_url, f"/games/{created['id']}")["version"]
    for at, caption in enumerate(captions, 1):
        # "#13: " and nothing after it was Blöde Kuh's turn ends.
        assert re.fullmatch(rf"#{at}: \w.*\S", caption), (at, caption)
        assert not EVENT_TYPES.search(caption) and not SNAKE.search(caption), caption


def test_autoplay_advances_at_the_chosen_speed_and_stops_at_the_end(
    browser: Callable[..., WebDriver], base_url: str
) -> None:
    created = post(base_url, "/games", {"game": "animals-on-board", "seats": list(BOT_GAMES["animals-on-board"])})
    last = _get(base_url, f"/games/{created['id']}")["version"]
    driver = browser()
    driver.get(f"{base_url}/#/replay/{created['id']}")
    wait(driver).until(lambda d: d.find_elements(By.CSS_SELECTOR, f'#replay-board[data-shown="{last}"]'))
    Select(driver.find_element(By.ID, "replay-speed")).select_by_value("4")
    driver.execute_script(
        "const s = document.getElementById('replay-slider'); s.value = arguments[0]; s.dispatchEvent(new Event('input'))",
        last - 4,
    )
    wait(driver).until(lambda d: d.find_elements(By.CSS_SELECTOR, f'#replay-board[data-shown="{last - 4}"]'))

    play = driver.find_element(By.ID, "replay-play")
    play.click()
    assert play.get_attribute("data-playing") == "true" and play.text == "Pause"
    wait(driver).until(lambda d: int(d.find_element(By.ID, "replay-board").get_attribute("data-shown")) > last - 4)
    wait(driver).until(lambda d: d.find_element(By.ID, "replay-play").get_attribute("data-playing") == "false")
    assert driver.find_element(By.ID, "replay-board").get_attribute("data-shown") == str(last)
    assert driver.find_element(By.ID, "replay-position").text == f"Event {last} of {last}"
    assert driver.find_element(By.ID, "replay-play").text == "Play"

    # Play at the end starts again from the first event; Pause stops it there.
    driver.find_element(By.ID, "replay-play").click()
    wait(driver).until(lambda d: int(d.find_element(By.ID, "replay-board").get_attribute("data-shown")) < last)
    driver.find_element(By.ID, "replay-play").click()
    stopped = driver.find_element(By.ID, "replay-slider").get_attribute("value")
    assert driver.find_element(By.ID, "replay-play").get_attribute("data-playing") == "false"
    assert int(stopped) < last


def _play_out(base_url: str, game_id: str, tokens: dict[int, str]) -> None:
    """Play every human seat's first legal action through the API until the game ends."""
    for _ in range(2000):
        view = _get(base_url, f"/games/{game_id}")
        if view["status"] == "finished":
            return
        for seat in view["to_act"]:
            if seat in tokens:
                mine = _get(base_url, f"/games/{game_id}", tokens[seat])
                if mine["legal_actions"]:
                    body = {"action": mine["legal_actions"][0], "expected_version": mine["version"]}
                    request = urllib.request.Request(
                        f"{base_url}/games/{game_id}/actions",
                        data=json.dumps(body).encode(),
                        headers={"Content-Type": "application/json", "Authorization": f"Bearer {tokens[seat]}"},
                        method="POST",
                    )
                    urllib.request.urlopen(request).close()
                break
    raise AssertionError("the game did not end")


def test_a_rematch_is_the_same_game_and_options_with_bots_kept_and_the_other_humans_invited(
    browser: Callable[..., WebDriver], base_url: str
) -> None:
    seats = [{"name": "Ann"}, {"name": "Bea"}, {"bot": "heuristic"}]
    options = {"target": 100, "clock": {"move_s": 300}}
    created = post(base_url, "/games", {"game": "zop-zoo", "seats": seats, "options": options})
    tokens = {seat["seat"]: seat["token"] for seat in created["seats"]}
    _play_out(base_url, created["id"], tokens)
    driver = browser(390, 844)
    driver.get(f"{base_url}/#/seat/{created['id']}/{tokens[0]}")
    wait(driver).until(finished)

    driver.find_element(By.ID, "rematch").click()
    wait(driver).until(lambda d: created["id"] not in d.current_url)
    rematch = driver.current_url.rsplit("/", 1)[-1]
    wait(driver).until(EC.presence_of_element_located((By.ID, "join-url")))
    assert f"#/join/{rematch}" in driver.find_element(By.ID, "join-url").text
    assert "Ann (you)" in driver.find_element(By.ID, "turn-line").find_element(By.XPATH, "..").text

    first = _get(base_url, f"/games/{rematch}/events?after=0&limit=1")["events"][0]["data"]
    assert first["game"] == "zop-zoo" and first["options"]["target"] == 100 and first["clock"] == {"move_s": 300}
    view = _get(base_url, f"/games/{rematch}")
    assert [(s["name"], s["bot"], s["filled"]) for s in view["seats"]] == [
        ("Ann", None, True),
        (None, None, False),
        (None, "heuristic", True),
    ]
    assert view["status"] == "waiting"


MOTION_WATCH = """
window.__transitions = 0;
document.addEventListener('transitionrun', () => { window.__transitions += 1; }, true);
"""


@pytest.mark.parametrize("motion", [True, False], ids=["motion", "reduced-motion"])
def test_moved_cards_slide_in_unless_reduced_motion_is_preferred(
    browser: Callable[..., WebDriver], base_url: str, motion: bool
) -> None:
    driver = browser(1280, 900, motion=motion)
    create_in_lobby(driver, base_url, "bloede-kuh", ["you", "bot:heuristic", "bot:heuristic"], {})
    driver.execute_script(MOTION_WATCH)
    wait(driver).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#turn.yours"))
    before = driver.find_element(By.ID, "turn").get_attribute("data-version")
    assert play_one(driver)
    # The bots' replies and the move's own places are marked: each is a moved place of a new move.
    wait(driver).until(lambda d: d.find_element(By.ID, "turn").get_attribute("data-version") != before)
    wait(driver).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".board-panel .last-move"))
    moved = driver.find_elements(By.CSS_SELECTOR, ".board-panel .last-move")
    durations = [driver.execute_script("return getComputedStyle(arguments[0]).transitionDuration", m) for m in moved]
    if motion:
        assert any(d != "0s" for d in durations), durations
        wait(driver).until(lambda d: d.execute_script("return window.__transitions") > 0)
    else:
        assert all(d == "0s" for d in durations), durations
        assert driver.execute_script("return window.__transitions") == 0
        assert driver.execute_script("return document.getAnimations().length") == 0


def test_the_end_of_a_game_reads_cleanly(browser: Callable[..., WebDriver], base_url: str) -> None:
    driver = browser(390, 844)
    create_in_lobby(driver, base_url, "bloede-kuh", ["you", "bot:heuristic", "bot:random"], {})

    def whole_totals(d: WebDriver) -> None:
        # "total 12" on one line: a box of words taller than a line has wrapped.
        split = d.execute_script(
            "return [...document.querySelectorAll('.seats .stat')].filter((s) => !s.querySelector('.card'))"
            ".filter((s) => s.getClientRects().length > 1"
            " || s.getBoundingClientRect().height > 1.5 * parseFloat(getComputedStyle(s).lineHeight))"
            ".map((s) => s.textContent)"
        )
        assert split == [], split
        assert "(you)'s" not in d.find_element(By.TAG_NAME, "main").text

    play_to_end(driver, check=whole_totals)
    assert driver.find_element(By.ID, "message").text == "", "the last move's news stays under the result"
    assert driver.find_element(By.ID, "rematch").is_displayed()
    assert axe_violations(driver) == [], "the finished table, its result and rematch"


def test_the_lobby_shows_the_clock_a_game_with_your_account_gets(
    browser: Callable[..., WebDriver], base_url: str
) -> None:
    driver = browser()
    driver.get(f"{base_url}/#/")
    default = wait(driver).until(EC.presence_of_element_located((By.CSS_SELECTOR, '#option-clock option[value="0"]')))
    assert default.text == "None"

    open_account(driver, "Clockwise")
    wait(driver).until(EC.presence_of_element_located((By.ID, "playing-as")))
    rated = _get(base_url, "/game-types")["game_types"][0]["rated_clock"]["move_s"]
    default = driver.find_element(By.CSS_SELECTOR, '#option-clock option[value="0"]')
    assert default.get_attribute("data-move-s") == str(rated)
    assert default.text.startswith("2 minutes"), default.text
    # A second "You" seat is a guest's: such a game is never rated and gets no clock.
    Select(driver.find_element(By.ID, "seat-1")).select_by_value("you")
    assert driver.find_element(By.CSS_SELECTOR, '#option-clock option[value="0"]').text == "None"

    game_id = create_in_lobby(driver, base_url, "animals-on-board", ["you", "bot:heuristic"], {}, name=None)
    assert _get(base_url, f"/games/{game_id}")["clock"] == {"move_s": rated}


@pytest.mark.parametrize("clock", [None, 300], ids=["no-clock", "clock"])
def test_the_pinned_turn_line_covers_no_card_nor_the_move_bar_on_a_short_phone(
    browser: Callable[..., WebDriver], base_url: str, clock: int | None
) -> None:
    driver = browser(360, 640)
    options = {"clock": {"move_s": clock}} if clock else {}
    seats = [{"name": "Ann"}, {"bot": "heuristic"}, {"bot": "heuristic"}]
    created = post(base_url, "/games", {"game": "life-is-life", "seats": seats, "options": options})
    driver.get(f"{base_url}/#/seat/{created['id']}/{created['seats'][0]['token']}")
    wait(driver).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#turn.yours"))
    overlaps = """
    const over = (a, b) => a.bottom > b.top + 0.5 && a.top < b.bottom - 0.5 && a.right > b.left && a.left < b.right;
    const turn = document.getElementById('turn-line').getBoundingClientRect();
    const bar = document.getElementById('actions').getBoundingClientRect();
    const found = over(turn, bar) ? ['move bar'] : [];
    for (const card of document.querySelectorAll('button.pick')) {
      card.focus();  // as a keyboard reaches it: the page scrolls it into view
      const box = card.getBoundingClientRect();
      if (over(document.getElementById('turn-line').getBoundingClientRect(), box)) found.push('under the turn line: ' + card.dataset.key);
      if (over(document.getElementById('actions').getBoundingClientRect(), box)) found.push('under the move bar: ' + card.dataset.key);
    }
    return found;
    """
    assert driver.execute_script(overlaps) == []
    # Picked: the move bar grows (Confirm names the move); the cards still show clear of both.
    row = driver.find_element(By.CSS_SELECTOR, 'button.pick[data-key="row:1"]')
    driver.execute_script("arguments[0].focus()", row)
    row.click()
    wait(driver).until(lambda d: d.find_elements(By.CSS_SELECTOR, 'button.pick[data-key="row:1"][aria-pressed="true"]'))
    assert driver.execute_script(overlaps) == []
    assert not finished(driver)
    assert play_to_end(driver, pause_after=1) == 1
