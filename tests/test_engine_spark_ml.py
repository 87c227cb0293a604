"""The pyspark.ml evaluators of skbrier.engines.spark: equal to skbrier's
functions on the model's probabilities, the right ``isLargerBetter``, and
tuning with them in a real CrossValidator and TrainValidationSplit of a
LogisticRegression."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

pd = pytest.importorskip("pandas")

from spark_session import session

import skbrier
from skbrier.exceptions import HardForecastWarning
from skbrier.metrics.calibration_error import calibration_error as np_ece
from skbrier.metrics.net_benefit import net_benefit as np_nb

N = 240


@pytest.fixture(scope="module")
def spark():
    yield from session()


@pytest.fixture(scope="module")
def train(spark):
    from pyspark.ml.feature import VectorAssembler

    rng = np.random.default_rng(3)
    x = rng.normal(size=(N, 2))
    logit = 1.5 * x[:, 0] - 1.0 * x[:, 1]
    y = (rng.random(N) < 1.0 / (1.0 + np.exp(-logit))).astype(float)
    w = rng.integers(1, 4, N).astype(float)
    pdf = pd.DataFrame({"x0": x[:, 0], "x1": x[:, 1], "label": y, "w": w})
    df = spark.createDataFrame(pdf).repartition(2)
    return (
        VectorAssembler(inputCols=["x0", "x1"], outputCol="features").transform(df).cache()
    )


def _ev():
    from skbrier.engines import spark as sbs

    return sbs


@pytest.mark.slow  # in CI's slow step: keeps the README suite under 8 minutes
def test_evaluators_equal_the_functions(spark, train):
    from pyspark.ml.classification import LogisticRegression
    from pyspark.ml.functions import vector_to_array

    sbs = _ev()
    pred = LogisticRegression(maxIter=20).fit(train).transform(train).cache()
    rows = pred.select(
        "label", vector_to_array("probability")[1].alias("p"), "w"
    ).toPandas()
    y, p, w = rows.label, rows.p, rows.w
    cases = [
        (sbs.BrierScoreEvaluator(), skbrier.brier_score(y, p), False),
        (sbs.BrierIndexEvaluator(), skbrier.brier_index(y, p), True),
        (sbs.BrierSkillScoreEvaluator(), skbrier.brier_skill_score(y, p), True),
        (sbs.NetBenefitEvaluator(threshold=0.3), np_nb(y, p, threshold=0.3), True),
        (sbs.CalibrationErrorEvaluator(nBins=10), np_ece(y, p, n_bins=10), False),
        (
            sbs.BrierScoreEvaluator(weightCol="w"),
            skbrier.brier_score(y, p, sample_weight=w),
            False,
        ),
    ]
    for ev, expected, larger in cases:
        assert ev.isLargerBetter() is larger, type(ev).__name__
        got = ev.evaluate(pred)
        np.testing.assert_allclose(got, expected, rtol=1e-12, err_msg=type(ev).__name__)
    # a param map overrides the evaluator's params (what the tuners do)
    ev = sbs.CalibrationErrorEvaluator()
    got = ev.evaluate(pred, {ev.nBins: 10})
    np.testing.assert_allclose(got, np_ece(y, p, n_bins=10), rtol=1e-12)
    with pytest.raises(ValueError, match="threshold is not set"):
        sbs.NetBenefitEvaluator().evaluate(pred)


@pytest.mark.slow  # in CI's slow step: keeps the README suite under 8 minutes
def test_cross_validator_and_train_validation_split(spark, train, tmp_path):
    from pyspark.ml.classification import LogisticRegression
    from pyspark.ml.tuning import CrossValidator, ParamGridBuilder, TrainValidationSplit

    sbs = _ev()
    lr = LogisticRegression(maxIter=10)
    # a strong penalty shrinks the forecasts to the base rate: worse on every metric
    grid = ParamGridBuilder().addGrid(lr.regParam, [5.0, 0.0]).build()
    cv = CrossValidator(
        estimator=lr,
        estimatorParamMaps=grid,
        evaluator=sbs.BrierScoreEvaluator(),
        numFolds=2,
        seed=1,
    ).fit(train)
    assert cv.avgMetrics[1] < cv.avgMetrics[0]  # minimised
    assert cv.bestModel.getRegParam() == 0.0
    tvs = TrainValidationSplit(
        estimator=lr,
        estimatorParamMaps=grid,
        evaluator=sbs.BrierIndexEvaluator(weightCol="w"),
        trainRatio=0.6,
        seed=1,
    ).fit(train)
    assert tvs.validationMetrics[1] > tvs.validationMetrics[0]  # maximised
    assert tvs.bestModel.getRegParam() == 0.0
    # saved and loaded with its params (DefaultParamsWritable)
    ev = sbs.NetBenefitEvaluator(threshold=0.25, weightCol="w")
    ev.save(str(tmp_path / "ev"))
    back = type(ev).load(str(tmp_path / "ev"))
    assert back.getOrDefault("threshold") == 0.25 and back.getWeightCol() == "w"


@pytest.mark.slow  # in CI's slow step: keeps the README suite under 8 minutes
def test_params_follow_spark_conventions(spark, train):
    # Spark's accessors of every param, setParams as the one place that sets
    # them (None clears: weightCol=None is unweighted again), copies keep them
    from pyspark.ml.classification import LogisticRegression
    from pyspark.ml.functions import vector_to_array

    sbs = _ev()
    pred = LogisticRegression(maxIter=20).fit(train).transform(train)
    rows = pred.select("label", vector_to_array("probability")[1].alias("p"), "w")
    pdf = rows.toPandas()
    ev = sbs.CalibrationErrorEvaluator(nBins=5)
    assert (ev.getNBins(), ev.getNorm(), ev.getLabelCol()) == (5, "l1", "label")
    assert ev.setNorm("max").setWeightCol("w") is ev
    assert ev.copy({ev.nBins: 7}).getNBins() == 7 and ev.getNBins() == 5
    got = ev.evaluate(pred)
    want = np_ece(pdf.label, pdf.p, n_bins=5, norm="max", sample_weight=pdf.w)
    np.testing.assert_allclose(got, want, rtol=1e-12)
    ev.setParams(weightCol=None)
    assert not ev.isSet(ev.weightCol)
    want = np_ece(pdf.label, pdf.p, n_bins=5, norm="max")
    np.testing.assert_allclose(ev.evaluate(pred), want, rtol=1e-12)
    nb = sbs.NetBenefitEvaluator(threshold=0.3).setLabelCol("label")
    assert nb.getThreshold() == 0.3
    with pytest.raises(ValueError, match="threshold is not set"):
        nb.setThreshold(None).evaluate(pred)


def test_columns_are_checked(spark, train):
    sbs = _ev()
    frame = train.withColumn("p", train.x0 * 0 + 0.5).withColumn(
        "s", train.x0.cast("string")
    )
    cases = [
        ({"labelCol": "nope", "probabilityCol": "p"}, ValueError, "labelCol='nope' is not"),
        ({"probabilityCol": "nope"}, ValueError, "probabilityCol='nope' is not"),
        (
            {"probabilityCol": "p", "weightCol": "nope"},
            ValueError,
            "weightCol='nope' is not",
        ),
        ({"probabilityCol": "s"}, TypeError, "probabilityCol='s' holds string"),
    ]
    for params, error, match in cases:
        with pytest.raises(error, match=match):
            sbs.BrierScoreEvaluator(**params).evaluate(frame)


def test_bad_params_raise_when_set(spark):
    # not when a tuner first evaluates (after fitting its first models)
    sbs = _ev()
    with pytest.raises(ValueError, match="threshold must lie strictly between 0 and 1"):
        sbs.NetBenefitEvaluator(threshold=30.0)
    with pytest.raises(ValueError, match="nBins must be at least 1"):
        sbs.CalibrationErrorEvaluator(nBins=0)
    ev = sbs.CalibrationErrorEvaluator(norm="l2")
    with pytest.raises(ValueError, match="norm must be one of"):
        ev.setNorm("l3")
    assert ev.getNorm() == "l2"


def test_one_column_in_two_params(spark, train):
    # labelCol and weightCol (or probabilityCol) naming the same column: the
    # evaluator selected it twice under one name, and Spark failed with
    # "ambiguous reference"; it is the in-memory call with that column twice
    sbs = _ev()
    frame = train.withColumn("p", train.x0 * 0 + 0.25 + train.label * 0.5)
    pdf = frame.select("label", "p").toPandas()
    y, p = pdf.label.to_numpy(), pdf.p.to_numpy()
    cases = [
        (sbs.BrierScoreEvaluator(probabilityCol="p", weightCol="label"),
         skbrier.brier_score(y, p, sample_weight=y)),
        (sbs.CalibrationErrorEvaluator(probabilityCol="p", weightCol="label", nBins=4),
         np_ece(y, p, n_bins=4, sample_weight=y)),
        (sbs.NetBenefitEvaluator(threshold=0.2, probabilityCol="p", weightCol="p"),
         np_nb(y, p, threshold=0.2, sample_weight=p)),
        (sbs.BrierIndexEvaluator(labelCol="label", probabilityCol="label"),
         skbrier.brier_index(y, y)),
    ]  # fmt: skip
    for ev, want in cases:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", HardForecastWarning)  # p = y in the last
            np.testing.assert_allclose(ev.evaluate(frame), want, rtol=1e-12)
