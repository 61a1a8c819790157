"""A forger who holds the revealed seed can write another consistent history; the anchors tell it apart.

An audit proves a file consistent: its chain, its deals from the seed, its
moves by the rules. Once a game is over the seed is public, so anyone can play
it again differently from any point (the bots' moves after a player's last
receipt, say) and chain the result: that file audits. What it cannot carry is
the house's signature of the result that was published, nor a place in the
log of results.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from domain.events import GENESIS_HASH, RecordedEvent, chain_hash
from domain.game import replay
from service.cli import main as menagerie
from tests.service.test_signatures import export_file, finished_tournament, house, keys_dir, public_file
from tests.support.live_server import serving
from tests.support.tables import Table, play_randomly

__all__ = ["keys_dir"]  # the fixture, shared with the signatures' tests


def rewritten_tail(events: list[dict[str, Any]], rng: random.Random) -> list[dict[str, Any]]:
    """Keep the first half of a finished game's batches and play the rest again at random, with its revealed seed."""
    starts = [i for i, event in enumerate(events) if (event.get("command") or {}).get("kind") == "act"]
    cut = starts[len(starts) // 2]
    kept = [RecordedEvent.from_dict(event) for event in events[:cut]]
    table = Table(seed=events[-1]["data"]["seed"], game=replay(kept), log=kept)
    play_randomly(table, rng)
    return [event.to_dict() for event in table.log]


def write(path: Path, head: dict[str, Any], events: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(line) + "\n" for line in (head, *events)))
    return path


def test_a_rewritten_tail_audits_as_a_file_but_fails_the_signature_and_the_log(keys_dir, tmp_path, capsys):
    services = house(keys_dir)
    game, _ = services.games.create("bloede-kuh", [{"bot": "random"}, {"bot": "random"}, {"bot": "heuristic"}], {})
    original = export_file(services, game.id, tmp_path / "original.ndjson")
    head, *events = (json.loads(line) for line in original.read_text().splitlines())
    forged = next(f for f in (rewritten_tail(events, random.Random(n)) for n in range(5)) if f[-1] != events[-1])
    keys = public_file(keys_dir, tmp_path / "keys.json")
    # The forger's header says what the forged chain says (every field of it is checked against the chain).
    head = {**head, "version": len(forged)}
    unsigned = {key: value for key, value in head.items() if key != "signature"}

    assert menagerie(["audit", str(write(tmp_path / "forged.ndjson", unsigned, forged))]) == 0  # consistent
    assert menagerie(["audit", str(tmp_path / "forged.ndjson"), "--key", str(keys)]) == 1  # but not signed
    assert menagerie(["audit", str(write(tmp_path / "resigned.ndjson", head, forged))]) == 1  # nor the signed one
    with serving(services) as url:
        assert menagerie(["audit", str(original), "--key", str(keys), "--log", url]) == 0
        capsys.readouterr()
        assert menagerie(["audit", str(tmp_path / "forged.ndjson"), "--log", url]) == 1
    assert "FAIL" in capsys.readouterr().out


def test_a_tournament_rechained_after_any_change_fails_its_signature(keys_dir, tmp_path):
    services = house(keys_dir)
    tournament_id = finished_tournament(services)
    head, *rest = (json.loads(line) for line in "".join(services.tournament_files.export(tournament_id)).splitlines())
    keys = public_file(keys_dir, tmp_path / "keys.json")
    assert menagerie(["audit-tournament", str(write(tmp_path / "bundle.ndjson", head, rest)), "--key", str(keys)]) == 0
    # The forger changes what nothing re-derives (an event's time) and chains the tournament's events anew.
    events, games = rest[: head["version"]], rest[head["version"] :]
    events[1]["time"] = "2020-01-01T00:00:00.000Z"
    previous = GENESIS_HASH
    for event in events:
        event["hash"] = previous = chain_hash(previous, {k: v for k, v in event.items() if k != "hash"})
    unsigned = {key: value for key, value in head.items() if key != "signature"}
    forged = write(tmp_path / "unsigned.ndjson", unsigned, [*events, *games])
    assert menagerie(["audit-tournament", str(forged)]) == 0  # a consistent bundle
    assert menagerie(["audit-tournament", str(forged), "--key", str(keys)]) == 1  # that the house never signed
    resigned = write(tmp_path / "resigned.ndjson", head, [*events, *games])
    assert menagerie(["audit-tournament", str(resigned)]) == 1  # nor does the signature it had fit it
