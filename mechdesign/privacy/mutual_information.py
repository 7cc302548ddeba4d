"""Mutual-information privacy: ``I(X; Y) <= ε`` under a known prior, or over a source set.

Zhong & Bu, "Privacy-Utility Trade-Off", Definition 3(7); the budget is in nats. Over a source set
the privacy loss is the worst case ``max_{P ∈ conv 𝒫} I(P; Q)`` (as in the proof of Theorem 6, step
1.5). Mutual information is concave in the prior, so the worst case is a capacity over the set (on
the whole simplex: the channel capacity) and is *not* attained at an extreme point in general; it is
constrained exactly through ``I(P; Q) = min_r Σ_x P(x) D(Q[x, :] ‖ r)`` (see
:mod:`mechdesign.privacy.capacity`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .._lazy import cvxpy as cp
import numpy as np
from .._lazy import LazyFunction

from ..priors import Prior
from ..relaxation import LinearRelaxation, column_sum_tangents, stack
from ..utility.information import mutual_information, mutual_information_expression, mutual_information_gradient
from ..utility.rate_distortion import distortion_rate_lower_bound
from .base import PrivacyNotion
from .capacity import ConcaveInPrior, HullMaximum, broadcast_row, hull_maximum
from .epigraph import Epigraph
from .sources import OnSourceSet

rel_entr = LazyFunction("scipy.special", "rel_entr")


class MutualInformationPrivacy(OnSourceSet, PrivacyNotion):
    """ε-mutual-information privacy ``I(X; Y) <= ε`` (PUT paper, Def. 3(7)).

    Parameters
    ----------
    prior
        The input distribution ``P_X``, or a :class:`~mechdesign.priors.SourceSet` for the worst
        case over its convex hull (a capacity; the whole simplex gives the channel capacity).

    Examples
    --------
    >>> from mechdesign import Prior, randomized_response
    >>> mechanism = randomized_response(3, 1.0)  # 1-LDP on 3 symbols
    >>> round(MutualInformationPrivacy(Prior([0.5, 0.3, 0.2])).measure(mechanism), 6)  # I(X; Y), nats
    0.11412
    """

    name = "mutual_information"
    cli_name = "mutual-information"
    cli_parameters = ("prior",)
    designed_from_prior = True
    composition = "additive"
    reference = "Zhong & Bu, Privacy-Utility Trade-Off, Definition 3(7)"
    needs_prior = True
    is_linear = False

    def __init__(self, prior: Any) -> None:
        self._set_source(prior)

    def scaled_budget(self, budget: float) -> float:
        """Mutual information is bounded by ε itself (nats).

        Examples
        --------
        >>> MutualInformationPrivacy([0.5, 0.5]).scaled_budget(0.1)
        0.1
        """
        return budget

    def budget_from_scaled(self, value: float) -> float:
        """The budget of a scaled value: the value itself, never below 0.

        Examples
        --------
        >>> MutualInformationPrivacy([0.5, 0.5]).budget_from_scaled(-1e-12)  # solver round-off
        0.0
        """
        return max(0.0, float(value))

    def epigraph(self, Q: cp.Expression) -> Epigraph:
        """The worst-case mutual information over the source set, as an epigraph.

        With several priors: ``max_k Σ_x P_k(x) Σ_y kl(Q[x, y], r_y)`` over an auxiliary ``r >= 0``,
        where ``kl(a, b) = a log(a/b) − a + b``; the extra ``Σ_y r_y − 1 − log Σ_y r_y >= 0`` it adds
        for an unnormalized ``r`` vanishes at the minimum, so ``r`` needs no simplex constraint.
        """
        points = self.source_set.extreme_points
        if len(points) == 1:
            return Epigraph(mutual_information_expression(Q, points[0]), [])
        r = cp.Variable(Q.shape[1], nonneg=True)
        divergences = cp.sum(cp.kl_div(Q, broadcast_row(r, Q.shape[0])), axis=1)
        return Epigraph(cp.max(points @ divergences), [])

    def leakage_expression(self, Q: cp.Expression) -> cp.Expression:
        """The worst-case ``I(X; Y)`` as a convex expression of ``Q`` (at most ε).

        Examples
        --------
        >>> matrix = np.array([[0.75, 0.25], [0.25, 0.75]])
        >>> round(float(MutualInformationPrivacy([0.5, 0.5]).leakage_expression(cp.Constant(matrix)).value), 6)
        0.130812
        """
        return self.epigraph(Q).minimized(Q)

    def _constraints(self, Q: cp.Expression, scaled: Any) -> list[cp.Constraint]:
        return self.epigraph(Q).at_most(scaled)

    def relaxation(self, points: Sequence[np.ndarray], budget: float) -> LinearRelaxation:
        """Tangent planes: ``μ_P(v) = Σ_x P(x) v_x log(v_x / P·v)`` is convex and 1-homogeneous, and
        ``I(P; Q) = Σ_y μ_P(Q[:, y])``, so ``μ_P(v) >= ∇μ_P(ṽ) · v`` at every point
        (:func:`~mechdesign.utility.information.mutual_information_gradient`); per prior,
        ``Σ_y μ_P(Q[:, y]) <= ε`` through :func:`~mechdesign.relaxation.column_sum_tangents`
        (``μ_P(v) <= max_x log(1/P(x))`` on stochastic columns). The priors: every extreme point and,
        for a source set, the worst prior of the hull at the first point.

        Examples
        --------
        Randomized response with ``1 − p = 3/4`` (``I = 0.1308`` nats under the uniform prior) meets the
        rows at a budget of 0.2, its columns' ``μ_P`` as auxiliaries:

        >>> from mechdesign.utility.information import mutual_information_columns
        >>> matrix = np.array([[0.75, 0.25], [0.25, 0.75]])
        >>> relaxation = MutualInformationPrivacy([0.5, 0.5]).relaxation([matrix], 0.2)
        >>> mu = mutual_information_columns(np.array([0.5, 0.5]), matrix)
        >>> bool(np.all(relaxation.rows_q @ matrix.ravel() + relaxation.rows_aux @ mu <= relaxation.rhs + 1e-12))
        True
        """
        priors = self.source_set.extreme_points
        if len(priors) > 1:
            priors = np.vstack([priors, worst_case_mutual_information(priors, points[0]).prior])
        blocks = [column_sum_tangents(points[0].shape, [mutual_information_gradient(prior, p) for p in points],
                                      float(-np.log(prior[prior > 0].min())), float(budget)) for prior in priors]
        return stack(blocks, points[0].size)

    def linear_objective_bound(self, weights: np.ndarray, matrix: np.ndarray, budget: float) -> float | None:
        """For one prior ``P`` and ``weights = P(x) d(x, y)``: Blahut's dual bound on the distortion–rate
        function at the output distribution ``P Q`` of ``matrix``
        (:func:`~mechdesign.utility.rate_distortion.distortion_rate_lower_bound`).

        Examples
        --------
        Uniform binary source, Hamming distortion: ``D(R) = h⁻¹(log 2 − R)``, so at the rate
        ``log 2 − h(1/4)`` of randomized response with ``1 − p = 3/4`` no mechanism distorts less than 1/4:

        >>> notion = MutualInformationPrivacy([0.5, 0.5])
        >>> matrix = np.array([[0.75, 0.25], [0.25, 0.75]])
        >>> rate = notion.measure(matrix)
        >>> round(notion.linear_objective_bound(0.5 * (1 - np.eye(2)), matrix, rate), 6)
        0.25
        """
        if len(self.source_set) != 1:
            return None
        prior = self.source_set.extreme_points[0]
        support = prior > 0
        if np.any(weights[~support] != 0):
            return None
        cost = weights[support] / prior[support, None]
        bound, _ = distortion_rate_lower_bound(prior[support], cost, budget, prior @ matrix)
        return bound

    def _measure(self, matrix: np.ndarray) -> float:
        points = self.source_set.extreme_points
        if len(points) == 1:
            return mutual_information(self.prior, matrix)
        return max(0.0, worst_case_mutual_information(points, matrix).upper)


def worst_case_mutual_information(points: np.ndarray, matrix: np.ndarray) -> HullMaximum:
    """``max_{P ∈ conv(points)} I(P; Q)`` bracketed by :func:`~mechdesign.privacy.capacity.hull_maximum`.

    Parameters
    ----------
    points
        ``(k, n)`` extreme points of the source set.
    matrix
        ``(n, m)`` mechanism.

    Returns
    -------
    HullMaximum
        The bracket and the worst prior found.

    Examples
    --------
    Priors between ``(0.9, 0.1)`` and ``(0.7, 0.3)``: ``I`` increases towards the uniform prior, so the
    worst case is at ``(0.7, 0.3)``:

    >>> matrix = np.array([[0.75, 0.25], [0.25, 0.75]])
    >>> bracket = worst_case_mutual_information(np.array([[0.9, 0.1], [0.7, 0.3]]), matrix)
    >>> bracket.prior.round(6), round(bracket.upper, 9) == round(mutual_information(Prior([0.7, 0.3]), matrix), 9)
    (array([0.7, 0.3]), True)
    """
    return hull_maximum(HullMutualInformation(points, matrix))


class HullMutualInformation(ConcaveInPrior):
    """``I(P; Q)`` over the hull of ``points``, with the variational form
    ``min_r max_k [−Σ_x P_k(x) H(Q[x]) − (P_k Q)·log r] − 1 + Σ_y r_y``, i.e.
    ``L_k(r) = −P_k·H(Q) − (P_k Q)·log r`` and ``c(r) = Σ_y r_y − 1`` (outputs no prior reaches are
    dropped: they carry ``r_y = 0``)."""

    def __init__(self, points: np.ndarray, matrix: np.ndarray) -> None:
        super().__init__(points)
        self.matrix = matrix
        reached = points @ matrix  # (k, y): P_k Q
        self.used = reached.max(axis=0) > 0
        self.reached = reached[:, self.used]
        self.constant = points @ rel_entr(matrix, 1.0).sum(axis=1)  # −P_k·H(Q[x, :])

    def value(self, prior: np.ndarray) -> float:
        return mutual_information(Prior(prior), self.matrix)

    def expression(self, weights: cp.Variable) -> cp.Expression:
        return cp.sum(cp.entr(weights @ self.reached)) + weights @ self.constant

    def optimal_r(self, prior: np.ndarray) -> np.ndarray:
        return prior @ self.matrix[:, self.used]

    def linear(self, r: np.ndarray) -> np.ndarray:
        with np.errstate(divide="ignore", invalid="ignore"):
            return self.constant - np.where(self.reached > 0, self.reached * np.log(r), 0.0).sum(axis=1)

    def linear_expression(self, factor: cp.Variable, scale: np.ndarray) -> cp.Expression:
        return self.constant - self.reached @ np.log(scale) - self.reached @ cp.log(factor)

    def offset(self, r: np.ndarray) -> float:
        return float(r.sum() - 1.0)

    def offset_expression(self, factor: cp.Variable, scale: np.ndarray) -> cp.Expression:
        return scale @ factor - 1.0
