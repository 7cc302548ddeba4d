"""Tests of mechdesign.solvers: the one place where cvxpy and HiGHS run and their outcomes are read."""

import cvxpy as cp
import highspy
import numpy as np
import pytest
import scipy.sparse as sp

from mechdesign.certificate import lp_lower_bound
from mechdesign.solvers import (CLARABEL_LDL_METHODS, SolveOutcome, highs_model, largest_violation, pass_model,
                                quiet_highs, run_highs, solve_clarabel_lp, solve_cvxpy, solve_highs_lp)
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
    # raises the package's MechDesignError before it gets here (tests/methods/test_direct.py).
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


# --- Ctrl-C during a solve (M3) and unknown solver options (M7), issue 30 ----------------------------


def test_an_interrupt_while_waiting_raises_at_once_and_cancels_the_work():
    """M3: the waiting main thread raises KeyboardInterrupt within a poll of the signal, and asks the work to stop."""
    import _thread
    import threading
    import time

    from mechdesign.solvers import run_interruptibly

    release = threading.Event()
    threading.Timer(0.2, _thread.interrupt_main).start()
    start = time.perf_counter()
    with pytest.raises(KeyboardInterrupt):
        run_interruptibly(lambda: release.wait(60), release.set)
    assert time.perf_counter() - start < 5 and release.is_set()


@pytest.mark.skipif(not hasattr(__import__("signal"), "pthread_sigmask"), reason="no signal masks on this platform")
def test_the_solver_thread_never_receives_ctrl_c_and_the_caller_still_does():
    """A SIGINT the kernel delivered to the solver's thread (any thread that does not hold it back may get a
    process-directed signal) interrupted a system call in Clarabel's Rust code, which panicked: a Rust
    backtrace after the KeyboardInterrupt (2 CI runs of test_ctrl_c_interrupts_a_clarabel_solve_promptly
    under load; reproduced by signalling the worker thread). The worker holds SIGINT back (fails without
    ``hold_interrupts``: the worker's mask is empty); the calling thread's mask is never touched (a SIGINT held there
    would be inherited by every child process: CI's Ctrl-C tests of child processes failed so)."""
    import signal

    from mechdesign.solvers import run_interruptibly

    before = signal.pthread_sigmask(signal.SIG_BLOCK, [])
    assert signal.SIGINT in run_interruptibly(lambda: signal.pthread_sigmask(signal.SIG_BLOCK, []))
    assert signal.pthread_sigmask(signal.SIG_BLOCK, []) == before and signal.SIGINT not in before


def test_work_run_interruptibly_returns_its_value_or_raises_its_error():
    import threading

    from mechdesign.solvers import run_interruptibly

    assert run_interruptibly(lambda: 6 * 7) == 42
    with pytest.raises(ZeroDivisionError):
        run_interruptibly(lambda: 1 / 0)
    names = []
    worker = threading.Thread(target=lambda: names.append(run_interruptibly(lambda: threading.current_thread().name)))
    worker.start()
    worker.join()
    assert names == [worker.name]  # off the main thread the work runs where it is called


#: Replaces ``clarabel.DefaultSolver`` by a wrapper that prints "solving" when Clarabel starts its solve.
ANNOUNCE_CLARABEL = """
import clarabel
real = clarabel.DefaultSolver
class Announcing:
    def __init__(self, *arguments):
        self.inner = real(*arguments)
    def set_termination_callback(self, callback):
        self.inner.set_termination_callback(callback)
    def solve(self):
        print("solving", flush=True)
        return self.inner.solve()
clarabel.DefaultSolver = Announcing
"""
#: A random LP that Clarabel solves in 30-40 s here (20 iterations), straight and through cvxpy.
RANDOM_LP = ("import numpy as np, scipy.sparse as sp\n"
             "n = 3000\n"
             "matrix = sp.random(n, n, density=0.01, random_state=0, format='csr')\n"
             "costs = np.random.default_rng(0).standard_normal(n)\n")
INTERRUPTED_SOLVES = {
    "clarabel-lp": RANDOM_LP + "from mechdesign.solvers import solve_clarabel_lp\n"
                               "solve_clarabel_lp(costs, matrix, np.full(n, -np.inf), np.ones(n), np.zeros(n), np.ones(n))\n",
    "cvxpy": RANDOM_LP + "import cvxpy as cp\n"
                         "from mechdesign.solvers import solve_cvxpy\n"
                         "x = cp.Variable(n)\n"
                         "solve_cvxpy(cp.Problem(cp.Minimize(costs @ x), [matrix @ x <= 1, x >= 0, x <= 1]), 'clarabel')\n",
}


@pytest.mark.slow
@pytest.mark.parametrize("program", INTERRUPTED_SOLVES.values(), ids=INTERRUPTED_SOLVES.keys())
def test_ctrl_c_interrupts_a_clarabel_solve_promptly(program):
    """M3: Ctrl-C was ignored while Clarabel solved (KeyboardInterrupt arrived after 236 s in Python): sent
    a second into Clarabel's solve, it ends the process with KeyboardInterrupt within seconds."""
    import signal
    import subprocess
    import sys
    import time

    process = subprocess.Popen([sys.executable, "-c", ANNOUNCE_CLARABEL + program], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    assert process.stdout.readline().strip() == "solving"
    time.sleep(1.0)
    sent = time.perf_counter()
    process.send_signal(signal.SIGINT)
    _, errors = process.communicate(timeout=300)
    assert time.perf_counter() - sent < 6.0, "the solve ran on after Ctrl-C"
    assert process.returncode != 0 and errors.rstrip().endswith("KeyboardInterrupt")


def test_unknown_solver_options_are_found_before_the_solver_runs():
    """M7: an unknown ``solver_options`` key on the Clarabel path raised cvxpy's raw TypeError."""
    from mechdesign.solvers import solver_option_names, unknown_solver_options

    assert unknown_solver_options("clarabel", ["max_iter", "tol_gap_abs", "verbose", "use_quad_obj", "maxiter"]) == [
        "maxiter"]
    assert unknown_solver_options("highs", ["time_limit", "highs_options", "presolve", "timelimit"]) == ["timelimit"]
    assert unknown_solver_options("scs", ["anything"]) == []  # SCS's own check names it
    assert "max_iter" in solver_option_names("clarabel") and "max_iter" not in solver_option_names("highs")
    assert solver_option_names("scs") == []


@pytest.mark.parametrize("solver, known", [("clarabel", "max_iter"), ("highs", "time_limit")])
def test_design_names_an_unknown_solver_option_and_lists_the_known_ones(solver, known):
    """M7: ``design(..., solver="clarabel", solver_options={"bogus": 1})`` raised
    ``TypeError: Clarabel: unrecognized solver setting 'bogus'``."""
    from mechdesign import DifferentialPrivacy, ExpectedDistortion, RenyiDifferentialPrivacy, design
    from mechdesign.exceptions import MechDesignError

    notion = RenyiDifferentialPrivacy(2.0) if solver == "clarabel" else DifferentialPrivacy()
    with pytest.raises(MechDesignError, match=rf"solver_options \['bogus'\] are not options of {solver}; its "
                                              rf"options: .*\b{known}\b"):
        design(notion, 1.0, ExpectedDistortion([0.5, 0.5]), solver=solver, solver_options={"bogus": 1}, method="cvxpy")


@pytest.mark.parametrize("shape", [(1, 1), (3, 5), (40, 25)])
def test_pass_model_gives_highs_the_lp_highs_model_describes(shape):
    """Issue 31 (item 3): the array form of passModel (8 µs against 2.4 ms at n = 30) must hold the same LP as the
    HighsLp of highs_model — every cost, bound and coefficient, every column continuous — and solve it alike."""
    rng = np.random.default_rng(sum(shape))
    rows, columns = shape
    matrix = sp.random(rows, columns, density=0.4, random_state=rng, format="csr") + sp.eye(rows, columns)
    costs, col_upper = rng.random(columns), np.where(rng.random(columns) < 0.5, np.inf, 2.0)
    row_lower, row_upper = np.full(rows, -np.inf), 1.0 + rng.random(rows)
    arguments = (-costs, matrix, row_lower, row_upper, np.zeros(columns), col_upper)
    by_arrays, by_lp = quiet_highs(), quiet_highs()
    pass_model(by_arrays, *arguments)
    by_lp.passModel(highs_model(*arguments))
    mine, theirs = by_arrays.getLp(), by_lp.getLp()
    for name in ("col_cost_", "col_lower_", "col_upper_", "row_lower_", "row_upper_"):
        np.testing.assert_array_equal(np.asarray(getattr(mine, name)), np.asarray(getattr(theirs, name)))
    for name in ("start_", "index_", "value_"):
        np.testing.assert_array_equal(np.asarray(getattr(mine.a_matrix_, name)), np.asarray(getattr(theirs.a_matrix_, name)))
    assert list(mine.integrality_) in ([], [highspy.HighsVarType.kContinuous] * columns)
    assert run_highs(by_arrays).status == run_highs(by_lp).status == "optimal"
    assert by_arrays.getObjectiveValue() == by_lp.getObjectiveValue()


def test_ctrl_c_while_the_worker_thread_starts_still_cancels_and_joins_it(monkeypatch):
    """A KeyboardInterrupt can arrive while ``Thread.start()`` waits for the new thread (a loaded machine): the solve
    must still be cancelled and waited for — before, it ran on as an abandoned daemon thread, and the interpreter's
    shutdown under a running Clarabel solve could end in a panic from the solver's native code."""
    import threading

    from mechdesign.solvers import run_interruptibly

    stop, ended = threading.Event(), threading.Event()
    real_start = threading.Thread.start

    def interrupted_start(self):
        real_start(self)
        raise KeyboardInterrupt

    def work():
        stop.wait(10)
        ended.set()

    monkeypatch.setattr(threading.Thread, "start", interrupted_start)
    with pytest.raises(KeyboardInterrupt):
        run_interruptibly(work, stop.set)
    assert stop.is_set() and ended.is_set()
