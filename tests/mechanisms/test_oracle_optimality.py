"""Subset selection at its best size against a direct search over every ε-LDP mechanism (issue 34, item 2).

The criterion is ``N · Σ_x Var(p̂_x)`` of an unbiased estimator, the quantity
:meth:`~mechdesign.mechanisms.oracles.FrequencyOracle.total_variance` computes for the oracles.

**The variance minimized.** A mechanism ``Q`` (``k × m``) and inputs ``X ~ p`` give outputs with
distribution ``μ = pᵀQ``; the output frequencies ``μ̂`` of ``N`` reports have covariance
``(D_μ − μμᵀ)/N``, ``D_μ = diag(μ)``. A linear unbiased estimator ``p̂ = Aᵀμ̂`` needs ``QA = I``, so
``Aᵀμ = p`` and ``N · Σ_x Var(p̂_x) = tr(Aᵀ D_μ A) − ‖p‖²``. Over all left inverses ``A`` the least value is
reached at ``A = D_μ⁻¹Qᵀ J⁻¹`` with ``J = Q D_μ⁻¹ Qᵀ = Σ_y c_y c_yᵀ / (pᵀc_y)`` (``c_y`` the columns):

    ``V(Q, p) = tr(J⁻¹) − ‖p‖²``                                           (:func:`blue_total_variance`)

— the best linear unbiased estimator's total variance, which is also the trace of the Cramér–Rao bound
for ``p`` on the simplex (``J p = 1``), so no unbiased estimator does better asymptotically.

**The direct search.** ``f(c) = ccᵀ/(pᵀc)`` is jointly convex and positively homogeneous, hence
``f(a + b) ⪯ f(a) + f(b)``: splitting an output never lowers ``J``. Every ε-LDP column (``max c ≤ e^ε min c``)
is a non-negative combination of the patterns ``s ∈ {1, e^ε}^k`` (Kairouz, Oh & Viswanath's extremal
columns), so the least ``V`` over *all* ε-LDP mechanisms with any finite output set is the least over
``Q = S diag(w)``, ``w ≥ 0``, ``S w = 1``, with ``S`` the ``2^k − 1`` patterns (the constant one once). ``J(w) = Σ_j w_j s_j s_jᵀ/(pᵀs_j)`` is linear in
``w`` and ``tr(J⁻¹)`` is convex: an A-optimal design, solved by cvxpy (``tr_inv``, Clarabel).

**Its certificate.** For any symmetric ``X``, ``(X − J⁻¹) J (X − J⁻¹) ⪰ 0`` gives
``tr(J⁻¹) ≥ 2 tr X − tr(XJX) = 2 tr X − Σ_j w_j g_j``, ``g_j = s_jᵀX²s_j/(pᵀs_j)``, and for any ``ν`` with
``S_jᵀν ≥ g_j`` for all ``j``, ``Σ_j w_j g_j ≤ νᵀSw = Σ ν``. So ``2 tr X − Σ ν − ‖p‖²`` is a lower bound on
``V`` over every ε-LDP mechanism; :func:`direct_optimum` takes ``X = J(w*)⁻¹`` and ``ν`` from an LP,
made feasible in numpy. The solver's point, re-measured by :func:`blue_total_variance`, is an upper bound.

**What is checked.** At the uniform prior, subset selection at its best size ``d`` reaches the certified
lower bound: its :meth:`total_variance` (the oracle's closed form, a different formula from ``V``) lies
within :data:`RTOL` of both bounds. By symmetry this is expected exactly — averaging an optimal ``w`` over
the permutations of the symbols keeps it optimal (convexity), a symmetric ``w`` mixes subset selections of
several sizes, and at the uniform prior ``tr(J⁻¹) = (k − 1)/α + 1/k`` with ``α`` linear in the mixture, so
one size is best — and it is the statement of Park, Nam & Lee (docs/bibliography.md) that block designs
with the best block size, of which subset selection is the complete one, are exactly optimal. Since
subset selection's total variance is largest at the uniform prior and any mechanism's worst case is at
least its value at the uniform prior, subset selection at its best ``d`` is also minimax among ε-LDP
mechanisms with unbiased estimators. Under a non-uniform public prior it is not optimal: the benchmark
``benchmarks/oracle_optimality.py`` reports by how much.
"""

import itertools
import math

import numpy as np
import pytest
from scipy.optimize import linprog

from mechdesign.mechanisms.oracles import SubsetSelection

#: Relative agreement required between subset selection's closed form and the direct search's bounds
#: (they agree within 1e-7 for k <= 6 at the uniform prior; a perturbation of 1e-4 is 100 times RTOL).
RTOL = 1e-6


def extremal_patterns(size: int, epsilon: float) -> np.ndarray:
    """The ``size × (2^size − 1)`` columns with entries in ``{1, e^ε}``, the constant one once.

    Examples
    --------
    >>> extremal_patterns(2, math.log(3)).round(12).tolist()
    [[1.0, 1.0, 3.0], [1.0, 3.0, 1.0]]
    """
    high = [bits for bits in itertools.product((0, 1), repeat=size) if sum(bits) < size]
    return np.exp(epsilon * np.array(high, dtype=float).T)


def blue_total_variance(matrix: np.ndarray, prior: np.ndarray) -> float:
    """``tr((Q D_μ⁻¹ Qᵀ)⁻¹) − ‖p‖²``: ``N · Σ Var`` of the best linear unbiased estimator (module notes).

    Outputs of probability 0 are dropped (they are never observed).

    Examples
    --------
    >>> round(blue_total_variance(np.array([[0.75, 0.25], [0.25, 0.75]]), np.array([0.5, 0.5])), 9)
    2.0
    """
    output = prior @ matrix
    used = output > 0
    columns = matrix[:, used]
    information = (columns / output[used]) @ columns.T
    return float(np.trace(np.linalg.inv(information)) - prior @ prior)


def subset_selection_matrix(size: int, epsilon: float, subset_size: int) -> np.ndarray:
    """Subset selection's ``k × C(k, d)`` matrix built from its definition, ``Q[x, S] ∝ e^ε`` if ``x ∈ S``.

    Examples
    --------
    >>> subset_selection_matrix(3, 0.0, 1).round(6).tolist()
    [[0.333333, 0.333333, 0.333333], [0.333333, 0.333333, 0.333333], [0.333333, 0.333333, 0.333333]]
    """
    subsets = list(itertools.combinations(range(size), subset_size))
    members = np.array([[x in subset for subset in subsets] for x in range(size)], dtype=float)
    weights = np.exp(epsilon * members)
    return weights / weights.sum(axis=1, keepdims=True)


def best_subset_selection(size: int, epsilon: float, prior: np.ndarray | None = None) -> tuple[int, float]:
    """The size ``d`` of least :meth:`~SubsetSelection.total_variance` under ``prior`` and that variance.

    Examples
    --------
    >>> best_subset_selection(6, 0.5)[0]
    2
    """
    values = {d: SubsetSelection(size, epsilon, d).total_variance(prior) for d in range(1, size)}
    best = min(values, key=values.__getitem__)
    return best, values[best]


def direct_optimum(size: int, epsilon: float, prior: np.ndarray | None = None) -> tuple[float, float]:
    """``(upper, lower)`` bounds on the least ``V(Q, p)`` over every ε-LDP mechanism (module notes).

    ``upper`` is the solver's mechanism re-measured by :func:`blue_total_variance`; ``lower`` the
    certificate ``2 tr X − Σ ν − ‖p‖²`` checked in numpy.

    Examples
    --------
    >>> upper, lower = direct_optimum(2, math.log(3))
    >>> round(upper, 6), round(lower, 6)   # binary randomized response: 2 · 0.25 / 0.5²
    (2.0, 2.0)
    """
    import cvxpy as cp

    probabilities = np.full(size, 1.0 / size) if prior is None else np.asarray(prior, dtype=float)
    patterns = extremal_patterns(size, epsilon)
    masses = probabilities @ patterns
    weights = cp.Variable(patterns.shape[1], nonneg=True)
    information = sum(weights[j] * np.outer(patterns[:, j], patterns[:, j]) / masses[j]
                      for j in range(patterns.shape[1]))
    problem = cp.Problem(cp.Minimize(cp.tr_inv(information)), [patterns @ weights == 1])
    problem.solve(solver=cp.CLARABEL)
    point = np.clip(weights.value, 0.0, None)
    # The interior point's rows sum to 1 within ~1e-9 and its inactive weights are ~1e-7, not 0: they
    # are dropped and the rest corrected by least squares, leaving round-off only, so that the
    # remainder column (not ε-LDP) is negligible and left out.
    point[point <= 1e-6 * point.max()] = 0.0
    support = point > 0
    point[support] += np.linalg.lstsq(patterns[:, support], 1.0 - patterns @ point, rcond=None)[0]
    point = np.clip(point, 0.0, None)
    point /= (patterns @ point).max()
    matrix = np.column_stack([patterns * point, 1.0 - patterns @ point])
    assert np.abs(matrix[:, -1]).max() < 1e-12
    upper = blue_total_variance(matrix[:, :-1], probabilities)

    inverse = np.linalg.inv((patterns * (point / masses)) @ patterns.T)
    squared = inverse @ inverse
    gains = np.einsum("ij,ik,kj->j", patterns, squared, patterns) / masses
    program = linprog(np.ones(size), A_ub=-patterns.T, b_ub=-gains, bounds=(None, None), method="highs")
    multipliers = program.x
    shortfall = (gains - patterns.T @ multipliers) / patterns.sum(axis=0)
    multipliers = multipliers + max(0.0, shortfall.max())
    assert np.all(patterns.T @ multipliers >= gains - 1e-12 * np.abs(gains))
    lower = 2.0 * np.trace(inverse) - multipliers.sum() - probabilities @ probabilities
    return upper, float(lower)


def relative_gaps(size: int, epsilon: float) -> tuple[float, float]:
    """``(formula − lower, upper − formula) / formula`` for subset selection at its best size, uniform prior.

    Both are ``>= −RTOL`` and ``<= RTOL`` when the formula is the optimum.

    Examples
    --------
    >>> [abs(gap) <= RTOL for gap in relative_gaps(3, 1.0)]
    [True, True]
    """
    _, formula = best_subset_selection(size, epsilon)
    upper, lower = direct_optimum(size, epsilon)
    return (formula - lower) / formula, (upper - formula) / formula


@pytest.mark.parametrize(("size", "subset_size"), [(k, d) for k in range(2, 7) for d in range(1, k)])
@pytest.mark.parametrize("epsilon", [0.1, 1.0, 3.0])
def test_variance_formula_is_the_best_unbiased_variance_of_subset_selection(size, subset_size, epsilon):
    """V(Q, uniform) of subset selection's matrix built from its definition is the oracle's closed form."""
    matrix = subset_selection_matrix(size, epsilon, subset_size)
    expected = SubsetSelection(size, epsilon, subset_size).total_variance()
    assert blue_total_variance(matrix, np.full(size, 1.0 / size)) == pytest.approx(expected, rel=1e-10)


def test_variance_formula_rewards_a_better_estimator():
    """Under a skewed prior V is at most the oracle's own estimator's variance (V takes the best one)."""
    prior = np.array([0.7, 0.1, 0.1, 0.05, 0.05])
    matrix = subset_selection_matrix(5, 1.0, 2)
    assert blue_total_variance(matrix, prior) < SubsetSelection(5, 1.0, 2).total_variance(prior)


@pytest.mark.parametrize(("size", "epsilon"), [(3, 1.0), (4, 0.5), (5, 2.0)])
def test_best_subset_selection_is_exactly_optimal(size, epsilon):
    """No ε-LDP mechanism has a smaller best-unbiased total variance at the uniform prior (certified bound)."""
    below, above = relative_gaps(size, epsilon)
    assert -RTOL <= below <= RTOL
    assert -RTOL <= above <= RTOL


@pytest.mark.slow
@pytest.mark.parametrize("size", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("epsilon", [0.1, 0.5, 1.0, 2.0, 4.0])
def test_best_subset_selection_is_exactly_optimal_on_the_grid(size, epsilon):
    """The same check on k = 2 … 6 × five budgets."""
    below, above = relative_gaps(size, epsilon)
    assert -RTOL <= below <= RTOL
    assert -RTOL <= above <= RTOL


@pytest.mark.parametrize("perturbation", [1e-4, -1e-4])
def test_the_check_fails_for_a_perturbed_formula(monkeypatch, perturbation):
    """A subset-selection variance formula off by 1e-4 relative, either way, fails the check."""
    original = SubsetSelection.variances
    monkeypatch.setattr(SubsetSelection, "variances",
                        lambda self, prior, n_samples=1: original(self, prior, n_samples) * (1 + perturbation))
    below, above = relative_gaps(4, 1.0)
    assert not (-RTOL <= below <= RTOL and -RTOL <= above <= RTOL)
