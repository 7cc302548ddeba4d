"""ε-differential privacy on a neighbour relation (local DP when every pair of inputs neighbours).

Zhong & Bu, "Privacy-Utility Trade-Off", Definition 3(1): ``Q`` is ε-DP if
``Q[x, y] <= e^ε Q[x', y]`` for every output ``y`` and neighbouring inputs ``x, x'``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from .._lazy import cvxpy as cp
import numpy as np

from ..relaxation import LinearRelaxation, column_floor, linear_rows, pairwise_rows
from ..structured import worst_log_ratio
from .base import PrivacyNotion
from .neighbours import Neighbours, OnNeighbours


def column_min_variable(Q: cp.Expression) -> tuple[cp.Variable, list[cp.Constraint]]:
    """A variable ``c`` with ``c[y] <= Q[x, y]`` for every ``x`` (a lower bound on each column).

    Bounding every entry of column ``y`` above by a multiple of ``c[y]`` constrains all pairs of
    inputs at once with ``O(n m)`` rows instead of the ``O(n² m)`` of the pairwise form.

    Parameters
    ----------
    Q
        The ``(n, m)`` channel (a cvxpy variable or expression).

    Returns
    -------
    column_min, constraints
        The non-negative ``(m,)`` variable and the constraint ``Q >= c``.

    Examples
    --------
    >>> matrix = np.array([[0.75, 0.25], [0.25, 0.75]])
    >>> column_min, constraints = column_min_variable(cp.Constant(matrix))
    >>> column_min.value = matrix.min(axis=0)  # the column minima meet it; anything larger does not
    >>> bool(constraints[0].value())
    True
    >>> column_min.value = np.array([0.3, 0.25])
    >>> bool(constraints[0].value())
    False
    """
    column_min = cp.Variable(Q.shape[1], nonneg=True)
    return column_min, [Q >= column_min[None, :]]


def pairwise_log_ratios(matrix: np.ndarray, first: np.ndarray, second: np.ndarray) -> np.ndarray:
    """``log(Q[first[k], y] / Q[second[k], y])`` for all k, y, with ``0/0 → -inf`` and ``a/0 → inf``.

    Parameters
    ----------
    matrix
        ``(n, m)`` mechanism.
    first, second
        The inputs of every ordered pair.

    Returns
    -------
    numpy.ndarray
        ``(len(first), m)`` log-ratios.

    Examples
    --------
    >>> pairwise_log_ratios(np.array([[0.75, 0.25], [0.25, 0.75]]), np.array([0]), np.array([1])).round(6)
    array([[ 1.098612, -1.098612]])
    >>> pairwise_log_ratios(np.array([[0.5, 0.5, 0.0], [1.0, 0.0, 0.0]]), np.array([0]), np.array([1]))[:, 1:]
    array([[ inf, -inf]])
    """
    numerator, denominator = matrix[first], matrix[second]
    with np.errstate(divide="ignore", invalid="ignore"):
        ratios = np.log(numerator) - np.log(denominator)
    ratios[numerator == 0] = -np.inf
    ratios[(denominator == 0) & (numerator > 0)] = np.inf
    return ratios


def dp_rows(neighbours: Neighbours, shape: tuple[int, int], scale: float, slack: float) -> LinearRelaxation:
    """``Q[x, y] <= scale · Q[x', y] + slack`` for neighbours ``x, x'`` as :mod:`mechdesign.relaxation` rows.

    Parameters
    ----------
    neighbours
        The neighbour relation.
    shape
        ``(n, m)``, the mechanism's shape.
    scale
        ``e^ε``.
    slack
        Added to every right-hand side (0 for pure DP).

    Returns
    -------
    LinearRelaxation
        Column floors (``2 n m`` rows, ``m`` auxiliaries) for the complete relation, else one row per
        ordered pair and output.

    Examples
    --------
    >>> local = dp_rows(DifferentialPrivacy().neighbours, (3, 2), 3.0, 0.0)
    >>> local.rows_q.shape, local.n_aux
    ((12, 6), 2)
    >>> one_pair = dp_rows(DifferentialPrivacy([(0, 1)], 3).neighbours, (3, 2), 3.0, 0.0)
    >>> one_pair.rows_q.shape, one_pair.n_aux  # (0, 1) and (1, 0), two outputs each
    ((4, 6), 0)
    """
    if neighbours.is_complete:
        return column_floor(shape, scale, slack)
    first, second = neighbours.ordered_pairs(shape[0])
    return linear_rows(pairwise_rows(shape, first, second, scale), np.full(len(first) * shape[1], float(slack)))


class DifferentialPrivacy(OnNeighbours, PrivacyNotion):
    """ε-differential privacy (PUT paper, Definition 3(1)); local DP by default.

    Parameters
    ----------
    neighbours
        ``None`` (every pair of inputs: local DP), a list of index pairs, a boolean adjacency
        matrix, or a :class:`~mechdesign.privacy.neighbours.Neighbours`.
    n_inputs
        Input alphabet size; required when ``neighbours`` is a list of pairs.

    Notes
    -----
    For the complete relation the constraints use one column-minimum variable per output
    (``c[y] <= Q[x, y] <= e^ε c[y]``): ``2nm`` rows, exact because
    ``max_x Q[x, y] <= e^ε min_x Q[x, y]`` is the all-pairs condition. Other relations use one
    row per ordered neighbour pair and output.

    Examples
    --------
    >>> from mechdesign import randomized_response
    >>> mechanism = randomized_response(3, 1.0)  # 1-LDP on 3 symbols
    >>> round(DifferentialPrivacy().measure(mechanism), 6)  # local DP (every pair neighbours)
    1.0
    """

    name = "dp"
    cli_name = "dp"
    designed_from_prior = True
    composition = "same"
    reference = "Zhong & Bu, Privacy-Utility Trade-Off, Definition 3(1)"

    def __init__(self, neighbours: Any = None, n_inputs: int | None = None) -> None:
        self._set_neighbours(neighbours, n_inputs)

    def _constraints(self, Q: cp.Expression, scaled: Any) -> list[cp.Constraint]:
        if self.neighbours.is_complete:
            column_min, constraints = column_min_variable(Q)
            return constraints + [Q <= scaled * column_min[None, :]]
        first, second = self.neighbours.ordered_pairs(Q.shape[0])
        return [Q[first, :] <= scaled * Q[second, :]]

    def relaxation(self, points: Sequence[np.ndarray], budget: float) -> LinearRelaxation:
        """The constraints themselves (an LP): column floors for local DP, else one row per pair and output.

        Examples
        --------
        >>> matrix = np.array([[0.75, 0.25], [0.25, 0.75]])  # randomized response at ε = log 3
        >>> relaxation = DifferentialPrivacy().relaxation([matrix], math.log(3))
        >>> minima = matrix.min(axis=0)
        >>> bool(np.all(relaxation.rows_q @ matrix.ravel() + relaxation.rows_aux @ minima <= relaxation.rhs + 1e-12))
        True
        """
        matrix = points[0]
        return dp_rows(self.neighbours, matrix.shape, math.exp(budget), 0.0)

    def _measure(self, matrix: np.ndarray) -> float:
        if self.neighbours.is_complete:
            lowest = matrix.min(axis=0)
            if lowest.min() > 0:  # every column positive: worst_log_ratio's terms, without its selection of outputs
                return max(0.0, float(np.max(np.log(matrix.max(axis=0) / lowest))))
            return worst_log_ratio(matrix.max(axis=0), lowest)
        first, second = self.neighbours.ordered_pairs(matrix.shape[0])
        return max(0.0, float(pairwise_log_ratios(matrix, first, second).max()))
