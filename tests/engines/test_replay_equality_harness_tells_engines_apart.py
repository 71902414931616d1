"""benchmarks/replay_equality.py compares two trees' engines answer by answer (verdicts,
facts, detail, every step, errors and their words) before a faster engine replaces the
reference. Here, in one process and on a few games: its answers do not depend on the run
(so two trees that agree compare equal), and an engine that answers differently, by a
single archaea or a word of one message, is told apart on the aspect that changed."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from engines.compiled import is_compiled
from engines.deep_vents import state as vents_state

ROOT = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location(
    "replay_equality", ROOT / "benchmarks/replay_equality.py"
)
harness = importlib.util.module_from_spec(spec)
spec.loader.exec_module(harness)


@pytest.fixture(scope="module")
def corpus() -> list[str]:
    return harness.corpus_texts(games=3, seed=7)


def all_answers(texts: list[str]) -> list[dict[str, str]]:
    return [harness.answers(text) for text in texts]


def aspects_differing(reference: list[dict[str, str]], corpus: list[str]) -> set[str]:
    """Every aspect on which this process's engine now answers some log otherwise."""
    now = all_answers(corpus)
    return {key for a, b in zip(reference, now, strict=True) for key in harness.differing(a, b)}


@pytest.fixture(scope="module")
def reference(corpus) -> list[dict[str, str]]:
    return all_answers(corpus)


def test_the_corpus_holds_intact_corrupted_and_unreadable_logs(reference):
    assert any("verdict" in a and "told" not in a for a in reference)  # replayed to the end
    assert any("told" in a for a in reference)  # refused by the rules or the schema
    assert any("read" in a for a in reference)  # not read at all


def test_the_same_engine_answers_alike_twice(corpus, reference):
    assert all_answers(corpus) == reference


# A compiled class cannot be patched: these run where the engines are pure (as CI runs them in
# tests/engines/test_compiled_engines.py).
patches_the_pure_engine = pytest.mark.skipif(
    is_compiled(vents_state), reason="patches the pure engine; the compiled one cannot be"
)


@patches_the_pure_engine
def test_a_score_one_point_off_is_told_apart(corpus, reference, monkeypatch):
    score = vents_state.DeepVentsState.score
    monkeypatch.setattr(
        vents_state.DeepVentsState, "score", lambda state, seat: score(state, seat) + (seat == 0)
    )
    assert {"verdict", "detail", "steps"} <= aspects_differing(reference, corpus)


@patches_the_pure_engine
def test_an_error_in_other_words_is_told_apart(corpus, reference, monkeypatch):
    real = vents_state.DeepVentsState.waiting_for
    monkeypatch.setattr(
        vents_state.DeepVentsState, "waiting_for", lambda state: real(state) + " now"
    )
    assert {"verdict", "told", "steps"} <= aspects_differing(reference, corpus)


@patches_the_pure_engine
def test_a_table_shown_otherwise_before_the_end_is_told_apart(corpus, reference, monkeypatch):
    snapshot = vents_state.DeepVentsState.snapshot

    def shown(state):
        table = snapshot(state)
        return {**table, "row": table["row"][:-1]} if state.phase == "place" else table

    monkeypatch.setattr(vents_state.DeepVentsState, "snapshot", shown)
    assert aspects_differing(reference, corpus) == {"steps"}
