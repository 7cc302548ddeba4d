"""Tests of mechdesign.mechanisms.histogram (SML paper §V-B and §VI-A)."""

import math

import numpy as np
import pytest

from mechdesign.exceptions import MechDesignError, ProblemTooLargeError, ShapeMismatchError
from mechdesign.mechanisms.histogram import (
    MAX_MAXL_ENTRIES,
    histogram_maxl,
    histogram_quantization,
    histogram_randomized_response,
    maxl_candidates,
    maxl_mechanism,
    quantization_bins,
    quantization_mechanism,
    quantization_targets,
    sample_composition,
    sample_quantization,
    sample_randomized_response,
)
from mechdesign.privacy.sml import Secret, is_deterministic, measure_sml
from mechdesign.tabular import HistogramSpace, category_fraction_secret, tv_cost

#: Monte Carlo frequencies are compared with exact probabilities within 5 standard errors.
SAMPLING_SIGMAS = 5


def test_randomized_response_matrix():
    space = HistogramSpace(2, 3)
    Q = histogram_randomized_response(space, math.log(3)).matrix
    assert np.allclose(np.diag(Q), 3 / 8, atol=1e-15) and np.allclose(Q[~np.eye(6, dtype=bool)], 1 / 8, atol=1e-15)


def test_quantization_bins_and_targets():
    assert [b.tolist() for b in quantization_bins(7, 3)] == [[0, 1, 2], [3, 4, 5], [6]]
    # R(k) - 1 = floor((k + 1/2) I): 1, 4, and 7 clamped to s - 1 = 6 for the partial last bin.
    assert quantization_targets(7, 3).tolist() == [1, 4, 6]
    assert quantization_targets(4, 1).tolist() == [0, 1, 2, 3]


def test_quantization_mechanism_forms():
    space = HistogramSpace(3, 2)  # secret (count of category 0) takes 4 values, one histogram each
    Q = histogram_quantization(space, 0, 2).matrix
    secret = category_fraction_secret(space, 0)
    # bins {0, 1/3} → 1/3 and {2/3, 1} → 1 (index floor(1.5 * 2) = 3).
    released = secret.values[np.argmax(Q, axis=1)]
    assert np.allclose(released, np.where(secret.values < 0.5, 1 / 3, 1.0), atol=1e-15)
    assert is_deterministic(Q)
    unordered = quantization_mechanism(secret, secret, 2, ordered=False).matrix
    assert np.allclose(unordered.sum(axis=1), 1) and np.allclose(unordered[unordered > 0], 0.5)
    with pytest.raises(MechDesignError, match="has no output"):
        quantization_mechanism(Secret([0, 1, 2]), Secret([0, 2]), 3)


def test_estimated_support_restricts_outputs():
    inputs = HistogramSpace(2, 3, support=[0, 1])      # Γ* = {0, 1}
    outputs = HistogramSpace(2, 3)                      # Γ̂* ∪ Γ* = {0, 1, 2}
    Q = histogram_randomized_response(inputs, 1.0, outputs, estimated_support=[0, 2]).matrix
    # θ = (2, 0, 0): support {0} ∪ Γ̂* = {0, 2}: 3 candidate outputs.
    row = Q[inputs.index([2, 0, 0])]
    assert (row > 0).sum() == 3 and row.max() == pytest.approx(math.e / (3 + math.e - 1), abs=1e-15)
    # θ = (1, 1, 0): support {0, 1} ∪ {0, 2}: all 6 outputs.
    assert (Q[inputs.index([1, 1, 0])] > 0).sum() == 6
    with pytest.raises(MechDesignError, match=r"estimated_support\[1\] must be an integer in 0..2, got -1"):
        histogram_randomized_response(inputs, 1.0, outputs, estimated_support=[0, -1])  # -1 used to mean category 2
    with pytest.raises(ShapeMismatchError, match="histogram spaces differ"):
        histogram_randomized_response(inputs, 1.0, HistogramSpace(3, 3))


def test_maxl_mechanism_is_deterministic_and_bounded():
    space = HistogramSpace(4, 3)
    secret = category_fraction_secret(space, 0)
    for interval in (1, 2, 5):
        Q = maxl_mechanism(tv_cost(space), secret, interval, rng=0)
        assert is_deterministic(Q)
        bins = math.ceil(5 / interval)
        assert (Q.matrix.max(axis=0) > 0).sum() <= bins
        assert measure_sml(Q, secret).value <= math.log(bins) + 1e-12


def test_samplers_match_explicit_mechanisms():
    rng = np.random.default_rng(1)
    space = HistogramSpace(3, 3)
    draws = 4000
    for mechanism, sampler in [
        (histogram_randomized_response(space, 1.5), lambda c: sample_randomized_response(c, 1.5, rng)),
        (histogram_quantization(space, 0, 2), lambda c: sample_quantization(c, 0, 2, rng)),
    ]:
        row = space.index([0, 3, 0])
        frequencies = np.bincount([space.index(sampler(np.array([0, 3, 0]))) for _ in range(draws)], minlength=space.size) / draws
        expected = mechanism.matrix[row]
        error = SAMPLING_SIGMAS * np.sqrt(expected * (1 - expected) / draws) + 1e-12
        assert (np.abs(frequencies - expected) <= error).all()
    assert sample_composition(5, 4, 0).sum() == 5
    # Adult scale: the keep probability is computed in log space.
    counts = np.zeros(200, dtype=np.int64)
    counts[:4] = [30000, 2000, 500, 61]
    out = sample_randomized_response(counts, 4.0, rng)
    assert out.sum() == 32561 and not np.array_equal(out, counts)
    with pytest.raises(MechDesignError, match="counts must be"):
        sample_quantization(np.array([1.5, 2.0]), 0, 1)


def test_maxl_candidates_uniform_within_bins():
    """One histogram per bin, uniform over the bin's histograms (as maxl_mechanism's default draw)."""
    space = HistogramSpace(4, 3)
    draws = 3000
    rng = np.random.default_rng(5)
    seen = np.array([[space.index(row) for row in maxl_candidates(4, 3, 0, 2, rng)] for _ in range(draws)])
    secret = space.counts[:, 0]
    for k, members in enumerate(quantization_bins(5, 2)):
        in_bin = np.flatnonzero(np.isin(secret, members))
        assert np.isin(seen[:, k], in_bin).all()
        frequencies = np.bincount(seen[:, k], minlength=space.size)[in_bin] / draws
        expected = 1 / in_bin.size
        assert (np.abs(frequencies - expected) <= SAMPLING_SIGMAS * math.sqrt(expected * (1 - expected) / draws)).all()


def test_maxl_sampler_bad_input():
    with pytest.raises(MechDesignError, match="category must be"):
        maxl_candidates(5, 3, 1.0, 1)
    with pytest.raises(MechDesignError, match="d must be an integer >= 2"):
        maxl_candidates(5, 1, 0, 1)
    with pytest.raises(ProblemTooLargeError, match="candidate entries"):
        maxl_candidates(MAX_MAXL_ENTRIES, 2, 0, 1)
    with pytest.raises(MechDesignError, match="full space"):
        histogram_maxl(HistogramSpace(2, 3, support=[0, 1]), 0, 1)
    space = HistogramSpace(2, 2)
    with pytest.raises(MechDesignError, match="candidates must be"):
        maxl_mechanism(tv_cost(space), category_fraction_secret(space, 0), 1, candidates=[7])


def test_histogram_randomized_response_beyond_the_float_range_of_e_epsilon_is_the_identity():
    """``P(θ' = θ) = 1/(1 + (N − 1) e^{-ε})`` (SML paper, §V-B(a)) is 1 once ``e^{-ε}`` underflows."""
    space = HistogramSpace(2, 2)
    assert histogram_randomized_response(space, 800.0).matrix.tolist() == np.eye(space.size).tolist()
    moderate = histogram_randomized_response(space, 1.0).matrix
    assert moderate[0, 0] == pytest.approx(math.e / (space.size - 1 + math.e), rel=1e-14)


def test_maxl_candidates_draw_categories_in_range():
    with pytest.raises(MechDesignError, match="category must be an integer in 0..2"):
        maxl_candidates(6, 3, 3, 1)
