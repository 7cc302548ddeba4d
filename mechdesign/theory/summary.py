"""Closed forms of Wang et al., "Guarding Multiple Secrets: Enhanced Summary Statistic Privacy".

Lower bounds on the worst-case distortion Δ (eq. (2)) of any mechanism whose privacy is at most T
(Thms. 4.1, 5.1, 5.3, 5.4; Props. C.1, C.3, C.5), the tolerance of Prop. 5.5, the conversion
parameters γ (eqs. (4), (7)) computed on a finite parameter space, and the privacy and distortion of
the quantization mechanisms (Props. C.2, C.4, C.6). Budgets T are probabilities; every function checks
its domain. See docs/errata.md (## Multi-secret summary statistic privacy (Wang et al.)) for the
statements that the numerics contradict and their corrections.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from .._validate import as_norm_order, as_positive_int, as_positive_vector
from ..exceptions import MechDesignError
from ..parameter_spaces import ParameterSpace


def _check_T(T: Any) -> float:
    value = float(T)
    if not 0.0 < value < 1.0:
        raise MechDesignError(f"the privacy budget T must satisfy 0 < T < 1, got {T!r}")
    return value


def _check_gamma(gamma: Any) -> float:
    value = float(gamma)
    if not 0.0 <= value < math.inf:
        raise MechDesignError(f"gamma must be a finite number >= 0, got {gamma!r}")
    return value


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


def gamma_geometric(space: ParameterSpace) -> float:
    """γ of Thm. 4.1, eq. (4): ``inf D/R`` with ``D = ½𝔇`` and ``R = Π_i |g_i(θ1) − g_i(θ2)|^{1/d}``,
    over pairs of supported parameters with ``R > 0`` (``inf`` if there is none)."""
    ratios = _pair_ratios(space, "geometric")
    return float(ratios.min()) if ratios.size else math.inf


def gamma_arithmetic(space: ParameterSpace) -> float:
    """γ of Thms. 5.1, 5.3, 5.4 (eqs. (7), (9)): ``R = (1/d) Σ_i |g_i(θ1) − g_i(θ2)|``."""
    ratios = _pair_ratios(space, "arithmetic")
    return float(ratios.min()) if ratios.size else math.inf


def gamma_max(space: ParameterSpace) -> float:
    """``inf D / max_i |g_i(θ1) − g_i(θ2)|`` — the conversion parameter of the corrected bounds
    (docs/errata.md): it bounds ``Δ ≥ γ_max (H_i − L_i)`` for every secret separately."""
    ratios = _pair_ratios(space, "max")
    return float(ratios.min()) if ratios.size else math.inf


# --------------------------------------------------------------------------------- lower bounds
def union_factor(T: float, d: int) -> float:
    """``1/(1 − (1−T)^{1/d}) − 1``: the factor of Thm. 4.1 (the lower bound on the geometric mean of
    ``N_i − 1`` in its proof, App. B.1).

    Examples
    --------
    >>> round(union_factor(0.5, 2), 6)  # 1/(1 − √0.5) − 1
    2.414214
    """
    value, dims = _check_T(T), as_positive_int(d, "d")
    return 1.0 / (1.0 - (1.0 - value) ** (1.0 / dims)) - 1.0


def thm_4_1(T: float, tolerances: Sequence[float], gamma: float) -> float:
    """Union privacy lower bound, Wang et al. Thm. 4.1 eq. (5):
    ``Δ > 2γ [1/(1 − (1−T)^{1/d}) − 1] (Π ε_i)^{1/d}`` (γ of eq. (4), :func:`gamma_geometric`).

    As printed the bracket may read as a ceiling; the proof (App. B.1) supports the plain factor,
    which is what is returned (a ceiling of it is not implied for ``d > 1``). With γ of eq. (4) the
    statement is false in general; it holds with :func:`gamma_max` (docs/errata.md).
    """
    d, geometric, _ = _means(tolerances)
    return 2.0 * _check_gamma(gamma) * union_factor(T, d) * geometric


def thm_5_1(T: float, tolerances: Sequence[float], gamma: float) -> float:
    """Intersection privacy lower bound, Wang et al. Thm. 5.1 eq. (8):
    ``Δ > 2γ ⌈1/T⌉^{1/d} (Π ε_i)^{1/d} − 2γ (1/d) Σ ε_i`` (γ of eq. (7), :func:`gamma_arithmetic`)."""
    d, geometric, arithmetic = _means(tolerances)
    g = _check_gamma(gamma)
    return 2.0 * g * math.ceil(1.0 / _check_T(T) - 1e-12) ** (1.0 / d) * geometric - 2.0 * g * arithmetic


def thm_5_3(T: float, tolerances: Sequence[float], gamma: float, n_groups: int) -> float:
    """Group secrets privacy lower bound, Wang et al. Thm. 5.3:
    ``Δ > 2γ (1 − (1−T)^{1/β})^{−β/d} (Π ε_i)^{1/d} − 2γ (1/d) Σ ε_i`` with β groups.

    With γ of eq. (9) the statement is false in general; it holds with :func:`gamma_max` (docs/errata.md).
    """
    d, geometric, arithmetic = _means(tolerances)
    beta, value, g = as_positive_int(n_groups, "n_groups"), _check_T(T), _check_gamma(gamma)
    if beta > d:
        raise MechDesignError(f"there cannot be more groups ({beta}) than secrets ({d})")
    factor = (1.0 - (1.0 - value) ** (1.0 / beta)) ** (-beta / d)
    return 2.0 * g * factor * geometric - 2.0 * g * arithmetic


def thm_5_4(T: float, tolerance: float, p: float, d: int, gamma: float) -> float:
    """ℓp norm privacy lower bound, Wang et al. Thm. 5.4: ``Δ > 2γ (⌈1/T⌉^{1/d} − 1) ε_p / d^{1/p}``."""
    order, dims = as_norm_order(p), as_positive_int(d, "d")
    eps = float(as_positive_vector(tolerance, "tolerance", size=1)[0])
    scale = 1.0 if order == math.inf else dims ** (1.0 / order)
    return 2.0 * _check_gamma(gamma) * (math.ceil(1.0 / _check_T(T) - 1e-12) ** (1.0 / dims) - 1.0) * eps / scale


def prop_5_5_tolerance(tolerances: Sequence[float], p: float) -> float:
    """Wang et al. Prop. 5.5: the ℓp tolerance ``ε_p = (Σ ε_i^p)^{1/p}`` under which
    ``Δ_inter ≤ Δ_lp ≤ Δ_union`` (``max ε_i`` for ``p = inf``).

    Examples
    --------
    >>> round(prop_5_5_tolerance([0.3, 0.4], 2), 6)  # ℓ2 norm
    0.5
    """
    eps, order = as_positive_vector(tolerances, "tolerances"), as_norm_order(p)
    return float(eps.max()) if order == math.inf else float((eps**order).sum() ** (1.0 / order))


#: γ of the corrected Gaussian bounds: ``D = ½ W2 ≥ ½ |Δg_i|`` for a mean or SD secret (Lemmas C.7, C.8).
GAUSSIAN_GAMMA = 0.5


def prop_c1(T: float, tolerances: Sequence[float]) -> float:
    """Wang et al. Prop. C.1 (1-D Gaussian, secrets μ and σ), corrected:
    ``Δ > [1/(1 − √(1−T)) − 1] √(ε1 ε2)`` (Thm. 4.1 with γ = γ_max = ½).

    As printed, ``√2 [·]`` (γ = √2/2) — and with a ceiling — it is false for some priors
    (docs/errata.md); :func:`prop_c1_printed` returns the printed value.

    Examples
    --------
    >>> round(prop_c1(0.5, [0.1, 0.2]), 6)
    0.341421
    """
    if len(tolerances) != 2:
        raise MechDesignError(f"Prop. C.1 has two secrets (μ, σ), got {len(tolerances)} tolerances")
    return thm_4_1(T, tolerances, GAUSSIAN_GAMMA)


def prop_c1_printed(T: float, tolerances: Sequence[float]) -> float:
    """Prop. C.1 as printed (without the ceiling): ``√2 [1/(1 − √(1−T)) − 1] √(ε1 ε2)``; see :func:`prop_c1`.

    Examples
    --------
    >>> round(prop_c1_printed(0.5, [0.1, 0.2]), 6)
    0.482843
    """
    if len(tolerances) != 2:
        raise MechDesignError(f"Prop. C.1 has two secrets (μ, σ), got {len(tolerances)} tolerances")
    return thm_4_1(T, tolerances, math.sqrt(2.0) / 2.0)


def prop_c3(T: float, tolerances: Sequence[float]) -> float:
    """Wang et al. Props. C.3 (diagonal Gaussian) and C.5 (2-D Gaussian, d ≤ 4), corrected:
    ``Δ > [1/(1 − (1−T)^{1/d}) − 1] (Π ε_i)^{1/d}`` (γ = ½; printed with ``√d`` instead of 1, which
    is false for some priors: docs/errata.md)."""
    return thm_4_1(T, tolerances, GAUSSIAN_GAMMA)


prop_c5 = prop_c3


# ------------------------------------------------------------------------- quantization mechanisms
def prop_c4(tolerances: Sequence[float], steps: Sequence[float]) -> tuple[float, float]:
    """Wang et al. Props. C.2 (d = 2) and C.4: Algorithms 1–2 under uniform priors have
    ``Π = 1 − Π_i (1 − 2ε_i / s_i)`` and ``Δ = ½ √(Σ_i s_i²)``; returns ``(Π, Δ)``. Needs ``2ε_i ≤ s_i``."""
    eps = as_positive_vector(tolerances, "tolerances")
    s = as_positive_vector(steps, "steps", size=eps.size)
    if (2 * eps > s).any():
        raise MechDesignError(f"Props. C.2/C.4 need 2 ε_i <= s_i, got tolerances {eps.tolist()} and steps {s.tolist()}")
    return float(1.0 - np.prod(1.0 - 2.0 * eps / s)), float(0.5 * np.sqrt((s**2).sum()))


def prop_c2(tolerances: Sequence[float], steps: Sequence[float]) -> tuple[float, float]:
    """Wang et al. Prop. C.2 (Algorithm 1): ``Π = 2ε1/s_μ + 2ε2/s_σ − (2ε1/s_μ)(2ε2/s_σ)``,
    ``Δ = ½ √(s_μ² + s_σ²)``; returns ``(Π, Δ)``."""
    if len(tolerances) != 2 or len(steps) != 2:
        raise MechDesignError("Prop. C.2 has two secrets (μ, σ) and two steps (s_μ, s_σ)")
    return prop_c4(tolerances, steps)


def ratio_constant(tolerances: Sequence[float], steps: Sequence[float]) -> float:
    """``c_{ε,s} = c_ε c_2 / (c_1 (1 − 2 c_2))`` of Props. C.2/C.4 (App. C.5.2, C.5.4), with
    ``x_i = ε_i/s_i``, ``c_1 = min x_i``, ``c_2 = max x_i`` and ``c_ε = √(mean ε_i²) / (Π ε_i)^{1/d}``:
    the claimed ratio ``Δ < c_{ε,s} Δ_opt``. Needs ``2 c_2 < 1``. It rests on the printed Prop. C.3;
    with the corrected bound (:func:`prop_c3`) the proven ratio is ``√d · c_{ε,s}`` (docs/errata.md)."""
    eps = as_positive_vector(tolerances, "tolerances")
    s = as_positive_vector(steps, "steps", size=eps.size)
    x = eps / s
    if 2 * x.max() >= 1:
        raise MechDesignError(f"c_eps,s needs 2 ε_i < s_i, got ratios {x.tolist()}")
    c_eps = math.sqrt(float((eps**2).mean())) / float(np.exp(np.log(eps).mean()))
    return c_eps * x.max() / (x.min() * (1 - 2 * x.max()))


def prop_c6_distortion(secrets: Sequence[str], steps: Sequence[float]) -> float:
    """Wang et al. Prop. C.6 (Algorithm 3): ``Δ = ½ √(Σ_{μ_i ∈ G} s_{μ_i}² + 1[{σ1, σ2} ∩ G ≠ ∅](s_a² + s_b²))``;
    ``steps = (s_μ1, s_μ2, s_a, s_b)``."""
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


def prop_c6_privacy_bound(secrets: Sequence[str], tolerances: Sequence[float], steps: Sequence[float], alpha: float) -> float:
    """Wang et al. Prop. C.6 (Algorithm 3, uniform μ1, μ2, √λ1, √λ2): ``Π ≤ P_μ + P_σ − P_μ P_σ``.

    ``tolerances`` are ε for ``secrets`` (in the same order); ``steps = (s_μ1, s_μ2, s_a, s_b)``;
    ``0 < α < π/2``. ``P_μ = 1 − Π_i (1 − 1[μ_i ∈ G] 2ε_μi/s_μi)`` and ``P_σ`` is ``P_σ1``, ``P_σ2`` or
    ``P_σ1,σ2`` (each ``1 − ½ L^α L^β/(s_a s_b)`` when both lengths are positive, else 1) with the
    lengths ``L`` printed in Prop. C.6.
    """
    s = as_positive_vector(steps, "steps", size=4)
    eps = dict(zip(secrets, as_positive_vector(tolerances, "tolerances", size=len(secrets))))
    if set(eps) - {"mu1", "mu2", "sigma1", "sigma2"} or not eps:
        raise MechDesignError(f"secrets must be a non-empty subset of mu1, mu2, sigma1, sigma2, got {list(secrets)}")
    angle = float(alpha)
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
