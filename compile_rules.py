"""Compile the rules with mypyc into .compiled/, where the machine has a C compiler; print one line saying which run.

`make setup` runs it. The modules (MODULES) are compiled as one group into
`.compiled/`, which nothing puts on Python's path: `domain.compiled_rules` loads
them in place of their source, unless MENAGERIE_PURE=1, and only while each
source is the one the manifest (written last, so a failed build leaves none)
records. Without `cc` or Python's headers nothing is built and the source runs,
as before. The compiler's output goes to .compiled/build.log.

Left out (EXCLUDED): every package's `__init__` (the games' hold the `Rules`
classes, whose attributes callers and tests set on the instance: a compiled
class's instance has no `__dict__`; `domain/__init__` installs the loader) and
the loader itself. The frozen dataclasses stay Python classes
(`@mypyc_attr(native_class=False)`): `domain.values` builds and copies them
through their `__dict__`, which a compiled (native) class has not.

Run: .venv/bin/python compile_rules.py [--force]
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent
BUILD = ROOT / ".compiled"
LOG = BUILD / "build.log"
MANIFEST = BUILD / "manifest.json"
LIBRARY = "menagerie_rules"  # the group: its shared library is `menagerie_rules__mypyc`
PACKAGES = ("domain", "projections")
EXCLUDED = {"domain/compiled_rules.py"}


def modules() -> dict[str, str]:
    """Return the modules to compile, by name, with their source's path from the root."""
    found = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            relative = path.relative_to(ROOT).as_posix()
            if path.name == "__init__.py" or relative in EXCLUDED:
                continue
            found[relative.removesuffix(".py").replace("/", ".")] = relative
    return found


def digest(relative: str) -> str:
    return hashlib.sha256((ROOT / relative).read_bytes()).hexdigest()


def why_not() -> str | None:
    """Return why this machine cannot compile, or None."""
    compiler = os.environ.get("CC", "cc").split()[0]
    if shutil.which(compiler) is None:
        return "no C compiler"
    if not (Path(sysconfig.get_paths()["include"]) / "Python.h").exists():
        return "no Python headers"
    try:
        import mypyc.build  # noqa: F401
    except ImportError:
        return "no mypyc (pip install mypy)"
    return None


def build(paths: list[str]) -> None:
    """Compile `paths` into BUILD (run in a child process, its output in LOG)."""
    from mypyc.build import mypycify
    from setuptools import setup

    os.chdir(ROOT)
    extensions = mypycify(paths, opt_level="3", multi_file=True, target_dir=str(BUILD / "c"), group_name=LIBRARY)
    jobs = str(os.cpu_count() or 1)
    setup(
        name="menagerie-compiled-rules",
        ext_modules=extensions,
        script_args=["build_ext", "-j", jobs, "--build-lib", str(BUILD), "--build-temp", str(BUILD / "tmp")],
    )


def main() -> int:
    if sys.argv[1:2] == ["--build"]:
        build(sys.argv[2:])
        return 0
    found = modules()
    sources = {module: digest(path) for module, path in found.items()}
    # Built for this Python (its extension suffix) from these very sources: nothing to do.
    library = BUILD / f"{LIBRARY}__mypyc{importlib.machinery.EXTENSION_SUFFIXES[0]}"
    try:
        if "--force" not in sys.argv and library.exists() and json.loads(MANIFEST.read_text())["sources"] == sources:
            print(f"compiled rules: on (mypyc, {len(found)} modules, up to date)")
            return 0
    except (OSError, ValueError, KeyError):
        pass
    reason = why_not()
    if reason is not None:
        print(f"compiled rules: off ({reason})")
        return 0
    BUILD.mkdir(exist_ok=True)
    MANIFEST.unlink(missing_ok=True)
    start = time.monotonic()
    with LOG.open("w") as log:
        done = subprocess.run(
            [sys.executable, __file__, "--build", *found.values()], stdout=log, stderr=subprocess.STDOUT, check=False
        )
    if done.returncode != 0:
        print(f"compiled rules: off (mypyc failed: see {LOG.relative_to(ROOT)})")
        return 0
    manifest = {"library": f"{LIBRARY}__mypyc", "paths": found, "sources": sources}
    MANIFEST.write_text(json.dumps(manifest, indent=1) + "\n")
    print(f"compiled rules: on (mypyc, {len(found)} modules, compiled in {time.monotonic() - start:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
