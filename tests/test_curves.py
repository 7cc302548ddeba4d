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


#: Agreement of parallel and serial optima. Values agree to round-off, not bit for bit: cvxpy
#: warm-starts HiGHS from the previous budget, so a chunk's first solve starts cold; where the LP has
#: several optimal vertices the mechanisms may differ (checked: a cold solve of the same point gives
#: the parallel run's vertex exactly).
PARALLEL_AGREEMENT_ATOL = 1e-12


def _same_curve(parallel, serial):
    """Same abscissae, statuses and optima; every point certified in both runs."""
    assert np.array_equal(parallel.x, serial.x)
    assert np.allclose(parallel.y, serial.y, rtol=0, atol=PARALLEL_AGREEMENT_ATOL)
    for a, b in zip(parallel.results, serial.results):
        assert a.status == b.status and a.success and b.success and a.certified and b.certified


def test_parallel_curve_with_process_pool_equals_serial():
    from concurrent.futures import ProcessPoolExecutor

    from mechdesign import PointwiseMaximalLeakage

    prior = Prior([0.4, 0.3, 0.2, 0.1])
    budgets = np.linspace(0.1, 2.0, 7)
    with ProcessPoolExecutor(2) as pool:
        for notion in (DifferentialPrivacy(), PointwiseMaximalLeakage(prior)):
            serial = trace_curve(notion, ExpectedDistortion(prior), budgets)
            _same_curve(trace_curve(notion, ExpectedDistortion(prior), budgets, executor=pool), serial)
            _same_curve(trace_curve(notion, ExpectedDistortion(prior), budgets, executor=pool, chunks=5), serial)


def test_parallel_curve_on_a_local_dask_cluster_equals_serial():
    from distributed import Client

    prior = Prior([0.4, 0.3, 0.2, 0.1])
    budgets = np.linspace(0.0, 2.0, 6)
    serial = trace_curve(MaximalLeakage(), ExpectedDistortion(prior), budgets)
    with Client(processes=True, n_workers=2, threads_per_worker=1, dashboard_address=None) as client:
        parallel = trace_curve(MaximalLeakage(), ExpectedDistortion(prior), budgets, executor=client.get_executor())
    _same_curve(parallel, serial)


def test_parallel_curve_rejects_a_bad_chunk_count():
    from concurrent.futures import ThreadPoolExecutor

    from mechdesign.exceptions import MechDesignError

    with ThreadPoolExecutor(1) as pool, pytest.raises(MechDesignError, match="chunks"):
        trace_curve(DifferentialPrivacy(), ExpectedDistortion(Prior.uniform(3)), [1.0], executor=pool, chunks=0)
