import itertools
import math

import numpy as np
import pytest

from mechdesign.exceptions import MechDesignError, ShapeMismatchError
from mechdesign.mechanisms.location import (
    adversary_error,
    bayes_vulnerability,
    exponential_mechanism,
    optimal_remap,
    truncated_geometric,
)
from mechdesign.privacy.metric import MetricDifferentialPrivacy


@pytest.mark.parametrize("n, epsilon", [(2, 0.5), (5, 1.0), (8, 0.1), (6, 3.0)])
def test_truncated_geometric_measures_its_budget(n, epsilon):
    notion = MetricDifferentialPrivacy.from_points(np.arange(n, dtype=float))
    mechanism = truncated_geometric(n, epsilon)
    assert notion.measure(mechanism) == pytest.approx(epsilon, rel=1e-12)


def test_truncated_geometric_formula():
    alpha = math.exp(-0.7)
    matrix = truncated_geometric(4, 0.7).matrix
    assert matrix[1, 2] == pytest.approx((1 - alpha) / (1 + alpha) * alpha)
    assert matrix[1, 3] == pytest.approx(alpha ** 2 / (1 + alpha))  # the tail beyond 3 folded onto it
    assert truncated_geometric(1, 1.0).matrix.tolist() == [[1.0]]


@pytest.mark.parametrize("epsilon", [0.2, 1.0])
def test_exponential_mechanism_is_private(epsilon):
    notion = MetricDifferentialPrivacy.grid(3, 3)
    mechanism = exponential_mechanism(notion, epsilon)
    measured = notion.measure(mechanism)
    assert epsilon / 2 <= measured <= epsilon + 1e-12
    great_circle = MetricDifferentialPrivacy.from_points([[48.85, 2.35], [51.51, -0.13], [52.52, 13.40]],
                                                         "great-circle")
    assert great_circle.measure(exponential_mechanism(great_circle, 0.01)) <= 0.01 + 1e-12


def brute_force_error(matrix, prior, distance):
    """min over every deterministic remap of the expected distance."""
    n, m = matrix.shape
    best = math.inf
    for remap in itertools.product(range(distance.shape[1]), repeat=m):
        best = min(best, sum(prior[x] * matrix[x, y] * distance[x, remap[y]] for x in range(n) for y in range(m)))
    return best


def test_adversary_error_and_optimal_remap_against_brute_force():
    rng = np.random.default_rng(3)
    notion = MetricDifferentialPrivacy.from_points(rng.normal(size=(4, 2)))
    matrix = rng.dirichlet(np.ones(3), size=4)
    prior = rng.dirichlet(np.ones(4))
    expected = brute_force_error(matrix, prior, notion.distances)
    assert adversary_error(matrix, prior, notion.distances) == pytest.approx(expected, rel=1e-12)
    remapped = optimal_remap(matrix, prior, notion.distances).matrix
    assert (prior[:, None] * remapped * notion.distances).sum() == pytest.approx(expected, rel=1e-12)
    assert notion.measure(remapped) <= notion.measure(matrix) + 1e-12  # post-processing


def test_bayes_vulnerability():
    prior = np.array([0.5, 0.3, 0.2])
    assert bayes_vulnerability(np.full((3, 2), 0.5), prior) == pytest.approx(0.5)  # the prior's mode
    assert bayes_vulnerability(np.eye(3), prior) == pytest.approx(1.0)
    matrix = np.array([[0.6, 0.4], [0.2, 0.8], [0.5, 0.5]])
    assert bayes_vulnerability(matrix, prior) == pytest.approx(0.3 + 0.24)


def test_bad_input():
    with pytest.raises(ShapeMismatchError, match="prior has 2 entries"):
        bayes_vulnerability(np.eye(3), [0.5, 0.5])
    with pytest.raises(ShapeMismatchError, match="distance has 2 rows"):
        adversary_error(np.eye(3), np.full(3, 1 / 3), np.zeros((2, 2)))
    with pytest.raises(MechDesignError, match="loss has a negative entry"):
        optimal_remap(np.eye(2), [0.5, 0.5], [[0, -1], [1, 0]])
    with pytest.raises(MechDesignError, match="epsilon"):
        truncated_geometric(3, -1.0)
    with pytest.raises(MechDesignError, match="n must be an integer"):
        truncated_geometric(0, 1.0)
