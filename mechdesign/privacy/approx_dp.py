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

from .._validate import as_choice, as_delta
from ..relaxation import LinearRelaxation, pairwise_rows
from .base import PrivacyNotion
from .dp import column_min_variable, dp_rows
from .neighbours import OnNeighbours

Variant = Literal["pointwise", "hockey_stick"]
VARIANTS: tuple[str, ...] = ("pointwise", "hockey_stick")


#: Largest number of ordered pairs × outputs held in memory at once by the pairwise computations below.
PAIR_BLOCK_ENTRIES = 2_000_000
#: Pairs whose exact ε :func:`largest_pair_epsilon` computes first, to rule out the others by one divergence.
SEED_PAIRS = 64


def _pair_blocks(n_pairs: int, n_outputs: int) -> list[slice]:
    """Consecutive blocks of pairs, each of at most :data:`PAIR_BLOCK_ENTRIES` pairs × outputs."""
    block = max(1, PAIR_BLOCK_ENTRIES // max(1, n_outputs))
    return [slice(start, start + block) for start in range(0, n_pairs, block)]


def pair_divergences(matrix: np.ndarray, first: np.ndarray, second: np.ndarray, scale: float) -> np.ndarray:
    """``Σ_y max(0, Q[first[k], y] − scale · Q[second[k], y])`` for every pair ``k``, in blocks.

    The hockey-stick divergences ``E_scale(Q[first[k]] ‖ Q[second[k]])`` (Dwork & Roth, Definition 2.4).

    Examples
    --------
    >>> Q = np.array([[0.75, 0.25], [0.25, 0.75]])
    >>> pair_divergences(Q, np.array([0, 1]), np.array([1, 0]), 1.0)
    array([0.5, 0.5])
    """
    divergences = np.empty(first.size)
    for block in _pair_blocks(first.size, matrix.shape[1]):
        excess = matrix[first[block]] - scale * matrix[second[block]]
        divergences[block] = np.maximum(excess, 0.0).sum(axis=1)
    return divergences


def pair_epsilons(matrix: np.ndarray, first: np.ndarray, second: np.ndarray, delta: float) -> np.ndarray:
    """Smallest ε ≥ 0 with ``Σ_y max(0, Q[i, y] − e^ε Q[j, y]) <= δ`` for every pair ``(first[k], second[k])``.

    Exact (``inf`` where no ε suffices), vectorized over the pairs in blocks. For one pair
    ``f(γ) = Σ_y max(0, p_y − γ q_y)`` is convex, piecewise linear and non-increasing in γ, with
    breakpoints at the ratios ``p_y / q_y``: with the ratios sorted in decreasing order, on the piece
    below the ``k``-th ratio ``f(γ) = P_k + p(q = 0) − γ Q_k`` (``P_k``, ``Q_k`` the cumulative sums),
    and the root of ``f(γ) = δ`` is that of the first piece whose root lies above the next ratio.

    Examples
    --------
    >>> Q = np.array([[0.75, 0.25], [0.25, 0.75]])
    >>> np.round(pair_epsilons(Q, np.array([0, 1]), np.array([1, 0]), 0.1), 6)  # 0.75 − 0.25 γ = 0.1: log 2.6
    array([0.955511, 0.955511])
    """
    epsilons = np.zeros(first.size)
    unmet = np.flatnonzero(pair_divergences(matrix, first, second, 1.0) > delta)  # ε = 0 is enough elsewhere
    for block in _pair_blocks(unmet.size, matrix.shape[1]):
        pairs = unmet[block]
        epsilons[pairs] = _unmet_pair_epsilons(matrix[first[pairs]], matrix[second[pairs]], delta)
    return epsilons


def largest_pair_epsilon(matrix: np.ndarray, first: np.ndarray, second: np.ndarray, delta: float) -> float:
    """``max_k`` of :func:`pair_epsilons` (0 without pairs), computing the exact ε only where it can be the largest.

    A pair's ε exceeds a value ``e`` exactly when its divergence at ``e^e`` exceeds δ (the divergence is
    non-increasing in ``e``); so after the exact ε of the :data:`SEED_PAIRS` pairs most above δ at
    ``e^0`` only the pairs still above δ at their largest ε are solved exactly.

    Examples
    --------
    >>> Q = np.array([[0.75, 0.25], [0.25, 0.75]])
    >>> round(largest_pair_epsilon(Q, np.array([0, 1]), np.array([1, 0]), 0.1), 6)
    0.955511
    """
    at_one = pair_divergences(matrix, first, second, 1.0)
    unmet = np.flatnonzero(at_one > delta)
    seed = unmet[np.argsort(-at_one[unmet])[:SEED_PAIRS]]
    largest = float(pair_epsilons(matrix, first[seed], second[seed], delta).max(initial=0.0))
    if math.isinf(largest):
        return largest
    rest = unmet[pair_divergences(matrix, first[unmet], second[unmet], math.exp(largest)) > delta]
    return max(largest, float(pair_epsilons(matrix, first[rest], second[rest], delta).max(initial=0.0)))


def _unmet_pair_epsilons(p: np.ndarray, q: np.ndarray, delta: float) -> np.ndarray:
    """:func:`pair_epsilons` for rows ``p[k]``, ``q[k]`` with ``f(1) > δ`` (so every root is above 1)."""
    mass_without_q = np.where(q == 0, p, 0.0).sum(axis=1)
    positive = (p > 0) & (q > 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratios = np.where(positive, p / q, -1.0)  # the others sort last and add nothing below
    order = np.argsort(-ratios, axis=1)
    ratios = np.take_along_axis(ratios, order, axis=1)
    cum_p = np.cumsum(np.take_along_axis(np.where(positive, p, 0.0), order, axis=1), axis=1)
    cum_q = np.cumsum(np.take_along_axis(np.where(positive, q, 0.0), order, axis=1), axis=1)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        gammas = (cum_p + mass_without_q[:, None] - delta) / cum_q
    lower = np.maximum(np.concatenate([ratios[:, 1:], np.full((p.shape[0], 1), -1.0)], axis=1), 0.0)
    valid = (ratios > 0) & (gammas >= lower)  # the last positive ratio's piece always holds the root
    reachable = mass_without_q <= delta
    gamma = np.take_along_axis(gammas, valid.argmax(axis=1)[:, None], axis=1)[:, 0]
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(reachable, np.maximum(0.0, np.log(np.where(reachable, gamma, 1.0))), np.inf)


def hockey_stick_epsilon(p: np.ndarray, q: np.ndarray, delta: float) -> float:
    """Smallest ε ≥ 0 with ``Σ_y max(0, p_y − e^ε q_y) <= δ`` (exact; ``inf`` if none): :func:`pair_epsilons`
    for one pair.

    Examples
    --------
    >>> round(hockey_stick_epsilon(np.array([0.75, 0.25]), np.array([0.25, 0.75]), 0.1), 6)  # log 2.6
    0.955511
    """
    return float(pair_epsilons(np.vstack([p, q]), np.array([0]), np.array([1]), delta)[0])


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
    cli_name = "approx-dp"
    cli_parameters = ("delta", "variant")
    reference = "Zhong & Bu, Privacy-Utility Trade-Off, Definition 3(2); Dwork & Roth, Definition 2.4"

    def __init__(
        self,
        delta: float,
        variant: Variant = "pointwise",
        neighbours: Any = None,
        n_inputs: int | None = None,
    ) -> None:
        self.delta = as_delta(delta)
        self.variant = as_choice(variant, VARIANTS, "variant")
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
            return largest_pair_epsilon(matrix, first, second, self.delta)
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
