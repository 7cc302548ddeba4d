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
:func:`maxl_candidates` draws MaxL's candidates; MaxL's greedy on them needs the exact worst case over
every input, an optimization problem, and runs in :mod:`mechdesign.designers.maxl`
(:func:`~mechdesign.designers.maxl.sample_maxl`: same seed → same release as :func:`histogram_maxl`).

With a mis-specified support (§V-C1) a dataset with support ``Γ`` may be released on ``Γ̂* ∪ Γ``: pass
``estimated_support`` and each input ``θ`` is released among the outputs supported on
``Γ̂* ∪ supp(θ)``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from .._validate import RandomState, as_budget, as_histogram_counts, as_index, as_indices, as_positive_int, as_rng
from ..exceptions import MechDesignError, ProblemTooLargeError, ShapeMismatchError
from ..mechanism import Mechanism
from ..privacy.sml import Secret
from ..tabular import HistogramSpace, category_fraction_secret, check_same_space, log_histogram_count, tv_cost

def _candidates(inputs: HistogramSpace, outputs: HistogramSpace, estimated_support: Sequence[int] | None) -> np.ndarray:
    """``allowed[θ, θ']``: outputs each input may be released as (all, or those on ``Γ̂* ∪ supp θ``)."""
    check_same_space(inputs, outputs)
    if estimated_support is None:
        return np.ones((inputs.size, outputs.size), dtype=bool)
    estimated = np.zeros(inputs.d, dtype=bool)
    estimated[as_indices(estimated_support, inputs.d, "estimated_support", empty=True)] = True
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

    Parameters
    ----------
    inputs
        The input histograms.
    epsilon
        ``ε >= 0`` (nats).
    outputs
        The output histograms (default: ``inputs``).
    estimated_support
        The categories ``Γ̂*`` of a mis-specified support (§V-C1), or ``None``.

    Returns
    -------
    Mechanism
        ``(inputs.size, outputs.size)``.

    Raises
    ------
    MechDesignError
        If an input is not among its own outputs.

    Examples
    --------
    Three histograms (``τ = d = 2``) at ``e^ε = 2``: keep with ``2 / (3 + 2 − 1) = 1/2``:

    >>> from mechdesign.tabular import HistogramSpace
    >>> histogram_randomized_response(HistogramSpace(2, 2), math.log(2)).matrix
    array([[0.5 , 0.25, 0.25],
           [0.25, 0.5 , 0.25],
           [0.25, 0.25, 0.5 ]])
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
    """Bins of ``interval`` consecutive secret indices (0-based); the last may be partial.

    Parameters
    ----------
    n_values
        The number ``s`` of secret values.
    interval
        ``I``, the bin width.

    Returns
    -------
    list of numpy.ndarray
        The indices of every bin, in order.

    Examples
    --------
    >>> quantization_bins(5, 2)
    [array([0, 1]), array([2, 3]), array([4])]
    """
    size = as_positive_int(interval, "interval")
    return [np.arange(start, min(start + size, n_values)) for start in range(0, n_values, size)]


def quantization_targets(n_values: int, interval: int) -> np.ndarray:
    """The released secret index (0-based) of each bin: ``min(⌊(k + ½) I⌋, s − 1)`` (``R(k) − 1``, clamped).

    Parameters
    ----------
    n_values
        The number ``s`` of secret values.
    interval
        ``I``, the bin width.

    Returns
    -------
    numpy.ndarray
        One index per bin of :func:`quantization_bins`.

    Examples
    --------
    >>> quantization_targets(5, 2)  # ⌊0.5·2⌋, ⌊1.5·2⌋, ⌊2.5·2⌋ = 5 clamped to 4
    array([1, 3, 4])
    """
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

    Returns
    -------
    Mechanism
        ``(input_secret.n_inputs, output_secret.n_inputs)``.

    Raises
    ------
    MechDesignError
        If an input has no permitted output with its bin's released secret value.

    Examples
    --------
    The secret values 0, 1/2, 1 in bins ``{0, 1/2}``, ``{1}``; the first bin is released as 1/2:

    >>> from mechdesign.privacy.sml import Secret
    >>> secret = Secret([0.0, 0.5, 1.0])
    >>> quantization_mechanism(secret, secret, 2).matrix
    array([[0., 1., 0.],
           [0., 1., 0.],
           [0., 0., 1.]])
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
    """QM on histograms for the secret "fraction of ``category``" (SML paper, §V-B(b), Thm. 4).

    Parameters
    ----------
    inputs
        The input histograms.
    category
        The category whose fraction is the secret.
    interval
        ``I``, the number of consecutive secret values per bin.
    outputs
        The output histograms (default: ``inputs``).
    estimated_support
        The categories ``Γ̂*`` of a mis-specified support (§V-C1), or ``None``.
    ordered
        As in :func:`quantization_mechanism`.

    Returns
    -------
    Mechanism
        ``(inputs.size, outputs.size)``.

    Examples
    --------
    Histograms ``(0, 2), (1, 1), (2, 0)``: the fraction of category 0 is 0, 1/2, 1:

    >>> from mechdesign.tabular import HistogramSpace
    >>> histogram_quantization(HistogramSpace(2, 2), 0, 2, ordered=False).matrix  # uniform within the bin
    array([[0.5, 0.5, 0. ],
           [0.5, 0.5, 0. ],
           [0. , 0. , 1. ]])
    """
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

    Ties are broken by the lowest index: among equally good candidates the first in ``Θ'`` is added,
    and an input equally near several chosen histograms is released as the one chosen first. With
    :func:`~mechdesign.tabular.tv_cost` the costs are exact (integer counts divided once by ``τ``), so
    only genuinely equal distances tie.

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
        those of :func:`maxl_candidates`, shared with the large-space
        :func:`~mechdesign.designers.maxl.sample_maxl`).

    Returns
    -------
    Mechanism
        A deterministic mechanism.

    Examples
    --------
    With candidates ``(0, 2)`` and ``(2, 0)`` (total variation 1 apart), both are chosen (the worst case
    drops from 1 to 1/2); ``(1, 1)``, at 1/2 from each, goes to the first chosen:

    >>> from mechdesign.tabular import HistogramSpace, category_fraction_secret, tv_cost
    >>> space = HistogramSpace(2, 2)
    >>> maxl_mechanism(tv_cost(space), category_fraction_secret(space, 0), 2, candidates=[0, 2]).matrix
    array([[1., 0., 0.],
           [1., 0., 0.],
           [0., 0., 1.]])
    """
    matrix = np.asarray(cost, dtype=float)
    if matrix.ndim != 2 or matrix.shape[1] != output_secret.n_inputs:
        raise ShapeMismatchError(f"cost has shape {matrix.shape}, expected (n_inputs, {output_secret.n_inputs})")
    if candidates is None:
        generator = as_rng(rng)
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
    gives the same mechanism as :func:`~mechdesign.designers.maxl.sample_maxl` on every input.

    Parameters
    ----------
    space
        The full space of histograms (every category supported).
    category
        The category whose fraction is the secret.
    interval
        ``I``, the bin width in secret values.
    rng
        Seed or Generator for the candidates.

    Returns
    -------
    Mechanism
        A deterministic mechanism on ``space``.

    Raises
    ------
    MechDesignError
        If ``space`` has a restricted support.

    Examples
    --------
    >>> from mechdesign.tabular import HistogramSpace
    >>> mechanism = histogram_maxl(HistogramSpace(2, 2), 0, 2, rng=0)
    >>> bool(np.isin(mechanism.matrix, [0.0, 1.0]).all())  # deterministic
    True
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
    """A histogram of counts drawn uniformly among the ``C(total + parts − 1, parts − 1)`` ones.

    Parameters
    ----------
    total
        The sum ``τ`` of the counts.
    parts
        The number of categories.
    rng
        Seed or Generator.

    Returns
    -------
    numpy.ndarray
        ``(parts,)`` non-negative integer counts summing to ``total`` (stars and bars).

    Examples
    --------
    >>> draw = sample_composition(5, 3, rng=0)
    >>> draw.shape, int(draw.sum()), bool((draw >= 0).all())
    ((3,), 5, True)
    """
    generator = as_rng(rng)
    bars = np.sort(generator.choice(total + parts - 1, size=parts - 1, replace=False))
    return np.diff(np.r_[-1, bars, total + parts - 1]) - 1


def sample_randomized_response(counts: Any, epsilon: float, rng: RandomState = None) -> np.ndarray:
    """One output of RR (SML paper, §V-B(a)) on the full space of histograms with ``τ = Σ counts``.

    The keep probability ``e^ε / (N + e^ε − 1)``, ``N = C(τ + d − 1, d − 1)``, is computed in log space.

    Parameters
    ----------
    counts
        The input histogram (integer counts).
    epsilon
        ``ε >= 0`` (nats).
    rng
        Seed or Generator.

    Returns
    -------
    numpy.ndarray
        The released counts, of the same total.

    Examples
    --------
    >>> sample_randomized_response([1, 1], 50.0, rng=0)  # keep probability 1 − O(e^{−50})
    array([1, 1])
    >>> int(sample_randomized_response([3, 1, 0], 0.0, rng=0).sum())  # ε = 0: uniform, total kept
    4
    """
    data = as_histogram_counts(counts)
    eps = as_budget(epsilon)
    log_n = log_histogram_count(int(data.sum()), data.size)
    log_keep = eps - np.logaddexp(log_n, eps + math.log(-math.expm1(-eps))) if eps > 0 else -log_n
    generator = as_rng(rng)
    if math.log(generator.random()) < log_keep:
        return data.copy()
    while True:  # uniform over the other N − 1 histograms (rejection of the input itself)
        draw = sample_composition(int(data.sum()), data.size, generator)
        if not np.array_equal(draw, data):
            return draw


def sample_quantization(counts: Any, category: int, interval: int, rng: RandomState = None) -> np.ndarray:
    """One output of QM (SML paper, §V-B(b)) for the secret "fraction of ``category``".

    Parameters
    ----------
    counts
        The input histogram (integer counts).
    category
        The category whose count is the secret.
    interval
        ``I``, the bin width in counts.
    rng
        Seed or Generator for the other categories.

    Returns
    -------
    numpy.ndarray
        The released counts: ``category`` at its bin's target (:func:`quantization_targets`), the rest
        a uniform composition of the remainder.

    Examples
    --------
    ``τ = 4``, bins ``{0, 1}, {2, 3}, {4}`` released as 1, 3, 4: a count of 2 is released as 3:

    >>> released = sample_quantization([2, 1, 1], 0, 2, rng=0)
    >>> int(released[0]), int(released.sum())
    (3, 4)
    """
    data = as_histogram_counts(counts)
    tau = int(data.sum())
    column = as_index(category, data.size, "category")
    size = as_positive_int(interval, "interval")
    target = int(quantization_targets(tau + 1, size)[int(data[column]) // size])
    others = sample_composition(tau - target, data.size - 1, rng)
    return np.insert(others, column, target)


#: Largest candidate set (bins × categories entries) :func:`maxl_candidates` materializes.
MAX_MAXL_ENTRIES = 25_000_000


def maxl_candidates(tau: int, d: int, category: int, interval: int, rng: RandomState = None) -> np.ndarray:
    """MaxL's ``Θ'`` (SML paper, §VI-A): one histogram drawn uniformly per bin of ``interval`` secret values.

    The secret is the count of ``category`` (``τ + 1`` values). In bin ``k`` the count ``c`` is drawn with
    weight ``C(τ − c + d − 2, d − 2)`` (the number of histograms with that count, in log space) and the
    other categories as a uniform composition of ``τ − c``: uniform over the bin's histograms, without
    enumerating them.

    Parameters
    ----------
    tau
        The total count ``τ``.
    d
        The number of categories, at least 2.
    category
        The category whose count is the secret.
    interval
        ``I``, the bin width in counts.
    rng
        Seed or Generator.

    Returns
    -------
    numpy.ndarray
        ``(bins, d)`` counts, row ``k`` from bin ``k``. Refused (:class:`ProblemTooLargeError`) beyond
        :data:`MAX_MAXL_ENTRIES` entries.

    Examples
    --------
    Counts 0..4 in bins ``{0, 1}, {2, 3}, {4}``:

    >>> drawn = maxl_candidates(4, 2, 0, 2, rng=0)
    >>> drawn.shape, drawn.sum(axis=1).tolist(), int(drawn[2, 0])
    ((3, 2), [4, 4, 4], 4)
    >>> bool(drawn[0, 0] in (0, 1) and drawn[1, 0] in (2, 3))
    True
    """
    total = as_positive_int(tau, "tau")
    d = as_positive_int(d, "d", minimum=2)
    column = as_index(category, d, "category")
    n_bins = math.ceil((total + 1) / as_positive_int(interval, "interval"))
    if n_bins * d > MAX_MAXL_ENTRIES:
        raise ProblemTooLargeError(f"{n_bins} bins x {d} categories exceed {MAX_MAXL_ENTRIES} candidate entries; "
                                   f"use a larger interval")
    bins = quantization_bins(total + 1, interval)
    generator = as_rng(rng)
    drawn = np.empty((len(bins), d), dtype=np.int64)
    for row, members in enumerate(bins):
        log_sizes = np.array([log_histogram_count(total - c, d - 1) for c in members])
        weights = np.exp(log_sizes - log_sizes.max())
        count = int(generator.choice(members, p=weights / weights.sum()))
        drawn[row] = np.insert(sample_composition(total - count, d - 1, generator), column, count)
    return drawn
