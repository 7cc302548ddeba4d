"""The one place where cvxpy and HiGHS are run and their outcomes read.

Every solve in the package goes through :func:`solve_cvxpy` (a cvxpy problem), :func:`run_highs`
(a HiGHS model held by the caller, e.g. a warm-started one, built by :func:`quiet_highs`) /
:func:`solve_highs_lp` (an LP given as arrays), or :func:`solve_clarabel_lp` (the same LP by Clarabel's
interior point). Each maps whatever the solver did — an exception, an unknown status, a missing solution —
to a :class:`SolveOutcome` the same way, so that a solver failure is reported as ``"solver_error"``
and never surfaces as bad input, infeasibility or unboundedness.

Clarabel, the cvxpy solvers and the one-off HiGHS LPs of :func:`solve_highs_lp` run in a worker thread
while the calling (main) thread waits (:func:`run_interruptibly`): their compiled code holds no Python
frame in which Ctrl-C could be raised, so without it a ``KeyboardInterrupt`` waited for the end of the
solve (minutes on a large Rényi curve).
"""

from __future__ import annotations

import contextvars
import inspect
import os
import signal
import sys
import threading
import warnings
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

import highspy
import numpy as np

if TYPE_CHECKING:  # cvxpy and scipy.sparse are imported by the functions that use them, when they run
    import cvxpy as cp
    import scipy.sparse as sp

#: cvxpy's status names, spelled out so that reading a status needs no cvxpy import (they are plain
#: strings; tests/test_solvers.py checks them against cvxpy's constants).
OPTIMAL, OPTIMAL_INACCURATE = "optimal", "optimal_inaccurate"
INFEASIBLE, INFEASIBLE_INACCURATE = "infeasible", "infeasible_inaccurate"
#: The solvers a design may name, and cvxpy's identifiers for them (``cp.HIGHS``, … checked likewise).
SOLVER_NAMES = {"highs": "HIGHS", "clarabel": "CLARABEL", "scs": "SCS"}
#: Default options per solver, overridden by ``solver_options``. Clarabel's default tolerances (1e-8)
#: leave round-off that shows in ratio-type measures; 1e-10 costs a few iterations.
DEFAULT_SOLVER_OPTIONS: dict[str, dict[str, Any]] = {
    "clarabel": {"tol_gap_abs": 1e-10, "tol_gap_rel": 1e-10, "tol_feas": 1e-10},
}
#: Statuses with a usable solution.
SOLVED = (OPTIMAL, OPTIMAL_INACCURATE)
#: Options cvxpy's interface to a solver reads itself, beyond the solver's own settings (cvxpy 1.9:
#: ``clarabel_conif.parse_solver_opts``, ``highs_conif.unpack_highs_options_inplace`` and ``solve_via_data``).
CVXPY_INTERFACE_OPTIONS = {"clarabel": ("use_quad_obj", "accept_unknown"), "highs": ("highs_options", "write_model_file")}
#: Seconds between two looks of the waiting thread at a solve running in :func:`run_interruptibly` (a
#: ``KeyboardInterrupt`` is raised at once in any case; this only bounds the wait on platforms where a
#: blocked ``join`` is not interrupted by signals).
INTERRUPT_POLL_SECONDS = 0.1
#: The name of the worker threads of :func:`run_interruptibly`.
SOLVER_THREAD_NAME = "mechdesign-solver"
#: Seconds an interrupted :func:`run_interruptibly` waits for its worker thread to begin, before joining it (the
#: thread was created; it only waits for the interpreter to schedule it).
THREAD_START_SECONDS = 30.0

Value = TypeVar("Value")


@dataclass(frozen=True)
class SolveOutcome:
    """What a solver run ended with.

    Attributes
    ----------
    status
        cvxpy's status vocabulary (``"optimal"``, ``"optimal_inaccurate"``, ``"infeasible"``, …) or
        ``"solver_error"`` when the solver raised or ended without a usable solution.
    note
        Why, for a ``"solver_error"``.
    iterations
        Solver iterations, when reported.
    """

    status: str
    note: str = ""
    iterations: int | None = None

    @property
    def solved(self) -> bool:
        """Whether a solution came back (``"optimal"`` or ``"optimal_inaccurate"``).

        Examples
        --------
        >>> SolveOutcome("optimal_inaccurate").solved, SolveOutcome("solver_error", "no solution").solved
        (True, False)
        """
        return self.status in SOLVED


def solve_cvxpy(problem: cp.Problem, solver: str, options: Mapping[str, Any] | None = None) -> SolveOutcome:
    """Solve a cvxpy problem with ``solver`` (a key of :data:`SOLVER_NAMES`) and the default options.

    cvxpy's "may be inaccurate" warnings are silenced (the status says so and callers re-measure), as is
    its bound propagation's harmless ``0 · inf``. A ``SolverError``, or the ``ValueError`` cvxpy raises
    when a solver ends with an unknown status ("Cannot unpack invalid solution", seen with HiGHS on
    near-degenerate LPs), is a ``"solver_error"`` outcome; any other exception propagates.

    Examples
    --------
    >>> import cvxpy as cp
    >>> x = cp.Variable(nonneg=True)
    >>> solve_cvxpy(cp.Problem(cp.Minimize(x), [x >= 1]), "clarabel").status
    'optimal'
    """
    import cvxpy as cp

    if solver == "highs":
        _absorb_highs_banner()  # cvxpy's HiGHS instances would print it otherwise
    settings = {**DEFAULT_SOLVER_OPTIONS.get(solver, {}), **(options or {})}
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            warnings.filterwarnings("ignore", "invalid value encountered", RuntimeWarning, "cvxpy")
            # Cold: cvxpy's default warm start hands HiGHS the previous solve's point, and on metric-DP curves (one
            # compiled problem re-solved) HiGHS then failed or returned "optimal" points far from the optimum
            # (benchmarks/notes/2026-11-28-metric-dp-periphery.md).
            run_interruptibly(lambda: problem.solve(solver=SOLVER_NAMES[solver], **{"warm_start": False, **settings}))
    except cp.error.SolverError as exc:
        return SolveOutcome("solver_error", f"{solver} failed: {exc}")
    except ValueError as exc:
        if "invalid solution" not in str(exc):
            raise
        return SolveOutcome("solver_error", f"{solver} ended without a usable solution: {exc}")
    iterations = getattr(problem.solver_stats, "num_iters", None)
    return SolveOutcome(problem.status, iterations=iterations)


def run_interruptibly(work: Callable[[], Value], cancel: Callable[[], None] | None = None) -> Value:
    """``work()``, run in a worker thread while the main thread waits, so that Ctrl-C interrupts it at once.

    A solver's compiled code releases the interpreter but gives it no chance to raise the
    ``KeyboardInterrupt`` that a SIGINT asks for until it returns; the waiting main thread raises it
    immediately instead. With ``cancel`` (which asks the solver to stop, e.g. through Clarabel's
    termination callback) it first calls it and waits for the worker to stop (a second Ctrl-C stops
    waiting); without, the worker — a daemon thread — finishes its solve in the background and its result
    is dropped (:func:`solves_running` tells; the command line then ends the process at once, as the
    interpreter's own shutdown under a solver still running could abort). Anything ``work`` raises is
    raised here. Off the main thread (which alone receives signals) ``work`` runs directly. The worker
    runs in a copy of the caller's context (numpy's error state and other context variables) and holds
    SIGINT back (:func:`hold_interrupts`), so that the operating system delivers Ctrl-C to the waiting
    thread only.

    Examples
    --------
    >>> run_interruptibly(lambda: sum(range(4)))
    6
    """
    if threading.current_thread() is not threading.main_thread():
        return work()
    context, outcome, began = contextvars.copy_context(), {}, threading.Event()

    def target() -> None:
        hold_interrupts()  # in this thread only, for its life: Ctrl-C reaches the waiting thread, never the solver
        began.set()
        try:
            outcome["value"] = context.run(work)
        except BaseException as error:  # noqa: BLE001 - handed to the waiting thread, which raises it
            outcome["error"] = error

    worker = threading.Thread(target=target, name=SOLVER_THREAD_NAME, daemon=True)
    try:
        worker.start()  # inside: a Ctrl-C may arrive while start() waits for the new thread (a loaded machine)
        while worker.is_alive():
            worker.join(INTERRUPT_POLL_SECONDS)
    except KeyboardInterrupt:
        if cancel is not None:
            cancel()
            if began.wait(THREAD_START_SECONDS):  # the thread exists once start() created it; it may not run yet
                worker.join()
        raise
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


def hold_interrupts() -> None:
    """Hold SIGINT back in the calling thread (and the threads it starts later), for the rest of its life.

    :func:`run_interruptibly`'s worker calls it first, so that the operating system delivers a Ctrl-C to the
    waiting main thread and never to a solver's thread: a SIGINT landing in Clarabel's compiled code interrupted
    a system call there and made it panic (a Rust backtrace after the ``KeyboardInterrupt``, seen in 2 of ≈ 40 CI
    runs under load). Only worker threads call it — never the main thread, whose mask child processes inherit.
    Where signal masks do not exist (Windows) it does nothing.

    Examples
    --------
    >>> import threading
    >>> worker = threading.Thread(target=hold_interrupts)
    >>> worker.start(); worker.join()
    """
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})


def solves_running() -> bool:
    """Whether a solve abandoned by :func:`run_interruptibly` (interrupted, not cancellable) still runs.

    Examples
    --------
    >>> solves_running()
    False
    """
    return any(thread.name == SOLVER_THREAD_NAME and thread.is_alive() for thread in threading.enumerate())


def unknown_solver_options(solver: str, names: Iterable[str]) -> list[str]:
    """The ``names`` that are no option of ``solver`` as cvxpy runs it (a key of :data:`SOLVER_NAMES`).

    An option is known when it is a keyword of cvxpy's ``Problem.solve``, one that cvxpy's interface to the
    solver reads (:data:`CVXPY_INTERFACE_OPTIONS`), or one of the solver's own settings: an attribute of
    Clarabel's ``DefaultSettings``, a HiGHS option (``Highs.getOptionType`` knows it). SCS's are not
    known in advance (SCS itself refuses an unknown one): none is reported.

    Examples
    --------
    >>> unknown_solver_options("clarabel", ["max_iter", "verbose", "maxiter", "solver"])
    ['maxiter', 'solver']
    >>> unknown_solver_options("highs", ["time_limit", "timelimit"])
    ['timelimit']
    """
    import cvxpy as cp

    keywords = ((set(inspect.signature(cp.Problem._solve).parameters) - {"self", "solver", "kwargs"})
                | set(CVXPY_INTERFACE_OPTIONS.get(solver, ())))
    candidates = [name for name in names if name not in keywords]
    if solver == "highs":
        highs = quiet_highs()
        return [name for name in candidates if highs.getOptionType(name)[0] != highspy.HighsStatus.kOk]
    if solver == "clarabel":
        known = set(solver_option_names(solver))
        return [name for name in candidates if name not in known]
    return []


def solver_option_names(solver: str) -> list[str]:
    """The names of ``solver``'s own settings, sorted, for messages: Clarabel's ``DefaultSettings``
    attributes, HiGHS's ``HighsOptions`` attributes (its common options; ``getOptionType`` knows a few
    more), none for SCS.

    Examples
    --------
    >>> "max_iter" in solver_option_names("clarabel"), "time_limit" in solver_option_names("highs")
    (True, True)
    """
    if solver == "clarabel":
        import clarabel

        settings: Any = clarabel.DefaultSettings()
    elif solver == "highs":
        settings = quiet_highs().getOptions()
    else:
        return []
    return sorted(name for name in dir(settings) if not name.startswith("_") and not callable(getattr(settings, name)))


def largest_violation(problem: cp.Problem) -> float:
    """The largest violation of any of ``problem``'s constraints by its current values (cvxpy's
    "may be inaccurate" warning silenced: the status already says so).

    Examples
    --------
    >>> import cvxpy as cp
    >>> x = cp.Variable(nonneg=True)
    >>> problem = cp.Problem(cp.Minimize(x), [x >= 1])
    >>> _ = solve_cvxpy(problem, "clarabel")
    >>> largest_violation(problem) < 1e-8
    True
    """
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        return max(_violation(c) for c in problem.constraints)


def _violation(constraint: cp.Constraint) -> float:
    """cvxpy's violation, except for 3-D power cones ``x^a y^{1−a} >= |z|``, whose cvxpy residual projects
    onto the cone with SCS (minutes for a few hundred cones): there the largest of ``−x``, ``−y`` and
    ``|z| − x₊^a y₊^{1−a}``."""
    from cvxpy.constraints import PowCone3D  # cvxpy is imported only where a cvxpy problem exists

    if not isinstance(constraint, PowCone3D):
        return float(np.max(constraint.violation()))
    x, y, z = (np.asarray(arg.value, dtype=float) for arg in constraint.args)
    a = np.asarray(constraint.alpha.value, dtype=float)
    gap = np.abs(z) - np.clip(x, 0.0, None) ** a * np.clip(y, 0.0, None) ** (1.0 - a)
    return float(np.max(np.maximum(np.maximum(-x, -y), gap)))


_HIGHS_BANNER_ABSORBED = False


def _absorb_highs_banner() -> None:
    """Construct one HiGHS instance with the process's standard output sent to the null device, once.

    From highspy 1.16 on, constructing the process's first instance prints HiGHS's banner ("Running HiGHS
    …") to standard output before any option can be set (the wrapper's constructor calls a logging method;
    HiGHS writes the banner once per process). It broke ``mechdesign design --json`` (the output no longer
    parsed as JSON) and the demo's table. Later instances, ours or cvxpy's, print nothing.
    """
    global _HIGHS_BANNER_ABSORBED
    if _HIGHS_BANNER_ABSORBED:
        return
    _HIGHS_BANNER_ABSORBED = True
    try:
        sys.stdout.flush()
        saved = os.dup(1)
    except (OSError, ValueError):  # no standard output to protect (closed, or detached)
        return
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(null, 1)
        highspy.Highs()
    finally:
        os.dup2(saved, 1)
        os.close(saved)
        os.close(null)


def quiet_highs(options: Mapping[str, Any] | None = None) -> highspy.Highs:
    """A new HiGHS instance that prints nothing (``output_flag`` off, no banner), with ``options`` set.

    Every HiGHS instance of the package comes from here (cvxpy's too are silent once this has run).

    Examples
    --------
    ``min x`` s.t. ``x = 1``, solved without a line of output:

    >>> highs = quiet_highs({"presolve": "off"})
    >>> _ = highs.passModel(highs_model(np.ones(1), np.ones((1, 1)), np.ones(1), np.ones(1), np.zeros(1), np.ones(1)))
    >>> run_highs(highs).status, list(highs.getSolution().col_value)
    ('optimal', [1.0])
    """
    _absorb_highs_banner()
    highs = highspy.Highs()
    highs.setOptionValue("output_flag", False)
    for option, value in (options or {}).items():
        highs.setOptionValue(option, value)
    return highs


def run_highs(highs: highspy.Highs) -> SolveOutcome:
    """Run a HiGHS model the caller holds (warm starts keep their basis): ``"optimal"`` or HiGHS's status.

    Examples
    --------
    >>> outcome = run_highs(quiet_highs())  # an empty model
    >>> outcome.status in ("optimal", "solver_error")
    True
    """
    highs.run()
    status = highs.getModelStatus()
    iterations = int(highs.getInfoValue("simplex_iteration_count")[1])  # one value: getInfo() copies them all
    if status == highspy.HighsModelStatus.kOptimal:
        return SolveOutcome(OPTIMAL, iterations=iterations)
    return SolveOutcome("solver_error", f"highs returned status {highs.modelStatusToString(status)!r}", iterations)


def highs_model(costs: np.ndarray, matrix: sp.spmatrix, row_lower: np.ndarray, row_upper: np.ndarray,
                col_lower: np.ndarray, col_upper: np.ndarray) -> highspy.HighsLp:
    """The HiGHS LP ``min c·x`` s.t. ``L <= A x <= U``, ``l <= x <= u`` (``A`` column-wise).

    Parameters
    ----------
    costs
        ``(n,)`` ``c``.
    matrix
        ``(k, n)`` ``A`` (any scipy sparse format, or dense).
    row_lower, row_upper
        ``(k,)`` ``L`` and ``U``.
    col_lower, col_upper
        ``(n,)`` ``l`` and ``u`` (``±inf`` allowed).

    Returns
    -------
    highspy.HighsLp
        The model, ready for ``Highs.passModel``.

    Examples
    --------
    ``min x₀ + 2 x₁`` s.t. ``x₀ + x₁ = 1``, ``x >= 0``:

    >>> import scipy.sparse as sp
    >>> lp = highs_model(np.array([1.0, 2.0]), sp.csr_matrix([[1.0, 1.0]]), np.ones(1), np.ones(1),
    ...                  np.zeros(2), np.full(2, np.inf))
    >>> lp.num_row_, lp.num_col_, list(lp.a_matrix_.start_)  # one entry per column
    (1, 2, [0, 1, 2])
    >>> highs = quiet_highs()
    >>> _ = highs.passModel(lp)
    >>> _ = highs.run()
    >>> list(highs.getSolution().col_value)
    [1.0, 0.0]
    """
    import scipy.sparse as sp

    columns = sp.csc_matrix(matrix)
    lp = highspy.HighsLp()
    lp.num_row_, lp.num_col_ = columns.shape
    lp.col_cost_ = np.asarray(costs, dtype=float)
    lp.col_lower_, lp.col_upper_ = np.asarray(col_lower, dtype=float), np.asarray(col_upper, dtype=float)
    lp.row_lower_, lp.row_upper_ = np.asarray(row_lower, dtype=float), np.asarray(row_upper, dtype=float)
    lp.a_matrix_.format_ = highspy.MatrixFormat.kColwise
    # Index vectors as lists: highspy copies a list of ints 2–9× faster than an integer array (no fast path for
    # them, unlike float arrays): 4,000 indices 82 against 749 µs, 40,000 5.7 against 11.0 ms.
    lp.a_matrix_.start_ = columns.indptr.tolist()
    lp.a_matrix_.index_ = columns.indices.tolist()
    lp.a_matrix_.value_ = columns.data
    return lp


def pass_model(highs: highspy.Highs, costs: np.ndarray, matrix: sp.spmatrix, row_lower: np.ndarray,
               row_upper: np.ndarray, col_lower: np.ndarray, col_upper: np.ndarray) -> None:
    """Give ``highs`` the LP of :func:`highs_model` (same arguments) through highspy's array form of ``passModel``:
    numpy's buffers read as they are, where a :class:`highspy.HighsLp` converts every field element by element
    (local DP's LP at n = 30, 960 columns and 3,660 nonzeros: 8 µs against 2.4 ms).

    Examples
    --------
    >>> import scipy.sparse as sp
    >>> highs = quiet_highs()
    >>> pass_model(highs, np.array([1.0, 2.0]), sp.csr_matrix([[1.0, 1.0]]), np.ones(1), np.ones(1), np.zeros(2),
    ...            np.full(2, np.inf))
    >>> run_highs(highs).status, list(highs.getSolution().col_value)
    ('optimal', [1.0, 0.0])
    """
    import scipy.sparse as sp

    columns = sp.csc_matrix(matrix)
    rows, count = columns.shape
    highs.passModel(count, rows, columns.nnz, int(highspy.MatrixFormat.kColwise), int(highspy.ObjSense.kMinimize),
                    0.0, np.asarray(costs, dtype=float), np.asarray(col_lower, dtype=float),
                    np.asarray(col_upper, dtype=float), np.asarray(row_lower, dtype=float),
                    np.asarray(row_upper, dtype=float), columns.indptr.astype(np.int32),
                    columns.indices.astype(np.int32), np.asarray(columns.data, dtype=float),
                    np.zeros(count, dtype=np.int32))  # every column continuous (an empty array is read past its end)


def solve_highs_lp(costs: np.ndarray, matrix: sp.spmatrix, row_lower: np.ndarray, row_upper: np.ndarray,
                   col_lower: np.ndarray, col_upper: np.ndarray, option_sets: tuple[Mapping[str, Any], ...]
                   ) -> tuple[SolveOutcome, np.ndarray | None, np.ndarray | None]:
    """Solve an LP given as arrays, trying each of ``option_sets`` until HiGHS reaches optimality.

    Returns the outcome, the primal values and the row duals (``None`` unless optimal). Each instance is
    this function's own, so it runs through :func:`run_interruptibly` (an interrupted one is left to
    finish alone; a warm-started model a caller holds is run by :func:`run_highs` in the caller's thread).

    Examples
    --------
    >>> import scipy.sparse as sp
    >>> outcome, x, y = solve_highs_lp(np.array([1.0, 2.0]), sp.csr_matrix([[1.0, 1.0]]), np.ones(1), np.ones(1),
    ...                                np.zeros(2), np.full(2, np.inf), ({"output_flag": False},))
    >>> outcome.status, abs(x).tolist(), y.tolist()
    ('optimal', [1.0, 0.0], [1.0])
    """
    notes = []
    for options in option_sets:
        highs = quiet_highs(options)
        pass_model(highs, costs, matrix, row_lower, row_upper, col_lower, col_upper)
        outcome = run_interruptibly(lambda: run_highs(highs))
        if outcome.solved:
            solution = highs.getSolution()
            return outcome, np.asarray(solution.col_value), np.asarray(solution.row_dual)
        notes.append(outcome.note)
    return SolveOutcome("solver_error", "; ".join(notes)), None, None


#: Clarabel's tolerances for :func:`solve_clarabel_lp` (its defaults are 1e-8): tight enough that
#: column generation's stopping test (a relative gap of 1e-9) can be met from its duals. On a restricted PML
#: LP at n = 1000 (61 outputs) 1e-12 took 90 iterations against 89 at 1e-10, and its duals' bound
#: came within 5e-13 of the value against 1.1e-10.
CLARABEL_LP_TOLERANCE = 1e-12
#: Whether Clarabel refines each KKT solve iteratively (its default: on). Off for :func:`solve_clarabel_lp`: on
#: the n = 1000 PML master (61 outputs) the same 90 iterations took 4.1 s instead of 5.5 s, the value equal to
#: 2e-13. A solve that ends "AlmostSolved" runs once more with it on (n = 1000, uniform prior, ε = 0.1: one such
#: restricted PML LP, 0.8 s, then re-solved by the simplex took 24.7 s; refined, 1.3 s).
CLARABEL_ITERATIVE_REFINEMENT = False
#: Clarabel's sparse LDL factorizations (its ``direct_solve_method``): ``"default"`` leaves Clarabel's own
#: choice (from Clarabel 0.11 its "auto": the supernodal ``"faer"`` when an AMD ordering predicts at least 40
#: flops per factor nonzero, else the simplicial ``"qdldl"``; Clarabel 0.10 knows no "auto" and takes "qdldl").
CLARABEL_LDL_METHODS = ("default", "qdldl", "faer")


def solve_clarabel_lp(costs: np.ndarray, matrix: sp.spmatrix, row_lower: np.ndarray, row_upper: np.ndarray,
                      col_lower: np.ndarray, col_upper: np.ndarray, *, tolerance: float = CLARABEL_LP_TOLERANCE,
                      refine: bool | None = None, ldl: str = "default"
                      ) -> tuple[SolveOutcome, np.ndarray | None, np.ndarray | None]:
    """Solve ``min c·x`` s.t. ``L <= A x <= U``, ``l <= x <= u`` with Clarabel's interior point method.

    The same LP as :func:`solve_highs_lp`, for the problems where an interior point beats the simplex:
    degenerate LPs whose simplex pivots are the cost (benchmarks/RESULTS.md). Equal row sides become
    Clarabel's zero cone, every finite side and column bound one row of its non-negative cone. The
    point is interior-point accurate (about ``tolerance``), not a vertex; the row duals come back in
    HiGHS's convention (``y > 0`` on a row's lower side), so they serve
    :func:`~mechdesign.certificate.lp_lower_bound`, which bounds the optimum from any multipliers.

    Parameters
    ----------
    costs, matrix, row_lower, row_upper, col_lower, col_upper
        As for :func:`highs_model` (``±inf`` allowed; an infinite bound adds no row).
    tolerance
        Clarabel's ``tol_gap_abs``, ``tol_gap_rel`` and ``tol_feas``.
    refine
        Whether Clarabel refines each KKT solve iteratively (default :data:`CLARABEL_ITERATIVE_REFINEMENT`).
        Without it, a solve that ends "AlmostSolved" is run once more with it (the refined point is kept
        when Clarabel then reports "Solved"; ``iterations`` counts both).
    ldl
        Clarabel's factorization of the KKT systems, one of :data:`CLARABEL_LDL_METHODS` (the same point and
        iterations up to round-off; only the time per iteration differs); another value is a ``ValueError``.

    Returns
    -------
    (outcome, x, row_duals)
        ``"optimal"`` (Clarabel ``Solved``), ``"optimal_inaccurate"`` (``AlmostSolved``) or
        ``"solver_error"`` naming Clarabel's status; ``x`` and ``row_duals`` are ``None`` unless solved.

    Examples
    --------
    ``min x₀ + 2 x₁`` s.t. ``x₀ + x₁ = 1``, ``x >= 0``: the optimum ``(1, 0)``, dual 1.

    >>> import scipy.sparse as sp
    >>> outcome, x, y = solve_clarabel_lp(np.array([1.0, 2.0]), sp.csr_matrix([[1.0, 1.0]]), np.ones(1),
    ...                                   np.ones(1), np.zeros(2), np.full(2, np.inf))
    >>> outcome.status, np.round(x, 8).tolist(), np.round(y, 8).tolist()
    ('optimal', [1.0, 0.0], [1.0])
    """
    import clarabel
    import scipy.sparse as sp

    if ldl not in CLARABEL_LDL_METHODS:  # a plain ValueError: this module imports nothing of the package
        raise ValueError(f"ldl must be one of {CLARABEL_LDL_METHODS}, got {ldl!r}")
    rows = sp.csr_matrix(matrix, dtype=float)
    row_lower, row_upper = np.asarray(row_lower, dtype=float), np.asarray(row_upper, dtype=float)
    col_lower, col_upper = np.asarray(col_lower, dtype=float), np.asarray(col_upper, dtype=float)
    equal = np.flatnonzero(row_lower == row_upper)
    above = np.flatnonzero((row_lower != row_upper) & np.isfinite(row_upper))  # a·x <= U
    below = np.flatnonzero((row_lower != row_upper) & np.isfinite(row_lower))  # −a·x <= −L
    floors, ceilings = np.flatnonzero(np.isfinite(col_lower)), np.flatnonzero(np.isfinite(col_upper))
    columns = sp.identity(rows.shape[1], format="csr")
    stacked = sp.vstack([rows[equal], rows[above], -rows[below], -columns[floors], columns[ceilings]]).tocsc()
    sides = np.concatenate([row_upper[equal], row_upper[above], -row_lower[below], -col_lower[floors],
                            col_upper[ceilings]])
    cones = [clarabel.ZeroConeT(equal.size), clarabel.NonnegativeConeT(stacked.shape[0] - equal.size)]
    size = rows.shape[1]
    interrupted = threading.Event()  # set on Ctrl-C: Clarabel's termination callback then stops the abandoned solve

    def run(refinement: bool) -> Any:
        settings = clarabel.DefaultSettings()
        settings.verbose = False
        settings.tol_gap_abs = settings.tol_gap_rel = settings.tol_feas = tolerance
        settings.tol_ktratio = tolerance * 1e-2
        settings.iterative_refinement_enable = refinement
        if ldl != "default":
            settings.direct_solve_method = ldl
        solver = clarabel.DefaultSolver(sp.csc_matrix((size, size)), np.asarray(costs, dtype=float), stacked, sides,
                                        cones, settings)
        solver.set_termination_callback(lambda info: interrupted.is_set())
        return run_interruptibly(solver.solve, interrupted.set)

    refinement = CLARABEL_ITERATIVE_REFINEMENT if refine is None else refine
    try:
        solution = run(refinement)
        iterations = int(solution.iterations)
        if str(solution.status) == "AlmostSolved" and not refinement:  # once more, refining each KKT solve
            refined = run(True)
            iterations += int(refined.iterations)
            if str(refined.status) == "Solved":
                solution = refined
    except Exception as error:  # noqa: BLE001 - any failure inside the solver is a solver failure
        return SolveOutcome("solver_error", f"clarabel raised {type(error).__name__}: {error}"), None, None
    status = str(solution.status)
    if status not in ("Solved", "AlmostSolved"):
        return SolveOutcome("solver_error", f"clarabel returned status {status!r}", iterations), None, None
    multipliers = np.asarray(solution.z)
    offsets = np.cumsum([0, equal.size, above.size, below.size])
    duals = np.zeros(rows.shape[0])
    duals[equal] -= multipliers[offsets[0]:offsets[1]]
    duals[above] -= multipliers[offsets[1]:offsets[2]]
    duals[below] += multipliers[offsets[2]:offsets[3]]
    return (SolveOutcome(OPTIMAL if status == "Solved" else OPTIMAL_INACCURATE, iterations=iterations),
            np.asarray(solution.x), duals)
