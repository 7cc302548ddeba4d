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

import copy as _copy
from typing import Any

from .._lazy import cvxpy as cp
import numpy as np
from .._lazy import scipy_sparse as sp

from .._validate import as_cost_matrix, as_positive_int, check_count
from ..memory import check_array
from ..priors import PriorLike, SourceSet, as_prior, as_source_set
from ..relaxation import LinearRelaxation, ObjectiveMinorant, linear_rows
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
    check_array((rows, columns), f"hamming_cost({rows}, {columns})", copies=2)
    return 1.0 - np.eye(rows, columns)


def hamming_scale(cost: np.ndarray) -> float | None:
    """``s`` if ``cost`` is exactly ``s · (1 − I)`` on a square alphabet with ``s > 0``, else ``None``.

    The test is exact (no tolerance): every diagonal entry is 0 and every off-diagonal entry equals
    the same positive number. A 1 × 1 cost has no off-diagonal entry and is not Hamming.

    Examples
    --------
    >>> hamming_scale(3.0 * hamming_cost(4))
    3.0
    >>> hamming_scale(np.array([[0.0, 1.0], [2.0, 0.0]])) is None
    True
    """
    matrix = np.asarray(cost, dtype=float)
    if matrix.ndim != 2 or matrix.shape[0] != matrix.shape[1] or matrix.shape[0] < 2:
        return None
    scale = float(matrix[0, 1])
    off_diagonal = ~np.eye(matrix.shape[0], dtype=bool)
    if not scale > 0 or np.any(np.diagonal(matrix) != 0) or np.any(matrix[off_diagonal] != scale):
        return None
    return scale


def cost_for_prior(size: int, cost: Any) -> np.ndarray:
    """The cost matrix of a prior with ``size`` entries: Hamming when ``cost`` is ``None``, else ``cost``
    validated, one row per prior entry (else a :class:`~mechdesign.exceptions.ShapeMismatchError`).

    Examples
    --------
    >>> cost_for_prior(2, None).tolist()
    [[0.0, 1.0], [1.0, 0.0]]
    """
    matrix = hamming_cost(size) if cost is None else as_cost_matrix(cost)
    check_count(matrix.shape[0], size, "cost matrix", "rows (one per prior entry)")
    return matrix


class CostObjective(Objective):
    """A distortion objective defined by a cost matrix ``self.cost``: scale-free and minimized row by row
    by the deterministic mechanism that picks each row's cheapest output."""

    cost: np.ndarray

    def unconstrained_optimum(self) -> np.ndarray:
        """Each input mapped to its cheapest output: every row cost at its least, so every distortion here too.

        Examples
        --------
        >>> ExpectedDistortion([0.5, 0.5], [[0, 2], [4, 0]]).unconstrained_optimum()
        array([[1., 0.],
               [0., 1.]])
        """
        optimum = np.zeros(self.cost.shape)
        optimum[np.arange(self.cost.shape[0]), self.cost.argmin(axis=1)] = 1.0
        return optimum

    @property
    def unit(self) -> float:
        """The largest absolute cost (1 for an all-zero cost).

        Examples
        --------
        >>> ExpectedDistortion([0.5, 0.5], [[0, 2], [4, 0]]).unit
        4.0
        """
        largest = float(np.abs(self.cost).max())
        return largest if largest > 0 else 1.0

    def rescaled(self, factor: float) -> "CostObjective":
        """A copy with the cost multiplied by ``factor``.

        Examples
        --------
        >>> objective = ExpectedDistortion([0.5, 0.5], [[0, 2], [4, 0]])
        >>> objective.rescaled(0.25).cost, objective.rescaled(0.25).unit  # the original is unchanged
        (array([[0. , 0.5],
               [1. , 0. ]]), 1.0)
        >>> objective.unit
        4.0
        """
        copy = _copy.copy(self)
        copy.cost = self.cost * factor
        return copy


def row_costs(Q: cp.Expression, cost: np.ndarray) -> cp.Expression:
    """``c(x) = Σ_y Q[x, y] cost[x, y]`` as a cvxpy vector.

    Parameters
    ----------
    Q
        The ``(n, m)`` channel (a cvxpy variable or expression).
    cost
        ``(n, m)`` costs.

    Returns
    -------
    cvxpy.Expression
        The ``(n,)`` expected cost of every input.

    Examples
    --------
    >>> from mechdesign._lazy import cvxpy as cp
    >>> row_costs(cp.Constant(np.array([[0.75, 0.25], [0.25, 0.75]])), 1 - np.eye(2)).value  # Hamming: 1 − Q[x, x]
    array([0.25, 0.25])
    """
    return cp.sum(cp.multiply(Q, cost), axis=1)


class ExpectedDistortion(CostObjective):
    """Expected distortion ``E_{P,Q}[d(X, Y)]`` under a prior (PUT paper, eq. (1)).

    Parameters
    ----------
    prior
        The input distribution.
    cost
        ``cost[x, y]``, shape ``(n_inputs, n_outputs)``; default Hamming on a square alphabet,
        built only when :attr:`cost` is first read (an ``n × n`` matrix is 80 GB at ``n = 10⁵``; the
        closed forms of :mod:`mechdesign.methods.closed_form` never read it).

    Examples
    --------
    >>> objective = ExpectedDistortion([0.5, 0.5])
    >>> objective.hamming_scale, objective.shape
    (1.0, (2, 2))
    >>> objective.value([[0.75, 0.25], [0.25, 0.75]])
    0.25
    """

    def __init__(self, prior: PriorLike, cost: Any = None) -> None:
        self.prior = as_prior(prior)
        self._cost = None if cost is None else cost_for_prior(self.prior.size, cost)
        self.shape = (self.prior.size, self.prior.size) if cost is None else self._cost.shape

    @property
    def cost(self) -> np.ndarray:
        """The cost matrix ``cost[x, y]`` (the default Hamming cost is built on first access)."""
        if self._cost is None:
            self._cost = hamming_cost(self.prior.size)
        return self._cost

    @cost.setter
    def cost(self, matrix: np.ndarray) -> None:
        self._cost = matrix

    @property
    def hamming_scale(self) -> float | None:
        """``s`` when the cost is exactly ``s`` times Hamming (see :func:`hamming_scale`), else ``None``.

        Examples
        --------
        >>> ExpectedDistortion([0.5, 0.5]).hamming_scale, ExpectedDistortion([0.5, 0.5], [[0, 2], [2, 0]]).hamming_scale
        (1.0, 2.0)
        >>> ExpectedDistortion([0.5, 0.5], [[0, 2], [1, 0]]).hamming_scale is None
        True
        """
        if self._cost is None:
            return 1.0 if self.prior.size >= 2 else None
        return hamming_scale(self._cost)

    @property
    def label(self) -> str:
        return "expected_distortion"

    def expression(self, Q: cp.Expression) -> cp.Expression:
        self.check_shape(Q.shape)
        return cp.sum(cp.multiply(Q, self.prior.probabilities[:, None] * self.cost))

    def _value(self, matrix: np.ndarray) -> float:
        return float(self.prior.probabilities @ (matrix * self.cost).sum(axis=1))

    def minorant(self, matrix: np.ndarray) -> ObjectiveMinorant:
        """The objective itself (linear): ``Σ P(x) d(x, y) Q[x, y]``.

        Examples
        --------
        >>> ExpectedDistortion([0.5, 0.5], [[0, 2], [4, 0]]).minorant(None).grad_q  # P(x) d(x, y), row-major
        array([0., 1., 2., 0.])
        """
        weights = (self.prior.probabilities[:, None] * self.cost).ravel()
        return ObjectiveMinorant(0.0, weights, np.zeros(0), linear_rows(sp.csr_matrix((0, weights.size)), np.zeros(0)))


class WorstCaseDistortion(CostObjective):
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
        self.cost = cost_for_prior(self.source_set.size, cost)
        self.shape = self.cost.shape

    @property
    def label(self) -> str:
        return "worst_case_distortion"

    def expression(self, Q: cp.Expression) -> cp.Expression:
        self.check_shape(Q.shape)
        return cp.max(self.source_set.extreme_points @ row_costs(Q, self.cost))

    def _value(self, matrix: np.ndarray) -> float:
        return float(np.max(self.source_set.extreme_points @ (matrix * self.cost).sum(axis=1)))

    def minorant(self, matrix: np.ndarray) -> ObjectiveMinorant:
        """The objective itself (an LP): ``t`` with ``E_{P_k}[d] <= t`` for every extreme point ``P_k``,
        ``t`` between the least and the largest cost.

        Examples
        --------
        Over every prior (the extreme points are the point masses) the rows are the row costs:

        >>> minorant = WorstCaseInputDistortion(2).minorant(None)
        >>> minorant.grad_aux, minorant.relaxation.rows_q.toarray()  # minimize t, c(x) − t <= 0
        (array([1.]), array([[0., 1., 0., 0.],
               [0., 0., 1., 0.]]))
        """
        points = self.source_set.extreme_points
        rows = sp.csr_matrix((points[:, :, None] * self.cost[None, :, :]).reshape(len(points), -1))
        epigraph = LinearRelaxation(rows, sp.csr_matrix(-np.ones((len(points), 1))), np.zeros(len(points)),
                                    np.array([float(self.cost.min())]), np.array([float(self.cost.max())]))
        return ObjectiveMinorant(0.0, np.zeros(self.cost.size), np.ones(1), epigraph)


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
