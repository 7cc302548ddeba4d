"""Metric differential privacy (d-privacy; geo-indistinguishability for locations).

Chatzikokolakis, Andrés, Bordenabe & Palamidessi, "Broadening the scope of differential privacy
using metrics" (PETS 2013), Definition 1; Andrés et al., "Geo-indistinguishability" (CCS 2013): a
mechanism ``Q`` is ε-d-private for a metric ``d`` on its inputs if

``Q[x, y] <= e^{ε d(x, x')} Q[x', y]`` for every output ``y`` and every pair of inputs ``x, x'``.

The budget ε is *per unit of distance* (per kilometre for great-circle distances): local DP is the
discrete metric, DP on counts the line metric ``|x − x'|``, geo-indistinguishability the Euclidean
metric on a set of locations.

A metric may be given as a matrix, as points with a norm (Euclidean, Manhattan, or great-circle on
latitude/longitude in degrees, in kilometres), or as a weighted graph (its shortest-path metric). For a
graph the constraints on the **edges alone are exact**:

*Proof.* Let ``d`` be the shortest-path metric of a connected graph with positive edge weights. Every
edge ``{u, v}`` is a pair, so the all-pairs condition implies the edge condition with ``d(u, v)``.
Conversely, suppose ``Q[u, y] <= e^{ε d(u, v)} Q[v, y]`` on every edge (both directions). For inputs
``x, x'`` take a shortest path ``x = v_0, …, v_k = x'``; each of its edges is itself a shortest path
(a subpath of a shortest path is one), so ``Σ_i d(v_{i-1}, v_i) = d(x, x')``, and chaining the edge
conditions gives ``Q[x, y] <= e^{ε Σ_i d(v_{i-1}, v_i)} Q[x', y] = e^{ε d(x, x')} Q[x', y]``. ∎

The same chaining shows that the measure (the least ε) over the edges equals the measure over all
pairs. ``tests/privacy/test_metric.py`` checks both on random graphs.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .._lazy import LazyFunction
from .._lazy import cvxpy as cp
from .._lazy import scipy_sparse as sp
import numpy as np

from .._numeric import exp_budget
from .._validate import (as_budget, as_choice, as_indices, as_positive_budget, as_positive_int, as_real_array,
                         as_real_vector)
from ..exceptions import InvalidBudgetError, MechDesignError, ShapeMismatchError
from ..memory import check_array
from ..relaxation import LinearRelaxation, linear_rows, pairwise_rows
from .base import BudgetParameter, PrivacyNotion, parameter_label
from .dp import pairwise_log_ratios

shortest_path = LazyFunction("scipy.sparse.csgraph", "shortest_path")

#: Relative tolerance (to the largest distance) of the symmetry and triangle-inequality checks: distances
#: computed in floating point (a norm, a sum of edge weights) may miss exactness by a few ulps.
METRIC_RTOL = 1e-12
#: The mean Earth radius (IUGG), in kilometres, of great-circle distances.
EARTH_RADIUS_KM = 6371.0088
#: The norms of :meth:`MetricDifferentialPrivacy.from_points`.
NORMS = ("euclidean", "manhattan", "great-circle")
#: Largest number of log-ratios one block of :meth:`MetricDifferentialPrivacy.measure` holds at once.
MEASURE_BLOCK = 1 << 22
#: ``(n, n)`` float arrays held at once while :func:`point_distances` computes a metric and
#: :func:`as_distance_matrix` validates it (the result, a difference, its square or comparison masks, the copy).
DISTANCE_COPIES = 6
#: Largest coefficient of a constraint: a pair at distance ``d`` is constrained with ``min(e^{ε d}, PAIR_SCALE_CAP)``
#: (stricter where capped, so a mechanism meeting the constraints is ε-d-private). The value of
#: ``mechdesign.problem.MAX_CONSTRAINT_SCALE`` (a test checks they agree): the design caps the budget itself only
#: where every pair is capped (:meth:`MetricDifferentialPrivacy.scaled_budget`).
PAIR_SCALE_CAP = 1e12
#: ``log(PAIR_SCALE_CAP)``: a pair is capped where ``ε d`` reaches it.
LOG_PAIR_SCALE_CAP = math.log(PAIR_SCALE_CAP)
#: A constraint row ``Q[x, :] <= s Q[x', :]`` with ``s`` above this is balanced, written ``a Q[x, :] <= b Q[x', :]``
#: with ``a = √(ROW_BALANCE / s)``, ``b = √(ROW_BALANCE · s)`` (:meth:`MetricDifferentialPrivacy.row_factors`).
#: Through cvxpy, HiGHS's points were then certified optimal on the five cases measured with 1e3 (a line of 21
#: points at ε = 1, 2, 5 and a 6 × 6 grid at ε = 2, 4); every row balanced (1) left a point to repair on the grid
#: at ε = 2, and 1e6 a line design uncertified (benchmarks/notes/2026-11-28-metric-dp-periphery.md).
ROW_BALANCE = 1e3


def _triangle_violation(distances: np.ndarray, tolerance: float) -> tuple[int, int, int] | None:
    """The first triple ``(i, j, k)`` with ``d[i, k] > d[i, j] + d[j, k] + tolerance``, or ``None``."""
    for j in range(distances.shape[0]):
        excess = distances - (distances[:, j, None] + distances[None, j, :])
        worst = int(np.argmax(excess))
        if excess.flat[worst] > tolerance:
            i, k = divmod(worst, distances.shape[0])
            return i, j, k
    return None


def as_distance_matrix(values: Any, name: str = "distance", *, check_triangle: bool = True) -> np.ndarray:
    """Validate a metric on ``n`` points given as an ``(n, n)`` matrix (a copy, as float).

    Parameters
    ----------
    values
        The distances.
    name
        The argument's name in error messages.
    check_triangle
        Whether to check the triangle inequality (``O(n³)``; a metric built from a norm or a graph
        satisfies it by construction).

    Returns
    -------
    numpy.ndarray
        The matrix.

    Raises
    ------
    InvalidBudgetError
        For a non-finite or negative entry, a non-square or asymmetric matrix, a nonzero diagonal, a
        zero distance between distinct points, or a broken triangle inequality (naming the triple).

    Examples
    --------
    >>> as_distance_matrix([[0, 1], [1, 0]])
    array([[0., 1.],
           [1., 0.]])
    >>> as_distance_matrix([[0, 1, 3], [1, 0, 1], [3, 1, 0]])
    Traceback (most recent call last):
    mechdesign.exceptions.InvalidBudgetError: distance breaks the triangle inequality: d[0, 2] = 3 > d[0, 1] + d[1, 2] = 2
    """
    matrix = as_real_array(values, name, 2, InvalidBudgetError)
    n = matrix.shape[0]
    if matrix.shape != (n, n):
        raise InvalidBudgetError(f"{name} must be a square matrix, got shape {matrix.shape}")
    if (matrix < 0).any():
        i, j = (int(k) for k in np.argwhere(matrix < 0)[0])
        raise InvalidBudgetError(f"{name} has a negative entry {float(matrix[i, j])!r} at [{i}, {j}]")
    if (np.diag(matrix) != 0).any():
        i = int(np.flatnonzero(np.diag(matrix))[0])
        raise InvalidBudgetError(f"{name} must be 0 on the diagonal, got d[{i}, {i}] = {float(matrix[i, i])!r}")
    tolerance = METRIC_RTOL * float(matrix.max())
    asymmetric = np.abs(matrix - matrix.T) > tolerance
    if asymmetric.any():
        i, j = (int(k) for k in np.argwhere(asymmetric)[0])
        raise InvalidBudgetError(f"{name} must be symmetric, got d[{i}, {j}] = {float(matrix[i, j])!r} and "
                                 f"d[{j}, {i}] = {float(matrix[j, i])!r}")
    zero = (matrix == 0) & ~np.eye(n, dtype=bool)
    if zero.any():
        i, j = sorted(int(k) for k in np.argwhere(zero)[0])
        raise InvalidBudgetError(f"{name} puts distinct points {i} and {j} at distance 0: they must be treated as "
                                 "one location (merge them)")
    if check_triangle:
        triple = _triangle_violation(matrix, tolerance)
        if triple is not None:
            i, j, k = triple
            raise InvalidBudgetError(
                f"{name} breaks the triangle inequality: d[{i}, {k}] = {matrix[i, k]:g} > d[{i}, {j}] + d[{j}, {k}] "
                f"= {matrix[i, j] + matrix[j, k]:g}")
    return (matrix + matrix.T) / 2


def point_distances(points: Any, norm: str = "euclidean", name: str = "points") -> np.ndarray:
    """The ``(n, n)`` distances between ``points`` under ``norm`` (one of :data:`NORMS`).

    ``points`` is ``(n, k)`` (``(n,)`` for points on a line); for ``"great-circle"`` it is ``(n, 2)`` latitude
    and longitude in degrees and the distances are in kilometres (haversine on a sphere of radius
    :data:`EARTH_RADIUS_KM`).

    Examples
    --------
    >>> point_distances([[0, 0], [3, 4]])
    array([[0., 5.],
           [5., 0.]])
    >>> float(point_distances([[0, 0], [3, 4]], "manhattan")[0, 1])
    7.0
    >>> round(float(point_distances([[0, 0], [0, 1]], "great-circle")[0, 1]), 3)  # one degree along the equator
    111.195
    """
    norm = as_choice(norm, NORMS, "norm")
    array = as_real_array(points, name, None, InvalidBudgetError)
    if array.ndim == 1:
        array = array[:, None]
    if array.ndim != 2:
        raise InvalidBudgetError(f"{name} must be a 1-D or 2-D array, got shape {array.shape}")
    if norm == "great-circle":
        if array.shape[1] != 2:
            raise InvalidBudgetError(f"{name} must be (n, 2) latitudes and longitudes (degrees) for the great-circle "
                                     f"norm, got shape {array.shape}")
        for column, (what, limit) in enumerate((("latitude", 90), ("longitude", 180))):
            outside = np.flatnonzero(np.abs(array[:, column]) > limit)
            if outside.size:
                raise InvalidBudgetError(f"{name} row {outside[0]} has {what} {float(array[outside[0], column])!r}, "
                                         f"outside [-{limit}, {limit}] degrees")
    n = len(array)
    check_array((n, n), f"the {norm} distances between {n:,} {name}", copies=DISTANCE_COPIES)
    if norm == "great-circle":
        latitude, longitude = np.radians(array[:, 0]), np.radians(array[:, 1])
        half = np.sin(np.subtract.outer(longitude, longitude) / 2) ** 2
        half *= np.multiply.outer(np.cos(latitude), np.cos(latitude))
        half += np.sin(np.subtract.outer(latitude, latitude) / 2) ** 2
        return 2 * EARTH_RADIUS_KM * np.arcsin(np.sqrt(np.clip(half, 0.0, 1.0, out=half), out=half), out=half)
    total = np.zeros((n, n))
    for column in array.T:  # one (n, n) difference at a time, not an (n, n, k) array
        difference = np.abs(np.subtract.outer(column, column))
        total += difference ** 2 if norm == "euclidean" else difference
    return np.sqrt(total, out=total) if norm == "euclidean" else total


def grid_points(width: int, height: int, spacing: float = 1.0) -> np.ndarray:
    """The ``width · height`` points of a grid, row by row: point ``r · width + c`` is ``(c, r) · spacing``.

    Examples
    --------
    >>> grid_points(2, 2).tolist()
    [[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]
    """
    width, height = as_positive_int(width, "width"), as_positive_int(height, "height")
    spacing = as_positive_budget(spacing, "spacing")
    check_array((width * height, 2), f"the {width:,} × {height:,} grid's points")
    rows, columns = np.divmod(np.arange(width * height), width)
    return np.column_stack([columns, rows]).astype(float) * spacing


class PairScalesParameter(BudgetParameter):
    """A metric-DP budget as a cvxpy vector ``Parameter``: the row factors ``(a, b)`` of every ordered constraint
    pair, ``b / a = min(e^{ε d}, PAIR_SCALE_CAP)`` (:meth:`MetricDifferentialPrivacy.row_factors`).

    The constraints ``a Q[x, :] <= b Q[x', :]`` are not affine in one scalar of ε, but they are in this vector
    (DPP: a parameter times the variable), so one compiled problem is re-solved at any ε.
    Created by :meth:`MetricDifferentialPrivacy.parameter`.

    Examples
    --------
    >>> notion = MetricDifferentialPrivacy([[0, 1, 2], [1, 0, 1], [2, 1, 0]])
    >>> budget = notion.parameter()
    >>> budget.set(math.log(4))
    >>> budget.parameter.value.round(12).tolist()  # a, then b, of pairs (0, 1), (0, 2), (1, 2), reversed
    [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 4.0, 16.0, 4.0, 4.0, 16.0, 4.0]
    """

    def __init__(self, notion: MetricDifferentialPrivacy) -> None:
        self.notion = notion
        pairs = 4 * notion.constraint_pairs()[0].size
        # one location has no pairs (and no constraints); cvxpy has no empty parameter
        self.parameter = cp.Parameter(max(1, pairs), nonneg=True, name=f"budget_{notion.name}")
        self.budget: float | None = None

    def set(self, budget: float) -> None:
        """Set the budget ε (nats per unit of distance); the parameter receives every pair's ``e^{ε d}``.

        Raises
        ------
        InvalidBudgetError
            For a bad budget, or when ``e^{ε d}`` of the nearest pair overflows float64
            (:meth:`MetricDifferentialPrivacy.pair_scales`).
        """
        self.budget = as_budget(budget, f"{self.notion.name} budget")
        factors = np.concatenate(self.notion.row_factors(self.budget))
        self.parameter.value = factors if factors.size else np.ones(1)


class MetricDifferentialPrivacy(PrivacyNotion):
    """ε-d-privacy for a metric ``d`` on the inputs, ε per unit of distance (module docstring).

    Parameters
    ----------
    distance
        The ``(n, n)`` metric (validated: :func:`as_distance_matrix`).
    unit
        The unit of distance, shown in the label (budgets are per unit).
    points
        The inputs' coordinates, when the metric comes from them (:meth:`from_points`); used by the
        location mechanisms and the default quality loss.
    edges
        Constraint pairs ``(K, 2)`` that imply all the others (a graph's edges, :meth:`from_graph`);
        ``None``: every pair.

    Notes
    -----
    A pair at distance ``d`` is constrained with ``min(e^{ε d}, PAIR_SCALE_CAP)`` (:meth:`pair_scales`):
    stricter than ``e^{ε d}`` where capped, so the constraints still imply ε-d-privacy, and capped only for
    pairs far enough apart that the constraint is nearly vacuous (a column's entries within a factor
    :data:`PAIR_SCALE_CAP` of each other). The constraint scale (:meth:`scaled_budget`) is ``e^{ε d_min}``
    with ``d_min`` the smallest constraint distance: past ``PAIR_SCALE_CAP`` every pair is capped and the
    constraints no longer change with ε, which is where a design caps the budget; a budget whose
    ``ε d_min`` overflows float64 is refused for constraints exactly as ``e^ε`` is for local DP. The
    certificate's :meth:`relaxation` holds the uncapped pairs alone (fewer rows than the problem asked: a
    valid lower bound). The cvxpy budget parameter (:meth:`parameter`) is the vector of every pair's
    coefficient (:class:`PairScalesParameter`), in which the constraints are affine.

    Examples
    --------
    Randomized response on 2 points at distance 2 is ``log(3) / 2``-d-private per unit:

    >>> notion = MetricDifferentialPrivacy([[0, 2], [2, 0]], unit="km")
    >>> notion.label, round(notion.measure([[0.75, 0.25], [0.25, 0.75]]) * 2, 12) == round(math.log(3), 12)
    ('metric-dp(per km)', True)
    """

    name = "metric-dp"
    cli_name = "metric-dp"
    reference = ("Chatzikokolakis et al., Broadening the scope of differential privacy using metrics (PETS 2013), "
                 "Definition 1; Andrés et al., Geo-indistinguishability (CCS 2013)")

    def __init__(self, distance: Any, *, unit: str = "unit", points: Any = None, edges: Any = None,
                 _validated: bool = False) -> None:
        self.distances = np.asarray(distance, dtype=float) if _validated else as_distance_matrix(distance)
        self.n_inputs = self.distances.shape[0]
        if not isinstance(unit, str) or not unit:
            raise InvalidBudgetError(f"unit must be a non-empty string, got {unit!r}")
        self.unit = unit
        self.points = None if points is None else as_real_array(points, "points", None, InvalidBudgetError)
        if self.points is not None and (self.points.ndim not in (1, 2) or len(self.points) != self.n_inputs):
            raise ShapeMismatchError(f"points must be one point (a number or a row of coordinates) per input, "
                                     f"{self.n_inputs} of them; got an array of shape {self.points.shape}")
        if edges is None:
            first, second = np.triu_indices(self.n_inputs, 1)
        else:
            pairs = as_indices(edges, self.n_inputs, "edges", ndim=2, empty=True)
            if pairs.size and pairs.shape[1] != 2:
                raise ShapeMismatchError(f"edges must be pairs (i, j) of inputs, got rows of {pairs.shape[1]} entries")
            first, second = pairs.reshape(-1, 2).T
        self._first, self._second = first, second
        #: Whether the constraints hold every pair (``False`` for a graph: its edges).
        self.has_all_pairs = edges is None
        self._pair_distances = self.distances[first, second]
        self.largest_distance = float(self._pair_distances.max()) if first.size else 1.0
        #: The smallest constraint distance ``d_min`` (1 without pairs): :meth:`scaled_budget` is ``e^{ε d_min}``.
        self.smallest_distance = float(self._pair_distances.min()) if first.size else 1.0

    @classmethod
    def from_points(cls, points: Any, norm: str = "euclidean", *, unit: str | None = None,
                    name: str = "points") -> MetricDifferentialPrivacy:
        """The metric of ``points`` under ``norm`` (:func:`point_distances`; great-circle distances in km);
        ``name`` is what error messages call the points (``--points FILE`` on the command line).

        Raises
        ------
        InvalidBudgetError
            For bad coordinates or two points at distance 0.

        Examples
        --------
        >>> notion = MetricDifferentialPrivacy.from_points([[0, 0], [3, 4], [6, 8]])
        >>> notion.distances[0].tolist(), notion.label
        ([0.0, 5.0, 10.0], 'metric-dp(per unit)')
        >>> MetricDifferentialPrivacy.from_points([[48.85, 2.35], [51.51, -0.13]], "great-circle").unit
        'km'
        """
        distances = point_distances(points, norm, name)
        points = as_real_array(points, name, None, InvalidBudgetError)
        unit = ("km" if norm == "great-circle" else "unit") if unit is None else unit
        return cls(as_distance_matrix(distances, f"{norm} distance of {name}", check_triangle=False), unit=unit,
                   points=points if points.ndim == 2 else points[:, None], _validated=True)

    @classmethod
    def grid(cls, width: int, height: int, *, spacing: float = 1.0, norm: str = "euclidean",
             unit: str = "unit") -> MetricDifferentialPrivacy:
        """A ``width × height`` grid of locations (:func:`grid_points`) under ``norm``.

        Examples
        --------
        >>> round(float(MetricDifferentialPrivacy.grid(3, 2).distances[0, 5]), 6)  # (0, 0) to (2, 1)
        2.236068
        """
        return cls.from_points(grid_points(width, height, spacing), norm, unit=unit)

    @classmethod
    def from_graph(cls, edges: Any, weights: Any, n_inputs: int, *, unit: str = "unit") -> MetricDifferentialPrivacy:
        """The shortest-path metric of a connected graph with positive edge ``weights``; constraints on its edges.

        Parameters
        ----------
        edges
            ``(K, 2)`` index pairs (undirected).
        weights
            ``(K,)`` positive lengths.
        n_inputs
            Number of vertices.

        Raises
        ------
        InvalidBudgetError
            For a bad edge, a non-positive or non-finite weight, or a disconnected graph.

        Examples
        --------
        The path 0 – 1 – 2 with unit lengths is the line metric:

        >>> notion = MetricDifferentialPrivacy.from_graph([(0, 1), (1, 2)], [1, 1], 3)
        >>> notion.distances[0].tolist(), notion.constraint_pairs()[0].tolist()
        ([0.0, 1.0, 2.0], [0, 1])
        """
        n = as_positive_int(n_inputs, "n_inputs")
        pairs = np.asarray(edges)
        if (pairs.ndim != 2 or pairs.shape[1] != 2 or not np.issubdtype(pairs.dtype, np.integer)
                or pairs.size == 0 or pairs.min() < 0 or pairs.max() >= n or (pairs[:, 0] == pairs[:, 1]).any()):
            raise InvalidBudgetError(f"edges must be a (K, 2) array of distinct vertex indices in [0, {n}), got "
                                     f"{edges!r}"[:200])
        lengths = as_real_vector(weights, "weights")
        if lengths.shape != (len(pairs),) or (lengths <= 0).any():
            raise InvalidBudgetError(f"weights must be {len(pairs)} positive finite lengths, got {weights!r}"[:200])
        adjacency = sp.coo_matrix((lengths, (pairs[:, 0], pairs[:, 1])), shape=(n, n)).tocsr()
        distances = shortest_path(adjacency, directed=False)
        if not np.isfinite(distances).all():
            i, j = (int(k) for k in np.argwhere(~np.isfinite(distances))[0])
            raise InvalidBudgetError(f"the graph is not connected: vertices {i} and {j} have no path between them")
        unique = np.unique(np.sort(pairs, axis=1), axis=0)
        return cls(distances, unit=unit, edges=unique, _validated=True)

    @classmethod
    def from_command_line(cls, options: Any, prior: Any = None) -> MetricDifferentialPrivacy:
        """The locations of the command line: ``--points FILE`` (a CSV of coordinates, one row per location;
        latitude, longitude in degrees for ``--metric great-circle``) or ``--grid WxH`` (a ``W × H`` grid of unit
        spacing), under ``--metric`` (default Euclidean).

        ``options`` has the attributes ``points``, ``location_grid`` (``--grid``) and ``metric``, and optionally
        ``location_grid_option``, the grid option's name in messages (``--location-grid`` on ``curve``, whose
        ``--grid`` is its grid of values); a ``prior`` (anything with a ``size``), if given, must have one entry
        per location. A prior on one symbol needs neither option: there is one metric on one location.

        Raises
        ------
        MechDesignError
            When neither or both of ``--points`` and ``--grid`` are given, or the file cannot be read;
            :class:`InvalidBudgetError` for a bad ``--grid``, ``--metric`` or coordinates;
            :class:`ShapeMismatchError` for a prior of another size.

        Examples
        --------
        >>> from argparse import Namespace
        >>> notion = MetricDifferentialPrivacy.from_command_line(Namespace(points=None, location_grid="3x2",
        ...                                                                metric=None))
        >>> notion.n_inputs, notion.label
        (6, 'metric-dp(per unit)')
        >>> MetricDifferentialPrivacy.from_command_line(Namespace(points=None, location_grid="3 by 2", metric=None))
        Traceback (most recent call last):
        mechdesign.exceptions.InvalidBudgetError: --grid must be WxH, two positive integers (e.g. 8x8), got '3 by 2'
        """
        path, grid = getattr(options, "points", None), getattr(options, "location_grid", None)
        option = getattr(options, "location_grid_option", None) or "--grid"
        norm = getattr(options, "metric", None) or "euclidean"
        size = getattr(prior, "size", None)
        if path is None and grid is None and size == 1:
            return cls([[0.0]])
        if (path is None) == (grid is None):
            raise MechDesignError(f"notion {cls.cli_name!r} needs "
                                  + (f"--points FILE (a CSV of coordinates) or {option} WxH" if path is None
                                     else f"one of --points and {option}, not both"))
        if grid is not None:
            match = re.fullmatch(r"\s*(\d+)\s*[xX×]\s*(\d+)\s*", str(grid))
            if match is None or min(int(match[1]), int(match[2])) < 1:
                raise InvalidBudgetError(f"{option} must be WxH, two positive integers (e.g. 8x8), got {grid!r}")
            notion = cls.grid(int(match[1]), int(match[2]), norm=as_choice(norm, NORMS, "--metric"))
        else:
            try:
                coordinates = np.loadtxt(Path(path), delimiter=",", ndmin=2)
            except OSError as exc:
                raise MechDesignError(f"cannot read --points {path}: {exc.strerror or exc}") from exc
            except ValueError as exc:
                raise MechDesignError(f"--points {path} is not a CSV of numbers (one row of coordinates per "
                                      f"location): {exc}") from exc
            if coordinates.size == 0:
                raise MechDesignError(f"--points {path} holds no coordinates: give one row per location")
            coordinates = as_real_array(coordinates, f"--points {path}", 2, InvalidBudgetError)
            notion = cls.from_points(coordinates, as_choice(norm, NORMS, "--metric"), name=f"--points {path}")
        if size is not None and size != notion.n_inputs:
            raise ShapeMismatchError(f"the prior has {size} entries but the metric {notion.n_inputs} locations "
                                     f"({option + ' ' + str(grid) if grid is not None else '--points ' + str(path)})")
        return notion

    @property
    def label(self) -> str:
        """``metric-dp(per <unit>)``: budgets are per unit of distance.

        Examples
        --------
        >>> MetricDifferentialPrivacy([[0, 1], [1, 0]], unit="m").label
        'metric-dp(per m)'
        """
        return parameter_label(self.name, f"per {self.unit}")

    @property
    def distance_unit(self) -> str:
        """What budgets are per, in words: ``"unit of distance"``, or the named unit (``"km"``).

        Examples
        --------
        >>> MetricDifferentialPrivacy.grid(2, 2).distance_unit, MetricDifferentialPrivacy.grid(2, 2, unit="m").distance_unit
        ('unit of distance', 'm')
        """
        return "unit of distance" if self.unit == "unit" else self.unit

    def constraint_pairs(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The unordered pairs the constraints use (a graph's edges, else all pairs) and their distances.

        Examples
        --------
        >>> first, second, distance = MetricDifferentialPrivacy([[0, 1], [1, 0]]).constraint_pairs()
        >>> first.tolist(), second.tolist(), distance.tolist()
        ([0], [1], [1.0])
        """
        return self._first, self._second, self._pair_distances

    def scaled_budget(self, budget: float) -> float:
        """``e^{ε d_min}``, ``d_min`` the smallest constraint distance (``inf`` past the float range): the
        coefficient of the nearest pair, the last to reach :data:`PAIR_SCALE_CAP` (class notes).

        Examples
        --------
        >>> notion = MetricDifferentialPrivacy([[0, 2, 3], [2, 0, 1], [3, 1, 0]])
        >>> notion.scaled_budget(1.0) == math.e, notion.largest_distance
        (True, 3.0)
        """
        return exp_budget(budget * self.smallest_distance)

    def scaled_budget_excess(self, budget: float) -> float:
        """``expm1(ε d_min)``.

        Examples
        --------
        >>> MetricDifferentialPrivacy([[0, 2], [2, 0]]).scaled_budget_excess(1e-20)
        2e-20
        """
        return math.expm1(budget * self.smallest_distance)

    def nats_per_budget_unit(self) -> float:
        """The nearest pair's distance ``d_min``: a budget ε per unit of distance allows ``ε d_min`` nats there.

        Examples
        --------
        >>> MetricDifferentialPrivacy([[0, 2], [2, 0]]).nats_per_budget_unit()
        2.0
        """
        return self.smallest_distance

    def budget_from_scaled(self, value: float) -> float:
        """``max(0, log(value) / d_min)``, the inverse of :meth:`scaled_budget`.

        Examples
        --------
        >>> MetricDifferentialPrivacy([[0, 2], [2, 0]]).budget_from_scaled(math.e)
        0.5
        """
        return max(0.0, math.log(value) / self.smallest_distance) if value > 0 else 0.0

    def pair_scales(self, budget: float) -> np.ndarray:
        """The coefficient ``min(e^{ε d}, PAIR_SCALE_CAP)`` of every constraint pair (:meth:`constraint_pairs`).

        Raises
        ------
        InvalidBudgetError
            When ``e^{ε d_min}`` (:meth:`scaled_budget`) overflows float64.

        Examples
        --------
        >>> notion = MetricDifferentialPrivacy([[0, 2, 30], [2, 0, 28], [30, 28, 0]])
        >>> notion.pair_scales(math.log(3) / 2).round(6).tolist()  # the pair at distance 30: 3^15
        [3.0, 14348907.0, 4782969.0]
        >>> notion.pair_scales(1.0).tolist()  # e^30 and e^28 capped
        [7.38905609893065, 1000000000000.0, 1000000000000.0]
        """
        self.finite_scaled_budget(budget)
        exponents = budget * self._pair_distances
        return np.where(self._uncapped(exponents), np.exp(np.minimum(exponents, LOG_PAIR_SCALE_CAP)), PAIR_SCALE_CAP)

    @staticmethod
    def _uncapped(exponents: np.ndarray) -> np.ndarray:
        """Which pairs of exponents ``ε d`` :meth:`pair_scales` leaves uncapped."""
        return exponents < LOG_PAIR_SCALE_CAP

    def parameter(self) -> PairScalesParameter:
        """A fresh :class:`PairScalesParameter` (every pair's ``e^{ε d}``) for DPP re-solves.

        Examples
        --------
        >>> notion = MetricDifferentialPrivacy([[0, 2], [2, 0]])
        >>> notion.parameter().parameter.shape  # two factors of each of the two ordered pairs
        (4,)
        """
        return PairScalesParameter(self)

    def _ordered_pairs(self) -> tuple[np.ndarray, np.ndarray]:
        """Every constraint pair in both orders, ``(x, x')`` then ``(x', x)``: the rows of :meth:`relaxation`,
        of the cvxpy constraints and of :class:`PairScalesParameter`'s vector, in one order."""
        return np.concatenate([self._first, self._second]), np.concatenate([self._second, self._first])

    def _ordered(self, budget: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """:meth:`_ordered_pairs` and their ``e^{ε d}`` at ``budget``."""
        scales = self.pair_scales(budget)
        return (*self._ordered_pairs(), np.concatenate([scales, scales]))

    def _constraints(self, Q: cp.Expression, scaled: Any) -> list[cp.Constraint]:
        if not self._first.size:
            return []
        first, second = self._ordered_pairs()
        k = first.size
        if isinstance(scaled, (int, float)):
            factors: Any = np.concatenate(self.row_factors(self.budget_from_scaled(scaled)))[:, None]
            inverse, root = factors[:k], factors[k:]
        else:  # the PairScalesParameter's vector
            inverse, root = (cp.reshape(part, (k, 1), order="C") for part in (scaled[:k], scaled[k:]))
        return [cp.multiply(inverse, Q[first, :]) <= cp.multiply(root, Q[second, :])]

    def row_factors(self, budget: float) -> tuple[np.ndarray, np.ndarray]:
        """The factors ``(a, b)`` of the constraints ``a Q[x, :] <= b Q[x', :]`` of every ordered pair
        (:meth:`_ordered_pairs`), ``b / a = s`` its :meth:`pair_scales`: ``(1, s)`` up to :data:`ROW_BALANCE`, then
        ``(√(ROW_BALANCE / s), √(ROW_BALANCE · s))`` — rows balanced where ``Q[x, :] <= s Q[x', :]`` with ``s`` up to
        :data:`PAIR_SCALE_CAP` left HiGHS (through cvxpy) 39 % to 500 % from the optimum and Clarabel failing
        (benchmarks/notes/2026-11-28-metric-dp-periphery.md).

        Examples
        --------
        >>> inverse, root = MetricDifferentialPrivacy([[0, 2, 10], [2, 0, 8], [10, 8, 0]]).row_factors(math.log(10))
        >>> (root[:3] / inverse[:3] / [1e2, 1e10, 1e8]).round(9).tolist(), inverse.round(6).tolist()[:3]  # then reversed
        ([1.0, 1.0, 1.0], [1.0, 0.000316, 0.003162])
        """
        scales = self._ordered(budget)[2]
        inverse = 1.0 / np.sqrt(np.maximum(scales / ROW_BALANCE, 1.0))
        return inverse, scales * inverse

    def _ordered_uncapped(self, budget: float) -> np.ndarray:
        """Which of the ordered pairs (:meth:`_ordered_pairs`) :meth:`pair_scales` leaves uncapped at ``budget``."""
        return np.tile(self._uncapped(budget * self._pair_distances), 2)

    def relaxation(self, points: Sequence[np.ndarray], budget: float) -> LinearRelaxation:
        """The constraints of the pairs with ``e^{ε d} < PAIR_SCALE_CAP`` (an LP), balanced as the design's
        (:meth:`row_factors`): one row per such ordered pair and output.

        The capped pairs are left out (the design's constraints hold them at the cap, stricter than
        ``e^{ε d}``): the rows are then implied by ε-d-privacy, so the bound is one for the problem asked.

        Examples
        --------
        >>> notion = MetricDifferentialPrivacy([[0, 2], [2, 0]])
        >>> matrix = np.array([[0.75, 0.25], [0.25, 0.75]])
        >>> relaxation = notion.relaxation([matrix], math.log(3) / 2 + 1e-12)
        >>> relaxation.rows_q.shape, bool(np.all(relaxation.rows_q @ matrix.ravel() <= relaxation.rhs))
        ((4, 4), True)
        >>> notion.relaxation([matrix], 14.0).rows_q.shape  # e^28 > PAIR_SCALE_CAP: no row
        (0, 4)
        """
        shape = points[0].shape
        kept = self._ordered_uncapped(budget)
        first, second = (pairs[kept] for pairs in self._ordered_pairs())
        inverse, root = (factor[kept] for factor in self.row_factors(budget))
        entries = pairwise_rows(shape, first, second, 0.0)  # S[first, y] alone
        partners = pairwise_rows(shape, second, first, 0.0)  # S[second, y] alone
        rows = (sp.diags(np.repeat(inverse, shape[1])) @ entries - sp.diags(np.repeat(root, shape[1])) @ partners)
        return linear_rows(rows.tocsr(), np.zeros(rows.shape[0]))

    def multiplier_relaxation(self, points: Sequence[np.ndarray], budget: float,
                              multipliers: np.ndarray) -> tuple[LinearRelaxation, np.ndarray] | None:
        """:meth:`relaxation` and, for its rows, the solver's ``multipliers`` of the cvxpy constraints (one per
        ordered pair and output, pair-major): those of the uncapped pairs (the capped pairs' rows are not in the
        relaxation; their multipliers are of the order of a cost over :data:`PAIR_SCALE_CAP`). ``None`` when
        ``multipliers`` is not one per ordered pair and output.

        Examples
        --------
        >>> notion = MetricDifferentialPrivacy([[0, 1, 30], [1, 0, 29], [30, 29, 0]])
        >>> relaxation, given = notion.multiplier_relaxation([np.full((3, 1), 1.0)], 1.0, np.arange(6.0))
        >>> relaxation.rows_q.shape, given.tolist()  # pairs (0, 1) and (1, 0) uncapped
        ((2, 3), [0.0, 3.0])
        """
        m = points[0].shape[1]
        kept = self._ordered_uncapped(budget)
        given = np.asarray(multipliers, dtype=float).ravel()
        if given.size != kept.size * m:
            return None
        return self.relaxation(points, budget), given[np.repeat(kept, m)]

    def _measure(self, matrix: np.ndarray) -> float:
        used = matrix.max(axis=0) > 0
        if (matrix[:, used].min(axis=0) <= 0).any():
            return math.inf  # a zero beside a positive entry: no finite distance allows it
        columns = matrix[:, used]
        worst, block = 0.0, max(1, MEASURE_BLOCK // max(1, columns.shape[1]))
        for start in range(0, self._first.size, block):
            first, second = self._first[start:start + block], self._second[start:start + block]
            ratios = np.abs(pairwise_log_ratios(columns, first, second)).max(axis=1, initial=0.0)
            worst = max(worst, float((ratios / self._pair_distances[start:start + block]).max(initial=0.0)))
        return worst
