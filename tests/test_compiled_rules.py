"""Which rules run, the compiled or the Python source (`domain.compiled_rules`), is the one asked for.

`MENAGERIE_RULES=compiled|pure` (make test sets it for each of its runs) fails the
run if the other kind is loaded: a build that silently fell back to the source, or
a source run that loaded compiled modules. Without it, the modules loaded must
agree with what the loader says it installed.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

import domain.game
import projections.game
from domain import compiled_rules

# Modules that always run as Python: the packages' `__init__`s and the loader itself (compile_rules.EXCLUDED).
ALWAYS_PYTHON = {"domain.compiled_rules"}


def _compiled_expected() -> set[str]:
    """Return the modules the loader compiles, as the manifest lists them."""
    manifest = json.loads(compiled_rules.MANIFEST.read_text(encoding="utf-8"))
    return set(manifest["sources"])


def test_the_loaded_modules_are_what_the_loader_says() -> None:
    loaded = compiled_rules.loaded()
    assert loaded["domain.game"] is loaded["projections.game"]
    if compiled_rules.MODE.startswith("compiled"):
        expected = _compiled_expected()
        assert {name for name, compiled in loaded.items() if compiled} == expected & set(loaded)
        assert domain.game.__file__.endswith(compiled_rules.SUFFIX)
    else:
        assert compiled_rules.MODE.startswith("pure (")
        assert not any(loaded.values())
        assert domain.game.__file__.endswith(".py") and projections.game.__file__.endswith(".py")


@pytest.mark.skipif("MENAGERIE_RULES" not in os.environ, reason="MENAGERIE_RULES=compiled|pure asks for one")
def test_the_rules_asked_for_are_loaded() -> None:
    wanted = os.environ["MENAGERIE_RULES"]
    assert wanted in ("compiled", "pure")
    assert compiled_rules.MODE.split()[0] == wanted, compiled_rules.MODE
    assert domain.game.__file__.endswith(compiled_rules.SUFFIX if wanted == "compiled" else ".py")


def _mode_in_child(**env: str) -> str:
    code = "import domain.game, domain.compiled_rules as c; print(c.MODE)"
    environment = {key: value for key, value in os.environ.items() if key != "MENAGERIE_PURE"} | env
    done = subprocess.run([sys.executable, "-c", code], env=environment, capture_output=True, text=True, check=True)
    return done.stdout.strip()


def test_menagerie_pure_turns_the_compiled_rules_off() -> None:
    assert _mode_in_child(MENAGERIE_PURE="1") == "pure (MENAGERIE_PURE=1)"


@pytest.mark.skipif(not compiled_rules.MODE.startswith("compiled"), reason="the compiled rules do not run here")
def test_a_source_changed_since_the_build_runs_as_python(tmp_path, monkeypatch) -> None:
    manifest = json.loads(compiled_rules.MANIFEST.read_text(encoding="utf-8"))
    manifest["sources"]["domain.game"] = "0" * 64  # as if domain/game.py had been edited since
    fake = tmp_path / "manifest.json"
    fake.write_text(json.dumps(manifest), encoding="utf-8")
    monkeypatch.setattr(compiled_rules, "MANIFEST", fake)
    monkeypatch.delenv("MENAGERIE_PURE", raising=False)
    files, why = compiled_rules.compiled_files()
    assert files == {}
    assert why == "domain/game.py changed since the build: make setup compiles it again"
    assert _mode_in_child().startswith("compiled (mypyc, ")


def test_every_dataclass_of_the_rules_stays_a_python_class() -> None:
    """A frozen dataclass compiled as a native class has no `__dict__`, which `domain.values` copies it through:
    the compiled rules would fail where the source passes, and only where mypyc is run. So the source says it."""
    import ast
    from pathlib import Path

    def named(node: ast.expr) -> str:
        target = node.func if isinstance(node, ast.Call) else node
        return target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")

    native = []
    for package in ("domain", "projections"):
        for path in sorted((compiled_rules.ROOT / package).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if not isinstance(node, ast.ClassDef) or "dataclass" not in map(named, node.decorator_list):
                    continue
                kept = any(
                    isinstance(d, ast.Call)
                    and named(d) == "mypyc_attr"
                    and any(k.arg == "native_class" and getattr(k.value, "value", None) is False for k in d.keywords)
                    for d in node.decorator_list
                )
                if not kept:
                    native.append(f"{Path(path).relative_to(compiled_rules.ROOT)}: {node.name}")
    assert native == [], "add @mypyc_attr(native_class=False) above @dataclass"
