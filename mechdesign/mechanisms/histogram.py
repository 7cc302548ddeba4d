"""Mechanisms that release histograms (Wang, Lin & Fanti, "Statistic Maximal Leakage", §V-B, §VI-A).

* Randomized response (RR): release the input histogram with probability ``e^ε / (|Θ'| + e^ε − 1)``,
  any other one with probability ``1 / (|Θ'| + e^ε − 1)``.
* Quantization mechanism (QM): split the ordered secret values into bins of ``I`` consecutive values;
  release a histogram drawn uniformly among those whose secret is the bin's median value
  ``g_{R(k)}``, ``R(k) = ⌊(k + ½) I⌋ + 1`` — or, without an ordering, among those whose secret lies in
  the bin. The last bin may be partial; then ``R(k)`` may exceed ``s`` and is clamped to ``s`` (the
  paper leaves this case open; see docs/errata.md).
* MaxL: the maximal-leakage mechanism of Wu et al. as run in §VI-A, with the expected cost replaced by
  its worst case over priors: a greedy choice of released histograms, then the nearest one.

Explicit :class:`~mechdesign.mechanism.Mechanism` s are built on a
:class:`~mechdesign.tabular.HistogramSpace`; for spaces too large to enumerate (Adult: ``τ`` = 32,561),
:func:`sample_randomized_response` and :func:`sample_quantization` draw outputs directly, and
:func:`sample_maxl` runs MaxL's greedy on :func:`maxl_candidates` with the exact worst case
:func:`maxl_worst_overlap` (no enumeration of inputs; same seed → same release as :func:`histogram_maxl`).

With a mis-specified support (§V-C1) a dataset with support ``Γ`` may be released on ``Γ̂* ∪ Γ``: pass
``estimated_support`` and each input ``θ`` is released among the outputs supported on
``Γ̂* ∪ supp(θ)``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, Union

import highspy
import numpy as np
from scipy import sparse
from .._lazy import LazyFunction

from .._validate import as_budget, as_positive_int
from ..exceptions import MechDesignError, ProblemTooLargeError, ShapeMismatchError
from ..mechanism import Mechanism
from ..privacy.sml import Secret
from ..solvers import run_highs
from ..tabular import HistogramSpace, category_fraction_secret, log_histogram_count, tv_cost

linprog = LazyFunction("scipy.optimize", "linprog")

RandomState = Union[np.random.Generator, int, None]


def _candidates(inputs: HistogramSpace, outputs: HistogramSpace, estimated_support: Sequence[int] | None) -> np.ndarray:
    """``allowed[θ, θ']``: outputs each input may be released as (all, or those on ``Γ̂* ∪ supp θ``)."""
    if (inputs.tau, inputs.d) != (outputs.tau, outputs.d):
        raise ShapeMismatchError(f"histogram spaces differ: {inputs!r} vs {outputs!r}")
    if estimated_support is None:
        return np.ones((inputs.size, outputs.size), dtype=bool)
    estimated = np.zeros(inputs.d, dtype=bool)
    estimated[np.asarray(estimated_support, dtype=int)] = True
    allowed_categories = estimated[None, :] | (inputs.counts > 0)  # (n_in, d)
    return ((outputs.counts[None, :, :] == 0) | allowed_categories[:, None, :]).all(axis=2)


def histogram_randomized_response(
    inputs: HistogramSpace,
    epsilon: float,
    outputs: HistogramSpace | None = None,
    estimated_support: Sequence[int] | None = None,
) -> Mechanism:
    """RR on histograms (SML paper, §V-B(a)): ``P(θ' = θ) = e^ε / (N + e^ε − 1)``, others ``1 / (N + e^ε − 1)``.

    ``N`` is the number of outputs the input may be released as (all of ``outputs``, or with
    ``estimated_support`` those supported on ``Γ̂* ∪ supp θ``); every input must be among them.
    """
    outputs = inputs if outputs is None else outputs
    shrink = math.exp(-as_budget(epsilon))  # e^{-ε}: never overflows; 0 (the identity) past ~745 nats
    allowed = _candidates(inputs, outputs, estimated_support)
    same = (inputs.counts[:, None, :] == outputs.counts[None, :, :]).all(axis=2)
    missing = np.flatnonzero(~(same & allowed).any(axis=1))
    if missing.size:
        raise MechDesignError(f"input histogram {inputs.counts[missing[0]].tolist()} is not among its outputs")
    denominator = 1.0 + (allowed.sum(axis=1, keepdims=True) - 1.0) * shrink
    return Mechanism(np.where(same, 1.0, shrink * allowed) / denominator)


def quantization_bins(n_values: int, interval: int) -> list[np.ndarray]:
    """Bins of ``interval`` consecutive secret indices (0-based); the last may be partial."""
    size = as_positive_int(interval, "interval")
    return [np.arange(start, min(start + size, n_values)) for start in range(0, n_values, size)]


def quantization_targets(n_values: int, interval: int) -> np.ndarray:
    """The released secret index (0-based) of each bin: ``min(⌊(k + ½) I⌋, s − 1)`` (``R(k) − 1``, clamped)."""
    size = as_positive_int(interval, "interval")
    bins = math.ceil(n_values / size)
    return np.minimum(np.floor((np.arange(bins) + 0.5) * size).astype(int), n_values - 1)


def quantization_mechanism(
    input_secret: Secret,
    output_secret: Secret,
    interval: int,
    *,
    ordered: bool = True,
    allowed: np.ndarray | None = None,
) -> Mechanism:
    """QM (SML paper, §V-B(b)) for any secret, releasing uniformly within a set of outputs.

    Parameters
    ----------
    input_secret, output_secret
        The secret of every input and of every output; they share their values (an ordered secret's
        released median must be an output secret value).
    interval
        ``I``, the number of consecutive secret values per bin.
    ordered
        With an ordering, release among outputs whose secret is the bin's median ``g_{R(k)}``;
        without (``False``), among outputs whose secret lies anywhere in the bin.
    allowed
        Optional boolean ``(n_inputs, n_outputs)`` mask of permitted outputs per input.
    """
    labels = input_secret.labels
    bins = quantization_bins(labels.size, interval)
    targets = quantization_targets(labels.size, interval)
    released = np.zeros((input_secret.n_inputs, output_secret.n_inputs), dtype=bool)
    for k, members in enumerate(bins):
        wanted = labels[[targets[k]]] if ordered else labels[members]
        columns = np.isin(output_secret.values, wanted)
        released[np.isin(input_secret.values, labels[members])] = columns
    if allowed is not None:
        if allowed.shape != released.shape:
            raise ShapeMismatchError(f"allowed has shape {allowed.shape}, expected {released.shape}")
        released &= allowed
    empty = np.flatnonzero(~released.any(axis=1))
    if empty.size:
        raise MechDesignError(f"input {int(empty[0])} (secret {input_secret.values[empty[0]].item()!r}) has no output "
                              f"with its bin's released secret value")
    return Mechanism(released / released.sum(axis=1, keepdims=True))


def histogram_quantization(
    inputs: HistogramSpace,
    category: int,
    interval: int,
    outputs: HistogramSpace | None = None,
    estimated_support: Sequence[int] | None = None,
    ordered: bool = True,
) -> Mechanism:
    """QM on histograms for the secret "fraction of ``category``" (SML paper, §V-B(b), Thm. 4)."""
    outputs = inputs if outputs is None else outputs
    return quantization_mechanism(category_fraction_secret(inputs, category),
                                  category_fraction_secret(outputs, category), interval, ordered=ordered,
                                  allowed=_candidates(inputs, outputs, estimated_support))


def maxl_mechanism(
    cost: np.ndarray,
    output_secret: Secret,
    interval: int,
    rng: RandomState = None,
    *,
    candidates: Sequence[int] | None = None,
) -> Mechanism:
    """The MaxL baseline of SML paper §VI-A (Wu et al.) with the worst-case-prior replacement.

    The candidate outputs ``Θ'`` are one output drawn uniformly per bin of ``interval`` consecutive
    secret values (or the given ``candidates``). Starting from ``A = ∅``, the candidate minimizing ``max_θ min_{a ∈ A ∪ {θ'}}
    cost[θ, a]`` is added while that worst case strictly decreases (or until ``A = Θ'``); each input
    is then released deterministically as its nearest element of ``A``.

    Parameters
    ----------
    cost
        ``cost[θ, θ']`` between inputs and all outputs (e.g. :func:`~mechdesign.tabular.tv_cost`).
    output_secret
        The secret of every output (defines the bins).
    interval
        Bin width ``I`` in secret values.
    rng
        Seed or Generator for the per-bin draws.
    candidates
        Output indices forming ``Θ'``, in bin order, instead of the draw (:func:`histogram_maxl` passes
        those of :func:`maxl_candidates`, shared with the large-space :func:`sample_maxl`).
    """
    matrix = np.asarray(cost, dtype=float)
    if matrix.ndim != 2 or matrix.shape[1] != output_secret.n_inputs:
        raise ShapeMismatchError(f"cost has shape {matrix.shape}, expected (n_inputs, {output_secret.n_inputs})")
    if candidates is None:
        generator = np.random.default_rng(rng)
        candidates = [int(generator.choice(np.flatnonzero(np.isin(output_secret.group_index, members))))
                      for members in quantization_bins(output_secret.n_values, interval)]
    candidates = [int(c) for c in candidates]
    if not candidates or min(candidates) < 0 or max(candidates) >= matrix.shape[1]:
        raise MechDesignError(f"candidates must be a non-empty list of output indices in 0..{matrix.shape[1] - 1}, "
                              f"got {candidates!r}")
    chosen: list[int] = []
    nearest = np.full(matrix.shape[0], np.inf)
    while len(chosen) < len(candidates):
        remaining = [c for c in candidates if c not in chosen]
        worst = [np.minimum(nearest, matrix[:, c]).max() for c in remaining]
        best = int(np.argmin(worst))
        if chosen and worst[best] >= nearest.max():
            break
        chosen.append(remaining[best])
        nearest = np.minimum(nearest, matrix[:, remaining[best]])
    release = np.array(chosen)[np.argmin(matrix[:, chosen], axis=1)]
    mechanism = np.zeros_like(matrix)
    mechanism[np.arange(matrix.shape[0]), release] = 1.0
    return Mechanism(mechanism)


def histogram_maxl(space: HistogramSpace, category: int, interval: int, rng: RandomState = None) -> Mechanism:
    """MaxL (SML paper, §VI-A) on all histograms of ``space`` for the secret "fraction of ``category``".

    ``Θ'`` is :func:`maxl_candidates` (one histogram per bin, uniform within it), so the same ``rng``
    gives the same mechanism as :func:`sample_maxl` on every input.
    """
    if space.support.size != space.d:
        raise MechDesignError(f"histogram_maxl needs the full space of histograms, got {space!r}")
    drawn = maxl_candidates(space.tau, space.d, category, interval, rng)
    return maxl_mechanism(tv_cost(space), category_fraction_secret(space, category), interval,
                          candidates=[space.index(row) for row in drawn])


# ---------------------------------------------------------------------------------------------
# Samplers for spaces too large to enumerate
# ---------------------------------------------------------------------------------------------


def sample_composition(total: int, parts: int, rng: RandomState = None) -> np.ndarray:
    """A histogram of counts drawn uniformly among the ``C(total + parts − 1, parts − 1)`` ones."""
    generator = np.random.default_rng(rng)
    bars = np.sort(generator.choice(total + parts - 1, size=parts - 1, replace=False))
    return np.diff(np.r_[-1, bars, total + parts - 1]) - 1


def _as_counts(counts: Any) -> np.ndarray:
    array = np.asarray(counts)
    if array.ndim != 1 or array.size < 2 or not np.issubdtype(array.dtype, np.integer) or array.min() < 0 or array.sum() < 1:
        raise MechDesignError(f"counts must be a 1-D array of >= 2 non-negative integers with a positive total, got {counts!r}")
    return array.astype(np.int64)


def sample_randomized_response(counts: Any, epsilon: float, rng: RandomState = None) -> np.ndarray:
    """One output of RR (SML paper, §V-B(a)) on the full space of histograms with ``τ = Σ counts``.

    The keep probability ``e^ε / (N + e^ε − 1)``, ``N = C(τ + d − 1, d − 1)``, is computed in log space.
    """
    data = _as_counts(counts)
    eps = as_budget(epsilon)
    log_n = log_histogram_count(int(data.sum()), data.size)
    log_keep = eps - np.logaddexp(log_n, eps + math.log(-math.expm1(-eps))) if eps > 0 else -log_n
    generator = np.random.default_rng(rng)
    if math.log(generator.random()) < log_keep:
        return data.copy()
    while True:  # uniform over the other N − 1 histograms (rejection of the input itself)
        draw = sample_composition(int(data.sum()), data.size, generator)
        if not np.array_equal(draw, data):
            return draw


def sample_quantization(counts: Any, category: int, interval: int, rng: RandomState = None) -> np.ndarray:
    """One output of QM (SML paper, §V-B(b)) for the secret "fraction of ``category``"."""
    data = _as_counts(counts)
    tau = int(data.sum())
    column = _as_category(category, data.size)
    size = as_positive_int(interval, "interval")
    target = int(quantization_targets(tau + 1, size)[int(data[column]) // size])
    others = sample_composition(tau - target, data.size - 1, rng)
    return np.insert(others, column, target)


def _as_category(category: Any, d: int) -> int:
    if isinstance(category, bool) or not isinstance(category, (int, np.integer)) or not 0 <= category < d:
        raise MechDesignError(f"category must be an integer in 0..{d - 1}, got {category!r}")
    return int(category)


#: Largest candidate set (bins × categories entries) :func:`maxl_candidates` materializes.
MAX_MAXL_ENTRIES = 25_000_000


def maxl_candidates(tau: int, d: int, category: int, interval: int, rng: RandomState = None) -> np.ndarray:
    """MaxL's ``Θ'`` (SML paper, §VI-A): one histogram drawn uniformly per bin of ``interval`` secret values.

    The secret is the count of ``category`` (``τ + 1`` values). In bin ``k`` the count ``c`` is drawn with
    weight ``C(τ − c + d − 2, d − 2)`` (the number of histograms with that count, in log space) and the
    other categories as a uniform composition of ``τ − c``: uniform over the bin's histograms, without
    enumerating them.

    Returns
    -------
    numpy.ndarray
        ``(bins, d)`` counts, row ``k`` from bin ``k``. Refused (:class:`ProblemTooLargeError`) beyond
        :data:`MAX_MAXL_ENTRIES` entries.
    """
    total = as_positive_int(tau, "tau")
    if isinstance(d, bool) or not isinstance(d, (int, np.integer)) or d < 2:
        raise MechDesignError(f"d must be an integer >= 2, got {d!r}")
    column = _as_category(category, d)
    n_bins = math.ceil((total + 1) / as_positive_int(interval, "interval"))
    if n_bins * d > MAX_MAXL_ENTRIES:
        raise ProblemTooLargeError(f"{n_bins} bins x {d} categories exceed {MAX_MAXL_ENTRIES} candidate entries; "
                                   f"use a larger interval")
    bins = quantization_bins(total + 1, interval)
    generator = np.random.default_rng(rng)
    drawn = np.empty((len(bins), d), dtype=np.int64)
    for row, members in enumerate(bins):
        log_sizes = np.array([log_histogram_count(total - c, d - 1) for c in members])
        weights = np.exp(log_sizes - log_sizes.max())
        count = int(generator.choice(members, p=weights / weights.sum()))
        drawn[row] = np.insert(sample_composition(total - count, d - 1, generator), column, count)
    return drawn


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
    """
    candidates = np.asarray(histograms)
    if (candidates.ndim != 2 or candidates.shape[0] < 1 or candidates.shape[1] < 2 or candidates.size == 0
            or not np.issubdtype(candidates.dtype, np.integer) or candidates.min() < 0
            or np.unique(candidates.sum(axis=1)).size != 1 or candidates.sum(axis=1)[0] < 1):
        raise MechDesignError("histograms must be a (K, d >= 2) array of non-negative integer counts with one "
                              f"positive total, got {histograms!r}")
    return _worst_overlap(candidates.astype(np.int64), int(candidates[0].sum()))


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
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.setOptionValue("mip_rel_gap", 0.0)
    h.setOptionValue("mip_abs_gap", 0.5)  # the optimum is an integer
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
    """
    data = _as_counts(counts)
    released = maxl_released_histograms(int(data.sum()), data.size, category, interval, rng)
    return released[int(np.argmax(np.minimum(released, data).sum(axis=1)))].copy()

