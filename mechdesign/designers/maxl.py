"""MaxL on histogram spaces too large to enumerate (Wang, Lin & Fanti, "Statistic Maximal Leakage", §VI-A).

MaxL (Wu et al., as run in §VI-A with the expected cost replaced by its worst case over priors) adds
candidate histograms greedily while the worst-case TV distortion ``max_θ min_{a ∈ A} D_TV(θ, a)``
strictly decreases, then releases each input's nearest chosen histogram. On a space enumerated
explicitly this is :func:`mechdesign.mechanisms.histogram.maxl_mechanism`; without enumerating the
inputs (Adult: ``τ`` = 32,561), the worst case is computed exactly as ``1 − V(A)/τ`` with
:func:`maxl_worst_overlap` — a closed form where it applies, certified lower bounds (an LP), and
otherwise a MILP (HiGHS) — on the candidates of :func:`mechdesign.mechanisms.histogram.maxl_candidates`:
:func:`maxl_released_histograms` runs the greedy and :func:`sample_maxl` releases one histogram (same
seed → same release as :func:`mechdesign.mechanisms.histogram.histogram_maxl`).
"""

from __future__ import annotations

import math
from typing import Any

import highspy
import numpy as np
from .._lazy import scipy_sparse as sparse

from .._lazy import LazyFunction
from .._validate import RandomState, as_histogram_counts, as_histogram_rows
from ..mechanisms.histogram import maxl_candidates
from ..solvers import quiet_highs, run_highs

linprog = LazyFunction("scipy.optimize", "linprog")


def maxl_worst_overlap(histograms: Any) -> int:
    """``V(A) = min_θ max_{a ∈ A} Σ_j min(τθ_j, a_j)`` over all histograms ``θ`` of precision ``τ``.

    MaxL's worst case over priors is ``max_θ min_{a ∈ A} D_TV(θ, a) = 1 − V(A)/τ`` (``D_TV = 1 − overlap/τ``).
    With ``m_j = max_a a_j`` and ``K = |A|``: a point mass on ``j`` gives ``m_j``, so ``V ≤ min_j m_j``; any
    ``θ`` with some ``τθ_j ≥ m_j`` has overlap ``≥ a_j`` with every ``a`` (``≥ min m``), and any other has
    ``Σ_a overlap ≥ Σ_j τθ_j = τ`` (each ``j`` is fully counted by an ``a`` with ``a_j > τθ_j``), so
    ``V ≥ min(min_j m_j, ⌈τ/K⌉)``. Hence ``V = min_j m_j`` whenever ``min_j m_j ≤ ⌈τ/K⌉`` — always when
    ``K² ≤ d``. Otherwise ``V = min_j m_j`` is certified by a stronger bound on the unsaturated ``θ``
    (:func:`_unsaturated_lower_bound`, ``O(K d + d log d)``), and failing that the unsaturated ``θ``
    (``τθ_j < m_j``) are searched exactly by a MILP (:func:`_unsaturated_overlap`; exponential worst case).

    Parameters
    ----------
    histograms
        ``(K, d)`` counts, every row with the same total ``τ``.

    Examples
    --------
    >>> maxl_worst_overlap(np.array([[6, 0, 0], [0, 6, 0], [0, 0, 6]]))  # θ = (2, 2, 2), not a point mass
    2
    """
    candidates = as_histogram_rows(histograms)
    return _worst_overlap(candidates, int(candidates[0].sum()))


def _worst_overlap(candidates: np.ndarray, tau: int) -> int:
    """:func:`maxl_worst_overlap` without checks."""
    ceiling = candidates.max(axis=0)
    point = int(ceiling.min())
    if (point <= -(-tau // candidates.shape[0])
            or _unsaturated_lower_bound(candidates, ceiling, tau) > point - 1 + BOUND_SLACK * tau
            or _chord_lower_bound(candidates, ceiling, tau) > point - 1 + BOUND_SLACK * tau):
        return point
    return min(point, _unsaturated_overlap(candidates, ceiling, tau))


#: Margin (times ``τ``) by which a float lower bound must exceed ``point − 1`` to certify ``V = point``
#: (guards round-off and the LP solver's tolerances, 1e-7).
BOUND_SLACK = 1e-6


def _chord_lower_bound(candidates: np.ndarray, ceiling: np.ndarray, tau: int) -> float:
    """The LP ``min_x max_a Σ_j ρ_{aj} x_j`` over real ``x`` with ``Σ x = τ``, ``0 ≤ x_j ≤ m_j − 1``.

    ``ρ_{aj} = min(m_j − 1, a_j)/(m_j − 1)``: the chord of the concave ``min(x_j, a_j)`` on ``[0, m_j − 1]``,
    so the LP bounds the unsaturated overlap from below, per candidate (stronger than
    :func:`_unsaturated_lower_bound`, which averages over candidates). ``τ`` if no such ``x`` exists.
    """
    used = np.flatnonzero(ceiling >= 2)
    cap = ceiling[used] - 1
    if cap.sum() < tau:
        return float(tau)
    rates = np.minimum(candidates[:, used], cap) / cap
    k, n = rates.shape
    result = linprog(np.r_[np.zeros(n), 1.0], A_ub=np.hstack([rates, -np.ones((k, 1))]), b_ub=np.zeros(k),
                     A_eq=np.r_[np.ones(n), 0.0][None, :], b_eq=[tau], bounds=np.c_[np.r_[np.zeros(n), 0.0],
                                                                                  np.r_[cap, tau]],
                     method="highs")
    return float(result.fun) if result.status == 0 else -math.inf


def _unsaturated_lower_bound(candidates: np.ndarray, ceiling: np.ndarray, tau: int) -> float:
    """A lower bound on ``max_a Σ_j min(x_j, a_j)`` over real ``x`` with ``Σ x = τ``, ``0 ≤ x_j ≤ m_j − 1``.

    ``max_a ≥ mean_a``, and ``mean_a min(x_j, a_j)`` is concave in ``x_j`` and 0 at 0, so it is at least
    ``ρ_j x_j`` (its chord) with ``ρ_j = mean_a min(m_j − 1, a_j) / (m_j − 1)``; the minimum of ``Σ ρ_j x_j``
    fills the cheapest categories first (fractional knapsack). ``τ`` if no such ``x`` exists.
    """
    used = np.flatnonzero(ceiling >= 2)
    cap = ceiling[used] - 1
    if cap.sum() < tau:
        return float(tau)
    rate = np.minimum(candidates[:, used], cap).mean(axis=0) / cap
    order = np.argsort(rate, kind="stable")
    filled = np.minimum(cap[order], np.maximum(tau - np.r_[0, np.cumsum(cap[order])[:-1]], 0))
    return float(rate[order] @ filled)


def _unsaturated_overlap(candidates: np.ndarray, ceiling: np.ndarray, tau: int) -> int:
    """``min max_a Σ_j min(x_j, a_j)`` over integer ``x`` with ``Σ x = τ``, ``0 ≤ x_j ≤ m_j − 1`` (MILP, HiGHS).

    ``min(x_j, a_j) = x_j − s_{aj}`` with ``s_{aj} ≤ (x_j − a_j)⁺`` enforced by a binary ``z_{aj}`` for the
    pairs with ``a_j < m_j − 1`` (the others never exceed ``a_j``). ``τ`` if infeasible (no such ``x``).
    """
    used = np.flatnonzero(ceiling >= 2)
    upper = ceiling[used] - 1
    if upper.sum() < tau:
        return tau
    rows, cols = np.nonzero(candidates[:, used] < upper[None, :])  # pairs (a, j) needing a binary
    n_x, n_p, k = used.size, rows.size, candidates.shape[0]
    gap = upper[cols] - candidates[rows, used[cols]]
    x, s, z, t = 0, n_x, n_x + n_p, n_x + 2 * n_p
    pairs = np.arange(n_p)
    blocks = [
        (np.zeros(n_x, dtype=int), x + np.arange(n_x), np.ones(n_x)),                       # Σ x = τ
        (1 + np.repeat(np.arange(k), n_x), x + np.tile(np.arange(n_x), k), np.ones(k * n_x)),  # overlap_a − t ≤ 0
        (1 + rows, s + pairs, -np.ones(n_p)),
        (1 + np.arange(k), np.full(k, t), -np.ones(k)),
        (1 + k + pairs, s + pairs, np.ones(n_p)),                                            # s − x + a z ≤ 0
        (1 + k + pairs, x + cols, -np.ones(n_p)),
        (1 + k + pairs, z + pairs, candidates[rows, used[cols]].astype(float)),
        (1 + k + n_p + pairs, s + pairs, np.ones(n_p)),                                      # s − gap z ≤ 0
        (1 + k + n_p + pairs, z + pairs, -gap.astype(float)),
    ]
    r, c, v = (np.concatenate(parts) for parts in zip(*blocks))
    matrix = sparse.csr_array((v, (r, c)), shape=(1 + k + 2 * n_p, t + 1))
    inf = highspy.kHighsInf
    h = quiet_highs({"mip_rel_gap": 0.0, "mip_abs_gap": 0.5})  # the optimum is an integer
    empty = np.array([], dtype=np.int32)
    h.addCols(t + 1, np.r_[np.zeros(t), 1.0], np.zeros(t + 1), np.r_[upper, gap, np.ones(n_p), tau].astype(float),
              0, empty, empty, np.array([]))
    h.addRows(matrix.shape[0], np.r_[tau, np.full(k + 2 * n_p, -inf)], np.r_[tau, np.zeros(k + 2 * n_p)],
              matrix.nnz, matrix.indptr[:-1].astype(np.int32), matrix.indices.astype(np.int32), matrix.data)
    integer = np.r_[x + np.arange(n_x), z + pairs].astype(np.int32)
    h.changeColsIntegrality(integer.size, integer, np.array([highspy.HighsVarType.kInteger] * integer.size))
    outcome = run_highs(h)
    if not outcome.solved:
        raise RuntimeError(f"MaxL worst-case MILP: {outcome.note}")
    # Re-evaluate the optimal point in integers rather than trusting the solver's objective.
    point = np.zeros(candidates.shape[1], dtype=np.int64)
    point[used] = np.rint(np.asarray(h.getSolution().col_value[:n_x])).astype(np.int64)
    return int(np.minimum(point, candidates).sum(axis=1).max())


def maxl_released_histograms(tau: int, d: int, category: int, interval: int, rng: RandomState = None) -> np.ndarray:
    """The histograms ``A`` MaxL (SML paper, §VI-A) releases, in the greedy's order, without enumerating inputs.

    Same greedy as :func:`maxl_mechanism` on :func:`maxl_candidates`: add the candidate maximizing
    :func:`maxl_worst_overlap` of ``A ∪ {a'}`` (the first on ties) while it strictly increases.
    Cost per greedy step: ``O(bins · d)`` for the bounds ``min_j max(m_j, a'_j)``, plus a MILP only for
    candidates that could still win and where ``min_j m_j > ⌈τ/K⌉`` (needs ``K² > d``).

    Examples
    --------
    >>> maxl_released_histograms(6, 3, 0, 2, rng=0).tolist()
    [[1, 3, 2], [2, 1, 3], [4, 0, 2]]
    """
    drawn = maxl_candidates(tau, d, category, interval, rng)
    total = int(tau)
    chosen: list[int] = []
    ceiling = np.zeros(d, dtype=np.int64)
    value = -1
    while len(chosen) < drawn.shape[0]:
        remaining = [i for i in range(drawn.shape[0]) if i not in chosen]
        points = np.maximum(drawn[remaining], ceiling).min(axis=1)
        bound = -(-total // (len(chosen) + 1))  # V(A ∪ {a'}) = point when point ≤ ⌈τ/K⌉
        best, best_value = -1, -1
        for position, point in zip(remaining, points.tolist()):
            if point <= best_value:
                continue  # V(A ∪ {a'}) ≤ point cannot beat an earlier candidate
            candidate_value = point if point <= bound else _worst_overlap(drawn[chosen + [position]], total)
            if candidate_value > best_value:
                best, best_value = position, candidate_value
        if chosen and best_value <= value:
            break
        chosen.append(best)
        ceiling = np.maximum(ceiling, drawn[best])
        value = best_value
    return drawn[chosen]


def sample_maxl(counts: Any, category: int, interval: int, rng: RandomState = None) -> np.ndarray:
    """MaxL's release (SML paper, §VI-A) of the histogram ``counts``: its nearest (TV) element of
    :func:`maxl_released_histograms` (the first in greedy order on ties), as :func:`histogram_maxl` does.

    Parameters
    ----------
    counts
        The input histogram as integer counts (``τ = Σ counts``, ``d = len(counts)``).
    category, interval
        The secret category and the bin width ``I`` of MaxL's candidate set.
    rng
        Seed or Generator for the candidate draw; the same seed gives the same mechanism for every input.
        For many inputs, call :func:`maxl_released_histograms` once and take each input's largest overlap
        ``np.minimum(released, counts).sum(axis=1)`` (first on ties).

    Examples
    --------
    >>> sample_maxl([3, 2, 1], 0, 2, rng=0).tolist()  # overlap 4 with all three: the first on ties
    [1, 3, 2]
    """
    data = as_histogram_counts(counts)
    released = maxl_released_histograms(int(data.sum()), data.size, category, interval, rng)
    return released[int(np.argmax(np.minimum(released, data).sum(axis=1)))].copy()
