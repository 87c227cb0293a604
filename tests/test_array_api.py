"""The core metrics on Array API arrays equal the numpy results.

Run with ``sklearn.config_context(array_api_dispatch=True)`` on
array-api-strict (its default device and a simulated second device, where
any silent transfer to another device raises) and on PyTorch CPU tensors in
float64 and float32.  Each library is skipped when absent.
"""

import re
import warnings

import numpy as np
import pytest
import sklearn
from xp_namespaces import NAMESPACES as _ALL
from xp_namespaces import xp_case_fixture

from skbrier import (
    brier_index,
    brier_score,
    brier_skill_score,
    decision_curve,
    multiple_choice_brier_score,
    murphy_decomposition,
    net_benefit,
)
from skbrier.metrics.calibration_error import calibration_error

NAMESPACES = {k: v for k, v in _ALL.items() if k != "strict-no-float64"}

pytestmark = pytest.mark.filterwarnings("ignore:.*do not sum to one:UserWarning")

xp_case = xp_case_fixture(NAMESPACES)


def _close(a, b, dtype):
    rtol = 1e-12 if dtype == "float64" else 2e-5
    np.testing.assert_allclose(a, b, rtol=rtol, atol=rtol * 1e-2)


@pytest.fixture
def data():
    rng = np.random.default_rng(7)
    n = 400
    y = rng.integers(0, 2, n)
    p = np.round(rng.random(n), 2)  # ties and values on bin edges
    w = rng.integers(0, 4, n).astype(float)
    y3 = rng.integers(0, 3, n)
    P = rng.dirichlet(np.ones(3), n)
    return y, p, w, y3, P


def _proba(p, dtype):
    return p.astype(np.float32).astype(np.float64) if dtype == "float32" else p


def test_brier_family(xp_case, data):
    conv, dt = xp_case
    y, p, w, y3, P = data
    pn, Pn = _proba(p, dt), _proba(P, dt)
    res = brier_score(conv(y), conv(p))
    assert type(res) is float
    _close(res, brier_score(y, pn), dt)
    _close(
        brier_score(conv(y), conv(p), sample_weight=conv(w)),
        brier_score(y, pn, sample_weight=w),
        dt,
    )
    _close(
        brier_score(conv(y), conv(p), scale_by_half=False),
        brier_score(y, pn, scale_by_half=False),
        dt,
    )
    _close(brier_score(conv(y3), conv(P)), brier_score(y3, Pn), dt)
    _close(
        brier_score(conv(y3), conv(P), sample_weight=conv(w)),
        brier_score(y3, Pn, sample_weight=w),
        dt,
    )
    _close(brier_index(conv(y), conv(p)), brier_index(y, pn), dt)
    _close(brier_index(conv(y3), conv(P)), brier_index(y3, Pn), dt)
    # labels that only the host holds (strings) move to the device
    labels = np.array(["no", "yes"])[y]
    _close(brier_score(labels, conv(p), pos_label="yes"), brier_score(y, pn), dt)
    # {-1, 1} labels and pos_label=0
    _close(brier_score(conv(2 * y - 1), conv(p)), brier_score(2 * y - 1, pn), dt)
    _close(brier_score(conv(y), conv(p), pos_label=0), brier_score(y, pn, pos_label=0), dt)
    # two columns with pos_label
    P2 = np.c_[1 - p, p]
    _close(brier_score(conv(y), conv(P2)), brier_score(y, _proba(P2, dt)), dt)


def test_skill_scores(xp_case, data):
    conv, dt = xp_case
    y, p, w, y3, P = data
    pn, Pn = _proba(p, dt), _proba(P, dt)
    _close(brier_skill_score(conv(y), conv(p)), brier_skill_score(y, pn), dt)
    _close(
        brier_skill_score(conv(y), conv(p), sample_weight=conv(w)),
        brier_skill_score(y, pn, sample_weight=w),
        dt,
    )
    _close(
        brier_skill_score(conv(y), conv(p), reference=0.3),
        brier_skill_score(y, pn, reference=0.3),
        dt,
    )
    ref = np.full_like(p, 0.4)
    _close(
        brier_skill_score(conv(y), conv(p), reference=conv(ref)),
        brier_skill_score(y, pn, reference=_proba(ref, dt)),
        dt,
    )
    _close(brier_skill_score(conv(y3), conv(P)), brier_skill_score(y3, Pn), dt)


def test_multiple_choice(xp_case, data):
    conv, dt = xp_case
    y, p, w, y3, P = data
    Pn = _proba(P, dt)
    for convention in ("per_example", "bigbench"):
        _close(
            multiple_choice_brier_score(conv(y3), conv(P), convention=convention),
            multiple_choice_brier_score(y3, Pn, convention=convention),
            dt,
        )
        _close(
            multiple_choice_brier_score(
                conv(y3), conv(P), convention=convention, sample_weight=conv(w)
            ),
            multiple_choice_brier_score(y3, Pn, convention=convention, sample_weight=w),
            dt,
        )
    logp = np.log(P)
    _close(
        multiple_choice_brier_score(conv(y3), conv(logp), from_logprobs=True),
        multiple_choice_brier_score(y3, _proba(logp, dt), from_logprobs=True),
        dt,
    )
    soft = np.eye(3)[y3] * 2.0 + 0.5
    _close(
        multiple_choice_brier_score(conv(soft), conv(P)),
        multiple_choice_brier_score(soft, Pn),
        dt,
    )


def test_net_benefit_and_decision_curve(xp_case, data):
    conv, dt = xp_case
    y, p, w, y3, P = data
    pn = _proba(p, dt)
    for t in (0.1, 0.3, 0.5):
        _close(
            net_benefit(conv(y), conv(p), threshold=t), net_benefit(y, pn, threshold=t), dt
        )
        _close(
            net_benefit(
                conv(y), conv(p), threshold=t, sample_weight=conv(w), prevalence=0.2
            ),
            net_benefit(y, pn, threshold=t, sample_weight=w, prevalence=0.2),
            dt,
        )
    t = [0.05, 0.1, 0.3, 0.5, 0.9]
    a = decision_curve(
        conv(y),
        {"m": conv(p), "r": conv(1 - p)},
        thresholds=t,
        sample_weight=conv(w),
        harm={"m": 0.01},
    )
    b = decision_curve(
        y,
        {"m": pn, "r": _proba(1 - p, dt)},
        thresholds=t,
        sample_weight=w,
        harm={"m": 0.01},
    )
    for name in ("m", "r"):
        _close(a.net_benefit[name], b.net_benefit[name], dt)
        _close(a.net_interventions_avoided[name], b.net_interventions_avoided[name], dt)
    _close(a.treat_all, b.treat_all, dt)
    # the bootstrap runs on the host (documented) and gives the numpy bands
    a = decision_curve(conv(y), conv(p), thresholds=t, n_resamples=20, random_state=0)
    b = decision_curve(y, pn, thresholds=t, n_resamples=20, random_state=0)
    _close(a.confidence_interval().low, b.confidence_interval().low, dt)


def test_binned_metrics(xp_case, data):
    conv, dt = xp_case
    y, p, w, y3, P = data
    pn, Pn = _proba(p, dt), _proba(P, dt)
    for norm in ("l1", "l2", "max"):
        for right in (True, False):
            _close(
                calibration_error(
                    conv(y),
                    conv(p),
                    norm=norm,
                    right=right,
                    sample_weight=conv(w),
                    kind="binary",
                    n_bins=10,
                ),
                calibration_error(
                    y, pn, norm=norm, right=right, sample_weight=w, kind="binary", n_bins=10
                ),
                dt,
            )
    # quantile bins run on the host
    _close(
        calibration_error(conv(y), conv(p), strategy="quantile", kind="binary", n_bins=10),
        calibration_error(y, pn, strategy="quantile", kind="binary", n_bins=10),
        dt,
    )
    for bc in (False, True):
        a = murphy_decomposition(
            conv(y), conv(p), sample_weight=conv(w), bias_correction=bc
        )
        b = murphy_decomposition(y, pn, sample_weight=w, bias_correction=bc)
        for f in (
            "brier_score",
            "reliability",
            "resolution",
            "uncertainty",
            "within_bin_variance",
            "within_bin_covariance",
        ):
            _close(getattr(a, f), getattr(b, f), dt)
        np.testing.assert_array_equal(a.bin_counts, b.bin_counts)
    a = murphy_decomposition(conv(y3), conv(P), n_bins=5)
    b = murphy_decomposition(y3, Pn, n_bins=5)
    for da, db in zip(a.per_class, b.per_class):
        _close(da.brier_score, db.brier_score, dt)
        _close(da.reliability, db.reliability, dt)


BAD = [
    (lambda y, p, w: ((y, p * 2), {}), "probabilities in [0, 1]"),
    (lambda y, p, w: ((y[:-1], p), {}), "samples"),
    (lambda y, p, w: ((y, p), {"sample_weight": -w - 1}), "non-negative"),
    (lambda y, p, w: ((y * 2 + np.arange(y.shape[0]) % 3, p), {}), "more than two classes"),
]


@pytest.mark.parametrize("case", range(len(BAD)))
def test_same_errors(xp_case, data, case):
    conv, dt = xp_case
    y, p, w, y3, P = data
    make, fragment = BAD[case]
    (yy, pp), kw = make(y, p, w)
    with pytest.raises(ValueError) as host:
        brier_score(yy, pp.astype(np.float32) if dt == "float32" else pp, **kw)
    kw_dev = {k: conv(v) for k, v in kw.items()}
    with pytest.raises(ValueError, match=re.escape(str(host.value))):
        brier_score(conv(yy), conv(pp), **kw_dev)
    assert fragment in str(host.value)


def test_nan_is_refused(xp_case, data):
    conv, dt = xp_case
    y, p, w, y3, P = data
    bad = p.copy()
    bad[3] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        brier_score(conv(y), conv(bad))
    with pytest.raises(ValueError, match="NaN"):
        calibration_error(conv(y), conv(bad), kind="binary", n_bins=10)


def test_rows_not_summing_to_one_warn(xp_case, data):
    conv, dt = xp_case
    y, p, w, y3, P = data
    with pytest.warns(UserWarning, match="do not sum to one"):
        brier_score(conv(y3), conv(P * 0.9))


def test_numpy_input_untouched_by_the_switch(data, monkeypatch):
    y, p, w, y3, P = data
    plain = brier_score(y, p), brier_score(y3, P, sample_weight=w)
    monkeypatch.setenv("SCIPY_ARRAY_API", "1")
    with sklearn.config_context(array_api_dispatch=True):
        assert (brier_score(y, p), brier_score(y3, P, sample_weight=w)) == plain


def test_without_the_switch_tensors_are_read_on_the_host(data):
    torch = pytest.importorskip("torch")
    y, p, w, y3, P = data
    assert brier_score(torch.tensor(y), torch.tensor(p)) == brier_score(y, p)


def test_scorer_with_an_estimator_returning_tensors(monkeypatch, data):
    torch = pytest.importorskip("torch")
    from sklearn.base import BaseEstimator, ClassifierMixin
    from sklearn.metrics import get_scorer

    import skbrier  # noqa: F401  (registers the scorer names)

    y, p, w, y3, P = data

    class TensorModel(ClassifierMixin, BaseEstimator):
        def fit(self, X, y):
            self.classes_ = np.array([0, 1])
            return self

        def predict_proba(self, X):
            q = torch.as_tensor(np.asarray(X)[:, 0])
            return torch.stack([1 - q, q], dim=1)

    X = p[:, None]
    est = TensorModel().fit(X, y)
    monkeypatch.setenv("SCIPY_ARRAY_API", "1")
    with sklearn.config_context(array_api_dispatch=True), warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        got = get_scorer("brier_index")(est, torch.as_tensor(X), torch.as_tensor(y))
    np.testing.assert_allclose(got, brier_index(y, p), rtol=1e-12)


def test_calibration_error_kinds(xp_case, data):

    conv, dt = xp_case
    y, p, w, y3, P = data
    pn, Pn = _proba(p, dt), _proba(P, dt)
    for norm in ("l1", "l2", "max"):
        _close(
            calibration_error(
                conv(y3), conv(P), kind="top_label", norm=norm, sample_weight=conv(w)
            ),
            calibration_error(y3, Pn, kind="top_label", norm=norm, sample_weight=w),
            dt,
        )
        _close(
            calibration_error(conv(y), conv(p), kind="binary", norm=norm),
            calibration_error(y, pn, kind="binary", norm=norm),
            dt,
        )
    # host paths: classwise, debiased, presets
    _close(
        calibration_error(conv(y3), conv(P), kind="classwise"),
        calibration_error(y3, Pn, kind="classwise"),
        dt,
    )
    _close(
        calibration_error(conv(y3), conv(P), binning="torchmetrics"),
        calibration_error(y3, Pn, binning="torchmetrics"),
        dt,
    )


def test_ranked_probability_score(xp_case, data):
    from skbrier import ranked_probability_score, ranked_probability_skill_score

    conv, dt = xp_case
    _, _, w, y3, P = data
    Pn = _proba(P, dt)
    order = [2, 0, 1]  # an order other than the sorted one
    for kw in ({}, {"labels": order}, {"normalize": True}):
        _close(
            ranked_probability_score(conv(y3), conv(P), **kw),
            ranked_probability_score(y3, Pn, **kw),
            dt,
        )
    _close(
        ranked_probability_score(conv(y3), conv(P), sample_weight=conv(w), labels=order),
        ranked_probability_score(y3, Pn, sample_weight=w, labels=order),
        dt,
    )
    ref = np.roll(P, 1, axis=0)
    _close(
        ranked_probability_skill_score(conv(y3), conv(P), reference=conv(ref)),
        ranked_probability_skill_score(y3, Pn, reference=_proba(ref, dt)),
        dt,
    )
    _close(
        ranked_probability_skill_score(conv(y3), conv(P), sample_weight=conv(w)),
        ranked_probability_skill_score(y3, Pn, sample_weight=w),
        dt,
    )
    _close(
        ranked_probability_skill_score(conv(y3), conv(P), reference=[0.2, 0.5, 0.3]),
        ranked_probability_skill_score(y3, Pn, reference=[0.2, 0.5, 0.3]),
        dt,
    )


def test_multilabel_indicator_is_scored_on_host_copies(xp_case):
    conv, dt = xp_case
    rng = np.random.default_rng(3)
    Y = rng.integers(0, 2, (60, 3))
    P = rng.random((60, 3))
    Pn = _proba(P, dt)
    _close(brier_score(conv(Y), conv(P)), brier_score(Y, Pn), dt)
    _close(brier_skill_score(conv(Y), conv(P)), brier_skill_score(Y, Pn), dt)
    _close(
        calibration_error(conv(Y), conv(P), kind="classwise", n_bins=4),
        calibration_error(Y, Pn, kind="classwise", n_bins=4),
        dt,
    )


def test_decision_curve_table_as_numpy(xp_case, data):
    # the device path builds the same result as the host (one builder): the
    # table's true/false positive rates and n are filled, not NaN
    conv, dt = xp_case
    y, p, w, y3, P = data
    t = [0.1, 0.3, 0.5]
    for weights in (None, w):
        a = decision_curve(
            conv(y), conv(p), thresholds=t,
            sample_weight=None if weights is None else conv(weights),
        )  # fmt: skip
        b = decision_curve(y, _proba(p, dt), thresholds=t, sample_weight=weights)
        fa, fb = a.to_frame(), b.to_frame()
        assert list(fa.columns) == list(fb.columns)
        for col in fb.columns:
            if fb[col].dtype.kind == "f":
                _close(fa[col].to_numpy(), fb[col].to_numpy(), dt)
            else:
                assert fa[col].tolist() == fb[col].tolist(), col


def test_float32_forecasts_keep_float64_weights(xp_case, data):
    # float64 weights of float32 forecasts are not cast to float32 (weights of
    # 1e200 were inf there: NaN scores, a calibration error of 0 and "no data")
    conv, dt = xp_case
    y, p, w, y3, P = data
    p32 = p.astype(np.float32)
    big = w * 1e200
    for weights in (big, w * 1e-200):
        wd = conv(weights, "float64")
        _close(
            brier_score(conv(y), conv(p32, "float32"), sample_weight=wd),
            brier_score(y, p32, sample_weight=weights),
            "float32",
        )
        _close(
            brier_skill_score(conv(y3), conv(P, "float32"), sample_weight=wd),
            brier_skill_score(y3, P.astype(np.float32), sample_weight=weights),
            "float32",
        )
        _close(
            calibration_error(
                conv(y), conv(p32, "float32"), sample_weight=wd, kind="binary", n_bins=5
            ),
            calibration_error(y, p32, sample_weight=weights, kind="binary", n_bins=5),
            "float32",
        )
        a = murphy_decomposition(conv(y), conv(p32, "float32"), sample_weight=wd, n_bins=5)
        b = murphy_decomposition(y, p32, sample_weight=weights, n_bins=5)
        _close(a.reliability, b.reliability, "float32")
        _close(
            multiple_choice_brier_score(conv(y3), conv(P, "float32"), sample_weight=wd),
            multiple_choice_brier_score(y3, P.astype(np.float32), sample_weight=weights),
            "float32",
        )


def test_column_reference_of_column_forecasts(xp_case, data):
    # an (n, 1) reference of (n, 1) forecasts is read as 1-D, as on the host
    # (it was broadcast against the 1-D forecasts: an (n, n) loss)
    conv, dt = xp_case
    y, p, w, y3, P = data
    ref = _proba(np.roll(p, 3), dt)[:, None]
    _close(
        brier_skill_score(conv(y), conv(p[:, None]), reference=conv(ref)),
        brier_skill_score(y, _proba(p, dt)[:, None], reference=ref),
        dt,
    )
    _close(
        brier_skill_score(conv(y), conv(p), reference=conv(ref), sample_weight=conv(w)),
        brier_skill_score(y, _proba(p, dt), reference=ref, sample_weight=w),
        dt,
    )


def test_string_choices_give_the_host_error(xp_case, data):
    conv, dt = xp_case
    _, _, _, y3, P = data
    gold = np.array(["a", "b", "c"])[y3]
    with pytest.raises(TypeError) as host:
        multiple_choice_brier_score(gold, P)
    with pytest.raises(TypeError, match=re.escape(str(host.value))):
        multiple_choice_brier_score(gold, conv(P))


def test_float_labels_without_data_dependent_shapes(monkeypatch, data):
    # float 0/1 labels are found on the host where the namespace has no
    # data-dependent shapes (unique_values raised RuntimeError)
    xps = pytest.importorskip("array_api_strict")
    y, p, w, y3, P = data
    monkeypatch.setenv("SCIPY_ARRAY_API", "1")
    flags = xps.ArrayAPIStrictFlags(data_dependent_shapes=False, boolean_indexing=False)
    with sklearn.config_context(array_api_dispatch=True), flags:
        yf, pf, wf = (xps.asarray(a) for a in (y.astype(float), p, w))
        got = (
            brier_score(yf, pf, sample_weight=wf),
            net_benefit(yf, pf, threshold=0.2),
            calibration_error(yf, pf, kind="binary", n_bins=5),
            murphy_decomposition(yf, pf, n_bins=5).reliability,
        )
    want = (
        brier_score(y, p, sample_weight=w),
        net_benefit(y, p, threshold=0.2),
        calibration_error(y, p, kind="binary", n_bins=5),
        murphy_decomposition(y, p, n_bins=5).reliability,
    )
    _close(got, want, "float64")


def test_half_precision_tensors_are_summed_wide(monkeypatch):
    # float16 sums overflow at 65504: 70,000 rows gave a Brier score of inf
    torch = pytest.importorskip("torch")
    n = 70_000
    y = np.ones(n, dtype=np.int64)
    y[0] = 0
    p = np.full(n, 0.25, dtype=np.float16)
    P = np.tile(np.array([[0.25, 0.75]], dtype=np.float16), (n, 1))
    monkeypatch.setenv("SCIPY_ARRAY_API", "1")
    with sklearn.config_context(array_api_dispatch=True):
        for dt in (torch.float16, torch.bfloat16):
            yt, pt = torch.tensor(y), torch.tensor(p.astype(np.float32)).to(dt)
            want = brier_score(y, pt.float().numpy().astype(np.float64))
            np.testing.assert_allclose(brier_score(yt, pt), want, rtol=1e-12)
            Pt = torch.tensor(P.astype(np.float32)).to(dt)
            want = multiple_choice_brier_score(y, Pt.float().numpy().astype(np.float64))
            np.testing.assert_allclose(
                multiple_choice_brier_score(yt, Pt), want, rtol=1e-12
            )


def test_tensors_that_require_grad(monkeypatch, data):
    # the host summaries of a tensor with a graph are read detached (DLPack
    # refused them: calibration_error and murphy_decomposition raised)
    torch = pytest.importorskip("torch")
    y, p, w, y3, P = data
    pg = torch.tensor(p, requires_grad=True)
    Pg = torch.tensor(P, requires_grad=True)
    monkeypatch.setenv("SCIPY_ARRAY_API", "1")
    with sklearn.config_context(array_api_dispatch=True):
        yt, wt = torch.tensor(y), torch.tensor(w)
        got = (
            calibration_error(yt, pg, kind="binary", n_bins=5, sample_weight=wt),
            murphy_decomposition(yt, pg, n_bins=5).reliability,
            calibration_error(torch.tensor(y3), Pg, n_bins=5),
            brier_score(yt, pg),
        )
    want = (
        calibration_error(y, p, kind="binary", n_bins=5, sample_weight=w),
        murphy_decomposition(y, p, n_bins=5).reliability,
        calibration_error(y3, P, n_bins=5),
        brier_score(y, p),
    )
    _close(got, want, "float64")


def test_options_given_as_arrays_of_the_namespace(xp_case, data):
    # labels, bin edges, thresholds and 0-d threshold/pos_label of the input's
    # namespace are read on the host (on another device they could not be; a
    # 0-d threshold was "not a real number")
    from skbrier import ranked_probability_score

    conv, dt = xp_case
    y, p, w, y3, P = data
    pn, Pn = _proba(p, dt), _proba(P, dt)
    edges = np.array([0.0, 0.3, 0.6, 1.0])
    _close(
        net_benefit(conv(y), conv(p), threshold=conv(np.float64(0.3), "float64")),
        net_benefit(y, pn, threshold=0.3),
        dt,
    )
    _close(
        brier_score(conv(y), conv(p), pos_label=conv(np.int64(0))),
        brier_score(y, pn, pos_label=0),
        dt,
    )
    _close(
        brier_score(conv(y3), conv(P), labels=conv(np.array([0, 1, 2]))),
        brier_score(y3, Pn, labels=[0, 1, 2]),
        dt,
    )
    _close(
        ranked_probability_score(conv(y3), conv(P), labels=conv(np.array([2, 1, 0]))),
        ranked_probability_score(y3, Pn, labels=[2, 1, 0]),
        dt,
    )
    _close(
        calibration_error(conv(y), conv(p), kind="binary", binning=conv(edges, "float64")),
        calibration_error(y, pn, kind="binary", binning=edges),
        dt,
    )
    _close(
        murphy_decomposition(conv(y), conv(p), strategy=conv(edges, "float64")).reliability,
        murphy_decomposition(y, pn, strategy=edges).reliability,
        dt,
    )
    t = np.array([0.1, 0.3])
    a = decision_curve(conv(y), conv(p), thresholds=conv(t, "float64"))
    b = decision_curve(y, pn, thresholds=t)
    _close(a.net_benefit, b.net_benefit, dt)


def test_the_host_errors_of_the_wrong_shape_come_first(xp_case, data):
    # the device checks ran before the shape the statistic needs: 1-D forecasts
    # of the ranked score with bad weights named the weights, 2-D forecasts of
    # the net benefit the classes; an unknown keyword lost the function's name
    from skbrier import ranked_probability_score

    conv, dt = xp_case
    y, p, w, y3, P = data
    bad_w = w.copy()
    bad_w[2] = np.nan
    calls = [
        (ranked_probability_score, (y3, p), {"sample_weight": bad_w}),
        (ranked_probability_score, (y3, p), {}),
        (net_benefit, (y3, P[:, :2]), {"threshold": 0.3}),
        (decision_curve, (y, np.c_[1 - p, p]), {"thresholds": [0.3]}),
        (ranked_probability_score, (y3, P), {"pos_label": 1}),
    ]
    for f, (a, b), kw in calls:
        with pytest.raises((ValueError, TypeError)) as host:
            f(a, b, **kw)
        dev_kw = {k: conv(v) if isinstance(v, np.ndarray) else v for k, v in kw.items()}
        with pytest.raises(type(host.value), match=f"^{re.escape(str(host.value))}$"):
            f(conv(a), conv(b), **dev_kw)


def test_large_float32_weights_are_summed_wide(xp_case, data):
    # float32 weights of 1e37 summed to inf in float32 (NaN scores); the
    # host sums them in float64
    from skbrier import ranked_probability_score

    conv, dt = xp_case
    y, p, w, y3, P = data
    w32 = ((w + 0.5) * 1e37).astype(np.float32)
    pn, Pn = _proba(p, dt), _proba(P, dt)
    wd = conv(w32, "float32")
    cases = [(brier_score, y, p, pn), (brier_score, y3, P, Pn)]
    cases.append((ranked_probability_score, y3, P, Pn))
    for f, labels, proba, host in cases:
        got = f(conv(labels), conv(proba), sample_weight=wd)
        _close(got, f(labels, host, sample_weight=w32), dt)
