"""ForecastBench's published files: question, resolution and forecast sets; frozen effects.

ForecastBench (forecastingresearch/forecastbench) publishes its question sets
(``{"forecast_due_date", "question_set", "questions": [...]}``), resolution
sets (``"resolutions": [{id, source, direction, resolution_date,
resolved_to, resolved}]``, written by ``src/orchestration/_io.py``
``upload_resolution_set``), forecast sets (``{"organization", "model",
"forecasts": [{id, source, forecast, resolution_date, ...}]}``) and, since
2026, the question fixed effects its leaderboard estimated
(``question_fixed_effects.{date}.{leaderboard}.json``: records with
``forecast_due_date, source, id, horizon, leaderboard_type,
question_fixed_effect``, written by ``src/leaderboard/main.py``
``write_question_fixed_effects``).  The readers return plain columns
(``dict`` of 1-D arrays; ``pandas.DataFrame(columns)`` makes a frame) with a
``question`` column holding ForecastBench's question key, so the rows of
several files join on it and the frozen effects apply to it directly.
"""

from __future__ import annotations

import datetime as _dt
import math
import os
from collections.abc import Iterable
from typing import Any

import numpy as np

from .._core.params import check_real
from ..io._parse import Bad, decode, parse_json, read_bytes
from ._parity import _dates, _is_missing

__all__ = [
    "forecastbench_rows",
    "question_key",
    "read_forecast_set",
    "read_question_effects",
    "read_question_set",
    "read_resolution_set",
]

#: ForecastBench drops horizons over a year (``MODEL_RELEASE_DAYS_CUTOFF`` era, 2026)
DEFAULT_MAX_HORIZON = 365


def question_key(
    forecast_due_date: Any, source: Any, id: Any, lead_time: Any = None
) -> str:
    """ForecastBench's question key (``question_pk`` of ``src/leaderboard/main.py``).

    A dataset question is one question per horizon,
    ``"{forecast_due_date}_{source}_{id}_{lead_time}"``; a market question
    (``lead_time`` None or NaN) is ``"{forecast_due_date}_{source}_{id}"``.

    Parameters
    ----------
    forecast_due_date : str or datetime.date
        The question set's due date (``YYYY-MM-DD``).
    source, id : str
        The question's source and its id within the source.
    lead_time : int, optional
        Days from the due date to the resolution date (dataset questions).

    Returns
    -------
    str

    Examples
    --------
    >>> from skbrier.leaderboards import question_key
    >>> question_key("2025-03-02", "fred", "AAA", 7.0)
    '2025-03-02_fred_AAA_7'
    >>> question_key("2025-03-02", "polymarket", "0x1f", None)
    '2025-03-02_polymarket_0x1f'
    """
    for name, value in (
        ("forecast_due_date", forecast_due_date),
        ("source", source),
        ("id", id),
    ):
        if _is_missing(value) or (isinstance(value, str) and not value):
            raise ValueError(f"{name} is missing (a question key needs it).")
    due = str(forecast_due_date)[:10]
    _date(due, "forecast_due_date")
    if _is_missing(lead_time):
        return f"{due}_{source}_{id}"
    try:
        h = math.nan if isinstance(lead_time, bool) else float(lead_time)
    except (TypeError, ValueError):
        h = math.nan
    if not h.is_integer() or h < 0:
        raise ValueError(
            "lead_time must be a whole number of days, not negative (ForecastBench's "
            f"horizon), got {lead_time!r}."
        )
    return f"{due}_{source}_{id}_{int(h)}"


def _name(path: Any) -> str:
    """The file's name in messages (a file object's ``name`` when it has one)."""
    if isinstance(path, (str, os.PathLike)):
        return os.fsdecode(os.fspath(path))
    name = getattr(path, "name", None)
    return name if isinstance(name, str) else "<file object>"


def _json(path: Any) -> Any:
    """The JSON document of a path or file object, read by :mod:`skbrier.io`'s
    checks: a missing file or a directory is a one-line ``OSError`` naming it;
    text that is not UTF-8, invalid JSON (an empty file too) or JSON nested too
    deeply is a ValueError naming the file."""
    try:
        if isinstance(path, (str, os.PathLike)):
            data: Any = read_bytes(os.fsdecode(os.fspath(path)), "JSON file")
        else:
            data = path.read()
        return parse_json(
            decode(data, "(file)") if isinstance(data, bytes) else data, "(file)"
        )
    except Bad as bad:
        raise ValueError(f"path: {_name(path)}: {bad.problem}.") from None


def _key(due: Any, r: dict[str, Any], h: Any, where: str) -> str:
    """:func:`question_key` of record ``r``, its errors naming ``where``."""
    try:
        return question_key(due, r.get("source"), r.get("id"), h)
    except ValueError as exc:
        raise ValueError(f"{str(exc).rstrip('.')} ({where}).") from None


def _load(path: Any, key: str, what: str) -> dict[str, Any]:
    data = _json(path)
    if not isinstance(data, dict) or not isinstance(data.get(key), list):
        raise ValueError(
            f"path: {_name(path)} is not a ForecastBench {what} file (a JSON object "
            f"with a {key!r} list)."
        )
    for i, r in enumerate(data[key]):
        if not isinstance(r, dict):
            raise ValueError(
                f"path: {_name(path)}: {key}[{i}]: expected an object, got "
                f"{type(r).__name__}."
            )
    return data


def _date(value: Any, what: str) -> _dt.date:
    """A ``YYYY-MM-DD`` date (a longer ISO time is cut to its date)."""
    try:
        return _dt.date.fromisoformat(str(value)[:10])
    except ValueError:
        raise ValueError(f"{what} {value!r} is not a date (YYYY-MM-DD).") from None


def _due(data: dict[str, Any], path: Any) -> str:
    """The file's ``forecast_due_date``, checked."""
    due = data.get("forecast_due_date")
    if _is_missing(due):
        raise ValueError(
            f"path: {_name(path)}: forecast_due_date is missing (the question keys "
            "and horizons count from it)."
        )
    _date(due, f"path: {_name(path)}: forecast_due_date")
    return str(due)


def _columns(records: list[dict[str, Any]], extra: dict[str, Any]) -> dict[str, np.ndarray]:
    names: list[str] = []
    for r in records:
        for k in r:
            if k not in names:
                names.append(k)
    cols = {k: [r.get(k) for r in records] for k in names}
    for k, v in extra.items():
        cols[k] = [v] * len(records)
    out: dict[str, np.ndarray] = {}
    for k, vals in cols.items():
        arr = np.empty(len(vals), dtype=object)
        arr[:] = vals
        if vals and all(
            isinstance(v, (int, float)) and not isinstance(v, bool) for v in vals
        ):
            arr = np.asarray(vals, dtype=np.float64)
        out[k] = arr
    return out


def _days(due: str, resolution_date: Any, where: str) -> float:
    if _is_missing(resolution_date):
        return math.nan
    d1 = _date(resolution_date, f"{where}: resolution_date")
    return float((d1 - _date(due, "forecast_due_date")).days)


def _combo(v: Any) -> bool:
    return isinstance(v, (list, tuple))


def _market(market_sources: Any) -> set[str]:
    """``market_sources`` as a set of names: None, or an iterable of strings
    (one string would be read as its letters and match no source)."""
    if market_sources is None:
        return set()
    if isinstance(market_sources, (str, bytes)) or not isinstance(market_sources, Iterable):
        raise TypeError(
            "market_sources must be an iterable of source names, e.g. "
            f"['manifold', 'metaculus'], got {market_sources!r}."
        )
    market = set(market_sources)
    bad = [m for m in market if not isinstance(m, str)]
    if bad:
        raise TypeError(f"market_sources must hold source names (str), got {bad[0]!r}.")
    return market


def _keyed(
    records: list[dict[str, Any]],
    due: str,
    market_sources: Iterable[str] | None,
    where: str,
) -> list[dict[str, Any]]:
    """Drop combination questions (ForecastBench's ``is_combo``); add horizon and key."""
    market = _market(market_sources)
    out = []
    for i, r in enumerate(records):
        if _combo(r.get("id")):
            continue
        r = dict(r)
        h = _days(due, r.get("resolution_date"), f"{where}[{i}]")
        if r.get("source") in market:
            h = math.nan
        r["horizon"] = h
        r["question"] = _key(due, r, h, f"{where}[{i}]")
        out.append(r)
    return out


def read_question_set(path: Any) -> dict[str, np.ndarray]:
    """Read a ForecastBench question set (``{date}-llm.json`` or ``{date}-human.json``).

    Parameters
    ----------
    path : str, path-like or file object
        The JSON file.

    Returns
    -------
    dict of str to ndarray
        One entry per question field (``id``, ``source``, ``question``,
        ``resolution_dates``, ...) plus ``forecast_due_date`` and
        ``question_set``.

    Raises
    ------
    ValueError
        When the file lacks a ``questions`` list.

    Examples
    --------
    >>> import io, json
    >>> from skbrier.leaderboards import read_question_set
    >>> f = io.StringIO(json.dumps({"forecast_due_date": "2025-03-02",
    ...     "question_set": "2025-03-02-llm.json",
    ...     "questions": [{"id": "AAA", "source": "fred",
    ...                    "resolution_dates": ["2025-03-09"]}]}))
    >>> read_question_set(f)["id"].tolist()
    ['AAA']
    """
    data = _load(path, "questions", "question-set")
    return _columns(
        data["questions"],
        {
            "forecast_due_date": data.get("forecast_due_date"),
            "question_set": data.get("question_set"),
        },
    )


def read_resolution_set(
    path: Any, *, market_sources: Iterable[str] | None = None
) -> dict[str, np.ndarray]:
    """Read a ForecastBench resolution set (``{date}_resolution_set.json``).

    Combination questions (a list ``id``) are dropped, as ForecastBench's
    leaderboard does.  ``horizon`` is the days from the due date to the
    resolution date (NaN for ``market_sources``, whose key has no horizon)
    and ``question`` is :func:`question_key`.

    Parameters
    ----------
    path : str, path-like or file object
        The JSON file.
    market_sources : iterable of str, optional
        Sources of market questions (ForecastBench: ``manifold``,
        ``metaculus``, ``polymarket``, ``infer``); default: none.

    Returns
    -------
    dict of str to ndarray
        ``id, source, direction, resolution_date, resolved_to, resolved,
        forecast_due_date, horizon, question``.

    Examples
    --------
    >>> import io, json
    >>> from skbrier.leaderboards import read_resolution_set
    >>> f = io.StringIO(json.dumps({"forecast_due_date": "2025-03-02",
    ...     "question_set": "2025-03-02-llm.json", "resolutions": [
    ...     {"id": "AAA", "source": "fred", "direction": None,
    ...      "resolution_date": "2025-03-09", "resolved_to": 1.0, "resolved": True}]}))
    >>> read_resolution_set(f)["question"].tolist()
    ['2025-03-02_fred_AAA_7']
    """
    data = _load(path, "resolutions", "resolution-set")
    due = _due(data, path)
    rows = _keyed(
        data["resolutions"], due, market_sources, f"path: {_name(path)}: resolutions"
    )
    return _columns(rows, {"forecast_due_date": due})


def read_forecast_set(
    path: Any, *, market_sources: Iterable[str] | None = None
) -> dict[str, np.ndarray]:
    """Read a ForecastBench forecast set (one forecaster's forecasts of one question set).

    As :func:`read_resolution_set`: combination questions dropped, plus
    ``horizon``, ``question`` and the file-level ``organization``,
    ``model``, ``model_organization`` and ``forecast_due_date`` on every row.

    Parameters
    ----------
    path : str, path-like or file object
        The JSON file.
    market_sources : iterable of str, optional
        Sources of market questions (no horizon in their key).

    Returns
    -------
    dict of str to ndarray

    Examples
    --------
    >>> import io, json
    >>> from skbrier.leaderboards import read_forecast_set
    >>> f = io.StringIO(json.dumps({"organization": "ForecastBench",
    ...     "model": "Always 0.5", "model_organization": "ForecastBench",
    ...     "forecast_due_date": "2025-03-02", "question_set": "2025-03-02-llm.json",
    ...     "forecasts": [{"id": "AAA", "source": "fred", "forecast": 0.5,
    ...                    "resolution_date": "2025-03-09"}]}))
    >>> cols = read_forecast_set(f)
    >>> cols["model"].tolist(), cols["forecast"].tolist()
    (['Always 0.5'], [0.5])
    """
    data = _load(path, "forecasts", "forecast-set")
    due = _due(data, path)
    meta = {
        k: data.get(k)
        for k in ("organization", "model", "model_organization", "question_set")
    }
    meta["forecast_due_date"] = due
    rows = _keyed(data["forecasts"], due, market_sources, f"path: {_name(path)}: forecasts")
    return _columns(rows, meta)


def read_question_effects(
    path: Any, *, leaderboard_type: str | None = None
) -> dict[str, float]:
    """Read ForecastBench's published question fixed effects.

    The file (``question_fixed_effects.{date}.{leaderboard}_leaderboard.json``,
    https://www.forecastbench.org/datasets/question-fixed-effects/) is a
    list of records ``forecast_due_date, source, id, horizon (null for market
    questions), leaderboard_type, question_fixed_effect``; higher is harder.
    Pass the result as ``question_effects=`` to
    :func:`~skbrier.difficulty_adjusted_brier` or
    :func:`~skbrier.leaderboard` to score new forecasters against the
    frozen difficulties, with questions named by :func:`question_key`.

    Parameters
    ----------
    path : str, path-like or file object
        The JSON file.
    leaderboard_type : {"baseline", "tournament"}, optional
        Needed when the file holds effects of both leaderboards.

    Returns
    -------
    dict of str to float
        Question key to fixed effect.

    Raises
    ------
    ValueError
        When a record lacks a field, a key repeats with another effect, or
        the file mixes leaderboards and ``leaderboard_type`` is not given.

    Examples
    --------
    >>> import io, json
    >>> from skbrier.leaderboards import read_question_effects
    >>> f = io.StringIO(json.dumps([
    ...     {"forecast_due_date": "2025-03-02", "source": "fred", "id": "AAA",
    ...      "horizon": 7.0, "leaderboard_type": "baseline", "question_fixed_effect": 0.05},
    ...     {"forecast_due_date": "2025-03-02", "source": "manifold", "id": "m1",
    ...      "horizon": None, "leaderboard_type": "baseline", "question_fixed_effect": -0.02}]))
    >>> read_question_effects(f)
    {'2025-03-02_fred_AAA_7': 0.05, '2025-03-02_manifold_m1': -0.02}
    """
    data = _json(path)
    fields = ("forecast_due_date", "source", "id", "horizon", "question_fixed_effect")
    if not isinstance(data, list) or not all(
        isinstance(r, dict) and all(k in r for k in fields) for r in data
    ):
        raise ValueError(
            f"path: {_name(path)} is not a ForecastBench question-fixed-effects file (a "
            f"JSON list of records with fields {', '.join(fields)})."
        )
    if not data:
        raise ValueError(f"path: {_name(path)}: the file holds no records.")
    types = sorted({str(r.get("leaderboard_type")) for r in data})
    if leaderboard_type is None and len(types) > 1:
        raise ValueError(
            f"leaderboard_type: the file holds the effects of {types}; pick one."
        )
    out: dict[str, float] = {}
    for i, r in enumerate(data):
        if leaderboard_type is not None and r.get("leaderboard_type") != leaderboard_type:
            continue
        key = _key(
            r["forecast_due_date"], r, r["horizon"], f"path: {_name(path)}: record {i}"
        )
        v = r["question_fixed_effect"]
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
            raise ValueError(
                f"path: {_name(path)}: record {i}: question_fixed_effect {v!r} is not "
                "a finite number."
            )
        if key in out and out[key] != v:
            raise ValueError(f"path: question {key!r} has two different fixed effects.")
        out[key] = v
    if not out:
        raise ValueError(
            f"leaderboard_type: no effects of type {leaderboard_type!r} in the file."
        )
    return out


def forecastbench_rows(
    forecaster: Any,
    *,
    organization: Any = None,
    release_date: Any = None,
    latest_per_organization: int | None = None,
    lead_time: Any = None,
    max_lead_time: float | None = DEFAULT_MAX_HORIZON,
    submission_date: Any = None,
    max_inactive_days: float | None = None,
    reference_date: Any = None,
) -> np.ndarray:
    """Rows ForecastBench's 2026 leaderboard keeps: latest models, horizons up to a year.

    Three optional culls, each applied when its inputs are given:

    * ``latest_per_organization=k`` with ``organization`` and
      ``release_date``: keep the rows of the ``k`` most recently released
      forecasters of each organisation (ties by name);
    * ``lead_time`` with ``max_lead_time``: drop rows whose lead time
      (ForecastBench's horizon) exceeds ``max_lead_time`` days (NaN lead times,
      market questions, are kept);
    * ``max_inactive_days`` with ``submission_date``: hide the teams without a
      submission for that long, i.e. drop every row of a forecaster whose latest
      ``submission_date`` (e.g. ForecastBench's ``forecast_due_date``) is more
      than ``max_inactive_days`` days before ``reference_date`` (default: the
      latest submission date of all rows).

    Parameters
    ----------
    forecaster : array-like of shape (n_rows,)
    organization, release_date : array-like of shape (n_rows,), optional
        Constant within a forecaster; release dates as dates, ISO 8601
        strings, ``datetime64`` or plain numbers (compared as days; the
        kinds may mix, except numbers with dates).
    latest_per_organization : int, optional
    lead_time : array-like of shape (n_rows,), optional
        Days from the due date to resolution.
    max_lead_time : float or None, default=365
    submission_date : array-like of shape (n_rows,), optional
        Date of each row's submission (dates, ``YYYY-MM-DD`` strings or
        numbers of days).
    max_inactive_days : float, optional
        ForecastBench hides teams without a submission for a year: 365.
    reference_date : date, str or float, optional
        "Now" of the inactivity rule, in the kind of ``submission_date``.

    Returns
    -------
    ndarray of bool, shape (n_rows,)
        The rows to keep.

    Examples
    --------
    >>> from skbrier.leaderboards import forecastbench_rows
    >>> forecastbench_rows(["a1", "a2", "b1", "a1"], organization=["A", "A", "B", "A"],
    ...     release_date=["2024-01-01", "2025-01-01", "2023-01-01", "2024-01-01"],
    ...     latest_per_organization=1, lead_time=[7, 7, 7, 730]).tolist()
    [False, True, True, False]
    >>> forecastbench_rows(["a", "b", "a"], submission_date=["2024-01-07", "2025-03-02",
    ...     "2024-02-03"], max_inactive_days=365).tolist()
    [False, True, False]
    """
    f = np.asarray(forecaster, dtype=object)
    keep = np.ones(f.shape[0], dtype=bool)
    if reference_date is not None and max_inactive_days is None:
        raise ValueError(
            "reference_date is the 'now' of the inactivity rule: it needs "
            "max_inactive_days (and submission_date)."
        )
    if latest_per_organization is not None:
        k = latest_per_organization
        if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or k < 1:
            raise ValueError(
                f"latest_per_organization must be a positive integer, got {k!r}."
            )
        if organization is None or release_date is None:
            raise ValueError(
                "latest_per_organization needs organization and release_date (one per row)."
            )
        org = np.asarray(organization, dtype=object)
        rel = np.asarray(release_date, dtype=object)
        if org.shape != f.shape or rel.shape != f.shape:
            raise ValueError("organization and release_date must have one value per row.")
        first: dict[Any, tuple[Any, Any]] = {}
        for name, o, r in zip(f.tolist(), org.tolist(), rel.tolist()):
            if _is_missing(o):  # forecasters without one are not one organization
                raise ValueError(
                    f"organization: forecaster {name!r} has no organization; give one "
                    "per forecaster (its own name for a forecaster of none)."
                )
            if _is_missing(r):
                raise ValueError(f"release_date: forecaster {name!r} has no release date.")
            if name in first and first[name] != (o, r):
                raise ValueError(
                    f"organization, release_date: forecaster {name!r} has more than one "
                    "organization or release date; give one per forecaster."
                )
            first[name] = (o, r)
        # compared as days, not as given: text, Timestamps and datetime64 mix,
        # and "2024-9-01" must not sort after "2024-10-01"
        days, _ = _dates([r for _, r in first.values()], "release_date")
        by_org: dict[Any, list[tuple[Any, str]]] = {}
        for (name, (o, _)), d in zip(first.items(), days.tolist()):
            by_org.setdefault(o, []).append((d, str(name)))
        latest: set[str] = set()
        for models in by_org.values():
            models.sort(key=lambda t: (t[0], t[1]), reverse=True)
            latest.update(name for _, name in models[:k])
        keep &= np.array([str(v) in latest for v in f.tolist()], dtype=bool)
    if lead_time is not None and max_lead_time is not None:
        cap = check_real(max_lead_time, "max_lead_time", low=0.0)
        try:
            h = np.asarray(lead_time, dtype=np.float64)
        except (TypeError, ValueError):
            raise TypeError(
                "lead_time must hold numbers of days (NaN for market questions)."
            ) from None
        if h.shape != f.shape:
            raise ValueError("lead_time must have one value per row.")
        keep &= ~(h > cap)
    if max_inactive_days is not None:
        keep &= _active(f, submission_date, max_inactive_days, reference_date)
    return keep


def _active(
    f: np.ndarray, submission_date: Any, max_inactive_days: Any, reference_date: Any
) -> np.ndarray:
    """Rows of the forecasters with a submission within ``max_inactive_days`` of the reference."""
    limit = check_real(max_inactive_days, "max_inactive_days", low=0.0)
    if submission_date is None:
        raise ValueError("max_inactive_days needs submission_date (one per row).")
    values = np.asarray(submission_date, dtype=object)
    if values.shape != f.shape:
        raise ValueError("submission_date must have one value per row.")
    days, is_date = _dates(values.tolist(), "submission_date")
    if np.isnan(days).any():
        raise ValueError(
            f"submission_date: row {int(np.argmax(np.isnan(days)))} has no date; "
            "fill it in or drop the row."
        )
    ref = float(days.max())
    if reference_date is not None:
        r, ref_is_date = _dates([reference_date], "reference_date")
        if ref_is_date != is_date or np.isnan(r[0]):
            raise TypeError(
                f"reference_date must be a {'date' if is_date else 'number'} like "
                f"submission_date, got {reference_date!r}."
            )
        ref = float(r[0])
    _, code = np.unique(np.array([str(v) for v in f.tolist()]), return_inverse=True)
    last = np.full(int(code.max()) + 1, -np.inf)
    np.maximum.at(last, code, days)
    return np.asarray(ref - last[code] <= limit)
