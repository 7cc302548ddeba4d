"""Hockey-stick (ε, δ)-DP design (methods/hockey_stick.py) in this tree against a git revision, side by side.

Minimal expected distortion under ``ApproximateDifferentialPrivacy(δ, "hockey_stick")`` for a Zipf prior
with Hamming cost and for a Zipf prior with a seeded random cost, over a grid of (ε, δ). Each design
runs in a fresh interpreter, first with the package of git revision ``--baseline`` (exported with
``git archive``), then with this tree, stopped after ``--cap`` seconds; a (revision, cost, ε, δ) stopped
at some n is not tried at larger n. Time, objective, certified gap, status and the path taken are
printed with the load average and written to ``benchmarks/out/hockey_stick.csv``.

``--measure`` instead times ``ApproximateDifferentialPrivacy(0.01, "hockey_stick").measure`` on an
n × n mechanism (random, and randomized response, where every pair is tight), best of 3 per run.

Run: ``python benchmarks/hockey_stick.py [--baseline main] [--sizes 20 40 100 200] [--cap 120]
[--epsilons 0.5 1 2] [--deltas 0.001 0.01] [--kinds zipf-hamming random] [--measure]``
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from ldp_formulations import write_rows

#: The child program of a design: seconds, objective, gap, status and the start of the message.
DESIGN_CHILD = """
import sys, time, numpy as np
from mechdesign import ApproximateDifferentialPrivacy, ExpectedDistortion, Prior
from mechdesign.methods.hockey_stick import design_hockey_stick
kind, n, epsilon, delta = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
weights = 1.0 / np.arange(1, n + 1)
prior = Prior(weights / weights.sum())
cost = None if kind == "zipf-hamming" else np.random.default_rng(n).random((n, n))
objective = ExpectedDistortion(prior) if cost is None else ExpectedDistortion(prior, cost)
start = time.perf_counter()
result = design_hockey_stick(ApproximateDifferentialPrivacy(delta, "hockey_stick"), epsilon, objective)
seconds = time.perf_counter() - start
path = "sandwich" if "leak_restriction" in result.message else "cuts"
print(seconds, result.objective, result.gap, result.status, path)
"""

#: The child program of ``--measure``: the best of 3 measurements and the value, on a seeded mechanism.
MEASURE_CHILD = """
import sys, time, numpy as np
from mechdesign import ApproximateDifferentialPrivacy
n, kind = int(sys.argv[1]), sys.argv[2]
if kind == "random":
    matrix = np.random.default_rng(n).dirichlet(np.full(n, 0.5), size=n)
else:  # every pair tight at once: randomized response at e^1 (what a design returns looks like this)
    matrix = np.full((n, n), 1.0 / (np.e + n - 1)); np.fill_diagonal(matrix, np.e / (np.e + n - 1))
notion = ApproximateDifferentialPrivacy(0.01, "hockey_stick")
times = []
for _ in range(3):
    start = time.perf_counter(); value = notion.measure(matrix); times.append(time.perf_counter() - start)
print(min(times), value)
"""


def run_child(source: Path, program: str, arguments: list, cap: float) -> list[str] | None:
    """The output words of ``program`` run with the package at ``source``; ``None`` after ``cap`` seconds."""
    env = dict(os.environ, PYTHONPATH=str(source))
    try:
        completed = subprocess.run([sys.executable, "-c", program, *map(str, arguments)], env=env, cwd=source,
                                   check=True, capture_output=True, text=True, timeout=cap)
    except subprocess.TimeoutExpired:
        return None
    return completed.stdout.split()


def export(revision: str, here: Path, directory: str) -> Path:
    """The package of git ``revision``, extracted into ``directory``."""
    archive = subprocess.run(["git", "archive", revision, "mechdesign"], cwd=here, check=True, capture_output=True)
    subprocess.run(["tar", "-x", "-C", directory], input=archive.stdout, check=True)
    return Path(directory)


def compare_designs(sources: dict[str, Path], args: argparse.Namespace) -> list[dict]:
    """Every design of the grid with each source, interleaved."""
    rows, stopped = [], set()
    print(f"{'cost':>12} {'n':>4} {'ε':>4} {'δ':>6} {'tree':>9} {'seconds':>8} {'objective':>14} {'gap':>8} "
          f"{'status':>9} {'path':>8} load")
    for kind in args.kinds:
        for n in args.sizes:
            for epsilon in args.epsilons:
                for delta in args.deltas:
                    for name, source in sources.items():
                        key = (name, kind, epsilon, delta)
                        if key in stopped:
                            continue
                        words = run_child(source, DESIGN_CHILD, [kind, n, epsilon, delta], args.cap)
                        if words is None:
                            stopped.add(key)
                            words = [f"{args.cap}", "nan", "nan", f">{args.cap:g}s", "-"]
                        load = os.getloadavg()[0]
                        row = {"cost": kind, "n": n, "epsilon": epsilon, "delta": delta, "tree": name,
                               "seconds": float(words[0]), "objective": float(words[1]), "gap": float(words[2]),
                               "status": words[3], "path": words[4], "load": load}
                        rows.append(row)
                        print(f"{kind:>12} {n:4d} {epsilon:4g} {delta:6g} {name:>9} {row['seconds']:8.2f} "
                              f"{row['objective']:14.10f} {row['gap']:8.1e} {row['status']:>9} {row['path']:>8} "
                              f"{load:.1f}", flush=True)
    return rows


def compare_measures(sources: dict[str, Path], sizes: list[int]) -> list[dict]:
    """The measure with each source, side by side."""
    rows = []
    print(f"{'mechanism':>12} {'n':>4} " + " ".join(f"{name + ' (s)':>14}" for name in sources) + " |Δ value| load")
    for kind in ("random", "all-tight"):
        for n in sizes:
            row: dict = {"mechanism": kind, "n": n}
            for name, source in sources.items():
                words = run_child(source, MEASURE_CHILD, [n, kind], cap=600.0)
                row[f"{name} seconds"], row[f"{name} value"] = float(words[0]), float(words[1])
            values = [row[f"{name} value"] for name in sources]
            row["difference"], row["load"] = max(values) - min(values), os.getloadavg()[0]
            rows.append(row)
            print(f"{kind:>12} {n:4d} " + " ".join(f"{row[f'{name} seconds']:14.4f}" for name in sources)
                  + f" {row['difference']:9.1e} {row['load']:.1f}", flush=True)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", default="main", help="git revision to compare with")
    parser.add_argument("--sizes", type=int, nargs="+", default=[20, 40, 100, 200])
    parser.add_argument("--epsilons", type=float, nargs="+", default=[0.5, 1.0, 2.0])
    parser.add_argument("--deltas", type=float, nargs="+", default=[1e-3, 1e-2])
    parser.add_argument("--kinds", nargs="+", default=["zipf-hamming", "random"])
    parser.add_argument("--cap", type=float, default=120.0)
    parser.add_argument("--measure", action="store_true", help="time the measure instead of designs")
    args = parser.parse_args()
    here = Path(__file__).resolve().parents[1]
    with tempfile.TemporaryDirectory() as directory:
        sources = {args.baseline: export(args.baseline, here, directory), "this": here}
        if args.measure:
            write_rows(compare_measures(sources, args.sizes), "hockey_stick_measure")
        else:
            write_rows(compare_designs(sources, args), "hockey_stick")


if __name__ == "__main__":
    main()
