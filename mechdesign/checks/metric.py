"""Ghosh, Roughgarden & Sundararajan, "Universally utility-maximizing privacy mechanisms" (STOC 2009),
Theorem 1 in the metric-DP form: on the line metric ``{0, …, n − 1}`` the truncated geometric mechanism at
ε, followed by the optimal Bayesian remap, is optimal under ε-d-privacy for every prior and every loss
monotone in ``|x − y|``.

Each row compares that mechanism's expected loss (the closed form) with the certified optimum of
:func:`~mechdesign.designers.metric.design_metric_dp` with the loss as cost.
"""

from __future__ import annotations

import numpy as np

from ..designers.metric import design_metric_dp
from ..mechanisms.location import optimal_remap, truncated_geometric
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
    """The rows of the theorem over sizes, budgets, priors (uniform and Dirichlet) and :data:`LOSSES`.

    Examples
    --------
    >>> rows = check_metric()
    >>> len(rows), {row.verdict for row in rows}
    (32, {'match'})
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
    return rows
