"""Test support: the app served over real HTTP on a loopback port, and a client generated from openapi.yaml."""

from __future__ import annotations

import importlib
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from types import ModuleType
from typing import Any

from werkzeug.serving import make_server

from service.bootstrap import Services
from service.http import create_app

SPEC = Path(__file__).parent.parent.parent / "openapi.yaml"
PACKAGE = "menagerie_client"


@contextmanager
def serving(services: Services) -> Iterator[str]:
    """Serve the app on embedded services at 127.0.0.1 on a free port; yield its base URL."""
    with serving_app(create_app(services)) as url:
        yield url


@contextmanager
def serving_app(app: Any) -> Iterator[str]:
    """Serve a WSGI app at 127.0.0.1 on a free port; yield its base URL."""
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join()


def generate_client(into: Path) -> str:
    """Generate the Python client from openapi.yaml into `into`; return the generator's output."""
    config = into / "config.yaml"
    config.write_text("post_hooks: []\n")  # no formatter run: the generated code is only imported
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "openapi_python_client",
            "generate",
            "--path",
            str(SPEC),
            "--meta",
            "none",
            "--config",
            str(config),
            "--output-path",
            str(into / PACKAGE),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    return output


def import_client(into: Path) -> ModuleType:
    """Import the generated package from `into`."""
    sys.path.insert(0, str(into))
    importlib.invalidate_caches()
    return importlib.import_module(PACKAGE)


def comparable(value: Any) -> Any:
    """Return JSON with date-times parsed, so that `2026-01-01T00:00:00.000Z` equals its isoformat()."""
    if isinstance(value, dict):
        return {key: comparable(item) for key, item in value.items()}
    if isinstance(value, list):
        return [comparable(item) for item in value]
    if isinstance(value, str) and len(value) >= 20 and value[4:5] == "-" and value[10:11] == "T":
        try:
            return datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError:
            return value
    return value
