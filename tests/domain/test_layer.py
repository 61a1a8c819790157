"""Rule tests need nothing but the domain: importing them (and the conftest above them) loads no Flask, no Redis."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).parent
ROOT = HERE.parent.parent
FORBIDDEN = ("flask", "redis", "fakeredis", "rq", "marshmallow", "service")

# A fresh interpreter: in this one the service tests may already have loaded them.
PROBE = """
import importlib, sys
for name in sys.argv[1:]:
    importlib.import_module(name)
print(" ".join(sorted(top for top in {m.split(".")[0] for m in sys.modules} if top in %r)))
"""


def test_the_domain_tests_and_their_conftest_import_neither_flask_nor_redis() -> None:
    modules = ["tests.conftest"] + [f"tests.domain.{path.stem}" for path in sorted(HERE.glob("*.py"))]
    # The tests beside the layers (test_every_game) are pure too.
    modules += [f"tests.{path.stem}" for path in sorted(HERE.parent.glob("test_*.py"))]
    probe = subprocess.run(
        [sys.executable, "-c", PROBE % (FORBIDDEN,), *modules], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert probe.returncode == 0, probe.stderr
    assert probe.stdout.split() == [], f"rule tests import {probe.stdout.strip()}"
