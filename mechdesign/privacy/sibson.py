"""Sibson's α-mutual information (order α > 1) under a prior, or its worst case over a source set.

Zhong & Bu, "Privacy-Utility Trade-Off", Definition 3(6) (Sibson 1969; Verdú 2015): ``Q`` has
α-mutual information at most ε if ``I_α(X; Y) <= ε`` with

``I_α(X; Y) = α/(α−1) · log Σ_y (Σ_x P(x) Q[x, y]^α)^{1/α}``.

For a source set the paper's privacy loss is the maximum over the set (proof of Theorem 6, step
1.2, eq. (4)). ``Σ_y (Σ_x P(x) Q[x, y]^α)^{1/α}`` is *concave* in ``P`` (a sum of concave powers of
linear functions), so that maximum need not be at an extreme point; it is computed exactly through
the variational form of :mod:`mechdesign.privacy.capacity`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from .._lazy import cvxpy as cp
import numpy as np

from .._validate import as_order
from .._numeric import exp_budget
from .._lazy import scipy_sparse as sp
from ..mechanism import as_mechanism
from ..priors import as_prior
from ..relaxation import LinearRelaxation, column_sum_tangents, stack
from .base import PrivacyNotion
from .column_dual import ColumnSums, column_dual_bound
from .capacity import ConcaveInPrior, broadcast_row, hull_maximum
from .epigraph import Epigraph
from .sources import OnSourceSet


#: Halvings of the bracket of the root in :meth:`SibsonMutualInformation.least_column_terms` (from a width of at
#: least 1 to round-off of any cost scale).
LEAST_TERM_BISECTIONS = 100


def sibson_norm_sum(prior: np.ndarray, matrix: np.ndarray, alpha: float) -> float:
    """``Σ_y (Σ_x P(x) Q[x, y]^α)^{1/α}`` (≥ 1; equal to 1 iff ``Q``'s rows agree on ``supp P``).

    Examples
    --------
    >>> prior = np.array([0.5, 0.5])
    >>> math.isclose(sibson_norm_sum(prior, np.eye(2), 2.0), math.sqrt(2))  # 2 · (½)^½
    True
    >>> round(sibson_norm_sum(prior, np.array([[0.3, 0.7], [0.3, 0.7]]), 3.0), 12)  # rows agree
    1.0
    """
    return float(np.sum((prior @ matrix**alpha) ** (1.0 / alpha)))


def sibson_mutual_information(prior: Any, matrix: Any, alpha: float) -> float:
    """Sibson's ``I_α(X; Y)`` in nats for a prior and a channel (PUT paper, Definition 3(6)).

    Examples
    --------
    The identity channel under a uniform binary prior leaks ``2 log √2 = log 2`` at α = 2; a channel
    whose rows agree leaks nothing.

    >>> math.isclose(sibson_mutual_information([0.5, 0.5], np.eye(2), 2.0), math.log(2))
    True
    >>> sibson_mutual_information([0.5, 0.5], [[0.3, 0.7], [0.3, 0.7]], 2.0)
    0.0
    """
    order = as_order(alpha)
    channel = as_mechanism(matrix).matrix
    value = sibson_norm_sum(as_prior(prior, channel.shape[0]).probabilities, channel, order)
    return max(0.0, order / (order - 1.0) * math.log(value))


class SibsonMutualInformation(OnSourceSet, PrivacyNotion):
    """ε-α-mutual-information privacy ``I_α(X; Y) <= ε`` (PUT paper, Definition 3(6)).

    Parameters
    ----------
    alpha
        The order, a finite number > 1.
    source
        A :class:`~mechdesign.priors.Prior` (or probability vector), or a
        :class:`~mechdesign.priors.SourceSet`: then the worst case ``max_{P ∈ conv 𝒫} I_α`` is
        constrained (exactly, with an auxiliary output distribution; see
        :mod:`mechdesign.privacy.capacity`).

    Notes
    -----
    The budget enters as ``e^{(α−1)ε/α}`` (:meth:`scaled_budget`), the bound on
    ``Σ_y ‖P^{1/α} Q[:, y]‖_α`` — a sum of α-norms for one prior.

    Examples
    --------
    >>> from mechdesign import Prior, randomized_response
    >>> mechanism = randomized_response(3, 1.0)  # 1-LDP on 3 symbols
    >>> round(SibsonMutualInformation(2.0, Prior([0.5, 0.3, 0.2])).measure(mechanism), 6)
    0.219325
    """

    name = "sibson_mi"
    cli_name = "sibson-mi"
    cli_parameters = ("alpha", "prior")
    composition = "additive"
    reference = "Zhong & Bu, Privacy-Utility Trade-Off, Definition 3(6); Verdú 2015, eq. (47)"
    needs_prior = True
    is_linear = False

    def __init__(self, alpha: float, source: Any) -> None:
        self.alpha = as_order(alpha)
        self._set_source(source)

    @property
    def label(self) -> str:
        return self._label(f"alpha={self.alpha:g}")

    def scaled_budget(self, budget: float) -> float:
        """``e^{(α−1)ε/α}``, the bound on ``Σ_y (Σ_x P(x) Q[x, y]^α)^{1/α}``."""
        return exp_budget((self.alpha - 1.0) / self.alpha * budget)

    def budget_from_scaled(self, value: float) -> float:
        return max(0.0, self.alpha / (self.alpha - 1.0) * math.log(value)) if value > 0 else 0.0

    def epigraph(self, Q: cp.Expression) -> Epigraph:
        """The worst case of ``Σ_y (Σ_x P(x) Q[x, y]^α)^{1/α}`` over the source set, as an epigraph."""
        points = self.source_set.extreme_points
        if len(points) == 1:
            weighted = cp.multiply(points[0][:, None] ** (1.0 / self.alpha), Q)
            norms = [cp.pnorm(weighted[:, y], p=self.alpha) for y in range(Q.shape[1])]
            return Epigraph(cp.sum(cp.hstack(norms)), [])
        r = cp.Variable(Q.shape[1], nonneg=True)
        terms = cp.Variable(Q.shape, nonneg=True)  # terms[x, y] >= Q[x, y]^α r_y^{1−α}
        cone = cp.PowCone3D(terms, broadcast_row(r, Q.shape[0]), Q, 1.0 / self.alpha)
        linear = cp.max(points @ cp.sum(terms, axis=1)) / self.alpha
        return Epigraph(linear + (1.0 - 1.0 / self.alpha) * cp.sum(r), [cone])

    def leakage_expression(self, Q: cp.Expression) -> cp.Expression:
        """``max_P Σ_y (Σ_x P(x) Q[x, y]^α)^{1/α}`` (at most ``e^{(α−1)ε/α}``)."""
        return self.epigraph(Q).minimized(Q)

    def _constraints(self, Q: cp.Expression, scaled: Any) -> list[cp.Constraint]:
        return self.epigraph(Q).at_most(scaled)

    def relaxation(self, points: Sequence[np.ndarray], budget: float) -> LinearRelaxation:
        """Tangent planes: each ``N_P(v) = (Σ_x P(x) v_x^α)^{1/α}`` is a convex, 1-homogeneous norm, so
        ``N_P(v) >= ∇N_P(ṽ) · v`` at every point ``ṽ`` and ``N_P(v) >= P(x)^{1/α} v_x`` for every ``x``.
        Per prior, ``Σ_y N_P(Q[:, y]) <= e^{(α−1)ε/α}`` through :func:`~mechdesign.relaxation.column_sum_tangents`
        (``N_P <= 1`` on stochastic columns). The priors: every extreme point and, for a source set, the
        worst prior of the hull at the first point (any prior of the hull gives valid rows)."""
        priors = self.source_set.extreme_points
        if len(priors) > 1:
            priors = np.vstack([priors, hull_maximum(SibsonNormSum(priors, points[0], self.alpha)).prior])
        blocks = [column_sum_tangents(points[0].shape, self._norm_gradients(prior, points), 1.0,
                                      self.scaled_budget(budget)) for prior in priors]
        return stack(blocks, points[0].size)

    def column_terms(self, matrix: np.ndarray, budget: float, scale: float | None = None) -> ColumnSums | None:
        """For one prior ``P``: the budget as ``Σ_y N_P(Q[:, y]) <= e^{(α−1)ε/α}`` with the convex, 1-homogeneous
        ``N_P(v) = (Σ_x P(x) v_x^α)^{1/α}``, described at ``matrix``
        (:class:`~mechdesign.privacy.column_dual.ColumnSums`): gradient ``g_x = P(x) v_x^{α−1} N_P^{1−α}``, Hessian
        ``(α−1) (diag(P(x) v_x^{α−2} N_P^{1−α}) − g gᵀ / N_P)`` per column (0 at zero entries and zero columns);
        ``None`` for a source set (its worst case over the hull is not a sum of column terms).

        ``scale`` is ``e^{(α−1)ε/α}`` (:meth:`scaled_budget` of ``budget``) when the caller has it: a dual's many
        evaluations at one budget scale it once.

        Examples
        --------
        >>> import numpy as np
        >>> sums = SibsonMutualInformation(2.0, [0.5, 0.5]).column_terms(np.array([[0.6], [0.8]]), 0.0)
        >>> round(float(sums.values[0]), 12), sums.rhs.tolist()  # sqrt(0.5 · 0.36 + 0.5 · 0.64)
        (0.707106781187, [1.0])
        """
        priors = self.source_set.extreme_points
        if len(priors) > 1:
            return None
        prior, (n, m) = priors[0], matrix.shape
        norms = (prior @ matrix**self.alpha) ** (1.0 / self.alpha)
        gradient = self._norm_gradient(prior, matrix)
        with np.errstate(divide="ignore", invalid="ignore"):
            diagonal = np.where(matrix > 0, prior[:, None] * matrix ** (self.alpha - 2.0) * norms ** (1.0 - self.alpha), 0.0)
            inverse_norms = np.where(norms > 0, 1.0 / norms, 0.0)
        entries = np.arange(n * m).reshape(n, m)
        jacobian = sp.csr_matrix(gradient.reshape(1, n * m))

        def hessian(multipliers: np.ndarray) -> sp.csr_matrix:
            weight = (self.alpha - 1.0) * float(multipliers[0])
            outer = -weight * gradient[:, None, :] * gradient[None, :, :] * inverse_norms  # (x, z, y)
            keep = outer != 0
            rows = np.broadcast_to(entries[:, None, :], outer.shape)[keep]
            columns = np.broadcast_to(entries[None, :, :], outer.shape)[keep]
            return sp.csr_matrix((np.concatenate([outer[keep], weight * diagonal.ravel()]),
                                  (np.concatenate([rows, entries.ravel()]), np.concatenate([columns, entries.ravel()]))),
                                 shape=(n * m, n * m))

        rhs = self.scaled_budget(budget) if scale is None else scale
        return ColumnSums(np.array([norms.sum()]), np.array([rhs]), jacobian, hessian)

    def linear_objective_bound(self, weights: np.ndarray, matrix: np.ndarray, budget: float) -> float | None:
        """For one prior: the Lagrangian bound of the column norms at ``matrix`` polished by Newton's method
        (:func:`~mechdesign.privacy.column_dual.column_dual_bound`); ``None`` for a source set.

        Examples
        --------
        Uniform binary prior, Hamming cost, α = 2: randomized response with keep probability ``p`` has
        ``N = 2 sqrt((p² + (1 − p)²) / 2)``; at ``p = 0.8`` (distortion 0.2) and the budget it spends, no
        mechanism distorts less.

        >>> import numpy as np
        >>> notion = SibsonMutualInformation(2.0, [0.5, 0.5])
        >>> response = np.array([[0.8, 0.2], [0.2, 0.8]])
        >>> round(notion.linear_objective_bound(0.5 * (1 - np.eye(2)), response, notion.measure(response)), 12)
        0.2
        """
        if len(self.source_set) != 1:
            return None
        scale = self.scaled_budget(budget)
        return column_dual_bound(weights, matrix, lambda point: self.column_terms(point, budget, scale),
                                 self.least_column_terms)

    def least_column_terms(self, linear: np.ndarray, multipliers: np.ndarray) -> np.ndarray | None:
        """For one prior ``P`` of full support: where the Lagrangian's column term ``h(v) = g · v + λ N_P(v)`` (``g`` a
        column of ``linear``, ``λ = multipliers[0]``) is least on the simplex, without a search
        (:func:`~mechdesign.privacy.column_dual.least_column_terms` searches for it). Its KKT conditions
        ``g_x + λ P(x) v_x^{α−1} N_P(v)^{1−α} = t`` where ``v_x > 0`` (``>= t`` elsewhere) give
        ``v_x ∝ ((t − g_x)⁺ / P(x))^{1/(α−1)}``, with ``t`` the root of ``N_P(v(t)) = λ^{1/(α−1)}`` (increasing in
        ``t`` above ``min g``), found by bisection for all columns at once, to :data:`LEAST_TERM_BISECTIONS` halvings.
        With ``λ = 0`` the vertex of the column's least entry. ``None`` for a source set or a prior with a zero (then
        ``h`` need not have its least value at a finite ratio).

        Examples
        --------
        Uniform binary prior, α = 2, ``λ = 1``: for ``g = (−1, 0)`` the root is ``t = 1/√2 − 1 < 0``, so the support is
        input 0 alone (the vertex); for ``g = (0.2, 0.1)`` the least term mixes both inputs,
        ``v = (1/2 − 1/(6√11), 1/2 + 1/(6√11))`` (``v_x ∝ t − g_x`` with ``(t − 0.2)² + (t − 0.1)² = 1/2``).

        >>> notion = SibsonMutualInformation(2.0, [0.5, 0.5])
        >>> points = notion.least_column_terms(np.array([[-1.0, 0.2], [0.0, 0.1]]), np.array([1.0]))
        >>> points[:, 0].tolist(), bool(np.allclose(points[:, 1], [0.5 - 1 / (6 * math.sqrt(11)), 0.5 + 1 / (6 * math.sqrt(11))]))
        ([1.0, 0.0], True)
        """
        priors = self.source_set.extreme_points
        if len(priors) > 1 or not np.all(priors[0] > 0):
            return None
        prior, (n, count) = priors[0][:, None], linear.shape
        weight = float(multipliers[0])
        if not weight > 0:  # a linear term: the vertex of its least entry
            points = np.zeros((n, count))
            points[np.argmin(linear, axis=0), np.arange(count)] = 1.0
            return points
        target = weight ** (1.0 / (self.alpha - 1.0))

        def direction(t: np.ndarray) -> np.ndarray:
            return (np.clip(t - linear, 0.0, None) / prior) ** (1.0 / (self.alpha - 1.0))

        def norm(t: np.ndarray) -> np.ndarray:
            return (prior * direction(t) ** self.alpha).sum(axis=0) ** (1.0 / self.alpha)

        low = linear.min(axis=0)
        width = np.maximum(linear.max(axis=0) - low, 1.0)
        while np.any(norm(low + width) < target):  # N_P(v(t)) grows without bound in t
            width = np.where(norm(low + width) < target, 2.0 * width, width)
        high = low + width
        for _ in range(LEAST_TERM_BISECTIONS):
            middle = 0.5 * (low + high)
            below = norm(middle) < target
            low, high = np.where(below, middle, low), np.where(below, high, middle)
        points = direction(high)
        return points / points.sum(axis=0)

    def _norm_gradient(self, prior: np.ndarray, matrix: np.ndarray) -> np.ndarray:
        """``∇N_P`` of every column of ``matrix`` (0 for a zero column, where the norm has the subgradient 0)."""
        with np.errstate(divide="ignore", invalid="ignore"):
            scale = np.where(matrix.any(axis=0), (prior @ matrix**self.alpha) ** (1.0 / self.alpha - 1.0), 0.0)
        return prior[:, None] * matrix ** (self.alpha - 1.0) * scale

    def _norm_gradients(self, prior: np.ndarray, points: Sequence[np.ndarray]) -> list[np.ndarray]:
        """``∇N_P`` of every column at every point, and the axis minorants ``P(x)^{1/α} e_x``."""
        gradients = [self._norm_gradient(prior, p) for p in points]
        shape = points[0].shape
        for x in np.flatnonzero(prior > 0):
            axis = np.zeros(shape)
            axis[x] = prior[x] ** (1.0 / self.alpha)
            gradients.append(axis)
        return gradients

    def _measure(self, matrix: np.ndarray) -> float:
        return self.budget_from_scaled(self.worst_case_norm_sum(matrix))

    def worst_case_norm_sum(self, matrix: np.ndarray) -> float:
        """``max_{P ∈ conv 𝒫} Σ_y (Σ_x P(x) Q[x, y]^α)^{1/α}`` (for a set: the upper end of
        :func:`~mechdesign.privacy.capacity.hull_maximum`)."""
        points = self.source_set.extreme_points
        if len(points) == 1:
            return sibson_norm_sum(points[0], matrix, self.alpha)
        return hull_maximum(SibsonNormSum(points, matrix, self.alpha)).upper


class SibsonNormSum(ConcaveInPrior):
    """``Σ_y (Σ_x P(x) Q[x, y]^α)^{1/α}`` over the hull of ``points``, with the AM–GM variational form
    ``L_k(r) = (1/α) Σ_y (P_k Q^α)_y r_y^{1−α}``, ``c(r) = (1 − 1/α) Σ_y r_y`` (outputs no prior reaches
    are dropped: they carry ``r_y = 0``)."""

    def __init__(self, points: np.ndarray, matrix: np.ndarray, alpha: float) -> None:
        super().__init__(points)
        self.matrix, self.alpha = matrix, alpha
        powered = points @ matrix**alpha  # (k, y): Σ_x P_k(x) Q[x, y]^α
        self.used = powered.max(axis=0) > 0
        self.powered = powered[:, self.used]

    def value(self, prior: np.ndarray) -> float:
        return sibson_norm_sum(prior, self.matrix, self.alpha)

    def expression(self, weights: cp.Variable) -> cp.Expression:
        return cp.sum(cp.power(weights @ self.powered, 1.0 / self.alpha))

    def optimal_r(self, prior: np.ndarray) -> np.ndarray:
        return (prior @ self.matrix[:, self.used] ** self.alpha) ** (1.0 / self.alpha)

    def linear(self, r: np.ndarray) -> np.ndarray:
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(self.powered > 0, self.powered * r ** (1.0 - self.alpha), 0.0).sum(axis=1) / self.alpha

    def linear_expression(self, factor: cp.Variable, scale: np.ndarray) -> cp.Expression:
        return (self.powered * scale ** (1.0 - self.alpha)) @ cp.power(factor, 1.0 - self.alpha) / self.alpha

    def offset(self, r: np.ndarray) -> float:
        return float((1.0 - 1.0 / self.alpha) * r.sum())

    def offset_expression(self, factor: cp.Variable, scale: np.ndarray) -> cp.Expression:
        return (1.0 - 1.0 / self.alpha) * scale @ factor
