"""Tests of mechdesign.frequency: unbiased estimation from privatized outputs (closed forms, exact means)."""

import itertools
import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from mechdesign import randomized_response
from mechdesign.exceptions import MechDesignError, NotEstimableError
from mechdesign.frequency import (
    LIKELIHOOD_TOLERANCE,
    estimate_frequencies,
    estimation_variance,
    estimator_matrix,
    maximum_likelihood,
    project_to_simplex,
)

from .strategies import full_support_priors

#: Round-off allowed in exact (enumerated) means and variances.
EXACT_ATOL = 1e-10


def test_estimator_is_exactly_unbiased_with_exact_variance():
    # Enumerate every sequence of N = 4 outputs: E[p̂] = p and Var[p̂] = estimation_variance exactly.
    mechanism = np.array([[0.6, 0.3, 0.1], [0.2, 0.5, 0.3], [0.1, 0.2, 0.7]])
    prior = np.array([0.5, 0.3, 0.2])
    q = prior @ mechanism
    count = 4
    mean = np.zeros(3)
    second = np.zeros(3)
    for outputs in itertools.product(range(3), repeat=count):
        probability = math.prod(q[y] for y in outputs)
        estimate = estimate_frequencies(list(outputs), mechanism).estimate
        mean += probability * estimate
        second += probability * estimate**2
    assert np.allclose(mean, prior, atol=EXACT_ATOL)
    assert np.allclose(second - mean**2, estimation_variance(mechanism, prior, count), atol=EXACT_ATOL)


def test_randomized_response_estimator_is_the_inverse():
    rr = randomized_response(4, 1.0)
    assert np.allclose(estimator_matrix(rr), np.linalg.inv(rr.matrix), atol=1e-12)


def test_standard_error_is_the_plug_in_variance():
    # se² = (Σ_y q̂_y A[y,x]² − p̂_x²) / N with q̂ the output frequencies.
    rr = randomized_response(3, 0.5)
    outputs = [0, 0, 1, 2, 2, 2, 1, 0, 0, 2]
    result = estimate_frequencies(outputs, rr, ["a", "b", "c"])
    q_hat = np.bincount(outputs, minlength=3) / len(outputs)
    inverse = np.linalg.inv(rr.matrix)
    expected = np.sqrt((q_hat @ inverse**2 - (q_hat @ inverse) ** 2) / len(outputs))
    assert np.allclose(result.standard_error, expected, atol=1e-12)
    assert result.as_dict()["estimate"].keys() == {"a", "b", "c"} and result.n_samples == 10


def test_top_k_design_is_not_estimable_and_the_error_names_the_categories():
    # Randomized response on the top-2 symbols, the two rare categories sent uniformly to them: the
    # outputs' law is p_top Q_top + (p_c + p_d) r, which no category's frequency can be read from.
    boost = math.e
    top = np.array([[boost, 1.0], [1.0, boost], [1.0, 1.0], [1.0, 1.0]])
    mechanism = top / top.sum(axis=1, keepdims=True)
    with pytest.raises(NotEstimableError, match=r"categories \['a', 'b', 'c', 'd'\] cannot be estimated.*rank 2 < 4"):
        estimate_frequencies([0, 1], mechanism, ["a", "b", "c", "d"])


def test_only_categories_sharing_a_row_are_lost():
    mechanism = np.array([[0.8, 0.1, 0.1], [0.1, 0.8, 0.1], [0.1, 0.1, 0.8], [0.1, 0.1, 0.8]])
    with pytest.raises(NotEstimableError, match=r"categories \['c', 'd'\] cannot be estimated.*rank 3 < 4"):
        estimator_matrix(mechanism, ["a", "b", "c", "d"])


@given(st.lists(st.floats(-2.0, 2.0), min_size=1, max_size=8))
def test_projection_is_the_closest_point_of_the_simplex(values):
    # Duchi et al., Fig. 1: the projection is on the simplex and no vertex-direction move gets closer
    # (KKT: v − π = τ 1 − ν with ν ≥ 0, ν_i π_i = 0 ⇔ v_i − π_i equal on the support and ≤ off it).
    projected = project_to_simplex(values)
    assert projected.min() >= 0 and projected.sum() == pytest.approx(1.0, abs=1e-12)
    residual = np.asarray(values) - projected
    support = projected > 0
    assert np.ptp(residual[support]) <= 1e-12
    assert (residual[~support] <= residual[support].max() + 1e-12).all()


@given(full_support_priors(5))
def test_projection_keeps_points_of_the_simplex(prior):
    assert np.allclose(project_to_simplex(prior), prior, atol=1e-12)


def test_bad_input_is_named():
    rr = randomized_response(3, 1.0)
    with pytest.raises(MechDesignError, match=r"outputs must be a non-empty 1-D sequence of indices, got shape"):
        estimate_frequencies([], rr)
    with pytest.raises(MechDesignError, match=r"outputs\[1\] must be an integer in 0..2, got 3"):
        estimate_frequencies([0, 3], rr)
    with pytest.raises(MechDesignError, match=r"categories has 2 names \(one per input of the mechanism\), expected 3"):
        estimate_frequencies([0, 1], rr, ["a", "b"])
    with pytest.raises(MechDesignError, match=r"vector has a non-finite entry nan at index \(1,\)"):
        project_to_simplex([0.5, float("nan")])


# --- issue 34: oracles, tallies and maximum likelihood -------------------------------------------------------


def test_oracle_reports_are_estimated_by_the_oracles_own_estimator():
    from mechdesign.frequency import estimate_from_tally
    from mechdesign.mechanisms import HadamardResponse, SubsetSelection

    rng = np.random.default_rng(0)
    inputs = rng.integers(0, 5, 1000)
    for oracle in (SubsetSelection(5, 1.0, 2), HadamardResponse(5, 1.0, 4)):
        reports = oracle.privatize(inputs, rng)
        by_reports = estimate_frequencies(reports, oracle, "abcde")
        by_indices = estimate_frequencies(oracle.report_index(reports), oracle, "abcde")
        halves = oracle.tally(reports[:400]) + oracle.tally(reports[400:])
        by_tally = estimate_from_tally(halves, 1000, oracle, "abcde")
        for other in (by_indices, by_tally):
            assert np.array_equal(other.estimate, by_reports.estimate) and other.categories == tuple("abcde")
        # the estimate is q̂ A with A the oracle's left inverse (not Q⁺ for Hadamard response)
        frequencies = np.bincount(oracle.report_index(reports), minlength=oracle.n_outputs) / 1000
        assert np.allclose(by_reports.estimate, frequencies @ estimator_matrix(oracle), atol=1e-12)
    with pytest.raises(MechDesignError, match=r"estimator must have shape \(2, 2\)"):
        estimation_variance(randomized_response(2, 1.0), [0.5, 0.5], estimator=np.eye(3))


def test_a_dense_mechanisms_tally_is_its_output_counts():
    """Issue 34: estimate_from_tally of any mechanism (the counts of partitions or chunks, summed) is
    estimate_frequencies of the outputs; non-finite, negative or miscounted tallies are named errors."""
    from mechdesign.frequency import estimate_from_tally

    mechanism = randomized_response(3, 1.0)
    outputs = mechanism.sample(np.random.default_rng(1).integers(0, 3, 500), np.random.default_rng(2))
    counts = np.bincount(outputs[:200], minlength=3) + np.bincount(outputs[200:], minlength=3)
    by_tally, by_outputs = estimate_from_tally(counts, 500, mechanism, "abc"), estimate_frequencies(outputs, mechanism, "abc")
    for name in ("estimate", "standard_error", "projected"):
        assert np.array_equal(getattr(by_tally, name), getattr(by_outputs, name))
    assert by_tally.n_samples == 500 and by_tally.categories == tuple("abc")
    with pytest.raises(MechDesignError, match=r"tally\[1\] = nan is not a count"):
        estimate_from_tally([1.0, math.nan, 2.0], 3, mechanism)
    with pytest.raises(MechDesignError, match=r"tally\[0\] = -1 is not a count"):
        estimate_from_tally([-1, 2, 2], 3, mechanism)
    with pytest.raises(MechDesignError, match="tally does not count 4 outputs: its counts sum to 3"):
        estimate_from_tally([1, 1, 1], 4, mechanism)
    with pytest.raises(MechDesignError, match=r"tally must have 3 counts"):
        estimate_from_tally([1, 1], 2, mechanism)



def _log_likelihood(counts, matrix, point):
    used = counts > 0
    return float(counts[used] @ np.log(point @ matrix[:, used]))


@given(st.integers(2, 5).flatmap(lambda k: st.tuples(full_support_priors(k), st.integers(0, 10**6))))
def test_maximum_likelihood_is_certified_within_its_gap(case):
    # ℓ is concave: ℓ(p) ≤ ℓ(p̂) + N·gap for every p of the simplex (here random points and vertices).
    prior, seed = case
    size = prior.size
    rng = np.random.default_rng(seed)
    matrix = rng.random((size, size + 2)) + 0.05
    matrix /= matrix.sum(axis=1, keepdims=True)
    counts = rng.multinomial(50, prior @ matrix).astype(float)
    result = maximum_likelihood(counts, matrix)
    assert result.converged and result.gap <= LIKELIHOOD_TOLERANCE
    assert result.log_likelihood == pytest.approx(_log_likelihood(counts, matrix, result.estimate), abs=1e-9)
    points = np.vstack([rng.dirichlet(np.ones(size), 200), np.eye(size)])
    best = max(_log_likelihood(counts, matrix, point) for point in points)
    assert best <= result.log_likelihood + counts.sum() * result.gap + 1e-9
    assert result.estimate.min() >= 0 and result.estimate.sum() == pytest.approx(1.0, abs=1e-12)


def test_maximum_likelihood_never_decreases_and_handles_rank_deficient_designs():
    # The top-2 design above (rank 2 < 4): no unbiased estimator, but the likelihood is maximized where
    # p̂ Q equals the outputs' frequencies (reachable here), with a certified gap.
    boost = math.e
    top = np.array([[boost, 1.0], [1.0, boost], [1.0, 1.0], [1.0, 1.0]])
    mechanism = top / top.sum(axis=1, keepdims=True)
    counts = np.array([70.0, 30.0])
    result = maximum_likelihood(counts, mechanism, ["a", "b", "c", "d"])
    assert result.converged and result.categories == ("a", "b", "c", "d")
    assert result.log_likelihood == pytest.approx(float(counts @ np.log(counts / counts.sum())), abs=1e-6)
    previous = -math.inf
    for iterations in range(0, 30, 3):
        value = maximum_likelihood(counts, mechanism, max_iterations=iterations).log_likelihood
        assert value >= previous - 1e-12
        previous = value
    assert not maximum_likelihood([9, 1], [[0.6, 0.4], [0.4, 0.6]], max_iterations=2).converged


def test_maximum_likelihood_bad_input_is_named():
    """Issue 34, bad input: counts that are negative, not finite or not whole; counts of impossible outputs."""
    rr = randomized_response(2, 1.0)
    with pytest.raises(MechDesignError, match=r"output_counts\[0\] = -1.0 is not a count"):
        maximum_likelihood([-1, 2], rr)
    with pytest.raises(MechDesignError, match="output_counts has a non-finite entry"):
        maximum_likelihood([math.inf, 2], rr)
    with pytest.raises(MechDesignError, match=r"output_counts\[1\] = 0.5 is not a count"):
        maximum_likelihood([1, 0.5], rr)
    with pytest.raises(MechDesignError, match=r"output_counts must have 2 counts \(one per output of the mechanism\), got shape \(3,\)"):
        maximum_likelihood([1, 2, 3], rr)
    with pytest.raises(MechDesignError, match="output_counts sum to 0"):
        maximum_likelihood([0, 0], rr)
    with pytest.raises(MechDesignError, match="counts an output the mechanism never gives"):
        maximum_likelihood([1, 1], [[1.0, 0.0], [1.0, 0.0]])
    with pytest.raises(MechDesignError, match="tolerance must be a number > 0, got 0"):
        maximum_likelihood([1, 1], rr, tolerance=0)
