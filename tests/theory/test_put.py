"""Closed forms of the PUT paper (Zhong & Bu, "Privacy-Utility Trade-Off") against the optimizer.

A privacy-distortion function ``ε*(D) = min{ε : D*(ε) <= D}`` is checked through the optimal
distortion ``D*(ε)`` (one solve per point, exact): a claimed value ``ε > 0`` must give
``D*(ε) = D`` while a slightly smaller budget misses D; a claimed 0 must give ``D*(0) <= D``; an
upper bound ``u`` must give ``D*(u) <= D`` and a lower bound ``l > 0`` must give ``D*(l) >= D``.
Exact statements agree to ``CLOSED_FORM_ATOL`` (1e-6). Grids include every breakpoint ``D^(k)``,
``(1−δ)D^(k)`` and both sides of each. Errata are in docs/errata.md, section "PUT (Zhong & Bu)".
"""

import itertools
import math

import numpy as np
import pytest

from mechdesign import (
    ApproximateDifferentialPrivacy,
    DifferentialPrivacy,
    ExpectedDistortion,
    MaximalInformation,
    MaximalLeakage,
    MutualInformationPrivacy,
    Prior,
    RenyiDifferentialPrivacy,
    SibsonMutualInformation,
    SourceSet,
    WorstCaseDistortion,
    design,
)
from mechdesign.exceptions import InvalidBudgetError, MechDesignError
from mechdesign.theory import put
from mechdesign.mechanisms.global_framework import global_q_d, product_mechanism, product_prior
from mechdesign.source_classes import theta_star
from mechdesign.checks.optimum import DistortionOracle, numeric_privacy_distortion
from mechdesign.checks.put import binary_product_search, product_space
from mechdesign.checks.rows import CLOSED_FORM_ATOL

#: How far below a claimed ε* the budget is lowered to check that it no longer reaches D.
BUDGET_STEP = 1e-4
#: Offset of the "both sides of a breakpoint" grid points.
SIDE = 1e-3
DELTAS = [0.05, 0.1, 0.3]
PRIORS = [(0.4, 0.3, 0.2, 0.1), (0.5, 0.3, 0.2), (0.6, 0.4), (0.35, 0.35, 0.2, 0.1), (0.7, 0.1, 0.1, 0.05, 0.05)]


def around(points, upper=1.0, base=(0.02, 0.1, 0.25)):
    """Base distortions plus every point and both sides of it, inside (0, upper]."""
    grid = set(base)
    for p in points:
        grid.update({p - SIDE, p, p + SIDE})
    return sorted(d for d in grid if 0 < d <= upper)


def assert_epsilon_star(oracle, epsilon, D):
    """``epsilon`` is ε*(D): the least budget whose optimal distortion is at most D."""
    if epsilon == 0:
        assert oracle.distortion(0.0) <= D + CLOSED_FORM_ATOL, (D, oracle.distortion(0.0))
        return
    assert oracle.distortion(epsilon) == pytest.approx(D, abs=CLOSED_FORM_ATOL), (epsilon, D)
    if epsilon > BUDGET_STEP:  # a smaller budget must miss D (no flat stretch of D* at level D)
        assert oracle.distortion(epsilon - BUDGET_STEP) > D, (epsilon, D)


def assert_brackets(oracle, bounds, D):
    """``lower <= ε*(D) <= upper``."""
    lower, upper = bounds
    assert lower <= upper + CLOSED_FORM_ATOL, bounds
    assert oracle.distortion(upper) <= D + CLOSED_FORM_ATOL, (bounds, D, oracle.distortion(upper))
    if lower > 0:
        assert oracle.distortion(lower) >= D - CLOSED_FORM_ATOL, (bounds, D, oracle.distortion(lower))


# ------------------------------------------------------------------------------------------------
# Proposition 8 — local framework, Class I
# ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("m", [2, 3, 5, 8])
def test_prop8_1_dp(m):
    """PUT Prop. 8(1): ε*_DP = log((m−1)(1−D)/D) below (m−1)/m, 0 from there on."""
    oracle = DistortionOracle(DifferentialPrivacy(), ExpectedDistortion(Prior.uniform(m)))
    for D in around([put.lemma5_zero_threshold(m)]):
        assert_epsilon_star(oracle, put.prop8_dp_privacy(m, D), D)


@pytest.mark.parametrize("m", [2, 3, 5])
@pytest.mark.parametrize("delta", DELTAS)
def test_prop8_2_approx_dp(m, delta):
    """PUT Prop. 8(2): ε*_δ = log((m−1)(1−D−δ)/D) below (1−δ)(m−1)/m, else 0; and its inverse."""
    oracle = DistortionOracle(ApproximateDifferentialPrivacy(delta), ExpectedDistortion(Prior.uniform(m)))
    for D in around([(1 - delta) * put.lemma5_zero_threshold(m), put.lemma5_zero_threshold(m)]):
        assert_epsilon_star(oracle, put.prop8_approx_dp_privacy(m, D, delta), D)
    for eps in [0.0, 0.3, 1.0, 2.5]:
        assert oracle.distortion(eps) == pytest.approx(put.prop8_approx_dp_distortion(m, eps, delta), abs=CLOSED_FORM_ATOL)


@pytest.mark.parametrize("m", [2, 3, 5, 8])
def test_prop8_4_maximal_leakage(m):
    """PUT Prop. 8(4): ε*_ML = log(m(1−D)); D*_ML(ε) = 1 − e^ε/m, including ε = log m ± 1e-3."""
    oracle = DistortionOracle(MaximalLeakage(), ExpectedDistortion(Prior.uniform(m)))
    for D in around([put.lemma5_zero_threshold(m)]):
        assert_epsilon_star(oracle, put.prop8_maximal_leakage_privacy(m, D), D)
    for eps in [0.0, 0.5, math.log(m) - SIDE, math.log(m), math.log(m) + SIDE, 3.0]:
        assert oracle.distortion(eps) == pytest.approx(put.prop8_maximal_leakage_distortion(m, eps), abs=CLOSED_FORM_ATOL)


@pytest.mark.parametrize("m", [2, 3, 5])
def test_prop8_1_dp_inverse(m):
    """PUT Prop. 8(1) read as D*_DP(ε) = (m−1)/(e^ε + m − 1) (randomized response)."""
    oracle = DistortionOracle(DifferentialPrivacy(), ExpectedDistortion(Prior.uniform(m)))
    for eps in [0.0, 0.1, 1.0, 3.0]:
        assert oracle.distortion(eps) == pytest.approx(put.prop8_dp_distortion(m, eps), abs=CLOSED_FORM_ATOL)


@pytest.mark.parametrize("m", [2, 3, 4])
def test_prop8_7_mutual_information(m):
    """PUT Prop. 8(7): ε*_M = log(m(1−D)(D/((m−1)(1−D)))^D), the rate-distortion function."""
    prior = Prior.uniform(m)
    oracle = DistortionOracle(MutualInformationPrivacy(prior), ExpectedDistortion(prior))
    for D in around([put.lemma5_zero_threshold(m)], base=(0.05, 0.25)):
        assert_epsilon_star(oracle, put.prop8_mutual_information_privacy(m, D), D)


def test_prop8_class_one_source_set_with_several_priors():
    """PUT Prop. 8(1), (2), (4) hold for a Class I set that is not a singleton (worst-case distortion)."""
    source = SourceSet([[0.5, 0.25, 0.25], [0.25, 0.5, 0.25], [0.25, 0.25, 0.5]])
    objective = WorstCaseDistortion(source)
    cases = [(DifferentialPrivacy(), lambda D: put.prop8_dp_privacy(3, D)),
             (ApproximateDifferentialPrivacy(0.1), lambda D: put.prop8_approx_dp_privacy(3, D, 0.1)),
             (MaximalLeakage(), lambda D: put.prop8_maximal_leakage_privacy(3, D))]
    for notion, closed in cases:
        oracle = DistortionOracle(notion, objective)
        for D in around([0.6, 2 / 3]):
            assert_epsilon_star(oracle, closed(D), D)


CLASS_ONE_SETS = {
    "uniform": lambda m: SourceSet.singleton(Prior.uniform(m)),
    "simplex": SourceSet.simplex,
    "ring": lambda m: SourceSet(np.roll(np.eye(m) * 0.3 + 0.7 / m, 1, axis=0)),
}


@pytest.mark.parametrize("m", [2, 3, 4])
@pytest.mark.parametrize("kind", sorted(CLASS_ONE_SETS))
def test_prop8_3_maximal_information(m, kind):
    """PUT Prop. 8(3): log(m(1−D)) <= ε*_MI(𝒫, D) <= log((1−D)/(P*(1−D−D/(m−1)) + D/(m−1)))."""
    source = CLASS_ONE_SETS[kind](m)
    oracle = DistortionOracle(MaximalInformation(source), WorstCaseDistortion(source))
    for D in around([put.lemma5_zero_threshold(m)]):
        assert_brackets(oracle, put.prop8_maximal_information_privacy_bounds(m, D, source), D)


@pytest.mark.parametrize("m", [2, 3, 5])
@pytest.mark.parametrize("alpha", [1.5, 2.0, 4.0])
def test_prop8_5_renyi_dp(m, alpha):
    """PUT Prop. 8(5): log((m−1)(1−D)^{α/(α−1)}/D) <= ε*_{α,DP} <= ε_{α,DP}(Q_D), prior-free."""
    oracle = DistortionOracle(RenyiDifferentialPrivacy(alpha), ExpectedDistortion(Prior.uniform(m)))
    # Budgets above about 2.5 nats at α = 4 leave Clarabel "optimal_inaccurate" and suboptimal.
    for D in around([put.lemma5_zero_threshold(m)], base=(0.15, 0.3) if alpha <= 2 else (0.3,)):
        assert_brackets(oracle, put.prop8_renyi_dp_privacy_bounds(m, D, alpha), D)


@pytest.mark.parametrize("m", [2, 3])
@pytest.mark.parametrize("alpha", [1.5, 2.0, 4.0])
@pytest.mark.parametrize("kind", ["uniform", "simplex"])
def test_prop8_6_sibson(m, alpha, kind):
    """PUT Prop. 8(6): max{ε*_M, log(m(1−D)^{α/(α−1)})} <= ε*_{α,M} <= log(m((1−D)^α + D^α(m−1)^{1−α})^{1/(α−1)})."""
    source = CLASS_ONE_SETS[kind](m)
    oracle = DistortionOracle(SibsonMutualInformation(alpha, source), WorstCaseDistortion(source))
    for D in around([put.lemma5_zero_threshold(m)]):
        assert_brackets(oracle, put.prop8_sibson_privacy_bounds(m, D, alpha), D)


@pytest.mark.parametrize("m", [2, 3])
def test_prop8_7_mutual_information_without_prior_knowledge(m):
    """PUT Prop. 8(7) over the whole simplex (MI = worst case over priors, distortion for every prior)."""
    source = SourceSet.simplex(m)
    oracle = DistortionOracle(MutualInformationPrivacy(source), WorstCaseDistortion(source))
    for D in around([put.lemma5_zero_threshold(m)], base=(0.05, 0.25)):
        assert_epsilon_star(oracle, put.prop8_mutual_information_privacy(m, D), D)


# ------------------------------------------------------------------------------------------------
# Theorems 9, 13, 14, Lemma 10 — known prior
# ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("prior", PRIORS)
def test_theorem13_dp(prior):
    """PUT Thm 13: ε*_DP(P, D) = max{0, min_{D > D^(k−1)} log((m−k)(1−D)/(D − D^(k−1)))}."""
    oracle = DistortionOracle(DifferentialPrivacy(), ExpectedDistortion(Prior(prior)))
    for D in around(put.thm9_breakpoints(prior)[1:-1]):
        assert_epsilon_star(oracle, put.thm13_dp_privacy(prior, D), D)


@pytest.mark.parametrize("prior", PRIORS)
@pytest.mark.parametrize("delta", DELTAS)
def test_theorem9_approx_dp(prior, delta):
    """PUT Thm 9 at every (1−δ)D^(k) and D^(k), both sides of each."""
    levels = put.thm9_breakpoints(prior)[1:-1]
    oracle = DistortionOracle(ApproximateDifferentialPrivacy(delta), ExpectedDistortion(Prior(prior)))
    for D in around(np.concatenate([(1 - delta) * levels, levels])):
        assert_epsilon_star(oracle, put.thm9_approx_dp_privacy(prior, D, delta), D)


def test_theorem9_proof_summary_is_refuted():
    """Erratum: the proof's summary restricts the minimum to j <= k−1 on [(1−δ)D^(k−1), (1−δ)D^(k)).

    At P = (0.5, 0.3, 0.2), δ = 0.1, D = 0.4 (k = 2) it gives log(2·0.5/0.4) = log 2.5, but a smaller
    budget (the statement's j = 2 term, 0.8210) already reaches D = 0.4.
    """
    prior, delta, D = (0.5, 0.3, 0.2), 0.1, 0.4
    summary_value = math.log(2 * (1 - D - delta) / D)
    stated = put.thm9_approx_dp_privacy(prior, D, delta)
    assert stated == pytest.approx(math.log((3 - 2) * (1 - D - delta) / (D - 0.9 * 0.2)))
    assert stated < summary_value - 0.09
    oracle = DistortionOracle(ApproximateDifferentialPrivacy(delta), ExpectedDistortion(Prior(prior)))
    assert oracle.distortion(stated) == pytest.approx(D, abs=CLOSED_FORM_ATOL)


@pytest.mark.parametrize("prior", PRIORS)
@pytest.mark.parametrize("delta", [0.0, 0.1, 0.3])
def test_lemma10_zero_threshold(prior, delta):
    """PUT Lemma 10: ε*_δ(P, D) = 0 iff D >= (1−δ)D^(m−1), i.e. D*_δ(0) = (1−δ)(1 − P_1)."""
    notion = ApproximateDifferentialPrivacy(delta) if delta else DifferentialPrivacy()
    result = design(notion, 0.0, ExpectedDistortion(Prior(prior)))
    assert result.objective == pytest.approx(put.lemma10_zero_threshold(prior, delta), abs=CLOSED_FORM_ATOL)


def test_theorem9_jumps_at_the_lemma10_threshold():
    """ε*_δ(P, ·) is discontinuous at (1−δ)D^(m−1): 0 there, log(P_1/P_2) just below (D* is flat)."""
    prior, delta = (0.6, 0.4), 0.1
    threshold = put.lemma10_zero_threshold(prior, delta)
    assert put.thm9_approx_dp_privacy(prior, threshold, delta) == 0.0
    assert put.thm9_approx_dp_privacy(prior, threshold - 1e-9, delta) == pytest.approx(math.log(1.5), abs=1e-7)
    oracle = DistortionOracle(ApproximateDifferentialPrivacy(delta), ExpectedDistortion(Prior(prior)))
    assert oracle.distortion(0.5 * math.log(1.5)) == pytest.approx(threshold, abs=CLOSED_FORM_ATOL)


@pytest.mark.parametrize("prior", PRIORS)
def test_theorem14_maximal_leakage(prior):
    """PUT Thm 14: e^{ε*_ML} interpolates linearly between m−k+1 at D^(k−1) and m−k at D^(k)."""
    oracle = DistortionOracle(MaximalLeakage(), ExpectedDistortion(Prior(prior)))
    for D in around(put.thm9_breakpoints(prior)[1:-1]):
        assert_epsilon_star(oracle, put.thm14_maximal_leakage_privacy(prior, D), D)


def test_unsorted_prior_is_relabelled():
    """ε* does not depend on the labels: an unsorted prior gives the sorted prior's value."""
    assert put.thm9_approx_dp_privacy((0.1, 0.4, 0.2, 0.3), 0.2, 0.1) == put.thm9_approx_dp_privacy((0.4, 0.3, 0.2, 0.1), 0.2, 0.1)
    assert put.thm14_maximal_leakage_privacy((0.2, 0.5, 0.3), 0.3) == put.thm14_maximal_leakage_privacy((0.5, 0.3, 0.2), 0.3)


# ------------------------------------------------------------------------------------------------
# Proposition 12, Corollary 15 — Class II source sets
# ------------------------------------------------------------------------------------------------
CLASS_TWO = [
    [(0.4, 0.3, 0.2, 0.1), (0.5, 0.3, 0.1, 0.1)],
    [(0.6, 0.3, 0.1), (0.4, 0.35, 0.25)],
    [(0.5, 0.2, 0.2, 0.1), (0.4, 0.3, 0.2, 0.1), (0.7, 0.1, 0.1, 0.1)],
]


def check_prop12(source, delta):
    notion = ApproximateDifferentialPrivacy(delta) if delta else DifferentialPrivacy()
    oracle = DistortionOracle(notion, WorstCaseDistortion(SourceSet(source)))
    breaks = sorted({float(b) for p in source for b in (1 - delta) * put.thm9_breakpoints(p)[1:-1]})
    for D in around(breaks):
        assert_epsilon_star(oracle, put.prop12_approx_dp_privacy(source, D, delta), D)


@pytest.mark.parametrize("source", CLASS_TWO[:2])
def test_prop12_approx_dp_class_two(source):
    """PUT Prop. 12 (the LP it states, minimized over α₁) against the worst-case-distortion design."""
    check_prop12(source, 0.1)


@pytest.mark.slow
@pytest.mark.parametrize("source", CLASS_TWO)
@pytest.mark.parametrize("delta", [0.0, 0.3])
def test_prop12_more_sets_and_deltas(source, delta):
    """PUT Prop. 12 with δ = 0 (DP) and δ = 0.3, on three Class II sets."""
    check_prop12(source, delta)


@pytest.mark.parametrize("prior", PRIORS[:3])
def test_prop12_singleton_equals_theorem9(prior):
    for D in [0.03, 0.1, 0.2, 0.3]:
        assert put.prop12_approx_dp_privacy([prior], D, 0.1) == pytest.approx(put.thm9_approx_dp_privacy(prior, D, 0.1), abs=CLOSED_FORM_ATOL)


@pytest.mark.parametrize("source", CLASS_TWO)
def test_cor15_maximal_leakage_class_two(source):
    """PUT Cor. 15: D*_ML(𝒫, ε) = max_P D*_ML(P, ε), at ε = log k and both sides."""
    oracle = DistortionOracle(MaximalLeakage(), WorstCaseDistortion(SourceSet(source)))
    m = len(source[0])
    budgets = sorted({max(0.0, math.log(k) + s) for k in range(1, m + 1) for s in (-SIDE, 0.0, SIDE)} | {0.5, 1.0})
    for eps in budgets:
        assert oracle.distortion(eps) == pytest.approx(put.cor15_maximal_leakage_distortion(source, eps), abs=CLOSED_FORM_ATOL)


def test_cor15_single_prior_inverts_theorem14():
    prior = (0.4, 0.3, 0.2, 0.1)
    for D in [0.05, 0.1, 0.15, 0.3, 0.45]:
        assert put.cor15_maximal_leakage_distortion([prior], put.thm14_maximal_leakage_privacy(prior, D)) == pytest.approx(D, abs=1e-12)


# ------------------------------------------------------------------------------------------------
# Section III — global framework on {1..m}^n
# ------------------------------------------------------------------------------------------------
GLOBAL_SIZES = [(2, 2), (3, 2), (2, 3)]


def global_grid(m, n):
    return around([put.lemma5_zero_threshold(m, n)], upper=n, base=(0.1, 0.3, 0.6, 0.9))


@pytest.mark.parametrize("m, n", GLOBAL_SIZES)
def test_theorem7_dp_and_approx_dp(m, n):
    """PUT Thm 7(1) (exact) and 7(2) (bounds, δ = 0.05, 0.1) at the uniform prior on {1..m}^n."""
    distances, adjacency = product_space(m, n)
    objective = ExpectedDistortion(Prior.uniform(m**n), cost=distances)
    oracle = DistortionOracle(DifferentialPrivacy(adjacency), objective)
    for D in global_grid(m, n):
        assert_epsilon_star(oracle, put.thm7_dp_privacy(m, n, D), D)
    for delta in [0.05, 0.1]:
        oracle = DistortionOracle(ApproximateDifferentialPrivacy(delta, neighbours=adjacency), objective)
        for D in global_grid(m, n):
            assert_brackets(oracle, put.thm7_approx_dp_privacy_bounds(m, n, D, delta), D)


@pytest.mark.parametrize("m, n", GLOBAL_SIZES)
def test_theorem7_maximal_leakage_and_mutual_information(m, n):
    """PUT Thm 7(4) (bounds) and 7(7) (exact) at the uniform prior on {1..m}^n."""
    distances, _ = product_space(m, n)
    prior = Prior.uniform(m**n)
    objective = ExpectedDistortion(prior, cost=distances)
    leakage = DistortionOracle(MaximalLeakage(), objective)
    information = DistortionOracle(MutualInformationPrivacy(prior), objective)
    for D in global_grid(m, n):
        assert_brackets(leakage, put.thm7_maximal_leakage_privacy_bounds(m, n, D), D)
        assert_epsilon_star(information, put.thm7_mutual_information_privacy(m, n, D), D)


THEOREM6_PRIORS = [((0.6, 0.4), 2), ((0.5, 0.3, 0.2), 2), ((0.7, 0.3), 3)]


@pytest.mark.parametrize("single, n", THEOREM6_PRIORS)
def test_theorem6_bounds_at_a_non_uniform_prior(single, n):
    """PUT Thm 6(1), (2), (4), (7) for the singleton {P^{⊗n}}: θ* = m^n min P, η = max P."""
    m = len(single)
    prior = product_prior(single, n)
    star = theta_star(prior)
    theta, eta = star.theta, star.eta
    distances, adjacency = product_space(m, n)
    objective = ExpectedDistortion(prior, cost=distances)
    oracles = {
        "dp": DistortionOracle(DifferentialPrivacy(adjacency), objective),
        "adp": DistortionOracle(ApproximateDifferentialPrivacy(0.05, neighbours=adjacency), objective),
        "ml": DistortionOracle(MaximalLeakage(), objective),
        "mi": DistortionOracle(MutualInformationPrivacy(prior), objective),
    }
    for D in around([put.lemma5_zero_threshold(m, n), theta * n * (m - 1) / m], upper=n, base=(0.1, 0.4, 0.8)):
        assert_brackets(oracles["dp"], put.thm6_dp_privacy_bounds(m, n, D, theta), D)
        assert_brackets(oracles["adp"], put.thm6_approx_dp_privacy_bounds(m, n, D, 0.05, theta), D)
        assert_brackets(oracles["ml"], put.thm6_maximal_leakage_privacy_bounds(m, n, D, theta), D)
        assert_brackets(oracles["mi"], put.thm6_mutual_information_privacy_bounds(m, n, D, theta, eta), D)


def test_theorem6_bounds_over_a_two_prior_source_set():
    """PUT Thm 6(1), (2), (4), (7) over conv{P₁^{⊗2}, P₂^{⊗2}} (θ* and η from the hull's LPs)."""
    m, n = 2, 2
    source = SourceSet([product_prior((0.7, 0.3), n).probabilities, product_prior((0.45, 0.55), n).probabilities])
    star = theta_star(source)
    assert 0 < star.theta < 1
    distances, adjacency = product_space(m, n)
    objective = WorstCaseDistortion(source, cost=distances)
    oracles = [(DistortionOracle(DifferentialPrivacy(adjacency), objective), lambda D: put.thm6_dp_privacy_bounds(m, n, D, star.theta)),
               (DistortionOracle(ApproximateDifferentialPrivacy(0.05, neighbours=adjacency), objective),
                lambda D: put.thm6_approx_dp_privacy_bounds(m, n, D, 0.05, star.theta)),
               (DistortionOracle(MaximalLeakage(), objective), lambda D: put.thm6_maximal_leakage_privacy_bounds(m, n, D, star.theta)),
               (DistortionOracle(MutualInformationPrivacy(source), objective),
                lambda D: put.thm6_mutual_information_privacy_bounds(m, n, D, star.theta, star.eta))]
    for D in around([put.lemma5_zero_threshold(m, n)], upper=n, base=(0.1, 0.4, 0.8)):
        for oracle, bounds in oracles:
            assert_brackets(oracle, bounds(D), D)


@pytest.mark.parametrize("m, n", [(2, 2), (3, 2)])
def test_theorem7_renyi_sibson_maximal_information(m, n):
    """PUT Thm 7(3), (5), (6) (α = 2) at the uniform prior on {1..m}^n."""
    distances, adjacency = product_space(m, n)
    prior = Prior.uniform(m**n)
    objective = ExpectedDistortion(prior, cost=distances)
    renyi = DistortionOracle(RenyiDifferentialPrivacy(2.0, neighbours=adjacency), objective)
    sibson = DistortionOracle(SibsonMutualInformation(2.0, prior), objective)
    information = DistortionOracle(MaximalInformation(prior), objective)
    for D in global_grid(m, n):
        assert_brackets(renyi, put.thm7_renyi_dp_privacy_bounds(m, n, D, 2.0), D)
        assert_brackets(sibson, put.thm7_sibson_privacy_bounds(m, n, D, 2.0), D)
        assert_brackets(information, put.thm7_maximal_information_privacy_bounds(m, n, D, prior), D)


@pytest.mark.parametrize("single, n", THEOREM6_PRIORS[:2])
def test_theorem6_renyi_sibson_maximal_information_at_a_non_uniform_prior(single, n):
    """PUT Thm 6(3), (5), (6) (α = 2) for the singleton {P^{⊗n}}."""
    m = len(single)
    prior = product_prior(single, n)
    theta = theta_star(prior).theta
    distances, adjacency = product_space(m, n)
    objective = ExpectedDistortion(prior, cost=distances)
    renyi = DistortionOracle(RenyiDifferentialPrivacy(2.0, neighbours=adjacency), objective)
    sibson = DistortionOracle(SibsonMutualInformation(2.0, prior), objective)
    information = DistortionOracle(MaximalInformation(prior), objective)
    for D in around([put.lemma5_zero_threshold(m, n)], upper=n, base=(0.1, 0.4, 0.8)):
        assert_brackets(renyi, put.thm6_renyi_dp_privacy_bounds(m, n, D, 2.0, theta), D)
        assert_brackets(sibson, put.thm6_sibson_privacy_bounds(m, n, D, 2.0, theta), D)
        assert_brackets(information, put.thm6_maximal_information_privacy_bounds(m, n, D, theta, prior), D)


@pytest.mark.parametrize("m, n", [(2, 1), (3, 1), (2, 2), (3, 2), (2, 3)])
def test_qd_closed_forms_are_the_measured_losses_of_qd(m, n):
    """PUT Lemma 5(3) / Thm 6 upper bounds: each ε̃(Q_D) formula is Q_D's measured privacy loss."""
    distances, adjacency = product_space(m, n)
    prior = Prior.uniform(m**n)
    for D in [0.1, 0.4, 0.8 * put.lemma5_zero_threshold(m, n)]:
        Q = global_q_d(m, n, D)
        assert ExpectedDistortion(prior, cost=distances).value(Q) == pytest.approx(D, abs=1e-12)
        assert DifferentialPrivacy(adjacency).measure(Q) == pytest.approx(put.thm7_dp_privacy(m, n, D), abs=1e-9)
        assert ApproximateDifferentialPrivacy(0.01, neighbours=adjacency).measure(Q) == pytest.approx(
            put.thm7_approx_dp_privacy_bounds(m, n, D, 0.01)[1], abs=1e-9)
        assert MaximalLeakage().measure(Q) == pytest.approx(put.thm7_maximal_leakage_privacy_bounds(m, n, D)[1], abs=1e-9)
        assert MutualInformationPrivacy(prior).measure(Q) == pytest.approx(put.thm6_qd_mutual_information(m, n, D), abs=1e-9)
        for alpha in [1.5, 2.0, 5.0]:
            assert RenyiDifferentialPrivacy(alpha, neighbours=adjacency).measure(Q) == pytest.approx(
                put.thm6_qd_renyi_dp(m, n, D, alpha), abs=1e-9)
            assert SibsonMutualInformation(alpha, prior).measure(Q) == pytest.approx(put.thm6_qd_sibson(m, n, D, alpha), abs=1e-9)
        skewed = product_prior(np.linspace(1, 2, m) / np.linspace(1, 2, m).sum(), n)
        for source in [prior, skewed, SourceSet([prior.probabilities, skewed.probabilities])]:
            assert MaximalInformation(source).measure(Q) == pytest.approx(put.thm6_qd_maximal_information(m, n, D, source), abs=1e-9)


def test_lemma5_monotone_in_the_source_set_and_uniform_mechanism():
    """PUT Lemma 5(1): ε*(𝒫, D) >= ε*(P, D) for P ∈ 𝒫; 5(2): D*(𝒫, 0) <= n(m−1)/m (Q_U)."""
    source = SourceSet([(0.4, 0.3, 0.2, 0.1), (0.1, 0.2, 0.3, 0.4)])
    for notion in [DifferentialPrivacy(), MaximalLeakage()]:
        whole = DistortionOracle(notion, WorstCaseDistortion(source))
        for eps in [0.0, 0.5, 1.5]:
            assert whole.distortion(eps) <= put.lemma5_zero_threshold(4) + CLOSED_FORM_ATOL
            for prior in source:
                single = DistortionOracle(notion, ExpectedDistortion(prior))
                assert whole.distortion(eps) >= single.distortion(eps) - CLOSED_FORM_ATOL


# ------------------------------------------------------------------------------------------------
# Section IV-D — parallel composition: Lemma 16, Theorems 17 and 18
# ------------------------------------------------------------------------------------------------
def random_mechanism(rng, m):
    Q = rng.uniform(0.05, 1.0, size=(m, m))
    return Q / Q.sum(axis=1, keepdims=True)


@pytest.mark.parametrize("m, n", [(2, 2), (3, 2), (2, 3)])
def test_lemma16_product_measures(m, n):
    """PUT Lemma 16: DP(Q^{⊗n}) = DP(Q); ML and MI are additive; approx DP uses δ/Q_*^{n−1}."""
    rng = np.random.default_rng(16 + 10 * m + n)
    _, adjacency = product_space(m, n)
    single_prior = rng.dirichlet(np.ones(m))
    for _ in range(5):
        Q = random_mechanism(rng, m)
        big = product_mechanism(Q, n)
        assert DifferentialPrivacy(adjacency).measure(big) == pytest.approx(
            put.lemma16_product_privacy(DifferentialPrivacy(), n, DifferentialPrivacy().measure(Q)), abs=1e-9)
        assert MaximalLeakage().measure(big) == pytest.approx(
            put.lemma16_product_privacy(MaximalLeakage(), n, MaximalLeakage().measure(Q)), abs=1e-9)
        assert MutualInformationPrivacy(product_prior(single_prior, n)).measure(big) == pytest.approx(
            put.lemma16_product_privacy(MutualInformationPrivacy(single_prior), n, MutualInformationPrivacy(single_prior).measure(Q)),
            abs=1e-9)
        for alpha in [1.5, 3.0]:
            assert RenyiDifferentialPrivacy(alpha, neighbours=adjacency).measure(big) == pytest.approx(
                put.lemma16_product_privacy(RenyiDifferentialPrivacy(alpha), n, RenyiDifferentialPrivacy(alpha).measure(Q)), abs=1e-9)
            assert SibsonMutualInformation(alpha, product_prior(single_prior, n)).measure(big) == pytest.approx(
                put.lemma16_product_privacy(SibsonMutualInformation(alpha, single_prior), n, SibsonMutualInformation(alpha, single_prior).measure(Q)), abs=1e-9)
        assert MaximalInformation(product_prior(single_prior, n)).measure(big) == pytest.approx(
            put.lemma16_product_privacy(MaximalInformation(single_prior), n, MaximalInformation(single_prior).measure(Q)), abs=1e-9)
        delta = 0.02
        product_loss = ApproximateDifferentialPrivacy(delta, neighbours=adjacency).measure(big)
        widened = delta / Q.max() ** (n - 1)
        assert product_loss == pytest.approx(ApproximateDifferentialPrivacy(widened).measure(Q), abs=1e-9)
        assert ApproximateDifferentialPrivacy(min(delta * m ** (n - 1), 0.999)).measure(Q) - 1e-12 <= product_loss
        assert product_loss <= ApproximateDifferentialPrivacy(delta).measure(Q) + 1e-12


@pytest.mark.parametrize("m, n", [(2, 2), (3, 2), (2, 3)])
def test_theorem17_attained_by_products_of_single_letter_optima(m, n):
    """PUT Thm 17(1), (4), (7): the product of the optimal single-letter mechanism at D/n has
    distortion D and exactly the stated loss (optimality over products follows from Lemma 16)."""
    distances, adjacency = product_space(m, n)
    prior = Prior.uniform(m**n)
    cases = [(DifferentialPrivacy(), DifferentialPrivacy(adjacency), put.thm17_dp_privacy, put.prop8_dp_privacy),
             (MaximalLeakage(), MaximalLeakage(), put.thm17_maximal_leakage_privacy, put.prop8_maximal_leakage_privacy),
             (MutualInformationPrivacy(Prior.uniform(m)), MutualInformationPrivacy(prior),
              put.thm17_mutual_information_privacy, put.prop8_mutual_information_privacy)]
    for D in [0.1, 0.3 * n, 0.9 * put.lemma5_zero_threshold(m, n)]:
        for single_notion, product_notion, closed, single_closed in cases:
            result = design(single_notion, single_closed(m, D / n), ExpectedDistortion(Prior.uniform(m)))
            big = product_mechanism(result.mechanism.matrix, n)
            assert ExpectedDistortion(prior, cost=distances).value(big) == pytest.approx(D, abs=CLOSED_FORM_ATOL)
            assert product_notion.measure(big) == pytest.approx(closed(m, n, D), abs=CLOSED_FORM_ATOL)


def test_theorem18_1_printed_equality_fails_and_bracket_holds():
    """Erratum, PUT Thm 18(1): ε̂*_δ(P, nD) is not Theorem 9's ε*_δ(P, D).

    P = (0.6, 0.4), n = 2, δ = 0.1, D = 0.1 per letter: Theorem 9 gives log 8 = 2.0794, but the
    product of Q = [[0.9, 0.1], [0.1, 0.9]] has per-letter distortion 0.1 and ε̂_δ = log(7.888…)
    = 2.0655 (the other coordinate divides δ by Q_* = 0.9). The optimum lies in the corrected bracket.
    """
    P, n, delta, D = (0.6, 0.4), 2, 0.1, 0.1
    printed = put.thm9_approx_dp_privacy(P, D, delta)
    assert printed == pytest.approx(math.log(8))
    _, adjacency = product_space(2, n)
    witness = product_mechanism([[0.9, 0.1], [0.1, 0.9]], n)
    loss = ApproximateDifferentialPrivacy(delta, neighbours=adjacency).measure(witness)
    assert loss == pytest.approx(math.log((0.9 - 0.1 / 0.9) / 0.1), abs=1e-12)
    assert loss < printed - 0.01
    for per_letter in [0.1, 0.2, 0.3]:
        lower, upper = put.thm18_approx_dp_privacy_bounds(P, n, per_letter, delta)
        brute = binary_product_search(P, n, per_letter, delta)
        assert lower - CLOSED_FORM_ATOL <= brute <= upper + CLOSED_FORM_ATOL


@pytest.mark.parametrize("prior", PRIORS[:3])
def test_theorem18_2_maximal_leakage_products(prior):
    """PUT Thm 18(2): the product of the Theorem-14 optimum has distortion nD and leakage n ε*_ML(P, D)."""
    m, n = len(prior), 2
    distances, _ = product_space(m, n)
    for D in [0.05, 0.2, 0.35]:
        result = design(MaximalLeakage(), put.thm14_maximal_leakage_privacy(prior, D), ExpectedDistortion(Prior(prior)))
        big = product_mechanism(result.mechanism.matrix, n)
        assert ExpectedDistortion(product_prior(prior, n), cost=distances).value(big) == pytest.approx(n * D, abs=CLOSED_FORM_ATOL)
        assert MaximalLeakage().measure(big) == pytest.approx(put.thm18_maximal_leakage_privacy(prior, n, D), abs=CLOSED_FORM_ATOL)


def test_theorem17_2_bracket_for_products():
    """PUT Thm 17(2): over binary product mechanisms the optimum lies in the stated bounds."""
    n, delta = 2, 0.05
    for D in [0.2, 0.5, 0.8]:
        lower, upper = put.thm17_approx_dp_privacy_bounds(2, n, D, delta)
        brute = binary_product_search((0.5, 0.5), n, D / n, delta, points=1001)
        assert lower - CLOSED_FORM_ATOL <= brute <= upper + CLOSED_FORM_ATOL


@pytest.mark.parametrize("m, n", [(2, 2), (3, 2)])
def test_theorem17_bounds_bracket_the_product_optimum(m, n):
    """PUT Thm 17(3), (5), (6): by Lemma 16 the optimum over products is the single-letter optimum at
    D/n (scaled by n for the additive notions); the stated bounds bracket it."""
    uniform = Prior.uniform(m)
    cases = [(MaximalInformation(uniform), lambda D: put.thm17_maximal_information_privacy_bounds(m, n, D, uniform)),
             (RenyiDifferentialPrivacy(2.0), lambda D: put.thm17_renyi_dp_privacy_bounds(m, n, D, 2.0)),
             (SibsonMutualInformation(2.0, uniform), lambda D: put.thm17_sibson_privacy_bounds(m, n, D, 2.0))]
    distortions = [0.1, 0.4, 0.9 * put.lemma5_zero_threshold(m, n)]
    for notion, bounds in cases:
        single_letter = numeric_privacy_distortion(notion, ExpectedDistortion(uniform), [D / n for D in distortions])
        for D, value in zip(distortions, single_letter):
            optimum = put.lemma16_product_privacy(notion, n, value)
            lower, upper = bounds(D)
            assert lower - CLOSED_FORM_ATOL <= optimum <= upper + CLOSED_FORM_ATOL, (notion, D, lower, optimum, upper)


def test_theorem17_renyi_lower_bound_has_its_log():
    """Erratum, PUT Thm 17(5): the printed lower bound lacks a log; it is Prop. 8(5) at D/n."""
    m, n, D, alpha = 2, 2, 0.4, 2.0
    lower, _ = put.thm17_renyi_dp_privacy_bounds(m, n, D, alpha)
    assert lower == pytest.approx(math.log(n * (m - 1) * (1 - D / n) ** (alpha / (alpha - 1)) / D))


# ------------------------------------------------------------------------------------------------
# Bounds that need no optimizer: ordering and limits
# ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("m, n", [(2, 1), (3, 1), (2, 2), (3, 2)])
def test_bounds_are_ordered(m, n):
    for D in np.linspace(0.05, n, 12):
        for bounds in [put.thm7_approx_dp_privacy_bounds(m, n, D, 0.01), put.thm7_maximal_leakage_privacy_bounds(m, n, D),
                       put.thm7_renyi_dp_privacy_bounds(m, n, D, 2.0), put.thm7_sibson_privacy_bounds(m, n, D, 2.0),
                       put.thm6_dp_privacy_bounds(m, n, D, 0.8), put.thm6_renyi_dp_privacy_bounds(m, n, D, 3.0, 0.8)]:
            assert bounds[0] <= bounds[1] + 1e-12, (m, n, D, bounds)


def test_renyi_upper_bound_tends_to_dp_as_alpha_grows():
    """PUT Thm 6 proof 1.3: ε_{α,DP}(Q_D) → ε_DP(Q_D) as α → ∞ (Lemma 20(5))."""
    for m, n, D in [(2, 1, 0.2), (3, 2, 0.5)]:
        assert put.thm6_qd_renyi_dp(m, n, D, 400.0) == pytest.approx(put.thm7_dp_privacy(m, n, D), abs=2e-2)


def test_sibson_upper_bound_limits():
    """PUT Thm 6 proof 1.4/1.5: ε_{α,M}(Q_D) → ε_M(Q_D) as α → 1 and → n log(m(1−D/n)) as α → ∞."""
    for m, n, D in [(2, 1, 0.2), (3, 2, 0.5), (2, 3, 0.7)]:
        assert put.thm6_qd_sibson(m, n, D, 1 + 1e-7) == pytest.approx(put.thm6_qd_mutual_information(m, n, D), abs=1e-5)
        assert put.thm6_qd_sibson(m, n, D, 2000.0) == pytest.approx(put.thm7_maximal_leakage_privacy_bounds(m, n, D)[1], abs=1e-2)


def test_maximal_information_bounds_coincide_at_the_uniform_singleton():
    """PUT Prop. 8(3): with P* = 1/m both bounds are log(m(1−D))."""
    for m in [2, 3, 5]:
        for D in [0.1, 0.3]:
            lower, upper = put.prop8_maximal_information_privacy_bounds(m, D, Prior.uniform(m))
            assert lower == pytest.approx(upper, abs=1e-12) == pytest.approx(math.log(m * (1 - D)))


# ------------------------------------------------------------------------------------------------
# Domains
# ------------------------------------------------------------------------------------------------
def test_domain_errors():
    with pytest.raises(MechDesignError, match="0 < D <= 1"):
        put.prop8_dp_privacy(3, 0.0)
    with pytest.raises(MechDesignError, match="0 < D <= 1"):
        put.prop8_maximal_leakage_privacy(3, 1.5)
    with pytest.raises(MechDesignError, match="0 < D <= n = 2"):
        put.thm7_dp_privacy(2, 2, 2.5)
    with pytest.raises(MechDesignError, match="at least 2"):
        put.prop8_dp_distortion(1, 1.0)
    with pytest.raises(InvalidBudgetError):
        put.prop8_maximal_leakage_distortion(3, -0.5)
    with pytest.raises(MechDesignError, match="0 < delta < 1"):
        put.prop8_approx_dp_privacy(3, 0.2, 0.0)
    with pytest.raises(InvalidBudgetError, match="alpha"):
        put.prop8_renyi_dp_privacy_bounds(3, 0.2, 1.0)
    with pytest.raises(MechDesignError, match="theta"):
        put.thm6_dp_privacy_bounds(2, 2, 0.5, 1.5)
    with pytest.raises(MechDesignError, match="distortion D must be a number"):
        put.thm7_dp_privacy(2, 2, "half")
    with pytest.raises(MechDesignError, match="full support"):
        put.thm13_dp_privacy((1.0, 0.0), 0.2)
    with pytest.raises(MechDesignError, match="not Class II"):
        put.prop12_approx_dp_privacy([(0.5, 0.3, 0.2), (0.2, 0.3, 0.5)], 0.2, 0.1)
    with pytest.raises(MechDesignError, match="not Class I"):
        put.prop8_maximal_information_privacy_bounds(3, 0.2, [(0.5, 0.3, 0.2), (0.4, 0.4, 0.2)])
    with pytest.raises(MechDesignError, match="Lemma 16 does not cover"):
        put.lemma16_product_privacy(ApproximateDifferentialPrivacy(0.1), 2, 1.0)


# ------------------------------------------------------------------------------------------------
# Larger grids (slow)
# ------------------------------------------------------------------------------------------------
@pytest.mark.slow
@pytest.mark.parametrize("m", [12, 20])
def test_prop8_larger_alphabets(m):
    """PUT Prop. 8(1), (2), (4) on larger alphabets."""
    objective = ExpectedDistortion(Prior.uniform(m))
    for notion, closed in [(DifferentialPrivacy(), lambda D: put.prop8_dp_privacy(m, D)),
                           (ApproximateDifferentialPrivacy(0.1), lambda D: put.prop8_approx_dp_privacy(m, D, 0.1)),
                           (MaximalLeakage(), lambda D: put.prop8_maximal_leakage_privacy(m, D))]:
        oracle = DistortionOracle(notion, objective)
        for D in around([0.9 * put.lemma5_zero_threshold(m), put.lemma5_zero_threshold(m)], base=(0.05, 0.3, 0.6)):
            assert_epsilon_star(oracle, closed(D), D)


@pytest.mark.slow
def test_theorems_9_13_14_random_priors():
    """PUT Thms 9, 13, 14 on 6 random priors over 3–6 symbols, δ ∈ {0.02, 0.2}."""
    rng = np.random.default_rng(9)
    for m in [3, 4, 5, 6, 5, 6]:
        prior = tuple(rng.dirichlet(np.ones(m)))
        levels = put.thm9_breakpoints(prior)[1:-1]
        objective = ExpectedDistortion(Prior(prior))
        oracle = DistortionOracle(DifferentialPrivacy(), objective)
        for D in around(levels):
            assert_epsilon_star(oracle, put.thm13_dp_privacy(prior, D), D)
        oracle = DistortionOracle(MaximalLeakage(), objective)
        for D in around(levels):
            assert_epsilon_star(oracle, put.thm14_maximal_leakage_privacy(prior, D), D)
        for delta in [0.02, 0.2]:
            oracle = DistortionOracle(ApproximateDifferentialPrivacy(delta), objective)
            for D in around((1 - delta) * levels):
                assert_epsilon_star(oracle, put.thm9_approx_dp_privacy(prior, D, delta), D)


@pytest.mark.slow
@pytest.mark.parametrize("m, n", [(3, 3), (4, 2)])
def test_theorem7_larger_product_spaces(m, n):
    """PUT Thm 7(1) exact and 7(2), 7(4) bounds on 27 and 16 inputs."""
    distances, adjacency = product_space(m, n)
    objective = ExpectedDistortion(Prior.uniform(m**n), cost=distances)
    dp = DistortionOracle(DifferentialPrivacy(adjacency), objective)
    adp = DistortionOracle(ApproximateDifferentialPrivacy(0.01, neighbours=adjacency), objective)
    ml = DistortionOracle(MaximalLeakage(), objective)
    for D in around([put.lemma5_zero_threshold(m, n)], upper=n, base=(0.3, 1.0)):
        assert_epsilon_star(dp, put.thm7_dp_privacy(m, n, D), D)
        assert_brackets(adp, put.thm7_approx_dp_privacy_bounds(m, n, D, 0.01), D)
        assert_brackets(ml, put.thm7_maximal_leakage_privacy_bounds(m, n, D), D)


def test_distortion_from_epsilon_inverts_the_closed_forms():
    """D*(ε) = inf{D : ε*(D) <= ε}: the Prop. 8 inverses, and the flat stretch of Thm 9 below 0.36."""
    for m in [2, 3, 5]:
        for eps in [0.0, 0.4, 2.0]:
            assert put.def4_distortion(lambda D: put.prop8_dp_privacy(m, D), eps) == pytest.approx(
                put.prop8_dp_distortion(m, eps), abs=1e-12)
            assert put.def4_distortion(lambda D: put.prop8_maximal_leakage_privacy(m, D), eps) == pytest.approx(
                put.prop8_maximal_leakage_distortion(m, eps), abs=1e-12)
    flat = put.def4_distortion(lambda D: put.thm9_approx_dp_privacy((0.6, 0.4), D, 0.1), 0.2)
    assert flat == pytest.approx(0.36, abs=1e-12)
    with pytest.raises(MechDesignError, match="no distortion"):
        put.def4_distortion(lambda D: 1.0, 0.5)


def test_lemma10_threshold_is_robust_to_round_off():
    """D^(m−1) summed from the small end and 1 − P_1 differ by round-off; both give ε* = 0."""
    prior = (0.6963, 0.1992, 0.1045)
    for D in [put.thm9_breakpoints(prior)[-2], 1 - max(prior)]:
        assert put.thm13_dp_privacy(prior, D) == 0.0
        assert put.prop12_approx_dp_privacy([prior], D, 0.0) == 0.0
    assert put.thm13_dp_privacy(prior, 1 - max(prior) - 1e-9) == pytest.approx(math.log(0.6963 / 0.1992), abs=1e-6)


def test_closed_forms_at_budgets_beyond_the_float_range_of_e_epsilon():
    """Proposition 8 (1), (2), (4): every D*(ε) tends to 0 as ε → ∞; at ε = 800 nats it is 0 in floats."""
    assert put.prop8_dp_distortion(3, 800.0) == 0.0
    assert put.prop8_approx_dp_distortion(3, 800.0, 0.1) == 0.0
    assert put.prop8_maximal_leakage_distortion(3, 800.0) == 0.0


# --- Appendix A: Lemma 20 orderings, Lemmas 22 and 23 (probability preservation) ---------------------


def test_lemma20_orderings_name_every_chain():
    """PUT Lemma 20(4), (8), (9) (and the limits (5)–(7) as bounds): the pairs (smaller, larger)."""
    losses = {"dp": 1.0, "approx:0.1": 0.8, "approx:0.3": 0.5, "renyi:2": 0.4, "renyi:4": 0.6,
              "sibson:2": 0.2, "mi": 0.1, "ml": 0.3}
    pairs = set(put.lemma20_orderings(losses))
    assert ("approx:0.3", "approx:0.1") in pairs and ("renyi:2", "renyi:4") in pairs
    assert {("mi", "sibson:2"), ("sibson:2", "ml"), ("sibson:2", "dp"), ("renyi:4", "dp")} <= pairs
    assert all(losses[small] <= losses[large] for small, large in pairs)


def test_lemma22_and_23_bounds_hold_on_every_event():
    """PUT Lemma 22(2): P(A) <= (e^{D_α(P‖Q)} Q(A))^{(α−1)/α} for every event A (brute force over subsets);
    Lemma 23 with the section masses P_X(E_y) of every event E of a 2 × 2 product space."""
    rng = np.random.default_rng(5)
    for alpha in (1.5, 2.0, 4.0):
        p, q = rng.dirichlet(np.ones(4)), rng.dirichlet(np.ones(4))
        divergence = float(np.log(np.sum(p**alpha * q ** (1 - alpha))) / (alpha - 1))
        for mask in itertools.product([False, True], repeat=4):
            event = np.array(mask)
            assert p[event].sum() <= put.lemma22_probability_bound(divergence, q[event].sum(), alpha) + 1e-12
        prior, channel = rng.dirichlet(np.ones(2)), rng.dirichlet(np.ones(2), size=2)
        sibson = SibsonMutualInformation(alpha, Prior(prior)).measure(channel)
        for mask in itertools.product([False, True], repeat=4):
            event = np.array(mask).reshape(2, 2)
            section = float((prior[:, None] * event).sum(axis=0).max())
            assert (prior[:, None] * channel)[event].sum() <= put.lemma23_probability_bound(sibson, section, alpha) + 1e-12
    assert put.lemma22_probability_bound(0.0, 1.0, 2.0) == 1.0
    assert put.lemma22_probability_bound(0.0, 1.0 + 2e-16, 2.0) == 1.0  # a summed event's round-off
    with pytest.raises(MechDesignError, match="q_event must be a probability"):
        put.lemma22_probability_bound(0.0, 1.5, 2.0)
