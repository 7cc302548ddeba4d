import itertools
import math

import numpy as np
import pytest

from mechdesign.exceptions import InvalidBudgetError, MechDesignError, ShapeMismatchError, SolverFailedError
from mechdesign.mechanisms.location import (
    adversary_error,
    bayes_vulnerability,
    calibrate_planar_laplace,
    exponential_mechanism,
    gammainc,
    optimal_remap,
    planar_laplace,
    planar_laplace_range,
    truncated_geometric,
)
from mechdesign.mechanisms import location
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


UNEVEN = MetricDifferentialPrivacy.from_points([[x, y] for y in (0.0, 2.0, 2.5) for x in (0.0, 1.0, 2.5, 4.0)])


@pytest.mark.parametrize("notion, epsilon", [(MetricDifferentialPrivacy.grid(3, 3), 1.0),
                                             (MetricDifferentialPrivacy.grid(5, 1, spacing=0.3), 4.0),
                                             (MetricDifferentialPrivacy.grid(6, 4), 0.05),
                                             (MetricDifferentialPrivacy.grid(4, 3), 0.001), (UNEVEN, 0.7)])
def test_planar_laplace_rows_sum_to_one_and_it_is_private(notion, epsilon):
    """The cells partition the plane, so every row's masses sum to 1 (to the quadrature's 1e-13); the matrix is
    post-processing of the ε-d-private continuous mechanism, so it measures at most ε."""
    mechanism = planar_laplace(notion, epsilon)
    np.testing.assert_allclose(mechanism.matrix.sum(axis=1), 1.0, rtol=0, atol=1e-13)
    measured = notion.measure(mechanism)
    assert 0.5 * epsilon < measured <= epsilon * (1 + 1e-9)


def density_mass(epsilon, lower, upper):
    """An independent integration of the planar Laplace density over a rectangle (scipy's adaptive dblquad)."""
    from scipy import integrate
    return integrate.dblquad(lambda y, x: epsilon ** 2 / (2 * np.pi) * np.exp(-epsilon * np.hypot(x, y)),
                             lower[0], upper[0], lower[1], upper[1], epsabs=0, epsrel=1e-11)[0]


def test_planar_laplace_cells_against_an_independent_integration():
    notion, epsilon = MetricDifferentialPrivacy.grid(3, 3), 1.3
    matrix = planar_laplace(notion, epsilon).matrix
    edges = np.array([-np.inf, 0.5, 1.5, np.inf])
    for x in (1,):  # an edge: its own cell (unbounded, holding the location), bounded and unbounded cells
        for y in range(9):
            point, cell = notion.points[x], notion.points[y].astype(int)
            lower = np.array([edges[cell[0]], edges[cell[1]]]) - point
            upper = np.array([edges[cell[0] + 1], edges[cell[1] + 1]]) - point
            assert matrix[x, y] == pytest.approx(density_mass(epsilon, lower, upper), rel=1e-10), (x, y)


@pytest.mark.parametrize("epsilon, spacing", [(1.0, 1.0), (0.2, 3.0), (5.0, 0.5)])
def test_planar_laplace_two_locations_against_the_bessel_marginal(epsilon, spacing):
    """Two locations: the other cell is a half-plane at ``h = spacing / 2``. The planar Laplace law's first
    coordinate has density ``(ε² / π) |u| K_1(ε|u|)`` (``∫ e^{-ε√(u² + v²)} dv = 2|u| K_1(ε|u|)``), so its mass is
    ``(1 / π) ∫_{εh}^∞ t K_1(t) dt``."""
    from scipy import integrate, special
    notion = MetricDifferentialPrivacy.grid(2, 1, spacing=spacing)
    tail = integrate.quad(lambda t: t * special.kv(1, t), epsilon * spacing / 2, np.inf, epsabs=0,
                          epsrel=1e-13)[0] / np.pi
    matrix = planar_laplace(notion, epsilon).matrix
    np.testing.assert_allclose(matrix, [[1 - tail, tail], [tail, 1 - tail]], rtol=1e-12)


def test_radial_cdf_closed_form():
    """``C_ε(r) = 1 − (1 + εr) e^{-εr}`` (what the cell integrals use) against the density integrated radially."""
    from scipy import integrate
    for epsilon, radius in [(1.0, 0.5), (0.1, 7.0), (3.0, 2.0)]:
        numeric = integrate.quad(lambda r: epsilon ** 2 * r * np.exp(-epsilon * r), 0, radius, epsabs=0,
                                 epsrel=1e-13)[0]
        assert gammainc(2, epsilon * radius) == pytest.approx(numeric, rel=1e-13)
        assert gammainc(2, epsilon * radius) == pytest.approx(1 - (1 + epsilon * radius) * math.exp(-epsilon * radius),
                                                              rel=1e-13)


@pytest.mark.parametrize("width, budget", [(3, 1.0), (4, 0.3)])
def test_calibrated_planar_laplace_measures_its_budget(width, budget):
    notion = MetricDifferentialPrivacy.grid(width, 3)
    epsilon = calibrate_planar_laplace(notion, budget)
    assert epsilon > budget
    assert budget * (1 - 1e-6) <= notion.measure(planar_laplace(notion, epsilon)) <= budget
    assert notion.measure(planar_laplace(notion, epsilon * (1 + 1e-6))) > budget  # the calibration is tight
    prior = np.random.default_rng(5).dirichlet(np.ones(notion.n_inputs))
    remapped = optimal_remap(planar_laplace(notion, epsilon), prior, notion.distances)
    assert notion.measure(remapped) <= budget  # post-processing keeps it
    loss = (prior[:, None] * remapped.matrix * notion.distances).sum()
    assert loss <= (prior[:, None] * planar_laplace(notion, epsilon).matrix * notion.distances).sum() + 1e-12


#: Grids of the range's tests: uniform, one row, and uneven spacings (smallest gap 0.01 beside a width of 50).
RANGE_GRIDS = [MetricDifferentialPrivacy.grid(3, 3), MetricDifferentialPrivacy.grid(6, 6),
               MetricDifferentialPrivacy.grid(2, 8), MetricDifferentialPrivacy.grid(5, 1, spacing=0.3), UNEVEN,
               MetricDifferentialPrivacy.from_points([[x, y] for y in (0.0, 0.01) for x in (0.0, 1.0, 2.0, 50.0)])]


@pytest.mark.parametrize("notion", RANGE_GRIDS)
def test_planar_laplace_is_private_at_the_ends_of_its_range(notion):
    """At both ends of planar_laplace_range (ε × smallest spacing = 1e-4, ε × largest distance = 700) the matrix
    measures at most ε: the continuous mechanism's guarantee, post-processed, survives the quadrature there."""
    low, high = planar_laplace_range(notion)
    assert low == pytest.approx(1e-4 / min(np.diff(np.unique(notion.points[:, k])).min()
                                           for k in range(2) if np.unique(notion.points[:, k]).size > 1), rel=1e-12)
    assert high == pytest.approx(700 / notion.distances.max(), rel=1e-12)
    for epsilon in (low, high):
        measured = notion.measure(planar_laplace(notion, epsilon))
        assert 0.5 * epsilon < measured <= epsilon, epsilon


@pytest.mark.parametrize("epsilon, measured_before", [(1e-5, "1.0002 ε"), (1e-6, "1.029 ε"), (1e-8, "42 ε"),
                                                      (353.6, "inf"), (1e4, "inf")])
def test_planar_laplace_refuses_epsilon_outside_its_range(epsilon, measured_before):
    """Issue 35 hostile pass: on a 3 × 3 grid of unit spacing the matrix measured ``measured_before`` at these ε
    (quadrature below, underflow above) and was returned; a named mechanism must not publish more than its budget,
    so ε outside [1e-4, 700 / 2√2] is refused, naming the range."""
    notion = MetricDifferentialPrivacy.grid(3, 3)
    with pytest.raises(InvalidBudgetError, match=r"epsilon = .* per unit is outside the range where its matrix is "
                                                 r"certified .* on these 9 locations: \[0.0001, 247.487\]"):
        planar_laplace(notion, epsilon)
    with pytest.raises(InvalidBudgetError, match=r"budget = .* outside planar_laplace's certified range"):
        calibrate_planar_laplace(notion, epsilon)


def test_planar_laplace_range_scales_with_the_grid():
    """The range is in ε times the grid's lengths: spacing 10 moves both ends down by 10 (1e-5 per unit is
    1e-4 per cell there: accepted), and one location takes every ε."""
    notion = MetricDifferentialPrivacy.grid(3, 3, spacing=10.0)
    assert planar_laplace_range(notion) == pytest.approx((1e-5, 700 / (20 * math.sqrt(2))), rel=1e-12)
    assert notion.measure(planar_laplace(notion, 1e-5)) <= 1e-5
    with pytest.raises(InvalidBudgetError, match="outside the range"):
        planar_laplace(notion, 30.0)  # inside the unit grid's range, not this one's
    single = MetricDifferentialPrivacy.from_points([[0.0, 0.0]])
    assert planar_laplace_range(single) == (0.0, math.inf)
    assert planar_laplace(single, 1e9).matrix.tolist() == [[1.0]]


def test_calibration_stops_at_the_end_of_the_range():
    """A budget at the range's upper end: the calibrated ε is that end (it measures within the budget, larger ε
    are not certified), not an ε whose matrix underflows."""
    notion = MetricDifferentialPrivacy.grid(3, 3)
    high = planar_laplace_range(notion)[1]
    assert calibrate_planar_laplace(notion, high) == high
    assert notion.measure(planar_laplace(notion, high)) <= high


def test_planar_laplace_measures_small_grids_before_returning_them(monkeypatch):
    """Should the range admit an ε whose matrix measures above it (widened here to 1e-8 per spacing: at 1e-6 the
    3 × 3 matrix measures 1.029e-6), planar_laplace measures a grid of up to PLANAR_MEASURED_INPUTS locations
    and refuses to return it; past that size it is not measured (the range alone stands)."""
    notion = MetricDifferentialPrivacy.grid(3, 3)
    monkeypatch.setattr(location, "PLANAR_SPACING_EPSILON", 1e-8)
    with pytest.raises(SolverFailedError, match=r"at epsilon = 1e-06 measures 1\.0[0-9]*e-06 > epsilon on these 9"):
        planar_laplace(notion, 1e-6)
    monkeypatch.setattr(location, "PLANAR_MEASURED_INPUTS", 8)
    assert notion.measure(planar_laplace(notion, 1e-6)) > 1.02e-6


def test_calibration_fails_where_the_matrix_measures_above_its_budget(monkeypatch):
    """Should the range admit an ε whose matrix measures above it (here: widened to 1e-8 per spacing, where the
    matrix at 1e-6 measures 1.029e-6), calibrate_planar_laplace says so as a solver failure instead of
    returning the budget."""
    monkeypatch.setattr(location, "PLANAR_SPACING_EPSILON", 1e-8)
    with pytest.raises(SolverFailedError, match=r"at ε = budget = 1e-06 measures .* > budget"):
        calibrate_planar_laplace(MetricDifferentialPrivacy.grid(3, 3), 1e-6)


def test_planar_laplace_bad_input():
    with pytest.raises(InvalidBudgetError, match="rectangular grid xs × ys: the 3 points"):
        planar_laplace(MetricDifferentialPrivacy.from_points([[0, 0], [1, 0], [0, 1]]), 1.0)
    with pytest.raises(InvalidBudgetError, match="Euclidean metric"):
        planar_laplace(MetricDifferentialPrivacy.grid(2, 2, norm="manhattan"), 1.0)
    with pytest.raises(InvalidBudgetError, match="2-D points .* got no points"):
        planar_laplace(MetricDifferentialPrivacy([[0, 1], [1, 0]]), 1.0)
    with pytest.raises(InvalidBudgetError, match="epsilon must be > 0"):
        planar_laplace(MetricDifferentialPrivacy.grid(2, 2), 0.0)
    with pytest.raises(InvalidBudgetError, match="budget must be a finite number"):
        calibrate_planar_laplace(MetricDifferentialPrivacy.grid(2, 2), math.inf)
