"""Driving the page: create a game in the lobby, play the first legal action until the result, screenshots."""

from __future__ import annotations

import base64
import json
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

from selenium.common.exceptions import StaleElementReferenceException, TimeoutException
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.remote.webelement import WebElement
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import Select, WebDriverWait

WAIT = 30  # seconds a condition may take before the test fails (a bound, never a pause)


def wait(driver: WebDriver, timeout: float = WAIT) -> WebDriverWait:
    """Return a waiter that polls a condition until it holds or the bound passes."""
    return WebDriverWait(driver, timeout, ignored_exceptions=(StaleElementReferenceException,))


def create_in_lobby(
    driver: WebDriver,
    base_url: str,
    game: str,
    seats: list[str],
    options: dict[str, Any],
    *,
    name: str | None = "Ann",
) -> str:
    """Fill the lobby's new-game form (seat kinds: "you", "bot:heuristic", "open") and return the game id.

    `name`: your seat's; None when the browser keeps an account, whose form names no one (your seat is the
    account's).
    """
    driver.get(f"{base_url}/#/")
    form = wait(driver).until(EC.presence_of_element_located((By.ID, "new-game")))
    Select(form.find_element(By.ID, "game-type")).select_by_value(game)
    if name is None:
        assert not form.find_elements(By.ID, "your-name")
    else:
        field = form.find_element(By.ID, "your-name")
        field.clear()
        field.send_keys(name)
    count = form.find_element(By.ID, "seat-count")
    count.clear()
    count.send_keys(str(len(seats)))
    wait(driver).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "select.seat-kind")) == len(seats))
    for index, kind in enumerate(seats):
        Select(driver.find_element(By.ID, f"seat-{index}")).select_by_value(kind)
    for option, value in options.items():
        field = driver.find_element(By.ID, f"option-{option}")
        field.clear()
        field.send_keys(str(value))
    driver.find_element(By.ID, "create-game").click()
    wait(driver).until(EC.url_contains("#/game/"))
    wait(driver).until(EC.presence_of_element_located((By.ID, "turn")))
    return driver.current_url.rsplit("/", 1)[-1]


def first_action(driver: WebDriver) -> WebElement | None:
    """Return the next control a player would press: Confirm once a move is picked, else the first pick that leads on."""
    try:
        for selector in ("#confirm:enabled", 'button.pick[data-addable="true"]'):
            for button in driver.find_elements(By.CSS_SELECTOR, selector):
                if button.is_displayed():
                    return button
    except StaleElementReferenceException:
        pass  # the live feed redrew the table meanwhile: the caller looks again
    return None


def finished(driver: WebDriver) -> bool:
    """Tell whether the table shows the game's result."""
    return bool(driver.find_elements(By.CSS_SELECTOR, "#result")) and bool(
        driver.find_elements(By.CSS_SELECTOR, '#turn[data-status="finished"]')
    )


def play_one(
    driver: WebDriver,
    *,
    allow_conflict: bool = False,
    max_picks: int = 40,
    after_confirm: Callable[[WebDriver], None] | None = None,
    after_pick: Callable[[WebDriver], None] | None = None,
) -> bool:
    """Pick on the table until a move is made, then confirm it; return whether a move was sent.

    With `allow_conflict` a 409 (another seat moved first, e.g. both picking at once) is
    accepted: the page says so and shows the fresh table. `after_pick` checks the page
    after each pick, `after_confirm` once the move's answer is shown.
    """
    for _ in range(max_picks):
        button = first_action(driver)
        if button is None:
            return False
        try:
            confirming = button.get_attribute("id") == "confirm"
            # As a player scrolls: the move bar sticks to the window's foot and may cover what lies under it.
            driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
            button.click()
        except StaleElementReferenceException:
            return False  # the live feed redrew the table first (another seat moved): look again
        # Every pick redraws the table; a confirm redraws it after the answer (a move or an error message).
        wait(driver).until(EC.staleness_of(button))
        if confirming:
            wait(driver).until(lambda d: not d.find_elements(By.CSS_SELECTOR, '#confirm[aria-busy="true"]'))
            errors = [e.text for e in driver.find_elements(By.ID, "error") if e.text]
            if allow_conflict:
                errors = [text for text in errors if "moved on before your move arrived" not in text]
            assert not errors, errors
            if after_confirm:
                after_confirm(driver)
            return True
        if after_pick:
            after_pick(driver)
    raise AssertionError(f"no move after {max_picks} picks")


def play_to_end(
    driver: WebDriver, max_moves: int = 1000, check: Callable[[WebDriver], None] | None = None, pause_after: int = 0
) -> int:
    """Play until the result shows (checking the page before each move); return the number of moves.

    With `pause_after` return after that many moves even if the game goes on (a screenshot midway).
    """
    moves = 0
    while moves < max_moves:
        if pause_after and moves >= pause_after:
            return moves
        wait(driver).until(lambda d: finished(d) or first_action(d) is not None)
        if check:
            check(driver)
        if finished(driver):
            return moves
        hooks = {hook: getattr(check, hook, None) for hook in ("after_confirm", "after_pick")}
        if play_one(driver, **hooks):
            moves += 1
    raise AssertionError(f"no result after {max_moves} moves")


def screenshot(driver: WebDriver, folder: Path, name: str) -> Path:
    """Save the whole page (beyond the window, at the window's width) as a PNG and print its path."""
    # The move bar sticks to the window's foot: in a picture of the whole page it belongs where it stands.
    scrolled = driver.execute_script("return window.scrollY")
    driver.execute_script("document.querySelectorAll('.move-bar').forEach((bar) => { bar.style.position = 'static'; })")
    size = driver.execute_script("return [document.documentElement.clientWidth, document.documentElement.scrollHeight]")
    clip = {"x": 0, "y": 0, "width": size[0], "height": min(size[1], 8000), "scale": 1}
    shot = driver.execute_cdp_cmd(
        "Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True, "clip": clip}
    )
    # Then the window as the player left it: the bar pinned again, the page where it was.
    driver.execute_script(
        "document.querySelectorAll('.move-bar').forEach((bar) => { bar.style.position = ''; });"
        "window.scrollTo({top: arguments[0], behavior: 'instant'})",
        scrolled,
    )
    path = folder / f"{name}.png"
    path.write_bytes(base64.b64decode(shot["data"]))
    print(f"screenshot: {path}")
    return path


def post(base_url: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    """POST JSON to the API directly (setting up a scene the test is not about)."""
    request = urllib.request.Request(
        base_url + path, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(request) as response:
        return json.load(response)


def broken_card_lines(driver: WebDriver) -> list[str]:
    """Return the card lines (names, second lines) with a word broken inside or cut off by the card's edge."""
    found: list[str] = driver.execute_script(_BROKEN_CARD_LINES)
    return found


# More lines than unbreakable pieces (split where the page lets a word break: spaces, soft hyphens,
# hyphens), or wider than the line or the card.
_BROKEN_CARD_LINES = """
return [...document.querySelectorAll('.card .name, .card .sub')].filter((el) => {
  const lines = Math.round(el.getBoundingClientRect().height / parseFloat(getComputedStyle(el).lineHeight));
  const pieces = el.textContent.trim().split(/[\\s\\u00ad-]+/).length;
  const card = el.closest('.card').getBoundingClientRect();
  const box = el.getBoundingClientRect();
  return lines > pieces || el.scrollWidth > el.clientWidth + 1 || box.left < card.left || box.right > card.right;
}).map((el) => el.textContent);
"""


def skipped_headings(driver: WebDriver) -> list[int]:
    """Return the levels of the headings in <main> that skip a level (an h3 straight after the h1)."""
    found: list[int] = driver.execute_script(_SKIPPED_HEADINGS)
    return found


_SKIPPED_HEADINGS = """
const levels = [...document.querySelectorAll('main h1, main h2, main h3, main h4, main h5, main h6')]
  .map((h) => Number(h.tagName[1]));
return levels.filter((level, i) => (i === 0 ? level !== 1 : level > levels[i - 1] + 1));
"""


SMALLEST_CARD_TEXT_PX = 11


def small_card_text(driver: WebDriver) -> list[str]:
    """Return the texts on cards set smaller than 11 CSS px, each with its size."""
    found: list[str] = driver.execute_script(_SMALL_CARD_TEXT, SMALLEST_CARD_TEXT_PX)
    return found


_SMALL_CARD_TEXT = """
return [...document.querySelectorAll('.card, .card *')]
  .filter((el) => [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim()))
  .map((el) => [el.textContent.trim(), parseFloat(getComputedStyle(el).fontSize)])
  .filter(([, px]) => px < arguments[0])
  .map(([text, px]) => `${text} (${px.toFixed(1)} px)`);
"""


def hidden_covered_names(driver: WebDriver) -> list[str]:
    """Return the names of covered cards (a Zop Zoo stack's base) that another card hides."""
    found: list[str] = driver.execute_script(_HIDDEN_COVERED_NAMES)
    return found


# A name is shown when the card laid over its card leaves the name's box clear.
_HIDDEN_COVERED_NAMES = """
return [...document.querySelectorAll('.zstack.covered > .card:first-child .name')]
  .filter((el) => {
    const name = el.getBoundingClientRect();
    const cover = el.closest('.card').nextElementSibling.getBoundingClientRect();
    return name.bottom > cover.top && name.top < cover.bottom && name.right > cover.left && name.left < cover.right;
  })
  .map((el) => el.textContent);
"""


# axe-core, vendored (tests/browser/axe/README.md says which version and why it is not fetched at test time).
AXE_SOURCE = Path(__file__).parent / "axe" / "axe.min.js"


def axe_violations(driver: WebDriver, impacts: tuple[str, ...] = ("serious", "critical")) -> list[str]:
    """Run axe-core on the page as it stands; return its violations of those impacts, one line per element."""
    if not driver.execute_script("return typeof window.axe === 'object'"):
        driver.execute_script(AXE_SOURCE.read_text(encoding="utf-8"))
    driver.set_script_timeout(WAIT)
    result = driver.execute_async_script(_AXE_RUN)
    if isinstance(result, str):
        raise AssertionError(f"axe-core failed: {result}")
    found: list[str] = [
        f"{v['id']} ({v['impact']}): {node['target']} {node.get('failureSummary', '')!r}"
        for v in result
        if v["impact"] in impacts
        for node in v["nodes"]
    ]
    return found


_AXE_RUN = """
const done = arguments[arguments.length - 1];
axe.run(document, {resultTypes: ["violations"]})
  .then((r) => done(r.violations.map((v) => ({id: v.id, impact: v.impact,
    nodes: v.nodes.map((n) => ({target: n.target.join(" "), failureSummary: n.failureSummary}))}))))
  .catch((e) => done(String(e)));
"""


# The part of the table a player picks from, as each game marks it: your hand of cards (Blöde Kuh, Life is Life),
# your setup tiles then the centre's groups (Animals on Board), your row of stacks (Zop Zoo).
HAND = ".board-panel [data-pick-from]"
# A hand taller than the room between the turn line and the move bar starts this close under the turn line.
TALL_SLACK_PX = 24
SETTLE = 10  # seconds a smooth scroll and the feed's last redraw may take (a bound, never a pause)


def assert_hand_and_bar_in_view(driver: WebDriver, timeout: float = SETTLE) -> None:
    """At your turn: your hand whole in the window, below the pinned turn line and clear of the move bar, which is in the window too.

    A hand taller than the room between the two starts right under the turn line instead. Measured from
    bounding rects; waits (up to `timeout`) for a smooth scroll to end, then fails with the figures.
    """
    wait(driver).until(
        lambda d: d.find_elements(By.CSS_SELECTOR, "#turn.yours") and d.find_elements(By.CSS_SELECTOR, "#actions")
    )
    _settled(driver, _HAND_AND_BAR, [HAND, TALL_SLACK_PX], timeout)


def assert_result_in_view(driver: WebDriver, timeout: float = SETTLE) -> None:
    """At the end: the result's heading and winner line in the window, below the pinned turn line, every total in sight.

    A score table wider than the window scrolls sideways in its box; each row's total stays inside that box.
    """
    wait(driver).until(lambda d: finished(d))
    _settled(driver, _RESULT_IN_VIEW, None, timeout)


def _settled(driver: WebDriver, script: str, arg: object, timeout: float) -> None:
    try:
        wait(driver, timeout).until(lambda d: d.execute_script(script, arg) == [])
    except TimeoutException:
        problems = driver.execute_script(script, arg)
        raise AssertionError(f"{problems} (scrolled {driver.execute_script('return window.scrollY')} px)") from None


_HAND_AND_BAR = """
const [selector, slack] = arguments[0];
const hand = document.querySelector(selector);
const bar = document.getElementById('actions');
const line = document.getElementById('turn-line');
if (!hand || !bar) return ['no hand or no move bar on the table'];
const px = (box) => `${Math.round(box.top)}..${Math.round(box.bottom)}`;
const h = hand.getBoundingClientRect(), b = bar.getBoundingClientRect(), height = window.innerHeight;
const top = line ? line.getBoundingClientRect().bottom : 0;
const out = [];
if (h.top < top - 0.5) out.push(`the hand (${px(h)}) starts above the pinned turn line's foot (${Math.round(top)})`);
if (h.height > height - b.height - top - 16) {  // the page leaves 8 px of air at each side
  // Taller than the room: as much as the room holds, from its top.
  if (h.top > top + slack) out.push(`the tall hand (${px(h)}) starts ${Math.round(h.top - top)} px under the turn line`);
} else {
  if (h.bottom > b.top + 0.5 && h.top < b.bottom - 0.5) out.push(`the move bar (${px(b)}) covers the hand (${px(h)})`);
  if (h.top < -0.5 || h.bottom > height + 0.5) out.push(`the hand (${px(h)}) is not whole in the window (0..${height})`);
}
if (b.top < -0.5 || b.bottom > height + 0.5) out.push(`the move bar (${px(b)}) is not in the window (0..${height})`);
return out;
"""

_RESULT_IN_VIEW = """
const result = document.getElementById('result');
const head = result && result.querySelector('.winner-line');
if (!head) return ['no result on the table'];
const line = document.getElementById('turn-line');
const top = line ? line.getBoundingClientRect().bottom : 0;
const r = result.getBoundingClientRect(), w = head.getBoundingClientRect(), height = window.innerHeight;
const out = [];
if (r.top < top - 0.5) out.push(`the result starts at ${Math.round(r.top)}, above the pinned turn line's foot (${Math.round(top)})`);
if (w.bottom > height + 0.5) out.push(`the winner line ends at ${Math.round(w.bottom)}, below the window (${height})`);
for (const total of result.querySelectorAll('table.scores tbody td:last-child')) {
  const box = (total.closest('.scroll-x') || result).getBoundingClientRect(), t = total.getBoundingClientRect();
  if (t.left < box.left - 0.5 || t.right > box.right + 0.5) out.push(`a total (${total.textContent}) is outside its table's box`);
}
return out;
"""


def split_score_entries(driver: WebDriver) -> list[str]:
    """Return the entries of the result's score cells ("Cow 4") that a line break splits from their number."""
    found: list[str] = driver.execute_script(_SPLIT_SCORE_ENTRIES)
    return found


_SPLIT_SCORE_ENTRIES = r"""
const out = [];
for (const td of document.querySelectorAll('#result table.scores td')) {
  const node = td.firstChild;
  if (!node || node.nodeType !== 3) continue;
  for (const m of node.textContent.matchAll(/\p{L}+[\s\u00a0]-?\d+/gu)) {
    const range = document.createRange();
    range.setStart(node, m.index);
    range.setEnd(node, m.index + m[0].length);
    if (new Set([...range.getClientRects()].map((b) => Math.round(b.top))).size > 1) out.push(m[0]);
  }
}
return out;
"""
