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
    # The bot goes by one name: its entrant's, in the players, at its table and (below) in its game.
    bot = "heuristic-2 (heuristic)"
    table = driver.find_element(By.CSS_SELECTOR, "#tournament li[data-table='0']").text
    assert bot in table and "Bot " not in table, table
    sheet = driver.find_element(By.CSS_SELECTOR, "a.pairings-link").get_attribute("href")
    assert sheet.endswith(f"/tournaments/{tid}/rounds/1/pairings")
    screenshot(driver, screens, "tournament-paired")
    game_id = play.get_attribute("href").split("#/seat/")[1].split("/")[0]
    play.click()

    wait(driver).until(EC.presence_of_element_located((By.ID, "turn")))
    assert bot in driver.find_element(By.TAG_NAME, "main").text
    assert play_to_end(driver) > 0
    assert finished(driver)
    main = driver.find_element(By.TAG_NAME, "main").text
    assert bot in driver.find_element(By.ID, "result").text and "Bot 2" not in main
    driver.get(f"{base_url}/#/replay/{game_id}")
    wait(driver).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#replay-board[data-shown]"))
    assert bot in driver.find_element(By.TAG_NAME, "main").text
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
    assert [bot in row.text for row in rows].count(True) == 1
    # The printed pairings, as anyone following the page's link reads them: counted from 1, the bot by its name.
    driver.get(sheet)
    printed = driver.find_element(By.TAG_NAME, "body").text
    assert "Table 1 (API table 0)" in printed and "seat 1: " in printed and "heuristic-2" in printed, printed
