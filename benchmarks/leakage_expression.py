"""privacy_distortion for the SML-type notions: direct minimization of their leakage expression against bisection.

Issue 33: statistic maximal leakage and the summary statistic privacy notions implement a leakage
expression, but the capability table did not say so, so ``privacy_distortion`` bisected on the budget
(one design per step). The table is now derived from the classes and minimizes directly. This script runs
both in one process, alternating (the bisection by the old table: the leakage flag off), checks that they
agree, and prints the seconds of each with the machine's 1-minute load beside them.

Run from the repository root: ``PYTHONPATH=. python benchmarks/leakage_expression.py [--repeats 3]``
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import time

import numpy as np

from mechdesign import ExpectedDistortion, IntersectionPrivacy, Prior, StatisticMaximalLeakage, UnionPrivacy
from mechdesign import curves
from mechdesign.parameter_spaces import ParameterSpace
from mechdesign.registry import capabilities

#: The two answers may differ by the bisection's bracket and its relative reach slack (curves.REACH_ATOL).
AGREEMENT_ATOL = 1e-8


def cases() -> list[tuple[str, object, ExpectedDistortion, list[float]]]:
    """(label, notion, Hamming-cost objective, distortion limits)."""
    prior = Prior([0.3, 0.25, 0.2, 0.15, 0.1])
    hamming = ExpectedDistortion(prior, 1 - np.eye(5))
    space = ParameterSpace.gaussian_1d([0.0, 1.0], [1.0, 2.0], [0.4, 0.4])
    on_space = ExpectedDistortion(space.prior, 1 - np.eye(space.n_inputs))
    return [("SML, 2 secret values, n = 5", StatisticMaximalLeakage([0, 0, 1, 1, 1]), hamming, [0.1, 0.3, 0.5]),
            ("SML, 3 secret values, n = 5", StatisticMaximalLeakage([0, 1, 1, 2, 2]), hamming, [0.05, 0.2, 0.4]),
            (f"intersection privacy, n = {space.n_inputs}", IntersectionPrivacy(space), on_space, [0.1, 0.3, 0.5]),
            (f"union privacy, n = {space.n_inputs}", UnionPrivacy(space), on_space, [0.1, 0.3, 0.5])]


def solve(notion, limit: float, objective, direct: bool) -> tuple[float, float, str]:
    """(ε*, seconds, method) with the leakage flag as derived (``direct``) or off (the old table)."""
    original = curves.capabilities
    if not direct:
        curves.capabilities = lambda n: dataclasses.replace(capabilities(n), leakage_expression=False)
    try:
        start = time.perf_counter()
        result = curves.privacy_distortion(notion, limit, objective)
        seconds = time.perf_counter() - start
    finally:
        curves.capabilities = original
    assert result.success, result.message
    return result.epsilon, seconds, result.method


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    print("| notion | D | ε* bisection | ε* direct | difference | bisection s (load) | direct s (load) |")
    print("|---|---|---|---|---|---|---|")
    for label, notion, objective, limits in cases():
        for limit in limits:
            times = {True: [], False: []}
            values = {}
            for _ in range(args.repeats):
                for direct in (False, True):  # alternating
                    value, seconds, method = solve(notion, limit, objective, direct)
                    assert method == ("direct" if direct else "bisection"), method
                    values[direct] = value
                    times[direct].append((seconds, os.getloadavg()[0]))
            difference = values[True] - values[False]
            assert abs(difference) <= AGREEMENT_ATOL, (label, limit, values)
            cell = {direct: ", ".join(f"{s:.2f} ({load:.1f})" for s, load in times[direct]) for direct in times}
            print(f"| {label} | {limit} | {values[False]:.10f} | {values[True]:.10f} | {difference:+.1e} | "
                  f"{cell[False]} | {cell[True]} |", flush=True)


if __name__ == "__main__":
    main()
