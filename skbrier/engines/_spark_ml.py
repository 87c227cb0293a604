"""``pyspark.ml.evaluation.Evaluator`` classes of skbrier's statistics, for
``CrossValidator`` and ``TrainValidationSplit``.

Each evaluator reads the label column (outcomes 0/1, Spark ML's labels), the
probability of class 1 from the probability column (a vector, as
``LogisticRegression`` and the other classifiers give it, an array, or a
number) and optional weights, and computes the statistic with
:mod:`skbrier.engines.spark` (the Brier family: Spark's own aggregations).
``isLargerBetter`` says which way the tuning goes: the Brier score and the
calibration error are minimised, the Brier Index, the skill score and net
benefit maximised.

The classes are built on first use (pyspark is imported then), so this
module imports without pyspark; ``from skbrier.engines.spark import
BrierScoreEvaluator`` works as usual.  They are ``DefaultParamsWritable``:
saved and loaded with the tuned pipelines.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from .._core.optional import import_optional

#: the evaluators, built by :func:`_classes` on first access (module ``__getattr__``)
EVALUATORS = (
    "BrierIndexEvaluator",
    "BrierScoreEvaluator",
    "BrierSkillScoreEvaluator",
    "CalibrationErrorEvaluator",
    "NetBenefitEvaluator",
)
__all__ = list(EVALUATORS)

_CLASSES: dict[str, type] = {}

#: the columns every evaluator reads, described once
_COLUMNS = """\
labelCol : str, default="label"
    Outcomes 0/1.
probabilityCol : str, default="probability"
    Probabilities: a vector or array (class 1 is element 1) or a number.
weightCol : str, default=None
    Frequency weights."""

_EXAMPLE = """\
Examples
--------
>>> from pyspark.ml.classification import LogisticRegression  # doctest: +SKIP
>>> from pyspark.ml.tuning import CrossValidator, ParamGridBuilder  # doctest: +SKIP
>>> from skbrier.engines.spark import {name}  # doctest: +SKIP
>>> lr = LogisticRegression()  # doctest: +SKIP
>>> grid = ParamGridBuilder().addGrid(lr.regParam, [0.0, 0.1]).build()  # doctest: +SKIP
>>> cv = CrossValidator(estimator=lr, estimatorParamMaps=grid,  # doctest: +SKIP
...                     evaluator={name}({args}), numFolds=3)
>>> model = cv.fit(train)  # doctest: +SKIP
"""


def __getattr__(name: str) -> Any:
    if name in EVALUATORS:
        return _classes()[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(list(globals()) + __all__)


def _accessors(cls: type, param: str) -> None:
    """Spark's ``get<Param>`` and ``set<Param>`` of ``param`` on ``cls``
    (those the pyspark mixins lack); the setter goes through ``setParams``."""
    cap = param[0].upper() + param[1:]

    def getter(self: Any) -> Any:
        return self.getOrDefault(param)

    def setter(self: Any, value: Any) -> Any:
        return self.setParams(**{param: value})

    for prefix, method in (("get", getter), ("set", setter)):
        if not hasattr(cls, prefix + cap):
            method.__name__ = method.__qualname__ = prefix + cap
            method.__doc__ = f"{prefix.capitalize()} the value of ``{param}``."
            setattr(cls, prefix + cap, method)


def _classes() -> dict[str, type]:
    """The evaluator classes (pyspark imported here, once)."""
    if _CLASSES:
        return _CLASSES
    import_optional(
        "pyspark.ml", needed_for="The Spark ML evaluators of skbrier.engines.spark"
    )
    from pyspark import keyword_only
    from pyspark.ml.evaluation import Evaluator
    from pyspark.ml.param import Param, Params, TypeConverters
    from pyspark.ml.param.shared import HasLabelCol, HasProbabilityCol, HasWeightCol
    from pyspark.ml.util import DefaultParamsReadable, DefaultParamsWritable

    from .._core.params import check_n_bins, check_option
    from .._core.validation import check_scalar_probability
    from . import _spark_bins, _spark_brier, _spark_stats

    # the functions of skbrier.engines.spark, from the modules that define them
    # (that module imports this one)
    spark = {
        name: getattr(module, name)
        for module in (_spark_brier, _spark_bins, _spark_stats)
        for name in getattr(module, "__all__", ())
    }
    from ._spark_reduce import _check_column, _col

    class _SkbrierEvaluator(
        Evaluator,
        HasLabelCol,
        HasProbabilityCol,
        HasWeightCol,
        DefaultParamsReadable,
        DefaultParamsWritable,
    ):
        """The columns of every evaluator; a subclass names its function of
        :mod:`skbrier.engines.spark` (``_function``), lists its params and
        their defaults in ``setParams`` (the one place: ``__init__`` forwards
        to it), documents them (``_parameters``) and gives their values
        (``_options``)."""

        _larger = True
        _function = ""
        _parameters = ""
        _input_kwargs: dict[str, Any]  # set by pyspark's keyword_only
        setParams: Callable[..., Any]  # each evaluator lists its params there

        def __init__(self, **params: Any) -> None:
            super().__init__()
            defaults = {
                k: v.default
                for k, v in inspect.signature(self.setParams).parameters.items()
                if v.default is not None
            }
            self._setDefault(**defaults)
            self.setParams(**params)

        def _assign(self, params: dict[str, Any]) -> Any:
            """Set ``params``; None clears a param (``weightCol=None``: no
            weights, ``threshold=None``: unset), as it reads."""
            before = dict(self._paramMap)
            try:
                for name, value in params.items():
                    if value is None:
                        self.clear(self.getParam(name))
                    else:
                        self._set(**{name: value})
                self._check()
            except (TypeError, ValueError):
                self._paramMap = before  # a bad value leaves the params as they were
                raise
            return self

        def _check(self) -> None:
            """Raise the error of a bad param value when it is set (not when a
            tuner first evaluates, after fitting): the in-memory checks."""

        def isLargerBetter(self) -> bool:  # noqa: N802 (Spark's name)
            """Whether the tuning maximises the metric."""
            return self._larger

        def _frame(self, dataset: Any) -> tuple[Any, str, str, str | None]:
            """``(DataFrame, y, p, weight)``: the label, the probability of
            class 1 and the weights, under their own names."""
            from pyspark.ml.functions import vector_to_array
            from pyspark.sql import types as T

            label, prob = self.getLabelCol(), self.getProbabilityCol()
            columns = list(dataset.columns)
            _check_column(label, "labelCol", columns)
            _check_column(prob, "probabilityCol", columns)
            kind = dataset.schema[prob].dataType
            if not isinstance(kind, T.NumericType | T.ArrayType | T.UserDefinedType):
                raise TypeError(
                    f"probabilityCol={prob!r} holds {kind.simpleString()}: it must hold "
                    "probabilities, a vector or array (class 1 is element 1) or numbers."
                )
            p = _col(prob)
            if isinstance(kind, T.ArrayType):
                p = p.getItem(1)
            elif not isinstance(kind, T.NumericType):  # a vector (VectorUDT)
                p = vector_to_array(p, "float64").getItem(1)
            p_name = prob if isinstance(kind, T.NumericType) else f"{prob}[1]"
            # one column per name: a column named by two params (labelCol and
            # weightCol, ...) is selected once, and read as both
            cols = {label: _col(label)}
            cols.setdefault(p_name, p)
            weight = None
            if self.isDefined(self.weightCol) and self.getWeightCol():
                weight = _check_column(self.getWeightCol(), "weightCol", columns)
                cols.setdefault(weight, _col(weight))
            selected = dataset.select(*(c.alias(name) for name, c in cols.items()))
            return selected, label, p_name, weight

        def _evaluate(self, dataset: Any) -> float:
            df, y, p, w = self._frame(dataset)
            function = spark[self._function]
            return float(function(df, y, p, w, **self._options()))

        def _options(self) -> dict[str, Any]:
            """The options of the function (the evaluator's own params)."""
            return {}

    class BrierScoreEvaluator(_SkbrierEvaluator):
        r"""Evaluator of the Brier score :math:`\sum w (p - y)^2 / \sum w`
        (smaller is better: ``isLargerBetter()`` is False)."""

        _larger = False
        _function = "brier_score"

        @keyword_only
        def setParams(  # noqa: N802
            self,
            *,
            labelCol: str = "label",  # noqa: N803 (Spark's names)
            probabilityCol: str = "probability",  # noqa: N803
            weightCol: str | None = None,  # noqa: N803
        ) -> Any:
            """Set the columns."""
            return self._assign(self._input_kwargs)

    class BrierIndexEvaluator(BrierScoreEvaluator):
        r"""Evaluator of the Brier Index :math:`100 (1 - \sqrt{\mathrm{BS}})`
        (larger is better)."""

        _larger = True
        _function = "brier_index"

    class BrierSkillScoreEvaluator(BrierScoreEvaluator):
        r"""Evaluator of the Brier skill score against climatology,
        :math:`1 - \mathrm{BS} / (\bar o (1 - \bar o))` (larger is better)."""

        _larger = True
        _function = "brier_skill_score"

    class NetBenefitEvaluator(_SkbrierEvaluator):
        r"""Evaluator of net benefit at a threshold probability,
        :math:`TP/W - FP/W \cdot p_t / (1 - p_t)` (larger is better)."""

        _function = "net_benefit"
        _parameters = """\
threshold : float
    The threshold probability :math:`p_t`, in (0, 1) (required)."""
        threshold = Param(
            Params._dummy(),
            "threshold",
            "threshold probability of net benefit, in (0, 1)",
            typeConverter=TypeConverters.toFloat,
        )

        @keyword_only
        def setParams(  # noqa: N802
            self,
            *,
            threshold: float | None = None,
            labelCol: str = "label",  # noqa: N803
            probabilityCol: str = "probability",  # noqa: N803
            weightCol: str | None = None,  # noqa: N803
        ) -> Any:
            """Set the threshold and the columns."""
            return self._assign(self._input_kwargs)

        def _check(self) -> None:
            if self.isDefined(self.threshold):
                check_scalar_probability(
                    self.getOrDefault("threshold"), name="threshold", open_interval=True
                )

        def _options(self) -> dict[str, Any]:
            if not self.isDefined(self.threshold):
                raise ValueError(
                    "threshold is not set: NetBenefitEvaluator(threshold=...) needs "
                    "the threshold probability, in (0, 1)."
                )
            return {"threshold": self.getOrDefault("threshold")}

    class CalibrationErrorEvaluator(_SkbrierEvaluator):
        r"""Evaluator of the binned calibration error (ECE with ``norm="l1"``)
        on uniform bins (smaller is better)."""

        _larger = False
        _function = "calibration_error"
        _parameters = """\
nBins : int, default=10
    Number of uniform bins.
norm : {"l1", "l2", "max"}, default="l1"
    ECE, RMS calibration error or MCE."""
        nBins = Param(  # noqa: N815
            Params._dummy(),
            "nBins",
            "number of uniform bins",
            typeConverter=TypeConverters.toInt,
        )
        norm = Param(
            Params._dummy(), "norm", "l1, l2 or max", typeConverter=TypeConverters.toString
        )

        @keyword_only
        def setParams(  # noqa: N802
            self,
            *,
            nBins: int = 10,  # noqa: N803
            norm: str = "l1",
            labelCol: str = "label",  # noqa: N803
            probabilityCol: str = "probability",  # noqa: N803
            weightCol: str | None = None,  # noqa: N803
        ) -> Any:
            """Set the bins, the norm and the columns."""
            return self._assign(self._input_kwargs)

        def _check(self) -> None:
            check_n_bins(self.getOrDefault("nBins"), name="nBins")
            check_option(self.getOrDefault("norm"), "norm", ("l1", "l2", "max"))

        def _options(self) -> dict[str, Any]:
            return {"n_bins": self.getOrDefault("nBins"), "norm": self.getOrDefault("norm")}

    args = {
        "NetBenefitEvaluator": "threshold=0.2",
        "CalibrationErrorEvaluator": "nBins=10",
    }
    for cls in (
        BrierScoreEvaluator,
        BrierIndexEvaluator,
        BrierSkillScoreEvaluator,
        NetBenefitEvaluator,
        CalibrationErrorEvaluator,
    ):
        name = cls.__name__
        cls.__module__ = __name__
        # called with the params of setParams (__init__ forwards them there)
        sig = inspect.signature(cls.setParams)
        cls.__signature__ = sig.replace(  # type: ignore[union-attr]
            parameters=list(sig.parameters.values())[1:], return_annotation=None
        )
        cls.__qualname__ = name
        for param in list(sig.parameters)[1:]:
            _accessors(cls, param)
        params = "\n".join(filter(None, [cls._parameters, _COLUMNS]))
        cls.__doc__ = "\n\n".join(
            [
                inspect.cleandoc(cls.__doc__ or ""),
                "Parameters\n----------\n" + params,
                f"See Also\n--------\nskbrier.engines.spark.{cls._function} : The "
                "function it calls.",
                _EXAMPLE.format(name=name, args=args.get(name, "")),
            ]
        )
        _CLASSES[name] = cls
    _SkbrierEvaluator.__module__ = __name__
    _SkbrierEvaluator.__qualname__ = "_SkbrierEvaluator"
    return _CLASSES
