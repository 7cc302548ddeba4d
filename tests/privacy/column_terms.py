"""A check shared by the tests of notions with column terms (mechdesign/privacy/column_dual.py): Rényi DP and
Sibson's α-information."""

import numpy as np
import pytest


def assert_hessian_is_the_jacobians_derivative(terms, matrix, step=1e-6, rtol=1e-6):
    """``terms(matrix).hessian(λ)`` against central differences of ``λ · jacobian`` (random ``λ >= 0``), and
    ``H vec(Q) = 0`` (the gradient of a 1-homogeneous term is 0-homogeneous)."""
    sums = terms(matrix)
    weights = np.random.default_rng(0).random(sums.rhs.size)
    hessian = sums.hessian(weights).toarray()
    differences = np.empty_like(hessian)
    for entry in range(matrix.size):
        shift = np.zeros(matrix.size)
        shift[entry] = step
        plus, minus = (terms(matrix + sign * shift.reshape(matrix.shape)) for sign in (1, -1))
        differences[:, entry] = (plus.jacobian.T @ weights - minus.jacobian.T @ weights) / (2 * step)
    assert hessian == pytest.approx(differences, rel=rtol, abs=rtol * np.abs(hessian).max())
    assert np.abs(hessian @ matrix.ravel()).max() <= 1e-12 * np.abs(hessian).max()
