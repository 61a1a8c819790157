"""Run the rules compiled by mypyc where they were built, else their Python source.

`make setup` compiles the hot modules of `domain` and `projections` with mypyc
(`compile_rules.py`) into `.compiled/` beside the packages, when the machine has a
C compiler. Those extension modules are never put where Python would find them by
itself: `install` (called first thing by `domain/__init__.py`, before any other
module of ours is imported) adds a finder that loads each compiled module in place
of its source, and only if

- `MENAGERIE_PURE` is not set to `1` (the switch that turns them off), and
- `.compiled/manifest.json` lists it, its extension file is there, and its source
  is byte for byte the one it was compiled from (a source edited since the build
  runs as Python, for every module, until `make setup` compiles it again: one
  group's modules call each other directly, so they are not mixed with newer ones).

The Python source is the reference: the suite runs against both, and
`MENAGERIE_RULES=compiled|pure` makes tests/test_compiled_rules.py fail if the
other one is loaded (so a silent fallback is caught). `MODE` says which runs.
This module is never compiled itself.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import json
import os
import sys
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent
BUILD = ROOT / ".compiled"
MANIFEST = BUILD / "manifest.json"
# The ABI tag of this interpreter's extension modules: a build for another Python is not found.
SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]

# What runs, set by `install`: "compiled (mypyc, N modules)" or "pure (why)".
MODE = "pure (not installed)"


class CompiledFinder:
    """Find the compiled modules (and the library they share) in BUILD, ahead of the source."""

    def __init__(self, files: dict[str, Path]) -> None:
        self.files = files

    def find_spec(
        self, fullname: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        file = self.files.get(fullname)
        if file is None:
            return None
        loader = importlib.machinery.ExtensionFileLoader(fullname, str(file))
        return importlib.util.spec_from_file_location(fullname, file, loader=loader)


def source_digest(path: Path) -> str:
    """Return the SHA-256 of a source file, as the manifest records it."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def extension_file(module: str) -> Path:
    """Return where the build puts a module's extension (a package's `__init__` is never compiled)."""
    return BUILD.joinpath(*module.split(".")).with_name(module.rpartition(".")[2] + SUFFIX)


def compiled_files() -> tuple[dict[str, Path], str]:
    """Return the extension file of every compiled module, or nothing and why the source runs instead."""
    if os.environ.get("MENAGERIE_PURE") == "1":
        return {}, "MENAGERIE_PURE=1"
    try:
        manifest = json.loads(MANIFEST.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}, "not built"
    files = {manifest["library"]: extension_file(manifest["library"])}
    for module, digest in manifest["sources"].items():
        source = ROOT / manifest["paths"][module]
        try:
            fresh = source_digest(source) == digest
        except OSError:
            fresh = False
        if not fresh:
            return {}, f"{manifest['paths'][module]} changed since the build: make setup compiles it again"
        files[module] = extension_file(module)
    missing = sorted(str(path.relative_to(ROOT)) for path in files.values() if not path.exists())
    if missing:
        return {}, f"built for another Python or incomplete: {missing[0]} is missing"
    return files, ""


def install() -> str:
    """Load the compiled modules from now on where they are built, fresh and wanted; return (and set) MODE."""
    global MODE
    if any(isinstance(finder, CompiledFinder) for finder in sys.meta_path):
        return MODE
    files, why = compiled_files()
    if files:
        sys.meta_path.insert(0, CompiledFinder(files))
        MODE = f"compiled (mypyc, {len(files) - 1} modules)"
    else:
        MODE = f"pure ({why})"
    return MODE


def loaded() -> dict[str, bool]:
    """Return, for each imported module of domain and projections, whether it runs compiled."""
    return {
        name: (getattr(module, "__file__", None) or "").endswith(SUFFIX)
        for name, module in list(sys.modules.items())
        if name.split(".")[0] in ("domain", "projections")
    }
