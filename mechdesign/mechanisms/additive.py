"""Additive Laplace and Gaussian noise on binary data, assessed with PML (Grosse et al., "Privacy
Mechanism Design based on Empirical Distributions", Section VI).

The secret is ``X ∈ {−1, +1}``; a binary prior is the vector ``(P(X = −1), P(X = +1))``. The released
value is ``Y = X + noise`` and the pointwise leakage of an outcome is
``ℓ(X → y) = log max_x f(y | x) / f_Y(y)``. Robust versions take the worst prior of the ℓ1-ball
``‖P − P̂‖₁ <= β`` (for a binary prior: ``P(+1) ∈ [P̂(+1) − β/2, P̂(+1) + β/2] ∩ [0, 1]``); the radius
for a probability of failure δ from ``m`` samples is ``β*(δ)`` of eq. (14),
:func:`mechdesign.priors.l1_radius` ``(δ, m, 2)``.
"""

from __future__ import annotations

import math

import numpy as np
from .._lazy import LazyFunction

from .._numeric import exp_budget
from .._validate import as_budget, as_delta, as_positive_budget, as_probability_vector
from ..exceptions import InvalidBudgetError

minimize_scalar = LazyFunction("scipy.optimize", "minimize_scalar")
erfcinv, ndtr = LazyFunction("scipy.special", "erfcinv"), LazyFunction("scipy.special", "ndtr")

#: Points per smooth piece at which the violation probability is sampled to bracket its local maxima
#: before each is refined by bounded Brent search (see :func:`gaussian_delta1`).
BRACKET_POINTS = 401
#: Absolute tolerance (in the prior) of the Brent refinement.
PRIOR_XTOL = 1e-12


def _binary_prior(prior: object, name: str = "prior") -> np.ndarray:
    return as_probability_vector(prior, name, size=2)


def _plus_interval(estimate: np.ndarray, radius: float) -> tuple[float, float]:
    """The range of ``P(X = +1)`` over the ℓ1-ball of radius β around the estimate (within [0, 1])."""
    half = radius / 2.0
    return max(0.0, estimate[1] - half), min(1.0, estimate[1] + half)


# --- Laplace -------------------------------------------------------------------------------------


def laplace_pointwise_leakage(outputs: object, scale: float, prior: object) -> np.ndarray:
    """``ℓ(X → y)`` of ``Y = X + Laplace(b)`` at each ``y``, from the densities (nats).

    Parameters
    ----------
    outputs
        The released values ``y`` (any shape).
    scale
        The Laplace scale ``b > 0``.
    prior
        ``(P(X = −1), P(X = +1))``.

    Returns
    -------
    numpy.ndarray
        The leakage at each output, of the shape of ``outputs``.

    Examples
    --------
    At ``y = 0`` the two densities are equal (no leakage); from ``|y| >= 1`` on the leakage is
    :func:`laplace_pml`'s ``2/b − log((e^{2/b} + 1)/2)`` under the uniform prior:

    >>> laplace_pointwise_leakage([0.0, 1.0, 3.0], 1.0, [0.5, 0.5]).round(6)
    array([0.      , 0.566219, 0.566219])
    >>> round(2 - math.log((math.exp(2) + 1) / 2), 6)
    0.566219
    """
    b = as_positive_budget(scale, "scale b")
    p = _binary_prior(prior)
    y = np.asarray(outputs, dtype=float)
    densities = np.exp(-np.abs(y[..., None] - np.array([-1.0, 1.0])) / b) / (2 * b)
    return np.log(densities.max(axis=-1) / (densities @ p))


def laplace_pml(scale: float, prior: object) -> float:
    """``ε(b) = 2/b − log(e^{2/b} p_min + 1 − p_min)``: the PML of the binary Laplace mechanism
    (Grosse et al., Proposition 3; attained at every ``|y| >= 1``).

    Parameters
    ----------
    scale
        The Laplace scale ``b > 0``.
    prior
        ``(P(X = −1), P(X = +1))``.

    Returns
    -------
    float
        The pointwise maximal leakage (nats).

    Examples
    --------
    >>> round(laplace_pml(1.0, [0.5, 0.5]), 6)  # 2 − log((e² + 1)/2)
    0.566219
    >>> round(laplace_pml(1.0, [0.0, 1.0]), 6)  # a point mass: the LDP value 2/b
    2.0
    """
    b = as_positive_budget(scale, "scale b")
    p_min = float(_binary_prior(prior).min())
    return 2.0 / b - math.log(math.expm1(2.0 / b) * p_min + 1.0)


def robust_laplace_pml(scale: float, estimate: object, radius: float) -> float:
    """The worst-case PML of the binary Laplace mechanism over the ℓ1-ball (Grosse et al., eq. (16)).

    ``ε(b, δ) = 2/b − log[(p̂_min − β/2)(e^{2/b} − 1) + 1]``: ``ε(b)`` decreases in ``p_min``, and the
    smallest ``p_min`` in the ball is ``p̂_min − β/2``. For ``β >= 2 p̂_min`` the ball reaches a point
    mass and the supremum is the LDP value ``2/b`` (Remark 4); eq. (16) is printed for ``β < 2 p̂_min``.

    Parameters
    ----------
    scale
        The Laplace scale ``b > 0``.
    estimate
        The estimated prior ``P̂``.
    radius
        The ball's radius ``β >= 0``.

    Returns
    -------
    float
        The supremum of :func:`laplace_pml` over the ball (nats).

    Examples
    --------
    >>> robust_laplace_pml(1.0, [0.5, 0.5], 0.0) == laplace_pml(1.0, [0.5, 0.5])
    True
    >>> robust_laplace_pml(1.0, [0.5, 0.5], 1.0)  # the ball reaches a point mass: 2/b
    2.0
    """
    b = as_positive_budget(scale, "scale b")
    p_min = max(0.0, float(_binary_prior(estimate, "estimate").min()) - as_budget(radius, "radius beta") / 2.0)
    return 2.0 / b - math.log(math.expm1(2.0 / b) * p_min + 1.0)


def laplace_scale_for_pml(epsilon: float, p_min: float) -> float:
    """The Laplace scale ``b`` with ``ε(b) = ε`` for a prior of smallest mass ``p_min`` (Prop. 3 inverted).

    ``e^{2/b} = e^ε (1 − p_min) / (1 − e^ε p_min)``; ``0.0`` (no noise needed) when
    ``ε >= −log p_min``. ``p_min = 0`` gives the LDP scale ``2/ε``.

    Parameters
    ----------
    epsilon
        The PML budget ``ε > 0`` (nats).
    p_min
        The prior's smallest mass, in ``[0, 1/2]``.

    Returns
    -------
    float
        The scale ``b``.

    Raises
    ------
    InvalidBudgetError
        If ``p_min`` is outside ``[0, 1/2]``.

    Examples
    --------
    >>> round(laplace_scale_for_pml(laplace_pml(1.0, [0.5, 0.5]), 0.5), 9)  # the inverse of laplace_pml
    1.0
    >>> laplace_scale_for_pml(1.0, 0.0)  # 2/ε
    2.0
    >>> laplace_scale_for_pml(1.0, 0.5)  # ε >= log 2 = −log p_min: no noise needed
    0.0
    """
    eps = as_positive_budget(epsilon, "epsilon")
    q = float(p_min)
    if not 0.0 <= q <= 0.5:
        raise InvalidBudgetError(f"p_min must lie in [0, 1/2], got {p_min!r}")
    if q == 0.0:
        return 2.0 / eps
    boost = exp_budget(eps)
    if boost * q >= 1.0:
        return 0.0
    return 2.0 / (eps + math.log1p(-q) - math.log1p(-boost * q))


def robust_laplace_scale(epsilon: float, estimate: object, radius: float) -> float:
    """The scale ``b`` making the binary Laplace mechanism ε-PML for every prior of the ℓ1-ball
    (eq. (16) solved for ``b``; as used for Grosse et al., Figs. 4–5).

    Parameters
    ----------
    epsilon
        The PML budget ``ε > 0`` (nats).
    estimate
        The estimated prior ``P̂``.
    radius
        The ball's radius ``β >= 0``.

    Returns
    -------
    float
        :func:`laplace_scale_for_pml` at the ball's smallest ``p_min = max(0, p̂_min − β/2)``.

    Examples
    --------
    >>> robust_laplace_scale(0.5, [0.5, 0.5], 1.0)  # the ball holds a point mass: the LDP scale 2/ε
    4.0
    >>> robust_laplace_scale(0.5, [0.375, 0.625], 0.25) == laplace_scale_for_pml(0.5, 0.25)  # p_min 0.375 − 0.125
    True
    """
    p_min = max(0.0, float(_binary_prior(estimate, "estimate").min()) - as_budget(radius, "radius beta") / 2.0)
    return laplace_scale_for_pml(epsilon, p_min)


def sign_channel(scale: float) -> np.ndarray:
    """The binary channel of ``sign(X + Laplace(b))`` (``Y = −1`` iff ``X + L < 0``): a binary symmetric
    channel with crossover ``e^{−1/b}/2`` (``b = 0``: no noise; Grosse et al., Section VI-C1).

    Parameters
    ----------
    scale
        The Laplace scale ``b >= 0``.

    Returns
    -------
    numpy.ndarray
        The ``2 × 2`` channel, rows and columns ordered ``(−1, +1)``.

    Examples
    --------
    >>> sign_channel(1.0).round(4)  # crossover e^{−1}/2 = 0.1839
    array([[0.8161, 0.1839],
           [0.1839, 0.8161]])
    >>> sign_channel(0.0)
    array([[1., 0.],
           [0., 1.]])
    """
    b = as_budget(scale, "scale b")
    flip = 0.5 * math.exp(-1.0 / b) if b > 0 else 0.0
    return np.array([[1 - flip, flip], [flip, 1 - flip]])


# --- Gaussian ------------------------------------------------------------------------------------


def gaussian_pointwise_leakage(outputs: object, sigma: float, prior: object) -> np.ndarray:
    """``ℓ(X → y)`` of ``Y = X + N(0, σ²)`` at each ``y``, from the densities (Grosse et al., Sec. VI-B).

    Parameters
    ----------
    outputs
        The released values ``y`` (any shape).
    sigma
        The noise's standard deviation ``σ > 0``.
    prior
        ``(P(X = −1), P(X = +1))``.

    Returns
    -------
    numpy.ndarray
        The leakage at each output (nats), of the shape of ``outputs``.

    Examples
    --------
    Under the uniform prior ``ℓ(y) = log(2 / (1 + e^{−2|y|/σ²}))``, unbounded in ``|y|``:

    >>> gaussian_pointwise_leakage([0.0, 2.0], 1.0, [0.5, 0.5]).round(6)
    array([0.      , 0.674997])
    >>> round(math.log(2 / (1 + math.exp(-4))), 6)
    0.674997
    """
    s = as_positive_budget(sigma, "sigma")
    p = _binary_prior(prior)
    y = np.asarray(outputs, dtype=float)
    exponents = -((y[..., None] - np.array([-1.0, 1.0])) ** 2) / (2 * s * s)
    shift = exponents.max(axis=-1, keepdims=True)
    densities = np.exp(exponents - shift)  # common factor cancels in the ratio
    return np.log(densities.max(axis=-1) / (densities @ p))


def _violation_thresholds(epsilon: float, sigma: float, own: np.ndarray, other: np.ndarray) -> np.ndarray:
    """``t`` with ``ℓ(y) > ε`` ⇔ ``|y| > t`` on the side of ``y`` where input ``own`` dominates.

    There ``ℓ(y) = −log(own + other·e^{−2|y|/σ²})``, increasing in ``|y|``: the threshold solves
    ``own + other·e^{−2t/σ²} = e^{−ε}``; ``inf`` when ``own >= e^{−ε}`` (never violated).
    """
    floor = math.exp(-epsilon)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(own < floor, (floor - own) / other, 0.0)
        return np.where(own >= floor, np.inf, np.where(ratio >= 1.0, 0.0, -0.5 * sigma * sigma * np.log(ratio)))


def _violation(eps: float, s: float, plus: np.ndarray) -> np.ndarray:
    """The violation probability for priors ``(1 − plus, plus)`` (vectorized over ``plus``)."""
    plus = np.asarray(plus, dtype=float)
    minus = 1.0 - plus
    upper = _violation_thresholds(eps, s, plus, minus)  # y > upper violates
    lower = _violation_thresholds(eps, s, minus, plus)  # y < −lower violates
    return (plus * (ndtr((1 - upper) / s) + ndtr((-lower - 1) / s))
            + minus * (ndtr((-1 - upper) / s) + ndtr((1 - lower) / s)))


def gaussian_violation_probability(epsilon: float, sigma: float, prior: object) -> float:
    """``P_{Y ~ P}[ℓ_P(X → Y) > ε]`` for the binary Gaussian mechanism, in closed form.

    The violating outcomes are the two tails ``y > t₊`` and ``y < −t₋`` (see
    :func:`_violation_thresholds`), integrated against the mixture ``f_Y``.

    Parameters
    ----------
    epsilon
        The threshold ``ε >= 0`` (nats).
    sigma
        The noise's standard deviation ``σ > 0``.
    prior
        ``(P(X = −1), P(X = +1))``.

    Returns
    -------
    float
        The probability.

    Examples
    --------
    Under the uniform prior the leakage stays below ``log 2``, which is never exceeded:

    >>> gaussian_violation_probability(math.log(2), 1.0, [0.5, 0.5])
    0.0
    >>> round(gaussian_violation_probability(0.5, 1.0, [0.5, 0.5]), 6)
    0.627861
    """
    plus = _binary_prior(prior)[1]
    return float(_violation(as_budget(epsilon), as_positive_budget(sigma, "sigma"), plus))


def gaussian_delta1(epsilon: float, sigma: float, estimate: object, radius: float) -> tuple[float, float]:
    """``δ₁(ε)`` of eq. (17): the largest violation probability over the priors of the ℓ1-ball.

    The ball is the interval ``P(+1) ∈ [P̂(+1) − β/2, P̂(+1) + β/2] ∩ [0, 1]``. The violation
    probability is smooth between the breakpoints ``P(+1) ∈ {e^{−ε}, 1 − e^{−ε}}`` (where a tail
    appears) and ``1/2`` (symmetry); on each piece every local maximum is bracketed on
    :data:`BRACKET_POINTS` points and refined by bounded Brent search to :data:`PRIOR_XTOL`; the
    largest value among these and the interval's end and break points is returned (the paper used an
    exhaustive grid).

    Parameters
    ----------
    epsilon
        The threshold ``ε >= 0`` (nats).
    sigma
        The noise's standard deviation ``σ > 0``.
    estimate
        The estimated prior ``P̂``.
    radius
        The ball's radius ``β >= 0``.

    Returns
    -------
    delta1, worst
        The supremum and the maximizing ``P(X = +1)``.

    Examples
    --------
    With radius 0 the ball is the estimate itself:

    >>> delta1, worst = gaussian_delta1(0.5, 1.0, [0.5, 0.5], 0.0)
    >>> delta1 == gaussian_violation_probability(0.5, 1.0, [0.5, 0.5]), float(worst)
    (True, 0.5)
    >>> gaussian_delta1(0.5, 1.0, [0.5, 0.5], 0.2)[0] >= delta1
    True
    """
    eps = as_budget(epsilon)
    s = as_positive_budget(sigma, "sigma")
    low, high = _plus_interval(_binary_prior(estimate, "estimate"), as_budget(radius, "radius beta"))
    breaks = sorted({low, high, *[b for b in (math.exp(-eps), 1 - math.exp(-eps), 0.5) if low < b < high]})
    candidates = [(float(_violation(eps, s, p)), p) for p in breaks]
    for left, right in zip(breaks[:-1], breaks[1:]):
        grid = np.linspace(left, right, BRACKET_POINTS)
        values = _violation(eps, s, grid)
        peaks = np.flatnonzero((values[1:-1] > values[:-2]) & (values[1:-1] >= values[2:])) + 1
        for i in peaks:
            found = minimize_scalar(lambda p: -float(_violation(eps, s, p)), bounds=(grid[i - 1], grid[i + 1]),
                                    method="bounded", options={"xatol": PRIOR_XTOL})
            candidates.append((-float(found.fun), float(found.x)))
    return max(candidates)


def gaussian_epsilon_delta(epsilon: float, sigma: float, estimate: object, radius: float,
                           estimation_delta: float) -> tuple[float, float]:
    """The ``(ε*, δ*)``-PML guarantee of the binary Gaussian mechanism (Grosse et al., Sec. VI-B).

    ``ε* = ε − log(1 − β e^ε / 2)`` (Theorem 4's bound for ``k > 1``) and
    ``δ* = δ₁ + δ₂ − δ₁δ₂`` with ``δ₁`` of eq. (17) (:func:`gaussian_delta1`) and ``δ₂`` the estimation
    failure probability the radius ``β = β*(δ₂)`` was computed for. ``ε* = inf`` when ``β e^ε >= 2``.

    Parameters
    ----------
    epsilon
        The threshold ``ε >= 0`` (nats).
    sigma
        The noise's standard deviation ``σ > 0``.
    estimate
        The estimated prior ``P̂``.
    radius
        The ball's radius ``β >= 0``.
    estimation_delta
        ``δ₂``, the failure probability of the estimate.

    Returns
    -------
    eps_star, delta_star
        The guarantee.

    Examples
    --------
    A known prior (``β = 0``, ``δ₂ = 0``) keeps ``ε`` and gives ``δ* = δ₁``:

    >>> eps_star, delta_star = gaussian_epsilon_delta(0.5, 1.0, [0.5, 0.5], 0.0, 0.0)
    >>> eps_star, delta_star == gaussian_delta1(0.5, 1.0, [0.5, 0.5], 0.0)[0]
    (0.5, True)
    >>> gaussian_epsilon_delta(1.0, 1.0, [0.5, 0.5], 0.8, 0.05)[0]  # β e^ε >= 2
    inf
    """
    eps = as_budget(epsilon)
    beta = as_budget(radius, "radius beta")
    delta2 = as_delta(estimation_delta, "estimation_delta")
    delta1, _ = gaussian_delta1(eps, sigma, estimate, beta)
    slack = 1.0 - beta * exp_budget(eps) / 2.0 if beta > 0 else 1.0
    eps_star = eps - math.log(slack) if slack > 0 else math.inf
    return eps_star, delta1 + delta2 - delta1 * delta2


def pldp_gaussian_sigma(epsilon: float, delta: float) -> float:
    """``σ = √2 (f + sqrt(f² + ε)) / ε`` with ``f = erfc⁻¹(δ)``: Zhao et al.'s (ε, δ)-probabilistic DP
    Gaussian mechanism (their Theorem 8) with sensitivity ``Δ = 2`` (binary local setting, Grosse et
    al., Sec. VI-C2).

    Parameters
    ----------
    epsilon
        ``ε > 0`` (nats).
    delta
        ``δ ∈ (0, 1)``.

    Returns
    -------
    float
        The standard deviation ``σ``.

    Raises
    ------
    InvalidBudgetError
        If ``δ = 0``.

    Examples
    --------
    >>> from scipy.special import erfcinv
    >>> f = float(erfcinv(0.05))
    >>> pldp_gaussian_sigma(0.5, 0.05) == math.sqrt(2) * (f + math.sqrt(f * f + 0.5)) / 0.5
    True
    >>> round(pldp_gaussian_epsilon(pldp_gaussian_sigma(0.5, 0.05), 0.05), 12)  # the two are inverse
    0.5
    """
    eps = as_positive_budget(epsilon, "epsilon")
    f = float(erfcinv(_open_unit(delta)))
    return math.sqrt(2.0) * (f + math.sqrt(f * f + eps)) / eps


def pldp_gaussian_epsilon(sigma: float, delta: float) -> float:
    """The ε of :func:`pldp_gaussian_sigma` for a given σ: ``ε = 2√2 f / σ + 2/σ²``, ``f = erfc⁻¹(δ)``.

    Parameters
    ----------
    sigma
        The standard deviation ``σ > 0``.
    delta
        ``δ ∈ (0, 1)``.

    Returns
    -------
    float
        ``ε`` (nats).

    Examples
    --------
    >>> from scipy.special import erfcinv
    >>> round(pldp_gaussian_epsilon(2.0, 0.05) - (math.sqrt(2) * float(erfcinv(0.05)) + 0.5), 12)  # 2√2 f/σ + 2/σ²
    0.0
    """
    s = as_positive_budget(sigma, "sigma")
    f = float(erfcinv(_open_unit(delta)))
    return 2.0 * math.sqrt(2.0) * f / s + 2.0 / (s * s)


def _open_unit(delta: float) -> float:
    value = as_delta(delta)
    if value == 0.0:
        raise InvalidBudgetError("delta must be > 0 for probabilistic DP (erfc⁻¹(0) = inf)")
    return value
