"""RFC 9162 Merkle trees: leaf and node hashes, roots, proofs, and their verification.

Written here rather than taken from a library: the hashing and both proof
algorithms are short and spelled out in RFC 9162 §2.1, the trees we prove
over live in Redis, not in a library's own storage, and the verifiers must
run offline in `menagerie audit` and `menagerie monitor` on exactly the
RFC's wire form (a list of 32-byte hashes). The tests hold all of it to
the published Certificate Transparency vectors (tests/fixtures/tlog).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence

from domain.errors import DomainError

HASH_SIZE = 32
EMPTY_ROOT = hashlib.sha256(b"").digest()


class ProofError(DomainError):
    """A proof that does not prove what it claims (or asks about a tree that does not exist)."""

    code = "bad_proof"


def leaf_hash(data: bytes) -> bytes:
    """Return the hash of a leaf: SHA-256(0x00 || data)."""
    return hashlib.sha256(b"\x00" + data).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    """Return the hash of an interior node: SHA-256(0x01 || left || right)."""
    return hashlib.sha256(b"\x01" + left + right).digest()


def root(leaves: Sequence[bytes]) -> bytes:
    """Return the Merkle tree hash (MTH) of a list of leaf hashes."""
    # The right edge of the tree built so far: one complete subtree per set bit of the count.
    edge: list[bytes] = []
    for count, leaf in enumerate(leaves, start=1):
        edge.append(leaf)
        while count % 2 == 0:
            right = edge.pop()
            edge.append(node_hash(edge.pop(), right))
            count //= 2
    if not edge:
        return EMPTY_ROOT
    top = edge.pop()
    while edge:
        top = node_hash(edge.pop(), top)
    return top


def split(n: int) -> int:
    """Return the largest power of two smaller than n (n > 1)."""
    return 1 << ((n - 1).bit_length() - 1)


# The hash of the leaves [start, end): how a proof reads the tree it proves over.
Subtree = Callable[[int, int], bytes]


def subtrees_of(leaves: Sequence[bytes]) -> Subtree:
    """Return the subtree reader of a list of leaf hashes."""
    return lambda start, end: root(leaves[start:end])


def inclusion_proof(index: int, size: int, subtree: Subtree) -> list[bytes]:
    """Return the audit path of leaf `index` in the tree of the first `size` leaves (RFC 9162 §2.1.3.1)."""
    if not 0 <= index < size:
        raise ProofError(f"no leaf {index} in a tree of {size}", index=index, size=size)
    proof: list[bytes] = []
    start, end = 0, size
    while end - start > 1:
        k = split(end - start)
        if index - start < k:
            proof.append(subtree(start + k, end))
            end = start + k
        else:
            proof.append(subtree(start, start + k))
            start += k
    return proof[::-1]


def consistency_proof(first: int, second: int, subtree: Subtree) -> list[bytes]:
    """Return the proof that the tree of `first` leaves is a prefix of that of `second` (RFC 9162 §2.1.4.1)."""
    if not 0 <= first <= second:
        raise ProofError(f"no consistency proof from {first} to {second}", first=first, second=second)
    if first in (0, second):
        return []
    proof: list[bytes] = []
    m, start, end, whole = first, 0, second, True
    while m != end - start:
        k = split(end - start)
        if m <= k:
            proof.append(subtree(start + k, end))
            end = start + k
        else:
            proof.append(subtree(start, start + k))
            m, start, whole = m - k, start + k, False
    if not whole:
        proof.append(subtree(start, end))
    return proof[::-1]


def verify_inclusion(index: int, size: int, leaf: bytes, proof: Sequence[bytes], expected_root: bytes) -> None:
    """Check that `leaf` is leaf `index` of the tree of `size` leaves with `expected_root` (RFC 9162 §2.1.3.2)."""
    _check_hashes(leaf, *proof)
    if not 0 <= index < size:
        raise ProofError(f"no leaf {index} in a tree of {size}", index=index, size=size)
    fn, sn, r = index, size - 1, leaf
    for p in proof:
        if sn == 0:
            raise ProofError("the inclusion proof is longer than the tree is deep", index=index, size=size)
        if fn & 1 or fn == sn:
            r = node_hash(p, r)
            while not fn & 1 and fn != 0:
                fn, sn = fn >> 1, sn >> 1
        else:
            r = node_hash(r, p)
        fn, sn = fn >> 1, sn >> 1
    if sn != 0 or r != expected_root:
        raise ProofError(f"leaf {index} is not in the tree of {size} with that root", index=index, size=size)


def verify_consistency(first: int, second: int, first_root: bytes, second_root: bytes, proof: Sequence[bytes]) -> None:
    """Check that the tree (`first`, `first_root`) is a prefix of (`second`, `second_root`) (RFC 9162 §2.1.4.2)."""
    if not 0 < first <= second:
        # From the empty tree nothing is proved (RFC 9162 asks 0 < first); a shrinking tree is never consistent.
        raise ProofError(f"no consistency proof from {first} to {second}", first=first, second=second)
    if first == second:
        if proof or first_root != second_root:
            raise ProofError(f"two different trees of {first} leaves", size=first)
        return
    _check_hashes(*proof)
    path = list(proof)
    if not path:
        raise ProofError("an empty consistency proof between two sizes", first=first, second=second)
    if first & (first - 1) == 0:  # a power of two: the old tree is a node of the new one
        path.insert(0, first_root)
    fn, sn = first - 1, second - 1
    while fn & 1:
        fn, sn = fn >> 1, sn >> 1
    fr = sr = path[0]
    for c in path[1:]:
        if sn == 0:
            raise ProofError("the consistency proof is longer than the tree is deep", first=first, second=second)
        if fn & 1 or fn == sn:
            fr, sr = node_hash(c, fr), node_hash(c, sr)
            while not fn & 1 and fn != 0:
                fn, sn = fn >> 1, sn >> 1
        else:
            sr = node_hash(sr, c)
        fn, sn = fn >> 1, sn >> 1
    if sn != 0 or fr != first_root or sr != second_root:
        raise ProofError(
            f"the tree of {first} leaves is not a prefix of the tree of {second}", first=first, second=second
        )


def _check_hashes(*hashes: bytes) -> None:
    if any(len(h) != HASH_SIZE for h in hashes):
        raise ProofError(f"a hash that is not {HASH_SIZE} bytes long")
