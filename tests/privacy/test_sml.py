"""Tests of mechdesign.privacy.sml (Wang, Lin & Fanti, "Statistic Maximal Leakage")."""

import itertools
import math
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import linprog

from mechdesign import WorstCaseInputDistortion
from mechdesign.exceptions import MechDesignError, ProblemTooLargeError, ShapeMismatchError
from mechdesign.privacy.sml import (
    Secret,
    StatisticMaximalLeakage,
    choose_method,
    deterministic_sml,
    is_deterministic,
    largest_selections,
    measure_sml,
    min_entropy_leakage,
    property1_bounds,
    selection_leakage,
    worst_case_maximal_leakage,
    worst_case_min_entropy_leakage,
)

from ..strategies import full_support_priors, stochastic_matrices
from .protocol import (
    assert_constraints_match_measure,
    assert_post_processing_does_not_increase,
    assert_round_trip,
)

#: The three exact methods agree to this (they all re-evaluate the chosen selection in numpy).
METHOD_ATOL = 1e-12
#: Bound checks (Property 1, Thms. 2 and 3) allow this round-off.
BOUND_ATOL = 1e-9
#: Progress descriptions print values with 6 significant digits (values here are below 10).
PRINTED_ATOL = 1e-5


@st.composite
def mechanisms_with_secrets(draw, max_inputs=6, deterministic=False):
    n_inputs = draw(st.integers(2, max_inputs))
    if deterministic:
        n_outputs = draw(st.integers(1, max_inputs))
        outputs = draw(st.lists(st.integers(0, n_outputs - 1), min_size=n_inputs, max_size=n_inputs))
        matrix = np.eye(n_outputs)[outputs]
    else:
        matrix = draw(stochastic_matrices(n_inputs=st.just(n_inputs), n_outputs=st.integers(1, max_inputs)))
    values = draw(st.lists(st.integers(0, 3), min_size=n_inputs, max_size=n_inputs))
    return matrix, Secret(values)


def test_fig1_example_and_hand_values():
    # SML paper Fig. 1: Θ = {θ1, θ2, θ3}, Θ_g1 = {θ1, θ2}, Θ_g2 = {θ3}.
    matrix = np.array([[0.9, 0.1], [0.6, 0.4], [0.2, 0.8]])
    secret = Secret(["g1", "g1", "g2"])
    # Selections (θ1, θ3): 0.9 + 0.8; (θ2, θ3): 0.6 + 0.8.
    for method in ("enumerate", "milp"):
        result = measure_sml(matrix, secret, method)
        assert result.value == pytest.approx(math.log(1.7), abs=1e-15)
        assert result.selection.tolist() == [0, 2] and result.exact
    assert StatisticMaximalLeakage(secret).measure(np.eye(3)) == pytest.approx(math.log(2), abs=1e-15)
    assert StatisticMaximalLeakage([0, 1, 2, 3]).measure(np.full((4, 3), 1 / 3)) == 0.0
    # One secret value: nothing to learn.
    assert measure_sml(np.eye(3), [5, 5, 5]).value == 0.0
    assert selection_leakage(matrix, secret, [1, 2]) == pytest.approx(math.log(1.4), abs=1e-15)


def test_secret_construction_and_errors():
    secret = Secret.from_function([(0, 3), (1, 2), (2, 1), (3, 0)], lambda h: h[0] >= 2)
    assert secret.labels.tolist() == [False, True] and [g.tolist() for g in secret.groups] == [[0, 1], [2, 3]]
    assert secret.n_selections == 4 and secret.n_values == 2
    assert np.concatenate(list(secret.selections(batch=3))).tolist() == [[0, 2], [0, 3], [1, 2], [1, 3]]
    with pytest.raises(MechDesignError, match="non-empty 1-D"):
        Secret([])
    with pytest.raises(MechDesignError, match="non-finite value nan at index 1"):
        Secret([0.0, float("nan")])
    with pytest.raises(MechDesignError, match="selection entry 1 = 0 is not an input of secret value True"):
        secret.check_selection([1, 0])
    with pytest.raises(ShapeMismatchError, match="secret is defined on 4 inputs, but the mechanism has 3"):
        measure_sml(np.eye(3), secret)
    with pytest.raises(MechDesignError, match="method must be one of"):
        measure_sml(np.eye(4), secret, "magic")


def test_flow_refuses_randomized_mechanisms():
    with pytest.raises(MechDesignError, match=r"deterministic mechanisms, but row 1 has entry 0.5 at column 0"):
        measure_sml([[1, 0], [0.5, 0.5]], [0, 1], "flow")
    assert is_deterministic(np.eye(3)[[0, 0, 2]]) and not is_deterministic([[1, 0], [0.5, 0.5]])


def _alg1_min_cost_flow(matrix, secret):
    """Alg. 1's network solved as a min-cost-flow LP (totally unimodular: integral optimum)."""
    n_in, n_out, s = matrix.shape[0], matrix.shape[1], secret.n_values
    # Edges: source→g (s), g→θ (n_in), θ→θ' (n_in·n_out), θ'→sink (n_out).
    n_edges = s + n_in + n_in * n_out + n_out
    cost = np.r_[np.zeros(s + n_in), -matrix.ravel(), np.zeros(n_out)]
    nodes = 2 + s + n_in + n_out  # source, g..., θ..., θ'..., sink
    A = np.zeros((nodes, n_edges))

    def edge(k, tail, head):
        A[tail, k] -= 1
        A[head, k] += 1

    g_node, t_node, o_node, sink = (lambda g: 1 + g), (lambda t: 1 + s + t), (lambda o: 1 + s + n_in + o), nodes - 1
    for g in range(s):
        edge(g, 0, g_node(g))
    for t in range(n_in):
        edge(s + t, g_node(secret.group_index[t]), t_node(t))
        for o in range(n_out):
            edge(s + n_in + t * n_out + o, t_node(t), o_node(o))
    for o in range(n_out):
        edge(s + n_in + n_in * n_out + o, o_node(o), sink)
    # Conservation at inner nodes; the source's outflow is free (at most s by capacities).
    result = linprog(cost, A_eq=A[1:-1], b_eq=np.zeros(nodes - 2), bounds=(0, 1), method="highs")
    return -result.fun


@given(mechanisms_with_secrets(deterministic=True))
def test_flow_equals_alg1_network_and_enumeration(case):
    # SML paper, Prop. 2: the negative cost of Alg. 1's min-cost flow is e^SML.
    matrix, secret = case
    flow = measure_sml(matrix, secret, "flow").value
    assert math.exp(flow) == pytest.approx(_alg1_min_cost_flow(matrix, secret), abs=1e-9)
    assert flow == pytest.approx(measure_sml(matrix, secret, "enumerate").value, abs=METHOD_ATOL)
    assert flow == pytest.approx(measure_sml(matrix, secret, "milp").value, abs=METHOD_ATOL)


@settings(max_examples=60)
@given(mechanisms_with_secrets(max_inputs=7))
def test_enumeration_and_milp_agree(case):
    matrix, secret = case
    enumerated = measure_sml(matrix, secret, "enumerate")
    milp = measure_sml(matrix, secret, "milp")
    assert milp.value == pytest.approx(enumerated.value, abs=METHOD_ATOL)
    assert selection_leakage(matrix, secret, milp.selection) == pytest.approx(milp.value, abs=METHOD_ATOL)


@pytest.mark.slow
@settings(max_examples=400)
@given(mechanisms_with_secrets(max_inputs=9))
def test_enumeration_and_milp_agree_sweep(case):
    matrix, secret = case
    assert measure_sml(matrix, secret, "milp").value == pytest.approx(
        measure_sml(matrix, secret, "enumerate").value, abs=METHOD_ATOL)


@given(mechanisms_with_secrets(), st.data())
def test_property1_sandwich(case, data):
    # SML paper, Property 1: L − max_g log|Θ_g| <= SML <= L for L = sup_P L_ML = L_MEL.
    matrix, secret = case
    value = measure_sml(matrix, secret).value
    lower, upper = property1_bounds(matrix, secret)
    assert lower - BOUND_ATOL <= value <= upper + BOUND_ATOL
    assert worst_case_min_entropy_leakage(matrix) == pytest.approx(worst_case_maximal_leakage(matrix), abs=1e-12)
    prior = data.draw(full_support_priors(matrix.shape[0]))
    assert min_entropy_leakage(matrix, prior) <= worst_case_min_entropy_leakage(matrix) + BOUND_ATOL


def test_milp_progress_reports():
    rng = np.random.default_rng(3)
    matrix = rng.random((12, 12)) ** 4
    matrix /= matrix.sum(axis=1, keepdims=True)
    reports = []
    result = measure_sml(matrix, np.arange(12) % 4, "milp",
                         progress=lambda done, total, text: reports.append((done, total, text)))
    assert result.exact and reports
    assert [done for done, _, _ in reports] == list(range(1, len(reports) + 1))  # one call per improvement
    assert all(total is None for _, total, _ in reports)  # the number of improvements is not known ahead
    values = [re.fullmatch(r"SML MILP: best (\S+), bound (\S+) nats", text).groups() for _, _, text in reports]
    best, bound = (np.array(column, dtype=float) for column in zip(*values))
    assert best[-1] == pytest.approx(result.value, abs=METHOD_ATOL + PRINTED_ATOL)
    assert (best <= bound + PRINTED_ATOL).all()


@st.composite
def adaptive_pairs(draw):
    n = draw(st.integers(2, 4))
    first = draw(stochastic_matrices(n_inputs=st.just(n), n_outputs=st.integers(2, 3)))
    second = [draw(stochastic_matrices(n_inputs=st.just(n), n_outputs=st.integers(2, 3)))
              for _ in range(first.shape[1])]
    width = max(m.shape[1] for m in second)
    second = [np.pad(m, ((0, 0), (0, width - m.shape[1]))) for m in second]
    values = draw(st.lists(st.integers(0, 2), min_size=n, max_size=n))
    return first, second, Secret(values)


@given(adaptive_pairs())
def test_adaptive_composition(case):
    # SML paper, Thm. 2: the second mechanism may depend on the first output y1; the pair's SML is at
    # most SML(M1) + max_{y1} SML(M2(·, y1)).
    first, second, secret = case
    joint = np.concatenate([first[:, [y1]] * second[y1] for y1 in range(first.shape[1])], axis=1)
    total = measure_sml(joint, secret).value
    bound = measure_sml(first, secret).value + max(measure_sml(m, secret).value for m in second)
    assert total <= bound + BOUND_ATOL


@given(mechanisms_with_secrets(), st.data())
def test_post_processing_never_increases(case, data):
    # SML paper, Thm. 3.
    matrix, secret = case
    channel = data.draw(stochastic_matrices(n_inputs=st.just(matrix.shape[1])))
    assert_post_processing_does_not_increase(StatisticMaximalLeakage(secret), matrix, channel)


@settings(max_examples=20)
@given(mechanisms_with_secrets(max_inputs=5))
def test_constraints_match_measure(case):
    matrix, secret = case
    assert_constraints_match_measure(StatisticMaximalLeakage(secret), matrix)


@settings(max_examples=10)
@given(st.lists(st.integers(0, 2), min_size=2, max_size=5), st.floats(0.0, 1.5))
def test_round_trip(values, budget):
    assert_round_trip(StatisticMaximalLeakage(values), budget, WorstCaseInputDistortion(len(values)))


def test_constraints_refuse_too_many_selections():
    notion = StatisticMaximalLeakage(np.arange(24) % 2)  # 12^2 = 144 selections: fine
    assert len(notion.constraints(__import__("cvxpy").Variable((24, 3)), 1.0)) == 144
    with pytest.raises(ProblemTooLargeError, match=r"design\(\) generates them .*'constraint-generation'"):
        StatisticMaximalLeakage(np.arange(40) % 4).constraints(__import__("cvxpy").Variable((40, 2)), 1.0)


def test_deterministic_sml_from_output_indices():
    secret = Secret([0, 0, 1, 1, 2])
    outputs = np.array([0, 1, 1, 1, 1])
    # g0 can reach outputs {0, 1}, g1 and g2 only {1}: the largest matching has size 2.
    result = deterministic_sml(outputs, secret)
    assert result.value == pytest.approx(math.log(2), abs=1e-15)
    assert result.value == measure_sml(np.eye(2)[outputs], secret, "flow").value
    assert selection_leakage(np.eye(2)[outputs], secret, result.selection) == pytest.approx(result.value, abs=1e-15)
    with pytest.raises(MechDesignError, match="one non-negative output index per input"):
        deterministic_sml([0, 1], secret)


def test_milp_time_limit_brackets_the_exact_value():
    # n = 60, s = 4 takes the MILP tens of seconds (benchmarks/RESULTS.md); stopped after 0.5 s it returns the
    # best selection found and a proven upper bound, which bracket the enumerated value.
    rng = np.random.default_rng(11)
    matrix = rng.random((60, 60)) ** 4
    matrix /= matrix.sum(axis=1, keepdims=True)
    secret = Secret(np.arange(60) % 4)
    stopped = measure_sml(matrix, secret, "milp", time_limit=0.5)
    exact = measure_sml(matrix, secret, "enumerate").value
    assert stopped.value <= exact + METHOD_ATOL and exact <= stopped.upper + METHOD_ATOL
    if stopped.exact:  # a fast machine may finish: then it is the exact value
        assert stopped.value == pytest.approx(exact, abs=METHOD_ATOL)
    assert selection_leakage(matrix, secret, stopped.selection) == pytest.approx(stopped.value, abs=METHOD_ATOL)


def test_hostile_arguments_of_the_sml_functions_are_named():
    matrix, secret = [[1, 0], [0, 1], [0, 1]], [0, 0, 1]
    cases = [
        (lambda: measure_sml(matrix, secret, time_limit=-1), "time_limit must be a finite number of seconds > 0, got -1.0"),
        (lambda: measure_sml(matrix, secret, time_limit=math.nan), "time_limit is NaN"),
        (lambda: measure_sml(matrix, secret, progress=5), "progress must be callable, got 5"),
        (lambda: measure_sml(matrix, secret, method=["milp"]), r"method must be one of \('auto', 'enumerate', 'milp', 'flow'\)"),
        (lambda: StatisticMaximalLeakage(Secret(secret), method=None), "method must be one of"),
        (lambda: Secret.from_function([1, 2], 5), "function must be callable, got 5 of type int"),
        (lambda: Secret.from_function(None, str), "inputs must be a non-empty sequence, got None"),
        (lambda: Secret([[0, 1], [1]]), "secret must be a rectangular array"),
    ]
    for call, match in cases:
        with pytest.raises(MechDesignError, match=match):
            call()
@given(data=st.data())
def test_enumeration_equals_brute_force_over_every_selection(data):
    # SML paper, Prop. 1: the maximum over selections, here taken with itertools.product directly.
    n = data.draw(st.integers(2, 7))
    matrix = data.draw(stochastic_matrices(n_inputs=st.just(n), n_outputs=st.integers(1, 5)))
    secret = Secret(data.draw(st.lists(st.integers(0, 3), min_size=n, max_size=n)))
    brute = sorted((math.log(matrix[list(selection)].max(axis=0).sum()) for selection in itertools.product(*secret.groups)),
                   reverse=True)
    found = measure_sml(matrix, secret, "enumerate")
    assert found.value == pytest.approx(brute[0], abs=METHOD_ATOL)
    assert selection_leakage(matrix, secret, found.selection) == pytest.approx(found.value, abs=METHOD_ATOL)
    values, selections = largest_selections(matrix, secret, 3)
    assert values == pytest.approx(brute[:3], abs=METHOD_ATOL)
    assert [selection_leakage(matrix, secret, s) for s in selections] == pytest.approx(values.tolist(), abs=METHOD_ATOL)


def test_auto_enumerates_where_enumeration_is_measured_faster():
    # benchmarks/RESULTS.md: at |Θ| = |Θ'| = 60, s = 6 (10⁶ selections) enumeration beats the MILP.
    matrix = np.full((60, 60), 0.5 / 59)
    matrix[np.arange(60), np.arange(60)] = 0.5
    assert choose_method(matrix, Secret(np.arange(60) % 6)) == "enumerate"
