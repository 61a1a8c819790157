"""The service on fakeredis and, when REDIS_URL answers, the real Redis: HTTP, store, archive, CLI."""
