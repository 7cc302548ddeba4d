"""Input distributions: a single :class:`Prior` and finite :class:`SourceSet` s of priors.

The PUT paper (Zhong & Bu, Definition 1) calls a set of candidate input distributions a *source set*;
a convex set of priors is represented here by its finitely many extreme points, since every quantity
mechdesign optimizes over a set of priors (worst-case expected distortion, robust PML, …) is convex in
the prior and therefore attains its worst case at an extreme point.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, Union

import numpy as np

from ._validate import as_positive_int, as_probability_vector
from .exceptions import InvalidDistributionError, ShapeMismatchError


class Prior:
    """A probability distribution over the input alphabet ``{0, …, n-1}``.

    Parameters
    ----------
    probabilities
        Non-negative entries summing to 1 (within ``1e-9``); never renormalized.
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
    """Return ``value`` as a :class:`Prior`, checking its size and (optionally) full support."""
    prior = value if isinstance(value, Prior) else Prior(value)
    if size is not None and prior.size != size:
        raise ShapeMismatchError(f"prior has {prior.size} entries, expected {size}")
    if full_support and not prior.has_full_support:
        index = int(np.argmin(prior.probabilities))
        raise InvalidDistributionError(
            f"prior must have full support, but P({index}) = {float(prior.probabilities[index]):.12g}"
        )
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
    """

    __slots__ = ("_points", "_is_simplex")

    def __init__(self, extreme_points: Any) -> None:
        rows = [getattr(p, "probabilities", p) for p in extreme_points]
        if not rows:
            raise InvalidDistributionError("a source set needs at least one prior")
        vectors = [as_probability_vector(row, f"source-set prior {i}") for i, row in enumerate(rows)]
        sizes = {v.size for v in vectors}
        if len(sizes) != 1:
            raise ShapeMismatchError(f"source-set priors have different sizes {sorted(sizes)}")
        stacked = np.vstack(vectors)
        _, first = np.unique(stacked, axis=0, return_index=True)
        points = stacked[np.sort(first)]
        points.setflags(write=False)
        self._points = points
        self._is_simplex = _contains_all_point_masses(points)

    @classmethod
    def simplex(cls, size: int) -> "SourceSet":
        """The whole probability simplex over ``size`` symbols (no prior knowledge)."""
        return cls(np.eye(as_positive_int(size, "size")))

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
        return f"SourceSet({len(self)} extreme points over {self.size} symbols)"


def _contains_all_point_masses(points: np.ndarray) -> bool:
    masses = points.max(axis=1) == 1.0
    return len({int(np.argmax(row)) for row in points[masses]}) == points.shape[1]


def as_source_set(value: Any, size: int | None = None) -> SourceSet:
    """Return ``value`` as a :class:`SourceSet`; a single prior becomes a singleton set."""
    if isinstance(value, SourceSet):
        source_set = value
    elif isinstance(value, Prior) or np.ndim(value) == 1:
        source_set = SourceSet.singleton(value)
    else:
        source_set = SourceSet(value)
    if size is not None and source_set.size != size:
        raise ShapeMismatchError(f"source set is over {source_set.size} symbols, expected {size}")
    return source_set
