"""Fixtures for every layer: the toy game registered. Imports nothing but domain code and projections.

Redis and Flask fixtures live in tests/support/services.py, for tests/service and tests/workers only.
"""

from __future__ import annotations

from hypothesis import settings

from tests import toy_game

toy_game.install()

# No time limit on a Hypothesis example: a test asserts behaviour, never speed, and an example that
# a loaded two-core machine slows past the default 200 ms is no failure (speed lives in bench/).
settings.register_profile("menagerie", deadline=None)
settings.load_profile("menagerie")


def pytest_report_header() -> str:
    """Say which rules run, compiled or the Python source (`domain.compiled_rules`), at the top of every run."""
    from domain import compiled_rules

    return f"rules: {compiled_rules.MODE}"
