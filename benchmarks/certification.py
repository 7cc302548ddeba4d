"""The cost of certification: each path's solve timed side by side with its bound, in one script.

* Direct LPs (mechdesign.direct): HiGHS's warm re-solve against the safe LP bound at its duals
  (``WarmLinearProgram._lower_bound``), at n = 100 and 200, random costs (no closed form applies),
  over a 10-budget curve.
* cvxpy path (mechdesign.solve): the solver run against ``design_lower_bound`` (relaxation LP and,
  for convex notions, cutting planes or Blahut's dual).

Run: ``PYTHONPATH=. python benchmarks/certification.py``; results in benchmarks/RESULTS.md.
"""

from __future__ import annotations

import os
import time

import numpy as np

from mechdesign import (
    ApproximateDifferentialPrivacy,
    DesignProblem,
    ExpectedDistortion,
    MutualInformationPrivacy,
    Prior,
    RenyiDifferentialPrivacy,
)
from mechdesign.certificate import design_lower_bound
from mechdesign.direct import LdpLinearProgram, MaximalLeakageLinearProgram, PmlLinearProgram

BUDGETS = np.linspace(0.2, 3.0, 10)


def _instance(n: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    prior = rng.dirichlet(np.ones(n))
    return prior, prior[:, None] * rng.random((n, n))


class _Timed:
    """Wraps a direct LP's bound to time it apart from the solve."""

    def __init__(self, program):
        self.program, self.bound_seconds = program, 0.0
        original = program._lower_bound

        def timed(duals, epsilon):
            start = time.perf_counter()
            value = original(duals, epsilon)
            self.bound_seconds += time.perf_counter() - start
            return value

        program._lower_bound = timed


def direct_rows() -> list[str]:
    rows = []
    for n in (100, 200):
        prior, weights = _instance(n)
        for name, build in (("local DP", lambda: LdpLinearProgram(weights)),
                            ("maximal leakage", lambda: MaximalLeakageLinearProgram(weights)),
                            ("PML", lambda: PmlLinearProgram(weights, prior))):
            timed = _Timed(build())
            start = time.perf_counter()
            gaps = [(s.value - s.lower_bound) for s in (timed.program.solve(e) for e in BUDGETS)]
            total = time.perf_counter() - start
            rows.append(f"| {name} | {n} | {total - timed.bound_seconds:.3f} | {timed.bound_seconds:.3f} | "
                        f"{100 * timed.bound_seconds / (total - timed.bound_seconds):.1f} % | {max(gaps):.1e} |")
    return rows


def cvxpy_rows() -> list[str]:
    rows = []
    cases = [("hockey-stick (δ = 0.05)", ApproximateDifferentialPrivacy(0.05, "hockey_stick"), 20),
             ("Rényi α = 2", RenyiDifferentialPrivacy(2), 10),
             ("mutual information", None, 30)]
    for name, notion, n in cases:
        prior, weights = _instance(n, seed=1)
        objective = ExpectedDistortion(Prior(prior), weights / prior[:, None])
        notion = notion or MutualInformationPrivacy(Prior(prior))
        problem = DesignProblem(notion, objective, solver="clarabel")
        start = time.perf_counter()
        result = problem.solve(1.0)
        total = time.perf_counter() - start
        solved = problem.solved_objective
        start = time.perf_counter()
        design_lower_bound(solved, [(notion, 1.0)], [], result.mechanism.matrix)
        bound_seconds = time.perf_counter() - start
        rows.append(f"| {name} | {n} | {total - bound_seconds:.3f} | {bound_seconds:.3f} | "
                    f"{100 * bound_seconds / (total - bound_seconds):.0f} % | {result.gap:.1e} ({result.status}) |")
    return rows


if __name__ == "__main__":
    print(f"load average: {os.getloadavg()}")
    print("| path | n | solve (s) | bound (s) | bound / solve | largest gap |")
    print("|---|---|---|---|---|---|")
    for row in direct_rows() + cvxpy_rows():
        print(row)
