"""Input distributions: a single :class:`Prior` and finite :class:`SourceSet` s of priors.

The PUT paper (Zhong & Bu, Definition 1) calls a set of candidate input distributions a *source set*;
a convex set of priors is represented here by its finitely many extreme points, since every quantity
mechdesign optimizes over a set of priors (worst-case expected distortion, robust PML, …) is convex in
the prior and therefore attains its worst case at an extreme point.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from typing import Any, Union

import numpy as np

from ._validate import (
    as_array,
    as_budget,
    as_failure_probability,
    as_finite,
    as_indices,
    as_positive_int,
    as_probability_vector,
    as_sequence,
    check_count,
    check_full_support,
)
from .memory import check_array
from .exceptions import InvalidDistributionError, ProblemTooLargeError


class Prior:
    """A probability distribution over the input alphabet ``{0, …, n-1}``.

    Parameters
    ----------
    probabilities
        Non-negative entries summing to 1 (within ``1e-9``); never renormalized.

    Examples
    --------
    >>> Prior([0.5, 0.3, 0.2]).size
    3
    >>> Prior.uniform(4)
    Prior([0.25 0.25 0.25 0.25])
    """

    __slots__ = ("_p",)

    def __init__(self, probabilities: Any) -> None:
        vector = as_probability_vector(getattr(probabilities, "probabilities", probabilities))
        vector.setflags(write=False)
        self._p = vector

    @classmethod
    def uniform(cls, size: int) -> "Prior":
        """The uniform prior on ``size`` symbols."""
        n = as_positive_int(size, "size")
        check_array((n,), f"Prior.uniform({n})")
        return cls(np.full(n, 1.0 / n))

    @property
    def probabilities(self) -> np.ndarray:
        """The probability vector (read-only)."""
        return self._p

    @property
    def size(self) -> int:
        """Alphabet size."""
        return self._p.size

    @property
    def has_full_support(self) -> bool:
        """Whether every symbol has positive probability."""
        return bool((self._p > 0).all())

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        return self._p.astype(dtype) if dtype is not None else self._p.copy()

    def __len__(self) -> int:
        return self._p.size

    def __repr__(self) -> str:
        return f"Prior({np.array2string(self._p, precision=4)})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Prior):
            return NotImplemented
        return bool(np.array_equal(self._p, other._p))

    __hash__ = None  # type: ignore[assignment]


PriorLike = Union[Prior, Sequence[float], np.ndarray]


def as_prior(value: PriorLike, size: int | None = None, *, full_support: bool = False) -> Prior:
    """Return ``value`` as a :class:`Prior`, checking its size and (optionally) full support.

    Examples
    --------
    >>> as_prior([0.25, 0.75], size=2)
    Prior([0.25 0.75])
    >>> as_prior([1.0, 0.0], full_support=True)
    Traceback (most recent call last):
    mechdesign.exceptions.InvalidDistributionError: prior must have full support, but entry 1 is 0
    """
    prior = value if isinstance(value, Prior) else Prior(value)
    if size is not None:
        check_count(prior.size, size, "prior")
    if full_support:
        check_full_support(prior.probabilities, "prior")
    return prior


class SourceSet:
    """A convex set of priors given by its finitely many extreme points (PUT paper, Definition 1).

    Parameters
    ----------
    extreme_points
        A sequence of priors (or a 2-D array, one prior per row), all over the same alphabet.
        Duplicates are removed; points inside the hull are kept (they are harmless).

    Notes
    -----
    :meth:`simplex` is the whole probability simplex ("no prior knowledge"): its extreme points are
    the point masses, so a worst case over it is a worst case over inputs.

    Examples
    --------
    >>> source = SourceSet([[0.5, 0.3, 0.2], [0.2, 0.3, 0.5]])
    >>> source, len(source), source.size
    (SourceSet(2 extreme points over 3 symbols), 2, 3)
    """

    __slots__ = ("_points", "_is_simplex")

    def __init__(self, extreme_points: Any) -> None:
        items = as_sequence(extreme_points, "extreme_points", InvalidDistributionError)
        rows = [getattr(p, "probabilities", p) for p in items]
        size = as_probability_vector(rows[0], "extreme_points[0]").size
        stacked = np.vstack([as_probability_vector(row, f"extreme_points[{i}]", size=size)
                             for i, row in enumerate(rows)])
        _, first = np.unique(stacked, axis=0, return_index=True)
        points = stacked[np.sort(first)]
        points.setflags(write=False)
        self._points = points
        self._is_simplex = _contains_all_point_masses(points)

    @classmethod
    def simplex(cls, size: int) -> "SourceSet":
        """The whole probability simplex over ``size`` symbols (no prior knowledge)."""
        n = as_positive_int(size, "size")
        check_array((n, n), f"SourceSet.simplex({n})")
        return cls(np.eye(n))

    @classmethod
    def singleton(cls, prior: PriorLike) -> "SourceSet":
        """The source set containing one prior."""
        return cls([as_prior(prior).probabilities])

    @property
    def extreme_points(self) -> np.ndarray:
        """The priors, one per row (read-only)."""
        return self._points

    @property
    def size(self) -> int:
        """Alphabet size."""
        return self._points.shape[1]

    @property
    def is_simplex(self) -> bool:
        """Whether the set is the whole simplex (it contains every point mass)."""
        return self._is_simplex

    def __len__(self) -> int:
        return self._points.shape[0]

    def __iter__(self) -> Iterator[Prior]:
        return (Prior(p) for p in self._points)

    def __repr__(self) -> str:
        return f"SourceSet({len(self)} extreme point{'' if len(self) == 1 else 's'} over {self.size} symbols)"


def _contains_all_point_masses(points: np.ndarray) -> bool:
    masses = points.max(axis=1) == 1.0
    return len({int(np.argmax(row)) for row in points[masses]}) == points.shape[1]


def as_source_set(value: Any, size: int | None = None) -> SourceSet:
    """Return ``value`` as a :class:`SourceSet`; a single prior becomes a singleton set.

    Examples
    --------
    >>> as_source_set([0.2, 0.8])
    SourceSet(1 extreme point over 2 symbols)
    >>> as_source_set([[1, 0], [0, 1]]).is_simplex
    True
    """
    if isinstance(value, SourceSet):
        source_set = value
    elif not isinstance(value, (Prior, list, tuple, np.ndarray)):
        raise InvalidDistributionError(
            f"prior must be a Prior, a probability vector or a SourceSet, got {value!r} of type {type(value).__name__}")
    elif isinstance(value, Prior) or as_array(value, "prior", InvalidDistributionError).ndim == 1:
        source_set = SourceSet.singleton(value)
    else:
        source_set = SourceSet(value)
    if size is not None:
        check_count(source_set.size, size, "source set", "symbols")
    return source_set


# --- ℓ1-balls of priors and empirical estimates (Grosse et al., eqs. (3), (5), (7)) -----------------

#: Largest alphabet for which :meth:`L1Ball.extreme_points` enumerates the vertices (≈ N² 2^(N−1) candidates).
L1BALL_MAX_ENUMERATION = 12
#: Sums of prior entries within this of each other are equal (vertex enumeration of an ℓ1-ball).
_ROUND_OFF = 1e-12


class L1Ball:
    """The priors within ℓ1-distance ``radius`` of ``center``: ``B_β(P̂) ∩ simplex``.

    Grosse et al., "Privacy Mechanism Design based on Empirical Distributions", eq. (5), for every
    radius β ≥ 0 — also for balls that leave the simplex (β ≥ 2 min P̂), which are cut by it.

    Parameters
    ----------
    center
        The center ``P̂`` (a prior, e.g. an empirical estimate, eq. (3)).
    radius
        The ℓ1-radius β ≥ 0. For ``β >= 2 (1 − min P̂)`` the ball contains the whole simplex.

    Notes
    -----
    The minimum of a linear function ``P ↦ P·v`` over the ball (:meth:`min_expectation`) has the
    closed form of a greedy transport: move ``s = min(β/2, 1)`` of mass from the entries of largest
    ``v`` (each at most its ``P̂`` entry) to an entry of smallest ``v``. Writing ``P = P̂ + u − w``
    with ``u, w ≥ 0``, ``Σu = Σw = s ≤ β/2`` and ``w ≤ P̂``: for a fixed ``s`` the best ``u`` is
    ``s`` on ``argmin v`` and the best ``w`` takes the largest ``v`` first (a fractional knapsack);
    the value's slope in ``s`` is ``min v`` minus the ``v`` currently removed, never positive, so
    the largest ``s`` is optimal.

    Examples
    --------
    >>> ball = L1Ball([0.5, 0.3, 0.2], 0.1)  # every prior within ℓ1 distance 0.1
    >>> ball, ball.half_radius
    (L1Ball(center=[0.5 0.3 0.2], radius=0.1), 0.05)
    """

    __slots__ = ("_center", "_radius")

    def __init__(self, center: PriorLike, radius: float) -> None:
        self._center = as_prior(center)
        self._radius = as_budget(radius, "radius beta")

    @classmethod
    def from_samples(cls, samples: Any, size: int, delta: float) -> "L1Ball":
        """The ball around the empirical estimate (eq. (3)) with the radius β*(δ) of eq. (7).

        It contains the data-generating distribution with probability at least ``1 − δ``
        (Grosse et al., Theorem 2 with ``φ(κ) >= 2``).
        """
        estimate = empirical_estimate(samples, size)
        return cls(estimate, l1_radius(delta, len(samples), size))

    @property
    def center(self) -> Prior:
        """The center ``P̂``."""
        return self._center

    @property
    def radius(self) -> float:
        """The ℓ1-radius β."""
        return self._radius

    @property
    def size(self) -> int:
        """Alphabet size."""
        return self._center.size

    @property
    def half_radius(self) -> float:
        """``s = min(β/2, 1)``: the most mass any prior of the ball moves away from ``P̂``."""
        return min(self._radius / 2.0, 1.0)

    @property
    def support(self) -> np.ndarray:
        """Inputs some prior of the ball charges: all of them if β > 0, else ``supp P̂``."""
        if self._radius > 0:
            return np.arange(self.size)
        return np.flatnonzero(self._center.probabilities > 0)

    @property
    def covers_simplex(self) -> bool:
        """Whether the ball contains every prior: ``β >= 2 (1 − min P̂)`` (every point mass is inside)."""
        return self._radius >= 2.0 * (1.0 - float(self._center.probabilities.min()))

    def minimizers(self, values: Any) -> np.ndarray:
        """For every column ``v`` of ``values`` (shape ``(size, k)``), a prior of the ball minimizing ``P·v``.

        Returns the priors as the columns of a ``(size, k)`` array: ``P̂`` minus the greedy removal
        (largest ``v`` first, ``s = min(β/2, 1)`` in total) plus ``s`` on the first ``argmin v``.
        Emptied entries are exactly 0, so a column that vanishes on the receiving entries gets
        exactly 0 mass.
        """
        columns = np.asarray(values, dtype=float).reshape(self.size, -1)
        center = self._center.probabilities
        order = np.argsort(-columns, axis=0, kind="stable")
        sorted_center = center[order]
        before = np.cumsum(sorted_center, axis=0) - sorted_center
        kept_sorted = sorted_center - np.clip(self.half_radius - before, 0.0, sorted_center)
        priors = np.empty_like(kept_sorted)
        np.put_along_axis(priors, order, kept_sorted, axis=0)
        priors[np.argmin(columns, axis=0), np.arange(columns.shape[1])] += self.half_radius
        return priors

    def min_expectation(self, values: Any) -> float | np.ndarray:
        """``min_{P ∈ B_β(P̂) ∩ simplex} P·v`` for every column ``v`` of ``values`` (exact, greedy).

        ``values`` is a vector (one function; a float is returned) or a ``(size, k)`` matrix (one
        function per column; a length-``k`` array is returned).
        """
        matrix = np.asarray(values, dtype=float)
        columns = matrix.reshape(self.size, -1)
        value = np.einsum("ik,ik->k", self.minimizers(columns), columns)
        return value if matrix.ndim > 1 else float(value[0])

    def minimizer(self, values: Any) -> Prior:
        """A prior of the ball attaining ``min P·v`` for one vector ``v`` (see :meth:`minimizers`)."""
        return Prior(self.minimizers(np.asarray(values, dtype=float).reshape(self.size, 1))[:, 0])

    def contains(self, prior: PriorLike, atol: float = 1e-12) -> bool:
        """Whether ``prior`` lies in the ball (ℓ1-distance at most ``radius + atol``)."""
        vector = as_prior(prior, self.size).probabilities
        return bool(np.abs(vector - self._center.probabilities).sum() <= self._radius + atol)

    def extreme_points(self) -> np.ndarray:
        """The vertices of ``B_β(P̂) ∩ simplex`` (with harmless duplicates removed), one per row.

        Every vertex minimizes some ``P·v`` with distinct entries, so it is a greedy transport: a
        receiver ``i`` gains ``s``, a set ``D`` of donors is emptied and at most one more donor ``j``
        gives the rest; ``s = min(β/2, 1 − P̂(i))``. Enumerated for ``size <= L1BALL_MAX_ENUMERATION``
        (Corollary 1 of Grosse et al. then turns the ball into a :class:`SourceSet`).
        """
        if self.size > L1BALL_MAX_ENUMERATION:
            raise ProblemTooLargeError(
                f"enumerating the vertices of an ℓ1-ball over {self.size} symbols is exponential; "
                f"supported up to {L1BALL_MAX_ENUMERATION}"
            )
        center = self._center.probabilities
        points = []
        for receiver in range(self.size):
            s = min(self.half_radius, 1.0 - center[receiver])  # beyond it the receiver takes from itself
            others = [i for i in range(self.size) if i != receiver]
            for mask in range(1 << len(others)):
                donors = [others[b] for b in range(len(others)) if mask >> b & 1]
                rest = s - center[donors].sum()
                if rest < -_ROUND_OFF:
                    continue
                partial = ([j for j in others if j not in donors and center[j] >= rest]
                           if rest > _ROUND_OFF else [None])
                for j in partial:
                    point = center.copy()
                    point[donors] = 0.0
                    if j is not None:
                        point[j] -= rest
                    point[receiver] += s
                    points.append(point)
        return np.unique(np.clip(np.array(points), 0.0, None), axis=0)

    def to_source_set(self) -> SourceSet:
        """The ball as a :class:`SourceSet` of its :meth:`extreme_points` (small alphabets only)."""
        return SourceSet(self.extreme_points())

    def __repr__(self) -> str:
        return f"L1Ball(center={np.array2string(self._center.probabilities, precision=4)}, radius={self._radius:.6g})"


def empirical_estimate(samples: Any, size: int) -> Prior:
    """The empirical distribution ``P̂(x) = (1/m) Σ_i 1{d_i = x}`` of Grosse et al., eq. (3).

    Parameters
    ----------
    samples
        Integer symbols in ``{0, …, size-1}``; anything else raises naming the first bad sample.
    size
        Alphabet size ``N``.

    Examples
    --------
    >>> empirical_estimate([0, 0, 1, 2], 3)
    Prior([0.5  0.25 0.25])
    """
    n = as_positive_int(size, "size")
    check_array((n,), f"empirical_estimate(samples, {n})")
    counts = np.bincount(as_indices(samples, n, "samples"), minlength=n)
    return Prior(counts / counts.sum())


def l1_radius(delta: float, n_samples: int, size: int, phi: float = 2.0) -> float:
    """The ℓ1-radius that contains the true prior with probability at least ``1 − δ``.

    ``β = 2 sqrt((log(2^N − 2) − log δ) / (m φ))`` inverts Weissman et al.'s bound (Grosse et al.,
    Theorem 2); with the distribution-free ``φ = 2`` (``φ(κ) >= 2``) it is eq. (7),
    ``β*(δ) = sqrt((2/m)(log(2^N − 2) − log δ))`` (the square root covers both factors: see
    docs/errata.md).

    Parameters
    ----------
    delta
        Probability of failure, ``0 < δ < 1``.
    n_samples
        Number of samples ``m``.
    size
        Alphabet size ``N >= 2``.
    phi
        ``φ(κ_P)`` if known (at least 2); the default 2 is distribution free.

    Examples
    --------
    With the default ``φ = 2`` this is eq. (7): here ``sqrt((2/1000)(log 6 − log 0.05))``.

    >>> beta = l1_radius(0.05, 1000, 3)
    >>> round(beta, 6), math.isclose(beta, math.sqrt(2 / 1000 * (math.log(6) - math.log(0.05))))
    (0.097852, True)
    """
    failure = as_failure_probability(delta)
    m = as_positive_int(n_samples, "n_samples")
    n = as_positive_int(size, "size", minimum=2)
    weight = as_finite(phi, "phi", minimum=2.0)
    return 2.0 * math.sqrt((log_subsets(n) - math.log(failure)) / (m * weight))


def log_subsets(size: int) -> float:
    """``log(2^N − 2)``, the log of the number of proper non-empty subsets (no overflow for large N).

    Examples
    --------
    >>> math.isclose(log_subsets(3), math.log(6))
    True
    >>> round(log_subsets(2000), 4)  # 2000 log 2: 2**2000 would overflow a float
    1386.2944
    """
    return size * math.log(2.0) + math.log1p(-(2.0 ** (1 - size)))


PriorSet = Union[SourceSet, L1Ball]


def as_prior_set(value: Any, size: int | None = None) -> PriorSet:
    """An :class:`L1Ball` as it is; anything else through :func:`as_source_set`.

    Examples
    --------
    >>> ball = L1Ball([0.5, 0.5], 0.2)
    >>> as_prior_set(ball) is ball
    True
    >>> as_prior_set([0.5, 0.5])
    SourceSet(1 extreme point over 2 symbols)
    """
    if isinstance(value, L1Ball):
        if size is not None:
            check_count(value.size, size, "ℓ1-ball", "symbols")
        return value
    return as_source_set(value, size)
