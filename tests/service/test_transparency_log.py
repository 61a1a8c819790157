"""The transparency log on Redis (fakeredis, the real server and a cluster): appends once per result, proves
inclusion and consistency against signed checkpoints, and fills as games finish."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from domain.transparency import merkle
from domain.transparency.notes import NoteError, open_checkpoint, open_note, signed_note
from service.adapters.connections import ConfigError
from service.adapters.note_keys import new_signer, parse_signer, signer_from_env, verify_ed25519
from service.adapters.slots import slot_of_key
from service.adapters.tlog import RedisLeaves, ResultRewritten, log_key
from service.application.transparency import (
    KEPT_FROM,
    BadLogRange,
    LogEntryNotFound,
    TransparencyLog,
)
from service.bootstrap import build
from tests.domain.test_transparency import GO_NOTE, GO_TEXT, GO_VKEY
from tests.support.services import on_every_store

redis_client = on_every_store()
REFERENCE = json.loads((Path(__file__).parent.parent / "fixtures" / "tlog" / "reference.json").read_text())


@pytest.fixture
def results_log(redis_client, prefix):
    signer = new_signer("example.test/results")
    return TransparencyLog(RedisLeaves(redis_client, prefix), signer, signer.name)


def _checkpoint(results_log):
    return open_checkpoint(results_log.signed_checkpoint(), results_log.verifier_key(), verify_ed25519)


def test_the_reference_leaves_appended_give_cts_published_roots_at_every_size(results_log):
    for size, leaf in enumerate(REFERENCE["leaves"], start=1):
        assert results_log.append(f"r{size}", bytes.fromhex(leaf)) == size - 1
        checkpoint = _checkpoint(results_log)
        assert (checkpoint.size, checkpoint.root.hex()) == (size, REFERENCE["roots"][size])


def test_every_inclusion_and_consistency_proof_verifies_against_the_signed_checkpoints(results_log):
    roots = {0: merkle.EMPTY_ROOT}
    for n in range(1, 12):
        results_log.append_result({"id": f"g{n}", "type": "game", "final_version": n, "final_hash": "ab" * 32})
        roots[n] = _checkpoint(results_log).root
    for size in range(1, 12):
        for index in range(size):
            proof = results_log.inclusion(index, size)
            assert proof.leaf == merkle.leaf_hash(results_log.entry(index))
            merkle.verify_inclusion(index, size, proof.leaf, proof.path, roots[size])
        for first in range(1, size + 1):
            second, path = results_log.consistency(first, size)
            merkle.verify_consistency(first, second, roots[first], roots[size], path)


def test_a_result_appended_twice_keeps_its_first_index_and_one_leaf(results_log):
    statement = {"id": "g1", "type": "game", "final_version": 9, "final_hash": "00" * 32}
    assert results_log.append_result(statement) == 0
    results_log.append_result({**statement, "id": "g2"})
    assert results_log.append_result(statement) == 0
    assert results_log.checkpoint().size == 2
    assert results_log.index_of("g1") == 0


def test_a_result_appended_again_with_another_statement_is_refused_and_changes_nothing(results_log):
    statement = {"id": "g1", "type": "game", "final_version": 9, "final_hash": "00" * 32}
    results_log.append_result(statement)
    before = results_log.checkpoint()
    with pytest.raises(ResultRewritten):
        results_log.append_result({**statement, "final_hash": "11" * 32})
    assert results_log.checkpoint() == before
    assert json.loads(results_log.entry(0)) == statement


def test_proofs_beyond_the_log_and_unknown_entries_are_refused(results_log):
    results_log.append("a", b"a")
    with pytest.raises(BadLogRange):
        results_log.inclusion(0, 2)
    with pytest.raises(BadLogRange):
        results_log.inclusion(1, 1)
    with pytest.raises(BadLogRange):
        results_log.consistency(2, 1)
    with pytest.raises(LogEntryNotFound):
        results_log.entry(1)
    with pytest.raises(LogEntryNotFound):
        results_log.index_of("b")


def test_every_key_of_the_log_lives_in_one_slot(prefix):
    slots = {slot_of_key(log_key(prefix, name)) for name in ("leaves", "entries", "ids", "signer")}
    assert len(slots) == 1


def test_the_key_a_shared_redis_keeps_is_the_one_every_process_signs_with(redis_client, prefix):
    first = build(redis_client, prefix, inline_jobs=True).log
    second = build(redis_client, prefix, inline_jobs=True).log
    assert first.verifier_key() == second.verifier_key()
    open_checkpoint(first.signed_checkpoint(), second.verifier_key(), verify_ed25519)


def test_a_finished_game_ends_up_in_the_log(services):
    game, _ = services.games.create("toy", [{"bot": "random"}, {"bot": "random"}], {}, seed="logged")
    finished = services.repository.load(game.id)
    assert finished.status == "finished"
    entry = json.loads(services.log.entry(services.log.index_of(game.id)))
    assert entry == {"id": game.id, "type": "game", "final_version": finished.version, "final_hash": finished.last_hash}


def test_the_go_note_example_signer_key_signs_its_text_to_the_published_note():
    signer = parse_signer("PRIVATE+KEY+PeterNeumann+c74f20a3+AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz")
    assert signer.verifier_key().text() == GO_VKEY
    assert signed_note(GO_TEXT, signer.name, signer.public_key, signer.sign(GO_TEXT.encode())) == GO_NOTE
    assert open_note(GO_NOTE, signer.verifier_key(), verify_ed25519) == GO_TEXT
    with pytest.raises(NoteError, match="does not verify"):
        open_note(GO_NOTE.replace("cryptography", "cryptographY"), signer.verifier_key(), verify_ed25519)
    assert "AYEK" not in repr(signer)


def test_a_finished_tournament_and_its_games_end_up_in_the_log(services):
    created, _ = services.tournaments.create("toy", rounds=1, table_sizes=[2], seed="logged")
    for _ in range(4):
        services.tournaments.register(created.id, bot="random")
    services.tournaments.start(created.id)
    tournament = services.tournaments.load(created.id)
    assert tournament.status == "finished"
    statements = [json.loads(services.log.entry(i)) for i in range(services.log.checkpoint().size)]
    assert sorted(s["type"] for s in statements) == ["game", "game", "tournament"]
    assert next(s for s in statements if s["type"] == "tournament") == {
        "id": created.id,
        "type": "tournament",
        "final_version": tournament.version,
        "final_hash": tournament.last_hash,
    }


def test_the_log_key_comes_from_the_file_menagerie_log_key_names(tmp_path, monkeypatch):
    signer = new_signer("keyfile.test/results")
    path = tmp_path / "log.key"
    path.write_text(signer.text() + "\n")
    monkeypatch.setenv("MENAGERIE_LOG_KEY", str(path))
    assert signer_from_env(None, "p").verifier_key() == signer.verifier_key()
    path.write_text(signer.text().replace("keyfile", "other"))
    with pytest.raises(ConfigError, match="hash does not match"):
        signer_from_env(None, "p")


@pytest.mark.parametrize("name", ["with space", "with+plus", "", "tab\there"])
def test_a_key_name_a_note_could_not_carry_is_refused(monkeypatch, name):
    monkeypatch.delenv("MENAGERIE_LOG_KEY", raising=False)
    monkeypatch.setenv("MENAGERIE_LOG_NAME", name)
    with pytest.raises(ConfigError):
        signer_from_env(None, "p")


def test_proofs_in_a_log_of_kept_subtrees_match_the_rfc_tree_of_every_leaf(results_log):
    # Past KEPT_FROM leaves the log keeps the hashes of complete subtrees; they must be the RFC's, at every size.
    entries = [f"result {n}".encode() for n in range(3 * KEPT_FROM + 5)]
    for n, entry in enumerate(entries[: 2 * KEPT_FROM + 1]):
        results_log.append(f"r{n}", entry)
    leaves = [merkle.leaf_hash(entry) for entry in entries]
    first = results_log.checkpoint()
    assert first.root == merkle.root(leaves[: first.size])
    for n, entry in enumerate(entries[first.size :], start=first.size):
        results_log.append(f"r{n}", entry)
    second = results_log.checkpoint()
    assert second.root == merkle.root(leaves)
    for index in (0, KEPT_FROM - 1, KEPT_FROM, 2 * KEPT_FROM, len(entries) - 1):
        for size, root in ((first.size, first.root), (second.size, second.root)):
            if index < size:
                proof = results_log.inclusion(index, size)
                merkle.verify_inclusion(index, size, leaves[index], proof.path, root)
    size, path = results_log.consistency(first.size)
    merkle.verify_consistency(first.size, size, first.root, second.root, path)
    assert results_log.subtrees.kept  # the subtrees were kept, and reused by the second checkpoint


def test_a_tournament_whose_result_could_not_be_logged_is_logged_by_its_next_step(services):
    logged = services.tournaments.on_finished
    services.tournaments.on_finished = lambda tournament: None  # the store failed as it ended
    created, _ = services.tournaments.create("toy", rounds=1, table_sizes=[2], seed="retried")
    for _ in range(4):
        services.tournaments.register(created.id, bot="random")
    services.tournaments.start(created.id)
    with pytest.raises(LogEntryNotFound):
        services.log.index_of(created.id)
    services.tournaments.on_finished = logged
    services.tournaments.advance(created.id)  # the job, run again
    assert json.loads(services.log.entry(services.log.index_of(created.id)))["type"] == "tournament"
