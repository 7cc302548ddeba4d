"""Histogram parameter spaces and secrets on them (Wang, Lin & Fanti, "Statistic Maximal Leakage", §V-A).

A tabular dataset with ``d`` attribute combinations is a histogram ``θ``: the fraction of rows with each
combination, to a precision ``τ`` (every entry in ``{0, 1/τ, …, 1}``). The parameter space of all
such histograms has ``C(τ + d − 1, d − 1)`` elements. With a mis-specified support (§V-C1) the
inputs live on the true feasible combinations ``Γ*`` and the outputs on ``Γ̂* ∪ Γ*``: a
:class:`HistogramSpace` takes the set of categories it may use as ``support``.

Distortion is the worst-case expected total-variation distance (eq. (1), Lemma 1):
:func:`tv_distortion` returns the :class:`~mechdesign.utility.distortion.WorstCaseInputDistortion`
with cost ``D_TV(θ, θ') = ½ Σ_i |θ_i − θ'_i|``.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from ._lazy import LazyFunction

from ._validate import as_finite, as_index, as_indices, as_positive_int
from .exceptions import MechDesignError, ProblemTooLargeError, ShapeMismatchError
from .privacy.sml import Secret
from .utility.distortion import WorstCaseInputDistortion

gammaln = LazyFunction("scipy.special", "gammaln")

#: Largest histogram space :class:`HistogramSpace` enumerates.
MAX_HISTOGRAMS = 200_000


def histogram_count(tau: int, d: int) -> int:
    """``C(τ + d − 1, d − 1)``: the number of histograms of precision ``τ`` over ``d`` categories.

    Examples
    --------
    >>> histogram_count(4, 3)  # histograms of precision τ = 4 over d = 3 categories: C(6, 2)
    15
    """
    return math.comb(as_positive_int(tau, "tau") + as_positive_int(d, "d") - 1, d - 1)


def log_histogram_count(tau: float, d: float) -> float:
    """``log C(τ + d − 1, d − 1)`` via ``gammaln`` (no overflow for ``τ``, ``d`` in the tens of thousands).

    Examples
    --------
    >>> round(log_histogram_count(4, 3), 6)  # log 15
    2.70805
    """
    total, parts = as_finite(tau, "tau", minimum=0.0), as_finite(d, "d", minimum=1.0)
    return float(gammaln(total + parts) - gammaln(total + 1) - gammaln(parts))


def compositions(total: int, parts: int) -> np.ndarray:
    """Every vector of ``parts`` non-negative integers summing to ``total`` (stars and bars), shape
    ``(C(total + parts − 1, parts − 1), parts)``, in lexicographically decreasing order.

    Examples
    --------
    >>> compositions(2, 3)
    array([[0, 0, 2],
           [0, 1, 1],
           [0, 2, 0],
           [1, 0, 1],
           [1, 1, 0],
           [2, 0, 0]])
    """
    if parts == 1:
        return np.array([[total]])
    bars = np.array(list(itertools.combinations(range(total + parts - 1), parts - 1)), dtype=np.int64).reshape(-1, parts - 1)
    edges = np.hstack([np.full((bars.shape[0], 1), -1), bars, np.full((bars.shape[0], 1), total + parts - 1)])
    return np.diff(edges, axis=1) - 1


class HistogramSpace:
    """All histograms of precision ``τ`` over ``d`` categories whose support lies in ``support``.

    Parameters
    ----------
    tau
        Precision ``τ``: entries are multiples of ``1/τ``.
    d
        Number of categories (attribute combinations).
    support
        Indices of the categories that may be non-zero (default: all ``d``).

    Attributes
    ----------
    counts
        ``(size, d)`` integer array; row ``i`` is ``τ θ_i``.

    Notes
    -----
    Why this is not a :class:`~mechdesign.parameter_spaces.ParameterSpace`: the two papers model
    different things. Here (SML paper) the space is *every* histogram of precision ``τ``, enumerated in
    integer counts (so that costs and secrets are exact and the samplers of
    :mod:`mechdesign.mechanisms.histogram` can index it), a secret is a map to discrete values
    (:class:`~mechdesign.privacy.sml.Secret`) and there is no prior. A ``ParameterSpace`` (Guarding
    Multiple Secrets) is any finite grid of parameters with a prior, real-valued secrets guessed to
    within tolerances, and a distance. To study histograms under summary statistic privacy, pass
    ``HistogramSpace(τ, d).probabilities`` to :meth:`ParameterSpace.histograms
    <mechdesign.parameter_spaces.ParameterSpace.histograms>`; both use the one
    :func:`total_variation`.

    Examples
    --------
    >>> space = HistogramSpace(2, 2)
    >>> space.size, space.counts.tolist()
    (3, [[0, 2], [1, 1], [2, 0]])
    """

    def __init__(self, tau: int, d: int, support: Sequence[int] | None = None) -> None:
        self.tau = as_positive_int(tau, "tau")
        self.d = as_positive_int(d, "d")
        allowed = np.arange(self.d) if support is None else np.unique(as_indices(support, self.d, "support"))
        self.support = allowed
        size = histogram_count(self.tau, allowed.size)
        if size > MAX_HISTOGRAMS:
            raise ProblemTooLargeError(f"{size} histograms (tau={self.tau}, {allowed.size} categories) exceed "
                                       f"{MAX_HISTOGRAMS}; use the samplers of mechdesign.mechanisms.histogram")
        self.counts = np.zeros((size, self.d), dtype=np.int64)
        self.counts[:, allowed] = compositions(self.tau, allowed.size)
        self.counts.setflags(write=False)
        self._index = {tuple(row): i for i, row in enumerate(self.counts.tolist())}

    @property
    def size(self) -> int:
        """Number of histograms."""
        return self.counts.shape[0]

    @property
    def probabilities(self) -> np.ndarray:
        """``θ`` itself: ``counts / τ``."""
        return self.counts / self.tau

    def index(self, counts: Sequence[int]) -> int:
        """Row of the histogram with these counts (an error if it is not in the space)."""
        key = tuple(int(c) for c in counts)
        if key not in self._index:
            raise MechDesignError(f"histogram {list(key)} is not in {self!r}")
        return self._index[key]

    def supported_within(self, categories: Sequence[int]) -> np.ndarray:
        """Boolean mask of the histograms whose support lies in ``categories``."""
        outside = np.setdiff1d(np.arange(self.d), np.asarray(categories, dtype=int))
        return (self.counts[:, outside] == 0).all(axis=1)

    def __repr__(self) -> str:
        return f"HistogramSpace(tau={self.tau}, d={self.d}, support={self.support.tolist()}, size={self.size})"


def total_variation(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Total variation ``½ ‖p − q‖₁`` between every pair of histograms (rows of ``a`` and ``b``).

    The one TV formula of the package (:func:`tv_cost` and
    :meth:`~mechdesign.parameter_spaces.ParameterSpace.histograms` both use it). On integer counts
    the sum is exact, so two pairs at the same distance get the same float and a caller's tie rule
    decides between them (MaxL: the lowest index, :func:`~mechdesign.mechanisms.histogram.maxl_mechanism`);
    on fractions, round-off may order pairs that are equal in exact arithmetic.

    Examples
    --------
    >>> total_variation(np.array([[2, 0], [1, 1]]), np.array([[0, 2]])).tolist()
    [[2.0], [1.0]]
    """
    return 0.5 * np.abs(a[:, None, :] - b[None, :, :]).sum(axis=2)


def tv_cost(inputs: HistogramSpace, outputs: HistogramSpace | None = None) -> np.ndarray:
    """``cost[θ, θ'] = D_TV(θ, θ') = ½ ‖θ − θ'‖₁`` between two histogram spaces (same ``τ`` and ``d``).

    Computed on the integer counts and divided by ``τ`` once (:func:`total_variation`): equal distances
    are equal floats, so ties are exact.

    Examples
    --------
    >>> tv_cost(HistogramSpace(2, 2)).tolist()
    [[0.0, 0.5, 1.0], [0.5, 0.0, 0.5], [1.0, 0.5, 0.0]]
    """
    outputs = check_same_space(inputs, inputs if outputs is None else outputs)
    return total_variation(inputs.counts, outputs.counts) / inputs.tau


def check_same_space(inputs: HistogramSpace, outputs: HistogramSpace) -> HistogramSpace:
    """``outputs`` if it has the precision ``τ`` and the categories ``d`` of ``inputs`` (its support may
    differ), else a :class:`ShapeMismatchError` naming both spaces.

    Examples
    --------
    >>> check_same_space(HistogramSpace(2, 3), HistogramSpace(2, 3, support=[0, 1])).size
    3
    """
    if (inputs.tau, inputs.d) != (outputs.tau, outputs.d):
        raise ShapeMismatchError(f"histogram spaces differ: {inputs!r} vs {outputs!r}")
    return outputs


def tv_distortion(inputs: HistogramSpace, outputs: HistogramSpace | None = None) -> WorstCaseInputDistortion:
    """The distortion of SML paper eq. (1): worst-case expected TV distance (Lemma 1).

    Examples
    --------
    Releasing the histogram (1/2, 1/2) whatever the input is off by TV 1/2 at worst (the inputs
    (1, 0) and (0, 1)); releasing the input itself costs nothing.

    >>> distortion = tv_distortion(HistogramSpace(2, 2))  # histograms (0, 1), (1/2, 1/2), (1, 0)
    >>> distortion.value(np.tile([0.0, 1.0, 0.0], (3, 1))), distortion.value(np.eye(3))
    (0.5, 0.0)
    """
    return WorstCaseInputDistortion(tv_cost(inputs, outputs))


def category_fraction_secret(space: HistogramSpace, category: int, levels: int | None = None) -> Secret:
    """The secret "fraction of one category" ``g(θ) = θ_category`` (SML paper, §V-C).

    Parameters
    ----------
    category
        The category whose fraction is secret.
    levels
        Quantize the fraction to this many equal-width levels (Fig. 4(a) varies the number of secret
        values this way): ``g = ⌊count · levels / (τ + 1)⌋``. Default: the ``τ + 1`` exact values ``k/τ``.

    Examples
    --------
    >>> space = HistogramSpace(4, 2)  # fractions of category 0: 0, 1/4, 1/2, 3/4, 1
    >>> category_fraction_secret(space, 0).values.tolist()
    [0.0, 0.25, 0.5, 0.75, 1.0]
    >>> category_fraction_secret(space, 0, levels=2).values.tolist()  # ⌊count · 2 / 5⌋
    [0, 0, 0, 1, 1]
    """
    counts = space.counts[:, as_index(category, space.d, "category")]
    if levels is None:
        return Secret(counts / space.tau)
    number = as_positive_int(levels, "levels", maximum=space.tau + 1)
    return Secret(counts * number // (space.tau + 1))


def histogram_secret(space: HistogramSpace, function: Callable[[np.ndarray], Any]) -> Secret:
    """The secret ``g(θ) = function(θ)`` with ``θ`` the probability vector of each histogram.

    Examples
    --------
    >>> secret = histogram_secret(HistogramSpace(2, 2), lambda theta: bool(theta[0] > 0.5))  # is category 0 the majority?
    >>> secret.values.tolist()
    [False, False, True]
    """
    return Secret.from_function(space.probabilities, function)
