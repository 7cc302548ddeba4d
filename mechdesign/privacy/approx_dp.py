"""(ε, δ)-differential privacy, in the PUT paper's pointwise form or the standard hockey-stick form.

* ``"pointwise"`` — Zhong & Bu, "Privacy-Utility Trade-Off", Definition 3(2):
  ``Q[x, y] <= e^ε Q[x', y] + δ`` for every output ``y`` and neighbours ``x, x'``.
* ``"hockey_stick"`` — the standard definition (Dwork & Roth, Def. 2.4, on a finite output space):
  ``Σ_y max(0, Q[x, y] − e^ε Q[x', y]) <= δ`` for every ordered neighbour pair, i.e. the hockey-stick
  divergence ``E_{e^ε}(Q[x] ‖ Q[x'])`` is at most δ.

The pointwise form implies the hockey-stick form only up to a factor of the output size in δ; the two
coincide for δ = 0 (pure DP).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, Literal

from .._lazy import cvxpy as cp
import numpy as np
from .._lazy import scipy_sparse as sp

from .._validate import as_delta
from ..exceptions import MechDesignError
from ..relaxation import LinearRelaxation, pairwise_rows
from .base import PrivacyNotion
from .dp import column_min_variable, dp_rows
from .neighbours import OnNeighbours

Variant = Literal["pointwise", "hockey_stick"]
VARIANTS: tuple[str, ...] = ("pointwise", "hockey_stick")


def hockey_stick_epsilon(p: np.ndarray, q: np.ndarray, delta: float) -> float:
    """Smallest ε ≥ 0 with ``Σ_y max(0, p_y − e^ε q_y) <= δ`` (exact; ``inf`` if none).

    ``f(γ) = Σ_y max(0, p_y − γ q_y)`` is convex, piecewise linear and non-increasing in γ, with
    breakpoints at the ratios ``p_y / q_y``; the root of ``f(γ) = δ`` is found on the right piece.
    """
    if np.maximum(p - q, 0.0).sum() <= delta:
        return 0.0
    if p[q == 0].sum() > delta:
        return np.inf
    positive = (p > 0) & (q > 0)
    ratios, p_pos, q_pos = p[positive] / q[positive], p[positive], q[positive]
    order = np.argsort(-ratios)
    ratios, p_pos, q_pos = ratios[order], p_pos[order], q_pos[order]
    mass_without_q = p[q == 0].sum()
    # On (ratios[k+1], ratios[k]) the active outputs are 0..k: f(γ) = P_k − γ Q_k + mass_without_q.
    cum_p, cum_q = np.cumsum(p_pos), np.cumsum(q_pos)
    for k in range(len(ratios)):
        with np.errstate(over="ignore"):
            gamma = (cum_p[k] + mass_without_q - delta) / cum_q[k]
        lower = ratios[k + 1] if k + 1 < len(ratios) else 0.0
        if gamma >= lower:
            return max(0.0, float(np.log(gamma)))
    raise AssertionError("unreachable: f(1) > δ implies a root above 1")  # pragma: no cover


def hockey_stick_delta(p: np.ndarray, q: np.ndarray, epsilon: float) -> float:
    """The hockey-stick divergence ``E_{e^ε}(p ‖ q) = Σ_y max(0, p_y − e^ε q_y)``: the smallest δ of
    (ε, δ)-DP for the pair of output distributions ``p``, ``q`` (Dwork & Roth, Definition 2.4).

    Examples
    --------
    >>> round(hockey_stick_delta(np.array([0.75, 0.25]), np.array([0.25, 0.75]), 0.0), 12)
    0.5
    """
    return float(np.maximum(p - np.exp(epsilon) * q, 0.0).sum())


class ApproximateDifferentialPrivacy(OnNeighbours, PrivacyNotion):
    """(ε, δ)-differential privacy; local (every pair neighbours) by default.

    Parameters
    ----------
    delta
        δ ∈ [0, 1).
    variant
        ``"pointwise"`` (PUT paper, Definition 3(2), the default) or ``"hockey_stick"``.
    neighbours, n_inputs
        As for :class:`~mechdesign.privacy.dp.DifferentialPrivacy`.

    Notes
    -----
    The pointwise form on the complete relation uses one column-minimum variable per output
    (``c[y] <= Q[x, y] <= e^ε c[y] + δ``): ``O(nm)`` rows. The hockey-stick form needs one
    constraint per ordered pair, each summing ``m`` hinge terms: ``O(n² m)`` terms.

    Examples
    --------
    >>> from mechdesign import randomized_response
    >>> mechanism = randomized_response(3, 1.0)  # 1-LDP on 3 symbols
    >>> round(ApproximateDifferentialPrivacy(0.1).measure(mechanism), 6)  # the least ε at δ = 0.1
    0.809353
    """

    name = "approx_dp"
    reference = "Zhong & Bu, Privacy-Utility Trade-Off, Definition 3(2); Dwork & Roth, Definition 2.4"

    def __init__(
        self,
        delta: float,
        variant: Variant = "pointwise",
        neighbours: Any = None,
        n_inputs: int | None = None,
    ) -> None:
        self.delta = as_delta(delta)
        if variant not in VARIANTS:
            raise MechDesignError(f"variant must be one of {VARIANTS}, got {variant!r}")
        self.variant = variant
        self._set_neighbours(neighbours, n_inputs)

    @property
    def label(self) -> str:
        return self._label(f"delta={self.delta:g}", self.variant)

    def _constraints(self, Q: cp.Expression, scaled: Any) -> list[cp.Constraint]:
        if self.variant == "hockey_stick":
            first, second = self.neighbours.ordered_pairs(Q.shape[0])
            if first.size == 0:  # a single input: no pair to constrain
                return []
            return [cp.sum(cp.pos(Q[first, :] - scaled * Q[second, :]), axis=1) <= self.delta]
        if self.neighbours.is_complete:
            column_min, constraints = column_min_variable(Q)
            return constraints + [Q <= scaled * column_min[None, :] + self.delta]
        first, second = self.neighbours.ordered_pairs(Q.shape[0])
        return [Q[first, :] <= scaled * Q[second, :] + self.delta]

    def relaxation(self, points: Sequence[np.ndarray], budget: float) -> LinearRelaxation:
        """The constraints themselves (an LP); the hockey-stick form with one hinge auxiliary per pair and output."""
        matrix = points[0]
        scale = math.exp(budget)
        if self.variant != "hockey_stick":
            return dp_rows(self.neighbours, matrix.shape, scale, self.delta)
        first, second = self.neighbours.ordered_pairs(matrix.shape[0])
        hinges = len(first) * matrix.shape[1]  # h[k, y] >= Q[first[k], y] − e^ε Q[second[k], y], h >= 0
        sums = sp.kron(sp.identity(len(first)), np.ones((1, matrix.shape[1])))  # Σ_y h[k, y] <= δ
        return LinearRelaxation(
            sp.csr_matrix(sp.vstack([pairwise_rows(matrix.shape, first, second, scale),
                                     sp.csr_matrix((len(first), matrix.size))])),
            sp.csr_matrix(sp.vstack([-sp.identity(hinges), sums])),
            np.concatenate([np.zeros(hinges), np.full(len(first), self.delta)]),
            np.zeros(hinges), np.ones(hinges))

    def _measure(self, matrix: np.ndarray) -> float:
        first, second = self.neighbours.ordered_pairs(matrix.shape[0])
        if self.variant == "hockey_stick":
            return max((hockey_stick_epsilon(matrix[i], matrix[j], self.delta) for i, j in zip(first, second)),
                       default=0.0)
        if self.neighbours.is_complete:
            numerator, denominator = matrix.max(axis=0), matrix.min(axis=0)
        else:
            numerator, denominator = matrix[first], matrix[second]
        return _pointwise_epsilon(numerator, denominator, self.delta)


def _pointwise_epsilon(numerator: np.ndarray, denominator: np.ndarray, delta: float) -> float:
    """Smallest ε ≥ 0 with ``numerator <= e^ε denominator + δ`` entrywise."""
    excess = numerator - delta
    binding = excess > 0
    if (denominator[binding] == 0).any():
        return np.inf
    if not binding.any():
        return 0.0
    return max(0.0, float(np.max(np.log(excess[binding] / denominator[binding]))))
