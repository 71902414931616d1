"""The compiled build of the engines (engines.compiled) answers every log as the pure engines,
which stay the reference; it is used only while current, and CI verifies with it.

The equality and the pure run of this folder are subprocesses: a process runs one build."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from engines import compiled
from engines.core.replay import replay
from engines.deep_vents import state as vents_state

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = sorted((ROOT / "tests/engines/golden/deep-vents").glob("*.json"))
IN_CI = os.environ.get("CI") == "true"
PURE_ASKED = compiled.PURE_ENGINES_ENV in os.environ
runs_compiled = pytest.mark.skipif(
    not compiled.SELECTION.compiled, reason=f"pure engines: {compiled.SELECTION.reason}"
)


def run(*command: str, pure: bool) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop(compiled.PURE_ENGINES_ENV, None)
    if pure:
        env[compiled.PURE_ENGINES_ENV] = "1"
    return subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)


@pytest.mark.skipif(not IN_CI or PURE_ASKED, reason="CI, where the build is made, checks it")
def test_ci_verifies_with_the_compiled_engine():
    assert compiled.SELECTION.compiled, compiled.SELECTION.reason
    done = replay(json.loads(GOLDEN[0].read_text()), collect_facts=True, detail_facts=False)
    assert compiled.is_compiled(sys.modules[type(done.state).__module__])
    assert type(done.state) is vents_state.DeepVentsState


@runs_compiled
def test_the_compiled_engine_answers_every_log_as_the_pure_one():
    script = ROOT / "benchmarks/replay_equality.py"
    sides = ["--against-engines", "pure", "--engines", "compiled"]
    done = run(sys.executable, str(script), *sides, pure=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert " 0 logs differ; simulated games equal" in done.stdout


@runs_compiled
def test_the_golden_replays_and_the_engine_tests_pass_on_the_pure_engines_too():
    """This folder again, with the pure engines (golden replays included)."""
    here = str(Path(__file__).parent)
    done = run(sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", here, pure=True)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]


@runs_compiled
def test_verification_runs_the_compiled_modules_in_place_of_the_pure_files():
    for source in compiled.MODULES:
        module = sys.modules[compiled.module_name(source)]
        assert compiled.is_compiled(module), module


def test_no_build_means_the_pure_engines_named_so(monkeypatch, tmp_path):
    monkeypatch.setattr(compiled, "MANIFEST", tmp_path / "manifest.json")
    assert compiled.choose({}) == compiled.Selection(
        False, "no compiled build (`make install` builds it)"
    )


def test_a_source_changed_since_the_build_means_the_pure_engines(monkeypatch, tmp_path):
    digests = compiled.source_digests()
    manifest = {
        "extension_suffix": compiled.importlib.machinery.EXTENSION_SUFFIXES[0],
        "sources": {**digests, "engines/deep_vents/hexes.py": "0" * 64},
        "extensions": {},
    }
    (tmp_path / "manifest.json").write_text(json.dumps(manifest))
    monkeypatch.setattr(compiled, "MANIFEST", tmp_path / "manifest.json")
    selection = compiled.choose({})
    assert not selection.compiled
    assert selection.reason == "the compiled build is stale: engines/deep_vents/hexes.py changed"
    manifest["sources"] = digests
    (tmp_path / "manifest.json").write_text(json.dumps(manifest))
    assert compiled.choose({}).compiled


def test_a_build_for_another_python_means_the_pure_engines(monkeypatch, tmp_path):
    manifest = {"extension_suffix": ".cpython-311-x86_64-linux-gnu.so", "sources": {}}
    (tmp_path / "manifest.json").write_text(json.dumps(manifest))
    monkeypatch.setattr(compiled, "MANIFEST", tmp_path / "manifest.json")
    assert "is for .cpython-311-x86_64-linux-gnu.so" in compiled.choose({}).reason


def test_the_environment_forces_the_pure_engines():
    selection = compiled.choose({compiled.PURE_ENGINES_ENV: "1"})
    assert selection == compiled.Selection(False, "DEEPSEA_PURE_ENGINES is set")
    assert compiled.choose({compiled.PURE_ENGINES_ENV: "0"}) == compiled.choose({})


def test_the_pure_engines_chosen_for_want_of_a_build_are_logged(monkeypatch, tmp_path, caplog):
    monkeypatch.setattr(compiled, "MANIFEST", tmp_path / "manifest.json")
    monkeypatch.delenv(compiled.PURE_ENGINES_ENV, raising=False)
    finders = list(sys.meta_path)
    with caplog.at_level("INFO", logger="engines"):
        assert not compiled.install().compiled
    assert sys.meta_path == finders
    assert caplog.records[-1].levelname == "WARNING"
    assert caplog.records[-1].getMessage() == (
        "pure-Python engines: no compiled build (`make install` builds it)"
    )
