"""Neighbour relations (mechdesign.privacy.neighbours): how they are given and what a wrong one says."""

import numpy as np
import pytest

from mechdesign import ApproximateDifferentialPrivacy, DifferentialPrivacy, RenyiDifferentialPrivacy
from mechdesign.exceptions import MechDesignError
from mechdesign.privacy.neighbours import Neighbours

PATH = np.eye(3, k=1, dtype=bool)  # 0 — 1 — 2


def test_pairs_and_boolean_adjacency_give_the_same_relation():
    by_pairs, by_matrix = Neighbours([(1, 0), (2, 1)], n_inputs=3), Neighbours(PATH)
    assert by_matrix.n_inputs == 3
    assert by_pairs.unordered_pairs(3).tolist() == by_matrix.unordered_pairs(3).tolist() == [[0, 1], [1, 2]]
    assert Neighbours(PATH.tolist()).n_inputs == 3  # a nested list of booleans is a matrix too


def test_an_integer_adjacency_matrix_is_told_to_be_boolean():
    """L5: an integer 0/1 adjacency matrix said "n_inputs is required when neighbours are given as a list
    of pairs"."""
    with pytest.raises(MechDesignError, match="matrix of integers 0/1: an adjacency matrix must be boolean"):
        DifferentialPrivacy(PATH.astype(int))


@pytest.mark.parametrize("make", [lambda: DifferentialPrivacy(DifferentialPrivacy),
                                  lambda: RenyiDifferentialPrivacy(2.0, DifferentialPrivacy),
                                  lambda: ApproximateDifferentialPrivacy(0.1, "pointwise", DifferentialPrivacy)],
                         ids=["dp", "renyi", "approx-dp"])
def test_a_notion_class_as_neighbours_is_named(make):
    """L5: a notion class where the neighbour relation goes said "n_inputs is required when neighbours are
    given as a list of pairs"."""
    with pytest.raises(MechDesignError, match="neighbours must be None .* got the class DifferentialPrivacy"):
        make()


def test_a_notion_instance_as_neighbours_is_named():
    """L5: an instance is no relation either."""
    with pytest.raises(MechDesignError, match="neighbours must be None .* got <DifferentialPrivacy dp>"):
        DifferentialPrivacy(DifferentialPrivacy())
