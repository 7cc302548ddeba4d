"""Rate–distortion (least mutual information at a distortion) by Blahut–Arimoto with a dual certificate.

``R(D) = min { I(X; Y) : E[d(X, Y)] <= D }`` is the mutual-information privacy–distortion curve
(PUT paper, Zhong & Bu, mutual information as the privacy measure). At a slope ``s >= 0`` the
Blahut–Arimoto iteration (Blahut, "Computation of channel capacity and rate-distortion functions",
IEEE Trans. IT 18(4), 1972, Theorem 6; Cover & Thomas, *Elements of Information Theory*, §10.8)
alternates, with ``A[x, y] = e^{−s d(x, y)}``,

    Q[x, y] = q_y A[x, y] / Z_x,   Z_x = Σ_y q_y A[x, y],      q_y <- q_y c_y,   c_y = Σ_x P(x) A[x, y] / Z_x,

and converges to the point of the curve where its slope is ``−s``. Every iterate is certified
(Blahut 1972, Theorem 8): the channel ``Q`` reaches distortion ``D = Σ P Q d`` with rate
``I(P, Q) >= R(D)``, and Lagrange duality gives, for *any* output distribution ``q``,

    R(D) >= −s D − Σ_x P(x) log Z_x − log max_y c_y,

while ``I(P, Q) <= −s D − Σ_x P(x) log Z_x``. So the gap is at most ``log max_y c_y``, which is the
stopping rule: each point is returned with ``rate − lower_bound <= GAP_TOL``.

Everything is in nats; ``s`` is in nats per unit of distortion (dit's β, in bits, is ``s / log 2``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from .._lazy import LazyFunction
from .._validate import as_budget, as_finite, as_number_list
from ..exceptions import InvalidBudgetError, MechDesignError
from ..mechanism import Mechanism
from ..priors import PriorLike, as_prior
from .distortion import cost_for_prior
from .information import mutual_information

#: Certified gap ``rate − lower_bound`` (nats) at which an iteration stops.
GAP_TOL = 1e-9
#: Iteration cap per point; a point that reaches it is returned with its (larger) certified gap.
MAX_ITERATIONS = 200_000
#: Output masses below this are set to 0 (denormals otherwise make ``P(x) q_y`` underflow to 0 while
#: ``P(x) Q[x, y]`` does not, and the bound stays valid for any ``q``).
UNDERFLOW = 1e-100
#: Weight of the uniform distribution mixed into a warm start, so that outputs dropped at one slope
#: can grow back at the next (Blahut–Arimoto never revives an output of mass exactly 0). Iterations
#: for the 26-point Zipf curves of benchmarks/rate_distortion.py, m = 4 / 16 / 64: 2,906 / 10,627 /
#: 66,510 with 1e-6; 4,620 / 18,938 / 46,541 with 1e-3; 5,010 / 20,434 / 57,040 cold.
WARM_START_MIX = 1e-6
#: Largest slope searched by :func:`distortion_rate_lower_bound` (nats per unit distortion); beyond it the
#: kernel ``e^{−s d}`` underflows for every off-minimum cost of order one.
MAX_SLOPE = 700.0
#: Bisection steps on the slope in :func:`rate_distortion_at`.
SLOPE_STEPS = 200
#: ``s · (d − min d)`` from which Blahut's kernel entry ``e^{−s (d − min d)}`` is exactly 0 in float64 (the
#: smallest subnormal is e^{−744.4}): a larger slope gives the same kernel, so the slope search of
#: :func:`rate_distortion_at` stops doubling there.
KERNEL_UNDERFLOW = 746.0
#: Distortion, in units of the largest cost, within which a target of :func:`rate_distortion_at` counts as
#: the least reachable distortion (round-off in ``Σ P(x) min_y d(x, y)``).
LEAST_DISTORTION_ATOL = 1e-12
#: Blahut–Arimoto steps that polish a solver's output distribution in :func:`distortion_rate_lower_bound`.
BOUND_POLISH_STEPS = 50
#: Inputs whose ``Z_x`` is below this have no output of non-negligible kernel in the support (starved).
STARVED = 1e-280
#: Newton iterations at most per slope.
MAX_NEWTON = 200
#: Blahut–Arimoto steps from the uniform output distribution before the first Newton solve (they make
#: every output's mass reflect its usefulness).
WARM_UP_STEPS = 20
#: Outputs kept from the warm-up to start the first slope's support (pricing adds the others it needs).
START_OUTPUTS = 10
#: Relative difference within which a warm-up mass counts as tied with the largest.
TIED = 1e-9
#: Outputs of a start with less than this fraction of its largest mass start outside the support.
SUPPORT_FRACTION = 1e-6
#: Mass, relative to the support's mean, given to an output priced into the support.
ENTRY_MASS = 1e-3
#: Outputs with at most this fraction of the largest mass, and a positive gradient, leave the Newton step.
BOUNDARY_MASS = 1e-12
#: Armijo's sufficient-decrease constant and the backtracking factor of the Newton line search.
ARMIJO, BACKTRACK = 1e-4, 0.5
#: The methods of :func:`rate_distortion_curve`.
CURVE_METHODS = ("newton", "blahut-arimoto")

cho_factor = LazyFunction("scipy.linalg", "cho_factor")
cho_solve = LazyFunction("scipy.linalg", "cho_solve")
dsyrk = LazyFunction("scipy.linalg.blas", "dsyrk")


@dataclass(frozen=True)
class RateDistortionPoint:
    """One certified point of the rate–distortion curve.

    Attributes
    ----------
    slope
        The slope parameter ``s`` (nats per unit distortion).
    distortion
        ``D = E[d(X, Y)]`` of :attr:`mechanism`.
    rate
        ``I(X; Y)`` of :attr:`mechanism` (nats): an upper bound on ``R(D)``.
    lower_bound
        Blahut's dual lower bound on ``R(D)`` (nats).
    mechanism
        The channel reaching (:attr:`distortion`, :attr:`rate`).
    iterations
        Blahut–Arimoto iterations used.
    """

    slope: float
    distortion: float
    rate: float
    lower_bound: float
    mechanism: Mechanism
    iterations: int

    @property
    def gap(self) -> float:
        """Certified bound on ``rate − R(distortion)``."""
        return self.rate - self.lower_bound


def _blahut_arimoto(p: np.ndarray, cost: np.ndarray, slope: float, output: np.ndarray) -> RateDistortionPoint:
    """Iterate from output distribution ``output`` until the certified gap is at most ``GAP_TOL``."""
    # Shifting each row of the cost by its minimum scales row x of the kernel by e^{s min_y d(x, y)},
    # which cancels in Q and c and shifts log Z_x by −s min_y d(x, y) (added back in the bound).
    floor = cost.min(axis=1)
    kernel = shifted_kernel(cost, slope)
    q = output
    for iteration in range(1, MAX_ITERATIONS + 1):
        normalizer = kernel @ q
        ratios = (p / normalizer) @ kernel
        if math.log(ratios.max()) <= GAP_TOL:
            break
        q = q * ratios
        q[q < UNDERFLOW] = 0.0
    normalizer = kernel @ q
    ratios = (p / normalizer) @ kernel
    matrix = q[None, :] * kernel / normalizer[:, None]
    distortion = float(p @ (matrix * cost).sum(axis=1))
    # At s = ∞ (the least distortion: every input on its cheapest outputs) the line's slope term vanishes.
    excess = 0.0 if math.isinf(slope) else -slope * (distortion - float(p @ floor))
    lower = excess - float(p @ np.log(normalizer)) - math.log(ratios.max())
    mechanism = Mechanism(matrix / matrix.sum(axis=1, keepdims=True))
    return RateDistortionPoint(slope, distortion, mutual_information(p, mechanism), max(lower, 0.0), mechanism,
                               iteration)


@dataclass(frozen=True)
class SlopePoint:
    """One slope's output distribution ``q``, its channel's rate and distortion, and its certified dual line
    ``R(D) >= b − s D``. The channel itself (``n × m``) is rebuilt on demand by :meth:`SlopeSolver.channel`, so
    that a search over many slopes holds ``O(m)`` numbers per slope."""

    slope: float
    rate: float
    distortion: float
    intercept: float
    output: np.ndarray
    #: Newton steps taken at this slope.
    steps: int = 0

    def distortion_bound(self, rate: float) -> float:
        """``D(rate) >= (b − rate) / s``."""
        return (self.intercept - rate) / self.slope


class SlopeSolver:
    """Minimizes ``G_s`` (module docstring) at any slope for a fixed prior and cost (inputs of positive mass).

    Examples
    --------
    >>> solver = SlopeSolver(np.array([0.5, 0.5]), 1 - np.eye(2))
    >>> point = solver.solve(math.log(9.0), np.array([0.5, 0.5]), 1e-12)
    >>> round(point.distortion, 12), abs(point.rate - (point.intercept - point.slope * point.distortion)) < 1e-12
    (0.1, True)
    """

    def __init__(self, prior: PriorLike, cost: np.ndarray) -> None:
        #: The prior, wrapped once here and passed as it is to every rate measured at a slope.
        self.prior = as_prior(prior)
        self.p, self.cost = self.prior.probabilities, cost
        excess = cost - cost.min(axis=1)[:, None]
        positive = excess[excess > 0]
        #: The largest slope that changes the kernel (:data:`KERNEL_UNDERFLOW`); 1 for a cost without choice.
        self.max_slope = KERNEL_UNDERFLOW / float(positive.min()) if positive.size else 1.0

    def warm_start(self, slope: float) -> np.ndarray:
        """:data:`WARM_UP_STEPS` Blahut–Arimoto steps from the uniform output distribution, restricted to its
        :data:`START_OUTPUTS` largest masses and those tied with the largest (a symmetric problem, e.g. a uniform
        prior with Hamming cost, keeps every output); pricing adds the outputs that are missing."""
        kernel = shifted_kernel(self.cost, slope)
        q = np.full(self.cost.shape[1], 1.0 / self.cost.shape[1])
        for _ in range(WARM_UP_STEPS):
            q = q * ((self.p / (kernel @ q)) @ kernel)
        kept = np.argsort(-q)[:START_OUTPUTS]
        kept = np.union1d(kept, np.flatnonzero(q >= q[kept[0]] * (1.0 - TIED)))
        start = np.zeros_like(q)
        start[kept] = q[kept]
        return start / start.sum()

    def solve(self, slope: float, start: np.ndarray, rate_gap: float, kernel: np.ndarray | None = None) -> SlopePoint:
        """Newton on the support of ``q`` from ``start`` until ``log max_y c_y <= rate_gap`` (or the cap).

        The support starts as the outputs of ``start`` with at least :data:`SUPPORT_FRACTION` of its largest
        mass (a neighbouring slope's support: few outputs); pricing adds the outputs it lacks. ``kernel`` is
        the slope's :func:`~mechdesign.utility.rate_distortion.shifted_kernel` if the caller has it."""
        kernel = shifted_kernel(self.cost, slope) if kernel is None else kernel
        p = self.p
        support = np.flatnonzero(start >= SUPPORT_FRACTION * start.max())
        q, support = self._feed(kernel, start[support] / start[support].sum(), support)
        steps = 0
        for steps in range(MAX_NEWTON):
            ratios = (p / (kernel[:, support] @ q)) @ kernel
            if math.log(float(ratios.max())) <= rate_gap:
                break
            q, support = self._price(q, support, ratios, rate_gap)
            columns = kernel[:, support]
            normalizer = columns @ q
            q, support = self._newton_step(columns, q, support, (p / normalizer) @ columns, normalizer)
        full = np.zeros(self.cost.shape[1])
        full[support] = q
        return replace(self._point(slope, kernel, full), steps=steps)

    def _feed(self, kernel: np.ndarray, q: np.ndarray, support: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The support with the cheapest output of every starved input added (at a large slope the kernel of a
        neighbouring slope's support can underflow to 0 on a row), so that every ``Z_x`` is positive."""
        starved = np.flatnonzero(kernel[:, support] @ q < STARVED)
        if not starved.size:
            return q, support
        entering = np.setdiff1d(self.cost[starved].argmin(axis=1), support)
        q = np.concatenate([q, np.full(entering.size, q.mean())])
        return q / q.sum(), np.concatenate([support, entering])

    @staticmethod
    def _price(q: np.ndarray, support: np.ndarray, ratios: np.ndarray, rate_gap: float
               ) -> tuple[np.ndarray, np.ndarray]:
        """The support with the outputs of largest ``c_y > 1`` outside it added (at most as many as it has, and
        at least 10), each with :data:`ENTRY_MASS` of the mean mass: the outputs whose gradient ``1 − c_y`` of
        ``G`` is negative."""
        entering = np.setdiff1d(np.flatnonzero(ratios > 1.0 + rate_gap), support)
        if not entering.size:
            return q, support
        entering = entering[np.argsort(-ratios[entering])[: max(10, support.size)]]
        q = np.concatenate([q, np.full(entering.size, ENTRY_MASS * q.mean())])
        return q / q.sum(), np.concatenate([support, entering])

    def channel(self, point: SlopePoint, kernel: np.ndarray | None = None) -> np.ndarray:
        """The channel ``q_y K[x, y] / Z_x`` of ``point`` (``n × m``; ``kernel`` as for :meth:`solve`)."""
        support = np.flatnonzero(point.output)
        matrix = np.zeros(self.cost.shape)
        kernel = shifted_kernel(self.cost, point.slope) if kernel is None else kernel
        matrix[:, support] = self._columns(kernel, point.output, support)
        return matrix

    def _columns(self, kernel: np.ndarray, q: np.ndarray, support: np.ndarray) -> np.ndarray:
        """The channel's columns on ``support`` (the others are 0), each row summing to 1."""
        columns = q[support][None, :] * kernel[:, support]
        return columns / columns.sum(axis=1, keepdims=True)

    def _newton_step(self, columns: np.ndarray, q: np.ndarray, support: np.ndarray, ratios: np.ndarray,
                     normalizer: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """One projected Newton step (Bertsekas, "Projected Newton methods for optimization problems with
        simple constraints", SIAM J. Control Optim. 20(2), 1982) on ``G(q) = −Σ P log(K q) + Σ q`` over
        ``q >= 0`` (its minimum has ``Σ q = 1``): outputs of negligible mass whose gradient ``1 − c_y`` is
        positive leave the support, Newton's direction is taken on the rest, and the step backtracks along
        the projection ``max(q + t d, 0)`` until Armijo's decrease holds; outputs reaching 0 leave."""
        p = self.p
        gradient = 1.0 - ratios
        free = (q > BOUNDARY_MASS * q.max()) | (gradient < 0)
        q, support, gradient, columns = q[free], support[free], gradient[free], columns[:, free]
        weighted = columns * (np.sqrt(p) / normalizer)[:, None]
        hessian = dsyrk(1.0, weighted.T)  # K_Sᵀ diag(P / Z²) K_S, upper triangle: half a matrix product
        try:
            direction = -cho_solve((cho_factor(hessian, lower=False, overwrite_a=True)[0], False), gradient)
        except np.linalg.LinAlgError:  # a singular Hessian (outputs with proportional kernel columns)
            direction = -np.linalg.lstsq(weighted.T @ weighted, gradient, rcond=None)[0]
        if not gradient @ direction < 0:
            direction = -gradient
        value = -float(p @ np.log(normalizer)) + float(q.sum())
        step = 1.0
        while step > 1e-20:
            trial = np.maximum(q + step * direction, 0.0)
            with np.errstate(divide="ignore"):
                trial_value = -float(p @ np.log(columns @ trial)) + float(trial.sum())
            if trial_value <= value + ARMIJO * float(gradient @ (trial - q)):
                break
            step *= BACKTRACK
        else:
            return q / q.sum(), support
        keep = trial > 0
        return trial[keep] / trial[keep].sum(), support[keep]

    def _point(self, slope: float, kernel: np.ndarray, q: np.ndarray) -> SlopePoint:
        """The rate, distortion and dual intercept of the channel of ``q``, computed on its support."""
        support = np.flatnonzero(q)
        columns = self._columns(kernel, q, support)
        distortion = float(self.p @ (columns * self.cost[:, support]).sum(axis=1))
        return SlopePoint(slope, mutual_information(self.prior, columns), distortion,
                          blahut_intercept(self.p, self.cost, slope, q, kernel), q)


def rate_distortion_curve(prior: PriorLike, slopes: Sequence[float], cost: Any = None, *,
                          method: str = "newton") -> list[RateDistortionPoint]:
    """Certified points of the rate–distortion curve at the given slopes.

    ``method="newton"`` (default) minimizes Blahut's ``G_s(q) = −Σ_x P(x) log Z_x(q)`` over the output
    distribution by Newton's method on its support (:class:`SlopeSolver`), each slope from the previous
    one's output distribution (the first from a few Blahut–Arimoto steps); a slope it does not certify
    within :data:`MAX_NEWTON` steps is finished by Blahut–Arimoto from Newton's point.
    ``"blahut-arimoto"`` runs the multiplicative iteration alone, each slope warm-started from the previous
    output distribution. Both stop at the same certificate (``rate − lower_bound <= GAP_TOL``); Newton needs
    far fewer steps on skewed sources (m = 64, Zipf: 0.09 s against 1.3 s; benchmarks/mi_curve_dit.py).
    Slopes are solved in increasing order; the points are returned in the order given.

    Parameters
    ----------
    prior
        The source distribution ``P``.
    slopes
        Slopes ``s >= 0`` (nats per unit distortion); larger ``s`` gives smaller distortion.
    cost
        ``cost[x, y] = d(x, y)``; default Hamming on a square alphabet.
    method
        ``"newton"`` or ``"blahut-arimoto"`` (:data:`CURVE_METHODS`).

    Returns
    -------
    list of RateDistortionPoint
        One per slope; each has ``rate − lower_bound <= GAP_TOL`` unless ``MAX_ITERATIONS`` was hit;
        ``iterations`` counts its Newton steps and Blahut–Arimoto iterations.

    Examples
    --------
    >>> import math
    >>> point = rate_distortion_curve([0.25] * 4, [2.0])[0]  # uniform source, Hamming distortion
    >>> D = point.distortion
    >>> closed = math.log(4) + D * math.log(D) + (1 - D) * math.log(1 - D) - D * math.log(3)
    >>> abs(point.rate - closed) < 1e-9, point.gap <= GAP_TOL
    (True, True)
    >>> rate_distortion_curve([0.25] * 4, [2.0], method="simplex")
    Traceback (most recent call last):
    mechdesign.exceptions.MechDesignError: method must be one of 'newton', 'blahut-arimoto', got 'simplex'
    """
    p = as_prior(prior).probabilities
    matrix = cost_for_prior(p.size, cost)
    values = as_number_list(slopes, "slopes")
    if not isinstance(method, str) or method not in CURVE_METHODS:
        raise MechDesignError(f"method must be one of {', '.join(map(repr, CURVE_METHODS))}, got {method!r}")
    order = sorted(range(len(values)), key=values.__getitem__)
    points: dict[int, RateDistortionPoint] = {}
    if method == "blahut-arimoto":
        output = np.full(matrix.shape[1], 1.0 / matrix.shape[1])
        for index in order:
            points[index] = _blahut_arimoto(p, matrix, values[index], output)
            output = _warm_start(p, points[index])
        return [points[index] for index in range(len(values))]
    used = p > 0
    solver = SlopeSolver(p[used], matrix[used])
    start: np.ndarray | None = None
    for index in order:
        slope = values[index]
        kernel = shifted_kernel(solver.cost, slope)
        point = solver.solve(slope, solver.warm_start(slope) if start is None else start, GAP_TOL, kernel)
        start = point.output
        if point.intercept - slope * point.distortion < point.rate - GAP_TOL:  # not certified: finish by BA
            finished = _blahut_arimoto(p, matrix, slope, (1.0 - WARM_START_MIX) * point.output
                                       + WARM_START_MIX / matrix.shape[1])
            points[index] = replace(finished, iterations=finished.iterations + point.steps)
            continue
        channel = np.full(matrix.shape, 1.0 / matrix.shape[1])
        channel[used] = solver.channel(point, kernel)
        points[index] = RateDistortionPoint(slope, point.distortion, point.rate,
                                            max(point.intercept - slope * point.distortion, 0.0),
                                            Mechanism(channel), point.steps)
    return [points[index] for index in range(len(values))]


def _warm_start(p: np.ndarray, point: RateDistortionPoint) -> np.ndarray:
    """``point``'s output distribution with :data:`WARM_START_MIX` of the uniform one mixed in."""
    size = point.mechanism.n_outputs
    return (1.0 - WARM_START_MIX) * (p @ point.mechanism.matrix) + WARM_START_MIX / size


def _line_at(point: RateDistortionPoint, distortion: float) -> float:
    """Blahut's dual lower bound of ``point`` moved to ``distortion``: ``R(D) >= −s D + b`` holds for every ``D``."""
    return point.lower_bound + point.slope * (point.distortion - distortion)


def rate_distortion_at(
    prior: PriorLike, distortion: float, cost: Any = None, *, tolerance: float = 10 * GAP_TOL
) -> RateDistortionPoint:
    """``R(D)`` at a target distortion ``D``, with a mechanism reaching exactly ``D`` and a certified gap.

    The cost is first divided by its largest entry (its unit), so the answer does not depend on the
    unit it is given in. Bisection on the slope ``s`` then brackets ``D`` between two Blahut–Arimoto
    points ``D(s_hi) <= D <= D(s_lo)`` — ``s_hi`` doubled from 1 without a cap until it reaches ``D``, which
    it does by the slope at which every kernel entry off a row's cheapest outputs underflows to 0
    (:data:`KERNEL_UNDERFLOW`); the returned mechanism mixes their channels to distortion exactly ``D``
    (its rate is at most the mix of their rates: mutual information is convex in the channel), and the
    lower bound is the better of their two dual lines at ``D`` (each is a valid lower bound on the whole
    curve, Blahut 1972, Theorem 8). Bisection stops when ``rate − lower_bound <= tolerance``.

    Parameters
    ----------
    prior
        The source distribution ``P``.
    distortion
        The target ``D``; at least ``Σ_x P(x) min_y d(x, y)``, the least reachable distortion.
    cost
        ``cost[x, y] = d(x, y)``; default Hamming on a square alphabet.
    tolerance
        Certified gap (nats) at which the bisection stops.

    Returns
    -------
    RateDistortionPoint
        ``distortion`` equal to the target (within round-off), ``rate`` and ``lower_bound`` bracketing
        ``R(D)``; ``slope`` is the slope of the better dual line (nats per unit of the cost as given).
        For ``D >= min_y Σ_x P(x) d(x, y)`` the rate is 0 (a constant mechanism); at the least reachable
        distortion (within :data:`LEAST_DISTORTION_ATOL` of the largest cost) the point is the limit
        ``s → ∞`` (``slope`` is ``inf``): the least rate of a channel that keeps every input on its
        cheapest outputs.

    Raises
    ------
    MechDesignError
        When ``D`` is below the least reachable distortion (reported), or ``tolerance`` is not positive.

    Examples
    --------
    >>> point = rate_distortion_at([0.5, 0.5], 0.1)  # binary source, Hamming distortion
    >>> round(point.rate, 6), point.rate - point.lower_bound <= 1e-8  # log 2 − h(0.1), certified
    (0.368064, True)

    The same problem in thousandths of the unit has the same rate:

    >>> round(rate_distortion_at([0.5, 0.5], 1e-4, [[0, 1e-3], [1e-3, 0]]).rate, 6)
    0.368064
    """
    p = as_prior(prior).probabilities
    given = cost_for_prior(p.size, cost)
    target = as_finite(distortion, "distortion")
    gap = as_budget(tolerance, "tolerance")
    if gap <= 0:
        raise InvalidBudgetError(f"tolerance must be positive, got {tolerance!r}")
    largest = float(given.max())
    unit = largest if largest > 0 else 1.0  # the cost's own unit, as ExpectedDistortion.unit
    matrix, goal = given / unit, target / unit
    least = float(p @ matrix.min(axis=1))
    if goal < least - LEAST_DISTORTION_ATOL:
        raise MechDesignError(f"distortion {target:.12g} is below the least reachable distortion {least * unit:.12g}")
    constant_costs = p @ matrix
    uniform = np.full(matrix.shape[1], 1.0 / matrix.shape[1])
    if goal >= constant_costs.min():
        constant = np.zeros(matrix.shape[1])
        constant[int(np.argmin(constant_costs))] = 1.0
        point = RateDistortionPoint(0.0, 0.0, 0.0, 0.0, Mechanism(np.tile(constant, (p.size, 1))), 0)
    elif goal <= least + LEAST_DISTORTION_ATOL:
        point = _blahut_arimoto(p, matrix, math.inf, uniform)
    else:
        point = _bisect(p, matrix, goal, gap, uniform)
    reached = float(p @ (point.mechanism.matrix * given).sum(axis=1))
    return replace(point, slope=point.slope / unit, distortion=reached)


def _bisect(p: np.ndarray, matrix: np.ndarray, goal: float, gap: float, uniform: np.ndarray) -> RateDistortionPoint:
    """:func:`rate_distortion_at` strictly between the least and the zero-rate distortions, cost in its unit."""
    gaps = matrix - matrix.min(axis=1)[:, None]
    saturated = KERNEL_UNDERFLOW / float(gaps[gaps > 0].min())  # every larger slope has the same kernel
    low, high = _blahut_arimoto(p, matrix, 0.0, uniform), _blahut_arimoto(p, matrix, 1.0, uniform)
    while high.distortion > goal and high.slope < saturated:
        low, high = high, _blahut_arimoto(p, matrix, 2.0 * high.slope, _warm_start(p, high))
    if high.distortion > goal:  # only round-off at the least distortion could do this: refuse, never pretend
        raise MechDesignError(f"no slope up to {high.slope:.6g} reaches distortion {goal:.12g} (in units of the "
                              f"largest cost); the least found is {high.distortion:.12g}")
    iterations = low.iterations + high.iterations
    for _ in range(SLOPE_STEPS):
        point = _mixed(p, matrix, goal, low, high, iterations)
        if point.gap <= gap or high.slope - low.slope <= 1e-15 * high.slope:
            return point
        middle = _blahut_arimoto(p, matrix, 0.5 * (low.slope + high.slope), _warm_start(p, high))
        iterations += middle.iterations
        low, high = (middle, high) if middle.distortion > goal else (low, middle)
    return _mixed(p, matrix, goal, low, high, iterations)


def _mixed(p: np.ndarray, cost: np.ndarray, target: float, low: RateDistortionPoint, high: RateDistortionPoint,
           iterations: int) -> RateDistortionPoint:
    """The mix of ``low`` (distortion ≥ target) and ``high`` (≤ target) reaching ``target``, certified."""
    spread = low.distortion - high.distortion
    weight = 1.0 if spread <= 0 else min(1.0, max(0.0, (target - high.distortion) / spread))
    matrix = weight * low.mechanism.matrix + (1.0 - weight) * high.mechanism.matrix
    mechanism = Mechanism(matrix / matrix.sum(axis=1, keepdims=True))
    reached = float(p @ (mechanism.matrix * cost).sum(axis=1))
    best = max((low, high), key=lambda point: _line_at(point, target))
    lower = max(0.0, _line_at(best, target))
    return RateDistortionPoint(best.slope, reached, mutual_information(p, mechanism), lower, mechanism, iterations)



def shifted_kernel(cost: np.ndarray, slope: float) -> np.ndarray:
    """``e^{−s (d(x, y) − min_y d(x, y))}``: Blahut's kernel with each row scaled to a largest entry of 1.

    The scaling multiplies ``Z_x`` by ``e^{s min_y d(x, y)}`` and cancels in the channel and in ``c``.

    Examples
    --------
    At ``s = log 2`` each extra unit of cost above the row's least halves the entry:

    >>> shifted_kernel(np.array([[0.0, 1.0], [3.0, 3.0]]), math.log(2)).tolist()
    [[1.0, 0.5], [1.0, 1.0]]

    At ``s = inf`` (the least distortion) only each row's cheapest outputs remain:

    >>> shifted_kernel(np.array([[0.0, 1.0], [3.0, 3.0]]), math.inf).tolist()
    [[1.0, 0.0], [1.0, 1.0]]
    """
    gaps = cost - cost.min(axis=1)[:, None]
    if math.isinf(slope):
        return (gaps == 0).astype(float)
    with np.errstate(under="ignore"):
        return np.exp(-slope * gaps)


def blahut_intercept(p: np.ndarray, cost: np.ndarray, slope: float, output: np.ndarray,
                     kernel: np.ndarray | None = None) -> float:
    """The intercept ``b`` of Blahut's dual line ``R(D) >= b − s D``, valid for every ``D`` (Blahut 1972, Theorem 8).

    For any output distribution ``q`` (``output``), with ``Z_x = Σ_y q_y e^{−s d(x, y)}`` and
    ``c_y = Σ_x P(x) e^{−s d(x, y)} / Z_x``: ``b = −Σ_x P(x) log Z_x − log max_y c_y`` (``-inf`` when some
    ``Z_x`` of an input of positive probability vanishes). ``kernel`` is :func:`shifted_kernel` when
    already computed.

    Examples
    --------
    >>> import numpy as np
    >>> # binary uniform source, Hamming cost, at the optimal q = (1/2, 1/2): b = log 2 + log(1 + e^{−s}) … exact
    >>> b = blahut_intercept(np.array([0.5, 0.5]), 1 - np.eye(2), 2.0, np.array([0.5, 0.5]))
    >>> round(b, 12) == round(math.log(2) - math.log(1 + math.exp(-2.0)) + 0.0, 12)
    True
    """
    kernel = shifted_kernel(cost, slope) if kernel is None else kernel
    used = p > 0
    with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
        normalizer = kernel[used] @ output
        ratios = (p[used] / normalizer) @ kernel[used]
        intercept = (-float(p[used] @ np.log(normalizer)) - math.log(float(ratios.max()))
                     + slope * float(p @ cost.min(axis=1)))
    return intercept if not math.isnan(intercept) else -math.inf


def distortion_rate_lower_bound(prior: PriorLike, cost: Any, rate: float, output: Any) -> tuple[float, float]:
    """A lower bound on ``D(R) = min { E[d] : I(X; Y) <= R }`` from Blahut's dual at any output distribution.

    For every slope ``s > 0`` and output distribution ``q`` (Blahut 1972, Theorem 8), with
    ``Z_x = Σ_y q_y e^{−s d(x, y)}`` and ``c_y = Σ_x P(x) e^{−s d(x, y)} / Z_x``, every channel satisfies
    ``R(D) >= b − s D`` with ``b = −Σ_x P(x) log Z_x − log max_y c_y``; so ``D(R) >= (b − R) / s``.
    The slope is chosen by a bounded 1-D search on ``log s``; the bound holds whatever ``q`` is (a
    solver's output distribution makes it tight).

    Parameters
    ----------
    prior
        The source distribution ``P``.
    cost
        ``cost[x, y] = d(x, y)``.
    rate
        The rate budget ``R >= 0`` (nats).
    output
        An output distribution ``q`` (e.g. ``P Q`` of a near-optimal channel).

    Returns
    -------
    (bound, slope)
        At ``R = 0`` the bound is exact, ``min_y Σ_x P(x) d(x, y)``, with slope 0.

    Examples
    --------
    >>> import numpy as np
    >>> bound, _ = distortion_rate_lower_bound([0.25] * 4, 1 - np.eye(4), 0.0, [1.0, 0, 0, 0])
    >>> round(bound, 9)  # at rate 0 every channel is constant: D = 3/4
    0.75
    """
    p = as_prior(prior).probabilities
    matrix = cost_for_prior(p.size, cost)
    budget = as_budget(rate, "rate")
    if budget == 0:  # I(X; Y) = 0: Y independent of X, so E[d] = Σ_y P_Y(y) (P·d)(y) >= min_y (P·d)(y)
        return float((p @ matrix).min()), 0.0
    q = np.asarray(output, dtype=float)
    floor = matrix.min(axis=1)
    least = float(p @ floor)

    def bound(log_slope: float) -> float:
        slope = math.exp(log_slope)
        value = (blahut_intercept(p, matrix, slope, q) - budget) / slope
        return value if math.isfinite(value) else -math.inf

    from scipy.optimize import minimize_scalar

    search = minimize_scalar(lambda t: -bound(t), bounds=(math.log(1e-6), math.log(MAX_SLOPE)), method="bounded",
                             options={"xatol": 1e-10})
    slope = math.exp(float(search.x))
    first = bound(float(search.x))
    # A few Blahut–Arimoto steps at that slope move q towards the optimal output distribution (the
    # bound holds for any q, so this only tightens it).
    kernel = np.exp(-slope * (matrix - floor[:, None]))
    for _ in range(BOUND_POLISH_STEPS):
        q = q * ((p / (kernel @ q)) @ kernel)
    search = minimize_scalar(lambda t: -bound(t), bounds=(math.log(1e-6), math.log(MAX_SLOPE)), method="bounded",
                             options={"xatol": 1e-10})
    best = max(first, bound(float(search.x)), least)
    return best, math.exp(float(search.x))
