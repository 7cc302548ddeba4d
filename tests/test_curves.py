"""Tests of mechdesign.curves.trace_curve and Curve."""

import csv

import numpy as np
import pytest

from mechdesign import DifferentialPrivacy, ExpectedDistortion, MaximalLeakage, Prior, design, trace_curve
from mechdesign.exceptions import InvalidBudgetError
from mechdesign.theory import put

BUDGETS = np.linspace(0, 2, 9)


def test_curve_matches_single_designs_and_closed_form():
    prior = Prior([0.4, 0.3, 0.2, 0.1])
    curve = trace_curve(DifferentialPrivacy(), ExpectedDistortion(prior), BUDGETS)
    assert curve.success and curve.label == "dp" and curve.x_name == "epsilon"
    for eps, value in zip(BUDGETS, curve.y):
        assert value == pytest.approx(design(DifferentialPrivacy(), eps, ExpectedDistortion(prior)).objective, abs=1e-9)
    uniform = trace_curve(MaximalLeakage(), ExpectedDistortion(Prior.uniform(3)), BUDGETS)
    assert np.allclose(uniform.y, [put.prop8_distortion_ml(3, e) for e in BUDGETS], atol=1e-8)


def test_curve_is_non_increasing():
    curve = trace_curve(DifferentialPrivacy(), ExpectedDistortion(Prior([0.5, 0.3, 0.2])), BUDGETS)
    assert (np.diff(curve.y) <= 1e-9).all()


def test_csv_and_plot(tmp_path):
    import matplotlib

    matplotlib.use("Agg")
    curve = trace_curve(MaximalLeakage(), ExpectedDistortion(Prior.uniform(3)), [0.0, 1.0])
    path = curve.to_csv(tmp_path / "curve.csv")
    rows = list(csv.DictReader(path.open()))
    assert len(rows) == 2 and float(rows[1]["expected_distortion"]) == pytest.approx(1 - np.e / 3, abs=1e-8)
    ax = curve.plot()
    assert ax.get_xlabel() == "epsilon" and len(ax.lines) == 1


def test_bad_budget():
    with pytest.raises(InvalidBudgetError):
        trace_curve(DifferentialPrivacy(), ExpectedDistortion(Prior.uniform(2)), [0.5, -1])
