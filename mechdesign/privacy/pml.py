"""Pointwise maximal leakage (PML) under a prior, a finite set of priors, or an ℓ1-ball of priors.

Saeidian et al., "Pointwise Maximal Leakage"; Grosse et al., "Privacy Mechanism Design based on
Empirical Distributions", Definition 1 and eq. (1): the leakage to an output ``y`` is
``ℓ_P(X → y) = log max_{x ∈ supp P} Q[x, y] / P_Y(y)`` and ``Q`` is ε-PML if ``ℓ(X → y) <= ε`` for
every ``y`` with ``P_Y(y) > 0``. As a constraint: ``Q[x, y] <= e^ε Σ_x' P(x') Q[x', y]``.

Over a convex set of priors 𝒫 the worst case is taken (Grosse et al., eq. (1) and Definition 5): the
column ``y`` must satisfy ``max_x Q[x, y] <= e^ε min_{P ∈ 𝒫} P·Q[:, y]``, where the numerator
ranges over every input some prior of the set charges.

* Finitely many extreme points (Corollary 1): the minimum is at an extreme point, one linear
  constraint per extreme point and output.
* The ℓ1-ball ``B_β(P̂) ∩ simplex`` (eq. (5)), for every β — also balls that leave the simplex: by
  LP duality, ``min {P·q : P ∈ simplex, ‖P − P̂‖₁ <= β}`` equals
  ``max {λ + w·P̂ − β μ : |w_x| <= μ, λ + w_x <= q_x ∀x}``. Multiplying the dual variables by
  ``t = e^ε > 0`` gives, per output ``y``, the linear constraints
  ``max_x Q[x, y] <= λ_y + P̂·W[:, y] − β μ_y``, ``|W[x, y]| <= μ_y``,
  ``λ_y + W[x, y] <= t Q[x, y]``, in which ``t`` multiplies only ``Q`` (DPP in the budget).
  The numpy measure uses the greedy closed form of :meth:`mechdesign.priors.L1Ball.min_expectation`
  instead, so the two stay independent.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from .._lazy import cvxpy as cp
import numpy as np

from ..priors import L1Ball, Prior, PriorSet, SourceSet, as_prior_set
from ..relaxation import LinearRelaxation, column_ceiling, column_ceiling_under_priors, column_specific_weight_rows
from ..structured import worst_log_ratio
from .base import PrivacyNotion
from .sources import OnSourceSet


class PointwiseMaximalLeakage(OnSourceSet, PrivacyNotion):
    """ε-pointwise maximal leakage for a prior or, robustly, for every prior of a set.

    Parameters
    ----------
    prior
        A :class:`~mechdesign.priors.Prior` (or probability vector); a
        :class:`~mechdesign.priors.SourceSet` for the worst case over its convex hull (Grosse et al.,
        Corollary 1: the extreme points suffice); or an :class:`~mechdesign.priors.L1Ball`
        ``B_β(P̂) ∩ simplex`` (eq. (5)), handled exactly for every radius. Inputs that no prior
        charges are unconstrained.

    Examples
    --------
    >>> from mechdesign import Prior, randomized_response
    >>> mechanism = randomized_response(3, 1.0)  # 1-LDP on 3 symbols
    >>> round(PointwiseMaximalLeakage(Prior([0.5, 0.3, 0.2])).measure(mechanism), 6)
    0.704605
    """

    name = "pml"
    cli_name = "pml"
    cli_parameters = ("prior",)
    designed_from_prior = True
    reference = "Grosse et al., Privacy Mechanism Design based on Empirical Distributions, Def. 1, eqs. (1), (5), Cor. 1"
    needs_prior = True

    def __init__(self, prior: Any) -> None:
        self.prior_set: PriorSet = as_prior_set(prior)
        self.n_inputs = self.prior_set.size
        if isinstance(prior, Prior):  # validated already: kept as it is (OnSourceSet.prior)
            self._single_prior = (self.prior_set, prior)
        self._support = support_of(self.prior_set)

    @property
    def source_set(self) -> SourceSet:
        """The finite source set, when the notion is defined on one (not on an ℓ1-ball).

        Examples
        --------
        >>> PointwiseMaximalLeakage([0.5, 0.5]).source_set
        SourceSet(1 extreme point over 2 symbols)
        """
        if isinstance(self.prior_set, L1Ball):
            raise AttributeError(f"{self.label} is defined on an ℓ1-ball; see prior_set (or prior_set.to_source_set())")
        return self.prior_set

    @property
    def label(self) -> str:
        """The notion's label, with the radius for an ℓ1-ball.

        Examples
        --------
        >>> from mechdesign.priors import L1Ball
        >>> PointwiseMaximalLeakage(L1Ball([0.5, 0.5], 0.2)).label
        'pml(l1-ball radius 0.2)'
        """
        if isinstance(self.prior_set, L1Ball):
            return f"{self.name}(l1-ball radius {self.prior_set.radius:.6g})"
        return self._label()

    def _constraints(self, Q: cp.Expression, scaled: Any) -> list[cp.Constraint]:
        largest = cp.max(Q[self._support, :], axis=0)
        if isinstance(self.prior_set, L1Ball):
            return _ball_constraints(Q, largest, scaled, self.prior_set)
        output_masses = self.prior_set.extreme_points @ Q  # (k, n_outputs): P_k · Q[:, y]
        return [largest[None, :] <= scaled * output_masses]

    def relaxation(self, points: Sequence[np.ndarray], budget: float) -> LinearRelaxation:
        """``Q[x, y] <= M_y <= e^ε P·Q[:, y]`` (x in the support) for every extreme prior — the constraints
        themselves; for an ℓ1-ball, ``P`` is the ball's minimizing prior of each column at ``matrix``
        (``min_P P·v <= P*·v``, so the row holds for every private mechanism; exact at ``matrix``).

        Examples
        --------
        Randomized response with ``1 − p = 3/4`` has PML ``log 1.5`` under the uniform prior:

        >>> matrix = np.array([[0.75, 0.25], [0.25, 0.75]])
        >>> relaxation = PointwiseMaximalLeakage([0.5, 0.5]).relaxation([matrix], math.log(1.5))
        >>> maxima = matrix.max(axis=0)
        >>> bool(np.all(relaxation.rows_q @ matrix.ravel() + relaxation.rows_aux @ maxima <= relaxation.rhs + 1e-12))
        True
        """
        matrix = points[0]
        scale = math.exp(budget)
        if isinstance(self.prior_set, L1Ball):
            rows = column_specific_weight_rows(matrix.shape, self.prior_set.minimizers(matrix))
            return column_ceiling(matrix.shape, self._support, -scale * rows, np.zeros(matrix.shape[1]))
        return column_ceiling_under_priors(matrix.shape, self._support, self.prior_set.extreme_points, scale)

    def multiplier_relaxation(self, points: Sequence[np.ndarray], budget: float,
                              multipliers: np.ndarray) -> tuple[LinearRelaxation, np.ndarray] | None:
        """For an ℓ1-ball, :meth:`relaxation` with each column's prior read from the solver's multipliers ``ν`` of
        ``λ_y + W[x, y] <= e^ε Q[x, y]`` (the last ``n m`` of ``multipliers``, this notion's constraints' in
        order): ``ν[:, y] / Σ_x ν[x, y]`` is the inner minimum's prior at the solver's point (KKT), so the rows are
        the ball's tangent planes there, where the minimizer at ``points[0]`` may take a wrong vertex among ties
        (a zero column's every entry, tied maxima). Each prior is pulled into ``B_β(P̂) ∩ simplex`` (clipped at 0,
        normalized, moved toward ``P̂`` until inside: any prior of the ball gives valid rows); a column without
        multipliers keeps the minimizer. With the relaxation, the multipliers of its rows ``M_y <= e^ε P_y·Q[:, y]``:
        those of ``max_x Q[x, y] <= λ_y + P̂·W[:, y] − β μ_y`` (the first ``m``; the rows ``Q[x, y] <= M_y`` before them
        are cvxpy's hidden epigraph, unknown: :func:`~mechdesign.certificate.multiplier_lower_bound` repairs them),
        so the certificate may need no LP. ``None`` for a finite source set (its relaxation is its constraints).

        Examples
        --------
        Binary uniform center, radius 0.2, randomized response with ``1 − p = 3/4``: multipliers ``ν`` of
        ``(0.6, 0.4)`` on both outputs (in the ball) give that prior in both columns' rows.

        >>> from mechdesign.priors import L1Ball
        >>> notion = PointwiseMaximalLeakage(L1Ball([0.5, 0.5], 0.2))
        >>> matrix = np.array([[0.75, 0.25], [0.25, 0.75]])
        >>> relaxation, given = notion.multiplier_relaxation([matrix], 0.5, np.r_[1.0, 1.0, np.zeros(12), 0.6, 0.6, 0.4, 0.4])
        >>> given.tolist()
        [1.0, 1.0]
        >>> ((relaxation.rows_q.toarray()[-2:] / -math.exp(0.5)).round(12) + 0.0).tolist()   # M_y − e^ε P_y·Q[:, y] <= 0
        [[0.6, 0.0, 0.4, 0.0], [0.0, 0.6, 0.0, 0.4]]
        """
        if not isinstance(self.prior_set, L1Ball):
            return None
        matrix = points[0]
        ball = self.prior_set
        priors = ball.minimizers(matrix)
        nu = np.clip(np.asarray(multipliers, dtype=float)[-matrix.size:], 0.0, None).reshape(matrix.shape)
        mass = nu.sum(axis=0)
        read = np.flatnonzero(np.isfinite(mass) & (mass > 0))
        pulled = nu[:, read] / mass[read]
        center = ball.center.probabilities[:, None]
        distance = np.abs(pulled - center).sum(axis=0)
        # Strictly inside by a rounding margin: P̂ + t (P − P̂) with t ‖P − P̂‖₁ <= β (1 − 1e-12).
        shrink = np.minimum(1.0, ball.radius * (1.0 - 1e-12) / np.maximum(distance, 1e-300))
        priors[:, read] = center + shrink * (pulled - center)
        rows = column_specific_weight_rows(matrix.shape, priors)
        relaxation = column_ceiling(matrix.shape, self._support, -math.exp(budget) * rows, np.zeros(matrix.shape[1]))
        return relaxation, np.asarray(multipliers, dtype=float)[: matrix.shape[1]]

    def _measure(self, matrix: np.ndarray) -> float:
        largest = matrix[self._support].max(axis=0)
        smallest_masses = min_output_masses(self.prior_set, matrix)
        return worst_log_ratio(largest, smallest_masses)


def support_of(prior_set: PriorSet) -> np.ndarray:
    """The inputs some prior of the set charges (the numerator's range in the worst-case leakage).

    Parameters
    ----------
    prior_set
        A source set or an ℓ1-ball of priors.

    Returns
    -------
    numpy.ndarray
        The sorted input indices.

    Examples
    --------
    >>> from mechdesign.priors import L1Ball, SourceSet
    >>> support_of(SourceSet([[0.5, 0.5, 0.0], [0.2, 0.8, 0.0]]))
    array([0, 1])
    >>> support_of(L1Ball([0.5, 0.5, 0.0], 0.1))  # the ball holds (0.45, 0.5, 0.05)
    array([0, 1, 2])
    """
    if isinstance(prior_set, L1Ball):
        return prior_set.support
    return np.flatnonzero(prior_set.extreme_points.max(axis=0) > 0)


def min_output_masses(prior_set: PriorSet, matrix: np.ndarray) -> np.ndarray:
    """``min_{P ∈ 𝒫} P_Y(y) = min_P P·Q[:, y]`` for every output ``y``, exactly (numpy).

    A finite source set: the smallest over its extreme points (Corollary 1); an ℓ1-ball: the greedy
    closed form of :meth:`~mechdesign.priors.L1Ball.min_expectation`.

    Parameters
    ----------
    prior_set
        A source set or an ℓ1-ball of priors.
    matrix
        ``(n, m)`` mechanism.

    Returns
    -------
    numpy.ndarray
        ``(m,)`` least output masses.

    Examples
    --------
    Randomized response with ``1 − p = 3/4``: over every prior a point mass gives 1/4; over the ball
    of radius 0.2 around the uniform prior, ``(0.6, 0.4)`` gives ``0.6·0.25 + 0.4·0.75 = 0.45``:

    >>> from mechdesign.priors import L1Ball, SourceSet
    >>> matrix = np.array([[0.75, 0.25], [0.25, 0.75]])
    >>> min_output_masses(SourceSet.simplex(2), matrix), min_output_masses(L1Ball([0.5, 0.5], 0.2), matrix).round(12)
    (array([0.25, 0.25]), array([0.45, 0.45]))
    """
    if isinstance(prior_set, L1Ball):
        return prior_set.min_expectation(matrix)
    return (prior_set.extreme_points @ matrix).min(axis=0)


def _ball_constraints(Q: cp.Expression, largest: cp.Expression, scaled: Any, ball: L1Ball) -> list[cp.Constraint]:
    """``max_x Q[x, y] <= t min_{P ∈ B_β(P̂) ∩ simplex} P·Q[:, y]`` through the LP dual (module notes)."""
    n_inputs, n_outputs = Q.shape
    lam = cp.Variable(n_outputs, name="ball_lambda")
    W = cp.Variable((n_inputs, n_outputs), name="ball_w")
    mu = cp.Variable(n_outputs, nonneg=True, name="ball_mu")
    ones = np.ones((n_inputs, 1))
    Mu = ones @ cp.reshape(mu, (1, n_outputs), order="C")
    Lam = ones @ cp.reshape(lam, (1, n_outputs), order="C")
    return [
        largest <= lam + ball.center.probabilities @ W - ball.radius * mu,
        W <= Mu,
        -W <= Mu,
        Lam + W <= scaled * Q,
    ]
