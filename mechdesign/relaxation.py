"""Polyhedral outer approximations of notions and affine minorants of objectives (numpy only).

A certified bound on an optimal design needs, besides the solver, a description of the problem that
the solver never saw: every privacy notion gives a :class:`LinearRelaxation` — affine rows
``rows_q · vec(S) + rows_aux · b <= rhs`` that every mechanism ``S`` meeting the notion satisfies
for some auxiliary ``b`` in a box — and every objective an :class:`ObjectiveMinorant`, an affine
function below it on that set. Minimizing the minorant over the relaxation is an LP whose value is
at most the optimum; any dual point of it, evaluated in numpy (:mod:`mechdesign.certificate`), is
a rigorous lower bound. For notions and objectives that are LPs the relaxation is the problem itself;
for convex ones it is a supporting hyperplane at a point, tight at the optimum.

``vec(S)`` is row-major: entry ``(x, y)`` of an ``n × m`` mechanism is index ``x m + y``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
from ._lazy import scipy_sparse as sp


@dataclass(frozen=True)
class LinearRelaxation:
    """Rows ``rows_q · vec(S) + rows_aux · b <= rhs`` with ``aux_lower <= b <= aux_upper``.

    Attributes
    ----------
    rows_q
        ``(K, n m)`` sparse coefficients of the mechanism's entries.
    rows_aux
        ``(K, A)`` sparse coefficients of the auxiliaries.
    rhs
        ``(K,)`` right-hand sides.
    aux_lower, aux_upper
        ``(A,)`` finite bounds that contain the auxiliaries' natural values (e.g. column maxima in
        ``[0, 1]``) at every mechanism meeting the notion.
    """

    rows_q: sp.csr_matrix
    rows_aux: sp.csr_matrix
    rhs: np.ndarray
    aux_lower: np.ndarray = field(default_factory=lambda: np.zeros(0))
    aux_upper: np.ndarray = field(default_factory=lambda: np.zeros(0))

    @property
    def n_aux(self) -> int:
        """Number of auxiliary variables.

        Examples
        --------
        >>> column_floor((2, 3), 3.0, 0.0).n_aux  # one column minimum per output
        3
        """
        return self.aux_lower.size


@dataclass(frozen=True)
class ObjectiveMinorant:
    """``f(S) >= constant + grad_q · vec(S) + grad_aux · b`` whenever ``(S, b)`` meets ``relaxation``.

    Attributes
    ----------
    constant, grad_q, grad_aux
        The affine function (``grad_aux`` refers to ``relaxation``'s auxiliaries).
    relaxation
        Rows tying the objective's own auxiliaries (an epigraph variable for a worst case) to ``S``;
        empty for an objective without auxiliaries.
    """

    constant: float
    grad_q: np.ndarray
    grad_aux: np.ndarray
    relaxation: LinearRelaxation


def linear_rows(rows_q: sp.spmatrix, rhs: np.ndarray) -> LinearRelaxation:
    """A relaxation without auxiliaries.

    Parameters
    ----------
    rows_q
        ``(K, n m)`` coefficients of the mechanism's entries (dense or sparse).
    rhs
        ``(K,)`` right-hand sides.

    Returns
    -------
    LinearRelaxation
        The rows ``rows_q · vec(S) <= rhs``, with an empty ``(K, 0)`` auxiliary block.

    Examples
    --------
    >>> relaxation = linear_rows(np.array([[1.0, 0.0, 0.0, 1.0]]), [1.5])  # S[0, 0] + S[1, 1] <= 1.5
    >>> relaxation.rows_aux.shape, relaxation.n_aux
    ((1, 0), 0)
    """
    rows = sp.csr_matrix(rows_q)
    return LinearRelaxation(rows, sp.csr_matrix((rows.shape[0], 0)), np.asarray(rhs, dtype=float))


def entry_index(shape: tuple[int, int], rows: np.ndarray, columns: np.ndarray) -> np.ndarray:
    """Indices in ``vec(S)`` of the entries ``(rows[k], columns[k])``.

    Parameters
    ----------
    shape
        ``(n, m)``, the mechanism's shape.
    rows, columns
        Inputs and outputs of the entries, of one length.

    Returns
    -------
    numpy.ndarray
        ``rows · m + columns`` (row-major).

    Examples
    --------
    >>> entry_index((2, 3), np.array([0, 1]), np.array([2, 0]))
    array([2, 3])
    """
    return np.asarray(rows) * shape[1] + np.asarray(columns)


def pairwise_rows(shape: tuple[int, int], first: np.ndarray, second: np.ndarray, scale: float) -> sp.csr_matrix:
    """Rows ``S[first[k], y] − scale · S[second[k], y]`` for every pair ``k`` and output ``y`` (row ``k m + y``).

    Parameters
    ----------
    shape
        ``(n, m)``, the mechanism's shape.
    first, second
        The two inputs of every pair, of one length.
    scale
        The factor of the second input's entries (``e^ε`` for local DP).

    Returns
    -------
    scipy.sparse.csr_matrix
        ``(len(first) m, n m)`` rows; with right-hand side 0 they state ``S[first, y] <= scale · S[second, y]``.

    Examples
    --------
    >>> pairwise_rows((2, 2), np.array([0]), np.array([1]), 3.0).toarray()
    array([[ 1.,  0., -3.,  0.],
           [ 0.,  1.,  0., -3.]])
    """
    n_pairs, m = len(first), shape[1]
    outputs = np.tile(np.arange(m), n_pairs)
    row = np.arange(n_pairs * m)
    cols = np.concatenate([entry_index(shape, np.repeat(first, m), outputs),
                           entry_index(shape, np.repeat(second, m), outputs)])
    data = np.concatenate([np.ones(row.size), np.full(row.size, -scale)])
    return sp.csr_matrix((data, (np.concatenate([row, row]), cols)), shape=(row.size, shape[0] * m))


def entry_aux_rows(shape: tuple[int, int], inputs: np.ndarray, aux_scale: float) -> tuple[sp.csr_matrix, sp.csr_matrix]:
    """Rows ``S[x, y] − aux_scale · b_y`` for ``x`` in ``inputs`` and every ``y`` (one auxiliary ``b_y`` per output).

    Parameters
    ----------
    shape
        ``(n, m)``, the mechanism's shape.
    inputs
        The inputs ``x`` with rows.
    aux_scale
        The factor of the auxiliary.

    Returns
    -------
    tuple of scipy.sparse.csr_matrix
        ``(rows_q, rows_aux)``; row ``i m + y`` belongs to ``inputs[i]`` and output ``y``.

    Examples
    --------
    >>> rows_q, rows_aux = entry_aux_rows((2, 2), np.array([1]), 3.0)  # S[1, y] − 3 b_y
    >>> rows_q.toarray()
    array([[0., 0., 1., 0.],
           [0., 0., 0., 1.]])
    >>> rows_aux.toarray()
    array([[-3.,  0.],
           [ 0., -3.]])
    """
    n_rows, m = len(inputs) * shape[1], shape[1]
    outputs = np.tile(np.arange(m), len(inputs))
    row = np.arange(n_rows)
    rows_q = sp.csr_matrix((np.ones(n_rows), (row, entry_index(shape, np.repeat(inputs, m), outputs))),
                           shape=(n_rows, shape[0] * m))
    rows_aux = sp.csr_matrix((np.full(n_rows, -aux_scale), (row, outputs)), shape=(n_rows, m))
    return rows_q, rows_aux


def column_floor(shape: tuple[int, int], scale: float, slack: float) -> LinearRelaxation:
    """``c_y <= S[x, y] <= scale · c_y + slack`` for every entry, ``c ∈ [0, 1]`` (the column-minimum form of local DP).

    Parameters
    ----------
    shape
        ``(n, m)``, the mechanism's shape.
    scale
        ``e^ε``.
    slack
        Added to every ceiling (``δ``-like slack; 0 for pure local DP).

    Returns
    -------
    LinearRelaxation
        ``2 n m`` rows and one auxiliary per output, the column minimum.

    Examples
    --------
    Randomized response at ``e^ε = 3`` meets the rows with ``c`` its column minima:

    >>> mechanism = np.array([[0.75, 0.25], [0.25, 0.75]])
    >>> relaxation = column_floor((2, 2), 3.0, 0.0)
    >>> minima = mechanism.min(axis=0)
    >>> bool(np.all(relaxation.rows_q @ mechanism.ravel() + relaxation.rows_aux @ minima <= relaxation.rhs))
    True
    """
    inputs = np.arange(shape[0])
    floor_q, floor_aux = entry_aux_rows(shape, inputs, 1.0)
    ceiling_q, ceiling_aux = entry_aux_rows(shape, inputs, scale)
    size = floor_q.shape[0]
    return LinearRelaxation(sp.csr_matrix(sp.vstack([-floor_q, ceiling_q])),
                            sp.csr_matrix(sp.vstack([-floor_aux, ceiling_aux])),
                            np.concatenate([np.zeros(size), np.full(size, float(slack))]),
                            np.zeros(shape[1]), np.ones(shape[1]))


def column_ceiling(shape: tuple[int, int], inputs: np.ndarray, rows_q: sp.spmatrix, rhs: np.ndarray) -> LinearRelaxation:
    """``S[x, y] <= M_y`` for ``x`` in ``inputs``, ``M ∈ [0, 1]``, plus rows ``rows_q · vec(S) + M_y <= rhs`` given per output.

    Parameters
    ----------
    shape
        ``(n, m)``, the mechanism's shape.
    inputs
        The inputs whose entries ``M_y`` bounds.
    rows_q
        ``k m`` rows, row ``i m + y`` bounding ``M_y`` (e.g. ``M_y − e^ε P_i · S[:, y] <= 0``).
    rhs
        ``(k m,)`` right-hand sides of those rows.

    Returns
    -------
    LinearRelaxation
        One auxiliary ``M_y`` per output.

    Examples
    --------
    Column maxima at most 0.8:

    >>> relaxation = column_ceiling((2, 2), np.arange(2), sp.csr_matrix((2, 4)), np.full(2, 0.8))
    >>> mechanism = np.array([[0.75, 0.25], [0.25, 0.75]])
    >>> maxima = mechanism.max(axis=0)
    >>> bool(np.all(relaxation.rows_q @ mechanism.ravel() + relaxation.rows_aux @ maxima <= relaxation.rhs))
    True
    """
    cap_q, cap_aux = entry_aux_rows(shape, inputs, 1.0)
    per_output = sp.csr_matrix(sp.kron(np.ones((rows_q.shape[0] // shape[1], 1)), sp.identity(shape[1])))
    return LinearRelaxation(sp.csr_matrix(sp.vstack([cap_q, rows_q])), sp.csr_matrix(sp.vstack([cap_aux, per_output])),
                            np.concatenate([np.zeros(cap_q.shape[0]), rhs]), np.zeros(shape[1]), np.ones(shape[1]))


def column_ceiling_under_priors(shape: tuple[int, int], inputs: np.ndarray, priors: np.ndarray,
                                scale: float) -> LinearRelaxation:
    """``S[x, y] <= M_y <= scale · P_k · S[:, y]`` for ``x`` in ``inputs``, every output and every prior ``P_k`` (rows of ``priors``).

    Parameters
    ----------
    shape
        ``(n, m)``, the mechanism's shape.
    inputs
        The inputs whose entries ``M_y`` bounds.
    priors
        ``(K, n)`` or ``(n,)`` priors.
    scale
        ``e^ε``.

    Returns
    -------
    LinearRelaxation
        One auxiliary ``M_y`` per output (pointwise maximal leakage under every prior).

    Examples
    --------
    Randomized response with ``1 − p = 0.75`` under the uniform prior leaks ``log(0.75 / 0.5) = log 1.5``:

    >>> mechanism = np.array([[0.75, 0.25], [0.25, 0.75]])
    >>> relaxation = column_ceiling_under_priors((2, 2), np.arange(2), np.array([0.5, 0.5]), 1.5)
    >>> maxima = mechanism.max(axis=0)
    >>> bool(np.all(relaxation.rows_q @ mechanism.ravel() + relaxation.rows_aux @ maxima <= relaxation.rhs + 1e-12))
    True
    """
    priors = np.atleast_2d(priors)
    return column_ceiling(shape, inputs, -scale * column_weight_rows(shape, priors), np.zeros(len(priors) * shape[1]))


def column_maxima_sums(shape: tuple[int, int], groups: Sequence[np.ndarray], rhs: float) -> LinearRelaxation:
    """``Σ_y max_{x ∈ g} S[x, y] <= rhs`` for every group ``g`` of inputs.

    Maximal leakage has one group of every input; SML one per selection. The rows are
    ``S[x, y] <= M_{g, y}`` and ``Σ_y M_{g, y} <= rhs``, with ``M ∈ [0, 1]``.

    Parameters
    ----------
    shape
        ``(n, m)``, the mechanism's shape.
    groups
        Arrays of inputs.
    rhs
        The bound on each group's sum of column maxima (``e^ε``).

    Returns
    -------
    LinearRelaxation
        ``m`` auxiliaries per group.

    Examples
    --------
    Randomized response with ``1 − p = 0.75`` has column maxima summing to 1.5 (maximal leakage ``log 1.5``):

    >>> mechanism = np.array([[0.75, 0.25], [0.25, 0.75]])
    >>> maxima = mechanism.max(axis=0)
    >>> def meets(relaxation):
    ...     return bool(np.all(relaxation.rows_q @ mechanism.ravel() + relaxation.rows_aux @ maxima <= relaxation.rhs))
    >>> meets(column_maxima_sums((2, 2), [np.arange(2)], 1.5)), meets(column_maxima_sums((2, 2), [np.arange(2)], 1.4))
    (True, False)
    """
    blocks = []
    for group in groups:
        cap_q, cap_aux = entry_aux_rows(shape, np.asarray(group), 1.0)
        blocks.append(LinearRelaxation(sp.csr_matrix(sp.vstack([cap_q, sp.csr_matrix((1, shape[0] * shape[1]))])),
                                       sp.csr_matrix(sp.vstack([cap_aux, np.ones((1, shape[1]))])),
                                       np.concatenate([np.zeros(cap_q.shape[0]), [rhs]]),
                                       np.zeros(shape[1]), np.ones(shape[1])))
    return stack(blocks, shape[0] * shape[1])


def column_weight_rows(shape: tuple[int, int], weights: np.ndarray) -> sp.csr_matrix:
    """Rows ``Σ_x weights[k, x] S[x, y]`` for every ``k`` and ``y`` (row ``k m + y``); ``weights`` is ``(K, n)``.

    Parameters
    ----------
    shape
        ``(n, m)``, the mechanism's shape.
    weights
        ``(K, n)`` or ``(n,)`` weights of the inputs (e.g. priors).

    Returns
    -------
    scipy.sparse.csr_matrix
        ``(K m, n m)`` rows.

    Examples
    --------
    >>> column_weight_rows((2, 2), np.array([[0.5, 0.5]])).toarray()  # P · S[:, y] under the uniform prior
    array([[0.5, 0. , 0.5, 0. ],
           [0. , 0.5, 0. , 0.5]])
    """
    return sp.csr_matrix(sp.kron(sp.csr_matrix(np.atleast_2d(weights)), sp.identity(shape[1])))


def column_specific_weight_rows(shape: tuple[int, int], weights: np.ndarray) -> sp.csr_matrix:
    """Rows ``Σ_x weights[x, y] S[x, y]``, one per output ``y`` (``weights`` is ``(n, m)``).

    Parameters
    ----------
    shape
        ``(n, m)``, the mechanism's shape.
    weights
        ``(n, m)`` weights, column ``y`` for output ``y``.

    Returns
    -------
    scipy.sparse.csr_matrix
        ``(m, n m)`` rows.

    Examples
    --------
    >>> column_specific_weight_rows((2, 2), np.array([[1.0, 2.0], [3.0, 4.0]])).toarray()
    array([[1., 0., 3., 0.],
           [0., 2., 0., 4.]])
    """
    n, m = shape
    x, y = np.meshgrid(np.arange(n), np.arange(m), indexing="ij")
    return sp.csr_matrix((np.asarray(weights, dtype=float).ravel(), (y.ravel(), (x * m + y).ravel())),
                         shape=(m, n * m))


def column_sum_tangents(shape: tuple[int, int], gradients: Sequence[np.ndarray], aux_upper: float,
                        rhs: float) -> LinearRelaxation:
    """``Σ_y φ(S[:, y]) <= rhs`` for a convex, 1-homogeneous ``φ >= 0``, below by its tangent planes.

    Such a ``φ`` satisfies ``φ(v) >= g · v`` for every (sub)gradient ``g`` at any point. One auxiliary
    ``n_y ∈ [0, aux_upper]`` per output carries ``φ(S[:, y])``: rows ``G[:, y] · S[:, y] <= n_y`` for
    every ``(n, m)`` array ``G`` of ``gradients`` (column ``y`` a gradient of ``φ``), and
    ``Σ_y n_y <= rhs``.

    Parameters
    ----------
    shape
        ``(n, m)``, the mechanism's shape.
    gradients
        ``(n, m)`` arrays of (sub)gradients, column by column.
    aux_upper
        Upper bound of every ``n_y``.
    rhs
        The bound on the sum.

    Returns
    -------
    LinearRelaxation
        ``m · len(gradients) + 1`` rows, ``m`` auxiliaries.

    Examples
    --------
    ``φ(v) = max_x v_x`` has the subgradients ``e_x``; with both, the rows are those of maximal leakage:

    >>> gradients = [np.array([[1.0, 1.0], [0.0, 0.0]]), np.array([[0.0, 0.0], [1.0, 1.0]])]
    >>> relaxation = column_sum_tangents((2, 2), gradients, 1.0, 1.5)
    >>> mechanism = np.array([[0.75, 0.25], [0.25, 0.75]])
    >>> maxima = mechanism.max(axis=0)  # Σ_y = 1.5
    >>> bool(np.all(relaxation.rows_q @ mechanism.ravel() + relaxation.rows_aux @ maxima <= relaxation.rhs))
    True
    """
    m = shape[1]
    rows_q = sp.vstack([column_specific_weight_rows(shape, g) for g in gradients] + [sp.csr_matrix((1, shape[0] * m))])
    rows_aux = sp.vstack([-sp.identity(m)] * len(gradients) + [sp.csr_matrix(np.ones((1, m)))])
    return LinearRelaxation(sp.csr_matrix(rows_q), sp.csr_matrix(rows_aux),
                            np.concatenate([np.zeros(m * len(gradients)), [rhs]]), np.zeros(m), np.full(m, aux_upper))


def stack(blocks: list[LinearRelaxation], n_entries: int) -> LinearRelaxation:
    """One relaxation from several on mechanisms of ``n_entries`` entries, each keeping its own auxiliaries.

    Parameters
    ----------
    blocks
        The relaxations, all on mechanisms of ``n_entries`` entries.
    n_entries
        ``n m`` (the number of columns of ``rows_q`` when ``blocks`` is empty).

    Returns
    -------
    LinearRelaxation
        Every block's rows, auxiliaries placed side by side (block-diagonal ``rows_aux``).

    Examples
    --------
    >>> both = stack([linear_rows(np.array([[1.0, 0.0, 0.0, 1.0]]), [1.5]), column_floor((2, 2), 3.0, 0.0)], 4)
    >>> both.rows_q.shape, both.rows_aux.shape, both.n_aux  # 1 + 8 rows, the floor's 2 auxiliaries
    ((9, 4), (9, 2), 2)
    """
    total = sum(b.n_aux for b in blocks)
    aux_rows, offset = [], 0
    for block in blocks:
        padded = sp.hstack([sp.csr_matrix((block.rhs.size, offset)), block.rows_aux,
                            sp.csr_matrix((block.rhs.size, total - offset - block.n_aux))])
        aux_rows.append(padded)
        offset += block.n_aux
    rows = sum(b.rhs.size for b in blocks)
    return LinearRelaxation(
        sp.csr_matrix(sp.vstack([b.rows_q for b in blocks])) if blocks else sp.csr_matrix((0, n_entries)),
        sp.csr_matrix(sp.vstack(aux_rows)) if blocks else sp.csr_matrix((rows, total)),
        np.concatenate([b.rhs for b in blocks]) if blocks else np.zeros(0),
        np.concatenate([b.aux_lower for b in blocks]) if blocks else np.zeros(0),
        np.concatenate([b.aux_upper for b in blocks]) if blocks else np.zeros(0),
    )


def interior_point(matrix: np.ndarray, weight: float) -> np.ndarray:
    """``(1 − w) S + w / m``: a mechanism with every entry positive, where gradients are finite.

    Parameters
    ----------
    matrix
        ``(n, m)`` mechanism ``S``.
    weight
        ``w ∈ (0, 1]``, the weight of the uniform mechanism.

    Returns
    -------
    numpy.ndarray
        The mixture, row-stochastic if ``S`` is.

    Examples
    --------
    >>> interior_point(np.eye(2), 0.5)
    array([[0.75, 0.25],
           [0.25, 0.75]])
    """
    return (1.0 - weight) * matrix + weight / matrix.shape[1]
