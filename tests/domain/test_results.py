"""What a signed result is, and what an auditor checks of one, with a stand-in for the keys."""

from __future__ import annotations

import base64
import hashlib

from domain.canonical import canonical_bytes
from domain.results import (
    FAILED,
    MESSAGE_PREFIX,
    PRESENT,
    UNSIGNED,
    VERIFIED,
    Statement,
    chain_statement,
    check_signature,
    key_id,
    signature_record,
)

STATEMENT = Statement("g1", "game", 42, "ab" * 32)


class KeyedDigests:
    """A stand-in verifier: key `k` "signs" m as sha256(k + m)."""

    def __init__(self, *keys: str) -> None:
        self.keys = set(keys)

    def knows(self, key_id: str) -> bool:
        return key_id in self.keys

    def verify(self, key_id: str, message: bytes, signature: bytes) -> bool:
        return signature == sign(key_id, message)


def sign(key: str, message: bytes) -> bytes:
    return hashlib.sha256(key.encode() + message).digest()


def signed(key: str = "house", statement: Statement = STATEMENT) -> dict[str, object]:
    return signature_record(statement, key, sign(key, statement.message()))


def test_the_signed_message_is_the_prefix_then_the_statements_canonical_json():
    assert STATEMENT.message() == MESSAGE_PREFIX + canonical_bytes(
        {"id": "g1", "type": "game", "final_version": 42, "final_hash": "ab" * 32}
    )


def test_a_key_id_is_the_first_eight_bytes_of_the_public_keys_sha256():
    assert key_id(b"\x01" * 32) == hashlib.sha256(b"\x01" * 32).hexdigest()[:16]


def test_the_chain_gives_the_statement_from_its_first_event_length_and_last_hash():
    raw = [{"data": {"id": "g1"}, "hash": "x"}, {"data": {}, "hash": "ab" * 32}]
    assert chain_statement("game", raw) == Statement("g1", "game", 2, "ab" * 32)


def test_no_signature_is_unsigned_and_not_a_failure():
    checked = check_signature(None, STATEMENT)
    assert checked.status == UNSIGNED and checked.ok


def test_without_keys_a_signature_over_the_chains_statement_is_present_and_names_its_key():
    checked = check_signature(signed(), STATEMENT)
    assert (checked.status, checked.key_id) == (PRESENT, "house")


def test_with_the_house_key_the_signature_verifies():
    checked = check_signature(signed(), STATEMENT, KeyedDigests("house"))
    assert (checked.status, checked.key_id) == (VERIFIED, "house")


def test_a_signature_by_another_key_fails_and_says_which_key_signed():
    checked = check_signature(signed("other"), STATEMENT, KeyedDigests("house"))
    assert checked.status == FAILED and "other" in str(checked.reason) and not checked.ok


def test_a_signature_that_does_not_verify_under_its_named_key_fails():
    record = {**signed(), "signature_b64": base64.b64encode(b"\x00" * 32).decode()}
    assert check_signature(record, STATEMENT, KeyedDigests("house")).status == FAILED


def test_a_statement_edited_to_another_hash_fails_even_without_keys():
    other = Statement("g1", "game", 42, "cd" * 32)
    checked = check_signature(signed(statement=other), STATEMENT)
    assert checked.status == FAILED and "not the chain's" in str(checked.reason)


def test_with_keys_an_unsigned_result_fails():
    assert check_signature(None, STATEMENT, KeyedDigests("house")).status == FAILED


def test_a_malformed_signature_fails():
    assert check_signature({"key_id": "house"}, STATEMENT).status == FAILED
    assert check_signature({**signed(), "algorithm": "rsa"}, STATEMENT).status == FAILED
    assert check_signature({**signed(), "signature_b64": "not base64!"}, STATEMENT).status == FAILED
