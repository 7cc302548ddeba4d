"""PML closed forms (Grosse, Saeidian, Oechtering & Skoglund, "Privacy Mechanism Design based on
Empirical Distributions") against exact computations and the optimizer.

* Thm. 2 (Weissman et al.): the deviation bound against the exact multinomial probability;
* Prop. 1 (convexity of ε_min in the prior) and Cor. 1 (extreme points suffice) on random mechanisms;
* Thm. 3, Thm. 4 eq. (6), Cor. 2: the sensitivity and capacity bounds against the exact sensitivity
  and capacity (vertex enumeration of the ball) of the optimal ε-PML mechanism from :func:`~mechdesign.design`,
  and Thm. 4's equality cases (Examples 1 and 2);
* Prop. 2: the polytope (10)–(12) with eq. (13) is exactly the set of mechanisms ε-PML over the ball
  (both inclusions), and ``M(ε', P̂) ⊆ M(ε, B_β(P̂))`` with equality for mechanisms with a zero in every column;
* Thm. 5: the binary mechanism's leakage over the ball is exactly ε, and it is optimal (mutual information
  and MAP accuracy against every vertex of the feasible polygon);
* Cor. 3: the probability that the optimal design for an estimate fails ε'-PML for the true prior,
  exactly (every sample count);
* Prop. 3: the binary Laplace mechanism's PML against its pointwise leakage on a grid of outputs.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence

import numpy as np

from .._lazy import scipy_stats as stats
from ..solve import design
from ..mechanisms import additive, k_singular_mechanism
from ..mechanisms import pml as pml_mechanisms
from ..priors import L1Ball, Prior
from ..privacy import PointwiseMaximalLeakage
from ..privacy.pml_analysis import epsilon_min, leakage_capacity, leakage_sensitivity
from ..theory import pml
from ..utility import ExpectedDistortion
from .rows import CheckRow, compare, lower_bound, upper_bound

#: Exact values (vertex enumeration, enumeration of count vectors) agree with closed forms to round-off.
EXACT_ATOL = 1e-9
#: Distance of the budgets on both sides of the end of privacy region 1 (nats).
SIDE = 1e-3
#: Example 1 of the paper: a prior and an extremal mechanism in privacy region 1 at ε = log(9/8).
EXAMPLE1_PRIOR = (0.4, 0.2, 0.2, 0.2)
EXAMPLE1_MECHANISM = ((0.325, 0.225, 0.225, 0.225), (0.45, 0.1, 0.225, 0.225),
                      (0.45, 0.225, 0.1, 0.225), (0.45, 0.225, 0.225, 0.1))
#: Seed of the random mechanisms of the Prop. 2 check.
SEED = 11


def exact_deviation_probability(prior: Sequence[float], m: int, beta: float) -> float:
    """``P{‖P − P̂‖₁ >= β}`` for the empirical estimate of ``m`` samples, by enumerating count vectors.

    Examples
    --------
    >>> round(exact_deviation_probability((0.5, 0.5), 2, 0.5), 6)
    0.5
    """
    p = np.asarray(prior, dtype=float)
    total = 0.0
    for counts in itertools.product(range(m + 1), repeat=p.size - 1):
        last = m - sum(counts)
        if last >= 0:
            full = np.array([*counts, last])
            if np.abs(full / m - p).sum() >= beta - 1e-12:
                total += float(stats.multinomial.pmf(full, m, p))
    return total


def _thm2(priors: Sequence[tuple[Sequence[float], int]], betas: Sequence[float]) -> list[CheckRow]:
    rows = []
    for prior, m in priors:
        for beta in betas:
            rows.append(compare("PML Thm. 2 (Weissman) deviation bound", {"P": str(tuple(prior)), "m": m, "β": beta},
                                "probability",
                                lambda prior=prior, m=m, beta=beta: upper_bound(pml.thm2_deviation_bound(
                                    beta, m, len(prior), pml.thm2_weissman_phi(pml.thm2_weissman_kappa(prior)))),
                                exact_deviation_probability(prior, m, beta), EXACT_ATOL))
    return rows


def _sensitivity_bounds(priors: Sequence[Sequence[float]], fractions: Sequence[float]) -> list[CheckRow]:
    """Thm. 3, Thm. 4 eq. (6) and Cor. 2 on the optimal ε-PML mechanism (expected Hamming distortion), at
    budgets ``fractions × ε_max`` and at the end ``−log(1 − p_min)`` of privacy region 1 and both sides of it."""
    rows = []
    for prior in priors:
        p = np.asarray(prior, dtype=float)
        region_one = -math.log(1 - p.min())  # Thm. 4 changes form at the end of privacy region 1
        budgets = sorted({f * -math.log(p.min()) for f in fractions} | {region_one - SIDE, region_one, region_one + SIDE})
        for budget in budgets:
            result = design(PointwiseMaximalLeakage(Prior(p)), budget, ExpectedDistortion(Prior(p)))
            if not result.success:
                rows.append(compare("PML Thm. 4 eq. (6) sensitivity bound", {"P": str(tuple(prior)), "ε": budget},
                                    "nats", upper_bound(math.inf), math.nan))
                continue
            Q = result.mechanism.matrix
            least = epsilon_min(Q, p)
            beta = 0.5 * 2 * p.min()
            ball = L1Ball(p, beta)
            setting = {"P": str(tuple(prior)), "β": beta, "ε": budget}
            rows.append(compare("PML Thm. 4 eq. (6) sensitivity bound", setting, "nats",
                                lambda p=p, least=least, beta=beta: upper_bound(pml.thm4_sensitivity_bound(p, least, beta)),
                                leakage_sensitivity(Q, p, ball), EXACT_ATOL))
            capacity = leakage_capacity(Q, ball)
            rows.append(compare("PML Cor. 2 capacity bound", setting, "nats",
                                lambda least=least, beta=beta: upper_bound(pml.cor2_leakage_bound(least, beta)), capacity,
                                EXACT_ATOL))
            other = ball.extreme_points()[0]
            distance = float(np.abs(other - p).sum())
            rows.append(compare("PML Thm. 3 Lipschitz bound", setting, "nats",
                                lambda capacity=capacity, distance=distance: upper_bound(pml.thm3_lipschitz_bound(capacity, distance)),
                                abs(epsilon_min(Q, other) - least), EXACT_ATOL))
    return rows


def _thm4_equality(betas: Sequence[float]) -> list[CheckRow]:
    """Thm. 4's equality cases: Example 1 (region 1, extremal) and Example 2 (N = 10, 2-singular, ε = ε_min = log 5)."""
    rows = []
    uniform = np.full(10, 0.1)
    for beta in betas:
        rows.append(compare("PML Thm. 4 eq. (6), equality (Example 1)", {"β": beta}, "nats",
                            lambda beta=beta: pml.thm4_sensitivity_bound(EXAMPLE1_PRIOR, math.log(9 / 8), beta),
                            leakage_sensitivity(np.array(EXAMPLE1_MECHANISM), EXAMPLE1_PRIOR, L1Ball(EXAMPLE1_PRIOR, beta)),
                            EXACT_ATOL))
        small = beta / 2  # within 2 p_min = 0.2 of Example 2's uniform prior on 10 symbols
        rows.append(compare("PML Thm. 4 eq. (6), equality (Example 2)", {"β": small}, "nats",
                            lambda small=small: pml.thm4_sensitivity_bound(uniform, math.log(5), small),
                            leakage_sensitivity(k_singular_mechanism(10, 2), uniform, L1Ball(uniform, small)), EXACT_ATOL))
    return rows


def polytope_budget(matrix: np.ndarray, estimate: Sequence[float], beta: float) -> float:
    """The least ε' with which ``matrix`` meets constraint (10) of Proposition 2,
    ``p_ij <= e^{ε'} (Σ_i P̂(x_i) p_ij + (β/2) p_i'j)`` for all ``i, i', j`` (read straight off (10): the
    largest ratio ``max_i p_ij / (P̂·p_j + (β/2) min_i p_ij)`` over the used outputs).

    Examples
    --------
    >>> round(polytope_budget(np.array([[0.75, 0.25], [0.25, 0.75]]), (0.5, 0.5), 0.2), 6)  # log(0.75/0.525)
    0.356675
    """
    masses = np.asarray(estimate, dtype=float) @ matrix + beta / 2 * matrix.min(axis=0)
    used = matrix.max(axis=0) > 0
    return float(np.log(matrix.max(axis=0)[used] / masses[used]).max())


def _prop2(priors: Sequence[Sequence[float]], fractions: Sequence[float], trials: int) -> list[CheckRow]:
    """Prop. 2: the polytope (10)–(12) with ε' of eq. (13) is exactly ``M(ε, B_β(P̂))`` (both inclusions),
    i.e. the least ε' of (10) is eq. (13) at the exact capacity over the ball; and ``M(ε', P̂) ⊆ M(ε, B_β(P̂))``,
    with equality for mechanisms with a zero in every column (the remark after Prop. 2). On the optimal
    ε-PML designs for ``P̂`` at three budgets and on seeded random mechanisms, at radii ``β = fraction × 2 min P̂``
    (Prop. 2's hypothesis ``β < 2 min P̂``)."""
    rng = np.random.default_rng(SEED)
    rows = []
    for prior in priors:
        p = np.asarray(prior, dtype=float)
        designs = [design(PointwiseMaximalLeakage(Prior(p)), f * -math.log(p.min()), ExpectedDistortion(Prior(p)))
                   for f in (0.2, 0.5, 0.8)]
        candidates = [("design", r.mechanism.matrix) for r in designs if r.success]
        candidates += [("random", rng.dirichlet(np.ones(p.size), size=p.size)) for _ in range(trials)]
        for beta in (f * 2 * p.min() for f in fractions):
            ball = L1Ball(p, beta)
            for index, (kind, Q) in enumerate(candidates):
                capacity = leakage_capacity(Q, ball)
                setting = {"P": str(tuple(prior)), "Q": f"{kind} {index}", "β": beta}
                rows.append(compare("PML Prop. 2 (10)–(12) = M(ε, B_β) (both inclusions)", setting, "nats",
                                    lambda capacity=capacity, beta=beta: pml.eq13_modified_epsilon(capacity, beta),
                                    polytope_budget(Q, p, beta), EXACT_ATOL))
                singular = bool((Q.min(axis=0) <= 0).all())
                rows.append(compare("PML Prop. 2 M(ε', P̂) ⊆ M(ε, B_β)" + (" (=: a zero in every column)" if singular else ""),
                                    setting, "nats",
                                    lambda capacity=capacity, beta=beta, singular=singular: (
                                        pml.eq13_modified_epsilon(capacity, beta) if singular
                                        else lower_bound(pml.eq13_modified_epsilon(capacity, beta))),
                                    epsilon_min(Q, p), EXACT_ATOL))
    return rows


def ball_vertices_optimum(estimate: Sequence[float], beta: float, budget: float,
                          utility: Callable[[np.ndarray], float]) -> float:
    """``max U(Q)`` over the binary mechanisms that are ε-PML for every prior of ``B_β(P̂)``: the feasible
    set is a polygon in ``(a, b) = (Q[0, 0], Q[1, 0])`` (a convex ``U`` is largest at a vertex), whose
    vertices are enumerated from every pair of its constraint lines — the box, and
    ``Q[x, y] <= e^ε P·Q[:, y]`` at both extreme priors of the ball.

    Examples
    --------
    At ε = 0 only constant mechanisms are private (any utility that is 0 there gives 0).

    >>> round(ball_vertices_optimum((0.6, 0.4), 0.1, 0.0, lambda Q: float(np.abs(Q[0] - Q[1]).sum())), 9)
    0.0
    """
    half, boost = beta / 2, math.exp(budget)
    lines = [(1.0, 0.0, 1.0), (-1.0, 0.0, 0.0), (0.0, 1.0, 1.0), (0.0, -1.0, 0.0)]  # c_a a + c_b b <= r
    for q in (estimate[0] - half, estimate[0] + half):  # the prior's first mass at the ball's ends
        weights = np.array([q, 1 - q])
        for x in (0, 1):
            # column 0: Q[x, 0] <= e^ε (q a + (1 − q) b); column 1 the same on 1 − a, 1 − b
            own = np.eye(2)[x]
            lines.append(tuple((own - boost * weights).tolist()) + (0.0,))
            lines.append(tuple((-own + boost * weights).tolist()) + (boost - 1.0,))
    coefficients = np.array([line[:2] for line in lines])
    limits = np.array([line[2] for line in lines])
    best = -math.inf
    for i, j in itertools.combinations(range(len(lines)), 2):
        system = coefficients[[i, j]]
        if abs(np.linalg.det(system)) < 1e-14:
            continue
        point = np.linalg.solve(system, limits[[i, j]])
        if np.all(coefficients @ point <= limits + 1e-12):
            a, b = np.clip(point, 0.0, 1.0)
            best = max(best, utility(np.array([[a, 1 - a], [b, 1 - b]])))
    return best


def _mutual_information(prior: np.ndarray) -> Callable[[np.ndarray], float]:
    def information(Q: np.ndarray) -> float:
        joint = prior[:, None] * Q
        outputs = joint.sum(axis=0)
        mask = joint > 0
        return float((joint[mask] * np.log(joint[mask] / (prior[:, None] * outputs[None, :])[mask])).sum())
    return information


def _thm5(estimates: Sequence[float], beta: float) -> list[CheckRow]:
    """Thm. 5: the binary mechanism is ε-PML over the ball with equality, and it maximizes the sub-convex
    utilities mutual information and MAP accuracy ``Σ_y max_x P̂(x) Q[x, y]`` over every mechanism that is
    ε-PML over the ball (the polygon's vertices, :func:`ball_vertices_optimum`)."""
    rows = []
    for p1 in estimates:
        estimate = np.array([p1, 1 - p1])
        utilities = {"mutual information": _mutual_information(estimate),
                     "MAP accuracy": lambda Q, e=estimate: float((e[:, None] * Q).max(axis=0).sum())}
        for fraction in (0.3, 0.7, 1.0):
            budget = fraction * -math.log(p1 - beta / 2)
            setting = {"p1": p1, "β": beta, "ε": budget}

            def mechanism(p1: float = p1, budget: float = budget) -> np.ndarray:
                return np.asarray(pml_mechanisms.binary_robust_pml_mechanism((p1, 1 - p1), beta, budget))

            rows.append(compare("PML Thm. 5 binary mechanism, capacity over the ball = ε", setting, "nats",
                                lambda mechanism=mechanism, p1=p1: leakage_capacity(mechanism(), L1Ball((p1, 1 - p1), beta)),
                                budget, EXACT_ATOL))
            for name, utility in utilities.items():
                rows.append(compare(f"PML Thm. 5 binary mechanism is optimal ({name})", setting, name,
                                    lambda mechanism=mechanism, utility=utility: utility(mechanism()),
                                    ball_vertices_optimum(estimate, beta, budget, utility), EXACT_ATOL))
    return rows


def failure_probability(prior: Sequence[float], n_samples: int, budget: float, target: float) -> float:
    """``P{the optimal ε-PML design for the estimate is not ε'-PML for the true binary prior}``, exactly:
    every count of the first symbol, weighted by its binomial probability. An estimate with a zero count
    (no ε-PML mechanism for it is defined by the design) counts as a failure, so the value is an upper
    estimate of the failure probability of these designs.

    Examples
    --------
    >>> failure_probability((0.5, 0.5), 4, 1.0, 50.0)  # only the two all-equal samples (2/16) count
    0.125
    """
    p = np.asarray(prior, dtype=float)
    total = 0.0
    for count in range(n_samples + 1):
        weight = float(stats.binom.pmf(count, n_samples, p[0]))
        if 0 < count < n_samples:
            estimate = Prior([count / n_samples, 1 - count / n_samples])
            result = design(PointwiseMaximalLeakage(estimate), budget, ExpectedDistortion(estimate))
            if result.success and epsilon_min(result.mechanism.matrix, p) <= target:
                continue
        total += weight
    return total


def _cor3(cases: Sequence[tuple[Sequence[float], int, float, float]]) -> list[CheckRow]:
    """Cor. 3 (with Thm. 2's φ = 2): a mechanism ε-PML for the estimate from ``m`` samples fails ε'-PML
    for the true prior with probability at most ``(2^N − 2) exp(−2m(e^{−ε} − e^{−ε'})²)``; checked on the
    optimal designs for every possible estimate (:func:`failure_probability`)."""
    return [compare("PML Cor. 3 failure probability", {"P": str(tuple(prior)), "m": m, "ε": budget, "ε'": target},
                    "probability", lambda budget=budget, target=target, m=m: upper_bound(pml.cor3_delta_min_bound(budget, target, m, 2)),
                    failure_probability(prior, m, budget, target), EXACT_ATOL)
            for prior, m, budget, target in cases]


def _convexity(trials: int) -> list[CheckRow]:
    """Prop. 1 (``ε_min(Q, ·)`` is convex on the interior of the simplex: at a mixture of two priors it is at
    most the mixture of the values) and Cor. 1 (the worst prior of a polytope is an extreme point: no
    prior of the hull leaks more than the extreme points), on seeded random mechanisms and priors."""
    rng = np.random.default_rng(SEED + 1)
    rows = []
    for trial in range(trials):
        n = int(rng.integers(2, 5))
        Q = rng.dirichlet(np.ones(n), size=n)
        first, second = rng.dirichlet(np.ones(n), size=2)
        t = float(rng.uniform(0.1, 0.9))
        a, b = epsilon_min(Q, first), epsilon_min(Q, second)
        setting = {"n": n, "trial": trial}
        rows.append(compare("PML Prop. 1 ε_min is convex in the prior", setting, "nats",
                            lambda a=a, b=b, t=t: upper_bound(t * a + (1 - t) * b),
                            epsilon_min(Q, t * first + (1 - t) * second), EXACT_ATOL))
        points = rng.dirichlet(np.ones(n), size=3)
        extreme = max(epsilon_min(Q, point) for point in points)
        mixtures = rng.dirichlet(np.ones(3), size=200) @ points
        rows.append(compare("PML Cor. 1 the extreme points give the worst prior of a polytope", setting, "nats",
                            lambda extreme=extreme: extreme,
                            max(extreme, max(epsilon_min(Q, prior) for prior in mixtures)), EXACT_ATOL))
    return rows


def laplace_leakage(outputs: np.ndarray, scale: float, prior: Sequence[float]) -> np.ndarray:
    """``ℓ(X → y) = log max_x f(y|x) / Σ_x P(x) f(y|x)`` of ``Y = X + Laplace(b)``, ``X ∈ {−1, +1}``, from
    the densities.

    Examples
    --------
    >>> laplace_leakage(np.array([5.0]), 1.0, (0.5, 0.5)).round(6)  # 2 − log((e² + 1)/2)
    array([0.566219])
    """
    densities = np.exp(-np.abs(outputs[None, :] - np.array([-1.0, 1.0])[:, None]) / scale) / (2 * scale)
    return np.log(densities.max(axis=0) / (np.asarray(prior, dtype=float) @ densities))


def _prop3(priors: Sequence[Sequence[float]], scales: Sequence[float]) -> list[CheckRow]:
    """Prop. 3: the binary Laplace mechanism's PML is ``2/b − log(e^{2/b} p_min + 1 − p_min)``, against the
    largest pointwise leakage on a grid of outputs (which holds ``|y| >= 1``, where it is attained)."""
    outputs = np.linspace(-4.0, 4.0, 801)
    return [compare("PML Prop. 3 Laplace mechanism PML", {"P": str(tuple(prior)), "b": b}, "nats",
                    lambda prior=prior, b=b: additive.laplace_pml(b, prior),
                    float(laplace_leakage(outputs, b, prior).max()), EXACT_ATOL)
            for prior in priors for b in scales]


def check_pml(full: bool = False) -> list[CheckRow]:
    """PML closed forms against exact computations and the optimizer (fast grid, or ``full``).

    Examples
    --------
    >>> rows = check_pml()  # doctest: +SKIP
    >>> all(row.ok for row in rows)  # doctest: +SKIP
    True
    """
    priors = [(0.5, 0.3, 0.2), (0.6, 0.3, 0.1), (0.4, 0.2, 0.2, 0.2)]
    deviation = [((0.5, 0.5), 40), ((0.6, 0.3, 0.1), 25)] + ([((0.8, 0.2), 60), ((0.4, 0.3, 0.2, 0.1), 12)] if full else [])
    fractions = (0.2, 0.5, 0.9) if full else (0.3, 0.8)
    betas = (0.01, 0.1, 0.2, 0.3, 0.399) if full else (0.1, 0.3)
    rows = _thm2(deviation, (0.1, 0.3, 0.5, 0.8))
    rows += _sensitivity_bounds(priors if full else priors[:2], fractions)
    rows += _thm4_equality(betas)
    rows += _prop2(priors if full else priors[:1], (0.1, 0.5, 0.9) if full else (0.25, 0.75), 4 if full else 2)
    rows += _thm5((0.55, 0.7, 0.9) if full else (0.7,), 0.1)
    rows += _cor3([((0.5, 0.5), 30, 1.0, 1.5), ((0.7, 0.3), 40, 0.5, 0.8)] + ([((0.6, 0.4), 60, 1.0, 1.2)] if full else []))
    rows += _prop3([(0.5, 0.5), (0.8, 0.2)], (0.5, 1.0, 3.0) if full else (1.0,))
    rows += _convexity(20 if full else 5)
    return rows
