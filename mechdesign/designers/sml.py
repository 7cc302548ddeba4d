"""Design under statistic maximal leakage: every selection as a constraint, or constraint generation.

Wang, Lin & Fanti, "Statistic Maximal Leakage", Prop. 1: ``Q`` has SML at most ``T`` iff
``Σ_{θ'} max_g Q[θ_g, θ'] <= e^T`` for every selection (one input ``θ_g`` per secret value).
:func:`design_under_sml` writes every selection as a constraint when they are few (through
:func:`~mechdesign.solve.design`), and otherwise generates them: it solves with a working set, finds the
most violated selection exactly (:func:`~mechdesign.privacy.sml.measure_sml`), adds it, and repeats —
for expected or worst-case distortion by warm-started cutting planes straight in HiGHS
(:func:`design_by_cuts`), otherwise through cvxpy (a working-set relaxation).

Cutting planes: each selection ``j`` of the working set adds ``m`` epigraph columns
``M_j[y] >= Q[θ_g, y]`` (``s m`` rows) and the row ``Σ_y M_j[y] <= e^T``. Rebuilding the LP through
cvxpy every round cost ≈ 40 % of the time and solving from scratch ≈ 50 % (benchmarks/RESULTS.md);
here the LP lives in one HiGHS model, a cut is ``addCols`` + ``addRows``, and the dual simplex re-solves
from the previous basis.

Objectives: :class:`~mechdesign.utility.distortion.ExpectedDistortion` (linear costs) and
:class:`~mechdesign.utility.distortion.WorstCaseDistortion` (incl.
:class:`~mechdesign.utility.distortion.WorstCaseInputDistortion`; an epigraph column ``t`` and one row
per extreme prior).

Every column is bounded (``Q, M ∈ [0, 1]``, ``t ∈ [0, max cost]``, all implied at any optimum), so any
row prices ``y`` give the lower bound :func:`bounded_lp_dual_bound` on the working-set relaxation, hence
on the SML-constrained optimum; it is evaluated in numpy from HiGHS's duals.
"""

from __future__ import annotations

import dataclasses
import logging
import math
import time
from typing import Any

import highspy
import numpy as np
from .._lazy import scipy_sparse as sp

from .._numeric import exp_budget
from .._validate import as_budget, as_choice, as_positive_int, as_solver, as_time_limit
from ..direct import HIGHS_OPTIONS
from ..mechanism import Mechanism
from ..privacy.sml import Secret, SecretLike, StatisticMaximalLeakage, as_secret, measure_sml
from ..progress import Progress, report
from ..result import BUDGET_ATOL, Result, clean_mechanism
from ..solve import design
from ..solvers import quiet_highs, run_highs
from ..utility.base import Objective
from ..utility.distortion import ExpectedDistortion, WorstCaseDistortion
from .certified import failure_result, mechanism_result

logger = logging.getLogger(__name__)

#: :func:`design_under_sml` enumerates every selection up to this many, else generates them.
DESIGN_ENUMERATE_MAX_SELECTIONS = 64


def supports(objective: Objective) -> bool:
    """Whether :class:`SelectionCutProgram` can hold ``objective`` (expected or worst-case distortion).

    Parameters
    ----------
    objective
        The objective.

    Returns
    -------
    bool
        ``True`` for :class:`~mechdesign.utility.distortion.ExpectedDistortion` and
        :class:`~mechdesign.utility.distortion.WorstCaseDistortion` (and its subclasses).

    Examples
    --------
    >>> from mechdesign.utility.distortion import WorstCaseInputDistortion
    >>> from mechdesign.utility.information import MutualInformation
    >>> supports(ExpectedDistortion([0.5, 0.5])), supports(WorstCaseInputDistortion(2)), supports(MutualInformation([0.5, 0.5]))
    (True, True, False)
    """
    return isinstance(objective, (ExpectedDistortion, WorstCaseDistortion))


def bounded_lp_dual_bound(costs: np.ndarray, matrix: sp.csr_matrix, row_lower: np.ndarray, row_upper: np.ndarray,
                          column_upper: np.ndarray, prices: np.ndarray) -> float:
    """A lower bound on ``min c·x`` s.t. ``l <= A x <= u``, ``0 <= x <= U`` (``U`` finite) for any prices ``y``.

    Weak duality: ``c·x = y·(A x) + d·x`` with ``d = c − Aᵀy``; ``y_i (A x)_i >= y_i l_i`` for ``y_i > 0``
    and ``>= y_i u_i`` for ``y_i < 0``; ``d_j x_j >= min(0, d_j) U_j``. Prices that would multiply an
    infinite side are clipped to 0 (which keeps the bound valid).

    Examples
    --------
    >>> bounded_lp_dual_bound(np.array([1.0, 2.0]), sp.csr_matrix([[1.0, 1.0]]), np.array([1.0]),
    ...                       np.array([1.0]), np.array([1.0, 1.0]), np.array([1.0]))
    1.0
    """
    usable = np.where(prices > 0, np.isfinite(row_lower), np.isfinite(row_upper))
    y = np.where(usable, prices, 0.0)
    row_term = np.where(y > 0, y * np.where(np.isfinite(row_lower), row_lower, 0.0),
                        y * np.where(np.isfinite(row_upper), row_upper, 0.0))
    reduced = costs - matrix.T @ y
    return float(row_term.sum() + (np.minimum(reduced, 0.0) * column_upper).sum())


class SelectionCutProgram:
    """``min objective(Q)`` over row-stochastic ``Q`` under the SML rows of a growing working set of selections.

    Parameters
    ----------
    objective
        An expected or worst-case distortion (see :func:`supports`).
    budget
        ``T`` in nats (validated by the caller).

    Examples
    --------
    >>> from mechdesign.utility.distortion import WorstCaseInputDistortion
    >>> program = SelectionCutProgram(WorstCaseInputDistortion(2), math.log(1.5))
    >>> program.add_selections(np.array([[0, 1]]))
    >>> matrix, value, bound = program.solve()
    >>> round(value, 9), round(bound, 9)  # Σ_y max_x Q[x, y] <= 1.5: 1 − Q[x, x] = 0.25
    (0.25, 0.25)
    """

    def __init__(self, objective: Objective, budget: float) -> None:
        n, m = objective.shape
        self.shape = (n, m)
        self.limit = exp_budget(budget)  # inf beyond the float range: the selection rows bind nothing
        cost = np.asarray(objective.cost, dtype=float)
        inf = highspy.kHighsInf
        self.highs = quiet_highs(HIGHS_OPTIONS)
        row_sums = sp.kron(sp.identity(n), np.ones((1, m)), format="csr")
        if isinstance(objective, ExpectedDistortion):
            costs = (objective.prior.probabilities[:, None] * cost).ravel()
            blocks, upper_columns = [row_sums], np.ones(n * m)
            lower, upper = np.ones(n), np.ones(n)
        else:  # worst case over the extreme priors: an epigraph column t
            points = objective.source_set.extreme_points
            pieces = sp.csr_matrix((points[:, :, None] * cost[None, :, :]).reshape(points.shape[0], n * m))
            costs = np.append(np.zeros(n * m), 1.0)
            blocks = [sp.hstack([row_sums, sp.csr_matrix((n, 1))]),
                      sp.hstack([pieces, -np.ones((points.shape[0], 1))])]
            upper_columns = np.append(np.ones(n * m), max(float(cost.max()), 0.0))
            lower = np.append(np.ones(n), np.full(points.shape[0], -inf))
            upper = np.append(np.ones(n), np.zeros(points.shape[0]))
        self.costs, self.column_upper = costs, upper_columns
        self.matrix = sp.vstack(blocks, format="csr")
        self.row_lower, self.row_upper = lower, upper
        self.highs.addCols(costs.size, costs, np.zeros(costs.size), upper_columns, 0,
                           np.array([], dtype=np.int32), np.array([], dtype=np.int32), np.array([]))
        self._add_rows(self.matrix, lower, upper)

    def _add_rows(self, rows: sp.csr_matrix, lower: np.ndarray, upper: np.ndarray) -> None:
        self.highs.addRows(rows.shape[0], lower, upper, rows.nnz, rows.indptr[:-1].astype(np.int32),
                           rows.indices.astype(np.int32), rows.data)

    def add_selections(self, selections: np.ndarray) -> None:
        """Add ``M_j[y] >= Q[θ_g, y]`` and ``Σ_y M_j[y] <= e^T`` for every selection (row) ``j``.

        Examples
        --------
        Secret ``(0, 0, 1)``: ``2 · 3`` link rows and one total per selection, ``m = 3`` columns ``M_j``:

        >>> from mechdesign.utility.distortion import WorstCaseInputDistortion
        >>> program = SelectionCutProgram(WorstCaseInputDistortion(3), math.log(1.5))
        >>> program.matrix.shape  # 3 row sums, 3 worst-case pieces; 9 entries and the epigraph t
        (6, 10)
        >>> program.add_selections(np.array([[0, 2]]))
        >>> program.matrix.shape
        (13, 13)
        """
        n, m = self.shape
        for selection in np.atleast_2d(selections):
            first = self.costs.size
            self.highs.addCols(m, np.zeros(m), np.zeros(m), np.ones(m), 0,
                               np.array([], dtype=np.int32), np.array([], dtype=np.int32), np.array([]))
            self.costs = np.append(self.costs, np.zeros(m))
            self.column_upper = np.append(self.column_upper, np.ones(m))
            s = selection.size
            entries = np.repeat(selection, m) * m + np.tile(np.arange(m), s)  # Q[θ_g, y]
            epigraph = first + np.tile(np.arange(m), s)
            links = sp.csr_matrix((np.r_[np.ones(s * m), -np.ones(s * m)],
                                   (np.r_[np.arange(s * m), np.arange(s * m)], np.r_[entries, epigraph])),
                                  shape=(s * m, first + m))
            total = sp.csr_matrix((np.ones(m), (np.zeros(m, dtype=int), first + np.arange(m))), shape=(1, first + m))
            rows = sp.vstack([links, total], format="csr")
            lower = np.full(s * m + 1, -highspy.kHighsInf)
            upper = np.append(np.zeros(s * m), self.limit)
            self._add_rows(rows, lower, upper)
            self.matrix = sp.vstack([sp.hstack([self.matrix, sp.csr_matrix((self.matrix.shape[0], m))]), rows],
                                    format="csr")
            self.row_lower, self.row_upper = np.append(self.row_lower, lower), np.append(self.row_upper, upper)

    def solve(self) -> tuple[np.ndarray | None, float, float]:
        """Re-solve from the previous basis: ``(Q or None, HiGHS's value, numpy-checked lower bound)``.

        Examples
        --------
        A second selection is a cut: the optimum rises from 1/4 to 1/3:

        >>> from mechdesign.utility.distortion import WorstCaseInputDistortion
        >>> program = SelectionCutProgram(WorstCaseInputDistortion(3), math.log(1.5))
        >>> program.add_selections(np.array([[0, 2]]))
        >>> _, value, bound = program.solve()
        >>> round(value, 9), round(bound, 9)
        (0.25, 0.25)
        >>> program.add_selections(np.array([[1, 2]]))
        >>> _, value, bound = program.solve()
        >>> round(value, 9), round(bound, 9)
        (0.333333333, 0.333333333)
        """
        if not run_highs(self.highs).solved:
            return None, math.nan, -math.inf
        solution = self.highs.getSolution()
        n, m = self.shape
        values = np.asarray(solution.col_value)
        bound = bounded_lp_dual_bound(self.costs, self.matrix, self.row_lower, self.row_upper, self.column_upper,
                                      np.asarray(solution.row_dual))
        return values[: n * m].reshape(n, m), float(self.highs.getInfo().objective_function_value), bound


def design_by_cuts(secret: Secret, budget: float, objective: Objective, max_rounds: int,
                   time_limit: float | None, progress: Progress | None = None) -> Result:
    """Constraint generation on :class:`SelectionCutProgram`, separated exactly by :func:`measure_sml`.

    Starts from the selection of every group's first input; each round adds the most leaking selection
    until the exact SML of the relaxation's optimum is within the budget. The result is ``"optimal"`` when
    :func:`bounded_lp_dual_bound` (a lower bound on the constrained optimum) is within ``GAP_RTOL`` of the
    mechanism's objective, re-computed in numpy.

    Examples
    --------
    >>> from mechdesign.utility.distortion import WorstCaseInputDistortion
    >>> result = design_by_cuts(Secret([0, 0, 1, 1]), 0.5, WorstCaseInputDistortion(4), 100, None)
    >>> result.status, result.method
    ('optimal', 'constraint-generation')
    """
    start = time.perf_counter()
    budget = as_budget(budget, "budget", infinite=True)
    label = StatisticMaximalLeakage(secret).label
    program = SelectionCutProgram(objective, budget)
    working = np.array([[group[0] for group in secret.groups]], dtype=np.intp)
    program.add_selections(working)
    common: dict = dict(budgets={label: budget}, solver="highs", method="constraint-generation")
    for round_number in range(1, max_rounds + 1):
        raw, _, bound = program.solve()
        if raw is None:
            return failure_result("solver_error", f"highs returned status "
                                  f"{program.highs.modelStatusToString(program.highs.getModelStatus())!r}", start,
                                  iterations=round_number, **common)
        mechanism = Mechanism(clean_mechanism(raw))
        found = measure_sml(mechanism, secret, time_limit=time_limit)
        report(progress, round_number, None, f"SML constraint generation round {round_number}: working set "
               f"{len(working)}, SML {found.value:.6g} (budget {budget:.6g})")
        rounds = f"constraint generation: {round_number} rounds, {len(working)} of {secret.n_selections} selections"
        common.update(measured={label: found.value}, iterations=round_number)
        if not found.exact:
            return mechanism_result(mechanism, None, None, rounds, start, problems=[
                f"separation MILP stopped by its time limit (SML in [{found.value:.9g}, {found.upper:.9g}])"], **common)
        if found.value <= budget + BUDGET_ATOL:
            return mechanism_result(
                mechanism, objective.value(mechanism), bound, rounds, start, unit=objective.unit,
                verdict=lambda certified, gap: f"{rounds}; exact SML re-measured and within the budget; " + (
                    f"optimality gap {gap:.1e} certified by the LP dual bound" if certified
                    else f"the LP dual bound {bound:.12g} leaves a gap of {gap:.3g}, above GAP_RTOL"), **common)
        if (working == found.selection).all(axis=1).any():
            return mechanism_result(mechanism, None, None, rounds, start, problems=[
                "the most violated selection is already in the working set: tolerance too loose"], **common)
        working = np.vstack([working, found.selection])
        program.add_selections(found.selection[None, :])
    return mechanism_result(mechanism, None, None, rounds, start,
                            problems=[f"constraint generation did not converge in {max_rounds} rounds"], **common)


class _WorkingSetSML(StatisticMaximalLeakage):
    """SML restricted to a working set of selections (a relaxation used by constraint generation)."""

    def __init__(self, secret: Secret, selections: np.ndarray) -> None:
        super().__init__(secret)
        self.working = selections

    def _all_selections(self) -> np.ndarray:
        return self.working

    def _measure(self, matrix: np.ndarray) -> float:
        return max(0.0, float(np.log(matrix[self.working].max(axis=1).sum(axis=1).max())))


def design_under_sml(
    secret: SecretLike,
    budget: float,
    objective: Any,
    *,
    strategy: str = "auto",
    max_rounds: int = 500,
    solver: str | None = None,
    time_limit: float | None = None,
    progress: Progress | None = None,
) -> Any:
    """The optimal mechanism for ``objective`` under ``SML <= budget`` (SML paper, Prop. 1).

    Parameters
    ----------
    secret
        The secret map on the objective's inputs.
    budget
        ``T`` in nats; ``inf`` (no leakage limit) gives the objective's unconstrained optimum.
    objective
        What to optimize (e.g. :class:`~mechdesign.utility.distortion.WorstCaseInputDistortion`).
    strategy
        ``"enumerate"`` (every selection as a constraint; at most ``CONSTRAINT_MAX_SELECTIONS``),
        ``"generate"`` (constraint generation) or ``"auto"`` (enumerate up to
        ``DESIGN_ENUMERATE_MAX_SELECTIONS`` selections).
    max_rounds
        Largest number of constraint-generation rounds.
    solver
        LP solver for :func:`~mechdesign.solve.design`.
    time_limit
        Seconds for each separation MILP; an inexact separation makes the result fail.
    progress
        A :class:`~mechdesign.progress.Progress` callback, called after every constraint-generation
        round with ``(round, None, description)`` (the number of rounds is not known in advance);
        ``None`` is silent.

    Returns
    -------
    Result
        As :func:`~mechdesign.solve.design`; ``measured`` holds the exact SML of the mechanism (the
        certificate), ``iterations`` the number of rounds and ``message`` the working-set size. With
        ``strategy`` generating, no ``solver`` and an expected or worst-case distortion, the rounds run
        in :func:`design_by_cuts` (``method="constraint-generation"``,
        with a numpy-checked dual ``bound``).

    Examples
    --------
    >>> from mechdesign import WorstCaseInputDistortion
    >>> result = design_under_sml([0, 0, 1, 1], 0.5, WorstCaseInputDistortion(4), strategy="generate")
    >>> result.status, result.method
    ('optimal', 'constraint-generation')
    """
    secret = as_secret(secret)
    budget = as_budget(budget, "SML budget", infinite=True)
    rounds_cap = as_positive_int(max_rounds, "max_rounds")
    time_limit = as_time_limit(time_limit)
    notion = StatisticMaximalLeakage(secret)
    strategy = as_choice(strategy, ("auto", "enumerate", "generate"), "strategy")
    solver = as_solver(solver)
    if strategy == "enumerate" or (strategy == "auto" and secret.n_selections <= DESIGN_ENUMERATE_MAX_SELECTIONS):
        return design(notion, budget, objective, solver=solver)
    if solver is None and supports(objective):
        return design_by_cuts(secret, budget, objective, rounds_cap, time_limit, progress)
    working = np.array([[group[0] for group in secret.groups]], dtype=np.intp)
    start = time.perf_counter()
    for round_number in range(1, rounds_cap + 1):
        result = design(_WorkingSetSML(secret, working), budget, objective, solver=solver)
        if result.mechanism is None:
            return dataclasses.replace(result, iterations=round_number)
        found = measure_sml(result.mechanism, secret, time_limit=time_limit)
        logger.info("SML constraint generation round %d: working set %d, SML %.9g (budget %.9g)",
                    round_number, len(working), found.value, budget)
        report(progress, round_number, None, f"SML constraint generation round {round_number}: working set "
               f"{len(working)}, SML {found.value:.6g} (budget {budget:.6g}) nats")
        common = dict(measured={notion.label: found.value}, budgets={notion.label: budget},
                      iterations=round_number, solve_time=time.perf_counter() - start)
        if not found.exact:
            return dataclasses.replace(result, status="inaccurate", success=False, message=(
                f"separation MILP stopped by its time limit after {round_number} rounds "
                f"(SML in [{found.value:.9g}, {found.upper:.9g}])"), **common)
        if found.value <= budget + BUDGET_ATOL:
            # The working set is a relaxation: its certified bound bounds the full problem too.
            return dataclasses.replace(result, method="constraint-generation", message=(
                f"{result.message}; constraint generation: {round_number} rounds, {len(working)} of "
                f"{secret.n_selections} selections; exact SML re-measured; the bound is the working set's "
                "(a relaxation)"), **common)
        if (working == found.selection).all(axis=1).any():
            return dataclasses.replace(result, status="inaccurate", success=False, message=(
                f"the most violated selection is already in the working set (SML {found.value:.9g} > "
                f"budget {budget:.9g}): solver tolerance too loose"), **common)
        working = np.vstack([working, found.selection])
    return dataclasses.replace(result, status="inaccurate", success=False, message=(
        f"constraint generation did not converge in {rounds_cap} rounds"), **common)
