"""Is subset selection at its best size exactly optimal? A direct search over every ε-LDP mechanism (issue 34 item 2).

For k = 2 … 6 (``--max-size`` for more) and ε ∈ {0.1, 0.5, 1, 2, 4}, one markdown table row each, side by side in one run:

* ``best d`` and ``formula``: subset selection at the size of least exact total variance ``N · Σ_x Var(p̂_x)``
  (:meth:`~mechdesign.mechanisms.oracles.FrequencyOracle.total_variance`, the oracles' closed form);
* ``direct (upper)``: the least best-unbiased total variance ``tr(J⁻¹) − ‖p‖²`` over mixtures of the
  ``2^k − 1`` extremal columns ``{1, e^ε}^k`` found by cvxpy (``tr_inv``, Clarabel), re-measured in numpy;
  ``direct (lower)``: its certified lower bound over every ε-LDP mechanism, checked in numpy (the
  derivation is the docstring of ``tests/mechanisms/test_oracle_optimality.py``, whose functions this
  script runs);
* ``rel. diff``: ``(formula − lower) / formula`` — 0 up to the solver's accuracy where subset selection is
  optimal;
* ``SS best-unbiased``: the least ``tr(J⁻¹) − ‖p‖²`` of subset selection's matrix over ``d`` — the same
  mechanisms with the best linear unbiased estimator at the prior instead of their own (equal to
  ``formula`` at the uniform prior): what of the gap is the estimator's and what the mechanism's;
* ``best oracle``: the choice of ``estimation_mechanism`` among all five oracles (no report budget) and its
  variance, for the rows with a prior;
* the seconds of the direct search and the 1-minute load average (the machine is shared).

``--prior zipf`` repeats the grid under a Zipf prior (exponent 1.1), where subset selection with its own
estimator is not claimed optimal: the table shows by how much it is not.

Usage: ``python benchmarks/oracle_optimality.py [--prior uniform|zipf|both] [--max-size 6]``
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np

REPOSITORY = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPOSITORY))

from mechdesign import DifferentialPrivacy  # noqa: E402
from mechdesign.mechanisms.estimation import ReportBudget, estimation_mechanism  # noqa: E402
from tests.mechanisms.test_oracle_optimality import (  # noqa: E402
    best_subset_selection,
    blue_total_variance,
    direct_optimum,
    subset_selection_matrix,
)

EPSILONS = (0.1, 0.5, 1.0, 2.0, 4.0)


def zipf(size: int, exponent: float = 1.1) -> np.ndarray:
    """The Zipf distribution ``p_x ∝ (x + 1)^−exponent`` on ``size`` symbols."""
    weights = np.arange(1, size + 1, dtype=float) ** -exponent
    return weights / weights.sum()


def table(prior_name: str, max_size: int) -> None:
    """Print the table of one prior for k = 2 … ``max_size``."""
    print(f"\n### Prior: {prior_name}\n")
    print("| k | ε | best d | formula | direct (upper) | direct (lower) | rel. diff | SS best-unbiased | "
          "best oracle | its variance | search (s) | load |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for size in range(2, max_size + 1):
        for epsilon in EPSILONS:
            prior = np.full(size, 1.0 / size) if prior_name == "uniform" else zipf(size)
            best, formula = best_subset_selection(size, epsilon, prior)
            start = time.perf_counter()
            upper, lower = direct_optimum(size, epsilon, prior)
            seconds = time.perf_counter() - start
            unbiased = min(blue_total_variance(subset_selection_matrix(size, epsilon, d), prior)
                           for d in range(1, size))
            chosen = estimation_mechanism(DifferentialPrivacy(), epsilon, prior,
                                          report_budget=ReportBudget.unlimited())
            print(f"| {size} | {epsilon} | {best} | {formula:.10g} | {upper:.10g} | {lower:.10g} | "
                  f"{(formula - lower) / formula:.2e} | {unbiased:.10g} | {chosen.name} | {chosen.variance:.10g} | "
                  f"{seconds:.2f} | {os.getloadavg()[0]:.1f} |", flush=True)


def main() -> None:
    """Parse the command line and print the tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--prior", choices=("uniform", "zipf", "both"), default="both")
    parser.add_argument("--max-size", type=int, default=6, help="the largest k (2^k − 1 extremal columns)")
    arguments = parser.parse_args()
    for prior_name in ("uniform", "zipf"):
        if arguments.prior in (prior_name, "both"):
            table(prior_name, arguments.max_size)


if __name__ == "__main__":
    main()
