"""Privacy left after ``k`` uses of one mechanism on the same input (sequential composition).

A mechanism ``Q`` used ``k`` times on the same input releases ``Y_1, …, Y_k``, independent given
``X``: the *repeated-use mechanism* ``Q^(k)[x, (y_1, …, y_k)] = Π_j Q[x, y_j]`` — the rows of the
parallel composition :func:`~mechdesign.mechanisms.global_framework.product_mechanism` at the
databases ``(x, …, x)``.

* Exact, for small ``k``: :func:`repeated_use` builds ``Q^(k)`` (``m^k`` outputs) and
  :func:`exact_after` measures it with any notion's own numpy measure.
* (ε, δ)-DP in the hockey-stick form (Dwork & Roth, Definition 2.4; every pair of inputs
  neighbours): :func:`epsilon_after` and :func:`delta_after` — exact on ``Q^(k)`` when it is small,
  otherwise from privacy-loss distributions (dp-accounting, the ``accounting`` extra): the PLD of
  every pair of rows, rounded pessimistically to multiples of ``discretization`` and composed ``k``
  times, so the value is an upper bound, above the exact one by at most the effect of shifting
  every privacy loss up by ``k · discretization``.
* By composition rules: :func:`dp_after` (``k ε``), :func:`renyi_after` (``k ε_α``), both exact on
  ``Q^(k)``, and :func:`maximal_leakage_after` (``min(k L, log r)``, an upper bound).

Examples
--------
>>> from mechdesign import randomized_response
>>> rr = randomized_response(2, 1.0)
>>> round(dp_after(rr, 3), 12)
3.0
>>> round(delta_after(rr, 3, 2.0), 6)  # exact: hockey-stick divergence of three reports
0.246977
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ._validate import as_budget, as_choice, as_delta, as_order, as_positive_budget, as_positive_int
from .exceptions import MissingDependencyError, ProblemTooLargeError
from .mechanism import MechanismLike, as_mechanism, Mechanism
from .privacy.approx_dp import ApproximateDifferentialPrivacy, hockey_stick_delta
from .privacy.base import PrivacyNotion
from .privacy.dp import DifferentialPrivacy
from .privacy.maximal_leakage import MaximalLeakage
from .privacy.renyi import RenyiDifferentialPrivacy

#: Largest number of outputs ``m^k`` of a repeated-use mechanism that is built.
MAX_REPEATED_OUTPUTS = 100_000
#: Default width of the privacy-loss grid of the PLD accountant (nats).
DEFAULT_DISCRETIZATION = 1e-4
#: Ways of computing (ε, δ) after k uses.
METHODS = ("auto", "exact", "pld")


def repeated_use(mechanism: MechanismLike, uses: int) -> Mechanism:
    """``Q^(k)[x, (y_1, …, y_k)] = Π_j Q[x, y_j]``: ``k`` independent uses on the same input.

    Outputs are the tuples ``(y_1, …, y_k)`` in lexicographic order (index ``Σ_j y_j m^{k−1−j}``).

    Parameters
    ----------
    mechanism
        ``Q`` with ``m`` outputs.
    uses
        ``k >= 1``.

    Returns
    -------
    Mechanism
        ``n`` inputs, ``m^k`` outputs (:class:`ProblemTooLargeError` above :data:`MAX_REPEATED_OUTPUTS`).

    Examples
    --------
    >>> repeated_use([[0.75, 0.25], [0.25, 0.75]], 2).matrix[0].tolist()
    [0.5625, 0.1875, 0.1875, 0.0625]
    """
    matrix = as_mechanism(mechanism).matrix
    count = as_positive_int(uses, "uses")
    outputs = matrix.shape[1] ** count
    if outputs > MAX_REPEATED_OUTPUTS:
        raise ProblemTooLargeError(
            f"{count} uses of a mechanism with {matrix.shape[1]} outputs give {outputs} joint outputs, more than "
            f"{MAX_REPEATED_OUTPUTS}; use method='pld' or a composition rule")
    joint = matrix
    for _ in range(count - 1):
        joint = (joint[:, :, None] * matrix[:, None, :]).reshape(matrix.shape[0], -1)
    return Mechanism(joint)


def exact_after(notion: PrivacyNotion, mechanism: MechanismLike, uses: int) -> float:
    """The privacy loss of ``k`` uses, measured exactly: ``notion.measure(Q^(k))``.

    Parameters
    ----------
    notion
        Any privacy notion on the mechanism's inputs (DP, PML under a prior, maximal leakage, …).
    mechanism, uses
        ``Q`` and ``k`` as in :func:`repeated_use` (small ``k`` only).

    Examples
    --------
    >>> from mechdesign import MaximalLeakage
    >>> round(exact_after(MaximalLeakage(), [[0.75, 0.25], [0.25, 0.75]], 2), 6)  # log(0.5625 + 0.1875 + 0.1875 + 0.5625)
    0.405465
    """
    return notion.measure(repeated_use(mechanism, uses))


def dp_after(mechanism: MechanismLike, uses: int) -> float:
    """Local ε-DP after ``k`` uses: ``k ε`` (Dwork & Roth, The Algorithmic Foundations of Differential
    Privacy, Theorem 3.16). Exact for repeated use: the worst pair of inputs and output is the same
    in every use, so ``Q^(k)`` reaches ``k ε``.

    Examples
    --------
    >>> round(dp_after([[0.75, 0.25], [0.25, 0.75]], 4) / math.log(3), 12)
    4.0
    """
    return as_positive_int(uses, "uses") * DifferentialPrivacy().measure(mechanism)


def renyi_after(mechanism: MechanismLike, uses: int, alpha: float) -> float:
    """Local Rényi DP of order α after ``k`` uses: ``k ε_α`` (Mironov, Rényi Differential Privacy,
    Proposition 1). Exact for repeated use: the Rényi divergence of product distributions is the
    sum of the divergences, so the worst pair of inputs is the same for every ``k``.

    Examples
    --------
    >>> round(renyi_after([[0.75, 0.25], [0.25, 0.75]], 2, 2.0), 6)  # 2 log(0.75²/0.25 + 0.25²/0.75)
    1.694596
    """
    count = as_positive_int(uses, "uses")
    return count * RenyiDifferentialPrivacy(as_order(alpha)).measure(mechanism)


def maximal_leakage_after(mechanism: MechanismLike, uses: int) -> float:
    """An upper bound on the maximal leakage of ``k`` uses: ``min(k L(X → Y), log r)``.

    With ``L = log Σ_y max_x Q[x, y]`` (Issa, Wagner & Kamath, An Operational Approach to Information
    Leakage, Theorem 1) and ``r`` the number of distinct rows of ``Q``:
    ``Σ_{y_1…y_k} max_x Π_j Q[x, y_j] <= Π_j Σ_{y_j} max_x Q[x, y_j]`` (a maximum of products is at
    most the product of maxima) gives ``k L``, and bounding the maximum by the sum over the distinct
    rows gives ``log r``, the limit as ``k → ∞`` (many uses reveal which row the input has).

    Examples
    --------
    >>> round(maximal_leakage_after([[0.75, 0.25], [0.25, 0.75]], 10), 6)  # log 2 < 10 log 1.5
    0.693147
    """
    matrix = as_mechanism(mechanism).matrix
    count = as_positive_int(uses, "uses")
    distinct_rows = np.unique(matrix, axis=0).shape[0]
    return min(count * MaximalLeakage().measure(matrix), math.log(distinct_rows))


def epsilon_after(mechanism: MechanismLike, uses: int, delta: float, *, method: str = "auto",
                  discretization: float = DEFAULT_DISCRETIZATION) -> float:
    """The smallest ε such that ``k`` uses of the mechanism are (ε, δ)-DP (hockey-stick form, local).

    Parameters
    ----------
    mechanism
        ``Q``; every pair of its inputs is a pair of neighbours.
    uses
        ``k >= 1``.
    delta
        ``0 <= δ < 1``.
    method
        ``"exact"``: the project's own measure on ``Q^(k)`` (small ``k``); ``"pld"``: dp-accounting's
        privacy-loss distributions (an upper bound within the discretization); ``"auto"`` (default):
        exact when ``Q^(k)`` has at most :data:`MAX_REPEATED_OUTPUTS` outputs, PLD otherwise.
    discretization
        Width of the PLD's privacy-loss grid (nats); the PLD value exceeds the exact one by at most the
        effect of shifting every loss by ``k · discretization``.

    Returns
    -------
    float
        ε in nats (``inf`` if no finite ε reaches δ).

    Examples
    --------
    >>> from mechdesign import randomized_response
    >>> rr = randomized_response(2, 1.0)
    >>> round(epsilon_after(rr, 3, 0.0), 12)  # pure DP: 3 ε
    3.0
    >>> round(epsilon_after(rr, 3, 0.05, method="exact"), 6), round(epsilon_after(rr, 3, 0.05, method="pld"), 6)
    (2.863067, 2.863067)
    """
    target = as_delta(delta)
    if _chosen_method(mechanism, uses, method) == "exact":
        return ApproximateDifferentialPrivacy(target, "hockey_stick").measure(repeated_use(mechanism, uses))
    distributions = _pair_distributions(mechanism, uses, discretization)
    return max((float(pld.get_epsilon_for_delta(target)) for pld in distributions), default=0.0)


def delta_after(mechanism: MechanismLike, uses: int, epsilon: float, *, method: str = "auto",
                discretization: float = DEFAULT_DISCRETIZATION) -> float:
    """The smallest δ such that ``k`` uses of the mechanism are (ε, δ)-DP (hockey-stick form, local).

    ``max_{x ≠ x'} Σ_{y^k} max(0, Q^(k)[x, y^k] − e^ε Q^(k)[x', y^k])``. Parameters as in
    :func:`epsilon_after`, with ``epsilon >= 0`` (nats) instead of δ.

    Examples
    --------
    >>> from mechdesign import randomized_response
    >>> rr = randomized_response(2, 1.0)
    >>> round(delta_after(rr, 3, 3.0), 12)
    0.0
    >>> round(delta_after(rr, 3, 1.0), 6)
    0.337835
    """
    level = as_budget(epsilon)
    if _chosen_method(mechanism, uses, method) == "exact":
        matrix = repeated_use(mechanism, uses).matrix
        pairs = [(x, x_prime) for x in range(matrix.shape[0]) for x_prime in range(matrix.shape[0]) if x != x_prime]
        return max((hockey_stick_delta(matrix[x], matrix[x_prime], level) for x, x_prime in pairs), default=0.0)
    distributions = _pair_distributions(mechanism, uses, discretization)
    return max((float(pld.get_delta_for_epsilon(level)) for pld in distributions), default=0.0)


def _chosen_method(mechanism: MechanismLike, uses: int, method: str) -> str:
    chosen = as_choice(method, METHODS, "method")
    outputs = as_mechanism(mechanism).n_outputs ** as_positive_int(uses, "uses")
    if chosen == "auto":
        return "exact" if outputs <= MAX_REPEATED_OUTPUTS else "pld"
    return chosen


def _pair_distributions(mechanism: MechanismLike, uses: int, discretization: float) -> list[Any]:
    """The PLD of every distinct pair of distinct rows (both directions), composed ``k`` times."""
    pld = _import_pld()
    matrix = as_mechanism(mechanism).matrix
    count = as_positive_int(uses, "uses")
    width = as_positive_budget(discretization, "discretization")
    distributions = []
    for upper, lower in _distinct_row_pairs(matrix):
        single = pld.from_two_probability_mass_functions(
            _log_masses(lower), _log_masses(upper), pessimistic_estimate=True,
            value_discretization_interval=width, symmetric=False)
        distributions.append(single.self_compose(count) if count > 1 else single)
    return distributions


def _distinct_row_pairs(matrix: np.ndarray) -> list[tuple[np.ndarray, np.ndarray]]:
    """One representative of each pair of different rows, up to swapping and relabelling outputs.

    Relabelling the outputs or swapping the two rows leaves the two-way PLD unchanged, so a pair is
    keyed by its sorted columns ``(Q[x, y], Q[x', y])``, taken in the smaller of its two orders.
    """
    pairs: dict[tuple, tuple[np.ndarray, np.ndarray]] = {}
    for x in range(matrix.shape[0]):
        for x_prime in range(x + 1, matrix.shape[0]):
            upper, lower = matrix[x], matrix[x_prime]
            if np.array_equal(upper, lower):
                continue
            key = min(tuple(sorted(zip(upper, lower))), tuple(sorted(zip(lower, upper))))
            pairs.setdefault(key, (upper, lower))
    return list(pairs.values())


def _log_masses(row: np.ndarray) -> dict[int, float]:
    return {int(y): math.log(mass) for y, mass in enumerate(row) if mass > 0}


def _import_pld() -> Any:
    try:
        from dp_accounting.pld import privacy_loss_distribution
    except ImportError as exc:
        raise MissingDependencyError(
            "privacy-loss-distribution accounting needs dp-accounting: pip install 'mechdesign[accounting]'"
        ) from exc
    return privacy_loss_distribution
