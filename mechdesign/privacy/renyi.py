"""Rényi differential privacy of order α > 1 on a neighbour relation.

Zhong & Bu, "Privacy-Utility Trade-Off", Definition 3(5) (Mironov 2017): ``Q`` is ε-Rényi DP if
``D_α(Q[x, :] ‖ Q[x', :]) <= ε`` for all neighbouring inputs ``x, x'``, where
``D_α(p ‖ q) = log(Σ_y p_y^α q_y^{1−α}) / (α − 1)``.

The constraints are linear in ``e^{(α−1)ε}``: ``Σ_y Q[x, y]^α Q[x', y]^{1−α} <= e^{(α−1)ε}``, each
term the epigraph of a power cone (``T >= a^α b^{1−α}`` ⇔ ``T^{1/α} b^{1−1/α} >= a``); for α = 2 the
terms are quadratic-over-linear, ``T b >= a²``, written as rotated second-order cones.

The certificate (:meth:`RenyiDifferentialPrivacy.relaxation`, :meth:`~RenyiDifferentialPrivacy.column_terms`)
works with the same budget divided by its right-hand side, ``Σ_y Q[x, y]^α (e^ε Q[x', y])^{1−α} <= 1``:
every term in ``[0, 1]`` and coefficients of the scale of ε-DP's ``e^ε`` rather than ``e^{(α−1)ε}``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from .._lazy import cvxpy as cp
import numpy as np
import scipy.sparse as sp

from .._validate import as_order
from .._numeric import exp_budget
from ..relaxation import LinearRelaxation
from .base import PrivacyNotion
from .epigraph import Epigraph
from .neighbours import OnNeighbours


#: Tangent planes of ``a^α b^{1−α}`` at fixed ratios ``a/b`` (besides the linearization points' own):
#: this many, geometrically spaced from 1e-6 up to where a coefficient ``(α − 1) r^α`` reaches
#: :data:`LARGEST_TANGENT_COEFFICIENT` (larger ones make the certificate LP ill-conditioned).
TANGENT_RATIO_COUNT = 13
LARGEST_TANGENT_COEFFICIENT = 1e8


def renyi_power_sums(first: np.ndarray, second: np.ndarray, alpha: float) -> np.ndarray:
    """``Σ_y p_y^α q_y^{1−α}`` for each row pair ``(p, q)`` of ``first``, ``second`` (``0·∞ = 0``; ``p > 0 = q`` → ∞)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(first > 0, first**alpha * second ** (1.0 - alpha), 0.0)
    return terms.sum(axis=-1)


def renyi_divergence(p: Any, q: Any, alpha: float) -> float:
    """Rényi divergence ``D_α(p ‖ q)`` of order α > 1 in nats (``inf`` unless ``supp p ⊆ supp q``)."""
    order = as_order(alpha)
    total = float(renyi_power_sums(np.asarray(p, dtype=float), np.asarray(q, dtype=float), order))
    return max(0.0, math.log(total) / (order - 1.0)) if math.isfinite(total) else math.inf


class RenyiDifferentialPrivacy(OnNeighbours, PrivacyNotion):
    """ε-Rényi differential privacy of order α (PUT paper, Definition 3(5)); local by default.

    Parameters
    ----------
    alpha
        The order, a finite number > 1.
    neighbours, n_inputs
        As for :class:`~mechdesign.privacy.dp.DifferentialPrivacy` (``None``: every pair of inputs).

    Notes
    -----
    The budget enters the constraints as ``e^{(α−1)ε}`` (:meth:`scaled_budget`). One power cone per
    ordered neighbour pair and output (a rotated second-order cone for α = 2).

    Examples
    --------
    >>> from mechdesign import randomized_response
    >>> mechanism = randomized_response(3, 1.0)  # 1-LDP on 3 symbols
    >>> round(RenyiDifferentialPrivacy(2.0).measure(mechanism), 6)  # order α = 2
    0.618401
    """

    name = "renyi_dp"
    reference = "Zhong & Bu, Privacy-Utility Trade-Off, Definition 3(5); Mironov 2017, Definition 4"
    is_linear = False

    def __init__(self, alpha: float, neighbours: Any = None, n_inputs: int | None = None) -> None:
        self.alpha = as_order(alpha)
        self._set_neighbours(neighbours, n_inputs)

    @property
    def label(self) -> str:
        return self._label(f"alpha={self.alpha:g}")

    def scaled_budget(self, budget: float) -> float:
        """``e^{(α−1)ε}``, the bound on every ``Σ_y Q[x, y]^α Q[x', y]^{1−α}``."""
        return exp_budget((self.alpha - 1.0) * budget)

    def budget_from_scaled(self, value: float) -> float:
        """Inverse of :meth:`scaled_budget`: ``max(0, log(value) / (α−1))``, and 0 for ``value <= 0``."""
        return max(0.0, math.log(value) / (self.alpha - 1.0)) if value > 0 else 0.0

    def epigraph(self, Q: cp.Expression) -> Epigraph:
        """``max_{x~x'} Σ_y Q[x, y]^α Q[x', y]^{1−α}`` as an :class:`~mechdesign.privacy.epigraph.Epigraph`."""
        first, second = self.neighbours.ordered_pairs(Q.shape[0])
        if first.size == 0:  # a single input: no pair, the power sum of a row with itself is 1
            return Epigraph(cp.Constant(1.0), [])
        terms = cp.Variable((len(first), Q.shape[1]), nonneg=True)  # terms >= Q[x]^α Q[x']^{1−α}
        numerators, denominators = Q[first, :], Q[second, :]
        if self.alpha == 2.0:  # terms · Q[x'] >= Q[x]²: rotated second-order cones, one per entry
            t, a, b = (cp.vec(e, order="C") for e in (terms, numerators, denominators))
            cone = cp.SOC(t + b, cp.vstack([2 * a, t - b]), axis=0)
        else:
            cone = cp.PowCone3D(terms, denominators, numerators, 1.0 / self.alpha)
        return Epigraph(cp.max(cp.sum(terms, axis=1)), [cone])

    def leakage_expression(self, Q: cp.Expression) -> cp.Expression:
        """``max_{x~x'} Σ_y Q[x, y]^α Q[x', y]^{1−α}`` (at most ``e^{(α−1)ε}``)."""
        return self.epigraph(Q).minimized(Q)

    def _constraints(self, Q: cp.Expression, scaled: Any) -> list[cp.Constraint]:
        return self.epigraph(Q).at_most(scaled)

    def relaxation(self, points: Sequence[np.ndarray], budget: float) -> LinearRelaxation:
        """Tangent planes, entry by entry, of the normalized budget (module docstring): ``φ(a, c) = a^α c^{1−α}``
        is convex and 1-homogeneous, so ``φ(a, c) >= α r^{α−1} a + (1−α) r^α c`` for every ratio ``r > 0`` and
        all ``a, b >= 0`` (equality where ``a/c = r``), here with ``c = e^ε b``. Each ordered neighbour pair
        ``k`` and output ``y`` gets an auxiliary ``n[k, y] ∈ [0, 1]`` above the tangents at every point's own
        ratio ``Q̃[x, y] / (e^ε Q̃[x', y])`` and, once there is more than one point (a refinement), at a grid of
        ratios (:data:`TANGENT_RATIO_COUNT`); and ``Σ_y n[k, y] <= 1``."""
        first, second = self.neighbours.ordered_pairs(points[0].shape[0])
        n_pairs, m = len(first), points[0].shape[1]
        scale = exp_budget(budget)
        largest = (LARGEST_TANGENT_COEFFICIENT / (self.alpha - 1.0)) ** (1.0 / self.alpha)
        grid = np.geomspace(1e-6, largest, TANGENT_RATIO_COUNT)
        # Any ratio gives a valid tangent: the points' own are clipped into the grid's well-conditioned range.
        own = [np.clip(p[first] / (scale * p[second]), grid[0], largest) for p in points]
        # One point (the first relaxation) gets its own tangents only; refinements add the grid.
        ratios = own if len(points) == 1 else [np.full((n_pairs, m), r) for r in grid] + own
        numerators = np.repeat(first, m) * m + np.tile(np.arange(m), n_pairs)
        denominators = np.repeat(second, m) * m + np.tile(np.arange(m), n_pairs)
        entries, entry = n_pairs * m, np.arange(n_pairs * m)
        blocks_q, blocks_aux = [], []
        for ratio in ratios:
            on_numerator, on_denominator = self._tangent(ratio, scale)
            blocks_q.append(sp.csr_matrix(
                (np.concatenate([on_numerator.ravel(), on_denominator.ravel()]),
                 (np.concatenate([entry, entry]), np.concatenate([numerators, denominators]))),
                shape=(entries, points[0].size)))
            blocks_aux.append(-sp.identity(entries, format="csr"))
        blocks_q.append(sp.csr_matrix((n_pairs, points[0].size)))
        blocks_aux.append(sp.csr_matrix(sp.kron(sp.identity(n_pairs), np.ones((1, m)))))
        return LinearRelaxation(sp.csr_matrix(sp.vstack(blocks_q)), sp.csr_matrix(sp.vstack(blocks_aux)),
                                np.concatenate([np.zeros(entries * len(ratios)), np.ones(n_pairs)]),
                                np.zeros(entries), np.ones(entries))

    def _tangent(self, ratio: np.ndarray, scale: float) -> tuple[np.ndarray, np.ndarray]:
        """The gradient of ``a^α (scale · b)^{1−α}`` with respect to ``(a, b)`` where ``a / (scale · b) = ratio``."""
        return self.alpha * ratio ** (self.alpha - 1.0), (1.0 - self.alpha) * scale * ratio**self.alpha

    def column_terms(self, columns: np.ndarray, budget: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The budget as sums over outputs of convex, 1-homogeneous column terms (module docstring): for
        each ordered neighbour pair ``k = (x, x')``, ``φ_k(v) = v_x^α (e^ε v_{x'})^{1−α}`` and
        ``Σ_y φ_k(Q[:, y]) <= 1``.

        Parameters
        ----------
        columns
            ``(n, j)`` columns with positive entries.
        budget
            ε in nats.

        Returns
        -------
        (values, gradients, rhs)
            ``φ_k`` at each column ``(K, j)``, its gradients ``(K, n, j)`` and the right-hand sides ``(K,)``.

        Examples
        --------
        >>> import numpy as np
        >>> values, gradients, rhs = RenyiDifferentialPrivacy(2.0).column_terms(np.array([[0.5], [0.25]]), 0.0)
        >>> values.ravel().tolist(), rhs.tolist()  # 0.5²/0.25 and 0.25²/0.5
        ([1.0, 0.125], [1.0, 1.0])
        """
        first, second = self.neighbours.ordered_pairs(columns.shape[0])
        scale = exp_budget(budget)
        ratio = columns[first] / (scale * columns[second])
        on_numerator, on_denominator = self._tangent(ratio, scale)
        gradients = np.zeros((len(first), *columns.shape))
        pairs = np.arange(len(first))
        gradients[pairs, first] = on_numerator
        gradients[pairs, second] = on_denominator
        return columns[first] * ratio ** (self.alpha - 1.0), gradients, np.ones(len(first))

    def _measure(self, matrix: np.ndarray) -> float:
        first, second = self.neighbours.ordered_pairs(matrix.shape[0])
        largest = float(renyi_power_sums(matrix[first], matrix[second], self.alpha).max(initial=1.0))
        return max(0.0, math.log(largest) / (self.alpha - 1.0)) if math.isfinite(largest) else math.inf
