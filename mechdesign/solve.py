"""Optimal mechanism design: one convex problem, solved and then independently re-measured.

:func:`design` is the one-call entry point. :class:`DesignProblem` builds the cvxpy problem once,
with every budget and limit as a cvxpy ``Parameter`` (DPP), so that curves re-solve it without
recompiling.

Every solution is cleaned (round-off negatives clipped, outputs of negligible mass dropped, rows
renormalized — differences far below the tolerances), then re-measured with each notion's own
numpy :meth:`~mechdesign.privacy.base.PrivacyNotion.measure`. If it misses a budget by round-off,
mixing a tiny weight (at most ``1e-7``) of the constant mechanism into it is tried, which the
message reports. A solution whose measured privacy still exceeds its budget by more than
``BUDGET_ATOL`` is reported as ``success=False``, status ``"inaccurate"``, whatever the solver
said.
"""

from __future__ import annotations

import os
import time
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Union

import cvxpy as cp
import numpy as np

from ._validate import as_budget, as_finite
from .direct import direct_program, direct_program_class
from .exceptions import MechDesignError, ProblemTooLargeError, ShapeMismatchError
from .mechanism import Mechanism
from .privacy.base import BudgetParameter, PrivacyNotion
from .result import BUDGET_ATOL, GAP_RTOL, LIMIT_ATOL, Result, gap_tolerance, is_certified_optimal, optimality_gap
from .utility.base import Objective

#: Outputs whose largest probability is at most this are solver round-off and are dropped.
NEGLIGIBLE_MASS = 1e-7
#: Mixing weights tried, in order, to repair a solution that misses a budget by round-off (a
#: measure like ``log((Q[x,y] − δ) / Q[x',y])`` jumps to infinity when a zero entry comes out as 1e-10).
REPAIR_WEIGHTS = (1e-10, 1e-9, 1e-8, 1e-7)
#: LPs with at most this many mechanism entries go to HiGHS, larger ones to Clarabel
#: (measured in benchmarks/ldp_formulations.py; see benchmarks/RESULTS.md).
HIGHS_MAX_ENTRIES = 2_500

#: Bytes of peak memory per estimated nonzero (:func:`estimated_nonzeros`): an upper envelope of
#: cvxpy canonicalization plus solver measured in benchmarks/scaling.py (peak / nonzeros at n = 100–200:
#: LPs 0.34–0.43 kB, mutual information on exponential cones 2.4 kB; see benchmarks/RESULTS.md).
BYTES_PER_NONZERO = 3_000
#: The same for the compact LDP LP of mechdesign.direct, per entry of its ``4 n m`` estimate (measured
#: 0.41–0.43 kB at n = 150–200, numpy temporaries included).
DIRECT_BYTES_PER_NONZERO = 500

_SOLVER_NAMES = {"highs": cp.HIGHS, "clarabel": cp.CLARABEL, "scs": cp.SCS}
#: Default options per solver, overridden by ``solver_options``. Clarabel's default tolerances (1e-8)
#: leave round-off that shows in ratio-type measures; 1e-10 costs a few iterations.
DEFAULT_SOLVER_OPTIONS: dict[str, dict[str, Any]] = {
    "clarabel": {"tol_gap_abs": 1e-10, "tol_gap_rel": 1e-10, "tol_feas": 1e-10},
}


def _unique_labels(items: Sequence[Any]) -> list[str]:
    labels: list[str] = []
    for item in items:
        label = item.label
        while label in labels:
            label += "'"
        labels.append(label)
    return labels


def available_memory() -> int:
    """Bytes of memory available to a new computation (``MemAvailable`` on Linux, else free pages)."""
    try:
        with open("/proc/meminfo") as handle:
            for line in handle:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")


def estimated_nonzeros(problem: cp.Problem) -> int:
    """Sum of the sizes of every node of the objective's and constraints' expression trees.

    Each node becomes at least one row or column entry of the canonical problem (an atom such as
    ``pos`` or ``rel_entr`` adds an auxiliary variable and a row per entry), so this tracks the
    number of nonzeros cvxpy and the solver hold, without canonicalizing.
    """
    total, stack = 0, [problem.objective, *problem.constraints]
    while stack:
        node = stack.pop()
        total += int(getattr(node, "size", 1))
        stack.extend(node.args)
    return total


def check_memory(estimate: int, what: str) -> None:
    """Raise :class:`ProblemTooLargeError` if ``estimate`` bytes exceed :func:`available_memory`."""
    available = available_memory()
    if estimate > available:
        raise ProblemTooLargeError(
            f"{what} needs an estimated {estimate / 2**30:.2f} GiB but only {available / 2**30:.2f} GiB is "
            "available; reduce the alphabet, use a structured notion (e.g. local DP's column-minimum "
            "form instead of a pairwise relation), or run on a larger machine"
        )


def choose_solver(is_linear: bool, n_entries: int) -> str:
    """Default solver: HiGHS for small LPs, Clarabel for large LPs and for conic problems."""
    return "highs" if is_linear and n_entries <= HIGHS_MAX_ENTRIES else "clarabel"


def mix_with_constant(matrix: np.ndarray, weight: float) -> np.ndarray:
    """``(1 − w) Q + w 1 r`` with ``r`` the average row of ``Q``: a mechanism that leaks nothing.

    Every notion's feasible set (for a fixed budget) is convex and contains the constant mechanisms,
    so this moves a solution that misses its budget by solver round-off back inside, changing any
    expected distortion by at most ``w`` times the largest cost.
    """
    return (1.0 - weight) * matrix + weight * matrix.mean(axis=0, keepdims=True)


def clean_mechanism(matrix: np.ndarray) -> np.ndarray:
    """Remove solver round-off: clip negatives, drop outputs of negligible mass, renormalize rows."""
    cleaned = np.clip(matrix, 0.0, None)
    cleaned[:, cleaned.max(axis=0) <= NEGLIGIBLE_MASS] = 0.0
    return cleaned / cleaned.sum(axis=1, keepdims=True)


def certify_mechanism(
    matrix: np.ndarray, exceeded: Callable[[np.ndarray], list[str]]
) -> tuple[np.ndarray, list[str], str]:
    """Check a cleaned solution against its budgets and repair round-off misses.

    ``exceeded(matrix)`` describes every budget or limit the matrix misses (empty if none). If the
    solution misses one, mixing the weights :data:`REPAIR_WEIGHTS` of the constant mechanism into it
    is tried in turn. Returns the (possibly mixed) matrix, what it still exceeds, and a note for
    the result's message.
    """
    problems = exceeded(matrix)
    if problems:
        for weight in REPAIR_WEIGHTS:
            mixed = mix_with_constant(matrix, weight)
            if not exceeded(mixed):
                return mixed, [], (f"; solver round-off repaired by mixing weight {weight:g} of the "
                                   "constant mechanism into the solution")
    return matrix, problems, ""


class DesignProblem:
    """A compiled design problem: minimize (or maximize) an objective over mechanisms subject to
    privacy budgets and limits on other quantities, re-solvable for new budgets and limits.

    Parameters
    ----------
    notions
        Privacy notions (one or several); each gets a budget at :meth:`solve`.
    objective
        What to optimize; its ``shape`` fixes the mechanism's shape.
    limits
        Quantities to cap (objects with ``expression``, ``value`` and ``label``, e.g. a distortion
        objective); each gets a limit value at :meth:`solve`.
    solver
        ``"highs"``, ``"clarabel"`` or ``"scs"``; default chosen by :func:`choose_solver`.
    solver_options
        Extra keyword arguments for the solver.

    Notes
    -----
    An :class:`~mechdesign.utility.distortion.ExpectedDistortion` objective under local ε-DP,
    maximal leakage or PML (one prior) alone, without limits and with neither ``solver`` nor
    ``solver_options`` given, is solved by the warm-started LP of :mod:`mechdesign.direct`
    (HiGHS, no cvxpy); the result is certified the same way (for local DP the message also reports
    an optimality gap certified by a dual bound). Problems whose estimated memory
    exceeds :func:`available_memory` raise :class:`~mechdesign.exceptions.ProblemTooLargeError`.
    """

    def __init__(
        self,
        notions: Union[PrivacyNotion, Sequence[PrivacyNotion]],
        objective: Objective,
        limits: Sequence[Objective] = (),
        *,
        solver: str | None = None,
        solver_options: Mapping[str, Any] | None = None,
    ) -> None:
        self.notions: list[PrivacyNotion] = [notions] if isinstance(notions, PrivacyNotion) else list(notions)
        for notion in self.notions:
            if not isinstance(notion, PrivacyNotion):
                raise MechDesignError(f"expected a privacy notion, got {notion!r}")
        if not isinstance(objective, Objective):
            raise MechDesignError(f"expected an objective, got {objective!r}")
        self.objective = objective
        self.limits = list(limits)
        self.shape = tuple(objective.shape)
        for limit in self.limits:
            if tuple(limit.shape) != self.shape:
                raise ShapeMismatchError(f"limit {limit.label} is on {limit.shape}, objective on {self.shape}")
        self.notion_labels = _unique_labels(self.notions)
        self.limit_labels = _unique_labels(self.limits)

        self.Q = cp.Variable(self.shape, nonneg=True, name="Q")
        self.budget_parameters: list[BudgetParameter] = [n.parameter() for n in self.notions]
        self.limit_parameters = [cp.Parameter(name=f"limit_{i}") for i in range(len(self.limits))]
        constraints = [cp.sum(self.Q, axis=1) == 1]
        for notion, parameter in zip(self.notions, self.budget_parameters):
            constraints += notion.constraints(self.Q, parameter)
        constraints += [limit.expression(self.Q) <= p for limit, p in zip(self.limits, self.limit_parameters)]
        sense = cp.Minimize if objective.sense == "minimize" else cp.Maximize
        self.problem = cp.Problem(sense(objective.expression(self.Q)), constraints)
        if not self.problem.is_dcp():
            hint = (" (maximizing a convex utility is not a convex program: use the extreme-column LP "
                    "of mechdesign.utility.information)" if objective.sense == "maximize" else "")
            raise MechDesignError(f"the design problem for {objective.label} is not convex (DCP){hint}")

        self.is_linear = all(n.is_linear for n in self.notions) and all(
            o.is_linear for o in [objective, *self.limits]
        )
        # Expected distortion under local DP, maximal leakage or PML goes to the warm-started direct LP
        # of mechdesign.direct unless a solver or options are asked for explicitly.
        use_direct = (solver is None and solver_options is None
                      and direct_program_class(self.notions, objective, self.limits) is not None)
        self.solver = ("highs" if use_direct
                       else (solver or choose_solver(self.is_linear, self.Q.size)).lower())
        if self.solver not in _SOLVER_NAMES:
            raise MechDesignError(f"solver must be one of {sorted(_SOLVER_NAMES)}, got {solver!r}")
        self.solver_options = {**DEFAULT_SOLVER_OPTIONS.get(self.solver, {}), **(solver_options or {})}
        what = f"the {'/'.join(self.notion_labels) or 'unconstrained'} design on {self.shape[0]}×{self.shape[1]}"
        if use_direct:
            check_memory(DIRECT_BYTES_PER_NONZERO * 4 * self.Q.size, what)
        else:
            check_memory(BYTES_PER_NONZERO * estimated_nonzeros(self.problem), what)
        self.direct = direct_program(self.notions, objective, self.limits) if use_direct else None

    def solve(self, budgets: Union[float, Sequence[float]], limits: Sequence[float] = ()) -> Result:
        """Solve for the given budgets (one per notion, nats) and limit values (one per limit)."""
        budget_values = self._as_values(budgets, self.notion_labels, "budget", as_budget)
        limit_values = self._as_values(limits, self.limit_labels, "limit", as_finite)
        for parameter, budget in zip(self.budget_parameters, budget_values):
            parameter.set(budget)
        for parameter, value in zip(self.limit_parameters, limit_values):
            parameter.value = value
        budget_map = dict(zip(self.notion_labels, budget_values))
        limit_map = dict(zip(self.limit_labels, limit_values))

        start = time.perf_counter()
        if self.direct is not None:
            status, raw, max_violation, iterations, note = self._run_direct(budget_values[0])
        else:
            status, raw, max_violation, iterations, note = self._run_cvxpy()
        common = dict(budgets=budget_map, limits=limit_map, solver=self.solver,
                      solve_time=time.perf_counter() - start, iterations=iterations)
        if status == "solver_error":
            return Result(None, None, "solver_error", False, note, **common)
        if status not in (cp.OPTIMAL, cp.OPTIMAL_INACCURATE) or raw is None:
            return self._failure(status, budget_values, common)

        matrix, exceeded, repair_note = certify_mechanism(
            clean_mechanism(raw), lambda m: self._exceeded(m, budget_map, limit_map))
        mechanism = Mechanism(matrix)
        measured = {label: n.measure(mechanism) for label, n in zip(self.notion_labels, self.notions)}
        measured_limits = {label: o.value(mechanism) for label, o in zip(self.limit_labels, self.limits)}
        if exceeded:
            message = f"{self.solver} reported {status} but the mechanism fails: " + "; ".join(exceeded)
            status, success = "inaccurate", False
        else:
            success = True
            message = ("optimal; every budget re-measured and respected" if status == cp.OPTIMAL else
                       "solver reported reduced accuracy; every budget re-measured and respected") + note + repair_note
        return Result(mechanism, self.objective.value(mechanism), status, success, message, measured,
                      max_violation=max_violation, measured_limits=measured_limits, **common)

    def _run_cvxpy(self) -> tuple[str, np.ndarray | None, float | None, int | None, str]:
        """Solve the compiled cvxpy problem: status, raw ``Q``, largest violation, iterations, note."""
        try:
            with warnings.catch_warnings():
                # cvxpy warns of reduced accuracy; the status and the re-measurement report it.
                warnings.simplefilter("ignore", UserWarning)
                # cvxpy's bound propagation multiplies 0 by inf on unbounded auxiliaries (harmless).
                warnings.filterwarnings("ignore", "invalid value encountered", RuntimeWarning, "cvxpy")
                self.problem.solve(solver=_SOLVER_NAMES[self.solver], **self.solver_options)
        except cp.error.SolverError as exc:
            return "solver_error", None, None, None, f"{self.solver} failed: {exc}"
        except ValueError as exc:
            # cvxpy raises "Cannot unpack invalid solution" when the solver ends with an unknown status
            # (seen with HiGHS on near-degenerate LPs): a failed solve, not an input error.
            if "invalid solution" not in str(exc):
                raise
            return "solver_error", None, None, None, f"{self.solver} ended without a usable solution: {exc}"
        iterations = getattr(self.problem.solver_stats, "num_iters", None)
        if self.Q.value is None:
            return self.problem.status, None, None, iterations, ""
        max_violation = max(float(np.max(c.violation())) for c in self.problem.constraints)
        return self.problem.status, self.Q.value, max_violation, iterations, ""

    def _run_direct(self, budget: float) -> tuple[str, np.ndarray | None, float | None, int | None, str]:
        """Solve the warm-started LP of :mod:`mechdesign.direct` (same outputs as :meth:`_run_cvxpy`)."""
        solution = self.direct.solve(budget)
        if solution.matrix is None:
            return "solver_error", None, None, solution.iterations, f"highs returned status {solution.status!r}"
        note = f"; direct LP ({type(self.direct).__name__}, mechdesign.direct)"
        if not np.isnan(solution.lower_bound):
            note += (f", optimality gap {solution.value - solution.lower_bound:.1e} certified by the staircase "
                     "dual bound")
        return (cp.OPTIMAL, solution.matrix, self.direct.violation(solution.matrix, budget),
                solution.iterations, note)

    def _exceeded(self, matrix: np.ndarray, budgets: dict[str, float], limits: dict[str, float]) -> list[str]:
        """Descriptions of every budget or limit that ``matrix`` exceeds beyond tolerance."""
        problems = []
        for label, notion in zip(self.notion_labels, self.notions):
            value = notion.measure(matrix)
            if value > budgets[label] + BUDGET_ATOL:
                problems.append(f"{label} measured {value:.9g} > budget {budgets[label]:.9g}")
        for label, quantity in zip(self.limit_labels, self.limits):
            value = quantity.value(matrix)
            if value > limits[label] + LIMIT_ATOL:
                problems.append(f"{label} = {value:.9g} > limit {limits[label]:.9g}")
        return problems

    def _failure(self, status: str, budget_values: list[float], common: dict[str, Any]) -> Result:
        if status in (cp.INFEASIBLE, cp.INFEASIBLE_INACCURATE):
            smallest = self._smallest_feasible_limit(budget_values)
            message = "infeasible: no mechanism meets every budget and limit"
            if smallest is not None:
                label = self.limit_labels[0]
                message = (f"infeasible: {label} limit {common['limits'][label]:.9g} is below the smallest "
                           f"value {smallest:.9g} any mechanism within the budgets reaches")
            return Result(None, None, "infeasible", False, message, smallest_feasible=smallest, **common)
        if status in (cp.UNBOUNDED, cp.UNBOUNDED_INACCURATE):
            return Result(None, None, "unbounded", False, "the objective is unbounded", **common)
        return Result(None, None, "solver_error", False, f"{self.solver} returned status {status!r}", **common)

    def _smallest_feasible_limit(self, budget_values: list[float]) -> float | None:
        """With a single limit, the least value of the limited quantity within the budgets."""
        if len(self.limits) != 1:
            return None
        relaxed = DesignProblem(self.notions, self.limits[0], solver=self.solver, solver_options=self.solver_options)
        result = relaxed.solve(budget_values)
        return result.objective if result.success else None

    @staticmethod
    def _as_values(values: Any, labels: list[str], kind: str, validate: Callable[[Any, str], float]) -> list[float]:
        """One validated value per label, named "<kind> for <label>" in errors."""
        sequence = [values] if np.ndim(values) == 0 else list(values)
        if len(sequence) != len(labels):
            raise MechDesignError(f"expected {len(labels)} {kind}s (one per {', '.join(labels) or 'nothing'}), got {len(sequence)}")
        return [validate(value, f"{kind} for {label}") for value, label in zip(sequence, labels)]


def design(
    notions: Union[PrivacyNotion, Sequence[PrivacyNotion]],
    budgets: Union[float, Sequence[float]],
    objective: Objective,
    *,
    limits: Sequence[tuple[Objective, float]] = (),
    solver: str | None = None,
    solver_options: Mapping[str, Any] | None = None,
) -> Result:
    """Design the optimal mechanism for ``objective`` under privacy budgets (and optional limits).

    Parameters
    ----------
    notions
        One privacy notion or a sequence of them.
    budgets
        One budget (nats) per notion.
    objective
        The objective, e.g. :class:`~mechdesign.utility.distortion.ExpectedDistortion`.
    limits
        ``(quantity, limit)`` pairs constraining ``quantity.expression(Q) <= limit``, e.g. a
        distortion cap.
    solver
        ``"highs"``, ``"clarabel"`` or ``"scs"``; chosen automatically by default.
    solver_options
        Extra keyword arguments passed to the solver.

    Returns
    -------
    Result
        Frozen; ``success=False`` with a reason when infeasible or inaccurate, never an exception.

    Examples
    --------
    >>> from mechdesign import DifferentialPrivacy, ExpectedDistortion, Prior, design
    >>> result = design(DifferentialPrivacy(), 1.0, ExpectedDistortion(Prior.uniform(3)))
    >>> round(result.objective, 6)  # randomized response: 2 / (e + 2)
    0.423883
    """
    quantities = [quantity for quantity, _ in limits]
    problem = DesignProblem(notions, objective, quantities, solver=solver, solver_options=solver_options)
    return problem.solve(budgets, [value for _, value in limits])
