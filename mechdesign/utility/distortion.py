"""Distortion objectives: expected cost under a prior, worst case over a source set or over inputs.

A cost matrix ``cost[x, y] = d(x, y)`` gives each (input, output) pair a distortion; the row cost
``c(x) = Σ_y Q[x, y] d(x, y)`` is the expected distortion given input ``x``. Then

* expected distortion under ``P``: ``Σ_x P(x) c(x)`` (PUT paper, eq. (1));
* worst case over a source set: ``max_{P ∈ 𝒫} Σ_x P(x) c(x)`` — attained at an extreme point, so one
  linear piece per extreme point (PUT paper, Definition 2);
* worst case over inputs: ``max_x c(x)`` (Wang, Lin & Fanti, "Statistic Maximal Leakage", Lemma 1:
  the worst-case prior of eq. (1) puts all its mass on one input).
"""

from __future__ import annotations

from typing import Any

import cvxpy as cp
import numpy as np

from .._validate import as_cost_matrix, as_positive_int
from ..exceptions import ShapeMismatchError
from ..priors import PriorLike, SourceSet, as_prior, as_source_set
from .base import Objective


def hamming_cost(n_inputs: int, n_outputs: int | None = None) -> np.ndarray:
    """Hamming distortion ``d(x, y) = 1[x != y]`` on ``n_inputs × n_outputs`` (default square).

    Examples
    --------
    >>> hamming_cost(3)
    array([[0., 1., 1.],
           [1., 0., 1.],
           [1., 1., 0.]])
    """
    rows = as_positive_int(n_inputs, "n_inputs")
    columns = rows if n_outputs is None else as_positive_int(n_outputs, "n_outputs")
    return 1.0 - np.eye(rows, columns)


def _cost_for(size: int, cost: Any) -> np.ndarray:
    if cost is None:
        return hamming_cost(size)
    matrix = as_cost_matrix(cost)
    if matrix.shape[0] != size:
        raise ShapeMismatchError(f"cost matrix has {matrix.shape[0]} rows, but the prior has {size} entries")
    return matrix


def row_costs(Q: cp.Expression, cost: np.ndarray) -> cp.Expression:
    """``c(x) = Σ_y Q[x, y] cost[x, y]`` as a cvxpy vector."""
    return cp.sum(cp.multiply(Q, cost), axis=1)


class ExpectedDistortion(Objective):
    """Expected distortion ``E_{P,Q}[d(X, Y)]`` under a prior (PUT paper, eq. (1)).

    Parameters
    ----------
    prior
        The input distribution.
    cost
        ``cost[x, y]``, shape ``(n_inputs, n_outputs)``; default Hamming on a square alphabet.

    Examples
    --------
    >>> from mechdesign import Prior, randomized_response
    >>> matrix = randomized_response(3, 1.0).matrix
    >>> round(ExpectedDistortion(Prior([0.5, 0.3, 0.2])).value(matrix), 6)  # Hamming cost by default
    0.423883
    """

    def __init__(self, prior: PriorLike, cost: Any = None) -> None:
        self.prior = as_prior(prior)
        self.cost = _cost_for(self.prior.size, cost)
        self.shape = self.cost.shape

    @property
    def label(self) -> str:
        return "expected_distortion"

    def expression(self, Q: cp.Expression) -> cp.Expression:
        self.check_shape(Q.shape)
        return cp.sum(cp.multiply(Q, self.prior.probabilities[:, None] * self.cost))

    def _value(self, matrix: np.ndarray) -> float:
        return float(self.prior.probabilities @ (matrix * self.cost).sum(axis=1))


class WorstCaseDistortion(Objective):
    """Worst-case expected distortion over a source set (PUT paper, Definition 2).

    ``max_{P ∈ 𝒫} E_{P,Q}[d(X, Y)]``, one linear piece per extreme point of 𝒫.

    Parameters
    ----------
    source_set
        A :class:`~mechdesign.priors.SourceSet` (or anything :func:`as_source_set` accepts).
    cost
        As for :class:`ExpectedDistortion`.

    Examples
    --------
    >>> from mechdesign import SourceSet, randomized_response
    >>> matrix = randomized_response(3, 1.0).matrix
    >>> round(WorstCaseDistortion(SourceSet.simplex(3)).value(matrix), 6)  # no prior knowledge
    0.423883
    """

    def __init__(self, source_set: Any, cost: Any = None) -> None:
        self.source_set: SourceSet = as_source_set(source_set)
        self.cost = _cost_for(self.source_set.size, cost)
        self.shape = self.cost.shape

    @property
    def label(self) -> str:
        return "worst_case_distortion"

    def expression(self, Q: cp.Expression) -> cp.Expression:
        self.check_shape(Q.shape)
        return cp.max(self.source_set.extreme_points @ row_costs(Q, self.cost))

    def _value(self, matrix: np.ndarray) -> float:
        return float(np.max(self.source_set.extreme_points @ (matrix * self.cost).sum(axis=1)))


class WorstCaseInputDistortion(WorstCaseDistortion):
    """Worst-case distortion over inputs ``max_x Σ_y Q[x, y] d(x, y)`` (SML paper, Lemma 1).

    The worst case of the expected distortion over *every* prior (the whole simplex).

    Parameters
    ----------
    cost
        ``cost[x, y]``; or an integer ``n`` for Hamming distortion on ``n`` symbols.

    Examples
    --------
    >>> from mechdesign import randomized_response
    >>> round(WorstCaseInputDistortion(3).value(randomized_response(3, 1.0).matrix), 6)
    0.423883
    """

    def __init__(self, cost: Any) -> None:
        matrix = hamming_cost(cost) if isinstance(cost, (int, np.integer)) else as_cost_matrix(cost)
        super().__init__(SourceSet.simplex(matrix.shape[0]), matrix)

    @property
    def label(self) -> str:
        return "worst_case_input_distortion"

    def expression(self, Q: cp.Expression) -> cp.Expression:
        self.check_shape(Q.shape)
        return cp.max(row_costs(Q, self.cost))
