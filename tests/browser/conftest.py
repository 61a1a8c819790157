"""Browser fixtures: the app on embedded services in a thread, and headless Debian Chromium driven by Selenium.

Chromium and chromedriver come from Debian's packages (`apt-get install chromium
chromium-driver`). Without them these tests are skipped loudly, except in CI
(`CI` set), where a missing browser is a failure.
"""

from __future__ import annotations

import os
import shutil
import threading
import uuid
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path

import fakeredis
import pytest
from werkzeug.serving import make_server

from service.bootstrap import Services, build
from service.http import create_app
from tests.support.live_server import serving

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
)


HEADLESS_MIN_WIDTH = 500


def _missing() -> str | None:
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install -e '.[dev]')"
    for path in (CHROMIUM, CHROMEDRIVER):
        if not (os.path.exists(path) and os.access(path, os.X_OK)):
            return f"{path} is missing (apt-get install -y chromium chromium-driver)"
    return None


MISSING = _missing()
if MISSING:
    warnings.warn(f"browser tests are SKIPPED: {MISSING}", stacklevel=1)


def _embedded() -> Services:
    return build(fakeredis.FakeRedis(), f"test-web-{uuid.uuid4().hex[:8]}", inline_jobs=True, embedded=True)


@pytest.fixture(scope="session")
def base_url() -> Iterator[str]:
    """Serve the app on embedded services (fakeredis, in-process jobs) on a free port, in a thread."""
    with serving(_embedded()) as url:
        yield url


@pytest.fixture(scope="session")
def clocked_url() -> Iterator[str]:
    """The app as `base_url` serves it, with the steward thread `menagerie serve` runs: run-out clocks are played."""
    services = _embedded()
    stop = services.steward().start(interval=0.2)
    try:
        with serving(services) as url:
            yield url
    finally:
        stop.set()


@pytest.fixture(scope="session")
def streamless_url() -> Iterator[str]:
    """The app as `base_url` serves it, but holding no live stream at all: every stream is a 503 `streams_full`."""
    services = build(fakeredis.FakeRedis(), f"test-web-{uuid.uuid4().hex[:8]}", inline_jobs=True, embedded=True)
    server = make_server("127.0.0.1", 0, create_app(services, {"MAX_STREAMS": 0}), threaded=True)
    thread = threading.Thread(target=server.serve_forever, name="streamless-test-server", daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    thread.join()


@pytest.fixture
def browser(tmp_path: Path) -> Iterator[Callable[..., object]]:
    """Open headless Chromium windows, each with its own fresh profile (a separate browser context).

    Each window prefers reduced motion unless opened with `motion=True`.
    """
    if MISSING:
        if os.environ.get("CI"):
            pytest.fail(f"browser tests cannot run in CI: {MISSING}")
        pytest.skip(f"SKIPPED: {MISSING}")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    drivers = []

    def open_window(
        width: int = 1200, height: int = 1000, lang: str = "en-US", motion: bool = False
    ) -> webdriver.Chrome:
        profile = tmp_path / f"profile-{len(drivers)}"
        options = webdriver.ChromeOptions()
        options.binary_location = CHROMIUM
        for flag in FLAGS:
            options.add_argument(flag)
        options.add_argument(f"--user-data-dir={profile}")
        options.add_argument(f"--window-size={width},{height}")
        # The browser's languages (navigator.languages): the page speaks the first it has words for.
        options.add_argument(f"--lang={lang}")
        options.add_experimental_option("prefs", {"intl.accept_languages": lang})
        # The page's console errors (a failed request, a script error, a refused policy) are read by the tests.
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        driver = webdriver.Chrome(options=options, service=Service(CHROMEDRIVER))
        drivers.append((driver, profile))
        if width < HEADLESS_MIN_WIDTH:
            # Headless Chromium keeps a window at least 500 px wide: a phone's width is emulated instead.
            metrics = {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": True}
            driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
        if not motion:
            # The page's cards slide into place unless the reader prefers reduced motion: a test clicks
            # still controls (a click on a moving one could miss), and waits for no animation.
            reduce = {"features": [{"name": "prefers-reduced-motion", "value": "reduce"}]}
            driver.execute_cdp_cmd("Emulation.setEmulatedMedia", reduce)
        return driver

    yield open_window
    for driver, profile in drivers:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture
def screens(tmp_path: Path) -> Path:
    """The folder screenshots go to: $MENAGERIE_SCREENSHOTS if set (kept after the run), else the test's tmp dir."""
    folder = Path(os.environ.get("MENAGERIE_SCREENSHOTS") or tmp_path / "screens")
    folder.mkdir(parents=True, exist_ok=True)
    return folder
