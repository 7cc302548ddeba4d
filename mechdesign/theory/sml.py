"""Closed forms of Wang, Lin & Fanti, "Statistic Maximal Leakage" (the SML paper), §V and Apps. F–I.

Histograms have precision ``τ`` over ``d`` categories (``d = d̂₀*`` when the support is known);
``s`` is the number of secret values (``τ + 1`` for "the fraction of one category"), ``I`` the QM
interval length and ``ε`` the RR parameter. Binomial coefficients are handled in log space
(:func:`~mechdesign.tabular.log_histogram_count`), so ``τ`` and ``d`` in the tens of thousands work.

Statement → function:

=======================================  =================================================================
Thm. 2 (adaptive composition)            :func:`thm2_composition_bound`
Lemma 2 (SML of a composition)           :func:`lemma2_composed_mechanism` (then Prop. 1 / ``measure_sml``)
Thm. 3 (post-processing)                 :func:`thm3_post_processing_bound`
Thm. 4 (RR)                              :func:`thm4_rr_sml`, :func:`thm4_rr_distortion`, :func:`thm4_rr_epsilon_for_sml`
Thm. 4 (QM)                              :func:`thm4_qm_sml`, :func:`thm4_qm_distortion` (corrected),
                                         :func:`thm4_qm_distortion_as_printed`, :func:`thm4_rr_qm_distortion_ratio_limit`
Prop. 3 (robustness)                     :func:`prop3_qm_robustness_gap_bound`, :func:`prop3_rr_robustness_condition`
Prop. 4 (upper bounds)                   :func:`prop4_rr_sml_upper_bound`, :func:`prop4_qm_sml_upper_bound` (App. I)
Prop. 5 (lower bounds)                   :func:`prop5_rr_sml_lower_bound`, :func:`prop5_qm_sml_lower_bound`
Prop. 6 (gaps)                           :func:`prop6_rr_sml_bound_gap_limit`, :func:`prop6_qm_sml_bound_gap_limit`,
                                         :func:`prop6_qm_sml_limit` (corrected, the limit of QM's SML),
                                         :func:`prop6_gap_limit_bound`
App. H-D (distortion bounds)             :func:`apphd_rr_distortion_bounds`, :func:`apphd_qm_distortion_bounds`
Prop. 7 (μ-L_DP bounds the SML)          :func:`prop7_ldp_level`
Prop. 7 (first half, Π^inf)              :func:`appk_inf_leakage` (exact), :func:`prop7_inf_leakage_sharp_bound`
Prop. 7 (second half)                    :func:`prop7_ldp_level_upper_bound` (Π̃ + Π̃^inf)
App. K (worst-output measures)           :func:`appk_worst_output_leakage` (Π̃), :func:`appk_worst_output_inf_leakage`
Prop. 8 (continuous outputs)             :func:`prop8_continuous_sml` (finite inputs, densities on the line)
=======================================  =================================================================

Corrections (docs/errata.md, "SML (Wang, Lin & Fanti)"): the QM distortion of Thm. 4 is
``(d − 2)/(d − 1) + ⌊I/2⌋/(τ(d − 1))``, not the printed ``½ + (d⌊I/2⌋ − τ)/(2τ(d − 1))``
(:func:`thm4_qm_distortion_as_printed`), and the comparison ``lim Δ_RR/Δ_QM ≥ 1`` holds only for some
``I`` (:func:`thm4_rr_qm_distortion_ratio_limit`). Prop. 5's RR exponent ``log s`` is read in base 2
(the proof's ``2^k <= s``; checked against the exact SML): read as the natural log, Prop. 6's RR gap limit
(:func:`prop6_rr_sml_bound_gap_limit`) can exceed 1; with base 2 it is 0 below ``m = s`` as stated.
Prop. 5's QM lower bound is corrected in both branches to the exact value of the proof's prior made
feasible — nested missed supports for ``m < I`` (the printed form exceeds the exact SML), disjoint ones for
``m >= I`` (the printed base exceeds 1 and the logarithm's argument can be negative) — and
Prop. 6's QM limit re-derived from it (:func:`prop6_qm_sml_limit`, also an upper bound at every τ).

Names follow one scheme across ``mechdesign.theory``: the statement's tag, then the quantity (e.g.
``thm6_dp_privacy_bounds``: PUT Thm. 6's bounds on ε* under DP; ``propc1_distortion_bound``: multi-secret
Prop. C.1's bound on the distortion).
The 0.1.0 names still work for one release and warn (``DeprecationWarning``; listed at the end of the file).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from scipy.special import betaln

from .._validate import (
    as_budget,
    as_finite,
    as_positive_int,
    as_secret_values,
    as_stochastic_matrix,
    check_count,
)
from ..exceptions import MechDesignError, ProblemTooLargeError
from ._deprecated import deprecated_alias
from ..mechanisms.histogram import quantization_targets
from ..tabular import log_histogram_count


def _check_d(d: int, minimum: int = 2) -> int:
    return as_positive_int(d, "d", minimum=minimum)


def _log_rr_r(epsilon: float, tau: int, d: int) -> float:
    """``log r`` with ``r = (e^ε − 1) / C(τ + d − 1, d − 1)`` (Thm. 4); ``-inf`` at ε = 0."""
    eps = as_budget(epsilon)
    if eps == 0:
        return -math.inf
    return eps + math.log(-math.expm1(-eps)) - log_histogram_count(as_positive_int(tau, "tau"), as_positive_int(d, "d"))


def thm4_rr_sml(epsilon: float, s: int, tau: int, d: int) -> float:
    """SML of RR on all histograms, any secret with ``s`` values: ``log((1 + s r)/(1 + r))`` (Thm. 4).

    Examples
    --------
    >>> round(thm4_rr_sml(1.0, 9, 8, 3), 6)
    0.257921
    """
    log_r = _log_rr_r(epsilon, tau, d)
    values = as_positive_int(s, "s")
    return float(np.logaddexp(0.0, math.log(values) + log_r) - np.logaddexp(0.0, log_r))


def thm4_rr_distortion(epsilon: float, tau: int, d: int) -> float:
    """Worst-case expected TV distortion of RR: ``(d − 1) / (d (1 + r))`` (Thm. 4).

    Examples
    --------
    >>> round(thm4_rr_distortion(1.0, 8, 3), 6)
    0.642147
    """
    log_r = _log_rr_r(epsilon, tau, d)
    return float((d - 1) / d * math.exp(-np.logaddexp(0.0, log_r)))


def thm4_rr_epsilon_for_sml(budget: float, s: int, tau: int, d: int) -> float:
    """The ``ε`` at which RR's SML equals ``budget < log s`` (inverse of :func:`thm4_rr_sml`):
    ``r = (e^T − 1)/(s − e^T)``, ``ε = log(1 + r C(τ + d − 1, d − 1))``.

    Examples
    --------
    >>> round(thm4_rr_epsilon_for_sml(math.log(3), 9, 8, 3), 6)
    2.772589
    """
    target = as_budget(budget, "SML budget")
    values = as_positive_int(s, "s")
    if target >= math.log(values):
        raise MechDesignError(f"RR reaches SML {target!r} only as ε → ∞: it must be below log s = {math.log(values):.6g}")
    if target == 0:
        return 0.0
    log_r = math.log(math.expm1(target)) - math.log(values - math.exp(target))
    return float(np.logaddexp(0.0, log_r + log_histogram_count(as_positive_int(tau, "tau"), _check_d(d))))


def thm4_qm_sml(s: int, interval: int) -> float:
    """SML of QM with interval length ``I``: ``log ⌈s / I⌉`` (Thm. 4), for any secret with ``s`` values.

    Examples
    --------
    >>> round(thm4_qm_sml(9, 3), 6)
    1.098612
    """
    return math.log(math.ceil(as_positive_int(s, "s") / as_positive_int(interval, "interval")))


def _check_interval(tau: int, interval: int) -> tuple[int, int]:
    t, size = as_positive_int(tau, "tau"), as_positive_int(interval, "interval")
    if size > t + 1:
        raise MechDesignError(f"interval must be at most s = tau + 1 = {t + 1}, got {interval!r}")
    return t, size


def thm4_qm_distortion(tau: int, d: int, interval: int) -> float:
    """Worst-case expected TV distortion of QM, secret = fraction of one category — *corrected* Thm. 4:
    ``Δ_QM = (d − 2)/(d − 1) + ⌊I/2⌋ / (τ (d − 1))``.

    The worst input has category 1 at the bottom of the first bin (fraction 0) and all its mass on one
    other category; the output puts ``⌊I/2⌋`` counts on category 1 and spreads ``τ − ⌊I/2⌋`` uniformly
    over the other ``d − 1`` categories, so ``E[D_TV] = 1 − (τ − ⌊I/2⌋)/(τ (d − 1))``.

    Examples
    --------
    >>> round(thm4_qm_distortion(8, 3, 3), 6)
    0.5625
    """
    t, size = _check_interval(tau, interval)
    categories = _check_d(d)
    return (categories - 2) / (categories - 1) + (size // 2) / (t * (categories - 1))


def thm4_qm_distortion_as_printed(tau: int, d: int, interval: int) -> float:
    """Thm. 4's QM distortion as printed: ``½ + (d ⌊I/2⌋ − τ)/(2τ(d − 1))`` (wrong; see errata).

    Examples
    --------
    >>> round(thm4_qm_distortion_as_printed(2, 3, 1), 6)
    0.25
    """
    t, size = _check_interval(tau, interval)
    categories = _check_d(d)
    return 0.5 + (categories * (size // 2) - t) / (2 * t * (categories - 1))


def thm4_rr_qm_distortion_ratio_limit(d: int, interval: int | None = None, alpha: float | None = None) -> float:
    """``lim_{τ→∞} Δ_RR / Δ_QM`` at equal SML ``log ⌈s/I⌉`` (Thm. 4's comparison, corrected).

    Parameters
    ----------
    d
        Number of categories (at least 3; for ``d = 2`` the limit is infinite).
    interval
        A fixed ``I ≥ 2``: the limit is ``(d − 1)² (I − 1) / (d (d − 2) I)`` (≥ 1 iff ``I ≥ (d − 1)²``).
    alpha
        Instead, ``I/τ → α ∈ [0, 1]``: the limit is ``2 (d − 1)² / (d (2d − 4 + α))`` (≥ 1 iff ``α ≤ 2/d``).

    Examples
    --------
    >>> round(thm4_rr_qm_distortion_ratio_limit(4, interval=9), 6)
    1.0
    """
    categories = _check_d(d, 3)
    if (interval is None) == (alpha is None):
        raise MechDesignError("give exactly one of interval (fixed I) or alpha (I / tau → alpha)")
    if interval is not None:
        size = as_positive_int(interval, "interval", minimum=2)  # I = 1: no non-trivial SML
        return (categories - 1) ** 2 * (size - 1) / (categories * (categories - 2) * size)
    ratio = as_finite(alpha, "alpha")
    if not 0.0 <= ratio <= 1.0:
        raise MechDesignError(f"alpha must lie in [0, 1], got {alpha!r}")
    return 2 * (categories - 1) ** 2 / (categories * (2 * categories - 4 + ratio))


def prop3_qm_robustness_gap_bound(tau: int, d_star: int, d0: int, d1: int) -> float:
    """Prop. 3 / App. G: ``Π_QM − Π*_QM <= (d* − d̂₀*) log(1 + τ/(τ + d̂₀* + d̂₁* − 2))`` (< ``d* − d̂₀*``: 1-robust).

    Examples
    --------
    >>> round(prop3_qm_robustness_gap_bound(4, 3, 2, 1), 6)
    0.587787
    """
    t = as_positive_int(tau, "tau")
    missing = _missing(d_star, d0, d1)
    return missing * math.log1p(t / (t + d0 + d1 - 2))


def prop3_rr_robustness_condition(epsilon: float, tau: int, d_hat: int, s: int) -> bool:
    """Prop. 3's condition for RR to be ``log 3``-robust: ``e^ε − 1 <= C(τ + d̂* − 1, d̂* − 1) / s``.

    Examples
    --------
    >>> prop3_rr_robustness_condition(0.5, 4, 3, 5)
    True
    """
    log_r = _log_rr_r(epsilon, tau, d_hat)
    return log_r <= -math.log(as_positive_int(s, "s"))


def _missing(d_star: int, d0: int, d1: int) -> int:
    star, known = as_positive_int(d_star, "d_star"), as_positive_int(d0, "d0")
    if known > star or int(d1) < 0:
        raise MechDesignError(f"need 1 <= d0 <= d_star and d1 >= 0, got d_star={d_star}, d0={d0}, d1={d1}")
    return star - known


def prop4_qm_sml_upper_bound(tau: int, s: int, interval: int, d_star: int, d0: int, d1: int) -> float:
    """App. I's upper bound on QM's SML under a mis-specified support (from Prop. 4):
    ``min{log[⌈s/I⌉ (1 + τ/(τ + d̂₀ + d̂₁ − 2))^{d* − d̂₀}], log(⌈s/I⌉ + s − s ((d̂₀ + d̂₁ − 1)/(τ + d* + d̂₁ − 2))^{d* − d̂₀})}``.

    Examples
    --------
    >>> round(prop4_qm_sml_upper_bound(4, 5, 2, 3, 2, 1), 6)
    1.686399
    """
    t = as_positive_int(tau, "tau")
    missing = _missing(d_star, d0, d1)
    bins = math.ceil(as_positive_int(s, "s") / as_positive_int(interval, "interval"))
    if t + d0 + d1 <= 2:
        raise MechDesignError(f"the bound needs tau + d0 + d1 > 2, got {t + d0 + d1}")
    first = math.log(bins) + missing * math.log1p(t / (t + d0 + d1 - 2))
    fraction = (d0 + d1 - 1) / (t + d_star + d1 - 2)
    second = math.log(bins + s - s * math.exp(missing * math.log(fraction))) if fraction > 0 else math.log(bins + s)
    return min(first, second)


def appi_alpha(tau: int, s: int, interval: int, d0: int) -> float:
    """App. I's threshold ``α = (log s − log ⌈s/I⌉) / log(1 + r)``, ``r = τ/(τ + d̂₀*)``: with ``d* − d̂₀* < α``
    QM's SML bound falls linearly in ``d̂₁*``; at or above it the bound is the trivial ``log s``.

    Examples
    --------
    >>> round(appi_alpha(4, 5, 2, 2), 6)
    1.0
    """
    t = as_positive_int(tau, "tau")
    r = t / (t + as_positive_int(d0, "d0"))
    return (math.log(as_positive_int(s, "s")) - thm4_qm_sml(s, interval)) / math.log1p(r)


def thm4_rr_log_sml(epsilon: float, s: int, tau: int, d: int) -> float:
    """``log Π_RR`` (the log of :func:`thm4_rr_sml`, Thm. 4), accurate when ``Π_RR`` underflows (Adult scale).

    ``Π_RR = log1p(z)`` with ``z = (s − 1) r / (1 + r)``; for tiny ``z``, ``log Π_RR = log z + O(z)``.

    Examples
    --------
    >>> round(thm4_rr_log_sml(1.0, 9, 8, 3), 6)
    -1.3551
    """
    values = as_positive_int(s, "s")
    if values == 1 or as_budget(epsilon) == 0:
        return -math.inf
    log_z = math.log(values - 1) + _log_rr_r(epsilon, tau, d) - float(np.logaddexp(0.0, _log_rr_r(epsilon, tau, d)))
    return log_z if log_z < -30 else math.log(math.log1p(math.exp(log_z)))


def _log_binomial_ratio_terms(epsilon: float, tau: int, d_star: int, d0: int, d1: int) -> tuple[float, float, float]:
    """``(e^ε − 1, C(τ + d̂₀ + d̂₁ − 1, ·), C(τ + d* + d̂₁ − 1, ·))`` as logs (``-inf`` for ``e^ε − 1 = 0``)."""
    eps = as_budget(epsilon)
    log_e = -math.inf if eps == 0 else eps + math.log(-math.expm1(-eps))
    t = as_positive_int(tau, "tau")
    return log_e, log_histogram_count(t, d0 + d1), log_histogram_count(t, d_star + d1)


def prop4_rr_sml_upper_bound(epsilon: float, tau: int, s: int, d_star: int, d0: int, d1: int) -> float:
    """Prop. 4 (App. H-A): RR's SML under a mis-specified support is at most the smaller of
    ``log(s(e^ε − 1)/(A + e^ε − 1) + B/(B + e^ε − 1) · (1 + τ/(τ + d̂₀ + d̂₁ − 1))^{d* − d̂₀})`` and
    ``log(1 + s − s ((d̂₀ + d̂₁)/(τ + d* + d̂₁ − 1))^{d* − d̂₀} / (1 + (e^ε − 1)/B))``, with
    ``A = C(τ + d̂₀ + d̂₁ − 1, d̂₀ + d̂₁ − 1)`` and ``B = C(τ + d* + d̂₁ − 1, d* + d̂₁ − 1)`` (the first term is
    read from App. G's derivation, whose typesetting is garbled in the source).

    Examples
    --------
    >>> round(prop4_rr_sml_upper_bound(1.0, 4, 5, 3, 2, 1), 6)
    0.743158
    """
    missing = _missing(d_star, d0, d1)
    values = as_positive_int(s, "s")
    log_e, log_a, log_b = _log_binomial_ratio_terms(epsilon, tau, d_star, d0, d1)
    keep_a = math.log(values) + log_e - float(np.logaddexp(log_a, log_e))
    keep_b = log_b - float(np.logaddexp(log_b, log_e)) + missing * math.log1p(tau / (tau + d0 + d1 - 1))
    first = float(np.logaddexp(keep_a, keep_b))
    shrink = missing * math.log((d0 + d1) / (tau + d_star + d1 - 1)) - float(np.logaddexp(0.0, log_e - log_b))
    second = math.log(1 + values - values * math.exp(shrink))
    return min(first, second)


def apphd_rr_distortion_bounds(epsilon: float, tau: int, d_star: int, d0: int, d1: int) -> tuple[float, float]:
    """App. H-D: ``(d̂ − 1)/(d̂ (1 + r₁)) <= Δ_RR <= (d* + d̂₁ − 1)/((d* + d̂₁)(1 + r₂))`` with ``d̂ = d̂₀ + d̂₁``,
    ``r₁ = (e^ε − 1)/C(τ + d̂ − 1, d̂ − 1)``, ``r₂ = (e^ε − 1)/C(τ + d* + d̂₁ − 1, d* + d̂₁ − 1)``.

    Examples
    --------
    >>> tuple(round(v, 6) for v in apphd_rr_distortion_bounds(1.0, 4, 3, 2, 1))
    (0.598148, 0.714903)
    """
    _missing(d_star, d0, d1)
    return thm4_rr_distortion(epsilon, tau, d0 + d1), thm4_rr_distortion(epsilon, tau, d_star + d1)


def apphd_qm_distortion_bounds(tau: int, d_star: int, d0: int, d1: int, interval: int) -> tuple[float, float]:
    """App. H-D for QM, *corrected* like Thm. 4: ``Δ_QM`` lies between :func:`thm4_qm_distortion` with
    ``d̂₀ + d̂₁`` and with ``d* + d̂₁`` categories (the printed bounds use the printed Thm. 4 form).

    Examples
    --------
    >>> tuple(round(v, 6) for v in apphd_qm_distortion_bounds(4, 3, 2, 1, 2))
    (0.625, 0.75)
    """
    _missing(d_star, d0, d1)
    return thm4_qm_distortion(tau, d0 + d1, interval), thm4_qm_distortion(tau, d_star + d1, interval)


def _prop5_exponent(missing: int, count: int, log: Callable[[float], float] = math.log) -> float:
    """Prop. 5's exponent ``k``: ``m`` if ``m <= log count``, else ``log count`` (``log``: natural for QM's printed
    form, as read; :func:`math.log2` for RR, the base of Prop. 6's proof)."""
    return missing if missing <= log(count) else log(count)


def prop5_rr_sml_lower_bound(epsilon: float, tau: int, s: int, d_star: int, d0: int, d1: int) -> float:
    """Prop. 5 (App. H-B): lower bound on RR's SML under a mis-specified support, ``m = d* − d̂₀*``:

    * ``m < s``: ``log(s(e^ε − 1)/(B + e^ε − 1) + A/(A + e^ε − 1) · (1 + (τ − k)/(τ + d* + d̂₁ − 1))^k)`` with
      ``k = m`` if ``m <= log₂ s``, else ``k = log₂ s``;
    * ``m >= s``: ``log(s − (s − 1)((d̂₀ + d̂₁ + ζ − 1)/(τ + d̂₀ + d̂₁))^ζ)``, ``ζ = ⌊m/s⌋``;

    ``A = C(τ + d̂₀ + d̂₁ − 1, d̂₀ + d̂₁ − 1)``, ``B = C(τ + d* + d̂₁ − 1, d* + d̂₁ − 1)`` (garbled in the source;
    this reading holds on every exact case checked).

    **The exponent's logarithm is base 2** (docs/errata.md, "Props. 5–6"). The paper prints ``log s``. Its
    proof spreads the prior over ``k`` missed categories, one secret value per subset of them, which needs
    ``2^k <= s`` distinct subsets: ``k <= log₂ s``; and Prop. 6's proof uses ``2^{log s} = s``. Read as the
    natural log the bound is valid but weaker (``ln s < log₂ s``), and Prop. 6's RR limit then exceeds 1
    (``s = 30``, ``m = 10``). The base-2 bound is at most the exact SML of RR on every exact case checked
    in the branch ``ln s < m < s`` (τ <= 6, s <= 7 levels, d̂₀* <= 3, d̂₁* <= 2, five ε; never equal).

    Examples
    --------
    >>> round(prop5_rr_sml_lower_bound(1.0, 4, 5, 3, 2, 1), 6)
    0.415895
    >>> round(prop5_rr_sml_lower_bound(1.0, 6, 7, 6, 2, 1), 6)  # m = 4 > log₂ 7: k = log₂ 7 (0.514610 with ln 7)
    0.609797
    """
    missing = _missing(d_star, d0, d1)
    values = as_positive_int(s, "s")
    if missing >= values:
        zeta = missing // values
        return math.log(values - (values - 1) * ((d0 + d1 + zeta - 1) / (tau + d0 + d1)) ** zeta)
    log_e, log_a, log_b = _log_binomial_ratio_terms(epsilon, tau, d_star, d0, d1)
    k = _prop5_exponent(missing, values, math.log2)
    keep = math.log(values) + log_e - float(np.logaddexp(log_b, log_e))
    spread = log_a - float(np.logaddexp(log_a, log_e)) + k * math.log1p((tau - k) / (tau + d_star + d1 - 1))
    return float(np.logaddexp(keep, spread))


#: Below this rank ``log C(n, k)`` is summed term by term: ``betaln`` loses ~1e-9 there once ``n ~ 10^6``.
_SUMMED_RANK = 64


def _log_binomial(total: np.ndarray, lower: np.ndarray) -> np.ndarray:
    """``log C(total, lower)`` for arrays with ``0 <= lower <= total``: ``Σ_{i<=k} log((n − k + i)/i)`` for a small
    rank ``k = min(lower, total − lower)``, else ``betaln`` (accurate at ``total ~ 10^15``)."""
    total, lower = np.broadcast_arrays(np.asarray(total, dtype=float), np.asarray(lower, dtype=float))
    rank = np.minimum(lower, total - lower)
    small = rank <= _SUMMED_RANK
    if not small.any():
        return -np.log1p(total) - betaln(total - lower + 1.0, lower + 1.0)
    result = np.empty_like(total)
    large = ~small
    result[large] = -np.log1p(total[large]) - betaln(total[large] - lower[large] + 1.0, lower[large] + 1.0)
    n, k = total[small], rank[small]
    summed = np.zeros_like(n)
    for i in range(1, int(k.max(initial=0)) + 1):
        summed += np.where(k >= i, np.log(np.maximum(n - k + i, 1.0) / i), 0.0)
    result[small] = summed
    return result


def _log_release_count(low: np.ndarray, high: np.ndarray, categories: float) -> np.ndarray:
    """``log Σ_{n=low}^{high} C(n + c − 1, c − 1)`` (``c = categories``): the number of histograms with between
    ``low`` and ``high`` counts on ``c`` categories, by the hockey-stick identity ``C(high + c, c) − C(low − 1 + c, c)``."""
    if np.array_equal(low, high):  # one count: C(n + c − 1, c − 1)
        return _log_binomial(high + categories - 1, np.full_like(high, categories - 1))
    top = _log_binomial(high + categories, np.full_like(high, categories))
    with np.errstate(divide="ignore"):
        below = np.where(low > 0, _log_binomial(np.maximum(low - 1, 0) + categories, np.full_like(low, categories)), -np.inf)
    return top + np.log1p(-np.exp(below - top))


def _level_counts(values: np.ndarray, tau: int, s: int) -> tuple[np.ndarray, np.ndarray]:
    """Smallest and largest count of the secret category among histograms whose secret is ``values``
    (the level ``⌊count · s/(τ + 1)⌋`` of :func:`~mechdesign.tabular.category_fraction_secret`)."""
    low = -((-values * (tau + 1)) // s)
    high = -((-(values + 1) * (tau + 1)) // s) - 1
    return low, high


def _prop5_qm_disjoint_supports(tau: int, s: int, interval: int, missing: int, known: int) -> float:
    """Corrected Prop. 5, QM, ``m >= I``: the exact value of the proof's prior, made feasible.

    In bin ``k`` (secret values ``j``, ``I_k`` of them) the selected input of value ``j`` puts its
    non-secret counts on ``b_j = min(ζ, f_j)`` missed categories of its own, disjoint from the others'
    (``ζ = ⌊m/I⌋``; ``f_j = τ − (smallest count of level j)`` is how many non-secret counts it has, so
    ``b_j < ζ`` near the top of the range, which the printed proof overlooks). QM releases the bin's
    target level uniformly over histograms on the ``c = d̂₀* + d̂₁* − 1`` estimated non-secret categories
    plus the input's missed ones, so with ``ρ_k(b) = N_k(0)/N_k(b)`` (``N_k(b)`` those histograms with
    ``b`` missed categories; hockey-stick sums over the level's counts) the bin contributes
    ``ρ_k(min_j b_j) + Σ_j (1 − ρ_k(b_j))`` to ``Σ_θ' max_g P(θ'|θ_g)`` (Prop. 1).
    """
    if interval == 1:  # every bin holds one value and contributes ρ(b) + 1 − ρ(b) = 1
        return math.log(s)
    zeta = missing // interval
    bins = math.ceil(s / interval)
    starts = np.arange(bins, dtype=np.int64) * interval
    lasts = np.minimum(starts + interval, s) - 1
    target_low, target_high = _level_counts(quantization_targets(s, interval).astype(np.int64), tau, s)
    left_low, left_high = (tau - target_high).astype(float), (tau - target_low).astype(float)

    log_plain = _log_release_count(left_low, left_high, float(known))       # log N_k(0), every bin

    def rho(b: float | np.ndarray, k: np.ndarray) -> np.ndarray:
        return np.exp(log_plain[k] - _log_release_count(left_low[k], left_high[k], known + b))

    # Values whose level starts at most τ − ζ hold ζ missed categories; only the last few (f_j < ζ) hold fewer.
    first_short = min(s, max(0, (tau - zeta) * s // (tau + 1) + 1))  # first j with ⌈j(τ + 1)/s⌉ > τ − ζ
    short = np.arange(first_short, s, dtype=np.int64)
    short_sizes = (tau - _level_counts(short, tau, s)[0]).astype(float)
    full_counts = np.clip(np.minimum(lasts, first_short - 1) - starts + 1, 0, None)  # J_k
    every = np.arange(bins)
    rho_zeta = rho(float(zeta), every)
    smallest = np.full(bins, float(zeta))
    np.minimum.at(smallest, short // interval, short_sizes)
    shorter = np.flatnonzero(smallest < zeta)
    rho_smallest = rho_zeta.copy()
    rho_smallest[shorter] = rho(smallest[shorter], shorter)
    total = rho_smallest.sum() + (full_counts * (1.0 - rho_zeta)).sum() + (1.0 - rho(short_sizes, short // interval)).sum()
    return float(math.log(total))


def _log_release_count_all_positive(low: np.ndarray, high: np.ndarray, known: float, positive: int) -> np.ndarray:
    """``log A(j)``: histograms with between ``low`` and ``high`` counts on ``known`` categories plus ``j = positive``
    given ones, all ``j`` of them positive — ``Σ_n C(n + known − 1, known + j − 1)``, by the hockey-stick identity
    ``C(high + known, known + j) − C(low + known − 1, known + j)`` (``-inf`` when ``high < j``)."""
    rank = np.full_like(high, known + positive)
    with np.errstate(divide="ignore", invalid="ignore"):
        top = np.where(high >= positive, _log_binomial(np.maximum(high + known, rank), rank), -np.inf)
        below = np.where(low >= positive + 1, _log_binomial(np.maximum(low + known - 1, rank), rank), -np.inf)
        return np.where(np.isfinite(top), top + np.log1p(-np.exp(below - top)), -np.inf)


def _nested_family_sizes(missing: int, longest: int) -> np.ndarray:
    """Sizes of the non-empty subsets of ``missing`` categories, smallest first, the first ``longest`` of them."""
    sizes: list[int] = []
    for size in range(1, missing + 1):
        if len(sizes) >= longest:
            break
        sizes.extend([size] * min(math.comb(missing, size), longest - len(sizes)))
    return np.asarray(sizes, dtype=np.int64)


def _prop5_qm_nested_supports(tau: int, s: int, interval: int, missing: int, d0: int, d1: int) -> float:
    """Corrected Prop. 5, QM, ``m < I`` (any ``s <= τ + 1``): the exact value of the proof's prior made feasible.

    The proof gives the inputs of one bin every subset of the missed categories as their missed support
    (``2^m`` inputs; the printed exponent ``log I`` keeps ``2^k <= I`` of them). Made feasible and exact: the
    ``I_k`` values of bin ``k`` take the smallest subsets first — ∅, then singletons, pairs, … — where an input
    of value ``j`` can hold ``b`` missed categories only if ``b <= f_j = τ − (smallest count of level j)``, and
    can hold none only if ``d̂₀* >= 2`` or its level contains ``τ`` (with ``d̂₀* = 1`` its other counts must go
    to missed categories). QM releases bin ``k`` uniformly over the ``N_k(b)`` histograms on the target
    level's counts and the ``c = d̂₀* + d̂₁* − 1`` estimated non-secret categories plus the input's ``b`` missed
    ones; an output whose missed support is exactly ``S`` (``A_k(|S|)`` of them for each ``S``) is best
    covered by the chosen set ``S`` itself, or, for ``S = ∅`` without an empty support, by a singleton. So
    with ``t_b`` chosen sets of size ``b`` the bin contributes (Prop. 1)
    ``V_k = [∅ chosen] + Σ_{b>=1} t_b A_k(b)/N_k(b) + [∅ not chosen] N_k(0)/N_k(1)`` and ``Π_QM >= log Σ_k V_k``.
    """
    known = float(d0 + d1 - 1)
    bins = math.ceil(s / interval)
    starts = np.arange(bins, dtype=np.int64) * interval
    counts = np.minimum(starts + interval, s) - starts                       # I_k values per bin
    target_low, target_high = _level_counts(quantization_targets(s, interval).astype(np.int64), tau, s)
    left_low, left_high = (tau - target_high).astype(float), (tau - target_low).astype(float)
    empty = np.full(bins, d0 >= 2)
    empty[-1] = True                                                            # the top value (count τ) is in the last bin
    sizes = _nested_family_sizes(missing, interval)
    chosen = np.minimum(counts - empty, sizes.size)                            # non-empty sets per bin, if room allows
    if sizes.size:
        # Room binds only near the top of the range: there assign greedily, smallest room to smallest set.
        least_room = tau - _level_counts(starts + counts - 1, tau, s)[0]
        first_tight = max(0, (tau - int(sizes[-1])) * s // (tau + 1) + 1)  # first value with room < the largest set
        for k in np.flatnonzero((chosen > 0) & (least_room < sizes[np.maximum(chosen - 1, 0)])):
            values = np.arange(max(starts[k], first_tight), starts[k] + counts[k], dtype=np.int64)
            rooms = np.sort(tau - _level_counts(values, tau, s)[0])[int(empty[k]):]  # the smallest room holds ∅
            taken = 0
            for room in rooms:
                taken += int(taken < sizes.size and sizes[taken] <= room)
            chosen[k] = min(sizes.size, taken + counts[k] - values.size)  # the others hold any remaining set
    total = empty.astype(float)
    for size in range(1, int(sizes.max(initial=0)) + 1):
        held = np.clip(chosen - np.searchsorted(sizes, size), 0, math.comb(missing, size))  # t_b per bin
        total += held * _all_positive_share(left_low, left_high, known, size)
        if size == 1:  # outputs missing no category, covered by a singleton: N_k(0)/N_k(1)
            total += np.where(~empty & (chosen > 0), _empty_share(left_low, left_high, known), 0.0)
    return float(math.log(total.sum()))


def _all_positive_share(low: np.ndarray, high: np.ndarray, known: float, size: int) -> np.ndarray:
    """``A(b)/N(b)``: the share of the histograms on ``known + b`` categories (counts ``low … high``) that are positive
    on ``b`` given ones; for one count ``n`` exactly ``Π_{i<b} (n − i)/(n + known + i)``."""
    if np.array_equal(low, high):
        share = np.ones_like(high)
        for i in range(size):
            share *= np.maximum(high - i, 0.0) / (high + known + i)
        return share
    return np.exp(_log_release_count_all_positive(low, high, known, size) - _log_release_count(low, high, known + size))


def _empty_share(low: np.ndarray, high: np.ndarray, known: float) -> np.ndarray:
    """``N(0)/N(1)``: histograms on ``known`` categories among those on ``known + 1`` (one count ``n``: ``known/(n + known)``)."""
    if np.array_equal(low, high):
        return known / (high + known)
    return np.exp(_log_release_count(low, high, known) - _log_release_count(low, high, known + 1))


def prop5_qm_sml_lower_bound(tau: int, s: int, interval: int, d_star: int, d0: int, d1: int, *,
                       as_printed: bool = False) -> float:
    """Prop. 5 (App. H-B): lower bound on QM's SML under a mis-specified support, ``m = d* − d̂₀*``.

    * ``m < I``, as printed: ``log[⌊s/I⌋ (1 + (n − k)/(n + d* + d̂₁ − 2))^k]``, ``n = τI/(2s)``, ``k = m`` if
      ``m <= log I`` else ``log I``; it exceeds the exact SML (docs/errata.md): the last bin leaves fewer than
      ``n`` counts, a coarse secret's bin can release a single histogram (τ = 2, d* = 3, d̂₀* = 2, d̂₁* = 0,
      s = 2, I = 2: exact 0, printed 0.099), and with ``d̂₀* = 1`` no input below the top level can miss
      no category. *Corrected*: the exact value of the proof's nested-support prior made feasible
      (:func:`_prop5_qm_nested_supports`), for any ``s <= τ + 1``.
    * ``m >= I``, as printed: ``log(s − (s − ⌈s/I⌉)((d̂₀ + d̂₁ + ζ − 2)/(τI/(2s) + d̂₀ + d̂₁ − 1))^ζ)``,
      ``ζ = ⌊m/I⌋``; its base exceeds 1 (and the logarithm's argument can be negative) when few counts are
      left, and the proof's inputs cannot all hold ζ missed categories. *Corrected*: the exact value of
      the proof's prior with those two points repaired (:func:`_prop5_qm_disjoint_supports`), which is
      always in ``[0, log s]`` (docs/errata.md).

    The secret is the fraction of one category in ``s`` levels (``s = τ + 1``: its exact values,
    ``⌊count · s/(τ + 1)⌋`` otherwise). A printed lower bound below 0 is replaced by the trivial 0.

    Examples
    --------
    >>> round(prop5_qm_sml_lower_bound(4, 5, 2, 3, 2, 1), 6)  # the exact SML of QM here
    1.369487
    >>> round(prop5_qm_sml_lower_bound(2, 2, 2, 3, 2, 0, as_printed=True), 6)  # exact SML 0
    0.098938
    >>> round(prop5_qm_sml_lower_bound(8, 9, 2, 11, 1, 1), 6)  # m >= I; the printed form is undefined here
    2.155576
    """
    t, size = _check_interval(tau, interval)
    missing = _missing(d_star, d0, d1)
    values = as_positive_int(s, "s")
    if values > t + 1 or size > values:
        raise MechDesignError(f"need interval <= s <= tau + 1 = {t + 1}, got s={s!r}, interval={interval!r}")
    if d0 + d1 < 2:
        raise MechDesignError(f"QM needs an estimated category besides the secret one: d0 + d1 >= 2, got {d0 + d1}")
    n = t * size / (2 * values)
    if missing >= size:
        if not as_printed:
            return max(0.0, _prop5_qm_disjoint_supports(t, values, size, missing, d0 + d1 - 1))
        zeta = missing // size
        argument = values - (values - math.ceil(values / size)) * ((d0 + d1 + zeta - 2) / (n + d0 + d1 - 1)) ** zeta
        if argument <= 0:
            raise MechDesignError(f"Prop. 5's printed QM bound is undefined here: log of {argument:.6g} <= 0")
        return max(0.0, math.log(argument))
    if not as_printed:
        return _prop5_qm_nested_supports(t, values, size, missing, d0, d1)
    k = _prop5_exponent(missing, size)
    bins = values // size
    return max(0.0, math.log(bins) + k * math.log1p((n - k) / (n + d_star + d1 - 2)))


def prop6_rr_sml_bound_gap(epsilon: float, tau: int, s: int, d_star: int, d0: int, d1: int) -> float:
    """``Δ_{RR,τ}`` of Prop. 6: the upper bound (Prop. 4, capped by the trivial ``log s`` that Prop. 6's
    proof uses) minus Prop. 5's lower bound on RR's SML under a mis-specified support.

    Examples
    --------
    >>> round(prop6_rr_sml_bound_gap(1.0, 4, 5, 3, 2, 1), 6)
    0.327263
    """
    upper = min(prop4_rr_sml_upper_bound(epsilon, tau, s, d_star, d0, d1), math.log(as_positive_int(s, "s")))
    return upper - prop5_rr_sml_lower_bound(epsilon, tau, s, d_star, d0, d1)


def prop6_qm_sml_bound_gap(tau: int, s: int, interval: int, d_star: int, d0: int, d1: int) -> float:
    """``Δ_{QM,τ}`` of Prop. 6: App. I's upper bound (from Prop. 4; capped by ``log s``) minus Prop. 5's
    *corrected* lower bound on QM's SML under a mis-specified support.

    Examples
    --------
    >>> round(prop6_qm_sml_bound_gap(4, 5, 2, 3, 2, 1), 6)
    0.239951
    """
    upper = min(prop4_qm_sml_upper_bound(tau, s, interval, d_star, d0, d1), math.log(as_positive_int(s, "s")))
    return upper - prop5_qm_sml_lower_bound(tau, s, interval, d_star, d0, d1)


def prop6_rr_sml_bound_gap_limit(s: int, d_star: int, d0: int, d1: int) -> float:
    """``lim_{τ→∞} Δ_{RR,τ}`` (Prop. 6) for a secret with a fixed number ``s`` of values, ``m = d* − d̂₀*``.

    For every finite ``ε``, ``r = (e^ε − 1)/C(τ + d − 1, d − 1) → 0`` (so Prop. 6's condition
    ``e^ε − 1 <= C(τ + d̂₀ + d̂₁ − 1, d̂₀ + d̂₁ − 1)/s`` holds eventually) and ``(1 + (τ − k)/(τ + c))^k → 2^k``:

    * ``m >= s``: both bounds tend to ``log s``; the limit is 0 (as stated);
    * ``m < s``: ``min(m log 2, log s) − k log 2`` with Prop. 5's ``k = min(m, log₂ s)``: 0 (as stated, since
      ``2^{log₂ s} = s``). With the exponent read as the natural log, ``k = min(m, ln s)``, the limit would be
      ``min(m, log₂ s) log 2 − log 2 · ln s`` for ``m > ln s``, above Prop. 6's bound 1 once ``s >= 27`` and
      ``m >= log₂ s`` (docs/errata.md).

    Examples
    --------
    >>> prop6_rr_sml_bound_gap_limit(30, 12, 2, 0)
    0.0
    """
    missing = _missing(d_star, d0, d1)
    values = as_positive_int(s, "s")
    if missing >= values:
        return 0.0
    return max(0.0, min(missing * math.log(2), math.log(values)) - _prop5_exponent(missing, values, math.log2) * math.log(2))


def prop6_qm_sml_limit(s: int, interval: int, d_star: int, d0: int) -> float:
    """``lim_{τ→∞} Π_QM`` under a mis-specified support, ``m = d* − d̂₀*``: ``log Σ_k min(I_k, 2^m − 1 + e_k)``
    over the ``⌈s/I⌉`` bins (``I_k`` values each; ``e_k = 1`` if an input of bin ``k`` can miss no category:
    ``d̂₀* >= 2``, or the bin holds the top level, whose count ``τ`` leaves nothing to place). Derived here.

    It bounds ``Π_QM`` from above at *every* τ: a bin's selected inputs have distinct missed supports
    ``M`` (at most ``2^m − 1`` non-empty ones), and the outputs whose missed support ``S`` lies in ``M``
    number ``N(|M|)`` and carry ``1/N(|M|)`` each, so the bin contributes at most one per distinct support.
    The corrected Prop. 5 bound (:func:`prop5_qm_sml_lower_bound`) tends to it (its ratios ``A(b)/N(b)`` of
    histograms with all ``b`` missed categories positive tend to 1), so it is the limit.

    Examples
    --------
    >>> round(prop6_qm_sml_limit(4, 2, 2, 1), 6)  # log 3: the first bin's inputs all miss the one category
    1.098612
    """
    missing = _missing(d_star, d0, 0)
    values, size = as_positive_int(s, "s"), as_positive_int(interval, "interval")
    if size > values:
        raise MechDesignError(f"interval must be at most s = {values}, got {interval!r}")
    counts = np.minimum(size, values - np.arange(0, values, size))
    empty = np.full(counts.size, d0 >= 2)
    empty[-1] = True
    supports = 2.0 ** min(missing, 62) - 1 + empty  # 2^m − 1 + e_k (beyond 2^62 every bin is capped by I_k)
    return float(math.log(np.minimum(counts, supports).sum()))


def prop6_qm_sml_bound_gap_limit(s: int, interval: int, d_star: int, d0: int, d1: int) -> float:
    """``lim_{τ→∞} Δ_{QM,τ}`` (Prop. 6) for fixed ``s`` and ``1 <= I <= s``, ``m = d* − d̂₀*``, with Prop. 5's
    *corrected* lower bound: ``min(log⌈s/I⌉ + m log 2, log s) −`` :func:`prop6_qm_sml_limit`.

    * ``m >= I``: 0 (as stated);
    * ``m < I``, ``d̂₀* >= 2``: ``log min(⌈s/I⌉ 2^m, s) − log(⌊s/I⌋ 2^m + min(s mod I, 2^m))`` if ``2^m <= I``, at
      most ``log(⌈s/I⌉/⌊s/I⌋) <= log 2`` and 0 if ``I`` divides ``s`` (as stated), and 0 if ``2^m > I``;
    * ``m < I``, ``d̂₀* = 1``: inputs outside the top bin cannot miss no category, the exact SML stays below
      :func:`prop6_qm_sml_limit` at every τ, and the limit is positive even when ``I`` divides ``s``
      (``s = 4``, ``I = 2``, ``m = 1``: ``log(4/3)``) — there Prop. 6's "0 when ``I`` divides ``s``" fails
      because App. I's upper bound is not tight.

    Examples
    --------
    >>> round(prop6_qm_sml_bound_gap_limit(8, 4, 4, 2, 0), 6)
    0.0
    >>> round(prop6_qm_sml_bound_gap_limit(4, 2, 2, 1, 1), 6)  # log(4/3)
    0.287682
    """
    missing = _missing(d_star, d0, d1)
    values, size = as_positive_int(s, "s"), as_positive_int(interval, "interval")
    if size > values:
        raise MechDesignError(f"interval must be at most s = {values}, got {interval!r}")
    upper = min(math.log(math.ceil(values / size)) + missing * math.log(2), math.log(values))
    return max(0.0, upper - prop6_qm_sml_limit(values, size, d_star, d0))


def prop6_gap_limit_bound(s: int, d_star: int, d0: int, interval: int | None = None) -> float:
    """Prop. 6 as printed: the claimed bound on ``lim_{τ→∞} Δ_τ`` — RR (``interval=None``): 1 if
    ``m < s``, 0 if ``m >= s``; QM: 0 if ``m >= I`` or ``I`` divides ``s``, else 1.

    Examples
    --------
    >>> prop6_gap_limit_bound(8, 4, 2, interval=4)
    0.0
    """
    missing = _missing(d_star, d0, 0)
    values = as_positive_int(s, "s")
    if interval is None:
        return 0.0 if missing >= values else 1.0
    size = as_positive_int(interval, "interval")
    return 0.0 if missing >= size or values % size == 0 else 1.0


# ------------------------------------------------------------------------------- composition, Prop. 7
def lemma2_composed_mechanism(first: Any, second: Any) -> np.ndarray:
    """The composed mechanism of Lemma 2 for two (possibly adaptive) steps: ``Q[θ, (a, b)] = Q₁[θ, a] Q₂^{(a)}[θ, b]``.

    Parameters
    ----------
    first
        ``Q₁[θ, a]`` (inputs × first outputs).
    second
        ``Q₂[θ, b]`` for a non-adaptive second step, or one matrix per first output ``a``
        (shape ``(n_first_outputs, inputs, second_outputs)``) for an adaptive one.

    Returns
    -------
    numpy.ndarray
        Inputs × (first outputs · second outputs), the pair ``(a, b)`` at column ``a · |B| + b``; its
        SML (Prop. 1 on this matrix) is Lemma 2's value.

    Examples
    --------
    >>> lemma2_composed_mechanism([[1.0, 0.0], [0.5, 0.5]], [[0.9, 0.1], [0.2, 0.8]]).shape
    (2, 4)
    """
    Q1 = np.asarray(first, dtype=float)
    Q2 = np.asarray(second, dtype=float)
    if Q2.ndim == 2:
        Q2 = np.broadcast_to(Q2, (Q1.shape[1], *Q2.shape))
    if Q1.ndim != 2 or Q2.ndim != 3 or Q2.shape[0] != Q1.shape[1] or Q2.shape[1] != Q1.shape[0]:
        raise MechDesignError(f"first must be inputs × A and second inputs × B (or A × inputs × B), "
                              f"got shapes {Q1.shape} and {np.shape(second)}")
    return np.einsum("ta,atb->tab", Q1, Q2).reshape(Q1.shape[0], -1)


def thm2_composition_bound(leakages: Sequence[float]) -> float:
    """Thm. 2: the SML of an adaptive composition is at most ``Σ_i Π_{M_i}`` (nats).

    Examples
    --------
    >>> thm2_composition_bound([0.5, 0.25])
    0.75
    """
    return float(sum(as_budget(value, "leakage") for value in leakages))


def thm3_post_processing_bound(leakage: float) -> float:
    """Thm. 3: post-processing ``M̃ ∘ M`` has SML at most ``Π_M`` (the bound is ``Π_M`` itself).

    Examples
    --------
    >>> thm3_post_processing_bound(0.4)
    0.4
    """
    return as_budget(leakage, "leakage")


def _mechanism_and_secret(mechanism: Any, secret_values: Sequence[Any]) -> tuple[np.ndarray, np.ndarray]:
    """A row-stochastic matrix and one secret value per row, validated (named errors).

    Examples
    --------
    >>> _mechanism_and_secret([[1.0, 0.0], [0.5, 0.5]], ["a", "b"])[1].tolist()
    ['a', 'b']
    """
    Q = as_stochastic_matrix(mechanism, "mechanism")
    values = as_secret_values(secret_values, "secret_values")
    check_count(values.size, Q.shape[0], "secret_values", "values (one per row of the mechanism)")
    return Q, values


def prop7_ldp_level(mechanism: Any, secret_values: Sequence[Any]) -> float:
    """The least μ for which the mechanism is μ-L_DP (App. K): ``max log Q(θ'|θ₁)/Q(θ'|θ₂)`` over
    outputs θ' and inputs with ``g(θ₁) ≠ g(θ₂)`` (eq. (10); ``inf`` if a ratio is unbounded).

    Prop. 7: the SML (and Π^inf) of a μ-L_DP mechanism is at most μ.

    Examples
    --------
    >>> round(prop7_ldp_level([[0.75, 0.25], [0.25, 0.75]], [0, 1]), 6)
    1.098612
    """
    Q, values = _mechanism_and_secret(mechanism, secret_values)
    level = 0.0
    for a, b in zip(*np.nonzero(values[:, None] != values[None, :])):
        positive = Q[a] > 0
        if (Q[b][positive] == 0).any():
            return math.inf
        if positive.any():
            level = max(level, float(np.max(np.log(Q[a][positive] / Q[b][positive]))))
    return level



def _output_extremes(mechanism: Any, secret_values: Sequence[Any]) -> tuple[np.ndarray, np.ndarray]:
    """``(q⁺, q⁻)``, each ``(secret values, outputs)``: ``q⁺[g, θ'] = max_{θ ∈ Θ_g} Q(θ'|θ)`` and ``q⁻`` the min —
    the range of ``P(θ'|G = g)`` over the conditional priors ``P_{Θ|G}``."""
    Q, values = _mechanism_and_secret(mechanism, secret_values)
    groups = np.unique(values, return_inverse=True)[1]
    upper = np.stack([Q[groups == g].max(axis=0) for g in range(groups.max() + 1)])
    lower = np.stack([Q[groups == g].min(axis=0) for g in range(groups.max() + 1)])
    return upper, lower


def appk_worst_output_leakage(mechanism: Any, secret_values: Sequence[Any]) -> float:
    """App. K's ``Π̃``: ``sup_{P_Θ, θ'} log max_g P(g|θ') / max_g P_G(g)`` (the best guess at the worst output).

    Derived here (the paper gives no formula): with ``p* = P_G(g*) = max_g P_G(g)`` the ratio is
    ``q_{g*} / Σ_h P_G(h) q_h`` (``q_h = P(θ'|h)``), largest with ``q_{g*} = q⁺_{g*}`` and ``q_h = q⁻_h``; over
    ``P_G`` the denominator is piecewise linear in ``p*`` with kinks at ``p* = 1/j``, where ``g*`` and the
    ``j − 1`` smallest ``q⁻_h`` share the mass equally. So
    ``Π̃ = max_{θ', g*, j} log(j q⁺_{g*} / (q⁺_{g*} + Σ of the j − 1 smallest q⁻_h, h ≠ g*))``, in ``[0, log s]``.

    Examples
    --------
    >>> round(appk_worst_output_leakage([[0.75, 0.25], [0.25, 0.75]], [0, 1]), 6)  # log(2 · 0.75 / 1)
    0.405465
    """
    upper, lower = _output_extremes(mechanism, secret_values)
    best = 0.0
    for output in range(upper.shape[1]):
        for top in np.flatnonzero(upper[:, output] > 0):
            rest = np.sort(np.delete(lower[:, output], top))
            shares = np.arange(1, rest.size + 2)
            ratios = shares * upper[top, output] / (upper[top, output] + np.concatenate([[0.0], np.cumsum(rest)]))
            best = max(best, float(np.log(ratios.max())))
    return best


def appk_worst_output_inf_leakage(mechanism: Any, secret_values: Sequence[Any]) -> float:
    """App. K's ``Π̃^inf``: ``sup_{P_Θ: P_G > 0, θ'} log min_g P_G(g) / min_g P(g|θ')``; ``inf`` if some output
    rules a secret value out.

    Derived here: ``min_g P_G(g) Σ_h P_G(h) q_h / min_g P_G(g) q_g <= max_h q_h / q_g`` for the minimizing
    ``g`` (``h ≠ g``, else the ratio is at most 1), and letting ``P_G(g) → 0`` while ``P_G(h) → 1`` approaches
    ``q⁺_h / q⁻_g``. Hence ``Π̃^inf = max_{θ'} max_{g ≠ h} log q⁺_h(θ')/q⁻_g(θ')``: exactly the least μ for
    which the mechanism is μ-L_DP (:func:`prop7_ldp_level`), for two or more secret values (0 for one).

    Examples
    --------
    >>> round(appk_worst_output_inf_leakage([[0.75, 0.25], [0.25, 0.75]], [0, 1]), 6)  # log 3
    1.098612
    """
    upper, _ = _output_extremes(mechanism, secret_values)
    return 0.0 if upper.shape[0] < 2 else prop7_ldp_level(mechanism, secret_values)


def prop7_ldp_level_upper_bound(mechanism: Any, secret_values: Sequence[Any]) -> float:
    """Prop. 7, second half: a mechanism with ``Π̃ <= μ₁`` and ``Π̃^inf <= μ₂`` is ``(μ₁ + μ₂)``-L_DP, so
    ``Π̃ + Π̃^inf`` bounds :func:`prop7_ldp_level` (trivially: ``Π̃^inf`` alone equals it, see
    :func:`appk_worst_output_inf_leakage`).

    Examples
    --------
    >>> round(prop7_ldp_level_upper_bound([[0.75, 0.25], [0.25, 0.75]], [0, 1]), 6)  # log 1.5 + log 3
    1.504077
    """
    return appk_worst_output_leakage(mechanism, secret_values) + appk_worst_output_inf_leakage(mechanism, secret_values)


#: Most selections (one input per secret value) :func:`appk_inf_leakage` enumerates, after pruning.
APPK_MAX_SELECTIONS = 1_000_000


def _undominated_rows(rows: np.ndarray) -> np.ndarray:
    """The rows of ``rows`` not entrywise >= another row (the first of equal rows is kept): a row that is
    entrywise larger never lowers ``Σ_θ' min_g Q(θ'|θ_g)``."""
    keep = [i for i, row in enumerate(rows)
            if not any((other <= row).all() and ((other < row).any() or j < i) for j, other in enumerate(rows) if j != i)]
    return rows[keep]


def appk_inf_leakage(mechanism: Any, secret_values: Sequence[Any]) -> float:
    """App. K's ``Π^inf``: ``sup_{P_Θ: P_G > 0, P_{Ĝ|Θ'}} log min_g P_G(g) / P(Ĝ = G)`` (``inf`` if some prior
    lets an attacker never guess right), computed exactly by enumerating the selections.

    Derived here, as Prop. 1 for ``Π`` (App. K's proof of Prop. 7 writes this formula for ``Π̃``, a slip):
    the attacker that minimizes ``P(Ĝ = G)`` guesses at each output the least likely secret value, so
    ``P(Ĝ = G) = Σ_θ' min_g P(θ'|g) P_G(g) >= min_g P_G(g) · Σ_θ' min_g P(θ'|g)``, with equality for
    uniform ``P_G``; ``Σ_θ' min_g P(θ'|g)`` is concave in each ``P_{Θ|G}(·|g)``, so it is least at a vertex
    (one input ``θ_g`` per value):
    ``Π^inf = max_{(θ_g)} −log Σ_θ' min_g Q(θ'|θ_g)`` (``inf`` when that sum is 0; 0 for one secret value).
    For two secret values ``Σ min = 2 − Σ max``, so ``Π^inf = −log(2 − e^Π)`` with ``Π`` the SML.

    Raises
    ------
    ProblemTooLargeError
        More than :data:`APPK_MAX_SELECTIONS` selections remain after dropping dominated rows.

    Examples
    --------
    >>> round(appk_inf_leakage([[0.75, 0.25], [0.25, 0.75]], [0, 1]), 6)  # −log(0.25 + 0.25) = log 2
    0.693147
    """
    Q, values = _mechanism_and_secret(mechanism, secret_values)
    groups = np.unique(values, return_inverse=True)[1]
    candidates = [_undominated_rows(Q[groups == g]) for g in range(groups.max() + 1)]
    count = math.prod(len(rows) for rows in candidates)
    if count > APPK_MAX_SELECTIONS:
        raise ProblemTooLargeError(f"Π^inf by enumeration needs {count} selections (more than {APPK_MAX_SELECTIONS})")
    smallest = math.inf
    for selection in itertools.product(*candidates):
        smallest = min(smallest, float(np.min(selection, axis=0).sum()))
    return math.inf if smallest <= 0.0 else max(0.0, -math.log(smallest))


def prop7_inf_leakage_sharp_bound(mu: float, s: int) -> float:
    """Prop. 7 (first half) for ``Π^inf``, sharpened: a μ-L_DP mechanism with ``s`` secret values has
    ``Π^inf <= log((1 + (s − 1) e^μ)/s) <= μ`` (Prop. 7 states ``μ``).

    Derived here: at every output the selected rows are within ``e^μ`` of their minimum ``m_θ'``, so
    ``s = Σ_g Σ_θ' Q(θ'|θ_g) <= Σ_θ' m_θ' (1 + (s − 1) e^μ)``. Reached by "reverse randomized response"
    (``Q(y|x) ∝ 1`` for ``y = x``, ``e^μ`` otherwise, ``s`` inputs and outputs).

    Examples
    --------
    >>> round(prop7_inf_leakage_sharp_bound(math.log(3), 2), 6)  # log 2 < log 3
    0.693147
    """
    level, values = as_budget(mu, "mu", infinite=True), as_positive_int(s, "s")
    if math.isinf(level):
        return math.inf
    return float(math.log1p((values - 1) * math.expm1(level) / values))


#: Relative and absolute error requested from the quadrature of Prop. 8.
PROP8_QUADRATURE_TOL = 1e-10


def prop8_continuous_sml(densities: Sequence[Callable[[float], float]], secret_values: Sequence[Any],
                         lower: float = -math.inf, upper: float = math.inf, breakpoints: Sequence[float] = ()) -> float:
    """Prop. 8: the SML of a mechanism with continuous outputs, ``sup log ∫ sup_g f(θ'|θ_g) dθ'`` over the
    selections of one input θ_g per secret value (the priors of Prop. 8 put all of ``f_G(g)`` on one θ_g).

    Parameters
    ----------
    densities
        ``f(·|θ)`` for each input θ of a finite input set, densities on the real line.
    secret_values
        ``g(θ)`` for each input.
    lower, upper
        The integration range (the densities' support).
    breakpoints
        Points where the densities change fast: the range is split there for the quadrature.

    Examples
    --------
    >>> from scipy.stats import norm
    >>> densities = [norm(loc=mean).pdf for mean in (0.0, 1.0, 3.0)]
    >>> round(prop8_continuous_sml(densities, [0, 0, 1], breakpoints=[0.0, 1.0, 3.0]), 6)  # log 2Φ(3/2)
    0.624...
    """
    from scipy.integrate import quad

    values = list(secret_values)
    if len(values) != len(densities) or not values:
        raise MechDesignError(f"secret_values needs one value per density ({len(densities)}), got {len(values)}")
    groups: dict[Any, list[int]] = {}
    for index, value in enumerate(values):
        groups.setdefault(value, []).append(index)
    edges = [float(lower), *sorted(b for b in map(float, breakpoints) if lower < b < upper), float(upper)]
    best = -math.inf
    for selection in itertools.product(*groups.values()):
        chosen = [densities[i] for i in selection]
        total = sum(quad(lambda x: max(f(x) for f in chosen), a, b, epsabs=PROP8_QUADRATURE_TOL,
                         epsrel=PROP8_QUADRATURE_TOL, limit=500)[0] for a, b in zip(edges, edges[1:]))
        best = max(best, math.log(total))
    return best


# Names of 0.1.0, renamed to the statement-tag scheme in 0.2.0: each warns (DeprecationWarning) and calls the new one.
rr_sml = deprecated_alias(thm4_rr_sml, "rr_sml")
rr_distortion = deprecated_alias(thm4_rr_distortion, "rr_distortion")
rr_epsilon_for_sml = deprecated_alias(thm4_rr_epsilon_for_sml, "rr_epsilon_for_sml")
rr_log_sml = deprecated_alias(thm4_rr_log_sml, "rr_log_sml")
qm_sml = deprecated_alias(thm4_qm_sml, "qm_sml")
qm_distortion = deprecated_alias(thm4_qm_distortion, "qm_distortion")
qm_distortion_as_printed = deprecated_alias(thm4_qm_distortion_as_printed, "qm_distortion_as_printed")
rr_qm_distortion_ratio_limit = deprecated_alias(thm4_rr_qm_distortion_ratio_limit, "rr_qm_distortion_ratio_limit")
qm_robustness_gap_bound = deprecated_alias(prop3_qm_robustness_gap_bound, "qm_robustness_gap_bound")
rr_robustness_condition = deprecated_alias(prop3_rr_robustness_condition, "rr_robustness_condition")
rr_sml_upper_bound = deprecated_alias(prop4_rr_sml_upper_bound, "rr_sml_upper_bound")
qm_sml_upper_bound = deprecated_alias(prop4_qm_sml_upper_bound, "qm_sml_upper_bound")
app_i_alpha = deprecated_alias(appi_alpha, "app_i_alpha")
rr_distortion_bounds = deprecated_alias(apphd_rr_distortion_bounds, "rr_distortion_bounds")
qm_distortion_bounds = deprecated_alias(apphd_qm_distortion_bounds, "qm_distortion_bounds")
rr_sml_lower_bound = deprecated_alias(prop5_rr_sml_lower_bound, "rr_sml_lower_bound")
qm_sml_lower_bound = deprecated_alias(prop5_qm_sml_lower_bound, "qm_sml_lower_bound")
rr_sml_bound_gap = deprecated_alias(prop6_rr_sml_bound_gap, "rr_sml_bound_gap")
qm_sml_bound_gap = deprecated_alias(prop6_qm_sml_bound_gap, "qm_sml_bound_gap")
rr_sml_bound_gap_limit = deprecated_alias(prop6_rr_sml_bound_gap_limit, "rr_sml_bound_gap_limit")
qm_sml_bound_gap_limit = deprecated_alias(prop6_qm_sml_bound_gap_limit, "qm_sml_bound_gap_limit")
