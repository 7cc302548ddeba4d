"""Tests of mechdesign.tabular (SML paper §V-A: histogram parameter spaces and secrets)."""

import math

import numpy as np
import pytest

from mechdesign.exceptions import MechDesignError, ProblemTooLargeError, ShapeMismatchError
from mechdesign.tabular import (
    HistogramSpace,
    category_fraction_secret,
    compositions,
    histogram_count,
    histogram_secret,
    log_histogram_count,
    total_variation,
    tv_cost,
    tv_distortion,
)


def test_compositions_and_counts():
    rows = compositions(3, 3)
    assert rows.shape == (10, 3) and (rows.sum(axis=1) == 3).all() and len({tuple(r) for r in rows.tolist()}) == 10
    assert compositions(4, 1).tolist() == [[4]]
    for tau in range(1, 7):
        for d in range(1, 5):
            assert HistogramSpace(tau, d).size == histogram_count(tau, d) == math.comb(tau + d - 1, d - 1)
            assert log_histogram_count(tau, d) == pytest.approx(math.log(histogram_count(tau, d)), abs=1e-12)
    # Adult scale: no overflow, and agrees with the exact integer's logarithm.
    exact = math.log(math.comb(32561 + 30 - 1, 29))
    assert log_histogram_count(32561, 30) == pytest.approx(exact, rel=1e-12)
    assert math.isfinite(log_histogram_count(32561, 22381))


def test_space_support_index_and_errors():
    space = HistogramSpace(2, 4, support=[0, 2])
    assert space.size == 3 and (space.counts[:, [1, 3]] == 0).all()
    assert space.index([1, 0, 1, 0]) == space.counts.tolist().index([1, 0, 1, 0])
    assert space.supported_within([0]).sum() == 1
    with pytest.raises(MechDesignError, match=r"histogram \[1, 1, 0, 0\] is not in"):
        space.index([1, 1, 0, 0])
    with pytest.raises(MechDesignError, match=r"support\[0\] must be an integer in 0..3, got 5"):
        HistogramSpace(2, 4, support=[5])
    with pytest.raises(MechDesignError, match="tau must be an integer >= 1, got 0"):
        HistogramSpace(0, 3)
    with pytest.raises(ProblemTooLargeError, match="samplers"):
        HistogramSpace(100, 6)


def test_tv_cost_and_secrets():
    space = HistogramSpace(2, 2)  # counts (2,0), (1,1), (0,2)
    cost = tv_cost(space)
    assert np.allclose(cost, [[0, 0.5, 1], [0.5, 0, 0.5], [1, 0.5, 0]], atol=1e-15)
    assert tv_distortion(space).value(np.eye(3)) == 0.0
    secret = category_fraction_secret(space, 0)
    assert secret.labels.tolist() == [0.0, 0.5, 1.0]
    assert category_fraction_secret(HistogramSpace(5, 2), 1, levels=2).labels.tolist() == [0, 1]
    assert histogram_secret(space, lambda theta: theta[0] > 0.25).n_values == 2
    with pytest.raises(MechDesignError, match="levels must be an integer >= 1 and <= 3, got 4"):
        category_fraction_secret(space, 0, levels=4)
    with pytest.raises(MechDesignError, match="category must be an integer in 0..1, got 2"):
        category_fraction_secret(space, 2)
    with pytest.raises(ShapeMismatchError, match=r"histogram spaces differ: .* vs "):
        tv_cost(space, HistogramSpace(3, 2))
    assert tv_cost(HistogramSpace(2, 3, support=[0]), HistogramSpace(2, 3)).shape == (1, 6)  # supports may differ


@pytest.mark.parametrize("tau,d", [(3, 3), (5, 4), (10, 3)])
def test_tv_cost_is_exact_so_equal_distances_tie(tau, d):
    """tv_cost takes exactly the τ + 1 values k/τ (one float per integer ℓ1 distance), which MaxL's
    lowest-index tie rule relies on; the same formula on the fractions θ = counts/τ gives several floats
    for one distance (round-off), which is why tv_cost works on the counts."""
    space = HistogramSpace(tau, d)
    integer_l1 = np.abs(space.counts[:, None, :] - space.counts[None, :, :]).sum(axis=2)
    cost = tv_cost(space)
    assert np.unique(cost).size == np.unique(integer_l1).size == tau + 1
    for distance in np.unique(integer_l1):
        assert np.unique(cost[integer_l1 == distance]).size == 1
    assert np.unique(total_variation(space.probabilities, space.probabilities)).size > tau + 1
