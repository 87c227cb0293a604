"""The TRIPOD+AI items that bear on the evaluation of a model's performance.

The wording is TRIPOD+AI's (Collins et al., BMJ 2024;385:e078378, Table 1,
CC BY 4.0; footnote markers left out); tests/fixtures/tripod_ai/items.json
holds the whole checklist and the tests compare every item here with it.
Each item says which section of the TRIPOD+AI page answers it (None: the user
must write it) and what the user must still supply.
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["CITATION", "ITEMS", "SECTIONS", "SOURCE_URL", "TripodItem"]

CITATION = (
    'G. S. Collins et al., "TRIPOD+AI statement: updated guidance for reporting '
    'clinical prediction models that use regression or machine learning methods", '
    "BMJ 385:e078378, 2024"
)
SOURCE_URL = "https://doi.org/10.1136/bmj-2023-078378"

#: the sections of the page: anchor id -> heading
SECTIONS = {
    "participants": "Participants and outcome events",
    "sample-size": "Sample size: the precision achieved",
    "missing-data": "Missing data",
    "performance-measures": "Performance measures",
    "calibration": "Calibration",
    "clinical-utility": "Clinical utility",
    "risk-distribution": "Distribution of predicted risks by outcome",
    "subgroups": "Subgroups",
}


class TripodItem(NamedTuple):
    """One checklist item: its id, topic, whom it applies to (D development,
    E evaluation), its wording, the section answering it (None: to supply)
    and what the user must still write (None: nothing)."""

    id: str
    topic: str
    applies_to: str
    text: str
    section: str | None
    to_supply: str | None


#: the items, in the checklist's order
ITEMS: tuple[TripodItem, ...] = tuple(
    TripodItem(*row)
    for row in (
        (
            "5a",
            "Data",
            "D;E",
            "Describe the sources of data separately for the development and evaluation "
            "datasets (eg, randomised trial, cohort, routine care or registry data), the "
            "rationale for using these data, and representativeness of the data",
            None,
            "The source of the evaluation data (cohort, registry, trial), why it was "
            "used and how representative it is.",
        ),
        (
            "5b",
            "Data",
            "D;E",
            "Specify the dates of the collected participant data, including start and "
            "end of participant accrual; and, if applicable, end of follow-up",
            None,
            "The dates of participant accrual and, if applicable, the end of follow-up.",
        ),
        (
            "6a",
            "Participants",
            "D;E",
            "Specify key elements of the study setting (eg, primary care, secondary care, "
            "general population) including the number and location of centres",
            None,
            "The setting and the number and location of centres.",
        ),
        (
            "6b",
            "Participants",
            "D;E",
            "Describe the eligibility criteria for study participants",
            None,
            "The eligibility criteria of the evaluation sample.",
        ),
        (
            "6c",
            "Participants",
            "D;E",
            "Give details of any treatments received, and how they were handled during "
            "model development or evaluation, if relevant",
            None,
            "Treatments received and how they were handled, if relevant.",
        ),
        (
            "7",
            "Data preparation",
            "D;E",
            "Describe any data pre-processing and quality checking, including whether "
            "this was similar across relevant sociodemographic groups",
            None,
            "The pre-processing and quality checks of the data before they were scored.",
        ),
        (
            "8a",
            "Outcome",
            "D;E",
            "Clearly define the outcome that is being predicted and the time horizon, "
            "including how and when assessed, the rationale for choosing this outcome, "
            "and whether the method of outcome assessment is consistent across "
            "sociodemographic groups",
            None,
            "The outcome, its time horizon, and how and when it was assessed.",
        ),
        (
            "8c",
            "Outcome",
            "D;E",
            "Report any actions to blind assessment of the outcome to be predicted",
            None,
            "Any blinding of the outcome assessment.",
        ),
        (
            "9b",
            "Predictors",
            "D;E",
            "Clearly define all predictors, including how and when they were measured "
            "(and any actions to blind assessment of predictors for the outcome and "
            "other predictors)",
            None,
            "The predictors and how and when they were measured.",
        ),
        (
            "10",
            "Sample size",
            "D;E",
            "Explain how the study size was arrived at (separately for development and "
            "evaluation), and justify that the study size was sufficient to answer the "
            "research question. Include details of any sample size calculation",
            "sample-size",
            "How the study size was arrived at (eg, all eligible patients in a period, "
            "or a calculation with skbrier.validation_sample_size).",
        ),
        (
            "11",
            "Missing data",
            "D;E",
            "Describe how missing data were handled. Provide reasons for omitting any data",
            "missing-data",
            "Why the values were missing, and whether imputation was considered.",
        ),
        (
            "12d",
            "Analytical methods",
            "D;E",
            "Describe if and how any heterogeneity in estimates of model parameter values "
            "and model performance was handled and quantified across clusters (eg, "
            "hospitals, countries). See TRIPOD-Cluster for additional considerations",
            None,
            "Whether the data come from clusters (hospitals, countries) and how "
            "heterogeneity in performance across them was handled.",
        ),
        (
            "12e",
            "Analytical methods",
            "D;E",
            "Specify all measures and plots used (and their rationale) to evaluate model "
            "performance (eg, discrimination, calibration, clinical utility) and, if "
            "relevant, to compare multiple models",
            "performance-measures",
            None,
        ),
        (
            "12f",
            "Analytical methods",
            "E",
            "Describe any model updating (eg, recalibration) arising from the model "
            "evaluation, either overall or for particular sociodemographic groups or "
            "settings",
            None,
            "Any model updating (the calibration intercept and slope reported here are "
            "the coefficients of a logistic recalibration).",
        ),
        (
            "12g",
            "Analytical methods",
            "E",
            "For model evaluation, describe how the model predictions were calculated "
            "(eg, formula, code, object, application programming interface)",
            None,
            "How the predictions were calculated (formula, code, object or API).",
        ),
        (
            "13",
            "Class imbalance",
            "D;E",
            "If class imbalance methods were used, state why and how this was done, and "
            "any subsequent methods to recalibrate the model or the model predictions",
            None,
            "Whether class imbalance methods were used, and how the predictions were "
            "recalibrated afterwards.",
        ),
        (
            "14",
            "Fairness",
            "D;E",
            "Describe any approaches that were used to address model fairness and their "
            "rationale",
            None,
            "The approaches to model fairness (the subgroup section gives performance "
            "by group when groups are given).",
        ),
        (
            "16",
            "Training versus evaluation",
            "D;E",
            "Identify any differences between the development and evaluation data in "
            "healthcare setting, eligibility criteria, outcome, and predictors",
            None,
            "The differences between the development and the evaluation data.",
        ),
        (
            "20a",
            "Participants",
            "D;E",
            "Describe the flow of participants through the study, including the number of "
            "participants with and without the outcome and, if applicable, a summary of "
            "the follow-up time. A diagram may be helpful",
            "participants",
            "The flow of participants before the scored rows (eligible, excluded and "
            "why) and the follow-up time, if applicable.",
        ),
        (
            "20b",
            "Participants",
            "D;E",
            "Report the characteristics overall and, where applicable, for each data "
            "source or setting, including the key dates, key predictors (including "
            "demographics), treatments received, sample size, number of outcome events, "
            "follow-up time, and amount of missing data. A table may be helpful. Report "
            "any differences across key demographic groups",
            "participants",
            "The characteristics of the participants: key dates, predictors, "
            "demographics, treatments and follow-up.",
        ),
        (
            "20c",
            "Participants",
            "E",
            "For model evaluation, show a comparison with the development data of the "
            "distribution of important predictors (demographics, predictors, and outcome)",
            None,
            "A comparison of the predictors and outcome with the development data.",
        ),
        (
            "21",
            "Model development",
            "D;E",
            "Specify the number of participants and outcome events in each analysis (eg, "
            "for model development, hyperparameter tuning, model evaluation)",
            "participants",
            None,
        ),
        (
            "23a",
            "Model performance",
            "D;E",
            "Report model performance estimates with confidence intervals, including for "
            "any key subgroups (eg, sociodemographic). Consider plots to aid presentation",
            "performance-measures",
            "Performance in key subgroups (eg, sociodemographic): give the groups "
            "(skbrier report --group-col, or subgroups=).",
        ),
        (
            "23b",
            "Model performance",
            "D;E",
            "If examined, report results of any heterogeneity in model performance across "
            "clusters. See TRIPOD-Cluster for additional details",
            None,
            "Heterogeneity in performance across clusters, if examined.",
        ),
        (
            "24",
            "Model updating",
            "E",
            "Report the results from any model updating, including the updated model and "
            "subsequent performance",
            None,
            "The results of any model updating.",
        ),
        (
            "26",
            "Limitations",
            "D;E",
            "Discuss any limitations of the study (such as a non-representative sample, "
            "sample size, overfitting, missing data) and their effects on any biases, "
            "statistical uncertainty, and generalisability",
            None,
            "The limitations; the sample-size statements and the missing-data counts of "
            "this report say how precise and complete the evaluation is.",
        ),
    )
)
