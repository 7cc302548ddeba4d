"""Closed-form designers for Hamming cost (mechdesign.methods.closed_form) against the direct LP.

* Side by side at n = 50 … 400: ``closed_form_design`` against ``design(method="direct-lp")`` (the warm-started direct LP
  of mechdesign.methods.direct), local DP and maximal leakage, Zipf prior, ε = 1: time, peak memory
  (tracemalloc), objective difference, certified gap.
* The closed form alone from n = 10² to 10⁶: time, peak memory and fitted growth exponents.
* A 200-point D*(ε) curve at n = 10⁵ (``closed_form_curve``).

Prints Markdown tables and the machine load (``uptime``). Run from the repository root:
``PYTHONPATH=. python benchmarks/closed_form.py [--quick]``
"""

from __future__ import annotations

import argparse
import functools
import subprocess
import time
import tracemalloc

import numpy as np

from mechdesign import DifferentialPrivacy, ExpectedDistortion, MaximalLeakage, Prior, design
from mechdesign.curves import closed_form_curve
from mechdesign.designers import closed_form_design

EPSILON = 1.0
NOTIONS = {"local DP": DifferentialPrivacy, "maximal leakage": MaximalLeakage}


def zipf(n: int) -> Prior:
    weights = 1.0 / np.arange(1, n + 1)
    return Prior(weights / weights.sum())


def measured(function, *args):
    """``(value, seconds, peak bytes)`` of one call (tracemalloc, numpy allocations included)."""
    tracemalloc.start()
    start = time.perf_counter()
    value = function(*args)
    seconds = time.perf_counter() - start
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return value, seconds, peak


def growth(sizes, values) -> float:
    """Least-squares slope of log(value) against log(n)."""
    return float(np.polyfit(np.log(sizes), np.log(values), 1)[0])


def side_by_side(sizes):
    print("| notion | n | closed form (s) | peak (MB) | direct LP (s) | peak (MB) | speed-up | |Δ objective| | gap |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name, notion in NOTIONS.items():
        for n in sizes:
            objective = ExpectedDistortion(zipf(n))
            closed, closed_s, closed_peak = measured(closed_form_design, notion(), EPSILON, objective)
            general, general_s, general_peak = measured(functools.partial(design, method="direct-lp"), notion(),
                                                        EPSILON, objective)
            assert closed.status == "optimal" and general.success and general.method == "direct-lp"
            print(f"| {name} | {n} | {closed_s:.4f} | {closed_peak / 1e6:.2f} | {general_s:.2f} | "
                  f"{general_peak / 1e6:.0f} | {general_s / closed_s:,.0f}× | "
                  f"{abs(closed.objective - general.objective):.1e} | {closed.gap:.1e} |")


def alone(sizes):
    print("| notion | n | time (s) | peak (MB) | gap |")
    print("|---|---|---|---|---|")
    for name, notion in NOTIONS.items():
        times, peaks = [], []
        for n in sizes:
            objective = ExpectedDistortion(zipf(n))
            best = min((measured(closed_form_design, notion(), EPSILON, objective) for _ in range(3)),
                       key=lambda run: run[1])
            result, seconds, peak = best
            assert result.status == "optimal"
            times.append(seconds)
            peaks.append(peak)
            print(f"| {name} | {n:,} | {seconds:.4f} | {peak / 1e6:.1f} | {result.gap:.1e} |")
        print(f"| {name} | growth exponent | {growth(sizes[1:], times[1:]):.2f} | {growth(sizes[1:], peaks[1:]):.2f} | |")


def curve(n: int, points: int):
    objective = ExpectedDistortion(zipf(n))
    for name, notion in NOTIONS.items():
        budgets = np.linspace(0.0, 12.0, points)
        traced, seconds, peak = measured(closed_form_curve, notion(), objective, budgets)
        certified = sum(result.status == "optimal" for result in traced.results)
        print(f"- {name}: {points}-point curve at n = {n:,}: {seconds:.2f} s, peak {peak / 1e6:.1f} MB, "
              f"{certified}/{points} points certified optimal")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="smaller sizes")
    quick = parser.parse_args().quick
    print(f"load: {subprocess.run(['uptime'], capture_output=True, text=True).stdout.strip()}\n")
    side_by_side([50, 100] if quick else [50, 100, 200, 400])
    print()
    alone([100, 1_000, 10_000] if quick else [100, 1_000, 10_000, 100_000, 1_000_000])
    print()
    curve(10_000 if quick else 100_000, 200)
    print(f"\nload: {subprocess.run(['uptime'], capture_output=True, text=True).stdout.strip()}")


if __name__ == "__main__":
    main()
