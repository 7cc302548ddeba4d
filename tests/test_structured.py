"""The O(n) structured mechanism KeepOrRedraw (mechdesign.structured) against its dense matrix.

Measures: local DP (Zhong & Bu, "Privacy-Utility Trade-Off", Definition 3(1)), maximal leakage
(Definition 3(4)), PML (Grosse et al., "Privacy Mechanism Design based on Empirical Distributions",
Definition 1) and expected Hamming distortion (PUT paper, eq. (1)).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats

from mechdesign import DifferentialPrivacy, ExpectedDistortion, MaximalLeakage, PointwiseMaximalLeakage, Prior
from mechdesign.exceptions import InvalidBudgetError, InvalidMechanismError, MechDesignError, ProblemTooLargeError
from mechdesign.randomness import ExactSampler, probability_units
from mechdesign.structured import MAX_DENSE_ENTRIES, KeepOrRedraw

#: Round-off between the O(n) and the dense evaluation of the same quantity.
ROUNDOFF = 1e-12


@st.composite
def structured_mechanisms(draw):
    """A KeepOrRedraw on 1–6 symbols (redraw probabilities 0, 1 or between; rows with zeros) and a prior."""
    n = draw(st.integers(1, 6))
    redraw = np.array(draw(st.lists(st.sampled_from([0.0, 1.0, 0.3, 0.75, 1e-9]), min_size=n, max_size=n)))
    row = np.array(draw(st.lists(st.sampled_from([0.0, 0.2, 1.0, 3.0]), min_size=n, max_size=n)))
    row[draw(st.integers(0, n - 1))] += 1.0
    prior = np.array(draw(st.lists(st.sampled_from([0.0, 0.1, 1.0]), min_size=n, max_size=n)))
    prior[draw(st.integers(0, n - 1))] += 1.0
    return KeepOrRedraw(redraw, row / row.sum()), prior / prior.sum()


@given(structured_mechanisms())
def test_measures_match_the_dense_measures(case):
    mechanism, prior = case
    dense = mechanism.matrix
    assert mechanism.local_dp_leakage() == pytest.approx(DifferentialPrivacy().measure(dense), abs=ROUNDOFF)
    assert mechanism.maximal_leakage() == pytest.approx(MaximalLeakage().measure(dense), abs=ROUNDOFF)
    assert mechanism.pml_leakage(prior) == pytest.approx(PointwiseMaximalLeakage(Prior(prior)).measure(dense), abs=ROUNDOFF)
    assert mechanism.expected_hamming_distortion(prior, 2.5) == pytest.approx(
        2.5 * ExpectedDistortion(Prior(prior)).value(dense), abs=ROUNDOFF)
    assert np.allclose(mechanism.output_distribution(prior), prior @ dense, rtol=0, atol=ROUNDOFF)
    assert np.allclose(mechanism.diagonal(), np.diagonal(dense), rtol=0, atol=ROUNDOFF)


def test_randomized_response_on_a_subset():
    mechanism = KeepOrRedraw.randomized_response([1, 3], 4, math.log(3))
    expected = np.array([[0, 0.5, 0, 0.5], [0, 0.75, 0, 0.25], [0, 0.5, 0, 0.5], [0, 0.25, 0, 0.75]])
    assert np.allclose(mechanism.matrix, expected, rtol=0, atol=ROUNDOFF)
    assert mechanism.local_dp_leakage() == pytest.approx(math.log(3), abs=ROUNDOFF)


def test_huge_budget_keeps_positive_off_diagonal_entries():
    # 1 − c rounds to 1 at ε = 600, but c r_y = e^{−600}/(1 + e^{−600}) survives: the measure is finite.
    mechanism = KeepOrRedraw.randomized_response([0, 1, 2], 3, 600.0)
    assert mechanism.local_dp_leakage() == pytest.approx(600.0, rel=1e-12)


def test_sampling_follows_the_matrix():
    # 200,000 draws per input; each frequency within 5 standard deviations (binomial) of Q[x, y].
    mechanism = KeepOrRedraw([0.2, 1.0, 0.6], [0.5, 0.0, 0.5])
    draws = 200_000
    for x in range(3):
        outputs = mechanism.sample(np.full(draws, x), rng=x)
        frequencies = np.bincount(outputs, minlength=3) / draws
        tolerance = 5 * np.sqrt(mechanism.matrix[x] * (1 - mechanism.matrix[x]) / draws) + 1e-12
        assert np.all(np.abs(frequencies - mechanism.matrix[x]) <= tolerance)


def test_sampling_is_exact_for_the_rounded_parameters():
    # Redraw probability 2**-40 with a row whose float sum is not exactly 1: the redraw decision is an
    # integer comparison (no 1 - c rounding), the redraw an exact sampler of the row.
    redraw = np.array([2.0**-40, 0.5, 1.0])
    row = np.array([0.1, 0.2, 0.7])
    mechanism = KeepOrRedraw(redraw, row)
    units = probability_units(np.stack([1.0 - redraw, redraw], axis=1))[:, 1]
    assert units.tolist() == [2**13, 2**52, 2**53]
    rounded_row = ExactSampler(row[None, :]).rounded[0]
    dense = (1.0 - units / 2**53)[:, None] * np.eye(3) + (units / 2**53)[:, None] * rounded_row[None, :]
    draws = 60_000
    for x in (1, 2):
        counts = np.bincount(mechanism.sample(np.full(draws, x), rng=x), minlength=3)
        assert stats.chisquare(counts, draws * dense[x]).pvalue > 1e-4


def test_sampling_a_large_structured_mechanism_stays_o_of_n():
    # n = 10**5: the dense matrix (10**10 entries) is refused, sampling never builds it.
    n = 10**5
    mechanism = KeepOrRedraw.randomized_response(np.arange(n), n, 1.0)
    outputs = mechanism.sample(np.arange(n), rng=0)
    assert outputs.shape == (n,) and mechanism._dense is None
    assert 0.0 < np.mean(outputs == np.arange(n)) < 0.01


def test_dense_matrix_is_refused_beyond_the_limit():
    n = math.isqrt(MAX_DENSE_ENTRIES) + 1
    mechanism = KeepOrRedraw(np.ones(n), np.full(n, 1.0 / n))
    with pytest.raises(ProblemTooLargeError, match="MAX_DENSE_ENTRIES"):
        mechanism.matrix
    assert mechanism.shape == (n, n) and mechanism.output_distribution(np.full(n, 1.0 / n)).sum() == pytest.approx(1.0)


@pytest.mark.parametrize("redraw, row, match", [
    ([0.5, 1.5], [0.5, 0.5], r"redraw\[1\] = 1.5"),
    ([0.5, math.nan], [0.5, 0.5], r"redraw has a non-finite entry nan at index \(1,\)"),
    ([[0.5]], [1.0], "1-D"),
])
def test_bad_parameters_are_named_errors(redraw, row, match):
    with pytest.raises(InvalidMechanismError, match=match):
        KeepOrRedraw(redraw, row)


@pytest.mark.parametrize("scale, match", [
    (0.0, "scale must be > 0, got 0.0"),
    (-1.0, "scale must be a finite number >= 0, got -1.0"),
    (math.inf, "scale must be a finite number >= 0, got inf"),
    (math.nan, "scale is NaN"),
])
def test_bad_distortion_scale_is_a_named_error(scale, match):
    with pytest.raises(MechDesignError, match=match):
        KeepOrRedraw([0.5, 0.5], [0.5, 0.5]).expected_hamming_distortion([0.5, 0.5], scale)


def test_sample_takes_a_seed_or_a_generator():
    mechanism, inputs = KeepOrRedraw([0.2, 0.5, 1.0], [0.3, 0.3, 0.4]), np.arange(300) % 3
    assert np.array_equal(mechanism.sample(inputs, rng=8), mechanism.sample(inputs, rng=np.random.default_rng(8)))
    with pytest.raises(MechDesignError, match="rng must be None, a non-negative integer seed or a numpy Generator, got -1"):
        mechanism.sample(inputs, rng=-1)


def test_bad_subset_is_a_named_error():
    with pytest.raises(InvalidMechanismError, match=r"subset\[0\] must be an integer in 0..2, got 5"):
        KeepOrRedraw.randomized_response([5], 3, 1.0)
    with pytest.raises(InvalidMechanismError, match=r"subset must be a non-empty 1-D sequence of indices"):
        KeepOrRedraw.randomized_response([], 3, 1.0)
    with pytest.raises(InvalidBudgetError, match="epsilon must be a number >= 0 \\(or inf\\), got -1.0"):
        KeepOrRedraw.randomized_response([0, 1], 3, -1.0)
