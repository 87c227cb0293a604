"""Held-out sweep of the Array API adapters (issue 25's one-kernel redesign).

Every function declared as supporting Array API, with scikit-learn's
``array_api_dispatch`` on, equals the in-memory numpy function on the same
rows (float32 within float32 tolerance) on array-api-strict (its default
device, a second device whose host exports raise, and a device without
float64, as Apple's MPS), PyTorch CPU tensors and JAX CPU arrays.  Each case
here was a fault the sweep found; the reference is always numpy.
"""

import re
import warnings

import numpy as np
import pytest
import sklearn

from skbrier import murphy_decomposition
from skbrier.exceptions import HardForecastWarning
from skbrier.metrics.calibration_error import calibration_error

xps = pytest.importorskip("array_api_strict")


from xp_namespaces import NAMESPACES as _ALL
from xp_namespaces import strict as _strict
from xp_namespaces import xp_case_fixture

NAMESPACES = {
    k: _ALL[k]
    for k in (
        "strict",
        "strict-device1",
        "strict-no-float64",
        "torch-float64",
        "torch-float32",
        "jax-float64",
        "jax-float32",
    )
}
xp_case = xp_case_fixture(NAMESPACES)


def _host(a, dtype):
    """The numpy reference input: float32 forecasts stay float32."""
    a = np.asarray(a)
    return a.astype(np.float32) if dtype == "float32" and a.dtype.kind == "f" else a


def _close(a, b, dtype):
    rtol = 1e-12 if dtype == "float64" else 2e-5
    np.testing.assert_allclose(a, b, rtol=rtol, atol=rtol * 1e-2)


@pytest.fixture
def data():
    rng = np.random.default_rng(11)
    n = 300
    y = rng.integers(0, 2, n)
    p = np.round(rng.random(n), 2)  # many forecasts on the uniform bin edges
    y3 = rng.integers(0, 3, n)
    P = rng.dirichlet(np.ones(3), n)
    return y, p, y3, P


def _numpy(f, *args, **kw):
    with sklearn.config_context(array_api_dispatch=False):
        return f(*args, **kw)


@pytest.mark.parametrize("right", [True, False])
def test_forecasts_on_bin_edges_without_float64(xp_case, data, right):
    # a device without float64 compared float32 forecasts with the edges cast
    # to float32: 0.3f (0.30000001) equals float32(0.3) and went to the lower
    # bin, where numpy compares it with the float64 0.3 and puts it in the
    # upper one (calibration error 0.2424 instead of 0.2565)
    conv, dt = xp_case
    y, p, y3, P = data
    ph = _host(p, dt)
    for kind in ("binary",):
        _close(
            calibration_error(conv(y), conv(p), kind=kind, n_bins=10, right=right),
            _numpy(calibration_error, y, ph, kind=kind, n_bins=10, right=right),
            dt,
        )
    Q = np.round(P, 1)
    Q[:, 2] = 1 - Q[:, 0] - Q[:, 1]
    Q = np.clip(Q, 0, 1)
    Qh = _host(Q, dt)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        for kind in ("classwise", "top_label"):
            _close(
                calibration_error(conv(y3), conv(Q), kind=kind, n_bins=5, right=right),
                _numpy(calibration_error, y3, Qh, kind=kind, n_bins=5, right=right),
                dt,
            )
    a = murphy_decomposition(conv(y), conv(p), n_bins=10, right=right)
    b = _numpy(murphy_decomposition, y, ph, n_bins=10, right=right)
    np.testing.assert_array_equal(a.bin_counts, b.bin_counts)
    _close(a.reliability, b.reliability, dt)


def _hard_warnings(f, *args, **kw):
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        f(*args, **kw)
    return [str(w.message) for w in seen if w.category is HardForecastWarning]


def test_hard_forecasts_warn_as_on_the_host(xp_case, data):
    # forecasts that are all exactly 0 or 1 gave numpy's HardForecastWarning
    # and no warning at all on the device
    from skbrier import (
        brier_score,
        brier_skill_score,
        decision_curve,
        multiple_choice_brier_score,
        net_benefit,
        ranked_probability_score,
    )

    conv, dt = xp_case
    y, p, y3, P = data
    hard, hard3 = y[::-1].astype(float), np.eye(3)[y3[::-1]]
    calls = [
        (brier_score, y, hard, {}),
        (brier_skill_score, y, hard, {}),
        (calibration_error, y, hard, {"kind": "binary"}),
        (murphy_decomposition, y, hard, {}),
        (brier_score, y3, hard3, {}),
        (calibration_error, y3, hard3, {"kind": "top_label"}),
        (ranked_probability_score, y3, hard3, {}),
        (brier_score, y, y.astype(bool), {}),
    ]
    for f, a, b, kw in calls:
        want = _hard_warnings(_numpy, f, a, _host(b, dt), **kw)
        assert want, f
        assert _hard_warnings(f, conv(a), conv(b), **kw) == want, f
    # not for one row, nor for probabilities with one value in (0, 1)
    assert _hard_warnings(brier_score, conv(y[:1]), conv(hard[:1])) == []
    soft = hard.copy()
    soft[-1] = 0.5
    assert _hard_warnings(brier_score, conv(y), conv(soft)) == []
    # a binary test's 0/1 results are valid net-benefit input: no warning
    for f, kw in ((net_benefit, {"threshold": 0.2}), (decision_curve, {})):
        assert _hard_warnings(_numpy, f, y, hard, **kw) == []
        assert _hard_warnings(f, conv(y), conv(hard), **kw) == []
    # reference forecasts: the host warns of hard ones for the Brier skill
    # score (not for the ranked one)
    from skbrier import ranked_probability_skill_score

    for f, a, b, ref in (
        (brier_skill_score, y, p, y.astype(float)),
        (ranked_probability_skill_score, y3, P, np.eye(3)[y3]),
    ):
        want = _hard_warnings(_numpy, f, a, _host(b, dt), reference=_host(ref, dt))
        assert _hard_warnings(f, conv(a), conv(b), reference=conv(ref)) == want, f
    # multiple choice keeps its own (one-hot) warning, once
    got = _hard_warnings(multiple_choice_brier_score, conv(y3), conv(hard3))
    assert got == _hard_warnings(_numpy, multiple_choice_brier_score, y3, hard3)


def test_forecasts_at_thresholds_without_float64(xp_case, data):
    # a device without float64 compared float32 forecasts with the threshold
    # rounded to the nearest float32: float32(0.7) = 0.69999999 counted the
    # forecast 0.7f (below 0.7) as treated
    from skbrier import decision_curve, net_benefit

    conv, dt = xp_case
    y, p, y3, P = data
    ph = _host(p, dt)
    for t in (0.7, 0.3, 0.45):
        _close(
            net_benefit(conv(y), conv(p), threshold=t),
            _numpy(net_benefit, y, ph, threshold=t),
            dt,
        )
    for t in ([0.7, 0.2], [0.05 * k for k in range(1, 19)]):
        a = decision_curve(conv(y), conv(p), thresholds=t)
        b = _numpy(decision_curve, y, ph, thresholds=t)
        _close(a.net_benefit, b.net_benefit, dt)


def _jx(jnp, v):
    return jnp.asarray(v) if isinstance(v, np.ndarray) else v


def test_jax_without_x64(monkeypatch, data):
    # JAX's default (no jax_enable_x64) warns and truncates every float64 or
    # int64 request: its "Explicitly requested dtype float64 ..." warnings
    # leaked from every weighted or binned call, and the edges and thresholds
    # were rounded to the nearest float32 (net benefit at 0.7 off by 0.019)
    from skbrier import (
        brier_score,
        brier_skill_score,
        decision_curve,
        multiple_choice_brier_score,
        net_benefit,
        ranked_probability_score,
    )

    jax = pytest.importorskip("jax")
    y, p, y3, P = data
    w = np.random.default_rng(5).integers(0, 4, y.shape[0]).astype(np.float32)
    p32, P32 = p.astype(np.float32), P.astype(np.float32)
    calls = [
        (brier_score, y, p32, {"sample_weight": w}),
        (brier_score, y3, P32, {}),
        (brier_skill_score, y, p32, {}),
        (calibration_error, y, p32, {"kind": "binary", "sample_weight": w}),
        (calibration_error, y3, P32, {"kind": "top_label"}),
        (net_benefit, y, p32, {"threshold": 0.7}),
        (ranked_probability_score, y3, P32, {"sample_weight": w}),
        (multiple_choice_brier_score, y3, P32, {}),
    ]
    before = jax.config.read("jax_enable_x64")
    monkeypatch.setenv("SCIPY_ARRAY_API", "1")
    jax.config.update("jax_enable_x64", False)
    try:
        jnp = jax.numpy
        with sklearn.config_context(array_api_dispatch=True), warnings.catch_warnings():
            warnings.simplefilter("error")
            got = [
                f(jnp.asarray(a), jnp.asarray(b), **{k: _jx(jnp, v) for k, v in kw.items()})
                for f, a, b, kw in calls
            ]
            md = murphy_decomposition(jnp.asarray(y), jnp.asarray(p32), n_bins=10)
            dc = decision_curve(jnp.asarray(y), jnp.asarray(p32))
    finally:
        jax.config.update("jax_enable_x64", before)
    want = [_numpy(f, a, b, **kw) for f, a, b, kw in calls]
    _close(got, want, "float32")
    ref = _numpy(murphy_decomposition, y, p32, n_bins=10)
    np.testing.assert_array_equal(md.bin_counts, ref.bin_counts)
    _close(md.reliability, ref.reliability, "float32")
    _close(dc.net_benefit, _numpy(decision_curve, y, p32).net_benefit, "float32")


def test_partial_fit_copies_device_input_to_the_host(xp_case, data):
    # fit was declared (HOST) but partial_fit was not: arrays on a device
    # without host exports raised numpy's RuntimeError ("Can't convert array
    # on the 'device1' device to a NumPy array")
    from skbrier.decomposition import BrierDecomposition

    conv, dt = xp_case
    y, p, y3, P = data
    ph = _host(p, dt)
    dec = BrierDecomposition(decomposition_method="murphy", n_bins=10)
    ref = BrierDecomposition(decomposition_method="murphy", n_bins=10)
    for chunk in (slice(0, 100), slice(100, None)):
        dec.partial_fit(conv(y[chunk]), conv(p[chunk]))
        ref.partial_fit(y[chunk], ph[chunk])
    assert dec.n_samples_seen_ == ref.n_samples_seen_
    _close(dec.brier_score_, ref.brier_score_, dt)
    _close(dec.miscalibration_, ref.miscalibration_, dt)
    dec = BrierDecomposition(decomposition_method="murphy", n_bins=5)
    dec.partial_fit(conv(y3[:100]), conv(P[:100]), classes=conv(np.array([0, 1, 2])))
    ref = BrierDecomposition(decomposition_method="murphy", n_bins=5)
    ref.partial_fit(y3[:100], _host(P, dt)[:100], classes=[0, 1, 2])
    _close(dec.brier_score_, ref.brier_score_, dt)


def test_labels_and_weights_follow_numpy_forecasts(xp_case, data):
    # y_true and sample_weight follow y_proba (as in scikit-learn): with numpy
    # forecasts, labels or weights on a device without host exports raised
    # numpy's RuntimeError ("Can't convert array on the 'device1' device")
    from skbrier import brier_score, decision_curve, ranked_probability_score

    conv, dt = xp_case
    y, p, y3, P = data
    w = np.arange(y.shape[0]) % 3 + 0.5
    wd = conv(w, "float64") if dt == "float64" else conv(w.astype(np.float32))
    wh = w if dt == "float64" else w.astype(np.float32)
    _close(
        brier_score(conv(y), p, sample_weight=wd),
        _numpy(brier_score, y, p, sample_weight=wh),
        "float64",
    )
    _close(
        calibration_error(y, p, kind="binary", sample_weight=wd),
        _numpy(calibration_error, y, p, kind="binary", sample_weight=wh),
        "float64",
    )
    _close(
        ranked_probability_score(conv(y3), list(map(list, P))),
        _numpy(ranked_probability_score, y3, P),
        "float64",
    )
    a = decision_curve(conv(y), {"m": p}, thresholds=[0.2, 0.4])
    b = _numpy(decision_curve, y, {"m": p}, thresholds=[0.2, 0.4])
    _close(a.net_benefit["m"], b.net_benefit["m"], "float64")


def test_host_arrays_beside_forecasts_on_a_device_without_float64(data, monkeypatch):
    # numpy float64 weights, references or float labels beside forecasts on a
    # device without float64 raised the namespace's ValueError ("Device
    # 'no_float64' does not support dtype=float64")
    from skbrier import (
        brier_score,
        brier_skill_score,
        decision_curve,
        multiple_choice_brier_score,
        ranked_probability_skill_score,
    )

    y, p, y3, P = data
    dev = _strict("no_float64")
    w = np.arange(y.shape[0]) % 4 + 0.25
    p32, P32 = p.astype(np.float32), P.astype(np.float32)
    calls = [
        (brier_score, y, p32, {"sample_weight": w}),
        (brier_score, y.astype(float), p32, {}),
        (brier_score, y3.astype(float), P32, {}),
        (brier_skill_score, y, p32, {"reference": np.roll(p, 1)}),
        (ranked_probability_skill_score, y3, P32, {"reference": np.roll(P, 1, axis=0)}),
        (multiple_choice_brier_score, y3, P32, {"sample_weight": w}),
        (calibration_error, y, p32, {"kind": "binary", "sample_weight": w}),
    ]
    monkeypatch.setenv("SCIPY_ARRAY_API", "1")
    with sklearn.config_context(array_api_dispatch=True):
        got = [
            f(dev(a) if a.dtype.kind == "i" else a, dev(b), **kw) for f, a, b, kw in calls
        ]
        md = murphy_decomposition(dev(y), dev(p32), sample_weight=w)
        dc = decision_curve(dev(y), dev(p32), sample_weight=w)
    _close(got, [_numpy(f, a, b, **kw) for f, a, b, kw in calls], "float32")
    _close(
        md.reliability,
        _numpy(murphy_decomposition, y, p32, sample_weight=w).reliability,
        "float32",
    )
    want = _numpy(decision_curve, y, p32, sample_weight=w)
    _close(dc.net_benefit, want.net_benefit, "float32")


@pytest.mark.parametrize("scale", [5e-324, 1e-310, 1e306])
def test_weights_the_host_rescales(xp_case, data, scale):
    # subnormal weights lost their digits in every product on the device (a
    # Brier score of 0.3046 for 0.3254; JAX flushed them to zero: NaN), the
    # Murphy decomposition's 2.0**1074 raised OverflowError, and weights of
    # 1e306 summed to inf (NaN scores) where the host raises its error
    from skbrier import (
        brier_score,
        brier_skill_score,
        multiple_choice_brier_score,
        net_benefit,
        ranked_probability_score,
    )

    conv, dt = xp_case
    y, p, y3, P = data
    w = (np.arange(y.shape[0]) % 3 + 1.0) * scale
    # float64 device weights (numpy ones beside a device without float64)
    no_float64 = dt == "float32" and conv.__qualname__.startswith("strict.")
    wd = w if no_float64 else conv(w, "float64")
    ph, Ph = _host(p, dt), _host(P, dt)
    calls = [
        (brier_score, y, p, ph, {}),
        (brier_score, y3, P, Ph, {}),
        (brier_skill_score, y, p, ph, {}),
        (calibration_error, y, p, ph, {"kind": "binary"}),
        (calibration_error, y3, P, Ph, {"kind": "top_label"}),
        (net_benefit, y, p, ph, {"threshold": 0.3}),
        (ranked_probability_score, y3, P, Ph, {}),
        (multiple_choice_brier_score, y3, P, Ph, {}),
        (lambda *a, **k: murphy_decomposition(*a, **k).reliability, y, p, ph, {}),
    ]
    for f, a, b, bh, kw in calls:
        try:
            want = _numpy(f, a, bh, sample_weight=w, **kw)
        except ValueError as exc:
            with pytest.raises(ValueError, match=re.escape(str(exc))):
                f(conv(a), conv(b), sample_weight=wd, **kw)
            continue
        _close(f(conv(a), conv(b), sample_weight=wd, **kw), want, dt)


def test_no_torch_warning_for_columns_and_strided_tensors(monkeypatch, data):
    # a column of a probability matrix (or any strided tensor) leaked PyTorch's
    # "torch.searchsorted(): input value tensor is non-contiguous" UserWarning
    # from the bins and the class codes
    from skbrier import brier_score

    torch = pytest.importorskip("torch")
    y, p, y3, P = data
    Pt = torch.tensor(P).t().contiguous().t()  # column-major
    y3t = torch.stack([torch.tensor(y3)] * 2, dim=1)[:, 0]  # a strided view
    pt = torch.stack([torch.tensor(p)] * 2, dim=1)[:, 0]
    monkeypatch.setenv("SCIPY_ARRAY_API", "1")
    always = torch.is_warn_always_enabled()
    torch.set_warn_always(True)  # PyTorch warns once per process otherwise
    try:
        with sklearn.config_context(array_api_dispatch=True), warnings.catch_warnings():
            warnings.simplefilter("error")
            got = [
                brier_score(y3t, Pt),
                calibration_error(y3t, Pt, kind="classwise"),
                calibration_error(torch.tensor(y3), torch.tensor(P), kind="classwise"),
                calibration_error(torch.tensor(y), pt, kind="binary"),
                murphy_decomposition(torch.tensor(y), pt).reliability,
            ]
    finally:
        torch.set_warn_always(always)
    want = [
        _numpy(brier_score, y3, P),
        _numpy(calibration_error, y3, P, kind="classwise"),
        _numpy(calibration_error, y3, P, kind="classwise"),
        _numpy(calibration_error, y, p, kind="binary"),
        _numpy(murphy_decomposition, y, p).reliability,
    ]
    _close(got, want, "float64")


def test_bool_and_uint64_labels_of_probability_matrices(xp_case, data):
    # bool labels of predict_proba's two columns raised TypeError (array-api-
    # strict) or NotImplementedError (PyTorch: searchsorted of booleans), and
    # uint64 labels NotImplementedError on PyTorch (min, >=) or TypeError
    from skbrier import brier_score, multiple_choice_brier_score, ranked_probability_score

    conv, dt = xp_case
    y, p, y3, P = data
    P2 = np.c_[1 - p, p]
    yb, y3u = y.astype(bool), y3.astype(np.uint64)
    calls = [
        (brier_score, yb, P2, {}),
        (brier_score, yb, P2, {"pos_label": False}),
        (calibration_error, yb, P2, {"kind": "top_label"}),
        (murphy_decomposition, yb, P2, {}),
        (brier_score, y3u, P, {}),
        (ranked_probability_score, y3u, P, {}),
        (multiple_choice_brier_score, y3u, P, {}),
    ]
    for f, a, b, kw in calls:
        want = _numpy(f, a, _host(b, dt), **kw)
        got = f(conv(a), conv(b), **kw)
        if f is murphy_decomposition:
            got, want = got.reliability, want.reliability
        _close(got, want, dt)


def test_inference_and_comparison_take_device_input(xp_case, data):
    # brier_inference and compare_brier refused Array API input (TypeError)
    # while calibration_report, which computes the same inference, copied it
    # to the host: both are declared HOST now
    from skbrier.stats.compare import compare_brier
    from skbrier.stats.inference import brier_inference

    conv, dt = xp_case
    y, p, y3, P = data
    ph = _host(p, dt)
    a = brier_inference(conv(y), conv(p))
    b = _numpy(brier_inference, y, ph)
    assert a.to_dict().keys() == b.to_dict().keys()
    _close(a.brier_score, b.brier_score, dt)
    _close(a.confidence_interval().low, b.confidence_interval().low, dt)
    a = compare_brier(conv(y), conv(p), conv(p[::-1].copy()))
    b = _numpy(compare_brier, y, ph, _host(p[::-1].copy(), dt))
    _close(
        a.to_frame().select_dtypes("number").to_numpy(),
        b.to_frame().select_dtypes("number").to_numpy(),
        dt,
    )


def test_states_take_a_chunk_numpy_cannot_read_as_its_host_copy():
    """A state's ``update`` (no backend adapter) with a tensor that requires
    grad raised PyTorch's RuntimeError ("Can't call numpy() on Tensor that
    requires grad"); the chunk is now read as its host copy, equal to the
    numpy chunk (a CUDA tensor goes the same way)."""
    torch = pytest.importorskip("torch")
    from skbrier.states import BrierState

    rng = np.random.default_rng(0)
    p = rng.uniform(size=20)
    y = (rng.uniform(size=20) < p).astype(int)
    tensor = torch.asarray(p, requires_grad=True)
    got = BrierState().update(torch.asarray(y), tensor).finalize()
    assert got == BrierState().update(y, p).finalize()
