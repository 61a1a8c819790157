"""The page in French and German: chosen from the browser's languages, or with the switch (remembered).

Moves are played in each language by picking and confirming, and at every step the page is read for the
language's words (a card named as the rulebook names it, the confirm button) and for none of the English
interface's; whole games in each language are played in test_table.py. Switching at the table redraws it
in place: no reload, the same seat.
"""

from __future__ import annotations

from pathlib import Path

from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import Select

from tests.browser.support import (
    broken_card_lines,
    create_in_lobby,
    finished,
    play_to_end,
    post,
    screenshot,
    small_card_text,
    wait,
)
from tests.browser.test_table import Reader


def play_in(driver: WebDriver, reader: Reader, moves: int) -> None:
    """Play a few moves on the page, reading it at every step in its language (whole games: test_table.py)."""
    play_to_end(driver, check=reader, pause_after=moves)
    assert reader.confirms_seen > 0


def switch(driver: WebDriver, lang: str) -> None:
    Select(driver.find_element(By.ID, "language")).select_by_value(lang)
    wait(driver).until(lambda d: d.find_element(By.TAG_NAME, "html").get_attribute("lang") == lang)


def test_a_french_browser_gets_the_page_in_french_and_plays_in_it(browser, base_url: str, screens: Path) -> None:
    driver = browser(1280, 900, lang="fr-FR")
    driver.get(f"{base_url}/#/")
    wait(driver).until(lambda d: d.find_elements(By.ID, "create-game"))
    assert driver.find_element(By.ID, "create-game").text == "Créer la partie"
    assert Select(driver.find_element(By.ID, "language")).first_selected_option.get_attribute("value") == "fr"
    create_in_lobby(driver, base_url, "life-is-life", ["you", "bot:heuristic", "bot:heuristic"], {})
    reader = Reader(driver, "life-is-life", 1280, "fr")
    reader(driver)
    screenshot(driver, screens, "life-is-life-fr-start")
    play_in(driver, reader, 2)


def test_a_german_game_and_switching_at_the_table_redraws_in_place(browser, base_url: str, screens: Path) -> None:
    driver = browser(1280, 900, lang="de-DE")
    game_id = create_in_lobby(driver, base_url, "bloede-kuh", ["you", "bot:heuristic", "bot:random"], {})
    reader = Reader(driver, "bloede-kuh", 1280, "de")
    wait(driver).until(lambda d: d.find_elements(By.ID, "confirm") or finished(d))
    reader(driver)

    # Switching redraws the same table in place: no reload (a mark left on the window survives), the same seat.
    driver.execute_script("window.stillHere = true")
    seat = driver.find_element(By.CSS_SELECTOR, ".tag.you").text
    assert seat == "Du: Ann (du)"
    switch(driver, "fr")
    assert driver.execute_script("return window.stillHere") is True
    assert driver.find_element(By.CSS_SELECTOR, ".tag.you").text == "Vous : Ann (vous)"
    assert driver.find_element(By.ID, "confirm").text.startswith("Valider")
    assert driver.find_element(By.CSS_SELECTOR, "nav[data-i18n-label] a").text == "Salon"
    switch(driver, "en")
    assert driver.execute_script("return window.stillHere") is True
    assert driver.find_element(By.CSS_SELECTOR, ".tag.you").text == "You: Ann (you)"
    # The choice outlives a reload, over the browser's own languages.
    driver.refresh()
    wait(driver).until(lambda d: d.find_elements(By.ID, "turn"))
    assert driver.find_element(By.TAG_NAME, "html").get_attribute("lang") == "en"
    assert driver.execute_script("return localStorage.getItem('menagerie:lang')") == "en"
    assert game_id in driver.current_url and driver.find_element(By.CSS_SELECTOR, ".tag.you").text == "You: Ann (you)"
    switch(driver, "de")
    play_in(driver, reader, 2)

    # A phone in German, at a finished game (of bots: one played on the page in German is in test_table.py):
    # the long words wrap; nothing scrolls sideways at the table or in the lobby.
    seats = [{"bot": "heuristic"}, {"bot": "random"}, {"bot": "heuristic"}]
    game_id = post(base_url, "/games", {"game": "bloede-kuh", "seats": seats})["id"]
    phone = browser(390, 844, lang="de-DE")
    for name, page in (("bloede-kuh-de-phone", f"#/game/{game_id}"), ("lobby-de-phone", "#/")):
        phone.get(f"{base_url}/{page}")
        wait(phone).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#result, #games li, #games p"))
        assert phone.find_element(By.TAG_NAME, "html").get_attribute("lang") == "de"
        assert phone.execute_script(
            "return document.documentElement.scrollWidth <= document.documentElement.clientWidth"
        ), page
        screenshot(phone, screens, name)
    # The small cards' "round 2" line stays whole on a phone in every language: no word broken or cut off.
    phone.get(f"{base_url}/#/game/{game_id}")
    for lang in ("de", "en", "fr"):
        switch(phone, lang)
        wait(phone).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".card.small .sub"))
        assert broken_card_lines(phone) == [], lang
        assert small_card_text(phone) == [], lang
        screenshot(phone, screens, f"bloede-kuh-{lang}-phone-cards")
