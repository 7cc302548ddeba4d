"""The classes of source sets and the quantity θ* of the PUT paper (Zhong & Bu).

Definition 1 (after Kalantari et al.): a source set 𝒫 is

* **Class I** if its convex hull contains the uniform distribution;
* **Class II** if it is not Class I and its probabilities are *ordered*: one permutation sorts every
  distribution of 𝒫 non-increasingly (``P_σ(1) >= P_σ(2) >= …``);
* **Class III** otherwise.

Theorem 6 uses ``θ* = |𝒳| · max_{P ∈ 𝒫} min_x P(x)`` (``|𝒳| = m^n`` in the global framework),
the maximizing ``P'`` and ``η = max_x P'(x)``. All three are linear programs over the mixture weights
of the extreme points (an ordering holds on the hull iff it holds at the extreme points).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
from ._lazy import LazyFunction

from .exceptions import MechDesignError, SolverFailedError
from .priors import Prior, SourceSet, as_source_set

linprog = LazyFunction("scipy.optimize", "linprog")

#: Largest sup-norm distance from the hull at which the uniform distribution counts as inside.
UNIFORM_ATOL = 1e-9
#: Largest increase along the common order still accepted as "non-increasing".
ORDER_ATOL = 1e-12

SourceClass = Literal["I", "II", "III"]


def _mixture_lp(points: np.ndarray, cost: np.ndarray, rows: np.ndarray, bounds: np.ndarray,
                extra_bounds: list[tuple[float | None, float | None]]) -> np.ndarray:
    """Solve ``min cost·z`` over ``z = (λ, extra…)`` with ``Σλ = 1``, ``λ >= 0`` and ``rows z <= bounds``."""
    k = points.shape[0]
    equality = np.concatenate([np.ones(k), np.zeros(len(extra_bounds))])[None, :]
    result = linprog(cost, A_ub=rows, b_ub=bounds, A_eq=equality, b_eq=[1.0],
                     bounds=[(0, None)] * k + extra_bounds, method="highs")
    if result.status != 0:  # pragma: no cover - the LPs below are always feasible and bounded
        raise SolverFailedError(f"source-set LP: HiGHS gave no solution ({result.message})")
    return result.x


def distance_to_uniform(source_set: Any) -> float:
    """``min_{P ∈ conv 𝒫} max_x |P(x) − 1/|𝒳||``: 0 exactly for Class I.

    Examples
    --------
    >>> from mechdesign import SourceSet
    >>> round(distance_to_uniform(SourceSet([[0.5, 0.3, 0.2], [0.6, 0.3, 0.1]])), 6)
    0.166667
    """
    points = as_source_set(source_set).extreme_points
    k, size = points.shape
    uniform = np.full(size, 1.0 / size)
    # variables (λ, t): minimize t subject to ±(λ·points − uniform) <= t
    rows = np.block([[points.T, -np.ones((size, 1))], [-points.T, -np.ones((size, 1))]])
    z = _mixture_lp(points, np.r_[np.zeros(k), 1.0], rows, np.r_[uniform, -uniform], [(0, None)])
    return float(z[-1])


def contains_uniform(source_set: Any) -> bool:
    """Whether the hull contains the uniform distribution (Class I), within ``UNIFORM_ATOL``.

    Examples
    --------
    >>> from mechdesign import SourceSet
    >>> contains_uniform(SourceSet([[0.5, 0.3, 0.2], [0.2, 0.3, 0.5]]))
    False
    """
    return distance_to_uniform(source_set) <= UNIFORM_ATOL


def common_order(source_set: Any) -> np.ndarray | None:
    """A permutation ``σ`` with ``P(σ(0)) >= P(σ(1)) >= …`` for every prior of the set, or ``None``.

    If a common order exists the barycentre of the extreme points follows it too (and ties in the
    barycentre are ties in every prior), so sorting the barycentre finds it.

    Examples
    --------
    >>> from mechdesign import SourceSet
    >>> common_order(SourceSet([[0.5, 0.3, 0.2], [0.6, 0.3, 0.1]]))  # inputs by decreasing probability
    array([0, 1, 2])
    """
    points = as_source_set(source_set).extreme_points
    order = np.argsort(-points.mean(axis=0), kind="stable")
    increases = np.diff(points[:, order], axis=1)
    return order if (increases <= ORDER_ATOL).all() else None


def classify_source_set(source_set: Any) -> SourceClass:
    """``"I"``, ``"II"`` or ``"III"`` (PUT paper, Definition 1).

    Examples
    --------
    >>> from mechdesign import SourceSet
    >>> classify_source_set(SourceSet.simplex(3))  # no prior knowledge
    'I'
    >>> classify_source_set(SourceSet([[0.5, 0.3, 0.2], [0.2, 0.3, 0.5]]))
    'III'
    """
    if contains_uniform(source_set):
        return "I"
    return "II" if common_order(source_set) is not None else "III"


@dataclass(frozen=True)
class ThetaStar:
    """``θ*`` of PUT Theorem 6 with its maximizing prior.

    Attributes
    ----------
    theta
        ``|𝒳| · max_{P ∈ 𝒫} min_x P(x)``, in ``(0, 1]`` for full-support sets (1 iff Class I).
    prior
        ``P'``, a maximizer; among maximizers the one with the least largest entry.
    eta
        ``η = max_x P'(x)`` (Theorem 6(7)).
    """

    theta: float
    prior: Prior
    eta: float


def theta_star(source_set: Any) -> ThetaStar:
    """``θ* = |𝒳| max_{P ∈ conv 𝒫} min_x P(x)``, ``P'`` and ``η`` (PUT Theorem 6), by two LPs.

    The first maximizes ``t`` with ``λ·points >= t``; the second, among priors keeping ``min_x P(x)``
    at that optimum, minimizes ``η >= max_x P(x)`` (the largest — tightest — lower bound of
    Theorem 6(7)).

    Examples
    --------
    >>> from mechdesign import SourceSet
    >>> result = theta_star(SourceSet([[0.5, 0.3, 0.2], [0.2, 0.3, 0.5]]))
    >>> round(result.theta, 6), round(result.eta, 6)  # P' = (0.35, 0.3, 0.35)
    (0.9, 0.35)
    """
    points = as_source_set(source_set).extreme_points
    k, size = points.shape
    ones = np.ones((size, 1))
    # variables (λ, t): maximize t subject to t − λ·points <= 0
    z = _mixture_lp(points, np.r_[np.zeros(k), -1.0], np.hstack([-points.T, ones]), np.zeros(size), [(None, None)])
    smallest = float(z[-1])
    # variables (λ, η): minimize η subject to λ·points <= η and λ·points >= smallest
    rows = np.block([[points.T, -ones], [-points.T, np.zeros((size, 1))]])
    z = _mixture_lp(points, np.r_[np.zeros(k), 1.0], rows, np.r_[np.zeros(size), -np.full(size, smallest)],
                    [(None, None)])
    weights = np.clip(z[:k], 0.0, None)
    prior = (weights / weights.sum()) @ points
    return ThetaStar(size * smallest, Prior(prior), float(prior.max()))


def class_one_source_set(priors: Any) -> SourceSet:
    """``conv(priors ∪ {uniform})``: a Class I source set around the given priors.

    Examples
    --------
    >>> class_one_source_set([[0.5, 0.3, 0.2]]).extreme_points.round(6)
    array([[0.5     , 0.3     , 0.2     ],
           [0.333333, 0.333333, 0.333333]])
    """
    points = as_source_set(priors).extreme_points
    return SourceSet([*points, np.full(points.shape[1], 1.0 / points.shape[1])])


def class_two_source_set(priors: Any) -> SourceSet:
    """The source set of ``priors``, checked to be Class II (ordered, without the uniform distribution).

    Examples
    --------
    >>> class_two_source_set([[0.5, 0.3, 0.2], [0.6, 0.3, 0.1]])
    SourceSet(2 extreme points over 3 symbols)
    """
    source_set = as_source_set(priors)
    if contains_uniform(source_set):
        raise MechDesignError("the source set contains the uniform distribution in its hull: it is Class I")
    if common_order(source_set) is None:
        raise MechDesignError("the priors are not ordered alike (no common non-increasing order): Class III")
    return source_set
