"""The Deep Sea Adventure turn-back advisor: described dives, each choice's win probability,
and the precomputed table."""

import json

import pytest

from analysis import advisor
from engines.analysis import Budget
from engines.analysis.turn_back import (
    TABLE_DEPTHS,
    AdvisorError,
    Diver,
    advise,
    advisor_state,
    scenario,
)

SMALL = Budget(target_se=0.05, min_playouts=32, max_playouts=96, batch=16)
NEAR_HOME = "3 2 down\n0 - aboard\n0 - aboard"


def test_a_diver_near_the_submarine_in_the_last_dive_with_little_air_turns_back_dsa_4():
    state = advisor_state(
        "deep-sea-adventure", 3, 3, [Diver(3, (2,)), Diver(0, (), "aboard"), Diver(0, (), "aboard")]
    )
    choices = advise("deep-sea-adventure", state, SMALL)
    assert [c.action["type"] for c in choices] == ["turn", "swim"]
    assert choices[0].win > choices[1].win + 2 * choices[1].se


def test_the_described_dive_is_laid_out_as_given():
    divers = [Diver(10, (2, 3)), Diver(6, (1,), "up"), Diver(0, (), "aboard")]
    state = advisor_state("deep-sea-adventure-boost", 2, 12, divers)
    assert (state.dive, state.air, state.seat) == (2, 12, 0)
    assert state.position == [10, 6, 0]
    assert state.turned == [False, True, True] and state.returned == [False, False, True]
    assert [[item[0][0] for item in carried] for carried in state.carried] == [[2, 3], [1], []]
    assert sum(item is None for item in state.path) == 3  # a blank for each chip carried
    kinds = {a["type"] for a in state.legal_actions()}
    assert kinds == {"turn", "boost", "swim"}  # B-3: Boost may also boost


@pytest.mark.parametrize(
    ("divers", "message"),
    [
        ([Diver(4, (1,)), Diver(4, (), "up")], "another diver is on space 4"),
        ([Diver(4, ()), Diver(2, (), "up")], "must still be heading down and carry treasure"),
        ([Diver(4, (5,)), Diver(2, (), "up")], "chip levels are 1 to 4"),
        ([Diver(40, (1,)), Diver(2, (), "up")], "depth must be 1 to 32"),
        ([Diver(4, (1,))], "takes 2-6 divers"),
    ],
)
def test_an_impossible_dive_is_refused_naming_the_diver(divers, message):
    with pytest.raises(AdvisorError, match=message):
        advisor_state("deep-sea-adventure", 1, 10, divers)


def test_the_table_scenario_puts_three_divers_on_their_way_home():
    state = scenario("deep-sea-adventure", 4, 2, 9)
    assert state.position == [4, 3, 2, 1] and state.turned == [False, True, True, True]
    assert len(state.carried[0]) == 2 and state.air == 9


@pytest.mark.django_db
def test_the_page_shows_each_choice_and_refuses_a_bad_dive_with_400(client, settings):
    settings.ANALYSIS_BUDGET = SMALL.to_json()
    query = {"game": "deep-sea-adventure", "dive": 3, "air": 3, "divers": NEAR_HOME}
    page = client.get("/analysis/turn-back/", query)
    assert page.status_code == 200
    assert b'id="advisor-choices"' in page.content and b"<td>turn</td>" in page.content
    bad = client.get("/analysis/turn-back/", {**query, "divers": "3 2 down\n3 1 up"})
    assert bad.status_code == 400
    assert b"another diver is on space 3 (DSA-2)" in bad.content


@pytest.mark.django_db
def test_the_page_shows_the_stored_table(client, tmp_path, monkeypatch):
    table = [
        {
            "game": "deep-sea-adventure",
            "engine_version": "abc",
            "depths": list(TABLE_DEPTHS),
            "rows": [{"strategy": "air-aware", "load": 2, "turn_back_at_air": [7, 11, 17, 23]}],
        }
    ]
    path = tmp_path / "turn_back.json"
    path.write_text(json.dumps(table))
    monkeypatch.setattr(advisor, "TABLE_PATH", path)
    advisor.stored_table.cache_clear()
    try:
        page = client.get("/analysis/turn-back/").content.decode()
    finally:
        advisor.stored_table.cache_clear()
    row = '<th scope="row">Air-aware bot</th><td>2</td><td>7</td><td>11</td><td>17</td><td>23</td>'
    assert row in page
    assert "<h3>Deep Sea Adventure</h3>" in page
    assert "abc" not in page and "manage.py" not in page
