"""Accounting after many uses and across releases (issue 30 M5/M10, issue 29 item 4): seconds and accuracy.

Cases, each printed with the seconds it took and the machine's 1-minute load average beside it:

* ``uses-<k>``: ε(δ = 10⁻⁶) of ``k`` uses of binary randomized response at ε = 1 by the PLD
  (:func:`~mechdesign.accounting.epsilon_after`), against the exact value from the binomial law of the
  number of truthful reports (the exact δ at the ε returned, and 10⁻⁴ below it): the PLD must be an
  upper bound, and its relative excess is reported.
* ``auto-rr120``, ``auto-random120``: ``method="auto"`` at 2 uses of randomized response on 120 symbols
  (one distinct pair of rows) and of a random 120 × 120 mechanism (Dirichlet(1) rows, seed 0), with the
  method it picked and the seconds of the other method (defect M10: the exact path took 69 s on 120
  symbols × 2 uses).
* ``ledger``: a ledger of three releases (binary RR ×3, 9-ary RR, an asymmetric 3 × 3 mechanism ×2),
  exact against the PLD of dominating envelopes at δ = 10⁻⁶ and 10⁻³.

Run::

    PYTHONPATH=. python benchmarks/accounting.py [--cases uses-1000000 auto-rr120 ...]
"""

from __future__ import annotations

import argparse
import math
import os
import time

import numpy as np
from scipy.stats import binom

from mechdesign import randomized_response
from mechdesign.accounting import Ledger, _chosen_method, _PairPlan, epsilon_after

DELTA = 1e-6
USES = (10**3, 10**6, 10**9, 10**12)


def binary_rr_delta(epsilon0: float, uses: int, epsilon: float) -> float:
    """Exact δ(ε) of ``uses`` uses of binary RR: the loss is ``(2J − k) ε0``, ``J ~ Bin(k, p)``."""
    p = 1 / (1 + math.exp(-epsilon0))
    first = math.floor((uses + epsilon / epsilon0) / 2) + 1
    truthful = np.arange(first, min(uses, first + int(10 * math.sqrt(uses)) + 100) + 1, dtype=float)
    losses = (2 * truthful - uses) * epsilon0
    return float(np.sum(np.exp(binom.logpmf(truthful, uses, p)) * -np.expm1(epsilon - losses)))


def timed(function, *args, **kwargs):
    start = time.perf_counter()
    value = function(*args, **kwargs)
    return value, time.perf_counter() - start


def report(case: str, seconds: float, text: str) -> None:
    print(f"{case:16s} {seconds:8.2f} s  load {os.getloadavg()[0]:4.1f}  {text}", flush=True)


def run_uses(uses: int) -> None:
    epsilon, seconds = timed(epsilon_after, randomized_response(2, 1.0), uses, DELTA)
    at, below = binary_rr_delta(1.0, uses, epsilon), binary_rr_delta(1.0, uses, epsilon * (1 - 1e-4))
    # the exact ε lies between ε(1 − 1e-4) and ε when the bracket holds; refine it by bisection
    low, high = epsilon * (1 - 1e-4), epsilon
    for _ in range(60):
        middle = (low + high) / 2
        low, high = (middle, high) if binary_rr_delta(1.0, uses, middle) > DELTA else (low, middle)
    bracket = "holds" if at <= DELTA < below else "FAILS"
    report(f"uses-{uses}", seconds, f"ε = {epsilon:.10g}, exact {high:.10g}, excess {(epsilon - high) / high:.2e} "
                                    f"(upper-bound bracket {bracket})")


def run_auto(name: str, matrix: np.ndarray) -> None:
    plan = _PairPlan(matrix, 2, 1e-4)
    chosen = _chosen_method([(matrix, 2)], "auto", plan.work)
    value, seconds = timed(epsilon_after, matrix, 2, DELTA)
    other = "pld" if chosen == "exact" else "exact"
    other_value, other_seconds = timed(epsilon_after, matrix, 2, DELTA, method=other)
    report(f"auto-{name}", seconds, f"picked {chosen}: ε = {value:.8f}; {other} takes {other_seconds:.2f} s "
                                    f"(ε = {other_value:.8f}); {len(plan.pairs)} distinct pairs")


def run_ledger() -> None:
    asymmetric = np.array([[0.7, 0.2, 0.1], [0.1, 0.6, 0.3], [0.25, 0.25, 0.5]])
    ledger = (Ledger().record(randomized_response(2, 1.0), uses=3).record(randomized_response(9, 2.0))
              .record(asymmetric, uses=2))
    for delta in (1e-6, 1e-3):
        exact, seconds = timed(ledger.epsilon, delta, "exact")
        pld, pld_seconds = timed(ledger.epsilon, delta, "pld")
        report("ledger", seconds + pld_seconds, f"δ = {delta:g}: exact ε = {exact:.6f} ({seconds:.2f} s), "
                                                f"PLD {pld:.6f} ({pld_seconds:.2f} s), pure {ledger.pure_epsilon():.6f}")


def main() -> None:
    cases = {f"uses-{uses}": (run_uses, uses) for uses in USES}
    rng = np.random.default_rng(0)
    cases["auto-rr120"] = (run_auto, "rr120", randomized_response(120, 2.0).matrix)
    cases["auto-random120"] = (run_auto, "random120", rng.dirichlet(np.ones(120), 120))
    cases["ledger"] = (run_ledger,)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", nargs="*", default=list(cases), choices=list(cases))
    for case in parser.parse_args().cases:
        function, *arguments = cases[case]
        function(*arguments)


if __name__ == "__main__":
    main()
