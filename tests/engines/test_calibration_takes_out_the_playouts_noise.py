"""benchmarks/calibration.py's skill without the playouts' sampling noise (issue 24): the
Brier score of an estimate from n playouts is that of the probability it estimates plus the
estimate's variance, so taking each forecast's estimated variance out measures the skill the
same playouts would reach without limit."""

import random

import pytest

from benchmarks.calibration import denoised_skill, noise
from engines.analysis.calibration import Forecast, skill
from engines.analysis.evaluator import ActionEstimate


def test_the_noise_of_an_estimate_is_its_playouts_sample_variance_over_their_number():
    estimate = ActionEstimate({"type": "pass"}, seat=0, exact=False)
    for share in (1, 0, 0, 1, 0.5):
        estimate.add([share, 1 - share])
    # mean 0.5; squared gaps 0.25, 0.25, 0.25, 0.25, 0: sample variance 1 / 4, over 5
    assert noise(estimate) == pytest.approx(0.25 / 4 * 4 / 5 / 1)


def test_an_exact_estimate_or_a_single_playout_has_no_noise():
    exact = ActionEstimate({"type": "pass"}, seat=0)
    exact.add([1.0, 0.0])
    exact.add([0.0, 1.0])
    assert noise(exact) == 0.0
    one = ActionEstimate({"type": "pass"}, seat=0, exact=False)
    one.add([1.0, 0.0])
    assert noise(one) == 0.0


def test_a_worked_example_takes_the_mean_variance_out_of_the_brier_score():
    # Two-player forecasts: Brier (0.04 + 0.09) / 2 = 0.065, prior 0.25, noise 0.01 and 0.03.
    staged = [(Forecast(0, 2, 0.8, 1), 0, 0.01), (Forecast(1, 2, 0.3, 0), 2, 0.03)]
    assert skill([f for f, _, _ in staged]) == pytest.approx(1 - 0.065 / 0.25)
    assert denoised_skill(staged) == pytest.approx(1 - (0.065 - 0.02) / 0.25)


def test_the_noisy_estimates_skill_without_noise_is_that_of_the_probabilities_they_estimate():
    rng = random.Random("denoise")
    truth, staged = [], []
    for game in range(20_000):
        p = rng.choice([0.02, 0.1, 0.25, 0.5, 0.8])
        outcome = float(rng.random() < p)
        estimate = ActionEstimate({"type": "pass"}, seat=0, exact=False)
        for _ in range(32):
            share = float(rng.random() < p)
            estimate.add([share, 1 - share, 0.0, 0.0])
        truth.append(Forecast(game, 4, p, outcome))
        staged.append((Forecast(game, 4, estimate.win, outcome), 0, noise(estimate)))
    noisy = skill([f for f, _, _ in staged])
    # 32 playouts cost about 0.02 of skill here; taking their variance out wins it back.
    assert skill(truth) - noisy > 0.015
    assert denoised_skill(staged) == pytest.approx(skill(truth), abs=0.005)
