"""Tests of skbrier.decomposition.BrierDecomposition (the estimator/reporter)."""

from __future__ import annotations

import functools
import itertools
import pickle

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.exceptions import NotFittedError
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import brier_score_loss
from sklearn.utils.validation import check_is_fitted

from skbrier.decomposition import BrierDecomposition
from skbrier.metrics.brier import brier_index, brier_score
from skbrier.metrics.decomposition import murphy_decomposition

Y6 = np.array([0, 0, 0, 1, 1, 1])
P6 = np.array([0.4, 0.3, 0.2, 0.1, 0.5, 0.9])
# model-diagnostics' own test fixture (CORP decomposition of the Brier score)
MD_MCB, MD_DSC, MD_UNC = 0.1016667, 0.125, 0.25


def _binary_data(n=2000, seed=0, ties=True, weights=True):
    rng = np.random.default_rng(seed)
    p = rng.beta(2, 3, size=n)
    if ties:
        p = np.round(p, 2)
    y = (rng.uniform(size=n) < np.clip(1.2 * p - 0.05, 0, 1)).astype(int)
    w = rng.uniform(0.2, 3.0, size=n) if weights else None
    return y, p, w


def _multiclass_data(n=1500, k=4, seed=1):
    rng = np.random.default_rng(seed)
    proba = rng.dirichlet(np.ones(k), size=n)
    y = np.array([rng.choice(k, p=row) for row in proba])
    return y, proba


# --------------------------------------------------------------------------
# scikit-learn conventions
# --------------------------------------------------------------------------


def test_repr_get_set_params_clone():
    est = BrierDecomposition()
    assert repr(est) == "BrierDecomposition()"
    est2 = BrierDecomposition("murphy", n_bins=5, strategy="quantile")
    assert (
        repr(est2) == "BrierDecomposition(decomposition_method='murphy', n_bins=5, "
        "strategy='quantile')"
    )
    params = est2.get_params()
    assert params["decomposition_method"] == "murphy" and params["n_bins"] == 5
    assert set(params) == {
        "decomposition_method",
        "n_bins",
        "strategy",
        "n_resamples",
        "confidence_level",
        "bias_correction",
        "pos_label",
        "labels",
        "random_state",
        "n_jobs",
    }
    assert est.set_params(n_bins=7, decomposition_method="murphy") is est
    assert est.n_bins == 7
    cl = clone(est2)
    assert cl is not est2 and cl.get_params() == est2.get_params()
    with pytest.raises(ValueError, match="Invalid parameter"):
        est.set_params(bins=3)


def test_clone_of_fitted_is_unfitted_and_fit_returns_self():
    est = BrierDecomposition("murphy")
    assert est.fit(Y6, P6) is est
    assert hasattr(est, "brier_score_")
    cl = clone(est)
    assert not hasattr(cl, "brier_score_")
    with pytest.raises(NotFittedError):
        cl.summary()


@pytest.mark.parametrize("call", ["summary", "to_frame", "plot"])
def test_not_fitted_errors(call):
    with pytest.raises(NotFittedError):
        getattr(BrierDecomposition(), call)()


def test_merge_not_fitted():
    # two estimators without rows merge to one without rows (neutral in a tree
    # of merges: it raised NotFittedError), still not fitted
    merged = BrierDecomposition("murphy").merge(BrierDecomposition("murphy"))
    with pytest.raises(NotFittedError):
        check_is_fitted(merged)


def test_pickle_roundtrip():
    est = BrierDecomposition("murphy").fit(Y6, P6)
    est2 = pickle.loads(pickle.dumps(est))
    assert est2.brier_score_ == est.brier_score_
    assert est2.partial_fit(Y6, P6).n_samples_seen_ == 12


# --------------------------------------------------------------------------
# binned method: equal to the metric function and to outside references
# --------------------------------------------------------------------------


@pytest.mark.parametrize("strategy", ["uniform", "quantile", [0, 0.25, 0.5, 0.75, 1.0]])
@pytest.mark.parametrize("bias_correction", [False, True])
def test_binned_equals_metric_function(strategy, bias_correction):
    y, p, w = _binary_data()
    est = BrierDecomposition(
        "murphy", n_bins=8, strategy=strategy, bias_correction=bias_correction
    ).fit(y, p, sample_weight=w)
    ref = murphy_decomposition(
        y, p, n_bins=8, strategy=strategy, sample_weight=w, bias_correction=bias_correction
    )
    assert est.brier_score_ == pytest.approx(ref.brier_score, abs=1e-15)
    assert est.miscalibration_ == pytest.approx(ref.reliability, abs=1e-15)
    assert est.discrimination_ == pytest.approx(ref.resolution, abs=1e-15)
    assert est.uncertainty_ == pytest.approx(ref.uncertainty, abs=1e-15)
    assert est.within_bin_variance_ == pytest.approx(ref.within_bin_variance, abs=1e-15)
    assert est.within_bin_covariance_ == pytest.approx(ref.within_bin_covariance, abs=1e-15)
    np.testing.assert_array_equal(est.table_["count"], ref.bin_counts)
    np.testing.assert_allclose(est.table_["mean_forecast"], ref.bin_mean_forecast)
    assert isinstance(est.brier_score_, float)
    assert est.n_samples_seen_ == y.shape[0]


def test_binned_identity_and_references():
    y, p, w = _binary_data(seed=3)
    est = BrierDecomposition("murphy", n_bins=10).fit(y, p, sample_weight=w)
    # the SCJ identity, and the Brier score of scikit-learn
    total = (
        est.miscalibration_
        - est.discrimination_
        + est.uncertainty_
        + est.within_bin_variance_
        - est.within_bin_covariance_
    )
    assert total == pytest.approx(est.brier_score_, abs=1e-12)
    assert est.brier_score_ == pytest.approx(
        brier_score_loss(y, p, sample_weight=w), abs=1e-12
    )
    assert est.brier_index_ == pytest.approx(brier_index(y, p, sample_weight=w), abs=1e-10)
    assert est.confidence_intervals_ is None
    assert est.classes_ is None and est.per_class_ is None


def test_binned_classic_murphy_on_distinct_values():
    # bins around each distinct forecast value: within-bin terms vanish and
    # REL, RES are Murphy's (1973) sums computed here by hand
    y, p, w = _binary_data(n=500, seed=5)
    p = np.round(p, 1)
    vals = np.unique(p)
    mids = (vals[:-1] + vals[1:]) / 2
    edges = np.concatenate([[0.0], mids, [1.0]])
    est = BrierDecomposition("murphy", strategy=edges).fit(y, p, sample_weight=w)
    assert est.within_bin_variance_ == pytest.approx(0.0, abs=1e-15)
    assert est.within_bin_covariance_ == pytest.approx(0.0, abs=1e-15)
    W = w.sum()
    obar = np.dot(w, y) / W
    rel = res = 0.0
    for v in vals:
        m = p == v
        wk = w[m].sum()
        ok = np.dot(w[m], y[m]) / wk
        rel += wk * (v - ok) ** 2 / W
        res += wk * (ok - obar) ** 2 / W
    assert est.miscalibration_ == pytest.approx(rel, abs=1e-14)
    assert est.discrimination_ == pytest.approx(res, abs=1e-14)
    assert est.uncertainty_ == pytest.approx(obar * (1 - obar), abs=1e-14)
    assert est.miscalibration_ - est.discrimination_ + est.uncertainty_ == pytest.approx(
        brier_score_loss(y, p, sample_weight=w), abs=1e-12
    )


def test_binned_multiclass_one_vs_rest():
    y, proba = _multiclass_data()
    est = BrierDecomposition("murphy", n_bins=6).fit(y, proba)
    assert est.brier_score_ == pytest.approx(
        brier_score_loss(y, proba, scale_by_half=False), abs=1e-12
    )
    assert est.brier_index_ == pytest.approx(brier_index(y, proba), abs=1e-10)
    np.testing.assert_array_equal(est.classes_, [0, 1, 2, 3])
    for k in range(4):
        ref = murphy_decomposition((y == k).astype(int), proba[:, k], n_bins=6)
        assert est.per_class_["miscalibration"][k] == pytest.approx(
            ref.reliability, abs=1e-15
        )
        assert est.per_class_["discrimination"][k] == pytest.approx(
            ref.resolution, abs=1e-15
        )
        assert est.per_class_["uncertainty"][k] == pytest.approx(ref.uncertainty, abs=1e-15)
    assert est.miscalibration_ == pytest.approx(est.per_class_["miscalibration"].sum())
    assert est.table_["class"].shape == (24,)
    text = est.summary()
    assert "4 classes" in text and "per class" in text


def test_two_column_input_is_binary():
    y, p, w = _binary_data(n=300)
    proba = np.column_stack([1 - p, p])
    a = BrierDecomposition("murphy").fit(y, proba, sample_weight=w)
    b = BrierDecomposition("murphy").fit(y, p, sample_weight=w)
    assert a.brier_score_ == pytest.approx(b.brier_score_, abs=1e-15)
    assert a.classes_ is None
    # pos_label selects the column of a two-column input
    c = BrierDecomposition("murphy", pos_label=0).fit(y, proba, sample_weight=w)
    d = BrierDecomposition("murphy").fit(1 - y, 1 - p, sample_weight=w)
    assert c.brier_score_ == pytest.approx(d.brier_score_, abs=1e-15)
    assert c.miscalibration_ == pytest.approx(d.miscalibration_, abs=1e-15)


def test_string_labels_need_pos_label():
    y = np.array(["no", "no", "yes", "yes"])
    p = [0.2, 0.4, 0.6, 0.9]
    with pytest.raises(ValueError, match="pos_label"):
        BrierDecomposition("murphy").fit(y, p)
    est = BrierDecomposition("murphy", pos_label="yes").fit(y, p)
    assert est.brier_score_ == pytest.approx(brier_score(y, p, pos_label="yes"))


# --------------------------------------------------------------------------
# partial_fit / merge: exact chunking
# --------------------------------------------------------------------------


def _assert_same(a, b, tol=1e-12):
    for name in (
        "brier_score_",
        "miscalibration_",
        "discrimination_",
        "uncertainty_",
        "within_bin_variance_",
        "within_bin_covariance_",
        "brier_index_",
    ):
        assert getattr(a, name) == pytest.approx(getattr(b, name), abs=tol), name
    assert a.n_samples_seen_ == b.n_samples_seen_
    for key in a.table_:
        np.testing.assert_allclose(a.table_[key], b.table_[key], rtol=1e-12, atol=tol)


@pytest.mark.parametrize("bias_correction", [False, True])
@pytest.mark.parametrize("weights", [False, True])
def test_partial_fit_equals_fit(bias_correction, weights):
    y, p, w = _binary_data(n=5000, seed=11, weights=weights)
    one = BrierDecomposition("murphy", n_bins=12, bias_correction=bias_correction)
    one.fit(y, p, sample_weight=w)
    chunked = BrierDecomposition("murphy", n_bins=12, bias_correction=bias_correction)
    cuts = [0, 7, 1000, 1001, 3333, 5000]
    for a, b in itertools.pairwise(cuts):
        chunked.partial_fit(y[a:b], p[a:b], sample_weight=None if w is None else w[a:b])
    _assert_same(chunked, one)


def test_partial_fit_explicit_edges_and_after_fit():
    y, p, w = _binary_data(n=1000, seed=2)
    edges = [0.0, 0.1, 0.3, 0.5, 0.8, 1.0]
    one = BrierDecomposition("murphy", strategy=edges).fit(y, p, sample_weight=w)
    two = BrierDecomposition("murphy", strategy=edges).fit(y[:400], p[:400], w[:400])
    two.partial_fit(y[400:], p[400:], w[400:])  # partial_fit continues a fit
    _assert_same(two, one)


def test_partial_fit_multiclass_needs_classes():
    y, proba = _multiclass_data(n=900, k=3)
    one = BrierDecomposition("murphy").fit(y, proba)
    with pytest.raises(ValueError, match="classes"):
        BrierDecomposition("murphy").partial_fit(y[:10], proba[:10])
    est = BrierDecomposition("murphy")
    # the first chunk holds only classes 0 and 1
    first = np.flatnonzero(y != 2)[:50]
    rest = np.setdiff1d(np.arange(y.shape[0]), first)
    est.partial_fit(y[first], proba[first], classes=[0, 1, 2])
    est.partial_fit(y[rest], proba[rest])
    _assert_same(est, one)
    for key in ("miscalibration", "discrimination", "uncertainty"):
        np.testing.assert_allclose(est.per_class_[key], one.per_class_[key], atol=1e-12)
    with pytest.raises(ValueError, match="classes"):
        est.partial_fit(y[:5], proba[:5], classes=[0, 1, 5])
    # a first chunk of one class names partial_fit's own option (said labels=)
    with pytest.raises(ValueError, match=r"Pass classes= to name every class"):
        BrierDecomposition("murphy").partial_fit([1, 1], [[0.2, 0.8], [0.4, 0.6]])
    via_labels = BrierDecomposition("murphy", labels=[0, 1, 2])
    via_labels.partial_fit(y[first], proba[first]).partial_fit(y[rest], proba[rest])
    _assert_same(via_labels, one)
    with pytest.raises(ValueError, match="column"):
        est.partial_fit([0, 1], [0.2, 0.4])


def test_partial_fit_pos_label_rules():
    est = BrierDecomposition("murphy")
    est.partial_fit([1, 1], [0.7, 0.8]).partial_fit([-1, 1], [0.1, 0.6])
    with pytest.raises(ValueError, match="pos_label"):
        BrierDecomposition("murphy").partial_fit([2, 5, 5], [0.2, 0.5, 0.6])
    with pytest.raises(ValueError, match="pos_label"):
        BrierDecomposition("murphy").partial_fit(["a", "b"], [0.2, 0.5])
    a = BrierDecomposition("murphy", pos_label=5).partial_fit([2, 2], [0.2, 0.3])
    a.partial_fit([5, 5, 2], [0.6, 0.8, 0.1])
    ref = BrierDecomposition("murphy", pos_label=5).fit(
        [2, 2, 5, 5, 2], [0.2, 0.3, 0.6, 0.8, 0.1]
    )
    _assert_same(a, ref)


def test_partial_fit_rejects_corp_and_quantile():
    with pytest.raises(ValueError, match="decomposition_method='murphy'"):
        BrierDecomposition("corp").partial_fit(Y6, P6)
    with pytest.raises(ValueError, match="strategy='quantile'"):
        BrierDecomposition("murphy", strategy="quantile").partial_fit(Y6, P6)
    # a quantile fit cannot be continued or merged either
    q = BrierDecomposition("murphy", strategy="quantile").fit(Y6, P6)
    with pytest.raises(ValueError, match="mergeable"):
        q.merge(BrierDecomposition("murphy").fit(Y6, P6))


def test_partial_fit_outside_explicit_edges():
    est = BrierDecomposition("murphy", strategy=[0.2, 0.5, 0.9])
    with pytest.raises(ValueError, match="edges"):
        est.partial_fit([0, 1], [0.1, 0.6])
    with pytest.raises(ValueError, match="strategy"):
        BrierDecomposition("murphy", strategy=[0.5, 0.2, 0.9]).partial_fit(
            [0, 1], [0.3, 0.6]
        )


def test_merge_in_any_order():
    y, p, w = _binary_data(n=3000, seed=4)
    one = BrierDecomposition("murphy", n_bins=15).fit(y, p, sample_weight=w)
    parts = np.array_split(np.arange(3000), 5)
    fitted = [
        BrierDecomposition("murphy", n_bins=15).partial_fit(y[i], p[i], w[i]) for i in parts
    ]
    merged = functools.reduce(BrierDecomposition.merge, fitted[::-1])
    _assert_same(merged, one)
    with pytest.raises(TypeError, match="other"):
        merged.merge("not an estimator")
    with pytest.raises(ValueError, match="bias_correction"):
        merged.merge(
            BrierDecomposition("murphy", n_bins=15, bias_correction=True).fit(y, p)
        )
    with pytest.raises(ValueError, match="edges"):
        merged.merge(BrierDecomposition("murphy", n_bins=7).fit(y, p))


def test_dask_chunked_equals_fit():
    dask = pytest.importorskip("dask")
    da = pytest.importorskip("dask.array")
    y, p, w = _binary_data(n=20000, seed=8)
    one = BrierDecomposition("murphy", n_bins=20).fit(y, p, sample_weight=w)

    yd = da.from_array(y, chunks=3000)
    pd_ = da.from_array(p, chunks=3000)
    wd = da.from_array(w, chunks=3000)

    @dask.delayed
    def fit_part(yc, pc, wc):
        return BrierDecomposition("murphy", n_bins=20).partial_fit(yc, pc, sample_weight=wc)

    parts = [
        fit_part(a, b, c)
        for a, b, c in zip(
            yd.to_delayed().ravel(), pd_.to_delayed().ravel(), wd.to_delayed().ravel()
        )
    ]
    total = dask.delayed(functools.reduce)(BrierDecomposition.merge, parts)
    dec = total.compute(scheduler="threads")
    _assert_same(dec, one)


def test_dask_array_with_local_cluster():
    da = pytest.importorskip("dask.array")
    distributed = pytest.importorskip("dask.distributed")
    import dask

    y, p, w = _binary_data(n=12000, seed=10)
    one = BrierDecomposition("murphy", n_bins=20).fit(y, p, sample_weight=w)
    chunks = [da.from_array(a, chunks=2500).to_delayed().ravel() for a in (y, p, w)]
    fit_part = dask.delayed(
        lambda yc, pc, wc: BrierDecomposition("murphy", n_bins=20).partial_fit(yc, pc, wc)
    )
    parts = [fit_part(*c) for c in zip(*chunks)]
    # tree reduction: merge pairs until one is left
    while len(parts) > 1:
        parts = [
            dask.delayed(BrierDecomposition.merge)(parts[i], parts[i + 1])
            if i + 1 < len(parts)
            else parts[i]
            for i in range(0, len(parts), 2)
        ]
    with (
        distributed.LocalCluster(
            processes=False, n_workers=1, threads_per_worker=2, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster),
    ):
        dec = parts[0].compute()
    _assert_same(dec, one)


def test_dask_dataframe_recipe_with_local_cluster():
    dd = pytest.importorskip("dask.dataframe")
    distributed = pytest.importorskip("dask.distributed")
    import dask
    import pandas as pd

    y, p, w = _binary_data(n=8000, seed=9)
    df = pd.DataFrame({"y": y, "p": p, "w": w})
    ddf = dd.from_pandas(df, npartitions=4)
    one = BrierDecomposition("murphy", n_bins=20).fit(y, p, sample_weight=w)

    @dask.delayed
    def fit_part(part):
        return BrierDecomposition("murphy", n_bins=20).partial_fit(
            part["y"], part["p"], sample_weight=part["w"]
        )

    with (
        distributed.LocalCluster(
            processes=False, n_workers=1, threads_per_worker=2, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster),
    ):
        dec = dask.delayed(functools.reduce)(
            BrierDecomposition.merge, [fit_part(d) for d in ddf.to_delayed()]
        ).compute()
    _assert_same(dec, one)


# --------------------------------------------------------------------------
# reports
# --------------------------------------------------------------------------


def test_summary_and_to_frame_binned():
    pd = pytest.importorskip("pandas")
    est = BrierDecomposition("murphy", n_bins=5).fit(Y6, P6)
    text = est.summary()
    assert "REL - RES + UNC + WBV - WBC" in text
    assert "0.226667" in text and "Brier Index 52.39" in text
    frame = est.to_frame()
    assert isinstance(frame, pd.DataFrame) and frame.shape[0] == 1
    assert frame["brier_score"].iloc[0] == pytest.approx(est.brier_score_)
    table = est.to_frame("table")
    assert list(table.columns) == [
        "lower",
        "upper",
        "count",
        "weight",
        "mean_forecast",
        "observed_frequency",
        "observed_low",
        "observed_high",
    ]
    ok = table["count"] > 0
    assert (table["observed_low"][ok] <= table["observed_frequency"][ok]).all()
    assert (table["observed_frequency"][ok] <= table["observed_high"][ok]).all()
    assert table["observed_low"][~ok].isna().all()
    with pytest.raises(ValueError, match="what"):
        est.to_frame("bins")


# --------------------------------------------------------------------------
# constructors
# --------------------------------------------------------------------------


def test_from_predictions():
    est = BrierDecomposition.from_predictions(
        Y6, P6, decomposition_method="murphy", n_bins=5
    )
    ref = BrierDecomposition("murphy", n_bins=5).fit(Y6, P6)
    assert est.get_params() == ref.get_params()
    assert est.brier_score_ == ref.brier_score_


def test_from_estimator_binary_and_multiclass():
    from sklearn.datasets import load_iris

    X, y = load_iris(return_X_y=True)
    names = np.array(["setosa", "versicolor", "virginica"])[y]
    clf = LogisticRegression(max_iter=2000).fit(X, names)
    est = BrierDecomposition.from_estimator(clf, X, names, decomposition_method="murphy")
    proba = clf.predict_proba(X)
    assert est.brier_score_ == pytest.approx(
        brier_score_loss(names, proba, scale_by_half=False), abs=1e-12
    )
    np.testing.assert_array_equal(est.classes_, clf.classes_)

    yb = names == "virginica"
    clf2 = LogisticRegression(max_iter=2000).fit(X, np.where(yb, "pos", "neg"))
    lab = np.where(yb, "pos", "neg")
    est2 = BrierDecomposition.from_estimator(clf2, X, lab, decomposition_method="murphy")
    assert est2.pos_label == "pos"
    assert est2.brier_score_ == pytest.approx(
        brier_score_loss(lab, clf2.predict_proba(X)[:, 1], pos_label="pos"), abs=1e-12
    )
    est3 = BrierDecomposition.from_estimator(
        clf2, X, lab, decomposition_method="murphy", pos_label="neg"
    )
    assert est3.brier_score_ == pytest.approx(est2.brier_score_, abs=1e-12)
    with pytest.raises(ValueError, match="pos_label"):
        BrierDecomposition.from_estimator(clf2, X, lab, pos_label="maybe")
    with pytest.raises(NotFittedError):
        BrierDecomposition.from_estimator(LogisticRegression(), X, lab)
    from sklearn.linear_model import LinearRegression

    with pytest.raises(TypeError, match="predict_proba"):
        BrierDecomposition.from_estimator(LinearRegression().fit(X, yb), X, yb)


# --------------------------------------------------------------------------
# bad input and bad parameters
# --------------------------------------------------------------------------


@pytest.mark.parametrize("method", ["corp", "murphy"])
@pytest.mark.parametrize(
    "y, p, w, exc, match",
    [
        ([0, 1, 1], [0.2, np.nan, 0.3], None, ValueError, "y_proba"),
        ([0, 1, 1], [0.2, 1.3, 0.3], None, ValueError, "y_proba"),
        ([0, 1, 1], [0.2, np.inf, 0.3], None, ValueError, "y_proba"),
        ([0, 1], [0.2, 0.5, 0.3], None, ValueError, "y_true"),
        ([], [], None, ValueError, "empty"),
        ([0, 1, 1], [0.2, 0.5, 0.3], [1, -1, 1], ValueError, "sample_weight"),
        ([0, 1, 1], [0.2, 0.5, 0.3], [1, 1], ValueError, "sample_weight"),
        ([0, 1, 1], [0.2, 0.5, 0.3], [0, 0, 0], ValueError, "sample_weight"),
        ([0, 1, 1], ["a", "b", "c"], None, TypeError, "y_proba"),
        ([0, 1, 2], [0.2, 0.5, 0.3], None, ValueError, "y_true"),
    ],
)
def test_bad_input(method, y, p, w, exc, match):
    with pytest.raises(exc, match=match):
        BrierDecomposition(method).fit(y, p, sample_weight=w)


@pytest.mark.parametrize(
    "params, exc, match",
    [
        ({"decomposition_method": "isotonic"}, ValueError, "decomposition_method"),
        ({"n_bins": 0}, ValueError, "n_bins"),
        ({"n_bins": 2.5}, TypeError, "n_bins"),
        ({"strategy": "kmeans"}, ValueError, "strategy"),
        ({"n_resamples": -1}, ValueError, "n_resamples"),
        ({"n_resamples": 1.5}, TypeError, "n_resamples"),
        ({"confidence_level": 1.0}, ValueError, "confidence_level"),
        ({"confidence_level": "95%"}, TypeError, "confidence_level"),
        ({"bias_correction": "yes"}, TypeError, "bias_correction"),
        ({"n_jobs": 1.5}, TypeError, "n_jobs"),
    ],
)
def test_bad_params(params, exc, match):
    with pytest.raises(exc, match=match):
        BrierDecomposition(**params).fit(Y6, P6)


# --------------------------------------------------------------------------
# CORP method: model-diagnostics' fixture and its decompose(), the metric function
# --------------------------------------------------------------------------


def test_corp_model_diagnostics_fixture():
    est = BrierDecomposition().fit(Y6, P6)
    assert est.miscalibration_ == pytest.approx(MD_MCB, abs=1e-7)
    assert est.discrimination_ == pytest.approx(MD_DSC, abs=1e-12)
    assert est.uncertainty_ == pytest.approx(MD_UNC, abs=1e-12)
    assert est.brier_score_ == pytest.approx(brier_score_loss(Y6, P6), abs=1e-15)
    assert est.brier_index_ == pytest.approx(brier_index(Y6, P6), abs=1e-12)
    np.testing.assert_allclose(est.table_["recalibrated"], [0.25, 0.25, 0.25, 0.25, 1, 1])
    assert not hasattr(est, "within_bin_variance_")
    assert est.confidence_intervals_ is None and est.miscalibration_pvalue_ is None


@pytest.mark.parametrize("weights", [False, True])
def test_corp_equals_model_diagnostics_decompose(weights):
    md = pytest.importorskip("model_diagnostics.scoring")
    y, p, w = _binary_data(n=3000, seed=21, ties=True, weights=weights)
    est = BrierDecomposition().fit(y, p, sample_weight=w)
    ref = md.decompose(y, p, weights=w, scoring_function=md.SquaredError())
    assert est.miscalibration_ == pytest.approx(ref["miscalibration"][0], abs=1e-10)
    assert est.discrimination_ == pytest.approx(ref["discrimination"][0], abs=1e-10)
    assert est.uncertainty_ == pytest.approx(ref["uncertainty"][0], abs=1e-10)
    assert est.brier_score_ == pytest.approx(ref["score"][0], abs=1e-10)


def test_corp_with_resampling_equals_metric_function():
    from skbrier.metrics.decomposition import corp_decomposition

    y, p, w = _binary_data(n=800, seed=6)
    est = BrierDecomposition(n_resamples=60, random_state=3).fit(y, p, sample_weight=w)
    ref = corp_decomposition(y, p, sample_weight=w, n_resamples=60, random_state=3)
    assert est.miscalibration_ == ref.miscalibration
    assert est.miscalibration_pvalue_ == ref.miscalibration_pvalue
    for key in ("brier_score", "miscalibration", "discrimination", "uncertainty"):
        assert est.confidence_intervals_[key] == pytest.approx(
            tuple(ref.confidence_interval(metric=key)), abs=0
        )
        lo, hi = est.confidence_intervals_[key]
        assert lo <= hi
    np.testing.assert_array_equal(est.table_["forecast"], ref.forecast_values)
    assert np.isfinite(est.table_["band_lower"]).sum() == ref.band_lower.shape[0]
    # reproducible with the same seed
    again = BrierDecomposition(n_resamples=60, random_state=3).fit(y, p, sample_weight=w)
    assert again.confidence_intervals_ == est.confidence_intervals_
    text = est.summary()
    assert "95% CI" in text and "calibration test" in text
    frame = est.to_frame()
    assert "miscalibration_low" in frame.columns


def test_corp_multiclass_equals_metric_function():
    from skbrier.metrics.decomposition import corp_decomposition

    y, proba = _multiclass_data(n=600, k=3)
    est = BrierDecomposition(n_resamples=20, random_state=0).fit(y, proba)
    ref = corp_decomposition(y, proba, n_resamples=20, random_state=0)
    assert est.brier_score_ == pytest.approx(
        brier_score_loss(y, proba, scale_by_half=False), abs=1e-12
    )
    for k, d in enumerate(ref.per_class):
        assert est.per_class_["miscalibration"][k] == pytest.approx(
            d.miscalibration, abs=1e-15
        )
        assert est.per_class_["discrimination"][k] == pytest.approx(
            d.discrimination, abs=1e-15
        )
    assert est.miscalibration_ == pytest.approx(ref.miscalibration, abs=1e-14)
    assert set(est.confidence_intervals_) == {"0", "1", "2"}
    frame = est.to_frame()
    assert frame.shape[0] == 3 and "discrimination_high" in frame.columns
    assert est.to_frame("table")["class"].nunique() == 3


def test_corp_and_binned_agree_on_few_distinct_values():
    # with bins isolating each distinct value, REL/RES equal CORP's MCB/DSC
    # when the observed frequencies are already monotone in the forecast
    p = np.repeat([0.1, 0.3, 0.6, 0.8], 50)
    y = np.concatenate(
        [
            np.r_[np.ones(6), np.zeros(44)],
            np.r_[np.ones(14), np.zeros(36)],
            np.r_[np.ones(32), np.zeros(18)],
            np.r_[np.ones(41), np.zeros(9)],
        ]
    )
    corp = BrierDecomposition().fit(y, p)
    binned = BrierDecomposition("murphy", strategy=[0, 0.2, 0.5, 0.7, 1]).fit(y, p)
    assert corp.miscalibration_ == pytest.approx(binned.miscalibration_, abs=1e-14)
    assert corp.discrimination_ == pytest.approx(binned.discrimination_, abs=1e-14)


# --------------------------------------------------------------------------
# property-based invariances
# --------------------------------------------------------------------------

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import given, settings
from hypothesis import strategies as st


@st.composite
def _forecasts(draw, min_size=2, max_size=60):
    n = draw(st.integers(min_size, max_size))
    # coarse grid: many ties, as in real forecasts
    p = np.array(draw(st.lists(st.integers(0, 20), min_size=n, max_size=n))) / 20
    y = np.array(draw(st.lists(st.integers(0, 1), min_size=n, max_size=n)))
    w = np.array(draw(st.lists(st.integers(1, 4), min_size=n, max_size=n)), dtype=float)
    return y, p, w


@settings(max_examples=40, deadline=None)
@given(data=_forecasts(), cuts=st.lists(st.floats(0, 1), max_size=4))
def test_property_partial_fit_any_split_equals_fit(data, cuts):
    y, p, w = data
    one = BrierDecomposition("murphy", n_bins=7).fit(y, p, sample_weight=w)
    bounds = sorted({0, y.shape[0], *(int(c * y.shape[0]) for c in cuts)})
    est = BrierDecomposition("murphy", n_bins=7)
    for a, b in itertools.pairwise(bounds):
        if b > a:
            est.partial_fit(y[a:b], p[a:b], sample_weight=w[a:b])
    _assert_same(est, one)


@settings(max_examples=40, deadline=None)
@given(data=_forecasts(), seed=st.integers(0, 2**16))
@pytest.mark.parametrize("method", ["corp", "murphy"])
def test_property_order_and_repeated_rows(method, data, seed):
    y, p, w = data
    est = BrierDecomposition(method, n_bins=5).fit(y, p, sample_weight=w)
    perm = np.random.default_rng(seed).permutation(y.shape[0])
    shuffled = BrierDecomposition(method, n_bins=5).fit(
        y[perm], p[perm], sample_weight=w[perm]
    )
    reps = w.astype(int)
    repeated = BrierDecomposition(method, n_bins=5).fit(
        np.repeat(y, reps), np.repeat(p, reps)
    )
    for other in (shuffled, repeated):
        for name in ("brier_score_", "miscalibration_", "discrimination_", "uncertainty_"):
            assert getattr(other, name) == pytest.approx(getattr(est, name), abs=1e-12)
    total = est.miscalibration_ - est.discrimination_ + est.uncertainty_
    if method == "murphy":
        total += est.within_bin_variance_ - est.within_bin_covariance_
    assert total == pytest.approx(est.brier_score_, abs=1e-12)
    assert est.miscalibration_ >= -1e-15 and est.discrimination_ >= -1e-15


def test_binned_bootstrap_intervals():
    y, p, w = _binary_data(n=1500, seed=30)
    est = BrierDecomposition("murphy", n_resamples=200, random_state=0).fit(y, p, w)
    ci = est.confidence_intervals_
    assert set(ci) == {
        "brier_score",
        "miscalibration",
        "discrimination",
        "uncertainty",
        "within_bin_variance",
        "within_bin_covariance",
    }
    for key in ("brier_score", "discrimination", "uncertainty"):
        lo, hi = ci[key]
        assert lo < getattr(est, key + "_") < hi
    # the Brier score interval is close to a normal-theory interval of the mean
    # (frequency weights: the total weight is the sample size)
    sq = (p - y) ** 2
    m = np.dot(w, sq) / w.sum()
    se = np.sqrt(np.sum(w * (sq - m) ** 2)) / w.sum()
    assert ci["brier_score"][1] - ci["brier_score"][0] == pytest.approx(
        2 * 1.96 * se, rel=0.2
    )
    # reproducible and independent of n_jobs
    again = BrierDecomposition("murphy", n_resamples=200, random_state=0).fit(y, p, w)
    assert again.confidence_intervals_ == ci
    small = BrierDecomposition("murphy", n_resamples=8, random_state=0).fit(y, p, w)
    par = BrierDecomposition("murphy", n_resamples=8, random_state=0, n_jobs=2).fit(y, p, w)
    assert par.confidence_intervals_ == small.confidence_intervals_
    assert "95% CI" in est.summary()
    # chunked fits carry no intervals
    assert est.partial_fit(y[:10], p[:10], w[:10]).confidence_intervals_ is None


def test_binned_bootstrap_multiclass_and_quantile():
    y, proba = _multiclass_data(n=500, k=3)
    est = BrierDecomposition("murphy", n_resamples=30, random_state=1).fit(y, proba)
    assert set(est.confidence_intervals_) == {"0", "1", "2"}
    q = BrierDecomposition(
        "murphy", strategy="quantile", n_resamples=30, random_state=1
    ).fit(y, proba)
    lo, hi = q.confidence_intervals_["1"]["uncertainty"]
    assert lo <= q.per_class_["uncertainty"][1] <= hi


@pytest.mark.parametrize("method", ["corp", "murphy"])
def test_multiclass_labels_with_absent_class(method):
    y, proba = _multiclass_data(n=400, k=3)
    keep = y != 2
    with pytest.raises(ValueError, match="labels"):
        BrierDecomposition(method).fit(y[keep], proba[keep])
    est = BrierDecomposition(method, labels=[0, 1, 2]).fit(y[keep], proba[keep])
    assert est.per_class_["uncertainty"][2] == 0.0
    assert est.brier_score_ == pytest.approx(
        brier_score_loss(y[keep], proba[keep], labels=[0, 1, 2], scale_by_half=False),
        abs=1e-12,
    )
    with pytest.raises(ValueError, match="labels"):
        BrierDecomposition(method, labels=[0, 1, 3]).fit(y, proba)


def test_optional_dependencies_missing(monkeypatch):
    import sys

    est = BrierDecomposition("murphy").fit(Y6, P6)
    monkeypatch.setitem(sys.modules, "pandas", None)
    with pytest.raises(ImportError, match="pandas"):
        est.to_frame()
    monkeypatch.setitem(sys.modules, "matplotlib.pyplot", None)
    with pytest.raises(ImportError, match="matplotlib"):
        est.plot()
    # the text report needs neither
    assert "Brier score" in est.summary()


# --------------------------------------------------------------------------
# R reference fixture (tests/fixtures/make_decomposition_fixtures.R, committed
# with the metric functions): the estimator, chunked or not, reproduces it
# --------------------------------------------------------------------------


def _r_fixture():
    import json
    from pathlib import Path

    path = Path(__file__).parent / "fixtures" / "decomposition_reference.json"
    if not path.exists():
        pytest.skip("R fixture not present")
    d = json.loads(path.read_text())
    return d, np.array(d["y"]), np.array(d["p"]), np.array(d["w"])


@pytest.mark.parametrize(
    "key, weighted, strategy",
    [
        ("murphy_uniform10", False, "uniform"),
        ("murphy_uniform10_weighted", True, "uniform"),
        ("murphy_edges_weighted", True, "edges"),
    ],
)
def test_binned_chunked_matches_r_fixture(key, weighted, strategy):
    d, y, p, w = _r_fixture()
    ref = d[key]
    strategy = d["edges"] if strategy == "edges" else strategy
    w = w if weighted else None
    est = BrierDecomposition("murphy", n_bins=10, strategy=strategy)
    for idx in np.array_split(np.arange(y.shape[0]), 7):
        est.partial_fit(y[idx], p[idx], sample_weight=None if w is None else w[idx])
    assert est.brier_score_ == pytest.approx(ref["brier_score"], abs=1e-12)
    assert est.miscalibration_ == pytest.approx(ref["reliability"], abs=1e-12)
    assert est.discrimination_ == pytest.approx(ref["resolution"], abs=1e-12)
    assert est.uncertainty_ == pytest.approx(ref["uncertainty"], abs=1e-12)
    assert est.within_bin_variance_ == pytest.approx(ref["within_bin_variance"], abs=1e-12)
    assert est.within_bin_covariance_ == pytest.approx(
        ref["within_bin_covariance"], abs=1e-12
    )
    np.testing.assert_array_equal(est.table_["count"], ref["bin_counts"])


def test_corp_matches_r_fixture():
    d, y, p, _ = _r_fixture()
    ref = d["corp"]
    est = BrierDecomposition().fit(y, p)
    for key in ("brier_score", "miscalibration", "discrimination", "uncertainty"):
        assert getattr(est, key + "_") == pytest.approx(ref[key], abs=1e-12)


def test_partial_fit_two_column_chunks():
    y, p, w = _binary_data(n=600, seed=12)
    proba = np.column_stack([1 - p, p])
    one = BrierDecomposition("murphy").fit(y, p, sample_weight=w)
    est = BrierDecomposition("murphy")
    ones = np.flatnonzero(y == 1)[:20]
    rest = np.setdiff1d(np.arange(600), ones)
    with pytest.raises(ValueError, match="labels"):
        BrierDecomposition("murphy").partial_fit(y[ones], proba[ones])
    est.partial_fit(y[ones], proba[ones], w[ones], classes=[0, 1])
    est.partial_fit(y[rest], proba[rest], w[rest])
    _assert_same(est, one)
    assert est.classes_ is None
    with pytest.raises(ValueError, match="classes"):
        est.partial_fit(y[:5], proba[:5], classes=[0, 2])


@pytest.mark.parametrize("scale", [5e-324, 1e-310])
def test_partial_fit_of_subnormal_weights_names_sample_weight(scale):
    # the chunks' sums of weights of 5e-324 lost digits: BS 0.1589 vs 0.1819
    rng = np.random.default_rng(8)
    p = np.round(rng.uniform(size=40), 2)
    y = np.r_[0, 1, (rng.uniform(size=38) < p[2:]).astype(int)]
    w = rng.integers(1, 5, 40) * scale
    d = BrierDecomposition("murphy", n_bins=5)
    with pytest.raises(
        ValueError, match="^sample_weight: the largest weight is .*subnormal"
    ):
        d.partial_fit(y, p, sample_weight=w)


def _weighted_chunks(k, seed, n=40):
    """40 rows of binary (``k=1``) or ``k``-class forecasts, positive weights,
    and the ``classes`` keyword of a first ``partial_fit``."""
    rng = np.random.default_rng(seed)
    if k == 1:
        p = rng.uniform(size=n)
        y = (rng.uniform(size=n) < p).astype(int)
        kw = {"classes": None}
    else:
        p = rng.dirichlet(np.ones(k), size=n)
        y = np.array([rng.choice(k, p=row) for row in p])
        kw = {"classes": np.arange(k)}
    return y, p, rng.uniform(0.5, 2.0, size=n), kw


@pytest.mark.parametrize("k", [1, 3])
def test_partial_fit_later_chunk_with_all_zero_weights_is_a_no_op(k):
    # a later chunk whose weights are all 0 was refused ("sample_weight sums
    # to zero") although the mergeable states accept it: it adds nothing
    y, p, w, kw = _weighted_chunks(k, 1234)
    w[25:] = 0.0
    dec = BrierDecomposition(decomposition_method="murphy", n_bins=4)
    dec.partial_fit(y[:25], p[:25], w[:25], **kw)
    before = dec.miscalibration_
    dec.partial_fit(y[25:], p[25:], w[25:])
    full = BrierDecomposition(decomposition_method="murphy", n_bins=4).fit(
        y, p, sample_weight=w
    )
    np.testing.assert_allclose(dec.miscalibration_, before, rtol=1e-12)
    np.testing.assert_allclose(dec.miscalibration_, full.miscalibration_, rtol=1e-12)
    np.testing.assert_allclose(dec.discrimination_, full.discrimination_, rtol=1e-12)
    # the chunk is still validated
    with pytest.raises(ValueError, match="sample_weight"):
        dec.partial_fit(y[25:], p[25:], -w[25:] - 1.0)
    with pytest.raises(ValueError, match="y_proba"):
        dec.partial_fit(y[25:], p[25:] + 2.0, w[25:])


@pytest.mark.parametrize("k", [1, 3])
def test_partial_fit_first_chunk_with_all_zero_weights_waits_for_weight(k):
    # the first chunk of all-zero weights was refused although a later one is
    # a no-op: the estimator now keeps its (empty) statistics, stays unfitted
    # until some weight arrives, and then equals fit on all rows
    y, p, w, kw = _weighted_chunks(k, 99)
    w[:15] = 0.0
    dec = BrierDecomposition(decomposition_method="murphy", n_bins=4)
    dec.partial_fit(y[:15], p[:15], w[:15], **kw)
    with pytest.raises(NotFittedError):
        check_is_fitted(dec)
    dec.partial_fit(y[15:], p[15:], w[15:])
    full = BrierDecomposition(decomposition_method="murphy", n_bins=4).fit(
        y, p, sample_weight=w
    )
    np.testing.assert_allclose(dec.miscalibration_, full.miscalibration_, rtol=1e-12)
    np.testing.assert_allclose(dec.discrimination_, full.discrimination_, rtol=1e-12)
    np.testing.assert_allclose(dec.brier_score_, full.brier_score_, rtol=1e-12)
    # the first chunk is still validated
    with pytest.raises(ValueError, match="sample_weight"):
        BrierDecomposition("murphy", n_bins=4).partial_fit(
            y[:15], p[:15], -w[:15] - 1, **kw
        )


@pytest.mark.parametrize(
    ("first", "later", "pos_label"),
    [
        (np.array([0, 1, 0]), np.array([-1, 1, -1]), None),  # 0 and -1: three labels
        (np.array(["no", "no", "no"]), np.array(["Yes", "Yes", "Yes"]), "yes"),  # typo
    ],
)
def test_partial_fit_and_merge_check_the_labels_of_all_chunks(first, later, pos_label):
    # each binary chunk was checked alone: labels that fit refuses on all the
    # data ({0, -1, 1}, or "Yes" read as a negative beside pos_label="yes")
    # gave a number silently
    p = np.linspace(0.1, 0.9, 6)
    y = np.concatenate([first, later])
    with pytest.raises(ValueError) as in_memory:
        BrierDecomposition(decomposition_method="murphy", pos_label=pos_label).fit(y, p)
    dec = BrierDecomposition(decomposition_method="murphy", pos_label=pos_label)
    dec.partial_fit(first, p[:3])
    with pytest.raises(ValueError, match="y_true|pos_label") as chunked:
        dec.partial_fit(later, p[3:])
    assert str(in_memory.value)[:40] == str(chunked.value)[:40]
    a = BrierDecomposition(decomposition_method="murphy", pos_label=pos_label)
    b = BrierDecomposition(decomposition_method="murphy", pos_label=pos_label)
    a.partial_fit(first, p[:3])
    b.partial_fit(later, p[3:]) if pos_label is None else b.partial_fit(["no"], [0.5])
    if pos_label is None:
        with pytest.raises(ValueError, match="y_true"):
            a.merge(b)


def test_partial_fit_chunks_of_0_then_of_minus_1_are_ambiguous():
    # {0} then {-1}: each chunk alone reads as negatives, but on all the data
    # 0 is the larger label (the positive class): refused, as ambiguous labels
    p = np.linspace(0.1, 0.9, 6)
    dec = BrierDecomposition(decomposition_method="murphy").partial_fit([0, 0, 0], p[:3])
    with pytest.raises(ValueError, match="pos_label"):
        dec.partial_fit([-1, -1, -1], p[3:])
