#!/usr/bin/env bash
# Run skbrier's scorer tests on the OLDEST supported scikit-learn.
#
# Creates (or reuses) an isolated virtual environment -- no system site
# packages -- with scikit-learn $SKLEARN_OLDEST (default 1.5.0, the oldest 1.5.x;
# its wheels work with numpy 2.x on Python 3.11) plus numpy, scipy, joblib,
# pytest and hypothesis, then runs the scorer and registration tests with
# PYTHONPATH at the repository root.  Exits non-zero on any failure.
#
# Environment:
#   PYTHON               interpreter used to create the venv (default: python3)
#   SKLEARN_OLDEST       scikit-learn version (default: 1.5.0)
#   SKBRIER_OLDEST_VENV  venv location (default: $TMPDIR/skbrier-sklearn-<ver>-py<XY>)
#   SKBRIER_OLDEST_FRESH=1  recreate the venv even if a matching one exists
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PY="${PYTHON:-python3}"
SKLEARN_OLDEST="${SKLEARN_OLDEST:-1.5.0}"
PYTAG="$("$PY" -c 'import sys; print(f"{sys.version_info[0]}{sys.version_info[1]}")')"
VENV="${SKBRIER_OLDEST_VENV:-${TMPDIR:-/tmp}/skbrier-sklearn-${SKLEARN_OLDEST}-py${PYTAG}}"

venv_ok() {
    [ -x "$VENV/bin/python" ] && "$VENV/bin/python" - "$SKLEARN_OLDEST" <<'EOF' 2>/dev/null
import sys
import numpy, scipy, joblib, pytest, hypothesis, sklearn
sys.exit(0 if sklearn.__version__ == sys.argv[1] else 1)
EOF
}

if [ "${SKBRIER_OLDEST_FRESH:-0}" = "1" ] || ! venv_ok; then
    echo "[sklearn_oldest] creating $VENV with scikit-learn==$SKLEARN_OLDEST"
    rm -rf "$VENV"
    "$PY" -m venv "$VENV"
    "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check \
        "scikit-learn==$SKLEARN_OLDEST" numpy scipy joblib pytest hypothesis
fi

"$VENV/bin/python" -c 'import sklearn, numpy, scipy; print("[sklearn_oldest] scikit-learn", sklearn.__version__, "numpy", numpy.__version__, "scipy", scipy.__version__)'

cd "$ROOT"
unset SKBRIER_NO_SKLEARN_REGISTRATION
PYTHONPATH="$ROOT${PYTHONPATH:+:$PYTHONPATH}" "$VENV/bin/python" -m pytest -q -p no:cacheprovider \
    tests/test_scorers.py tests/test_sklearn_registration.py \
    skbrier/scorers.py skbrier/_sklearn_registration.py "$@"
