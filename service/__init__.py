"""The Flask service: thin views over the domain, the Redis event store and the job queue."""
