"""Held-out reproducers of the core metrics, their states and the Dask path
(a trust sweep): each test pins an input that gave a stray exception, an
unclear message or a silent wrong number."""

from __future__ import annotations

import numpy as np
import pytest

import skbrier
from skbrier.states import (
    BrierState,
    MomentState,
    MulticlassBrierState,
    StateBundle,
    ThresholdState,
)

Y = np.array([0, 1, 1, 0, 1])
P = np.array([0.2, 0.7, 0.6, 0.3, 0.9])
P2 = np.column_stack([1 - P, P])


# ------------------------------------------------- keyword columns of update()
@pytest.mark.parametrize(
    "make, proba",
    [
        (lambda: BrierState(with_reference=True), P),
        (lambda: MulticlassBrierState(with_reference=True), P2),
        (lambda: MomentState(("b",)), P),
        (lambda: ThresholdState([0.5], models=("a", "b"), single=False), P),
    ],
)
def test_update_refuses_a_missing_column_by_name(make, proba):
    # was: KeyError('reference') / KeyError('b')
    with pytest.raises(TypeError, match=r"update\(\) needs the column"):
        make().update(Y, proba)


@pytest.mark.parametrize(
    "make, proba, column",
    [
        (BrierState, P, "reference"),
        (lambda: BrierState(with_reference=True), P, "refrence"),
        (MulticlassBrierState, P2, "reference"),
        (lambda: MomentState(("b",)), P, "c"),
    ],
)
def test_update_refuses_an_unexpected_column(make, proba, column):
    # was: silently ignored (a skill score against climatology, not the reference)
    with pytest.raises(TypeError, match=rf"unexpected column.*'{column}'"):
        make().update(Y, proba, **{column: np.full_like(proba, 0.5)})


def test_update_column_messages_name_the_option():
    with pytest.raises(TypeError, match="with_reference"):
        BrierState().update(Y, P, reference=np.full(5, 0.5))
    with pytest.raises(TypeError, match="with_reference"):
        BrierState(with_reference=True).update(Y, P)


def test_bundle_takes_the_union_of_its_members_columns():
    bundle = StateBundle(
        {"brier": BrierState(with_reference=True), "m": MomentState(("b",))}
    )
    ref = np.full(5, 0.5)
    bundle.update(Y, P, reference=ref, b=ref)  # accepted
    with pytest.raises(TypeError, match="needs the column"):
        StateBundle({"brier": BrierState(with_reference=True)}).update(Y, P)
    with pytest.raises(TypeError, match="unexpected column"):
        StateBundle({"brier": BrierState()}).update(Y, P, reference=ref)


def test_update_column_none_is_absent():
    # the Dask graph passes absent columns as None (filtered); a None column
    # of a state that takes none is accepted
    BrierState().update(Y, P, reference=None)


# ------------------------------------------ scale of a series: block length, LRV
def _ar1(n: int = 200, rho: float = 0.6, seed: int = 0) -> np.ndarray:
    e = np.random.default_rng(seed).normal(size=n)
    x = np.empty(n)
    x[0] = e[0]
    for t in range(1, n):
        x[t] = rho * x[t - 1] + e[t]
    return x


@pytest.mark.parametrize("scale", [1e-300, 1e-200, 1e-150, 1e100, 1e200, 1e300])
def test_optimal_block_length_does_not_depend_on_the_scale(scale):
    # was: ZeroDivisionError (1e-150), [[1, 1]] (1e-200), NaN with an
    # overflow RuntimeWarning (1e100)
    import warnings

    from skbrier import optimal_block_length

    x = _ar1()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = optimal_block_length(x * scale)
    np.testing.assert_allclose(got, optimal_block_length(x), rtol=1e-10)


@pytest.mark.parametrize("scale", [2.0**-500, 1e-150, 1e-100, 1e100, 1e150, 2.0**500])
def test_long_run_covariance_scales_with_the_square(scale):
    # was: 0.03854 for 0.03842 (1e-160: the prewhitening ran on subnormal
    # numbers), HACError "collinear" (1e-200), overflow warnings (1e160)
    import warnings

    from skbrier import long_run_covariance

    x = np.column_stack([_ar1(seed=1), _ar1(seed=2, rho=0.3)])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = long_run_covariance(x * scale)
    np.testing.assert_allclose(got / scale / scale, long_run_covariance(x), rtol=1e-13)


@pytest.mark.parametrize("scale", [1e-200, 1e-160, 1e160, 1e200])
def test_long_run_covariance_beyond_float64_is_refused(scale):
    import warnings

    from skbrier import long_run_covariance

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(ValueError, match=r"float64 range .*about 1e-?\d+\): divide x"):
            long_run_covariance(_ar1() * scale)


# ------------------------------------------------ multiple-choice score messages
def test_multiple_choice_nan_names_the_example_and_choice():
    from skbrier import multiple_choice_brier_score

    # was: "y_score contains NaN." (no position, no remedy)
    with pytest.raises(
        ValueError, match=r"NaN: 1 of 7 values \(the first at example 0, choice 1\)"
    ):
        multiple_choice_brier_score([0, 1], [[0.2, np.nan, 0.8], [0.5, 0.25, 0.25, 0]])
    with pytest.raises(
        ValueError, match=r"NaN: 1 of 4 values \(the first at example 1, choice 0\)"
    ):
        multiple_choice_brier_score(
            [0, 1], [[-0.1, -2.0], [np.nan, -1.0]], from_logprobs=True
        )
    with pytest.raises(ValueError, match=r"\+inf .*example 1, choice 1"):
        multiple_choice_brier_score(
            [0, 1], [[-0.1, -2.0], [-1.0, np.inf]], from_logprobs=True
        )


def test_multiple_choice_out_of_range_message_is_plain_numbers():
    from skbrier import multiple_choice_brier_score

    # was: "(found np.float64(-2.0) to np.float64(0.5))"
    with pytest.raises(ValueError) as info:
        multiple_choice_brier_score([0, 1], [[0.5, -0.1], [-1.0, -2.0]])
    msg = str(info.value)
    assert "np.float64" not in msg
    assert "example 0, choice 1 has -0.1" in msg and "from -2 to 0.5" in msg
    assert "from_logprobs=True" in msg
    with pytest.raises(ValueError, match="look like percentages: divide by 100"):
        multiple_choice_brier_score([0, 1], [[50.0, 50.0], [20.0, 80.0]])


# ------------------------------------------- fractional labels (sklearn refuses)
FRACTIONAL = [
    ("binary", np.array([0.2, 0.8, 0.8, 0.2]), np.array([0.2, 0.7, 0.6, 0.3])),
    ("binary-halves", np.array([0.5, 1.5, 1.5, 0.5]), np.array([0.2, 0.7, 0.6, 0.3])),
    (
        "multiclass",
        np.array([0.5, 1.5, 2.5, 0.5]),
        np.array([[0.6, 0.2, 0.2], [0.1, 0.8, 0.1], [0.2, 0.2, 0.6], [0.5, 0.25, 0.25]]),
    ),
]


@pytest.mark.parametrize("kind, y, p", FRACTIONAL, ids=[c[0] for c in FRACTIONAL])
def test_fractional_labels_are_refused_as_scikit_learn_does(kind, y, p):
    # was: 0.8 (or 1.5) silently taken as the positive class: a number where
    # sklearn.metrics.brier_score_loss raises ("continuous" target)
    from sklearn.metrics import brier_score_loss

    from skbrier import brier_score

    with pytest.raises(ValueError):
        brier_score_loss(y, p)
    with pytest.raises(
        ValueError, match=r"y_true holds non-integer values .*observed outcomes"
    ):
        brier_score(y, p)


def test_fractional_labels_are_refused_by_the_states_and_on_dask():
    from skbrier import brier_score

    y, p = FRACTIONAL[0][1], FRACTIONAL[0][2]
    with pytest.raises(ValueError, match="y_true holds non-integer values"):
        BrierState().update(y, p).finalize()
    da = pytest.importorskip("dask.array")
    with pytest.raises(ValueError, match="y_true holds non-integer values"):
        brier_score(da.from_array(y, chunks=2), da.from_array(p, chunks=2))


def test_integral_float_labels_still_work():
    from skbrier import brier_score

    p = np.array([0.2, 0.7, 0.6, 0.3])
    assert brier_score(np.array([1.0, 2.0, 2.0, 1.0]), p) == brier_score([0, 1, 1, 0], p)
    assert brier_score(np.array([-1.0, 1.0, 1.0, -1.0]), p) == brier_score([0, 1, 1, 0], p)


def test_dask_float32_is_summed_in_float64_as_documented():
    # in memory float32 is scored in float32 (scikit-learn's number); on dask
    # the sums are float64: the exact score of the float32 values
    from skbrier import brier_score

    da = pytest.importorskip("dask.array")
    rng = np.random.default_rng(3)
    p = np.round(rng.uniform(0.02, 0.98, 40), 2).astype(np.float32)
    y = (rng.uniform(size=40) < p).astype(int)
    got = brier_score(da.from_array(y, chunks=10), da.from_array(p, chunks=10))
    assert got == pytest.approx(brier_score(y, p.astype(np.float64)), rel=1e-15)
    assert got == pytest.approx(brier_score(y, p), rel=1e-6)


# ------------------------------------------------- dask inputs cut differently
def _dask_frame():
    dd = pytest.importorskip("dask.dataframe")
    pd = pytest.importorskip("pandas")
    rng = np.random.default_rng(20)
    p = rng.uniform(0.02, 0.98, 60)
    y = (rng.uniform(size=60) < p).astype(int)
    return y, p, dd.from_pandas(pd.DataFrame({"y": y, "p": p}), npartitions=3)


def test_dask_array_of_unknown_chunk_sizes_beside_known_chunks():
    # was: "y_true has nan samples but y_proba has 60"
    import dask
    import dask.array as da

    from skbrier import brier_score

    y, p, df = _dask_frame()
    with dask.config.set(scheduler="synchronous"):
        got = brier_score(df["y"].to_dask_array(), da.from_array(p, chunks=15))
        assert got == pytest.approx(brier_score(y, p), rel=1e-14)
        got = brier_score(df["y"].to_dask_array(), p)  # was a TypeError
        assert got == pytest.approx(brier_score(y, p), rel=1e-14)


def test_dask_columns_of_different_rows_are_named_as_such():
    # was: "y_true has 20 samples but y_proba has 8" (one partition's counts)
    import dask

    from skbrier import brier_score

    _, _, df = _dask_frame()
    with dask.config.set(scheduler="synchronous"):
        with pytest.raises(ValueError, match="same rows.*filtered"):
            brier_score(df["y"], df[df["p"] > 0.5]["p"])


def test_binned_state_counts_the_whole_chunk_outside_the_edges():
    # the cover check ran per label: "9 of 43 values" where memory says "16 of 80"
    from skbrier import murphy_decomposition
    from skbrier.states import BinnedState

    rng = np.random.default_rng(0)
    p = rng.uniform(0, 1, 80)
    y = (rng.uniform(size=80) < p).astype(int)
    with pytest.raises(ValueError) as memory:
        murphy_decomposition(y, p, strategy=[0.2, 0.5, 1.0])
    with pytest.raises(ValueError) as state:
        BinnedState(np.array([0.2, 0.5, 1.0])).update(y, p)
    assert str(state.value) == str(memory.value)
    assert "16 of 80 values" in str(state.value)


@pytest.mark.parametrize("dtype", ["Float32", "float32[pyarrow]"])
def test_nullable_float32_frames_are_read_as_float32(dtype):
    """A DataFrame of pandas' nullable float32 columns became an object array
    read as float64, so float32 rows summing to one within float32's
    rounding were warned of as "not summing to one"; now read as float32
    (NA as NaN, refused as NaN), equal to the numpy float32 input."""
    import warnings

    pd = pytest.importorskip("pandas")
    if "pyarrow" in dtype:
        pytest.importorskip("pyarrow")
    rng = np.random.default_rng(0)
    proba = rng.dirichlet([1, 1, 1], size=200).astype(np.float32)
    y = rng.integers(0, 3, 200)
    frame = pd.DataFrame(proba).astype(dtype)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert skbrier.brier_score(y, frame) == skbrier.brier_score(y, proba)
    frame.iloc[3, 1] = None
    with pytest.raises(ValueError, match="y_proba contains NaN: 1 of 600"):
        skbrier.brier_score(y, frame)


@pytest.mark.parametrize("scale", [5e-324, 1e-310, 1e-300, 1e300])
def test_case_control_net_benefit_at_extreme_weight_scales(scale):
    """Weights of 5e-324 with a case-control ``prevalence``: the weights'
    scale does not matter, but ``prevalence / W1`` overflowed (numpy's
    RuntimeWarning, then inf); now the class rates come first."""
    import warnings

    rng = np.random.default_rng(0)
    p = rng.uniform(size=50)
    y = (rng.uniform(size=50) < p).astype(int)
    want = skbrier.net_benefit(y, p, threshold=0.3, prevalence=0.4)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = skbrier.net_benefit(
            y, p, threshold=0.3, prevalence=0.4, sample_weight=np.full(50, scale)
        )
    assert got == pytest.approx(want, rel=1e-12)
