"""Each of the four games played to the end through the page by picking cards and confirming, on a desktop and a phone,
in English, French and German.

At every step the page is read as a player reads it: no "null", raw event names or translation keys, only
the page's language, few move controls, the hand's values printed, no card text under 11 CSS px, the last
move marked, no sideways scroll, no console error, no serious or critical axe-core violation, and the focus
kept somewhere sensible after Confirm. Screenshots of each game's start, middle and end are kept (see `screens`).

The suite plays each game at both widths (8 plays), the languages taken in turn so that each is played at
both widths and each game in two of them; MENAGERIE_FULL_PAGE_MATRIX=1 plays all 24 (each game at each width
in each language).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from tests.browser.support import (
    assert_hand_and_bar_in_view,
    assert_result_in_view,
    axe_violations,
    broken_card_lines,
    create_in_lobby,
    finished,
    hidden_covered_names,
    play_to_end,
    screenshot,
    skipped_headings,
    small_card_text,
)
from tests.browser.words import BROWSER_LANG, ENGLISH, LANGUAGES, NAMED_CARDS, RAW_KEY

MAX_CONTROLS = 24
# Every event type of the four games and the shared ones: none may show as such in the page's words.
EVENT_TYPES = re.compile(r"\b[A-Z][a-z]+(?:[A-Z][a-z]+)+\b")
SNAKE = re.compile(r"\b[a-z]+_[a-z_]+\b")
BAD_WORDS = re.compile(r"\b(null|undefined|NaN)\b")

GAMES = [
    ("life-is-life", ["you", "bot:heuristic", "bot:heuristic"], {}),
    ("animals-on-board", ["you", "bot:heuristic"], {}),
    ("bloede-kuh", ["you", "bot:heuristic", "bot:random"], {}),
    ("zop-zoo", ["you", "bot:heuristic"], {"target": 100}),
]
SIZES = {"desktop": (1280, 900), "phone": (390, 844)}
# The suite's 8 plays: each game at both widths, in two languages; each language at both widths.
TURNS = {
    ("life-is-life", "desktop"): "fr",
    ("life-is-life", "phone"): "en",
    ("animals-on-board", "desktop"): "en",
    ("animals-on-board", "phone"): "fr",
    ("bloede-kuh", "desktop"): "de",
    ("bloede-kuh", "phone"): "en",
    ("zop-zoo", "desktop"): "en",
    ("zop-zoo", "phone"): "de",
}
FULL_MATRIX = os.environ.get("MENAGERIE_FULL_PAGE_MATRIX") == "1"
CASES = [
    (game, seats, options, size, lang)
    for game, seats, options in GAMES
    for size in SIZES
    for lang in LANGUAGES
    if FULL_MATRIX or TURNS[(game, size)] == lang
]


class Reader:
    """Check the page at each step of a game, as a player would read it, in one language.

    `axe`: run axe-core at every step (as the whole plays do; a test about something else may leave it out).
    """

    def __init__(self, driver: WebDriver, game: str, width: int, lang: str = "en", *, axe: bool = False) -> None:
        self.driver, self.game, self.width, self.lang, self.axe = driver, game, width, lang, axe
        self.words = LANGUAGES[lang]
        self.last_move = self.words["last_move"]
        self.steps = 0
        self.opponent_moves_seen = 0
        self.confirms_seen = 0
        self.confirmed = False  # whether the player's Confirm is the last thing done on the page
        self.kinds_checked: set[str] = set()  # the kinds of control axe-core has read on this table

    def after_pick(self, driver: WebDriver) -> None:
        """A pick may offer controls no step before a move shows (a rare card's button): axe-core reads each new kind."""
        if not self.axe:
            return
        kinds = driver.execute_script(_CONTROL_KINDS)
        if not set(kinds) <= self.kinds_checked:
            assert axe_violations(driver) == [], f"axe-core after a pick at step {self.steps}"
            self.kinds_checked.update(kinds)

    def after_confirm(self, driver: WebDriver) -> None:
        """Once a move's answer is shown, the focus is on the page's table, not dropped to its body."""
        self.confirmed = True
        self.focus_kept(driver)

    def focus_kept(self, driver: WebDriver) -> None:
        where = driver.execute_script(_FOCUS)
        assert where != "body" and where.startswith("main"), f"the focus after Confirm is on {where}"

    def __call__(self, driver: WebDriver) -> None:
        self.steps += 1
        if self.confirmed:
            # The tables drawn since (a bot's reply, a round's end) kept it there.
            self.focus_kept(driver)
        text = driver.find_element(By.TAG_NAME, "main").text
        assert not BAD_WORDS.search(text), BAD_WORDS.search(text)
        assert not EVENT_TYPES.search(text), EVENT_TYPES.search(text)
        assert not SNAKE.search(text), SNAKE.search(text)
        # "Ann (you)'s row": a possessive after the "(you)" mark reads wrong; the words avoid it.
        labels = driver.execute_script(
            "return [...document.querySelectorAll('main [aria-label]')].map((e) => e.getAttribute('aria-label'))"
        )
        assert not [x for x in [text, *labels] if "(you)'s" in x], "a possessive of '(you)'"
        controls = [c for c in driver.find_elements(By.CSS_SELECTOR, ".move-control") if c.is_displayed()]
        assert len(controls) <= MAX_CONTROLS, f"{len(controls)} move controls"
        for control in controls:
            assert (control.get_attribute("aria-label") or control.text).strip(), "a control without a name"
        self.values_on_cards(driver)
        last = driver.find_elements(By.ID, "last-move")
        if last and last[0].get_attribute("data-actor") != "0":
            self.opponent_moves_seen += 1
            assert last[0].text.startswith(self.last_move)
            assert driver.find_elements(By.CSS_SELECTOR, ".events li.last-move"), "the log marks the last move"
        assert driver.execute_script("return window.innerWidth") == self.width
        assert broken_card_lines(driver) == [], "a word on a card broken or cut off"
        assert skipped_headings(driver) == [], "a heading level skipped"
        assert small_card_text(driver) == [], "card text under 11 px"
        assert hidden_covered_names(driver) == [], "a covered card's name hidden"
        assert driver.execute_script(
            "return document.documentElement.scrollWidth <= document.documentElement.clientWidth"
        ), "sideways scroll"
        errors = [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
        assert not errors, errors
        self.in_language(driver)
        fresh = self.steps == 1 or self.confirmed  # on load, or since the player's last Confirm (nothing else done)
        if fresh and not finished(driver) and driver.find_elements(By.CSS_SELECTOR, "#turn.yours"):
            # Before each move: the turn has begun, and nothing the player did since moved the page.
            try:
                assert_hand_and_bar_in_view(driver)
            except AssertionError as e:
                raise AssertionError(f"hand and move bar at step {self.steps}: {e}") from None
        if self.axe:
            assert axe_violations(driver) == [], f"axe-core at step {self.steps}"
            self.kinds_checked.update(driver.execute_script(_CONTROL_KINDS))

    def in_language(self, driver: WebDriver) -> None:
        """The page speaks its language only: no translation key, no English word in another language."""
        words = self.words
        assert driver.find_element(By.TAG_NAME, "html").get_attribute("lang") == self.lang
        text = driver.find_element(By.TAG_NAME, "body").text
        assert not RAW_KEY.search(text), RAW_KEY.search(text)
        if self.lang != "en":
            english = [word for word in ENGLISH if re.search(rf"\b{re.escape(word)}", text)]
            assert not english, f"English words in the {self.lang} page: {english}"
        assert words["rules"] in text
        if words["cards"] and self.game in NAMED_CARDS:
            # Read in one script: the table may redraw between finding the names and reading each one.
            script = "return [...document.querySelectorAll('.card .name')].map((name) => name.textContent)"
            names = set(driver.execute_script(script))
            assert names and names <= words["cards"], names - words["cards"]
        confirm = driver.find_elements(By.ID, "confirm")
        if confirm:
            self.confirms_seen += 1
            assert confirm[0].text.startswith(words["confirm"]), confirm[0].text
            if self.game in NAMED_CARDS:  # the games with a hand of cards to trade or play from
                assert words["hand"] in text

    def values_on_cards(self, driver: WebDriver) -> None:
        """The numbers the rules depend on are printed on the cards a player chooses from."""
        faces = driver.find_elements(By.CSS_SELECTOR, ".hand .card:not(.back)")
        if self.game == "life-is-life":
            assert faces or not driver.find_elements(By.ID, "actions"), "a hand to trade from"
            assert all(re.fullmatch(r"\d", f.find_element(By.CSS_SELECTOR, ".num").text) for f in faces)
        if self.game == "animals-on-board":
            assert all(re.fullmatch(r"[1-5]", f.find_element(By.CSS_SELECTOR, ".num").text) for f in faces)
        if self.game == "bloede-kuh":
            # A species held more than once shows how many ("×2"); one card alone carries no "×1".
            # (Read in one script: the live feed may redraw the hand between two reads.)
            stacks = driver.execute_script(
                "return [...document.querySelectorAll('.hand .stack')].map((s) => "
                "[s.textContent, (s.closest('button') || s).getAttribute('aria-label')])"
            )
            for text, label in stacks:
                badge = re.search(r"×(\d+)", text)
                assert badge is None or int(badge.group(1)) > 1, text
                if label:  # a pick: its name says how many, in any language ("Schaf, 2 auf der Hand")
                    assert (badge is not None) == (int(re.findall(r"\d+", label)[-1]) > 1), (text, label)
            for nwi in driver.find_elements(By.CSS_SELECTOR, ".card.nwi"):
                assert re.fullmatch(r"[1-6]", nwi.find_element(By.CSS_SELECTOR, ".num").text)
        if self.game == "zop-zoo":
            rows = driver.find_elements(By.CSS_SELECTOR, ".zoo-row .card.d-white")
            assert rows and all(f.find_elements(By.CSS_SELECTOR, ".num") for f in rows)


# A control's kind: its element, classes, the first part of its pick key ("row", "card"), whether it is
# pressed or disabled, and whether it has words of its own or a label.
_CONTROL_KINDS = """
return [...new Set([...document.querySelectorAll('main button, main a, main input, main select, main [role]')].map((el) =>
  [el.tagName, [...el.classList].sort().join('.'), (el.dataset.key || '').split(':')[0], el.getAttribute('role') || '',
   el.getAttribute('aria-pressed') || '', el.disabled ? 'disabled' : '',
   el.textContent.trim() ? 'text' : '', el.hasAttribute('aria-label') ? 'label' : ''].join('/')))];
"""

_FOCUS = """
const el = document.activeElement;
if (!el || el === document.body) return "body";
return (el.closest("main") ? "main " : "") + el.tagName.toLowerCase() + (el.id ? "#" + el.id : "");
"""


@pytest.mark.parametrize(
    ("game", "seats", "options", "size", "lang"), CASES, ids=[f"{c[0]}-{c[3]}-{c[4]}" for c in CASES]
)
def test_a_whole_game_is_played_by_picking_and_confirming(
    browser, base_url: str, screens: Path, game: str, seats: list[str], options: dict, size: str, lang: str
) -> None:
    driver = browser(*SIZES[size], lang=BROWSER_LANG[lang])
    create_in_lobby(driver, base_url, game, seats, options)
    reader = Reader(driver, game, SIZES[size][0], lang, axe=True)
    reader(driver)
    name = f"{game}-{size}" if lang == "en" else f"{game}-{size}-{lang}"
    screenshot(driver, screens, f"{name}-start")

    moves = play_to_end(driver, check=reader, pause_after=4)
    if not finished(driver):
        screenshot(driver, screens, f"{name}-middle")
        moves += play_to_end(driver, check=reader)

    assert moves > 0 and reader.confirms_seen > 0
    assert reader.opponent_moves_seen > 0
    result = driver.find_element(By.ID, "result")
    assert "Ann" in result.text
    assert len(driver.find_elements(By.CSS_SELECTOR, "#result table.scores tbody tr")) == len(seats), (
        "every seat's score"
    )
    assert any(word in result.text for word in reader.words["wins"]), result.text
    assert_result_in_view(driver)
    reader(driver)
    screenshot(driver, screens, f"{name}-end")
