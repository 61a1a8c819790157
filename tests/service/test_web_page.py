"""The page is served under a strict Content-Security-Policy, and its files hold nothing that policy refuses."""

from __future__ import annotations

import re
from pathlib import Path

from service.http.security import HEADERS
from service.web import STATIC


def test_the_page_is_served_with_a_strict_content_security_policy(client) -> None:
    answer = client.get("/")

    assert answer.status_code == 200
    assert HEADERS["Content-Security-Policy"] == answer.headers["Content-Security-Policy"]
    assert client.get("/static/web/favicon.svg").status_code == 200
    assert client.get("/static/web/favicon-turn.svg").status_code == 200  # the tab's icon on your turn


def test_no_inline_script_style_attribute_or_eval_in_the_page_files() -> None:
    html = (STATIC / "index.html").read_text()
    assert not re.search(r"<script(?![^>]*\bsrc=)", html), "an inline script"
    assert not re.search(r"\s(style|on[a-z]+)=", html), "an inline style or handler"
    for module in Path(STATIC, "js").rglob("*.js"):
        text = module.read_text()
        assert not re.search(r"\beval\(|new Function\(|innerHTML|setAttribute\(\s*\"style\"", text), module
        assert "localStorage.setItem(`menagerie:seat" not in text, f"{module}: seat tokens belong to the tab"
