"""The web page: one HTML file and its static ES modules, served by the API's own app (no build step)."""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, Response, send_from_directory

STATIC = Path(__file__).parent / "static"

# The app keeps its own (empty) /static route, so the page's files live one
# level down, under /static/web/, where they cannot be shadowed by it.
web = Blueprint("web", __name__, static_folder=str(STATIC), static_url_path="/static/web")


@web.get("/")
def index() -> Response:
    """Serve the single page; every screen is a #/ route inside it.

    It runs under the strict policy every answer carries (`service.http.security`): its
    modules hold no inline script, eval or style attribute, so nothing needs loosening.
    """
    response = send_from_directory(STATIC, "index.html")
    response.headers["Cache-Control"] = "no-cache"
    return response
