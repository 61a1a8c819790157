"""An organiser runs a tournament from the page: create it, share its code, add bots, start it, correct a result."""

from __future__ import annotations

import json
import re
from pathlib import Path

from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import Select

from tests.browser.support import post, screenshot, wait
from tests.browser.test_account import get, open_account


def register(driver: WebDriver) -> None:
    """Press Register on a tournament page (as the account this browser keeps)."""
    form = wait(driver).until(EC.presence_of_element_located((By.ID, "register-form")))
    assert "Playing as" in form.text
    form.find_element(By.ID, "register-button").click()


def entrants(driver: WebDriver) -> int:
    """Count the rows of the organiser's list of players."""
    return len(driver.find_elements(By.CSS_SELECTOR, "#entrants tbody tr[data-entrant]"))


def test_an_organiser_runs_a_code_tournament_from_the_page_and_corrects_a_result(
    browser, base_url: str, screens: Path
) -> None:
    organiser = browser()
    organiser.get(f"{base_url}/#/")
    wait(organiser).until(EC.element_to_be_clickable((By.ID, "organise-link"))).click()
    wait(organiser).until(EC.presence_of_element_located((By.ID, "organise-form")))
    Select(organiser.find_element(By.ID, "cup-game")).select_by_value("animals-on-board")
    rounds = organiser.find_element(By.ID, "cup-rounds")
    rounds.clear()
    rounds.send_keys("1")
    for size in organiser.find_elements(By.CSS_SELECTOR, "#cup-table-sizes input"):
        if size.get_attribute("value") != "2":
            size.click()  # tables of two only
    Select(organiser.find_element(By.ID, "cup-registration")).select_by_value("code")
    organiser.find_element(By.ID, "organise-button").click()

    # The organiser's token, shown once for safekeeping and kept in this browser; the code to share.
    shown = wait(organiser).until(EC.visibility_of_element_located((By.ID, "organiser-token"))).text
    tid = organiser.current_url.rsplit("/", 1)[-1]
    assert shown.startswith(f"{tid}.")
    kept = json.loads(organiser.execute_script(f"return localStorage.getItem('menagerie:organiser:{tid}')"))
    code = organiser.find_element(By.ID, "invitation-code").text
    assert kept == {"token": shown, "code": code} and len(code) >= 16
    link = organiser.find_element(By.ID, "invitation-link").get_attribute("href")
    assert link.endswith(f"#/tournament/{tid}/code/{code}")
    cup = get(base_url, f"/tournaments/{tid}")
    assert (cup["registration"], cup["table_sizes"], cup["planned_rounds"]) == ("code", [2], 1)
    screenshot(organiser, screens, "organiser-created")
    organiser.find_element(By.ID, "organiser-token-saved").click()
    wait(organiser).until(EC.invisibility_of_element_located((By.ID, "organiser-token")))

    # One account comes by the shared link (the code filled in); another without the code is refused in words.
    ann = browser()
    ann.get(f"{base_url}/#/")
    # Handles of this test's own: the browser tests share one server, and test_account opens Ann and Bob.
    open_account(ann, "Carla")
    wait(ann).until(EC.presence_of_element_located((By.ID, "playing-as")))
    ann.get(link)
    assert wait(ann).until(EC.presence_of_element_located((By.ID, "invitation-input"))).get_attribute("value") == code
    register(ann)
    wait(ann).until(EC.text_to_be_present_in_element((By.ID, "your-games"), "You are registered"))

    bob = browser()
    bob.get(f"{base_url}/#/")
    open_account(bob, "Dmitri")
    wait(bob).until(EC.presence_of_element_located((By.ID, "playing-as")))
    bob.get(f"{base_url}/#/tournament/{tid}")
    register(bob)
    refusal = wait(bob).until(EC.visibility_of_element_located((By.CSS_SELECTOR, "#register-form .error")))
    assert "invitation code" in refusal.text and "ask the organiser" in refusal.text
    assert [p["name"] for p in get(base_url, f"/tournaments/{tid}")["players"]] == ["Carla"]

    # Bots fill the tables (at least one table of two bots, which finishes by itself); then the start.
    wait(organiser).until(lambda d: entrants(d) == 1)
    for n in range(2, 5):
        organiser.find_element(By.ID, "add-bot").click()
        wait(organiser).until(lambda d, n=n: entrants(d) == n)
    assert organiser.find_element(By.ID, "entrants").text.count("(heuristic)") == 3
    organiser.find_element(By.ID, "start-tournament").click()

    # Tables counted from 1 for people; the organiser also reads the API's index beside it.
    wait(ann).until(EC.element_to_be_clickable((By.CSS_SELECTOR, "#your-games a.play-link")))
    assert re.search(r"Round 1, table [12], seat [12]:", ann.find_element(By.ID, "your-games").text)
    page = ann.find_element(By.ID, "tournament").text
    assert "Table 1:" in page and "Table 2:" in page and "Table 0" not in page and "API" not in page
    wait(organiser).until(EC.text_to_be_present_in_element((By.ID, "tournament"), "Table 2 (API table 1):"))

    # The all-bot table ends: its result shows (View and Replay, no Play), and the organiser has it played again.
    done = wait(organiser).until(
        EC.presence_of_element_located((By.XPATH, "//li[@data-table][.//a[contains(@href, '#/replay/')]]"))
    )
    table = int(done.get_attribute("data-table"))
    # Its bots by their entrants' names, as their game names them.
    assert "View" in done.text and re.search(r"heuristic-\d \(heuristic\), heuristic-\d \(heuristic\)", done.text)
    assert "Bot " not in done.text, done.text
    Select(organiser.find_element(By.ID, "annul-table")).select_by_value(str(table))
    organiser.find_element(By.ID, "annul-reason").send_keys("misdeal")
    organiser.find_element(By.ID, "annul-replay").click()
    organiser.find_element(By.ID, "annul-button").click()

    said = f"Round 1, table {table + 1}: result annulled and the table plays again (misdeal); asked by the organiser."
    wait(organiser).until(EC.text_to_be_present_in_element((By.ID, "corrections"), said))
    [correction] = get(base_url, f"/tournaments/{tid}")["corrections"]
    assert (correction["table"], correction["replay"], correction["asked_by"]) == (table, True, "organiser")
    screenshot(organiser, screens, "organiser-corrected")
    # Everyone reads the correction; nobody else sees the organiser's token or panel.
    ann.refresh()
    wait(ann).until(EC.text_to_be_present_in_element((By.ID, "corrections"), said))
    assert shown not in ann.page_source and not ann.find_elements(By.ID, "organiser")


def test_an_organiser_approves_one_waiting_player_removes_another_and_comes_back_with_the_saved_token(
    browser, base_url: str
) -> None:
    driver = browser(390, 844)  # at a phone's width
    driver.get(f"{base_url}/#/organise")
    wait(driver).until(EC.presence_of_element_located((By.ID, "organise-form")))
    Select(driver.find_element(By.ID, "cup-game")).select_by_value("animals-on-board")
    Select(driver.find_element(By.ID, "cup-registration")).select_by_value("approval")
    driver.find_element(By.ID, "organise-button").click()
    token = wait(driver).until(EC.visibility_of_element_located((By.ID, "organiser-token"))).text
    tid = driver.current_url.rsplit("/", 1)[-1]
    for name in ("Cid", "Dee"):
        post(base_url, f"/tournaments/{tid}/register", {"name": name})

    wait(driver).until(lambda d: entrants(d) == 2)  # the page reads the tournament again by itself
    row = 'tr[data-entrant="{}"] {}'.format
    assert driver.find_element(By.CSS_SELECTOR, row(0, ".status")).text == "waiting for approval"
    driver.find_element(By.CSS_SELECTOR, row(0, "button.approve")).click()
    wait(driver).until(EC.text_to_be_present_in_element((By.CSS_SELECTOR, row(0, ".status")), "in"))
    driver.find_element(By.CSS_SELECTOR, row(1, "button.remove")).click()
    driver.find_element(By.ID, "remove-reason").send_keys("no-show")
    driver.find_element(By.ID, "remove-confirm").click()
    wait(driver).until(EC.text_to_be_present_in_element((By.CSS_SELECTOR, row(1, ".status")), "disqualified"))
    said = "Dee was disqualified (no-show); asked by the organiser."
    assert said in driver.find_element(By.ID, "corrections").text
    cup = get(base_url, f"/tournaments/{tid}")
    assert [p["status"] for p in cup["players"]] == ["active", "disqualified"]
    assert driver.execute_script(
        "return document.documentElement.scrollWidth <= document.documentElement.clientWidth"
    ), "sideways scroll"

    # Forgotten in this browser, the organiser comes back by pasting the saved token (a player's is refused).
    driver.find_element(By.ID, "organiser-forget").click()
    driver.switch_to.alert.accept()
    wait(driver).until(EC.invisibility_of_element_located((By.ID, "organiser")))
    assert driver.execute_script(f"return localStorage.getItem('menagerie:organiser:{tid}')") is None
    driver.find_element(By.CSS_SELECTOR, "#organiser-paste-panel summary").click()
    field = driver.find_element(By.ID, "organiser-token-input")
    field.send_keys(token)
    driver.find_element(By.CSS_SELECTOR, "#organiser-paste button").click()
    wait(driver).until(EC.presence_of_element_located((By.ID, "start-tournament")))
    assert not driver.find_elements(By.ID, "organiser-token")  # a pasted token is not shown back
