"""SML closed forms (Wang, Lin & Fanti, "Statistic Maximal Leakage") against exact computation.

On small histogram spaces (precision τ over d categories, secret = the fraction of category 0) every
mechanism is explicit and its SML is computed exactly (:func:`~mechdesign.privacy.sml.measure_sml`:
enumeration, flow or MILP) and its distortion is the worst-case expected total variation (Lemma 1):

* Prop. 1 against definition (2) at the maximizing selection's prior and random priors; Property 1;
  Prop. 2 (the flow against enumeration); Lemma 1 (the worst prior of eq. (1) against random priors);

* Thm. 4: RR's SML and distortion, QM's SML and (corrected) distortion at every interval length;
* Props. 3 (QM 1-robust; RR log 3-robust under its condition), 4, 5, App. H-D and App. I: the bounds
  under a mis-specified support (Prop. 5's QM bound corrected,
  also for secrets coarser than ``τ + 1`` levels, with Prop. 6's QM limit as an upper bound at every τ;
  Prop. 5's RR bound with its exponent's log in base 2, also for coarser secrets);
* Thms. 2–3, Lemma 2 (against the composition built from its definition) and Prop. 7 (both halves, with App. K's measures Π^inf, Π̃, Π̃^inf) on random
  mechanisms (seeded): composition, post-processing, L_DP; Π^inf's sharpened bound reached by reverse RR;
* Prop. 8 (continuous outputs): Gaussian noise on four inputs, the formula's quadrature against the exact
  nearest-mean integral, and against the exact SML of the binned outputs (a post-processing, so at most
  Prop. 8's value).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

import numpy as np

from .._lazy import scipy_stats as stats
from ..mechanisms.histogram import _candidates, histogram_quantization, histogram_randomized_response, quantization_mechanism
from ..privacy.sml import is_deterministic, measure_sml, property1_bounds
from ..tabular import HistogramSpace, category_fraction_secret, tv_cost, tv_distortion
from ..theory import sml
from .rows import CheckRow, compare, lower_bound, parameter_choice, upper_bound

#: Closed form vs exact computation (both in double precision; the SML is a log of a short sum).
EXACT_ATOL = 1e-9
#: Budgets of randomized response.
RR_EPSILONS = (0.0, 0.7, 2.5, 6.0)
#: Seed of the random mechanisms of the composition and post-processing checks.
SEED = 2024


def _thm4(spaces: list[tuple[int, int]]) -> list[CheckRow]:
    return [row for tau, d in spaces for row in _thm4_space(tau, d)]


def _thm4_space(tau: int, d: int) -> list[CheckRow]:
    rows = []
    space = HistogramSpace(tau, d)
    secret, distortion = category_fraction_secret(space, 0), tv_distortion(space)
    for eps in RR_EPSILONS:
        Q = histogram_randomized_response(space, eps)
        setting = {"τ": tau, "d": d, "ε": eps}
        rows.append(compare("SML Thm. 4 RR SML", setting, "SML", lambda eps=eps: sml.thm4_rr_sml(eps, tau + 1, tau, d),
                            measure_sml(Q, secret).value, EXACT_ATOL))
        rows.append(compare("SML Thm. 4 RR distortion", setting, "TV distortion",
                            lambda eps=eps: sml.thm4_rr_distortion(eps, tau, d), distortion.value(Q), EXACT_ATOL))
    for interval in range(1, tau + 2):
        Q = histogram_quantization(space, 0, interval)
        setting = {"τ": tau, "d": d, "I": interval}
        rows.append(compare("SML Thm. 4 QM SML", setting, "SML", lambda interval=interval: sml.thm4_qm_sml(tau + 1, interval),
                            measure_sml(Q, secret).value, EXACT_ATOL))
        rows.append(compare("SML Thm. 4 QM distortion (corrected)", setting, "TV distortion",
                            lambda interval=interval: sml.thm4_qm_distortion(tau, d, interval), distortion.value(Q), EXACT_ATOL))
    return rows


def misspecified_spaces(tau: int, d_star: int, d0: int, d1: int) -> tuple[HistogramSpace, HistogramSpace, list[int]]:
    """Inputs on Γ* = {0..d*−1}; Γ̂* = {0..d̂₀−1} ∪ d̂₁ infeasible categories; outputs on Γ̂* ∪ Γ*
    (SML paper §V-C: the data holder's estimate misses ``d* − d̂₀*`` feasible categories).

    Examples
    --------
    >>> inputs, outputs, estimated = misspecified_spaces(2, 3, 2, 1)
    >>> estimated
    [0, 1, 3]
    """
    universe = d_star + d1
    estimated = list(range(d0)) + list(range(d_star, universe))
    inputs = HistogramSpace(tau, universe, support=range(d_star))
    outputs = HistogramSpace(tau, universe, support=sorted(set(range(d_star)) | set(estimated)))
    return inputs, outputs, estimated


def _misspecified(cases: list[tuple[int, int, int, int]]) -> list[CheckRow]:
    """Props. 3, 4, 5 (QM corrected), App. H-D and App. I at every interval length and RR budget."""
    return [row for tau, d_star, d0, d1 in cases for row in _misspecified_case(tau, d_star, d0, d1)]


def _misspecified_case(tau: int, d_star: int, d0: int, d1: int) -> list[CheckRow]:
    rows = []
    inputs, outputs, estimated = misspecified_spaces(tau, d_star, d0, d1)
    secret, cost, s = category_fraction_secret(inputs, 0), tv_cost(inputs, outputs), tau + 1
    base = {"τ": tau, "d*": d_star, "d̂0": d0, "d̂1": d1}
    for interval in range(1, s + 1):
        Q = histogram_quantization(inputs, 0, interval, outputs, estimated)
        value = measure_sml(Q, secret).value
        setting = {**base, "I": interval}
        rows.append(compare("SML Prop. 3 QM robustness gap (over Thm. 4's SML)", setting, "SML",
                            lambda interval=interval: upper_bound(sml.thm4_qm_sml(s, interval)
                                                                  + sml.prop3_qm_robustness_gap_bound(tau, d_star, d0, d1)),
                            value, EXACT_ATOL))
        rows.append(compare("SML Prop. 4/App. I, Prop. 5 (corrected) QM SML bounds", setting, "SML",
                            lambda interval=interval: (sml.prop5_qm_sml_lower_bound(tau, s, interval, d_star, d0, d1),
                                                       sml.prop4_qm_sml_upper_bound(tau, s, interval, d_star, d0, d1)
                                                       if tau + d0 + d1 > 2 else math.inf),
                            value, EXACT_ATOL))
        rows.append(compare("SML App. H-D QM distortion bounds (corrected)", setting, "TV distortion",
                            lambda interval=interval: sml.apphd_qm_distortion_bounds(tau, d_star, d0, d1, interval),
                            float((Q.matrix * cost).sum(axis=1).max()), EXACT_ATOL))
    for eps in RR_EPSILONS:
        Q = histogram_randomized_response(inputs, eps, outputs, estimated)
        value = measure_sml(Q, secret).value
        setting = {**base, "ε": eps}
        rows.append(compare("SML Props. 4–5 (base 2) RR SML bounds", setting, "SML",
                            lambda eps=eps: (sml.prop5_rr_sml_lower_bound(eps, tau, s, d_star, d0, d1),
                                             sml.prop4_rr_sml_upper_bound(eps, tau, s, d_star, d0, d1)),
                            value, EXACT_ATOL))
        rows.append(compare("SML App. H-D RR distortion bounds", setting, "TV distortion",
                            lambda eps=eps: sml.apphd_rr_distortion_bounds(eps, tau, d_star, d0, d1),
                            float((Q.matrix * cost).sum(axis=1).max()), EXACT_ATOL))
        with parameter_choice():  # Prop. 3's RR half applies under its condition
            robust = sml.prop3_rr_robustness_condition(eps, tau, d0 + d1, s)
        if robust:
            rows.append(compare("SML Prop. 3 RR log 3-robust (over Thm. 4's SML)", setting, "SML",
                                lambda eps=eps: upper_bound(sml.thm4_rr_sml(eps, s, tau, d_star) + math.log(3) * (d_star - d0)),
                                value, EXACT_ATOL))
    return rows


def _coarse_secret(cases: list[tuple[int, int, int, int]]) -> list[CheckRow]:
    """Prop. 5's QM bound (corrected, both branches) and Prop. 6's QM limit (an upper bound at every τ) for
    secrets coarser than the ``τ + 1`` exact values (``s = 2 … τ`` levels), at every interval length; Prop. 5's
    RR bound (exponent in base 2) at every RR budget."""
    return [row for tau, d_star, d0, d1 in cases for row in _coarse_case(tau, d_star, d0, d1)]


def _coarse_case(tau: int, d_star: int, d0: int, d1: int) -> list[CheckRow]:
    rows = []
    inputs, outputs, estimated = misspecified_spaces(tau, d_star, d0, d1)
    allowed = _candidates(inputs, outputs, estimated)
    for s in range(2, tau + 1):
        secret = category_fraction_secret(inputs, 0, levels=s)
        released = category_fraction_secret(outputs, 0, levels=s)
        for eps in RR_EPSILONS:
            value = measure_sml(histogram_randomized_response(inputs, eps, outputs, estimated), secret).value
            rows.append(compare("SML Prop. 5 (base 2) RR lower bound, coarse secret",
                                {"τ": tau, "d*": d_star, "d̂0": d0, "d̂1": d1, "s": s, "ε": eps}, "SML",
                                lambda eps=eps, s=s: lower_bound(sml.prop5_rr_sml_lower_bound(eps, tau, s, d_star, d0, d1)),
                                value, EXACT_ATOL))
        for interval in range(1, s + 1):
            value = measure_sml(quantization_mechanism(secret, released, interval, allowed=allowed), secret).value
            setting = {"τ": tau, "d*": d_star, "d̂0": d0, "d̂1": d1, "s": s, "I": interval}
            rows.append(compare("SML Prop. 5 (corrected) QM lower bound, coarse secret", setting, "SML",
                                lambda s=s, interval=interval: lower_bound(
                                    sml.prop5_qm_sml_lower_bound(tau, s, interval, d_star, d0, d1)),
                                value, EXACT_ATOL))
            rows.append(compare("SML Prop. 6 QM limit bounds Π_QM at every τ", setting, "SML",
                                lambda s=s, interval=interval: upper_bound(sml.prop6_qm_sml_limit(s, interval, d_star, d0)),
                                value, EXACT_ATOL))
    return rows


def _random_mechanisms(trials: int) -> list[CheckRow]:
    """Thm. 2 (with Lemma 2's composed channel), Thm. 3, Prop. 7 and App. K on seeded random mechanisms."""
    rng = np.random.default_rng(SEED)
    rows = []
    for trial in range(trials):
        n, outputs = int(rng.integers(3, 6)), int(rng.integers(2, 4))
        secret = rng.integers(0, 2, size=n)
        secret[:2] = (0, 1)  # both secret values occur
        first = rng.dirichlet(np.ones(outputs), size=n)
        adaptive = rng.dirichlet(np.ones(2), size=(outputs, n))
        # P(a, b | θ) = Q₁(a | θ) Q₂^{(a)}(b | θ): the adaptive composition, built from its definition
        composed = (first[:, :, None] * adaptive.transpose(1, 0, 2)).reshape(n, -1)
        leak_composed = measure_sml(composed, secret).value
        leak_first = measure_sml(first, secret).value
        leak_second = max(measure_sml(adaptive[a], secret).value for a in range(outputs))
        setting = {"n": n, "trial": trial}
        rows.append(compare("SML Lemma 2 composed mechanism (its SML)", setting, "SML",
                            lambda first=first, adaptive=adaptive, secret=secret: measure_sml(
                                sml.lemma2_composed_mechanism(first, adaptive), secret).value, leak_composed, EXACT_ATOL))
        rows.append(compare("SML Thm. 2 adaptive composition", setting, "SML",
                            lambda leaks=(leak_first, leak_second): upper_bound(sml.thm2_composition_bound(list(leaks))),
                            leak_composed, EXACT_ATOL))
        post = rng.dirichlet(np.ones(3), size=outputs)
        rows.append(compare("SML Thm. 3 post-processing", setting, "SML",
                            lambda leak=leak_first: upper_bound(sml.thm3_post_processing_bound(leak)),
                            measure_sml(first @ post, secret).value, EXACT_ATOL))
        rows.append(compare("SML Prop. 7 μ-L_DP bounds the SML", setting, "SML",
                            lambda first=first, secret=secret: upper_bound(sml.prop7_ldp_level(first, secret)), leak_first, EXACT_ATOL))
        rows.append(compare("SML Prop. 7 (second half) Π̃ + Π̃^inf bounds the L_DP level", setting, "L_DP level",
                            lambda first=first, secret=secret: upper_bound(sml.prop7_ldp_level_upper_bound(first, secret)),
                            lambda first=first, secret=secret: sml.prop7_ldp_level(first, secret), EXACT_ATOL))
        rows.append(compare("SML App. K worst-output Π̃ bounds the SML", setting, "SML",
                            lambda first=first, secret=secret: upper_bound(sml.appk_worst_output_leakage(first, secret)),
                            leak_first, EXACT_ATOL))
        rows.extend(_prop7_inf(first, secret, leak_first, setting))
    return rows


def _prop7_inf(matrix: np.ndarray, secret: np.ndarray, leakage: float, setting: dict) -> list[CheckRow]:
    """Prop. 7 (first half) for App. K's Π^inf: at most μ (and at most the sharpened ``log((1 + (s − 1)e^μ)/s)``);
    for two secret values Π^inf = −log(2 − e^Π) with the SML Π measured exactly."""
    values = np.unique(secret).size

    def level() -> float:
        return sml.prop7_ldp_level(matrix, secret)

    def inf_leakage() -> float:
        return sml.appk_inf_leakage(matrix, secret)

    rows = [compare("SML Prop. 7 μ-L_DP bounds Π^inf", setting, "Π^inf", lambda: upper_bound(level()), inf_leakage, EXACT_ATOL),
            compare("SML Prop. 7 Π^inf <= log((1 + (s − 1)e^μ)/s) (sharpened)", setting, "Π^inf",
                    lambda: upper_bound(sml.prop7_inf_leakage_sharp_bound(level(), values)), inf_leakage, EXACT_ATOL)]
    if values == 2:
        covered = 2.0 - math.exp(leakage)  # Σ_θ' min = 2 − Σ_θ' max at the SML's selection
        rows.append(compare("SML App. K Π^inf = −log(2 − e^Π) (two secret values)", setting, "Π^inf", inf_leakage,
                            -math.log(covered) if covered > 0 else math.inf, EXACT_ATOL))
    return rows


#: L_DP levels μ and secret counts s of the reverse randomized responses that reach Π^inf's sharpened bound.
SHARP_PROP7 = ((0.5, 2), (1.0, 3), (2.0, 4))


def _sharp_prop7() -> list[CheckRow]:
    """Reverse RR (``Q(y|x) ∝ 1`` at ``y = x``, ``e^μ`` elsewhere) is μ-L_DP with Π^inf = log((1 + (s − 1)e^μ)/s)."""
    rows = []
    for mu, s in SHARP_PROP7:
        Q = np.where(np.eye(s, dtype=bool), 1.0, math.exp(mu))
        Q /= Q.sum(axis=1, keepdims=True)
        secret = np.arange(s)
        rows.append(compare("SML Prop. 7 Π^inf <= log((1 + (s − 1)e^μ)/s) reached by reverse RR", {"μ": mu, "s": s},
                            "Π^inf", lambda Q=Q, secret=secret, s=s: sml.prop7_inf_leakage_sharp_bound(sml.prop7_ldp_level(Q, secret), s),
                            lambda Q=Q, secret=secret: sml.appk_inf_leakage(Q, secret), EXACT_ATOL))
    return rows


def definition_leakage(matrix: np.ndarray, secret: np.ndarray, prior: np.ndarray) -> float:
    """Definition (2) at one prior: ``log P(Ĝ = G) / max_g P_G(g)`` with the best (MAP) attack,
    ``P(Ĝ = G) = Σ_θ' max_g Σ_{θ ∈ Θ_g} P(θ) Q(θ' | θ)``.

    Examples
    --------
    >>> round(definition_leakage(np.eye(2), np.array([0, 1]), np.array([0.5, 0.5])), 12)  # log 2: the secret revealed
    0.69314718056
    """
    values = np.unique(secret)
    by_value = np.array([(prior[secret == g, None] * matrix[secret == g]).sum(axis=0) for g in values])
    masses = np.array([prior[secret == g].sum() for g in values])
    return float(math.log(by_value.max(axis=0).sum() / masses.max()))


def _selections(trials: int) -> list[CheckRow]:
    """Prop. 1 (the SML is the maximum over selections of one input per secret value: definition (2) at the
    maximizing selection's prior equals it, and no random prior exceeds it), Property 1 (maximal leakage
    brackets it) on seeded random mechanisms; Prop. 2 (the min-cost flow is the SML of a deterministic
    mechanism) and Lemma 1 (eq. (1)'s worst prior is a point mass) on the quantization and randomized
    response mechanisms of histogram spaces."""
    rng = np.random.default_rng(SEED + 1)
    rows = []
    for trial in range(trials):
        n, outputs = int(rng.integers(3, 7)), int(rng.integers(2, 5))
        secret = rng.integers(0, 3, size=n)
        secret[:2] = (0, 1)
        Q = rng.dirichlet(np.ones(outputs), size=n)
        found = measure_sml(Q, secret, "enumerate")
        at_selection = np.zeros(n)
        at_selection[found.selection] = 1.0 / len(found.selection)
        priors = [at_selection, *rng.dirichlet(np.full(n, 0.5), size=200)]
        setting = {"n": n, "trial": trial}
        rows.append(compare("SML Prop. 1 max over selections = definition (2)", setting, "SML",
                            lambda Q=Q, secret=secret: measure_sml(Q, secret, "enumerate").value,
                            max(definition_leakage(Q, secret, prior) for prior in priors), EXACT_ATOL))
        rows.append(compare("SML Property 1 maximal leakage brackets the SML", setting, "SML",
                            lambda Q=Q, secret=secret: property1_bounds(Q, secret), found.value, EXACT_ATOL))
    for tau, d in ((2, 3), (3, 2), (3, 3)):
        space = HistogramSpace(tau, d)
        secret, cost = category_fraction_secret(space, 0), tv_cost(space)
        for interval in range(1, tau + 2):
            Q = histogram_quantization(space, 0, interval)
            if not is_deterministic(Q):  # a partial last bin is released at random
                continue
            rows.append(compare("SML Prop. 2 min-cost flow = SML (deterministic)", {"τ": tau, "d": d, "I": interval}, "SML",
                                lambda Q=Q, secret=secret: measure_sml(Q, secret, "flow").value,
                                measure_sml(Q, secret, "enumerate").value, EXACT_ATOL))
        for name, Q in [("QM I=1", histogram_quantization(space, 0, 1)), ("RR ε=1", histogram_randomized_response(space, 1.0))]:
            per_input = (Q.matrix * cost).sum(axis=1)  # E_{Θ'}[D_TV] for each input θ
            priors = rng.dirichlet(np.full(per_input.size, 0.5), size=200)
            rows.append(compare("SML Lemma 1 worst prior of eq. (1) is a point mass", {"τ": tau, "d": d, "mechanism": name},
                                "TV distortion", lambda Q=Q, space=space: tv_distortion(space).value(Q),
                                float(max(per_input.max(), (priors @ per_input).max())), EXACT_ATOL))
    return rows


#: Inputs (means) and secret of the Gaussian-noise mechanism of the Prop. 8 check.
PROP8_MEANS = (0.0, 1.0, 2.0, 3.0)
PROP8_SECRET = (0, 0, 1, 1)


def gaussian_envelope_sml(means: Sequence[float], secret: Sequence[int], sigma: float) -> float:
    """``max log ∫ max_g f(y | θ_g) dy`` over the selections of one input per secret value, for Gaussian
    noise of one standard deviation: the largest density is the nearest mean's, so the integral is the sum
    over the selected means of their Voronoi cells' normal masses (exact, no quadrature).

    Examples
    --------
    >>> round(gaussian_envelope_sml([0.0, 1.0], [0, 1], 1.0), 9) == round(math.log(2 * stats.norm.cdf(0.5)), 9)
    True
    """
    groups: dict[int, list[float]] = {}
    for mean, value in zip(means, secret):
        groups.setdefault(value, []).append(float(mean))
    best = -math.inf
    for selection in itertools.product(*groups.values()):
        centres = np.unique(selection)
        edges = np.concatenate([[-np.inf], (centres[1:] + centres[:-1]) / 2, [np.inf]])
        mass = stats.norm.cdf((edges[1:] - centres) / sigma) - stats.norm.cdf((edges[:-1] - centres) / sigma)
        best = max(best, math.log(float(mass.sum())))
    return best


def _prop8(sigmas: tuple[float, ...], widths: tuple[float, ...]) -> list[CheckRow]:
    """Prop. 8 (continuous outputs) on Gaussian noise over four inputs: the formula (its quadrature) against
    the exact nearest-mean integral (:func:`gaussian_envelope_sml`), and as an upper bound on the exact SML
    of binned outputs (a post-processing, Thm. 3)."""
    rows = []
    for sigma in sigmas:
        def value(sigma: float = sigma) -> float:
            return sml.prop8_continuous_sml([stats.norm(loc=m, scale=sigma).pdf for m in PROP8_MEANS], PROP8_SECRET,
                                            breakpoints=PROP8_MEANS)

        rows.append(compare("SML Prop. 8 Gaussian noise = the nearest-mean integral", {"σ": sigma}, "SML", value,
                            gaussian_envelope_sml(PROP8_MEANS, PROP8_SECRET, sigma), EXACT_ATOL))
        for width in widths:
            edges = np.concatenate([[-np.inf], np.arange(-6 * sigma, 3 + 6 * sigma + width, width), [np.inf]])
            binned = np.diff(stats.norm.cdf((edges[None, :] - np.array(PROP8_MEANS)[:, None]) / sigma), axis=1)
            rows.append(compare("SML Prop. 8 ≥ SML of the binned outputs (Thm. 3)", {"σ": sigma, "bin": width}, "SML",
                                lambda value=value: upper_bound(value()), measure_sml(binned, PROP8_SECRET).value, EXACT_ATOL))
    return rows


def check_sml(full: bool = False) -> list[CheckRow]:
    """SML closed forms against exact computation (fast grid, or ``full``: τ ≤ 6, d ≤ 4).

    Examples
    --------
    >>> rows = check_sml()  # doctest: +SKIP
    >>> all(row.ok for row in rows)  # doctest: +SKIP
    True
    """
    spaces = [(tau, d) for tau in range(1, 7 if full else 4) for d in range(2, 5 if full else 4)]
    cases = [(tau, d_star, d0, d1) for tau in range(1, 4 if full else 3) for d_star in ((2, 3, 4) if full else (2, 3))
             for d0 in range(1, d_star + 1) for d1 in range(3 if full else 2) if d0 + d1 >= 2]
    prop8 = _prop8((0.5, 1.0, 2.0), (0.5, 0.1, 0.02)) if full else _prop8((1.0,), (0.5, 0.1))
    coarse = [(tau, d_star, d0, d1) for tau in range(2, 6 if full else 4) for d_star in ((2, 3, 4) if full else (2, 3))
              for d0 in range(1, d_star + 1) for d1 in range(3 if full else 2) if d0 + d1 >= 2]
    return (_thm4(spaces) + _misspecified(cases) + _coarse_secret(coarse) + _random_mechanisms(20 if full else 6)
            + _sharp_prop7() + prop8 + _selections(20 if full else 6))
