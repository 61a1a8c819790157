"""Worker tests get the Redis and Flask fixtures."""

from tests.support.services import client, fake_services, prefix, redis_client, services

__all__ = ["client", "fake_services", "prefix", "redis_client", "services"]
