"""A read model of one value per source stream, each kept with the version of the stream it was folded at.

`<prefix>:{rm-<model>}:g<N>:values` maps a source (a rating stream, a
tournament) to its value as JSON, and `...:versions` to the version it was
folded at. A write keeps a value only if it is newer than the one there (one
script on the model's slot), so a value written twice, late or by both a
writer and a rebuild is kept once, and the newest wins: the model at any time
holds, for each source, the fold of some prefix of its stream.
"""

from __future__ import annotations

from typing import Any

import orjson

from service.adapters.connections import StoreRedis
from service.adapters.generations import Generations
from service.adapters.store import text

# KEYS: the values, the versions. ARGV: source, version, value.
_KEEP_NEWER = """
local kept = tonumber(redis.call('HGET', KEYS[2], ARGV[1]) or '-1')
if kept >= tonumber(ARGV[2]) then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
return 1
"""


class VersionedValues:
    """One read model of versioned values, in generations."""

    def __init__(self, redis: StoreRedis, prefix: str, model: str) -> None:
        self.redis = redis
        self.generations = Generations(redis, prefix, model)
        self._keep = redis.register_script(_KEEP_NEWER)

    def publish(self, source: str, version: int, value: Any, generations: list[int] | None = None) -> None:
        """Keep a source's value at `version` in every generation written (unless one as new is there)."""
        payload = orjson.dumps(value, option=orjson.OPT_SORT_KEYS)
        for generation in self.generations.targets() if generations is None else generations:
            keys = [self.generations.key(generation, "values"), self.generations.key(generation, "versions")]
            self._keep(keys=keys, args=[source, version, payload])

    def read(self, source: str) -> tuple[int, Any] | None:
        """Return a source's version and value as served, or None when the served generation has none."""
        generation = self.generations.served()
        pipe = self.redis.pipeline(transaction=False)
        pipe.hget(self.generations.key(generation, "versions"), source)
        pipe.hget(self.generations.key(generation, "values"), source)
        version, value = pipe.execute()
        if version is None or value is None:
            return None
        return int(version), orjson.loads(value)

    def dump(self, generation: int) -> dict[str, tuple[int, Any]]:
        """Return every source's version and value in a generation."""
        versions = self.redis.hgetall(self.generations.key(generation, "versions"))
        values = self.redis.hgetall(self.generations.key(generation, "values"))
        return {
            text(source): (int(version), orjson.loads(values[source]))
            for source, version in versions.items()
            if source in values
        }
