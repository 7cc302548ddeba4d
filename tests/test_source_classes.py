"""Tests of mechdesign.source_classes (PUT paper, Definition 1 and θ* of Theorem 6)."""

import numpy as np
import pytest

from mechdesign import Prior, SourceSet
from mechdesign.exceptions import InvalidDistributionError, MechDesignError
from mechdesign.source_classes import (
    class_one_source_set,
    class_two_source_set,
    classify_source_set,
    common_order,
    contains_uniform,
    distance_to_uniform,
    theta_star,
)


def test_classes_of_hand_made_sets():
    assert classify_source_set(SourceSet.simplex(3)) == "I"  # no prior knowledge
    assert classify_source_set(Prior.uniform(4)) == "I"  # only the uniform distribution
    # conv{(0.6, 0.2, 0.2), (0.2, 0.4, 0.4)} ∋ (1/3, 1/3, 1/3) at weight 1/3.
    assert classify_source_set(SourceSet([[0.6, 0.2, 0.2], [0.2, 0.4, 0.4]])) == "I"
    assert classify_source_set([0.4, 0.3, 0.2, 0.1]) == "II"  # a single non-uniform prior
    ordered = SourceSet([[0.1, 0.5, 0.4], [0.2, 0.45, 0.35]])
    assert classify_source_set(ordered) == "II" and common_order(ordered).tolist() == [1, 2, 0]
    crossing = SourceSet([[0.5, 0.3, 0.2], [0.3, 0.5, 0.2]])  # orders 0 > 1 and 1 > 0; uniform outside
    assert classify_source_set(crossing) == "III" and common_order(crossing) is None


def test_distance_to_uniform():
    assert distance_to_uniform([0.5, 0.3, 0.2]) == pytest.approx(0.5 - 1 / 3, abs=1e-12)
    # conv{(0.5, 0.3, 0.2), (0.3, 0.5, 0.2)}: the third entry is 0.2 throughout, 2/15 from uniform.
    assert distance_to_uniform(SourceSet([[0.5, 0.3, 0.2], [0.3, 0.5, 0.2]])) == pytest.approx(2 / 15, abs=1e-12)
    assert contains_uniform(SourceSet.simplex(5))


def test_theta_star():
    """θ* = |𝒳| max_P min_x P(x): 1 for Class I, |𝒳| min_x P(x) for one prior."""
    value = theta_star(SourceSet([[0.6, 0.2, 0.2], [0.2, 0.4, 0.4]]))
    assert value.theta == pytest.approx(1.0, abs=1e-9) and value.eta == pytest.approx(1 / 3, abs=1e-9)
    single = theta_star([0.4, 0.3, 0.2, 0.1])
    assert single.theta == pytest.approx(0.4, abs=1e-12) and single.eta == pytest.approx(0.4, abs=1e-12)
    # Segment from (0.7, 0.2, 0.1) to (0.1, 0.2, 0.7): min entry max 0.2 on the middle third, where
    # the largest entry is smallest (0.4) at the midpoint (0.4, 0.2, 0.4).
    segment = theta_star(SourceSet([[0.7, 0.2, 0.1], [0.1, 0.2, 0.7]]))
    assert segment.theta == pytest.approx(0.6, abs=1e-9) and segment.eta == pytest.approx(0.4, abs=1e-9)
    assert np.allclose(segment.prior.probabilities, [0.4, 0.2, 0.4], atol=1e-9)


def test_builders():
    built = class_one_source_set([[0.7, 0.2, 0.1]])
    assert classify_source_set(built) == "I" and len(built) == 2
    assert len(class_two_source_set([[0.1, 0.5, 0.4], [0.2, 0.45, 0.35]])) == 2
    with pytest.raises(MechDesignError, match="Class I"):
        class_two_source_set(SourceSet.simplex(3))
    with pytest.raises(MechDesignError, match="Class III"):
        class_two_source_set([[0.5, 0.3, 0.2], [0.3, 0.5, 0.2]])
    with pytest.raises(InvalidDistributionError, match="sums to"):
        classify_source_set([0.5, 0.6])
    with pytest.raises(InvalidDistributionError, match=r"extreme_points\[0\] sums to 0.9"):
        theta_star([[0.5, 0.4]])
