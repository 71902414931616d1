"""The Deep Sea Adventure turn-back advisor: dives described in plain fields, each choice's
chances in words, and the published study of thresholds by divers and dive."""

import json

import pytest

from analysis import advisor
from engines.analysis import Budget
from engines.analysis.turn_back import (
    AdvisorError,
    Diver,
    advise,
    advisor_state,
)
from engines.turn_back_study import Threshold, fit_threshold, increasing_fit, shown_row
from engines.turn_back_study import scenario as study_scenario

SMALL = Budget(target_se=0.05, min_playouts=32, max_playouts=96, batch=16)


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


def dive_query(**changes):
    """The advisor's plain fields: diver 1 three spaces down with a level-2 chip, two divers
    back aboard, in the last dive with 3 air."""
    query = {
        "game": "deep-sea-adventure",
        "dive": 3,
        "air": 3,
        "d1_status": "down",
        "d1_depth": 3,
        "d1_level2": 1,
        "d2_status": "aboard",
        "d3_status": "aboard",
    }
    return {**query, **changes}


@pytest.mark.django_db
def test_the_page_shows_each_choice_in_words_and_refuses_a_bad_dive_with_400(client, settings):
    settings.ANALYSIS_BUDGET = SMALL.to_json()
    page = client.get("/analysis/turn-back/", dive_query())
    assert page.status_code == 200
    assert b'id="advisor-choices"' in page.content
    assert b"<td>turn back to the submarine</td>" in page.content
    bad = client.get("/analysis/turn-back/", dive_query(d2_status="up", d2_depth=3))
    assert bad.status_code == 400
    assert b"another diver is on space 3 (DSA-2)" in bad.content
    no_depth = client.get("/analysis/turn-back/", dive_query(d2_status="up"))
    assert no_depth.status_code == 400 and b"diver 2: how deep are they?" in no_depth.content


def test_the_chips_counted_by_level_are_the_chips_the_diver_carries():
    form = advisor.AdvisorForm(dive_query(d1_level1=2, d1_level2=1, d1_level4=1))
    assert form.is_valid(), form.errors
    assert [item[0][0] for item in form.cleaned_data["state"].carried[0]] == [1, 1, 2, 4]


@pytest.mark.parametrize("players", [2, 4, 6])
def test_the_study_puts_the_other_divers_on_their_way_home_beside_the_decider(players):
    state, actions = study_scenario("deep-sea-adventure", players, 2, 4, 2, 9)
    assert state.position == [4, *[3, 2, 1, 5, 6][: players - 1]]
    assert state.turned == [False] + [True] * (players - 1)
    assert (state.dive, state.air, len(state.carried[0])) == (2, 9, 2)
    assert sorted(a["type"] for a in actions) == ["swim", "turn"]


def test_the_threshold_is_the_step_that_fits_the_gains_with_its_noisy_airs_around_it():
    # Turning back is clearly better up to 5 air, clearly worse from 8; 6 and 7 within noise.
    gains = [(air, 0.3, 0.05) for air in range(1, 6)]
    gains += [(6, 0.05, 0.05), (7, -0.02, 0.05)]
    gains += [(air, -0.3, 0.05) for air in range(8, 26)]
    assert fit_threshold(gains) == Threshold(6, 6, 7)
    clear = [(air, 0.3 if air <= 10 else -0.3, 0.05) for air in range(1, 26)]
    assert fit_threshold(clear) == Threshold(10, None, None)


def test_increasing_fit_pools_the_thresholds_that_fall_with_depth():
    assert increasing_fit([10, 15, 12, 20]) == [10, 13.5, 13.5, 20]
    assert increasing_fit([4, 8, 12]) == [4, 8, 12]


def cell(depth, air, low=None, high=None):
    return {
        "players": 4,
        "dive": 1,
        "load": 1,
        "depth": depth,
        "air": air,
        "low": low,
        "high": high,
    }


def test_a_row_that_falls_within_its_brackets_is_shown_without_the_fall():
    row = shown_row([cell(4, 8), cell(8, 15, 12, 16), cell(12, 13, 11, 15), cell(16, 20)])
    assert [c["shown"] for c in row["cells"]] == [8, 14, 14, 20] and not row["real_fall"]


def test_a_row_that_falls_beyond_its_brackets_is_shown_as_measured_and_marked():
    row = shown_row([cell(4, 8), cell(8, 20, 19, 21), cell(12, 10, 9, 11), cell(16, 22)])
    assert [c["shown"] for c in row["cells"]] == [8, 20, 10, 22] and row["real_fall"]


@pytest.mark.django_db
def test_the_page_publishes_the_study_with_brackets_and_no_engine_internals(
    client, tmp_path, monkeypatch
):
    cells = [cell(4, 8), cell(8, 15, 12, 16), cell(12, 13, 11, 15), cell(16, 20)]
    cells += [
        {**c, "dive": 2} for c in [cell(4, 8), cell(8, 20, 19, 21), cell(12, 10), cell(16, 22)]
    ]
    study = [
        {
            "game": "deep-sea-adventure",
            "strategy": "grab-2-then-turn",
            "budget": {},
            "depths": [4, 8, 12, 16],
            "cells": cells,
        }
    ]
    path = tmp_path / "turn_back_study.json"
    path.write_text(json.dumps(study))
    monkeypatch.setattr(advisor, "STUDY_PATH", path)
    advisor.study.cache_clear()
    try:
        page = client.get("/analysis/turn-back/").content.decode()
    finally:
        advisor.study.cache_clear()
    assert "<h3>Deep Sea Adventure, carrying 1 chip</h3>" in page
    monotone = (
        '<th scope="row">4 divers, dive 1</th><td data-depth="4">8</td>'
        '<td data-depth="8">14 <small>(12\u201316)</small></td>'
        '<td data-depth="12">14 <small>(11\u201315)</small></td><td data-depth="16">20</td>'
    )
    assert monotone in page
    assert '<tr class="real-fall"><th scope="row">4 divers, dive 2 *</th>' in page
    assert "* 4 divers, dive 2: no cause in the scenario." in page
    assert "grab-2-then-turn" not in page and "manage.py" not in page


def test_a_real_fall_names_the_cells_where_other_divers_start_deeper():
    cells = [{**cell(4, 18, 17, 19), "players": 6}, {**cell(8, 8, 8, 9), "players": 6}]
    row = shown_row(cells)
    assert row["real_fall"]
    assert [c["others_deeper"] for c in row["cells"]] == [2, 0]
