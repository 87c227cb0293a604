"""The layout of the command line and model-selection modules."""

from pathlib import Path

import skbrier

ROOT = Path(skbrier.__file__).parent


def test_cli_and_model_selection_modules_stay_small():
    long = {
        p.relative_to(ROOT).as_posix(): n
        for folder in ("cli", "model_selection")
        for p in sorted((ROOT / folder).glob("*.py"))
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > 700
    }
    assert not long, f"split these modules by responsibility: {long}"
