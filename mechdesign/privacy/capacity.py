"""Worst case of a prior-dependent leakage over a source set (capacity-type quantities).

Mutual information and Sibson's α-mutual information are *concave* in the prior (PUT paper,
Lemma 21, for fixed ``Q``), so their maximum over the convex hull of a source set is generally not at
an extreme point. Both have a variational form, a minimum over an auxiliary output vector ``r >= 0``
of a function *linear* in the prior:

* ``I(P; Q) = min_r Σ_x P(x) Σ_y kl(Q[x, y], r_y)`` with ``kl(a, b) = a log(a/b) − a + b`` (for an
  unnormalized ``r`` the sum exceeds ``Σ_x P(x) D(Q[x] ‖ r/Σr)`` by ``Σr − 1 − log Σr >= 0``);
* ``Σ_y (Σ_x P(x) Q[x, y]^α)^{1/α} = min_{r >= 0} Σ_x P(x) (1/α) Σ_y Q[x, y]^α r_y^{1−α} + (1 − 1/α) Σ_y r_y``
  (weighted AM–GM, equality at ``r_y = (Σ_x P(x) Q[x, y]^α)^{1/α}``).

By Sion's minimax theorem (the set of priors is compact and convex, the function is linear in the
prior and convex, lower semicontinuous in ``r``), ``max_P min_r = min_r max_P``, and for fixed ``r``
the maximum of a linear function over the hull is at an extreme point. Hence "worst case ≤ t" is the
convex constraint "some ``r`` has ``max_k Σ_x P_k(x) g_x(Q, r) <= t``" over the extreme points
``P_k`` — exact, not a relaxation. On the whole simplex this is the classical capacity / Rényi-radius
formula ``min_r max_x``.

:func:`hull_maximum` evaluates the worst case from both sides: a *lower* bound, the quantity's own
definition at the prior found by maximizing it over the mixture weights of the extreme points, and an
*upper* bound, the dual function evaluated in numpy at the ``r`` found by minimizing it. Any ``r``
gives a valid upper bound, so measures return the upper side (a mechanism certified by it meets its
budget); the gap between the sides bounds its excess (a warning is issued above ``CAPACITY_GAP``).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from dataclasses import dataclass

import cvxpy as cp
import numpy as np

#: Solver tolerances of the two small convex problems (over mixture weights and over ``r``).
HULL_SOLVER_OPTIONS = {"tol_gap_abs": 1e-11, "tol_gap_rel": 1e-11, "tol_feas": 1e-11}
#: Gap (in the quantity's own scale) above which a RuntimeWarning reports that the two sides disagree
#: (on random 2–4 input channels the gap stayed below 1e-8; with exact zeros up to about 1e-7).
CAPACITY_GAP = 1e-6


@dataclass(frozen=True)
class HullMaximum:
    """The worst case of a concave-in-the-prior quantity over a source set, bracketed.

    Attributes
    ----------
    lower
        The quantity at ``prior`` (a prior of the hull): a lower bound.
    upper
        The dual function at an auxiliary ``r``: an upper bound.
    prior
        The maximizing prior found.
    """

    lower: float
    upper: float
    prior: np.ndarray


def _solve(problem: cp.Problem) -> None:
    """Solve with tight tolerances, falling back to Clarabel's defaults if that fails."""
    for options in (HULL_SOLVER_OPTIONS, {}):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)  # "may be inaccurate": both sides stay valid bounds
            try:
                problem.solve(solver=cp.CLARABEL, **options)
            except cp.error.SolverError:
                continue
        if problem.status in (cp.OPTIMAL, cp.OPTIMAL_INACCURATE):
            return


def hull_maximum(
    extreme_points: np.ndarray,
    primal: Callable[[cp.Expression], cp.Expression],
    at_prior: Callable[[np.ndarray], float],
    optimal_r: Callable[[np.ndarray], np.ndarray],
    dual: Callable[[cp.Variable, np.ndarray], cp.Expression],
    dual_bound: Callable[[np.ndarray], float],
) -> HullMaximum:
    """Bracket ``max_{P ∈ conv(extreme_points)} f(P)`` for a concave ``f`` with a variational dual.

    Parameters
    ----------
    extreme_points
        The source set's extreme points, one per row.
    primal, at_prior
        ``f`` as a concave cvxpy function of the prior, and in numpy.
    optimal_r
        The minimizing ``r`` for a given prior (positive entries).
    dual
        ``(s, c) ↦ D(c ∘ s)``, the dual function ``D(r) = max_k Σ_x P_k(x) g_x(r)`` (+ ``r``-only
        terms) as a convex cvxpy function of ``s``, written with ``r = c ∘ s`` so that the problem is
        well scaled (``s ≈ 1`` at the optimum when ``c`` is the ``r`` of a near-worst prior).
    dual_bound
        ``D(r)`` in numpy; ``dual_bound(r) >= max f`` for every ``r >= 0``.

    Notes
    -----
    The upper end is the smaller of ``D`` at the ``r`` of the primal solution and at the minimizer of
    the rescaled dual problem; both are valid bounds.
    """
    weights = cp.Variable(extreme_points.shape[0], nonneg=True)
    _solve(cp.Problem(cp.Maximize(primal(weights @ extreme_points)), [cp.sum(weights) == 1]))
    if weights.value is None:  # any prior of the hull still gives a lower bound
        prior = extreme_points.mean(axis=0)
    else:
        mixture = np.clip(weights.value, 0.0, None)
        prior = (mixture / mixture.sum()) @ extreme_points
    scale = optimal_r(prior)
    scale = np.maximum(scale, 1e-12 * scale.max())
    factor = cp.Variable(scale.size, nonneg=True)
    _solve(cp.Problem(cp.Minimize(dual(factor, scale))))
    candidates = [dual_bound(scale)]
    if factor.value is not None:
        candidates.append(dual_bound(scale * np.clip(factor.value, 0.0, None)))
    lower, upper = at_prior(prior), min(candidates)
    if not upper - lower <= CAPACITY_GAP * max(1.0, abs(lower)):
        warnings.warn(f"worst case over the source set bracketed only within [{lower:.12g}, {upper:.12g}]; "
                      "the upper end is used", RuntimeWarning, stacklevel=3)
    return HullMaximum(lower, upper, prior)


def broadcast_row(r: cp.Expression, n_rows: int) -> cp.Expression:
    """The ``(n_rows, len(r))`` matrix whose every row is ``r``."""
    return np.ones((n_rows, 1)) @ cp.reshape(r, (1, r.shape[0]), order="C")
