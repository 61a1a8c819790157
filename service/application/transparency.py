"""The transparency log of results: append a signed result's statement, publish checkpoints and proofs.

Every finished game and tournament is a leaf: the canonical JSON of its
statement `{id, type, final_version, final_hash}`. The log is RFC 9162's
append-only Merkle tree; a checkpoint is its size and root as a C2SP signed
note; proofs are computed from the stored leaf hashes on each ask (a proof
reads every leaf of the tree it proves over, once; see docs/operators.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from domain.canonical import canonical_bytes
from domain.game import Game
from domain.results import GAME, TOURNAMENT, Statement
from domain.tournament.state import Tournament
from domain.transparency import merkle
from domain.transparency.notes import Checkpoint, VerifierKey, signed_note
from service.errors import NotFound, Refused


class NoteSigner(Protocol):
    """The key the log signs its checkpoints with (the house key, once wired)."""

    @property
    def name(self) -> str:
        """The key's name, as signature lines and the verifier key carry it."""
        ...

    @property
    def public_key(self) -> bytes:
        """The raw Ed25519 public key."""
        ...

    def sign(self, message: bytes) -> bytes:
        """Return the Ed25519 signature of `message`."""
        ...


class Leaves(Protocol):
    """Where the log's leaves are kept (`service.adapters.tlog.RedisLeaves`)."""

    def append(self, result_id: str, entry: bytes) -> int: ...
    def size(self) -> int: ...
    def range(self, start: int, end: int) -> list[bytes]: ...
    def entries(self, start: int, end: int) -> list[bytes]: ...
    def entry(self, index: int) -> bytes | None: ...
    def index_of(self, result_id: str) -> int | None: ...


class LogEntryNotFound(NotFound):
    """No entry at that index, or no result with that id, in the log."""

    code = "log_entry_not_found"


class BadLogRange(Refused):
    """A tree size or leaf the log cannot answer for: beyond its size, or out of order (a well-formed ask: 422)."""

    code = "bad_log_range"


@dataclass(frozen=True)
class InclusionProof:
    """Leaf `index` of the tree of `size`: its entry's leaf hash and audit path."""

    index: int
    size: int
    leaf: bytes
    path: list[bytes]


# A complete subtree of this many leaves or more is hashed once per process and kept: the log
# only grows, so the hash of leaves [start, start + 2^k) never changes once they are all there.
KEPT_FROM = 256


class SubtreeHashes:
    """The hashes of ranges of the log's leaves, read from the store, with complete subtrees kept."""

    def __init__(self, leaves: Leaves) -> None:
        self.leaves = leaves
        self.kept: dict[tuple[int, int], bytes] = {}

    def __call__(self, start: int, end: int) -> bytes:
        """Return the Merkle tree hash of leaves [start, end)."""
        n = end - start
        if n <= KEPT_FROM:
            return merkle.root(self.leaves.range(start, end))
        complete = n & (n - 1) == 0 and start % n == 0
        if complete and (start, end) in self.kept:
            return self.kept[start, end]
        k = merkle.split(n)
        value = merkle.node_hash(self(start, start + k), self(start + k, end))
        if complete:
            self.kept[start, end] = value
        return value


@dataclass
class TransparencyLog:
    """The log: appends results, signs checkpoints, proves inclusion and consistency."""

    leaves: Leaves
    signer: NoteSigner
    origin: str
    subtrees: SubtreeHashes = field(init=False)

    def __post_init__(self) -> None:
        self.subtrees = SubtreeHashes(self.leaves)

    def append(self, result_id: str, entry: bytes) -> int:
        """Append an entry once per result id; return its index (the first one's on a repeat)."""
        return self.leaves.append(result_id, entry)

    def append_result(self, statement: Mapping[str, Any]) -> int:
        """Append a result statement (its canonical JSON) under its id; return its index."""
        return self.append(str(statement["id"]), canonical_bytes(dict(statement)))

    def log_game(self, game: Game) -> int:
        """Append a finished game's result; return its index."""
        return self.append_result(Statement(game.id, GAME, game.version, game.last_hash).to_dict())

    def log_tournament(self, tournament: Tournament) -> int:
        """Append a finished tournament's result; return its index."""
        return self.append_result(
            Statement(tournament.id, TOURNAMENT, tournament.version, tournament.last_hash).to_dict()
        )

    def verifier_key(self) -> VerifierKey:
        """Return the key checkpoints verify with."""
        return VerifierKey(self.signer.name, self.signer.public_key)

    def checkpoint(self) -> Checkpoint:
        """Return the log's present size and root."""
        size = self.leaves.size()
        return Checkpoint(self.origin, size, self.subtrees(0, size) if size else merkle.EMPTY_ROOT)

    def signed_checkpoint(self) -> str:
        """Return the present checkpoint as a signed note."""
        body = self.checkpoint().body()
        return signed_note(body, self.signer.name, self.signer.public_key, self.signer.sign(body.encode()))

    def entry(self, index: int) -> bytes:
        """Return entry `index`."""
        entry = self.leaves.entry(index)
        if entry is None:
            raise LogEntryNotFound(f"the log has no entry {index}", index=index)
        return entry

    def entries(self, start: int, count: int) -> list[bytes]:
        """Return up to `count` entries from `start` (fewer at the end of the log)."""
        return self.leaves.entries(start, start + count)

    def index_of(self, result_id: str) -> int:
        """Return the index of a result's leaf."""
        index = self.leaves.index_of(result_id)
        if index is None:
            raise LogEntryNotFound(f"result {result_id} is not in the log", id=result_id)
        return index

    def inclusion(self, index: int, size: int | None = None) -> InclusionProof:
        """Return the proof that leaf `index` is in the tree of `size` leaves (default: the present tree)."""
        size = self._size(size)
        if not 0 <= index < size:
            raise BadLogRange(f"leaf {index} is not in a tree of {size}", index=index, size=size)
        leaf = self.leaves.range(index, index + 1)[0]
        return InclusionProof(index, size, leaf, merkle.inclusion_proof(index, size, self.subtrees))

    def consistency(self, first: int, second: int | None = None) -> tuple[int, list[bytes]]:
        """Return the size of the second tree and the proof that the tree of `first` leaves is a prefix of it."""
        second = self._size(second)
        if not 0 <= first <= second:
            raise BadLogRange(f"no consistency proof from {first} to {second}", first=first, second=second)
        return second, merkle.consistency_proof(first, second, self.subtrees)

    def _size(self, size: int | None) -> int:
        present = self.leaves.size()
        if size is None:
            return present
        if not 0 <= size <= present:
            raise BadLogRange(f"the log has {present} leaves, not {size}", size=size, log_size=present)
        return size
