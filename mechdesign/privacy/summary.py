"""Multi-secret summary statistic privacy (Wang et al., "Guarding Multiple Secrets", eqs. (1), (6), §5.2, (10)).

The privacy of a mechanism releasing θ' from θ ~ ω_Θ is the success probability of the best attacker
guessing the secrets ``g(θ)`` from θ'. On a finite :class:`~mechdesign.parameter_spaces.ParameterSpace`

``Π(Q) = Σ_{θ'} max_{ĝ ∈ ℝ^d} Σ_θ ω(θ) Q[θ, θ'] · 1[success(ĝ, g(θ))]``

(the attacker picks its best guess for each release; Wang et al. eq. (11)). The success event is, per
notion: any secret within tolerance (union, eq. (1)); all secrets (intersection, eq. (6)); all secrets
of some group (group secrets, §5.2); ``‖ĝ − g(θ)‖_p ≤ ε_p`` (ℓp norm, eq. (10)).

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
candidate guesses are still real guesses evaluated by :meth:`LpNormPrivacy.success`. A set is
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

Budgets are probabilities
-------------------------
The budget of these notions is a success probability ``T ∈ [0, 1]``, not nats: ``scaled_budget`` is the
identity (with validation) and ``measure`` returns a probability. The constraint ``Π(Q) ≤ T`` is linear
(an epigraph variable per output, the maximum over the candidate guesses): an LP.
"""

from __future__ import annotations

import time
from abc import abstractmethod
from collections.abc import Sequence
from typing import Any

from .._lazy import cvxpy as cp
import numpy as np
import scipy.sparse as sp
from .._lazy import LazyFunction

from .._validate import (
    as_choice,
    as_finite,
    as_instance,
    as_norm_order,
    as_positive_vector,
    as_probability_budget,
    as_sequence,
)
from ..exceptions import MechDesignError, ProblemTooLargeError, ShapeMismatchError
from ..mechanism import Mechanism
from ..parameter_spaces import ParameterSpace, SupportDistortion
from ..relaxation import LinearRelaxation, ObjectiveMinorant, column_weight_rows, entry_index, linear_rows, stack
from ..result import BUDGET_ATOL, Result
from ..solvers import solve_cvxpy
from ..result import clean_mechanism
from .base import PrivacyNotion

least_squares = LazyFunction("scipy.optimize", "least_squares")

#: Relative slack in the closed success events ``|ĝ − g| ≤ ε`` so that a candidate ``v + ε`` covers
#: values at distance exactly ``ε`` despite round-off.
EVENT_RTOL = 1e-9
#: Largest number of (candidate guess, input) pairs built before refusing.
MAX_COVERAGE_ENTRIES = 50_000_000
#: Two distances closer than this are one distortion threshold.
THRESHOLD_ATOL = 1e-12
#: The LP solvers :func:`minimum_privacy` and :func:`design_worst_case_distortion` accept.
SOLVERS = ("highs", "clarabel")


class SummaryStatisticPrivacy(PrivacyNotion):
    """Base of the four multi-secret summary statistic privacy notions (budget: a probability T).

    Parameters
    ----------
    space
        The :class:`~mechdesign.parameter_spaces.ParameterSpace` (inputs, prior, secrets, tolerances).

    Notes
    -----
    The budget is a probability ``T ∈ [0, 1]`` (the attacker's success), not a number of nats:
    :meth:`scaled_budget` is the identity on ``[0, 1]`` and raises
    :class:`~mechdesign.exceptions.InvalidBudgetError` outside it.
    """

    needs_prior = True

    def __init__(self, space: ParameterSpace) -> None:
        self.space = as_instance(space, ParameterSpace, "space")
        self.n_inputs = space.n_inputs
        guesses = self.candidate_guesses()
        size = guesses.shape[0] * space.n_inputs
        if size > MAX_COVERAGE_ENTRIES:
            raise ProblemTooLargeError(
                f"{guesses.shape[0]} candidate guesses × {space.n_inputs} inputs = {size} exceeds {MAX_COVERAGE_ENTRIES}"
            )
        self.guesses = guesses
        self._hits = self.success(guesses, space.secret_values).astype(float)
        self.coverage = maximal_rows(self._hits)
        self._gains = self.coverage * space.prior.probabilities[None, :]

    @abstractmethod
    def success(self, guesses: np.ndarray, values: np.ndarray) -> np.ndarray:
        """``(c, n)`` booleans: does guess ``c`` (a row of ``guesses``) succeed on secret values row ``n``."""

    @abstractmethod
    def candidate_guesses(self) -> np.ndarray:
        """A finite set of guesses ``(c, d)`` no guess in ``ℝ^d`` outperforms (see the module notes)."""

    def scaled_budget(self, budget: float) -> float:
        """The budget is the probability T itself (validated to lie in [0, 1])."""
        return as_probability_budget(budget, f"{self.name} budget T")

    def budget_from_scaled(self, value: float) -> float:
        """Inverse of :meth:`scaled_budget`: the probability, clipped to [0, 1]."""
        return min(1.0, max(0.0, float(value)))

    def leakage_expression(self, Q: cp.Expression) -> cp.Expression:
        """``Σ_{θ'} max_c Σ_θ ω(θ) 1[c succeeds on θ] Q[θ, θ']`` — the best attacker's success."""
        return cp.sum(cp.max(self._gains @ Q, axis=0))

    def _constraints(self, Q: cp.Expression, scaled: Any) -> list[cp.Constraint]:
        return [self.leakage_expression(Q) <= scaled]

    def attacker_rows(self, shape: tuple[int, int]) -> LinearRelaxation:
        """``gains_c · Q[:, y] <= M_y`` for every candidate guess ``c`` and output ``y`` (``M ∈ [0, 1]``): the
        best attacker's success is ``Σ_y M_y`` at the least ``M``."""
        m = shape[1]
        rows = column_weight_rows(shape, self._gains)
        aux = sp.kron(np.ones((self._gains.shape[0], 1)), -sp.identity(m))
        return LinearRelaxation(rows, sp.csr_matrix(aux), np.zeros(rows.shape[0]), np.zeros(m), np.ones(m))

    def relaxation(self, points: Sequence[np.ndarray], budget: float) -> LinearRelaxation:
        """The constraint itself (an LP): :meth:`attacker_rows` and ``Σ_y M_y <= T``."""
        shape = points[0].shape
        attacker = self.attacker_rows(shape)
        budget_row = LinearRelaxation(sp.csr_matrix((1, shape[0] * shape[1])), sp.csr_matrix(np.ones((1, shape[1]))),
                                      np.array([self.scaled_budget(budget)]), np.zeros(0), np.zeros(0))
        return LinearRelaxation(sp.csr_matrix(sp.vstack([attacker.rows_q, budget_row.rows_q])),
                                sp.csr_matrix(sp.vstack([attacker.rows_aux, budget_row.rows_aux])),
                                np.concatenate([attacker.rhs, budget_row.rhs]), attacker.aux_lower, attacker.aux_upper)

    def _measure(self, matrix: np.ndarray) -> float:
        # Independent of the constraints: every candidate guess (not only the maximal covered sets)
        # is evaluated with the success event on the joint distribution of (θ, θ').
        joint = self.space.prior.probabilities[:, None] * matrix
        return float((self._hits @ joint).max(axis=0).sum())

    def prior_vulnerability(self) -> float:
        """Success of the best attacker seeing nothing: the smallest T any mechanism reaches."""
        return float((self.coverage @ self.space.prior.probabilities).max())


class UnionPrivacy(SummaryStatisticPrivacy):
    """Union privacy (Wang et al. eq. (1)): the attacker wins if *any* secret is within tolerance."""

    name = "union_privacy"
    reference = "Wang et al., Guarding Multiple Secrets, eq. (1)"

    def candidate_guesses(self) -> np.ndarray:
        return product_candidates(self.space.secret_values, self.space.tolerances)

    def success(self, guesses: np.ndarray, values: np.ndarray) -> np.ndarray:
        return coordinate_hits(guesses, values, self.space.tolerances).any(axis=2)


class IntersectionPrivacy(UnionPrivacy):
    """Intersection privacy (Wang et al. eq. (6)): the attacker wins if *every* secret is within tolerance."""

    name = "intersection_privacy"
    reference = "Wang et al., Guarding Multiple Secrets, eq. (6)"

    def success(self, guesses: np.ndarray, values: np.ndarray) -> np.ndarray:
        return coordinate_hits(guesses, values, self.space.tolerances).all(axis=2)


class GroupPrivacy(UnionPrivacy):
    """Group secrets privacy (Wang et al. §5.2): the attacker wins if every secret of *some* group is
    within tolerance.

    Parameters
    ----------
    space
        The parameter space.
    groups
        Disjoint, non-empty groups of secret indices (``0 … d−1``).
    """

    name = "group_privacy"
    reference = "Wang et al., Guarding Multiple Secrets, §5.2"

    def __init__(self, space: ParameterSpace, groups: Sequence[Sequence[int]]) -> None:
        self.groups = as_groups(groups, as_instance(space, ParameterSpace, "space").n_secrets)
        super().__init__(space)

    @property
    def label(self) -> str:
        return f"{self.name}({'|'.join(','.join(map(str, g)) for g in self.groups)})"

    def success(self, guesses: np.ndarray, values: np.ndarray) -> np.ndarray:
        hits = coordinate_hits(guesses, values, self.space.tolerances)
        return np.any([hits[:, :, list(group)].all(axis=2) for group in self.groups], axis=0)


class LpNormPrivacy(SummaryStatisticPrivacy):
    """ℓp norm privacy (Wang et al. eq. (10)): the attacker wins if ``‖ĝ − g(θ)‖_p ≤ ε_p``.

    Parameters
    ----------
    space
        The parameter space (its per-secret tolerances are not used).
    p
        Norm order ``p ≥ 1`` or ``inf``. The best attacker is exact for every ``p`` and ``d``: closed-form
        candidates for ``p = inf`` or ``d ≤ 2``, maximal coverable sets otherwise (module notes).
    tolerance
        ``ε_p > 0``.

    Raises
    ------
    ProblemTooLargeError
        For ``d ≥ 3`` and finite ``p``, beyond :data:`MAX_LP_POINTS` distinct secret vectors,
        :data:`MAX_BALL_SOLVES` enclosing-ball solves or :data:`MAX_COVER_CHECKS` coverability checks.
    """

    name = "lp_privacy"
    reference = "Wang et al., Guarding Multiple Secrets, eq. (10)"

    def __init__(self, space: ParameterSpace, p: float, tolerance: float) -> None:
        self.p = as_norm_order(p)
        self.tolerance = float(as_positive_vector(tolerance, "tolerance", size=1)[0])
        super().__init__(space)

    @property
    def label(self) -> str:
        return f"{self.name}(p={self.p:g})"

    def success(self, guesses: np.ndarray, values: np.ndarray) -> np.ndarray:
        gaps = np.abs(guesses[:, None, :] - values[None, :, :])
        norms = np.linalg.norm(gaps, ord=self.p, axis=2)
        return norms <= self.tolerance * (1.0 + EVENT_RTOL)

    def candidate_guesses(self) -> np.ndarray:
        values, eps = self.space.secret_values, self.tolerance
        d = values.shape[1]
        if self.p == np.inf or d == 1:
            return product_candidates(values, np.full(d, eps))
        if d >= 3:
            return maximal_coverable_sets(np.unique(values, axis=0), self.p, eps)[1]
        if self.p == 1.0:  # |a| + |b| = max(|a + b|, |a − b|): a box in rotated coordinates
            rotated = product_candidates(np.stack([values.sum(1), values[:, 0] - values[:, 1]], 1), np.full(2, eps))
            return np.stack([(rotated[:, 0] + rotated[:, 1]) / 2, (rotated[:, 0] - rotated[:, 1]) / 2], 1)
        points = np.unique(values, axis=0)
        if self.p == 2.0:
            return np.vstack([points, circle_intersections(points, eps)])
        return np.vstack([points, sphere_intersections(points, eps, self.p)])


# ------------------------------------------------------------------------------------------ helpers
def as_groups(groups: Sequence[Sequence[int]], d: int) -> tuple[tuple[int, ...], ...]:
    """Validate disjoint, non-empty groups of secret indices in ``0 … d−1``."""
    result, seen = [], set()
    for index, group in enumerate(as_sequence(groups, "groups")):
        members = tuple(_secret_index(i, f"groups[{index}]") for i in as_sequence(group, f"groups[{index}]"))
        if not members:
            raise MechDesignError("a secret group is empty")
        for i in members:
            if not 0 <= i < d:
                raise MechDesignError(f"secret index {i} in group {members} is outside 0..{d - 1}")
            if i in seen:
                raise MechDesignError(f"secret {i} belongs to two groups: groups must be disjoint")
            seen.add(i)
        result.append(members)
    if not result:
        raise MechDesignError("at least one secret group is needed")
    return tuple(result)


def coordinate_hits(guesses: np.ndarray, values: np.ndarray, tolerances: np.ndarray) -> np.ndarray:
    """``(c, n, d)`` booleans ``|guess_i − g_i(θ)| ≤ ε_i``."""
    if guesses.shape[1] != values.shape[1]:
        raise ShapeMismatchError(f"guesses have {guesses.shape[1]} secrets, values {values.shape[1]}")
    return np.abs(guesses[:, None, :] - values[None, :, :]) <= tolerances * (1.0 + EVENT_RTOL)


def window_candidates(values: np.ndarray, tolerance: float) -> np.ndarray:
    """Guesses ``v + ε`` for one secret whose covered value sets are maximal (not inside another's)."""
    distinct = np.unique(values)
    guesses = distinct + tolerance
    last = np.searchsorted(distinct, guesses + tolerance * (1.0 + EVENT_RTOL), side="right")
    keep = np.concatenate([[True], last[1:] > last[:-1]])
    return guesses[keep]


def product_candidates(values: np.ndarray, tolerances: np.ndarray) -> np.ndarray:
    """Every combination of per-secret maximal window guesses (:func:`window_candidates`)."""
    axes = [window_candidates(values[:, i], tolerances[i]) for i in range(values.shape[1])]
    count = int(np.prod([a.size for a in axes], dtype=float))
    if count * values.shape[0] > MAX_COVERAGE_ENTRIES:
        raise ProblemTooLargeError(f"{count} candidate guesses × {values.shape[0]} inputs exceeds {MAX_COVERAGE_ENTRIES}")
    mesh = np.meshgrid(*axes, indexing="ij")
    return np.stack([m.ravel() for m in mesh], axis=1)


def _secret_index(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise MechDesignError(f"{name} must hold secret indices (integers), got {value!r}")
    return int(value)


def circle_intersections(points: np.ndarray, radius: float) -> np.ndarray:
    """Intersection points of the circles of radius ``radius`` around every pair of ``points`` (2-D)."""
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
    """``‖centre − v‖_p`` for every row ``v`` of ``points``."""
    return np.linalg.norm(points - centre, ord=p, axis=1)


class EnclosingBall:
    """The smallest ℓp ball (``p ≥ 1``) around ``k`` points of ``ℝ^d``: ``min_g max_v ‖g − v‖_p``.

    One cvxpy problem per ``k`` (the points are a DPP parameter, compiled once), solved by Clarabel
    at tight tolerances; :attr:`solves` counts the calls.
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
        """The centre of the smallest enclosing ball (``None`` if the solver fails)."""
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
    ``‖g − a‖_p = t`` (``a ∈ A``), ``Σ_a λ_a ∇‖g − a‖_p = 0``, ``Σ_a λ_a = 1`` (least squares, scipy)."""
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
    """The distinct rows of a boolean matrix that are not strictly contained in another row, as floats."""
    rows = np.unique(hits.astype(bool), axis=0).astype(float)
    outside = rows @ (1.0 - rows).T  # outside[i, j] = number of ones of row i missing from row j
    np.fill_diagonal(outside, 1.0)
    return rows[~(outside == 0).any(axis=1)]


# ------------------------------------------------------------------------------- optimal designs
def _check_notion(notion: Any) -> None:
    if not isinstance(notion, SummaryStatisticPrivacy):
        raise MechDesignError(f"expected a summary statistic privacy notion (union, intersection, group, ℓp), got {notion!r}")


def minimum_privacy(notion: SummaryStatisticPrivacy, threshold: float, solver: str = "highs") -> tuple[float, np.ndarray | None]:
    """The least attacker success ``min Π(Q)`` over mechanisms with worst-case distortion ≤ ``threshold``.

    One LP: ``Q[θ, θ'] = 0`` wherever ``θ`` is in the prior's support and ``𝔇(θ, θ') > threshold``.
    Returns the optimum and the (cleaned) minimizer, or ``(inf, None)`` when no mechanism has this
    distortion (some supported input has no output within ``threshold``).
    """
    _check_notion(notion)
    space = notion.space
    forbidden = np.zeros(space.cost.shape, dtype=bool)
    forbidden[space.support] = space.cost[space.support] > threshold + THRESHOLD_ATOL
    if forbidden.all(axis=1).any():
        return np.inf, None
    Q = cp.Variable(space.cost.shape, nonneg=True)
    problem = cp.Problem(cp.Minimize(notion.leakage_expression(Q)),
                         [cp.sum(Q, axis=1) == 1, Q[forbidden] == 0] if forbidden.any() else [cp.sum(Q, axis=1) == 1])
    if not solve_cvxpy(problem, as_choice(solver, SOLVERS, "solver")).solved or Q.value is None:
        return np.inf, None
    matrix = np.where(forbidden, 0.0, np.clip(Q.value, 0.0, None))
    return float(problem.value), clean_mechanism(matrix)


def minimum_privacy_lower_bound(notion: SummaryStatisticPrivacy, threshold: float) -> float:
    """A certified lower bound on :func:`minimum_privacy` (``inf`` when no mechanism has the distortion).

    The LP dual bound of :func:`~mechdesign.certificate.relaxation_lower_bound` on ``min Σ_y M_y``
    over :meth:`~SummaryStatisticPrivacy.attacker_rows` with the forbidden entries at 0.
    """
    from ..certificate import relaxation_lower_bound

    space = notion.space
    shape = space.cost.shape
    forbidden = np.zeros(shape, dtype=bool)
    forbidden[space.support] = space.cost[space.support] > threshold + THRESHOLD_ATOL
    if forbidden.all(axis=1).any():
        return np.inf
    rows, columns = np.nonzero(forbidden)
    zeros = sp.csr_matrix((np.ones(rows.size), (np.arange(rows.size), entry_index(shape, rows, columns))),
                          shape=(rows.size, shape[0] * shape[1]))
    relaxation = stack([notion.attacker_rows(shape), linear_rows(zeros, np.zeros(rows.size))], shape[0] * shape[1])
    minorant = ObjectiveMinorant(0.0, np.zeros(shape[0] * shape[1]), np.ones(shape[1]), relaxation)
    bound, _ = relaxation_lower_bound(minorant, relaxation, shape)
    return bound


def distortion_thresholds(space: ParameterSpace) -> np.ndarray:
    """The distinct distances from supported inputs to outputs: the only values eq. (2) can take."""
    values = np.sort(space.cost[space.support].ravel())
    keep = np.concatenate([[True], np.diff(values) > THRESHOLD_ATOL])
    return values[keep]


def worst_case_tradeoff(notion: SummaryStatisticPrivacy, thresholds: Any = None) -> tuple[np.ndarray, np.ndarray]:
    """The exact privacy–distortion trade-off: ``min Π`` at each distortion threshold (one LP each).

    ``Δ*(T) = min{t : value(t) ≤ T}`` for the returned step function. Thresholds default to every
    distinct distance (:func:`distortion_thresholds`).

    Examples
    --------
    >>> from mechdesign import IntersectionPrivacy, ParameterSpace
    >>> space = ParameterSpace.gaussian_1d([0.0, 1.0, 2.0], [1.0], [0.4, 0.4])
    >>> thresholds, privacy = worst_case_tradeoff(IntersectionPrivacy(space))
    >>> thresholds.tolist(), privacy.round(6).tolist()
    ([0.0, 1.0, 2.0], [1.0, 0.333333, 0.333333])
    """
    _check_notion(notion)
    grid = (distortion_thresholds(notion.space) if thresholds is None
            else np.array([as_finite(t, "distortion threshold") for t in np.ravel(np.asarray(thresholds, dtype=object))]))
    values = np.array([minimum_privacy(notion, t)[0] for t in grid])
    return grid, values


def design_worst_case_distortion(notion: SummaryStatisticPrivacy, budget: float, solver: str = "highs") -> Result:
    """Minimize the worst-case distortion Δ (Wang et al. eq. (3)) subject to ``Π ≤ T``, exactly.

    Δ takes one of the distinct distances; the set of mechanisms with ``Δ ≤ t`` grows with ``t``, so
    a bisection over the sorted distances with one LP each (:func:`minimum_privacy`) finds the
    least feasible one. The mechanism is re-measured (privacy by the notion's own measure,
    distortion by :class:`~mechdesign.parameter_spaces.SupportDistortion`).

    Examples
    --------
    >>> from mechdesign import IntersectionPrivacy, ParameterSpace
    >>> space = ParameterSpace.gaussian_1d([0.0, 1.0, 2.0], [1.0], [0.4, 0.4])  # three means, one σ
    >>> result = design_worst_case_distortion(IntersectionPrivacy(space), 0.5)
    >>> result.success, result.objective  # the attacker's success at most 1/2 costs W2 distortion 1
    (True, 1.0)
    """
    _check_notion(notion)
    T = notion.scaled_budget(budget)
    solver = as_choice(solver, SOLVERS, "solver")
    start = time.perf_counter()
    grid = distortion_thresholds(notion.space)
    budgets = {notion.label: T}
    floor = notion.prior_vulnerability()
    if T < floor - BUDGET_ATOL:
        return Result(None, None, "infeasible", False,
                      f"infeasible: T = {T:.9g} is below {floor:.9g}, the success of an attacker who sees nothing",
                      budgets=budgets, solver=solver, solve_time=time.perf_counter() - start, smallest_feasible=floor)
    low, high, best, solves = 0, grid.size - 1, None, 0
    while low <= high:
        middle = (low + high) // 2
        _, matrix = minimum_privacy(notion, grid[middle], solver)
        solves += 1
        if matrix is not None and notion.measure(matrix) <= T + BUDGET_ATOL:
            best, high = matrix, middle - 1
        else:
            low = middle + 1
    elapsed = time.perf_counter() - start
    if best is None:
        return Result(None, None, "inaccurate", False, "no threshold's LP solution re-measured within the budget",
                      budgets=budgets, solver=solver, solve_time=elapsed, iterations=solves)
    mechanism = Mechanism(best)
    measured = {notion.label: notion.measure(mechanism)}
    distortion = SupportDistortion(notion.space).value(mechanism)
    # Δ takes only the grid's values: the optimum is certified when the next smaller one is proven out of
    # reach (its least attacker success, bounded below in numpy, exceeds T).
    below = grid[grid < distortion - THRESHOLD_ATOL]
    bound = distortion if below.size == 0 or minimum_privacy_lower_bound(notion, below[-1]) > T + BUDGET_ATOL else None
    verdict = ("optimal worst-case distortion" if bound is not None else
               "suboptimal: the next smaller distortion could not be proven out of reach; worst-case distortion")
    return Result(mechanism, distortion, "optimal" if bound is not None else "suboptimal", True,
                  f"{verdict} by bisection over {grid.size} thresholds ({solves} LPs); privacy re-measured and respected",
                  measured, budgets, solver=solver, solve_time=elapsed, iterations=solves, bound=bound,
                  gap=None if bound is None else 0.0, method="bisection")
