"""Tests of mechdesign.parameter_spaces (Wang et al., Guarding Multiple Secrets: §3, eq. (2), Lemma C.7)."""

import numpy as np
import pytest

from mechdesign import MechDesignError, ShapeMismatchError
from mechdesign.parameter_spaces import (
    ParameterSpace,
    diagonal_gaussian_w2,
    gaussian_2d_w2,
    gaussian_w2,
)
from mechdesign.tabular import total_variation
from mechdesign.parameter_spaces import _covariance_2d

#: Agreement of closed-form W2 with the matrix-square-root formula (eigendecomposition round-off).
W2_ATOL = 1e-7


def test_diagonal_w2_matches_givens_shortt():
    # Wang et al. Lemma C.7: W2 between diagonal Gaussians is the Euclidean distance of (μ, σ).
    rng = np.random.default_rng(0)
    for _ in range(20):
        k = int(rng.integers(1, 4))
        a = np.concatenate([rng.normal(size=k), rng.uniform(0.2, 3, size=k)])
        b = np.concatenate([rng.normal(size=k), rng.uniform(0.2, 3, size=k)])
        reference = gaussian_w2(a[:k], np.diag(a[k:] ** 2), b[:k], np.diag(b[k:] ** 2))
        assert diagonal_gaussian_w2(a[None], b[None])[0, 0] == pytest.approx(reference, abs=W2_ATOL)


def test_2d_w2_closed_form_matches_givens_shortt():
    rng = np.random.default_rng(1)
    rows = np.column_stack([rng.normal(size=(30, 2)), rng.uniform(0.1, 4, size=(30, 2)), rng.uniform(0, np.pi, 30)])
    closed = gaussian_2d_w2(rows, rows)
    cov = _covariance_2d(rows)
    for i in range(0, 30, 3):
        for j in range(1, 30, 4):
            assert closed[i, j] == pytest.approx(gaussian_w2(rows[i, :2], cov[i], rows[j, :2], cov[j]), abs=W2_ATOL)
    assert np.allclose(np.diag(closed), 0.0, atol=1e-6)


def test_gaussian_w2_in_one_dimension_is_the_distance_of_mean_and_sd():
    # Givens & Shortt in 1-D: W2² = (μ1 − μ2)² + (σ1 − σ2)².
    assert gaussian_w2(0.0, 1.0, 3.0, 4.0) == pytest.approx(np.hypot(3.0, 1.0), abs=1e-15)


def test_gaussian_w2_of_commuting_covariances():
    # Σ1, Σ2 diagonalized by one rotation: the cross term is Σ1^{1/2} Σ2^{1/2}, W2² = ‖Δμ‖² + ‖√λ1 − √λ2‖².
    rotation = np.array([[np.cos(0.3), -np.sin(0.3)], [np.sin(0.3), np.cos(0.3)]])
    first, second = rotation @ np.diag([4.0, 1.0]) @ rotation.T, rotation @ np.diag([1.0, 9.0]) @ rotation.T
    expected = np.sqrt(1.0 + (2.0 - 1.0) ** 2 + (1.0 - 3.0) ** 2)
    assert gaussian_w2([0.0, 0.0], first, [1.0, 0.0], second) == pytest.approx(expected, abs=W2_ATOL)


@pytest.mark.parametrize("cov, message", [
    ([[1.0, 2.0], [0.0, 1.0]], "cov2 must be a symmetric matrix"),
    ([[1.0, 0.0], [0.0, -1.0]], "cov2 must be positive semi-definite"),
    ([[1j, 0.0], [0.0, 1.0]], "cov2 must be numeric"),  # never a silently dropped imaginary part
    ([[1.0, 0.0, 0.0]], r"cov2 must have shape \(2, 2\)"),
])
def test_gaussian_w2_refuses_covariances_that_are_not_symmetric_psd(cov, message):
    with pytest.raises(MechDesignError, match=message):
        gaussian_w2([0.0, 0.0], np.eye(2), [1.0, 1.0], cov)


def test_2d_secrets_are_marginal_standard_deviations():
    space = ParameterSpace.gaussian_2d([[0.0], [1.0], [4.0], [1.0], [0.0, np.pi / 2, np.pi / 4]],
                                       ["mu2", "sigma1", "sigma2"], [0.1, 0.1, 0.1])
    expected = np.array([[1.0, 2.0, 1.0], [1.0, 1.0, 2.0], [1.0, np.sqrt(2.5), np.sqrt(2.5)]])
    assert np.allclose(space.secret_values, expected, atol=1e-12)


def test_total_variation_and_histogram_space():
    hist = np.array([[0.5, 0.5, 0.0], [0.25, 0.25, 0.5], [1.0, 0.0, 0.0]])
    assert total_variation(hist, hist)[0, 1] == pytest.approx(0.5)
    space = ParameterSpace.histograms(hist, [0, 2], [0.1, 0.1])
    assert np.array_equal(space.secret_values, hist[:, [0, 2]])
    assert space.cost[2, 0] == pytest.approx(0.5)


def test_grid_prior_and_cost():
    space = ParameterSpace.gaussian_1d([0.0, 1.0], [1.0, 2.0, 3.0], [0.2, 0.2])
    assert space.n_inputs == 6 and space.n_secrets == 2
    assert np.allclose(space.prior.probabilities, 1 / 6)
    assert space.cost[0, 5] == pytest.approx(np.hypot(1.0, 2.0))
    diag = ParameterSpace.diagonal_gaussian([[0.0, 1.0], [5.0]], [[1.0], [1.0, 2.0]], ["mu1", "sigma2"], [0.1, 0.1])
    assert diag.points.shape == (4, 4)
    assert np.array_equal(diag.secret_values, diag.points[:, [0, 3]])


def test_support_distortion_is_eq_2():
    space = ParameterSpace.gaussian_1d([0.0, 1.0, 2.0], [1.0], [0.2, 0.2], prior=[0.5, 0.5, 0.0])
    Q = np.array([[0.5, 0.5, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]])
    # the input with prior 0 is outside Supp(ω_Θ) and does not count
    assert space.support_distortion().value(Q) == pytest.approx(1.0)
    assert space.expected_distortion().value(Q) == pytest.approx(0.25)
    import cvxpy as cp
    with pytest.raises(MechDesignError, match="design_worst_case_distortion"):
        space.support_distortion().expression(cp.Variable((3, 3)))


def test_deterministic_mechanism_and_outputs():
    space = ParameterSpace.gaussian_1d([0.0, 1.0], [1.0], [0.2, 0.2])
    moved = space.with_outputs([[0.5, 1.0]], keep=False)
    Q = moved.deterministic_mechanism(lambda rows: np.column_stack([np.full(len(rows), 0.5), rows[:, 1]]))
    assert np.array_equal(Q, np.ones((2, 1)))
    with pytest.raises(MechDesignError, match="not an output"):
        space.output_index([[9.0, 9.0]])


def test_bad_inputs_raise():
    with pytest.raises(MechDesignError, match="strictly positive"):
        ParameterSpace.gaussian_1d([0.0], [1.0], [0.2, -1.0])
    with pytest.raises(ShapeMismatchError, match="tolerances has 1 entries"):
        ParameterSpace.gaussian_1d([0.0], [1.0], [0.2])
    with pytest.raises(MechDesignError, match="strictly positive"):
        ParameterSpace.gaussian_1d([0.0], [0.0, 1.0], [0.2, 0.2])
    with pytest.raises(MechDesignError, match=r"secrets holds 1 value\(s\) that are not a known secret: \['tau'\]; known: \['mu1', 'sigma1'\]"):
        ParameterSpace.diagonal_gaussian([[0.0]], [[1.0]], ["tau"], [0.1])
    with pytest.raises(MechDesignError, match="histograms is not row-stochastic: row 0 sums to 1.1"):
        ParameterSpace.histograms([[0.5, 0.6]], [0], [0.1])
    with pytest.raises(MechDesignError, match="categories"):
        ParameterSpace.histograms([[0.5, 0.5]], [3], [0.1])
    with pytest.raises(ShapeMismatchError, match=r"levels has 1 level sets \(one per parameter .*\), expected 5"):
        ParameterSpace.gaussian_2d([[0.0]], ["mu1"], [0.1])
    with pytest.raises(ShapeMismatchError, match=r"outputs has 1 parameters \(columns, one per column of points\), expected 2"):
        ParameterSpace.gaussian_1d([0.0], [1.0], [0.2, 0.2]).with_outputs([[1.0]], keep=False)


def test_row_distortion_matches_eq_2_for_deterministic_mechanisms():
    space = ParameterSpace.gaussian_1d([0.0, 1.0, 2.0], [1.0, 2.0], [0.2, 0.2])
    rng = np.random.default_rng(0)
    for _ in range(10):
        deterministic = np.eye(space.n_outputs)[rng.integers(0, space.n_outputs, space.n_inputs)]
        assert space.row_distortion().value(deterministic) == pytest.approx(space.support_distortion().value(deterministic))
        randomized = rng.dirichlet(np.ones(space.n_outputs), size=space.n_inputs)
        assert space.row_distortion().value(randomized) <= space.support_distortion().value(randomized)
