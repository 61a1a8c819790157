"""The golden corpus: every format the service has written still replays, audits and shows exactly as before.

tests/fixtures/corpus holds games and tournaments recorded by the commits that
wrote each older format (MANIFEST.json says which, and how), and beside each
the expectations today's code recorded: audit reports, views of every seat and
a spectator at the start, middle and end, results and standings, and the same
file imported into a service on fakeredis. A change that alters one byte of
any of them fails here with the diff. Where the change is meant (a view gains
a field, say), write the expectations again and commit them with it:

    MENAGERIE_CORPUS_REGEN=1 .venv/bin/python -m pytest tests/service/test_corpus.py

(docs/contributors.md, "When a corpus test fails").
"""

from __future__ import annotations

import base64
import difflib
import json
import os
import re
from collections.abc import Mapping
from typing import Any

import orjson
import pytest

from domain.export import read_export
from service.adapters.packing import unpack
from tests.support.corpus import (
    CORPUS,
    EXPECTED,
    canonical_text,
    expected,
    expected_path,
    manifest,
    packed_document,
    pretty_text,
    read_expected,
    read_lines,
    write_expected,
)

REGEN = os.environ.get("MENAGERIE_CORPUS_REGEN") == "1"
ENTRIES = manifest()["entries"]
# A failing comparison shows this many lines of the diff: enough to see what moved, not the whole game.
DIFF_LINES = 80
PATHS = 30


def _leaves(value: Any, path: str, out: dict[str, Any]) -> dict[str, Any]:
    """Return every leaf of a JSON value by its dotted path (a list's items by index)."""
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else None
    if items is None or not value:
        out[path] = value
        return out
    for key, item in items:
        _leaves(item, f"{path}.{key}" if path else str(key), out)
    return out


def _shown(leaves: Mapping[str, Any], path: str) -> str:
    return json.dumps(leaves[path], ensure_ascii=False)[:80] if path in leaves else "(absent)"


def _diff(old: str, new: str, name: str) -> str:
    """Return what changed: each changed path (which position, which seat's view), then the text's diff."""
    before, after = _leaves(json.loads(old), "", {}), _leaves(json.loads(new), "", {})
    changed = [
        f"  {path}: {_shown(before, path)} -> {_shown(after, path)}"
        for path in sorted(before.keys() | after.keys())
        if path not in before or path not in after or before[path] != after[path]
    ]
    paths = "\n".join(changed[:PATHS]) + (f"\n  ... {len(changed) - PATHS} more" if len(changed) > PATHS else "")
    lines = difflib.unified_diff(
        pretty_text(json.loads(old)).splitlines(),
        pretty_text(json.loads(new)).splitlines(),
        f"committed {name}",
        f"today's {name}",
        lineterm="",
        n=2,
    )
    shown = list(lines)
    more = f"\n... {len(shown) - DIFF_LINES} more lines" if len(shown) > DIFF_LINES else ""
    return f"{len(changed)} values changed:\n{paths}\n" + "\n".join(shown[:DIFF_LINES]) + more


@pytest.mark.parametrize("entry", ENTRIES, ids=[entry["file"] for entry in ENTRIES])
def test_todays_code_makes_of_each_old_file_exactly_what_it_made_before(entry: Mapping[str, Any]) -> None:
    value = expected(entry)
    if REGEN:
        write_expected(entry, value)
        return
    today = canonical_text(value)
    committed = read_expected(entry)
    if committed != today:
        pytest.fail(
            f"{entry['file']} (written by {entry['commit'][:7]}, {entry['era']}): today's code makes something "
            f"else of it than the committed {expected_path(entry).relative_to(CORPUS)}.\n"
            "If the change is meant, write the expectations again with MENAGERIE_CORPUS_REGEN=1 and commit them "
            "(docs/contributors.md, 'When a corpus test fails').\n" + _diff(committed, today, entry["expected"]),
            pytrace=False,
        )


@pytest.mark.parametrize("entry", [e for e in ENTRIES if e["role"] == "packed"], ids=lambda e: e["file"])
def test_a_pack_unpacks_to_the_events_of_its_games_file(entry: Mapping[str, Any]) -> None:
    document = packed_document(entry)
    unpacked = [orjson.loads(payload) for payload in unpack(base64.b64decode(document["events_base64"]))]
    _, events = read_export(read_lines(entry["game_file"]))
    assert unpacked == events
    assert int(document["version"]) == len(events) and document["key"] == f"{{{entry['id']}}}:packed"


def test_every_file_of_the_corpus_is_in_the_manifest_and_has_its_expectations() -> None:
    recorded = {
        str(path.relative_to(CORPUS))
        for path in CORPUS.rglob("*")
        if path.is_file() and path.parent != CORPUS and EXPECTED not in path.parents and path.suffix != ".pyc"
    }
    listed = {entry["file"] for entry in ENTRIES}
    assert recorded == {name for name in listed if not name.startswith("../")}
    assert all((CORPUS / name).is_file() for name in listed)
    kept = {str(path.relative_to(EXPECTED)) for path in EXPECTED.rglob("*.json.gz")}
    assert kept == {f"{entry['expected']}.gz" for entry in ENTRIES}


def test_each_entry_names_the_commit_that_wrote_it_and_how_to_make_it_again() -> None:
    for entry in ENTRIES:
        assert re.fullmatch(r"[0-9a-f]{40}", entry["commit"]), entry["file"]
        assert entry["made_by"] and entry["traits"], entry["file"]
        if entry["era"] != "inherited":
            assert entry["commit"] == manifest()["eras"][entry["era"]]["commit"]
            assert entry["plan"]["kind"] in ("game", "tournament") and entry["runs"] is True


def test_the_corpus_holds_every_format_the_service_has_written() -> None:
    traits = [entry["traits"] for entry in ENTRIES]
    games = [t for t in traits if t.get("format") == "menagerie-game/1"]
    assert {t["chain_scheme"] for t in games} == {1, 2, 3}
    assert {t["dealing"] for t in games} == {"legacy", "shared", "fixed"}
    for title in ("bloede-kuh", "zop-zoo"):
        assert {t["rules_version"] for t in games if t["game"] == title} == {"1", "2"}
        # A set-up event of schema version 1 (no rules version in it) and of version 2.
        assert {t["setup_event_v"] for t in games if t["game"] == title} == {1, 2}
    assert {t["game"] for t in games} == {"life-is-life", "animals-on-board", "bloede-kuh", "zop-zoo"}
    assert {t["game_created_v"] for t in games} == {1, 2}
    assert any(t["archived"] for t in games) and any(t["signed"] for t in games)
    # Timeouts: the stand-in's action chained in the clear (scheme 2) and committed (scheme 3).
    assert {t["chain_scheme"] for t in games if t["timeouts"]} == {2, 3}
    assert any(t.get("packed") for t in traits) and any(t.get("packed_in_store") for t in games)
    bundles = [t for t in traits if t.get("format") == "menagerie-tournament/1"]
    assert {t["chain_scheme"] for t in bundles} == {2, 3} and {t["dealing"] for t in bundles} == {"legacy", "fixed"}
