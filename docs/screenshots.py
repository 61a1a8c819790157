"""Take the docs' pictures of the page from a running `make run`: the lobby, a table, and every game.

    .venv/bin/python docs/screenshots.py [--url http://127.0.0.1:8000]

It creates a few games on that server (one waiting for a player, one in play
with a human seat, one all-bot game), then drives headless Debian Chromium
(`apt-get install chromium chromium-driver`) and writes docs/images/lobby.png
and docs/images/table.png. Then, for each of the four games, at desktop
(1280x900) and phone (390x844) width, it plays a game with a guest seat
against bots (the guest's moves sent through the API, the page following as it
would) and writes docs/images/<game>/{start,middle,end}-{desktop,phone}.png:
the window as the player sees it, not the whole page.
"""

from __future__ import annotations

import argparse
import json
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

IMAGES = Path(__file__).parent / "images"
# Each game with the fewest seats it allows, and how many of the guest's moves make its middle.
GAMES = {"life-is-life": (3, 5), "animals-on-board": (2, 10), "bloede-kuh": (3, 8), "zop-zoo": (2, 12)}
WIDTHS = {"desktop": (1280, 900), "phone": (390, 844)}
TRIES = 5  # games to play for one set of pictures when a guest is knocked out before its middle


def post(url: str, body: dict) -> dict:
    """POST JSON with a fresh Idempotency-Key; return the answer."""
    headers = {"Content-Type": "application/json", "Idempotency-Key": str(uuid.uuid4())}
    request = urllib.request.Request(url, json.dumps(body).encode(), headers, method="POST")
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.loads(answer.read())


def call(url: str, method: str = "GET", body: dict | None = None, token: str | None = None) -> dict:
    """One request with a seat's token; return the JSON answer."""
    headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {})}
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data, headers, method=method)
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.loads(answer.read())


def browser(width: int, height: int) -> webdriver.Chrome:
    """Headless Chromium with a window of this size (reduced motion: the picture is not mid-animation)."""
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", f"--window-size={width},{height}", "--hide-scrollbars"):
        options.add_argument(flag)
    options.add_argument("--force-prefers-reduced-motion")
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    if width < 500:
        # Headless Chromium keeps a window at least 500 px wide: a phone's width is emulated instead.
        metrics = {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": True}
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
    return driver


def caught_up(driver: webdriver.Chrome, version: int) -> None:
    """Wait until the page shows the game at `version` or later (the turn line names it in its data)."""
    script = "const t = document.getElementById('turn'); return t ? Number(t.dataset.version || -1) : -1;"
    WebDriverWait(driver, 30).until(lambda d: d.execute_script(script) >= version)
    time.sleep(0.5)  # a picture, not a test: let the last redraw settle


def play_and_picture(url: str, game: str, seats: int, middle: int, width: str) -> bool:
    """Play one game of `game` as a guest against heuristic bots; picture its start, middle and end.

    Return False when the game ended before the guest's `middle`-th move (a guest knocked out early): no middle.
    """
    made = post(f"{url}/games", {"game": game, "seats": [{"name": "Ann"}] + [{"bot": "heuristic"}] * (seats - 1)})
    game_id, token = made["id"], made["seats"][0]["token"]
    folder = IMAGES / game
    folder.mkdir(exist_ok=True)
    driver = browser(*WIDTHS[width])
    try:
        driver.get(f"{url}/#/seat/{game_id}/{token}")
        moves = 0
        pictured = set()
        while True:
            view = call(f"{url}/games/{game_id}", token=token)
            moment = "end" if view["status"] == "finished" else {0: "start", middle: "middle"}.get(moves)
            # The start and the middle at the guest's turn (as the player sees the table to move), once each.
            if moment and moment not in pictured and (moment == "end" or view["legal_actions"]):
                if moment == "end" and "middle" not in pictured:
                    return False
                caught_up(driver, view["version"])
                driver.save_screenshot(str(folder / f"{moment}-{width}.png"))
                pictured.add(moment)
                if moment == "end":
                    return True
            if view["legal_actions"]:
                body = {"action": view["legal_actions"][0], "expected_version": view["version"]}
                try:
                    call(f"{url}/games/{game_id}/actions", "POST", body, token)
                    moves += 1
                except urllib.error.HTTPError:
                    pass  # a bot moved first (409): read the game again
            else:
                time.sleep(0.05)  # the bots' turn
    finally:
        driver.quit()


def main() -> None:
    """Create the games, then take both pictures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    url = parser.parse_args().url.rstrip("/")
    post(f"{url}/games", {"game": "zop-zoo", "seats": [{"name": "ann"}, {}]})
    post(
        f"{url}/games", {"game": "bloede-kuh", "seats": [{"bot": "heuristic"}, {"bot": "random"}, {"bot": "heuristic"}]}
    )
    mine = post(
        f"{url}/games",
        {"game": "life-is-life", "seats": [{"name": "ann"}, {"bot": "heuristic"}, {"bot": "heuristic"}]},
    )
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--window-size=1280,900", "--hide-scrollbars"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    try:
        driver.get(f"{url}/")
        WebDriverWait(driver, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, "main h2"))
        time.sleep(1)  # let the lists fill in
        driver.save_screenshot(str(IMAGES / "lobby.png"))
        driver.get(f"{url}/#/seat/{mine['id']}/{mine['seats'][0]['token']}")
        WebDriverWait(driver, 30).until(lambda d: d.find_elements(By.ID, "table"))
        time.sleep(1)
        driver.save_screenshot(str(IMAGES / "table.png"))
    finally:
        driver.quit()
    for game, (seats, middle) in GAMES.items():
        for width in WIDTHS:
            for _ in range(TRIES):
                if play_and_picture(url, game, seats, middle, width):
                    break
            else:
                raise SystemExit(f"{game} at {width} width: every game ended before its middle")


if __name__ == "__main__":
    main()
