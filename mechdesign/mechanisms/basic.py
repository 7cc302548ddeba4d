"""Basic mechanisms: randomized response and the uniform (constant-output) mechanism."""

from __future__ import annotations

import math

import numpy as np

from .._validate import as_budget, as_positive_int
from ..mechanism import Mechanism


def randomized_response(n: int, epsilon: float) -> Mechanism:
    """k-ary randomized response (Warner 1965; Kairouz et al. 2016) with budget ``epsilon``.

    ``Q[x, x] = e^ε / (e^ε + n − 1)`` and ``Q[x, y] = 1 / (e^ε + n − 1)`` for ``y != x``; it is
    ε-LDP and optimal for Hamming distortion under a uniform prior (PUT paper, Prop. 8(1)).

    Examples
    --------
    >>> import math
    >>> randomized_response(2, math.log(3)).matrix
    array([[0.75, 0.25],
           [0.25, 0.75]])
    """
    size = as_positive_int(n, "n")
    boost = math.exp(as_budget(epsilon))
    matrix = np.full((size, size), 1.0 / (boost + size - 1))
    np.fill_diagonal(matrix, boost / (boost + size - 1))
    return Mechanism(matrix)


def uniform_mechanism(n_inputs: int, n_outputs: int | None = None) -> Mechanism:
    """The mechanism whose output is uniform whatever the input (leaks nothing; Q_U of Lemma 5).

    Examples
    --------
    >>> uniform_mechanism(2, 4).matrix
    array([[0.25, 0.25, 0.25, 0.25],
           [0.25, 0.25, 0.25, 0.25]])
    """
    rows = as_positive_int(n_inputs, "n_inputs")
    columns = rows if n_outputs is None else as_positive_int(n_outputs, "n_outputs")
    return Mechanism(np.full((rows, columns), 1.0 / columns))
