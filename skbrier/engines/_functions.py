"""The public functions of the table engines (DuckDB, Polars and Polars
expressions), declared once per statistic.

A statistic's declaration (:data:`DECLARED`) says what its function returns
and how its docstring reads; its options, their defaults and their order are
those of :data:`skbrier.engines._statistics.STATISTICS` (the plans check
them), each option described once in :data:`OPTIONS`.  An engine
(:class:`Engine`) adds its own columns (``data``, ``y``, ``p``, ``weight``,
DuckDB's ``table``), the description of its inputs and its examples;
:func:`define` gives an engine's function of a statistic its name,
signature and docstring.  The function itself is a small closure of the
engine's module (its doctests are collected there) that hands
:func:`arguments` to the engine's run.
"""

from __future__ import annotations

import dataclasses
import inspect
import textwrap
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from ._common import compute, with_pieces
from ._statistics import STATISTICS, plan

__all__ = [
    "DECLARED",
    "OPTIONS",
    "Declared",
    "Engine",
    "TableFunction",
    "arguments",
    "define",
    "run",
]

_KW = inspect.Parameter.KEYWORD_ONLY
_POS = inspect.Parameter.POSITIONAL_OR_KEYWORD


@dataclasses.dataclass(frozen=True)
class Declared:
    """How the function of a statistic reads: ``label`` and ``formula`` (the
    summary line), what it returns (``kind``: the type, ``result``: the
    in-memory function it equals)."""

    label: str
    kind: str
    result: str
    formula: str = ""
    #: whether ``p`` may name several models' columns
    models: bool = False


DECLARED: dict[str, Declared] = {
    "brier_score": Declared(
        "Brier score",
        "float or dict",
        ":func:`skbrier.brier_score`",
        r" :math:`\mathrm{BS} = \sum_i w_i (p_i - y_i)^2 / \sum_i w_i`",
    ),
    "brier_index": Declared(
        "Brier Index",
        "float or dict",
        ":func:`skbrier.brier_index`",
        r" :math:`100 (1 - \sqrt{\mathrm{BS}})`",
    ),
    "brier_skill_score": Declared(
        "Brier skill score",
        "float or dict",
        ":func:`skbrier.brier_skill_score` (NaN with an ``UndefinedMetricWarning``"
        " when the reference scores 0)",
        r" :math:`1 - \mathrm{BS} / \mathrm{BS}_\mathrm{ref}`",
    ),
    "calibration_error": Declared(
        "Binned calibration error (uniform bins)",
        "float or dict",
        ':func:`skbrier.calibration_error` (``kind="binary"``)',
        r' :math:`\sum_k \frac{W_k}{W} |\bar p_k - \bar y_k|` (``norm="l1"``)',
    ),
    "calibration_bins": Declared(
        "Per-bin counts and sums (the calibration bins)",
        "BinStatistics or dict",
        "``binned_statistics`` (``to_frame()`` gives the table)",
    ),
    "murphy_decomposition": Declared(
        "Binned (Murphy) decomposition of the Brier score",
        "MurphyDecomposition or dict",
        ":func:`skbrier.murphy_decomposition`",
        r" :math:`\mathrm{BS} = \mathrm{REL} - \mathrm{RES} + \mathrm{UNC} +"
        r" \mathrm{WBV} - \mathrm{WBC}`",
    ),
    "net_benefit": Declared(
        "Net benefit",
        "float or dict",
        ":func:`skbrier.net_benefit`",
        r" :math:`TP/W - FP/W \cdot p_t / (1 - p_t)`",
    ),
    "decision_curve": Declared(
        "Decision curve (net benefit at a grid of thresholds)",
        "DecisionCurveResult or dict",
        ":func:`skbrier.decision_curve`",
        models=True,
    ),
    "corp_decomposition": Declared(
        "CORP decomposition",
        "CORPDecomposition or dict",
        ":func:`skbrier.metrics.decomposition.corp_decomposition`",
        r" :math:`\mathrm{BS} = \mathrm{MCB} - \mathrm{DSC} + \mathrm{UNC}`",
    ),
    "c_statistic": Declared(
        "C statistic (area under the ROC curve)",
        "float or dict",
        ":func:`skbrier.metrics.calibration.c_statistic`",
    ),
    "spiegelhalter_z": Declared(
        "Spiegelhalter's z test",
        "SpiegelhalterResult or dict",
        ":func:`skbrier.metrics.calibration.spiegelhalter_z` (``(statistic, pvalue)``)",
        r" :math:`z = \sum_i w_i (y_i - p_i)(1 - 2p_i) / \sqrt{\sum_i w_i (1 -"
        r" 2p_i)^2 p_i (1 - p_i)}`",
    ),
    "brier_inference": Declared(
        "iid inference on the Brier score, skill score and Brier Index",
        "BrierInferenceResult or dict",
        ':func:`skbrier.brier_inference` (``cov_type="iid"``: estimates, their'
        " covariance and ``confidence_interval()``)",
    ),
}

#: each option of the statistics: (annotation, numpydoc entry); ``{reference}``
#: is the engine's type of a reference column
OPTIONS: dict[str, tuple[str, str]] = {
    "reference": (
        "{reference}",
        """\
reference : {reference}, float or None, default=None
    None: climatology (each group's event rate); a float: the constant
    forecast of that rate; a column: reference forecasts.""",
    ),
    "n_bins": (
        "int",
        """\
n_bins : int, default=10
    Number of equal-width bins on [0, 1].""",
    ),
    "strategy": (
        "Any",
        """\
strategy : "uniform" or array-like of bin edges, default="uniform"
    The ``n_bins`` equal-width bins, or the given edges (equal-mass bins
    need all forecasts first: refused).""",
    ),
    "norm": (
        "str",
        """\
norm : {"l1", "l2", "max"}, default="l1"
    The norm of the bin gaps: the ECE, the root of the weighted squares,
    the MCE.""",
    ),
    "right": (
        "bool",
        """\
right : bool, default=True
    A forecast on an inner edge goes to the lower bin (True) or the upper.""",
    ),
    "bias_correction": (
        "bool",
        """\
bias_correction : bool, default=False
    Ferro and Fricker's finite-sample correction.""",
    ),
    "threshold": (
        "float",
        """\
threshold : float
    The threshold probability :math:`p_t`, in (0, 1).""",
    ),
    "prevalence": (
        "float | None",
        """\
prevalence : float or None, default=None
    The prevalence of a case-control sample (None: the sample's).""",
    ),
    "thresholds": (
        "Any",
        """\
thresholds : array-like or None, default=None
    Thresholds in [0, 1) (None: :func:`skbrier.decision_curve`'s grid).""",
    ),
    "harm": (
        "Any",
        """\
harm : float, dict or None, default=None
    Harm of each model, in units of net benefit.""",
    ),
    "binning": (
        "Any",
        """\
binning : str, array-like or None, default=None
    A preset of fixed bins (``"sklearn"``, ``"netcal"``, ``"torchmetrics"``)
    or explicit edges.""",
    ),
    "debias": (
        "bool",
        """\
debias : bool, default=False
    Kumar et al.'s debiased l2 estimator.""",
    ),
    "resolution": (
        "float | str | None",
        """\
resolution : float, "auto" or None, default=None
    Round the forecasts to multiples of it first (None: exact; "auto":
    exact up to 2**20 distinct forecasts per class).""",
    ),
    "confidence_level": (
        "float",
        """\
confidence_level : float, default=0.95
    Kept on the result (no resampling here).""",
    ),
    "cov_type": (
        "str",
        """\
cov_type : {"iid"}, default="iid"
    Only iid intervals are mergeable.""",
    ),
}

#: options without a default (keyword-only, required)
_REQUIRED = {"threshold"}


def _parameter(name: str, kind: Any, default: Any, annotation: str) -> inspect.Parameter:
    return inspect.Parameter(name, kind, default=default, annotation=annotation)


@dataclasses.dataclass(frozen=True)
class Engine:
    """An engine's side of its functions.

    ``what``: the summary's object ("a DuckDB table"); ``columns``: the
    positional parameters (name, default, annotation); ``keywords``: its own
    keyword parameters after the options; ``grouped``: whether the functions
    take ``group_by`` and ``pos_label`` (else they are expressions, named
    with ``_expr``); ``reference``: the annotation of ``reference`` and the
    type of a reference column as the docstrings write it; ``pieces``: the
    docstring pieces ``inputs`` (and ``group_by``) and the examples' pieces.
    """

    what: str
    columns: tuple[tuple[str, Any, str], ...]
    pieces: Mapping[str, str]
    keywords: tuple[tuple[str, Any, str], ...] = ()
    grouped: bool = True
    reference: tuple[str, str] = ("Any", "str, polars.Expr")
    #: the options of each statistic, with their defaults, in order
    statistics: Mapping[str, Mapping[str, Any]] = dataclasses.field(
        default_factory=lambda: STATISTICS
    )
    #: annotations other than :data:`OPTIONS`' (``"statistic.option"`` keys)
    annotations: Mapping[str, str] = dataclasses.field(default_factory=dict)
    #: a section after Returns (a piece: ``"{{raises}}"``)
    raises: str = ""

    def signature(self, name: str) -> inspect.Signature:
        """The signature of the engine's function of statistic ``name``."""
        params = [
            _parameter(n, _POS, d, "Any" if n == "p" and DECLARED[name].models else a)
            for n, d, a in self.columns
        ]
        for option, default in self.statistics[name].items():
            annotation = self.annotations.get(
                f"{name}.{option}",
                OPTIONS[option][0].replace("{reference}", self.reference[0]),
            )
            if option in _REQUIRED:
                default = inspect.Parameter.empty
            params.append(_parameter(option, _KW, default, annotation))
        params += [_parameter(n, _KW, d, a) for n, d, a in self.keywords]
        if self.grouped:
            params += [
                _parameter("group_by", _KW, None, "Any"),
                _parameter("pos_label", _KW, None, "Any"),
            ]
        return inspect.Signature(params, return_annotation="Any")

    def docstring(self, name: str, notes: str, examples: str, see_also: str = "") -> str:
        """The docstring of the engine's function of statistic ``name``:
        the declaration, the options of :data:`OPTIONS`, the engine's
        ``notes`` (paragraphs, may be empty), ``see_also`` and ``examples``."""
        d = DECLARED[name]
        options = [
            OPTIONS[o][1].replace("{reference}", self.reference[1])
            for o in self.statistics[name]
        ]
        if self.grouped:
            summary = f"{d.label}{d.formula} of {self.what}."
            text = f"{d.result} of the rows; ``{{group: result}}`` with ``group_by``."
            returns = (
                d.kind
                + "\n"
                + textwrap.fill(text, 76, initial_indent="    ", subsequent_indent="    ")
            )
            options.append("{{group_by}}")
        else:
            summary = f"{d.label} as {self.what}."
            returns = f'polars.Expr\n    A Float64 expression named ``"{name}"``.'
        inputs = "{{inputs}}" + (
            "\n    A list of columns, or a dict ``{model name: column}``, gives\n"
            "    several models."
            if d.models
            else ""
        )
        sections = (
            summary,
            notes.strip("\n"),
            "Parameters\n----------\n" + "\n".join([inputs, *options]),
            "Returns\n-------\n" + returns,
            self.raises,
            "See Also\n--------\n" + see_also if see_also else "",
            "Examples\n--------\n" + examples.strip("\n"),
        )
        return "\n\n".join(s for s in sections if s) + "\n"


class TableFunction(Protocol):
    """The type of an engine's function of a statistic, as type checkers see
    it: the full signature is :func:`inspect.signature`'s (declared in the
    statistics table; ``help()`` and the docs show it)."""

    __name__: str

    def __call__(self, *args: Any, **kwargs: Any) -> Any: ...


def define(
    function: Callable,
    engine: Engine,
    name: str,
    notes: str = "",
    examples: str = "",
    see_also: str = "",
) -> Any:
    """``function`` as the engine's public function of statistic ``name``
    (its name, signature and docstring; the pieces filled)."""
    function.__name__ = function.__qualname__ = name + ("" if engine.grouped else "_expr")
    function.__signature__ = engine.signature(name)  # type: ignore[attr-defined]
    function.__doc__ = engine.docstring(name, notes, examples, see_also)
    return with_pieces(engine.pieces)(function)


def arguments(function: Callable, args: tuple, kwargs: dict) -> dict[str, Any]:
    """The arguments of a call of a :func:`define`'d function by parameter
    name, defaults applied (a TypeError as Python's for a bad call)."""
    try:
        bound = inspect.signature(function).bind(*args, **kwargs)
    except TypeError as exc:
        raise TypeError(f"{function.__name__}(): {exc}") from None
    bound.apply_defaults()
    return dict(bound.arguments)


#: the parameters of a function that are not options of the statistic
_INPUTS = ("data", "table", "y", "p", "weight", "group_by", "pos_label")


def run(
    name: str,
    engine: str,
    arguments: Mapping[str, Any],
    source: Callable[[Any, dict[str, Any]], Any],
) -> Any:
    """Statistic ``name`` of a call's ``arguments`` (:func:`arguments`),
    planned by :func:`._statistics.plan`: ``source(p, extra)`` makes the
    engine's :class:`~._common.Source` of the logical ``p`` column and the
    extra columns the plan reads."""
    options = {k: v for k, v in arguments.items() if k not in _INPUTS}
    a = arguments
    planned = plan(
        name,
        a["p"],
        weighted=a["weight"] is not None,
        pos_label=a["pos_label"],
        engine=engine,
        **options,
    )
    extra = dict(planned.columns)
    return compute(source(extra.pop("p"), extra), planned.stat, planned.given)
