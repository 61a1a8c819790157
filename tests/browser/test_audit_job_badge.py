"""A replay whose game is too long to audit in the request polls the audit job and shows its result."""

from __future__ import annotations

import uuid
from pathlib import Path

import fakeredis
import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC

from service.bootstrap import build
from tests.browser.support import screenshot, wait
from tests.support.live_server import serving


def test_a_long_games_replay_polls_its_audit_job_and_the_badge_turns_green(
    browser, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MENAGERIE_AUDIT_INLINE_EVENTS", "5")  # every game is "long": its audit is a job
    redis, prefix = fakeredis.FakeRedis(), f"test-web-{uuid.uuid4().hex[:8]}"
    # The server audits on its own thread, as `make run` does; the game is played to its end beforehand.
    served = build(redis, prefix, inline_jobs=True, embedded=True, background_jobs=True)
    players = build(redis, prefix, inline_jobs=True, embedded=True)
    game, _ = players.games.create("life-is-life", [{"bot": "heuristic"}] * 3, {}, seed="badge")
    assert players.repository.load(game.id).status == "finished"
    with serving(served) as url:
        driver = browser()
        driver.get(f"{url}/#/replay/{game.id}")
        badge = wait(driver).until(EC.presence_of_element_located((By.CSS_SELECTOR, "#audit-badge.ok")))
        assert badge.get_attribute("data-ok") == "true"
        assert "Audit passed" in badge.text
        screenshot(driver, tmp_path, "replay-audited-by-a-job")
