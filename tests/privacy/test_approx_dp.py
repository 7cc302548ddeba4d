"""Tests of mechdesign.privacy.approx_dp (PUT paper Def. 3(2); hockey-stick form)."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mechdesign import ApproximateDifferentialPrivacy, DifferentialPrivacy, ExpectedDistortion, Prior
from mechdesign.exceptions import InvalidBudgetError, MechDesignError
from mechdesign.privacy.approx_dp import (
    hockey_stick_delta,
    hockey_stick_epsilon,
    largest_pair_epsilon,
    pair_divergences,
    pair_epsilons,
)

from ..strategies import budgets, full_support_priors, stochastic_matrices
from .protocol import (
    assert_constraints_match_measure,
    assert_post_processing_does_not_increase,
    assert_round_trip,
)

BSC = np.array([[0.75, 0.25], [0.25, 0.75]])
X, X_PRIME = [0.3, 0.3, 0.4], [0.15, 0.15, 0.7]
VARIANTS = ["pointwise", "hockey_stick"]


def test_hand_computed_values():
    # Binary symmetric channel, δ = 0.1: pointwise (0.75 − 0.1)/0.25 = 2.6; hockey-stick
    # f(γ) = 0.75 − 0.25γ on [1/3, 3] equals 0.1 at γ = 2.6 too.
    for variant in VARIANTS:
        assert ApproximateDifferentialPrivacy(0.1, variant).measure(BSC) == pytest.approx(math.log(2.6), abs=1e-14)
    # Three outputs: pointwise max((0.3−0.1)/0.15, (0.7−0.1)/0.4) = 4/3 vs 1.5 → log 1.5;
    # hockey-stick x'→x: 0.7 − 0.4γ = 0.1 → γ = 1.5; x→x': 0.6 − 0.3γ = 0.1 → γ = 5/3.
    matrix = np.array([X, X_PRIME])
    assert ApproximateDifferentialPrivacy(0.1).measure(matrix) == pytest.approx(math.log(1.5), abs=1e-14)
    assert ApproximateDifferentialPrivacy(0.1, "hockey_stick").measure(matrix) == pytest.approx(math.log(5 / 3), abs=1e-14)


def test_delta_zero_is_pure_dp():
    matrix = np.array([[0.6, 0.3, 0.1], [0.2, 0.5, 0.3], [0.1, 0.1, 0.8]])
    for variant in VARIANTS:
        assert ApproximateDifferentialPrivacy(0.0, variant).measure(matrix) == pytest.approx(
            DifferentialPrivacy().measure(matrix), abs=1e-12)


def test_large_delta_gives_zero_and_unreachable_gives_inf():
    assert ApproximateDifferentialPrivacy(0.5).measure(BSC) == 0.0
    point_mass = np.array([[1.0, 0.0], [0.0, 1.0]])
    assert ApproximateDifferentialPrivacy(0.5, "hockey_stick").measure(point_mass) == math.inf
    assert ApproximateDifferentialPrivacy(0.5).measure(point_mass) == math.inf


def test_hockey_stick_epsilon_solves_its_equation():
    rng = np.random.default_rng(3)
    for _ in range(200):
        p, q = rng.dirichlet(np.ones(5)), rng.dirichlet(np.ones(5))
        delta = rng.uniform(0, 0.3)
        eps = hockey_stick_epsilon(p, q, delta)
        value = np.maximum(p - math.exp(eps) * q, 0).sum()
        if eps > 0:
            assert value == pytest.approx(delta, abs=1e-12)
        else:
            assert value <= delta + 1e-12


def test_pointwise_is_not_closed_under_post_processing():
    """Merging outputs adds the δ's: the pointwise form (PUT Def. 3(2)) can get worse.

    Merging outputs 0 and 1 of [X, X'] gives (0.6, 0.4) vs (0.3, 0.7): (0.6 − 0.1)/0.3 = 5/3 > 1.5.
    The hockey-stick form is closed under post-processing (tested by hypothesis below).
    """
    merge = np.array([[1.0, 0.0], [1.0, 0.0], [0.0, 1.0]])
    notion = ApproximateDifferentialPrivacy(0.1)
    matrix = np.array([X, X_PRIME])
    assert notion.measure(matrix @ merge) == pytest.approx(math.log(5 / 3), abs=1e-14)
    assert notion.measure(matrix @ merge) > notion.measure(matrix)


def test_parameter_errors():
    with pytest.raises(InvalidBudgetError, match="delta"):
        ApproximateDifferentialPrivacy(1.0)
    with pytest.raises(InvalidBudgetError, match="delta"):
        ApproximateDifferentialPrivacy(-0.1)
    with pytest.raises(MechDesignError, match="variant must be one of"):
        ApproximateDifferentialPrivacy(0.1, "renyi")


@settings(max_examples=20)
@given(stochastic_matrices(allow_zeros=False), st.sampled_from(VARIANTS), st.floats(0.0, 0.3))
def test_constraints_match_measure(matrix, variant, delta):
    assert_constraints_match_measure(ApproximateDifferentialPrivacy(delta, variant), matrix)


@settings(max_examples=10)
@given(stochastic_matrices(n_inputs=st.just(3), allow_zeros=False), st.sampled_from(VARIANTS))
def test_constraints_match_measure_graph(matrix, variant):
    assert_constraints_match_measure(ApproximateDifferentialPrivacy(0.05, variant, [(0, 1), (1, 2)], 3), matrix)


@given(stochastic_matrices(), st.data(), st.floats(0.0, 0.3))
def test_hockey_stick_post_processing_never_increases(matrix, data, delta):
    channel = data.draw(stochastic_matrices(n_inputs=st.just(matrix.shape[1])))
    assert_post_processing_does_not_increase(ApproximateDifferentialPrivacy(delta, "hockey_stick"), matrix, channel)


@given(stochastic_matrices(), st.data(), st.floats(0.0, 0.3))
def test_pointwise_deterministic_relabelling_never_increases(matrix, data, delta):
    # A permutation of outputs is post-processing that never merges outputs.
    permutation = np.eye(matrix.shape[1])[data.draw(st.permutations(range(matrix.shape[1])))]
    assert_post_processing_does_not_increase(ApproximateDifferentialPrivacy(delta), matrix, permutation)


@settings(max_examples=15)
@given(st.integers(2, 5).flatmap(full_support_priors), budgets, st.sampled_from(VARIANTS), st.floats(0.0, 0.3))
def test_round_trip(prior, budget, variant, delta):
    assert_round_trip(ApproximateDifferentialPrivacy(delta, variant), budget, ExpectedDistortion(Prior(prior)))


@pytest.mark.parametrize("variant", ["pointwise", "hockey_stick"])
def test_one_input_leaks_nothing(variant):
    """No neighbour pair on one input: ε = 0 for every δ (Dwork & Roth, Definition 2.4), and the design works."""
    from mechdesign import design

    notion = ApproximateDifferentialPrivacy(0.1, variant)
    assert notion.measure([[1.0]]) == 0.0 and notion.measure([[0.3, 0.7]]) == 0.0
    result = design(notion, 1.0, ExpectedDistortion(Prior([1.0])))
    assert result.success and result.objective == 0.0


#: Round-off allowed when inverting the hockey-stick divergence.
INVERSE_ATOL = 1e-12


@given(stochastic_matrices(n_inputs=st.just(2), allow_zeros=False), st.floats(0.01, 0.5))
def test_hockey_stick_delta_inverts_epsilon(matrix, delta):
    # Dwork & Roth, Definition 2.4: δ(ε) = Σ_y max(0, p_y − e^ε q_y) is the smallest δ at ε, so at
    # ε(δ) > 0 (the smallest ε for δ, where δ(·) is continuous and decreasing) it returns δ.
    p, q = matrix
    epsilon = hockey_stick_epsilon(p, q, delta)
    if epsilon > 0:
        assert hockey_stick_delta(p, q, epsilon) == pytest.approx(delta, abs=INVERSE_ATOL)
    else:
        assert hockey_stick_delta(p, q, 0.0) <= delta + INVERSE_ATOL


def test_pair_divergences_are_the_hockey_stick_divergences():
    rng = np.random.default_rng(7)
    matrix = rng.dirichlet(np.ones(6), size=5)
    first, second = ApproximateDifferentialPrivacy(0.1, "hockey_stick").neighbours.ordered_pairs(5)
    expected = [hockey_stick_delta(matrix[i], matrix[j], 0.3) for i, j in zip(first, second)]
    np.testing.assert_allclose(pair_divergences(matrix, first, second, math.exp(0.3)), expected, rtol=0, atol=1e-15)


#: Bisection steps of the reference below: the bracket [0, 50] shrinks to 50 · 2^-80 (below round-off).
BISECTION_STEPS = 80
#: Agreement of the sorted-ratio ε with the bisection reference (round-off in log and the cumulative sums).
EPSILON_AGREEMENT_ATOL = 1e-10


def bisected_epsilon(p: np.ndarray, q: np.ndarray, delta: float) -> float:
    """The smallest ε with hockey_stick_delta(p, q, ε) <= δ by bisection: an independent reference."""
    if hockey_stick_delta(p, q, 0.0) <= delta:
        return 0.0
    if p[q == 0].sum() > delta:
        return math.inf
    low, high = 0.0, 50.0
    for _ in range(BISECTION_STEPS):
        middle = (low + high) / 2
        low, high = (low, middle) if hockey_stick_delta(p, q, middle) <= delta else (middle, high)
    return high


@settings(max_examples=50)
@given(stochastic_matrices(n_inputs=st.integers(2, 4), n_outputs=st.integers(1, 6)), st.floats(0.0, 0.5))
def test_pair_epsilons_match_bisection_on_every_pair(matrix, delta):
    # Zeros included: pairs with ε = 0, a finite ε, and ε = inf (mass where the other row has none).
    first, second = ApproximateDifferentialPrivacy(delta, "hockey_stick").neighbours.ordered_pairs(matrix.shape[0])
    expected = [bisected_epsilon(matrix[i], matrix[j], delta) for i, j in zip(first, second)]
    np.testing.assert_allclose(pair_epsilons(matrix, first, second, delta), expected, rtol=0,
                               atol=EPSILON_AGREEMENT_ATOL)


def test_pair_epsilons_blocks_give_the_same_values(monkeypatch):
    # Blocks of one pair each (the memory bound at its smallest) change nothing.
    rng = np.random.default_rng(11)
    matrix = rng.dirichlet(np.full(7, 0.3), size=6)
    first, second = ApproximateDifferentialPrivacy(0.05, "hockey_stick").neighbours.ordered_pairs(6)
    whole = pair_epsilons(matrix, first, second, 0.05)
    monkeypatch.setattr("mechdesign.privacy.approx_dp.PAIR_BLOCK_ENTRIES", 1)
    np.testing.assert_array_equal(pair_epsilons(matrix, first, second, 0.05), whole)
    assert np.isfinite(whole).all() and (whole > 0).any()


def test_hockey_stick_measure_is_the_largest_pair_epsilon():
    rng = np.random.default_rng(12)
    matrix = rng.dirichlet(np.full(5, 0.5), size=8)
    notion = ApproximateDifferentialPrivacy(0.02, "hockey_stick", neighbours=[(0, 1), (2, 5), (7, 3)], n_inputs=8)
    pairs = [(0, 1), (1, 0), (2, 5), (5, 2), (7, 3), (3, 7)]
    assert notion.measure(matrix) == pytest.approx(max(bisected_epsilon(matrix[i], matrix[j], 0.02) for i, j in pairs),
                                                   abs=EPSILON_AGREEMENT_ATOL)


@pytest.mark.parametrize("seed_pairs", [1, 3, 1000])
@pytest.mark.parametrize("seed", range(4))
def test_largest_pair_epsilon_is_the_largest_of_all(monkeypatch, seed_pairs, seed):
    # However few pairs seed it, ruling the others out by their divergence loses none of the largest.
    monkeypatch.setattr("mechdesign.privacy.approx_dp.SEED_PAIRS", seed_pairs)
    rng = np.random.default_rng(seed)
    matrix = rng.dirichlet(np.full(9, 0.4), size=7)
    matrix[rng.random(matrix.shape) < 0.2 * (seed % 2)] = 0.0  # zeros (some ε = inf) in odd seeds
    matrix = matrix / matrix.sum(axis=1, keepdims=True)
    first, second = ApproximateDifferentialPrivacy(0.03, "hockey_stick").neighbours.ordered_pairs(7)
    assert largest_pair_epsilon(matrix, first, second, 0.03) == pair_epsilons(matrix, first, second, 0.03).max()
