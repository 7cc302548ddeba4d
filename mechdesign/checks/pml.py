"""PML closed forms (Grosse, Saeidian, Oechtering & Skoglund, "Privacy Mechanism Design based on
Empirical Distributions") against exact computations and the optimizer.

* Thm. 2 (Weissman et al.): the deviation bound against the exact multinomial probability;
* Thm. 3, Thm. 4 eq. (6), Cor. 2: the sensitivity and capacity bounds against the exact sensitivity
  and capacity (vertex enumeration of the ball) of the optimal ε-PML mechanism from :func:`~mechdesign.design`,
  and Thm. 4's equality cases (Examples 1 and 2);
* Prop. 2 eq. (13): a mechanism designed at ε' for the estimate is ε-PML over the whole ball;
* Thm. 5: the binary mechanism's leakage over the ball is exactly ε.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

import numpy as np

from .._lazy import scipy_stats as stats
from .. import design
from ..mechanisms import binary_robust_pml_mechanism, k_singular_mechanism
from ..priors import L1Ball, Prior
from ..privacy import PointwiseMaximalLeakage
from ..privacy.pml_analysis import epsilon_min, leakage_capacity, leakage_sensitivity
from ..theory import pml
from ..utility import ExpectedDistortion
from .rows import CheckRow, compare, upper_bound

#: Exact values (vertex enumeration, enumeration of count vectors) agree with closed forms to round-off.
EXACT_ATOL = 1e-9
#: Distance of the budgets on both sides of the end of privacy region 1 (nats).
SIDE = 1e-3
#: Example 1 of the paper: a prior and an extremal mechanism in privacy region 1 at ε = log(9/8).
EXAMPLE1_PRIOR = (0.4, 0.2, 0.2, 0.2)
EXAMPLE1_MECHANISM = ((0.325, 0.225, 0.225, 0.225), (0.45, 0.1, 0.225, 0.225),
                      (0.45, 0.225, 0.1, 0.225), (0.45, 0.225, 0.225, 0.1))


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
        phi = pml.thm2_weissman_phi(pml.thm2_weissman_kappa(prior))
        for beta in betas:
            rows.append(compare("PML Thm. 2 (Weissman) deviation bound", {"P": str(tuple(prior)), "m": m, "β": beta},
                                "probability", upper_bound(pml.thm2_deviation_bound(beta, m, len(prior), phi)),
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
                                upper_bound(pml.thm4_sensitivity_bound(p, least, beta)), leakage_sensitivity(Q, p, ball), EXACT_ATOL))
            capacity = leakage_capacity(Q, ball)
            rows.append(compare("PML Cor. 2 capacity bound", setting, "nats",
                                upper_bound(pml.cor2_leakage_bound(least, beta)), capacity, EXACT_ATOL))
            other = ball.extreme_points()[0]
            rows.append(compare("PML Thm. 3 Lipschitz bound", setting, "nats",
                                upper_bound(pml.thm3_lipschitz_bound(capacity, float(np.abs(other - p).sum()))),
                                abs(epsilon_min(Q, other) - least), EXACT_ATOL))
    return rows


def _thm4_equality(betas: Sequence[float]) -> list[CheckRow]:
    """Thm. 4's equality cases: Example 1 (region 1, extremal) and Example 2 (N = 10, 2-singular, ε = ε_min = log 5)."""
    rows = []
    for beta in betas:
        rows.append(compare("PML Thm. 4 eq. (6), equality (Example 1)", {"β": beta}, "nats",
                            pml.thm4_sensitivity_bound(EXAMPLE1_PRIOR, math.log(9 / 8), beta),
                            leakage_sensitivity(np.array(EXAMPLE1_MECHANISM), EXAMPLE1_PRIOR, L1Ball(EXAMPLE1_PRIOR, beta)),
                            EXACT_ATOL))
        small = beta / 2  # within 2 p_min = 0.2 of Example 2's uniform prior on 10 symbols
        uniform = np.full(10, 0.1)
        rows.append(compare("PML Thm. 4 eq. (6), equality (Example 2)", {"β": small}, "nats",
                            pml.thm4_sensitivity_bound(uniform, math.log(5), small),
                            leakage_sensitivity(k_singular_mechanism(10, 2), uniform, L1Ball(uniform, small)), EXACT_ATOL))
    return rows


def _eq13(priors: Sequence[Sequence[float]], betas: Sequence[float], budget: float) -> list[CheckRow]:
    """Prop. 2 eq. (13): designed at ε' for P̂, the mechanism's capacity over ``B_β(P̂)`` is at most ε."""
    rows = []
    for prior in priors:
        for beta in betas:
            modified = pml.eq13_modified_epsilon(budget, beta)
            result = design(PointwiseMaximalLeakage(Prior(prior)), modified, ExpectedDistortion(Prior(prior)))
            numeric = leakage_capacity(result.mechanism, L1Ball(prior, beta)) if result.success else math.nan
            rows.append(compare("PML Prop. 2 eq. (13) robust design", {"P": str(tuple(prior)), "β": beta, "ε": budget},
                                "nats", upper_bound(budget), numeric))
    return rows


def _thm5(estimates: Sequence[float], beta: float) -> list[CheckRow]:
    """Thm. 5: the binary mechanism is ε-PML over the ball with equality (both constraints tight)."""
    rows = []
    for p1 in estimates:
        for fraction in (0.3, 0.7, 1.0):
            budget = fraction * -math.log(p1 - beta / 2)
            Q = binary_robust_pml_mechanism((p1, 1 - p1), beta, budget)
            rows.append(compare("PML Thm. 5 binary mechanism, capacity over the ball", {"p1": p1, "β": beta, "ε": budget},
                                "nats", budget, leakage_capacity(Q, L1Ball((p1, 1 - p1), beta)), EXACT_ATOL))
    return rows


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
    rows += _eq13(priors if full else priors[:1], (0.05, 0.2), 1.0)
    rows += _thm5((0.55, 0.7, 0.9) if full else (0.7,), 0.1)
    return rows
