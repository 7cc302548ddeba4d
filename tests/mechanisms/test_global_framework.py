"""Tests of mechdesign.mechanisms.global_framework (PUT paper §III, Lemma 5, §IV-D, Lemma 16)."""

import math
from math import comb

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mechdesign import (
    ApproximateDifferentialPrivacy,
    DifferentialPrivacy,
    ExpectedDistortion,
    MaximalInformation,
    MaximalLeakage,
    MutualInformationPrivacy,
    PointwiseMaximalLeakage,
    RenyiDifferentialPrivacy,
    SibsonMutualInformation,
    randomized_response,
)
from mechdesign.exceptions import (
    InvalidDistributionError,
    InvalidMechanismError,
    MechDesignError,
    ProblemTooLargeError,
)
from mechdesign.mechanisms import (
    global_q_d,
    global_uniform_mechanism,
    hamming_distances,
    hamming_neighbours,
    parallel_composition_factor,
    product_alphabet,
    product_mechanism,
    product_prior,
)

from ..strategies import full_support_priors, stochastic_matrices

SIZES = [(2, 1), (2, 2), (3, 2), (2, 3)]


def test_alphabet_distances_and_neighbours():
    assert product_alphabet(2, 2).tolist() == [[0, 0], [0, 1], [1, 0], [1, 1]]
    distances = hamming_distances(3, 2)
    assert distances[0].tolist() == [0, 1, 1, 1, 2, 2, 1, 2, 2]  # (0,0) vs (0,·), (1,·), (2,·)
    for m, n in SIZES:
        counts = [(hamming_distances(m, n)[0] == l).sum() for l in range(n + 1)]
        assert counts == [comb(n, l) * (m - 1) ** l for l in range(n + 1)]  # N_l of PUT §III
        pairs = hamming_neighbours(m, n).unordered_pairs(m**n)
        assert len(pairs) == m**n * n * (m - 1) // 2


@pytest.mark.parametrize("m, n", SIZES)
def test_q_d_is_a_valid_mechanism_with_distortion_d_under_every_prior(m, n):
    """PUT Lemma 5(3): Q_D is (𝒫, D)-valid for every source set (its distortion is D for every prior)."""
    rng = np.random.default_rng(m * 10 + n)
    cost = hamming_distances(m, n)
    for D in [0.3, 0.5 * n * (m - 1) / m, n * (m - 1) / m]:
        mechanism = global_q_d(m, n, D)
        assert np.allclose(mechanism.matrix.sum(axis=1), 1.0, atol=1e-12)
        for prior in rng.dirichlet(np.ones(m**n), size=3):
            assert ExpectedDistortion(prior, cost).value(mechanism) == pytest.approx(D, abs=1e-12)
    assert global_q_d(m, n, n * (m - 1) / m).allclose(global_uniform_mechanism(m, n), atol=1e-12)


@pytest.mark.parametrize("m, n, D", [(2, 2, 0.5), (3, 2, 0.7), (2, 3, 1.0), (3, 1, 0.4)])
def test_q_d_privacy_on_hamming_neighbours(m, n, D):
    """Proof of PUT Theorem 6, steps 1.1, 1.3, 1.4: with A = (m−1)(n−D)/D, ε_DP(Q_D) = log A,
    ε_α,DP(Q_D) = log(D/(n(m−1)) (m−2 + A^α + A^{1−α}))/(α−1) and ε_ML(Q_D) = n log(m(1−D/n))
    (the paper's upper bound on ML is attained)."""
    mechanism, neighbours = global_q_d(m, n, D), hamming_neighbours(m, n)
    A = (m - 1) * (n - D) / D
    assert DifferentialPrivacy(neighbours).measure(mechanism) == pytest.approx(math.log(A), abs=1e-12)
    for alpha in [1.5, 2.0, 3.0]:
        expected = math.log(D / (n * (m - 1)) * (m - 2 + A**alpha + A ** (1 - alpha))) / (alpha - 1)
        assert RenyiDifferentialPrivacy(alpha, neighbours).measure(mechanism) == pytest.approx(expected, abs=1e-12)
    assert MaximalLeakage().measure(mechanism) == pytest.approx(n * math.log(m * (1 - D / n)), abs=1e-12)


def test_q_d_for_one_individual_is_randomized_response():
    """n = 1: Q_D keeps the input with probability 1 − D: randomized response with e^ε = (m−1)(1−D)/D."""
    assert global_q_d(4, 1, 0.3).allclose(randomized_response(4, math.log(3 * 0.7 / 0.3)), atol=1e-12)


@settings(max_examples=15)
@given(st.integers(2, 3).flatmap(lambda m: st.tuples(
    full_support_priors(m), stochastic_matrices(n_inputs=st.just(m), n_outputs=st.just(m)))), st.integers(2, 3))
def test_lemma_16_parallel_composition(case, n):
    """PUT Lemma 16: the product's loss is the local one (DP, Rényi DP on Hamming neighbours) or n
    times it (maximal information, maximal leakage, Sibson, mutual information; i.i.d. prior)."""
    prior, matrix = case
    m = matrix.shape[0]
    product, iid = product_mechanism(matrix, n), product_prior(prior, n)
    neighbours = hamming_neighbours(m, n)
    pairs = [
        (DifferentialPrivacy(), DifferentialPrivacy(neighbours)),
        (RenyiDifferentialPrivacy(2.0), RenyiDifferentialPrivacy(2.0, neighbours)),
        (MaximalInformation(prior), MaximalInformation(iid)),
        (MaximalLeakage(), MaximalLeakage()),
        (SibsonMutualInformation(3.0, prior), SibsonMutualInformation(3.0, iid)),
        (MutualInformationPrivacy(prior), MutualInformationPrivacy(iid)),
    ]
    for local, global_ in pairs:
        expected = parallel_composition_factor(local, n) * local.measure(matrix)
        assert global_.measure(product) == pytest.approx(expected, rel=1e-9, abs=1e-12), local.label


def test_product_constructions():
    matrix = np.array([[0.9, 0.1], [0.2, 0.8]])
    product = product_mechanism(matrix, 2)
    assert product.matrix[1, 2] == pytest.approx(0.1 * 0.2, abs=1e-15)  # x = (0, 1) → y = (1, 0): Q(1|0) Q(0|1)
    assert product_prior([0.3, 0.7], 2).probabilities.tolist() == pytest.approx([0.09, 0.21, 0.21, 0.49])


def test_bad_input():
    with pytest.raises(MechDesignError, match="at least 2"):
        global_uniform_mechanism(1, 3)
    with pytest.raises(MechDesignError, match="n must be an integer >= 1, got 0"):
        product_alphabet(2, 0)
    with pytest.raises(MechDesignError, match=r"0 < D < n = 2, got 2"):
        global_q_d(3, 2, 2)
    with pytest.raises(MechDesignError, match="0 < D < n"):
        global_q_d(3, 2, 0.0)
    with pytest.raises(ProblemTooLargeError, match="4\\^7 = 16384"):
        hamming_distances(4, 7)
    with pytest.raises(MechDesignError, match="does not cover"):
        parallel_composition_factor(ApproximateDifferentialPrivacy(0.1), 2)
    with pytest.raises(MechDesignError, match="does not cover"):
        parallel_composition_factor(PointwiseMaximalLeakage([0.5, 0.5]), 2)
    with pytest.raises(MechDesignError, match="m must be an integer >= 1, got 0"):
        hamming_neighbours(0, 2)
    with pytest.raises(MechDesignError, match="n must be an integer >= 1, got 0"):
        product_prior([0.5, 0.5], 0)
    with pytest.raises(InvalidDistributionError, match="sums to 0.9"):
        product_prior([0.5, 0.4], 2)
    with pytest.raises(MechDesignError, match="n must be an integer >= 1, got 0"):
        product_mechanism(np.eye(2), 0)
    with pytest.raises(InvalidMechanismError, match="row 0 sums to 0.9"):
        product_mechanism([[0.5, 0.4], [0.5, 0.5]], 2)


@pytest.mark.parametrize("m, n", [(2, 2), (3, 2), (2, 3)])
def test_global_dp_privacy_distortion_with_a_uniform_prior(m, n):
    """PUT Theorem 7(1) (Class I, θ* = 1): ε̃*_DP(D) = log((m−1)(n−D)/D) for 0 < D < n(m−1)/m and 0
    for n(m−1)/m <= D <= n — the printed upper end "D <= 1" should read "D <= n" (docs/errata.md):
    for m = 3, n = 2 the printed range [4/3, 1] is empty, yet ε̃* = 0 on all of [4/3, 2]."""
    from mechdesign import privacy_distortion

    objective = ExpectedDistortion(np.full(m**n, 1.0 / m**n), hamming_distances(m, n))
    notion = DifferentialPrivacy(hamming_neighbours(m, n))
    threshold = n * (m - 1) / m
    for D in [0.5, 1.0, threshold, (threshold + n) / 2, n]:
        value = privacy_distortion(notion, D, objective)
        expected = math.log((m - 1) * (n - D) / D) if D < threshold else 0.0
        assert value.success and value.epsilon == pytest.approx(expected, abs=1e-6), (D, value.message)
