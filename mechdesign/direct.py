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
from collections.abc import Sequence
from dataclasses import dataclass

import highspy
import numpy as np

from .privacy.base import PrivacyNotion
from .privacy.dp import DifferentialPrivacy
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


def staircase_weights(
    notions: Sequence[PrivacyNotion], objective: Objective, limits: Sequence[Objective]
) -> np.ndarray | None:
    """The weights ``W`` if the problem is exactly ``min Σ W∘Q`` under local ε-DP alone, else ``None``.

    Local ε-DP is :class:`~mechdesign.privacy.dp.DifferentialPrivacy` on the complete neighbour
    relation; the objective must be an :class:`~mechdesign.utility.distortion.ExpectedDistortion`
    (``W[x, y] = P(x) d(x, y)``), and there must be no limits.
    """
    if limits or len(notions) != 1 or type(notions[0]) is not DifferentialPrivacy:
        return None
    if not notions[0].neighbours.is_complete or type(objective) is not ExpectedDistortion:
        return None
    return objective.prior.probabilities[:, None] * objective.cost


def staircase_lower_bound(weights: np.ndarray, epsilon: float, multipliers: np.ndarray) -> float:
    """``Σ λ + n · min(0, min_y ρ_y / |v_S|_1)``: a lower bound on the LDP LP optimum for any ``λ``."""
    n = weights.shape[0]
    excess = math.expm1(epsilon)
    reduced = weights - multipliers[:, None]
    negative = np.minimum(reduced, 0.0)
    per_mass = (reduced.sum(axis=0) + excess * negative.sum(axis=0)) / (n + excess * (negative < 0).sum(axis=0))
    return float(multipliers.sum() + n * min(0.0, per_mass.min()))


class LdpLinearProgram:
    """``min Σ W∘Q`` over row-stochastic ε-LDP mechanisms ``Q``, re-solvable for new budgets.

    Parameters
    ----------
    weights
        ``W`` of shape ``(n_inputs, n_outputs)``, finite.
    """

    def __init__(self, weights: np.ndarray) -> None:
        self.weights = np.asarray(weights, dtype=float)
        n, m = self.weights.shape
        k = n * m
        # Columns: c[y] (m), u[x, y] (k, row-major), r[x] (n).
        # Rows: u[x, y] − c[y] <= 0 (k); r[x] − Σ_y u[x, y] = 0 (n); Σ_y c[y] + (e^ε − 1) r[x] = 1 (n).
        bound_rows = np.arange(k).reshape(n, m)
        c_index = np.hstack([bound_rows.T, np.tile(k + n + np.arange(n), (m, 1))])
        u_index = np.column_stack([np.arange(k), k + np.repeat(np.arange(n), m)])
        r_index = np.column_stack([k + np.arange(n), k + n + np.arange(n)])
        lp = highspy.HighsLp()
        lp.num_col_, lp.num_row_ = m + k + n, k + 2 * n
        lp.col_cost_ = np.zeros(m + k + n)
        lp.col_lower_ = np.zeros(m + k + n)
        lp.col_upper_ = np.full(m + k + n, highspy.kHighsInf)
        lp.row_lower_ = np.concatenate([np.full(k, -highspy.kHighsInf), np.zeros(n), np.ones(n)])
        lp.row_upper_ = np.concatenate([np.zeros(k), np.zeros(n), np.ones(n)])
        lp.a_matrix_.format_ = highspy.MatrixFormat.kColwise
        lp.a_matrix_.start_ = np.concatenate([2 * n * np.arange(m), 2 * n * m + 2 * np.arange(k + n + 1)])
        lp.a_matrix_.index_ = np.concatenate([c_index.ravel(), u_index.ravel(), r_index.ravel()]).astype(np.int32)
        lp.a_matrix_.value_ = np.concatenate([np.tile(np.repeat([-1.0, 1.0], n), m),
                                              np.tile([1.0, -1.0], k), np.tile([1.0, 1.0], n)])
        self.highs = highspy.Highs()
        for option, value in HIGHS_OPTIONS.items():
            self.highs.setOptionValue(option, value)
        self.highs.passModel(lp)

    def solve(self, epsilon: float) -> DirectSolution:
        """Solve at budget ε ≥ 0 (nats, already validated), warm-started from the previous solve."""
        n, m = self.weights.shape
        k = n * m
        excess = math.expm1(epsilon)
        for x in range(n):
            self.highs.changeCoeff(k + n + x, m + k + x, excess)
        costs = np.concatenate([self.weights.sum(axis=0), excess * self.weights.ravel(), np.zeros(n)])
        self.highs.changeColsCost(costs.size, np.arange(costs.size, dtype=np.int32), costs)
        self.highs.run()
        status = self.highs.modelStatusToString(self.highs.getModelStatus())
        iterations = int(self.highs.getInfo().simplex_iteration_count)
        if self.highs.getModelStatus() != highspy.HighsModelStatus.kOptimal:
            return DirectSolution(None, math.nan, -math.inf, iterations, status)
        solution = self.highs.getSolution()
        values = np.asarray(solution.col_value)
        matrix = values[:m][None, :] + excess * values[m:m + k].reshape(n, m)
        bound = staircase_lower_bound(self.weights, epsilon, np.asarray(solution.row_dual)[k + n:])
        return DirectSolution(matrix, float(self.highs.getInfo().objective_function_value), bound, iterations, status)


def ldp_constraint_violation(matrix: np.ndarray, epsilon: float) -> float:
    """Largest violation of the LDP LP's constraints: unit row sums, ``Q >= 0``, ``max_x Q <= e^ε min_x Q``."""
    return float(max(np.abs(matrix.sum(axis=1) - 1.0).max(), -matrix.min(),
                     (matrix.max(axis=0) - math.exp(epsilon) * matrix.min(axis=0)).max(), 0.0))
