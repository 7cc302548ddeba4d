"""Tests of mechdesign.privacy.capacity (worst case of a concave-in-the-prior leakage over a set)."""

import math

import cvxpy as cp
import numpy as np
import pytest

from mechdesign.privacy.capacity import broadcast_row
from mechdesign.privacy.mutual_information import worst_case_mutual_information

BSC = np.array([[0.75, 0.25], [0.25, 0.75]])


def test_bracket_of_the_binary_symmetric_channel_capacity():
    """Over the simplex the worst case is the capacity log 2 − h(1/4), attained at the uniform prior;
    both ends of the bracket agree with it."""
    h = -(0.25 * math.log(0.25) + 0.75 * math.log(0.75))
    bracket = worst_case_mutual_information(np.eye(2), BSC)
    assert bracket.lower <= bracket.upper <= bracket.lower + 1e-9
    assert bracket.upper == pytest.approx(math.log(2) - h, abs=1e-9)
    assert np.allclose(bracket.prior, [0.5, 0.5], atol=1e-5)


def test_interior_worst_prior_of_a_segment():
    """On the segment from (0.9, 0.1) to (0.1, 0.9) the BSC's worst prior is still the uniform one,
    an interior point — the maximum is not at an extreme point."""
    points = np.array([[0.9, 0.1], [0.1, 0.9]])
    bracket = worst_case_mutual_information(points, BSC)
    assert np.allclose(bracket.prior, [0.5, 0.5], atol=1e-5)
    from mechdesign import mutual_information

    assert bracket.upper > max(mutual_information(p, BSC) for p in points) + 1e-3


def test_broadcast_row():
    r = cp.Constant(np.array([0.1, 0.2, 0.7]))
    assert np.allclose(broadcast_row(r, 2).value, [[0.1, 0.2, 0.7], [0.1, 0.2, 0.7]])
