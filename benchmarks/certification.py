"""The cost of certification: each path's solve timed side by side with its bound, in one script.

* Direct LPs (mechdesign.methods.direct): HiGHS's warm re-solve against the safe LP bound at its duals
  (``WarmLinearProgram._lower_bound``), at n = 100 and 200, random costs (no closed form applies),
  over a 10-budget curve.
* cvxpy path (mechdesign.solve, ``method="cvxpy"``): the solver run against the design's own
  ``design_lower_bound`` (for LPs the solver's multipliers, else the relaxation LP by Clarabel, then HiGHS; for
  convex notions cutting planes or Blahut's dual).

Run: ``PYTHONPATH=. python benchmarks/certification.py``; results in benchmarks/RESULTS.md.
"""

from __future__ import annotations

import os
import time

import numpy as np

import mechdesign.solve as solve_module
from mechdesign import (
    ApproximateDifferentialPrivacy,
    DesignProblem,
    DifferentialPrivacy,
    ExpectedDistortion,
    MaximalInformation,
    MaximalLeakage,
    MutualInformationPrivacy,
    PointwiseMaximalLeakage,
    Prior,
    RenyiDifferentialPrivacy,
)
from mechdesign.methods.direct import LdpLinearProgram, MaximalLeakageLinearProgram, PmlLinearProgram

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

        def timed(*args):
            start = time.perf_counter()
            value = original(*args)
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
    """The cvxpy path (``method="cvxpy"``, Clarabel): "bound" is the time inside the design's own certificate
    (LPs with a warm LP's structure: the pricing bound at the solver's multipliers; other LPs: the solver's
    multipliers in the relaxation, else the relaxation by Clarabel, then HiGHS)."""
    rows = []
    cases = [("local DP, cvxpy", lambda prior: DifferentialPrivacy(), 100),
             ("maximal leakage, cvxpy", lambda prior: MaximalLeakage(), 100),
             ("PML, cvxpy", lambda prior: PointwiseMaximalLeakage(Prior(prior)), 100),
             ("DP on a path, cvxpy", lambda prior: DifferentialPrivacy([(i, i + 1) for i in range(99)], 100), 100),
             ("maximal information, cvxpy", lambda prior: MaximalInformation(Prior(prior)), 100),
             ("hockey-stick (δ = 0.05), cvxpy", lambda prior: ApproximateDifferentialPrivacy(0.05, "hockey_stick"), 20),
             ("Rényi α = 2, cvxpy", lambda prior: RenyiDifferentialPrivacy(2), 10),
             ("mutual information, cvxpy", lambda prior: MutualInformationPrivacy(Prior(prior)), 30)]
    clocks = [_Clock(solve_module, "design_lower_bound"), _Clock(solve_module.DesignProblem, "_pricing_bound")]
    for name, build, n in cases:
        prior, weights = _instance(n, seed=1)
        objective = ExpectedDistortion(Prior(prior), weights / prior[:, None])
        problem = DesignProblem(build(prior), objective, solver="clarabel", method="cvxpy")
        for clock in clocks:
            clock.seconds = 0.0
        start = time.perf_counter()
        result = problem.solve(1.0)
        bound_seconds = sum(clock.seconds for clock in clocks)
        solve_seconds = time.perf_counter() - start - bound_seconds
        rows.append(f"| {name} | {n} | {solve_seconds:.3f} | {bound_seconds:.3f} | "
                    f"{100 * bound_seconds / solve_seconds:.0f} % | {result.gap:.1e} ({result.status}) |")
    return rows


class _Clock:
    """Seconds spent inside ``owner.name`` (wrapped in place)."""

    def __init__(self, owner, name):
        self.seconds, original = 0.0, getattr(owner, name)

        def timed(*args, **kwargs):
            start = time.perf_counter()
            try:
                return original(*args, **kwargs)
            finally:
                self.seconds += time.perf_counter() - start

        setattr(owner, name, timed)


if __name__ == "__main__":
    print(f"load average: {os.getloadavg()}")
    print("| path | n | solve (s) | bound (s) | bound / solve | largest gap |")
    print("|---|---|---|---|---|---|")
    for row in direct_rows() + cvxpy_rows():
        print(row)
