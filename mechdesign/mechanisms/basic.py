"""Basic mechanisms: randomized response and the uniform (constant-output) mechanism."""

from __future__ import annotations

import math

import numpy as np

from .._validate import as_budget, as_positive_int
from ..mechanism import Mechanism
from ..memory import check_array


def randomized_response(n: int, epsilon: float) -> Mechanism:
    """k-ary randomized response (Warner 1965; Kairouz et al. 2016) with budget ``epsilon``.

    ``Q[x, x] = e^ε / (e^ε + n − 1)`` and ``Q[x, y] = 1 / (e^ε + n − 1)`` for ``y != x``; it is
    ε-LDP and optimal for Hamming distortion under a uniform prior (PUT paper, Prop. 8(1)).
    Computed with ``e^{-ε}`` (``Q[x, x] = 1 / (1 + (n − 1) e^{-ε})``), so any budget works: beyond
    about 745 nats ``e^{-ε}`` underflows and the result is the identity, which is also the limit at
    ``ε = inf`` (no privacy).

    Examples
    --------
    >>> import math
    >>> randomized_response(2, math.log(3)).matrix
    array([[0.75, 0.25],
           [0.25, 0.75]])
    >>> randomized_response(2, math.inf).matrix
    array([[1., 0.],
           [0., 1.]])
    """
    size = as_positive_int(n, "n")
    shrink = math.exp(-as_budget(epsilon, infinite=True))
    check_array((size, size), f"randomized_response({size}, …)")
    matrix = np.full((size, size), shrink / (1.0 + (size - 1) * shrink))
    np.fill_diagonal(matrix, 1.0 / (1.0 + (size - 1) * shrink))
    return Mechanism(matrix)


def uniform_mechanism(n_inputs: int, n_outputs: int | None = None) -> Mechanism:
    """The mechanism whose output is uniform whatever the input (leaks nothing; Q_U of Lemma 5).

    Examples
    --------
    >>> uniform_mechanism(2, 4).matrix[0]
    array([0.25, 0.25, 0.25, 0.25])
    """
    rows = as_positive_int(n_inputs, "n_inputs")
    columns = rows if n_outputs is None else as_positive_int(n_outputs, "n_outputs")
    check_array((rows, columns), f"uniform_mechanism({rows}, {columns})")
    return Mechanism(np.full((rows, columns), 1.0 / columns))
