"""Closed forms of Wang et al., "Guarding Multiple Secrets: Enhanced Summary Statistic Privacy".

Lower bounds on the worst-case distortion Δ (eq. (2)) of any mechanism whose privacy is at most T
(Thms. 4.1, 5.1, 5.3, 5.4; Props. C.1, C.3, C.5), the tolerance of Prop. 5.5, the conversion
parameters γ (eqs. (4), (7)) computed on a finite parameter space, and the privacy and distortion of
the quantization mechanisms (Props. C.2, C.4, C.6). Budgets T are probabilities; every function checks
its domain. See docs/errata.md (## Multi-secret summary statistic privacy (Wang et al.)) for the
statements that the numerics contradict and their corrections.

Statement → function:

=====================================  ===================================================================
Thm. 4.1, eq. (4)                      :func:`thm4_1_union_distortion_bound`, :func:`eq4_gamma_geometric`, :func:`thm4_1_union_factor`
Thm. 5.1, Thm. 5.3, Thm. 5.4, eq. (7)  :func:`thm5_1_intersection_distortion_bound`, :func:`thm5_3_group_distortion_bound`, :func:`thm5_4_lp_distortion_bound`, :func:`eq7_gamma_arithmetic`
(corrected conversion parameter)       :func:`propc1_gamma_max`
Prop. B.1                              :func:`propb1_union_minus_group`
Prop. 5.2                              no closed form (Δ_union ≥ Δ_inter between optima: :mod:`mechdesign.checks.summary`)
Prop. 5.5                              :func:`prop5_5_lp_tolerance`
Prop. B.2                              :func:`propb2_tolerance_condition`
Props. C.1, C.3, C.5 (corrected)       :func:`propc1_distortion_bound` (:func:`propc1_distortion_bound_as_printed`), :func:`propc3_distortion_bound`, :func:`propc5_distortion_bound`
Props. C.2, C.4, C.6                   :func:`propc2_privacy_distortion`, :func:`propc4_privacy_distortion`, :func:`propc2_ratio_constant`,
                                       :func:`propc6_distortion`, :func:`propc6_privacy_bound`
Lemma C.7                              :func:`lemmac7_diagonal_distortion`
Lemma C.8                              :func:`lemmac8_w2_squared_lower_bound`
Lemma C.9                              :func:`lemmac9_w2_squared`
Lemma C.10                             :func:`lemmac10_cross_term_bound`
Lemma C.11                             :func:`lemmac11_shifts`
Props. D.1, D.3, D.5 (corrected)       :func:`propd1_distortion_bound`, :func:`propd3_distortion_bound`, :func:`propd5_distortion_bound`
Props. D.2, D.4, D.6                   :func:`propd2_privacy`, :func:`propd4_privacy`, :func:`propd6_privacy_bound`
                                       (distortion: :func:`propc4_privacy_distortion`)
=====================================  ===================================================================

Names follow one scheme across ``mechdesign.theory``: the statement's tag, then the quantity (e.g.
``thm6_dp_privacy_bounds``: PUT Thm. 6's bounds on ε* under DP; ``propc1_distortion_bound``: multi-secret
Prop. C.1's bound on the distortion).
The 0.1.0 names still work for one release and warn (``DeprecationWarning``; listed at the end of the file).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from .._validate import (
    as_choice,
    as_finite,
    as_norm_order,
    as_positive_int,
    as_positive_vector,
    as_sequence,
    check_count,
)
from ..exceptions import MechDesignError
from ._deprecated import deprecated_alias
from ..parameter_spaces import ParameterSpace


def _check_T(T: Any) -> float:
    value = as_finite(T, "T")
    if not 0.0 < value < 1.0:
        raise MechDesignError(f"the privacy budget T must satisfy 0 < T < 1, got {T!r}")
    return value


def _check_gamma(gamma: Any) -> float:
    return as_finite(gamma, "gamma", minimum=0.0)


def _means(tolerances: Any) -> tuple[int, float, float]:
    eps = as_positive_vector(tolerances, "tolerances")
    return eps.size, float(np.exp(np.log(eps).mean())), float(eps.mean())


# -------------------------------------------------------------------------------------- gammas
def _pair_ratios(space: ParameterSpace, spread: str) -> np.ndarray:
    """``D/R`` over pairs of supported inputs, with ``R`` the geometric, arithmetic or largest |Δg_i|."""
    support = space.support
    points, values = space.points[support], space.secret_values[support]
    half = 0.5 * space.distance(points, points)
    gaps = np.abs(values[:, None, :] - values[None, :, :])
    if spread == "geometric":
        with np.errstate(divide="ignore"):
            R = np.exp(np.log(gaps).mean(axis=2))
    elif spread == "arithmetic":
        R = gaps.mean(axis=2)
    else:
        R = gaps.max(axis=2)
    positive = R > 0
    return half[positive] / R[positive]


def eq4_gamma_geometric(space: ParameterSpace) -> float:
    """γ of Thm. 4.1, eq. (4): ``inf D/R`` with ``D = ½𝔇`` and ``R = Π_i |g_i(θ1) − g_i(θ2)|^{1/d}``,
    over pairs of supported parameters with ``R > 0`` (``inf`` if there is none).

    Examples
    --------
    >>> from mechdesign.parameter_spaces import ParameterSpace
    >>> space = ParameterSpace.gaussian_1d([0.0, 0.5], [1.0, 1.5], [0.1, 0.1])
    >>> round(eq4_gamma_geometric(space), 6)
    0.707107
    """
    ratios = _pair_ratios(space, "geometric")
    return float(ratios.min()) if ratios.size else math.inf


def eq7_gamma_arithmetic(space: ParameterSpace) -> float:
    """γ of Thms. 5.1, 5.3, 5.4 (eqs. (7), (9)): ``R = (1/d) Σ_i |g_i(θ1) − g_i(θ2)|``.

    Examples
    --------
    >>> from mechdesign.parameter_spaces import ParameterSpace
    >>> space = ParameterSpace.gaussian_1d([0.0, 0.5], [1.0, 1.5], [0.1, 0.1])
    >>> round(eq7_gamma_arithmetic(space), 6)
    0.707107
    """
    ratios = _pair_ratios(space, "arithmetic")
    return float(ratios.min()) if ratios.size else math.inf


def propc1_gamma_max(space: ParameterSpace) -> float:
    """``inf D / max_i |g_i(θ1) − g_i(θ2)|`` — the conversion parameter of the corrected bounds
    (docs/errata.md): it bounds ``Δ ≥ γ_max (H_i − L_i)`` for every secret separately.

    Examples
    --------
    >>> from mechdesign.parameter_spaces import ParameterSpace
    >>> space = ParameterSpace.gaussian_1d([0.0, 0.5], [1.0, 1.5], [0.1, 0.1])
    >>> round(propc1_gamma_max(space), 6)
    0.5
    """
    ratios = _pair_ratios(space, "max")
    return float(ratios.min()) if ratios.size else math.inf


# --------------------------------------------------------------------------------- lower bounds
def thm4_1_union_factor(T: float, d: int) -> float:
    """``1/(1 − (1−T)^{1/d}) − 1``: the factor of Thm. 4.1 (the lower bound on the geometric mean of
    ``N_i − 1`` in its proof, App. B.1).

    Examples
    --------
    >>> round(thm4_1_union_factor(0.5, 2), 6)
    2.414214
    """
    value, dims = _check_T(T), as_positive_int(d, "d")
    return 1.0 / (1.0 - (1.0 - value) ** (1.0 / dims)) - 1.0


def thm4_1_union_distortion_bound(T: float, tolerances: Sequence[float], gamma: float) -> float:
    """Union privacy lower bound, Wang et al. Thm. 4.1 eq. (5):
    ``Δ > 2γ [1/(1 − (1−T)^{1/d}) − 1] (Π ε_i)^{1/d}`` (γ of eq. (4), :func:`eq4_gamma_geometric`).

    As printed the bracket may read as a ceiling; the proof (App. B.1) supports the plain factor,
    which is what is returned (a ceiling of it is not implied for ``d > 1``). With γ of eq. (4) the
    statement is false in general; it holds with :func:`propc1_gamma_max` (docs/errata.md).

    Examples
    --------
    >>> round(thm4_1_union_distortion_bound(0.5, [0.1, 0.2], 0.5), 6)
    0.341421
    """
    d, geometric, _ = _means(tolerances)
    return 2.0 * _check_gamma(gamma) * thm4_1_union_factor(T, d) * geometric


def thm5_1_intersection_distortion_bound(T: float, tolerances: Sequence[float], gamma: float) -> float:
    """Intersection privacy lower bound, Wang et al. Thm. 5.1 eq. (8):
    ``Δ > 2γ ⌈1/T⌉^{1/d} (Π ε_i)^{1/d} − 2γ (1/d) Σ ε_i`` (γ of eq. (7), :func:`eq7_gamma_arithmetic`).

    Examples
    --------
    >>> round(thm5_1_intersection_distortion_bound(0.2, [0.1, 0.2], 0.5), 6)
    0.166228
    """
    d, geometric, arithmetic = _means(tolerances)
    g = _check_gamma(gamma)
    return 2.0 * g * math.ceil(1.0 / _check_T(T) - 1e-12) ** (1.0 / d) * geometric - 2.0 * g * arithmetic


def thm5_3_group_distortion_bound(T: float, tolerances: Sequence[float], gamma: float, n_groups: int) -> float:
    """Group secrets privacy lower bound, Wang et al. Thm. 5.3:
    ``Δ > 2γ (1 − (1−T)^{1/β})^{−β/d} (Π ε_i)^{1/d} − 2γ (1/d) Σ ε_i`` with β groups.

    With γ of eq. (9) the statement is false in general; it holds with :func:`propc1_gamma_max` (docs/errata.md).

    Examples
    --------
    >>> round(thm5_3_group_distortion_bound(0.5, [0.1, 0.2], 0.5, 2), 6)
    0.332843
    """
    d, geometric, arithmetic = _means(tolerances)
    beta, value, g = as_positive_int(n_groups, "n_groups"), _check_T(T), _check_gamma(gamma)
    if beta > d:
        raise MechDesignError(f"there cannot be more groups ({beta}) than secrets ({d})")
    factor = (1.0 - (1.0 - value) ** (1.0 / beta)) ** (-beta / d)
    return 2.0 * g * factor * geometric - 2.0 * g * arithmetic


def thm5_4_lp_distortion_bound(T: float, tolerance: float, p: float, d: int, gamma: float) -> float:
    """ℓp norm privacy lower bound, Wang et al. Thm. 5.4: ``Δ > 2γ (⌈1/T⌉^{1/d} − 1) ε_p / d^{1/p}``.

    Examples
    --------
    >>> round(thm5_4_lp_distortion_bound(0.2, 0.3, 2, 2, 0.5), 6)
    0.26221
    """
    order, dims = as_norm_order(p), as_positive_int(d, "d")
    eps = float(as_positive_vector(tolerance, "tolerance", size=1)[0])
    scale = 1.0 if order == math.inf else dims ** (1.0 / order)
    return 2.0 * _check_gamma(gamma) * (math.ceil(1.0 / _check_T(T) - 1e-12) ** (1.0 / dims) - 1.0) * eps / scale


def prop5_5_lp_tolerance(tolerances: Sequence[float], p: float) -> float:
    """Wang et al. Prop. 5.5: the ℓp tolerance ``ε_p = (Σ ε_i^p)^{1/p}`` under which
    ``Δ_inter ≤ Δ_lp ≤ Δ_union`` (``max ε_i`` for ``p = inf``).

    Examples
    --------
    >>> round(prop5_5_lp_tolerance([0.3, 0.4], 2), 6)
    0.5
    """
    eps, order = as_positive_vector(tolerances, "tolerances"), as_norm_order(p)
    return float(eps.max()) if order == math.inf else float((eps**order).sum() ** (1.0 / order))


#: γ of the corrected Gaussian bounds: ``D = ½ W2 ≥ ½ |Δg_i|`` for a mean or SD secret (Lemmas C.7, C.8).
GAUSSIAN_GAMMA = 0.5


def propc1_distortion_bound(T: float, tolerances: Sequence[float]) -> float:
    """Wang et al. Prop. C.1 (1-D Gaussian, secrets μ and σ), corrected:
    ``Δ > [1/(1 − √(1−T)) − 1] √(ε1 ε2)`` (Thm. 4.1 with γ = γ_max = ½).

    As printed, ``√2 [·]`` (γ = √2/2) — and with a ceiling — it is false for some priors
    (docs/errata.md); :func:`propc1_distortion_bound_as_printed` returns the printed value.

    Examples
    --------
    >>> round(propc1_distortion_bound(0.25, [0.49, 0.49]), 6)
    3.16741
    """
    check_count(len(as_sequence(tolerances, "tolerances")), 2, "tolerances", "entries (Prop. C.1: one per secret μ, σ)")
    return thm4_1_union_distortion_bound(T, tolerances, GAUSSIAN_GAMMA)


def propc1_distortion_bound_as_printed(T: float, tolerances: Sequence[float]) -> float:
    """Prop. C.1 as printed (without the ceiling): ``√2 [1/(1 − √(1−T)) − 1] √(ε1 ε2)``; see :func:`propc1_distortion_bound`.

    Examples
    --------
    >>> round(propc1_distortion_bound_as_printed(0.25, [0.49, 0.49]), 6)
    4.479394
    """
    check_count(len(as_sequence(tolerances, "tolerances")), 2, "tolerances", "entries (Prop. C.1: one per secret μ, σ)")
    return thm4_1_union_distortion_bound(T, tolerances, math.sqrt(2.0) / 2.0)


def propc3_distortion_bound(T: float, tolerances: Sequence[float]) -> float:
    """Wang et al. Props. C.3 (diagonal Gaussian) and C.5 (2-D Gaussian, d ≤ 4), corrected:
    ``Δ > [1/(1 − (1−T)^{1/d}) − 1] (Π ε_i)^{1/d}`` (γ = ½; printed with ``√d`` instead of 1, which
    is false for some priors: docs/errata.md).

    Examples
    --------
    >>> round(propc3_distortion_bound(0.3, [0.1, 0.1, 0.1]), 6)
    0.792093
    """
    return thm4_1_union_distortion_bound(T, tolerances, GAUSSIAN_GAMMA)


propc5_distortion_bound = propc3_distortion_bound


# ------------------------------------------------------------------------- quantization mechanisms
def propc4_privacy_distortion(tolerances: Sequence[float], steps: Sequence[float]) -> tuple[float, float]:
    """Wang et al. Props. C.2 (d = 2) and C.4: Algorithms 1–2 under uniform priors have
    ``Π = 1 − Π_i (1 − 2ε_i / s_i)`` and ``Δ = ½ √(Σ_i s_i²)``; returns ``(Π, Δ)``. Needs ``2ε_i ≤ s_i``.

    Examples
    --------
    >>> tuple(round(v, 6) for v in propc4_privacy_distortion([0.2, 0.1, 0.3], [1.0, 0.5, 0.75]))
    (0.928, 0.673146)
    """
    s = as_positive_vector(steps, "steps")
    return float(1.0 - np.prod(1.0 - _covered_fractions(tolerances, s))), float(0.5 * np.sqrt((s**2).sum()))


def propc2_privacy_distortion(tolerances: Sequence[float], steps: Sequence[float]) -> tuple[float, float]:
    """Wang et al. Prop. C.2 (Algorithm 1): ``Π = 2ε1/s_μ + 2ε2/s_σ − (2ε1/s_μ)(2ε2/s_σ)``,
    ``Δ = ½ √(s_μ² + s_σ²)``; returns ``(Π, Δ)``.

    Examples
    --------
    >>> tuple(round(v, 6) for v in propc2_privacy_distortion([0.3, 0.45], [1.0, 2.0]))
    (0.78, 1.118034)
    """
    if len(tolerances) != 2 or len(steps) != 2:
        raise MechDesignError("Prop. C.2 has two secrets (μ, σ) and two steps (s_μ, s_σ)")
    return propc4_privacy_distortion(tolerances, steps)


def propc2_ratio_constant(tolerances: Sequence[float], steps: Sequence[float]) -> float:
    """``c_{ε,s} = c_ε c_2 / (c_1 (1 − 2 c_2))`` of Props. C.2/C.4 (App. C.5.2, C.5.4), with
    ``x_i = ε_i/s_i``, ``c_1 = min x_i``, ``c_2 = max x_i`` and ``c_ε = √(mean ε_i²) / (Π ε_i)^{1/d}``:
    the claimed ratio ``Δ < c_{ε,s} Δ_opt``. Needs ``2 c_2 < 1``. It rests on the printed Prop. C.3;
    with the corrected bound (:func:`propc3_distortion_bound`) the proven ratio is ``√d · c_{ε,s}`` (docs/errata.md).

    Examples
    --------
    >>> round(propc2_ratio_constant([0.2, 0.2], [1.0, 1.0]), 6)
    np.float64(1.666667)
    """
    eps = as_positive_vector(tolerances, "tolerances")
    s = as_positive_vector(steps, "steps", size=eps.size)
    x = eps / s
    if 2 * x.max() >= 1:
        raise MechDesignError(f"c_eps,s needs 2 ε_i < s_i, got ratios {x.tolist()}")
    c_eps = math.sqrt(float((eps**2).mean())) / float(np.exp(np.log(eps).mean()))
    return c_eps * x.max() / (x.min() * (1 - 2 * x.max()))


def propc6_distortion(secrets: Sequence[str], steps: Sequence[float]) -> float:
    """Wang et al. Prop. C.6 (Algorithm 3): ``Δ = ½ √(Σ_{μ_i ∈ G} s_{μ_i}² + 1[{σ1, σ2} ∩ G ≠ ∅](s_a² + s_b²))``;
    ``steps = (s_μ1, s_μ2, s_a, s_b)``.

    Examples
    --------
    >>> round(propc6_distortion(['mu1', 'sigma1'], [1.5, 1.0, 2.0, 2.0]), 6)
    1.600781
    """
    s = as_positive_vector(steps, "steps", size=4)
    unknown = set(secrets) - {"mu1", "mu2", "sigma1", "sigma2"}
    if unknown or not secrets:
        raise MechDesignError(f"secrets must be a non-empty subset of mu1, mu2, sigma1, sigma2, got {list(secrets)}")
    total = sum(s[i] ** 2 for i, name in enumerate(("mu1", "mu2")) if name in secrets)
    if {"sigma1", "sigma2"} & set(secrets):
        total += s[2] ** 2 + s[3] ** 2
    return 0.5 * math.sqrt(total)


def _triangle_miss(s_a: float, s_b: float, length_a: float, length_b: float) -> float:
    """``1 − 1[L^α > 0, L^β > 0] · ½ L^α L^β / (s_a s_b)`` (Prop. C.6)."""
    return 1.0 - (0.5 * length_a * length_b / (s_a * s_b) if length_a > 0 and length_b > 0 else 0.0)


def propc6_privacy_bound(secrets: Sequence[str], tolerances: Sequence[float], steps: Sequence[float], alpha: float) -> float:
    """Wang et al. Prop. C.6 (Algorithm 3, uniform μ1, μ2, √λ1, √λ2): ``Π ≤ P_μ + P_σ − P_μ P_σ``.

    ``tolerances`` are ε for ``secrets`` (in the same order); ``steps = (s_μ1, s_μ2, s_a, s_b)``;
    ``0 < α < π/2``. ``P_μ = 1 − Π_i (1 − 1[μ_i ∈ G] 2ε_μi/s_μi)`` and ``P_σ`` is ``P_σ1``, ``P_σ2`` or
    ``P_σ1,σ2`` (each ``1 − ½ L^α L^β/(s_a s_b)`` when both lengths are positive, else 1) with the
    lengths ``L`` printed in Prop. C.6.

    Examples
    --------
    >>> round(propc6_privacy_bound(['mu1', 'sigma1'], [0.1, 0.1], [1.5, 1.0, 2.0, 2.0], 0.8), 6)
    np.float64(0.716716)
    """
    s = as_positive_vector(steps, "steps", size=4)
    eps = dict(zip(secrets, as_positive_vector(tolerances, "tolerances", size=len(secrets))))
    if set(eps) - {"mu1", "mu2", "sigma1", "sigma2"} or not eps:
        raise MechDesignError(f"secrets must be a non-empty subset of mu1, mu2, sigma1, sigma2, got {list(secrets)}")
    angle = as_finite(alpha, "alpha")
    if not 0.0 < angle < math.pi / 2:
        raise MechDesignError(f"Prop. C.6 needs 0 < alpha < pi/2, got {alpha!r}")
    c, n = math.cos(angle), math.sin(angle)
    r2 = math.sqrt(2.0)
    p_mu = 1.0 - math.prod(1.0 - 2.0 * eps[m] / s[i] for i, m in enumerate(("mu1", "mu2")) if m in eps)
    e1, e2 = eps.get("sigma1"), eps.get("sigma2")
    if e1 is not None and e2 is not None:
        la = s[2] - max(e1 / c, e2 / n) - max(e1 / c + r2 * e1 * c, e2 / n + r2 * e2 * n)
        lb = s[3] - max(e1 / n, e2 / c) - max(e1 / n + r2 * e1 * n, e2 / c + r2 * e2 * c)
        p_sigma = _triangle_miss(s[2], s[3], la, lb)
    elif e1 is not None:
        p_sigma = _triangle_miss(s[2], s[3], s[2] - 2 * e1 / c - r2 * e1 * c, s[3] - 2 * e1 / n - r2 * e1 * n)
    elif e2 is not None:
        p_sigma = _triangle_miss(s[2], s[3], s[2] - 2 * e2 / n - r2 * e2 * n, s[3] - 2 * e2 / c - r2 * e2 * c)
    else:
        p_sigma = 0.0
    return p_mu + p_sigma - p_mu * p_sigma



# ------------------------------------------------------------------ comparisons of the bounds
def propb1_union_minus_group(T: float, tolerances: Sequence[float], gamma_union: float, gamma_group: float) -> float:
    """Prop. B.1: ``thm4_1_union_distortion_bound(γ_union) − thm5_3_group_distortion_bound(γ_group, β = d)``, non-negative when ``γ_union ≥ γ_group``
    (Thm. 4.1 is the tighter union bound).

    Examples
    --------
    >>> propb1_union_minus_group(0.3, [0.1, 0.2, 0.3], 0.5, 0.5) >= 0
    True
    """
    d = len(tolerances)
    return thm4_1_union_distortion_bound(T, tolerances, gamma_union) - thm5_3_group_distortion_bound(T, tolerances, gamma_group, d)


def propb2_tolerance_condition(tolerance_tau: float, tolerance_alpha: float, tau: float, alpha: float, d: int) -> bool:
    """Prop. B.2's condition ``ε_τ/ε_α ≥ d^{1/τ − 1/α}`` (``α ≥ τ``), under which ``Δ_{ℓα} ≤ Δ_{ℓτ}``.

    Examples
    --------
    >>> propb2_tolerance_condition(0.2, 0.1, 1.0, 2.0, 4)
    True
    """
    low, high = as_norm_order(tau), as_norm_order(alpha)
    if high < low:
        raise MechDesignError(f"Prop. B.2 needs alpha >= tau, got alpha = {alpha!r} < tau = {tau!r}")
    dims = as_positive_int(d, "d")
    exponent = (0.0 if low == math.inf else 1.0 / low) - (0.0 if high == math.inf else 1.0 / high)
    eps_tau = float(as_positive_vector(tolerance_tau, "tolerance_tau", size=1)[0])
    eps_alpha = float(as_positive_vector(tolerance_alpha, "tolerance_alpha", size=1)[0])
    return eps_tau / eps_alpha >= dims**exponent * (1 - 1e-12)


# ------------------------------------------------------------- 2-D Gaussians (App. C.3, C.5.6–C.5.10)
def _sds_2d(theta: Any) -> tuple[float, float, float, float, float, float]:
    """``(μ1, μ2, σ1, σ2, λ1, λ2)`` of ``θ = (μ1, μ2, λ1, λ2, α)`` (σ_i the marginal SDs)."""
    values = np.asarray(theta, dtype=float)
    if values.shape != (5,) or not np.all(np.isfinite(values)) or values[2] <= 0 or values[3] <= 0:
        raise MechDesignError(f"theta must be (mu1, mu2, lambda1 > 0, lambda2 > 0, alpha), got {theta!r}")
    m1, m2, l1, l2, angle = values
    c2, s2 = math.cos(angle) ** 2, math.sin(angle) ** 2
    return m1, m2, math.sqrt(l1 * c2 + l2 * s2), math.sqrt(l1 * s2 + l2 * c2), l1, l2


def lemmac7_diagonal_distortion(theta: Any, theta_prime: Any) -> float:
    """Lemma C.7: ``D(X_θ, X_θ') = ½ √(Σ_j (μ_j − μ'_j)² + Σ_j (σ_j − σ'_j)²)`` (half the Wasserstein-2
    distance) for Gaussians with diagonal covariances, ``θ = (μ_1, …, μ_k, σ_1, …, σ_k)``.

    Examples
    --------
    >>> lemmac7_diagonal_distortion((0, 0, 1, 1), (3, 0, 1, 5))  # ½ √(9 + 16)
    2.5
    """
    a, b = as_sequence(theta, "theta"), as_sequence(theta_prime, "theta_prime")
    first, second = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if first.size % 2 or first.size == 0 or second.shape != first.shape or not (
            np.all(np.isfinite(first)) and np.all(np.isfinite(second))):
        raise MechDesignError(f"theta and theta_prime must be (mu_1..mu_k, sigma_1..sigma_k) of one length, "
                              f"got {theta!r} and {theta_prime!r}")
    if np.any(first[first.size // 2:] < 0) or np.any(second[second.size // 2:] < 0):
        raise MechDesignError(f"standard deviations must be non-negative, got {theta!r} and {theta_prime!r}")
    return 0.5 * float(np.sqrt(np.sum((first - second) ** 2)))


def lemmac8_w2_squared_lower_bound(theta: Any, theta_prime: Any) -> float:
    """Lemma C.8: ``W2(θ, θ')² ≥ (μ1 − μ1')² + (μ2 − μ2')² + (σ1 − σ1')² + (σ2 − σ2')²`` for 2-D Gaussians
    ``θ = (μ1, μ2, λ1, λ2, α)`` (covariance ``R_α diag(λ1, λ2) R_αᵀ``, ``σ_i`` the marginal SDs).

    Examples
    --------
    >>> lemmac8_w2_squared_lower_bound((0, 0, 1, 1, 0), (1, 0, 4, 1, 0))
    2.0
    """
    a, b = _sds_2d(theta), _sds_2d(theta_prime)
    return float(sum((x - y) ** 2 for x, y in zip(a[:4], b[:4])))


def lemmac10_cross_term_bound(theta: Any, theta_prime: Any) -> float:
    """Lemma C.10's right side, ``√((λ1λ1' + λ2λ2') cos²(α−α') + (λ1λ2' + λ2λ1') sin²(α−α') + 2√(λ1λ1'λ2λ2'))``
    (= ``tr (Σ^{1/2} Σ' Σ^{1/2})^{1/2}``), which is at most ``σ1σ1' + σ2σ2'``.

    Examples
    --------
    >>> lemmac10_cross_term_bound((0, 0, 1, 1, 0), (0, 0, 1, 1, 0))
    2.0
    """
    *_, l1, l2 = _sds_2d(theta)
    *_, k1, k2 = _sds_2d(theta_prime)
    turn = float(np.asarray(theta, dtype=float)[4] - np.asarray(theta_prime, dtype=float)[4])
    inner = ((l1 * k1 + l2 * k2) * math.cos(turn) ** 2 + (l1 * k2 + l2 * k1) * math.sin(turn) ** 2
             + 2 * math.sqrt(l1 * k1 * l2 * k2))
    return math.sqrt(inner)


def lemmac9_w2_squared(theta: Any, theta_prime: Any) -> float:
    """Lemma C.9: ``W2(θ, θ')² = (μ1 − μ1')² + (μ2 − μ2')² + λ1 + λ1' + λ2 + λ2' − 2 C`` for 2-D Gaussians
    ``θ = (μ1, μ2, λ1, λ2, α)``, with ``C`` Lemma C.10's cross term (:func:`lemmac10_cross_term_bound`).

    Examples
    --------
    >>> round(lemmac9_w2_squared((0, 0, 1, 1, 0), (1, 0, 4, 1, 0)), 12)  # 1 + (2 − 1)²: σ1 = 1 → 2
    2.0
    """
    m1, m2, _, _, l1, l2 = _sds_2d(theta)
    n1, n2, _, _, k1, k2 = _sds_2d(theta_prime)
    return float((m1 - n1) ** 2 + (m2 - n2) ** 2 + l1 + l2 + k1 + k2 - 2 * lemmac10_cross_term_bound(theta, theta_prime))


def lemmac11_shifts(tolerance: float, alpha: float, secret: str = "sigma1") -> tuple[tuple[float, float], tuple[float, float]]:
    """Lemma C.11's shifts of the axes ``(a, b)`` (square roots of λ1, λ2) for an SD secret.

    Returns ``((δ_α, δ_β), (δ'_α, δ'_β))``: moving ``(a, b)`` out by ``(δ_α, δ_β)`` raises ``σ`` by at
    least ε, moving it in by ``(δ'_α, δ'_β)`` (when ``a ≥ δ'_α, b ≥ δ'_β``) lowers it by at least ε. For
    ``σ1``: ``δ = (ε/cos α, ε/sin α)``, ``δ' = (ε/cos α + √2 ε cos α, ε/sin α + √2 ε sin α)``; ``σ2`` swaps
    cos and sin.

    Examples
    --------
    >>> lemmac11_shifts(0.1, math.pi / 4)[0]  # doctest: +ELLIPSIS
    (0.1414..., 0.1414...)
    """
    eps = float(as_positive_vector(tolerance, "tolerance", size=1)[0])
    angle = as_finite(alpha, "alpha")
    if not 0.0 < angle < math.pi / 2:
        raise MechDesignError(f"Lemma C.11 needs 0 < alpha < pi/2, got {alpha!r}")
    secret = as_choice(secret, ("sigma1", "sigma2"), "secret")
    c, s = (math.cos(angle), math.sin(angle)) if secret == "sigma1" else (math.sin(angle), math.cos(angle))
    root2 = math.sqrt(2.0)
    return (eps / c, eps / s), (eps / c + root2 * eps * c, eps / s + root2 * eps * s)


# ------------------------------------------------- App. D: Gaussian instances of Thms. 5.1, 5.3, 5.4
def propd1_distortion_bound(T: float, tolerances: Sequence[float]) -> float:
    """Prop. D.1 (diagonal Gaussian, intersection privacy), corrected:
    ``Δ > ⌈1/T⌉^{1/d} (Π ε_i)^{1/d} − (1/d) Σ ε_i`` (Thm. 5.1 with γ = γ_max = ½; printed with γ = √d/2,
    for which no counterexample is known but which the proof does not support: docs/errata.md).

    Examples
    --------
    >>> round(propd1_distortion_bound(0.2, [0.1, 0.2]), 6)
    0.166228
    """
    return thm5_1_intersection_distortion_bound(T, tolerances, GAUSSIAN_GAMMA)


def propd3_distortion_bound(T: float, tolerances: Sequence[float], n_groups: int) -> float:
    """Prop. D.3 (diagonal Gaussian, group privacy with β groups), corrected: Thm. 5.3 with γ = ½.
    As printed (γ = √d/2) it fails for β = d on a sparse prior (docs/errata.md).

    Examples
    --------
    >>> round(propd3_distortion_bound(0.5, [0.1, 0.2], 2), 6)
    0.332843
    """
    return thm5_3_group_distortion_bound(T, tolerances, GAUSSIAN_GAMMA, n_groups)


def propd5_distortion_bound(T: float, tolerance: float, p: float, d: int) -> float:
    """Prop. D.5 (diagonal Gaussian, ℓp privacy), corrected: Thm. 5.4 with γ = ½.

    Examples
    --------
    >>> round(propd5_distortion_bound(0.2, 0.3, 2, 2), 6)
    0.26221
    """
    return thm5_4_lp_distortion_bound(T, tolerance, p, d, GAUSSIAN_GAMMA)


def _covered_fractions(tolerances: Sequence[float], steps: Sequence[float]) -> np.ndarray:
    """``2ε_i/s_i``, the chance that a window of half-width ε_i around the bin midpoint holds a secret
    uniform on a bin of length s_i; needs ``2ε_i ≤ s_i`` (docs/errata.md, Props. C.2/C.4)."""
    eps = as_positive_vector(tolerances, "tolerances")
    s = as_positive_vector(steps, "steps", size=eps.size)
    if (2 * eps > s).any():
        raise MechDesignError(f"the quantization privacy needs 2 ε_i <= s_i, got tolerances {eps.tolist()} and steps {s.tolist()}")
    return 2.0 * eps / s


def propd2_privacy(tolerances: Sequence[float], steps: Sequence[float]) -> float:
    """Prop. D.2: Alg. 2 under intersection privacy and uniform priors has ``Π = Π_i 2ε_i/s_i``
    (distortion as in :func:`propc4_privacy_distortion`).

    Examples
    --------
    >>> propd2_privacy([0.1, 0.2], [1.0, 1.0])  # doctest: +ELLIPSIS
    0.08...
    """
    return float(np.prod(_covered_fractions(tolerances, steps)))


def propd4_privacy(tolerances: Sequence[float], steps: Sequence[float], groups: Sequence[Sequence[int]]) -> float:
    """Prop. D.4: Alg. 2 under group privacy, ``Π = 1 − Π_b (1 − Π_{i ∈ I_b} 2ε_i/s_i)``.

    Examples
    --------
    >>> round(propd4_privacy([0.1, 0.2], [1.0, 1.0], [[0], [1]]), 6)  # singleton groups: union privacy
    0.52
    """
    x = _covered_fractions(tolerances, steps)
    members = [list(g) for g in groups]
    flat = sorted(i for g in members for i in g)
    if not members or any(not g for g in members) or flat != sorted(set(flat)) or flat[-1] >= x.size or flat[0] < 0:
        raise MechDesignError(f"groups must be disjoint, non-empty lists of secret indices below {x.size}, got {groups!r}")
    return float(1.0 - np.prod([1.0 - np.prod(x[g]) for g in members]))


def propd6_privacy_bound(tolerance: float, p: float, steps: Sequence[float]) -> float:
    """Prop. D.6: Alg. 2 under ℓp privacy, ``Π ≤ 1 − Π_i (1 − 2ε_p/(d^{1/p} s_i))`` (a guess within ε_p
    in ℓp norm is within ``ε_p/d^{1/p}`` in some coordinate).

    Examples
    --------
    >>> round(propd6_privacy_bound(0.2, 2.0, [1.0, 1.0]), 6)
    0.485685
    """
    s = as_positive_vector(steps, "steps")
    order = as_norm_order(p)
    scale = 1.0 if order == math.inf else s.size ** (1.0 / order)
    eps = float(as_positive_vector(tolerance, "tolerance", size=1)[0]) / scale
    return float(1.0 - np.prod(1.0 - _covered_fractions(np.full(s.size, eps), s)))


# Names of 0.1.0, renamed to the statement-tag scheme in 0.2.0: each warns (DeprecationWarning) and calls the new one.
gamma_geometric = deprecated_alias(eq4_gamma_geometric, "gamma_geometric")
gamma_arithmetic = deprecated_alias(eq7_gamma_arithmetic, "gamma_arithmetic")
gamma_max = deprecated_alias(propc1_gamma_max, "gamma_max")
union_factor = deprecated_alias(thm4_1_union_factor, "union_factor")
thm_4_1 = deprecated_alias(thm4_1_union_distortion_bound, "thm_4_1")
thm_5_1 = deprecated_alias(thm5_1_intersection_distortion_bound, "thm_5_1")
thm_5_3 = deprecated_alias(thm5_3_group_distortion_bound, "thm_5_3")
thm_5_4 = deprecated_alias(thm5_4_lp_distortion_bound, "thm_5_4")
prop_5_5_tolerance = deprecated_alias(prop5_5_lp_tolerance, "prop_5_5_tolerance")
prop_c1 = deprecated_alias(propc1_distortion_bound, "prop_c1")
prop_c1_printed = deprecated_alias(propc1_distortion_bound_as_printed, "prop_c1_printed")
prop_c3 = deprecated_alias(propc3_distortion_bound, "prop_c3")
prop_c2 = deprecated_alias(propc2_privacy_distortion, "prop_c2")
prop_c4 = deprecated_alias(propc4_privacy_distortion, "prop_c4")
ratio_constant = deprecated_alias(propc2_ratio_constant, "ratio_constant")
prop_c6_distortion = deprecated_alias(propc6_distortion, "prop_c6_distortion")
prop_c6_privacy_bound = deprecated_alias(propc6_privacy_bound, "prop_c6_privacy_bound")
