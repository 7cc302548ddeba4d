"""Design under statistic maximal leakage by cutting planes in one HiGHS model: what
:func:`~mechdesign.solve.design` runs (method ``"constraint-generation"``) for a secret with too many
selections to write as constraints, and :func:`~mechdesign.designers.sml.design_under_sml` for expected or
worst-case distortion when it generates them.

Wang, Lin & Fanti, "Statistic Maximal Leakage", Prop. 1: ``Q`` has SML at most ``T`` iff
``Σ_{θ'} max_g Q[θ_g, θ'] <= e^T`` for every selection (one input ``θ_g`` per secret value).
:func:`design_by_cuts` solves with a working set, finds the most violated selection exactly
(:func:`~mechdesign.privacy.sml.measure_sml`), adds it, and repeats.

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

This module does not import :mod:`mechdesign.solve` (which dispatches to it), so the import graph has no
cycle (tests/test_layers.py).
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from typing import Any, Union

import highspy
import numpy as np
from .._lazy import scipy_sparse as sp

from .._numeric import exp_budget
from .._validate import as_budget
from .direct import HIGHS_OPTIONS
from ..mechanism import Mechanism
from ..privacy.base import PrivacyNotion
from ..privacy.sml import CONSTRAINT_MAX_SELECTIONS, Secret, StatisticMaximalLeakage, measure_sml
from ..progress import Progress, report
from ..result import Result, clean_mechanism, within_budget
from ..solvers import quiet_highs, run_highs
from ..utility.base import Objective
from ..utility.distortion import ExpectedDistortion, WorstCaseDistortion
from .certified import failure_result, mechanism_result, single_budget

#: Largest number of constraint-generation rounds by default (:func:`~mechdesign.designers.sml.design_under_sml`,
#: :func:`design_large_sml`).
MAX_ROUNDS = 500


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
        if within_budget(found.value, budget):
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


def applies(notions: Union[PrivacyNotion, Sequence[PrivacyNotion]], objective: Objective,
            limits: Sequence[Any] = ()) -> bool:
    """Whether :func:`~mechdesign.solve.design` routes the problem here: one
    :class:`~mechdesign.privacy.sml.StatisticMaximalLeakage` whose secret has more than
    ``CONSTRAINT_MAX_SELECTIONS`` selections (too many to write as constraints), an objective
    :func:`supports` accepts, and no limits.

    Examples
    --------
    >>> from mechdesign.utility.distortion import WorstCaseInputDistortion
    >>> applies(StatisticMaximalLeakage(np.arange(40) % 4), WorstCaseInputDistortion(40))  # 10^4 selections
    True
    >>> applies(StatisticMaximalLeakage([0, 0, 1, 1]), WorstCaseInputDistortion(4))  # 4: written as constraints
    False
    """
    notion_list = [notions] if isinstance(notions, PrivacyNotion) else list(notions)
    return (not limits and len(notion_list) == 1 and type(notion_list[0]) is StatisticMaximalLeakage
            and notion_list[0].secret.n_selections > CONSTRAINT_MAX_SELECTIONS and supports(objective))


def design_large_sml(notions: Union[PrivacyNotion, Sequence[PrivacyNotion]], budgets: Any,
                     objective: Objective) -> Result:
    """:func:`design_by_cuts` for a problem :func:`applies` accepts, at its one budget (``inf`` allowed), with
    :data:`MAX_ROUNDS` rounds and exact separation (no time limit): what :func:`~mechdesign.solve.design` runs.

    Examples
    --------
    >>> from mechdesign.utility.distortion import WorstCaseInputDistortion
    >>> design_large_sml(StatisticMaximalLeakage([0, 0, 1, 1]), 0.5, WorstCaseInputDistortion(4)).status
    'optimal'
    """
    notion = notions if isinstance(notions, PrivacyNotion) else list(notions)[0]
    return design_by_cuts(notion.secret, single_budget(budgets, notion.label), objective, MAX_ROUNDS, None)
