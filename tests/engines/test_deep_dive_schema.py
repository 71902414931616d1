"""The published JSON Schema of Deep Dive logs and what it rejects."""

import json
from pathlib import Path

import pytest

from engines import MalformedLogError, verify
from engines.cli import main

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "tests/engines/golden/deep-dive/docs-example-tie.json"


def test_published_schema_is_up_to_date(capsys):
    assert main(["schema", "deep-dive"]) == 0
    printed = json.loads(capsys.readouterr().out)
    published = json.loads((ROOT / "docs/schemas/deep-dive.schema.json").read_text())
    assert printed == published


@pytest.mark.parametrize(
    ("index", "change", "field"),
    [
        (0, {"seat": 4}, "events.0"),
        (0, {"colour": 3}, "events.0"),
        (4, {"white": -1}, "events.4"),
        (4, {"white": True}, "events.4"),
        (3, {"reason": "tired"}, "events.3"),
        (2, {"type": "bite"}, "events.2"),
    ],
)
def test_malformed_event_is_rejected_by_the_schema(index, change, field):
    log = json.loads(EXAMPLE.read_text())
    log["events"][index].update(change)
    with pytest.raises(MalformedLogError) as caught:
        verify(log)
    assert caught.value.field.startswith(field)


def test_event_without_seat_is_rejected_by_the_schema():
    log = json.loads(EXAMPLE.read_text())
    del log["events"][1]["seat"]
    with pytest.raises(MalformedLogError):
        verify(log)


def test_a_setup_entry_deep_dive_does_not_take_is_named_in_a_stable_order():
    # Nothing is dealt in Deep Dive (DD-1): its setup takes no entries. The validator names
    # extras as a Python set, whose order changes between runs; the refusal sorts them.
    log = json.loads(EXAMPLE.read_text())
    log["setup"] = {"stack": [1], "chips": 2, "opening_bidder": 0}
    with pytest.raises(MalformedLogError) as caught:
        verify(log)
    assert str(caught.value) == (
        "setup: 'chips', 'opening_bidder', 'stack' are not fields of setup; it takes no fields"
    )


def test_a_field_the_log_does_not_take_is_refused_naming_the_allowed_ones_in_schema_order():
    log = json.loads(EXAMPLE.read_text())
    log["players"][0]["rating"] = 1500
    with pytest.raises(MalformedLogError) as caught:
        verify(log)
    assert str(caught.value) == (
        "players.0: 'rating' is not a field of players.0; it takes name, strategy"
    )
