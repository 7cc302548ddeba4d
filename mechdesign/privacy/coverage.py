"""Which secrets one guess can cover: the finite candidate guesses of summary statistic privacy.

Wang et al., "Guarding Multiple Secrets", eqs. (1), (6), (10), §5.2: the attacker of
:mod:`mechdesign.privacy.summary` succeeds on an input when its guess ``ĝ`` is close to the input's
secrets (per coordinate, or in ℓp norm). This module gives a finite set of guesses that no guess in
``ℝ^d`` outperforms, and the geometry that proves it.

Finite candidate guesses (why they suffice)
-------------------------------------------
A guess matters only through the set of inputs it succeeds on, and the success probability is
monotone in that set. For one secret, ``|ĝ − g| ≤ ε`` covers the secret values in the window
``[ĝ − ε, ĝ + ε]``; sliding the window right until its left end meets the smallest covered value
never uncovers anything, so the guesses ``v + ε`` (``v`` a secret value of some input) cover a
superset of what any guess covers. The union, intersection and group events are monotone in each
coordinate's covered set, so the product of the per-secret candidates suffices. For the ℓp event:
``p = ∞`` is a product of windows (same argument); ``d = 1`` is a window; ``d = 2, p = 1`` is a window
in each of the rotated coordinates ``g1 + g2`` and ``g1 − g2``; ``d = 2, p = 2``: the centres that cover
a set ``S`` form an intersection of equal discs, which (for two or more distinct points) has a vertex
— an intersection point of two of the circles of radius ``ε_p`` around points of ``S`` — so those
points plus the secret points themselves suffice.

Other ``(p, d)`` (``d ≥ 3``, finite ``p``): what matters is the family of *maximal coverable sets*.
A set ``S`` of secret vectors is covered by one guess iff the ℓp balls of radius ``ε_p`` around its
points intersect, i.e. iff the smallest ℓp ball enclosing ``S`` has radius ``≤ ε_p`` — a convex
problem (:class:`EnclosingBall`, Clarabel). Coverability is hereditary (subsets of coverable sets are
coverable), so a Bron–Kerbosch search without pivoting (:func:`maximal_coverable_sets`) enumerates
the maximal ones, pruned by the pairwise test ``‖a − b‖_p ≤ 2ε_p`` and the ℓ∞ box test (necessary:
the ℓp ball lies in the ℓ∞ ball). The centre found for each maximal set is its witness guess, so the
candidate guesses are still real guesses evaluated by :meth:`~mechdesign.privacy.summary.LpNormPrivacy.success`. A set is
accepted only when its witness passes that test (slack :data:`EVENT_RTOL`). Clarabel's centres are up
to about ``1.3e-9`` relative off the optimum, so at an exact tangency of three or more balls (smallest
enclosing radius exactly ``ε_p``) the set could be missed; a centre that nearly covers is therefore
polished by solving the KKT system of the smallest enclosing ball (:func:`polish_centre`, ``p > 1``).
For ``p = 1`` (an LP, no polish) no miss was observed on 200 constructed tangencies. Refused with
:class:`~mechdesign.exceptions.ProblemTooLargeError` beyond :data:`MAX_LP_POINTS` distinct secret
vectors, :data:`MAX_BALL_SOLVES` enclosing-ball solves or :data:`MAX_COVER_CHECKS` coverability
checks (measured on 50 lattice points in 3-D, ε_p = 0.4: up to 3,701 solves and 14 s, p = 3).
``tests/privacy/test_summary.py`` checks all of this against fine grids and random, locally
optimized guesses by brute force.
"""

from __future__ import annotations

from .._lazy import LazyFunction
from .._lazy import cvxpy as cp
import numpy as np

from ..exceptions import ProblemTooLargeError, ShapeMismatchError
from ..solvers import solve_cvxpy

least_squares = LazyFunction("scipy.optimize", "least_squares")

#: Relative slack in the closed success events ``|ĝ − g| ≤ ε`` so that a candidate ``v + ε`` covers
#: values at distance exactly ``ε`` despite round-off.
EVENT_RTOL = 1e-9
#: Largest number of (candidate guess, input) pairs built before refusing.
MAX_COVERAGE_ENTRIES = 50_000_000


def coordinate_hits(guesses: np.ndarray, values: np.ndarray, tolerances: np.ndarray) -> np.ndarray:
    """``(c, n, d)`` booleans ``|guess_i − g_i(θ)| ≤ ε_i``.

    Examples
    --------
    >>> coordinate_hits(np.array([[0.0, 0.0]]), np.array([[0.0, 0.0], [1.0, 0.0]]), np.array([0.5, 0.5])).tolist()
    [[[True, True], [False, True]]]
    """
    if guesses.shape[1] != values.shape[1]:
        raise ShapeMismatchError(f"guesses have {guesses.shape[1]} secrets, values {values.shape[1]}")
    return np.abs(guesses[:, None, :] - values[None, :, :]) <= tolerances * (1.0 + EVENT_RTOL)


def window_candidates(values: np.ndarray, tolerance: float) -> np.ndarray:
    """Guesses ``v + ε`` for one secret whose covered value sets are maximal (not inside another's).

    Examples
    --------
    >>> window_candidates(np.array([0.0, 0.5, 2.0]), 0.3).tolist()  # 0.8 would cover only 0.5
    [0.3, 2.3]
    """
    distinct = np.unique(values)
    guesses = distinct + tolerance
    last = np.searchsorted(distinct, guesses + tolerance * (1.0 + EVENT_RTOL), side="right")
    keep = np.concatenate([[True], last[1:] > last[:-1]])
    return guesses[keep]


def product_candidates(values: np.ndarray, tolerances: np.ndarray) -> np.ndarray:
    """Every combination of per-secret maximal window guesses (:func:`window_candidates`).

    Examples
    --------
    >>> product_candidates(np.array([[0.0, 0.0], [1.0, 1.0]]), np.array([0.3, 0.3])).tolist()
    [[0.3, 0.3], [0.3, 1.3], [1.3, 0.3], [1.3, 1.3]]
    """
    axes = [window_candidates(values[:, i], tolerances[i]) for i in range(values.shape[1])]
    count = int(np.prod([a.size for a in axes], dtype=float))
    if count * values.shape[0] > MAX_COVERAGE_ENTRIES:
        raise ProblemTooLargeError(f"{count} candidate guesses × {values.shape[0]} inputs exceeds {MAX_COVERAGE_ENTRIES}")
    mesh = np.meshgrid(*axes, indexing="ij")
    return np.stack([m.ravel() for m in mesh], axis=1)


def circle_intersections(points: np.ndarray, radius: float) -> np.ndarray:
    """Intersection points of the circles of radius ``radius`` around every pair of ``points`` (2-D).

    Examples
    --------
    >>> circle_intersections(np.array([[0.0, 0.0], [1.0, 0.0]]), 1.0).round(6).tolist()
    [[0.5, 0.866025], [0.5, -0.866025]]
    """
    i, j = np.triu_indices(points.shape[0], k=1)
    a, b = points[i], points[j]
    half = np.linalg.norm(b - a, axis=1) / 2
    keep = (half > 0) & (half <= radius * (1.0 + EVENT_RTOL))
    a, b, half = a[keep], b[keep], half[keep]
    middle = (a + b) / 2
    normal = np.stack([a[:, 1] - b[:, 1], b[:, 0] - a[:, 0]], 1) / (2 * half[:, None])
    # radius · sqrt(1 − (half/radius)²): no overflow for a huge radius (radius² would exceed the float range)
    offset = (radius * np.sqrt(np.maximum(1.0 - (half / radius) ** 2, 0.0)))[:, None] * normal
    return np.vstack([middle + offset, middle - offset]).reshape(-1, 2)


#: Samples of the angle along an ℓp circle when bracketing its intersections with another one.
ANGLE_SAMPLES = 720
#: Bisection steps refining each bracketed intersection (the bracket shrinks by 2^-60).
BISECTION_STEPS = 60


def sphere_intersections(points: np.ndarray, radius: float, p: float) -> np.ndarray:
    """Intersection points of the ℓp circles (``1 < p < ∞``) of radius ``radius`` around every pair of
    2-D ``points``, plus each pair's midpoint (the touching point when they are tangent).

    The circle around ``a`` is ``a + r (sgn cos t |cos t|^{2/p}, sgn sin t |sin t|^{2/p})``; the sign
    changes of ``‖x(t) − b‖_p − r`` over :data:`ANGLE_SAMPLES` angles bracket the (at most two,
    strictly convex norm) intersections, refined by bisection.

    Examples
    --------
    >>> sphere_intersections(np.array([[0.0, 0.0], [1.0, 0.0]]), 1.0, 3).round(4).tolist()  # crossings, midpoint
    [[0.5, 0.9565], [0.5, -0.9565], [0.5, 0.0]]
    """
    i, j = np.triu_indices(points.shape[0], k=1)
    a, b = points[i], points[j]
    gap = np.linalg.norm(b - a, ord=p, axis=1)
    keep = (gap > 0) & (gap <= 2 * radius * (1.0 + EVENT_RTOL))
    a, b = a[keep], b[keep]

    def on_circle(t: np.ndarray) -> np.ndarray:  # (pairs, k, 2)
        c, s = np.cos(t), np.sin(t)
        unit = np.stack([np.sign(c) * np.abs(c) ** (2 / p), np.sign(s) * np.abs(s) ** (2 / p)], -1)
        return a[:, None, :] + radius * unit

    def excess(t: np.ndarray) -> np.ndarray:
        return np.linalg.norm(on_circle(t) - b[:, None, :], ord=p, axis=2) - radius

    angles = np.linspace(0, 2 * np.pi, ANGLE_SAMPLES + 1)
    values = excess(np.broadcast_to(angles, (a.shape[0], angles.size)))
    pair, k = np.nonzero(np.signbit(values[:, :-1]) != np.signbit(values[:, 1:]))
    low, high = angles[k], angles[k + 1]
    a, b = a[pair], b[pair]
    low_value = values[pair, k]
    for _ in range(BISECTION_STEPS):
        middle = (low + high) / 2
        middle_value = excess(middle[:, None])[:, 0]
        same = np.signbit(middle_value) == np.signbit(low_value)
        low, low_value = np.where(same, middle, low), np.where(same, middle_value, low_value)
        high = np.where(same, high, middle)
    crossings = on_circle(((low + high) / 2)[:, None])[:, 0, :] if pair.size else np.empty((0, 2))
    midpoints = (points[i][keep] + points[j][keep]) / 2
    return np.vstack([crossings, midpoints])


#: Most distinct secret vectors for the maximal-coverable-set search (``d ≥ 3``, finite ``p``).
MAX_LP_POINTS = 200
#: Most smallest-enclosing-ball solves (a few ms each) before that search refuses.
MAX_BALL_SOLVES = 20_000
#: Most distinct sets whose coverability that search examines (tens of µs each without a solve).
MAX_COVER_CHECKS = 500_000


def lp_distances(centre: np.ndarray, points: np.ndarray, p: float) -> np.ndarray:
    """``‖centre − v‖_p`` for every row ``v`` of ``points``.

    Examples
    --------
    >>> lp_distances(np.zeros(2), np.array([[1.0, 1.0], [3.0, 4.0]]), 1).tolist()
    [2.0, 7.0]
    """
    return np.linalg.norm(points - centre, ord=p, axis=1)


class EnclosingBall:
    """The smallest ℓp ball (``p ≥ 1``) around ``k`` points of ``ℝ^d``: ``min_g max_v ‖g − v‖_p``.

    One cvxpy problem per ``k`` (the points are a DPP parameter, compiled once), solved by Clarabel
    at tight tolerances; :attr:`solves` counts the calls.

    Examples
    --------
    >>> ball = EnclosingBall(2, 2)
    >>> ball.centre(np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]])).round(6).tolist(), ball.solves
    ([0.5, 0.5], 1)
    """

    def __init__(self, d: int, p: float) -> None:
        self.d, self.p, self.solves = d, p, 0
        self._problems: dict[int, tuple[cp.Problem, cp.Parameter, cp.Variable]] = {}

    def _problem(self, k: int) -> tuple[cp.Problem, cp.Parameter, cp.Variable]:
        if k not in self._problems:
            points, centre, radius = cp.Parameter((k, self.d)), cp.Variable(self.d), cp.Variable()
            constraints = [cp.norm(centre - points[i], self.p) <= radius for i in range(k)]
            self._problems[k] = (cp.Problem(cp.Minimize(radius), constraints), points, centre)
        return self._problems[k]

    def centre(self, points: np.ndarray) -> np.ndarray | None:
        """The centre of the smallest enclosing ball (``None`` if the solver fails).

        Examples
        --------
        >>> EnclosingBall(1, 2).centre(np.array([[0.0], [3.0]])).round(6)  # the midpoint
        array([1.5])
        """
        problem, parameter, centre = self._problem(points.shape[0])
        shift = points.mean(axis=0)  # centred data: better conditioned
        parameter.value = points - shift
        self.solves += 1
        # "may be inaccurate" is fine: the caller verifies the centre anyway.
        outcome = solve_cvxpy(problem, "clarabel", {"tol_gap_abs": 1e-12, "tol_gap_rel": 1e-12, "tol_feas": 1e-12})
        return None if outcome.status == "solver_error" or centre.value is None else centre.value + shift


#: Points within this relative gap of the farthest one support the smallest enclosing ball; a
#: solver centre this close to covering a set is polished (:func:`polish_centre`).
ACTIVE_RTOL = 1e-6


def polish_centre(points: np.ndarray, centre: np.ndarray, p: float) -> np.ndarray:
    """Polish an approximate smallest-enclosing-ℓp-ball ``centre`` (``1 < p < ∞``) by solving its KKT
    system on the farthest points ``A`` (within :data:`ACTIVE_RTOL`) to machine precision:
    ``‖g − a‖_p = t`` (``a ∈ A``), ``Σ_a λ_a ∇‖g − a‖_p = 0``, ``Σ_a λ_a = 1`` (least squares, scipy).

    Examples
    --------
    >>> points = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]])
    >>> centre = polish_centre(points, np.array([0.5, 0.5 + 1e-9]), 2.0)  # a solver's centre, 1e-9 off
    >>> bool(np.abs(centre - 0.5).max() < 1e-12)
    True
    """
    distances = lp_distances(centre, points, p)
    active = points[distances >= distances.max() * (1.0 - ACTIVE_RTOL)]
    m, d = active.shape

    def residual(z: np.ndarray) -> np.ndarray:
        g, t, weights = z[:d], z[d], z[d + 1:]
        gaps = g - active
        norms = np.linalg.norm(gaps, ord=p, axis=1)
        gradients = np.sign(gaps) * np.abs(gaps) ** (p - 1) / norms[:, None] ** (p - 1)
        return np.concatenate([norms - t, weights @ gradients, [weights.sum() - 1.0]])

    start = np.concatenate([centre, [distances.max()], np.full(m, 1.0 / m)])
    return least_squares(residual, start, xtol=1e-15, ftol=1e-15, gtol=1e-15).x[:d]


def maximal_coverable_sets(points: np.ndarray, p: float, radius: float) -> tuple[list[tuple[int, ...]], np.ndarray]:
    """The maximal sets of ``points`` one ℓp guess covers (``‖ĝ − v‖_p ≤ radius`` for all of them).

    Bron–Kerbosch without pivoting over the hereditary property "coverable" (module notes): each
    branch keeps the current set ``R``, the points ``P`` that can still join it and the excluded
    points ``X`` that could join it (``R`` is maximal when both are empty); if ``R ∪ P`` is
    coverable it is the branch's only candidate. A set is coverable when a witness passes the success
    test: the point itself, a pair's midpoint, the ℓ∞ box centre, or the smallest enclosing ball's
    centre (:class:`EnclosingBall`); the pairwise and box tests reject early.

    Returns
    -------
    sets, witnesses
        The maximal sets (sorted index tuples) and one covering guess for each (rows).

    Raises
    ------
    ProblemTooLargeError
        Beyond :data:`MAX_LP_POINTS` points, :data:`MAX_BALL_SOLVES` enclosing-ball solves or
        :data:`MAX_COVER_CHECKS` coverability checks.

    Examples
    --------
    >>> points = np.array([[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [5.0, 5.0, 5.0]])
    >>> sets, witnesses = maximal_coverable_sets(points, 2, 0.75)
    >>> sets, witnesses.round(3).tolist()
    ([(0, 1, 2), (3,)], [[0.5, 0.5, 0.0], [5.0, 5.0, 5.0]])
    """
    points = np.asarray(points, dtype=float)
    n, d = points.shape
    if n > MAX_LP_POINTS:
        raise ProblemTooLargeError(f"{n} distinct secret vectors exceed {MAX_LP_POINTS} for the exact ℓp attacker (p = {p:g}, d = {d})")
    limit = radius * (1.0 + EVENT_RTOL)
    gaps = np.abs(points[:, None, :] - points[None, :, :])
    pairable = np.linalg.norm(gaps, ord=p, axis=2) <= 2 * limit
    ball = EnclosingBall(d, p)
    known: dict[tuple[int, ...], np.ndarray | None] = {}

    def covers(centre: np.ndarray | None, members: np.ndarray) -> bool:
        return centre is not None and bool(lp_distances(centre, members, p).max() <= limit)

    def witness(subset: tuple[int, ...]) -> np.ndarray | None:
        key = tuple(sorted(subset))
        if key not in known:
            if len(known) >= MAX_COVER_CHECKS:
                raise ProblemTooLargeError(f"the exact ℓp attacker needs more than {MAX_COVER_CHECKS} coverability checks "
                                           f"({n} distinct secret vectors, p = {p:g}, d = {d})")
            known[key] = find_witness(list(key))
        return known[key]

    def find_witness(index: list[int]) -> np.ndarray | None:
        members = points[index]
        if not pairable[np.ix_(index, index)].all():
            return None
        low, high = members.min(axis=0), members.max(axis=0)
        box_centre = (low + high) / 2
        if np.any(high - low > 2 * limit):  # the ℓp ball lies in the ℓ∞ ball
            return None
        for centre in (members[0], box_centre):
            if covers(centre, members):
                return centre
        if p == np.inf or len(index) == 2:  # the box centre is optimal for ℓ∞ and for pairs
            return None
        if ball.solves >= MAX_BALL_SOLVES:
            raise ProblemTooLargeError(f"the exact ℓp attacker needs more than {MAX_BALL_SOLVES} enclosing-ball solves "
                                       f"({n} distinct secret vectors, p = {p:g}, d = {d})")
        centre = ball.centre(members)
        if centre is None or covers(centre, members):
            return centre
        if p > 1.0 and lp_distances(centre, members, p).max() <= limit * (1.0 + ACTIVE_RTOL):
            centre = polish_centre(members, centre, p)  # near an exact tangency: the solver is ~1e-9 off
        return centre if covers(centre, members) else None

    found: list[tuple[int, ...]] = []

    def extend(current: tuple[int, ...], candidates: list[int], excluded: list[int]) -> None:
        if not candidates:
            if not excluded:
                found.append(tuple(sorted(current)))
            return
        whole = current + tuple(candidates)
        if witness(whole) is not None:
            if not any(witness(whole + (x,)) is not None for x in excluded):
                found.append(tuple(sorted(whole)))
            return
        candidates, excluded = list(candidates), list(excluded)
        while candidates:
            v = candidates.pop(0)
            grown = current + (v,)
            extend(grown, [u for u in candidates if witness(grown + (u,)) is not None],
                   [x for x in excluded if witness(grown + (x,)) is not None])
            excluded.append(v)

    extend((), list(range(n)), [])
    witnesses = np.array([witness(subset) for subset in found]).reshape(len(found), d)
    return found, witnesses


def maximal_rows(hits: np.ndarray) -> np.ndarray:
    """The distinct rows of a boolean matrix that are not strictly contained in another row, as floats.

    Examples
    --------
    >>> maximal_rows(np.array([[1, 0, 1], [1, 0, 0], [0, 1, 0]])).tolist()  # (1, 0, 0) lies inside (1, 0, 1)
    [[0.0, 1.0, 0.0], [1.0, 0.0, 1.0]]
    """
    rows = np.unique(hits.astype(bool), axis=0).astype(float)
    outside = rows @ (1.0 - rows).T  # outside[i, j] = number of ones of row i missing from row j
    np.fill_diagonal(outside, 1.0)
    return rows[~(outside == 0).any(axis=1)]
