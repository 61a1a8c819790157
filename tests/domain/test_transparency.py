"""The transparency log's rules against published vectors: RFC 9162 hashing, proofs, C2SP signed notes.

The Merkle vectors are Certificate Transparency's (transparency-dev/merkle, tests/fixtures/tlog names
the commit); the note vector is the example of Go's golang.org/x/mod/sumdb/note package.
"""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.transparency import merkle
from domain.transparency.notes import (
    Checkpoint,
    NoteError,
    VerifierKey,
    open_checkpoint,
    open_note,
    parse_checkpoint,
    parse_vkey,
    signed_note,
)

FIXTURES = Path(__file__).parent.parent / "fixtures" / "tlog"
REFERENCE = json.loads((FIXTURES / "reference.json").read_text())
PROBES = json.loads((FIXTURES / "probes.json").read_text())
LEAVES = [merkle.leaf_hash(bytes.fromhex(leaf)) for leaf in REFERENCE["leaves"]]
ROOTS = [bytes.fromhex(root) for root in REFERENCE["roots"]]


def _b64(text: str) -> bytes:
    return base64.b64decode(text or "")


def _hexes(items: list[str]) -> list[bytes]:
    return [bytes.fromhex(item) for item in items]


def test_leaf_and_node_hashes_are_rfc_9162s():
    assert merkle.leaf_hash(b"").hex() == "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d"
    assert merkle.leaf_hash(b"L123456").hex() == "395aa064aa4c29f7010acfe3f25db9485bbd4b91897b6ad7ad547639252b4d56"
    assert merkle.node_hash(b"N123", b"N456").hex() == (
        "aa217fe888e47007fa15edab33c2b492a722cb106c64667fc2b044444de66bbb"
    )


@pytest.mark.parametrize("size", range(9))
def test_the_root_of_every_prefix_of_the_reference_tree_is_the_published_one(size):
    assert merkle.root(LEAVES[:size]) == ROOTS[size]


@pytest.mark.parametrize("case", REFERENCE["inclusion"], ids=lambda c: f"{c['index']}:{c['size']}")
def test_inclusion_proofs_are_the_published_ones(case):
    tree = merkle.subtrees_of(LEAVES[: case["size"]])
    assert merkle.inclusion_proof(case["index"], case["size"], tree) == _hexes(case["proof"])


@pytest.mark.parametrize("case", REFERENCE["consistency"], ids=lambda c: f"{c['from']}:{c['to']}")
def test_consistency_proofs_are_the_published_ones(case):
    tree = merkle.subtrees_of(LEAVES[: case["to"]])
    assert merkle.consistency_proof(case["from"], case["to"], tree) == _hexes(case["proof"])


def test_every_proof_the_tree_makes_verifies_against_its_published_roots():
    for size in range(1, 9):
        tree = merkle.subtrees_of(LEAVES[:size])
        for index in range(size):
            merkle.verify_inclusion(index, size, LEAVES[index], merkle.inclusion_proof(index, size, tree), ROOTS[size])
        for first in range(1, size + 1):
            proof = merkle.consistency_proof(first, size, tree)
            merkle.verify_consistency(first, size, ROOTS[first], ROOTS[size], proof)


@pytest.mark.parametrize("name", sorted(PROBES["inclusion"]))
def test_inclusion_probes_verify_exactly_when_ct_says_they_should(name):
    probe = PROBES["inclusion"][name]
    args = (probe["leafIdx"], probe["treeSize"], _b64(probe["leafHash"]), [_b64(p) for p in probe["proof"] or []])
    if probe["wantErr"]:
        with pytest.raises(merkle.ProofError):
            merkle.verify_inclusion(*args, _b64(probe["root"]))
    else:
        merkle.verify_inclusion(*args, _b64(probe["root"]))


@pytest.mark.parametrize("name", sorted(PROBES["consistency"]))
def test_consistency_probes_verify_exactly_when_ct_says_they_should(name):
    probe = PROBES["consistency"][name]
    args = (probe["size1"], probe["size2"], _b64(probe["root1"]), _b64(probe["root2"]))
    proof = [_b64(p) for p in probe["proof"] or []]
    if probe["wantErr"]:
        with pytest.raises(merkle.ProofError):
            merkle.verify_consistency(*args, proof)
    else:
        merkle.verify_consistency(*args, proof)


def test_a_proof_for_a_leaf_beyond_the_tree_is_refused():
    with pytest.raises(merkle.ProofError):
        merkle.inclusion_proof(8, 8, merkle.subtrees_of(LEAVES))
    with pytest.raises(merkle.ProofError):
        merkle.consistency_proof(5, 4, merkle.subtrees_of(LEAVES))


# Go's golang.org/x/mod/sumdb/note example: a key, a text and its signature line.
GO_VKEY = "PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW"
GO_TEXT = "If you think cryptography is the answer to your problem,\nthen you don't know what your problem is.\n"
GO_SIGNATURE = (
    "\u2014 PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n"
)
GO_NOTE = GO_TEXT + "\n" + GO_SIGNATURE


def _signature_of(note: str) -> bytes:
    return base64.b64decode(note.rsplit(" ", 1)[1])[4:]


def test_the_go_note_example_key_reads_back_to_its_own_text_and_hash():
    key = parse_vkey(GO_VKEY)
    assert key.name == "PeterNeumann"
    assert key.key_hash.hex() == "c74f20a3"
    assert key.text() == GO_VKEY


def test_the_go_note_example_is_framed_byte_for_byte():
    key = parse_vkey(GO_VKEY)
    assert signed_note(GO_TEXT, key.name, key.public_key, _signature_of(GO_NOTE)) == GO_NOTE


def test_a_note_opens_only_with_a_signature_the_verifier_accepts():
    key = parse_vkey(GO_VKEY)
    seen = []

    def accept(public_key: bytes, message: bytes, signature: bytes) -> bool:
        seen.append((public_key, message, signature))
        return True

    assert open_note(GO_NOTE, key, accept) == GO_TEXT
    assert seen == [(key.public_key, GO_TEXT.encode(), _signature_of(GO_NOTE))]
    with pytest.raises(NoteError, match="does not verify"):
        open_note(GO_NOTE, key, lambda *_: False)


def test_a_note_without_the_keys_signature_is_refused():
    other = VerifierKey("someone-else", parse_vkey(GO_VKEY).public_key)
    with pytest.raises(NoteError, match="no signature by someone-else"):
        open_note(GO_NOTE, other, lambda *_: True)
    with pytest.raises(NoteError):
        open_note(GO_TEXT, parse_vkey(GO_VKEY), lambda *_: True)


def test_a_checkpoint_body_is_origin_size_and_base64_root_a_line_each():
    checkpoint = Checkpoint("example.com/log", 8, ROOTS[8])
    assert checkpoint.body() == "example.com/log\n8\nXcnaeacGWamtVZy3Ad7ZoqudgjqtL0lgz+Nw7/RgQyg=\n"
    assert parse_checkpoint(checkpoint.body()) == checkpoint
    assert parse_checkpoint(checkpoint.body() + "an extension line\n") == checkpoint


@pytest.mark.parametrize(
    "body",
    [
        "example.com/log\n8\n",
        "example.com/log\n08\nXcnaeacGWamtVZy3Ad7ZoqudgjqtL0lgz+Nw7/RgQyg=\n",
        "x\n-1\nAA==\n",
        "x\n1\nAAAA\n",
        "example.com/log\n8\nXcnaeacGWamtVZy3Ad7ZoqudgjqtL0lgz+Nw7/RgQyg=",
    ],
)
def test_a_malformed_checkpoint_is_refused(body):
    with pytest.raises(NoteError):
        parse_checkpoint(body)


def test_a_signed_checkpoint_opens_to_its_checkpoint():
    key = VerifierKey("example.com/log", parse_vkey(GO_VKEY).public_key)
    checkpoint = Checkpoint("example.com/log", 8, ROOTS[8])
    note = signed_note(checkpoint.body(), key.name, key.public_key, b"s" * 64)
    assert open_checkpoint(note, key, lambda _k, message, _s: message == checkpoint.body().encode()) == checkpoint


def _reference_root(leaves):
    """RFC 9162's MTH, written as the RFC defines it (recursively), to check the fast one against."""
    if not leaves:
        return merkle.EMPTY_ROOT
    if len(leaves) == 1:
        return leaves[0]
    k = merkle.split(len(leaves))
    return merkle.node_hash(_reference_root(leaves[:k]), _reference_root(leaves[k:]))


@given(st.integers(min_value=1, max_value=70), st.data())
def test_any_trees_proofs_verify_and_a_changed_leaf_or_root_fails_them(size, data):
    leaves = [merkle.leaf_hash(n.to_bytes(2, "big")) for n in range(size)]
    tree = merkle.subtrees_of(leaves)
    assert merkle.root(leaves) == _reference_root(leaves)
    index = data.draw(st.integers(min_value=0, max_value=size - 1))
    first = data.draw(st.integers(min_value=1, max_value=size))
    path = merkle.inclusion_proof(index, size, tree)
    merkle.verify_inclusion(index, size, leaves[index], path, merkle.root(leaves))
    with pytest.raises(merkle.ProofError):
        merkle.verify_inclusion(index, size, merkle.leaf_hash(b"other"), path, merkle.root(leaves))
    proof = merkle.consistency_proof(first, size, tree)
    merkle.verify_consistency(first, size, merkle.root(leaves[:first]), merkle.root(leaves), proof)
    if first < size:
        with pytest.raises(merkle.ProofError):
            merkle.verify_consistency(first, size, merkle.leaf_hash(b"other"), merkle.root(leaves), proof)
