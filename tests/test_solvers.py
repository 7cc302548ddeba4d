"""Tests of mechdesign.solvers: the one place where cvxpy and HiGHS run and their outcomes are read."""

import cvxpy as cp
import highspy
import numpy as np
import pytest
import scipy.sparse as sp

from mechdesign.certificate import lp_lower_bound
from mechdesign.solvers import (CLARABEL_LDL_METHODS, SolveOutcome, largest_violation, run_highs, solve_clarabel_lp,
                                solve_cvxpy, solve_highs_lp)
from tests.clarabel_doubles import almost_solved_unless_refined


def _problem():
    x = cp.Variable(nonneg=True)
    return cp.Problem(cp.Minimize(x), [x >= 1]), x


def test_a_solved_problem_reports_its_status_and_iterations():
    problem, x = _problem()
    outcome = solve_cvxpy(problem, "clarabel")
    assert outcome.solved and outcome.status == "optimal" and outcome.iterations is not None
    assert x.value == pytest.approx(1.0, abs=1e-8)


def test_solver_failures_are_outcomes_not_exceptions(monkeypatch):
    problem, _ = _problem()

    def fails(*args, **kwargs):
        raise cp.error.SolverError("boom")

    monkeypatch.setattr(problem, "solve", fails)
    assert solve_cvxpy(problem, "highs") == SolveOutcome("solver_error", "highs failed: boom")

    def unknown(*args, **kwargs):  # what cvxpy raises when HiGHS ends with status UNKNOWN
        raise ValueError("Cannot unpack invalid solution")

    monkeypatch.setattr(problem, "solve", unknown)
    outcome = solve_cvxpy(problem, "highs")
    assert outcome.status == "solver_error" and "without a usable solution" in outcome.note

    def other(*args, **kwargs):
        raise ValueError("something else")

    monkeypatch.setattr(problem, "solve", other)
    with pytest.raises(ValueError, match="something else"):  # not a solver failure: not swallowed
        solve_cvxpy(problem, "highs")


def test_infeasibility_is_reported_as_the_solver_proves_it():
    x = cp.Variable(nonneg=True)
    outcome = solve_cvxpy(cp.Problem(cp.Minimize(x), [x <= -1]), "highs")
    assert outcome.status == "infeasible" and not outcome.solved


def test_highs_runs_map_to_the_same_vocabulary():
    # min x0 + 2 x1 s.t. x0 + x1 = 1, x >= 0: x = (1, 0), the unique dual 1.
    outcome, x, y = solve_highs_lp(np.array([1.0, 2.0]), sp.csr_matrix([[1.0, 1.0]]), np.ones(1), np.ones(1),
                                   np.zeros(2), np.full(2, np.inf), ({"output_flag": False},))
    assert outcome.status == "optimal" and x == pytest.approx([1.0, 0.0]) and y.tolist() == [1.0]
    # An infeasible LP (x0 + x1 = 3 with x <= 1): every option set is tried, then a solver_error.
    outcome, x, y = solve_highs_lp(np.array([1.0, 2.0]), sp.csr_matrix([[1.0, 1.0]]), np.full(1, 3.0),
                                   np.full(1, 3.0), np.zeros(2), np.ones(2),
                                   ({"output_flag": False}, {"output_flag": False, "solver": "ipm"}))
    assert outcome.status == "solver_error" and x is None and y is None
    assert outcome.note.count("highs returned status") == 2
    highs = highspy.Highs()
    highs.setOptionValue("output_flag", False)
    assert run_highs(highs).status in ("optimal", "solver_error")


def test_status_and_solver_names_are_cvxpys_own():
    # mechdesign.solvers spells them out so that reading a status needs no cvxpy import.
    from mechdesign import solvers

    assert (solvers.OPTIMAL, solvers.OPTIMAL_INACCURATE) == (cp.OPTIMAL, cp.OPTIMAL_INACCURATE)
    assert (solvers.INFEASIBLE, solvers.INFEASIBLE_INACCURATE) == (cp.INFEASIBLE, cp.INFEASIBLE_INACCURATE)
    assert solvers.SOLVER_NAMES == {"highs": cp.HIGHS, "clarabel": cp.CLARABEL, "scs": cp.SCS}


def test_power_cone_violation_is_computed_in_closed_form():
    """``x^a y^{1−a} >= |z|``: cvxpy's own residual projects onto the cone with SCS (minutes for the few
    hundred cones of a Rényi design); here it is the largest of ``−x``, ``−y`` and ``|z| − x^a y^{1−a}``."""
    x = cp.Variable(3)
    cone = cp.PowCone3D(x, np.ones(3), np.array([0.5, -0.5, 0.1]), 0.25)
    x.value = np.array([0.0625, 0.0625, 1.0])  # 0.0625^0.25 = 0.5: the first two on the boundary
    assert largest_violation(cp.Problem(cp.Minimize(0), [cone])) == pytest.approx(0.0, abs=1e-15)
    x.value = np.array([0.0, 0.0625, 1.0])
    assert largest_violation(cp.Problem(cp.Minimize(0), [cone])) == pytest.approx(0.5, abs=1e-15)
    x.value = np.array([-0.25, 0.0625, 1.0])
    assert largest_violation(cp.Problem(cp.Minimize(0), [cone])) == pytest.approx(0.5, abs=1e-15)


#: Clarabel's optimum against HiGHS's simplex optimum on the same LP (absolute, costs of order 1).
INTERIOR_VALUE_ATOL = 1e-8


@pytest.mark.parametrize("ldl", CLARABEL_LDL_METHODS)
@pytest.mark.parametrize("refine", [None, True])
@pytest.mark.parametrize("seed", range(6))
def test_clarabel_lp_matches_the_simplex_and_its_duals_bound_the_optimum(seed, refine, ldl):
    """Random feasible LPs with equal, one-sided and two-sided rows and finite and infinite column bounds:
    Clarabel's value (with or without iterative refinement, by every factorization) is HiGHS's, and its row
    duals (HiGHS's sign convention) give a safe bound that meets it."""
    rng = np.random.default_rng(seed)
    rows, columns = 6, 10
    matrix = sp.csr_matrix(rng.normal(size=(rows, columns)) * (rng.random((rows, columns)) < 0.6))
    point = rng.random(columns)  # a feasible point: rows around A·point
    activity = matrix @ point
    lower = activity - np.where(rng.random(rows) < 0.5, 0.0, rng.random(rows))
    upper = activity + np.where(rng.random(rows) < 0.5, 0.0, rng.random(rows))
    lower[rng.random(rows) < 0.3] = -np.inf
    col_lower, col_upper = np.zeros(columns), np.where(rng.random(columns) < 0.5, 2.0, np.inf)
    costs = rng.random(columns)  # non-negative costs over x >= 0: bounded
    simplex, x_simplex, _ = solve_highs_lp(costs, matrix, lower, upper, col_lower, col_upper, ({"output_flag": False},))
    interior, x, duals = solve_clarabel_lp(costs, matrix, lower, upper, col_lower, col_upper, refine=refine, ldl=ldl)
    assert simplex.solved and interior.status == "optimal" and interior.iterations > 0
    assert costs @ x == pytest.approx(costs @ x_simplex, abs=INTERIOR_VALUE_ATOL)
    bound = lp_lower_bound(costs, matrix, lower, upper, col_lower, np.minimum(col_upper, 10.0), duals)
    assert costs @ x_simplex - INTERIOR_VALUE_ATOL <= bound <= costs @ x_simplex + 1e-12


def test_clarabel_lp_names_an_unknown_factorization():
    # A plain ValueError (mechdesign.solvers imports nothing of the package); WarmLinearProgram.solve_interior
    # raises the package's MechDesignError before it gets here (tests/test_direct.py).
    with pytest.raises(ValueError, match="ldl must be one of .*'qdldl'.*got 'cholmod'"):
        solve_clarabel_lp(np.ones(2), sp.csr_matrix([[1.0, 1.0]]), np.ones(1), np.ones(1), np.zeros(2),
                          np.full(2, np.inf), ldl="cholmod")


def test_clarabel_lp_failures_are_outcomes_not_exceptions(monkeypatch):
    """An infeasible LP and an iteration limit come back as solver errors naming Clarabel's status."""
    matrix = sp.csr_matrix([[1.0, 1.0]])
    infeasible = solve_clarabel_lp(np.ones(2), matrix, np.full(1, -np.inf), np.full(1, -1.0), np.zeros(2),
                                   np.full(2, np.inf))
    assert infeasible[0].status == "solver_error" and "Infeasible" in infeasible[0].note
    assert infeasible[1] is None and infeasible[2] is None
    import clarabel

    settings = clarabel.DefaultSettings

    def one_iteration():
        limited = settings()
        limited.max_iter = 1
        return limited

    monkeypatch.setattr(clarabel, "DefaultSettings", one_iteration)
    limited = solve_clarabel_lp(np.array([1.0, 2.0]), matrix, np.ones(1), np.ones(1), np.zeros(2), np.full(2, np.inf))
    assert limited[0].status == "solver_error" and "MaxIterations" in limited[0].note


@pytest.mark.parametrize("refined_status", ["Solved", "NumericalError"])
def test_clarabel_lp_almost_solved_is_run_again_with_refinement(monkeypatch, refined_status):
    """An "AlmostSolved" end (refinement off) runs Clarabel once more with iterative refinement: its point is kept
    when that run is "Solved", the first point (``optimal_inaccurate``) otherwise; the iterations add up."""
    refinements = almost_solved_unless_refined(monkeypatch, refined_status)
    outcome, x, duals = solve_clarabel_lp(np.array([1.0, 2.0]), sp.csr_matrix([[1.0, 1.0]]), np.ones(1), np.ones(1),
                                          np.zeros(2), np.full(2, np.inf))
    assert refinements == [False, True]
    assert outcome.status == ("optimal" if refined_status == "Solved" else "optimal_inaccurate")
    assert outcome.iterations > 0 and x == pytest.approx([1.0, 0.0], abs=1e-8) and duals == pytest.approx([1.0])
    refinements.clear()
    solve_clarabel_lp(np.array([1.0, 2.0]), sp.csr_matrix([[1.0, 1.0]]), np.ones(1), np.ones(1), np.zeros(2),
                      np.full(2, np.inf), refine=True)
    assert refinements == [True]  # asked for refinement: nothing to run again


@pytest.mark.parametrize("program", [
    "from mechdesign.solvers import quiet_highs; quiet_highs().run()",
    "import cvxpy as cp; from mechdesign.solvers import solve_cvxpy; x = cp.Variable(nonneg=True); "
    "solve_cvxpy(cp.Problem(cp.Minimize(x), [x >= 1]), 'highs')",
])
def test_highs_prints_nothing_to_standard_output(program):
    """No HiGHS banner (highspy >= 1.16 prints one when the process's first instance is constructed), whether the
    instance is the package's or cvxpy's: standard output must stay the caller's (``mechdesign design --json``)."""
    import subprocess
    import sys

    completed = subprocess.run([sys.executable, "-c", program + "; print('done')"], capture_output=True, text=True,
                               check=True)
    assert completed.stdout == "done\n"
