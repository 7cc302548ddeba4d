"""Tests of mechdesign.mechanisms.oracles: structured frequency oracles against their dense matrices."""

import json
import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats
from scipy.linalg import hadamard

from mechdesign import DifferentialPrivacy, MaximalLeakage
from mechdesign.exceptions import (
    InvalidBudgetError,
    MechDesignError,
    ProblemTooLargeError,
    ShapeMismatchError,
    UnknownCategoryError,
)
from mechdesign.frequency import estimation_variance
from mechdesign.mechanisms.oracles import (
    ORACLES,
    HadamardResponse,
    OptimizedLocalHashing,
    OptimizedUnaryEncoding,
    RandomizedResponse,
    SubsetSelection,
    best_block_width,
    best_hash_range,
    binomial_probabilities,
    fast_walsh_hadamard,
    oracle_from_parameters,
    uniform_integers,
    uniform_subsets,
)

from ..strategies import full_support_priors

#: Round-off allowed between a closed form and the same quantity from the dense matrix.
DENSE_RTOL = 1e-9
#: Smallest χ² p-value accepted for seeded samples (a false alarm has probability 1e-6 per test).
CHI_SQUARE_LEVEL = 1e-6


def small_oracles(size, epsilon):
    """Every oracle family at every parameter whose dense matrix is small, on ``size`` symbols."""
    oracles = [RandomizedResponse(size, epsilon), OptimizedUnaryEncoding(size, epsilon)]
    oracles += [SubsetSelection(size, epsilon, d) for d in range(1, size)]
    oracles += [HadamardResponse(size, epsilon, 2**power) for power in range(1, size.bit_length() + 1)]
    oracles += [OptimizedLocalHashing(size, epsilon, g) for g in (2, 3, 4) if g ** (size - 1).bit_length() <= 64]
    return oracles


@given(st.integers(2, 6).flatmap(lambda k: st.tuples(st.just(k), full_support_priors(k))), st.floats(0.05, 4.0))
def test_closed_forms_match_the_dense_matrix(case, epsilon):
    # Each oracle's estimator is a left inverse of its matrix (unbiased), its variance is the dense
    # multinomial formula with that estimator, and its LDP parameter is the dense matrix's measure.
    size, prior = case
    for oracle in small_oracles(size, epsilon):
        matrix = oracle.matrix
        estimator = oracle.estimator_matrix()
        assert matrix.shape == (size, oracle.n_outputs) and np.allclose(matrix.sum(axis=1), 1.0, atol=1e-12)
        assert np.allclose(matrix @ estimator, np.eye(size), atol=1e-9), oracle
        assert np.allclose(oracle.variances(prior), estimation_variance(matrix, prior, estimator=estimator),
                           rtol=DENSE_RTOL), oracle
        assert DifferentialPrivacy().measure(oracle) == pytest.approx(oracle.local_dp_leakage(), abs=1e-9)


@given(st.integers(2, 6), st.floats(0.05, 4.0))
def test_report_probabilities_are_those_of_the_matrix(size, epsilon):
    # p = P(report supports x | x) and q = P(it supports x | x') for every x' ≠ x (q₁ within a block
    # of Hadamard response, whose other blocks have their own q₂).
    for oracle in small_oracles(size, epsilon):
        hit, false_hit = oracle.report_probabilities()
        supported = oracle.matrix @ oracle._supports()  # [x, x'] = P(report supports x' | x)
        assert np.allclose(np.diag(supported), hit, atol=1e-12), oracle
        if isinstance(oracle, HadamardResponse):
            blocks = np.arange(size) // (oracle.block_width - 1)
            same = (blocks[:, None] == blocks[None, :]) & ~np.eye(size, dtype=bool)
            assert np.allclose(supported[same], false_hit, atol=1e-12), oracle
        else:
            assert np.allclose(supported[~np.eye(size, dtype=bool)], false_hit, atol=1e-12), oracle


def test_unbiased_estimator_for_symmetric_oracles_is_the_pseudo_inverse():
    # k-RR and subset selection: the closed-form estimator is Q⁺ (frequency.py notes), so the variance
    # of the pseudo-inverse estimator is the closed form too.
    prior = np.array([0.4, 0.3, 0.2, 0.1])
    for oracle in (RandomizedResponse(4, 0.7), SubsetSelection(4, 0.7, 2)):
        assert np.allclose(estimation_variance(oracle.matrix, prior), oracle.variances(prior), rtol=DENSE_RTOL)


@pytest.mark.parametrize("oracle", [RandomizedResponse(5, 1.0), SubsetSelection(5, 0.5, 2),
                                    OptimizedUnaryEncoding(4, 0.8), OptimizedLocalHashing(3, 1.2, 3),
                                    HadamardResponse(5, 0.6, 4), HadamardResponse(5, 2.0, 2),
                                    HadamardResponse(3, 0.3, 4)], ids=repr)
def test_samples_follow_the_matrix(oracle):
    # χ² goodness of fit of 30,000 seeded reports of each input against its row of the dense matrix;
    # outputs the matrix gives probability 0 never occur.
    rng = np.random.default_rng(7)
    count = 30_000
    for symbol in range(oracle.size):
        observed = np.bincount(oracle.sample(np.full(count, symbol), rng), minlength=oracle.n_outputs)
        expected = oracle.matrix[symbol] * count
        assert observed[expected == 0].sum() == 0
        used = expected > 0
        assert stats.chisquare(observed[used], expected[used]).pvalue > CHI_SQUARE_LEVEL, (oracle, symbol)


def test_estimates_are_unbiased_within_their_standard_errors():
    # 200,000 seeded reports of a skewed prior: each estimate within 5 standard errors of the truth,
    # and the plug-in standard error within 5 % of the exact one.
    truth = np.array([0.5, 0.2, 0.15, 0.1, 0.05])
    rng = np.random.default_rng(3)
    inputs = rng.choice(5, size=200_000, p=truth)
    for oracle in small_oracles(5, 1.0):
        estimate, error = oracle.estimate(oracle.tally(oracle.privatize(inputs, rng)), inputs.size)
        exact = np.sqrt(oracle.variances(truth, inputs.size))
        assert (np.abs(estimate - truth) <= 5 * exact).all(), oracle
        assert np.allclose(error, exact, rtol=0.05), oracle


@pytest.mark.parametrize("oracle", [RandomizedResponse(6, 1.0), SubsetSelection(9, 0.5, 3),
                                    OptimizedUnaryEncoding(11, 1.0), OptimizedLocalHashing(7, 1.0, 3),
                                    HadamardResponse(9, 1.0, 4)], ids=repr)
def test_tallies_add_up_and_labels_round_trip(oracle):
    rng = np.random.default_rng(1)
    inputs = rng.integers(0, oracle.size, 500)
    reports = oracle.privatize(inputs, rng)
    assert np.array_equal(oracle.tally(reports), oracle.tally(reports[:123]) + oracle.tally(reports[123:]))
    categories = [f"c{i}" for i in range(oracle.size)]
    labels = oracle.labels(reports, categories)
    json.dumps(labels.tolist())  # JSON-serializable
    assert np.array_equal(oracle.reports_from_labels(labels, categories), reports)
    assert np.array_equal(oracle.index_reports(oracle.report_index(reports)), reports)


@pytest.mark.parametrize("oracle", small_oracles(4, 1.0), ids=repr)
def test_every_output_has_its_own_label(oracle):
    """H1: labels are unique by construction (two outputs never share a label)."""
    labels = oracle.output_labels(["a", "b", "a|b", "b|c"])
    assert len(labels) == oracle.n_outputs and len({json.dumps(label) for label in labels}) == len(labels)


def test_the_defects_of_issue_34_have_their_numbers():
    """Issue 34: k = 1000, ε = 1: k-RR 339,522 against ≈ 3,675 (subset selection) and ≈ 3,683 (OUE);
    Adult native-country (k = 42) at ε = 0.1: subset selection d = 3 gives 55,378, d = 20 15,995, OUE 16,786."""
    assert RandomizedResponse(1000, 1.0).total_variance() == pytest.approx(339_522, abs=0.5)
    best = min(range(1, 1000), key=lambda d: SubsetSelection(1000, 1.0, d).total_variance())
    assert SubsetSelection(1000, 1.0, best).total_variance() == pytest.approx(3_675, abs=0.5)
    assert SubsetSelection(42, 0.1, 3).total_variance() == pytest.approx(55_378, abs=0.5)
    assert SubsetSelection(42, 0.1, 20).total_variance() == pytest.approx(15_996, abs=0.5)
    # the issue's OUE figures are Wang et al.'s approximation k · 4e^ε / (e^ε − 1)²; the exact variance
    # (π_x = q + (p − q)/k instead of q) is within 0.1 % of it
    for size, epsilon, approximate in ((1000, 1.0, 3_683), (42, 0.1, 16_786)):
        assert size * 4 * math.exp(epsilon) / math.expm1(epsilon) ** 2 == pytest.approx(approximate, abs=0.5)
        assert OptimizedUnaryEncoding(size, epsilon).total_variance() == pytest.approx(approximate, rel=1e-3)


def test_large_oracles_run_without_their_matrix():
    # k = 1000 subset selection (C(1000, 269) outputs) and k = 10⁴ Hadamard response: privatize, tally and
    # estimate in O(k) per report; the dense matrix is refused by name.
    rng = np.random.default_rng(0)
    for oracle in (SubsetSelection(1000, 1.0, 269), HadamardResponse(10_000, 1.0, 16_384)):
        inputs = rng.integers(0, 10, 2_000)
        estimate, error = oracle.estimate(oracle.tally(oracle.privatize(inputs, rng)), inputs.size)
        assert estimate.shape == (oracle.size,) and np.isfinite(error).all()
        assert abs(estimate[10:].sum()) <= 5 * math.sqrt(oracle.variances(np.bincount(inputs, minlength=oracle.size)
                                                                          / inputs.size, inputs.size)[10:].sum()) * 10
    with pytest.raises(ProblemTooLargeError, match=r"dense matrix of subset-selection\(d=269\) over k = 1000"):
        SubsetSelection(1000, 1.0, 269).matrix
    with pytest.raises(ProblemTooLargeError, match="beyond int64 indices"):
        SubsetSelection(1000, 1.0, 269).report_index(np.zeros((1, 125), dtype=np.uint8))
    with pytest.raises(ProblemTooLargeError, match="MAX_LISTED_OUTPUTS"):
        SubsetSelection(42, 0.1, 20).output_labels()


def test_other_notions_measure_the_small_ones():
    oracle = SubsetSelection(5, 1.0, 2)
    # maximal leakage of subset selection: log(k e^ε / (d e^ε + k − d))
    assert MaximalLeakage().measure(oracle) == pytest.approx(math.log(5 * math.e / (2 * math.e + 3)), abs=1e-12)


def test_uniform_integers_and_subsets():
    rng = np.random.default_rng(4)
    for bound in (1, 3, 7, 8192, 8193, 10**9):
        values = uniform_integers(bound, 60_000, rng)
        assert values.min() >= 0 and values.max() < bound
        if bound <= 8193:
            counts = np.bincount(values, minlength=bound)
            assert bound == 1 or stats.chisquare(counts).pvalue > CHI_SQUARE_LEVEL
    # every 2-subset of 5 items equally likely (Floyd's algorithm), complements included (size 4 > 5 // 2)
    for size in (2, 4):
        chosen = uniform_subsets(np.full(30_000, size), 5, rng)
        assert (chosen.sum(axis=1) == size).all()
        codes = chosen @ (1 << np.arange(5))
        counts = np.unique(codes, return_counts=True)[1]
        assert counts.size == math.comb(5, size) and stats.chisquare(counts).pvalue > CHI_SQUARE_LEVEL
    skipped = uniform_subsets(np.array([3, 0]), 3, rng, skip=np.array([1, 3]))
    assert skipped.tolist() == [[True, False, True, True], [False, False, False, False]]
    # 5 of 12 starts from bytes below round(256 · 5/12) = 107, then removes a surplus or adds a shortfall:
    # all 792 subsets equally likely, with and without a skipped column
    for skip in (None, np.full(160_000, 4)):
        chosen = uniform_subsets(np.full(160_000, 5), 12, rng, skip=skip)
        if skip is not None:
            assert not chosen[:, 4].any()
            chosen = np.delete(chosen, 4, axis=1)
        assert (chosen.sum(axis=1) == 5).all()
        counts = np.unique(chosen @ (1 << np.arange(12)), return_counts=True)[1]
        assert counts.size == math.comb(12, 5) and stats.chisquare(counts).pvalue > CHI_SQUARE_LEVEL


def test_binomial_probabilities_and_the_hadamard_transform():
    assert np.allclose(binomial_probabilities(10, 0.3), stats.binom.pmf(np.arange(11), 10, 0.3), atol=1e-15)
    assert binomial_probabilities(3, 0.0).tolist() == [1.0, 0.0, 0.0, 0.0]
    values = np.random.default_rng(0).integers(-5, 5, (3, 16))
    assert np.array_equal(fast_walsh_hadamard(values), values @ hadamard(16))


def test_hadamard_columns_of_either_parity_are_reached_once():
    # _column_of_parity maps the b/2 ranks onto the b/2 columns of each parity, for every row.
    from mechdesign.mechanisms.oracles import _column_of_parity

    width = 16
    matrix = hadamard(width)
    for row in range(1, width):
        for parity in (0, 1):
            columns = _column_of_parity(np.full(width // 2, row), np.arange(width // 2), np.full(width // 2, parity))
            assert sorted(columns.tolist()) == np.flatnonzero(matrix[row] == (1 - 2 * parity)).tolist()


def test_best_parameters_are_the_least_variance():
    # every g up to twice beyond the searched range, and every power of 2 as block width
    for size, epsilon in ((100, 1.0), (1000, 0.1), (42, 4.0), (200, 6.0)):
        ranges = range(2, math.ceil(math.exp(epsilon)) * 4 + 8)
        exhaustive = min(ranges, key=lambda g: OptimizedLocalHashing(size, epsilon, g).total_variance())
        assert best_hash_range(size, epsilon) == exhaustive
    for size, epsilon in ((100, 1.0), (1000, 0.1), (42, 4.0), (10_000, 8.0)):
        widths = [2**power for power in range(1, 16)]
        brute = min(widths, key=lambda b: HadamardResponse(size, epsilon, b).total_variance())
        assert best_block_width(size, epsilon) == brute


def test_parameters_round_trip():
    for oracle in small_oracles(5, 0.5):
        assert oracle_from_parameters(json.loads(json.dumps(oracle.parameters()))) == oracle
    assert set(ORACLES) == {"randomized-response", "subset-selection", "optimized-unary-encoding",
                            "optimized-local-hashing", "hadamard-response"}
    assert SubsetSelection(5, 0.5, 2) != SubsetSelection(5, 0.5, 3)
    with pytest.raises(MechDesignError, match="unknown oracle family 'rappor'"):
        oracle_from_parameters({"family": "rappor", "size": 3, "epsilon": 1.0})
    with pytest.raises(MechDesignError, match="takes other parameters"):
        oracle_from_parameters({"family": "subset-selection", "size": 3, "epsilon": 1.0})


def test_bad_input_is_named():
    """Issue 34, bad input: k = 1, ε = 0, reports of another oracle or another k, counts that are not counts."""
    with pytest.raises(MechDesignError, match="size must be an integer >= 2, got 1"):
        RandomizedResponse(1, 1.0)
    with pytest.raises(InvalidBudgetError, match="epsilon must be a finite number >= 0"):
        SubsetSelection(4, -1.0, 2)
    with pytest.raises(InvalidBudgetError, match="at epsilon = 0 reports nothing about its input: every frequency"):
        OptimizedUnaryEncoding(4, 0.0).variances([0.25] * 4)
    with pytest.raises(InvalidBudgetError, match="at epsilon = 0"):
        HadamardResponse(4, 0.0, 8).estimate([1] * 8, 8)
    with pytest.raises(MechDesignError, match="block_width must be a power of 2, got 6"):
        HadamardResponse(4, 1.0, 6)
    with pytest.raises(MechDesignError, match="subset_size must be an integer >= 1 and <= 3, got 4"):
        SubsetSelection(4, 1.0, 4)
    subsets = SubsetSelection(10, 1.0, 3)
    reports = subsets.reports_from_labels([(0, 1, 9), (2, 3, 4)])
    with pytest.raises(MechDesignError, match=r"reports\[0\] sets a bit beyond symbol 8: not a report over k = 9"):
        SubsetSelection(9, 1.0, 3).tally(reports)  # another k with as many bytes per report
    with pytest.raises(ShapeMismatchError, match=r"reports of subset-selection\(d=3\) over k = 20: a uint8 array"):
        SubsetSelection(20, 1.0, 3).tally(reports)
    with pytest.raises(MechDesignError, match=r"reports\[0\] holds 3 symbols, but a report of subset-selection\(d=4\)"):
        SubsetSelection(10, 1.0, 4).tally(reports)
    with pytest.raises(MechDesignError, match="sets a bit beyond symbol 8"):
        OptimizedUnaryEncoding(9, 1.0).tally(np.array([[0, 2]], dtype=np.uint8))
    with pytest.raises(MechDesignError, match=r"outputs of hadamard-response\(b=4\) over k = 3.*must be an integer in 0..3"):
        HadamardResponse(3, 1.0, 4).tally([0, 4])
    with pytest.raises(MechDesignError, match=r"is outside 0..2: not a report of optimized-local-hashing\(g=3\)"):
        OptimizedLocalHashing(4, 1.0, 3).tally([[0, 1, 2, 3]])
    with pytest.raises(ShapeMismatchError, match=r"tally must have 3 counts"):
        RandomizedResponse(3, 1.0).estimate([1, 2], 3)
    with pytest.raises(MechDesignError, match=r"tally\[1\] = nan is not a count"):
        RandomizedResponse(3, 1.0).estimate([1.0, math.nan, 1.0], 3)
    with pytest.raises(MechDesignError, match=r"tally\[0\] = -1 is not a count"):
        RandomizedResponse(3, 1.0).estimate([-1, 2, 2], 3)
    with pytest.raises(MechDesignError, match="tally does not count 5 reports"):
        RandomizedResponse(3, 1.0).estimate([1, 1, 1], 5)
    with pytest.raises(UnknownCategoryError, match=r"labels\[1\] = 'z' is not a known output of the mechanism"):
        RandomizedResponse(3, 1.0).reports_from_labels(["a", "z"], "abc")
    with pytest.raises(MechDesignError, match=r"labels\[0\] = \('a', 'a'\) repeats a category"):
        OptimizedUnaryEncoding(3, 1.0).reports_from_labels([("a", "a")], "abc")
    with pytest.raises(MechDesignError, match=r"labels\[0\] = '9:0' is not a report of optimized-local-hashing"):
        OptimizedLocalHashing(2, 1.0, 2).reports_from_labels(["9:0"])
    with pytest.raises(MechDesignError, match=r"labels\[0\] = True is not a report of hadamard-response"):
        HadamardResponse(3, 1.0, 4).reports_from_labels([True])
    with pytest.raises(ShapeMismatchError, match="categories has 2 entries, but randomized-response has k = 3"):
        RandomizedResponse(3, 1.0).labels([0], "ab")


def test_reports_that_do_not_fit_in_memory_are_refused_before_drawing(monkeypatch):
    import mechdesign.mechanisms.oracles as oracles

    monkeypatch.setattr(oracles, "check_memory", lambda estimate, what: (_ for _ in ()).throw(
        ProblemTooLargeError(f"{what} needs {estimate}")))
    with pytest.raises(ProblemTooLargeError, match=r"the reports of 3 records by optimized-unary-encoding over k = 10"):
        OptimizedUnaryEncoding(10, 1.0).privatize([0, 1, 2])
