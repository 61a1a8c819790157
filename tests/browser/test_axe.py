"""axe-core finds no serious or critical accessibility violation on the lobby, a replay and a tournament page, at
desktop and phone width (the four tables are checked at every step of their whole games, in test_table.py)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support import expected_conditions as EC

from tests.browser.support import axe_violations, post, wait
from tests.browser.test_table import SIZES


@pytest.mark.parametrize("size", list(SIZES))
def test_axe_finds_no_serious_violation_on_any_screen(
    browser: Callable[..., WebDriver], base_url: str, size: str
) -> None:
    driver = browser(*SIZES[size])
    found: dict[str, list[str]] = {}

    driver.get(f"{base_url}/#/")
    wait(driver).until(EC.presence_of_element_located((By.CSS_SELECTOR, "#games ul, #games p")))
    found["lobby"] = axe_violations(driver)

    # A finished game of bots only (it plays to its end as it is created), replayed with every card open.
    bots = post(
        base_url,
        "/games",
        {"game": "bloede-kuh", "seats": [{"bot": "heuristic"}, {"bot": "random"}, {"bot": "heuristic"}]},
    )
    driver.get(f"{base_url}/#/replay/{bots['id']}")
    wait(driver).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#replay-board[data-shown]"))
    wait(driver).until(lambda d: "pending" not in d.find_element(By.ID, "audit-badge").get_attribute("class"))
    found["replay"] = axe_violations(driver)

    cup = post(
        base_url, "/tournaments", {"game": "animals-on-board", "rounds": 1, "format": "round-robin", "table_sizes": [2]}
    )
    driver.get(f"{base_url}/#/tournament/{cup['id']}")
    wait(driver).until(EC.presence_of_element_located((By.ID, "entrant-name")))
    found["tournament"] = axe_violations(driver)

    assert {screen: lines for screen, lines in found.items() if lines} == {}
