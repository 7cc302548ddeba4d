"""Tests of mechdesign.designers.summary: exact designs for summary statistic privacy (Wang et al.,
Guarding Multiple Secrets, eq. (3): worst-case distortion; one LP per distortion threshold)."""

import itertools

import numpy as np
import pytest

from mechdesign import MaximalLeakage, MechDesignError, design
from mechdesign.designers.summary import design_worst_case_distortion, minimum_privacy, worst_case_tradeoff
from mechdesign.parameter_spaces import ParameterSpace
from mechdesign.privacy.summary import UnionPrivacy

from ..privacy.test_summary import small_space

#: The space of tests/privacy/test_summary.py's fixed examples.
FIXED_SPACE = small_space(11, n=5)


def test_infeasible_budget_is_a_result():
    notion = UnionPrivacy(FIXED_SPACE)
    floor = notion.prior_vulnerability()
    result = design_worst_case_distortion(notion, floor / 2)
    assert not result.success and result.status == "infeasible"
    assert result.smallest_feasible == pytest.approx(floor)
    assert not design(notion, floor / 2, notion.space.expected_distortion()).success


def test_worst_case_design_is_exact_against_brute_force():
    # On 4 inputs × 4 outputs, the least Δ with Π ≤ T found by bisection equals the least threshold
    # whose LP optimum is ≤ T, and no deterministic mechanism (4^4 of them) with smaller Δ meets T.
    space = ParameterSpace.gaussian_1d([0.0, 1.0], [1.0, 2.0], [0.2, 0.2])
    notion = UnionPrivacy(space)
    thresholds, values = worst_case_tradeoff(notion)
    assert np.all(np.diff(values) <= 1e-9)  # min Π is non-increasing in the threshold
    for T in (0.75, 0.8, 0.9, 1.0):  # 0.75: the prior vulnerability
        result = design_worst_case_distortion(notion, T)
        assert result.success and result.certified
        assert result.objective == pytest.approx(thresholds[np.argmax(values <= T + 1e-9)])
        assert notion.measure(result.mechanism) <= T + 1e-6
        for assignment in itertools.product(range(4), repeat=4):
            Q = np.eye(4)[list(assignment)]
            if space.support_distortion().value(Q) < result.objective - 1e-12:
                assert notion.measure(Q) > T


def test_minimum_privacy_reports_impossible_threshold():
    space = ParameterSpace.gaussian_1d([0.0, 1.0], [1.0], [0.2, 0.2]).with_outputs([[0.5, 1.0]], keep=False)
    value, matrix = minimum_privacy(UnionPrivacy(space), 0.1)
    assert value == np.inf and matrix is None


def test_worst_case_tradeoff_rejects_non_numeric_or_infinite_thresholds():
    notion = UnionPrivacy(ParameterSpace.gaussian_1d([0.0, 1.0], [1.0, 2.0], [0.2, 0.2]))
    with pytest.raises(MechDesignError, match="distortion threshold must be a number"):
        worst_case_tradeoff(notion, ["a lot"])
    with pytest.raises(MechDesignError, match="distortion threshold must be finite"):
        worst_case_tradeoff(notion, [0.5, float("inf")])
    grid, values = worst_case_tradeoff(notion, [0.5, 2.0])
    assert grid.tolist() == [0.5, 2.0] and values[1] <= values[0]


def test_bad_arguments_are_named():
    space = ParameterSpace.gaussian_1d([0.0, 1.0], [1.0, 2.0], [0.2, 0.2])
    cases = [
        (lambda: design_worst_case_distortion(UnionPrivacy(space), 2.0), "T must be a probability"),
        (lambda: design_worst_case_distortion(MaximalLeakage(), 0.5), "summary statistic privacy notion"),
        (lambda: design_worst_case_distortion(UnionPrivacy(space), 0.9, solver="scs"),
         r"solver must be one of \('highs', 'clarabel'\), got 'scs'"),
        (lambda: minimum_privacy(UnionPrivacy(space), 0.5, solver=1), "solver must be one of"),
        (lambda: worst_case_tradeoff(None), "expected a summary statistic privacy notion"),
    ]
    for call, match in cases:
        with pytest.raises(MechDesignError, match=match):
            call()


def test_a_failed_lp_is_a_solver_failure_not_an_impossible_threshold(monkeypatch):
    # A solver that returns nothing must never read as "no mechanism reaches this distortion" (inf) nor
    # steer the bisection: minimum_privacy raises SolverFailedError, the design reports "solver_error".
    from mechdesign import SolverFailedError
    from mechdesign.designers import summary
    from mechdesign.solvers import SolveOutcome

    notion = UnionPrivacy(FIXED_SPACE)
    threshold = float(worst_case_tradeoff(notion)[0][-1])
    monkeypatch.setattr(summary, "solve_cvxpy", lambda problem, solver, options=None: SolveOutcome("solver_error", note="boom"))
    with pytest.raises(SolverFailedError, match="boom"):
        minimum_privacy(notion, threshold)
    result = design_worst_case_distortion(notion, 1.0)
    assert not result.success and result.status == "solver_error" and "boom" in result.message
