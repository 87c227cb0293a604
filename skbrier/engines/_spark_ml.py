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

from typing import Any

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

_EXAMPLE = """
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


def _classes() -> dict[str, type]:
    """The evaluator classes (pyspark imported here, once)."""
    if _CLASSES:
        return _CLASSES
    from pyspark import keyword_only
    from pyspark.ml.evaluation import Evaluator
    from pyspark.ml.param import Param, Params, TypeConverters
    from pyspark.ml.param.shared import HasLabelCol, HasProbabilityCol, HasWeightCol
    from pyspark.ml.util import DefaultParamsReadable, DefaultParamsWritable

    from . import _spark_bins, _spark_brier, _spark_stats
    from ._spark_reduce import _col

    def given(kwargs: dict) -> dict:
        return {k: v for k, v in kwargs.items() if v is not None}

    class _SkbrierEvaluator(
        Evaluator,
        HasLabelCol,
        HasProbabilityCol,
        HasWeightCol,
        DefaultParamsReadable,
        DefaultParamsWritable,
    ):
        """The columns of every evaluator; subclasses define ``_metric``."""

        _larger = True
        _input_kwargs: dict[str, Any]  # set by pyspark's keyword_only

        def isLargerBetter(self) -> bool:  # noqa: N802 (Spark's name)
            """Whether the tuning maximises the metric."""
            return self._larger

        def _frame(self, dataset: Any) -> tuple[Any, str, str, str | None]:
            """``(DataFrame, y, p, weight)``: the label, the probability of
            class 1 and the weights, under their own names."""
            from pyspark.ml.functions import vector_to_array
            from pyspark.sql import types as T

            label, prob = self.getLabelCol(), self.getProbabilityCol()
            kind = dataset.schema[prob].dataType
            p = _col(prob)
            if isinstance(kind, T.ArrayType):
                p = p.getItem(1)
            elif not isinstance(kind, T.NumericType):  # a vector (VectorUDT)
                p = vector_to_array(p, "float64").getItem(1)
            p_name = prob if isinstance(kind, T.NumericType) else f"{prob}[1]"
            cols = [_col(label).alias(label), p.alias(p_name)]
            weight = None
            if self.isDefined(self.weightCol) and self.getWeightCol():
                weight = self.getWeightCol()
                cols.append(_col(weight).alias(weight))
            return dataset.select(*cols), label, p_name, weight

        def _evaluate(self, dataset: Any) -> float:
            df, y, p, w = self._frame(dataset)
            return float(self._metric(df, y, p, w))

        def _metric(self, df: Any, y: str, p: str, w: str | None) -> float:
            raise NotImplementedError

    class BrierScoreEvaluator(_SkbrierEvaluator):
        r"""Evaluator of the Brier score :math:`\sum w (p - y)^2 / \sum w`
        (smaller is better: ``isLargerBetter()`` is False).

        Parameters
        ----------
        labelCol : str, default="label"
            Outcomes 0/1.
        probabilityCol : str, default="probability"
            Probabilities: a vector or array (class 1 is element 1) or a number.
        weightCol : str, default=None
            Frequency weights.

        See Also
        --------
        skbrier.engines.spark.brier_score : The function it calls.
        """

        _larger = False

        @keyword_only
        def __init__(
            self,
            *,
            labelCol: str = "label",  # noqa: N803 (Spark's names)
            probabilityCol: str = "probability",  # noqa: N803
            weightCol: str | None = None,  # noqa: N803
        ) -> None:
            super().__init__()
            self._set(**given(self._input_kwargs))

        @keyword_only
        def setParams(  # noqa: N802
            self,
            *,
            labelCol: str = "label",  # noqa: N803
            probabilityCol: str = "probability",  # noqa: N803
            weightCol: str | None = None,  # noqa: N803
        ) -> Any:
            """Set the columns."""
            return self._set(**given(self._input_kwargs))

        def _metric(self, df, y, p, w):
            return _spark_brier.brier_score(df, y, p, w)

    class BrierIndexEvaluator(BrierScoreEvaluator):
        r"""Evaluator of the Brier Index :math:`100 (1 - \sqrt{\mathrm{BS}})`
        (larger is better).

        Parameters
        ----------
        labelCol : str, default="label"
            Outcomes 0/1.
        probabilityCol : str, default="probability"
            Probabilities: a vector or array (class 1 is element 1) or a number.
        weightCol : str, default=None
            Frequency weights.

        See Also
        --------
        skbrier.engines.spark.brier_index : The function it calls.
        """

        _larger = True

        def _metric(self, df, y, p, w):
            return _spark_brier.brier_index(df, y, p, w)

    class BrierSkillScoreEvaluator(BrierScoreEvaluator):
        r"""Evaluator of the Brier skill score against climatology,
        :math:`1 - \mathrm{BS} / (\bar o (1 - \bar o))` (larger is better).

        Parameters
        ----------
        labelCol : str, default="label"
            Outcomes 0/1.
        probabilityCol : str, default="probability"
            Probabilities: a vector or array (class 1 is element 1) or a number.
        weightCol : str, default=None
            Frequency weights.

        See Also
        --------
        skbrier.engines.spark.brier_skill_score : The function it calls.
        """

        _larger = True

        def _metric(self, df, y, p, w):
            return _spark_brier.brier_skill_score(df, y, p, w)

    class NetBenefitEvaluator(_SkbrierEvaluator):
        r"""Evaluator of net benefit at a threshold probability,
        :math:`TP/W - FP/W \cdot p_t / (1 - p_t)` (larger is better).

        Parameters
        ----------
        threshold : float
            The threshold probability :math:`p_t`, in (0, 1) (required).
        labelCol : str, default="label"
            Outcomes 0/1.
        probabilityCol : str, default="probability"
            Probabilities: a vector or array (class 1 is element 1) or a number.
        weightCol : str, default=None
            Frequency weights.

        See Also
        --------
        skbrier.engines.spark.net_benefit : The function it calls.
        """

        threshold = Param(
            Params._dummy(),
            "threshold",
            "threshold probability of net benefit, in (0, 1)",
            typeConverter=TypeConverters.toFloat,
        )

        @keyword_only
        def __init__(
            self,
            *,
            threshold: float | None = None,
            labelCol: str = "label",  # noqa: N803
            probabilityCol: str = "probability",  # noqa: N803
            weightCol: str | None = None,  # noqa: N803
        ) -> None:
            super().__init__()
            self._set(**given(self._input_kwargs))

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
            return self._set(**given(self._input_kwargs))

        def _metric(self, df, y, p, w):
            if not self.isDefined(self.threshold):
                raise ValueError(
                    "threshold is not set: NetBenefitEvaluator(threshold=...) needs "
                    "the threshold probability, in (0, 1)."
                )
            return _spark_stats.net_benefit(
                df, y, p, w, threshold=self.getOrDefault("threshold")
            )

    class CalibrationErrorEvaluator(_SkbrierEvaluator):
        r"""Evaluator of the binned calibration error (ECE with ``norm="l1"``)
        on uniform bins (smaller is better).

        Parameters
        ----------
        nBins : int, default=10
            Number of uniform bins.
        norm : {"l1", "l2", "max"}, default="l1"
            ECE, RMS calibration error or MCE.
        labelCol : str, default="label"
            Outcomes 0/1.
        probabilityCol : str, default="probability"
            Probabilities: a vector or array (class 1 is element 1) or a number.
        weightCol : str, default=None
            Frequency weights.

        See Also
        --------
        skbrier.engines.spark.calibration_error : The function it calls.
        """

        _larger = False
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
        def __init__(
            self,
            *,
            nBins: int = 10,  # noqa: N803
            norm: str = "l1",
            labelCol: str = "label",  # noqa: N803
            probabilityCol: str = "probability",  # noqa: N803
            weightCol: str | None = None,  # noqa: N803
        ) -> None:
            super().__init__()
            self._setDefault(nBins=10, norm="l1")
            self._set(**given(self._input_kwargs))

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
            return self._set(**given(self._input_kwargs))

        def _metric(self, df, y, p, w):
            n_bins = self.getOrDefault("nBins")
            norm = self.getOrDefault("norm")
            return _spark_bins.calibration_error(df, y, p, w, n_bins=n_bins, norm=norm)

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
        cls.__qualname__ = name
        cls.__doc__ = (cls.__doc__ or "") + _EXAMPLE.format(
            name=name, args=args.get(name, "")
        )
        _CLASSES[name] = cls
    _SkbrierEvaluator.__module__ = __name__
    _SkbrierEvaluator.__qualname__ = "_SkbrierEvaluator"
    return _CLASSES
