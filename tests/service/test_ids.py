"""Ids of the service's own form at every entry: imports, routes, the command line and archive files."""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from domain.audit import audit_export
from domain.events import GENESIS_HASH, chain_hash
from domain.export import read_export
from domain.ids import is_game_id, is_tournament_id
from service.application.archive import archive_path
from service.cli import main as menagerie
from service.errors import ImportRefused
from service.http import create_app
from tests.support.services import FAKE, on_every_store

redis_client = on_every_store(FAKE)

FIXTURE = Path(__file__).parent.parent / "fixtures" / "life_is_life_v1.ndjson"
FIXTURE_ID = "0000000000000001"
HOSTILE_IDS = ["../escape", "/tmp/escape", "0000000000000001/../../x", "{tag}", "G000000000000001", ""]


def export_with_id(game_id: str) -> list[str]:
    """Return the fixture's export renamed to `game_id`, its hash chain rebuilt: self-consistent, as a forger makes it."""
    lines = FIXTURE.read_text().splitlines()
    renamed = [lines[0].replace(f'"id": "{FIXTURE_ID}"', json.dumps({"id": game_id})[1:-1], 1)]
    previous = GENESIS_HASH
    for number, line in enumerate(lines[1:]):
        if number == 0:
            line = line.replace(f'"id": "{FIXTURE_ID}"', json.dumps({"id": game_id})[1:-1])
        event = json.loads(line)
        event["hash"] = chain_hash(previous, {key: value for key, value in event.items() if key != "hash"})
        previous = event["hash"]
        renamed.append(json.dumps(event))
    return [line + "\n" for line in renamed]


def test_the_id_forms_are_the_ones_the_service_gives():
    assert is_game_id("0123456789abcdef") and is_tournament_id("t-0123456789abcdef")
    for wrong in [*HOSTILE_IDS, "0123456789abcdef0", "t-0123456789abcdef", None, 7]:
        assert not is_game_id(wrong)
    assert not is_tournament_id("0123456789abcdef") and not is_tournament_id("t-../../x")


@pytest.mark.parametrize("game_id", ["../escape", "/tmp/escape", "{tag}"])
def test_an_import_refuses_a_self_consistent_export_whose_id_is_not_the_services_form(services, game_id):
    lines = export_with_id(game_id)
    assert audit_export(*read_export(lines)).ok  # the forger's file passes its audit: only the id is wrong
    with pytest.raises(ImportRefused, match="16 lowercase hexadecimal digits"):
        services.archive.import_lines(lines)
    assert not services.store.exists(game_id)


def test_the_archiver_never_writes_outside_its_folder_for_a_game_already_stored_under_a_bad_id(services, tmp_path):
    """A game imported before ids were checked: the archiver names it as failed and leaves it in the store."""
    _, events = read_export(export_with_id("../escape"))
    services.store.append_raw("../escape", events, expected_version=0)
    services.directory.add_game("../escape", 0)
    folder = tmp_path / "archive"

    run = services.archive.archive_finished(str(folder), datetime.now(UTC) + timedelta(days=1))

    assert run.failed == ["../escape"] and run.archived == []
    assert sorted(os.listdir(tmp_path)) == ["archive"] and os.listdir(folder) == []
    assert services.store.exists("../escape")


def test_an_archive_path_is_the_ids_file_in_the_folder_and_never_a_link_out_of_it(tmp_path):
    folder = tmp_path / "archive"
    folder.mkdir()
    assert archive_path(str(folder), "0123456789abcdef") == str(folder.resolve() / "0123456789abcdef.ndjson")
    for game_id in HOSTILE_IDS:
        with pytest.raises(ValueError, match="not a game id"):
            archive_path(str(folder), game_id)
    (folder / "fedcba9876543210.ndjson").symlink_to(tmp_path / "elsewhere.ndjson")
    with pytest.raises(ValueError, match="would leave"):
        archive_path(str(folder), "fedcba9876543210")


def test_the_archive_command_refuses_a_game_id_not_of_the_services_form(tmp_path, capsys):
    assert menagerie(["archive", "../escape", str(tmp_path / "out.ndjson")]) == 2
    assert "GAME_ID is 16 lowercase hexadecimal digits" in capsys.readouterr().err
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize(
    ("path", "code", "form"),
    [
        ("/games/G1", "game_not_found", "a game id is 16 lowercase hexadecimal digits"),
        ("/games/0123/export", "game_not_found", "a game id is 16 lowercase hexadecimal digits"),
        ("/tournaments/abc/standings", "tournament_not_found", "a tournament id is t- and 16"),
    ],
)
def test_a_route_answers_404_naming_the_id_form_for_an_id_not_of_the_services_form(services, path, code, form):
    answer = create_app(services).test_client().get(path)
    assert answer.status_code == 404
    assert answer.json["error"]["code"] == code and form in answer.json["error"]["message"]


def test_a_well_formed_unknown_id_is_a_plain_404(services):
    answer = create_app(services).test_client().get("/games/0123456789abcdef")
    assert answer.status_code == 404 and answer.json["error"]["message"] == "no game with id '0123456789abcdef'"


def test_the_offline_audit_quotes_an_id_not_of_the_services_form_rather_than_printing_it_raw(tmp_path, capsys):
    path = tmp_path / "forged.ndjson"
    path.write_text("".join(export_with_id("\x1b[2J../x")))
    assert menagerie(["audit", str(path)]) == 0  # the chain holds: the file is consistent, its id is not ours
    out = capsys.readouterr().out
    assert "\x1b" not in out and "'\\x1b[2J../x' (not an id this service gives)" in out
