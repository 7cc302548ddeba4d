"""Closed forms of the SML paper (Wang, Lin & Fanti) against exact computation on small histogram spaces.

Every (τ ≤ 8, 2 ≤ d ≤ 4, every interval length I) case is computed exactly: the SML with the
HiGHS MILP / enumeration of mechdesign.privacy.sml, the distortion as the worst-case expected TV
distance of the explicit mechanism (Lemma 1).
"""

import math

import numpy as np
import pytest

from mechdesign.exceptions import MechDesignError
from mechdesign.mechanisms.histogram import histogram_quantization, histogram_randomized_response
from mechdesign.privacy.sml import measure_sml
from mechdesign.tabular import HistogramSpace, category_fraction_secret, log_histogram_count, tv_cost, tv_distortion
from mechdesign.theory import sml as sml_theory
from mechdesign.theory.sml import (
    appi_alpha,
    prop6_gap_limit_bound,
    thm4_qm_distortion,
    thm4_qm_distortion_as_printed,
    apphd_qm_distortion_bounds,
    prop3_qm_robustness_gap_bound,
    thm4_qm_sml,
    prop6_qm_sml_bound_gap,
    prop6_qm_sml_bound_gap_limit,
    prop5_qm_sml_lower_bound,
    prop4_qm_sml_upper_bound,
    thm4_rr_distortion,
    apphd_rr_distortion_bounds,
    thm4_rr_epsilon_for_sml,
    thm4_rr_log_sml,
    thm4_rr_qm_distortion_ratio_limit,
    prop3_rr_robustness_condition,
    thm4_rr_sml,
    prop6_rr_sml_bound_gap,
    prop6_rr_sml_bound_gap_limit,
    prop5_rr_sml_lower_bound,
    prop4_rr_sml_upper_bound,
)

#: Closed form vs exact computation (both in double precision; the SML is a log of a short sum).
EXACT_ATOL = 1e-9
#: Closed-form ratio at τ = 10⁹ vs its τ → ∞ limit.
LIMIT_ATOL = 1e-6
SMALL = [(tau, d) for tau in range(1, 9) for d in range(2, 5)]


@pytest.fixture(scope="module")
def spaces():
    return {(tau, d): HistogramSpace(tau, d) for tau, d in SMALL}


def test_thm4_randomized_response_exact(spaces):
    # SML paper, Thm. 4 (RR): SML log((1 + s r)/(1 + r)) for any secret; distortion (d − 1)/(d (1 + r)).
    for (tau, d), space in spaces.items():
        secret = category_fraction_secret(space, 0)
        distortion = tv_distortion(space)
        for epsilon in (0.0, 0.7, 2.5, 6.0):
            Q = histogram_randomized_response(space, epsilon)
            assert measure_sml(Q, secret, "milp").value == pytest.approx(thm4_rr_sml(epsilon, tau + 1, tau, d), abs=EXACT_ATOL)
            assert distortion.value(Q) == pytest.approx(thm4_rr_distortion(epsilon, tau, d), abs=EXACT_ATOL)


def test_thm4_rr_sml_any_secret():
    space = HistogramSpace(3, 3)
    secret = category_fraction_secret(space, 1, levels=2)
    Q = histogram_randomized_response(space, 1.3)
    assert measure_sml(Q, secret).value == pytest.approx(thm4_rr_sml(1.3, 2, 3, 3), abs=EXACT_ATOL)


def test_thm4_quantization_exact_every_interval(spaces):
    # SML paper, Thm. 4 (QM): SML log ⌈s/I⌉; distortion as corrected in docs/errata.md.
    for (tau, d), space in spaces.items():
        secret = category_fraction_secret(space, 0)
        distortion = tv_distortion(space)
        for interval in range(1, tau + 2):
            Q = histogram_quantization(space, 0, interval)
            assert measure_sml(Q, secret).value == pytest.approx(thm4_qm_sml(tau + 1, interval), abs=EXACT_ATOL)
            assert distortion.value(Q) == pytest.approx(thm4_qm_distortion(tau, d, interval), abs=EXACT_ATOL)


def test_thm4_qm_distortion_as_printed_is_wrong():
    # Erratum: the printed form falls short by (d − 2)(τ − ⌊I/2⌋)/(2τ(d − 1)) (zero only for d = 2 or ⌊I/2⌋ = τ).
    space = HistogramSpace(2, 3)
    exact = tv_distortion(space).value(histogram_quantization(space, 0, 1))
    assert exact == pytest.approx(0.5, abs=EXACT_ATOL)  # θ = (0, 1, 0) → (0, j, 2 − j)/2 uniformly: E[TV] = 1/2
    assert thm4_qm_distortion_as_printed(2, 3, 1) == pytest.approx(0.25, abs=1e-15)
    for tau, d in SMALL:
        for interval in range(1, tau + 2):
            gap = thm4_qm_distortion(tau, d, interval) - thm4_qm_distortion_as_printed(tau, d, interval)
            assert gap == pytest.approx((d - 2) * (tau - interval // 2) / (2 * tau * (d - 1)), abs=1e-12)


def test_thm4_comparison_counterexample_and_corrected_limit(spaces):
    # At equal SML log 3 (τ = 8, d = 3, I = 3) RR has the *smaller* exact distortion.
    space = spaces[(8, 3)]
    secret = category_fraction_secret(space, 0)
    epsilon = thm4_rr_epsilon_for_sml(math.log(3), 9, 8, 3)
    rr = histogram_randomized_response(space, epsilon)
    qm = histogram_quantization(space, 0, 3)
    assert measure_sml(rr, secret, "milp").value == pytest.approx(math.log(3), abs=EXACT_ATOL)
    assert tv_distortion(space).value(rr) == pytest.approx(0.5, abs=EXACT_ATOL)
    assert tv_distortion(space).value(qm) == pytest.approx(0.5625, abs=EXACT_ATOL)
    # Corrected limits of Δ_RR / Δ_QM at equal SML (closed forms at τ = 10⁹).
    tau = 10**9
    for d in (3, 4, 10):
        for interval in (2, 3, 9, 100):
            ratio = thm4_rr_distortion(thm4_rr_epsilon_for_sml(thm4_qm_sml(tau + 1, interval), tau + 1, tau, d), tau, d) / thm4_qm_distortion(tau, d, interval)
            assert ratio == pytest.approx(thm4_rr_qm_distortion_ratio_limit(d, interval=interval), abs=LIMIT_ATOL)
        for alpha in (0.1, 0.5):
            interval = int(alpha * tau)
            ratio = thm4_rr_distortion(thm4_rr_epsilon_for_sml(thm4_qm_sml(tau + 1, interval), tau + 1, tau, d), tau, d) / thm4_qm_distortion(tau, d, interval)
            assert ratio == pytest.approx(thm4_rr_qm_distortion_ratio_limit(d, alpha=alpha), abs=LIMIT_ATOL)
    assert thm4_rr_qm_distortion_ratio_limit(3, interval=2) < 1 < thm4_rr_qm_distortion_ratio_limit(3, interval=5)
    assert thm4_rr_qm_distortion_ratio_limit(4, interval=9) == pytest.approx(1.0, abs=1e-15)  # I = (d − 1)²


def _misspecified(tau, d_star, d0, d1):
    """Inputs on Γ* = {0..d*−1}; Γ̂* = {0..d̂₀−1} ∪ d̂₁ infeasible categories; outputs on Γ̂* ∪ Γ*."""
    universe = d_star + d1
    estimated = list(range(d0)) + list(range(d_star, universe))
    inputs = HistogramSpace(tau, universe, support=range(d_star))
    outputs = HistogramSpace(tau, universe, support=sorted(set(range(d_star)) | set(estimated)))
    return inputs, outputs, estimated


MISSPECIFIED = [(tau, d_star, d0, d1) for tau in range(1, 5) for d_star in (2, 3, 4)
                for d0 in range(1, d_star + 1) for d1 in range(3) if d0 + d1 >= 2]


def test_prop3_prop4_app_h_and_app_i_bounds_exact():
    # SML paper, Prop. 3 (QM 1-robust, RR log 3-robust under its condition), Prop. 4 (RR SML upper
    # bound), App. H-D distortion bounds (QM's corrected as in docs/errata.md) and App. I's QM bound.
    largest_gap = 0.0
    for tau, d_star, d0, d1 in MISSPECIFIED:
        inputs, outputs, estimated = _misspecified(tau, d_star, d0, d1)
        secret = category_fraction_secret(inputs, 0)
        s = tau + 1
        for interval in range(1, s + 1):
            value = measure_sml(histogram_quantization(inputs, 0, interval, outputs, estimated), secret).value
            gap = value - thm4_qm_sml(s, interval)
            largest_gap = max(largest_gap, gap)
            assert gap <= prop3_qm_robustness_gap_bound(tau, d_star, d0, d1) + EXACT_ATOL <= (d_star - d0) + EXACT_ATOL
            if tau + d0 + d1 > 2:
                assert value <= prop4_qm_sml_upper_bound(tau, s, interval, d_star, d0, d1) + EXACT_ATOL
            assert value >= prop5_qm_sml_lower_bound(tau, s, interval, d_star, d0, d1) - EXACT_ATOL  # Prop. 5, corrected
        cost = tv_cost(inputs, outputs)
        for interval in range(1, s + 1):
            dist = (histogram_quantization(inputs, 0, interval, outputs, estimated).matrix * cost).sum(axis=1).max()
            lower, upper = apphd_qm_distortion_bounds(tau, d_star, d0, d1, interval)
            assert lower - EXACT_ATOL <= dist <= upper + EXACT_ATOL
        for epsilon in (0.0, 0.3, 1.0, 3.0, 6.0):
            rr = histogram_randomized_response(inputs, epsilon, outputs, estimated)
            value = measure_sml(rr, secret).value
            assert value <= prop4_rr_sml_upper_bound(epsilon, tau, s, d_star, d0, d1) + EXACT_ATOL  # Prop. 4
            assert value >= prop5_rr_sml_lower_bound(epsilon, tau, s, d_star, d0, d1) - EXACT_ATOL  # Prop. 5
            lower, upper = apphd_rr_distortion_bounds(epsilon, tau, d_star, d0, d1)
            assert lower - EXACT_ATOL <= (rr.matrix * cost).sum(axis=1).max() <= upper + EXACT_ATOL
            if prop3_rr_robustness_condition(epsilon, tau, d0 + d1, s):
                assert value - thm4_rr_sml(epsilon, s, tau, d_star) <= math.log(3) * (d_star - d0) + EXACT_ATOL
    assert largest_gap > 0.3  # the mis-specification does cost privacy in some cases


def test_log_space_at_adult_scale():
    tau, d = 32561, 22381
    assert 0.0 < thm4_rr_sml(4.0, tau + 1, tau, d) < 1e-100 or thm4_rr_sml(4.0, tau + 1, tau, d) == 0.0
    epsilon = thm4_rr_epsilon_for_sml(2.0, tau + 1, tau, d)
    assert math.isfinite(epsilon) and epsilon > 1e4
    assert thm4_rr_sml(epsilon, tau + 1, tau, d) == pytest.approx(2.0, abs=1e-9)
    assert thm4_rr_distortion(epsilon, tau, d) < (d - 1) / d
    alpha = appi_alpha(48842, 60, 6, 22381)
    r = 48842 / (48842 + 22381)
    assert math.ceil(60 / 6) * (1 + r) ** alpha == pytest.approx(60, rel=1e-12)


def test_domain_errors():
    with pytest.raises(MechDesignError, match="below log s"):
        thm4_rr_epsilon_for_sml(math.log(5), 5, 4, 3)
    with pytest.raises(MechDesignError, match="interval must be at most s = tau \\+ 1 = 5"):
        thm4_qm_distortion(4, 3, 6)
    with pytest.raises(MechDesignError, match="exactly one of interval"):
        thm4_rr_qm_distortion_ratio_limit(3)
    with pytest.raises(MechDesignError, match="d must be an integer >= 3"):
        thm4_rr_qm_distortion_ratio_limit(2, interval=3)
    with pytest.raises(MechDesignError, match="need 1 <= d0 <= d_star"):
        prop3_qm_robustness_gap_bound(4, 2, 3, 0)


def test_rr_log_sml_matches_and_survives_underflow():
    for s, tau, d, epsilon in [(5, 4, 3, 2.0), (9, 8, 4, 0.3), (2, 1, 2, 7.0)]:
        assert thm4_rr_log_sml(epsilon, s, tau, d) == pytest.approx(math.log(thm4_rr_sml(epsilon, s, tau, d)), abs=1e-12)
    log_value = thm4_rr_log_sml(4.0, 1000, 32561, 5000)
    assert thm4_rr_sml(4.0, 1000, 32561, 5000) == 0.0 and math.isfinite(log_value) and log_value < -1e4


def test_app_h_printed_qm_distortion_upper_bound_is_exceeded():
    # Erratum: App. H-D's printed QM upper bound ½ + ((d* + d̂₁)⌊I/2⌋ − τ)/(2τ(d* + d̂₁ − 1)) inherits
    # Thm. 4's missing factor; with Γ̂* = Γ* \ {2} ∪ {one infeasible category}, τ = 3, I = 1:
    inputs, outputs, estimated = _misspecified(3, 3, 2, 1)
    exact = (histogram_quantization(inputs, 0, 1, outputs, estimated).matrix * tv_cost(inputs, outputs)).sum(axis=1).max()
    assert exact > thm4_qm_distortion_as_printed(3, 4, 1) + 0.1
    assert exact <= apphd_qm_distortion_bounds(3, 3, 2, 1, 1)[1] + EXACT_ATOL


def test_prop5_printed_qm_lower_bound_is_violated():
    # Erratum: with n = τI/(2s) as printed, Prop. 5's QM bound exceeds the exact SML. τ = 7, d* = 2,
    # d̂₀* = 1, d̂₁* = 1, I = 4: the last bin releases 6 of 7 counts on the secret category (n = 1 < 1.75).
    inputs, outputs, estimated = _misspecified(7, 2, 1, 1)
    value = measure_sml(histogram_quantization(inputs, 0, 4, outputs, estimated), category_fraction_secret(inputs, 0)).value
    assert value == pytest.approx(math.log(2.5), abs=EXACT_ATOL)
    assert prop5_qm_sml_lower_bound(7, 8, 4, 2, 1, 1, as_printed=True) == pytest.approx(math.log(2 * (1 + 12 / 44)), abs=1e-12)
    assert prop5_qm_sml_lower_bound(7, 8, 4, 2, 1, 1, as_printed=True) > value + 0.01
    assert prop5_qm_sml_lower_bound(7, 8, 4, 2, 1, 1) <= value


#: Secret levels per precision in the exact check of Prop. 5's m >= I branch: the exact values (s = τ + 1)
#: and a coarser quantization (s = τ levels, as in ``category_fraction_secret(levels=...)``).
def _prop5_levels(tau):
    return sorted({tau + 1, max(2, tau)})


PROP5_DISJOINT_CASES = [(tau, d_star, d0, d1) for tau in range(1, 5) for d_star in (2, 3, 4, 5)
                        for d0 in range(1, d_star) for d1 in range(3) if d0 + d1 >= 2]


def test_prop5_qm_lower_bound_disjoint_branch_exact():
    """SML paper, Prop. 5 (QM, m = d* − d̂₀* >= I), corrected: the value of the proof's prior made feasible
    is at most the exact SML of QM on every case (τ <= 4, d* <= 5, d̂₁* <= 2, s = τ + 1 and s = τ levels,
    every I <= m), and equal to it on most (the proof's prior is often the worst one)."""
    from mechdesign.mechanisms.histogram import _candidates, quantization_mechanism

    checked = tight = 0
    for tau, d_star, d0, d1 in PROP5_DISJOINT_CASES:
        inputs, outputs, estimated = _misspecified(tau, d_star, d0, d1)
        allowed = _candidates(inputs, outputs, estimated)
        for s in _prop5_levels(tau):
            levels = None if s == tau + 1 else s
            secret = category_fraction_secret(inputs, 0, levels=levels)
            for interval in range(1, min(d_star - d0, s) + 1):
                Q = quantization_mechanism(secret, category_fraction_secret(outputs, 0, levels=levels), interval,
                                           allowed=allowed)
                value = measure_sml(Q, secret).value
                bound = prop5_qm_sml_lower_bound(tau, s, interval, d_star, d0, d1)
                assert 0.0 <= bound <= value + EXACT_ATOL, (tau, d_star, d0, d1, s, interval)
                checked += 1
                tight += abs(bound - value) <= EXACT_ATOL
    assert checked > 200 and tight > checked // 2


def test_prop5_qm_lower_bound_disjoint_branch_at_fig9_scale():
    """The m >= I branch at App. J's scale (τ = 5·10⁶, d* = 100, d̂₁* = 40, 5 … 20 missed): finite, within
    [0, log s], where the printed form takes the logarithm of a negative number (named error)."""
    tau, d_star, d1 = 5_000_000, 100, 40
    s = tau + 1
    for missing in (5, 20):
        for interval in (2, 5, missing):
            bound = prop5_qm_sml_lower_bound(tau, s, interval, d_star, d_star - missing, d1)
            assert 0.0 <= bound <= math.log(s) + 1e-12
        # I = 1 keeps every secret value apart: the bound is log s exactly (no bin merges two values).
        assert prop5_qm_sml_lower_bound(tau, s, 1, d_star, d_star - missing, d1) == pytest.approx(math.log(s), abs=1e-9)
    with pytest.raises(MechDesignError, match="printed QM bound is undefined"):
        prop5_qm_sml_lower_bound(8, 9, 2, 11, 1, 1, as_printed=True)
    with pytest.raises(MechDesignError, match=r"d0 \+ d1 >= 2"):
        prop5_qm_sml_lower_bound(4, 5, 1, 3, 1, 0)
    with pytest.raises(MechDesignError, match=r"s <= tau \+ 1"):
        prop5_qm_sml_lower_bound(4, 7, 1, 3, 1, 1)


# --- Prop. 5 (RR): the exponent's log s is base 2 ---------------------------------------------------------


def _rr_branch_cases(taus, max_levels, d0s):
    """Every (τ, s = 2 … min(τ + 1, max_levels) levels, m with ln s < m < s, d̂₀*, d̂₁* <= 2) of Prop. 5's RR branch
    where the base of the exponent matters (``k = min(m, log₂ s)`` against the natural-log ``ln s``)."""
    for tau in taus:
        for s in range(2, min(tau + 1, max_levels) + 1):
            for missing in range(math.floor(math.log(s)) + 1, s):
                for d0 in d0s:
                    for d1 in range(3):
                        if d0 + d1 >= 2:
                            yield tau, s, d0 + missing, d0, d1


def _lumped_rr(tau, s, d_star, d0, d1, epsilon):
    """RR under a mis-specified support with the secret's ``s`` levels, lumped exactly (same SML, Prop. 1):
    one input per (secret value, missed part ``supp θ ∩ (Γ* \\ Γ̂*)``) — RR's row depends on θ only through
    that part and its own diagonal entry ``e^ε c``, the largest of its column whatever θ is chosen — and
    identical columns summed (``Σ_y max_g`` over equal columns is the max of their sum).
    Returns the full mechanism and secret, and the lumped ones."""
    inputs, outputs, estimated = _misspecified(tau, d_star, d0, d1)
    secret = category_fraction_secret(inputs, 0, levels=None if s == tau + 1 else s)
    full = histogram_randomized_response(inputs, epsilon, outputs, estimated).matrix
    parts = {}
    for row, (value, counts) in enumerate(zip(secret.group_index, inputs.counts)):
        parts.setdefault((value, tuple(counts[d0:d_star] > 0)), row)
    rows = np.array(sorted(parts.values()))
    kept = full[rows][:, full[rows].any(axis=0)]
    _, columns = np.unique(kept.T, axis=0, return_inverse=True)
    lumped = np.zeros((rows.size, columns.max() + 1))
    np.add.at(lumped.T, columns.ravel(), kept.T)
    return (full, secret), (lumped, secret.group_index[rows])


def _assert_rr_base2_branch(cases, against_full):
    """The base-2 Prop. 5 RR bound is at most the exact SML on every case (five ε); returns the number of cases."""
    checked = 0
    for tau, s, d_star, d0, d1 in cases:
        for epsilon in (0.0, 0.3, 1.0, 3.0, 6.0):
            (full, secret), (lumped, groups) = _lumped_rr(tau, s, d_star, d0, d1, epsilon)
            exact = measure_sml(lumped, groups, "milp")
            assert exact.exact
            if against_full:
                assert measure_sml(full, secret, "milp").value == pytest.approx(exact.value, abs=EXACT_ATOL)
            bound = prop5_rr_sml_lower_bound(epsilon, tau, s, d_star, d0, d1)
            assert bound <= exact.value + EXACT_ATOL, (tau, s, d_star, d0, d1, epsilon, bound, exact.value)
            checked += 1
    return checked


def test_prop5_rr_base2_exponent_exact():
    """SML paper, Prop. 5 (RR, m = d* − d̂₀* < s) with the exponent's log in base 2 (docs/errata.md, "Props. 5–6"):
    at most the exact SML of RR on every case of the branch ln s < m < s with τ <= 4, s <= 5 levels, d̂₀* <= 2,
    d̂₁* <= 2, five ε (350 cases); the exact lumping is checked against the full mechanism for τ <= 2."""
    assert _assert_rr_base2_branch(_rr_branch_cases(range(1, 3), 3, (1, 2)), against_full=True) == 75
    assert _assert_rr_base2_branch(_rr_branch_cases(range(3, 5), 5, (1, 2)), against_full=False) == 275


@pytest.mark.slow
def test_prop5_rr_base2_exponent_exact_larger_grid():
    """As above on τ = 5, 6, s <= 6 levels, d̂₀* <= 2 (550 cases, minutes; the errata's grid also has s = 7 and
    d̂₀* = 3, whose m = 5, 6 cases take about half an hour)."""
    assert _assert_rr_base2_branch(_rr_branch_cases(range(5, 7), 6, (1, 2)), against_full=False) == 550


def _rr_bound_with_exponent(epsilon, tau, s, d_star, d0, d1, k):
    """Prop. 5's RR ``m < s`` branch with the exponent ``k`` given (App. H-B's expression; ``log(e^ε − 1)``,
    ``log A``, ``log B`` as in Prop. 4)."""
    log_e = -math.inf if epsilon == 0 else epsilon + math.log(-math.expm1(-epsilon))
    log_a, log_b = log_histogram_count(tau, d0 + d1), log_histogram_count(tau, d_star + d1)
    keep = math.log(s) + log_e - float(np.logaddexp(log_b, log_e))
    spread = log_a - float(np.logaddexp(log_a, log_e)) + k * math.log1p((tau - k) / (tau + d_star + d1 - 1))
    return float(np.logaddexp(keep, spread))


def test_prop5_rr_base2_exponent_is_the_stronger_bound():
    """k = min(m, log₂ s): where m > ln s it is larger than the natural-log reading's, and so is the bound here
    (τ = 6, s = 7, m = 4: 0.6098 against 0.5146); where m <= ln s both read k = m."""
    for epsilon in (0.0, 1.0, 6.0):
        base2 = prop5_rr_sml_lower_bound(epsilon, 6, 7, 6, 2, 1)
        assert base2 == pytest.approx(_rr_bound_with_exponent(epsilon, 6, 7, 6, 2, 1, math.log2(7)), abs=1e-15)
        assert base2 > _rr_bound_with_exponent(epsilon, 6, 7, 6, 2, 1, math.log(7)) + 0.001
        k_is_m = prop5_rr_sml_lower_bound(epsilon, 6, 7, 3, 2, 1)  # m = 1 <= ln 7
        assert k_is_m == pytest.approx(_rr_bound_with_exponent(epsilon, 6, 7, 3, 2, 1, 1), abs=1e-15)


# --- Prop. 6: limits of the gaps between the SML bounds of Props. 4-5 --------------------------------

#: Largest accepted distance of the bound gap at τ = 10^15 from its limit (it converges like C/τ, C up to ~3e3 here).
PROP6_ATOL = 1e-9
PROP6_CASES = [(s, d_star, d0, d1) for s in (2, 3, 8, 30) for d_star in (2, 4, 12) for d0 in (1, 2)
               for d1 in (0, 1) if d0 + d1 >= 2 and d0 <= d_star]


def _assert_converges(gaps, limit):
    errors = [abs(gap - limit) for gap in gaps]
    assert errors[-1] <= PROP6_ATOL, (gaps, limit)
    assert all(later <= earlier + PROP6_ATOL for earlier, later in zip(errors, errors[1:])), errors


@pytest.mark.parametrize("s, d_star, d0, d1", PROP6_CASES)
def test_prop6_limits_match_the_bounds_at_growing_tau(s, d_star, d0, d1):
    """SML paper, Prop. 6: the gap between Prop. 4's upper (capped by log s) and Prop. 5's lower bound,
    evaluated in log space at τ = 10^3 … 10^15, tends to the closed-form limit (RR for several ε, QM
    for every interval)."""
    taus = [10**k for k in (3, 6, 9, 12, 15)]
    for epsilon in (0.1, 1.0, 5.0):
        _assert_converges([prop6_rr_sml_bound_gap(epsilon, tau, s, d_star, d0, d1) for tau in taus],
                          prop6_rr_sml_bound_gap_limit(s, d_star, d0, d1))
    for interval in range(1, s + 1):
        _assert_converges([prop6_qm_sml_bound_gap(tau, s, interval, d_star, d0, d1) for tau in taus],
                          prop6_qm_sml_bound_gap_limit(s, interval, d_star, d0, d1))


def test_prop6_holds_as_stated_where_the_exponent_is_m():
    """Prop. 6's statements hold on every case: RR's limit is 0 at every m (Prop. 5's exponent
    k = min(m, log₂ s), so 2^k = min(2^m, s)); for QM with the corrected Prop. 5 and d̂₀* >= 2 at every m: 0 when m >= I, when
    I divides s or when 2^m > I, else log(min(⌈s/I⌉ 2^m, s) / (⌊s/I⌋ 2^m + min(s mod I, 2^m))) <= log 2."""
    for s in range(2, 41):
        for missing in range(0, 45):
            d_star, d0 = missing + 2, 2
            limit = prop6_rr_sml_bound_gap_limit(s, d_star, d0, 0)
            assert 0 <= limit <= prop6_gap_limit_bound(s, d_star, d0)
            assert limit == pytest.approx(0.0, abs=1e-15)
            for interval in range(1, s + 1):
                limit = prop6_qm_sml_bound_gap_limit(s, interval, d_star, d0, 0)
                assert 0.0 <= limit <= prop6_gap_limit_bound(s, d_star, d0, interval) + 1e-15
                if missing >= interval or s % interval == 0 or 2**missing > interval:
                    assert limit == pytest.approx(0.0, abs=1e-15)
                else:
                    bins, rest = s // interval, s % interval
                    expected = math.log(min((bins + 1) * 2**missing, s) / (bins * 2**missing + min(rest, 2**missing)))
                    assert limit == pytest.approx(expected, abs=1e-12) and limit <= math.log(2)


def test_prop6_fails_between_log_and_count():
    """For ln s < m < s (RR), Prop. 5's exponent read as the natural log ln s (the library's former reading)
    would give the limit min(m, log₂ s) log 2 − log 2 · ln s, above Prop. 6's bound 1 for s = 30, m = 10;
    with base 2 (Prop. 6's proof: 2^{log s} = s; checked against the exact SML below) it is 0, also at finite τ.
    QM with the corrected Prop. 5 has no such gap (s = 8, I = 4, m = 2: 0), but with d̂₀* = 1 Prop. 6's
    "0 when I divides s" fails: s = 4, I = 2, m = 1 gives log(4/3), and no lower bound can close it, since
    the exact SML stays below log 3 (:func:`prop6_qm_sml_limit`) at every τ while App. I's bound tends to log 4."""
    natural_log_limit = min(10, math.log2(30)) * math.log(2) - math.log(2) * math.log(30)  # k = ln 30
    assert natural_log_limit > prop6_gap_limit_bound(30, 12, 2) + 0.04
    assert prop6_rr_sml_bound_gap_limit(30, 12, 2, 0) == pytest.approx(0.0, abs=1e-15)
    assert prop6_rr_sml_bound_gap(1.0, 10**9, 30, 12, 2, 0) < 1e-6
    assert prop6_qm_sml_bound_gap_limit(8, 4, 4, 2, 0) == pytest.approx(0.0, abs=1e-15)
    assert prop6_qm_sml_bound_gap(10**9, 8, 4, 4, 2, 0) < 1e-6
    qm = prop6_qm_sml_bound_gap_limit(4, 2, 2, 1, 1)
    assert qm == pytest.approx(math.log(4 / 3), abs=1e-15) and prop6_gap_limit_bound(4, 2, 1, 2) == 0.0
    assert prop6_qm_sml_bound_gap(10**9, 4, 2, 2, 1, 1) > 0.28
    assert min(prop4_qm_sml_upper_bound(10**9, 4, 2, 2, 1, 1), math.log(4)) > math.log(3) + 0.28


def test_prop6_domain_errors():
    with pytest.raises(MechDesignError, match="interval must be at most s = 4"):
        prop6_qm_sml_bound_gap_limit(4, 5, 3, 2, 0)
    with pytest.raises(MechDesignError, match="d0 <= d_star"):
        prop6_rr_sml_bound_gap_limit(4, 2, 3, 0)
    with pytest.raises(MechDesignError, match="s"):
        prop6_gap_limit_bound(0, 3, 2)
    with pytest.raises(MechDesignError, match="interval"):
        prop6_gap_limit_bound(4, 3, 2, interval=0)


def test_lemma2_composed_mechanism_and_thm2_thm3_prop7():
    """SML Lemma 2 (the composed channel), Thm. 2 (composition bound), Thm. 3 (post-processing), Prop. 7 (L_DP)."""
    from mechdesign.theory.sml import (
        lemma2_composed_mechanism,
        prop7_ldp_level,
        thm2_composition_bound,
        thm3_post_processing_bound,
    )

    first = np.array([[0.7, 0.3], [0.2, 0.8], [0.5, 0.5]])
    second = np.array([[0.6, 0.4], [0.1, 0.9], [0.3, 0.7]])
    composed = lemma2_composed_mechanism(first, second)
    assert composed.shape == (3, 4) and np.allclose(composed.sum(axis=1), 1.0)
    assert composed[1, 3] == pytest.approx(0.8 * 0.9, abs=1e-15)  # (a, b) = (1, 1) at column 1·2 + 1
    adaptive = lemma2_composed_mechanism(first, np.stack([second, second[::-1]]))
    assert adaptive[0, 2] == pytest.approx(0.3 * second[2, 0], abs=1e-15)  # a = 1 uses the second branch
    secret = [0, 1, 1]
    total = thm2_composition_bound([measure_sml(first, secret).value, measure_sml(second, secret).value])
    assert measure_sml(composed, secret).value <= total + EXACT_ATOL
    assert measure_sml(first @ second[:2], secret).value <= thm3_post_processing_bound(measure_sml(first, secret).value) + EXACT_ATOL
    assert prop7_ldp_level(first, secret) == pytest.approx(math.log(0.7 / 0.2), abs=1e-12)
    assert measure_sml(first, secret).value <= prop7_ldp_level(first, secret) + EXACT_ATOL
    assert prop7_ldp_level([[1.0, 0.0], [0.5, 0.5]], [0, 1]) == math.inf
    with pytest.raises(MechDesignError, match="first must be inputs"):
        lemma2_composed_mechanism(first, second[:2])
    with pytest.raises(MechDesignError, match=r"secret_values has 2 values \(one per row of the mechanism\), expected 3"):
        prop7_ldp_level(first, [0, 1])


def test_prop8_continuous_sml_against_gaussian_total_variation():
    """SML Prop. 8 for Gaussian noise N(θ, σ²) on finite inputs: with two secret values the best selection is
    the farthest pair (a, b), and ∫ max(f_a, f_b) = 1 + TV = 2Φ(|a − b|/2σ); with three secret values at
    0, 2, 4 and σ = 1, ∫ max of the three densities = Φ(1) + (Φ(1) − Φ(−1)) + Φ(1) = 4Φ(1) − 1."""
    from scipy.stats import norm

    from mechdesign.theory.sml import prop8_continuous_sml

    for sigma in (0.3, 1.0, 5.0):
        densities = [norm(loc=m, scale=sigma).pdf for m in (0.0, 0.5, 2.0)]
        value = prop8_continuous_sml(densities, ["a", "b", "b"], breakpoints=[0.0, 0.5, 2.0])
        assert value == pytest.approx(math.log(2 * norm.cdf(2.0 / (2 * sigma))), abs=1e-9)
    three = [norm(loc=m).pdf for m in (0.0, 2.0, 4.0)]
    assert prop8_continuous_sml(three, [0, 1, 2], breakpoints=[1.0, 3.0]) == pytest.approx(math.log(4 * norm.cdf(1) - 1), abs=1e-9)
    with pytest.raises(MechDesignError, match="one value per density"):
        prop8_continuous_sml(three, [0, 1])


# --- App. K's worst-output measures and Prop. 7's second half ----------------------------------------

#: Random priors drawn per mechanism when checking App. K's suprema from their definitions.
APPK_PRIORS = 400


def _posterior_terms(Q, secret, prior, output):
    """From the definitions of App. K at one output θ': (P_G, P(G | θ'))."""
    groups = np.unique(secret, return_inverse=True)[1]
    p_g = np.bincount(groups, weights=prior)
    joint = np.bincount(groups, weights=prior * Q[:, output])
    return p_g, joint / joint.sum()


def test_appk_worst_output_measures_against_their_definitions():
    """SML paper, App. K: Π̃ and Π̃^inf from the closed forms derived in mechdesign.theory.sml are never
    exceeded by any of 400 random priors (Dirichlet, some near-degenerate) at any output, and are reached
    (Π̃) or approached (Π̃^inf, as the least likely secret's mass → 0) by the priors of the derivation."""
    from mechdesign.theory.sml import appk_worst_output_inf_leakage, appk_worst_output_leakage, prop7_ldp_level

    rng = np.random.default_rng(7)
    for _ in range(12):
        n, outputs = int(rng.integers(3, 7)), int(rng.integers(2, 5))
        secret = rng.integers(0, 3, size=n)
        secret[:2] = (0, 1)
        Q = rng.dirichlet(np.full(outputs, 0.7), size=n)
        tilde, tilde_inf = appk_worst_output_leakage(Q, secret), appk_worst_output_inf_leakage(Q, secret)
        assert tilde_inf == prop7_ldp_level(Q, secret)
        best = best_inf = -np.inf
        for concentration in (1.0, 0.05):
            for prior in rng.dirichlet(np.full(n, concentration), size=APPK_PRIORS // 2):
                for output in range(outputs):
                    p_g, posterior = _posterior_terms(Q, secret, prior, output)
                    best = max(best, math.log(posterior.max() / p_g.max()))
                    if (p_g > 0).all() and posterior.min() > 0:
                        best_inf = max(best_inf, math.log(p_g.min() / posterior.min()))
        assert best <= tilde + EXACT_ATOL and best_inf <= tilde_inf + EXACT_ATOL
        # The maximizing priors: Π̃ at equal mass on g* (its largest row) and the j − 1 smallest others;
        # Π̃^inf as the mass of the value with the smallest entry vanishes.
        reached = -np.inf
        values = np.unique(secret)
        for output in range(outputs):
            for top in values:
                rows = {g: np.flatnonzero(secret == g) for g in values}
                chosen = {g: rows[g][np.argmax(Q[rows[g], output])] if g == top else rows[g][np.argmin(Q[rows[g], output])]
                          for g in values}
                others = sorted((g for g in values if g != top), key=lambda g: Q[chosen[g], output])
                for j in range(1, values.size + 1):
                    prior = np.zeros(n)
                    prior[[chosen[g] for g in [top, *others[: j - 1]]]] = 1.0 / j
                    p_g, posterior = _posterior_terms(Q, secret, prior, output)
                    reached = max(reached, math.log(posterior.max() / p_g.max()))
        assert reached == pytest.approx(tilde, abs=EXACT_ATOL)
        a, b, output = _ldp_argmax(Q, secret)
        prior = np.full(n, 0.0)
        prior[a], prior[b] = 1.0 - 1e-9, 1e-9
        rest = [i for i in range(n) if secret[i] not in (secret[a], secret[b])]
        prior[rest] = 1e-9 / max(len(rest), 1)
        prior /= prior.sum()
        p_g, posterior = _posterior_terms(Q, secret, prior, output)
        assert math.log(p_g.min() / posterior.min()) == pytest.approx(tilde_inf, abs=1e-6)


def _ldp_argmax(Q, secret):
    """The inputs (a, b) with different secrets and the output maximizing Q(θ'|a)/Q(θ'|b)."""
    pairs = [(a, b) for a in range(len(secret)) for b in range(len(secret)) if secret[a] != secret[b]]
    return max(((a, b, o) for a, b in pairs for o in range(Q.shape[1])), key=lambda t: Q[t[0], t[2]] / Q[t[1], t[2]])


def test_prop7_second_half_and_worst_output_above_sml():
    """SML paper, Prop. 7 (second half): Π̃ + Π̃^inf bounds the L_DP level; and Π̃ >= Π (the worst output is
    at least the average one) on random mechanisms, with the SML measured exactly."""
    from mechdesign.theory.sml import appk_worst_output_leakage, prop7_ldp_level, prop7_ldp_level_upper_bound

    rng = np.random.default_rng(11)
    for _ in range(20):
        n = int(rng.integers(3, 6))
        secret = rng.integers(0, 3, size=n)
        secret[:2] = (0, 1)
        Q = rng.dirichlet(np.ones(int(rng.integers(2, 5))), size=n)
        assert prop7_ldp_level(Q, secret) <= prop7_ldp_level_upper_bound(Q, secret) + EXACT_ATOL
        assert measure_sml(Q, secret).value <= appk_worst_output_leakage(Q, secret) + EXACT_ATOL
    # A zero entry: some output rules a secret value out, Π̃^inf = L_DP level = ∞.
    assert prop7_ldp_level_upper_bound([[1.0, 0.0], [0.5, 0.5]], [0, 1]) == math.inf
    assert appk_worst_output_leakage([[1.0, 0.0], [0.0, 1.0]], [0, 1]) == pytest.approx(math.log(2), abs=1e-15)


def _inf_leakage_of_prior(Q, secret, prior):
    """App. K's Π^inf ratio at one prior, from the definition: the attacker minimizing P(Ĝ = G) guesses at
    each output a secret value of least joint mass, so P(Ĝ = G) = Σ_θ' min_g P(g, θ')."""
    groups = np.unique(secret, return_inverse=True)[1]
    p_g = np.bincount(groups, weights=prior)
    joint = np.stack([np.bincount(groups, weights=prior * Q[:, o], minlength=p_g.size) for o in range(Q.shape[1])])
    return math.log(p_g.min() / joint.min(axis=1).sum())


def test_appk_inf_leakage_against_its_definition():
    """SML paper, App. K: Π^inf (derived in mechdesign.theory.sml as max over selections of −log Σ_θ' min_g Q)
    is never exceeded by 400 random priors with P_G > 0 (Dirichlet, some near-degenerate), is reached by
    the uniform prior on its maximizing selection, equals the enumeration without pruning dominated rows,
    and for two secret values equals −log(2 − e^Π) with the SML Π measured exactly (MILP)."""
    import itertools

    from mechdesign.theory.sml import appk_inf_leakage

    rng = np.random.default_rng(23)
    for trial in range(12):
        n, outputs = int(rng.integers(3, 7)), int(rng.integers(2, 5))
        secret = rng.integers(0, 2 + trial % 2, size=n)
        secret[:3] = (0, 1, trial % 2 + 1 if trial % 2 else 0)
        Q = rng.dirichlet(np.full(outputs, 0.7), size=n)
        value = appk_inf_leakage(Q, secret)
        rows = [np.flatnonzero(secret == g) for g in np.unique(secret)]
        sums = {sel: Q[list(sel)].min(axis=0).sum() for sel in itertools.product(*rows)}
        best = min(sums, key=sums.get)
        assert value == pytest.approx(-math.log(sums[best]), abs=EXACT_ATOL)
        uniform = np.zeros(n)
        uniform[list(best)] = 1.0 / len(best)  # P_G uniform (> 0), one input per secret value
        assert _inf_leakage_of_prior(Q, secret, uniform) == pytest.approx(value, abs=EXACT_ATOL)
        for concentration in (1.0, 0.05):
            for prior in rng.dirichlet(np.full(n, concentration), size=APPK_PRIORS // 2):
                if np.bincount(np.unique(secret, return_inverse=True)[1], weights=prior).min() > 0:
                    assert _inf_leakage_of_prior(Q, secret, prior) <= value + EXACT_ATOL
        if np.unique(secret).size == 2:
            assert value == pytest.approx(-math.log(2.0 - math.exp(measure_sml(Q, secret).value)), abs=EXACT_ATOL)


def test_prop7_first_half_for_inf_leakage():
    """SML paper, Prop. 7 (first half): a μ-L_DP mechanism has Π^inf <= μ — here the sharper
    log((1 + (s − 1)e^μ)/s) derived in mechdesign.theory.sml, reached by reverse randomized response and
    strictly below μ for μ > 0; an output that rules a secret value out makes μ and Π^inf infinite."""
    from mechdesign.exceptions import ProblemTooLargeError
    from mechdesign.theory.sml import appk_inf_leakage, prop7_inf_leakage_sharp_bound, prop7_ldp_level

    rng = np.random.default_rng(5)
    for _ in range(30):
        n = int(rng.integers(3, 7))
        secret = rng.integers(0, 3, size=n)
        secret[:3] = (0, 1, 2)
        Q = rng.dirichlet(np.ones(int(rng.integers(2, 5))), size=n)
        mu, value = prop7_ldp_level(Q, secret), appk_inf_leakage(Q, secret)
        assert value <= prop7_inf_leakage_sharp_bound(mu, 3) + EXACT_ATOL <= mu + 2 * EXACT_ATOL
    for mu in (0.1, 1.0, 4.0):
        for s in (2, 3, 6):
            Q = np.where(np.eye(s, dtype=bool), 1.0, math.exp(mu))
            Q /= Q.sum(axis=1, keepdims=True)
            assert prop7_ldp_level(Q, np.arange(s)) == pytest.approx(mu, abs=1e-12)
            assert appk_inf_leakage(Q, np.arange(s)) == pytest.approx(prop7_inf_leakage_sharp_bound(mu, s), abs=1e-12)
            assert prop7_inf_leakage_sharp_bound(mu, s) < mu
    assert appk_inf_leakage([[1.0, 0.0], [0.0, 1.0]], [0, 1]) == math.inf
    assert appk_inf_leakage([[0.3, 0.7], [0.9, 0.1]], [5, 5]) == 0.0
    assert prop7_inf_leakage_sharp_bound(math.inf, 3) == math.inf
    with pytest.raises(ProblemTooLargeError, match="selections"):
        # 56 rows 0.5 e_i + 0.5 e_{i+1} (none dominates another), 7 secret values of 8 inputs: 8^7 selections
        appk_inf_leakage(0.5 * np.eye(56) + 0.5 * np.roll(np.eye(56), 1, axis=1), np.arange(56) % 7)


def _coarse_qm_grid(taus, d_stars):
    """Every (τ, d*, d̂₀*, d̂₁* <= 2, s = 2 … τ + 1 levels, I > m) case of Prop. 5's QM branch m < I:
    (case, exact SML of QM, corrected lower bound, Prop. 6's limit as an upper bound)."""
    from mechdesign.mechanisms.histogram import _candidates, quantization_mechanism
    from mechdesign.theory.sml import prop6_qm_sml_limit

    for tau in taus:
        for d_star in d_stars:
            for d0 in range(1, d_star + 1):
                for d1 in range(3):
                    if d0 + d1 < 2:
                        continue
                    inputs, outputs, estimated = _misspecified(tau, d_star, d0, d1)
                    allowed = _candidates(inputs, outputs, estimated)
                    for s in range(2, tau + 2):
                        levels = None if s == tau + 1 else s
                        secret = category_fraction_secret(inputs, 0, levels=levels)
                        released = category_fraction_secret(outputs, 0, levels=levels)
                        for interval in range(d_star - d0 + 1, s + 1):
                            Q = quantization_mechanism(secret, released, interval, allowed=allowed)
                            yield ((tau, d_star, d0, d1, s, interval), measure_sml(Q, secret).value,
                                   prop5_qm_sml_lower_bound(tau, s, interval, d_star, d0, d1),
                                   prop6_qm_sml_limit(s, interval, d_star, d0))


def _assert_nested_branch(taus, d_stars, cases, tight_share):
    checked = tight = 0
    for case, value, lower, limit in _coarse_qm_grid(taus, d_stars):
        assert 0.0 <= lower <= value + EXACT_ATOL <= limit + 2 * EXACT_ATOL, (case, lower, value, limit)
        checked += 1
        tight += abs(lower - value) <= EXACT_ATOL
    assert checked == cases and tight >= tight_share * checked, (checked, tight)


def test_prop5_qm_nested_branch_exact():
    """SML paper, Prop. 5 (QM, m = d* − d̂₀* < I), corrected (docs/errata.md): the exact value of the proof's
    nested-support prior made feasible is at most the exact SML of QM on every case of the grid (τ <= 4,
    d* <= 4, d̂₁* <= 2, s = 2 … τ + 1 levels, every I > m: 488 cases) and equal to it on 484; Prop. 6's
    limit log Σ_k min(I_k, 2^m − 1 + e_k) is above it at every τ."""
    _assert_nested_branch(range(1, 5), (2, 3, 4), 488, 0.99)


#: The full grid of the m < I branch (τ <= 5, d* <= 5): its number of cases, and the share where the corrected
#: bound equals the exact SML (1173 of 1203 when last run; docs/errata.md).
NESTED_FULL_CASES = 1203
NESTED_FULL_TIGHT_SHARE = 0.97


@pytest.mark.slow
def test_prop5_qm_nested_branch_exact_full_grid():
    """As above on τ <= 5, d* <= 5, d̂₁* <= 2, s = 2 … τ + 1, every I > m."""
    _assert_nested_branch(range(1, 6), (2, 3, 4, 5), NESTED_FULL_CASES, NESTED_FULL_TIGHT_SHARE)


def test_prop5_qm_nested_branch_counterexamples_and_scale():
    """The printed m < I branch (and its earlier correction) exceeds the exact SML for a secret coarser
    than τ + 1 levels: τ = 2, d* = 3, d̂₀* = 2, s = 2, I = 2 releases the single histogram (2, 0, 0) —
    exact 0 < 0.099; the corrected bound is 0. With d̂₀* = 1 inputs outside the top bin must put their
    other counts on the missed category, so the SML never exceeds log 3 (s = 4, I = 2, m = 1) while the
    printed bound tends to log 2 + (log 2)² = 1.173 (exceeded from τ = 30 on: τ = 40 below). At App. J's
    scale the corrected bound has no jump between I = 100 and 101."""
    from mechdesign.mechanisms.histogram import _candidates, quantization_mechanism
    from mechdesign.theory.sml import prop6_qm_sml_limit

    def exact(tau, d_star, d0, d1, s, interval):
        inputs, outputs, estimated = _misspecified(tau, d_star, d0, d1)
        secret = category_fraction_secret(inputs, 0, levels=s)
        Q = quantization_mechanism(secret, category_fraction_secret(outputs, 0, levels=s), interval,
                                   allowed=_candidates(inputs, outputs, estimated))
        return measure_sml(Q, secret).value

    assert exact(2, 3, 2, 0, 2, 2) == pytest.approx(0.0, abs=EXACT_ATOL)
    assert prop5_qm_sml_lower_bound(2, 2, 2, 3, 2, 0, as_printed=True) > 0.09
    assert prop5_qm_sml_lower_bound(2, 2, 2, 3, 2, 0) == 0.0
    value = exact(40, 2, 1, 1, 4, 2)
    assert prop6_qm_sml_limit(4, 2, 2, 1) == pytest.approx(math.log(3), abs=1e-15)
    assert value <= math.log(3) + EXACT_ATOL
    assert prop5_qm_sml_lower_bound(40, 4, 2, 2, 1, 1, as_printed=True) > value + 0.01
    assert value - EXACT_ATOL <= prop5_qm_sml_lower_bound(40, 4, 2, 2, 1, 1) <= value + EXACT_ATOL
    # d̂₀* = 1, s = τ + 1: the earlier single-remainder correction (log[3(1 + (n − 1)/(n + 1))] with n = τ − 17 = 3
    # left by the last bin) and the printed bound both exceed the exact SML, which the corrected bound equals.
    inputs, outputs, estimated = _misspecified(20, 2, 1, 1)
    value = measure_sml(histogram_quantization(inputs, 0, 7, outputs, estimated), category_fraction_secret(inputs, 0)).value
    assert prop5_qm_sml_lower_bound(20, 21, 7, 2, 1, 1) == pytest.approx(value, abs=EXACT_ATOL)
    assert math.log(3 * (1 + 2 / 4)) > value + 0.17 and prop5_qm_sml_lower_bound(20, 21, 7, 2, 1, 1, as_printed=True) > value + 0.2
    tau = 5_000_000
    jump = abs(prop5_qm_sml_lower_bound(tau, tau + 1, 100, 100, 95, 40) - prop5_qm_sml_lower_bound(tau, tau + 1, 101, 100, 95, 40))
    assert jump < 0.02


@pytest.mark.parametrize("call, name", [
    (lambda: sml_theory.thm4_rr_qm_distortion_ratio_limit(4, alpha="x"), "alpha"),
    (lambda: sml_theory.thm4_rr_qm_distortion_ratio_limit(4, interval=1), "interval"),
])
def test_text_and_out_of_range_arguments_are_named_errors(call, name):
    # A text alpha raised a bare ValueError from float(); now a MechDesignError naming the argument.
    with pytest.raises(MechDesignError, match=name):
        call()


@pytest.mark.parametrize("call, message", [
    (lambda: sml_theory.appk_inf_leakage([[0.5, 0.5j], [0.25, 0.75]], [0, 1]), "mechanism"),  # never the real part
    (lambda: sml_theory.appk_inf_leakage([[0.5, 0.6], [0.25, 0.75]], [0, 1]), "mechanism"),
    (lambda: sml_theory.appk_inf_leakage([[0.5, 0.5], [0.25, 0.75]], [0]), "secret_values has 1 values"),
    (lambda: sml_theory.prop7_inf_leakage_sharp_bound(-1.0, 2), "mu"),
    (lambda: sml_theory.prop7_inf_leakage_sharp_bound(1.0, 0), "s"),
    (lambda: sml_theory.prop6_qm_sml_limit(4, 5, 3, 2), "interval must be at most s = 4"),
    (lambda: sml_theory.prop6_qm_sml_limit(4, "two", 3, 2), "interval"),
])
def test_new_sml_statements_name_bad_input(call, message):
    with pytest.raises(MechDesignError, match=message):
        call()
