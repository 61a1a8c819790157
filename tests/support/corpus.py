"""The golden corpus (tests/fixtures/corpus): its files, and what today's code makes of each.

`expected(entry)` is the one place that says what must not change about an
old file: for a game, its audit report, the views of every seat and of a
spectator at the start, the middle and the end, and its result; the same
file imported into a service on fakeredis, that service's audit and what it
exports; for a packed stream, the events it unpacks to and the game it
serves once put back in a store; for a tournament bundle, its audit, its
view (standings included), its standings as CSV, and each of its games
imported. tests/service/test_corpus.py compares these to the committed
expectations, and make_corpus.py writes them.

Every service here signs with the corpus's own house key (`corpus_keys`), a
fixed test key, so that a signature made on export today is the same bytes
on every run.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import fakeredis
import orjson
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from domain.audit import audit_export
from domain.canonical import canonical_json
from domain.events import RecordedEvent
from domain.export import export_lines, read_export
from domain.game import Game, replay
from domain.results import key_id
from domain.tournament.audit import audit_bundle
from domain.tournament.bundle import read_bundle
from domain.tournament.state import replay as replay_tournament
from projections.game import game_view
from projections.tournament import standings_csv, tournament_view
from service.adapters.house_keys import HouseKeys, PublicKey, raw_public
from service.adapters.packing import unpack
from service.bootstrap import Services, build

CORPUS = Path(__file__).resolve().parent.parent / "fixtures" / "corpus"
MANIFEST = CORPUS / "MANIFEST.json"
EXPECTED = CORPUS / "expected"
# The corpus's house key: a test key derived from a fixed phrase, never a secret of any deployment.
KEY_PHRASE = b"menagerie golden corpus house key"
KEY_CREATED = "2026-11-28T00:00:00Z"
PREFIX = "corpus"


def corpus_private_key() -> Ed25519PrivateKey:
    """Return the corpus's house key (Ed25519 signs deterministically: one statement, one signature)."""
    return Ed25519PrivateKey.from_private_bytes(hashlib.sha256(KEY_PHRASE).digest())


def corpus_keys() -> HouseKeys:
    """Return the house keys every corpus service signs with."""
    private = corpus_private_key()
    raw = raw_public(private)
    return HouseKeys(private, [PublicKey(key_id(raw), raw, KEY_CREATED)])


def manifest() -> dict[str, Any]:
    """Return MANIFEST.json."""
    loaded: dict[str, Any] = json.loads(MANIFEST.read_text(encoding="utf-8"))
    return loaded


def read_bytes(name: str) -> bytes:
    """Return a corpus file's bytes as recorded (gunzipped where it is stored gzipped)."""
    data = (CORPUS / name).read_bytes()
    return gzip.decompress(data) if name.endswith(".gz") else data


def read_lines(name: str) -> list[str]:
    """Return a corpus file's lines."""
    return read_bytes(name).decode("utf-8").splitlines()


def canonical_text(value: Any) -> str:
    """Return the text an expectation is kept as: canonical JSON (`domain.canonical`), one line."""
    return canonical_json(value) + "\n"


def pretty_text(value: Any) -> str:
    """Return an expectation as a failing test shows it: sorted keys, one a line, so a change reads as a diff."""
    return json.dumps(value, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def read_expected(entry: Mapping[str, Any]) -> str:
    """Return an entry's committed expectations, as canonical JSON text."""
    return gzip.decompress(expected_path(entry).read_bytes()).decode("utf-8")


def write_expected(entry: Mapping[str, Any], value: Any) -> None:
    """Keep an entry's expectations: canonical JSON, gzipped (views repeat; a game's compress some 15 times)."""
    path = expected_path(entry)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(gzip.compress(canonical_text(value).encode("utf-8"), compresslevel=9, mtime=0))


def expected_path(entry: Mapping[str, Any]) -> Path:
    """Return where an entry's expectations are kept."""
    return EXPECTED / f"{entry['expected']}.gz"


def services() -> Services:
    """Return a fresh service on fakeredis, in-process jobs, signing with the corpus key."""
    return build(fakeredis.FakeRedis(), PREFIX, inline_jobs=True, embedded=True, keys=corpus_keys())


def expected(entry: Mapping[str, Any]) -> dict[str, Any]:
    """Return what today's code makes of one corpus entry (see the module docstring)."""
    role = entry["role"]
    if role in ("export", "archived"):
        return _game_file(entry)
    if role == "packed":
        return _packed(entry)
    if role == "bundle":
        return _bundle(entry)
    raise ValueError(f"no expectations for a {role!r}")


# --- games -------------------------------------------------------------------


def _positions(events: list[dict[str, Any]]) -> dict[str, int]:
    """Return the versions the views are taken at: the first a seat acts at, the middle, and the end."""
    recorded = [RecordedEvent.from_dict(event) for event in events]
    game = Game()
    start = len(recorded)
    for event in recorded:
        game = replay([event], game)
        if game.to_act:
            start = event.seq
            break
    return {"start": start, "middle": (start + len(recorded)) // 2, "end": len(recorded)}


def _views(events: list[dict[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, version in _positions(events).items():
        game = replay(RecordedEvent.from_dict(event) for event in events[:version])
        out[name] = {"version": version, "views": views_of(game)}
    return out


def game_expectations(head: Mapping[str, Any], events: list[dict[str, Any]]) -> dict[str, Any]:
    """Return a whole game's audit, views and result, offline (domain and projections only)."""
    game = replay(RecordedEvent.from_dict(event) for event in events)
    return {
        "id": game.id,
        "events": len(events),
        "audit": audit_export(head, events).to_dict(),
        "audit_with_corpus_key": audit_export(head, events, verifier=corpus_keys()).to_dict(),
        "status": game.status,
        "result": game.result,
        "positions": _views(events),
        "open_view": game_view(game, None, open_view=True),
    }


def views_of(game: Game) -> dict[str, Any]:
    """Return the views of every seat and of a spectator (key `spectator`) of a game as it stands."""
    views = {str(seat): game_view(game, seat) for seat in range(len(game.seats))}
    views["spectator"] = game_view(game, None)
    return views


def import_expectations(lines: list[str]) -> dict[str, Any]:
    """Import a whole export into a fresh service and return its audit and export header there.

    Raises AssertionError where the service gives back other events than it was given, or shows
    other views of the game than its replay offline.
    """
    service = services()
    head, events = read_export(lines)
    game_id = service.archive.import_lines(lines)
    stored = service.store.read_raw(game_id)
    assert stored == events, f"{game_id}: the store gives back other events than were imported"
    game = service.repository.load(game_id)
    exported_head, exported = read_export(list(service.archive.export(game_id, None)))
    assert exported == events, f"{game_id}: the service exports other events than were imported"
    offline = replay(RecordedEvent.from_dict(event) for event in events)
    assert views_of(game) == views_of(offline), f"{game_id}: the service shows other views than a replay"
    return {
        "packed": service.store.is_packed(game_id),
        "audit": service.archive.audit(game_id).to_dict(),
        "export_header": exported_head,
        "header_kept": {key: exported_head.get(key) == value for key, value in sorted(head.items())},
    }


def _game_file(entry: Mapping[str, Any]) -> dict[str, Any]:
    lines = read_lines(entry["file"])
    head, events = read_export(lines)
    return {
        "file": entry["file"],
        "header": head,
        **game_expectations(head, events),
        "import": import_expectations(lines),
    }


# --- packed streams ----------------------------------------------------------


def packed_document(entry: Mapping[str, Any]) -> dict[str, Any]:
    """Return a packed stream's file: the fields of the game's `packed` hash, the pack itself in base64."""
    loaded: dict[str, Any] = json.loads(read_bytes(entry["file"]))
    return loaded


def _packed(entry: Mapping[str, Any]) -> dict[str, Any]:
    document = packed_document(entry)
    blob = base64.b64decode(document["events_base64"])
    events = [orjson.loads(payload) for payload in unpack(blob)]
    game_id = str(entry["id"])
    service = services()
    # Put back as the store that wrote it kept it: the game's `packed` hash, and its line in the lobby.
    # (Any: redis-py's mapping type takes no dict of str keys, however plain.)
    fields: dict[Any, Any] = {k: str(v) for k, v in document.items() if k not in ("key", "events_base64")}
    service.redis.hset(f"{PREFIX}:{document['key']}", mapping={**fields, "events": blob})
    service.directory.add_game(game_id, 0)
    game = service.repository.load(game_id)
    head, exported = read_export(list(service.archive.export(game_id, None)))
    assert exported == events, f"{game_id}: the store serves other events than the pack holds"
    offline = replay(RecordedEvent.from_dict(event) for event in events)
    assert views_of(game) == views_of(offline), f"{game_id}: the store shows other views than a replay"
    return {
        "file": entry["file"],
        "unpacked": {
            "events": len(events),
            "sha256": hashlib.sha256(canonical_text(events).encode("utf-8")).hexdigest(),
            "last_hash": events[-1]["hash"],
        },
        "served": {
            "status": game.status,
            "version": game.version,
            "result": game.result,
            "audit": service.archive.audit(game_id).to_dict(),
            "export_header": head,
            "end_views": views_of(game),
        },
    }


# --- tournaments -------------------------------------------------------------


def _bundle(entry: Mapping[str, Any]) -> dict[str, Any]:
    bundle = read_bundle(read_lines(entry["file"]))
    tournament = replay_tournament(RecordedEvent.from_dict(event) for event in bundle.events)
    games = {}
    for game_id, game_file in sorted(bundle.games.items()):
        game = replay(RecordedEvent.from_dict(event) for event in game_file.events)
        games[game_id] = {
            "events": len(game_file.events),
            "result": game.result,
            "status": game.status,
            # No tournament is imported whole; each of its games is, as any exported game.
            "import": import_expectations(list(export_lines(game_file.head, game_file.events))),
        }
    return {
        "file": entry["file"],
        "header": dict(bundle.head),
        "audit": audit_bundle(bundle).to_dict(),
        "audit_with_corpus_key": audit_bundle(bundle, verifier=corpus_keys()).to_dict(),
        "view": tournament_view(tournament),
        "standings_csv": standings_csv(tournament).splitlines(),
        "games": games,
    }
