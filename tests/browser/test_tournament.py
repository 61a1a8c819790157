"""A tournament entrant registers on the page, plays a round from "your games" and follows the standings."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path

from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC

from tests.browser.support import finished, play_to_end, post, screenshot, wait


def _post_as(base_url: str, path: str, body: dict, token: str) -> dict:
    request = urllib.request.Request(
        base_url + path,
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {token}"},
        method="POST",
    )
    with urllib.request.urlopen(request) as response:
        return json.load(response)


def test_an_entrant_registers_plays_a_round_from_your_games_and_sees_the_standings(
    browser, base_url: str, screens: Path
) -> None:
    created = post(
        base_url, "/tournaments", {"game": "animals-on-board", "rounds": 1, "format": "round-robin", "table_sizes": [2]}
    )
    tid, organiser = created["id"], created["organiser_token"]
    driver = browser(390, 844)
    driver.get(f"{base_url}/#/tournament/{tid}")
    name = wait(driver).until(EC.presence_of_element_located((By.ID, "entrant-name")))
    name.clear()
    name.send_keys("Ann")
    driver.find_element(By.ID, "register-button").click()
    wait(driver).until(EC.text_to_be_present_in_element((By.ID, "your-games"), "You are registered"))
    # Before the start there is no round 0: the facts give the rounds planned.
    facts = driver.find_element(By.CSS_SELECTOR, ".facts").text
    assert "rounds: 1" in facts and "round 0" not in facts
    # The page kept the registration's receipt (its PlayerRegistered held the entropy the page sent).
    kept = driver.execute_script(f"return JSON.parse(sessionStorage.getItem('menagerie:receipts:{tid}'))")

    _post_as(base_url, f"/tournaments/{tid}/register", {"bot": "heuristic"}, organiser)
    _post_as(base_url, f"/tournaments/{tid}/start", {}, organiser)
    play = wait(driver).until(EC.element_to_be_clickable((By.CSS_SELECTOR, "#your-games a.play-link")))
    # Tables and seats as people count them (from 1); the API's index stands beside it only for the organiser.
    assert "Round 1, table 1, seat" in driver.find_element(By.ID, "your-games").text
    assert "Table 1:" in driver.find_element(By.ID, "tournament").text
    assert "API" not in driver.find_element(By.ID, "tournament").text
    screenshot(driver, screens, "tournament-paired")
    play.click()

    wait(driver).until(EC.presence_of_element_located((By.ID, "turn")))
    assert play_to_end(driver) > 0
    assert finished(driver)
    driver.get(f"{base_url}/#/tournament/{tid}")
    standings = wait(driver).until(EC.presence_of_element_located((By.ID, "standings")))
    wait(driver).until(lambda d: "finished" in d.find_element(By.CSS_SELECTOR, ".facts").text)
    assert "Ann" in standings.text
    with urllib.request.urlopen(urllib.request.Request(f"{base_url}/tournaments/{tid}/export")) as response:
        registered = json.load(response)["lines"][2]  # the bundle's header, then the stream: event 2
    assert registered["type"] == "PlayerRegistered" and registered["data"]["name"] == "Ann"
    assert kept == [{"seq": 2, "hash": registered["hash"]}] and len(registered["data"]["entropy"]) == 32
    rows = driver.find_elements(By.CSS_SELECTOR, "#standings tbody tr")
    assert len(rows) == 2 and all(row.find_elements(By.TAG_NAME, "td")[5].text == "1" for row in rows)
    assert driver.execute_script(
        "return document.documentElement.scrollWidth <= document.documentElement.clientWidth"
    ), "sideways scroll"
    screenshot(driver, screens, "tournament-standings")
