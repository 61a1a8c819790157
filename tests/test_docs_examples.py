"""The docs keep working: the README's and the guides' marked shell examples run as written, and links resolve.

An example is a fenced `sh` block right after a line `<!-- example -->`. The
blocks of one file run in order in one bash (`set -euo pipefail`), in a
scratch directory, against a `menagerie serve` of this module's own in
embedded mode, as a reader would paste them after `make run`. A block fails
the test when a command fails or when an answer is a JSON error. The docs
site itself is checked by `make docs` (mkdocs, strict); the README and the
changelog, outside it, have their relative links checked here.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
GUIDES = sorted((ROOT / "docs").glob("*.md"))
MARK = "<!-- example -->"
DOCUMENTED_URL = "http://127.0.0.1:8000"
# What a doc must not be: a diary of the work (issue numbers, commit hashes, sessions).
DIARY = re.compile(r"\bissues? \d+|\bcommit [0-9a-f]{7}|\b[0-9a-f]{7} \(|\bsessions?\b", re.IGNORECASE)
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")


def examples(path: Path) -> list[tuple[int, str]]:
    """Return the marked shell blocks of a Markdown file, each with the line its fence opens on."""
    lines = path.read_text(encoding="utf-8").splitlines()
    found = []
    for number, line in enumerate(lines):
        if line.strip() != MARK:
            continue
        fence = number + 1
        assert lines[fence].strip() == "```sh", f"{path.name}:{fence + 1}: {MARK} must come right before a ```sh block"
        end = next(i for i in range(fence + 1, len(lines)) if lines[i].strip() == "```")
        found.append((fence + 1, "\n".join(lines[fence + 1 : end])))
    return found


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    """`menagerie serve` in embedded mode on a free port, as `make run` starts it; yield its URL and first line."""
    port = free_port()
    log = tmp_path_factory.mktemp("serve") / "serve.log"
    env = {key: value for key, value in os.environ.items() if key not in ("REDIS_URL", "RQ_REDIS_URL")}
    command = [sys.executable, "-c", "import sys; from service.cli import main; sys.exit(main())"]
    with open(log, "wb") as out:
        server = subprocess.Popen(
            [*command, "serve", "--port", str(port)], env={**env, "PYTHONPATH": str(ROOT)}, stdout=out, stderr=out
        )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while not _answers(f"{url}/health") and server.poll() is None:
            assert time.monotonic() < deadline, "the server did not answer within 60 s"
            time.sleep(0.05)
        assert server.poll() is None, log.read_text()
        yield url, log.read_text().splitlines()[0]
    finally:
        server.terminate()
        server.wait(30)


def free_port() -> int:
    """Return a loopback port nobody listens on now."""
    # Not tests.support.processes: the tests beside the layers import no Redis client (tests/domain/test_layer.py).
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as answer:
            return answer.status == 200
    except OSError:
        return False


def scratch(tmp_path: Path) -> Path:
    """Return a directory that looks like a checkout to the examples: the venv, examples/ and openapi.yaml."""
    (tmp_path / ".venv").symlink_to(Path(sys.prefix))
    for name in ("examples", "openapi.yaml"):
        (tmp_path / name).symlink_to(ROOT / name)
    return tmp_path


def test_the_server_says_where_the_page_is_as_its_first_line(served):
    url, first_line = served
    assert f"Menagerie is serving on {url}/ (open it in a browser)" in first_line


WITH_EXAMPLES = [path for path in (README, *GUIDES) if examples(path)]


def test_the_readme_and_the_guides_for_integrators_organisers_and_auditors_have_examples():
    assert {path.name for path in WITH_EXAMPLES} >= {"README.md", "integrators.md", "organisers.md", "auditors.md"}


@pytest.mark.parametrize("path", WITH_EXAMPLES, ids=lambda path: path.name)
def test_the_marked_examples_run_as_written(path: Path, served, tmp_path):
    blocks = examples(path)
    url, _ = served
    script = ["set -euo pipefail"]
    for line, block in blocks:
        script += [f"echo '=== {path.name}:{line}'", block.replace(DOCUMENTED_URL, url)]
    done = subprocess.run(
        ["bash", "-c", "\n".join(script)],
        cwd=scratch(tmp_path),
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    assert done.stdout.count("=== ") == len(blocks), output
    assert '{"error":' not in output.replace(" ", ""), output
    if path == README:  # its examples keep what they download in a temporary folder, not in the checkout
        assert sorted(os.listdir(tmp_path)) == [".venv", "examples", "openapi.yaml"]


def test_the_readme_has_examples_for_playing_over_http_auditing_and_tournaments():
    text = "\n".join(block for _, block in examples(README))
    for needed in ("/actions", "legal_actions", '["version"]', "menagerie audit ", "/tournaments", "examples/bot.py"):
        assert needed in text, needed
    assert all("Idempotency-Key" in block for _, block in examples(README) if "-X POST $API/games " in block)


@pytest.mark.parametrize("path", [README, ROOT / "CHANGELOG.md"], ids=lambda path: path.name)
def test_relative_links_outside_the_docs_site_resolve(path: Path):
    for target in LINK.findall(path.read_text(encoding="utf-8")):
        if re.match(r"[a-z]+:", target):
            continue  # an absolute URL, such as the page at http://127.0.0.1:8000/
        file, _, anchor = target.partition("#")
        resolved = (path.parent / file).resolve() if file else path
        assert resolved.is_file(), f"{path.name}: {target} does not exist"
        if anchor:
            assert anchor in _anchors(resolved), f"{path.name}: {target} has no such heading"


def _anchors(markdown: Path) -> set[str]:
    """Return the anchors of a Markdown file's headings, as mkdocs and GitHub make them."""
    headings = re.findall(r"^#+\s+(.+)$", markdown.read_text(encoding="utf-8"), re.MULTILINE)
    return {re.sub(r"[\s]+", "-", re.sub(r"[^\w\s-]", "", heading).strip().lower()) for heading in headings}


def test_every_guide_is_linked_from_the_readme_and_no_doc_is_a_diary():
    readme = README.read_text(encoding="utf-8")
    for guide in GUIDES:
        assert guide.name == "index.md" or f"(docs/{guide.name})" in readme, guide.name
    for doc in [README, ROOT / "CHANGELOG.md", *GUIDES]:
        text = doc.read_text(encoding="utf-8")
        assert not DIARY.search(text), f"{doc.name}: {DIARY.search(text)}"
