"""A TRIPOD+AI report of a model's performance, with its checklist.

:func:`tripod_report` arranges the numbers of one or more
:class:`CalibrationReport` objects in the sections that the TRIPOD+AI items
concerning performance ask for (Collins et al. 2024): participants and events,
sample size (the precision achieved, :func:`skbrier.validation.achieved_precision`),
missing data, performance measures with intervals, calibration, clinical
utility, the distribution of risks by outcome and subgroups; and a
machine-readable checklist saying which section answers each item and what the
authors must still write.  No number is computed here: every one comes from
the report or from a public function of skbrier.
"""

from __future__ import annotations

import dataclasses
import datetime
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from .._core.params import check_bool
from .._core.results import Result
from . import _io, _json, _text
from ._tripod_items import CITATION, ITEMS, SECTIONS, SOURCE_URL
from ._tripod_measures import (
    PERFORMANCE_MEASURES,
    _measure,
    _precision,
    precision_rows,
    risk_distribution,
)

if TYPE_CHECKING:  # pragma: no cover
    from ._result import CalibrationReport

__all__ = [
    "CHECKLIST_SCHEMA",
    "PERFORMANCE_MEASURES",
    "TripodReport",
    "checklist_paths",
    "precision_rows",
    "risk_distribution",
    "tripod_report",
]

#: version of the layout of :meth:`TripodReport.checklist` and of its JSON
CHECKLIST_SCHEMA = "skbrier.tripod_checklist/1"


def checklist_paths(html_path: str | Path) -> tuple[Path, Path]:
    """``checklist.json`` and ``checklist.md`` beside the HTML page."""
    return Path(html_path).with_name("checklist.json"), Path(html_path).with_name(
        "checklist.md"
    )


def _check_missing(missing: Any, names: list[str]) -> dict | None:
    """``missing`` as ``{model: {cause: count}}`` (the same counts for every
    model when one mapping of counts is given)."""
    if missing is None:
        return None
    if not isinstance(missing, Mapping):
        raise TypeError(
            "missing must be a mapping of cause to the number of rows left out (or of "
            f"model name to such a mapping), got {type(missing).__name__}."
        )
    per_model = bool(missing) and all(isinstance(v, Mapping) for v in missing.values())
    table = missing if per_model else dict.fromkeys(names, missing)
    out = {}
    for name in names:
        if name not in table:
            raise ValueError(
                f"missing has no entry for the model {name!r}: give each model's "
                "counts, or one mapping of counts for all."
            )
        counts = table[name]
        for cause, count in counts.items():
            if isinstance(count, bool) or not isinstance(count, (int, np.integer)):
                raise TypeError(
                    f"missing[{cause!r}] must be an integer number of rows, got {count!r}."
                )
            if count < 0:
                raise ValueError(f"missing[{cause!r}] must be at least 0, got {count}.")
        out[name] = {str(k): int(v) for k, v in counts.items()}
    return out


def complete_provenance(provenance: Mapping[str, Any] | None) -> dict:
    """The provenance as the HTML report shows it: the date (today) and the
    versions added when absent."""
    from ._html import _versions

    info = dict(provenance or {})
    info.setdefault("date", datetime.date.today().isoformat())
    info.setdefault("versions", _versions())
    return info


@dataclasses.dataclass(frozen=True, repr=False)
class TripodReport(Result):
    """The TRIPOD+AI sections of one or more calibration reports.

    Made by :func:`skbrier.report.tripod_report` (or
    :meth:`skbrier.results.CalibrationReport.tripod`).

    Attributes
    ----------
    reports : dict of str to CalibrationReport
        The models evaluated, each on the whole evaluation sample.
    subgroups : dict of str to CalibrationReport
        The reports of key subgroups (empty: none given).
    precision : dict of str to AchievedPrecisionResult, str or None
        The precision each model's evaluation achieved against the targets
        of :func:`~skbrier.validation_sample_size` (None where the
        report keeps no rows; why not, a str, where the measures are
        undefined for the forecasts, e.g. hard 0/1 ones).
    missing : dict or None
        ``{model: {cause: rows left out}}``; None when not given.
    provenance : dict
        Where the numbers come from (input, rows, options, date, versions).

    Examples
    --------
    >>> import numpy as np
    >>> from skbrier.report import calibration_report, tripod_report
    >>> rng = np.random.default_rng(0)
    >>> p = rng.uniform(0.05, 0.6, 300)
    >>> trip = tripod_report(calibration_report(rng.uniform(size=300) < p, p))
    >>> trip.n_models, trip.n_answered + trip.n_to_supply
    (1, 26)
    """

    reports: dict
    subgroups: dict
    precision: dict
    missing: dict | None
    provenance: dict

    _summary_fields: ClassVar[tuple[str, ...]] = ("n_models", "n_answered", "n_to_supply")

    @property
    def n_models(self) -> int:
        """The number of models."""
        return len(self.reports)

    @property
    def n_answered(self) -> int:
        """The checklist items a section of the report answers."""
        return sum(item["status"] == "answered" for item in self.checklist())

    @property
    def n_to_supply(self) -> int:
        """The checklist items the authors must write."""
        return sum(item["status"] == "to supply" for item in self.checklist())

    def checklist(self) -> list[dict]:
        """The TRIPOD+AI items concerning performance, each answered or to supply.

        Returns
        -------
        list of dict
            One dict per item, in the checklist's order, with the keys
            ``id``, ``topic``, ``applies_to`` (``"D"``, ``"E"`` or
            ``"D;E"``), ``text`` (TRIPOD+AI's wording), ``status``
            (``"answered"`` or ``"to supply"``), ``section`` (the id of the
            section answering it, or None), ``section_title`` and
            ``to_supply`` (what the authors must still write, or None).
        """
        answered = {
            "10": any(
                v is not None and not isinstance(v, str) for v in self.precision.values()
            ),
            "11": self.missing is not None,
        }
        out = []
        for item in ITEMS:
            section = item.section if answered.get(item.id, True) else None
            to_supply = item.to_supply
            if item.id == "23a" and self.has_subgroups():
                to_supply = None
            if section is None and item.id in answered:
                to_supply = _UNANSWERED[item.id]
            out.append(
                {
                    "id": item.id,
                    "topic": item.topic,
                    "applies_to": item.applies_to,
                    "text": item.text,
                    "status": "answered" if section else "to supply",
                    "section": section,
                    "section_title": SECTIONS.get(section or ""),
                    "to_supply": to_supply,
                }
            )
        return out

    def _model_dict(
        self, name: str, rep: CalibrationReport, subgroup: bool = False
    ) -> dict:
        d = rep.to_dict()
        prec = None if subgroup else self.precision.get(name)
        missing = None if subgroup or self.missing is None else self.missing[name]
        return {
            "n_samples": rep.n_samples,
            "n_events": rep.n_events,
            "prevalence": rep.prevalence,
            "confidence_level": rep.confidence_level,
            "performance": {m: _measure(d, m) for m in PERFORMANCE_MEASURES},
            "net_benefit": d["net_benefit"],
            "sample_size": None
            if prec is None
            else {"unavailable": prec}
            if isinstance(prec, str)
            else {
                "measures": precision_rows(prec),
                "statements": prec.statements,
            },
            "risk_distribution": risk_distribution(rep),
            "missing": missing,
            # the report's own subgroup section (calibration_report(groups=...))
            "subgroup_section": None if rep.subgroups is None else rep.subgroups.to_dict(),
        }

    def has_subgroups(self) -> bool:
        """Whether the page has a subgroup section: reports of subgroups were
        given, or a report has its own (``calibration_report(groups=...)``)."""
        return bool(self.subgroups) or any(
            r.subgroups is not None for r in self.reports.values()
        )

    def to_dict(self) -> dict:
        """The sections' numbers and the checklist as a JSON-ready dict.

        Returns
        -------
        dict
            ``schema``, ``guideline`` (name, citation, url), ``models`` and
            ``subgroups`` (``{name: {"n_samples", "n_events", "prevalence",
            "confidence_level", "performance", "net_benefit", "sample_size",
            "risk_distribution", "missing", "subgroup_section"}}``;
            ``subgroup_section`` is the report's own subgroup section
            (``calibration_report(groups=...)``) or None; ``performance`` holds, per
            measure, the report's own ``estimate``, ``ci_low``, ``ci_high``
            and ``ci_method``), ``checklist`` and ``provenance``.
        """
        return _json.jsonable(
            {
                **self.checklist_dict(),
                "models": {n: self._model_dict(n, r) for n, r in self.reports.items()},
                "subgroups": {
                    n: self._model_dict(n, r, True) for n, r in self.subgroups.items()
                },
            }
        )

    def checklist_dict(self) -> dict:
        """The checklist with its provenance (what ``checklist.json`` holds).

        Returns
        -------
        dict
            ``schema`` (``"skbrier.tripod_checklist/1"``), ``guideline``
            (``{"name", "citation", "url"}``), ``checklist`` (see
            :meth:`checklist`) and ``provenance``.
        """
        return _json.jsonable(
            {
                "schema": CHECKLIST_SCHEMA,
                "guideline": {"name": "TRIPOD+AI", "citation": CITATION, "url": SOURCE_URL},
                "checklist": self.checklist(),
                "provenance": self.provenance,
            }
        )

    def to_json(self, *, indent: int | None = 2, checklist_only: bool = False) -> str:
        """The report (or its checklist alone) as strict JSON.

        Parameters
        ----------
        indent : int or None, default=2
            Indentation (None: one line).
        checklist_only : bool, default=False
            Only :meth:`checklist_dict` (``checklist.json``).

        Returns
        -------
        str
            Undefined numbers are ``null``.
        """
        only = check_bool(checklist_only, "checklist_only")
        payload = self.checklist_dict() if only else self.to_dict()
        return _json.dumps(payload, indent=indent)

    def to_markdown(self) -> str:
        """The checklist as a Markdown document (``checklist.md``).

        Returns
        -------
        str
            A heading with the citation, one table row per item (id, topic,
            status, the section answering it, what to supply) and the
            provenance.
        """
        return _checklist_markdown(self.checklist(), self.provenance)

    def to_html(self, path: str | Path | None = None) -> str:
        """The TRIPOD+AI page: the sections, the checklist and the provenance.

        Parameters
        ----------
        path : str or path-like, optional
            If given, the page is written there (atomically).

        Returns
        -------
        str
            The self-contained HTML text (no script, no external resource).
        """
        from ._tripod_html import tripod_html

        text = tripod_html(self)
        if path is not None:
            _io.write_text_atomic(path, text)
        return text


#: what to supply for an item no section answers for want of the data
_UNANSWERED = {
    "10": "How the study size was arrived at and whether it was sufficient (the "
    "report keeps no rows to judge the precision achieved).",
    "11": "How missing data were handled and how many rows were left out, with the "
    "reasons (pass missing= with the counts; skbrier report counts them).",
}


def _md_cell(value: Any) -> str:
    return "" if value is None else str(value).replace("|", "\\|").replace("\n", " ")


def _checklist_markdown(items: list[dict], provenance: Mapping[str, Any]) -> str:
    lines = [
        "# TRIPOD+AI checklist: items concerning performance",
        "",
        f"Items and wording from {CITATION} ({SOURCE_URL}).",
        "",
        "| Item | Topic | Status | Section | To supply |",
        "| --- | --- | --- | --- | --- |",
    ]
    for it in items:
        cells = (it["id"], it["topic"], it["status"], it["section_title"], it["to_supply"])
        lines.append("| " + " | ".join(_md_cell(c) for c in cells) + " |")
    lines += ["", "## Provenance", ""]
    for key, value in provenance.items():
        lines.append(f"- **{key.replace('_', ' ')}**: {_md_cell(_json.jsonable(value))}")
    return "\n".join(lines) + "\n"


def tripod_report(
    reports: CalibrationReport | Mapping[str, CalibrationReport],
    *,
    subgroups: Mapping[str, CalibrationReport] | None = None,
    missing: Mapping[str, Any] | None = None,
    provenance: Mapping[str, Any] | None = None,
    oe_ci_width: float = 0.2,
    slope_ci_width: float = 0.2,
    c_ci_width: float = 0.1,
    nb_ci_width: float = 0.2,
) -> TripodReport:
    r"""The TRIPOD+AI report of one or more models' performance.

    Arranges the report's numbers by the TRIPOD+AI items that concern
    performance [1]_: participants and events (items 20a, 20b, 21), the
    sample size as the precision achieved (item 10), missing data (11), the
    performance measures with intervals (12e, 23a: Brier score, Brier Index,
    scaled Brier score, C, O/E, calibration in the large, slope, ICI), the
    calibration curve with its band, the decision curve, the distribution of
    predicted risks among events and non-events (the core set of Van Calster
    et al. [2]_), and subgroups (23a); and a checklist of those items saying
    which section answers each and what the authors must still write.

    The sample-size section is :func:`skbrier.achieved_precision`
    on the report's rows at its confidence level (its first net-benefit
    threshold, when it has thresholds): the interval widths of O/E, the
    slope, C and the standardized net benefit against the targets of
    :func:`~skbrier.validation_sample_size`, each with a sentence
    such as "This sample is too small to judge the calibration slope to
    ±0.1".  Those intervals are iid Wald (and bootstrap for the net
    benefit); the performance section shows the report's own intervals.

    Parameters
    ----------
    reports : CalibrationReport or mapping of str to CalibrationReport
        The models, each scored on the whole evaluation sample.
    subgroups : mapping of str to CalibrationReport, default=None
        Reports of key subgroups (eg, by sex or centre).
    missing : mapping, default=None
        The rows left out for missing data, ``{cause: count}`` (the same for
        every model) or ``{model: {cause: count}}``; ``{}`` says none were.
        None: the checklist asks the authors to describe it.
    provenance : mapping, default=None
        Shown as the report's provenance (see
        :func:`~skbrier.report.reports_to_html`); the date and the versions
        are added when absent.
    oe_ci_width, slope_ci_width, c_ci_width, nb_ci_width : float
        The target widths of the intervals (pmvalsampsize's defaults).

    Returns
    -------
    TripodReport
        :meth:`~skbrier.results.TripodReport.to_html` renders the page,
        :meth:`~skbrier.results.TripodReport.to_markdown` and ``to_json(checklist_only=True)``
        the checklist.

    Raises
    ------
    TypeError, ValueError
        A report that is not a CalibrationReport, a malformed ``missing``, or
        a target width that is not positive.

    References
    ----------
    .. [1] G. S. Collins et al., "TRIPOD+AI statement: updated guidance for
       reporting clinical prediction models that use regression or machine
       learning methods", BMJ 385:e078378, 2024.
    .. [2] B. Van Calster et al., "Evaluation of performance measures in
       predictive artificial intelligence models to support medical decisions:
       overview and guidance", Lancet Digital Health 7(12), 100916, 2025.

    Examples
    --------
    >>> from skbrier.datasets import load_forecasts
    >>> from skbrier.report import calibration_report, tripod_report
    >>> data = load_forecasts()
    >>> rep = calibration_report(data["y"], data["model_a"], random_state=0)
    >>> trip = tripod_report({"model A": rep}, missing={"missing outcome": 3})
    >>> [(i["id"], i["status"]) for i in trip.checklist()][9:11]
    [('10', 'answered'), ('11', 'answered')]
    >>> trip.precision["model A"].met["calibration_slope"]
    False
    """
    from ..validation._criteria import positive

    if not isinstance(reports, (Mapping, list, tuple)):  # one report
        reports = {getattr(reports, "name", None) or "forecast": reports}
    reports = _text.check_reports(reports)
    subs = _text.check_reports(subgroups, "subgroups") if subgroups else {}
    if provenance is not None and not isinstance(provenance, Mapping):
        raise TypeError(
            f"provenance must be a mapping or None, got {type(provenance).__name__}."
        )
    widths = {
        "oe_ci_width": oe_ci_width,
        "slope_ci_width": slope_ci_width,
        "c_ci_width": c_ci_width,
        "nb_ci_width": nb_ci_width,
    }
    targets = {k: positive(v, k) for k, v in widths.items()}
    return TripodReport(
        reports=reports,
        subgroups=subs,
        precision={n: _precision(r, targets) for n, r in reports.items()},
        missing=_check_missing(missing, list(reports)),
        provenance=complete_provenance(provenance),
    )
