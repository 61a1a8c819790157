"""Read models in generations: readers follow one pointer, a rebuild fills the next generation beside it.

Every key of one read model shares the hash tag `{rm-<model>}`, so on Redis
Cluster the model's pointer, its lease and its generations sit in one slot and
one script may flip the pointer:

- `<prefix>:{rm-<model>}:current` — the generation readers are served (an
  integer); absent, the model's first one (`first`);
- `<prefix>:{rm-<model>}:building` — `<generation>:<token>` while a rebuild
  fills that generation, with a lease (TTL) its rebuild renews; a rebuild
  killed in mid-run lets it lapse, and the next run removes what it left;
- `<prefix>:{rm-<model>}:g<N>:<part>` — generation N's keys; generation 0 is
  the model's keys from before generations (`legacy`, e.g. `<prefix>:games`).

Writers follow the pointer too, and write every generation it and the lease
name (`targets`): from the moment a rebuild takes its lease, every new fact
lands in the generation it builds as well as in the served one. A write whose
writer read the pointer before the lease was taken is of a source the rebuild
reads afterwards, since a writer writes after its source's event is stored.
So every write a model's parts take must be one that is safe twice and in any
order (a set's member, a value kept only if newer): the rebuild and the writers
may both write the same fact.

The switch is one script on the model's slot: it flips the pointer only while
it still names the generation the rebuild began from and the rebuild still
holds its lease. The generation left behind expires after `GRACE_MS`, so a
reader that read the pointer just before the flip still reads a whole model.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence

from service.adapters.connections import StoreRedis
from service.adapters.store import text

# How long a retired generation outlives the switch, for the readers that read the pointer just before it.
GRACE_MS = 60_000
# How long a rebuild's lease lasts unless renewed: a killed rebuild's generation is free to remove after it.
LEASE_S = 120

# KEYS: the pointer, the lease. ARGV: the generation the rebuild began from, the new one, the lease's value.
_SWITCH = """
local current = tonumber(redis.call('GET', KEYS[1]) or ARGV[4])
if current ~= tonumber(ARGV[1]) then return 'moved' end
if redis.call('GET', KEYS[2]) ~= ARGV[3] then return 'lost' end
redis.call('SET', KEYS[1], ARGV[2])
redis.call('DEL', KEYS[2])
return 'switched'
"""


class RebuildRunning(Exception):
    """Another rebuild of this model holds its lease."""


class LeaseLost(Exception):
    """The rebuild's lease lapsed (or the pointer moved) before it could switch: nothing was switched."""


class Generations:
    """One read model's pointer, lease and generations."""

    def __init__(self, redis: StoreRedis, prefix: str, model: str, legacy: Sequence[str] = ()) -> None:
        self.redis = redis
        self.prefix = prefix
        self.model = model
        self.tag = f"{prefix}:{{rm-{model}}}"
        # A model that had keys before generations starts at generation 0 (those keys); a new one at 1.
        self.legacy = tuple(legacy)
        self.first = 0 if legacy else 1
        self._switch = redis.register_script(_SWITCH)

    @property
    def pointer(self) -> str:
        """Return the pointer's key."""
        return f"{self.tag}:current"

    @property
    def lease(self) -> str:
        """Return the lease's key."""
        return f"{self.tag}:building"

    def key(self, generation: int, part: str) -> str:
        """Return the key of one part of a generation."""
        if generation == 0:
            return f"{self.prefix}:{part}"
        return f"{self.tag}:g{generation}:{part}"

    def served(self) -> int:
        """Return the generation readers are served."""
        raw = self.redis.get(self.pointer)
        return int(raw) if raw is not None else self.first

    def targets(self) -> list[int]:
        """Return the generations a writer writes: the served one, and the one a rebuild fills, if any."""
        current, building = self.redis.mget([self.pointer, self.lease])
        served = int(current) if current is not None else self.first
        if building is None:
            return [served]
        filling = int(text(building).split(":")[0])
        return [served] if filling == served else [served, filling]

    def begin(self) -> tuple[int, int, str]:
        """Take the lease for a new generation; return the served generation, the new one and the lease's value.

        Raise RebuildRunning while another rebuild holds the lease. What a killed
        rebuild left (its generation's keys) is removed first.
        """
        served = self.served()
        taken = self.redis.get(self.lease)
        if taken is not None:
            raise RebuildRunning(f"a rebuild of {self.model} is filling generation {text(taken).split(':')[0]}")
        # A number above every generation with keys, so no key a killed run left is in it.
        new = max([served, *self.generations()]) + 1
        value = f"{new}:{secrets.token_hex(8)}"
        if not self.redis.set(self.lease, value, nx=True, ex=LEASE_S):
            raise RebuildRunning(f"a rebuild of {self.model} has just begun")
        # Only the lease's holder removes what killed runs left: two runs beginning at once never remove each
        # other's keys.
        self.remove_unserved(served, keep=new)
        return served, new, value

    def renew(self, value: str) -> None:
        """Renew the lease; raise LeaseLost if it lapsed or another rebuild took it."""
        if text(self.redis.get(self.lease) or b"") != value:
            raise LeaseLost(f"the lease on {self.model} lapsed: nothing was switched")
        self.redis.expire(self.lease, LEASE_S)

    def switch(self, served: int, new: int, value: str) -> None:
        """Flip the pointer from `served` to `new` in one step; raise LeaseLost if it cannot be this rebuild's."""
        status = text(self._switch(keys=[self.pointer, self.lease], args=[served, new, value, self.first]))
        if status != "switched":
            raise LeaseLost(f"the switch of {self.model} was refused ({status}): nothing was switched")

    def generations(self) -> list[int]:
        """Return the numbers of the generations that have keys (generation 0 not among them)."""
        found = set()
        for key in self.redis.scan_iter(match=f"{self.tag}:g*", count=1000):
            head = text(key).removeprefix(f"{self.tag}:g").split(":")[0]
            if head.isdigit():
                found.add(int(head))
        return sorted(found)

    def keys_of(self, generation: int) -> list[str]:
        """Return every key of a generation (generation 0's: those of its legacy parts that exist)."""
        if generation == 0:
            # A legacy part may be a pattern (`tournaments:*`, one listing a game type).
            found: list[str] = []
            for part in self.legacy:
                if "*" in part:
                    found += [text(key) for key in self.redis.scan_iter(match=self.key(0, part), count=1000)]
                elif self.redis.exists(self.key(0, part)):
                    found.append(self.key(0, part))
            return found
        return [text(key) for key in self.redis.scan_iter(match=f"{self.tag}:g{generation}:*", count=1000)]

    def retire(self, generation: int, grace_ms: int = GRACE_MS) -> int:
        """Let a generation's keys expire after `grace_ms` (its readers finish first); return how many."""
        keys = self.keys_of(generation)
        for key in keys:
            self.redis.pexpire(key, grace_ms)
        return len(keys)

    def remove_unserved(self, served: int, keep: int | None = None) -> int:
        """Delete the keys a killed rebuild left (of any generation but the served one); return how many.

        A retired generation's keys are left to expire: their readers' grace runs on.
        """
        gone = 0
        for generation in [0, *self.generations()] if self.first == 0 else self.generations():
            if generation not in (served, keep):
                for key in self.keys_of(generation):
                    if self.redis.pttl(key) == -1:
                        gone += int(self.redis.delete(key))
        return gone
