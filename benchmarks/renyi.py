"""Rényi DP and Sibson designs before and after a change, side by side (branches `renyi`: the dual-guided certificate;
`renyi2`: the well-scaled constraints Σ a^α (e^ε b)^{1−α} <= 1; issue 32 item 4: the column terms' own dual,
mechdesign/privacy/column_dual.py).

The baseline is the library at ``--baseline`` (default :data:`BASELINE`, the commit before the change), extracted
with ``git archive`` into a temporary directory; every case runs in a fresh process on each, baseline then new,
printed side by side as it ends, with the load average.

* Certificates: one design with Clarabel on random costs (seed 1, as in benchmarks/certification.py),
  n = 10, 20, 30, all pairs neighbours, α = 2, ε = 1: status, gap, the whole solve and the
  certificate alone (``design_lower_bound`` re-run on the design's mechanism with the solve's target).
  (α = 4 is left out: the baseline spends minutes in cvxpy's power-cone residual, which projects with SCS.)
* Accuracy at large budgets: α = 4, uniform prior, Hamming cost, m = 3 and 5, ε = 3, 4, 6, 8 (randomized
  response is optimal: tests/privacy/test_renyi.py).
* Global framework (issue 32 item 4): PUT Theorem 7(5), Rényi α = 2 on {1..m}^n, uniform prior, Hamming distance,
  ``ε*(D)`` at D = 0.2 by ``checks.optimum.privacy_distortion_values`` (what theory-check runs) against the exact
  value, Q_D's budget (docs/errata.md, PUT entry 10), and its time; (m, n) = (2, 2), (3, 2), (2, 3), (2, 4), (3, 3).
  A third column runs the new tree with two changes proposed for mechdesign/solve.py and mechdesign/curves.py,
  applied from outside (``polished_global_case``).
* Near α = 1 (``near-one``): Rényi α = 1.01 on the simplex, m = 3, ``ε*(D)`` at D = 0.05 and 0.3 against PUT
  Proposition 8(5)'s value (issue 32: 1.2e-6 above it with ``success=True``).
* Large designs: Sibson α = 2 under one prior (seed 1) at n = 100, ε = 1, random and Hamming costs: status, gap, the
  whole solve and the certificate alone.

* The certificate's share (``share``): Sibson α = 2 under one prior at n = 100 (random and Hamming costs), Rényi DP
  α = 2 with neighbours on a path (n = 30, 100) or all pairs (n = 20; at n = 100 the cvxpy problem's estimate is
  69 GiB), ε = 1, random costs: status, gap, the whole solve, the time in ``design_lower_bound`` (its share) and in
  the KKT polish, and the load average at the start of each case.

* Every pair neighbouring (``pairs``, issue 32 item 4's last clause: lazy pair generation,
  mechdesign/methods/renyi_pairs.py): Rényi DP α = 2, random costs, Dirichlet(1) prior (seed 1), ε = 1, n = 12 … 50
  (``pairs100``: n = 100),
  through ``design()``: the method, status, gap and objective, CPU and wall seconds, the load average.

* Neighbours on a path (``path``, issue 32 item 4: the chain's bound, ``RenyiDifferentialPrivacy.path_dual_bound``):
  Rényi DP with the inputs on a path, random costs and a Dirichlet(1) prior (seed 1, as ``share``), Clarabel, at
  other orders, budgets and sizes than ``share``'s: status, gap, the whole solve and the load average.

* The full PUT grid (``grid``, only when named): ``MECHDESIGN_FULL_GRID=1 pytest -q -m slow tests/checks/test_put.py``
  in the baseline's tree (its own tests) then in the working tree, wall time and load average.

Run: ``PYTHONPATH=. python benchmarks/renyi.py [--baseline REV] [--after REV] [accuracy|certificate|global|near-one|large|share|path|pairs|pairs100|grid]``
(every section but ``grid`` and ``pairs100`` by default; ``--after``: the new side at that commit instead of the
working tree; the earlier tables of benchmarks/RESULTS.md used the baselines named there); results in
benchmarks/RESULTS.md.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

#: The commit the new path is compared with by default: main before issue 32's Rényi work (`fa40515` before the
#: column terms' dual, `71498cc` before the branch `renyi2`, `d73c01b` before `renyi`).
BASELINE = "20036d5"
CERTIFICATE_CASES = [(n, 2.0, 1.0) for n in (10, 20, 30)]
ACCURACY_CASES = [(m, 4.0, eps) for m in (3, 5) for eps in (3.0, 4.0, 6.0, 8.0)]
GLOBAL_CASES = [(m, n, 0.2) for m, n in ((2, 2), (3, 2), (2, 3), (2, 4), (3, 3))]
NEAR_ONE_CASES = [(3, 1.01, D) for D in (0.05, 0.3)]
LARGE_CASES = [("random", 100, 1.0), ("hamming", 100, 1.0)]
#: The certificate's share of one design (issue 31 item 1, issue 32 item 4): (notion, cost, neighbours, n, ε).
SHARE_CASES = [("sibson", "random", "-", 100, 1.0), ("sibson", "hamming", "-", 100, 1.0),
               ("renyi", "random", "path", 100, 1.0), ("renyi", "random", "path", 30, 1.0),
               ("renyi", "random", "all", 20, 1.0)]

#: Rényi DP with every pair neighbouring, random costs, through ``design()`` (issue 32 item 4's last clause: before,
#: cvxpy; after, lazy pair generation, mechdesign/methods/renyi_pairs.py): (n, α, ε).
PAIRS_CASES = [(12, 2.0, 1.0), (20, 2.0, 1.0), (30, 2.0, 1.0), (40, 2.0, 1.0), (50, 2.0, 1.0)]
#: The same at n = 100 (``pairs100``, only when named: before the interior-point method of
#: mechdesign/methods/renyi_newton.py it runs into CASE_SECONDS).
PAIRS_LARGE_CASES = [(100, 2.0, 1.0)]

#: Rényi DP with neighbours on a path, random costs (issue 32 item 4): (n, α, ε).
PATH_CASES = [(30, 2.0, 0.1), (30, 2.0, 4.0), (30, 1.5, 1.0), (30, 3.0, 1.0), (60, 2.0, 1.0), (150, 2.0, 1.0)]


def certificate_case(n: int, alpha: float, epsilon: float) -> dict:
    from mechdesign import DesignProblem, ExpectedDistortion, Prior, RenyiDifferentialPrivacy
    from mechdesign.certificate import design_lower_bound
    from mechdesign.result import gap_tolerance

    rng = np.random.default_rng(1)
    prior = rng.dirichlet(np.ones(n))
    cost = rng.random((n, n))
    notion = RenyiDifferentialPrivacy(alpha)
    problem = DesignProblem(notion, ExpectedDistortion(Prior(prior), cost), solver="clarabel")
    start = time.perf_counter()
    result = problem.solve(epsilon)
    total = time.perf_counter() - start
    value = problem.solved_objective.value(result.mechanism)
    start = time.perf_counter()
    design_lower_bound(problem.solved_objective, [(notion, epsilon)], [], result.mechanism.matrix,
                       target=value - gap_tolerance(value))
    return {"status": result.status, "gap": result.gap, "total": total, "certificate": time.perf_counter() - start}


def accuracy_case(m: int, alpha: float, epsilon: float) -> dict:
    from mechdesign import ExpectedDistortion, Prior, RenyiDifferentialPrivacy, design

    result = design(RenyiDifferentialPrivacy(alpha), epsilon, ExpectedDistortion(Prior.uniform(m)))
    return {"status": result.status, "objective": result.objective, "gap": result.gap, "total": result.solve_time}


def _found(found: tuple) -> dict:
    """``checks.optimum.certified_privacy_distortion``'s answer at one D: ``(ε*, certified, bracket width)`` (the
    baseline's has no width)."""
    return {"epsilon": found[0], "certified": found[1], "width": found[2] if len(found) > 2 else None}


def global_case(m: int, n: int, D: float) -> dict:
    from mechdesign import ExpectedDistortion, Prior, RenyiDifferentialPrivacy
    from mechdesign.checks.optimum import certified_privacy_distortion
    from mechdesign.mechanisms.global_framework import hamming_distances, hamming_neighbours
    from mechdesign.theory import put

    notion = RenyiDifferentialPrivacy(2.0, neighbours=hamming_neighbours(m, n))
    objective = ExpectedDistortion(Prior.uniform(m**n), cost=hamming_distances(m, n))
    start = time.perf_counter()
    found, = certified_privacy_distortion(notion, objective, [D])
    return {**_found(found), "exact": put.thm7_renyi_dp_privacy_bounds(m, n, D, 2.0)[1],
            "total": time.perf_counter() - start}


def near_one_case(m: int, alpha: float, D: float) -> dict:
    """Rényi DP of order ``alpha`` on the simplex (worst-case Hamming distortion, every pair of inputs neighbours):
    ``ε*(D)`` against PUT Proposition 8(5)'s value (its upper bound, docs/errata.md PUT entry 9)."""
    from mechdesign import RenyiDifferentialPrivacy, SourceSet, WorstCaseDistortion
    from mechdesign.checks.optimum import certified_privacy_distortion
    from mechdesign.theory import put

    start = time.perf_counter()
    found, = certified_privacy_distortion(RenyiDifferentialPrivacy(alpha), WorstCaseDistortion(SourceSet.simplex(m)),
                                          [D])
    return {**_found(found), "exact": put.prop8_renyi_dp_privacy_bounds(m, D, alpha)[1],
            "total": time.perf_counter() - start}


def polished_global_case(m: int, n: int, D: float) -> dict:
    """:func:`global_case` with the two changes proposed for files outside issue 32 item 4's, applied here from
    outside: the solver's point replaced by its polished KKT point before it is re-measured
    (``DesignProblem._candidate``, mechdesign/solve.py), and the direct method's ε the re-measured leakage of the
    solver's mechanism where that is larger than the epigraph's value (``_PrivacyDistortionSolver._direct``,
    mechdesign/curves.py: Clarabel's cone residuals leave the epigraph 1.0e-5 nats below its own point's leakage on
    {1,2,3}^3, so the certificate at that ε failed and ε*(D) was bisected from scratch)."""
    import dataclasses

    from mechdesign import curves, solve
    from mechdesign.privacy.column_dual import kkt_point
    from mechdesign.result import clean_mechanism

    def direct(self, limit):
        problem, parameter = self._direct_program()
        parameter.value = limit
        if not curves.solve_cvxpy(problem, "clarabel").solved:
            return self._bisection(limit)
        epsilon = self.notion.budget_from_leakage(float(problem.value))
        matrix = next(v for v in problem.variables() if v.shape == self.objective.shape).value
        if matrix is not None:  # the change: the solver's own point re-measured
            epsilon = max(epsilon, self.notion.measure(clean_mechanism(matrix)))
        found = self._certified(limit, epsilon, (epsilon, epsilon), "direct")
        if not found.success:
            return self._bisection(limit)
        below = epsilon - curves.DIRECT_PROBE
        if below > 0 and self._reaches(below, limit, ties=False):
            return self._bisection(limit, below)
        return found

    curves._PrivacyDistortionSolver._direct = direct
    candidate = solve.DesignProblem._candidate

    def polished(self, attempt, budgets, limits):
        notion, objective = self.notions[0], self.solved_objective
        if attempt.matrix is not None and len(self.notions) == 1 and not self.limits and hasattr(notion, "column_terms"):
            budget = next(iter(budgets.values()))
            minorant = objective.minorant(attempt.matrix)
            costs = minorant.grad_q.reshape(attempt.matrix.shape)
            point = kkt_point(costs, clean_mechanism(attempt.matrix), lambda q: notion.column_terms(q, budget))
            if point is not None:
                matrix = np.clip(point.matrix, 0.0, None)
                attempt = dataclasses.replace(attempt, matrix=matrix / matrix.sum(axis=1, keepdims=True))
        return candidate(self, attempt, budgets, limits)

    solve.DesignProblem._candidate = polished
    return global_case(m, n, D)


def large_case(cost: str, n: int, epsilon: float) -> dict:
    from mechdesign import DesignProblem, ExpectedDistortion, Prior, SibsonMutualInformation
    from mechdesign.certificate import design_lower_bound
    from mechdesign.result import gap_tolerance

    rng = np.random.default_rng(1)
    prior = Prior(rng.dirichlet(np.ones(n)))
    costs = rng.random((n, n))
    notion = SibsonMutualInformation(2.0, prior)
    problem = DesignProblem(notion, ExpectedDistortion(prior, costs if cost == "random" else None), solver="clarabel")
    start = time.perf_counter()
    result = problem.solve(epsilon)
    total = time.perf_counter() - start
    value = problem.solved_objective.value(result.mechanism)
    start = time.perf_counter()
    design_lower_bound(problem.solved_objective, [(notion, epsilon)], [], result.mechanism.matrix,
                       target=value - gap_tolerance(value))
    return {"status": result.status, "gap": result.gap, "total": total, "certificate": time.perf_counter() - start}


def share_case(kind: str, cost: str, relation: str, n: int, epsilon: float) -> dict:
    """One design through ``DesignProblem.solve`` (Clarabel; Sibson α = 2 under one Dirichlet(1) prior, or Rényi DP
    α = 2 with the inputs neighbours on a path or all pairs; random or Hamming costs, seed 1), with the time inside
    ``design_lower_bound`` (the certificate) and inside the KKT polish (``DesignProblem._polished_point``, where the
    tree has it) measured by wrapping them: status, gap, the whole solve and both times."""
    from mechdesign import DesignProblem, ExpectedDistortion, Prior, RenyiDifferentialPrivacy, SibsonMutualInformation
    solve_module = sys.modules[DesignProblem.__module__]  # the module that defines it (solve.py before issue 33 item 3)

    rng = np.random.default_rng(1)
    prior = Prior(rng.dirichlet(np.ones(n)))
    costs = rng.random((n, n)) if cost == "random" else None
    if kind == "sibson":
        notion = SibsonMutualInformation(2.0, prior)
    else:
        pairs = [(i, i + 1) for i in range(n - 1)] if relation == "path" else None
        notion = RenyiDifferentialPrivacy(2.0, neighbours=pairs, n_inputs=n if pairs else None)
    spent = {"certificate": 0.0, "polish": 0.0}

    def timed(function, key):
        def run(*args, **kwargs):
            start = time.perf_counter()
            try:
                return function(*args, **kwargs)
            finally:
                spent[key] += time.perf_counter() - start
        return run

    solve_module.design_lower_bound = timed(solve_module.design_lower_bound, "certificate")
    if hasattr(solve_module.DesignProblem, "_polished_point"):
        solve_module.DesignProblem._polished_point = timed(solve_module.DesignProblem._polished_point, "polish")
    problem = DesignProblem(notion, ExpectedDistortion(prior, costs), solver="clarabel")
    load = os.getloadavg()[0]
    start = time.perf_counter()
    result = problem.solve(epsilon)
    return {"status": result.status, "gap": result.gap, "total": time.perf_counter() - start, **spent, "load": load}


def path_case(n: int, alpha: float, epsilon: float) -> dict:
    """One design through ``DesignProblem.solve`` (Clarabel; Rényi DP of order ``alpha`` with the inputs on a path,
    random costs and a Dirichlet(1) prior, seed 1, as :func:`share_case`): status, gap, the solve and the load."""
    from mechdesign import DesignProblem, ExpectedDistortion, Prior, RenyiDifferentialPrivacy

    rng = np.random.default_rng(1)
    prior = Prior(rng.dirichlet(np.ones(n)))
    notion = RenyiDifferentialPrivacy(alpha, neighbours=[(i, i + 1) for i in range(n - 1)], n_inputs=n)
    problem = DesignProblem(notion, ExpectedDistortion(prior, rng.random((n, n))), solver="clarabel")
    load = os.getloadavg()[0]
    start = time.perf_counter()
    result = problem.solve(epsilon)
    return {"status": result.status, "gap": result.gap, "total": time.perf_counter() - start, "load": load}


def pairs_case(n: int, alpha: float, epsilon: float) -> dict:
    """One design through ``design()`` (method "auto"; Rényi DP of order ``alpha``, every pair of inputs neighbouring,
    random costs and a Dirichlet(1) prior, seed 1, as :func:`share_case`): status, gap, method, the objective, CPU
    and wall seconds and the load average at the start."""
    from mechdesign import ExpectedDistortion, Prior, RenyiDifferentialPrivacy, design

    rng = np.random.default_rng(1)
    objective = ExpectedDistortion(Prior(rng.dirichlet(np.ones(n))), rng.random((n, n)))
    load = os.getloadavg()[0]
    cpu, start = time.process_time(), time.perf_counter()
    try:
        result = design(RenyiDifferentialPrivacy(alpha), epsilon, objective)
    except Exception as error:  # noqa: BLE001 - cvxpy's problem at n = 100 is refused (ProblemTooLargeError)
        return {"status": type(error).__name__, "gap": None, "method": "-", "objective": None,
                "cpu": time.process_time() - cpu, "total": time.perf_counter() - start, "load": load}
    return {"status": result.status, "gap": result.gap, "method": result.method, "objective": result.objective,
            "cpu": time.process_time() - cpu, "total": time.perf_counter() - start, "load": load}


def _pairs_row(case: tuple, old: dict | None, new: dict | None) -> str:
    n, alpha, eps = case
    cells = [f"{r['method']}: {r['status']}, {_number(r['gap'], '.1e')}, {_number(r['objective'], '.9f')}" if r
             else f"> {CASE_SECONDS} s" for r in (old, new)]
    times = [f"{r['cpu']:.1f} / {r['total']:.1f}" if r else "–" for r in (old, new)]
    loads = [f"{r['load']:.1f}" if r else "–" for r in (old, new)]
    return (f"| {n} | {alpha:g} | {eps:g} | {cells[0]} | {cells[1]} | {' → '.join(times)} | "
            f"{' / '.join(loads)} |")


def _path_row(case: tuple, old: dict | None, new: dict | None) -> str:
    n, alpha, eps = case
    cells = [f"{r['status']}, {_number(r['gap'], '.1e')}" if r else f"> {CASE_SECONDS} s" for r in (old, new)]
    totals = [f"{r['total']:.1f}" if r else "–" for r in (old, new)]
    loads = [f"{r['load']:.1f}" if r else "–" for r in (old, new)]
    return (f"| {n} | {alpha:g} | {eps:g} | {cells[0]} | {cells[1]} | {' / '.join(totals)} | "
            f"{' / '.join(loads)} |")


def _share_row(case: tuple, old: dict | None, new: dict | None) -> str:
    kind, cost, relation, n, eps = case
    cells = [f"{r['status']}, {_number(r['gap'], '.1e')}" if r else f"> {CASE_SECONDS} s" for r in (old, new)]
    times = [f"{r['total']:.1f} / {r['certificate']:.2f} ({100 * r['certificate'] / r['total']:.0f} %) / "
             f"{r['polish']:.2f}" if r else "–" for r in (old, new)]
    loads = [f"{r['load']:.1f}" if r else "–" for r in (old, new)]
    return (f"| {kind} | {cost} | {relation} | {n} | {eps:g} | {cells[0]} | {cells[1]} | {times[0]} | {times[1]} | "
            f"{' / '.join(loads)} |")


#: A case still running after this many seconds is reported as such (the baseline can take minutes).
CASE_SECONDS = 1200
#: The full PUT grid still running after this many seconds is reported as such (issue 32: 31 minutes at 20036d5).
GRID_SECONDS = 3600


def grid(path: str) -> dict:
    """The full PUT grid's slow tests (``MECHDESIGN_FULL_GRID=1 pytest -m slow tests/checks/test_put.py``) in the
    tree at ``path``: wall time, pytest's summary line and the load average before and after."""
    environment = {**os.environ, "PYTHONPATH": path, "MECHDESIGN_FULL_GRID": "1"}
    before = os.getloadavg()
    start = time.perf_counter()
    try:
        output = subprocess.run([sys.executable, "-m", "pytest", "-q", "-m", "slow", "-p", "no:cacheprovider",
                                 "tests/checks/test_put.py"], cwd=path, env=environment, capture_output=True,
                                text=True, timeout=GRID_SECONDS).stdout
        summary = output.strip().splitlines()[-1]
    except subprocess.TimeoutExpired:
        summary = f"still running after {GRID_SECONDS} s"
    return {"seconds": time.perf_counter() - start, "summary": summary, "load": (before, os.getloadavg())}


def _grid_row(label: str, result: dict) -> str:
    before, after = result["load"]
    return (f"| {label} | {result['seconds']:.0f} | {result['summary']} | {before[0]:.1f} / {before[1]:.1f} → "
            f"{after[0]:.1f} / {after[1]:.1f} |")


def measure(path: str, kind: str, case: tuple) -> dict | None:
    """One case in a fresh process importing mechdesign from ``path`` (``None`` after CASE_SECONDS)."""
    environment = {**os.environ, "PYTHONPATH": path}
    try:
        output = subprocess.run([sys.executable, __file__, kind, json.dumps(case)], env=environment, check=True,
                                capture_output=True, text=True, timeout=CASE_SECONDS).stdout
    except subprocess.TimeoutExpired:
        return None
    return json.loads(output.splitlines()[-1])


def _number(value: float | None, spec: str) -> str:
    """``value`` formatted, or "–" when the result has none (a failed design has no objective or gap)."""
    return "–" if value is None else format(value, spec)


def _certificate_row(case: tuple, old: dict | None, new: dict | None) -> str:
    n, alpha, eps = case
    cells = [f"{r['status']}, {_number(r['gap'], '.1e')}" if r else f"> {CASE_SECONDS} s" for r in (old, new)]
    times = [f"{r['certificate']:.2f}" if r else "–" for r in (old, new)]
    totals = [f"{r['total']:.2f}" if r else "–" for r in (old, new)]
    return f"| {n} | {alpha:g} | {eps:g} | {cells[0]} | {cells[1]} | {' / '.join(times)} | {' / '.join(totals)} |"


def _accuracy_row(case: tuple, old: dict | None, new: dict | None) -> str:
    m, alpha, eps = case
    cells = [f"{r['status']}, {_number(r['objective'], '.9f')}, {_number(r['gap'], '.1e')}" if r else f"> {CASE_SECONDS} s"
             for r in (old, new)]
    totals = [f"{r['total']:.2f}" if r else "–" for r in (old, new)]
    return f"| {m} | {alpha:g} | {eps:g} | {cells[0]} | {cells[1]} | {' / '.join(totals)} |"


def _global_row(case: tuple, *results: dict | None) -> str:
    m, n, D = case
    exact = next((r["exact"] for r in results if r), math.nan)
    cells = [_epsilon_cell(r, exact) if r else f"> {CASE_SECONDS} s"
             for r in results]
    totals = [f"{r['total']:.1f}" if r else "–" for r in results]
    return f"| {m} | {n} | {D:g} | {exact:.10f} | {' | '.join(cells)} | {' / '.join(totals)} |"


def _epsilon_cell(result: dict, exact: float) -> str:
    """ε*(D), its error against the exact value, whether its certificate is "optimal", and its bracket's width."""
    return (f"{result['epsilon']:.10f} ({result['epsilon'] - exact:+.1e}), "
            f"{'certified' if result['certified'] else 'not certified'}, width {_number(result['width'], '.1e')}")


def _near_one_row(case: tuple, old: dict | None, new: dict | None) -> str:
    m, alpha, D = case
    exact = next((r["exact"] for r in (old, new) if r), math.nan)
    cells = [_epsilon_cell(r, exact) if r else f"> {CASE_SECONDS} s"
             for r in (old, new)]
    totals = [f"{r['total']:.1f}" if r else "–" for r in (old, new)]
    return f"| {m} | {alpha:g} | {D:g} | {exact:.10f} | {' | '.join(cells)} | {' / '.join(totals)} |"


def _large_row(case: tuple, old: dict | None, new: dict | None) -> str:
    cost, n, eps = case
    cells = [f"{r['status']}, {_number(r['gap'], '.1e')}" if r else f"> {CASE_SECONDS} s" for r in (old, new)]
    times = [f"{r['certificate']:.1f}" if r else "–" for r in (old, new)]
    totals = [f"{r['total']:.1f}" if r else "–" for r in (old, new)]
    return f"| {cost} | {n} | {eps:g} | {cells[0]} | {cells[1]} | {' / '.join(times)} | {' / '.join(totals)} |"


SECTIONS = {
    "accuracy": ("--accuracy", ACCURACY_CASES, _accuracy_row,
                 "| m | α | ε | before: status, objective, gap | after: status, objective, gap | time before / after (s) |",
                 "|---|---|---|---|---|---|"),
    "certificate": ("--certificate", CERTIFICATE_CASES, _certificate_row,
                    "| n | α | ε | before: status, gap | after: status, gap | certificate before / after (s) | "
                    "solve before / after (s) |", "|---|---|---|---|---|---|---|"),
    "global": ("--global", GLOBAL_CASES, _global_row,
               "| m | n | D | exact ε*(D) | before: ε*(D) (error), certificate, bracket | after | after + proposed changes | "
               "time before / after / + changes (s) |", "|---|---|---|---|---|---|---|---|"),
    "near-one": ("--near-one", NEAR_ONE_CASES, _near_one_row,
                 "| m | α | D | exact ε*(D) | before: ε*(D) (error), certificate, bracket | after | time before / after (s) |",
                 "|---|---|---|---|---|---|---|"),
    "share": ("--share", SHARE_CASES, _share_row,
              "| notion | cost | neighbours | n | ε | before: status, gap | after: status, gap | "
              "before: solve / certificate (share) / polish (s) | after: same | load before / after |",
              "|---|---|---|---|---|---|---|---|---|---|"),
    "path": ("--path", PATH_CASES, _path_row,
             "| n | α | ε | before: status, gap | after: status, gap | solve before / after (s) | load before / after |",
             "|---|---|---|---|---|---|---|"),
    "pairs": ("--pairs", PAIRS_CASES, _pairs_row,
              "| n | α | ε | before: method: status, gap, objective | after: same | CPU / wall (s) before → after | "
              "load before / after |", "|---|---|---|---|---|---|---|"),
    "pairs100": ("--pairs", PAIRS_LARGE_CASES, _pairs_row,
                 "| n | α | ε | before: method: status, gap, objective | after: same | CPU / wall (s) before → after | "
                 "load before / after |", "|---|---|---|---|---|---|---|"),
    "large": ("--large", LARGE_CASES, _large_row,
              "| cost | n | ε | before: status, gap | after: status, gap | certificate before / after (s) | "
              "solve before / after (s) |", "|---|---|---|---|---|---|---|"),
}
RUNS = {"--accuracy": accuracy_case, "--certificate": certificate_case, "--global": global_case,
        "--near-one": near_one_case,
        "--polished": polished_global_case, "--large": large_case, "--share": share_case, "--path": path_case,
        "--pairs": pairs_case}


def _extract(here: str, revision: str, directory: str) -> None:
    """The library (and its tests) at ``revision`` of the repository ``here``, extracted into ``directory``."""
    archive = subprocess.run(["git", "-C", here, "archive", revision, "mechdesign", "tests", "pyproject.toml"],
                             check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", directory], input=archive, check=True)


def main(sections: tuple[str, ...] = tuple(name for name in SECTIONS if name != "pairs100"), revision: str = BASELINE, after: str | None = None) -> None:
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    with tempfile.TemporaryDirectory() as baseline, tempfile.TemporaryDirectory() as committed:
        _extract(here, revision, baseline)
        if after is not None:  # the new side at a commit too (not the working tree, which others may be changing)
            _extract(here, after, committed)
            here = committed
        if "grid" in sections:  # baseline, then the working tree (the baseline takes half an hour or more)
            print("\n| tree | seconds | pytest | load average (1 / 5 min) before → after |\n|---|---|---|---|", flush=True)
            for label, path in ((f"before ({revision})", baseline), ("after (working tree)", here)):
                print(_grid_row(label, grid(path)), flush=True)
            sections = tuple(section for section in sections if section != "grid")
        for section in sections:
            kind, cases, row, header, rule = SECTIONS[section]
            print(f"\nload average: {os.getloadavg()}\n{header}\n{rule}", flush=True)
            for case in cases:
                results = [measure(baseline, kind, case), measure(here, kind, case)]
                if kind == "--global":  # and the hook proposed for mechdesign/solve.py, on the new tree
                    results.append(measure(here, "--polished", case))
                print(row(case, *results), flush=True)
        print(f"load average: {os.getloadavg()}")


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] in RUNS:
        print(json.dumps(RUNS[sys.argv[1]](*json.loads(sys.argv[2]))))
    else:
        arguments = sys.argv[1:]
        options = {"--baseline": BASELINE, "--after": None}
        for option in options:
            if option in arguments:
                position = arguments.index(option)
                options[option] = arguments[position + 1]
                del arguments[position: position + 2]
        main(tuple(arguments) or tuple(name for name in SECTIONS if name != "pairs100"), options["--baseline"], options["--after"])
