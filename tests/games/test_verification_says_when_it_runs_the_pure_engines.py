"""Verification without a current compiled engine build (missing, stale, for another Python)
is right but slower: the system check says so, naming why, unless DEEPSEA_PURE_ENGINES asked
for the pure engines (engines.compiled)."""

from django.core.checks.registry import registry

from engines import compiled
from games.checks import verification_engines

STALE = compiled.Selection(
    False, "the compiled build is stale: engines/deep_vents/state.py changed"
)


def warnings_of(monkeypatch, selection):
    monkeypatch.setattr(compiled, "SELECTION", selection)
    return [message for message in verification_engines() if message.id == "games.W001"]


def test_the_check_is_registered():
    assert verification_engines in registry.get_checks()


def test_a_stale_build_is_a_warning_naming_what_changed(monkeypatch):
    (warning,) = warnings_of(monkeypatch, STALE)
    assert warning.msg == (
        "verification runs the pure-Python engines: "
        "the compiled build is stale: engines/deep_vents/state.py changed"
    )
    assert "make install" in warning.hint


def test_no_build_is_a_warning(monkeypatch):
    selection = compiled.Selection(False, "no compiled build (`make install` builds it)")
    assert len(warnings_of(monkeypatch, selection)) == 1


def test_the_compiled_engines_or_pure_ones_asked_for_are_no_warning(monkeypatch):
    assert warnings_of(monkeypatch, compiled.Selection(True)) == []
    assert warnings_of(monkeypatch, compiled.choose({compiled.PURE_ENGINES_ENV: "1"})) == []
