import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mechdesign.exceptions import InvalidBudgetError, MechDesignError, ProblemTooLargeError, ShapeMismatchError
from mechdesign.privacy.metric import (EARTH_RADIUS_KM, PAIR_SCALE_CAP, MetricDifferentialPrivacy, as_distance_matrix,
                                       grid_points, point_distances)

from ..strategies import stochastic_matrices
from .protocol import assert_constraints_match_measure, assert_post_processing_does_not_increase


def brute_force_measure(distances, matrix):
    """max over ordered pairs and outputs of log(Q[x, y] / Q[x', y]) / d(x, x'), written out."""
    worst = 0.0
    n, m = matrix.shape
    for x in range(n):
        for other in range(n):
            for y in range(m):
                if x == other or matrix[x, y] == 0:
                    continue
                if matrix[other, y] == 0:
                    return math.inf
                worst = max(worst, math.log(matrix[x, y] / matrix[other, y]) / distances[x, other])
    return worst


def test_hand_computed_measure():
    notion = MetricDifferentialPrivacy([[0, 2], [2, 0]], unit="km")
    assert notion.measure([[0.75, 0.25], [0.25, 0.75]]) == pytest.approx(math.log(3) / 2, abs=1e-12)
    assert notion.measure(np.eye(2)) == math.inf
    assert notion.measure(np.full((2, 3), 1 / 3)) == 0.0
    assert notion.label == "metric-dp(per km)"


@settings(max_examples=25)
@given(stochastic_matrices(n_inputs=st.integers(2, 5), n_outputs=st.integers(2, 4)), st.integers(0, 2**32 - 1))
def test_measure_equals_brute_force(matrix, seed):
    points = np.random.default_rng(seed).normal(size=(matrix.shape[0], 2))
    notion = MetricDifferentialPrivacy.from_points(points)
    assert notion.measure(matrix) == pytest.approx(brute_force_measure(notion.distances, matrix), rel=1e-9, abs=1e-12)


@settings(max_examples=20)
@given(st.integers(0, 2**32 - 1))
def test_graph_edges_are_exact(seed):
    """The shortest-path metric's measure over the edges equals the all-pairs measure (module docstring's proof)."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(3, 8))
    edges = [(i, i + 1) for i in range(n - 1)] + [tuple(sorted(rng.choice(n, 2, replace=False))) for _ in range(n)]
    edges = sorted(set(edges))
    weights = rng.uniform(0.2, 3.0, len(edges))
    graph = MetricDifferentialPrivacy.from_graph(edges, weights, n)
    full = MetricDifferentialPrivacy(graph.distances)
    assert not graph.has_all_pairs and full.has_all_pairs
    matrix = rng.dirichlet(np.ones(4), size=n)
    assert graph.measure(matrix) == pytest.approx(full.measure(matrix), rel=1e-12)
    assert graph.measure(matrix) == pytest.approx(brute_force_measure(graph.distances, matrix), rel=1e-9)


def test_graph_constraints_are_those_of_its_edges_and_match_the_measure():
    graph = MetricDifferentialPrivacy.from_graph([(0, 1), (1, 2), (2, 3)], [1.0, 2.0, 0.5], 4)
    assert graph.distances[0, 3] == 3.5
    assert len(graph.constraint_pairs()[0]) == 3
    matrix = np.random.default_rng(1).dirichlet(np.ones(3), size=4)
    assert_constraints_match_measure(graph, matrix)


@settings(max_examples=15, deadline=None)
@given(stochastic_matrices(n_inputs=st.integers(2, 4), n_outputs=st.integers(2, 3)))
def test_constraints_match_measure(matrix):
    notion = MetricDifferentialPrivacy.from_points(np.arange(matrix.shape[0], dtype=float) * 0.7)
    assert_constraints_match_measure(notion, matrix)


@settings(max_examples=15, deadline=None)
@given(stochastic_matrices(n_inputs=st.integers(2, 4), n_outputs=st.integers(2, 3)), st.data())
def test_post_processing_never_increases(matrix, data):
    notion = MetricDifferentialPrivacy.from_points(np.arange(matrix.shape[0], dtype=float))
    channel = data.draw(stochastic_matrices(n_inputs=st.just(matrix.shape[1])))
    assert_post_processing_does_not_increase(notion, matrix, channel)


def test_relaxation_is_the_constraints():
    notion = MetricDifferentialPrivacy.from_points([0.0, 1.0, 3.0])
    matrix = np.random.default_rng(0).dirichlet(np.ones(3), size=3)
    budget = notion.measure(matrix)
    relaxation = notion.relaxation([matrix], budget + 1e-9)
    assert relaxation.rows_q.shape == (3 * 2 * 3, 9)
    assert np.all(relaxation.rows_q @ matrix.ravel() <= relaxation.rhs + 1e-12)
    tight = notion.relaxation([matrix], budget * 0.99)
    assert np.any(tight.rows_q @ matrix.ravel() > tight.rhs)


def test_norms():
    assert point_distances([[0, 0], [3, 4]])[0, 1] == 5.0
    assert point_distances([[0, 0], [3, 4]], "manhattan")[0, 1] == 7.0
    paris, london = (48.8566, 2.3522), (51.5074, -0.1278)
    # the spherical law of cosines, an independent formula
    (a, b), (c, d) = np.radians(paris), np.radians(london)
    expected = EARTH_RADIUS_KM * math.acos(math.sin(a) * math.sin(c) + math.cos(a) * math.cos(c) * math.cos(b - d))
    notion = MetricDifferentialPrivacy.from_points([paris, london], "great-circle")
    assert notion.distances[0, 1] == pytest.approx(expected, rel=1e-9)
    assert notion.unit == "km" and notion.label == "metric-dp(per km)"
    with pytest.raises(InvalidBudgetError, match=r"points row 1 has latitude -91.0, outside \[-90, 90\] degrees"):
        point_distances([[0.0, 0.0], [-91.0, 0.0]], "great-circle")
    with pytest.raises(InvalidBudgetError, match=r"points row 0 has longitude 180.5, outside \[-180, 180\]"):
        point_distances([[0.0, 180.5], [0.0, 0.0]], "great-circle")
    with pytest.raises(InvalidBudgetError, match=r"latitudes and longitudes .* got shape \(2, 1\)"):
        point_distances([0.0, 1.0], "great-circle")
    with pytest.raises(MechDesignError, match="norm"):
        point_distances([[0, 0], [1, 1]], "chebyshev")


@pytest.mark.parametrize("dimension", [1, 2, 3])
def test_norms_against_scipy(dimension):
    """Euclidean and Manhattan distances of random points against scipy's cdist (an independent computation),
    to 1e-12 relative: the per-coordinate accumulation of point_distances changes no value beyond rounding."""
    from scipy.spatial.distance import cdist

    points = np.random.default_rng(dimension).normal(scale=10.0, size=(40, dimension))
    for norm, metric in (("euclidean", "euclidean"), ("manhattan", "cityblock")):
        np.testing.assert_allclose(point_distances(points, norm), cdist(points, points, metric), rtol=1e-12, atol=0)


def test_too_many_points_are_refused_before_allocation():
    """Issue 35 hostile pass: a 100000 × 100000 grid (10^10 points, 10^20 pairs) failed in numpy's allocation
    ('out of memory', exit 3), and 2·10^6 points on a line asked numpy for a 32 TB difference array; both are now
    refused by the memory estimate, naming the grid or the number of points."""
    with pytest.raises(ProblemTooLargeError, match="the 100,000 × 100,000 grid's points needs an estimated"):
        grid_points(100_000, 100_000)
    with pytest.raises(ProblemTooLargeError, match="the manhattan distances between 2,000,000 points"):
        point_distances(np.arange(2_000_000.0), "manhattan")


def test_grid():
    notion = MetricDifferentialPrivacy.grid(3, 2, spacing=2.0)
    assert notion.n_inputs == 6 and notion.points[4].tolist() == [2.0, 2.0]
    assert notion.distances[0, 5] == pytest.approx(2 * math.sqrt(5))


@pytest.mark.parametrize("distance, message", [
    ([[0, -1], [-1, 0]], "negative entry -1.0 at \\[0, 1\\]"),
    ([[0, np.inf], [np.inf, 0]], "non-finite entry inf"),
    ([[0, np.nan], [1, 0]], "non-finite entry nan"),
    ([[0, 1], [2, 0]], "must be symmetric, got d\\[0, 1\\] = 1.0 and d\\[1, 0\\] = 2.0"),
    ([[1, 1], [1, 0]], "0 on the diagonal, got d\\[0, 0\\] = 1.0"),
    ([[0, 0, 1], [0, 0, 1], [1, 1, 0]], "distinct points 0 and 1 at distance 0"),
    ([[0, 1, 3], [1, 0, 1], [3, 1, 0]], "triangle inequality: d\\[0, 2\\] = 3 > d\\[0, 1\\] \\+ d\\[1, 2\\] = 2"),
    ([[0, 1, 2]], "square"),
    ("far", "numeric"),
])
def test_bad_metrics_are_named_errors(distance, message):
    with pytest.raises(InvalidBudgetError, match=message):
        as_distance_matrix(distance)


def test_other_bad_input():
    with pytest.raises(InvalidBudgetError, match="distinct points 0 and 1"):
        MetricDifferentialPrivacy.from_points([[1.0, 1.0], [1.0, 1.0]])
    with pytest.raises(ShapeMismatchError, match=r"per input, 2 of them; got an array of shape \(3, 2\)"):
        MetricDifferentialPrivacy([[0, 1], [1, 0]], points=np.zeros((3, 2)))
    with pytest.raises(InvalidBudgetError, match="points"):
        MetricDifferentialPrivacy([[0, 1], [1, 0]], points=[math.inf, 0.0])
    with pytest.raises(MechDesignError, match="edges"):
        MetricDifferentialPrivacy([[0, 1], [1, 0]], edges=[(0, 5)])
    with pytest.raises(ShapeMismatchError, match="edges must be pairs"):
        MetricDifferentialPrivacy([[0, 1], [1, 0]], edges=[(0, 1, 1)])
    with pytest.raises(ShapeMismatchError, match="defined on 2 inputs"):
        MetricDifferentialPrivacy([[0, 1], [1, 0]]).measure(np.full((3, 2), 0.5))
    with pytest.raises(InvalidBudgetError, match="not connected: vertices 0 and 2"):
        MetricDifferentialPrivacy.from_graph([(0, 1)], [1.0], 3)
    with pytest.raises(InvalidBudgetError, match="positive finite lengths"):
        MetricDifferentialPrivacy.from_graph([(0, 1)], [0.0], 2)
    with pytest.raises(InvalidBudgetError, match="edges"):
        MetricDifferentialPrivacy.from_graph([(0, 0)], [1.0], 2)
    with pytest.raises(InvalidBudgetError, match="unit"):
        MetricDifferentialPrivacy([[0, 1], [1, 0]], unit="")


def test_budget_overflow_follows_the_budget_rule():
    """ε·d past e^709.78 is refused for constraints (as e^ε is for local DP) at the smallest distance, the last pair
    to reach PAIR_SCALE_CAP; beyond it the far pairs are capped, not refused. Points 0, 50, 150 on a line."""
    import cvxpy as cp
    notion = MetricDifferentialPrivacy.from_points([0.0, 50.0, 150.0])
    assert notion.scaled_budget(15.0) == math.inf and notion.scaled_budget(14.0) == math.exp(700.0)
    with pytest.raises(InvalidBudgetError, match="too large for constraints"):
        notion.constraints(cp.Variable((3, 2)), 15.0)
    with pytest.raises(InvalidBudgetError, match="too large for constraints"):
        notion.pair_scales(15.0)
    with pytest.raises(InvalidBudgetError, match="too large for constraints"):
        notion.parameter().set(15.0)
    assert notion.pair_scales(14.0).tolist() == [PAIR_SCALE_CAP] * 3  # ε D = 2,100: capped, not refused
    assert notion.budget_from_scaled(math.exp(50.0)) == pytest.approx(1.0)


def test_the_pair_cap_is_the_designs_constraint_scale():
    """The per-pair cap is DesignProblem's MAX_CONSTRAINT_SCALE: the design caps the budget where the nearest pair
    reaches it, the constraints cap each farther pair at it."""
    from mechdesign.problem import MAX_CONSTRAINT_SCALE
    assert PAIR_SCALE_CAP == MAX_CONSTRAINT_SCALE
    notion = MetricDifferentialPrivacy.from_points([0.0, 2.0, 5.0])
    epsilon = math.log(PAIR_SCALE_CAP) / 4  # pairs (0, 1) at e^{2ε} = 1e6 and (1, 2) at 1e9 uncapped, (0, 2) capped
    assert notion.pair_scales(epsilon) == pytest.approx([1e6, PAIR_SCALE_CAP, 1e9], rel=1e-12)
    assert notion.budget_from_scaled(MAX_CONSTRAINT_SCALE) == pytest.approx(math.log(PAIR_SCALE_CAP) / 2)


def test_the_relaxation_holds_the_uncapped_pairs_and_every_private_mechanism_meets_it():
    """The certificate's rows are the balanced constraints of the uncapped pairs (rows of the design's constraints,
    so its multipliers carry over) and every ε-d-private mechanism meets them (a bound for the problem asked); a
    mechanism a little beyond ε breaks one. Points 0, 1, 3, 10 at ε = 2: e^{2 d} >= 1e12 from d = 13.8 on."""
    notion = MetricDifferentialPrivacy.from_points([0.0, 1.0, 3.0, 10.0, 20.0])
    epsilon = 2.0
    scales = np.exp(epsilon * notion.constraint_pairs()[2])
    uncapped = int((scales < PAIR_SCALE_CAP).sum())
    assert 0 < uncapped < scales.size
    points = np.array([0.0, 1.0, 3.0, 10.0, 20.0])

    def exponential(rate):  # the exponential mechanism onto the same points: (2 · rate)-d-private
        matrix = np.exp(-rate * np.abs(points[:, None] - points[None, :]))
        return matrix / matrix.sum(axis=1, keepdims=True)

    private, beyond = exponential(epsilon / 2), exponential(2 * epsilon)
    assert notion.measure(private) <= epsilon * (1 + 1e-12) and notion.measure(beyond) > 1.1 * epsilon
    relaxation = notion.relaxation([private], epsilon)
    assert relaxation.rows_q.shape == (2 * uncapped * 5, 25)
    assert (relaxation.rows_q @ private.ravel()).max() <= 1e-12
    assert (relaxation.rows_q @ beyond.ravel()).max() > 1e-3
    given = np.arange(2 * scales.size * 5, dtype=float)
    built, kept = notion.multiplier_relaxation([private], epsilon, given)
    ordered = np.flatnonzero(np.tile(scales < PAIR_SCALE_CAP, 2))  # the uncapped ordered pairs' rows, pair-major
    assert kept.tolist() == (ordered[:, None] * 5 + np.arange(5)).ravel().tolist() and built.rows_q.shape[0] == kept.size
    assert notion.multiplier_relaxation([private], epsilon, given[:-1]) is None


def test_a_cvxpy_curve_is_certified_at_every_budget():
    """One compiled problem re-solved along a curve: with cvxpy's default warm start HiGHS failed at ε = 2 on this
    line (both solvers: solver_error) and came back 'suboptimal' at 15 (0.654 where the optimum is 6.0e-7); each
    point is now the fresh design's, certified and within its budget."""
    from mechdesign import ExpectedDistortion, Prior, design
    from mechdesign.curves import trace_curve
    from mechdesign.result import within_budget
    notion = MetricDifferentialPrivacy.from_points(np.arange(21.0))
    objective = ExpectedDistortion(Prior(np.random.default_rng(0).dirichlet(np.ones(21))), notion.distances)
    budgets = [1.0, 2.0, 15.0]
    curve = trace_curve(notion, objective, budgets, method="cvxpy")
    for epsilon, result in zip(budgets, curve.results, strict=True):
        assert result.status == "optimal", (epsilon, result.message)
        assert within_budget(notion.measure(result.mechanism), epsilon)
        fresh = design(notion, epsilon, objective, method="cvxpy")
        assert abs(result.objective - fresh.objective) <= 1e-7 * max(objective.unit, fresh.objective)


@pytest.mark.parametrize("epsilon", [2.0, 5.0])
def test_cvxpy_design_solves_far_pairs_at_the_budget_asked(epsilon):
    """Issue 35 item 1: on 21 points of a line (D = 20) the budget was capped at log(1e12)/D = 1.38 ("suboptimal",
    the bound of the unconstrained problem); with the far pairs capped instead, the design is certified optimal at
    the budget asked and measured within it. Its value is the independent LP's on the path graph's edges (the same
    metric, exact by the module's theorem, coefficients e^ε only) and the metric cone's where that certifies,
    within 1e-7 of the largest cost (the gap tolerance)."""
    from mechdesign import ExpectedDistortion, Prior, design
    from mechdesign.result import within_budget
    points = np.arange(21.0)
    notion = MetricDifferentialPrivacy.from_points(points)
    path = MetricDifferentialPrivacy.from_graph([(i, i + 1) for i in range(20)], np.ones(20), 21)
    assert np.array_equal(path.distances, notion.distances)
    prior = Prior(np.random.default_rng(0).dirichlet(np.ones(21)))
    objective = ExpectedDistortion(prior, np.abs(points[:, None] - points[None, :]))
    through_cvxpy = design(notion, epsilon, objective, method="cvxpy")
    on_edges = design(path, epsilon, objective, method="cvxpy")
    assert through_cvxpy.status == on_edges.status == "optimal", through_cvxpy.message
    assert "solved at" not in through_cvxpy.message
    assert within_budget(notion.measure(through_cvxpy.mechanism), epsilon)
    tolerance = 1e-7 * max(objective.unit, on_edges.objective)
    assert abs(through_cvxpy.objective - on_edges.objective) <= tolerance
    cone = design(notion, epsilon, objective, method="metric-cone")
    if cone.status == "optimal":
        assert abs(through_cvxpy.objective - cone.objective) <= tolerance


def test_the_budget_parameter_gives_the_constraints_of_its_value():
    """One compiled problem (DPP), re-solved at two budgets, finds what the problem built with numbers does."""
    import cvxpy as cp
    notion = MetricDifferentialPrivacy.from_points([[0, 0], [1, 0], [0, 2]])
    weights = np.array([[0.0, 1.0, 1.0], [1.0, 0.0, 1.0], [1.0, 1.0, 0.0]]) * np.array([[0.5], [0.3], [0.2]])
    Q = cp.Variable((3, 3), nonneg=True)
    budget = notion.parameter()
    problem = cp.Problem(cp.Minimize(cp.sum(cp.multiply(weights, Q))),
                         [cp.sum(Q, axis=1) == 1, *notion.constraints(Q, budget)])
    assert problem.is_dpp()
    for epsilon in (0.3, 1.2):
        budget.set(epsilon)
        problem.solve(solver="HIGHS")
        with_numbers = cp.Problem(cp.Minimize(cp.sum(cp.multiply(weights, Q))),
                                  [cp.sum(Q, axis=1) == 1, *notion.constraints(Q, epsilon)])
        assert problem.value == pytest.approx(with_numbers.solve(solver="HIGHS"), abs=1e-9)
        assert notion.measure(np.clip(Q.value, 0, None)) <= epsilon + 1e-7
    with pytest.raises(MechDesignError, match="belongs to"):
        notion.constraints(Q, MetricDifferentialPrivacy([[0, 1], [1, 0]]).parameter())


@pytest.mark.parametrize("epsilon", [0.3, 1.0])
def test_cvxpy_design_agrees_with_the_metric_cone(epsilon):
    """design(..., method="cvxpy") (the whole LP through cvxpy, with the pair-scales parameter) and the certified
    column generation find the same optimum on a 3 × 3 grid, within the certified gaps."""
    from mechdesign import ExpectedDistortion, Prior, design
    notion = MetricDifferentialPrivacy.grid(3, 3)
    prior = Prior(np.random.default_rng(7).dirichlet(np.ones(9)))
    objective = ExpectedDistortion(prior, notion.distances)
    through_cvxpy = design(notion, epsilon, objective, method="cvxpy")
    cone = design(notion, epsilon, objective, method="metric-cone")
    assert through_cvxpy.status == cone.status == "optimal"
    assert through_cvxpy.method == "cvxpy" and cone.method == "metric-cone"
    assert abs(through_cvxpy.objective - cone.objective) <= through_cvxpy.gap + cone.gap + 1e-12
    assert notion.measure(through_cvxpy.mechanism) <= epsilon * (1 + 1e-9)


@pytest.mark.parametrize("epsilon", [30.0, 1e4, math.inf])
def test_cvxpy_design_takes_large_budgets(epsilon):
    """Issue 35 item 2: the pair-scales parameter refuses ε·D past e^709.78 (as local DP's parameter does), but a
    design never hands it such a budget — DesignProblem answers budgets the unconstrained optimum's mixes meet
    by those mixes (certified by the unconstrained value) and caps the others' constraint scale at 1e12. On a
    3 × 2 grid (D = √5) at ε = 30, 1e4 and inf: optimal, the budget re-measured, and within the certified gaps of
    the metric cone's design (which caps ε·d at 300 instead)."""
    from mechdesign import ExpectedDistortion, Prior, design
    notion = MetricDifferentialPrivacy.grid(3, 2)
    objective = ExpectedDistortion(Prior(np.random.default_rng(3).dirichlet(np.ones(6))), notion.distances)
    through_cvxpy = design(notion, epsilon, objective, method="cvxpy")
    cone = design(notion, epsilon, objective, method="metric-cone")
    assert through_cvxpy.status == cone.status == "optimal"
    assert notion.measure(through_cvxpy.mechanism) <= epsilon
    assert abs(through_cvxpy.objective - cone.objective) <= through_cvxpy.gap + cone.gap + 1e-12
