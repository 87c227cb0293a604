"""Readers of LLM evaluation logs: lm-evaluation-harness, HELM, Inspect AI, judged JSON,
graded answers with abstention (SimpleQA style).

Each reader returns one :class:`EvalRecords` of arrays (ids, correctness,
the confidence of the answer given, and per-choice scores where the log
has them).  Formats are checked strictly: a malformed record raises
:class:`EvalLogError` naming the file, the line (or entry, or sample) and
the field; with ``skip_invalid=True`` it is skipped and counted, never
dropped silently.  A wrong option raises ``TypeError``/``ValueError``
naming it, and a file that cannot be read an ``OSError``
(``FileNotFoundError``, ``IsADirectoryError``) whose message names the path.
A log compressed by gzip, bzip2 or xz is read as the plain file.

One module per format (``_lm_eval``, ``_helm``, ``_inspect`` with
``_inspect_answer``, ``_judged``, ``_graded``); what they share -- files, text, JSON,
numbers, messages -- lives in ``_parse``.
"""

from ._graded import read_graded
from ._helm import read_helm_run
from ._inspect import read_inspect_log
from ._judged import read_judged
from ._lm_eval import read_lm_eval_samples
from ._records import EvalLogError, EvalRecords

__all__ = [
    "EvalLogError",
    "EvalRecords",
    "read_graded",
    "read_helm_run",
    "read_inspect_log",
    "read_judged",
    "read_lm_eval_samples",
]
