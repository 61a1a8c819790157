"""The house signs what it publishes: finished games and tournaments, verified offline with its public keys."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import fakeredis
import pytest

from domain.results import VERIFIED
from service.adapters import house_keys
from service.adapters.slots import aggregate_key
from service.bootstrap import Services, build
from service.cli import main as menagerie
from service.http import create_app
from tests.support.live_server import serving


@pytest.fixture
def keys_dir(tmp_path: Path) -> Path:
    folder = tmp_path / "keys"
    house_keys.create(str(folder))
    return folder


def house(keys_dir: Path, prefix: str = "signed") -> Services:
    """Services on a fresh fakeredis, signing with the keys folder's current key."""
    return build(fakeredis.FakeRedis(), prefix, inline_jobs=True, keys=house_keys.load(str(keys_dir)))


def finished_game(services: Services, seed: str = "signed") -> str:
    game, _ = services.games.create("toy", [{"bot": "random"}, {"bot": "random"}], {}, seed=seed)
    assert services.repository.load(game.id).status == "finished"
    return game.id


def finished_tournament(services: Services) -> str:
    created, _ = services.tournaments.create("toy", rounds=2, table_sizes=[3], seed="signed-t")
    for _ in range(6):
        services.tournaments.register(created.id, bot="random")
    services.tournaments.start(created.id)
    assert services.tournaments.load(created.id).status == "finished"
    return created.id


def export_file(services: Services, game_id: str, path: Path) -> Path:
    path.write_text("".join(services.archive.export(game_id, None)))
    return path


def public_file(keys_dir: Path, path: Path) -> Path:
    path.write_text(json.dumps(house_keys.published(str(keys_dir))))
    return path


def head_of(path: Path) -> dict[str, Any]:
    return dict(json.loads(path.read_text().splitlines()[0]))


def test_a_game_is_signed_when_it_ends_and_its_export_carries_the_signature(keys_dir):
    services = house(keys_dir)
    game_id = finished_game(services)
    kept = services.store.signature(game_id)
    game = services.repository.load(game_id)
    assert kept is not None and kept["key_id"] == services.signatures.keys.current_key_id
    assert kept["statement"] == {
        "id": game_id,
        "type": "game",
        "final_version": game.version,
        "final_hash": game.last_hash,
    }
    head = json.loads(next(iter(services.archive.export(game_id, None))))
    assert head["signature"] == kept


def test_signing_twice_keeps_one_signature(keys_dir):
    services = house(keys_dir)
    game_id = finished_game(services)
    first = services.store.signature(game_id)
    game = services.repository.load(game_id)
    services.games.on_finished(game)  # the follow-up delivered again
    assert services.signatures.game(game) == first == services.store.signature(game_id)
    key = aggregate_key(services.prefix, game_id, "signature")
    assert services.redis.exists(key) == 1


def test_audit_with_the_house_key_passes_and_names_the_key(keys_dir, tmp_path, capsys):
    services = house(keys_dir)
    path = export_file(services, finished_game(services), tmp_path / "game.ndjson")
    assert menagerie(["audit", str(path), "--key", str(public_file(keys_dir, tmp_path / "house.json"))]) == 0
    key = services.signatures.keys.current_key_id
    assert f"signature verified: signed by house key {key}" in capsys.readouterr().out


def test_audit_without_a_key_reports_the_signature_as_present_but_unverified(keys_dir, tmp_path, capsys):
    services = house(keys_dir)
    path = export_file(services, finished_game(services), tmp_path / "game.ndjson")
    assert menagerie(["audit", str(path)]) == 0
    assert f"signed by key {services.signatures.keys.current_key_id} (not verified" in capsys.readouterr().out


def test_a_result_signed_by_another_key_fails(keys_dir, tmp_path, capsys):
    services = house(keys_dir)
    path = export_file(services, finished_game(services), tmp_path / "game.ndjson")
    other = tmp_path / "other"
    house_keys.create(str(other))
    assert menagerie(["audit", str(path), "--key", str(public_file(other, tmp_path / "other.json"))]) == 1
    assert "not among the given public keys" in capsys.readouterr().out


def test_a_signed_statement_edited_to_another_version_fails(keys_dir, tmp_path, capsys):
    services = house(keys_dir)
    path = export_file(services, finished_game(services), tmp_path / "game.ndjson")
    lines = path.read_text().splitlines(keepends=True)
    head = json.loads(lines[0])
    head["signature"]["statement"]["final_version"] -= 1
    path.write_text(json.dumps(head) + "\n" + "".join(lines[1:]))
    assert menagerie(["audit", str(path), "--key", str(public_file(keys_dir, tmp_path / "house.json"))]) == 1
    assert "is not the chain's" in capsys.readouterr().out


def test_a_signature_moved_onto_another_game_fails(keys_dir, tmp_path):
    services = house(keys_dir)
    one = export_file(services, finished_game(services, "one"), tmp_path / "one.ndjson")
    two = export_file(services, finished_game(services, "two"), tmp_path / "two.ndjson")
    lines = two.read_text().splitlines(keepends=True)
    head = {**json.loads(lines[0]), "signature": head_of(one)["signature"]}
    two.write_text(json.dumps(head) + "\n" + "".join(lines[1:]))
    assert menagerie(["audit", str(two)]) == 1


def test_an_unsigned_export_audits_as_before_and_says_unsigned(keys_dir, tmp_path, capsys):
    services = house(keys_dir)
    path = export_file(services, finished_game(services), tmp_path / "game.ndjson")
    lines = path.read_text().splitlines(keepends=True)
    head = {key: value for key, value in json.loads(lines[0]).items() if key != "signature"}
    path.write_text(json.dumps(head) + "\n" + "".join(lines[1:]))
    assert menagerie(["audit", str(path)]) == 0
    assert capsys.readouterr().out.rstrip().endswith("; unsigned")
    # Asked to verify the house's signature, an unsigned file cannot pass.
    assert menagerie(["audit", str(path), "--key", str(public_file(keys_dir, tmp_path / "house.json"))]) == 1


def test_a_rotated_key_still_verifies_old_results_with_the_old_public_key(keys_dir, tmp_path, capsys):
    before = house(keys_dir)
    old_key = before.signatures.keys.current_key_id
    old_public = public_file(keys_dir, tmp_path / "old.json")
    old_game = export_file(before, finished_game(before, "old"), tmp_path / "old.ndjson")
    retired, current = house_keys.rotate(str(keys_dir))
    assert retired == old_key != current
    after = house(keys_dir)
    new_game = export_file(after, finished_game(after, "new"), tmp_path / "new.ndjson")
    assert head_of(new_game)["signature"]["key_id"] == current
    # The old public key alone verifies the old result, and not the new one.
    assert menagerie(["audit", str(old_game), "--key", str(old_public)]) == 0
    assert menagerie(["audit", str(new_game), "--key", str(old_public)]) == 1
    # The published keys (current and retired) verify both.
    published = public_file(keys_dir, tmp_path / "now.json")
    assert menagerie(["audit", str(old_game), "--key", str(published)]) == 0
    assert menagerie(["audit", str(new_game), "--key", str(published)]) == 0
    assert f"signed by house key {old_key}" in capsys.readouterr().out


def test_the_well_known_route_lists_the_current_and_the_retired_keys(keys_dir):
    old = house_keys.load(str(keys_dir)).current_key_id
    _, new = house_keys.rotate(str(keys_dir))
    client = create_app(house(keys_dir)).test_client()
    answer = client.get("/.well-known/menagerie-keys")
    assert answer.status_code == 200
    listed = [(key["key_id"], key["status"], key["algorithm"]) for key in answer.json["keys"]]
    assert listed == [(new, "current", "ed25519"), (old, "retired", "ed25519")]


def test_a_service_started_before_a_rotation_lists_and_verifies_the_new_key(keys_dir):
    running = house(keys_dir)
    _, new = house_keys.rotate(str(keys_dir))
    restarted = build(running.redis, running.prefix, inline_jobs=True, keys=house_keys.load(str(keys_dir)))
    game_id = finished_game(restarted)
    client = create_app(running).test_client()
    assert client.get("/.well-known/menagerie-keys").json["keys"][0]["key_id"] == new
    assert client.get(f"/games/{game_id}/audit").json["signature"] == {
        "status": VERIFIED,
        "key_id": new,
        "reason": None,
    }


def test_audit_fetches_the_keys_from_the_services_url(keys_dir, tmp_path, capsys):
    services = house(keys_dir)
    path = export_file(services, finished_game(services), tmp_path / "game.ndjson")
    with serving(services) as url:
        assert menagerie(["audit", str(path), "--key", url]) == 0
        assert menagerie(["audit", str(path), "--key", f"{url}/.well-known/menagerie-keys"]) == 0
    assert "signature verified" in capsys.readouterr().out


def test_the_http_audit_reports_the_key_and_that_it_verifies(keys_dir):
    services = house(keys_dir)
    game_id = finished_game(services)
    report = create_app(services).test_client().get(f"/games/{game_id}/audit").json
    assert report["ok"] is True
    assert report["signature"] == {
        "status": VERIFIED,
        "key_id": services.signatures.keys.current_key_id,
        "reason": None,
    }


def test_packing_and_archiving_keep_the_signature_and_import_keeps_it(keys_dir, tmp_path):
    services = house(keys_dir)
    game_id = finished_game(services)
    signature = services.store.signature(game_id)
    assert services.store.is_packed(game_id) and services.store.signature(game_id) == signature
    archived = tmp_path / "archived.ndjson"
    services.archive.archive_to(game_id, str(archived))
    assert head_of(archived)["signature"] == signature
    assert services.store.signature(game_id) is None  # gone with the game's keys, into the file
    elsewhere = house(keys_dir, "elsewhere")
    assert elsewhere.archive.import_lines(archived.read_text().splitlines(keepends=True)) == game_id
    assert elsewhere.store.signature(game_id) == signature


def test_an_import_whose_signature_a_house_key_did_not_make_is_refused(keys_dir, tmp_path):
    services = house(keys_dir)
    path = export_file(services, finished_game(services), tmp_path / "game.ndjson")
    lines = path.read_text().splitlines(keepends=True)
    head = json.loads(lines[0])
    head["signature"]["signature_b64"] = head_of(
        export_file(services, finished_game(services, "another"), tmp_path / "another.ndjson")
    )["signature"]["signature_b64"]
    from service.errors import ImportRefused

    with pytest.raises(ImportRefused):
        house(keys_dir, "elsewhere").archive.import_lines([json.dumps(head) + "\n", *lines[1:]])


def test_a_tournament_and_its_games_are_signed_and_its_bundle_verifies(keys_dir, tmp_path, capsys):
    services = house(keys_dir)
    tournament_id = finished_tournament(services)
    tournament = services.tournaments.load(tournament_id)
    kept = services.store.signature(tournament_id)
    assert kept is not None and kept["statement"]["type"] == "tournament"
    assert kept["statement"]["final_hash"] == tournament.last_hash
    bundle = tmp_path / "bundle.ndjson"
    bundle.write_text("".join(services.tournament_files.export(tournament_id)))
    assert head_of(bundle)["signature"] == kept
    assert menagerie(["audit-tournament", str(bundle), "--key", str(public_file(keys_dir, tmp_path / "h.json"))]) == 0
    out = capsys.readouterr().out
    assert f"tournament signature verified: signed by house key {kept['key_id']}" in out
    assert "games' signatures: 4 verified" in out
    other = tmp_path / "other"
    house_keys.create(str(other))
    assert menagerie(["audit-tournament", str(bundle), "--key", str(public_file(other, tmp_path / "o.json"))]) == 1


def test_without_a_keys_folder_each_process_publishes_its_ephemeral_key_in_the_store():
    redis = fakeredis.FakeRedis()
    api, worker = (build(redis, "shared", inline_jobs=True) for _ in range(2))
    assert redis.hlen("shared:house-keys") == 0  # nothing is written at start: a process may start with the store down
    game_id = finished_game(worker)
    assert redis.hkeys("shared:house-keys") == [worker.signatures.keys.current_key_id.encode()]
    report = create_app(api).test_client().get(f"/games/{game_id}/audit").json
    assert report["signature"]["status"] == VERIFIED
    assert report["signature"]["key_id"] == worker.signatures.keys.current_key_id
    listed = {key["key_id"] for key in api.signatures.keys.public_keys()}
    assert listed == {api.signatures.keys.current_key_id, worker.signatures.keys.current_key_id}


def test_keys_commands_create_rotate_and_show(tmp_path, capsys):
    folder = tmp_path / "k"
    assert menagerie(["keys", "new", "--dir", str(folder)]) == 0
    assert menagerie(["keys", "new", "--dir", str(folder)]) == 1  # never over an existing key
    pem = next(folder.glob("*.pem"))
    assert pem.stat().st_mode & 0o777 == 0o600
    assert menagerie(["keys", "rotate", "--dir", str(folder)]) == 0
    capsys.readouterr()
    assert menagerie(["keys", "show", "--dir", str(folder)]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert [key["status"] for key in shown["keys"]] == ["current", "retired"]
    assert "PRIVATE" not in json.dumps(shown)
