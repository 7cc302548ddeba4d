"""The global privacy framework of the PUT paper (Zhong & Bu, §III and §IV-D).

A database of ``n`` individuals, each of ``m`` types, is an input ``x ∈ {1, …, m}^n`` (here
``{0, …, m−1}^n``, enumerated lexicographically: index ``Σ_j x_j m^{n−1−j}``). Distortion is the
per-coordinate Hamming distance ``d(x, y)`` and two databases are neighbours when ``d(x, x') = 1``.

* :func:`global_uniform_mechanism` — ``Q_U`` of Lemma 5(2);
* :func:`global_q_d` — ``Q_D(y|x) = (1 − D/n)^n A^{−d(x, y)}`` with ``A = (m−1)(n−D)/D``, Lemma 5(3)
  (Wang et al.): expected distortion exactly ``D`` under every prior;
* :func:`product_mechanism` / :func:`product_prior` — parallel composition (§IV-D): a local
  mechanism applied to each individual independently, i.i.d. inputs;
* :func:`parallel_composition_factor` — Lemma 16: the product's privacy loss is the local one (DP,
  Rényi DP on Hamming neighbours) or ``n`` times it (maximal information, maximal leakage, Sibson,
  mutual information).
"""

from __future__ import annotations

import numpy as np

from .._validate import as_finite, as_positive_int
from ..exceptions import MechDesignError, ProblemTooLargeError
from ..mechanism import Mechanism, MechanismLike, as_mechanism
from ..priors import Prior, PriorLike, as_prior
from ..privacy.base import PrivacyNotion, as_notion
from ..privacy.neighbours import Neighbours

#: Largest product alphabet ``m^n`` built (a mechanism on it has ``m^{2n}`` entries).
MAX_PRODUCT_ALPHABET = 4096


def _sizes(m: int, n: int) -> tuple[int, int]:
    types, individuals = as_positive_int(m, "m"), as_positive_int(n, "n")
    if types < 2:
        raise MechDesignError(f"m (number of types) must be at least 2, got {m!r}")
    if types**individuals > MAX_PRODUCT_ALPHABET:
        raise ProblemTooLargeError(
            f"m^n = {types}^{individuals} = {types**individuals} databases exceeds {MAX_PRODUCT_ALPHABET}")
    return types, individuals


def product_alphabet(m: int, n: int) -> np.ndarray:
    """Every database ``x ∈ {0, …, m−1}^n`` as a row, lexicographically: shape ``(m^n, n)``.

    Examples
    --------
    >>> product_alphabet(2, 2)
    array([[0, 0],
           [0, 1],
           [1, 0],
           [1, 1]])
    """
    types, individuals = _sizes(m, n)
    return np.array(np.unravel_index(np.arange(types**individuals), (types,) * individuals)).T


def hamming_distances(m: int, n: int) -> np.ndarray:
    """``d(x, y)``: the number of individuals on which databases ``x`` and ``y`` differ.

    Examples
    --------
    >>> hamming_distances(2, 2)
    array([[0., 1., 1., 2.],
           [1., 0., 2., 1.],
           [1., 2., 0., 1.],
           [2., 1., 1., 0.]])
    """
    databases = product_alphabet(m, n)
    return (databases[:, None, :] != databases[None, :, :]).sum(axis=2).astype(float)


def hamming_neighbours(m: int, n: int) -> Neighbours:
    """Neighbouring databases, ``d(x, x') = 1`` (PUT §II-A), as a :class:`~mechdesign.privacy.neighbours.Neighbours`.

    Parameters
    ----------
    m
        The alphabet size of an entry.
    n
        The number of entries of a database.

    Returns
    -------
    Neighbours
        The pairs of the ``m^n`` databases that differ in one entry.

    Examples
    --------
    Two binary entries (databases 00, 01, 10, 11): 11 is not a neighbour of 00:

    >>> hamming_neighbours(2, 2).unordered_pairs(4).tolist()
    [[0, 1], [0, 2], [1, 3], [2, 3]]
    """
    return Neighbours(hamming_distances(m, n) == 1)


def global_uniform_mechanism(m: int, n: int) -> Mechanism:
    """``Q_U(y|x) = m^{−n}`` (PUT Lemma 5(2)): leaks nothing; distortion ``n(m−1)/m`` under every prior.

    Examples
    --------
    >>> global_uniform_mechanism(2, 2).matrix[0]
    array([0.25, 0.25, 0.25, 0.25])
    """
    types, individuals = _sizes(m, n)
    size = types**individuals
    return Mechanism(np.full((size, size), 1.0 / size))


def global_q_d(m: int, n: int, distortion: float) -> Mechanism:
    """``Q_D(y|x) = (1 − D/n)^n ((m−1)(n−D)/D)^{−d(x, y)}`` (PUT Lemma 5(3)), for ``0 < D < n``.

    Each coordinate is kept with probability ``1 − D/n`` and otherwise replaced by one of the other
    ``m − 1`` types uniformly, independently: the expected distortion is ``D`` for every prior. For
    ``D = n(m−1)/m`` it is ``Q_U``.

    Examples
    --------
    >>> global_q_d(2, 2, 0.5).matrix[0].round(6)
    array([0.5625, 0.1875, 0.1875, 0.0625])
    """
    types, individuals = _sizes(m, n)
    D = as_finite(distortion, "distortion D")
    if not 0.0 < D < individuals:
        raise MechDesignError(f"distortion D must satisfy 0 < D < n = {individuals}, got {distortion!r}")
    ratio = (types - 1) * (individuals - D) / D
    return Mechanism((1.0 - D / individuals) ** individuals * ratio ** -hamming_distances(types, individuals))


def product_mechanism(mechanism: MechanismLike, n: int) -> Mechanism:
    """``Q(y_1…y_n | x_1…x_n) = Π_j Q(y_j | x_j)`` (PUT §IV-D), on the lexicographic alphabets.

    Examples
    --------
    >>> product_mechanism([[0.75, 0.25], [0.25, 0.75]], 2).matrix[0]
    array([0.5625, 0.1875, 0.1875, 0.0625])
    """
    matrix = as_mechanism(mechanism).matrix
    individuals = as_positive_int(n, "n")
    _sizes(max(matrix.shape), individuals)
    product = np.ones((1, 1))
    for _ in range(individuals):
        product = np.kron(product, matrix)
    return Mechanism(product)


def product_prior(prior: PriorLike, n: int) -> Prior:
    """The i.i.d. prior ``P(x_1…x_n) = Π_j P(x_j)`` (PUT §IV-D), on the lexicographic alphabet.

    Examples
    --------
    >>> product_prior([0.6, 0.4], 2)  # on 00, 01, 10, 11
    Prior([0.36 0.24 0.24 0.16])
    """
    vector = as_prior(prior).probabilities
    individuals = as_positive_int(n, "n")
    _sizes(max(vector.size, 2), individuals)
    product = np.ones(1)
    for _ in range(individuals):
        product = np.kron(product, vector)
    return Prior(product)


def parallel_composition_factor(notion: PrivacyNotion, n: int) -> int:
    """PUT Lemma 16: ``ε(Q^{⊗n}) = factor · ε(Q)`` — 1 for DP and Rényi DP (neighbours at Hamming
    distance 1), ``n`` for maximal information, maximal leakage, Sibson and mutual information (with
    the i.i.d. prior ``P^{⊗n}``). Other notions are not covered by the lemma.

    Examples
    --------
    >>> from mechdesign import DifferentialPrivacy, MaximalLeakage
    >>> parallel_composition_factor(DifferentialPrivacy(), 3), parallel_composition_factor(MaximalLeakage(), 3)
    (1, 3)
    """
    individuals = as_positive_int(n, "n")
    composition = as_notion(notion).composition  # the rule each notion class declares (privacy/base.py)
    if composition is None:
        raise MechDesignError(f"PUT Lemma 16 does not cover {notion.label}")
    return 1 if composition == "same" else individuals
