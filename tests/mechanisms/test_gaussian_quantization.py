"""Tests of mechdesign.mechanisms.gaussian_quantization (Wang et al., Algs. 1–3 and App. C.4)."""

import numpy as np
import pytest

from mechdesign import MechDesignError, ShapeMismatchError
from mechdesign.mechanisms.gaussian_quantization import (
    algorithm1,
    algorithm2,
    algorithm3,
    estimate_gaussian_2d,
    quantize,
    release_diagonal_dataset,
    release_gaussian_2d_dataset,
)
from mechdesign.parameter_spaces import gaussian_2d_secrets

#: Agreement of re-estimated parameters of a released dataset with the quantized ones (round-off).
ESTIMATE_ATOL = 1e-9


def test_quantize_midpoints():
    assert np.allclose(quantize([0.0, 0.99, 1.0, 2.5], 0.0, 1.0), [0.5, 0.5, 1.5, 2.5])
    assert np.allclose(quantize([1.2, 3.9], 1.0, 0.5), [1.25, 3.75])


def test_algorithm1_and_2():
    theta = np.array([[0.3, 1.7], [2.2, 1.0]])
    assert np.allclose(algorithm1(theta, [0.0, 1.0], [1.0, 0.5]), [[0.5, 1.75], [2.5, 1.25]])
    rows = np.array([[0.3, 5.0, 1.2, 2.9]])  # (μ1, μ2, σ1, σ2); secrets μ1 and σ2
    assert np.allclose(algorithm2(rows, [0, 3], [0.0, 1.0], [1.0, 1.0]), [[0.5, 5.0, 1.2, 2.5]])


def test_algorithm3_keeps_angle_and_quantizes_square_roots():
    theta = np.array([[0.3, 0.7, 2.0**2, 1.3**2, 0.4]])
    out = algorithm3(theta, ["mu2", "sigma1"], [0.0, 0.0, 1.0, 1.0], [1.0, 1.0, 0.5, 0.5])
    assert np.allclose(out, [[0.3, 0.5, 2.25**2, 1.25**2, 0.4]])
    assert np.allclose(algorithm3(theta, ["mu1"], [0.0, 0.0, 1.0, 1.0], [1.0, 1.0, 0.5, 0.5])[0, 2:], theta[0, 2:])


def test_dataset_release_diagonal_hits_the_quantized_parameters():
    rng = np.random.default_rng(0)
    x = rng.normal([1.3, -0.4], [2.2, 0.7], size=(500, 2))
    released = release_diagonal_dataset(x, [0, 1, 2, 3], [-5.0, -5.0, 0.0, 0.0], [1.0, 1.0, 0.5, 0.5])
    expected = algorithm2(np.concatenate([x.mean(0), x.std(0)]), [0, 1, 2, 3], [-5.0, -5.0, 0.0, 0.0], [1.0, 1.0, 0.5, 0.5])[0]
    assert np.allclose(np.concatenate([released.mean(0), released.std(0)]), expected, atol=ESTIMATE_ATOL)
    one_d = release_diagonal_dataset(x[:, 0], [0, 1], [-5.0, 0.0], [1.0, 0.5])  # Algorithm 1, App. C.4 steps 1-4
    assert one_d.shape == (500, 1)
    first = release_diagonal_dataset(x, [0], [-5.0], [1.0], resample=3)
    assert np.array_equal(first, release_diagonal_dataset(x, [0], [-5.0], [1.0], resample=3))
    assert abs(first[:, 0].mean() - expected[0]) < 4 * x[:, 0].std() / np.sqrt(500)


def test_dataset_release_2d_hits_the_quantized_parameters():
    rng = np.random.default_rng(1)
    cov = np.array([[2.0, 0.8], [0.8, 1.0]])
    x = rng.multivariate_normal([0.4, -1.1], cov, size=400)
    secrets = ["mu1", "sigma1", "sigma2"]
    lowers, steps = [-3.0, -3.0, 0.0, 0.0], [1.0, 1.0, 0.5, 0.5]
    released = release_gaussian_2d_dataset(x, secrets, lowers, steps)
    theta = estimate_gaussian_2d(x)
    expected = algorithm3(theta, secrets, lowers, steps)[0]
    got = estimate_gaussian_2d(released)
    assert np.allclose(got[:4], expected[:4], atol=ESTIMATE_ATOL)
    assert np.allclose(gaussian_2d_secrets(got[None], ["sigma1", "sigma2"]),
                       gaussian_2d_secrets(expected[None], ["sigma1", "sigma2"]), atol=ESTIMATE_ATOL)
    sampled = release_gaussian_2d_dataset(x, secrets, lowers, steps, resample=np.random.default_rng(5))
    assert sampled.shape == x.shape


def test_bad_inputs_raise():
    with pytest.raises(MechDesignError, match="lower bound"):
        quantize([-1.0], 0.0, 1.0)
    with pytest.raises(MechDesignError, match="strictly positive"):
        quantize([1.0], 0.0, 0.0)
    with pytest.raises(MechDesignError, match="secret columns"):
        algorithm2([[0.0, 1.0]], [2], [0.0], [1.0])
    with pytest.raises(ShapeMismatchError, match="theta of Algorithm 3 has 2 parameters per row, expected 5"):
        algorithm3([[0.0, 1.0]], ["mu1"], [0, 0, 0, 0], [1, 1, 1, 1])
    with pytest.raises(ShapeMismatchError, match="lowers has 1 lower bounds"):
        algorithm2([[0.0, 1.0]], [0, 1], [0.0], [1.0, 1.0])
    # Complex input is refused, never silently cut to its real part.
    with pytest.raises(MechDesignError, match="values must be numeric"):
        quantize([1.0 + 2.0j], 0.0, 1.0)
    with pytest.raises(MechDesignError, match="theta must be numeric"):
        algorithm2([[0.0, 1.0j]], [0], [0.0], [1.0])
    with pytest.raises(MechDesignError, match="samples must be numeric"):
        release_diagonal_dataset([1.0, 2.0j, 3.0], [0], [0.0], [1.0])
    with pytest.raises(MechDesignError, match="unknown secrets"):
        algorithm3([[0.0, 0.0, 1.0, 1.0, 0.0]], ["tau"], [0, 0, 0, 0], [1, 1, 1, 1])
    with pytest.raises(MechDesignError, match="m >= 2"):
        release_diagonal_dataset([1.0], [0], [0.0], [1.0])
    with pytest.raises(MechDesignError, match="constant"):
        release_diagonal_dataset([1.0, 1.0, 1.0], [0], [0.0], [1.0])
