"""The calibration figures (engines/analysis/calibration.py) on hand-computed examples."""

import math

import pytest

from engines.analysis.calibration import (
    Forecast,
    brier,
    calibration_error,
    jackknife_se,
    prior_brier,
    skill,
    summary,
    sure_wrong_rate,
)


def two_player(game: int, probability: float, outcome: float) -> Forecast:
    return Forecast(game, 2, probability, outcome)


# Two 2-player games. Squared errors: 0.04, 0.09 | 0.36, 0.0001, 0.0001.
SAMPLE = [
    two_player(0, 0.8, 1),
    two_player(0, 0.3, 0),
    two_player(1, 0.6, 0),
    two_player(1, 0.01, 0),
    two_player(1, 0.99, 1),
]


def test_the_brier_score_is_the_mean_squared_gap_between_probability_and_outcome():
    assert brier(SAMPLE) == pytest.approx(0.4902 / 5)


def test_the_prior_says_one_over_the_players_and_skill_measures_against_it():
    assert prior_brier(SAMPLE) == pytest.approx(0.25)  # (0.5 - 0 or 1)^2 every time
    assert skill(SAMPLE) == pytest.approx(1 - 0.09804 / 0.25)


def test_a_four_player_prior_scores_a_win_and_a_loss_by_a_quarter():
    forecasts = [Forecast(0, 4, 0.25, 1), Forecast(0, 4, 0.25, 0)]
    assert prior_brier(forecasts) == pytest.approx((0.75**2 + 0.25**2) / 2)
    assert skill(forecasts) == pytest.approx(0)  # saying the prior has no skill


def test_calibration_error_weighs_each_bins_gap_by_its_share_of_forecasts():
    forecasts = [
        two_player(0, 0.7, 1),
        two_player(0, 0.75, 0),  # bin 0.7-0.8: mean 0.725 against 0.5, gap 0.225
        two_player(1, 0.15, 0),  # bin 0.1-0.2: gap 0.15
        two_player(1, 1.0, 1),  # a probability of 1 falls in the last bin: gap 0
    ]
    assert calibration_error(forecasts) == pytest.approx((2 * 0.225 + 0.15 + 0) / 4)


def test_a_perfectly_calibrated_sample_has_no_calibration_error():
    forecasts = [two_player(0, 0.25, y) for y in (1, 0, 0, 0)]
    assert calibration_error(forecasts) == pytest.approx(0)


def test_a_sure_call_is_wrong_when_the_outcome_contradicts_it_ties_included():
    forecasts = [
        two_player(0, 0.01, 0.5),  # sure of a loss, shared the win: wrong
        two_player(0, 0.99, 1),  # sure of a win, won: right
        two_player(0, 0.985, 0),  # sure of a win, lost: wrong
        two_player(0, 0.5, 1),  # not a sure call
    ]
    assert sure_wrong_rate(forecasts) == pytest.approx(2 / 3)
    figures = summary(forecasts)
    assert (figures["sure"], figures["sure_wrong"]) == (3, 2)


def test_no_sure_call_means_no_sure_call_was_wrong():
    assert sure_wrong_rate([two_player(0, 0.5, 0)]) == 0


def test_the_standard_error_leaves_one_game_out_at_a_time():
    # Leaving game 1 out: Brier 0.13 / 2; leaving game 0 out: 0.3602 / 3. Two values a and
    # b give a jackknife error of sqrt(1/2 * 2 * ((a - b) / 2)^2) = |a - b| / 2.
    a, b = 0.13 / 2, 0.3602 / 3
    assert jackknife_se(SAMPLE, brier) == pytest.approx(abs(a - b) / 2)


def test_one_game_gives_no_standard_error():
    assert math.isnan(jackknife_se(SAMPLE[:2], brier))


def test_the_summary_states_its_sample():
    figures = summary(SAMPLE)
    assert (figures["games"], figures["decisions"]) == (2, 5)
    assert figures["skill"] == pytest.approx(skill(SAMPLE))
    assert figures["skill_se"] == pytest.approx(jackknife_se(SAMPLE, skill))


def test_the_jackknife_scales_the_spread_by_games_minus_one_over_games():
    forecasts = [two_player(game, p, 0) for game, p in enumerate((0.1, 0.2, 0.3))]

    def total(sample):
        return sum(f.probability for f in sample)

    # Leaving one out: 0.5, 0.4, 0.3 (mean 0.4, squared deviations 0.02); (3 - 1) / 3 of it.
    assert jackknife_se(forecasts, total) == pytest.approx(math.sqrt(2 / 3 * 0.02))
