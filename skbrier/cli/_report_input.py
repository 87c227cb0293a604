"""The input of ``skbrier report`` (in memory): the columns read from the
file, the rows each audit scores (one job per ``--p-col`` and group, the rows
left out and why), the checks of the columns' roles and of the forecasts
(label mix-ups, complementary columns), and the provenance of the input."""

from __future__ import annotations

import argparse
import warnings

import numpy as np

from ._common import CLIError, warn_rows_without_group
from ._read import is_missing, label_mixup, outcomes, probabilities, read_input, weights


def _load(args):
    """Read the needed columns; returns the table and the checked arrays."""
    p_cols = args.p_col
    roles = [args.y_col, *p_cols]
    numeric = list(p_cols)
    if args.weight_col is not None:
        roles.append(args.weight_col)
        numeric.append(args.weight_col)
    if args.group_col is not None:
        roles.append(args.group_col)
    roles += getattr(args, "subgroup_col", None) or []
    table = read_input(args.file, roles, numeric, args)
    path = table.name
    if args.na == "error":
        _refuse_missing(table, roles)
    cols = table.columns
    y = outcomes(cols[args.y_col], args.y_col, path, args.pos_label, decimal=args.decimal)
    p = {
        c: probabilities(cols[c], c, path, decimal=args.decimal, percent=args.percent)
        for c in p_cols
    }
    w = None
    if args.weight_col is not None:
        w = weights(cols[args.weight_col], args.weight_col, path, decimal=args.decimal)
    # the columns read are not kept beside the arrays made of them
    kept = {args.group_col, None, *(getattr(args, "subgroup_col", None) or [])}
    for c in {args.y_col, *p_cols, args.weight_col} - kept:
        del cols[c]
    return table, y, p, w


def _refuse_missing(table, roles) -> None:
    """--na error: name the file, the column and the first row with a gap."""
    first, where = -1, None
    for col in dict.fromkeys(roles):
        miss = np.flatnonzero(is_missing(table.columns[col]))
        if miss.size and (where is None or miss[0] < first):
            first, where = int(miss[0]), col
    if where is not None:
        raise CLIError(
            f"{table.name}: column '{where}' has a missing value in row {first + 2} "
            "(--na error; the default --na drop leaves such rows out)."
        )


def _take(a: np.ndarray | None, keep: np.ndarray, all_kept: bool) -> np.ndarray | None:
    """``a[keep]``, without a copy when every row is kept."""
    if a is None or all_kept:
        return a
    return a[keep]


def _rows_key(keep: np.ndarray) -> str:
    """A digest of the rows a report scores (reports are compared pair by pair
    only when they score the same rows of the file)."""
    import hashlib

    return hashlib.blake2b(np.packbits(keep).tobytes(), digest_size=16).hexdigest()


def _groups(table, args, n: int) -> list[tuple[str | None, np.ndarray | None]]:
    """``[(group, rows)]``: one entry with ``rows=None`` (all rows) without
    --group-col."""
    if args.group_col is None:
        return [(None, None)]
    g = table.columns[args.group_col]
    counts = np.bincount(g.codes[g.codes >= 0], minlength=len(g.levels))
    warn_rows_without_group(int((g.codes < 0).sum()), args.group_col, stacklevel=3)
    return [(lv, g.codes == k) for k, lv in enumerate(g.levels) if counts[k]]


def _jobs(table, y, p, w, args) -> tuple[list, dict, dict, dict]:
    """``[(name, y, p, w, rows_key)]``: one audit per --p-col (and per group).

    By default (``--na drop``) every model of a group is scored on the same
    rows: those where the outcome, the weight and *every* forecast are
    present (so the models can be compared pair by pair); ``--na per-model``
    scores each model on its own complete rows.  Returns the jobs and, per
    audit, the rows used, the rows dropped and why they were dropped.
    """
    per_model = args.na == "per-model"
    base = ~np.isnan(y)
    if w is not None:
        base &= ~np.isnan(w)
    present = {c: ~np.isnan(p[c]) for c in args.p_col}
    every = base.copy()
    for c in args.p_col:
        every &= present[c]
    jobs, used, dropped, causes = [], {}, {}, {}
    for grp, rows in _groups(table, args, len(y)):
        in_group = np.ones(len(y), dtype=bool) if rows is None else rows
        n_group = int(in_group.sum())
        n_base = int(np.count_nonzero(base & in_group))
        common = every & in_group
        n_common = int(common.sum())
        common_key = _rows_key(common)
        y_common = _take(y, common, n_common == len(y))
        w_common = _take(w, common, n_common == len(y))
        common_rows = None if n_common == len(y) else common
        for c in args.p_col:
            if grp is None:
                name = c
            else:
                name = grp if len(args.p_col) == 1 else f"{grp} / {c}"
            if per_model:
                keep = base & present[c] & in_group
                n_keep = int(keep.sum())
                all_kept = n_keep == len(y)
                job = (
                    name,
                    _take(y, keep, all_kept),
                    _take(p[c], keep, all_kept),
                    _take(w, keep, all_kept),
                    _rows_key(keep),
                    None if all_kept else keep,
                )
            else:
                n_keep = n_common
                job = (
                    name,
                    y_common,
                    _take(p[c], common, n_keep == len(y)),
                    w_common,
                    common_key,
                    common_rows,
                )
            jobs.append(job)
            used[name] = n_keep
            dropped[name] = n_group - n_keep
            own = n_base - int(np.count_nonzero(base & present[c] & in_group))
            causes[name] = {
                "missing outcome or weight": n_group - n_base,
                "missing forecast": own,
                "missing forecast of another model": n_group
                - n_keep
                - (n_group - n_base)
                - own,
            }
    return jobs, used, dropped, causes


def _rows_note(name: str, used: dict, dropped: dict, causes: dict) -> str | None:
    """The note of a report that does not use every row (None when it does)."""
    if not dropped[name]:
        return None
    note = (
        f"Rows used: {used[name]} of {used[name] + dropped[name]}; {dropped[name]} "
        "dropped for a missing outcome, forecast or weight"
    )
    other = causes[name]["missing forecast of another model"]
    if other:
        note += (
            f" ({other} of them only because another model's forecast is missing: "
            "every model is scored on the same rows; --na per-model scores each on "
            "its own rows)"
        )
    return note + "."


def _warn_mixups(jobs, args) -> None:
    from .._core.diagnose import HardForecastWarning
    from .._core.hard import hard_forecast_message, is_hard

    for name, y, p, w, *_ in jobs:
        who = f"'{name}'" if len(jobs) > 1 else f"column '{args.p_col[0]}'"
        if is_hard(p):  # the API's warning, naming the column (see _make_reports)
            warnings.warn(
                hard_forecast_message(who, "export the predicted probabilities"),
                HardForecastWarning,
                stacklevel=2,
            )
        msg = label_mixup(y, p, w)
        if msg:
            warnings.warn(f"{who}: {msg}", UserWarning, stacklevel=2)
    for i, (a, _, pa, _, rows_a, *_) in enumerate(jobs):
        for b, _, pb, _, rows_b, *_ in jobs[i + 1 :]:
            # complements up to the rounding of an export (not two 0.5 columns)
            if (
                rows_a == rows_b
                and pa.size
                and np.allclose(pa + pb, 1.0, rtol=0, atol=1e-3)
                and not np.allclose(pa, pb, rtol=0, atol=1e-3)
            ):
                warnings.warn(
                    f"'{a}' and '{b}' sum to one in every row: they look like the two "
                    "columns of predict_proba (the probabilities of the two classes); "
                    "give only the column of the event's probability as --p-col.",
                    UserWarning,
                    stacklevel=2,
                )


def _provenance(table, args, used: dict, dropped: dict, causes: dict) -> dict:
    import datetime
    import shlex

    options = {
        "sep": table.info.get("sep"),
        "decimal": args.decimal,
        "encoding": table.info.get("encoding"),
        "comment": args.comment,
        "na": args.na,
        "percent": args.percent,
        "pos_label": args.pos_label,
        "cov": args.cov,
        "confidence_level": args.confidence_level,
        "n_bins": args.n_bins,
        "thresholds": args.thresholds,
        "prevalence": args.prevalence,
        "random_state": args.random_state,
        "n_resamples": args.n_resamples,
        "n_jobs": args.n_jobs,
        "format": table.info.get("format"),
        "compression": table.info.get("compression"),
        "reader": table.info.get("engine"),
    }
    argv = getattr(args, "argv", None)
    command = None if argv is None else shlex.join(["skbrier", *argv])
    return {
        "input": args.file,
        "sha256": table.sha256,
        "rows_read": table.n_rows,
        "rows_used": used,
        "rows_dropped": dropped,
        "rows_dropped_why": {
            name: {k: v for k, v in why.items() if v} for name, why in causes.items()
        },
        "rows_compared": (
            "each model on its own complete rows (--na per-model)"
            if args.na == "per-model"
            else "every model on the same rows: a row missing any model's forecast "
            "is left out for all"
        ),
        "columns": {
            "outcome": args.y_col,
            "forecast": list(args.p_col),
            "weight": args.weight_col,
            "group": args.group_col,
            **({"subgroups": args.subgroup_col} if args.subgroup_col else {}),
        },
        "options": {k: v for k, v in options.items() if v is not None},
        "command": command,
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
    }


def _check_roles(args: argparse.Namespace, engine: str) -> None:
    """Each column plays one role: a repeated --p-col, or one column named as
    two of --y-col, --p-col, --weight-col and --group-col, is a CLIError (the
    outcomes given as --p-col were scored as a perfect forecast).  --group-col
    counts where ``engine`` takes it (the others refuse it by name)."""
    p_cols = args.p_col
    if len(set(p_cols)) != len(p_cols):
        dup = sorted({c for c in p_cols if p_cols.count(c) > 1})
        raise CLIError(f"--p-col {dup[0]!r} is given more than once.")
    options = [("--y-col", args.y_col), *(("--p-col", c) for c in p_cols)]
    options.append(("--weight-col", args.weight_col))
    if engine in ("memory", "spark"):
        options.append(("--group-col", args.group_col))
    first: dict[str, str] = {}
    for option, col in options:
        if col is None:
            continue
        if col in first:
            raise CLIError(
                f"column {col!r} is given as {first[col]} and as {option}: --y-col "
                "names the outcomes, --p-col the predicted probabilities, "
                "--weight-col the weights and --group-col the groups."
            )
        first[col] = option
