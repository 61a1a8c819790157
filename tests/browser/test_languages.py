"""The page in French and German: chosen from the browser's languages, or with the switch (remembered).

A whole game is played in each language by picking and confirming, and at every step the page is read
for the language's words (a card named as the rulebook names it, the confirm button) and for none of
the English interface's. Switching at the table redraws it in place: no reload, the same seat.
"""

from __future__ import annotations

import re
from pathlib import Path

from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import Select

from tests.browser.support import (
    broken_card_lines,
    create_in_lobby,
    finished,
    play_to_end,
    screenshot,
    small_card_text,
    wait,
)
from tests.browser.test_table import Reader

# Words only the English interface shows (lobby, table, log, results, rules): none may show in another language.
ENGLISH = [
    "Confirm",
    "Clear",
    "Your hand",
    "What happened",
    "Last move",
    "How to play",
    "Waiting for",
    "Leaderboards",
    "Result",
    "wins",
    "Round",
    "Draw pile",
    "Discard pile",
    "Knock",
    "Row ",
]
# A translation key shown as such ("lil.row", "zz.kind.minus") means a missing entry.
RAW_KEY = re.compile(
    r"\b(?:page|seat|log|result|status|table|clock|move|invite|lobby|join|form|option|cup|board|"
    r"replay|error|rules|card|hand|animal|lil|bk|aob|zz|org|guide)\.[a-z]"
)

LANGUAGES = {
    "fr": {
        "confirm": "Valider",
        "last_move": "Dernier coup :",
        "hand": "Votre main",
        "rules": "Comment jouer",
        "wins": ("gagne", "partagent"),
        # The French rulebook's names (Life is Life) and the expected ones (Blöde Kuh).
        "cards": {
            "Girafe",
            "Ours",
            "Taupe",
            "Chèvre",
            "Mouton",
            "Chien",
            "Lapin",
            "Cochon",
            "Chat",
            "Souris",
            "Cheval",
            "Vache",
        },
    },
    "de": {
        "confirm": "Bestätigen",
        "last_move": "Letzter Zug:",
        "hand": "Deine Hand",
        "rules": "So wird gespielt",
        "wins": ("gewinnt", "teilen sich"),
        "cards": {
            "Schaf",
            "Schwein",
            "Pferd",
            "Kuh",
            "Giraffe",
            "Bär",
            "Maulwurf",
            "Ziege",
            "Hund",
            "Hase",
            "Katze",
            "Maus",
        },
    },
}


class LanguageReader(Reader):
    """Read the page as test_table's Reader does, and in one language only."""

    def __init__(self, driver: WebDriver, game: str, width: int, lang: str) -> None:
        super().__init__(driver, game, width, last_move=LANGUAGES[lang]["last_move"])
        self.lang = lang
        self.confirms_seen = 0

    def __call__(self, driver: WebDriver) -> None:
        super().__call__(driver)
        words = LANGUAGES[self.lang]
        assert driver.find_element(By.TAG_NAME, "html").get_attribute("lang") == self.lang
        text = driver.find_element(By.TAG_NAME, "body").text
        english = [word for word in ENGLISH if re.search(rf"\b{re.escape(word)}", text)]
        assert not english, f"English words in the {self.lang} page: {english}"
        assert not RAW_KEY.search(text), RAW_KEY.search(text)
        assert words["rules"] in text
        # Read in one script: the table may redraw between finding the names and reading each one.
        script = "return [...document.querySelectorAll('.card .name')].map((name) => name.textContent)"
        names = set(driver.execute_script(script))
        assert names and names <= words["cards"], names - words["cards"]
        confirm = driver.find_elements(By.ID, "confirm")
        if confirm:
            self.confirms_seen += 1
            assert confirm[0].text.startswith(words["confirm"]), confirm[0].text
            assert words["hand"] in text


def play_in(driver: WebDriver, reader: LanguageReader) -> None:
    """Play the game on the page to its end, reading it at every step; check its result's words."""
    play_to_end(driver, check=reader)
    assert finished(driver)
    reader(driver)
    assert reader.confirms_seen > 0 and reader.opponent_moves_seen > 0
    line = driver.find_element(By.CSS_SELECTOR, "#result .winner-line").text
    assert any(word in line for word in LANGUAGES[reader.lang]["wins"]), line


def switch(driver: WebDriver, lang: str) -> None:
    Select(driver.find_element(By.ID, "language")).select_by_value(lang)
    wait(driver).until(lambda d: d.find_element(By.TAG_NAME, "html").get_attribute("lang") == lang)


def test_a_french_browser_gets_the_page_in_french_and_plays_a_game_to_the_end(
    browser, base_url: str, screens: Path
) -> None:
    driver = browser(1280, 900, lang="fr-FR")
    driver.get(f"{base_url}/#/")
    wait(driver).until(lambda d: d.find_elements(By.ID, "create-game"))
    assert driver.find_element(By.ID, "create-game").text == "Créer la partie"
    assert Select(driver.find_element(By.ID, "language")).first_selected_option.get_attribute("value") == "fr"
    create_in_lobby(driver, base_url, "life-is-life", ["you", "bot:heuristic", "bot:heuristic"], {})
    reader = LanguageReader(driver, "life-is-life", 1280, "fr")
    reader(driver)
    screenshot(driver, screens, "life-is-life-fr-start")
    play_in(driver, reader)
    screenshot(driver, screens, "life-is-life-fr-end")


def test_a_german_game_to_the_end_and_switching_at_the_table_redraws_in_place(
    browser, base_url: str, screens: Path
) -> None:
    driver = browser(1280, 900, lang="de-DE")
    game_id = create_in_lobby(driver, base_url, "bloede-kuh", ["you", "bot:heuristic", "bot:random"], {})
    reader = LanguageReader(driver, "bloede-kuh", 1280, "de")
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

    play_in(driver, reader)
    screenshot(driver, screens, "bloede-kuh-de-end")

    # A phone in German: the long words wrap; nothing scrolls sideways at the table or in the lobby.
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
