"""Service tests get the Redis and Flask fixtures."""

from tests.support.services import client, cluster_client, fake_services, prefix, redis_client, redis_cluster, services

__all__ = [
    "client",
    "cluster_client",
    "fake_services",
    "prefix",
    "redis_client",
    "redis_cluster",
    "services",
]
