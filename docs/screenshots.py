"""Take the docs' pictures of the page: the lobby and a table, from a running `make run`.

    .venv/bin/python docs/screenshots.py [--url http://127.0.0.1:8000]

It creates a few games on that server (one waiting for a player, one in play
with a human seat, one all-bot game), then drives headless Debian Chromium
(`apt-get install chromium chromium-driver`) and writes docs/images/lobby.png
and docs/images/table.png.
"""

from __future__ import annotations

import argparse
import json
import time
import urllib.request
import uuid
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

IMAGES = Path(__file__).parent / "images"


def post(url: str, body: dict) -> dict:
    """POST JSON with a fresh Idempotency-Key; return the answer."""
    headers = {"Content-Type": "application/json", "Idempotency-Key": str(uuid.uuid4())}
    request = urllib.request.Request(url, json.dumps(body).encode(), headers, method="POST")
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.loads(answer.read())


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


if __name__ == "__main__":
    main()
