"""The compiled build of the engines: the same source files, compiled by mypyc (issue 25).

The pure-Python engines are the reference: there is one source of rules, the .py files, and
MODULES lists those on the verification path that mypyc compiles to C extensions in
build/compiled (`make install` runs `build`). When this package is first
imported, `install` chooses: the compiled modules, found by a finder put first on
sys.meta_path (the pure files are then not imported under those names), when a build exists
for this interpreter and every source file is as it was built from; otherwise the pure
engines, saying why on the "engines" logger (SELECTION.reason, which the site's system check
reports too). A build whose sources changed since is never used: stale rules would answer
logs as the code no longer says. DEEPSEA_PURE_ENGINES=1 forces the pure engines (tests,
benchmarks, a suspected compiler bug); set it before anything imports engines.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import logging
import os
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent
BUILD_DIR = ROOT / "build" / "compiled"
MANIFEST = BUILD_DIR / "manifest.json"
PURE_ENGINES_ENV = "DEEPSEA_PURE_ENGINES"
# The source files compiled, relative to ROOT: what replay runs for every event of a Deep
# Vents log, its state and rules data. engines.core stays pure: compiling it as well made
# the State every game derives from a compiled class, whose copy.copy shares the instance
# dict of a pure game's state, and replay no faster (issue 25, 2026-12-07).
MODULES = (
    "engines/deep_vents/board.py",
    "engines/deep_vents/describe.py",
    "engines/deep_vents/edition.py",
    "engines/deep_vents/game.py",
    "engines/deep_vents/hexes.py",
    "engines/deep_vents/row_draws.py",
    "engines/deep_vents/schema.py",
    "engines/deep_vents/state.py",
)
# The C code every compiled module shares (mypyc's "group"), an extension of its own.
SHARED_LIBRARY = "deepsea_engines__mypyc"

logger = logging.getLogger("engines")


@dataclass(frozen=True)
class Selection:
    """Which engines this process runs: `compiled`, or the pure ones and why (`reason`)."""

    compiled: bool
    reason: str = ""
    # Module name -> its compiled extension file (empty when pure).
    extensions: Mapping[str, Path] | None = None


def module_name(source: str) -> str:
    """ "engines/deep_vents/state.py" -> "engines.deep_vents.state"."""
    return source.removesuffix(".py").replace("/", ".")


def sources() -> list[str]:
    """The files a build is made from: MODULES, and engines.core, whose types and names
    mypyc compiled them against (a change there makes the build stale too)."""
    core = sorted(str(path.relative_to(ROOT)) for path in (ROOT / "engines/core").glob("*.py"))
    return [*MODULES, *core]


def source_digests() -> dict[str, str]:
    """Each source file's SHA-256, as the build records and the choice compares."""
    return {
        source: hashlib.sha256((ROOT / source).read_bytes()).hexdigest() for source in sources()
    }


def choose(environ: Mapping[str, str] = os.environ) -> Selection:
    """The compiled build when it is there, for this interpreter, and built from the sources
    as they are now; else the pure engines, with the reason."""
    if environ.get(PURE_ENGINES_ENV, "") not in ("", "0"):
        return Selection(False, f"{PURE_ENGINES_ENV} is set")
    try:
        manifest = json.loads(MANIFEST.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return Selection(False, "no compiled build (`make install` builds it)")
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    if manifest.get("extension_suffix") != suffix:
        built_for = manifest.get("extension_suffix")
        return Selection(False, f"the compiled build is for {built_for}, not {suffix}")
    digests = source_digests()
    if manifest.get("sources") != digests:
        changed = [s for s, d in digests.items() if manifest["sources"].get(s) != d]
        return Selection(
            False, f"the compiled build is stale: {', '.join(changed) or 'its list'} changed"
        )
    extensions = {name: BUILD_DIR / path for name, path in manifest["extensions"].items()}
    missing = [str(path) for path in extensions.values() if not path.is_file()]
    if missing:
        return Selection(False, f"the compiled build lacks {', '.join(missing)}")
    return Selection(True, extensions=extensions)


class CompiledFinder(importlib.abc.MetaPathFinder):
    """Finds the compiled extension of each module the build holds, before the .py files."""

    def __init__(self, extensions: Mapping[str, Path]) -> None:
        self.extensions = dict(extensions)

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None = None,
        target: ModuleType | None = None,
    ) -> ModuleSpec | None:
        extension = self.extensions.get(fullname)
        if extension is None:
            return None
        return importlib.util.spec_from_file_location(fullname, extension)


def install() -> Selection:
    """Choose this process's engines, before any compiled module is imported."""
    selection = choose()
    if selection.compiled:
        assert selection.extensions is not None
        sys.meta_path.insert(0, CompiledFinder(selection.extensions))
    elif selection.reason.startswith(PURE_ENGINES_ENV):
        logger.info("pure-Python engines: %s", selection.reason)
    else:
        logger.warning("pure-Python engines: %s", selection.reason)
    return selection


def is_compiled(module: ModuleType) -> bool:
    """True when `module` was loaded from a compiled extension, not a .py file."""
    return str(getattr(module, "__file__", "")).endswith(
        tuple(importlib.machinery.EXTENSION_SUFFIXES)
    )


def build() -> None:
    """Compile MODULES into BUILD_DIR with mypyc (its type checks first: a wrong hint fails
    the build) and write the manifest last, so a build cut short is no build. Does nothing
    when the build is there and current."""
    if choose({}).compiled:
        print(f"compiled engines: up to date in {BUILD_DIR.relative_to(ROOT)}")
        return
    from mypyc.build import mypycify
    from setuptools import Distribution  # type: ignore[import-untyped]

    started = time.perf_counter()
    MANIFEST.unlink(missing_ok=True)
    digests = source_digests()
    os.chdir(ROOT)  # mypyc names the modules by their paths from here
    os.environ.setdefault("MYPY_CACHE_DIR", str(BUILD_DIR / "mypy_cache"))
    extensions = mypycify(
        list(MODULES),
        opt_level="3",
        group_name=SHARED_LIBRARY.removesuffix("__mypyc"),
        target_dir=str(BUILD_DIR / "c"),
    )
    distribution = Distribution({"name": "deepsea-engines", "ext_modules": extensions})
    command = distribution.get_command_obj("build_ext")
    command.build_lib = str(BUILD_DIR)
    command.build_temp = str(BUILD_DIR / "objects")
    command.parallel = os.cpu_count() or 1
    command.ensure_finalized()
    command.run()
    built = {Path(path).relative_to(BUILD_DIR) for path in command.get_outputs()}
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    names = {str(path).removesuffix(suffix).replace("/", "."): str(path) for path in built}
    manifest = {
        "extension_suffix": suffix,
        "sources": digests,
        "extensions": names,
    }
    MANIFEST.write_text(json.dumps(manifest, indent=1, sort_keys=True), encoding="utf-8")
    seconds = time.perf_counter() - started
    print(f"compiled engines: {len(MODULES)} modules built in {seconds:.0f} s")


# This process's engines, chosen when engines is first imported (engines/__init__.py).
SELECTION = install()
