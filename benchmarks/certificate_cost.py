"""What certificates cost, path by path, side by side with earlier trees (issue 31), in one script.

Every case runs in a fresh subprocess per tree (that tree's ``mechdesign`` first on ``PYTHONPATH``), the trees
interleaved within each repetition, so that the machine's load (printed beside every number, the 1-minute
average when the case ran) hits them alike; the best of the repetitions is reported, with the others' spread.

Cases (random costs, Dirichlet(1) prior, seed 0, ε = 1 unless said):

* ``cvxpy-100``, ``cvxpy-200``: local DP through cvxpy (``method="cvxpy"``; a tree without ``method=``:
  ``solver="clarabel"``, which was its cvxpy path), and the seconds of its certificate (``design_lower_bound``
  and, where it exists, ``DesignProblem._pricing_bound``).
* ``maxinfo-100``, ``pmlset-100``, ``hockey-20``: the same through cvxpy (Clarabel) for the LP notions without a
  warm LP — maximal information under the prior, PML over a set of three priors (the prior, it shifted by one
  input, the uniform one), hockey-stick (ε, δ = 0.05)-DP — with their certificate's seconds and share.
* ``pmlball-60``: PML over the ℓ1-ball of radius 0.5 around the prior (the ball's LP-dual constraints, cvxpy), the
  same way.
* ``clarabel-100``: ``solver="clarabel"`` as the caller writes it (the cvxpy path before issue 31, the direct
  LP's interior point after).
* ``nocap-100``, ``cap-100``, ``binding-100``: no cap, a cap on a second random distortion 0.05 above its value
  at the uncapped optimum (not binding), and 10 % of the way from its least value (under the budget) to that
  value (binding).
* ``curve-30``: ``trace_curve`` at n = 30, 50 budgets in [0.1, 5]: seconds, and seconds inside HiGHS's
  ``run`` (what changes per point) — the rest is the per-point work outside HiGHS; also the process's CPU
  seconds, in all and outside HiGHS (medians: less sensitive to the load than wall-clock seconds).
* ``parts-30``: the same curve 10 times in one warm process (after one untimed), CPU µs per point (and, the least
  sensitive to the load, each point's least CPU of its 10 repetitions, inside and outside HiGHS): inside
  ``Highs.run``, writing the budget (``WarmLinearProgram._prepare``), the staircase bound (``LdpLinearProgram.
  _lower_bound``), the rest of ``WarmLinearProgram.solve`` (reading the solution), the rest of
  ``DesignProblem.solve_point`` (``solve_validated`` in trees before it: validation, measures, the Result) and the
  rest (the curve, the problem's setup).
* ``steps-30``: this tree only (its internals): the point of ``parts-30`` step by step, each step's least CPU µs of
  10 repetitions of the curve (summed over the steps: the per-point floor outside HiGHS of this pipeline).
* ``same-55``: the numbers, not the seconds: 55-point curves (``trace_curve``, local DP, ε = 0, …, 12) at n = 30 with
  two random costs (seeds 0 and 1) and at n = 12: the SHA-1 of each curve's objectives (equal digests: the same
  objectives to the last bit), how many points are "optimal", and the largest certified gap.
* ``renyi-11``: Rényi DP α = 2, every pair neighbouring, ε = 1, through ``method="cvxpy"`` at n = 8, …, 11 with
  seeds 0–5 each (24 designs, the problem of :func:`_problem` at that seed): CPU seconds of all 24 and of their
  certificates (``design_lower_bound``), how many are "optimal", the largest gap (the share printed is of the CPU
  outside the certificate).
* ``direct-100``, ``generation-300``: a 10-budget curve on the dense direct LP (``method="direct-lp"``) and
  by column generation, with the seconds inside the safe bound (``LdpLinearProgram._lower_bound``) or the
  pricing (``OutputGeneration._price``, which generates the outputs and bounds them at once).

Run::

    mkdir ../a57 ../pre31
    git archive a57bcdc | tar -x -C ../a57     # before certification
    git archive 20036d5 | tar -x -C ../pre31   # before issue 31
    PYTHONPATH=. python benchmarks/certificate_cost.py --tree a57=../a57 --tree pre31=../pre31 --tree now=.

(``--cases`` picks cases, ``--repeats`` the repetitions.) Results in benchmarks/RESULTS.md.
"""

from __future__ import annotations

import argparse
import inspect
import json
import math
import os
import subprocess
import sys
import time
from typing import Any

import numpy as np

CASES = ("cvxpy-100", "cvxpy-200", "maxinfo-100", "pmlset-100", "pmlball-60", "hockey-20", "clarabel-100", "nocap-100", "cap-100",
         "binding-100", "curve-30", "parts-30", "steps-30", "same-55", "direct-100", "generation-300", "renyi-11")


def _problem(n: int, seed: int = 0) -> tuple[Any, Any]:
    from mechdesign import ExpectedDistortion, Prior

    rng = np.random.default_rng(seed)
    prior = Prior(rng.dirichlet(np.ones(n)))
    return ExpectedDistortion(prior, rng.random((n, n))), ExpectedDistortion(prior, rng.random((n, n)))


class _Clock:
    """Seconds spent inside ``owner.name`` (wrapped in place): wall-clock, and this process's CPU; with ``then``,
    inside ``then(result)`` too (e.g. reading what the call returned)."""

    def __init__(self, owner: Any, name: str, then: Any = None) -> None:
        self.seconds = self.cpu = 0.0
        original = getattr(owner, name)

        def timed(*args: Any, **kwargs: Any) -> Any:
            start, cpu = time.perf_counter(), time.process_time()
            try:
                result = original(*args, **kwargs)
                return result if then is None else then(result)
            finally:
                self.seconds += time.perf_counter() - start
                self.cpu += time.process_time() - cpu

        setattr(owner, name, timed)


class _SolutionRead:
    """A HiGHS solution whose columns' values and rows' duals are read at once (highspy builds a list at each read
    of these attributes: the reading is then timed with the call)."""

    def __init__(self, solution: Any) -> None:
        self.col_value, self.row_dual, self._solution = solution.col_value, solution.row_dual, solution

    def __getattr__(self, name: str) -> Any:
        return getattr(self._solution, name)


def _cpu_clock(owner: Any, name: str, spent: dict[str, float]) -> None:
    """Add the process's CPU seconds inside ``owner.name`` (wrapped in place) to ``spent[name]``."""
    original = getattr(owner, name)

    def timed(*args: Any, **kwargs: Any) -> Any:
        cpu = time.process_time()
        try:
            return original(*args, **kwargs)
        finally:
            spent[name] += time.process_time() - cpu

    setattr(owner, name, timed)


def _summary(result: Any) -> dict[str, Any]:
    return {"status": result.status, "method": getattr(result, "method", "?"), "gap": getattr(result, "gap", None),
            "objective": result.objective}


def _notion(kind: str, prior: np.ndarray) -> Any:
    """The notion of a cvxpy case (``kind``) under the problem's ``prior``."""
    from mechdesign import (ApproximateDifferentialPrivacy, DifferentialPrivacy, MaximalInformation,
                            PointwiseMaximalLeakage, Prior, SourceSet)

    if kind == "maxinfo":
        return MaximalInformation(Prior(prior))
    if kind == "pmlset":
        return PointwiseMaximalLeakage(SourceSet([prior, np.roll(prior, 1), np.full(prior.size, 1 / prior.size)]))
    if kind == "pmlball":
        from mechdesign.priors import L1Ball

        return PointwiseMaximalLeakage(L1Ball(prior, 0.5))
    if kind == "hockey":
        return ApproximateDifferentialPrivacy(0.05, "hockey_stick")
    return DifferentialPrivacy()


def run_case(case: str) -> dict[str, Any]:
    """One case in this process's mechdesign (imports and warm-up excluded from the seconds)."""
    import cvxpy  # noqa: F401 - imported before timing, as in a session that has designed before
    import highspy

    from mechdesign import DesignProblem, DifferentialPrivacy, design, trace_curve

    solve_module = sys.modules[DesignProblem.__module__]  # the module that defines it (solve.py before issue 33 item 3)

    named = "method" in inspect.signature(design).parameters
    highs = _Clock(highspy.Highs, "run")
    design(DifferentialPrivacy(), 1.0, _problem(4)[0], solver="clarabel")  # warm-up: every import made
    highs.seconds = 0.0
    out: dict[str, Any] = {}
    kind, n = case.rsplit("-", 1)
    n = int(n)
    objective, other = _problem(n)
    if kind in ("cvxpy", "maxinfo", "pmlset", "pmlball", "hockey"):
        clocks = [_Clock(solve_module, "design_lower_bound")] if hasattr(solve_module, "design_lower_bound") else []
        if hasattr(solve_module.DesignProblem, "_pricing_bound"):
            clocks.append(_Clock(solve_module.DesignProblem, "_pricing_bound"))
        start = time.perf_counter()
        result = design(_notion(kind, objective.prior.probabilities), 1.0, objective,
                        **({"method": "cvxpy", "solver": "clarabel"} if named else {"solver": "clarabel"}))
        out.update(seconds=time.perf_counter() - start, certificate=sum(clock.seconds for clock in clocks),
                   **_summary(result))
    elif kind == "renyi":
        from mechdesign import RenyiDifferentialPrivacy

        spent = {"design_lower_bound": 0.0}
        _cpu_clock(solve_module, "design_lower_bound", spent)
        start, statuses, gaps = time.process_time(), [], []
        for inputs in range(8, n + 1):
            for seed in range(6):
                result = design(RenyiDifferentialPrivacy(2.0), 1.0, _problem(inputs, seed)[0], method="cvxpy")
                statuses.append(result.status)
                gaps.append(result.gap if result.gap is not None else math.inf)
        out.update(seconds=time.process_time() - start, certificate=spent["design_lower_bound"], method="cvxpy",
                   status=f"{statuses.count('optimal')}/{len(statuses)} optimal", gap=max(gaps))
    elif kind == "clarabel":
        start = time.perf_counter()
        result = design(DifferentialPrivacy(), 1.0, objective, solver="clarabel")
        out.update(seconds=time.perf_counter() - start, **_summary(result))
    elif kind in ("nocap", "cap", "binding"):
        free = design(DifferentialPrivacy(), 1.0, objective)
        limits = []
        if kind != "nocap":
            reached = other.value(free.mechanism)
            least = design(DifferentialPrivacy(), 1.0, other).objective
            limits = [(other, reached + 0.05 if kind == "cap" else least + 0.1 * (reached - least))]
        start = time.perf_counter()
        result = design(DifferentialPrivacy(), 1.0, objective, limits=limits)
        out.update(seconds=time.perf_counter() - start, **_summary(result))
    elif kind == "curve":
        api = [_Clock(highspy.Highs, name) for name in ("changeCoeff", "changeColsCost", "changeRowsBounds",
                                                         "passModel", "getInfo", "getInfoValue")]
        api.append(_Clock(highspy.Highs, "getSolution", _SolutionRead))
        highs.cpu = 0.0
        start, cpu = time.perf_counter(), time.process_time()
        curve = trace_curve(DifferentialPrivacy(), objective, np.linspace(0.1, 5.0, 50))
        out.update(seconds=time.perf_counter() - start, highs=highs.seconds, cpu=time.process_time() - cpu,
                   outside_cpu=time.process_time() - cpu - highs.cpu, api_cpu=sum(clock.cpu for clock in api),
                   status="optimal" if all(r.status == "optimal" for r in curve.results) else "not all optimal")
    elif kind == "parts":
        import mechdesign.methods.direct as direct
        from mechdesign import DesignProblem

        # The method a curve calls per point: solve_point (from the second pass of 2026-11-28 on), solve_validated, or
        # solve in the trees before it.
        point = next(name for name in ("solve_point", "solve_validated", "solve") if hasattr(DesignProblem, name))
        spent: dict[str, float] = {}
        for owner, name in ((highspy.Highs, "run"), (direct.WarmLinearProgram, "_prepare"),
                            (direct.LdpLinearProgram, "_lower_bound"), (direct.WarmLinearProgram, "solve"),
                            (DesignProblem, point)):
            if hasattr(owner, name) and name not in spent:  # "solve": WarmLinearProgram's (trees before solve_validated)
                spent[name] = 0.0
                _cpu_clock(owner, name, spent)
        # Each point's CPU seconds and HiGHS's within them, for the least of the 10 repetitions of every point: the
        # others' load only adds to a point's seconds (caches, the shared core), so the least is the nearest to an
        # idle machine's.
        points: list[tuple[float, float]] = []
        solve_point = getattr(DesignProblem, point)

        def timed_point(*args: Any, **kwargs: Any) -> Any:
            cpu, inside = time.process_time(), spent["run"]
            try:
                return solve_point(*args, **kwargs)
            finally:
                points.append((time.process_time() - cpu, spent["run"] - inside))

        setattr(DesignProblem, point, timed_point)
        budgets = np.linspace(0.1, 5.0, 50)
        trace_curve(DifferentialPrivacy(), objective, budgets)
        spent.update((name, 0.0) for name in spent)
        points.clear()
        start, cpu = time.perf_counter(), time.process_time()
        curves = [trace_curve(DifferentialPrivacy(), objective, budgets) for _ in range(10)]
        total = time.process_time() - cpu
        runs = np.array(points).reshape(10, budgets.size, 2)
        out["least"] = {"inside": 1e6 * runs[:, :, 1].min(axis=0).mean(),
                        "outside": 1e6 * (runs[:, :, 0] - runs[:, :, 1]).min(axis=0).mean()}
        per = {name: 1e6 * value / 500 for name, value in spent.items()}
        parts = {"HiGHS run": per["run"], "budget": per.get("_prepare", 0.0), "bound": per.get("_lower_bound", 0.0),
                 "solution read": per["solve"] - per["run"] - per.get("_prepare", 0.0) - per.get("_lower_bound", 0.0),
                 f"{point}'s rest": per[point] - per["solve"] if point != "solve" else 0.0,  # see above
                 "curve and setup": 1e6 * total / 500 - per[point]}
        out.update(seconds=time.perf_counter() - start, cpu=total / 10, outside_cpu=(total - spent["run"]) / 10,
                   parts=parts, status="optimal" if all(r.status == "optimal" for c in curves for r in c.results)
                   else "not all optimal")
    elif kind == "steps":
        import mechdesign.methods.direct as direct
        from mechdesign import DesignProblem
        from mechdesign.mechanism import Mechanism
        from mechdesign.result import clean_mechanism
        from mechdesign.solvers import run_highs

        problem = DesignProblem(DifferentialPrivacy(), objective, method="direct-lp")
        program, notion, budgets = problem.direct, problem.notions[0], np.linspace(0.1, 5.0, 50)
        steps: list[list[float]] = []
        start = time.perf_counter()
        for _ in range(11):  # the first, untimed
            for epsilon in budgets:
                marks = [time.process_time()]
                program._prepare(epsilon, None)
                marks.append(time.process_time())
                run_highs(program.highs)
                marks.append(time.process_time())
                solution = program.highs.getSolution()
                values = np.fromiter(solution.col_value, float, program._costs.size)
                duals = np.fromiter(solution.row_dual, float, program._row_lower.size) * program.objective_scale
                marks.append(time.process_time())
                value = program.objective_scale * program.highs.getObjectiveValue()
                program._lower_bound(duals, epsilon, value - direct.TIGHT_BOUND_RTOL * max(1.0, abs(value)))
                marks.append(time.process_time())
                raw = program._mechanism(values, epsilon)
                program.violation(raw, epsilon)
                marks.append(time.process_time())
                cleaned = clean_mechanism(raw)
                marks.append(time.process_time())
                # The trusted constructor of a cleaned point where the tree has it (e772dcd on), else the validation.
                mechanism = Mechanism.from_cleaned(cleaned) if hasattr(Mechanism, "from_cleaned") else Mechanism(cleaned)
                marks.append(time.process_time())
                notion.measure(mechanism)
                marks.append(time.process_time())
                problem.solved_objective.value(mechanism)
                marks.append(time.process_time())
                problem._result(mechanism, value, True, "", "direct-lp", "highs", {notion.label: epsilon}, {}, 0.0)
                marks.append(time.process_time())
                steps.append(np.diff(marks).tolist())
        names = ("budget written", "HiGHS run", "solution read", "bound", "mechanism and violation", "cleaned",
                 "Mechanism (from_cleaned where present)", "measure", "objective", "Result (the objective in the caller's units, the fields)")
        least = 1e6 * np.array(steps[budgets.size:]).reshape(10, budgets.size, len(names)).min(axis=0).mean(axis=0)
        outside = float(least.sum() - least[1])
        out.update(seconds=time.perf_counter() - start, status=", ".join(
            f"{name} {value:.1f}" for name, value in zip(names, least)) + f"; outside HiGHS {outside:.0f} µs "
            f"({100 * outside / least[1]:.0f} % of HiGHS's run)")
    elif kind == "same":
        import hashlib

        start, digests, optimal, gaps = time.perf_counter(), [], 0, [0.0]
        for size, seed in ((30, 0), (30, 1), (12, 0)):
            curve = trace_curve(DifferentialPrivacy(), _problem(size, seed)[0], np.linspace(0.0, 12.0, n))
            digests.append(hashlib.sha1(np.asarray(curve.y, dtype=float).tobytes()).hexdigest()[:12])
            optimal += sum(r.status == "optimal" for r in curve.results)
            gaps += [r.gap for r in curve.results if getattr(r, "gap", None) is not None]
        out.update(seconds=time.perf_counter() - start, status=f"{optimal} of {3 * n} optimal, objectives' SHA-1 "
                   f"{' '.join(digests)}, largest gap {max(gaps):.1e}")
    elif not named:  # direct / generation need method= (from 20036d5's ancestors on)
        out.update(seconds=float("nan"), status="n/a (no method= in this tree)")
    else:  # direct / generation: a 10-budget curve on one compiled problem
        from mechdesign import DesignProblem

        method = "direct-lp" if kind == "direct" else "column-generation"
        if kind == "direct":
            from mechdesign.methods.direct import LdpLinearProgram as owner
            name = "_lower_bound"
        else:
            from mechdesign.methods.column_generation import LdpColumnGeneration as owner
            name = "_price"
        bound = _Clock(owner, name)
        problem = DesignProblem(DifferentialPrivacy(), objective, method=method)
        start = time.perf_counter()
        results = [problem.solve(epsilon) for epsilon in np.linspace(0.2, 3.0, 10)]
        out.update(seconds=time.perf_counter() - start, certificate=bound.seconds, highs=highs.seconds,
                   status="optimal" if all(r.status == "optimal" for r in results) else "not all optimal")
    out["load"] = os.getloadavg()[0]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tree", action="append", default=[], help="NAME=PATH of a checkout (repeatable)")
    parser.add_argument("--cases", nargs="*", default=list(CASES), choices=CASES)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--case", help=argparse.SUPPRESS)  # internal: run one case here, print JSON
    args = parser.parse_args()
    if args.case:
        print(json.dumps(run_case(args.case)))
        return
    trees = [tree.split("=", 1) for tree in args.tree] or [["now", "."]]
    print(f"load average at start: {os.getloadavg()}; trees: {trees}")
    print("| case | tree | best s (others) | certificate s (share of the rest) | HiGHS s | status, method, gap, objective "
          "| load |")
    print("|---|---|---|---|---|---|---|")
    for case in args.cases:
        runs: dict[str, list[dict[str, Any]]] = {name: [] for name, _ in trees}
        for _ in range(args.repeats):
            for name, path in trees:
                environment = {**os.environ, "PYTHONPATH": os.path.abspath(path)}
                output = subprocess.run([sys.executable, __file__, "--case", case], env=environment, check=True,
                                        capture_output=True, text=True).stdout
                runs[name].append(json.loads(output.strip().splitlines()[-1]))
        for name, _ in trees:
            ordered = sorted(runs[name], key=lambda run: run["seconds"])
            best = ordered[0]
            others = ", ".join(f"{run['seconds']:.3f}" for run in ordered[1:])
            certificate = best.get("certificate")
            share = "" if certificate is None else (
                f"{certificate:.3f} ({100 * certificate / max(best['seconds'] - certificate, 1e-12):.1f} %)")
            highs = f"{best['highs']:.3f}" if "highs" in best else ""
            if "cpu" in best:  # CPU seconds (median of the repetitions) and their part outside HiGHS
                median = sorted(runs[name], key=lambda run: run["cpu"])[len(runs[name]) // 2]
                highs += f"; CPU {median['cpu']:.3f}, outside HiGHS {median['outside_cpu']:.3f} (median)"
                if "parts" in median:
                    highs += ", per point (µs): " + ", ".join(f"{part} {value:.0f}" for part, value in median["parts"].items())
                    least = min(runs[name], key=lambda run: run["least"]["outside"])["least"]
                    highs += (f"; least of 10 per point (best process, µs): HiGHS {least['inside']:.0f}, outside "
                              f"{least['outside']:.0f} ({100 * least['outside'] / least['inside']:.0f} %)")
                    # the same, the median process's (each process's share, then their median): one lucky process
                    # does not make it
                    shares = sorted(run["least"]["outside"] / run["least"]["inside"] for run in runs[name])
                    typical = sorted(runs[name], key=lambda run: run["least"]["outside"])[len(runs[name]) // 2]["least"]
                    highs += (f", median process: outside {typical['outside']:.0f}, share "
                              f"{100 * shares[len(shares) // 2]:.1f} % (range {100 * shares[0]:.1f}–{100 * shares[-1]:.1f})")
                if "api_cpu" in median:
                    highs += (f", of which HiGHS's other calls (coefficients, costs, model, solution read) "
                              f"{median['api_cpu']:.3f}")
            gap, objective = best.get("gap"), best.get("objective")
            print(f"| {case} | {name} | {best['seconds']:.3f} ({others}) | {share} | {highs} | {best['status']}, "
                  f"{best.get('method', '')}, {'' if gap is None else f'{gap:.1e}'}"
                  f"{'' if objective is None else f', objective {objective:.10f}'} | {best['load']:.2f} |", flush=True)


if __name__ == "__main__":
    main()
