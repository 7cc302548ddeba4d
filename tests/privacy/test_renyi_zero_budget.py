"""Rényi DP at ε = 0 (defect H-4 of benchmarks/notes/2026-11-28-hostile-2026-11-28b.md): the mechanisms within budget 0
are those whose rows are equal within each connected component of the neighbour relation, and
:meth:`~mechdesign.privacy.renyi.RenyiDifferentialPrivacy.zero_budget_optimum` returns that LP's optimum exactly.

The reference is written here from the definition: the LP ``min W · Q`` over row-stochastic ``Q`` with
``Q[x, :] = Q[x', :]`` for every neighbour pair, by ``scipy.optimize.linprog`` (HiGHS), which knows nothing of
components. Perturbation checks (run by hand): with the argmin per component replaced by the argmin of the first row
of the component, or the value summed over the inputs' own least costs, the value checks fail.
"""

import math

import numpy as np
import pytest
from scipy.optimize import linprog

from mechdesign import RenyiDifferentialPrivacy

RELATIONS = {
    "every pair": None,
    "path": [(x, x + 1) for x in range(6)],
    "two cliques": [(a, b) for a in range(3) for b in range(a + 1, 3)] + [(a, b) for a in range(3, 7) for b in range(a + 1, 7)],
    "isolated inputs": [(0, 4), (4, 2)],
    "star": [(0, x) for x in range(1, 7)],
}


def equal_rows_optimum(weights: np.ndarray, pairs: list[tuple[int, int]]) -> float:
    """``min W · Q`` over row-stochastic ``Q`` with equal rows for every neighbour pair, by linprog (HiGHS)."""
    n, m = weights.shape
    equal = []
    for a, b in pairs:
        for y in range(m):
            row = np.zeros(n * m)
            row[a * m + y], row[b * m + y] = 1.0, -1.0
            equal.append(row)
    sums = np.kron(np.eye(n), np.ones((1, m)))
    found = linprog(weights.ravel(), A_eq=np.vstack([sums, *equal]) if equal else sums,
                    b_eq=np.concatenate([np.ones(n), np.zeros(len(equal))]), bounds=(0, None), method="highs")
    assert found.status == 0
    return float(found.fun)


@pytest.mark.parametrize("relation", sorted(RELATIONS))
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_zero_budget_optimum_is_the_equal_rows_lp(relation, seed):
    """The value equals the reference LP's (to its accuracy, 1e-9), the mechanism has that value, its rows are equal
    within every neighbour pair (so its Rényi divergence is 0 at every order), and it is row-stochastic."""
    n, m = 7, 5
    rng = np.random.default_rng(seed)
    weights = rng.dirichlet(np.ones(n))[:, None] * rng.random((n, m))
    pairs = RELATIONS[relation]
    notion = RenyiDifferentialPrivacy(3.0, pairs, n if pairs is not None else None)
    matrix, value = notion.zero_budget_optimum(weights)
    listed = [(a, b) for a in range(n) for b in range(a + 1, n)] if pairs is None else pairs
    reference = equal_rows_optimum(weights, listed)
    assert value == pytest.approx(reference, rel=0, abs=1e-9)
    assert math.fsum((weights * matrix).ravel()) == pytest.approx(value, rel=1e-15, abs=0)
    assert np.array_equal(matrix.sum(axis=1), np.ones(n)) and matrix.min() >= 0
    for a, b in listed:
        assert np.array_equal(matrix[a], matrix[b])
    for alpha in (1.01, 2.0, 8.0):
        assert RenyiDifferentialPrivacy(alpha, pairs, n if pairs is not None else None).measure(matrix) == 0.0


def test_zero_budget_optimum_beats_every_constant_row_per_component():
    """Two components: no choice of one output per component does better (exhaustive), and the best is attained."""
    n, m = 5, 3
    weights = np.random.default_rng(4).random((n, m))
    notion = RenyiDifferentialPrivacy(2.0, [(0, 1), (1, 2), (3, 4)], n)
    _, value = notion.zero_budget_optimum(weights)
    values = [weights[:3, y].sum() + weights[3:, z].sum() for y in range(m) for z in range(m)]
    assert value == pytest.approx(min(values), rel=1e-15, abs=0)


@pytest.mark.parametrize("method", ["auto", "cvxpy"])
@pytest.mark.parametrize("alpha", [1.01, 8.0])
def test_design_at_budget_zero_is_certified_exactly(method, alpha):
    """``design`` at ε = 0 (two components and an isolated input, 8 inputs; the conic path had no interior there):
    "optimal", the equal-rows LP's value (1e-9), private at 0 by the measure."""
    from mechdesign import ExpectedDistortion, Prior, design

    n = 8
    rng = np.random.default_rng(1)
    objective = ExpectedDistortion(Prior(rng.dirichlet(np.ones(n))), rng.random((n, n)))
    pairs = [(0, 1), (1, 2), (4, 5), (5, 6), (6, 4)]
    result = design(RenyiDifferentialPrivacy(alpha, pairs, n), 0.0, objective, method=method)
    assert result.status == "optimal"
    reference = equal_rows_optimum(objective.prior.probabilities[:, None] * objective.cost, pairs)
    assert result.objective == pytest.approx(reference, rel=0, abs=1e-9)
    assert RenyiDifferentialPrivacy(alpha, pairs, n).measure(result.mechanism) == 0.0
