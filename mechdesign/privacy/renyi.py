"""Rényi differential privacy of order α > 1 on a neighbour relation.

Zhong & Bu, "Privacy-Utility Trade-Off", Definition 3(5) (Mironov 2017): ``Q`` is ε-Rényi DP if
``D_α(Q[x, :] ‖ Q[x', :]) <= ε`` for all neighbouring inputs ``x, x'``, where
``D_α(p ‖ q) = log(Σ_y p_y^α q_y^{1−α}) / (α − 1)``.

The budget is ``Σ_y Q[x, y]^α Q[x', y]^{1−α} <= e^{(α−1)ε}``. The constraints divide it by its right-hand
side, which is the same as scaling the second row by ``e^ε``: ``Σ_y Q[x, y]^α (e^ε Q[x', y])^{1−α} <= 1``,
each term the epigraph of a power cone (``t >= a^α c^{1−α}`` ⇔ ``t^{1/α} c^{1−1/α} >= a`` with
``c = e^ε b``); for α = 2 the terms are quadratic-over-linear, ``t c >= a²``, written as rotated
second-order cones. Every term then lies in ``[0, 1]`` and the budget enters as ``e^ε`` — the scale of
ε-DP's ``a <= e^ε b`` — instead of ``e^{(α−1)ε}`` (which at α = 4, ε = 4 is 1.6e5 and left Clarabel's
points inaccurate: designs at large budgets ended "suboptimal"; benchmarks/RESULTS.md, "Rényi DP"). The
certificate (:meth:`RenyiDifferentialPrivacy.relaxation`, :meth:`~RenyiDifferentialPrivacy.column_terms`)
linearizes the same form.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from .._lazy import LazyFunction
from .._lazy import cvxpy as cp
import numpy as np
from .._lazy import scipy_sparse as sp

from .._validate import as_order, as_real_vector, check_count
from ..relaxation import LinearRelaxation
from ..result import gap_tolerance
from .base import PrivacyNotion
from .column_dual import ColumnSums, column_dual_bound, fitted_start, lagrangian_bound
from .dp import dp_rows
from .epigraph import Epigraph
from .neighbours import OnNeighbours


#: Tangent planes of ``a^α b^{1−α}`` at fixed ratios ``a/b`` (besides the linearization points' own): this many,
#: geometrically spaced over the first point's ratios widened by :data:`GRID_MARGIN` on both sides, within
#: [:data:`SMALLEST_TANGENT_RATIO`, the ratio where a coefficient ``(α − 1) r^α`` reaches
#: :data:`LARGEST_TANGENT_COEFFICIENT`] (beyond, the certificate LP is ill-conditioned). Every point's own ratios
#: are clipped into the same range. The grid is left out where it would add more than :data:`GRID_ROWS` rows: then
#: it never certified (PUT global framework near ε = 0: {1,2}^4 at ε = 7e-11, gap 5.4e-5 after 65 s of HiGHS on
#: its degenerate LP, against 1.9e-4 in 2.2 s without), and the designs it used to certify are now certified by
#: the notion's own dual (mechdesign/privacy/column_dual.py) or by the first LP at the dual-guided point.
TANGENT_RATIO_COUNT = 13
LARGEST_TANGENT_COEFFICIENT = 1e8
SMALLEST_TANGENT_RATIO = 1e-6
GRID_MARGIN = 10.0
GRID_ROWS = 4000

#: Guesses of the active pairs from a conic solver's multipliers (:meth:`RenyiDifferentialPrivacy.multiplier_dual_bound`
#: and pair generation's certificate, mechdesign/methods/renyi_pairs.py), tried in turn: the pairs whose multiplier
#: exceeds each of these times their slack ``1 − Σ_y φ`` at its point. Along the central path the product of the two
#: is the same for every pair, so the ratio separates active from inactive pairs by its square — where the solver got
#: far enough: random costs, n = 12, active above 2e-2 and inactive below 5e-6, but at n = 20 a continuum (pairs with
#: slacks 5e-5 … 2e-6 and ratios 3e-3 … 2), where the first guess drew an inactive pair in (its multiplier came out
#: negative, the bound 3e-4 short).
ACTIVE_DUAL_RATIOS = (1e-3, 1e-1, 1.0, 1e1)

linprog = LazyFunction("scipy.optimize", "linprog")
connected_components = LazyFunction("scipy.sparse.csgraph", "connected_components")


def renyi_log_power_sums(first: np.ndarray, second: np.ndarray, alpha: float) -> np.ndarray:
    """``log Σ_y p_y^α q_y^{1−α}`` for each row pair ``(p, q)`` of ``first``, ``second`` (``0·∞ = 0``;
    ``p > 0 = q`` → ∞), summed in log space: a ``q_y`` of 1e-120 at α = 4 makes a term of 1e360, beyond
    the float range, whose logarithm (≈ 829) is still an exact, finite leakage.

    Examples
    --------
    >>> round(float(renyi_log_power_sums(np.array([0.5, 0.5]), np.array([0.25, 0.75]), 2.0)), 12)  # log(4/3)
    0.287682072452
    >>> round(float(renyi_log_power_sums(np.array([1.0, 1e-120]), np.array([1e-120, 1.0]), 4.0)), 6)  # 360 log 10
    828.930633
    """
    with np.errstate(divide="ignore", invalid="ignore"):
        exponents = np.where(first > 0, alpha * np.log(first) + (1.0 - alpha) * np.log(second), -np.inf)
    largest = exponents.max(axis=-1, initial=-np.inf)
    finite = np.isfinite(largest)
    shift = np.where(finite, largest, 0.0)
    with np.errstate(invalid="ignore"):
        sums = np.log(np.exp(exponents - np.expand_dims(shift, -1)).sum(axis=-1)) + shift
    return np.where(finite, sums, largest)


def renyi_divergence(p: Any, q: Any, alpha: float) -> float:
    """Rényi divergence ``D_α(p ‖ q)`` of order α > 1 in nats (``inf`` unless ``supp p ⊆ supp q``).

    Examples
    --------
    >>> math.isclose(renyi_divergence([0.5, 0.5], [0.25, 0.75], 2.0), math.log(4 / 3))  # log(½²/¼ + ½²/¾)
    True
    >>> renyi_divergence([1.0, 0.0], [0.0, 1.0], 2.0)  # supp p ⊄ supp q
    inf
    """
    order = as_order(alpha)
    first, second = as_real_vector(p, "p"), as_real_vector(q, "q")
    check_count(second.size, first.size, "q")
    log_total = float(renyi_log_power_sums(first, second, order))
    return max(0.0, log_total / (order - 1.0))


#: Bisection-safeguarded Newton steps of :func:`least_chain_step` at most (a step that leaves the bracket halves it).
CHAIN_STEP_ITERATIONS = 100
#: :func:`least_chain_step` stops once its bracket of the minimizer is this narrow in ``log t``: the lower bound it
#: returns is then below the minimum by about ``f'' t² (e^w − 1)²``, far below round-off.
CHAIN_BRACKET = 1e-9
#: Shifts tried by :func:`path_column_floors` at most, and the factor between consecutive failed ones.
CHAIN_SHIFT_ITERATIONS = 60
CHAIN_SHIFT_FACTOR = 4.0
#: :func:`path_column_floors` stops once the proved and the failed shift are this close (relative, plus 100 steps).
CHAIN_SHIFT_RTOL = 1e-3
#: Smallest multiplier of a pair on a path in :func:`path_dual_bound`, relative to the largest cost: every term then
#: couples its neighbours (a pair without a multiplier would let a column vanish on one side of it, a face the chain's
#: minima do not see); raising a multiplier raises every column's term, so the bound pays only ``Σ floor · rhs``.
PATH_MULTIPLIER_FLOOR = 1e-14
#: Rounds of the box step in :meth:`RenyiDifferentialPrivacy.path_dual_bound` at most, and its first box's
#: half-width relative to the largest cost (the multipliers fitted at a conic solver's point are about that close to
#: optimal: path of 30 inputs, ε = 0.1, gap 2.4e-6 at the fitted point, 6e-8 after one round in a box of 2e-6, worse
#: in one of 1e-5). The rounds stop once the bound is within a tenth of the certified gap of the design's value.
PATH_BOX_ROUNDS = 4
PATH_BOX_START = 2e-6
#: Newton's estimate of a column's least term is lowered by this, relative to the largest cost, before it is proved
#: (:func:`path_column_floors`): the estimate is exact to about round-off, and a shift above the least term fails.
PATH_SHIFT_STEP = 1e-14


def least_chain_step(linear: np.ndarray, first: np.ndarray, second: np.ndarray, alpha: float
                     ) -> tuple[np.ndarray, np.ndarray]:
    """``min_{t > 0} f(t)``, ``f(t) = linear t + first t^α + second t^{1−α}`` (``first, second > 0``; entrywise):
    the minimizer ``t`` and a lower bound of the minimum.

    ``f`` is convex; ``f'`` is increasing in ``u = log t`` from ``−∞`` to ``∞``, so its root is bracketed (in
    closed form) and found by Newton's method in ``u`` safeguarded by bisection, to a bracket ``[t₁, t₂]`` of width :data:`CHAIN_BRACKET`
    in ``u``. The minimum lies in ``[t₁, t₂]`` (``f' <= 0`` at ``t₁``, ``>= 0`` at ``t₂``), where ``f`` is above each
    endpoint's tangent: the larger of ``f(t_i) − |f'(t_i)| (t₂ − t₁)`` is a lower bound (numpy, no tolerance).

    Examples
    --------
    ``−t + t² + 1/t`` (α = 2): the root of ``−1 + 2t − 1/t² = 0`` is ``t = 1``, the minimum 1.

    >>> t, lower = least_chain_step(np.array([-1.0]), np.array([1.0]), np.array([1.0]), 2.0)
    >>> bool(abs(t[0] - 1.0) < 1e-9), bool(1.0 - 1e-12 < lower[0] <= 1.0)
    (True, True)
    """
    b, A, B = np.broadcast_arrays(*(np.asarray(x, dtype=float) for x in (linear, first, second)))
    # Beyond this the terms overflow (a least left part far right of its column's peak): no bound there.
    b = np.where(np.abs(b) <= 1e200, b, -np.inf)

    def slope(u: np.ndarray) -> np.ndarray:  # f'(e^u), increasing in u
        return b + alpha * A * np.exp((alpha - 1.0) * u) - (alpha - 1.0) * B * np.exp(-alpha * u)

    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        # Where the two power terms' slopes are equal: δ = log 2 / (2α − 1) to its right the first is twice the
        # second, so f' >= 0 once that term is also >= −2 linear; likewise to its left (no search for a bracket).
        middle = np.log((alpha - 1.0) * B / (alpha * A)) / (2.0 * alpha - 1.0)
        margin = math.log(2.0) / (2.0 * alpha - 1.0)
        tiny = np.finfo(float).tiny
        high = np.maximum(middle + margin, np.log(np.maximum(-2.0 * b, tiny) / (alpha * A)) / (alpha - 1.0))
        low = np.minimum(middle - margin, -np.log(np.maximum(2.0 * b, tiny) / ((alpha - 1.0) * B)) / alpha)
        # Newton's start: where the power term that dominates on the root's side of ``middle`` cancels ``linear``.
        right_side = slope(middle) < 0
        guess = np.where(right_side, np.log(np.abs(b) / (alpha * A)) / (alpha - 1.0),
                         -np.log(np.abs(b) / ((alpha - 1.0) * B)) / alpha)
        guess = np.where(right_side, np.maximum(guess, middle), np.minimum(guess, middle))
        u = np.where((guess > low) & (guess < high) & np.isfinite(guess), guess, 0.5 * (low + high))
        for _ in range(CHAIN_STEP_ITERATIONS):
            value = slope(u)
            low, high = np.where(value <= 0, u, low), np.where(value >= 0, u, high)
            curvature = alpha * (alpha - 1.0) * (A * np.exp((alpha - 1.0) * u) + B * np.exp(-alpha * u))
            step = u - value / curvature
            following = np.where((step >= low) & (step <= high) & np.isfinite(step), step, 0.5 * (low + high))
            moved = np.abs(following - u)
            u = following
            if np.all((moved <= 0.25 * CHAIN_BRACKET) | (high - low <= CHAIN_BRACKET) | ~np.isfinite(moved)):
                break
        # A bracket of width CHAIN_BRACKET around Newton's root (the bisection's where f' has the wrong sign there).
        low_probe, high_probe = u - 0.5 * CHAIN_BRACKET, u + 0.5 * CHAIN_BRACKET
        low = np.where(slope(low_probe) <= 0, low_probe, low)
        high = np.where(slope(high_probe) >= 0, high_probe, high)
        t1, t2 = np.exp(low), np.exp(high)
        values = [b * t + A * t**alpha + B * t ** (1.0 - alpha) for t in (t1, t2)]
        slopes = [slope(low), slope(high)]
        lower = np.maximum(values[0] - np.abs(slopes[0]) * (t2 - t1), values[1] - np.abs(slopes[1]) * (t2 - t1))
        lower = np.where((slopes[0] <= 0) & (slopes[1] >= 0) & np.isfinite(b), lower, -np.inf)  # no bracket: no bound
        return np.exp(0.5 * (low + high)), lower


def chain_sums(linear: np.ndarray, up: np.ndarray, down: np.ndarray, scale: float, alpha: float
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Least Lagrangian column terms on a path, input by input: for each column ``v`` of ``linear``'s shape and each
    input ``x``, a lower bound ``S[x]`` of ``min { h(v) : v >= 0, v_x = 1 }`` with
    ``h(v) = linear · v + Σ_x up[x] φ(v_x, v_{x+1}) + down[x] φ(v_{x+1}, v_x)``, ``φ(a, b) = a^α (scale · b)^{1−α}``
    (all multipliers > 0), and the log-ratios ``log(v_{x+1} / v_x)`` of its minimizers.

    With ``v_x`` fixed, the inputs left of ``x`` and those right of it are independent; by homogeneity the least
    left part is ``κ_x v_x``, where ``κ_{x+1} = min_{t > 0} (κ_x + linear_x) t + up_x s^{1−α} t^α + down_x s^{1−α}
    t^{1−α}`` (``t = v_x / v_{x+1}``, :func:`least_chain_step`), and likewise from the right:
    ``S[x] = κ_x + κ'_x + linear_x``, a lower bound because every step's is.

    Returns
    -------
    (S, left, right)
        ``(n, m)`` lower bounds; ``(n − 1, m)`` log-ratios ``log(v_{x+1} / v_x)`` of the left minimizers (of the
        part left of ``x + 1``) and of the right ones (of the part right of ``x``).

    Examples
    --------
    Two inputs, α = 2, scale 1: ``h(v) = −v_0 − v_1 + v_0²/v_1 + v_1²/v_0`` is least at ``v_0 = v_1`` (the
    minimum 0 at every scale).

    >>> S, left, right = chain_sums(-np.ones((2, 1)), np.ones(1), np.ones(1), 1.0, 2.0)
    >>> bool(np.all(np.abs(S) < 1e-12)), bool(abs(left[0, 0]) < 1e-9)
    (True, True)
    """
    n, m = linear.shape
    power = scale ** (1.0 - alpha)
    kappa_left, kappa_right = np.zeros((n, m)), np.zeros((n, m))
    left, right = np.zeros((n - 1, m)), np.zeros((n - 1, m))
    for x in range(n - 1):  # from the left, input x; from the right, input n − 1 − x (one call for both)
        y = n - 1 - x
        t, kappa = least_chain_step(np.concatenate([kappa_left[x] + linear[x], kappa_right[y] + linear[y]]),
                                    np.concatenate([np.full(m, up[x] * power), np.full(m, down[y - 1] * power)]),
                                    np.concatenate([np.full(m, down[x] * power), np.full(m, up[y - 1] * power)]), alpha)
        kappa_left[x + 1], kappa_right[y - 1] = kappa[:m], kappa[m:]
        with np.errstate(divide="ignore"):
            left[x], right[y - 1] = -np.log(t[:m]), np.log(t[m:])  # t = v_x / v_{x+1}, then v_y / v_{y−1}
    return kappa_left + kappa_right + linear, left, right


def chain_shapes(S: np.ndarray, left: np.ndarray, right: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The minimizers :func:`chain_sums` describes, in logs: each column's peak ``p`` (the input of least ``|S|``,
    then the largest entry of the minimizer it gives) and ``log(v_x / v_p)`` (``(n, m)``, ``−inf`` where a ratio
    underflows), from the left minimizers' log-ratios left of the peak and the right ones' right of it.

    Examples
    --------
    >>> S, left, right = chain_sums(-np.ones((2, 1)), np.ones(1), np.ones(1), 1.0, 2.0)
    >>> peak, logs = chain_shapes(S, left, right)
    >>> bool(np.all(np.abs(logs) < 1e-9))  # v_0 = v_1
    True
    """
    n, m = S.shape
    inputs = np.arange(n - 1)[:, None]
    peak = np.argmin(np.where(np.isfinite(S), np.abs(S), np.inf), axis=0)
    for _ in range(2):
        steps = np.where(inputs < peak, left, right)  # log v_{x+1} − log v_x
        logs = np.vstack([np.zeros((1, m)), np.cumsum(steps, axis=0)])
        logs = np.where(np.isnan(logs), -np.inf, logs)
        peak = np.argmax(logs, axis=0)
    with np.errstate(invalid="ignore"):
        return peak, np.where(np.isnan(logs - logs[peak, np.arange(m)]), -np.inf, logs - logs[peak, np.arange(m)])


def path_column_floors(linear: np.ndarray, up: np.ndarray, down: np.ndarray, scale: float, alpha: float,
                       step: float) -> np.ndarray:
    """For each column of ``linear``, a certified lower bound ``c <= 0`` of ``min(0, min h(v))`` over the simplex
    (:func:`chain_sums`' ``h``): ``h(v) − c Σ v >= 0`` for every ``v >= 0``, proved by :func:`chain_sums` with the
    linear part shifted by ``−c`` (a nonnegative ``S[x]`` at any input ``x`` proves it where ``v_x > 0``, and with
    every multiplier positive a ``v >= 0``, ``v ≠ 0`` is positive everywhere or its terms are infinite).

    ``c = 0`` is tried first (every column whose term is nonnegative is done); then, for the others, Newton's
    estimate of the least term from ``S`` at the column's peak (``dS[p]/dc = −Σ_x v_x / v_p``, the minimizer's
    shape from the log-ratios) lowered by ``step``; then shifts :data:`CHAIN_SHIFT_FACTOR` times lower after a
    failure and the middle of the last proved and failed ones after a proof, until they are within
    :data:`CHAIN_SHIFT_RTOL` (relative) plus ``100 step`` of each other. ``min linear`` is always a bound (the terms
    are nonnegative).

    Examples
    --------
    :func:`chain_sums`' example: the least term on the simplex is 0; shifted by −1 it is −1.

    >>> floors = path_column_floors(np.array([[-1.0, -2.0], [-1.0, -2.0]]), np.ones(1), np.ones(1), 1.0, 2.0, 1e-12)
    >>> floors.tolist()[0], bool(-1.0 - 1e-3 < floors[1] <= -1.0)
    (0.0, True)
    """
    n, m = linear.shape
    floors = np.minimum(linear.min(axis=0), 0.0)
    failed = np.full(m, np.inf)
    pending, shift = np.arange(m), np.zeros(m)
    for attempt in range(CHAIN_SHIFT_ITERATIONS):
        c = shift[pending]
        S, left, right = chain_sums(linear[:, pending] - c, up, down, scale, alpha)
        proved = np.max(np.where(np.isfinite(S), S, -np.inf), axis=0) >= 0
        floors[pending] = np.where(proved, np.maximum(floors[pending], c), floors[pending])
        failed[pending] = np.where(proved, failed[pending], np.minimum(failed[pending], c))
        middle = 0.5 * (floors[pending] + failed[pending])
        if attempt == 0:  # Newton's estimate of the least term from the shift 0
            peak, logs = chain_shapes(S, left, right)
            with np.errstate(invalid="ignore", divide="ignore"):
                estimate = S[peak, np.arange(pending.size)] / np.exp(logs).sum(axis=0)
            following = np.where(np.isfinite(estimate), np.minimum(estimate, 0.0) - step, -step)
        else:
            following = np.where(proved, middle, np.maximum(c * CHAIN_SHIFT_FACTOR, middle))
        following = np.where(following > floors[pending], following, middle)
        settled = (proved & (c >= 0)) | (failed[pending] - floors[pending]
                                         <= CHAIN_SHIFT_RTOL * np.abs(floors[pending]) + 100.0 * step)
        shift[pending] = following
        pending = pending[~settled]
        if pending.size == 0:
            break
    return floors


#: Barrier weights of :func:`least_pair_column_terms`, relative to the largest ``|linear|``: from the first, divided
#: by :data:`BARRIER_FACTOR` until the last; the Frank–Wolfe bound at the last barrier point is within about
#: ``n · BARRIER_LAST`` (relative) of the least term.
BARRIER_FIRST = 1e-2
BARRIER_LAST = 1e-17
BARRIER_FACTOR = 10.0
#: Below this Newton decrement (relative to the largest ``|linear|``) :func:`least_pair_column_terms` takes full steps.
NEWTON_ZONE = 1e-9
#: A barrier stage of :func:`least_pair_column_terms` ends once no Newton step moves an entry by more than this
#: (relative to the entry).
BARRIER_STEP_RTOL = 1e-12
#: Newton steps per barrier weight at most.
BARRIER_STEPS = 12
#: :meth:`RenyiDifferentialPrivacy.multiplier_dual_bound`'s barrier: weights divided by this from stage to stage, down
#: to this last one (relative). The bound at the last point is within ``n τ`` per column of the least terms', far below
#: the gap tolerance; against :data:`BARRIER_FACTOR` and :data:`BARRIER_LAST` the same bounds to 2 digits of the gap
#: in 14 ms instead of 22 (every pair, n = 8–11, random costs: Newton's steps, about 100, are the cost).
MULTIPLIER_BARRIER_FACTOR = 100.0
MULTIPLIER_BARRIER_LAST = 1e-14


def least_pair_column_terms(linear: np.ndarray, first: np.ndarray, second: np.ndarray, multipliers: np.ndarray,
                            scale: float, alpha: float, last: float = BARRIER_LAST, factor: float = BARRIER_FACTOR
                            ) -> np.ndarray | None:
    """Where the Lagrangian's column terms ``h(v) = linear[:, j] · v + Σ_k λ_k φ_k(v)``, ``φ_k(v) = v_{first_k}^α
    (scale · v_{second_k})^{1−α}``, are least on the simplex, one column of the ``(n, u)`` array ``linear`` each: the
    points of a primal barrier method, ``min h(v) − τ Σ_x log v_x`` s.t. ``Σ v = 1`` by Newton's method (every column
    at once, dense ``n × n`` Hessians), ``τ`` from :data:`BARRIER_FIRST` to ``last`` (default :data:`BARRIER_LAST`)
    times the largest ``|linear|``, divided by ``factor`` (default :data:`BARRIER_FACTOR`) from stage to stage.

    Every entry stays positive, the gradients finite: at the barrier's point ``∂_x h = c + τ / v_x`` (``c`` the
    simplex's multiplier), so the Frank–Wolfe bound ``min_x ∂_x h(v)`` (the tangent bound of
    :func:`~mechdesign.privacy.column_dual.lagrangian_bound`, by Euler's identity) is within ``n τ`` of the least
    term. Entries that are 0 at the minimizer end near ``τ / (∂_x h − c)``, not at a floor: a ratio there enters the
    bound only through terms of which they are numerators (L-BFGS's points, :func:`~mechdesign.privacy.column_dual.
    least_column_terms`, floored at 1e-9, left gradients of 1e3 there: the bound 1.2 short, Rényi DP on 12 inputs).
    ``None`` where the terms overflow (orders in the thousands), for the caller's search instead.

    Examples
    --------
    Two inputs, α = 2, scale 1, one pair each way with multiplier 1: ``−v_0 − v_1 + v_0²/v_1 + v_1²/v_0`` is least
    at ``v_0 = v_1``.

    >>> points = least_pair_column_terms(-np.ones((2, 1)), np.array([0, 1]), np.array([1, 0]), np.ones(2), 1.0, 2.0)
    >>> bool(np.allclose(points[:, 0], 0.5, atol=1e-9))
    True
    """
    n, count = linear.shape
    positive = multipliers > 0
    a, b = first[positive], second[positive]
    weight = multipliers[positive] * scale ** (1.0 - alpha)
    size = max(float(np.abs(linear).max(initial=0.0)), np.finfo(float).tiny)
    v = np.full((count, n), 1.0 / n)  # columns as rows
    lin = linear.T

    def objective(v: np.ndarray, tau: float) -> np.ndarray:
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            terms = (weight * v[:, a] ** alpha * v[:, b] ** (1.0 - alpha)).sum(axis=1)
            value = np.einsum("jx,jx->j", lin, v) + terms - tau * np.log(v).sum(axis=1)
        return np.where(np.all(v > 0, axis=1) & np.isfinite(value), value, np.inf)

    diagonal, across = a * n + a, a * n + b
    on_b, across_t = b * n + b, b * n + a
    flat = np.concatenate([diagonal, across, across_t, on_b])
    on_first = sp.csr_matrix((np.ones(a.size), (a, np.arange(a.size))), shape=(n, a.size))
    on_second = sp.csr_matrix((np.ones(b.size), (b, np.arange(b.size))), shape=(n, b.size))
    tau = BARRIER_FIRST * size
    while True:
        for _ in range(BARRIER_STEPS):
            va, vb = v[:, a], v[:, b]
            ratio = va / vb
            power = ratio ** (alpha - 1.0)
            # ∂φ/∂a = α r^{α−1}, ∂φ/∂b = (1 − α) r^α (per unit weight), summed per input and column
            gradient = (lin - tau / v + (on_first @ (weight * alpha * power).T).T
                        + (on_second @ (weight * (1.0 - alpha) * power * ratio).T).T)
            curvature = weight * alpha * (alpha - 1.0) * power  # times [[1/a, −1/b], [−1/b, a/b²]]
            blocks = np.hstack([curvature / va, -curvature / vb, -curvature / vb, curvature * va / vb**2])
            hessian = np.bincount((flat + n * n * np.arange(count)[:, None]).ravel(), blocks.ravel(),
                                  count * n * n).astype(float).reshape(count, n, n)
            hessian[:, np.arange(n), np.arange(n)] += tau / v**2
            system = np.zeros((count, n + 1, n + 1))
            system[:, :n, :n] = hessian
            system[:, :n, n] = system[:, n, :n] = 1.0
            right = np.concatenate([-gradient, np.zeros((count, 1))], axis=1)
            with np.errstate(all="ignore"):
                step = np.linalg.solve(system, right[:, :, None])[:, :n, 0]
            decrement = -np.einsum("jx,jx->j", gradient, step)
            if not np.any(np.max(np.abs(step) / v, axis=1) > BARRIER_STEP_RTOL):  # (the decrement, g·H⁻¹g, can be
                break  # below round-off while the gradient is 1e-6 from stationary: H's entries are large)
            with np.errstate(divide="ignore", invalid="ignore"):
                limit = np.min(np.where(step < 0, -v / step, np.inf), axis=1)
            length = np.minimum(1.0, 0.99 * limit)
            current = objective(v, tau)
            for _ in range(40):  # backtracking, every column at once
                trial = v + length[:, None] * step
                # Near the barrier's minimum (decrement below NEWTON_ZONE) the objective's decrease is below its
                # round-off: full steps there, Newton's quadratic convergence.
                better = (objective(trial, tau) <= current - 0.25 * length * decrement) | (decrement <= NEWTON_ZONE * size)
                if better.all():
                    break
                length = np.where(better, length, 0.5 * length)
            v = np.where(better[:, None], trial, v)
        if tau <= last * size:
            break
        tau = max(tau / factor, last * size)
    points = (v / v.sum(axis=1, keepdims=True)).T
    return points if np.all(np.isfinite(points)) else None


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
    The budget enters the constraints as ``e^ε`` (:meth:`scaled_budget`, module docstring). One power
    cone per ordered neighbour pair and output (a rotated second-order cone for α = 2).

    Examples
    --------
    >>> from mechdesign import randomized_response
    >>> mechanism = randomized_response(3, 1.0)  # 1-LDP on 3 symbols
    >>> round(RenyiDifferentialPrivacy(2.0).measure(mechanism), 6)  # order α = 2
    0.618401
    """

    name = "renyi_dp"
    cli_name = "renyi-dp"
    cli_parameters = ("alpha",)
    composition = "same"
    reference = "Zhong & Bu, Privacy-Utility Trade-Off, Definition 3(5); Mironov 2017, Definition 4"
    is_linear = False

    def __init__(self, alpha: float, neighbours: Any = None, n_inputs: int | None = None) -> None:
        self.alpha = as_order(alpha)
        self._set_neighbours(neighbours, n_inputs)

    @property
    def label(self) -> str:
        return self._label(f"alpha={self.alpha:g}")

    def budget_from_leakage(self, value: float) -> float:
        """ε from the value of :meth:`leakage_expression` (the largest power sum): ``max(0, log(value) / (α−1))``."""
        return max(0.0, math.log(value) / (self.alpha - 1.0)) if value > 0 else 0.0

    def power_terms(self, numerators: cp.Expression, denominators: cp.Expression) -> tuple[cp.Variable, cp.Constraint]:
        """Variables ``t >= numerators^α denominators^{1−α}`` (entrywise) and the cone that says so."""
        terms = cp.Variable(numerators.shape, nonneg=True)
        if self.alpha == 2.0:  # t · c >= a²: rotated second-order cones, one per entry
            t, a, c = (cp.vec(e, order="C") for e in (terms, numerators, denominators))
            return terms, cp.SOC(t + c, cp.vstack([2 * a, t - c]), axis=0)
        return terms, cp.PowCone3D(terms, denominators, numerators, 1.0 / self.alpha)

    def pair_sums(self, Q: cp.Expression, scale: Any = 1.0) -> tuple[cp.Expression, list[cp.Constraint]]:
        """``Σ_y Q[x, y]^α (scale · Q[x', y])^{1−α}`` for every ordered neighbour pair ``(x, x')`` (an epigraph
        variable per term, with its cones).

        With ``scale = 1`` these are the power sums (at most ``e^{(α−1)ε}``); with ``scale = e^ε`` the
        same divided by ``e^{(α−1)ε}`` (at most 1), the well-scaled form of the constraints.
        """
        first, second = self.neighbours.ordered_pairs(Q.shape[0])
        if first.size == 0:  # a single input: no pair, the power sum of a row with itself is 1
            return cp.Constant(np.ones(1)), []
        terms, cone = self.power_terms(Q[first, :], scale * Q[second, :])
        return cp.sum(terms, axis=1), [cone]

    def leakage_expression(self, Q: cp.Expression) -> cp.Expression:
        """``max_{x~x'} Σ_y Q[x, y]^α Q[x', y]^{1−α}`` (at most ``e^{(α−1)ε}``; :meth:`budget_from_leakage`)."""
        sums, cones = self.pair_sums(Q)
        return Epigraph(cp.max(sums), cones).minimized(Q)

    def _constraints(self, Q: cp.Expression, scaled: Any) -> list[cp.Constraint]:
        sums, cones = self.pair_sums(Q, scaled)
        return [*cones, sums <= 1.0]

    def relaxation(self, points: Sequence[np.ndarray], budget: float) -> LinearRelaxation:
        """Tangent planes, entry by entry, of the well-scaled constraints (module docstring): ``φ(a, c) = a^α c^{1−α}``
        is convex and 1-homogeneous, so ``φ(a, c) >= α r^{α−1} a + (1−α) r^α c`` for every ratio ``r > 0`` and
        all ``a, b >= 0`` (equality where ``a/c = r``), here with ``c = e^ε b``. Each ordered neighbour pair
        ``k`` and output ``y`` gets an auxiliary ``n[k, y] ∈ [0, 1]`` above the tangents at every point's own
        ratio ``Q̃[x, y] / (e^ε Q̃[x', y])`` and, once there is more than one point (a refinement), at a grid of
        ratios (:data:`TANGENT_RATIO_COUNT`, all within a decade of the first point's, at most :data:`GRID_ROWS`
        rows); and ``Σ_y n[k, y] <= 1``.

        At ε = 0 the budget is linear, neighbours' rows equal (``D_α(p ‖ q) = 0`` only for ``p = q``): the relaxation
        is that LP, exact (the tangent planes at equal rows left HiGHS minutes on PUT's {1,2,3}^3, the first step of
        every bisection of ε*(D)).

        Examples
        --------
        >>> import numpy as np
        >>> exact = RenyiDifferentialPrivacy(2.0).relaxation([np.full((2, 2), 0.5)], 0.0)
        >>> [bool(np.all(exact.rows_q @ q.ravel() + exact.rows_aux @ q.min(axis=0) <= exact.rhs))
        ...  for q in (np.full((2, 2), 0.5), np.array([[0.6, 0.4], [0.5, 0.5]]))]  # equal rows only
        [True, False]
        """
        if budget == 0:
            return dp_rows(self.neighbours, points[0].shape, 1.0, 0.0)
        first, second = self.neighbours.ordered_pairs(points[0].shape[0])
        n_pairs, m = len(first), points[0].shape[1]
        scale = self.scaled_budget(budget)
        largest = (LARGEST_TANGENT_COEFFICIENT / (self.alpha - 1.0)) ** (1.0 / self.alpha)
        # Any ratio gives a valid tangent: every point's own are clipped into a well-conditioned range, that of the
        # first point's ratios widened by GRID_MARGIN on both sides: near ε = 0 every ratio of the optimum is about 1,
        # and the vertex a relaxation's LP returns has ratios 0 and ∞, whose tangents (clipped at 1e-6 and largest)
        # made the next LP ill-conditioned (HiGHS 17–87 s, or failing, on {1,2,3}^2 at ε = 1e-11, where the first LP
        # took 0.1 s).
        first_ratios = points[0][first] / (scale * points[0][second])
        low = max(SMALLEST_TANGENT_RATIO, float(first_ratios.min()) / GRID_MARGIN)
        high = min(largest, float(first_ratios.max()) * GRID_MARGIN)
        own = [np.clip(p[first] / (scale * p[second]), low, high) for p in points]
        # One point (the first relaxation) gets its own tangents only; refinements add a grid over the range, unless
        # it would make the LP large.
        count = TANGENT_RATIO_COUNT if n_pairs * m * TANGENT_RATIO_COUNT <= GRID_ROWS else 0
        grid = np.geomspace(low, high, count)
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

    def column_terms(self, matrix: np.ndarray, budget: float, scale: float | None = None) -> ColumnSums:
        """The budget as sums over outputs of convex, 1-homogeneous column terms (module docstring): for each
        ordered neighbour pair ``k = (x, x')``, ``φ_k(v) = v_x^α (e^ε v_{x'})^{1−α}`` and ``Σ_y φ_k(Q[:, y]) <= 1``,
        described at ``matrix`` (:class:`~mechdesign.privacy.column_dual.ColumnSums`).

        With ``a = Q[x, y]``, ``b = Q[x', y]`` and the ratio ``r = a / (e^ε b)``: ``φ = a r^{α−1}``, gradient
        ``(α r^{α−1}, (1−α) e^ε r^α)`` and Hessian ``α(α−1) r^{α−1} [[1/a, −1/b], [−1/b, a/b²]]``. Where
        ``a = 0`` the ratio is 0 (``φ``, its gradient and its Hessian there are 0; ``a > 0 = b`` is infinite).

        Parameters
        ----------
        matrix
            ``(n, m)`` nonnegative matrix (any scale: the terms are 1-homogeneous).
        budget
            ε in nats.
        scale
            ``e^ε`` (:meth:`scaled_budget` of ``budget``) when the caller has it: a dual's many evaluations
            at one budget scale it once.

        Examples
        --------
        >>> import numpy as np
        >>> sums = RenyiDifferentialPrivacy(2.0).column_terms(np.array([[0.5], [0.25]]), 0.0)
        >>> sums.values.tolist(), sums.rhs.tolist()  # 0.5²/0.25 and 0.25²/0.5
        ([1.0, 0.125], [1.0, 1.0])
        """
        first, second = self.neighbours.ordered_pairs(matrix.shape[0])
        scale = self.scaled_budget(budget) if scale is None else scale
        n, m = matrix.shape
        numerators, denominators = matrix[first], matrix[second]
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            ratio = np.where(numerators > 0, numerators / (scale * denominators), 0.0)
            power = ratio ** (self.alpha - 1.0)
            on_numerator, on_denominator = self._tangent(ratio, scale)
            curvature = self.alpha * (self.alpha - 1.0) * power
            values = np.where(numerators > 0, numerators * power, 0.0).sum(axis=1)
        at_numerator = (first[:, None] * m + np.arange(m)).ravel()
        at_denominator = (second[:, None] * m + np.arange(m)).ravel()
        # Built in CSR form directly (row k: its numerator's m entries, then its denominator's; x ≠ x', so no
        # duplicates): through COO, the conversion was a third of each evaluation in the dual's search for least column
        # terms (2,216 evaluations at n = 20, all pairs).
        jacobian = sp.csr_matrix((np.hstack([on_numerator, on_denominator]).ravel(),
                                  np.hstack([at_numerator.reshape(-1, m), at_denominator.reshape(-1, m)]).ravel(),
                                  np.arange(len(first) + 1) * 2 * m), shape=(len(first), n * m))

        def hessian(multipliers: np.ndarray) -> sp.csr_matrix:
            weights = np.broadcast_to(np.asarray(multipliers, dtype=float)[:, None], curvature.shape)
            live = (numerators > 0) & (weights != 0)
            weight = np.where(live, weights * np.where(live, curvature, 0.0), 0.0)
            with np.errstate(divide="ignore", invalid="ignore"):
                blocks = [np.where(live, weight / numerators, 0.0), np.where(live, -weight / denominators, 0.0),
                          np.where(live, weight * numerators / denominators**2, 0.0)]
            on_a, across, on_b = (block.ravel() for block in blocks)
            return sp.csr_matrix((np.concatenate([on_a, across, across, on_b]),
                                  (np.concatenate([at_numerator, at_numerator, at_denominator, at_denominator]),
                                   np.concatenate([at_numerator, at_denominator, at_numerator, at_denominator]))),
                                 shape=(n * m, n * m))

        return ColumnSums(values, np.ones(len(first)), jacobian, hessian)

    def linear_objective_bound(self, weights: np.ndarray, matrix: np.ndarray, budget: float) -> float | None:
        """With neighbours on a path, :meth:`path_dual_bound` (the column terms' least values proved input by input);
        otherwise, or where it has none, the Lagrangian bound of the column terms at ``matrix`` polished by Newton's
        method (:func:`~mechdesign.privacy.column_dual.column_dual_bound`; unused outputs' tangent points by
        :func:`least_pair_column_terms`): the optimum to round-off when ``matrix`` is a conic solver's near-optimal
        point.

        Examples
        --------
        Two inputs, Hamming cost under a uniform prior, ε = log 2: randomized response with ``p = (1 + 1/√5) / 2``
        is optimal (``p² / (2 (1 − p)) + (1 − p)² / (2 p) = 1``), distortion ``1 − p``.

        >>> import numpy as np
        >>> p = (1 + 1 / math.sqrt(5)) / 2
        >>> bound = RenyiDifferentialPrivacy(2.0).linear_objective_bound(
        ...     0.5 * (1 - np.eye(2)), np.array([[p, 1 - p], [1 - p, p]]), math.log(2))
        >>> round(bound, 12), round(1 - p, 12)
        (0.27639320225, 0.27639320225)
        """
        if self.on_path(matrix.shape[0]):
            bound = self.path_dual_bound(weights, matrix, budget)
            if bound is not None:
                return bound
        scale = self.scaled_budget(budget)
        first, second = self.neighbours.ordered_pairs(matrix.shape[0])
        return column_dual_bound(weights, matrix, lambda point: self.column_terms(point, budget, scale),
                                 lambda linear, multipliers: least_pair_column_terms(linear, first, second, multipliers,
                                                                                     scale, self.alpha))

    def multiplier_dual_bound(self, weights: np.ndarray, matrix: np.ndarray, budget: float, multipliers: np.ndarray,
                              row_multipliers: np.ndarray) -> float | None:
        """A lower bound on ``min weights · Q`` over row-stochastic ``Q`` within the budget from a conic solver's
        multipliers at its near-optimal ``matrix``: ``multipliers`` those of the well-scaled budgets
        ``Σ_y φ_k(Q[:, y]) <= 1`` (module docstring; one per ordered pair, in the order of ``ordered_pairs``),
        ``row_multipliers`` ``μ`` those of the unit row sums (``weights − μ + Σ_k λ_k ∇φ_k >= 0``, equal on the
        support). ``None`` where the sizes do not match the relation or the terms overflow.

        First the Lagrangian bound (:func:`~mechdesign.privacy.column_dual.lagrangian_bound`) at ``λ = max(multipliers,
        0)`` with every output's tangent point where its column term ``(weights[:, y] − μ) · v + Σ_k λ_k φ_k(v)`` is
        least on the simplex (:func:`least_pair_column_terms`): valid for any multipliers, it does not use
        ``matrix``'s small entries, whose ratios a solver leaves inaccurate (the tangents at them, or a support
        guessed from them, left the column dual of :meth:`linear_objective_bound` short: all pairs, n = 8–11, random
        costs, 7 of 24 designs "suboptimal" through cvxpy); it loses to first order in the multipliers' error (1e-12
        to 1e-8 of the value there). Until the bound is within half the gap tolerance of ``matrix``'s value, the
        column dual (:func:`~mechdesign.privacy.column_dual.column_dual_bound`) at the KKT point polished from the
        pairs the multipliers say are active (:data:`ACTIVE_DUAL_RATIOS`, in turn) is tried too (the optimum to
        round-off where the guess is right, at 2–4 times the cost). The best bound is returned.

        Examples
        --------
        Two inputs, Hamming cost under a uniform prior, ε = log 2: randomized response with ``p = (1 + 1/√5) / 2``
        is optimal, its multipliers ``λ = 1 / (5 √5)`` for both pairs (by symmetry) and ``μ_x = (1 − p + 2 λ) / 2``
        (the bound is ``Σ μ − Σ λ``).

        >>> import numpy as np
        >>> notion, p = RenyiDifferentialPrivacy(2.0), (1 + 1 / math.sqrt(5)) / 2
        >>> optimum, costs = np.array([[p, 1 - p], [1 - p, p]]), 0.5 * (1 - np.eye(2))
        >>> lam = 1 / (5 * math.sqrt(5))
        >>> mu = np.full(2, (1 - p + 2 * lam) / 2)
        >>> bound = notion.multiplier_dual_bound(costs, optimum, math.log(2), np.full(2, lam), mu)
        >>> bool(abs(bound - (1 - p)) < 1e-9)
        True
        """
        n = matrix.shape[0]
        first, second = self.neighbours.ordered_pairs(n)
        multipliers, mu = np.asarray(multipliers, dtype=float).ravel(), np.asarray(row_multipliers, dtype=float).ravel()
        if multipliers.size != first.size or mu.size != n or first.size == 0:
            return None
        if not (np.all(np.isfinite(multipliers)) and np.all(np.isfinite(mu))):
            return None
        scale = self.scaled_budget(budget)
        lam = np.maximum(multipliers, 0.0)

        def terms(point: np.ndarray) -> ColumnSums:
            return self.column_terms(point, budget, scale)

        def least(linear: np.ndarray, found: np.ndarray) -> np.ndarray | None:
            with np.errstate(over="ignore", invalid="ignore", divide="ignore"):  # overflow (α = 1e6): None, no points
                return least_pair_column_terms(linear, first, second, found, scale, self.alpha,
                                               MULTIPLIER_BARRIER_LAST, MULTIPLIER_BARRIER_FACTOR)

        points = least(weights - mu[:, None], lam)
        best = -math.inf if points is None else lagrangian_bound(weights, lam, terms(points))
        value = math.fsum((weights * matrix).ravel())
        slack = 1.0 - terms(matrix).values
        for ratio in ACTIVE_DUAL_RATIOS:
            if value - best <= 0.5 * gap_tolerance(value):
                break
            bound = column_dual_bound(weights, matrix, terms, least, np.flatnonzero(multipliers > ratio * slack))
            best = best if bound is None else max(best, bound)
        return best if math.isfinite(best) else None

    def zero_budget_optimum(self, weights: np.ndarray) -> tuple[np.ndarray, float]:
        """The optimum of ``min weights · Q`` over row-stochastic ``Q`` at ε = 0 and its value, exact (the value is
        also the bound).

        ``D_α(p ‖ q) = 0`` only for ``p = q``, so the mechanisms within budget 0 are those whose rows are equal within
        each connected component ``C`` of the neighbour relation (an input without neighbours is a component of its
        own). Within ``C`` the objective is ``Σ_y (Σ_{x ∈ C} weights[x, y]) q_C[y]``, least at the output ``y`` of least
        column sum over ``C``: every row of ``C`` puts all its mass there. No feasible ``Q`` does better (the LP's dual
        point ``μ_C = min_y Σ_{x ∈ C} weights[x, y]`` is feasible), so the optimum's value is its own bound; the
        conic formulation has no interior at ε = 0 (Clarabel's 'InsufficientProgress' at α = 1.01, a bound of ``−inf``
        at α = 8: benchmarks/notes/2026-11-28-hostile-2026-11-28b.md, H-4).

        Parameters
        ----------
        weights
            ``(n, m)`` costs of the entries (prior times cost for expected distortion).

        Returns
        -------
        (Q, value)
            The optimal mechanism (one output per component, the lowest-numbered among ties) and ``weights · Q``
            summed exactly (``math.fsum`` of the components' least column sums).

        Examples
        --------
        Inputs 0 – 1 neighbours, input 2 alone: rows 0 and 1 share their best output (column sums 0.5, 0.3 → output
        1), input 2 takes its own cheapest (output 0).

        >>> import numpy as np
        >>> notion = RenyiDifferentialPrivacy(2.0, [(0, 1)], 3)
        >>> Q, value = notion.zero_budget_optimum(np.array([[0.1, 0.2], [0.4, 0.1], [0.0, 0.3]]))
        >>> Q.tolist(), round(value, 12)
        ([[0.0, 1.0], [0.0, 1.0], [1.0, 0.0]], 0.3)
        """
        n, m = weights.shape
        pairs = self.neighbours.unordered_pairs(n)
        graph = sp.csr_matrix((np.ones(len(pairs)), (pairs[:, 0], pairs[:, 1])), shape=(n, n))
        count, labels = connected_components(graph, directed=False)
        sums = np.zeros((count, m))
        np.add.at(sums, labels, weights)
        best = np.argmin(sums, axis=1)
        matrix = np.zeros((n, m))
        matrix[np.arange(n), best[labels]] = 1.0
        return matrix, math.fsum(sums[np.arange(count), best])

    def on_path(self, n: int) -> bool:
        """Whether the neighbours are the path ``0 – 1 – … – (n − 1)`` (each input and the next).

        Examples
        --------
        >>> RenyiDifferentialPrivacy(2.0, [(0, 1), (1, 2)], 3).on_path(3), RenyiDifferentialPrivacy(2.0).on_path(3)
        (True, False)
        """
        pairs = self.neighbours.unordered_pairs(n)
        return n >= 2 and len(pairs) == n - 1 and bool(np.all(pairs == np.column_stack([np.arange(n - 1),
                                                                                        np.arange(1, n)])))

    def path_dual_bound(self, weights: np.ndarray, matrix: np.ndarray, budget: float) -> float | None:
        """A lower bound on ``min weights · Q`` over row-stochastic ``Q`` within the budget, for neighbours on a path
        (``None`` otherwise, or where ``matrix`` is outside the terms' domain), from the multipliers fitted at the
        near-optimal ``matrix`` (:func:`~mechdesign.privacy.column_dual.fitted_start`), each raised to at least
        :data:`PATH_MULTIPLIER_FLOOR` times the largest cost.

        For any ``μ`` and ``λ >= 0``, ``weights · Q = Σ μ + Σ_y h_y(Q[:, y]) − Σ_k λ_k Σ_y φ_k(Q[:, y])`` with the
        column terms ``h_y(v) = (weights[:, y] − μ) · v + Σ_k λ_k φ_k(v)``; within the budget and with
        ``h_y(v) >= c_y Σ v`` (``c_y <= 0``) for every ``v >= 0``, ``weights · Q >= Σ μ − Σ λ + n min_y c_y``. The
        ``c_y`` are proved input by input along the path (:func:`path_column_floors`), in log-ratios: the optimum's
        columns decay by orders of magnitude per step away from their peaks, below any solver's accuracy, and every
        tangent-plane bound needs those ratios (benchmarks/notes/2026-11-27-renyi-n100.md).

        Where that bound is short of the design's value by more than a tenth of the certified gap, up to
        :data:`PATH_BOX_ROUNDS` rounds of a box step try other multipliers: the dual LP of the columns seen so far
        (the design's, and every column's least term's point at each point tried) within a box around the best point
        (half-width :data:`PATH_BOX_START` times the largest cost, doubled after a better bound, quartered after a
        worse one; the pair multipliers kept above half their centre's), each LP solution proved by the chain. The
        best bound is returned.

        Examples
        --------
        Two inputs (a path), Hamming cost under a uniform prior, ε = log 2: randomized response with
        ``p = (1 + 1/√5) / 2`` is optimal, distortion ``1 − p``.

        >>> import numpy as np
        >>> p = (1 + 1 / math.sqrt(5)) / 2
        >>> bound = RenyiDifferentialPrivacy(2.0, [(0, 1)], 2).path_dual_bound(
        ...     0.5 * (1 - np.eye(2)), np.array([[p, 1 - p], [1 - p, p]]), math.log(2))
        >>> bool(abs(bound - (1 - p)) < 1e-12)
        True
        """
        n = matrix.shape[0]
        if not self.on_path(n):
            return None
        scale = self.scaled_budget(budget)
        start = fitted_start(weights, matrix, lambda point: self.column_terms(point, budget, scale))
        if start is None:
            return None
        _, _, sums, active, mu, lam = start
        unit = max(1.0, float(np.abs(weights).max()))
        floor = PATH_MULTIPLIER_FLOOR * unit
        multipliers = np.full(sums.rhs.size, floor)
        multipliers[active] = np.maximum(lam, floor)
        first, second = self.neighbours.ordered_pairs(n)
        forward = second == first + 1

        def proved(mu: np.ndarray, multipliers: np.ndarray) -> tuple[float, np.ndarray, np.ndarray]:
            """The bound at ``(μ, λ)``, each column's floor and its least term's point on the simplex."""
            up, down = np.empty(n - 1), np.empty(n - 1)  # the multipliers of φ(v_x, v_{x+1}) and of φ(v_{x+1}, v_x)
            up[first[forward]], down[second[~forward]] = multipliers[forward], multipliers[~forward]
            linear = weights - mu[:, None]
            floors = path_column_floors(linear, up, down, scale, self.alpha, PATH_SHIFT_STEP * unit)
            _, logs = chain_shapes(*chain_sums(linear - floors, up, down, scale, self.alpha))
            points = np.exp(logs)
            bound = math.fsum(mu) - math.fsum(multipliers * sums.rhs) + n * min(0.0, float(floors.min()))
            return bound, floors, points / points.sum(axis=0)

        bound, floors, points = proved(mu, multipliers)
        best = (bound, mu, multipliers)
        value = math.fsum((weights * matrix).ravel())
        used = np.flatnonzero(matrix.sum(axis=0) > 0)
        columns, outputs = matrix[:, used] / matrix[:, used].sum(axis=0), used
        width = PATH_BOX_START * unit
        for _ in range(PATH_BOX_ROUNDS):
            if value - best[0] <= 0.1 * gap_tolerance(value):
                break
            # Marsten's box step: the dual LP of the columns seen so far (each column v of output y a cut
            # μ · v − Σ_k λ_k φ_k(v) <= weights[:, y] · v, where h_y(v) >= 0), in a box around the best point; its
            # solution is proved by the chain like any other.
            columns, outputs = np.hstack([columns, points]), np.concatenate([outputs, np.arange(matrix.shape[1])])
            with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
                terms = np.where(columns[first] > 0,
                                 columns[first] ** self.alpha * (scale * columns[second]) ** (1.0 - self.alpha), 0.0)
            finite = np.all(np.isfinite(terms), axis=0)
            cuts = np.hstack([columns[:, finite].T, -terms[:, finite].T])
            costs = np.einsum("xj,xj->j", weights[:, outputs[finite]], columns[:, finite])
            _, centre_mu, centre = best
            box = [(m - width, m + width) for m in centre_mu] + [(max(0.5 * l, l - width), l + width) for l in centre]
            found = linprog(np.concatenate([-np.ones(n), sums.rhs]), A_ub=cuts, b_ub=costs, bounds=box, method="highs")
            if found.status != 0:  # no better point from the LP: the best bound so far stands
                break
            trial_mu, trial = found.x[:n], np.maximum(found.x[n:], floor)
            bound, floors, points = proved(trial_mu, trial)
            if bound > best[0]:
                best, width = (bound, trial_mu, trial), 2.0 * width
            else:
                width /= 4.0
        return best[0]

    def _measure(self, matrix: np.ndarray) -> float:
        first, second = self.neighbours.ordered_pairs(matrix.shape[0])
        largest = float(renyi_log_power_sums(matrix[first], matrix[second], self.alpha).max(initial=0.0))
        return max(0.0, largest / (self.alpha - 1.0))
