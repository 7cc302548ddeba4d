"""What a hinge certificate of hockey-stick (ε, δ)-DP costs at random costs, read off the optimum (issue 13 item 4).

For each n: certify the optimum by constraint generation with no time limit
(``design_hockey_stick(..., time_limit=None)``; Zipf prior, cost ``np.random.default_rng(n).random((n, n))``),
then build the working-set LP (:class:`~mechdesign.methods.hockey_stick.LazyHingeProgram`) whose hinges are
every (pair, output) that complementary slackness allows a multiplier on at that optimum
(``Q[i, y] >= e^ε Q[j, y]``: the exceeding outputs, the ties and the outputs both rows leave at 0). Its dual
optimum is the full problem's, so its hinges with a non-zero multiplier are the *support* of a certificate.
The LP on that support alone is the smallest hinge LP that certifies — what a constraint generation that knew
the answer would solve once. Its subset-cut form is smaller still: a pair's multipliers ``μ[y]`` are a sum of
nested indicator vectors, one per distinct value, so the cuts ``Q[i, S] − e^ε Q[j, S] <= δ`` for
``S = {y : μ[y] >= v}`` (one per distinct ``v``) carry the same certificate with no hinge columns. Both are
timed with HiGHS's dual simplex and its interior point (with crossover), in this one process, one after the
other.

Prints one row per n (with the load average) and writes ``benchmarks/out/hockey_stick_support.csv``.

Run: ``python benchmarks/hockey_stick_support.py [--sizes 30 40] [--epsilon 1] [--delta 0.01]``
"""

from __future__ import annotations

import argparse
import math
import os
import time

import numpy as np

from ldp_formulations import skewed_prior, write_rows
from mechdesign import ApproximateDifferentialPrivacy, ExpectedDistortion
from mechdesign._lazy import scipy_sparse as sp
from mechdesign.certificate import lp_lower_bound
from mechdesign.methods.hockey_stick import LazyHingeProgram, design_hockey_stick
from mechdesign.methods.direct import HIGHS_OPTIONS
from mechdesign.solvers import highs_model, quiet_highs, run_highs

#: Relative tolerance for a tie ``Q[i, y] = e^ε Q[j, y]`` at the certified optimum.
TIE_RTOL = 1e-7
#: Entries at most this are 0 at the certified optimum (a cleaned mechanism keeps round-off of ~1e-17).
ZERO_ATOL = 1e-12
#: A multiplier above this (absolute; weights are at most 1) is part of the support.
SUPPORT_ATOL = 1e-12
#: HiGHS options of the two timed solves.
SOLVERS = {"dual simplex": {}, "interior point": {"solver": "ipm", "run_crossover": "on"}}


def hinge_program(weights: np.ndarray, scale: float, delta: float, pairs: np.ndarray,
                  outputs: np.ndarray, options: dict) -> LazyHingeProgram:
    """The working-set LP of the complete relation holding the hinges ``(pairs, outputs)``."""
    n = weights.shape[0]
    first, second = np.nonzero(~np.eye(n, dtype=bool))
    program = LazyHingeProgram(weights, first, second, scale, delta)
    program.add_hinges(pairs, outputs)
    for name, value in options.items():
        program.highs.setOptionValue(name, value)
    return program


def nested_subset_cuts(n: int, scale: float, pairs: np.ndarray, outputs: np.ndarray,
                       multipliers: np.ndarray) -> sp.csr_matrix:
    """Rows ``Q[i, S] − e^ε Q[j, S]`` (over the row-major ``Q``) of the nested subsets of each pair's multipliers."""
    first, second = np.nonzero(~np.eye(n, dtype=bool))
    rows, columns, values = [], [], []
    for pair in np.unique(pairs):
        held = pairs == pair
        for level in np.unique(multipliers[held]):
            subset = outputs[held][multipliers[held] >= level]
            rows.append(np.full(2 * subset.size, len(rows)))
            columns.append(np.concatenate([first[pair] * n + subset, second[pair] * n + subset]))
            values.append(np.concatenate([np.ones(subset.size), np.full(subset.size, -scale)]))
    return sp.csr_matrix((np.concatenate(values), (np.concatenate(rows), np.concatenate(columns))),
                         shape=(len(rows), n * n))


def timed_subset_cut_solve(weights: np.ndarray, cuts: sp.csr_matrix, delta: float,
                           options: dict) -> tuple[float, float]:
    """Seconds and certified lower bound of ``min Σ W ∘ Q`` over row-stochastic ``Q`` under ``cuts <= δ``."""
    n = weights.shape[0]
    matrix = sp.vstack([sp.kron(sp.identity(n), np.ones((1, n))), cuts]).tocsr()
    lower = np.concatenate([np.ones(n), np.full(cuts.shape[0], -np.inf)])
    upper = np.concatenate([np.ones(n), np.full(cuts.shape[0], delta)])
    highs = quiet_highs({**HIGHS_OPTIONS, **options})
    highs.passModel(highs_model(weights.ravel(), matrix, lower, upper, np.zeros(n * n), np.ones(n * n)))
    start = time.perf_counter()
    run_highs(highs)
    seconds = time.perf_counter() - start
    return seconds, lp_lower_bound(weights.ravel(), matrix, lower, upper, np.zeros(n * n), np.ones(n * n),
                                   np.asarray(highs.getSolution().row_dual))


def timed_solve(program: LazyHingeProgram) -> tuple[float, float, float]:
    """Seconds, the LP's value and its certified lower bound."""
    start = time.perf_counter()
    program.solve()
    seconds = time.perf_counter() - start
    return seconds, program.objective_value(), program.lower_bound()


def measure(n: int, epsilon: float, delta: float) -> dict:
    """One row: the certified design, the complementary-slackness LP, and the support LP by both solvers."""
    prior = skewed_prior(n)
    cost = np.random.default_rng(n).random((n, n))
    weights = prior.probabilities[:, None] * cost
    scale = math.exp(epsilon)
    start = time.perf_counter()
    result = design_hockey_stick(ApproximateDifferentialPrivacy(delta, "hockey_stick"), epsilon,
                                 ExpectedDistortion(prior, cost), time_limit=None)
    if result.status != "optimal":  # the support is read off a certified optimum, or not at all
        raise SystemExit(f"n = {n}: the design is {result.status!r}, not certified optimal: {result.message}")
    row: dict = {"n": n, "epsilon": epsilon, "delta": delta, "design seconds": time.perf_counter() - start,
                 "optimum": result.objective}
    matrix = result.mechanism.matrix
    first, second = np.nonzero(~np.eye(n, dtype=bool))
    allowed = matrix[first] > scale * matrix[second] * (1.0 - TIE_RTOL) - ZERO_ATOL
    pairs, outputs = np.nonzero(allowed)
    program = hinge_program(weights, scale, delta, pairs, outputs, {})
    row["allowed hinges"] = pairs.size
    row["allowed seconds"], allowed_value, _ = timed_solve(program)
    # Rows of a program filled by one add_hinges call: n row sums, then the pairs' sums, then one per hinge.
    duals = np.abs(np.asarray(program.highs.getSolution().row_dual))
    hinge_duals, pair_duals = duals[duals.size - pairs.size:], duals[n:duals.size - pairs.size]
    in_support = hinge_duals > SUPPORT_ATOL
    row["support hinges"], row["support pairs"] = int(in_support.sum()), int((pair_duals > SUPPORT_ATOL).sum())
    row["allowed LP value"] = allowed_value
    cuts = nested_subset_cuts(n, scale, pairs[in_support], outputs[in_support], hinge_duals[in_support])
    row["subset cuts"] = cuts.shape[0]
    for name, options in SOLVERS.items():
        support = hinge_program(weights, scale, delta, pairs[in_support], outputs[in_support], options)
        seconds, _, bound = timed_solve(support)
        row[f"support {name} seconds"], row[f"support {name} bound"] = seconds, bound
        seconds, bound = timed_subset_cut_solve(weights, cuts, delta, options)
        row[f"cuts {name} seconds"], row[f"cuts {name} bound"] = seconds, bound
    row["load"] = os.getloadavg()[0]
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[30, 40])
    parser.add_argument("--epsilon", type=float, default=1.0)
    parser.add_argument("--delta", type=float, default=0.01)
    args = parser.parse_args()
    rows = []
    print(f"{'n':>4} {'design s':>9} {'optimum':>13} {'allowed':>8} {'support':>8} {'pairs':>6} {'cuts':>6} "
          f"{'simplex s':>10} {'ipm s':>7} {'cuts simplex s':>15} {'cuts ipm s':>11} {'bound gap':>9} load")
    for n in args.sizes:
        row = measure(n, args.epsilon, args.delta)
        rows.append(row)
        gap = max(row["optimum"] - row[f"{form} {name} bound"] for name in SOLVERS for form in ("support", "cuts"))
        print(f"{n:4d} {row['design seconds']:9.1f} {row['optimum']:13.10f} {row['allowed hinges']:8d} "
              f"{row['support hinges']:8d} {row['support pairs']:6d} {row['subset cuts']:6d} "
              f"{row['support dual simplex seconds']:10.2f} {row['support interior point seconds']:7.2f} "
              f"{row['cuts dual simplex seconds']:15.2f} {row['cuts interior point seconds']:11.2f} {gap:9.1e} "
              f"{row['load']:.1f}", flush=True)
    write_rows(rows, "hockey_stick_support")


if __name__ == "__main__":
    main()
