"""The numbers of ``skbrier llm``: one row of measures per evaluation log.

Every measure is computed by the library's own kernels (one home per
formula); this module only chooses them and bootstraps them.

* bootstrapped (percentile interval over questions): accuracy, Brier score
  and Brier Index, the multiple-choice Brier scores, the binned ECEs, smECE,
  HLE's RMS calibration error, CORP miscalibration, AURC, E-AURC, HELM's
  selective coverage--accuracy area and accuracy at the top 10 %;
* point estimates (each a fit or a count, refitting per resample would cost
  more than the rest together): the Platt-scaled ECE with its coefficients
  (:func:`~skbrier.metrics.recalibration.platt_calibration_error`), the
  temperature-tuned scores (:func:`~skbrier.metrics.recalibration.temperature_scaling`,
  logs with choice log-likelihoods) and the abstention scores
  (:func:`~skbrier.metrics.abstention.abstention_scores`, logs that mark
  what was attempted).

The records keep their order (HLE's sorted bins of 100 split ties where
its sort of the log's order leaves them).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from .._core.params import DEFAULT_N_BINS, DEFAULT_STRATEGY

#: (key, short header, label) of the bootstrapped columns, in order
COLUMNS = (
    ("n", "n", "questions scored"),
    ("accuracy", "acc", "accuracy"),
    ("brier", "Brier", "Brier score of (correct, confidence)"),
    ("brier_index", "BI", "Brier Index, 100 (1 - sqrt(Brier)), higher is better"),
    ("mc_brier_lm_eval", "MC Brier", "multiple-choice Brier, lm-eval (sum over choices)"),
    ("mc_brier_bigbench", "MC Brier BB", "multiple-choice Brier, BIG-bench (per choice)"),
    # calibration_error's default bins
    ("ece", "ECE", f"ECE ({DEFAULT_N_BINS} equal-width bins)"),
    ("ece_helm", "ECE HELM", "ECE (HELM, 10 equal-mass bins)"),
    ("smece", "smECE", "smooth ECE (Blasiok and Nakkiran)"),
    ("rms_ce", "RMS-CE", "RMS calibration error (HLE, bins of 100)"),
    ("corp_mcb", "CORP MCB", "CORP miscalibration"),
    ("aurc", "AURC", "area under the risk-coverage curve (lower is better)"),
    ("e_aurc", "E-AURC", "AURC minus an oracle ranking's"),
    ("selective_area", "sel. area", "HELM selective coverage-accuracy area"),
    ("accuracy_top10", "acc@10%", "HELM accuracy of the 10% most confident answers"),
    # point estimates
    ("platt_ece", "Platt ECE", "ECE after Platt scaling (HELM: 10 equal-mass bins)"),
    ("platt_ece_1_bin", "Platt ECE 1b", "ECE after Platt scaling, 1 bin"),
    ("platt_coef", "Platt a", "Platt coefficient (slope on the confidence's log-odds)"),
    ("platt_intercept", "Platt b", "Platt intercept"),
    ("temperature", "T", "maximum-likelihood temperature of the choice log-likelihoods"),
    (
        "ts_mc_brier",
        "TS MC Brier",
        "multiple-choice Brier (lm-eval) after temperature scaling",
    ),
    (
        "ts_rms_ce",
        "TS RMS-CE",
        "top-label RMS-CE (10 equal-width bins) after temperature scaling",
    ),
    ("coverage", "coverage", "share of questions attempted"),
    ("accuracy_attempted", "acc|att", "accuracy on the attempted questions"),
    ("f_score", "F", "SimpleQA F-score"),
)
#: keys of the point estimates (no interval)
POINT_KEYS = frozenset(
    k for k, _, _ in COLUMNS[[c[0] for c in COLUMNS].index("platt_ece") :]
)
#: the table's ECE column, and the binning the figures draw it with
FIGURE_ECE_KEY = "ece"
FIGURE_ECE_BINNING = f"{DEFAULT_N_BINS} equal-width bins"


class Scored:
    """The arrays of one log that the measures use.

    Graded logs with a confidence keep the attempted answers (``subset``)
    for everything but the abstention scores.
    """

    def __init__(self, rec: Any) -> None:
        keep = np.ones(rec.n_records, dtype=bool)
        if rec.attempted is not None and rec.confidence is not None:
            keep = rec.attempted.copy()  # not attempted: no confidence to judge
        self.subset = bool(not keep.all())
        y = rec.correct[keep].astype(np.float64)
        p = None if rec.confidence is None else rec.confidence[keep]
        # the records' own order: HLE's bins of 100 split ties where its sort leaves them
        order = np.arange(y.shape[0])
        self.y = y[order]
        self.p = None if p is None else p[order]
        self.n = int(self.y.shape[0])
        self.mc: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
        if rec.choice_logprobs is not None and rec.attempted is None:
            from .._core.kernels.multiple_choice import (
                bigbench_per_example,
                normalise_targets,
                per_example_squared_error,
                segment_starts,
                softmax_segments,
            )

            lengths = rec.n_choices
            starts = segment_starts(lengths)
            probs = softmax_segments(rec.choice_logprobs, starts, lengths)
            onehot = np.zeros_like(probs)
            onehot[starts + rec.gold] = 1.0
            t = normalise_targets(onehot, starts, lengths)
            self.mc = (
                per_example_squared_error(probs, t, starts)[order],
                bigbench_per_example(probs, t, starts)[order],
                lengths.astype(np.float64)[order],
            )

    def by_confidence(self) -> tuple[Scored, np.ndarray | None]:
        """The same rows in ascending order of confidence (stable), and that order.

        The bootstrap scores its resamples on these rows: every measure sorts
        the confidences, and a sort of sorted data costs a pass instead of
        ``n log n`` (about 25 times less at 100,000 questions).  A resample's
        counts ``w`` of the records' rows are ``w[order]`` here.
        """
        if self.p is None:
            return self, None
        order = np.argsort(self.p, kind="stable")
        other = object.__new__(Scored)
        other.subset, other.n = self.subset, self.n
        other.y, other.p = self.y[order], self.p[order]
        other.mc = None if self.mc is None else tuple(a[order] for a in self.mc)  # type: ignore[assignment]
        return other, order


def statistics(
    sc: Scored,
) -> tuple[Callable[[np.ndarray | None], dict[str, float]], list[str]]:
    """``stat(weights) -> dict`` of the bootstrapped measures, and the keys it fills."""
    from .._core.kernels.calibration_error import smooth_ece_auto
    from .._core.kernels.decomposition import corp_from_groups, pool_ties
    from .._core.kernels.selective import helm_accuracy_at_top, helm_coverage_accuracy_area
    from ..metrics._calibration_error_core import Pairs, ce_value, check_options
    from ..metrics.selective import _aurc_pair, _curve

    y, n = sc.y, sc.n
    if sc.p is None or n == 0:  # correctness only, or no scored sample

        def counts(w: np.ndarray | None) -> dict[str, float]:
            ww = np.ones(n) if w is None else w
            return {"n": float(n), "accuracy": float(np.sum(ww * y) / ww.sum())}

        return counts, ["n", "accuracy"] if n else ["n"]
    p = sc.p
    pairs = Pairs([(p, y)], None, False)
    o_ece = check_options("l1", DEFAULT_N_BINS, DEFAULT_STRATEGY, None, False, True)
    o_helm = check_options("l1", 10, "uniform", "helm", False, True)
    o_rms = check_options("l2", DEFAULT_N_BINS, DEFAULT_STRATEGY, "hle", False, True)
    keys = [k for k, _, _ in COLUMNS if k not in POINT_KEYS]
    if sc.mc is None:
        keys = [k for k in keys if not k.startswith("mc_")]
    if n < 100:
        keys.remove("rms_ce")

    grid_cache: dict[int, tuple[np.ndarray, np.ndarray]] = {}

    def stat(w: np.ndarray | None) -> dict[str, float]:
        ww = np.ones(n) if w is None else w
        tot = ww.sum()
        bs = float(np.sum(ww * (p - y) ** 2) / tot)
        out = {
            "n": float(n),
            "accuracy": float(np.sum(ww * y) / tot),
            "brier": bs,
            "brier_index": 100.0 * (1.0 - np.sqrt(bs)),
            "ece": ce_value(pairs, w, o_ece),
            "ece_helm": ce_value(pairs, w, o_helm),
            "smece": smooth_ece_auto(p, y, w, positions=grid_cache)[0],
        }
        if "rms_ce" in keys:
            out["rms_ce"] = ce_value(pairs, w, o_rms)
        g = pool_ties(y, p, w)
        out["corp_mcb"] = corp_from_groups(g.x, g.w, g.ysum)[1]
        # rows drawn zero times are not in the resample (an empty group has no risk)
        m = slice(None) if w is None else w > 0
        rc = _curve(y[m] > 0.5, p[m], None if w is None else w[m])[1]
        out["aurc"], out["e_aurc"] = _aurc_pair(rc)
        out["selective_area"] = helm_coverage_accuracy_area(rc)
        out["accuracy_top10"] = helm_accuracy_at_top(rc, 0.1)
        if sc.mc is not None:
            per, big, k = sc.mc
            out["mc_brier_lm_eval"] = float(np.sum(ww * per) / tot)
            out["mc_brier_bigbench"] = float(np.sum(ww * big) / np.sum(ww * k))
        return {k: float(v) for k, v in out.items()}

    return stat, keys


def point_estimates(rec: Any, sc: Scored) -> tuple[dict[str, float], list[str]]:
    """The measures without an interval (Platt, temperature, abstention), and
    the notes of those the log does not allow (a fit that has no answer)."""
    import warnings

    from ..metrics.abstention import abstention_scores
    from ..metrics.recalibration import platt_calibration_error, temperature_scaling

    out: dict[str, float] = {}
    notes: list[str] = []
    if sc.p is not None and sc.n >= 2:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            pl = platt_calibration_error(sc.y, sc.p, n_bins=10, binning="helm")
        out.update(
            platt_ece=pl.calibration_error, platt_ece_1_bin=pl.calibration_error_1_bin
        )
        if np.isnan(pl.coef):  # one class: no coefficients (the API's NaN)
            right = "right" if sc.y[0] else "wrong"
            notes.append(f"no Platt coefficients: every answer is {right}, nothing to fit")
        elif np.isinf(pl.coef):  # the API's infinite slope and NaN intercept
            notes.append(
                "no Platt coefficients: the confidences separate right from wrong "
                "answers (no finite fit; the ECE after scaling is that of the limit)"
            )
        else:
            out.update(platt_coef=pl.coef, platt_intercept=pl.intercept)
    if sc.mc is not None:
        try:
            ts = temperature_scaling(rec.gold, ragged_logprobs(rec))
        except ValueError as exc:  # e.g. a gold choice of log-likelihood -inf
            notes.append(f"no temperature scaling: {exc}")
        else:
            out.update(
                temperature=ts.temperature,
                ts_mc_brier=ts.brier_score,
                ts_rms_ce=ts.rms_calibration_error,
            )
    if rec.attempted is not None:
        ab = abstention_scores(rec.correct, rec.attempted)
        out.update(
            coverage=ab.coverage,
            accuracy_attempted=ab.accuracy_given_attempted,
            f_score=ab.f_score,
        )
    return {k: float(v) for k, v in out.items()}, notes


def ragged_logprobs(rec: Any) -> list[np.ndarray]:
    """Each question's choice log-likelihoods (the records hold them concatenated)."""
    bounds = np.cumsum(rec.n_choices)[:-1]
    return np.split(rec.choice_logprobs, bounds)
