"""Tests of mechdesign.mechanism.Mechanism."""

import numpy as np
import pytest

from mechdesign import Mechanism, Prior
from mechdesign.exceptions import InvalidMechanismError, MechDesignError, ShapeMismatchError

BSC = [[0.75, 0.25], [0.25, 0.75]]


def test_basic_properties_and_read_only():
    Q = Mechanism([[0.5, 0.25, 0.25], [0.0, 0.0, 1.0]])
    assert Q.shape == (2, 3) and Q.n_inputs == 2 and Q.n_outputs == 3
    with pytest.raises(ValueError):
        Q.matrix[0, 0] = 1.0
    assert np.array_equal(np.asarray(Q), Q.matrix)


def test_invalid_matrix_is_rejected_with_row_named():
    with pytest.raises(InvalidMechanismError, match="row 0 sums to 0.9"):
        Mechanism([[0.5, 0.4], [0.5, 0.5]])


def test_compose_is_matrix_product_and_checks_shape():
    Q = Mechanism(BSC)
    W = Mechanism([[1.0, 0.0, 0.0], [0.0, 0.5, 0.5]])
    assert np.allclose(Q.compose(W).matrix, np.array(BSC) @ W.matrix)
    with pytest.raises(ShapeMismatchError, match=r"channel has 3 rows \(one per output of the mechanism\), expected 2"):
        Q.compose(np.eye(3))


def test_output_distribution_and_joint():
    Q = Mechanism(BSC)
    assert np.allclose(Q.output_distribution([0.2, 0.8]), [0.35, 0.65])
    assert np.allclose(Q.joint(Prior([0.2, 0.8])), [[0.15, 0.05], [0.2, 0.6]])
    with pytest.raises(ShapeMismatchError):
        Q.output_distribution([0.2, 0.3, 0.5])


def test_sample_matches_the_conditional_distribution():
    Q = Mechanism([[0.2, 0.0, 0.8], [0.0, 1.0, 0.0]])
    inputs = np.zeros(20_000, dtype=int)
    outputs = Q.sample(inputs, rng=0)
    frequencies = np.bincount(outputs, minlength=3) / outputs.size
    # 5 standard errors of a Bernoulli(0.2) frequency over 20,000 draws: 5 * 0.00283.
    assert abs(frequencies[0] - 0.2) < 0.0142 and frequencies[1] == 0.0
    assert (Q.sample(np.ones((3, 4), dtype=int), rng=1) == 1).all()


def test_sample_rejects_bad_inputs():
    Q = Mechanism(BSC)
    with pytest.raises(MechDesignError, match=r"inputs\[1\] must be an integer in 0..1, got 2 \(1 bad of 2\)"):
        Q.sample([0, 2])
    with pytest.raises(MechDesignError, match=r"inputs\[0\] must be an integer in 0..1, got 0.5"):
        Q.sample([0.5])
    with pytest.raises(MechDesignError, match="rng must be None, a non-negative integer seed or a numpy Generator, got 'x'"):
        Q.sample([0, 1], rng="x")


def test_sample_takes_a_seed_or_a_generator_whose_stream_continues():
    Q, inputs = Mechanism(BSC), np.arange(200) % 2
    assert np.array_equal(Q.sample(inputs, rng=3), Q.sample(inputs, rng=np.random.default_rng(3)))
    generator, reference = np.random.default_rng(4), np.random.default_rng(4)
    Q.sample(inputs, rng=generator)
    reference.integers(0, 2**53, size=inputs.size, dtype=np.uint64)  # one uniform integer per input
    assert generator.random() == reference.random()
    assert Q.sample(np.array([], dtype=int), rng=0).shape == (0,)


def test_sample_without_rng_draws_from_the_operating_system():
    # rng=None is OS entropy (it was numpy's default_rng()): two calls differ, the seed of numpy's
    # global state plays no part.
    Q, inputs = Mechanism([[0.5, 0.5], [0.5, 0.5]]), np.zeros(256, dtype=int)
    np.random.seed(0)
    first = Q.sample(inputs)
    np.random.seed(0)
    assert not np.array_equal(first, Q.sample(inputs))  # equal with probability 2**-256


def test_equality_and_allclose():
    assert Mechanism(BSC) == Mechanism(BSC)
    assert Mechanism(BSC).allclose(np.array(BSC) + 1e-10 * np.array([[1, -1], [1, -1]]))
    assert not Mechanism(BSC).allclose(np.eye(2))


@pytest.mark.parametrize("matrix", [np.array([[0.75, 0.25], [0.25, 0.75]]) + 0j,
                                    np.array([[0.75, 0.25], [0.25, 0.75]]) + 1e-3j,
                                    [["0.5", "0.5"]]])
def test_complex_or_text_matrices_are_refused_never_cast(matrix):
    """A complex mechanism is an error even with zero imaginary parts: nothing is dropped silently."""
    with pytest.raises(InvalidMechanismError, match="mechanism must be numeric"):
        Mechanism(matrix)


def test_from_cleaned_checks_the_row_sums_it_does_not_skip():
    # The trusted path of a design's cleaned points: the same matrix as the full validation where the rows sum to 1,
    # and the same error where they do not (a row off by 2e-9, a row of NaN: a cleaned row whose entries were all
    # clipped to 0, an infinite entry); perturbing the check's tolerance or dropping it fails these.
    from mechdesign.result import clean_mechanism

    cleaned = clean_mechanism(np.array([[0.7, 0.3 + 1e-9, -1e-9], [0.2, 0.8, 1e-9]]))
    trusted = Mechanism.from_cleaned(cleaned)
    assert trusted == Mechanism(cleaned) and trusted.matrix is not cleaned
    with pytest.raises(ValueError):
        trusted.matrix[0, 0] = 1.0
    with pytest.raises(InvalidMechanismError, match=r"row 1 sums to 1.000000002 \(tolerance 1e-09; 1 bad row"):
        Mechanism.from_cleaned(np.array([[0.5, 0.5], [0.5, 0.5 + 2e-9]]))
    assert Mechanism.from_cleaned(np.array([[0.5, 0.5], [0.5, 0.5 + 5e-10]])).shape == (2, 2)
    with pytest.raises(InvalidMechanismError, match="row 0 sums to nan"):
        Mechanism.from_cleaned(np.array([[np.nan, np.nan], [0.5, 0.5]]))
    # clean_mechanism refuses a row whose entries were all clipped to 0 (it divided 0 by 0 into a NaN row)
    with pytest.raises(InvalidMechanismError, match="row 0 has no positive mass"):
        clean_mechanism(np.array([[-1.0, -2.0], [0.5, 0.5]]))
    with pytest.raises(InvalidMechanismError, match="row 1 has no positive mass"):
        clean_mechanism(np.array([[0.5, 0.5], [np.nan, 1.0]]))
    with pytest.raises(InvalidMechanismError, match="row 1 sums to inf"):
        Mechanism.from_cleaned(np.array([[0.5, 0.5], [np.inf, 0.0]]))


def test_from_cleaned_keeps_the_layout_the_full_validation_keeps():
    """A cleaned point read from HiGHS is column-major; ``Mechanism()`` keeps that layout, and so must
    ``from_cleaned``: numpy's sums over the two layouts round differently, and the KKT polish of a Rényi design on a
    face of optima (tests/privacy/test_column_dual.py, slow) moved its bound by 1.5e-9 when the copy became row-major."""
    matrix = np.asfortranarray(np.array([[0.5, 0.25, 0.25], [0.125, 0.375, 0.5]]))
    for source in (matrix, np.ascontiguousarray(matrix)):
        full, trusted = Mechanism(source).matrix, Mechanism.from_cleaned(source).matrix
        assert (trusted.flags.f_contiguous, trusted.flags.c_contiguous) == (full.flags.f_contiguous,
                                                                            full.flags.c_contiguous)
        assert np.array_equal(trusted, full)
