"""Tests of mechdesign.privacy.dp (PUT paper, Definition 3(1))."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mechdesign import DifferentialPrivacy, ExpectedDistortion, Neighbours, Prior
from mechdesign.exceptions import MechDesignError, ShapeMismatchError

from ..strategies import budgets, full_support_priors, stochastic_matrices
from .protocol import (
    assert_constraints_match_measure,
    assert_post_processing_does_not_increase,
    assert_round_trip,
)

CHAIN = [(0, 1), (1, 2)]
THREE_ROWS = np.array([[0.8, 0.2], [0.5, 0.5], [0.2, 0.8]])


def test_hand_computed_values():
    assert DifferentialPrivacy().measure([[0.75, 0.25], [0.25, 0.75]]) == pytest.approx(math.log(3), abs=1e-15)
    assert DifferentialPrivacy().measure([[1.0, 0.0], [0.5, 0.5]]) == math.inf
    assert DifferentialPrivacy().measure([[0.5, 0.5, 0.0], [0.5, 0.5, 0.0]]) == 0.0  # unused output ignored
    assert DifferentialPrivacy().measure(THREE_ROWS) == pytest.approx(math.log(4), abs=1e-15)
    chain = DifferentialPrivacy(CHAIN, n_inputs=3)
    assert chain.measure(THREE_ROWS) == pytest.approx(math.log(0.5 / 0.2), abs=1e-15)  # pair (0,1), output 1


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 6), st.integers(1, 6), st.floats(1e-300, 1.0))
def test_local_dp_measure_of_a_positive_mechanism_is_the_worst_column_log_ratio(seed, n, m, floor):
    # Every entry positive (the cleaned points of a curve): the measure skips worst_log_ratio's selection of used outputs
    # and must give its value to the last bit (the ratio inverted fails this).
    from mechdesign.structured import worst_log_ratio

    rng = np.random.default_rng(seed)
    matrix = rng.random((n, m)) + floor
    matrix /= matrix.sum(axis=1, keepdims=True)
    assert DifferentialPrivacy().measure(matrix) == worst_log_ratio(matrix.max(axis=0), matrix.min(axis=0))


def test_listing_every_pair_uses_the_complete_formulation():
    notion = DifferentialPrivacy([(0, 1), (0, 2), (1, 2)], n_inputs=3)
    assert notion.neighbours.is_complete and notion.label == "dp"


def test_graph_notion_fixes_the_alphabet():
    with pytest.raises(ShapeMismatchError, match="defined on 3 inputs"):
        DifferentialPrivacy(CHAIN, n_inputs=3).measure(np.eye(2))
    with pytest.raises(MechDesignError, match="n_inputs is required"):
        Neighbours(CHAIN)


@given(stochastic_matrices())
def test_complete_measure_equals_pairwise_measure(matrix):
    n = matrix.shape[0]
    every_pair = [(i, j) for i in range(n) for j in range(i + 1, n)]
    pairwise = DifferentialPrivacy(Neighbours(every_pair[:-1] + [every_pair[-1]], n))  # complete, listed
    graph = DifferentialPrivacy(Neighbours(np.ones((n, n), dtype=bool) & ~np.eye(n, dtype=bool)))
    assert graph.neighbours.is_complete  # adjacency of K_n collapses to the structured form
    ratios = [abs(math.log(matrix[i, y]) - math.log(matrix[j, y])) if min(matrix[i, y], matrix[j, y]) > 0
              else (math.inf if matrix[i, y] + matrix[j, y] > 0 else 0.0)
              for i, j in every_pair for y in range(matrix.shape[1])]
    assert DifferentialPrivacy().measure(matrix) == pytest.approx(max(ratios), abs=1e-12)
    assert pairwise.measure(matrix) == DifferentialPrivacy().measure(matrix)


@settings(max_examples=25)
@given(stochastic_matrices(allow_zeros=False))
def test_constraints_match_measure_complete(matrix):
    assert_constraints_match_measure(DifferentialPrivacy(), matrix)


@settings(max_examples=15)
@given(stochastic_matrices(n_inputs=st.just(3), allow_zeros=False))
def test_constraints_match_measure_graph(matrix):
    assert_constraints_match_measure(DifferentialPrivacy(CHAIN, n_inputs=3), matrix)


def test_constraints_reject_a_zero_against_a_positive_entry():
    assert_constraints_match_measure(DifferentialPrivacy(), np.array([[1.0, 0.0], [0.5, 0.5]]))


@given(stochastic_matrices(), st.data())
def test_post_processing_never_increases(matrix, data):
    channel = data.draw(stochastic_matrices(n_inputs=st.just(matrix.shape[1])))
    assert_post_processing_does_not_increase(DifferentialPrivacy(), matrix, channel)


@settings(max_examples=20)
@given(st.integers(2, 6).flatmap(lambda n: full_support_priors(n)), budgets)
def test_round_trip(prior, budget):
    assert_round_trip(DifferentialPrivacy(), budget, ExpectedDistortion(Prior(prior)))


@settings(max_examples=10)
@given(full_support_priors(3), budgets)
def test_round_trip_graph(prior, budget):
    assert_round_trip(DifferentialPrivacy(CHAIN, n_inputs=3), budget, ExpectedDistortion(Prior(prior)))


def test_no_leakage_expression_for_ratio_notions():
    import cvxpy as cp

    assert DifferentialPrivacy().leakage_expression(cp.Variable((2, 2))) is None


def test_huge_budgets_measure_and_scale_without_overflow():
    """``e^ε`` past the float range is ``inf`` for scaled_budget; a constraint refuses it by name."""
    import cvxpy as cp

    from mechdesign.exceptions import InvalidBudgetError

    notion = DifferentialPrivacy()
    assert notion.scaled_budget(800.0) == math.inf and notion.scaled_budget(1.0) == math.e
    with pytest.raises(InvalidBudgetError, match="dp budget 800.0 is too large for constraints"):
        notion.constraints(cp.Variable((2, 2)), 800.0)
    with pytest.raises(InvalidBudgetError, match="dp budget 1e\\+308 is too large"):
        notion.parameter().set(1e308)
    assert notion.measure(np.eye(2)) == math.inf


def test_one_input_satisfies_every_budget():
    """With a single input there is no neighbour pair: the measure is 0 (PUT paper, Definition 3(1))."""
    assert DifferentialPrivacy().measure([[0.25, 0.75]]) == 0.0
