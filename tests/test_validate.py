"""Every validator's error path names the offending value (DESIGN.md, error rules)."""

import math

import numpy as np
import pytest

from mechdesign import _validate as v
from mechdesign.exceptions import (
    InvalidBudgetError,
    InvalidDistributionError,
    InvalidMechanismError,
    MechDesignError,
    ShapeMismatchError,
)


def test_probability_vector_accepts_and_copies():
    values = [0.25, 0.75]
    vector = v.as_probability_vector(values)
    assert vector.tolist() == values


@pytest.mark.parametrize(
    "values, match",
    [
        ([0.5, 0.6], "sums to 1.1"),
        ([0.5, float("nan")], "non-finite"),
        ([1.5, -0.5], "negative entry -0.5"),
        ([], "empty"),
        ([[0.5, 0.5]], "1-D"),
        (["a", "b"], "numeric"),
    ],
)
def test_probability_vector_errors(values, match):
    with pytest.raises(InvalidDistributionError, match=match):
        v.as_probability_vector(values)


def test_probability_vector_size_and_support():
    with pytest.raises(ShapeMismatchError, match="3 entries, expected 2"):
        v.as_probability_vector([0.2, 0.3, 0.5], size=2)
    with pytest.raises(InvalidDistributionError, match="full support.*entry 1"):
        v.as_probability_vector([1.0, 0.0], full_support=True)


def test_round_off_negatives_are_zeroed_not_rejected():
    vector = v.as_probability_vector([1.0 + 1e-13, -1e-13])
    assert vector[1] == 0.0


@pytest.mark.parametrize(
    "matrix, match",
    [
        ([[0.5, 0.5], [0.3, 0.6]], "row 1 sums to 0.9"),
        ([[0.5, 0.5], [1.2, -0.2]], r"negative entry -0.2 at index \(1, 1\)"),
        ([[np.nan, 1.0]], "non-finite"),
        ([[np.inf, 1.0]], "non-finite"),
        ([0.5, 0.5], "2-D"),
    ],
)
def test_stochastic_matrix_errors(matrix, match):
    with pytest.raises(InvalidMechanismError, match=match):
        v.as_stochastic_matrix(matrix)


@pytest.mark.parametrize("value", [-0.1, math.inf, math.nan, "x", True])
def test_budget_errors(value):
    with pytest.raises(InvalidBudgetError):
        v.as_budget(value)


def test_budget_error_names_the_budget():
    with pytest.raises(InvalidBudgetError, match="epsilon must be a finite number >= 0, got -1.0"):
        v.as_budget(-1)


def test_budget_accepts_infinity_where_allowed():
    assert v.as_budget(math.inf, infinite=True) == math.inf and v.as_budget(0, infinite=True) == 0.0


@pytest.mark.parametrize("value, match", [(-1.0, "got -1.0"), (-math.inf, "got -inf"), (math.nan, "NaN"), ("x", "number")])
def test_budget_or_infinity_errors(value, match):
    with pytest.raises(InvalidBudgetError, match=match):
        v.as_budget(value, "epsilon", infinite=True)


@pytest.mark.parametrize("value", [-0.01, 1.0, 1.5, math.nan])
def test_delta_errors(value):
    with pytest.raises(InvalidBudgetError, match="delta"):
        v.as_delta(value)


def test_delta_accepts_zero():
    assert v.as_delta(0) == 0.0


@pytest.mark.parametrize("value", [1.0, 0.5, -2, math.inf])
def test_order_errors(value):
    with pytest.raises(InvalidBudgetError, match="alpha must be a finite number > 1"):
        v.as_order(value)


def test_cost_matrix_errors():
    with pytest.raises(MechDesignError, match="negative entry"):
        v.as_cost_matrix([[0, -1], [1, 0]])
    with pytest.raises(ShapeMismatchError, match=r"shape \(2, 2\), expected \(3, 3\)"):
        v.as_cost_matrix(np.zeros((2, 2)), shape=(3, 3))


def test_positive_int_errors():
    for value in (0, -3, 2.5, True, "4"):
        with pytest.raises(MechDesignError, match=f"n must be an integer >= 1, got {value!r}"):
            v.as_positive_int(value, "n")
    with pytest.raises(MechDesignError, match="d must be an integer >= 2, got 1"):
        v.as_positive_int(1, "d", minimum=2)
    with pytest.raises(MechDesignError, match="levels must be an integer >= 1 and <= 3, got 4"):
        v.as_positive_int(4, "levels", maximum=3)
    assert v.as_positive_int(np.int64(3), "levels", minimum=3, maximum=3) == 3


def test_neighbour_pairs():
    pairs = v.as_neighbour_pairs([(1, 0), (0, 1), (2, 1)], 3)
    assert pairs.tolist() == [[0, 1], [1, 2]]
    adjacency = np.zeros((3, 3), dtype=bool)
    adjacency[0, 2] = True
    assert v.as_neighbour_pairs(adjacency, 3).tolist() == [[0, 2]]
    with pytest.raises(MechDesignError, match="itself"):
        v.as_neighbour_pairs([(1, 1)], 3)
    with pytest.raises(MechDesignError, match=r"\[0, 2\]"):
        v.as_neighbour_pairs([(0, 3)], 3)
    with pytest.raises(MechDesignError, match="empty"):
        v.as_neighbour_pairs([], 3)


# --- hostile input (issue 15): complex, strings, ragged, and the types of the design arguments --------


@pytest.mark.parametrize("values", [
    [0.5 + 0j, 0.5], np.array([0.5 + 1e-3j, 0.5]), ["0.5", "0.5"], np.array([b"1"]), [[0.5], [0.25, 0.25]],
])
def test_arrays_of_non_real_values_are_refused_never_cast(values):
    """A complex entry is an error even with a zero imaginary part: nothing is silently dropped."""
    with pytest.raises(InvalidDistributionError, match="prior must be numeric"):
        v.as_probability_vector(values)
    with pytest.raises(InvalidMechanismError, match="mechanism must be numeric"):
        v.as_stochastic_matrix([values, values])


@pytest.mark.parametrize("value", [1 + 0j, np.complex128(1.0), "1.0", b"1", [1.0], np.array([1.0]), None, True])
def test_scalars_must_be_real_numbers(value):
    with pytest.raises(InvalidBudgetError, match=r"epsilon must be a number \(a real scalar\)"):
        v.as_budget(value)


def test_as_array_names_ragged_input():
    with pytest.raises(MechDesignError, match="neighbours must be a rectangular array"):
        v.as_array([[0, 1], [1]], "neighbours")


@pytest.mark.parametrize("values, match", [
    (None, "budgets must be a non-empty sequence, got None"),
    (1.0, "budgets must be a non-empty sequence, got 1.0"),
    ("0.5", "budgets must be a non-empty sequence, got '0.5'"),
    ({"a": 1.0}, "budgets must be a non-empty sequence"),
    ([], "budgets is empty"),
    ([0.5, -1.0], r"budgets\[1\] must be a finite number >= 0, got -1.0"),
    ([0.5, "x"], r"budgets\[1\] must be a number"),
])
def test_number_lists(values, match):
    with pytest.raises(MechDesignError, match=match):
        v.as_number_list(values, "budgets")


def test_number_lists_accept_any_iterable_and_a_validator():
    assert v.as_number_list(np.array([0.0, 2.0]), "budgets") == [0.0, 2.0]
    assert v.as_number_list((x for x in [-1.0]), "limits", v.as_finite) == [-1.0]


def test_choices_options_executors_callables_and_time_limits():
    assert v.as_solver(None) is None and v.as_solver("HiGHS") == "highs"
    assert v.as_options(None) is None and v.as_options({"max_iters": 5}) == {"max_iters": 5}
    assert v.as_time_limit(None) is None and v.as_time_limit(1) == 1.0
    cases = [
        (lambda: v.as_solver(1), r"solver must be one of \('highs', 'clarabel', 'scs'\) or None, got 1"),
        (lambda: v.as_solver("gurobi"), "got 'gurobi'"),
        (lambda: v.as_choice(None, ("a",), "method"), r"method must be one of \('a',\), got None"),
        (lambda: v.as_options(3), "solver_options must be a mapping of option names to values, got 3"),
        (lambda: v.as_options({1: 2}), "solver_options must be a mapping"),
        (lambda: v.as_executor("pool"), r"executor must be a concurrent.futures.Executor \(with .submit\), got 'pool'"),
        (lambda: v.as_callable(5, "function"), "function must be callable, got 5 of type int"),
        (lambda: v.as_time_limit(-1), "time_limit must be a finite number of seconds > 0, got -1.0"),
        (lambda: v.as_time_limit(math.inf), "time_limit must be a finite number of seconds > 0, got inf"),
        (lambda: v.as_time_limit(math.nan), "time_limit is NaN"),
    ]
    for call, match in cases:
        with pytest.raises(MechDesignError, match=match):
            call()


@pytest.mark.parametrize("call, error, match", [
    (lambda: v.as_index(3, 3, "category"), MechDesignError, r"category must be an integer in 0..2, got 3"),
    (lambda: v.as_index(True, 3, "category"), MechDesignError, "category must be an integer"),
    (lambda: v.as_histogram_counts([1.5, 2]), MechDesignError, "counts must be a 1-D array of >= 2 non-negative integers"),
    (lambda: v.as_histogram_counts([0, 0]), MechDesignError, "with a positive total"),
    (lambda: v.as_histogram_rows([[1, 2], [2, 2]]), MechDesignError, "with one positive total"),
    (lambda: v.as_positive_budget(0, "sigma"), InvalidBudgetError, r"sigma must be > 0, got 0.0"),
    (lambda: v.as_positive_int(2.0, "d", minimum=2), MechDesignError, "d must be an integer >= 2, got 2.0"),
    (lambda: v.as_indices([0, 3], 3, "categories"), MechDesignError,
     r"categories\[1\] must be an integer in 0..2, got 3 \(1 bad of 2\)"),
    (lambda: v.as_indices([], 3, "categories"), MechDesignError,
     r"categories must be a non-empty 1-D sequence of indices, got shape \(0,\)"),
    (lambda: v.as_indices(5, 3, "categories"), MechDesignError,
     r"categories must be a non-empty 1-D sequence of indices, got shape \(\)"),
    (lambda: v.as_indices([[0, 4]], 3, "inputs", ndim=None), MechDesignError,
     r"inputs\[0, 1\] must be an integer in 0..2, got 4"),
    (lambda: v.as_indices(["0"], 3, "inputs"), MechDesignError, "inputs must hold integer indices, got dtype <U1"),
    (lambda: v.as_indices([5], 3, "subset", error=InvalidMechanismError), InvalidMechanismError, r"subset\[0\]"),
    (lambda: v.as_rng("seed"), MechDesignError, "rng must be None, a non-negative integer seed or a numpy Generator, got 'seed'"),
    (lambda: v.as_rng(-1, "resample"), MechDesignError, "resample must be None, a non-negative integer seed"),
])
def test_histogram_index_budget_and_seed_checks_name_the_value(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_as_rng_keeps_a_generator_and_seeds_like_numpy():
    generator = np.random.default_rng(7)
    assert v.as_rng(generator) is generator
    assert v.as_rng(3).random() == np.random.default_rng(3).random()
    assert v.as_histogram_rows([[2, 0], [1, 1]]).dtype == np.int64
    assert v.as_indices(np.array([2, 0]), 3, "columns").tolist() == [2, 0]
    assert v.as_indices([2.0, 0.0], 3, "columns").dtype == np.int64
    assert v.as_indices([], 3, "inputs", ndim=None, empty=True).shape == (0,)


def test_counts_members_vectors_and_bounds_name_the_argument_and_the_value():
    assert v.check_count(2, 2, "prior") == 2
    assert v.as_real_vector(0.5, "levels").tolist() == [0.5]
    assert v.as_finite(2, "phi", minimum=2) == 2.0
    assert v.as_members("mu1", ("mu1", "sigma1"), "secrets") == ["mu1"]
    assert v.as_members([], ("a",), "columns") == []
    assert v.check_full_support(np.array([0.5, 0.5])).tolist() == [0.5, 0.5]
    cases = [
        (lambda: v.check_count(3, 2, "channel", "rows"), ShapeMismatchError, "channel has 3 rows, expected 2"),
        (lambda: v.as_real_vector([[1.0]], "levels"), MechDesignError, r"levels must be a 1-D array, got shape \(1, 1\)"),
        (lambda: v.as_real_vector([], "levels"), MechDesignError, "levels is empty"),
        (lambda: v.as_finite(1.5, "phi", minimum=2), MechDesignError, "phi must be a finite number >= 2, got 1.5"),
        (lambda: v.as_members(["a", "z", "y"], ("a", "b"), "data", kind="category"), MechDesignError,
         r"data holds 2 value\(s\) that are not a known category: \['z', 'y'\]; known: \['a', 'b'\]"),
        (lambda: v.as_members(list(range(12)), (), "data"), MechDesignError, r"12 value\(s\).*\[0, 1, .*, 9\] …; known: \[\]"),
        (lambda: v.as_members([["a"]], ("a",), "columns"), MechDesignError, r"not a known value: \[\['a'\]\]"),
        (lambda: v.as_members(5, ("a",), "columns"), MechDesignError, "columns must be a non-empty sequence, got 5"),
        (lambda: v.check_full_support(np.array([0.5, 0.0]), "prior"), InvalidDistributionError,
         "prior must have full support, but entry 1 is 0"),
        (lambda: v.as_sequence([], "extreme_points", InvalidDistributionError), InvalidDistributionError,
         "extreme_points is empty"),
        (lambda: v.as_stochastic_matrix([[0.5, 0.6]], "histograms", InvalidDistributionError), InvalidDistributionError,
         "histograms is not row-stochastic: row 0 sums to 1.1"),
        (lambda: v.as_real_array([[0.5]], "redraw", 1, InvalidMechanismError), InvalidMechanismError,
         r"redraw must be a 1-D array, got shape \(1, 1\)"),
    ]
    for call, error, match in cases:
        with pytest.raises(error, match=match):
            call()


# --- hostile input, round 2 (issue 30) ---------------------------------------------------------------


@pytest.mark.parametrize("value, expected", [(10**400, math.inf), (-(10**400), -math.inf)])
def test_integers_beyond_float_range_are_infinite_not_an_overflow(value, expected):
    """M6: ``float(10**400)`` raised a raw OverflowError out of every real-number check; such an integer
    is as large as a float can say: ±inf, which each validator then accepts or refuses by name."""
    assert v.as_budget(abs(value), infinite=True) == math.inf
    with pytest.raises(InvalidBudgetError, match="epsilon must be a finite number >= 0, got inf"):
        v.as_budget(abs(value))
    with pytest.raises(MechDesignError, match=f"distortion must be finite, got {expected!r}"):
        v.as_finite(value, "distortion")


def test_design_accepts_a_budget_beyond_float_range_as_infinite():
    """M6: ``design(DifferentialPrivacy(), 10**400, objective)`` raised OverflowError; 1e308 and inf worked."""
    from mechdesign import DifferentialPrivacy, ExpectedDistortion, design

    result = design(DifferentialPrivacy(), 10**400, ExpectedDistortion([0.5, 0.5]))
    assert result.status == "optimal" and result.budgets == {"dp": math.inf}
    assert result.objective == pytest.approx(0.0, abs=1e-12)


@pytest.mark.parametrize("value", [np.bool_(True), np.bool_(False), np.array(True)])
def test_numpy_booleans_are_not_budgets(value):
    """L6: ``np.bool_(True)`` was accepted as budget 1 while ``True`` was refused."""
    with pytest.raises(InvalidBudgetError, match=r"epsilon must be a number \(a real scalar\)"):
        v.as_budget(value)
    with pytest.raises(InvalidBudgetError, match=r"delta must be a number \(a real scalar\)"):
        v.as_delta(value)


@pytest.mark.parametrize("pairs, match", [
    (np.array([[0, 1, 0], [1, 0, 1], [0, 1, 0]]), "3 x 3 matrix of integers 0/1: an adjacency matrix must be boolean"),
    ([[0, 1], [1, 0]], "2 x 2 matrix of integers 0/1: .* a list of index pairs needs n_inputs"),
    (int, "got the class int"),
    (3, "neighbours must be None .* got 3"),
    ("0,1", "neighbours must be None .* got '0,1'"),
    ([(0, 1), (1, 2)], "n_inputs is required when neighbours are given as a list of pairs"),
])
def test_neighbour_relation_errors_say_what_was_given(pairs, match):
    """L5: an integer 0/1 adjacency matrix and a class both said "n_inputs is required when neighbours are
    given as a list of pairs"."""
    with pytest.raises(MechDesignError, match=match):
        v.as_neighbour_size(pairs, None)


def test_neighbour_size_from_n_inputs_or_a_boolean_matrix():
    assert v.as_neighbour_size([(0, 1)], 5) == 5
    assert v.as_neighbour_size([[False, True], [True, False]], None) == 2


def test_integers_beyond_float_range_in_arrays_and_counts_are_named():
    """M6 (found by the fuzz): ``Prior(10**400)`` and ``randomized_response(10**400, 1)`` raised OverflowError."""
    with pytest.raises(InvalidDistributionError, match="prior must be numeric"):
        v.as_probability_vector([10**400, 1])
    with pytest.raises(MechDesignError, match=r"n must be an integer >= 1 and <= 9223372036854775807 \(the largest "
                                              r"array index\), got 1000"):
        v.as_positive_int(10**400, "n")
    assert v.as_positive_int(2**62, "n") == 2**62
