"""The table for keyboard and screen-reader players: a focus ring apart from the last-move mark, focus kept
after Confirm, readable contrast, headings in order, and announcements that name the actor first."""

from __future__ import annotations

from collections.abc import Callable

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.webdriver import WebDriver

from tests.browser.support import play_one, skipped_headings, wait
from tests.browser.test_live import Table

FOCUS_BLUE = "rgb(26, 95, 209)"
MARK_YELLOW = "rgb(224, 161, 0)"

# WCAG 2 contrast of an element's text with the first background colour behind it.
CONTRAST = """
const lum = (rgb) => {
  const [r, g, b] = rgb.match(/\\d+(\\.\\d+)?/g).slice(0, 3).map(Number).map((v) => v / 255)
    .map((c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
};
let el = arguments[0];
const ink = getComputedStyle(el).color;
let bg = "rgb(255, 255, 255)";
for (; el; el = el.parentElement) {
  const c = getComputedStyle(el).backgroundColor;
  if (c !== "rgba(0, 0, 0, 0)" && c !== "transparent") { bg = c; break; }
}
const [a, b] = [lum(ink), lum(bg)].sort((x, y) => y - x);
return (a + 0.05) / (b + 0.05);
"""


def test_the_table_reads_well_by_keyboard_and_screen_reader(browser: Callable[..., WebDriver], base_url: str) -> None:
    table = Table(browser(1280, 900), base_url, "animals-on-board", "access-1", players=2)
    table.open()
    driver = table.driver
    wait(driver).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#turn.yours"))

    for selector in (".tag.you", "#turn.yours"):
        ratio = driver.execute_script(CONTRAST, driver.find_element(By.CSS_SELECTOR, selector))
        assert ratio >= 4.5, f"{selector}: {ratio:.2f}:1"
    assert skipped_headings(driver) == [], "a heading level skipped"

    # A control marked as part of the last move still shows the keyboard's focus ring, in its own colour.
    pick = driver.find_element(By.CSS_SELECTOR, "button.pick")
    driver.find_element(By.TAG_NAME, "body").send_keys(Keys.SHIFT)  # the keyboard is in use
    driver.execute_script("arguments[0].classList.add('last-move'); arguments[0].focus()", pick)
    style = driver.execute_script(
        "const s = getComputedStyle(arguments[0]); return [s.outlineStyle, s.outlineColor, s.boxShadow]", pick
    )
    assert style[0] == "solid" and style[1] == FOCUS_BLUE, style
    assert MARK_YELLOW in style[2], style

    # After Confirm, focus is on the turn line (what happens now), not dropped to the page's body.
    assert play_one(driver)
    wait(driver).until(lambda d: d.execute_script("return document.activeElement.id") == "turn")

    # Bea's move is read out once, her name first, one full stop to a sentence.
    table.play(1)
    announce = wait(driver).until(lambda d: d.find_element(By.ID, "announce").get_attribute("textContent"))
    assert announce.startswith("Bea"), announce
    assert ".." not in announce, announce
    # The table drawn anew for her move kept the focus where Confirm left it.
    assert driver.execute_script("return document.activeElement.id") == "turn"
    assert skipped_headings(driver) == [], "a heading level skipped"
