"""Mutual information: a plain-numpy value, a cvxpy expression, an objective to minimize, and a
sub-linear column utility (maximized exactly by :func:`mechdesign.designers.extreme_columns.maximize_mutual_information`).

``I(X; Y) = Σ_{x,y} P(x) Q[x, y] log(Q[x, y] / P_Y(y))`` in nats, with ``P_Y = P Q``. As a sum over
outputs, ``I = Σ_y μ(Q[:, y])`` with ``μ(v) = Σ_x P(x) v_x log(v_x / P·v)`` — sub-linear (positively
homogeneous and convex), so maximizing it under a column-separable privacy notion is the exact LP of
:mod:`mechdesign.designers.extreme_columns`.
"""

from __future__ import annotations

from .._lazy import cvxpy as cp
import numpy as np
from .._lazy import LazyFunction

from .._validate import as_positive_int
from ..mechanism import MechanismLike, as_mechanism
from ..priors import PriorLike, as_prior
from .._lazy import scipy_sparse as sp

from ..relaxation import ObjectiveMinorant, linear_rows
from .base import Objective
from .sublinear import ColumnUtility

rel_entr = LazyFunction("scipy.special", "rel_entr")


def mutual_information(prior: PriorLike, mechanism: MechanismLike) -> float:
    """``I(X; Y)`` in nats for input distribution ``prior`` and channel ``mechanism``.

    Examples
    --------
    >>> round(mutual_information([0.5, 0.5], [[0.75, 0.25], [0.25, 0.75]]), 6)  # log 2 − h(1/4), nats
    0.130812
    """
    matrix = as_mechanism(mechanism).matrix
    p = as_prior(prior, matrix.shape[0]).probabilities
    joint = p[:, None] * matrix
    product = p[:, None] * (p @ matrix)[None, :]
    return max(0.0, float(rel_entr(joint, product).sum()))


def mutual_information_gradient(prior: np.ndarray, matrix: np.ndarray) -> np.ndarray:
    """``∂I/∂Q[x, y] = P(x) log(Q[x, y] / P_Y(y))`` at a channel with every entry positive.

    ``I(P; ·)`` is convex and 1-homogeneous, so ``I(P; Q) >= Σ gradient ∘ Q`` for every ``Q >= 0``
    (with equality at the channel itself, Euler's identity).

    Parameters
    ----------
    prior
        ``(n,)`` input distribution.
    matrix
        ``(n, m)`` channel with every entry positive.

    Returns
    -------
    numpy.ndarray
        ``(n, m)`` gradient.

    Examples
    --------
    >>> prior, matrix = np.array([0.5, 0.5]), np.array([[0.75, 0.25], [0.25, 0.75]])
    >>> gradient = mutual_information_gradient(prior, matrix)
    >>> bool(np.isclose((gradient * matrix).sum(), mutual_information(prior, matrix)))  # tight at Q
    True
    >>> bool((gradient * np.eye(2)).sum() <= mutual_information(prior, np.eye(2)))  # below I elsewhere
    True
    """
    return prior[:, None] * np.log(matrix / (prior @ matrix)[None, :])


def mutual_information_expression(Q: cp.Expression, prior: np.ndarray) -> cp.Expression:
    """``I(X; Y)`` as a convex cvxpy expression of the channel ``Q`` (exponential cone).

    Parameters
    ----------
    Q
        The ``(n, m)`` channel (a cvxpy variable or expression).
    prior
        ``(n,)`` input distribution.

    Returns
    -------
    cvxpy.Expression
        ``I(X; Y)`` in nats.

    Examples
    --------
    >>> from mechdesign._lazy import cvxpy as cp
    >>> matrix = np.array([[0.75, 0.25], [0.25, 0.75]])
    >>> round(float(mutual_information_expression(cp.Constant(matrix), np.array([0.5, 0.5])).value), 6)
    0.130812
    """
    return cp.sum(cp.rel_entr(cp.multiply(prior[:, None], Q), cp.outer(prior, prior @ Q)))


class MutualInformation(Objective):
    """Mutual information ``I(X; Y)`` under ``prior``, as an objective (minimized: leakage).

    Parameters
    ----------
    prior
        The input distribution.
    n_outputs
        Output alphabet size; defaults to the input alphabet size.

    Examples
    --------
    >>> from mechdesign import Prior, randomized_response
    >>> matrix = randomized_response(3, 1.0).matrix
    >>> round(MutualInformation(Prior([0.5, 0.3, 0.2])).value(matrix), 6)  # I(X; Y), nats
    0.11412
    """

    sense = "minimize"
    is_linear = False

    def __init__(self, prior: PriorLike, n_outputs: int | None = None) -> None:
        self.prior = as_prior(prior)
        self.shape = (self.prior.size, self.prior.size if n_outputs is None else as_positive_int(n_outputs, "n_outputs"))

    @property
    def label(self) -> str:
        return "mutual_information"

    def expression(self, Q: cp.Expression) -> cp.Expression:
        self.check_shape(Q.shape)
        return mutual_information_expression(Q, self.prior.probabilities)

    def _value(self, matrix: np.ndarray) -> float:
        return mutual_information(self.prior, matrix)

    def minorant(self, matrix: np.ndarray) -> ObjectiveMinorant:
        """The tangent plane at ``matrix`` (exact below ``I``: convex and 1-homogeneous, no constant).

        Examples
        --------
        >>> minorant = MutualInformation([0.5, 0.5]).minorant(np.array([[0.75, 0.25], [0.25, 0.75]]))
        >>> minorant.constant, round(float(minorant.grad_q @ [0.75, 0.25, 0.25, 0.75]), 6)  # equals I at the point
        (0.0, 0.130812)
        """
        gradient = mutual_information_gradient(self.prior.probabilities, matrix).ravel()
        return ObjectiveMinorant(0.0, gradient, np.zeros(0), linear_rows(sp.csr_matrix((0, gradient.size)), np.zeros(0)))

    def unconstrained_optimum(self) -> np.ndarray:
        """A constant mechanism (every input to the first output): ``I = 0``.

        Examples
        --------
        >>> MutualInformation([0.5, 0.5]).unconstrained_optimum()
        array([[1., 0.],
               [1., 0.]])
        """
        optimum = np.zeros(self.shape)
        optimum[:, 0] = 1.0
        return optimum


def mutual_information_columns(prior: np.ndarray, columns: np.ndarray) -> np.ndarray:
    """``μ(v) = Σ_x P(x) v_x log(v_x / P·v)`` for every column ``v`` of ``columns`` (0 for ``v = 0``).

    Parameters
    ----------
    prior
        ``(n,)`` input distribution.
    columns
        ``(n, k)`` non-negative columns.

    Returns
    -------
    numpy.ndarray
        ``(k,)`` values; over the columns of a channel they sum to ``I(X; Y)``.

    Examples
    --------
    >>> values = mutual_information_columns(np.array([0.5, 0.5]), np.array([[0.75, 0.25, 0.0], [0.25, 0.75, 0.0]]))
    >>> values.round(6)  # the two halves of log 2 − h(1/4), nothing from the zero column
    array([0.065406, 0.065406, 0.      ])
    """
    weighted = prior[:, None] * columns
    output_mass = prior @ columns
    return rel_entr(weighted, prior[:, None] * output_mass[None, :]).sum(axis=0)


def mutual_information_utility(prior: PriorLike) -> ColumnUtility:
    """``I(X; Y)`` under ``prior`` as a sub-convex utility ``Σ_y μ(Q[:, y])`` (Grosse et al., eq. (2)).

    Parameters
    ----------
    prior
        The input distribution.

    Returns
    -------
    ColumnUtility
        ``μ`` is :func:`mutual_information_columns` under ``prior``.

    Examples
    --------
    >>> utility = mutual_information_utility([0.5, 0.5])
    >>> matrix = [[0.75, 0.25], [0.25, 0.75]]
    >>> utility.value(matrix) == mutual_information([0.5, 0.5], matrix)
    True
    """
    p = as_prior(prior).probabilities
    return ColumnUtility(lambda columns: mutual_information_columns(p, columns), p.size, "mutual_information")
