"""Closed forms of Grosse et al., "Privacy Mechanism Design based on Empirical Distributions", against
exact values (mechdesign.privacy.pml_analysis) and exact probabilities.

Tolerances: EXACT_ATOL for identities between closed forms and exact numpy values; BOUND_ATOL for
"bound >= exact" checks (round-off only, no solver involved).
"""

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import multinomial

from mechdesign import ExpectedDistortion, PointwiseMaximalLeakage, Prior, design
from mechdesign.exceptions import InvalidBudgetError, MechDesignError, ProblemTooLargeError
from mechdesign.priors import L1Ball, SourceSet, l1_radius
from mechdesign.privacy.pml_analysis import epsilon_min, leakage_capacity, leakage_sensitivity, privacy_region
from mechdesign.theory import pml as theory

from ..strategies import budgets, full_support_priors, priors_and_matrix

EXACT_ATOL = 1e-12
BOUND_ATOL = 1e-12
#: A designed mechanism re-measures within its budget up to mechdesign.result.budget_tolerance.
DESIGN_ATOL = 1e-6

prior_and_mechanism = priors_and_matrix(st.integers(2, 4))


# --- Theorem 3 (local Lipschitz bound) ------------------------------------------------------------------


@given(priors_and_matrix(st.integers(2, 4), priors=2))
def test_thm3_lipschitz_bound_holds_on_a_segment(case):
    """Theorem 3: |ε_min(Q, P) − ε_min(Q, P')| <= exp(C(Q, 𝒫)) ‖P − P'‖₁ with 𝒫 = [P, P']."""
    first, second, matrix = case
    capacity = leakage_capacity(matrix, SourceSet([first, second]))
    gap = abs(epsilon_min(matrix, first) - epsilon_min(matrix, second))
    assert gap <= theory.thm3_lipschitz_bound(capacity, np.abs(first - second).sum()) + BOUND_ATOL


@settings(max_examples=25)
@given(prior_and_mechanism, st.floats(0.0, 1.0), st.data())
def test_thm3_lipschitz_bound_holds_in_a_ball(case, radius, data):
    center, matrix = case
    ball = L1Ball(center, radius)
    other = data.draw(full_support_priors(center.size))
    if not ball.contains(other):
        other = center + (other - center) * radius / np.abs(other - center).sum()  # onto the sphere
    capacity = leakage_capacity(matrix, ball)
    gap = abs(epsilon_min(matrix, center) - epsilon_min(matrix, other))
    assert gap <= theory.thm3_lipschitz_bound(capacity, np.abs(center - other).sum()) + BOUND_ATOL


# --- Theorem 4 (two-case sensitivity bound) and Corollary 2 ---------------------------------------------


@settings(max_examples=60)
@given(prior_and_mechanism, st.floats(0.0, 0.999), st.floats(0.0, 1.0))
def test_thm4_bounds_the_exact_sensitivity(case, radius_fraction, slack):
    """Theorem 4 for ε = ε_min(Q, P) and for any larger budget up to ε_max = −log p_min."""
    prior, matrix = case
    beta = radius_fraction * 2 * prior.min()
    exact = leakage_sensitivity(matrix, prior, L1Ball(prior, beta))
    least = epsilon_min(matrix, prior)
    for budget in (least, least + slack * (-math.log(prior.min()) - least)):
        assert exact <= theory.thm4_sensitivity_bound(prior, budget, beta) + BOUND_ATOL


@pytest.mark.parametrize("beta", [0.01, 0.1, 0.2, 0.3, 0.399])
def test_thm4_first_region_equality_for_example1(beta):
    """Example 1 (extremal, region 1): the bound of eq. (6), k = 1, is attained."""
    prior = [0.4, 0.2, 0.2, 0.2]
    matrix = np.array([[0.325, 0.225, 0.225, 0.225], [0.45, 0.1, 0.225, 0.225],
                       [0.45, 0.225, 0.1, 0.225], [0.45, 0.225, 0.225, 0.1]])
    budget = math.log(9 / 8)
    assert privacy_region(budget, prior) == 1
    assert leakage_sensitivity(matrix, prior, L1Ball(prior, beta)) == pytest.approx(
        theory.thm4_sensitivity_bound(prior, budget, beta), abs=EXACT_ATOL)


def binary_extremal(p1: float, budget: float) -> np.ndarray:
    """The binary mechanism with both columns at leakage ε (both PML constraints tight)."""
    t = math.exp(budget)
    # a = t (p1 a + p2 b) and 1 − b = t (p1 (1 − a) + p2 (1 − b)), unknowns (a, b).
    A = np.array([[1 - t * p1, -t * (1 - p1)], [t * p1, t * (1 - p1) - 1]])
    a, b = np.linalg.solve(A, [0.0, t - 1])
    return np.array([[a, 1 - a], [b, 1 - b]])


@pytest.mark.parametrize("p1", [0.55, 0.7, 0.9])
@pytest.mark.parametrize("fraction", [0.2, 0.6, 0.95])
def test_thm4_first_region_equality_for_binary_extremal_mechanisms(p1, fraction):
    prior = np.array([p1, 1 - p1])
    budget = fraction * -math.log(p1)  # region 1 is [0, −log(1 − p_min)) = [0, −log p1)
    matrix = binary_extremal(p1, budget)
    assert epsilon_min(matrix, prior) == pytest.approx(budget, abs=EXACT_ATOL)
    beta = 0.9 * 2 * prior.min()
    assert leakage_sensitivity(matrix, prior, L1Ball(prior, beta)) == pytest.approx(
        theory.thm4_sensitivity_bound(prior, budget, beta), abs=1e-11)


def two_singular(n: int) -> np.ndarray:
    """Example 2: doubly stochastic, entries 0 or 1/2 (Q[x, y] = 1/2 for y ∈ {x, x+1 mod n})."""
    return (np.eye(n) + np.roll(np.eye(n), 1, axis=1)) / 2


@pytest.mark.parametrize("beta", [0.01, 0.05, 0.1, 0.19])
def test_thm4_higher_region_equality_for_k_singular_mechanisms(beta):
    """Example 2 (N = 10, 2-singular, ε = log 5): every column has a zero and ε = ε_min, so eq. (6),
    k > 1, holds with equality."""
    prior, matrix, budget = np.full(10, 0.1), two_singular(10), math.log(5)
    assert epsilon_min(matrix, prior) == pytest.approx(budget, abs=EXACT_ATOL)
    assert privacy_region(budget, prior) > 1
    assert leakage_sensitivity(matrix, prior, L1Ball(prior, beta)) == pytest.approx(
        theory.thm4_sensitivity_bound(prior, budget, beta), abs=EXACT_ATOL)


def test_thm4_higher_region_equality_needs_the_budget_to_be_epsilon_min():
    """Erratum (Theorem 4's equality case): zeros in every column do not suffice when ε > ε_min."""
    prior, matrix, beta = np.full(10, 0.1), two_singular(10), 0.1
    exact = leakage_sensitivity(matrix, prior, L1Ball(prior, beta))
    assert exact < theory.thm4_sensitivity_bound(prior, math.log(6), beta) - 0.01


@settings(max_examples=40)
@given(prior_and_mechanism, st.floats(0.0, 0.999))
def test_cor2_bounds_the_exact_capacity_of_every_admissible_ball(case, fraction):
    """Corollary 2 holds for every ‖P − P'‖₁ < 2 e^{−ε}, also where the ball leaves the simplex."""
    prior, matrix = case
    budget = epsilon_min(matrix, prior)
    distance = fraction * 2 * math.exp(-budget)
    assert leakage_capacity(matrix, L1Ball(prior, distance)) <= theory.cor2_leakage_bound(budget, distance) + BOUND_ATOL


# --- Proposition 2, eq. (13) ---------------------------------------------------------------------------


@given(budgets, st.floats(0.0, 1.5))
def test_eq13_inverts_the_higher_region_bound(budget, beta):
    """ε' of eq. (13) is the budget whose Thm 4 (k > 1) / Cor. 2 bound on the ball is ε (Section V)."""
    modified = theory.eq13_modified_epsilon(budget, beta)
    if modified >= 0 and beta * math.exp(modified) < 2:
        assert theory.cor2_leakage_bound(modified, beta) == pytest.approx(budget, abs=1e-12)
    assert modified <= budget


@settings(max_examples=15)
@given(st.integers(2, 4).flatmap(full_support_priors), st.floats(0.0, 1.0), st.floats(0.1, 3.0))
def test_eq13_designs_for_the_estimate_are_robust(prior, beta, budget):
    """M(ε', P̂) ⊆ M(ε, B_β(P̂)): a mechanism designed ε'-PML for P̂ is ε-PML over the whole ball."""
    modified = theory.eq13_modified_epsilon(budget, beta)
    if modified < 0:
        return  # M(ε', P̂) is empty
    result = design(PointwiseMaximalLeakage(prior), modified, ExpectedDistortion(Prior(prior)))
    assert result.success
    assert leakage_capacity(result.mechanism, L1Ball(prior, beta)) <= budget + DESIGN_ATOL


# --- Theorem 2 (Weissman et al.), φ, κ, eqs. (7)–(8), Corollary 3 ---------------------------------------


def exact_deviation_probability(prior: np.ndarray, m: int, beta: float) -> float:
    """P{‖P − P̂‖₁ >= β} by enumerating every count vector of m samples (exact)."""
    total = 0.0
    for counts in itertools.product(range(m + 1), repeat=prior.size - 1):
        last = m - sum(counts)
        if last < 0:
            continue
        full = np.array([*counts, last])
        if np.abs(full / m - prior).sum() >= beta - 1e-12:
            total += multinomial.pmf(full, m, prior)
    return total


@pytest.mark.parametrize("prior, m", [([0.5, 0.5], 40), ([0.8, 0.2], 40), ([0.5, 0.3, 0.2], 25), ([0.6, 0.3, 0.1], 25)])
@pytest.mark.parametrize("beta", [0.1, 0.3, 0.5, 0.8])
def test_thm2_bounds_the_exact_deviation_probability(prior, m, beta):
    prior = np.array(prior)
    exact = exact_deviation_probability(prior, m, beta)
    phi = theory.thm2_weissman_phi(theory.thm2_weissman_kappa(prior))
    assert exact <= theory.thm2_deviation_bound(beta, m, prior.size, phi) + 1e-15
    assert theory.thm2_deviation_bound(beta, m, prior.size, phi) <= theory.thm2_deviation_bound(beta, m, prior.size)


def test_phi_and_kappa_hand_computed():
    assert theory.thm2_weissman_phi(0.5) == 2.0
    assert theory.thm2_weissman_phi(0.25) == pytest.approx(2 * math.log(3), abs=1e-14)
    assert theory.thm2_weissman_phi(0.5 - 1e-9) == pytest.approx(2.0, abs=1e-12)
    assert theory.thm2_weissman_phi(0.0) == math.inf
    values = [theory.thm2_weissman_phi(p) for p in np.linspace(0.01, 0.5, 50)]
    assert all(b < a for a, b in zip(values, values[1:]))  # decreasing
    assert theory.thm2_weissman_kappa([0.25] * 4) == 0.5
    assert theory.thm2_weissman_kappa([0.7, 0.2, 0.1]) == pytest.approx(0.3, abs=1e-15)
    assert theory.thm2_weissman_kappa([1.0, 0.0]) == 0.0


@given(st.integers(2, 6).flatmap(full_support_priors))
def test_kappa_matches_brute_force_over_subsets(prior):
    brute = max(min(prior[list(A)].sum(), 1 - prior[list(A)].sum())
                for j in range(prior.size + 1) for A in itertools.combinations(range(prior.size), j))
    assert theory.thm2_weissman_kappa(prior) == pytest.approx(brute, abs=1e-15)


@pytest.mark.parametrize("size", [2, 5, 20])
@pytest.mark.parametrize("m", [1000, 100000])
@pytest.mark.parametrize("delta", [1e-9, 1e-3, 0.2])
def test_eq7_eq8_and_cor3_are_consistent(size, m, delta):
    """Radius β*(δ) (eq. (7)) → ε'(δ) (eq. (8)) → Corollary 3 returns δ; Theorem 2 at β*(δ) is δ."""
    beta = l1_radius(delta, m, size)
    assert theory.thm2_deviation_bound(beta, m, size) == pytest.approx(delta, rel=1e-9)
    budget = 0.5
    if beta * math.exp(budget) >= 2:
        with pytest.raises(MechDesignError, match="Corollary 2 needs distance"):
            theory.eq8_epsilon_prime(budget, delta, m, size)
        return
    target = theory.eq8_epsilon_prime(budget, delta, m, size)
    assert target == pytest.approx(theory.cor2_leakage_bound(budget, beta), abs=EXACT_ATOL)
    assert theory.cor3_delta_min_bound(budget, target, m, size) == pytest.approx(delta, rel=1e-9)


def test_domain_errors():
    with pytest.raises(MechDesignError, match="beta < 2 p_min"):
        theory.thm4_sensitivity_bound([0.5, 0.3, 0.2], 0.1, 0.4)
    with pytest.raises(MechDesignError, match="epsilon <= epsilon_max"):
        theory.thm4_sensitivity_bound([0.5, 0.5], 0.8, 0.1)
    with pytest.raises(MechDesignError, match="full support"):
        theory.thm4_sensitivity_bound([1.0, 0.0], 0.1, 0.1)
    with pytest.raises(InvalidBudgetError, match="radius beta must be a finite number >= 0"):
        theory.thm4_sensitivity_bound([0.5, 0.5], 0.1, -0.1)
    with pytest.raises(MechDesignError, match="Corollary 2 needs distance"):
        theory.cor2_leakage_bound(1.0, 2 * math.exp(-1.0))
    with pytest.raises(MechDesignError, match="epsilon_prime > epsilon"):
        theory.cor3_delta_min_bound(1.0, 1.0, 100, 3)
    with pytest.raises(InvalidBudgetError, match="delta"):
        theory.eq8_epsilon_prime(1.0, 0.0, 100, 3)
    with pytest.raises(MechDesignError, match="phi is defined on"):
        theory.thm2_weissman_phi(0.6)
    with pytest.raises(MechDesignError, match="phi must be a finite number >= 2"):
        theory.thm2_deviation_bound(0.1, 100, 3, phi=1.0)
    with pytest.raises(ProblemTooLargeError, match="2\\^N"):
        theory.thm2_weissman_kappa(np.full(23, 1 / 23))
    with pytest.raises(InvalidBudgetError, match="capacity"):
        theory.thm3_lipschitz_bound(-1.0, 0.1)


def test_bounds_at_budgets_beyond_the_float_range_of_e_epsilon():
    """Theorem 3 and Corollary 2 (Grosse et al.): a zero distance changes nothing, whatever the budget;
    a positive distance at ε = 800 nats gives the vacuous Theorem 3 bound and leaves Corollary 2's domain."""
    assert theory.thm3_lipschitz_bound(800.0, 0.0) == 0.0
    assert theory.thm3_lipschitz_bound(800.0, 0.1) == math.inf
    assert theory.cor2_leakage_bound(800.0, 0.0) == 800.0
    with pytest.raises(MechDesignError, match="Corollary 2 needs distance"):
        theory.cor2_leakage_bound(800.0, 0.1)
