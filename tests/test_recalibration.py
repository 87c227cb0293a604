"""Platt-scaled ECE (equal to HELM, fixture made by its own code with
tests/fixtures/make_platt_fixtures.py) and temperature scaling of
multiple-choice log-likelihoods (the maximum-likelihood temperature,
checked against an independent scipy fit)."""

from __future__ import annotations

import json
import math
import pathlib

import numpy as np
import pytest
from scipy import optimize, special

from skbrier import multiple_choice_brier_score
from skbrier.metrics.calibration import calibration_intercept_slope
from skbrier.metrics.calibration_error import calibration_error
from skbrier.metrics.recalibration import platt_calibration_error, temperature_scaling

HELM = json.loads(
    (pathlib.Path(__file__).parent / "fixtures" / "platt_helm_reference.json").read_text()
)


@pytest.mark.parametrize("case", range(len(HELM["cases"])))
def test_platt_equals_helm(case):
    c = HELM["cases"][case]
    h = c["helm"]
    res = platt_calibration_error(c["correct"], c["confidence"], solver="helm")
    # lbfgs stops at its tolerance: the same scikit-learn gives the same bits,
    # another release may move the coefficients in the last digits
    assert res.calibration_error_before == pytest.approx(h["ece_10_bin"], abs=1e-14)
    assert res.calibration_error == pytest.approx(h["platt_ece_10_bin"], abs=1e-7)
    assert res.calibration_error_1_bin == pytest.approx(h["platt_ece_1_bin"], abs=1e-7)
    if "platt_coef" in h:
        assert res.coef == pytest.approx(h["platt_coef"], rel=1e-6)
        assert res.intercept == pytest.approx(h["platt_intercept"], rel=1e-6, abs=1e-9)
    else:
        assert math.isnan(res.coef) and math.isnan(res.intercept)


@pytest.mark.parametrize("case", range(3))
def test_platt_mle_is_the_exact_fit_and_close_to_helm(case):
    c = HELM["cases"][case]
    y, p = np.array(c["correct"]), np.clip(np.array(c["confidence"]), 1e-12, 1 - 1e-12)
    res = platt_calibration_error(y, p)
    fit = calibration_intercept_slope(y, p)
    assert (res.coef, res.intercept) == (fit.slope, fit.intercept)
    # the maximum likelihood puts the mean recalibrated confidence on the accuracy
    assert res.calibration_error_1_bin == pytest.approx(0.0, abs=1e-12)
    assert res.coef == pytest.approx(c["helm"]["platt_coef"], abs=1e-3)


def test_platt_weights_equal_repeated_rows():
    rng = np.random.default_rng(0)
    n = 80
    p = rng.uniform(0.3, 1.0, n).round(2)
    y = (rng.uniform(size=n) < p - 0.1).astype(int)
    w = rng.integers(1, 4, n)
    rep = np.repeat(np.arange(n), w)
    a = platt_calibration_error(y, p, sample_weight=w, binning=None)
    b = platt_calibration_error(y[rep], p[rep], binning=None)
    for f in ("coef", "intercept", "calibration_error", "calibration_error_before"):
        assert getattr(a, f) == pytest.approx(getattr(b, f), rel=1e-9, abs=1e-12)


@pytest.mark.parametrize(
    ("y", "p"),
    [
        ([0, 0, 1, 1, 1], [0.2, 0.3, 0.6, 0.7, 0.9]),  # separated
        ([0, 0, 1, 0, 1, 1], [0.2, 0.3, 0.5, 0.5, 0.7, 0.9]),  # a tie at the boundary
        ([1, 0, 1, 0, 1, 0], [0.01, 0.99, 0.01, 0.99, 0.01, 0.99]),  # the wrong way
    ],
)
def test_platt_on_separated_outcomes_takes_the_limit(y, p):
    # no finite fit: the Platt-scaled confidences tend to the outcomes (to the
    # tied group's accuracy at the boundary), as HELM's nearly unpenalised fit
    # approaches; the errors after scaling were NaN
    with pytest.warns(Warning, match="separated"):
        res = platt_calibration_error(y, p)
    assert math.isinf(res.coef) and math.isnan(res.intercept)
    helm = platt_calibration_error(y, p, solver="helm")
    assert res.calibration_error == pytest.approx(helm.calibration_error, abs=2e-4)
    assert res.calibration_error_1_bin == pytest.approx(0.0, abs=1e-15)
    assert res.calibration_error_before == helm.calibration_error_before
    w = np.arange(1, len(y) + 1)
    rep = np.repeat(np.arange(len(y)), w)
    with pytest.warns(Warning, match="separated"):
        a = platt_calibration_error(y, p, sample_weight=w, binning=None)
    with pytest.warns(Warning, match="separated"):
        b = platt_calibration_error(np.array(y)[rep], np.array(p)[rep], binning=None)
    assert a.calibration_error == pytest.approx(b.calibration_error, abs=1e-15)


def test_platt_helm_solver_does_not_depend_on_the_weight_scale():
    # scikit-learn's fit stopped at once on weights x 1e-200: coef = intercept = 0
    rng = np.random.default_rng(0)
    n = 100
    p = rng.uniform(0.05, 0.95, n)
    y = (rng.uniform(size=n) < p).astype(int)
    w = rng.integers(1, 4, n).astype(float)
    ref = platt_calibration_error(y, p, sample_weight=w, solver="helm", binning=None)
    for scale in (1e-200, 1e-6, 1e200):
        res = platt_calibration_error(
            y, p, sample_weight=w * scale, solver="helm", binning=None
        )
        assert res.coef == pytest.approx(ref.coef, rel=1e-6)
        assert res.intercept == pytest.approx(ref.intercept, rel=1e-5, abs=1e-8)


def _nll(logp, gold, inv_t):
    return -np.mean(special.log_softmax(logp * inv_t, axis=1)[np.arange(len(gold)), gold])


def _mc_data(seed, n=300, k=4, sharp=3.0):
    rng = np.random.default_rng(seed)
    logits = rng.normal(0, 1, (n, k)) * sharp
    gold = np.array([rng.choice(k, p=special.softmax(row / sharp)) for row in logits])
    return gold, special.log_softmax(logits, axis=1)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_temperature_is_the_maximum_likelihood(seed):
    gold, logp = _mc_data(seed)
    res = temperature_scaling(gold, logp)
    ref = optimize.minimize_scalar(
        lambda s: _nll(logp, gold, s),
        bounds=(1e-3, 1e3),
        method="bounded",
        options={"xatol": 1e-12},
    )
    assert 1.0 / res.temperature == pytest.approx(ref.x, rel=1e-6)
    assert res.log_loss == pytest.approx(_nll(logp, gold, 1 / res.temperature), rel=1e-12)
    assert res.log_loss <= res.log_loss_before
    p = special.softmax(logp / res.temperature, axis=1)
    assert res.brier_score == pytest.approx(multiple_choice_brier_score(gold, p), rel=1e-12)
    conf, correct = p.max(1), (p.argmax(1) == gold).astype(int)
    assert res.rms_calibration_error == pytest.approx(
        calibration_error(correct, conf, kind="binary", norm="l2"), rel=1e-12
    )
    assert res.brier_score_before == pytest.approx(
        multiple_choice_brier_score(gold, logp, from_logprobs=True), rel=1e-12
    )


def test_over_confident_model_gets_a_temperature_above_one():
    gold, logp = _mc_data(4, sharp=1.0)
    res = temperature_scaling(gold, logp * 3.0)  # three times too sharp
    assert res.temperature == pytest.approx(3.0, rel=0.25)


def test_separate_fitting_split():
    gold, logp = _mc_data(5, n=400)
    res = temperature_scaling(gold[200:], logp[200:], fit_on=(gold[:200], logp[:200]))
    alone = temperature_scaling(gold[:200], logp[:200])
    assert res.fitted_on == "separate" and res.temperature == pytest.approx(
        alone.temperature
    )
    with pytest.raises(TypeError, match="fit_on"):
        temperature_scaling(gold, logp, fit_on=[gold, logp])


def test_weights_repeated_rows_and_ragged_choices():
    gold, logp = _mc_data(6, n=60, k=3)
    w = np.random.default_rng(0).integers(1, 4, 60)
    rep = np.repeat(np.arange(60), w)
    a = temperature_scaling(gold, logp, sample_weight=w)
    b = temperature_scaling(gold[rep], logp[rep])
    assert a.temperature == pytest.approx(b.temperature, rel=1e-7)
    assert a.brier_score == pytest.approx(b.brier_score, rel=1e-7)
    ragged = [row[: 2 + i % 2] for i, row in enumerate(logp)]
    g = np.minimum(gold, [1 + i % 2 for i in range(60)])
    padded = np.array([np.r_[r, [-np.inf] * (3 - len(r))] for r in ragged])
    assert temperature_scaling(g, ragged).temperature == pytest.approx(
        temperature_scaling(g, padded).temperature, rel=1e-9
    )


def test_gold_with_zero_probability_is_an_error():
    with pytest.raises(ValueError, match="gold choice"):
        temperature_scaling([1, 0], [[-0.1, -np.inf], [-0.2, -1.0]])


def _logsoftmax(a):
    return a - np.log(np.exp(a).sum(axis=1, keepdims=True))


def test_temperature_infinite_when_the_gold_choices_score_below_average():
    """The likelihood is largest at uniform probabilities (T = inf): said, not
    a huge finite temperature from the optimiser's last step."""
    rng = np.random.default_rng(0)
    gold = rng.integers(0, 4, 300)
    logit = rng.normal(size=(300, 4))
    logit[np.arange(300), gold] -= 1.0
    with pytest.warns(UserWarning, match="temperature is infinite"):
        res = temperature_scaling(gold, _logsoftmax(logit))
    assert res.temperature == np.inf
    assert res.brier_score == pytest.approx(0.75, rel=1e-14)  # 1 - 1/4
    assert res.log_loss == pytest.approx(np.log(4.0), rel=1e-14)
    # an impossible choice stays impossible: uniform over the other three
    lp = _logsoftmax(logit)
    lp[:, 3] = -np.inf
    with pytest.warns(UserWarning, match="temperature is infinite"):
        res = temperature_scaling(np.minimum(gold, 2), lp)
    assert res.brier_score == pytest.approx(2.0 / 3.0, rel=1e-14)


def test_temperature_zero_when_every_gold_choice_is_on_top():
    rng = np.random.default_rng(1)
    gold = rng.integers(0, 3, 100)
    logit = rng.normal(size=(100, 3))
    logit[np.arange(100), gold] += 8.0
    with pytest.warns(UserWarning, match="temperature is 0"):
        res = temperature_scaling(gold, _logsoftmax(logit))
    assert res.temperature == 0.0
    assert res.brier_score == 0.0 and res.log_loss == 0.0
    assert res.rms_calibration_error == 0.0


def test_temperature_finite_case_is_interior_optimum():
    """An informative but overconfident model: the fitted 1/T zeroes the
    derivative of the log loss (checked by finite differences)."""
    rng = np.random.default_rng(2)
    gold = rng.integers(0, 4, 400)
    logit = rng.normal(size=(400, 4)) * 3.0
    logit[np.arange(400), gold] += 1.0
    lp = _logsoftmax(logit)
    t = temperature_scaling(gold, lp).temperature
    assert 0.0 < t < np.inf

    def nll(temp):
        return -np.mean(_logsoftmax(lp / temp)[np.arange(400), gold])

    h = 1e-5 * t
    assert abs(nll(t + h) - nll(t - h)) / (2 * h) < 1e-7


def test_extreme_log_likelihoods_raise_no_warning_about_y_proba():
    # softmax of log-likelihoods 1e6 apart is exactly one-hot: that is the
    # model's output, not predict() passed for predict_proba() (the internal
    # calibration errors warned of "y_proba")
    import warnings

    from skbrier.exceptions import HardForecastWarning

    gold, logp = _mc_data(3, n=40)
    with warnings.catch_warnings():
        warnings.simplefilter("error", HardForecastWarning)
        res = temperature_scaling(gold, logp * 1e6)
    assert np.isfinite(res.brier_score_before)
    # one-hot probabilities given as such: one warning, naming y_score
    onehot = np.eye(logp.shape[1])[logp.argmax(axis=1)]
    with pytest.warns(HardForecastWarning, match="^y_score") as seen:
        temperature_scaling(onehot.argmax(axis=1), onehot, from_logprobs=False)
    assert len([w for w in seen if w.category is HardForecastWarning]) == 1


@pytest.mark.parametrize(
    ("gold", "exc", "match"),
    [
        ([0, 1.0, 0, 2], None, None),  # a float in a list of indices: the same indices
        ([0, 1.5, 0, 2], ValueError, "^y_true must hold integer choice indices"),
        (["0", "1", "0", "2"], TypeError, "^y_true must hold integer choice indices"),
    ],
)
def test_gold_indices_in_a_list(gold, exc, match):
    logp = [[-0.1, -3.0, -4.0], [-0.2, -2.0, -3.0], [-0.3, -1.5, -4.0], [-1.0, -0.8, -1.2]]
    if exc is None:
        ref = temperature_scaling([0, 1, 0, 2], logp)
        assert temperature_scaling(gold, logp).temperature == ref.temperature
        assert multiple_choice_brier_score(
            gold, logp, from_logprobs=True
        ) == multiple_choice_brier_score([0, 1, 0, 2], logp, from_logprobs=True)
    else:
        with pytest.raises(exc, match=match):
            temperature_scaling(gold, logp)


@pytest.mark.parametrize("fit_on", [False, True])
def test_questions_of_one_choice_only_cannot_fit_a_temperature(fit_on):
    # every probability is 1 at every temperature: it was T = inf with a
    # warning that the log-likelihoods "do not favour the gold choices"
    one = ([[1], [1], [1]], [[-0.5], [-1.2], [-0.1]])
    two = ([[1, 0], [0, 1]], [[-0.2, -1.0], [-2.0, -0.3]])
    name = "fit_on" if fit_on else "y_score"
    with pytest.raises(ValueError, match=f"every question of {name} has a single choice"):
        if fit_on:
            temperature_scaling(*two, fit_on=one)
        else:
            temperature_scaling(*one)
    # one single-choice question beside others is fine (it does not move T)
    mixed = temperature_scaling([[1], [1, 0], [0, 1]], [[-0.5], [-0.2, -1.0], [-2.0, -0.3]])
    alone = temperature_scaling(*two)
    assert mixed.temperature == pytest.approx(alone.temperature, rel=1e-9)
