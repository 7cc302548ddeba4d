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

The measures write the worst case as a :class:`ConcaveInPrior` and :func:`hull_maximum` brackets it
rigorously: the *lower* end is the quantity's own definition at a prior of the hull, the *upper* end
is the dual function ``D(r) = max_k L_k(r) + c(r)`` evaluated in numpy at some ``r >= 0`` (any ``r``
gives a valid upper bound). Candidates for both ends come from (i) maximizing the quantity over the
mixture weights of the extreme points with Clarabel, (ii) minimizing the dual with Clarabel, whose
multipliers are mixture weights too, and (iii) the extreme points themselves; then (iv) a
Blahut–Arimoto-type fixed point polishes the weights until the bracket is at most
``CAPACITY_TARGET`` wide. At the ``r`` of a prior ``P = w @ points``, ``L_k`` is the partial
derivative of the quantity in ``w_k`` (up to a constant), so ``D`` there exceeds the value at ``P`` by
the Frank–Wolfe gap ``max_k ∂_k f − w·∇f``: the bracket closes exactly at the optimal weights, and
each step of the fixed point (an exponentiated-gradient step, accepted only if it increases the
quantity) is certified by the bracket it recomputes. Measures return the upper end (a mechanism
certified by it meets its budget); a RuntimeWarning is issued only if the bracket stays wider than
``CAPACITY_GAP``.
"""

from __future__ import annotations

import warnings
from abc import ABC, abstractmethod
from dataclasses import dataclass

from .._lazy import cvxpy as cp
import numpy as np

from ..solvers import solve_cvxpy

#: Solver tolerances of the two small convex problems (over mixture weights and over ``r``).
HULL_SOLVER_OPTIONS = {"tol_gap_abs": 1e-11, "tol_gap_rel": 1e-11, "tol_feas": 1e-11}
#: Bracket width (relative to ``max(1, |lower|)``) at which the fixed-point polish stops.
CAPACITY_TARGET = 1e-11
#: Largest number of fixed-point steps (each costs one ``k × m`` matrix product or two).
POLISH_STEPS = 2000
#: Bracket width (same scale) above which a RuntimeWarning reports that the two sides disagree.
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

    @property
    def width(self) -> float:
        """``upper − lower`` (>= 0 up to round-off).

        Examples
        --------
        >>> HullMaximum(0.125, 0.25, np.array([0.5, 0.5])).width
        0.125
        """
        return self.upper - self.lower


class ConcaveInPrior(ABC):
    """A quantity ``f(P)`` concave in the prior with the variational form ``min_r Σ_x P(x) g_x(r) + c(r)``.

    Restricted to the hull of ``points`` (one extreme point per row), ``Σ_x P_k(x) g_x(r)`` is the
    ``k``-th entry of :meth:`linear`, so the dual function is ``D(r) = max_k L_k(r) + c(r)``.
    """

    def __init__(self, points: np.ndarray) -> None:
        self.points = points

    @abstractmethod
    def value(self, prior: np.ndarray) -> float:
        """``f(P)`` in numpy."""

    @abstractmethod
    def expression(self, weights: cp.Variable) -> cp.Expression:
        """``f(weights @ points)`` as a concave cvxpy expression."""

    @abstractmethod
    def optimal_r(self, prior: np.ndarray) -> np.ndarray:
        """The minimizing ``r`` at ``P`` (where ``D(r) − f(P)`` is the Frank–Wolfe gap)."""

    @abstractmethod
    def linear(self, r: np.ndarray) -> np.ndarray:
        """``(L_k(r))_k`` in numpy."""

    @abstractmethod
    def linear_expression(self, factor: cp.Variable, scale: np.ndarray) -> cp.Expression:
        """``(L_k(scale ∘ factor))_k``, convex in ``factor``."""

    @abstractmethod
    def offset(self, r: np.ndarray) -> float:
        """``c(r)`` in numpy."""

    @abstractmethod
    def offset_expression(self, factor: cp.Variable, scale: np.ndarray) -> cp.Expression:
        """``c(scale ∘ factor)``, convex in ``factor``."""

    def dual_bound(self, r: np.ndarray) -> float:
        """``D(r) >= max_{P ∈ conv(points)} f(P)`` for every ``r >= 0``.

        Examples
        --------
        Mutual information of randomized response over every prior: any ``r`` bounds the capacity
        ``log 2 − h(1/4)`` above, with equality at the output distribution of the uniform prior:

        >>> from mechdesign.privacy.mutual_information import HullMutualInformation
        >>> f = HullMutualInformation(np.eye(2), np.array([[0.75, 0.25], [0.25, 0.75]]))
        >>> round(f.dual_bound(np.array([0.5, 0.5])), 6), round(f.dual_bound(np.array([0.6, 0.6])), 6)
        (0.130812, 0.14849)
        """
        return float(np.max(self.linear(r)) + self.offset(r))


def _solve(problem: cp.Problem) -> bool:
    """Solve with tight tolerances, falling back to Clarabel's defaults; whether a solution came back."""
    # "may be inaccurate" is fine: both sides stay valid bounds.
    return any(solve_cvxpy(problem, "clarabel", options).solved for options in (HULL_SOLVER_OPTIONS, {}))


def _as_weights(values: np.ndarray | None) -> np.ndarray | None:
    """Clipped, normalized mixture weights, or None if there are none."""
    if values is None or not np.all(np.isfinite(values)):
        return None
    clipped = np.clip(values, 0.0, None)
    return clipped / clipped.sum() if clipped.sum() > 0 else None


def _primal_weights(f: ConcaveInPrior) -> np.ndarray | None:
    """The mixture weights maximizing ``f`` (Clarabel), or None if the solver fails."""
    weights = cp.Variable(f.points.shape[0], nonneg=True)
    _solve(cp.Problem(cp.Maximize(f.expression(weights)), [cp.sum(weights) == 1]))
    return _as_weights(weights.value)


def _dual_solution(f: ConcaveInPrior, scale: np.ndarray) -> tuple[np.ndarray | None, np.ndarray | None]:
    """Minimize ``D(scale ∘ s)`` over ``s >= 0`` (Clarabel): the ``r`` found and the multipliers of
    the constraints ``L_k <= t``, which are mixture weights (Lagrange duality)."""
    factor, level = cp.Variable(scale.size, nonneg=True), cp.Variable()
    epigraph = f.linear_expression(factor, scale) <= level
    if not _solve(cp.Problem(cp.Minimize(level + f.offset_expression(factor, scale)), [epigraph])):
        return None, None
    r = None if factor.value is None else scale * np.clip(factor.value, 0.0, None)
    return r, _as_weights(epigraph.dual_value)


class _Bracket:
    """The best lower end (a prior with its weights) and upper end (an ``r``) seen so far."""

    def __init__(self, f: ConcaveInPrior) -> None:
        self.f, self.lower, self.upper = f, -np.inf, np.inf
        self.weights = np.full(f.points.shape[0], 1.0 / f.points.shape[0])

    def offer_weights(self, weights: np.ndarray | None) -> None:
        if weights is None:
            return
        prior = weights @ self.f.points
        value = self.f.value(prior)
        if value > self.lower:
            self.lower, self.weights = value, weights
        self.offer_r(self.f.optimal_r(prior))

    def offer_r(self, r: np.ndarray | None) -> None:
        if r is not None and np.all(np.isfinite(r)):
            self.upper = min(self.upper, self.f.dual_bound(r))

    def closed(self, tolerance: float) -> bool:
        return self.upper - self.lower <= tolerance * max(1.0, abs(self.lower))


def _frank_wolfe_gap(f: ConcaveInPrior, weights: np.ndarray) -> tuple[float, np.ndarray]:
    """``D(r(P)) − f(P)`` at ``P = weights @ points`` (zero exactly at optimal weights), and the
    partial derivatives ``L_k(r(P))`` of ``f`` in the weights (up to a common constant)."""
    prior = weights @ f.points
    r = f.optimal_r(prior)
    gradient = f.linear(r)
    return float(np.max(gradient) + f.offset(r) - f.value(prior)), gradient


def _polish(bracket: _Bracket) -> None:
    """Blahut–Arimoto-type fixed point ``w_k ∝ w_k exp(η ∂_k f)`` from the best weights.

    A step is kept if it shrinks the Frank–Wolfe gap (then ``η`` doubles), else refused (``η``
    halves); every trial is offered to the bracket, which is certified in numpy, and the loop stops
    once the bracket is ``CAPACITY_TARGET`` wide. (Near the optimum ``f`` is flat to second order, so
    its own increase is below round-off long before the gap — first order in the weights — closes.)
    """
    f, step, weights = bracket.f, 1.0, bracket.weights
    gap, gradient = _frank_wolfe_gap(f, weights)
    for _ in range(POLISH_STEPS):
        if bracket.closed(CAPACITY_TARGET) or step < 1e-12:
            return
        finite = gradient[np.isfinite(gradient)]
        gradient = np.where(np.isfinite(gradient), gradient, finite.max(initial=0.0) + 1.0)  # +inf: an output P misses
        trial = _as_weights(weights * np.exp(step * (gradient - gradient.max())))
        bracket.offer_weights(trial)
        trial_gap, trial_gradient = (np.inf, None) if trial is None else _frank_wolfe_gap(f, trial)
        if trial_gap < gap:
            weights, gap, gradient, step = trial, trial_gap, trial_gradient, 2.0 * step
        else:
            step *= 0.5


def hull_maximum(f: ConcaveInPrior) -> HullMaximum:
    """Bracket ``max_{P ∈ conv(f.points)} f(P)`` (see the module docstring for the four steps).

    Parameters
    ----------
    f
        The quantity, with the extreme points of the source set as ``f.points``.

    Returns
    -------
    HullMaximum
        ``lower <= max <= upper``; a RuntimeWarning if the bracket is wider than :data:`CAPACITY_GAP`.

    Notes
    -----
    Every candidate is checked in numpy: the lower end is ``f`` at a prior of the hull, the upper end
    ``D`` at an ``r >= 0``, whichever solver produced them.

    Examples
    --------
    The capacity of the binary symmetric channel with crossover 1/4, ``log 2 − h(1/4)``, at the
    uniform prior:

    >>> from mechdesign.privacy.mutual_information import HullMutualInformation
    >>> bracket = hull_maximum(HullMutualInformation(np.eye(2), np.array([[0.75, 0.25], [0.25, 0.75]])))
    >>> round(bracket.upper, 9), bool(bracket.width <= CAPACITY_GAP), bracket.prior.round(6)
    (0.130812036, True, array([0.5, 0.5]))
    """
    bracket = _Bracket(f)
    for point in np.eye(f.points.shape[0]):
        bracket.offer_weights(point)
    # The uniform mixture too: where Clarabel fails, the polish starts from the best weights offered, and from a
    # vertex its multiplicative steps never leave the vertex (a 4 × 5 channel with zeros at α = 4: [1, inf]).
    bracket.offer_weights(np.full(f.points.shape[0], 1.0 / f.points.shape[0]))
    bracket.offer_weights(_primal_weights(f))
    scale = f.optimal_r(bracket.weights @ f.points)
    r, multipliers = _dual_solution(f, np.maximum(scale, 1e-12 * scale.max()))
    bracket.offer_r(r)
    bracket.offer_weights(multipliers)
    _polish(bracket)
    if not bracket.closed(CAPACITY_GAP):
        warnings.warn(f"worst case over the source set bracketed only within [{bracket.lower:.12g}, "
                      f"{bracket.upper:.12g}]; the upper end is used", RuntimeWarning, stacklevel=3)
    return HullMaximum(bracket.lower, bracket.upper, bracket.weights @ f.points)


def broadcast_row(r: cp.Expression, n_rows: int) -> cp.Expression:
    """The ``(n_rows, len(r))`` matrix whose every row is ``r``.

    Parameters
    ----------
    r
        A cvxpy vector.
    n_rows
        The number of rows.

    Returns
    -------
    cvxpy.Expression
        ``1 rᵀ``.

    Examples
    --------
    >>> broadcast_row(cp.Constant(np.array([1.0, 2.0])), 2).value
    array([[1., 2.],
           [1., 2.]])
    """
    return np.ones((n_rows, 1)) @ cp.reshape(r, (1, r.shape[0]), order="C")
