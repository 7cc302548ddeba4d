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
        """Number of auxiliary variables."""
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
    """A relaxation without auxiliaries."""
    rows = sp.csr_matrix(rows_q)
    return LinearRelaxation(rows, sp.csr_matrix((rows.shape[0], 0)), np.asarray(rhs, dtype=float))


def entry_index(shape: tuple[int, int], rows: np.ndarray, columns: np.ndarray) -> np.ndarray:
    """Indices in ``vec(S)`` of the entries ``(rows[k], columns[k])``."""
    return np.asarray(rows) * shape[1] + np.asarray(columns)


def pairwise_rows(shape: tuple[int, int], first: np.ndarray, second: np.ndarray, scale: float) -> sp.csr_matrix:
    """Rows ``S[first[k], y] − scale · S[second[k], y]`` for every pair ``k`` and output ``y`` (row ``k m + y``)."""
    n_pairs, m = len(first), shape[1]
    outputs = np.tile(np.arange(m), n_pairs)
    row = np.arange(n_pairs * m)
    cols = np.concatenate([entry_index(shape, np.repeat(first, m), outputs),
                           entry_index(shape, np.repeat(second, m), outputs)])
    data = np.concatenate([np.ones(row.size), np.full(row.size, -scale)])
    return sp.csr_matrix((data, (np.concatenate([row, row]), cols)), shape=(row.size, shape[0] * m))


def entry_aux_rows(shape: tuple[int, int], inputs: np.ndarray, aux_scale: float) -> tuple[sp.csr_matrix, sp.csr_matrix]:
    """Rows ``S[x, y] − aux_scale · b_y`` for ``x`` in ``inputs`` and every ``y`` (one auxiliary ``b_y`` per output).

    Returns ``(rows_q, rows_aux)``; row ``i m + y`` belongs to ``inputs[i]`` and output ``y``.
    """
    n_rows, m = len(inputs) * shape[1], shape[1]
    outputs = np.tile(np.arange(m), len(inputs))
    row = np.arange(n_rows)
    rows_q = sp.csr_matrix((np.ones(n_rows), (row, entry_index(shape, np.repeat(inputs, m), outputs))),
                           shape=(n_rows, shape[0] * m))
    rows_aux = sp.csr_matrix((np.full(n_rows, -aux_scale), (row, outputs)), shape=(n_rows, m))
    return rows_q, rows_aux


def column_floor(shape: tuple[int, int], scale: float, slack: float) -> LinearRelaxation:
    """``c_y <= S[x, y] <= scale · c_y + slack`` for every entry, ``c ∈ [0, 1]`` (the column-minimum form of local DP)."""
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

    ``rows_q`` has ``k m`` rows, row ``i m + y`` bounding ``M_y`` (e.g. ``M_y − e^ε P_i · S[:, y] <= 0``).
    """
    cap_q, cap_aux = entry_aux_rows(shape, inputs, 1.0)
    per_output = sp.csr_matrix(sp.kron(np.ones((rows_q.shape[0] // shape[1], 1)), sp.identity(shape[1])))
    return LinearRelaxation(sp.csr_matrix(sp.vstack([cap_q, rows_q])), sp.csr_matrix(sp.vstack([cap_aux, per_output])),
                            np.concatenate([np.zeros(cap_q.shape[0]), rhs]), np.zeros(shape[1]), np.ones(shape[1]))


def column_ceiling_under_priors(shape: tuple[int, int], inputs: np.ndarray, priors: np.ndarray,
                                scale: float) -> LinearRelaxation:
    """``S[x, y] <= M_y <= scale · P_k · S[:, y]`` for ``x`` in ``inputs``, every output and every prior ``P_k`` (rows of ``priors``)."""
    priors = np.atleast_2d(priors)
    return column_ceiling(shape, inputs, -scale * column_weight_rows(shape, priors), np.zeros(len(priors) * shape[1]))


def column_maxima_sums(shape: tuple[int, int], groups: Sequence[np.ndarray], rhs: float) -> LinearRelaxation:
    """``Σ_y max_{x ∈ g} S[x, y] <= rhs`` for every group ``g`` of inputs (maximal leakage: one group of
    every input; SML: one per selection), with ``S[x, y] <= M_{g, y}``, ``Σ_y M_{g, y} <= rhs``, ``M ∈ [0, 1]``."""
    blocks = []
    for group in groups:
        cap_q, cap_aux = entry_aux_rows(shape, np.asarray(group), 1.0)
        blocks.append(LinearRelaxation(sp.csr_matrix(sp.vstack([cap_q, sp.csr_matrix((1, shape[0] * shape[1]))])),
                                       sp.csr_matrix(sp.vstack([cap_aux, np.ones((1, shape[1]))])),
                                       np.concatenate([np.zeros(cap_q.shape[0]), [rhs]]),
                                       np.zeros(shape[1]), np.ones(shape[1])))
    return stack(blocks, shape[0] * shape[1])


def column_weight_rows(shape: tuple[int, int], weights: np.ndarray) -> sp.csr_matrix:
    """Rows ``Σ_x weights[k, x] S[x, y]`` for every ``k`` and ``y`` (row ``k m + y``); ``weights`` is ``(K, n)``."""
    return sp.csr_matrix(sp.kron(sp.csr_matrix(np.atleast_2d(weights)), sp.identity(shape[1])))


def column_specific_weight_rows(shape: tuple[int, int], weights: np.ndarray) -> sp.csr_matrix:
    """Rows ``Σ_x weights[x, y] S[x, y]``, one per output ``y`` (``weights`` is ``(n, m)``)."""
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
    """
    m = shape[1]
    rows_q = sp.vstack([column_specific_weight_rows(shape, g) for g in gradients] + [sp.csr_matrix((1, shape[0] * m))])
    rows_aux = sp.vstack([-sp.identity(m)] * len(gradients) + [sp.csr_matrix(np.ones((1, m)))])
    return LinearRelaxation(sp.csr_matrix(rows_q), sp.csr_matrix(rows_aux),
                            np.concatenate([np.zeros(m * len(gradients)), [rhs]]), np.zeros(m), np.full(m, aux_upper))


def stack(blocks: list[LinearRelaxation], n_entries: int) -> LinearRelaxation:
    """One relaxation from several on mechanisms of ``n_entries`` entries, each keeping its own auxiliaries."""
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
    """``(1 − w) S + w / m``: a mechanism with every entry positive, where gradients are finite."""
    return (1.0 - weight) * matrix + weight / matrix.shape[1]
