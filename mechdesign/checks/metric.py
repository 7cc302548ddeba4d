"""Ghosh, Roughgarden & Sundararajan, "Universally utility-maximizing privacy mechanisms" (STOC 2009),
Theorem 1 in the metric-DP form: on the line metric ``{0, …, n − 1}`` the truncated geometric mechanism at
ε, followed by the optimal Bayesian remap, is optimal under ε-d-privacy for every prior and every loss
monotone in ``|x − y|``.

Each row compares that mechanism's expected loss (the closed form) with the certified optimum of
:func:`~mechdesign.methods.metric.design_metric_dp` with the loss as cost.

A second family checks the discretized planar Laplace mechanism (Andrés et al., "Geo-indistinguishability",
CCS 2013) where its cell mass has a closed form: two locations ``h``·2 apart, whose cells are half-planes, so
the mass across is the tail of the law's first coordinate, whose density is ``(ε² / π) |u| K₁(ε|u|)``:
``(1 / π) ∫_{εh}^∞ t K₁(t) dt`` (:func:`two_location_mass`), against
:func:`~mechdesign.mechanisms.location.planar_laplace`'s polar integration.
"""

from __future__ import annotations

import numpy as np

from .._lazy import LazyFunction
from ..methods.metric import design_metric_dp
from ..mechanisms.location import optimal_remap, planar_laplace, truncated_geometric
from ..priors import Prior
from ..privacy.metric import MetricDifferentialPrivacy
from ..utility.distortion import ExpectedDistortion
from .rows import CheckRow, compare

#: The losses of the rows, monotone in ``|x − y|``.
LOSSES = {"|x-y|": lambda gap: gap, "(x-y)^2": lambda gap: gap ** 2, "1[x!=y]": lambda gap: (gap > 0) * 1.0,
          "1[|x-y|>1]": lambda gap: (gap > 1) * 1.0}
#: Sizes and budgets (ε per unit) of the fast grid and of the full one.
FAST_GRID = ((4, 6), (0.3, 1.0))
FULL_GRID = ((3, 4, 6, 9), (0.1, 0.3, 1.0, 2.0))
#: Seed of the random priors.
SEED = 35
#: Agreement of the closed form with the certified optimum (the design's GAP_RTOL is 1e-7).
EXACT_ATOL = 1e-7
#: Budgets (per unit) and spacings of the planar Laplace rows, fast grid and full one.
LAPLACE_FAST = ((0.3, 1.0, 3.0), (1.0,))
LAPLACE_FULL = ((0.05, 0.3, 1.0, 3.0, 8.0), (0.5, 1.0, 2.0))
#: Agreement of the planar Laplace cell mass with its closed form (both integrate to ~1e-15 relative).
LAPLACE_ATOL = 1e-12

quad = LazyFunction("scipy.integrate", "quad")
bessel_k = LazyFunction("scipy.special", "kv")


def two_location_mass(epsilon: float, spacing: float) -> float:
    """The planar Laplace law's mass beyond the bisector of two locations ``spacing`` apart:
    ``(1 / π) ∫_{ε spacing / 2}^∞ t K₁(t) dt``.

    Examples
    --------
    At ε = 0 nothing separates the locations: half the mass is on each side.

    >>> round(two_location_mass(1e-12, 1.0), 9)
    0.5
    """
    integral, _ = quad(lambda t: t * bessel_k(1, t), epsilon * spacing / 2, np.inf, epsabs=0, epsrel=1e-13)
    return float(integral / np.pi)


def geometric_loss(n: int, epsilon: float, prior: np.ndarray, loss: np.ndarray) -> float:
    """The expected loss of the truncated geometric mechanism followed by the optimal remap.

    Examples
    --------
    One input: no loss.

    >>> geometric_loss(1, 1.0, np.ones(1), np.zeros((1, 1)))
    0.0
    """
    remapped = optimal_remap(truncated_geometric(n, epsilon), prior, loss).matrix
    return float((prior[:, None] * remapped * loss).sum())


def check_metric(full: bool = False) -> list[CheckRow]:
    """The rows of the theorem over sizes, budgets, priors (uniform and Dirichlet) and :data:`LOSSES`, then the
    planar Laplace rows.

    Examples
    --------
    >>> rows = check_metric()
    >>> len(rows), {row.verdict for row in rows}
    (35, {'match'})
    """
    sizes, budgets = FULL_GRID if full else FAST_GRID
    rng = np.random.default_rng(SEED)
    rows = []
    for n in sizes:
        notion = MetricDifferentialPrivacy.from_points(np.arange(n, dtype=float))
        gaps = np.abs(np.arange(n)[:, None] - np.arange(n)[None, :]).astype(float)
        priors = {"uniform": np.full(n, 1.0 / n), "dirichlet": rng.dirichlet(np.ones(n))}
        for epsilon in budgets:
            for prior_name, prior in priors.items():
                for loss_name, loss_of in LOSSES.items():
                    loss = loss_of(gaps)
                    result = design_metric_dp(notion, epsilon, ExpectedDistortion(Prior(prior), loss))
                    rows.append(compare("GRS Thm. 1 (line metric)",
                                        {"n": n, "ε": epsilon, "prior": prior_name, "loss": loss_name},
                                        "expected loss",
                                        lambda n=n, e=epsilon, p=prior, l=loss: geometric_loss(n, e, p, l),
                                        result.objective, EXACT_ATOL, certified=result.status == "optimal"))
    laplace_budgets, spacings = LAPLACE_FULL if full else LAPLACE_FAST
    for spacing in spacings:
        notion = MetricDifferentialPrivacy.grid(2, 1, spacing=spacing)
        for epsilon in laplace_budgets:
            rows.append(compare("Andrés et al. planar Laplace (two locations)", {"spacing": spacing, "ε": epsilon},
                                "mass across", lambda e=epsilon, h=spacing: two_location_mass(e, h),
                                float(planar_laplace(notion, epsilon).matrix[0, 1]), LAPLACE_ATOL))
    return rows
