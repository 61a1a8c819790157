"""Replays with the audit badge, two players' windows seeing each other's moves, and a spectator seeing no hand."""

from __future__ import annotations

import json
from pathlib import Path

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as EC

from tests.browser.support import create_in_lobby, finished, first_action, play_one, post, screenshot, wait
from tests.support.processes import http


def test_a_replay_is_walked_with_the_slider_to_the_end_and_the_audit_badge_is_green(
    browser, base_url: str, tmp_path: Path
) -> None:
    # An all-bot game finishes inside its creation (embedded jobs run in-process).
    created = post(base_url, "/games", {"game": "life-is-life", "seats": [{"bot": "heuristic"}] * 3})
    driver = browser()
    driver.get(f"{base_url}/#/replay/{created['id']}")
    slider = wait(driver).until(EC.presence_of_element_located((By.ID, "replay-slider")))
    last = int(slider.get_attribute("max"))
    assert last > 10

    slider.send_keys(Keys.HOME)
    wait(driver).until(EC.text_to_be_present_in_element((By.ID, "replay-event"), "#1:"))
    unshown = []
    for at in range(2, last + 1):
        slider.send_keys(Keys.ARROW_RIGHT)
        wait(driver).until(EC.text_to_be_present_in_element((By.ID, "replay-event"), f"#{at}:"))
        assert driver.find_element(By.ID, "replay-position").text == f"Event {at} of {last}"
        board = wait(driver).until(
            EC.presence_of_element_located((By.CSS_SELECTOR, f'#replay-board[data-shown="{at}"]'))
        )
        if board.get_attribute("data-failed") == "true":
            unshown.append(driver.find_element(By.ID, "replay-event").text)
    # Known server bug, outside this page: `?at=` at GameStarted, before the game's own
    # set-up event, answers 500 (Game.to_act on a game with no rules state yet).
    assert all("game started" in caption for caption in unshown), unshown

    badge = wait(driver).until(EC.presence_of_element_located((By.CSS_SELECTOR, "#audit-badge.ok")))
    assert badge.get_attribute("data-ok") == "true"
    assert "Audit passed" in badge.text
    assert driver.find_element(By.ID, "result").is_displayed()
    export = driver.find_element(By.ID, "export-link").get_attribute("href")
    assert export.endswith(f"/games/{created['id']}/export")
    screenshot(driver, tmp_path, "replay-final")


def test_two_players_in_two_browsers_see_each_others_moves_without_reloading(
    browser, base_url: str, tmp_path: Path
) -> None:
    ann = browser()
    game_id = create_in_lobby(ann, base_url, "bloede-kuh", ["you", "open", "bot:heuristic"], {})
    join_url = wait(ann).until(EC.presence_of_element_located((By.ID, "join-url"))).get_attribute("href")

    bob = browser()
    bob.get(join_url)
    name = wait(bob).until(EC.presence_of_element_located((By.ID, "join-name")))
    name.clear()
    name.send_keys("Bob")
    bob.find_element(By.ID, "join-button").click()
    wait(bob).until(EC.url_contains(f"#/game/{game_id}"))
    # Ann's page learns that Bob took the seat, and the game started, without a reload.
    wait(ann).until(lambda d: "Bob" in d.find_element(By.ID, "table").text)
    for window in (ann, bob):
        window.execute_script("window.__sameDocument = true")

    moves = {"ann": 0, "bob": 0}
    for _ in range(2000):
        if finished(ann) and finished(bob):
            break
        progressed = False
        for who, window in (("ann", ann), ("bob", bob)):
            if not finished(window) and first_action(window) is not None and play_one(window, allow_conflict=True):
                moves[who] += 1
                progressed = True
        if not progressed:
            # Neither may act: one of them waits for the other's move to arrive by the feed.
            wait(ann, 30).until(
                lambda _: (
                    (finished(ann) and finished(bob)) or first_action(ann) is not None or first_action(bob) is not None
                )
            )
    assert finished(ann) and finished(bob)
    assert moves["ann"] > 0 and moves["bob"] > 0
    # Each page kept its seat's receipt, then one for every event its answers and its feed brought, to the end.
    status, export = http("GET", f"{base_url}/games/{game_id}/export")
    assert status == 200
    published = {event["seq"]: event["hash"] for event in export["events"]}
    for window in (ann, bob):
        kept = window.execute_script(f"return JSON.parse(sessionStorage.getItem('menagerie:receipts:{game_id}'))")
        assert len({r["seq"] for r in kept}) == len(kept) and max(r["seq"] for r in kept) == max(published)
        assert all(published[r["seq"]] == r["hash"] for r in kept)
    for window in (ann, bob):
        assert window.execute_script("return window.__sameDocument === true"), "the page was reloaded"
    # Each saw the other's moves in the live log.
    assert "Bob" in ann.find_element(By.CSS_SELECTOR, ".log").text or "Bob" in ann.find_element(By.ID, "result").text
    assert "Ann" in bob.find_element(By.ID, "result").text
    screenshot(ann, tmp_path, "two-windows-ann")
    screenshot(bob, tmp_path, "two-windows-bob")


def test_a_spectator_page_shows_no_hand(browser, base_url: str, tmp_path: Path) -> None:
    created = post(
        base_url,
        "/games",
        {"game": "life-is-life", "seats": [{"name": "ann"}, {"bot": "heuristic"}, {"bot": "random"}]},
    )
    driver = browser()
    driver.get(f"{base_url}/#/game/{created['id']}")
    wait(driver).until(EC.presence_of_element_located((By.ID, "spectator")))
    wait(driver).until(EC.presence_of_element_located((By.CSS_SELECTOR, ".rows")))

    assert not driver.find_elements(By.CSS_SELECTOR, ".hand")
    assert not driver.find_elements(By.CSS_SELECTOR, "#actions")
    assert "Your hand" not in driver.find_element(By.TAG_NAME, "body").text
    screenshot(driver, tmp_path, "spectator")


def test_a_spectator_refused_every_stream_still_sees_the_game_to_its_end(
    browser, streamless_url: str, tmp_path: Path
) -> None:
    seats = [{"name": "ann"}, {"bot": "heuristic"}, {"bot": "random"}]
    created = post(streamless_url, "/games", {"game": "bloede-kuh", "seats": seats})
    game_id, token = created["id"], created["seats"][0]["token"]
    driver = browser()
    driver.get(f"{streamless_url}/#/game/{game_id}")
    wait(driver).until(EC.presence_of_element_located((By.ID, "spectator")))
    driver.execute_script("window.__sameDocument = true")
    # Ann plays through the API; the bots answer in the same requests.
    auth = {"Authorization": f"Bearer {token}"}
    for _ in range(500):
        status, view = http("GET", f"{streamless_url}/games/{game_id}", headers=auth)
        assert status == 200, view
        if view["status"] == "finished":
            break
        if view["you"] in view["to_act"] and view["legal_actions"]:
            body = {"action": view["legal_actions"][0], "expected_version": view["version"]}
            status, answer = http("POST", f"{streamless_url}/games/{game_id}/actions", body, auth)
            assert status == 200, answer
    assert view["status"] == "finished"
    # The page learns it from the log, read at each refused stream's retry.
    wait(driver, 60).until(finished)
    assert driver.execute_script("return window.__sameDocument === true"), "the page was reloaded"
    screenshot(driver, tmp_path, "spectator-without-stream")


def test_each_players_page_keeps_its_seats_receipt_holding_the_entropy_it_sent(
    browser, base_url: str, tmp_path: Path
) -> None:
    ann = browser()
    game_id = create_in_lobby(ann, base_url, "bloede-kuh", ["you", "open", "bot:heuristic"], {})
    join_url = wait(ann).until(EC.presence_of_element_located((By.ID, "join-url"))).get_attribute("href")
    bob = browser()
    bob.get(join_url)
    name = wait(bob).until(EC.presence_of_element_located((By.ID, "join-name")))
    name.clear()
    name.send_keys("Bob")
    bob.find_element(By.ID, "join-button").click()
    # Each page goes to the table only once its seat's receipt holds the entropy it sent.
    wait(bob).until(EC.url_contains(f"#/game/{game_id}"))
    status, page = http("GET", f"{base_url}/games/{game_id}/events")
    assert status == 200
    seated = {e["data"]["seat"]: e for e in page["events"] if e["type"] == "SeatTaken"}
    for seat, window in ((0, ann), (1, bob)):
        kept = window.execute_script(f"return JSON.parse(sessionStorage.getItem('menagerie:receipts:{game_id}'))")
        assert kept[0] == {"seq": seated[seat]["seq"], "hash": seated[seat]["hash"]}
        # The page sent 16 random bytes as its seat's entropy, and the chained SeatTaken holds them.
        assert len(seated[seat]["data"]["entropy"]) == 32
    # The table hands the receipts over as the receipts file the audit reads.
    link = wait(bob).until(EC.presence_of_element_located((By.ID, "receipts-link")))
    assert link.get_attribute("download") == f"receipts-{game_id}.ndjson"
    bob.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(tmp_path)})
    bob.execute_script("document.getElementById('receipts-link').click()")  # the table may have redrawn it
    saved_file = tmp_path / f"receipts-{game_id}.ndjson"
    wait(bob).until(lambda _: saved_file.exists() and saved_file.stat().st_size > 0)
    saved = saved_file.read_text()
    lines = [json.loads(line) for line in saved.splitlines()]
    assert lines[0] == {"seq": seated[1]["seq"], "hash": seated[1]["hash"]}
