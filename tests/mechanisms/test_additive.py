"""Tests of mechdesign.mechanisms.additive against direct evaluation of densities and numerical
integration (Grosse et al., "Privacy Mechanism Design based on Empirical Distributions", Sec. VI:
Proposition 3, eq. (16), Remark 4, eq. (17), the (ε*, δ*) guarantee; Zhao et al. Thm. 8 (pLDP))."""

import math

import numpy as np
import pytest
from scipy import integrate, optimize, stats

from mechdesign.exceptions import InvalidBudgetError
from mechdesign.mechanisms.additive import (
    gaussian_delta1,
    gaussian_epsilon_delta,
    gaussian_pointwise_leakage,
    gaussian_violation_probability,
    laplace_pml,
    laplace_pointwise_leakage,
    laplace_scale_for_pml,
    pldp_gaussian_epsilon,
    pldp_gaussian_sigma,
    robust_laplace_pml,
    robust_laplace_scale,
    sign_channel,
)

#: Closed form vs direct evaluation of the leakage on a grid containing its maximizers (nats).
EXACT_ATOL = 1e-12
#: Closed-form tail probability vs adaptive quadrature.
QUADRATURE_ATOL = 1e-9
#: δ1's optimizer vs a 4,001-point grid over the ball: the grid may fall short by O(h²).
GRID_SHORTFALL = 1e-6

OUTPUTS = np.concatenate([np.linspace(-6, 6, 12001), [-1.0, 1.0]])
PRIORS = [[0.5, 0.5], [0.3, 0.7], [0.9, 0.1], [0.02, 0.98]]


@pytest.mark.parametrize("prior", PRIORS)
@pytest.mark.parametrize("scale", [0.3, 1.0, 4.0])
def test_proposition_3_laplace_pml_is_the_largest_pointwise_leakage(prior, scale):
    """Grosse et al., Prop. 3: ε(b) = 2/b − log(e^{2/b} p_min + 1 − p_min) = max_y ℓ(X → y)."""
    leakage = laplace_pointwise_leakage(OUTPUTS, scale, prior)
    assert laplace_pml(scale, prior) == pytest.approx(leakage.max(), abs=EXACT_ATOL)


@pytest.mark.parametrize("estimate, radius", [([0.5, 0.5], 0.3), ([0.3, 0.7], 0.2), ([0.2, 0.8], 0.6)])
@pytest.mark.parametrize("scale", [0.5, 2.0])
def test_eq_16_robust_laplace_pml_is_the_worst_prior_of_the_ball(estimate, radius, scale):
    """Grosse et al., eq. (16): the sup over the ball of the directly evaluated leakage."""
    plus = np.clip(np.linspace(estimate[1] - radius / 2, estimate[1] + radius / 2, 201), 1e-15, 1 - 1e-15)
    worst = max(laplace_pointwise_leakage(OUTPUTS, scale, [1 - p, p]).max() for p in plus)
    assert robust_laplace_pml(scale, estimate, radius) == pytest.approx(worst, abs=1e-9)


def test_remark_4_full_ball_gives_the_ldp_value():
    assert robust_laplace_pml(0.8, [0.5, 0.5], 1.0) == pytest.approx(2 / 0.8, abs=EXACT_ATOL)


@pytest.mark.parametrize("epsilon, p_min", [(0.1, 0.5), (0.5, 0.3), (1.0, 0.0), (2.0, 0.1)])
def test_laplace_scale_inverts_proposition_3(epsilon, p_min):
    scale = laplace_scale_for_pml(epsilon, p_min)
    assert laplace_pml(scale, [p_min, 1 - p_min]) == pytest.approx(epsilon, abs=EXACT_ATOL)
    if p_min == 0.0:
        assert scale == pytest.approx(2 / epsilon, abs=EXACT_ATOL)


def test_laplace_scale_is_zero_when_the_budget_exceeds_epsilon_max_and_robust_scale_matches():
    assert laplace_scale_for_pml(math.log(4), 0.25) == 0.0
    scale = robust_laplace_scale(0.7, [0.4, 0.6], 0.2)
    assert robust_laplace_pml(scale, [0.4, 0.6], 0.2) == pytest.approx(0.7, abs=EXACT_ATOL)


@pytest.mark.parametrize("scale", [0.0, 0.5, 3.0])
def test_sign_channel_crossover_is_the_laplace_tail(scale):
    flip = stats.laplace.cdf(-1.0, scale=scale) if scale > 0 else 0.0
    assert np.allclose(sign_channel(scale), [[1 - flip, flip], [flip, 1 - flip]], atol=1e-15)


@pytest.mark.parametrize("prior", PRIORS)
def test_gaussian_pointwise_leakage_from_scipy_densities(prior):
    y = np.linspace(-5, 5, 101)
    densities = np.stack([stats.norm.pdf(y, loc=x, scale=1.5) for x in (-1, 1)], axis=-1)
    direct = np.log(densities.max(axis=-1) / (densities @ np.array(prior)))
    assert np.allclose(gaussian_pointwise_leakage(y, 1.5, prior), direct, atol=1e-12, rtol=0)


def violation_by_quadrature(epsilon, sigma, prior):
    """P_Y[ℓ(Y) > ε]: crossings of ℓ − ε found by root finding on the direct leakage, tails by quad."""
    def excess(y):
        return float(gaussian_pointwise_leakage(y, sigma, prior)) - epsilon

    def density(y):
        return prior[0] * stats.norm.pdf(y, -1, sigma) + prior[1] * stats.norm.pdf(y, 1, sigma)

    total = 0.0
    for sign in (1, -1):
        far = sign * 60 * sigma
        if excess(far) <= 0:
            continue  # this side never violates (ℓ is monotone in |y|)
        start = 0.0 if excess(0.0) > 0 else optimize.brentq(excess, 0.0, far, xtol=1e-14)
        lo, hi = sorted((start, far))
        total += integrate.quad(density, lo, hi, epsabs=1e-13, epsrel=1e-12, limit=200)[0]
    return total


@pytest.mark.parametrize("prior", PRIORS)
@pytest.mark.parametrize("epsilon, sigma", [(0.05, 1.5), (0.3, 1.5), (0.8, 2.0), (2.0, 0.7)])
def test_gaussian_violation_probability_matches_quadrature(prior, epsilon, sigma):
    expected = violation_by_quadrature(epsilon, sigma, prior)
    assert gaussian_violation_probability(epsilon, sigma, prior) == pytest.approx(expected, abs=QUADRATURE_ATOL)


@pytest.mark.parametrize("estimate, radius", [([0.5, 0.5], 0.2), ([0.3, 0.7], 0.3), ([0.5, 0.5], 1.9), ([0.1, 0.9], 0.15)])
@pytest.mark.parametrize("epsilon, sigma", [(0.05, 1.5), (0.25, 2.0), (0.7, 2.0), (1.0, 1.5)])
def test_delta1_is_the_supremum_over_the_ball(estimate, radius, epsilon, sigma):
    """Grosse et al., eq. (17): the optimizer is never below a dense grid and at most O(h²) above it."""
    low, high = max(0.0, estimate[1] - radius / 2), min(1.0, estimate[1] + radius / 2)
    grid = np.linspace(low, high, 4001)
    values = [gaussian_violation_probability(epsilon, sigma, [1 - p, p]) for p in grid]
    delta1, worst = gaussian_delta1(epsilon, sigma, estimate, radius)
    assert low <= worst <= high
    assert delta1 == pytest.approx(gaussian_violation_probability(epsilon, sigma, [1 - worst, worst]), abs=1e-15)
    assert max(values) - 1e-15 <= delta1 <= max(values) + GRID_SHORTFALL


def test_epsilon_star_and_delta_star_combination():
    """ε* = ε − log(1 − βe^ε/2), δ* = δ1 + δ2 − δ1δ2 (Grosse et al., Sec. VI-B)."""
    delta1, _ = gaussian_delta1(0.4, 1.5, [0.5, 0.5], 0.1)
    eps_star, delta_star = gaussian_epsilon_delta(0.4, 1.5, [0.5, 0.5], 0.1, 1e-6)
    assert eps_star == pytest.approx(0.4 - math.log(1 - 0.1 * math.exp(0.4) / 2), abs=EXACT_ATOL)
    assert delta_star == pytest.approx(delta1 + 1e-6 - 1e-6 * delta1, abs=1e-15)
    assert gaussian_epsilon_delta(1.0, 1.5, [0.5, 0.5], 0.8, 1e-6)[0] == math.inf


@pytest.mark.parametrize("sigma", [1.0, 1.5, 2.0])
@pytest.mark.parametrize("delta", [1e-1, 1e-3, 1e-6])
def test_pldp_calibration_bounds_the_exact_failure_probability(sigma, delta):
    """Zhao et al. Thm. 8 with Δ = 2: the privacy loss 2y/σ² exceeds ε in absolute value with
    probability below δ (the upper tail is exactly δ/2); σ(ε(σ)) = σ."""
    epsilon = pldp_gaussian_epsilon(sigma, delta)
    threshold = epsilon * sigma**2 / 2  # |log f(y|1)/f(y|−1)| = 2|y|/σ² > ε ⇔ |y| > threshold
    upper = stats.norm.sf(threshold, loc=1, scale=sigma)
    lower = stats.norm.cdf(-threshold, loc=1, scale=sigma)
    assert upper == pytest.approx(delta / 2, rel=1e-9)
    assert upper + lower <= delta
    assert pldp_gaussian_sigma(epsilon, delta) == pytest.approx(sigma, rel=1e-12)


def test_rejects_bad_parameters():
    with pytest.raises(InvalidBudgetError, match="scale b must be > 0"):
        laplace_pml(0.0, [0.5, 0.5])
    with pytest.raises(InvalidBudgetError, match="p_min"):
        laplace_scale_for_pml(1.0, 0.7)
    with pytest.raises(InvalidBudgetError, match="delta must be > 0"):
        pldp_gaussian_epsilon(1.0, 0.0)
    with pytest.raises(InvalidBudgetError, match="sigma"):
        gaussian_delta1(0.1, -1.0, [0.5, 0.5], 0.1)
