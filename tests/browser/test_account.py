"""An account on the page: open it, play as it, see its rating and games, sign out, sign in with the saved token."""

from __future__ import annotations

import json
import re
import urllib.request
from pathlib import Path
from typing import Any

from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support import expected_conditions as EC

from tests.browser.support import create_in_lobby, play_to_end, post, screenshot, wait

PLAYER_TOKEN = re.compile(r"p-[0-9a-f]{16}\.[0-9a-f]{32}")


def open_account(driver: WebDriver, handle: str) -> None:
    """Type a handle in the lobby's Account panel and open the account."""
    field = wait(driver).until(EC.presence_of_element_located((By.ID, "account-handle")))
    field.clear()
    field.send_keys(handle)
    driver.find_element(By.ID, "account-register-button").click()


def test_an_account_plays_a_rated_game_sees_its_rating_signs_out_and_comes_back_with_its_token(
    browser, base_url: str, screens: Path
) -> None:
    driver = browser()
    driver.get(f"{base_url}/#/")

    open_account(driver, "Ann")

    shown = wait(driver).until(EC.visibility_of_element_located((By.ID, "account-token"))).text
    assert PLAYER_TOKEN.fullmatch(shown)
    assert "Playing as Ann" in driver.find_element(By.ID, "playing-as").text
    assert "Not rated yet" in wait(driver).until(EC.presence_of_element_located((By.ID, "your-rating"))).text
    screenshot(driver, screens, "account-registered")
    driver.find_element(By.ID, "account-token-saved").click()
    wait(driver).until(EC.invisibility_of_element_located((By.ID, "account-token")))

    game_id = create_in_lobby(driver, base_url, "zop-zoo", ["you", "bot:heuristic"], {"target": 100}, name=None)

    wait(driver).until(lambda d: "Ann (you)" in d.find_element(By.TAG_NAME, "main").text)
    assert driver.find_element(By.ID, "rated").text == "rated"  # said at the table, before the first move
    play_to_end(driver)

    driver.get(f"{base_url}/#/")
    row = wait(driver).until(
        EC.presence_of_element_located((By.CSS_SELECTOR, '#your-rating-table tr[data-game="zop-zoo"]'))
    )
    assert row.find_elements(By.TAG_NAME, "td")[-1].text == "1"  # one rated game
    seat = wait(driver).until(
        EC.presence_of_element_located((By.CSS_SELECTOR, f'#your-seats li[data-game="{game_id}"]'))
    )
    assert seat.find_element(By.CLASS_NAME, "status").text == "finished"
    screenshot(driver, screens, "account-rated")

    driver.find_element(By.ID, "sign-out").click()
    driver.switch_to.alert.accept()
    open_account(driver, "ANN")

    error = wait(driver).until(EC.visibility_of_element_located((By.ID, "account-error")))
    assert "That handle is taken" in error.text

    driver.find_element(By.CSS_SELECTOR, "#account details summary").click()
    driver.find_element(By.ID, "account-token-input").send_keys(shown)
    driver.find_element(By.ID, "account-paste-button").click()

    assert "Playing as Ann" in wait(driver).until(EC.presence_of_element_located((By.ID, "playing-as"))).text
    assert not driver.find_elements(By.ID, "account-token")  # a pasted token is not shown back
    wait(driver).until(EC.presence_of_element_located((By.CSS_SELECTOR, '#your-rating-table tr[data-game="zop-zoo"]')))


def test_a_reserved_or_lookalike_handle_is_refused_in_words_and_nothing_is_kept(browser, base_url: str) -> None:
    driver = browser()
    driver.get(f"{base_url}/#/")

    open_account(driver, "admin")
    error = wait(driver).until(EC.visibility_of_element_located((By.ID, "account-error")))
    assert "the service's own" in error.text

    open_account(driver, "a")
    wait(driver).until(lambda d: "3 to 24 letters" in d.find_element(By.ID, "account-error").text)

    assert driver.execute_script("return localStorage.getItem('menagerie:account')") is None
    assert driver.find_elements(By.ID, "your-name")  # still a guest: the form asks for a name


def get(base_url: str, path: str) -> dict[str, Any]:
    """GET JSON from the API directly (checking what the page did)."""
    with urllib.request.urlopen(base_url + path) as response:
        found: dict[str, Any] = json.load(response)
        return found


def test_an_account_joins_an_open_seat_and_registers_for_a_tournament_as_itself(browser, base_url: str) -> None:
    game = post(base_url, "/games", {"game": "bloede-kuh", "seats": [{"name": "Cid"}, {}, {"bot": "heuristic"}]})
    cup = post(
        base_url, "/tournaments", {"game": "animals-on-board", "rounds": 1, "format": "round-robin", "table_sizes": [2]}
    )
    driver = browser()
    driver.get(f"{base_url}/#/")
    open_account(driver, "Bob")
    wait(driver).until(EC.presence_of_element_located((By.ID, "playing-as")))
    bob = json.loads(driver.execute_script("return localStorage.getItem('menagerie:account')"))

    driver.get(f"{base_url}/#/join/{game['id']}")
    form = wait(driver).until(EC.presence_of_element_located((By.ID, "join-form")))
    assert "Playing as Bob" in form.text
    assert not form.find_elements(By.ID, "join-name")
    form.find_element(By.ID, "join-button").click()

    wait(driver).until(lambda d: "Bob (you)" in d.find_element(By.TAG_NAME, "main").text)
    assert get(base_url, f"/games/{game['id']}")["seats"][1]["player"] == bob["id"]

    driver.get(f"{base_url}/#/tournament/{cup['id']}")
    form = wait(driver).until(EC.presence_of_element_located((By.ID, "register-form")))
    assert "Playing as Bob" in form.text
    form.find_element(By.ID, "register-button").click()

    wait(driver).until(EC.text_to_be_present_in_element((By.ID, "your-games"), "You are registered"))
    [entrant] = get(base_url, f"/tournaments/{cup['id']}")["players"]
    assert (entrant["name"], entrant["player"]) == ("Bob", bob["id"])

    driver.get(f"{base_url}/#/")
    wait(driver).until(EC.element_to_be_clickable((By.ID, "sign-out"))).click()
    driver.switch_to.alert.dismiss()  # changed their mind: the account stays
    assert "Playing as Bob" in driver.find_element(By.ID, "playing-as").text
    assert json.loads(driver.execute_script("return localStorage.getItem('menagerie:account')")) == bob


def test_the_account_panel_speaks_the_page_language(browser, base_url: str) -> None:
    driver = browser(lang="fr-FR")
    driver.get(f"{base_url}/#/")

    panel = wait(driver).until(EC.presence_of_element_located((By.ID, "account")))
    assert panel.find_element(By.TAG_NAME, "h2").text == "Compte"
    open_account(driver, "system")

    error = wait(driver).until(EC.visibility_of_element_located((By.ID, "account-error")))
    assert error.text.startswith("Ce pseudo appartient au service")
