"""Experiments that answer a design question once (how strong could a bot be?); not benchmarks, not the service."""
