"""Your turn is unmistakable: the tab's title and icon, a chime if asked for, a turn line that never scrolls away,
and a forced move (one legal action) played with one click, or for you if you ask."""

from __future__ import annotations

from collections.abc import Callable

from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from tests.browser.support import first_action, play_one, wait
from tests.browser.test_live import Table

# Count the chimes: every tone the page starts goes through an oscillator's start().
CHIMES = """
window.__chimes = 0;
window.AudioContext = class extends window.AudioContext {
  createOscillator() {
    const osc = super.createOscillator();
    const start = osc.start.bind(osc);
    osc.start = (...args) => { window.__chimes += 1; return start(...args); };
    return osc;
  }
};
"""
MAX_TURNS = 300


def icon(driver: WebDriver) -> str:
    """Return the tab's icon."""
    return str(driver.execute_script("return document.querySelector('link[rel=icon]').getAttribute('href')"))


def chimes(driver: WebDriver) -> int:
    """Return how many chimes the page has sounded."""
    return int(driver.execute_script("return window.__chimes"))


def until_yours(table: Table) -> None:
    """Play the other seats until the page's seat may act."""
    for _ in range(MAX_TURNS):
        view = table.settled()
        if 0 in view["to_act"]:
            return
        table.play(view["to_act"][0])
    raise AssertionError("the page's seat never got a turn")


def test_your_turn_changes_the_tab_title_and_icon_and_chimes_only_once_asked(
    browser: Callable[..., WebDriver], base_url: str
) -> None:
    table = Table(browser(1280, 600), base_url, "animals-on-board", "turn-1", players=2)
    table.open(before=CHIMES)
    driver = table.driver
    wait(driver).until(lambda d: d.title == "● Your turn · Animals on Board")
    assert icon(driver).endswith("/favicon-turn.svg")
    sound = driver.find_element(By.ID, "pref-sound")
    assert not sound.is_selected(), "sound is off until asked for"
    assert chimes(driver) == 0
    sound.click()
    assert chimes(driver) == 1, "turning the sound on plays it once"

    driver.refresh()
    wait(driver).until(lambda d: d.find_element(By.ID, "pref-sound").is_selected())  # remembered

    # Scrolled to the foot of a long table, the turn line is still in sight.
    driver.execute_script("window.scrollTo(0, document.documentElement.scrollHeight)")
    assert driver.execute_script("return window.scrollY") > 0
    top, bottom = driver.execute_script(
        "const r = document.getElementById('turn').getBoundingClientRect(); return [r.top, r.bottom]"
    )
    assert 0 <= top and bottom <= driver.execute_script("return window.innerHeight")

    assert play_one(driver)  # keep a tile at the set-up: Bea still chooses hers
    assert 0 not in table.settled()["to_act"]
    wait(driver).until(lambda d: d.title == "Animals on Board · Menagerie")
    assert icon(driver).endswith("/favicon.svg")
    heard = chimes(driver)
    driver.execute_script("document.getElementById('pref-sound').focus()")
    until_yours(table)
    wait(driver).until(lambda d: d.title.startswith("● Your turn"))
    # The table was redrawn for Bea's move; a keyboard player's focus stayed on the switch.
    assert driver.execute_script("return document.activeElement.id") == "pref-sound"
    assert icon(driver).endswith("/favicon-turn.svg")
    wait(driver).until(lambda d: chimes(d) == heard + 1)

    driver.get(f"{table.base_url}/#/")
    wait(driver).until(lambda d: d.title == "Menagerie")


def test_a_forced_move_is_one_click_or_played_for_you_once_asked(
    browser: Callable[..., WebDriver], base_url: str
) -> None:
    table = Table(browser(1280, 900), base_url, "zop-zoo", "turn-2", players=2)
    table.open()
    driver = table.driver
    clicked = False
    for _ in range(MAX_TURNS):
        until_yours(table)
        view = table.view(0)
        version = view["version"]
        forced = len(view["legal_actions"]) == 1
        if clicked and forced:
            # Asked for: the forced move leaves without a click.
            table.moves_past(version)
            return
        table.catches_up(version)
        if not forced:
            assert play_one(driver)
            continue
        # No pick needed: Confirm is ready, and says what it plays.
        confirm = wait(driver).until(lambda d: first_action(d))
        assert confirm is not None and confirm.get_attribute("id") == "confirm"
        assert "Only one move is possible" in driver.find_element(By.ID, "move-hint").text
        assert not driver.find_elements(By.CSS_SELECTOR, "button.pick.picked")
        confirm.click()
        table.moves_past(version)
        clicked = True
        driver.find_element(By.ID, "pref-autoplay").click()
    raise AssertionError("no forced move was played for the page's seat")
