"""Fast exact path for ε-local-DP design with a linear objective: a compact LP passed straight to HiGHS.

The problem is ``min Σ W[x, y] Q[x, y]`` over row-stochastic ``Q`` whose every column lies in the
ε-LDP cone ``{v ≥ 0 : max v <= e^ε min v}`` (Zhong & Bu, PUT paper, Definition 3(1), every pair of
inputs neighbouring). Writing each column as its floor plus a bounded excess,
``Q[x, y] = c_y + s[x, y]`` with ``0 <= s[x, y] <= (e^ε − 1) c_y``, is exact (``c_y = min_x Q[x, y]``
is feasible, and any feasible ``(c, s)`` gives ``max_x Q <= e^ε c_y <= e^ε min_x Q``) and needs only
``n m`` inequality rows with two nonzeros each, plus ``n`` row sums — half the rows of the
column-minimum formulation and no cvxpy canonicalization. HiGHS's dual simplex without presolve
solves it (measured in ``benchmarks/ldp_fast.py``).

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
    """Raw output of :func:`ldp_linear_program`.

    Attributes
    ----------
    matrix
        The raw mechanism ``c + s`` (``None`` if HiGHS did not reach optimality).
    value
        HiGHS's optimal value of ``Σ W∘Q``.
    lower_bound
        The certified lower bound on the optimum (module docstring).
    iterations
        Simplex iterations.
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


def _compact_lp(weights: np.ndarray, epsilon: float) -> highspy.HighsLp:
    """Variables ``s[x, y]`` (row-major) then ``c[y]``; rows: ``n`` row sums, then ``s − (e^ε−1)c <= 0``."""
    n, m = weights.shape
    k = n * m
    excess = math.expm1(epsilon)
    # Column of s[x, y]: +1 in row-sum row x and in bound row n + x m + y.
    s_index = np.column_stack([np.repeat(np.arange(n), m), n + np.arange(k)]).ravel()
    # Column of c[y]: +1 in every row-sum row, −(e^ε − 1) in bound rows n + x m + y for every x.
    c_index = np.hstack([np.tile(np.arange(n), (m, 1)), n + np.arange(k).reshape(n, m).T]).ravel()
    c_value = np.tile(np.concatenate([np.ones(n), np.full(n, -excess)]), m)
    lp = highspy.HighsLp()
    lp.num_col_, lp.num_row_ = k + m, n + k
    lp.col_cost_ = np.concatenate([weights.ravel(), weights.sum(axis=0)])
    lp.col_lower_ = np.zeros(k + m)
    lp.col_upper_ = np.full(k + m, highspy.kHighsInf)
    lp.row_lower_ = np.concatenate([np.ones(n), np.full(k, -highspy.kHighsInf)])
    lp.row_upper_ = np.concatenate([np.ones(n), np.zeros(k)])
    lp.a_matrix_.format_ = highspy.MatrixFormat.kColwise
    lp.a_matrix_.start_ = np.concatenate([np.arange(0, 2 * k + 1, 2), 2 * k + 2 * n * np.arange(1, m + 1)])
    lp.a_matrix_.index_ = np.concatenate([s_index, c_index]).astype(np.int32)
    lp.a_matrix_.value_ = np.concatenate([np.ones(2 * k), c_value])
    return lp


def staircase_lower_bound(weights: np.ndarray, epsilon: float, multipliers: np.ndarray) -> float:
    """``Σ λ + n · min(0, min_y ρ_y / |v_S|_1)``: a lower bound on the LDP LP optimum for any ``λ``."""
    n = weights.shape[0]
    excess = math.expm1(epsilon)
    reduced = weights - multipliers[:, None]
    negative = np.minimum(reduced, 0.0)
    per_mass = (reduced.sum(axis=0) + excess * negative.sum(axis=0)) / (n + excess * (negative < 0).sum(axis=0))
    return float(multipliers.sum() + n * min(0.0, per_mass.min()))


def ldp_linear_program(weights: np.ndarray, epsilon: float) -> DirectSolution:
    """Solve ``min Σ W∘Q`` over row-stochastic ε-LDP mechanisms ``Q`` exactly with HiGHS.

    Parameters
    ----------
    weights
        ``W`` of shape ``(n_inputs, n_outputs)``, finite.
    epsilon
        The budget ε ≥ 0 (nats), already validated.
    """
    n, m = weights.shape
    highs = highspy.Highs()
    for option, value in HIGHS_OPTIONS.items():
        highs.setOptionValue(option, value)
    highs.passModel(_compact_lp(weights, epsilon))
    highs.run()
    status = highs.modelStatusToString(highs.getModelStatus())
    iterations = int(highs.getInfo().simplex_iteration_count)
    if highs.getModelStatus() != highspy.HighsModelStatus.kOptimal:
        return DirectSolution(None, math.nan, -math.inf, iterations, status)
    solution = highs.getSolution()
    values = np.asarray(solution.col_value)
    matrix = values[n * m:][None, :] + values[: n * m].reshape(n, m)
    bound = staircase_lower_bound(weights, epsilon, np.asarray(solution.row_dual)[:n])
    return DirectSolution(matrix, float(highs.getInfo().objective_function_value), bound, iterations, status)


def ldp_constraint_violation(matrix: np.ndarray, epsilon: float) -> float:
    """Largest violation of the LDP LP's constraints: unit row sums, ``Q >= 0``, ``max_x Q <= e^ε min_x Q``."""
    return float(max(np.abs(matrix.sum(axis=1) - 1.0).max(), -matrix.min(),
                     (matrix.max(axis=0) - math.exp(epsilon) * matrix.min(axis=0)).max(), 0.0))
