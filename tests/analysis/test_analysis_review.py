"""A stored analysis as a player reads it (engines/review.py and the game page): moves in
the engine's words with players' names, lichess-style marks, accuracy, and the events that
caused each real swing. Expected figures are computed here from the formulas, not read back."""

import copy
import math
import re

import pytest
from games_support import simulated_log, submit, text  # noqa: F401 (submit is a fixture)

from analysis.figures import win_probability_figure
from analysis.models import Analysis
from analysis.services import jobs
from analysis.services.review import chances, shown
from engines.analysis import Budget, analyse_log
from engines.core.log import loads
from engines.core.replay import start
from engines.review import mark, move_accuracy, real_drop, review
from games.models import GameLog

TINY = Budget(target_se=0.2, min_playouts=4, max_playouts=8, batch=4)
NAMES = ("Marina", "Nemo", "Coral")


def lichess_accuracy(drop: float) -> float:
    """lichess's per-move accuracy, written out again here from its documentation."""
    return min(100.0, max(0.0, 103.1668 * math.exp(-0.04354 * (drop * 100)) - 3.1669))


@pytest.fixture(scope="module")
def analysed():
    log = simulated_log("deep-sea-adventure", seed=3, players=3)
    log["players"] = [{"name": name} for name in NAMES]
    return log, [d.to_json() for d in analyse_log(log, budget=TINY)]


def seat_scores(decisions, seat):
    """Each move's accuracy score of the player in `seat`: a drop counts only beyond twice
    its error."""
    return [
        lichess_accuracy(d["cost"] if d["cost"] > 2 * d["cost_se"] else 0.0)
        for d in decisions
        if d["seat"] == seat
    ]


def named_game(submit_log, settings):
    """A three-player game seating NAMES, stored; analysed on the tiny budget when asked."""
    settings.ANALYSIS_BUDGET = TINY.to_json()
    log = simulated_log("deep-sea-adventure", seed=3, players=3)
    log["players"] = [{"name": name} for name in NAMES]
    return submit_log(text(log))


def snapshots_before(log):
    """The table before each event, by a replay of this test's own."""
    game, ruleset, state = start(log)
    before = [state.snapshot()]
    state.apply_events(log["events"], lambda index, live: before.append(live.snapshot()))
    return game, ruleset, before


@pytest.mark.parametrize(
    ("cost", "cost_se", "expected"),
    [
        (0.04, 0.001, None),
        (0.05, 0.01, "inaccuracy"),
        (0.10, 0.02, "mistake"),
        (0.149, 0.02, "mistake"),
        (0.15, 0.05, "blunder"),
        (0.30, 0.16, None),  # within two standard errors: may be playout noise
    ],
)
def test_a_drop_is_marked_by_lichess_thresholds_only_beyond_twice_its_error(
    cost, cost_se, expected
):
    assert mark(real_drop(cost, cost_se)) == expected


@pytest.mark.parametrize("drop", [0.0, 0.05, 0.1, 0.15, 0.5, 1.0])
def test_a_moves_accuracy_is_lichess_formula_of_its_drop(drop):
    assert move_accuracy(drop) == pytest.approx(lichess_accuracy(drop))


def test_every_move_is_named_in_the_engines_words_with_its_players_name(analysed):
    log, decisions = analysed
    game, ruleset, before = snapshots_before(log)
    reviewed = review(log, decisions)
    assert [m.index for m in reviewed.moves] == [d["index"] for d in decisions]
    for move, decision in zip(reviewed.moves, decisions, strict=True):
        snapshot = before[decision["index"]]
        assert move.player == NAMES[decision["seat"]]
        assert move.played == game.describe(log["events"][decision["index"]], snapshot, ruleset)
        if decision["best"] != decision["played"] and decision["cost"] > 2 * decision["cost_se"]:
            assert move.best == game.describe(decision["best"], snapshot, ruleset)
        else:
            assert move.best is None
        assert "seat" not in move.played + (move.best or "")


def test_every_move_says_when_it_was_played_in_the_games_own_words(analysed):
    log, decisions = analysed
    game, _, before = snapshots_before(log)
    moments = [m.moment for m in review(log, decisions).moves]
    assert moments == [game.moment(before[d["index"]]) for d in decisions]
    assert all(moment.startswith("dive ") for moment in moments)  # Deep Sea Adventure's


def test_each_players_accuracy_is_the_mean_of_their_moves_scores(analysed):
    log, decisions = analysed
    reviewed = review(log, decisions)
    for seat in range(len(NAMES)):
        scores = seat_scores(decisions, seat)
        assert reviewed.accuracy[seat] == pytest.approx(sum(scores) / len(scores), abs=0.05)


def with_swing(decisions, at):
    """The decisions with a certain swing put before decision `at`: the previous move left
    the first player all the chances (over many playouts), the next one's best none."""
    changed = copy.deepcopy(decisions)
    before, after = changed[at - 1], changed[at]
    played = next(e for e in before["alternatives"] if e["action"] == before["played"])
    played.update(shares=[1.0, 0.0, 0.0], playouts=400)
    after["alternatives"][0].update(shares=[0.0, 0.5, 0.5], playouts=400)
    return changed


def reviewed_with_swing(analysed, between_events):
    """The analysed game reviewed with a certain swing put before the first decision that
    has events between it and the previous one (`between_events`), or that follows the
    previous one straight away; returns the decisions, that decision's place, the review."""
    log, decisions = analysed
    gap = [decisions[i]["index"] - decisions[i - 1]["index"] for i in range(1, len(decisions))]
    at = 1 + next(i for i, step in enumerate(gap) if (step > 1) == between_events)
    return decisions, at, review(log, with_swing(decisions, at))


def test_a_real_swing_names_the_events_between_the_two_decisions(analysed):
    log, _ = analysed
    game, ruleset, before = snapshots_before(log)
    decisions, at, reviewed = reviewed_with_swing(analysed, between_events=True)
    (swing,) = [s for s in reviewed.swings if s.index == decisions[at]["index"]]
    assert (swing.player, swing.before, swing.after) == (NAMES[0], 1.0, 0.0)
    between = range(decisions[at - 1]["index"] + 1, decisions[at]["index"])
    assert [c.index for c in swing.causes] == list(between)[-6:]
    for cause in swing.causes:
        event = log["events"][cause.index]
        assert cause.text == game.describe(event, before[cause.index], ruleset)
        assert cause.player == NAMES[event["seat"]]


def test_back_to_back_decisions_are_never_called_a_swing(analysed):
    decisions, at, reviewed = reviewed_with_swing(analysed, between_events=False)
    assert decisions[at]["index"] not in [s.index for s in reviewed.swings]


@pytest.mark.django_db
def test_the_game_page_shows_accuracy_and_moves_by_name_and_never_a_seat_number(
    client,
    submit,  # noqa: F811 (the fixture imported above)
    settings,
    django_capture_on_commit_callbacks,
):
    stored = named_game(submit, settings)
    assert stored.status == GameLog.Status.VERIFIED
    with django_capture_on_commit_callbacks(execute=True):
        jobs.request_analysis(stored)
    analysis = Analysis.objects.get()
    page = client.get(f"/games/{stored.pk}/").content.decode()
    section = page[page.index('id="analysis"') :]
    for seat, name in enumerate(NAMES):
        scores = seat_scores(analysis.decisions, seat)
        assert f'<th scope="row">{name}</th><td>{sum(scores) / len(scores):.1f}%</td>' in section
    assert "seat " not in section.lower().replace("seat in", "")
    # Moves are told by when they were played, never by their index in the log.
    assert not re.search(r"event \d", section)
    first = review(loads(stored.raw), analysis.decisions).moves[0]
    assert (
        f'<a href="#event-{first.index}">{first.moment}</a> <strong>{first.player}</strong>'
        in section
    )
    # The analysis has no page of its own: its address leads into the replay.
    answer = client.get(f"/games/{stored.pk}/analysis/")
    assert answer.status_code == 302 and answer["Location"] == f"/games/{stored.pk}/#analysis"


@pytest.mark.django_db
def test_a_players_page_lists_their_accuracy_game_by_game(
    client,
    submit,  # noqa: F811 (the fixture imported above)
    settings,
    django_capture_on_commit_callbacks,
):
    stored = named_game(submit, settings)
    player = stored.game.seats.get(seat=1).player
    assert 'id="accuracy-by-game"' not in client.get(f"/players/{player.handle}/").content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        jobs.request_analysis(stored)
    decisions = Analysis.objects.get().decisions
    scores = seat_scores(decisions, 1)
    page = client.get(f"/players/{player.handle}/").content.decode()
    table = page[page.index('id="accuracy-by-game"') :]
    assert f"<td>{len(scores)}</td><td>{sum(scores) / len(scores):.1f}%</td>" in table


@pytest.mark.django_db
def test_the_method_page_documents_the_marks_and_the_accuracy_formula(client):
    page = " ".join(client.get("/analysis/method/").content.decode().split())
    assert "0.05 or more is an <em>inaccuracy</em>" in page
    assert "103.1668 \u00d7 e<sup>\u22120.04354 \u00d7 drop in percentage" in page
    # The figures quoted there are the formula's own.
    assert f"a drop of 0.05 about {move_accuracy(0.05):.0f}" in page
    assert f"0.15 about {move_accuracy(0.15):.0f}" in page


def test_a_chance_is_written_once_from_its_shortest_form_rounded_half_up():
    # 0.615 is 0.61499... in binary: toFixed and Python's format wrote 0.61, the template 0.62.
    assert [chances(v) for v in (0.615, 0.625, 0.5, 1.0, 0.004)] == [
        "0.62",
        "0.63",
        "0.50",
        "1.00",
        "0.00",
    ]


def test_the_page_gets_each_chance_of_the_review_written_as_it_shows_it(analysed):
    *_, reviewed = reviewed_with_swing(analysed, between_events=True)

    page = shown(reviewed.to_json())

    assert [(m["win"], m["best_win"]) for m in page["moves"]] == [
        (chances(m.win), chances(m.best_win)) for m in reviewed.moves
    ]
    assert [(s["before"], s["after"]) for s in page["swings"]] == [
        (chances(s.before), chances(s.after)) for s in reviewed.swings
    ]
    assert ("1.00", "0.00") in [(s["before"], s["after"]) for s in page["swings"]]


def test_the_chances_chart_speaks_in_moves_and_names_never_event_numbers(analysed):
    *_, reviewed = reviewed_with_swing(analysed, between_events=True)

    figure = win_probability_figure(reviewed.to_json())
    words = [figure["layout"]["xaxis"]["title"]["text"]]
    words += [trace.get("hovertemplate", "") for trace in figure["data"]]
    words += [line for trace in figure["data"] for line in trace.get("text", [])]

    assert any(trace.get("text") for trace in figure["data"])  # marked moves are hovered
    assert not [w for w in words if re.search(r"\bevent\b", w, re.IGNORECASE)], words
