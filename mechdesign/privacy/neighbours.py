"""Neighbour relations on the input alphabet, for differential-privacy-type notions."""

from __future__ import annotations

from typing import Any

import numpy as np

from .._validate import as_neighbour_pairs, as_neighbour_size, as_positive_int
from .base import parameter_label


class Neighbours:
    """Which inputs are neighbours (the pairs a DP-type notion constrains).

    Parameters
    ----------
    pairs
        ``None`` for *every* pair of inputs (local DP), an iterable of index pairs, or a boolean
        adjacency matrix.
    n_inputs
        Size of the input alphabet; required with a list of pairs, implied by an adjacency matrix,
        free (taken from the mechanism) for the complete relation.

    Examples
    --------
    A path on three inputs, as index pairs (the alphabet size given) or a boolean adjacency matrix:

    >>> Neighbours([(0, 1), (1, 2)], n_inputs=3).unordered_pairs(3).tolist()
    [[0, 1], [1, 2]]
    >>> Neighbours(np.eye(3, k=1, dtype=bool)).n_inputs
    3
    """

    def __init__(self, pairs: Any = None, n_inputs: int | None = None) -> None:
        if pairs is None:
            self.n_inputs = None if n_inputs is None else as_positive_int(n_inputs, "n_inputs")
            self._pairs = None
            return
        self.n_inputs = as_neighbour_size(pairs, n_inputs)
        self._pairs = as_neighbour_pairs(pairs, self.n_inputs)
        if len(self._pairs) == self.n_inputs * (self.n_inputs - 1) // 2:
            self._pairs = None  # every pair listed: use the structured complete-graph formulation

    @property
    def is_complete(self) -> bool:
        """Whether every pair of distinct inputs is a neighbour pair."""
        return self._pairs is None

    def unordered_pairs(self, n_inputs: int) -> np.ndarray:
        """The neighbour pairs ``(i, j)``, ``i < j``, as a (k, 2) integer array."""
        if self._pairs is not None:
            return self._pairs
        return np.array(np.triu_indices(n_inputs, k=1)).T

    def ordered_pairs(self, n_inputs: int) -> tuple[np.ndarray, np.ndarray]:
        """Index arrays ``(I, J)`` listing every ordered neighbour pair ``(I[k], J[k])``."""
        pairs = self.unordered_pairs(n_inputs)
        return np.concatenate([pairs[:, 0], pairs[:, 1]]), np.concatenate([pairs[:, 1], pairs[:, 0]])

    def describe(self) -> str:
        """Short text for labels: ``"all pairs"`` or the number of pairs."""
        return "all pairs" if self._pairs is None else f"{len(self._pairs)} pairs"


class OnNeighbours:
    """Mixin: the notion's :class:`Neighbours` relation, which may also fix the input alphabet."""

    name: str
    neighbours: Neighbours
    n_inputs: int | None

    def _set_neighbours(self, neighbours: Any, n_inputs: int | None) -> None:
        self.neighbours = neighbours if isinstance(neighbours, Neighbours) else Neighbours(neighbours, n_inputs)
        self.n_inputs = self.neighbours.n_inputs

    @property
    def label(self) -> str:
        return self._label()

    def _label(self, *parameters: str) -> str:
        """``name(parameters…, k pairs)``; just ``name`` for every pair and no parameters."""
        scope = [] if self.neighbours.is_complete else [self.neighbours.describe()]
        return parameter_label(self.name, *parameters, *scope)
