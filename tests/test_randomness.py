"""Tests of mechdesign.randomness: OS entropy by default, seeded releases warned, exact integer sampling."""

from __future__ import annotations

import math
import time
import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats

from mechdesign import Mechanism
from mechdesign.exceptions import InvalidMechanismError, MechDesignError, ProblemTooLargeError
from mechdesign.mechanisms import randomized_response
from mechdesign.randomness import (
    RESOLUTION_BITS,
    SEEDED_NOTICE,
    TOTAL_UNITS,
    ExactSampler,
    SeededReleaseWarning,
    probability_units,
    random_bits,
    release_rng,
)
from mechdesign.structured import KeepOrRedraw

from .strategies import stochastic_matrices

UNIT = 2.0**-RESOLUTION_BITS
#: Smallest accepted p-value of a chi-squared goodness-of-fit test of seeded draws (fixed seeds: a
#: deterministic test, which a sampler biased by a few percent fails with p far below this).
P_VALUE_FLOOR = 1e-4


def _chi_squared_p_value(outputs: np.ndarray, probabilities: np.ndarray) -> float:
    """p-value of the draws ``outputs`` against ``probabilities`` (outputs of probability 0 must not occur)."""
    counts = np.bincount(outputs, minlength=probabilities.size)
    support = probabilities > 0
    assert counts[~support].sum() == 0, "an output of probability 0 was drawn"
    return float(stats.chisquare(counts[support], outputs.size * probabilities[support]).pvalue)


def test_seeded_samples_fit_the_rounded_matrix():
    matrix = np.array([[0.1, 0.2, 0.3, 0.4], [0.7, 0.0, 0.0, 0.3], [1 / 3, 1 / 3, 0.0, 1 / 3]])
    sampler = ExactSampler(matrix)
    draws = 60_000
    for x in range(3):
        outputs = sampler.sample(np.full(draws, x), rng=x)
        assert _chi_squared_p_value(outputs, sampler.rounded[x]) > P_VALUE_FLOOR
    # The test has power: the same draws against a row moved by 0.02 are rejected.
    outputs = sampler.sample(np.zeros(draws, dtype=int), rng=0)
    assert _chi_squared_p_value(outputs, np.array([0.12, 0.18, 0.3, 0.4])) < P_VALUE_FLOOR


def test_interleaved_inputs_are_grouped_correctly():
    # Inputs in any order and shape: each output follows its own input's row.
    matrix = np.array([[1.0, 0.0, 0.0], [0.0, 0.5, 0.5], [0.0, 0.0, 1.0]])
    inputs = np.array([[2, 0, 1], [1, 0, 2]] * 5000)
    outputs = ExactSampler(matrix).sample(inputs, rng=3)
    assert outputs.shape == inputs.shape
    assert (outputs[inputs == 0] == 0).all() and (outputs[inputs == 2] == 2).all()
    assert set(np.unique(outputs[inputs == 1])) == {1, 2}
    assert _chi_squared_p_value(outputs[inputs == 1], matrix[1]) > P_VALUE_FLOOR


@given(stochastic_matrices(n_inputs=st.integers(1, 6), n_outputs=st.integers(1, 8)))
def test_rounding_stays_within_one_unit_of_the_normalized_row_and_keeps_the_support(matrix):
    rounded = ExactSampler(matrix).rounded
    assert (rounded.sum(axis=1) == 1.0).all()
    assert np.array_equal(rounded > 0, matrix > 0)
    # Within one unit of the stored entry once the row is scaled to sum to 1 (the stored rows sum to
    # 1 within a few units of round-off), and within that scaling of the stored entry itself.
    sums = np.array([math.fsum(row) for row in matrix])
    assert np.abs(rounded - matrix / sums[:, None]).max() <= UNIT * (1 + 1e-9)
    assert np.abs(rounded - matrix).max() <= UNIT * (1 + 1e-9) + np.abs(1 - sums).max()


@given(st.lists(st.lists(st.integers(0, 2**40), min_size=1, max_size=7).filter(any), min_size=1, max_size=5))
def test_rows_of_multiples_of_the_unit_are_sampled_exactly_as_stored(weights):
    # Rows summing exactly to 1 whose entries are multiples of 2**-53: the rounding changes nothing.
    width = max(map(len, weights))
    units = np.array([row + [0] * (width - len(row)) for row in weights], dtype=object)
    units[:, 0] += TOTAL_UNITS - units.sum(axis=1)  # rows of integers summing to 2**53
    matrix = (units.astype(np.float64)) / TOTAL_UNITS
    assert np.array_equal(ExactSampler(matrix).rounded, matrix)
    assert np.array_equal(probability_units(matrix), units.astype(np.int64))


def test_exact_rows_stay_within_one_unit_even_with_many_remainders():
    # Entries 1/7, 2/7, 4/7 (each rounded in float64); and a long row of 1/3 and 2/3 pairs.
    for row in (np.array([1, 2, 4]) / 7, np.tile([1 / 3, 2 / 3], 50) / 50):
        matrix = row[None, :]
        assert np.abs(ExactSampler(matrix).rounded - matrix / math.fsum(row)).max() <= UNIT


def test_tiny_entries_keep_one_unit_and_zeros_stay_zero():
    matrix = np.array([[1.0, 1e-300, 0.0, 5e-324], [0.5, 0.5 - 1e-17, 1e-17, 0.0]])
    units = probability_units(matrix)
    assert units[0].tolist() == [TOTAL_UNITS - 2, 1, 0, 1]
    assert units[1, 2] >= 1 and units[1, 3] == 0 and (units.sum(axis=1) == TOTAL_UNITS).all()
    outputs = ExactSampler(matrix).sample(np.zeros(1000, dtype=int), rng=0)
    assert set(outputs.tolist()) <= {0, 1, 3} and (outputs != 2).all()


def test_a_row_far_from_summing_to_one_is_scaled_by_its_sum():
    # Rows of a Mechanism sum to 1 within 1e-9: thousands of units, more than the row has entries.
    matrix = np.array([[0.25, 0.75 + 5e-10], [0.5 - 5e-10, 0.5]])
    rounded = ExactSampler(matrix).rounded
    assert (rounded.sum(axis=1) == 1.0).all()
    assert np.abs(rounded - matrix / matrix.sum(axis=1, keepdims=True)).max() <= 2 * UNIT


def test_os_entropy_draws_differ_between_calls_and_seeded_ones_repeat():
    first, second = random_bits(64, None), random_bits(64, None)
    assert first.dtype == np.uint64 and (first < TOTAL_UNITS).all()
    assert not np.array_equal(first, second)  # equal with probability 2**-3392
    assert np.array_equal(random_bits(64, np.random.default_rng(5)), random_bits(64, np.random.default_rng(5)))
    rr = randomized_response(10, 0.1)
    inputs = np.zeros(200, dtype=int)
    assert not np.array_equal(rr.sample(inputs), rr.sample(inputs))  # P(equal) = (Σ_y Q[0, y]²)^200 < 1e-170
    assert np.array_equal(rr.sample(inputs, rng=1), rr.sample(inputs, rng=1))


def test_os_entropy_bits_are_uniform():
    bits = random_bits(50_000, None)
    # The top 4 bits of 53: 16 equally likely classes (a fixed-seed test cannot cover this source).
    classes = (bits >> np.uint64(RESOLUTION_BITS - 4)).astype(np.int64)
    assert stats.chisquare(np.bincount(classes, minlength=16)).pvalue > 1e-6
    assert random_bits(0, None).shape == (0,)


def test_a_seeded_release_warns_and_an_unseeded_one_does_not():
    with pytest.warns(SeededReleaseWarning, match="reproducible by anyone who knows the seed"):
        generator = release_rng(7)
    assert isinstance(generator, np.random.Generator)
    assert generator.random() == np.random.default_rng(7).random()
    with pytest.warns(SeededReleaseWarning, match="seed"):
        release_rng(np.random.default_rng(1), "random_state")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert release_rng(None) is None
    assert "--seed" in SEEDED_NOTICE and "tests only" in SEEDED_NOTICE and "\n" not in SEEDED_NOTICE


def test_bad_seed_and_bad_matrix_are_named_errors():
    with pytest.raises(MechDesignError, match="random_state must be None, a non-negative integer seed"):
        release_rng(-3)
    with pytest.raises(MechDesignError, match="size must be an integer >= 0, got -1"):
        random_bits(-1, None)
    with pytest.raises(InvalidMechanismError, match="row 0 sums to 0.9"):
        ExactSampler([[0.5, 0.4]])
    with pytest.raises(MechDesignError, match=r"inputs\[1\] must be an integer in 0..1, got 2"):
        ExactSampler(np.eye(2)).sample([0, 2])


def test_L7_a_huge_broadcast_input_meets_the_memory_guard_not_a_memory_error():
    """L7: sampling 10**10 inputs (a broadcast view, no memory of its own) is the memory guard's
    named error, raised before anything of that size is allocated — not a raw MemoryError."""
    huge = np.broadcast_to(np.int8(0), (10**10,))
    with pytest.raises(ProblemTooLargeError, match="sampling 10,000,000,000 inputs needs an estimated"):
        randomized_response(3, 1.0).sample(huge)
    with pytest.raises(ProblemTooLargeError, match="sampling 10,000,000,000 inputs"):
        KeepOrRedraw.randomized_response([0, 1], 3, 1.0).sample(huge)


def _sample_timed(mechanism, inputs: np.ndarray) -> np.ndarray:
    """``mechanism.sample(inputs)`` (seeded), asserting it takes under a second of this process's CPU
    time (so that the load of other processes does not count); the integer table is built beforehand."""
    mechanism.sample(inputs[:10], rng=0)
    start = time.process_time()
    outputs = mechanism.sample(inputs, rng=1)
    assert time.process_time() - start < 1.0
    return outputs


def _check_kept_fraction(outputs: np.ndarray, inputs: np.ndarray, expected: float) -> None:
    kept = np.mean(outputs == inputs)
    assert abs(kept - expected) < 5 * math.sqrt(expected * (1 - expected) / inputs.size)


def test_large_alphabets_sample_in_n_log_n():
    # 10**6 draws over 5,000 inputs: grouped by input (one sort), never an O(N × n) loop (which took
    # minutes).
    inputs = np.random.default_rng(0).integers(0, 5000, size=10**6)
    narrow = np.full((5000, 20), 0.5 / 19)
    narrow[:, 0] = 0.5  # output 0 with probability 1/2 from every input
    outputs = _sample_timed(Mechanism(narrow), inputs)
    assert _chi_squared_p_value(outputs, narrow[0]) > P_VALUE_FLOOR
    structured = KeepOrRedraw.randomized_response(np.arange(5000), 5000, 2.0)
    _check_kept_fraction(_sample_timed(structured, inputs), inputs, math.e**2 / (math.e**2 + 4999))


@pytest.mark.slow
def test_a_dense_5000_symbol_randomized_response_samples_in_n_log_n():
    # The dense 5000×5000 matrix (200 MB; its integer table takes seconds to build, once).
    inputs = np.random.default_rng(0).integers(0, 5000, size=10**6)
    _check_kept_fraction(_sample_timed(randomized_response(5000, 2.0), inputs), inputs, math.e**2 / (math.e**2 + 4999))


def _replayed_candidates(privatizer, values, released, seed):
    """The seed-replay attack of issue 29: re-run the release with ``seed`` as if every record held category
    x, for every x; record i's candidates are the x whose replayed output equals its released output. Sound
    exactly when ``seed`` drew the release (each record's draw depends on its position, not its value)."""
    candidates = np.zeros((len(values), len(privatizer.categories_[0])), dtype=bool)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SeededReleaseWarning)
        for x, category in enumerate(privatizer.categories_[0]):
            replayed = privatizer.set_params(random_state=seed).transform([category] * len(values))
            candidates[:, x] = [a == b for a, b in zip(replayed, released)]
    truth = np.array([candidates[i, list(privatizer.categories_[0]).index(v)] for i, v in enumerate(values)])
    return candidates, truth


def test_a_default_release_cannot_be_replayed_from_a_seed():
    """Issue 29: with the seed of a seeded release known, replaying it narrows each record's value (here
    ≈ 9 % of the Adult education records are pinned to one category at ε = 1; the issue measured 29.6 % on
    age groups); an unseeded release draws from the operating system's entropy, so the same replay is noise: it
    contradicts the true value of many records and pins the truth no more often than chance."""
    from mechdesign import Privatizer
    from mechdesign.datasets import load_adult

    values = load_adult(["education"])["education"][:4000].tolist()
    categories = sorted(set(load_adult(["education"])["education"].tolist()))  # the documented alphabet
    # A dense mechanism (the least Hamming distortion under the uniform prior), sampled by ExactSampler:
    # record i's output is a function of its value and its own draw, so the replay is exact when seeded.
    privatizer = Privatizer("dp", 1.0, objective="distortion", categories=categories).fit(values)
    with pytest.warns(SeededReleaseWarning):
        seeded = privatizer.set_params(random_state=0).transform(values)
    candidates, truth = _replayed_candidates(privatizer, values, seeded, seed=0)
    assert truth.all()  # the replay is sound for the seeded release ...
    sizes = candidates.sum(axis=1)
    assert (sizes == 1).mean() > 0.05  # ... and pins records' values exactly (each record whose value was kept)

    default = privatizer.set_params(random_state=None).transform(values)
    candidates, truth = _replayed_candidates(privatizer, values, default, seed=0)
    assert (~truth).mean() > 0.05  # the replay contradicts the true value of many records: it is not the draws
    pinned = candidates.sum(axis=1) == 1
    assert (truth & pinned).sum() < 0.5 * pinned.sum()  # pinned right only by chance (every time when seeded)
