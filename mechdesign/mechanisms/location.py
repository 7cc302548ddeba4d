"""Named mechanisms of metric differential privacy and the location-privacy measures of any mechanism.

* :func:`exponential_mechanism` — ``Q[x, y] ∝ e^{-ε d(x, y) / 2}`` (McSherry & Talwar, FOCS 2007): ε-d-private
  for any metric, outputs the inputs.
* :func:`truncated_geometric` — the line metric ``{0, …, n − 1}``: the two-sided geometric law
  ``∝ α^{|x − y|}``, ``α = e^{-ε}``, its tails folded onto the ends (Ghosh, Roughgarden & Sundararajan,
  "Universally utility-maximizing privacy mechanisms", STOC 2009): ε-d-private.
* :func:`planar_laplace` — the planar Laplace mechanism (Andrés et al., "Geo-indistinguishability", CCS 2013)
  on a grid of locations: a draw from the density ``∝ e^{-ε ‖z − x‖}`` reported as the nearest location; its
  matrix is integrated exactly (to quadrature accuracy) over the locations' cells. Post-processing of an
  ε-d-private mechanism, it is ε-d-private; :func:`calibrate_planar_laplace` finds the larger continuous ε
  whose discretized mechanism still measures within a budget.
* :func:`optimal_remap` — the Bayesian remap of a mechanism's outputs that minimizes the expected loss under a
  prior (post-processing: the budget is kept).
* :func:`adversary_error` — the adversary's expected inference error (Shokri et al., "Quantifying location
  privacy", S&P 2011): the optimal Bayesian remap's expected distance, ``Σ_y min_z Σ_x π_x Q[x, y] d(x, z)``.
* :func:`bayes_vulnerability` — ``Σ_y max_x π_x Q[x, y]``, the adversary's chance of guessing the input in one try.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .._lazy import LazyFunction
from .._validate import as_budget, as_cost_matrix, as_positive_budget, as_positive_int
from ..exceptions import InvalidBudgetError, ShapeMismatchError, SolverFailedError
from ..mechanism import Mechanism, MechanismLike, as_mechanism
from ..priors import PriorLike, as_prior
from ..privacy.metric import METRIC_RTOL, MetricDifferentialPrivacy, point_distances

#: The regularized lower incomplete gamma function: ``gammainc(2, εr) = 1 − (1 + εr) e^{-εr}`` is the planar
#: Laplace law's radial CDF ``C_ε(r)``.
gammainc = LazyFunction("scipy.special", "gammainc")

#: Step and half-width of the tanh-sinh (double-exponential) rule on each smooth angular piece of a cell's
#: integral in :func:`planar_laplace`: its nodes crowd the ends, where a ray parallel to an unbounded edge of
#: a cell makes the integrand ``e^{-c / |θ − θ_0|}``-flat (32-point Gauss–Legendre missed such cells by 5e-8,
#: step 1/16 lost 7e-11 of a row's mass at ε = 0.001; step 1/32 sums rows to 1 within 3e-16 there).
TANH_SINH_STEP, TANH_SINH_RANGE = 1 / 32, 3.5
#: Largest number of (cell, node) evaluations one block of :func:`planar_laplace` holds at once.
PLANAR_BLOCK = 1 << 21
#: Angular pieces of a cell's integral: between the 9 sorted angles of its 4 corners and of the axes (±π, ±π/2, 0).
ANGULAR_PIECES = 8
#: Relative width of :func:`calibrate_planar_laplace`'s final bracket on the continuous ε.
CALIBRATION_RTOL = 1e-7
#: The ends of the range in which :func:`planar_laplace`'s matrix is certified ε-d-private, as ε times the grid's
#: smallest spacing (below: the angular quadrature loses the log-ratios of nearly equal cells, 1.0002 ε at
#: 1e-5 on a 3 × 3 grid of unit spacing) and ε times its largest distance (above: far cells underflow beside
#: positive ones, the matrix measures ``inf`` from ≈ 1000 on that grid). At both ends the matrix measured at most
#: ε on 60 random grids of 2–5 × 2–5 coordinates with gaps from 0.01 to 100 (``tests/mechanisms/test_location.py``
#: checks some of them). The lower end stays: the exact matrix measures ``(1 − 0.043 εs) ε`` on that grid (``s``
#: the spacing; 4.17e-4, 4.3e-5, 4.34e-6 below ε at εs = 1e-2, 1e-3, 1e-4, whatever the quadrature's step), so
#: measuring it within ε needs its cells to a relative 0.04 (εs)² — 4e-12 at εs = 1e-5 (a step of 1/512, 16 times
#: the cost, reached 2e-12: 2.4e-7 below ε, not a margin), and below εs ≈ 1e-7 more than float64 holds (a ratio of
#: two doubles is known to 2e-16, the margin is 0.04 (εs)²) whatever the integration
#: (benchmarks/notes/2026-11-28-metric-dp-periphery.md).
PLANAR_SPACING_EPSILON, PLANAR_EXTENT_EPSILON = 1e-4, 700.0
#: Up to this many locations :func:`planar_laplace` also measures its matrix before returning it (a 15 × 15 grid:
#: 0.17 s beside the matrix's 1.1 s; 10 × 10: 0.003 s beside 0.47 s, at load 8.5 —
#: benchmarks/notes/2026-11-27-planar-laplace-range.md).
PLANAR_MEASURED_INPUTS = 225


def exponential_mechanism(notion: MetricDifferentialPrivacy, epsilon: float) -> Mechanism:
    """``Q[x, y] = e^{-ε d(x, y) / 2} / Σ_z e^{-ε d(x, z) / 2}``: ε-d-private.

    The numerator's ratio between inputs ``x, x'`` is at most ``e^{ε d(x, x') / 2}`` and so is the normalizers'
    (triangle inequality in each term), hence ``Q[x, y] <= e^{ε d(x, x')} Q[x', y]``.

    Parameters
    ----------
    notion
        The metric (outputs are its points).
    epsilon
        ε per unit of distance.

    Returns
    -------
    Mechanism
        ``(n, n)``.

    Examples
    --------
    >>> notion = MetricDifferentialPrivacy.from_points([0.0, 1.0, 2.0])
    >>> notion.measure(exponential_mechanism(notion, 1.0)) <= 1.0
    True
    """
    epsilon = as_budget(epsilon, "epsilon")
    logits = -epsilon * notion.distances / 2
    weights = np.exp(logits - logits.max(axis=1, keepdims=True))
    return Mechanism(weights / weights.sum(axis=1, keepdims=True))


def truncated_geometric(n: int, epsilon: float) -> Mechanism:
    """The truncated geometric mechanism on ``{0, …, n − 1}`` at ε per unit of ``|x − y|``.

    ``Q[x, y] = (1 − α) / (1 + α) · α^{|x − y|}`` inside, ``α^{|x − y|} / (1 + α)`` at the ends ``y ∈ {0, n − 1}``
    (the geometric law's tails beyond them), ``α = e^{-ε}``.

    Examples
    --------
    >>> mechanism = truncated_geometric(3, math.log(2))
    >>> mechanism.matrix.round(4).tolist()
    [[0.6667, 0.1667, 0.1667], [0.3333, 0.3333, 0.3333], [0.1667, 0.1667, 0.6667]]
    >>> round(MetricDifferentialPrivacy.from_points(np.arange(3.0)).measure(mechanism), 12) == round(math.log(2), 12)
    True
    """
    n = as_positive_int(n, "n")
    epsilon = as_budget(epsilon, "epsilon")
    alpha = math.exp(-epsilon)
    gaps = np.abs(np.arange(n)[:, None] - np.arange(n)[None, :]).astype(float)
    with np.errstate(under="ignore"):
        powers = alpha ** gaps
    matrix = powers * (1 - alpha) / (1 + alpha)
    if n == 1:
        return Mechanism(np.ones((1, 1)))
    matrix[:, [0, n - 1]] = powers[:, [0, n - 1]] / (1 + alpha)
    return Mechanism(matrix)


def _grid_axes(notion: MetricDifferentialPrivacy) -> list[tuple[np.ndarray, np.ndarray]]:
    """Per axis, the grid's coordinates and every location's index among them, for the points of a product grid.

    The locations must be the points ``xs × ys`` of two sets of coordinates (any spacing) under the Euclidean
    metric; the nearest location of ``z`` is then the nearest ``x`` coordinate and the nearest ``y`` coordinate,
    so each location's Voronoi cell is the product of the two axes' intervals between midpoints (unbounded at
    the ends).
    """
    points = notion.points
    if points is None or points.ndim != 2 or points.shape[1] != 2:
        raise InvalidBudgetError(f"planar_laplace needs a notion built from 2-D points (MetricDifferentialPrivacy.grid "
                                 f"or from_points), got {'no points' if points is None else points.shape}")
    scale = METRIC_RTOL * max(1.0, float(notion.distances.max()))
    if np.abs(point_distances(points) - notion.distances).max() > scale:
        raise InvalidBudgetError("planar_laplace needs the Euclidean metric of the notion's points")
    axes = [np.unique(points[:, k]) for k in range(2)]
    if len(axes[0]) * len(axes[1]) != len(points):
        raise InvalidBudgetError(f"planar_laplace needs the points of a rectangular grid xs × ys: the {len(points)} "
                                 f"points have {len(axes[0])} distinct x and {len(axes[1])} distinct y coordinates")
    return [(axis, np.searchsorted(axis, points[:, k])) for k, axis in enumerate(axes)]


def _cell_masses(epsilon: float, lower: np.ndarray, upper: np.ndarray) -> np.ndarray:
    """The planar Laplace law's masses (centred at 0) of the rectangles ``lower``–``upper`` (``(..., 2)`` corners).

    In polar coordinates a ray at angle θ crosses a rectangle between the distances ``t_in <= t_out`` (the slab
    method, ``t_in = 0`` when the rectangle holds the centre), so the mass is
    ``(1 / 2π) ∫ C_ε(t_out) − C_ε(t_in) dθ`` with ``C_ε(r) = 1 − (1 + εr) e^{-εr}``, written as
    ``e^{-ε t_in} (ε t_in (1 − e^{-εΔ}) + C_ε(Δ))``, ``Δ = t_out − t_in`` — two positive terms, so far cells keep
    their relative accuracy. Between consecutive angles of the rectangle's corners and of the axes the integrand
    is smooth (the same slab bounds are active, or the ray misses it), and each piece is integrated by
    the tanh-sinh rule of :data:`TANH_SINH_STEP`.
    """
    shape = lower.shape[:-1]
    corners = np.stack([np.arctan2(y, x) for x in (lower[..., 0], upper[..., 0]) for y in (lower[..., 1],
                                                                                            upper[..., 1])], -1)
    axes = np.broadcast_to(np.linspace(-np.pi, np.pi, 5), shape + (5,))
    breaks = np.sort(np.concatenate([corners, axes], axis=-1), axis=-1)
    steps = np.arange(-TANH_SINH_RANGE, TANH_SINH_RANGE + TANH_SINH_STEP / 2, TANH_SINH_STEP)
    nodes = np.tanh(np.pi / 2 * np.sinh(steps))
    weights = TANH_SINH_STEP * np.pi / 2 * np.cosh(steps) / np.cosh(np.pi / 2 * np.sinh(steps)) ** 2
    middle, half = (breaks[..., 1:] + breaks[..., :-1]) / 2, (breaks[..., 1:] - breaks[..., :-1]) / 2
    angles = middle[..., None] + half[..., None] * nodes  # (..., pieces, nodes)
    with np.errstate(divide="ignore", invalid="ignore"):
        bounds = []
        for k, direction in enumerate((np.cos(angles), np.sin(angles))):
            first = lower[..., None, None, k] / direction
            second = upper[..., None, None, k] / direction
            bounds.append((np.minimum(first, second), np.maximum(first, second)))
        enter = np.maximum(0.0, np.maximum(bounds[0][0], bounds[1][0]))
        leave = np.minimum(bounds[0][1], bounds[1][1])
        gap = np.where(leave > enter, leave - enter, 0.0)  # a ray that misses the cell (inf − inf included): 0
        inside = epsilon * enter
        density = np.exp(-inside) * (inside * -np.expm1(-epsilon * gap) + gammainc(2, epsilon * gap))
    density = np.where(gap > 0, density, 0.0)
    return ((density * weights).sum(axis=-1) * half).sum(axis=-1) / (2 * np.pi)


def planar_laplace_range(notion: MetricDifferentialPrivacy) -> tuple[float, float]:
    """The continuous ε (per unit) from which to which :func:`planar_laplace` is certified on the notion's grid.

    ``[PLANAR_SPACING_EPSILON / s, PLANAR_EXTENT_EPSILON / D]`` for the grid's smallest spacing ``s`` between
    two coordinates of an axis and its largest distance ``D`` (:data:`PLANAR_SPACING_EPSILON`); ``(0, inf)``
    for one location (every ε is private there).

    Raises
    ------
    InvalidBudgetError
        For a notion :func:`planar_laplace` does not take.

    Examples
    --------
    >>> low, high = planar_laplace_range(MetricDifferentialPrivacy.grid(3, 3, spacing=2.0))
    >>> low, round(high, 3)  # 1e-4 / 2 and 700 / (2 · 2√2)
    (5e-05, 123.744)
    """
    return _planar_range(_grid_axes(notion))


def _planar_range(axes: list[tuple[np.ndarray, np.ndarray]]) -> tuple[float, float]:
    gaps = [float(np.diff(axis).min()) for axis, _ in axes if len(axis) > 1]
    if not gaps:
        return 0.0, math.inf
    extent = math.hypot(*(float(axis[-1] - axis[0]) for axis, _ in axes))
    return PLANAR_SPACING_EPSILON / min(gaps), PLANAR_EXTENT_EPSILON / extent


def planar_laplace(notion: MetricDifferentialPrivacy, epsilon: float) -> Mechanism:
    """The planar Laplace mechanism on a grid of locations, each draw reported as its nearest location.

    Andrés et al. (CCS 2013): ``z`` is drawn from the density ``ε² / (2π) · e^{-ε ‖z − x‖}`` around the true
    location ``x`` and reported as the nearest location of the grid (outside the grid: the nearest one on its
    border — Andrés et al.'s truncation). ``Q[x, y]`` is the mass of location ``y``'s cell, integrated by
    tanh-sinh quadrature over angular pieces against the closed-form radial CDF
    ``C_ε(r) = 1 − (1 + εr) e^{-εr}`` (``tests/mechanisms/test_location.py`` checks the rows' sums against 1 and
    cells against an independent two-dimensional integration and a Bessel-function closed form, to 1e-12).

    Guarantee: the report is a function of the continuous draw, and the continuous mechanism is ε-d-private
    for the Euclidean metric (``‖z − x‖ <= ‖z − x'‖ + d(x, x')``), so the matrix is ε-d-private: its measured ε
    is *below* ε (rounding to cells loses distinguishability). Andrés et al.'s larger ε' for their discretized
    mechanism concerns a *sampler* working with finite precision (docs/guide/metric-dp.md); this matrix is
    integrated, not sampled, and its measure is computed in numpy. :func:`calibrate_planar_laplace` returns the larger
    continuous ε whose matrix measures within a given budget.

    Parameters
    ----------
    notion
        The locations: the points of a rectangular grid ``xs × ys`` (any spacing; :meth:`MetricDifferentialPrivacy.grid`)
        under the Euclidean metric. Outputs are the same locations, in the same order.
    epsilon
        The continuous mechanism's ε per unit of distance, > 0.

    Returns
    -------
    Mechanism
        ``(n, n)``.

    Accuracy: the cells are integrated to about 1e-15 absolute, and the measure divides their log-ratios by
    ε, so the matrix measures within ε only where the cells keep enough relative accuracy: for ε times the
    grid's smallest spacing at least :data:`PLANAR_SPACING_EPSILON` (1e-4) and ε times its largest distance at
    most :data:`PLANAR_EXTENT_EPSILON` (700) — :func:`planar_laplace_range`. Outside, ε is refused: on a 3 × 3
    grid of unit spacing the matrix measured 1.0002 ε at ε = 1e-5, 1.029 ε at 1e-6 and 42 ε at 1e-8 (the
    angular quadrature does not resolve the unbounded cells' flat ends), and ``inf`` at ε = 354 (finite at 283:
    far cells underflow to 0 beside positive entries). Up to :data:`PLANAR_MEASURED_INPUTS` locations the matrix
    is also measured before it is returned.

    Raises
    ------
    InvalidBudgetError
        For a notion without 2-D points, not Euclidean, or not a rectangular grid, or a bad ε, or an ε outside
        :func:`planar_laplace_range` (naming the range).
    SolverFailedError
        When the matrix of at most :data:`PLANAR_MEASURED_INPUTS` locations measures above ε (not seen inside
        the range; the check stands for grids unlike the tested ones).

    Examples
    --------
    >>> notion = MetricDifferentialPrivacy.grid(3, 3)
    >>> mechanism = planar_laplace(notion, 1.0)
    >>> bool(abs(mechanism.matrix.sum(axis=1) - 1).max() < 1e-12), round(notion.measure(mechanism), 4)
    (True, 0.9826)
    >>> planar_laplace(notion, 1e-6)
    Traceback (most recent call last):
    mechdesign.exceptions.InvalidBudgetError: planar_laplace: epsilon = 1e-06 per unit is outside the range where its matrix is certified ε-d-private on these 9 locations: [0.0001, 247.487] (ε × smallest spacing 1 >= 0.0001, ε × largest distance 2.82843 <= 700)
    """
    epsilon = as_positive_budget(epsilon, "epsilon")
    axes = _grid_axes(notion)
    low, high = _planar_range(axes)
    if not low <= epsilon <= high:
        raise InvalidBudgetError(
            f"planar_laplace: epsilon = {epsilon!r} per {notion.unit} is outside the range where its matrix is "
            f"certified ε-d-private on these {notion.n_inputs} locations: [{low:.6g}, {high:.6g}] (ε × smallest "
            f"spacing {PLANAR_SPACING_EPSILON / low:.6g} >= {PLANAR_SPACING_EPSILON:g}, ε × largest distance "
            f"{PLANAR_EXTENT_EPSILON / high:.6g} <= {PLANAR_EXTENT_EPSILON:g})")
    mechanism = _planar_matrix(epsilon, axes)
    if notion.n_inputs <= PLANAR_MEASURED_INPUTS:
        measured = notion.measure(mechanism)
        if measured > epsilon:  # private in exact arithmetic: the cells lost accuracy
            raise SolverFailedError(f"planar_laplace: the matrix at epsilon = {epsilon!r} measures {measured!r} > "
                                    f"epsilon on these {notion.n_inputs} locations (its cells are not accurate "
                                    f"enough for the measure): not published")
    return mechanism


def _planar_matrix(epsilon: float, axes: list[tuple[np.ndarray, np.ndarray]]) -> Mechanism:
    """:func:`planar_laplace`'s matrix on the grid of ``axes`` (:func:`_grid_axes`), neither checked nor measured."""
    intervals, inverses = [], []
    for axis, _ in axes:
        edges = np.concatenate([[-np.inf], (axis[1:] + axis[:-1]) / 2, [np.inf]])
        relative = np.stack([edges[None, :-1] - axis[:, None], edges[None, 1:] - axis[:, None]], -1)
        # (location, cell) pairs of an axis share few distinct relative intervals (a uniform grid's depend on
        # the offset alone, inside): each is integrated once
        unique, inverse = np.unique(relative.reshape(-1, 2), axis=0, return_inverse=True)
        intervals.append(unique)
        inverses.append(inverse.reshape(len(axis), len(axis)))
    masses = np.empty((len(intervals[0]), len(intervals[1])))
    nodes = round(2 * TANH_SINH_RANGE / TANH_SINH_STEP) + 1
    block = max(1, PLANAR_BLOCK // (len(intervals[1]) * ANGULAR_PIECES * nodes))
    for start in range(0, len(intervals[0]), block):
        first, second = np.broadcast_arrays(intervals[0][start:start + block, None], intervals[1][None])
        masses[start:start + block] = _cell_masses(epsilon, np.stack([first[..., 0], second[..., 0]], -1),
                                                   np.stack([first[..., 1], second[..., 1]], -1))
    (_, x_index), (_, y_index) = axes
    matrix = masses[inverses[0][x_index[:, None], x_index[None, :]], inverses[1][y_index[:, None], y_index[None, :]]]
    return Mechanism(matrix)


def calibrate_planar_laplace(notion: MetricDifferentialPrivacy, budget: float) -> float:
    """A continuous ε ``>= budget`` whose :func:`planar_laplace` matrix measures at most ``budget``.

    The discretized mechanism measures below its continuous ε, so the same budget allows less noise. A root
    bracket on the continuous ε (from ``budget``, whose matrix is private, to a value that measures above the
    budget) is closed by regula falsi (Illinois) to a relative :data:`CALIBRATION_RTOL`; the ε returned is the
    bracket's lower end, whose matrix was measured within the budget. (The gain is small: on a 6 × 6 grid at
    0.5 per unit the matrix measures 0.4993, and the calibrated ε is 0.5007.)

    Parameters
    ----------
    notion
        As for :func:`planar_laplace`.
    budget
        ε per unit of distance, > 0.

    Returns
    -------
    float
        The continuous ε to pass to :func:`planar_laplace`.

    Raises
    ------
    InvalidBudgetError
        For a bad notion (as :func:`planar_laplace`) or budget, or a budget outside :func:`planar_laplace_range`
        (naming the range); the ε returned stays inside that range (its upper end when that end still measures
        within the budget).
    SolverFailedError
        When the matrix at ε = ``budget`` measures above the budget (the continuous mechanism's guarantee says it
        cannot, in exact arithmetic: the cells lost accuracy), so no continuous ε is certified.

    Examples
    --------
    >>> notion = MetricDifferentialPrivacy.grid(3, 3)
    >>> epsilon = calibrate_planar_laplace(notion, 1.0)
    >>> round(epsilon, 4), notion.measure(planar_laplace(notion, epsilon)) <= 1.0
    (1.0179, True)
    """
    budget = as_positive_budget(budget, "budget")
    least, most = planar_laplace_range(notion)
    if not least <= budget <= most:
        raise InvalidBudgetError(f"calibrate_planar_laplace: budget = {budget!r} per {notion.unit} is outside "
                                 f"planar_laplace's certified range on these {notion.n_inputs} locations: "
                                 f"[{least:.6g}, {most:.6g}] (planar_laplace_range)")

    axes = _grid_axes(notion)

    def measured(epsilon: float) -> float:
        return notion.measure(_planar_matrix(epsilon, axes))

    low, at_budget = budget, measured(budget)
    if notion.n_inputs == 1:
        return low  # one location: every ε is private
    if at_budget > budget:  # the matrix at ε = budget is private in exact arithmetic: its cells lost accuracy
        raise SolverFailedError(f"calibrate_planar_laplace: the planar Laplace matrix at ε = budget = {budget!r} "
                                f"measures {at_budget!r} > budget — its cells are not accurate enough for the measure "
                                f"(see planar_laplace's accuracy range), so no continuous ε can be certified")
    # the measure is close to proportional to ε: bracket the proportional guess, then regula falsi with the
    # Illinois rule (the end kept twice has its value halved), which keeps a bracket — its lower end measured
    # within the budget — and closes both of its ends superlinearly on a smooth measure
    low, excess_low = budget, at_budget - budget
    step = budget * (budget / at_budget - 1) + CALIBRATION_RTOL * budget
    high = min(low + 2 * step, most)
    excess_high = measured(high) - budget
    while excess_high <= 0:
        if high == most:
            return most  # the range's end measures within the budget: larger ε are not certified
        low, excess_low, step = high, excess_high, 3 * step
        high = min(low + step, most)
        excess_high = measured(high) - budget
    kept = 0
    while high - low > CALIBRATION_RTOL * low:
        middle = (low * excess_high - high * excess_low) / (excess_high - excess_low)
        if not low < middle < high:
            middle = (low + high) / 2
        excess = measured(middle) - budget
        if excess <= 0:
            low, excess_low = middle, excess
            excess_high, kept = (excess_high / 2 if kept == 1 else excess_high), 1
        else:
            high, excess_high = middle, excess
            excess_low, kept = (excess_low / 2 if kept == -1 else excess_low), -1
    return low


def _loss_for(mechanism: np.ndarray, loss: Any, name: str = "loss") -> np.ndarray:
    """The ``(n, k)`` loss of estimating input ``x`` by ``z``, checked against the mechanism's inputs."""
    matrix = as_cost_matrix(loss, name=name)
    if matrix.shape[0] != mechanism.shape[0]:
        raise ShapeMismatchError(f"{name} has {matrix.shape[0]} rows but the mechanism {mechanism.shape[0]} inputs")
    return matrix


def optimal_remap(mechanism: MechanismLike, prior: PriorLike, loss: Any) -> Mechanism:
    """``Q R`` for the deterministic remap ``R`` sending each output ``y`` to ``argmin_z Σ_x π_x Q[x, y] loss[x, z]``.

    Post-processing: the remapped mechanism keeps every budget the mechanism meets; for an expected loss it is
    at least as good.

    Parameters
    ----------
    mechanism
        ``(n, m)``.
    prior
        ``(n,)``.
    loss
        ``(n, k)`` loss of reporting ``z`` for input ``x``.

    Returns
    -------
    Mechanism
        ``(n, k)``.

    Examples
    --------
    With a uniform prior and Hamming loss, the identity remap is optimal:

    >>> optimal_remap(np.eye(2), [0.5, 0.5], 1 - np.eye(2)).matrix.tolist()
    [[1.0, 0.0], [0.0, 1.0]]
    """
    matrix = as_mechanism(mechanism).matrix
    probabilities = as_prior(prior).probabilities
    if probabilities.size != matrix.shape[0]:
        raise ShapeMismatchError(f"prior has {probabilities.size} entries but the mechanism {matrix.shape[0]} inputs")
    costs = (probabilities[:, None] * matrix).T @ _loss_for(matrix, loss)
    remap = np.zeros(costs.shape)
    remap[np.arange(costs.shape[0]), costs.argmin(axis=1)] = 1.0
    return Mechanism(matrix @ remap)


def adversary_error(mechanism: MechanismLike, prior: PriorLike, distance: Any) -> float:
    """The adversary's expected inference error: ``Σ_y min_z Σ_x π_x Q[x, y] d(x, z)`` (Shokri et al.).

    Examples
    --------
    Randomized response on two points at distance 1 with ``1 − p = 3/4``, uniform prior: the adversary guesses
    the output and errs with probability 1/4:

    >>> adversary_error([[0.75, 0.25], [0.25, 0.75]], [0.5, 0.5], [[0, 1], [1, 0]])
    0.25
    """
    matrix = as_mechanism(mechanism).matrix
    probabilities = as_prior(prior).probabilities
    if probabilities.size != matrix.shape[0]:
        raise ShapeMismatchError(f"prior has {probabilities.size} entries but the mechanism {matrix.shape[0]} inputs")
    costs = (probabilities[:, None] * matrix).T @ _loss_for(matrix, distance, "distance")
    return float(costs.min(axis=1).sum())


def bayes_vulnerability(mechanism: MechanismLike, prior: PriorLike) -> float:
    """``Σ_y max_x π_x Q[x, y]``: the probability that the adversary's best guess of the input is right.

    Examples
    --------
    >>> bayes_vulnerability([[0.75, 0.25], [0.25, 0.75]], [0.5, 0.5])
    0.75
    """
    matrix = as_mechanism(mechanism).matrix
    probabilities = as_prior(prior).probabilities
    if probabilities.size != matrix.shape[0]:
        raise ShapeMismatchError(f"prior has {probabilities.size} entries but the mechanism {matrix.shape[0]} inputs")
    return float((probabilities[:, None] * matrix).max(axis=0).sum())
