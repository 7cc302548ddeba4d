"""Fast exact path for ε-local-DP design with a linear objective: a compact LP passed straight to HiGHS.

The problem is ``min Σ W[x, y] Q[x, y]`` over row-stochastic ``Q`` whose every column lies in the
ε-LDP cone ``{v ≥ 0 : max v <= e^ε min v}`` (Zhong & Bu, PUT paper, Definition 3(1), every pair of
inputs neighbouring). Writing each column as its floor plus a bounded excess,
``Q[x, y] = c_y + (e^ε − 1) u[x, y]`` with ``0 <= u[x, y] <= c_y``, is exact (``c_y = min_x Q[x, y]``
is feasible, and any feasible ``(c, u)`` gives ``max_x Q <= e^ε c_y <= e^ε min_x Q``). With one
aggregate ``r_x = Σ_y u[x, y]`` per input the row sums read ``Σ_y c_y + (e^ε − 1) r_x = 1``, so the
budget enters only ``n`` matrix coefficients and the costs: ``n m`` rows ``u <= c`` with two
nonzeros each plus ``2n`` rows, built straight for HiGHS without cvxpy canonicalization. Changing
the budget changes those coefficients and HiGHS re-solves from the previous basis (dual simplex, no
presolve) — the warm start that makes curves cheap (measured in ``benchmarks/ldp_fast.py`` and
``benchmarks/curve_dpp.py``).

The optimum is certified by a dual bound independent of HiGHS's status: the extreme rays of the
LDP cone are the *staircase* columns ``v_S = 1 + (e^ε − 1) 1_S`` (Kairouz, Oh & Viswanath,
"Extremal Mechanisms for Local Differential Privacy", Theorem 2), so for any multipliers ``λ`` of
the row sums, with ``a = W[:, y] − λ`` the cheapest staircase column of output ``y`` has reduced
cost ``ρ_y = Σ_x a_x + (e^ε − 1) Σ_x min(a_x, 0)`` per ``|v_S|_1 = n + (e^ε − 1)|S|``; since the
columns of any mechanism have total mass ``n``, ``OPT >= Σ_x λ_x + n · min(0, min_y ρ_y / |v_S|_1)``.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass

import highspy
import numpy as np
import scipy.sparse as sp

from .privacy.base import PrivacyNotion
from .privacy.dp import DifferentialPrivacy
from .privacy.maximal_leakage import MaximalLeakage
from .privacy.pml import PointwiseMaximalLeakage
from .utility.base import Objective
from .utility.distortion import ExpectedDistortion

#: HiGHS options of the fast path: dual simplex (strategy 1) without presolve was the fastest robust
#: choice (primal simplex wins on Hamming costs but is 7× slower on random costs; IPM 7× slower).
#: HiGHS's default feasibility tolerances (1e-7) let it stop with a reduced cost of −6e-8 left
#: (caught by the staircase bound in tests/test_direct.py), hence 1e-10.
HIGHS_OPTIONS = {"presolve": "off", "simplex_strategy": 1, "output_flag": False,
                 "primal_feasibility_tolerance": 1e-10, "dual_feasibility_tolerance": 1e-10}


@dataclass(frozen=True)
class DirectSolution:
    """Raw output of :meth:`LdpLinearProgram.solve`.

    Attributes
    ----------
    matrix
        The raw mechanism ``c + (e^ε − 1) u`` (``None`` if HiGHS did not reach optimality).
    value
        HiGHS's optimal value of ``Σ W∘Q``.
    lower_bound
        The certified lower bound on the optimum (module docstring).
    iterations
        Simplex iterations of this solve.
    status
        HiGHS's model status (``"Optimal"`` on success).
    """

    matrix: np.ndarray | None
    value: float
    lower_bound: float
    iterations: int
    status: str


def staircase_lower_bound(weights: np.ndarray, epsilon: float, multipliers: np.ndarray) -> float:
    """``Σ λ + n · min(0, min_y ρ_y / |v_S|_1)``: a lower bound on the LDP LP optimum for any ``λ``."""
    n = weights.shape[0]
    excess = math.expm1(epsilon)
    reduced = weights - multipliers[:, None]
    negative = np.minimum(reduced, 0.0)
    per_mass = (reduced.sum(axis=0) + excess * negative.sum(axis=0)) / (n + excess * (negative < 0).sum(axis=0))
    return float(multipliers.sum() + n * min(0.0, per_mass.min()))


class WarmLinearProgram(ABC):
    """``min Σ W∘Q`` over row-stochastic ``Q`` under one notion's linear rows, held in one HiGHS model.

    Subclasses place the budget in a few coefficients, bounds or costs (:meth:`_set_budget`), so a new
    budget is a small change and HiGHS re-solves from the previous basis. Columns start with the
    ``n m`` entries of ``Q`` (row-major) or whatever :meth:`_mechanism` maps back to ``Q``; the first
    ``n`` rows are the unit row sums.
    """

    def __init__(self, weights: np.ndarray, matrix: sp.coo_matrix, row_lower: np.ndarray,
                 row_upper: np.ndarray) -> None:
        self.weights = np.asarray(weights, dtype=float)
        columns = sp.csc_matrix(matrix)
        lp = highspy.HighsLp()
        lp.num_row_, lp.num_col_ = columns.shape
        lp.col_cost_ = np.zeros(columns.shape[1])
        lp.col_lower_ = np.zeros(columns.shape[1])
        lp.col_upper_ = np.full(columns.shape[1], highspy.kHighsInf)
        lp.row_lower_, lp.row_upper_ = row_lower, row_upper
        lp.a_matrix_.format_ = highspy.MatrixFormat.kColwise
        lp.a_matrix_.start_ = columns.indptr.astype(np.int32)
        lp.a_matrix_.index_ = columns.indices.astype(np.int32)
        lp.a_matrix_.value_ = columns.data
        self.highs = highspy.Highs()
        for option, value in HIGHS_OPTIONS.items():
            self.highs.setOptionValue(option, value)
        self.highs.passModel(lp)

    @abstractmethod
    def _set_budget(self, epsilon: float) -> None:
        """Write the budget ε into the model (coefficients, bounds, costs)."""

    @abstractmethod
    def _mechanism(self, values: np.ndarray, epsilon: float) -> np.ndarray:
        """The mechanism ``Q`` from the column values."""

    @abstractmethod
    def violation(self, matrix: np.ndarray, epsilon: float) -> float:
        """Largest violation of the LP's constraints by ``matrix`` at budget ε."""

    def _lower_bound(self, row_duals: np.ndarray, epsilon: float) -> float:
        """A certified lower bound on the optimum from the row duals (``nan`` when none is known)."""
        return math.nan

    def _set_costs(self, costs: np.ndarray) -> None:
        self.highs.changeColsCost(costs.size, np.arange(costs.size, dtype=np.int32), costs)

    def solve(self, epsilon: float) -> DirectSolution:
        """Solve at budget ε ≥ 0 (nats, already validated), warm-started from the previous solve."""
        self._set_budget(epsilon)
        self.highs.run()
        if self.highs.getModelStatus() != highspy.HighsModelStatus.kOptimal:
            # A warm start can stall on tiny coefficients (e^ε − 1 = 1e-9 gave status "Unknown"):
            # retry from scratch before giving up.
            self.highs.clearSolver()
            self.highs.run()
        status = self.highs.modelStatusToString(self.highs.getModelStatus())
        iterations = int(self.highs.getInfo().simplex_iteration_count)
        if self.highs.getModelStatus() != highspy.HighsModelStatus.kOptimal:
            return DirectSolution(None, math.nan, -math.inf, iterations, status)
        solution = self.highs.getSolution()
        matrix = self._mechanism(np.asarray(solution.col_value), epsilon)
        bound = self._lower_bound(np.asarray(solution.row_dual), epsilon)
        return DirectSolution(matrix, float(self.highs.getInfo().objective_function_value), bound, iterations, status)


def _row_sums(n: int, m: int) -> sp.coo_matrix:
    """The ``n × nm`` block summing each row of a row-major ``Q``."""
    return sp.coo_matrix(sp.kron(sp.identity(n), np.ones((1, m))))


def _unit_row_bounds(n: int, equal: int, upper: int) -> tuple[np.ndarray, np.ndarray]:
    """Bounds for ``n`` unit row sums, then ``equal`` rows ``= 0`` and ``upper`` rows ``<= 0``."""
    lower = np.concatenate([np.ones(n), np.zeros(equal), np.full(upper, -highspy.kHighsInf)])
    return lower, np.concatenate([np.ones(n), np.zeros(equal + upper)])


class LdpLinearProgram(WarmLinearProgram):
    """Local ε-DP: ``Q = c + (e^ε − 1) u``, ``u <= c`` (module docstring), with the staircase bound.

    Parameters
    ----------
    weights
        ``W`` of shape ``(n_inputs, n_outputs)``, finite.
    """

    def __init__(self, weights: np.ndarray) -> None:
        n, m = np.shape(weights)
        k = n * m
        # Columns: c[y] (m), u[x, y] (k, row-major), r[x] (n).
        # Rows: Σ_y c[y] + (e^ε − 1) r[x] = 1 (n); r[x] − Σ_y u[x, y] = 0 (n); u[x, y] − c[y] <= 0 (k).
        matrix = sp.bmat([
            [sp.coo_matrix(np.ones((n, m))), None, sp.identity(n)],
            [None, -_row_sums(n, m), sp.identity(n)],
            [-sp.kron(np.ones((n, 1)), sp.identity(m)), sp.identity(k), None],
        ])
        super().__init__(weights, matrix, *_unit_row_bounds(n, n, k))

    def _set_budget(self, epsilon: float) -> None:
        n, m = self.weights.shape
        excess = math.expm1(epsilon)
        for x in range(n):
            self.highs.changeCoeff(x, m + n * m + x, excess)
        self._set_costs(np.concatenate([self.weights.sum(axis=0), excess * self.weights.ravel(), np.zeros(n)]))

    def _mechanism(self, values: np.ndarray, epsilon: float) -> np.ndarray:
        n, m = self.weights.shape
        return values[:m][None, :] + math.expm1(epsilon) * values[m:m + n * m].reshape(n, m)

    def _lower_bound(self, row_duals: np.ndarray, epsilon: float) -> float:
        return staircase_lower_bound(self.weights, epsilon, row_duals[: self.weights.shape[0]])

    def violation(self, matrix: np.ndarray, epsilon: float) -> float:
        return _stochastic_violation(matrix, (matrix.max(axis=0) - math.exp(epsilon) * matrix.min(axis=0)).max())


class MaximalLeakageLinearProgram(WarmLinearProgram):
    """Maximal leakage ``Σ_y max_x Q[x, y] <= e^ε``: ``Q[x, y] <= M_y``, ``Σ_y M_y <= e^ε`` (budget in a bound).

    Parameters
    ----------
    weights
        ``W`` of shape ``(n_inputs, n_outputs)``, finite.
    """

    def __init__(self, weights: np.ndarray) -> None:
        n, m = np.shape(weights)
        k = n * m
        # Columns: Q (k), M (m). Rows: row sums (n); Q[x, y] − M[y] <= 0 (k); Σ M <= e^ε (1).
        matrix = sp.bmat([
            [_row_sums(n, m), None],
            [sp.identity(k), -sp.kron(np.ones((n, 1)), sp.identity(m))],
            [None, sp.coo_matrix(np.ones((1, m)))],
        ])
        lower, upper = _unit_row_bounds(n, 0, k + 1)
        super().__init__(weights, matrix, lower, upper)
        self._set_costs(np.concatenate([self.weights.ravel(), np.zeros(m)]))

    def _set_budget(self, epsilon: float) -> None:
        row = self.highs.getNumRow() - 1
        self.highs.changeRowBounds(row, -highspy.kHighsInf, math.exp(epsilon))

    def _mechanism(self, values: np.ndarray, epsilon: float) -> np.ndarray:
        return values[: self.weights.size].reshape(self.weights.shape)

    def violation(self, matrix: np.ndarray, epsilon: float) -> float:
        return _stochastic_violation(matrix, matrix.max(axis=0).sum() - math.exp(epsilon))


class PmlLinearProgram(WarmLinearProgram):
    """PML under one prior: ``Q[x, y] <= w_y`` (x in the support), ``w_y = e^ε z_y``, ``z_y = P·Q[:, y]``.

    The budget sits in the ``m`` coefficients of ``w_y − e^ε z_y = 0``.

    Parameters
    ----------
    weights
        ``W`` of shape ``(n_inputs, n_outputs)``, finite.
    prior
        The notion's prior ``P`` (inputs outside its support are unconstrained).
    """

    def __init__(self, weights: np.ndarray, prior: np.ndarray) -> None:
        n, m = np.shape(weights)
        self.prior = prior
        self.support = np.flatnonzero(prior > 0)
        pick = sp.kron(sp.identity(n, format="csr")[self.support], sp.identity(m))
        # Columns: Q (k), z (m), w (m). Rows: row sums (n); z − P·Q = 0 (m); w − e^ε z = 0 (m);
        # Q[x, y] − w[y] <= 0 for x in the support (|S| m).
        matrix = sp.bmat([
            [_row_sums(n, m), None, None],
            [-sp.kron(prior[None, :], sp.identity(m)), sp.identity(m), None],
            [None, -sp.identity(m), sp.identity(m)],
            [pick, None, -sp.kron(np.ones((self.support.size, 1)), sp.identity(m))],
        ])
        lower, upper = _unit_row_bounds(n, 2 * m, self.support.size * m)
        super().__init__(weights, matrix, lower, upper)
        self._set_costs(np.concatenate([self.weights.ravel(), np.zeros(2 * m)]))

    def _set_budget(self, epsilon: float) -> None:
        n, m = self.weights.shape
        scale = math.exp(epsilon)
        for y in range(m):
            self.highs.changeCoeff(n + m + y, n * m + y, -scale)

    def _mechanism(self, values: np.ndarray, epsilon: float) -> np.ndarray:
        return values[: self.weights.size].reshape(self.weights.shape)

    def violation(self, matrix: np.ndarray, epsilon: float) -> float:
        excess = matrix[self.support].max(axis=0) - math.exp(epsilon) * (self.prior @ matrix)
        return _stochastic_violation(matrix, excess.max())


def _stochastic_violation(matrix: np.ndarray, notion_violation: float) -> float:
    """``max(|row sum − 1|, −min Q, notion_violation, 0)``."""
    return float(max(np.abs(matrix.sum(axis=1) - 1.0).max(), -matrix.min(), notion_violation, 0.0))


def direct_program_class(
    notions: Sequence[PrivacyNotion], objective: Objective, limits: Sequence[Objective]
) -> type[WarmLinearProgram] | None:
    """The direct LP for the problem, if it is exactly ``min E[d]`` under one supported notion, else ``None``.

    Supported: local ε-DP (:class:`~mechdesign.privacy.dp.DifferentialPrivacy` on the complete
    relation), maximal leakage, and PML under a single prior; the objective must be an
    :class:`~mechdesign.utility.distortion.ExpectedDistortion` and there must be no limits.
    """
    if limits or len(notions) != 1 or type(objective) is not ExpectedDistortion:
        return None
    notion = notions[0]
    if type(notion) is DifferentialPrivacy and notion.neighbours.is_complete:
        return LdpLinearProgram
    if type(notion) is MaximalLeakage:
        return MaximalLeakageLinearProgram
    if type(notion) is PointwiseMaximalLeakage and len(notion.source_set) == 1:
        return PmlLinearProgram
    return None


def direct_program(
    notions: Sequence[PrivacyNotion], objective: Objective, limits: Sequence[Objective]
) -> WarmLinearProgram | None:
    """Build the direct LP chosen by :func:`direct_program_class` (``None`` if none applies)."""
    program = direct_program_class(notions, objective, limits)
    if program is None:
        return None
    weights = objective.prior.probabilities[:, None] * objective.cost
    if program is PmlLinearProgram:
        return PmlLinearProgram(weights, notions[0].source_set.extreme_points[0])
    return program(weights)
