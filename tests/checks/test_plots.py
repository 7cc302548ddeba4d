"""Tests of mechdesign.checks.plots: one PNG per statement."""

import pytest

from mechdesign.checks.plots import series_key, slug, swept, write_plots
from mechdesign.checks.rows import compare, lower_bound
from mechdesign.exceptions import MechDesignError


def test_one_file_per_statement(tmp_path):
    rows = [compare("PUT Thm 7(1) DP", {"m": 2, "n": 2, "D": d}, "epsilon", 1 - d, 1 - d) for d in (0.2, 0.5)]
    rows += [compare("bound", {"m": m, "D": d}, "epsilon", lower_bound(0.0), d) for m in (2, 3) for d in (0.2, 0.5)]
    rows += [compare("no sweep", {"P": "(1)"}, "x", 1.0, 1.0)]
    written = write_plots(rows, tmp_path / "plots")
    assert sorted(p.name for p in written) == ["bound.png", "put-thm-7-1-dp.png"]
    assert all(p.stat().st_size > 0 for p in written)


def test_swept_parameter_and_series():
    row = compare("f", {"P": "(0.5,0.5)", "m": 3, "D": 0.25}, "epsilon", 1.0, 1.0)
    assert swept(row) == ("D", 0.25)
    assert series_key(row) == "P=(0.5,0.5), m=3"
    assert slug("SML Thm. 4 QM distortion (corrected)") == "sml-thm-4-qm-distortion-corrected"


def test_a_file_is_not_a_directory(tmp_path):
    target = tmp_path / "file"
    target.write_text("x")
    with pytest.raises(MechDesignError, match="--plots must name a directory"):
        write_plots([compare("f", {"D": 0.1}, "x", 1.0, 1.0)], target)
