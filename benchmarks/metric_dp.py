"""Metric DP (issue 35): the certified design against qif's one-LP design, and its scaling.

Each run is a child process (its peak memory is the child's VmHWM), printed with its seconds and the machine's
1-minute load average beside it.

* ``qif``: W × W grids, Euclidean metric and loss, ε per unit in ``--epsilons``, priors ``uniform`` and
  ``clusters`` (three city-like Gaussian clusters on the grid, seed 35). Per case, qif's
  ``d_privacy.min_loss_given_d`` (every pair a row of one LP) and ``design_metric_dp`` run one after the other in
  the same invocation; the report gives both expected losses, |Δ optimum| (qif's answer is checked first:
  its mechanism re-measured by ``MetricDifferentialPrivacy.measure``), and the time ratio.
* ``baseline``: the designs of git revisions (``--rev``, each one's ``mechdesign/methods/metric.py`` loaded as a
  module beside the package's) and the current one, alternating, on a W × W grid with the clustered prior: rounds,
  CPU seconds (every thread's), seconds, the optimum (both must be certified and equal).
* ``scale``: ``design_metric_dp`` exact and spanner at W × W for W in ``--widths``: seconds, peak memory, certified
  gap, and the spanner's loss relative to the optimum.

Every child runs within 8 GB of address space (the issue's limit) and is killed after ``--timeout`` seconds, if
given (the design's ``--time-limit`` is checked between its rounds only); such a run's row says so.

Run::

    PYTHONPATH=. python benchmarks/metric_dp.py qif --width 8 --epsilons 0.1 0.5 1 --priors uniform clusters
    PYTHONPATH=. python benchmarks/metric_dp.py scale --widths 10 20 30 45 --epsilon 0.5 --time-limit 100 --timeout 150
    PYTHONPATH=. python benchmarks/metric_dp.py baseline --rev febd7ee --width 6 --epsilons 0.3 0.5 1
"""

from __future__ import annotations

import argparse
import json
import math
import os
import resource
import subprocess
import sys
import time

import numpy as np

SEED = 35


def grid_prior(width: int, kind: str) -> np.ndarray:
    """``uniform`` or ``clusters``: three Gaussian clusters (centres and spreads drawn with :data:`SEED`) plus 5 %
    uniform background."""
    n = width * width
    if kind == "uniform":
        return np.full(n, 1.0 / n)
    rng = np.random.default_rng(SEED)
    rows, columns = np.divmod(np.arange(n), width)
    density = np.full(n, 0.05 / n)
    for _ in range(3):
        centre = rng.uniform(0, width - 1, 2)
        spread = rng.uniform(0.08, 0.2) * width
        bump = np.exp(-((columns - centre[0]) ** 2 + (rows - centre[1]) ** 2) / (2 * spread ** 2))
        density += rng.uniform(0.2, 0.4) * bump / bump.sum()
    return density / density.sum()


def peak_memory() -> int:
    """This process's peak resident memory in bytes (VmHWM)."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    return 0


def one(arguments: argparse.Namespace) -> None:
    """Run one design in this (child) process and print its JSON line."""
    from mechdesign import Prior
    from mechdesign.methods.metric import design_metric_dp
    from mechdesign.privacy.metric import MetricDifferentialPrivacy

    notion = MetricDifferentialPrivacy.grid(arguments.width, arguments.width)
    prior = grid_prior(arguments.width, arguments.prior)
    start, cpu = time.perf_counter(), time.process_time()  # CPU: every thread's
    if arguments.tool == "qif":
        import qif

        metric = qif.metric.from_distance_matrix(notion.distances)
        matrix = qif.mechanism.d_privacy.min_loss_given_d(prior, notion.n_inputs, qif.metric.scale(metric,
                                                          arguments.epsilon), metric)
        seconds = time.perf_counter() - start
        loss = float((prior[:, None] * matrix * notion.distances).sum())
        answer = {"objective": loss, "measured": notion.measure(np.clip(matrix, 0, None)
                                                                / np.clip(matrix, 0, None).sum(axis=1, keepdims=True))}
    else:
        result = design_metric_dp(notion, arguments.epsilon, prior=Prior(prior), method=arguments.tool,
                                  time_limit=arguments.time_limit)
        seconds = time.perf_counter() - start
        answer = {"objective": result.objective, "status": result.status, "gap": result.gap, "bound": result.bound,
                  "measured": result.measured[notion.label], "rounds": result.iterations}
    print(json.dumps({**answer, "seconds": seconds, "cpu": time.process_time() - cpu, "peak_bytes": peak_memory(),
                      "load": os.getloadavg()[0]}))


#: Address space of every child (the issue's 8 GB): a run needing more fails there instead of swapping the machine.
MEMORY_LIMIT = 8 * 2**30


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def child(tool: str, width: int, epsilon: float, prior: str, time_limit: float | None,
          timeout: float | None = None) -> dict:
    """One run in a fresh interpreter, within :data:`MEMORY_LIMIT` and killed after ``timeout`` seconds (then
    ``{"failed": "timeout ..."}``; ``{"failed": "exit ..."}`` when it ends otherwise, e.g. out of memory)."""
    command = [sys.executable, __file__, "one", "--tool", tool, "--width", str(width), "--epsilon", str(epsilon),
               "--prior", prior] + ([] if time_limit is None else ["--time-limit", str(time_limit)])
    try:
        run = subprocess.run(command, capture_output=True, text=True, timeout=timeout, preexec_fn=_limit_memory)
    except subprocess.TimeoutExpired:
        return {"failed": f"timeout {timeout:g} s", "load": os.getloadavg()[0]}
    if run.returncode != 0:
        last = (run.stderr.strip().splitlines() or [""])[-1][:80]
        return {"failed": f"exit {run.returncode} ({last})", "load": os.getloadavg()[0]}
    return json.loads(run.stdout.strip().splitlines()[-1])


def _seconds(run: dict) -> str:
    """``seconds (load)``, or why the run has none."""
    return f"{run['failed']} ({run['load']:.1f})" if "failed" in run else f"{run['seconds']:.1f} ({run['load']:.1f})"


def _cpu(run: dict) -> str:
    """The run's CPU seconds (every thread's), or ``—``."""
    return "—" if "failed" in run else f"{run['cpu']:.1f}"


def against_qif(arguments: argparse.Namespace) -> None:
    print("| grid | prior | ε per unit | qif loss | ours | status | |Δ optimum| | qif measured ε | qif s (load) "
          "| ours s (load) | ratio |")
    for epsilon in arguments.epsilons:
        for prior in arguments.priors:
            baseline = child("qif", arguments.width, epsilon, prior, None, arguments.timeout)
            ours = child("exact", arguments.width, epsilon, prior, arguments.time_limit, arguments.timeout)
            both = "failed" not in baseline and "failed" not in ours
            print(f"| {arguments.width}×{arguments.width} | {prior} | {epsilon:g} | "
                  f"{baseline.get('objective', math.nan):.12g} | {ours.get('objective', math.nan):.12g} | "
                  f"{ours.get('status', '—')} | "
                  f"{abs(baseline['objective'] - ours['objective']) if both else math.nan:.1e} | "
                  f"{baseline.get('measured', math.nan):.9g} | {_seconds(baseline)} | {_seconds(ours)} | "
                  f"{baseline['seconds'] / ours['seconds'] if both else math.nan:.2f} |", flush=True)


def scale(arguments: argparse.Namespace) -> None:
    print("| grid | prior | ε per unit | exact CPU s | exact s (load) | peak MB | status | gap | rounds | spanner CPU s "
          "| spanner s (load) | spanner peak MB | spanner loss / optimum |")
    for width in arguments.widths:
        for prior in arguments.priors:
            exact = child("exact", width, arguments.epsilon, prior, arguments.time_limit, arguments.timeout)
            spanner = (child("spanner", width, arguments.epsilon, prior, arguments.time_limit, arguments.timeout)
                       if arguments.spanner else {"failed": "not run", "load": os.getloadavg()[0]})
            ratio = (spanner["objective"] / exact["objective"] if "failed" not in exact and "failed" not in spanner
                     and exact["status"] == "optimal" else math.nan)
            print(f"| {width}×{width} | {prior} | {arguments.epsilon:g} | {_cpu(exact)} | {_seconds(exact)} | "
                  f"{exact.get('peak_bytes', math.nan) / 2**20:.0f} | {exact.get('status', '—')} | "
                  f"{exact.get('gap', math.nan):.1e} | {exact.get('rounds', '—')} | {_cpu(spanner)} | "
                  f"{_seconds(spanner)} | {spanner.get('peak_bytes', math.nan) / 2**20:.0f} | {ratio:.4f} |",
                  flush=True)


def against_revision(arguments: argparse.Namespace) -> None:
    import importlib.util
    import tempfile

    from mechdesign import Prior
    from mechdesign.methods import metric as current
    from mechdesign.privacy.metric import MetricDifferentialPrivacy

    designs = []
    for rev in arguments.rev:
        source = subprocess.run(["git", "show", f"{rev}:mechdesign/methods/metric.py"], capture_output=True,
                                text=True, check=True).stdout
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, f"baseline_metric_{rev}.py")
            with open(path, "w") as handle:
                handle.write(source)
            spec = importlib.util.spec_from_file_location(f"mechdesign.methods.baseline_metric_{rev}", path)
            baseline = importlib.util.module_from_spec(spec)
            sys.modules[spec.name] = baseline
            spec.loader.exec_module(baseline)
        designs.append((rev, baseline))
    notion = MetricDifferentialPrivacy.grid(arguments.width, arguments.width)
    prior = Prior(grid_prior(arguments.width, "clusters"))
    print("| grid | ε per unit | design | status | optimum | gap | rounds | CPU s | s (load) |")
    for epsilon in arguments.epsilons:
        for name, module in designs + [("current", current)]:
            start, cpu = time.perf_counter(), time.process_time()  # CPU: every thread's (HiGHS runs in workers)
            result = module.design_metric_dp(notion, epsilon, prior=prior, time_limit=arguments.time_limit)
            seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
            print(f"| {arguments.width}×{arguments.width} | {epsilon:g} | {name} | {result.status} "
                  f"| {result.objective:.12f} | {result.gap:.1e} | {result.iterations} | {cpu:.1f} "
                  f"| {seconds:.1f} ({os.getloadavg()[0]:.1f}) |", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("one")
    run.add_argument("--tool", choices=["qif", "exact", "spanner"], required=True)
    run.add_argument("--width", type=int, required=True)
    run.add_argument("--epsilon", type=float, required=True)
    run.add_argument("--prior", choices=["uniform", "clusters"], required=True)
    run.add_argument("--time-limit", type=float)
    compare = commands.add_parser("qif")
    compare.add_argument("--width", type=int, default=8)
    compare.add_argument("--epsilons", type=float, nargs="+", default=[0.1, 0.5, 1.0])
    compare.add_argument("--priors", nargs="+", default=["uniform", "clusters"])
    compare.add_argument("--time-limit", type=float)
    compare.add_argument("--timeout", type=float, help="seconds after which a child is killed (none by default)")
    sizes = commands.add_parser("scale")
    sizes.add_argument("--widths", type=int, nargs="+", default=[10, 20, 30, 45])
    sizes.add_argument("--epsilon", type=float, default=0.5)
    sizes.add_argument("--priors", nargs="+", default=["clusters"])
    sizes.add_argument("--time-limit", type=float, default=100.0)
    sizes.add_argument("--timeout", type=float, default=150.0,
                       help="seconds after which a child is killed (the time limit is checked between rounds only)")
    sizes.add_argument("--no-spanner", dest="spanner", action="store_false", help="the exact design only")
    revision = commands.add_parser("baseline")
    revision.add_argument("--rev", nargs="+", required=True, help="git revisions, each run beside the current design")
    revision.add_argument("--width", type=int, default=6)
    revision.add_argument("--epsilons", type=float, nargs="+", default=[0.3, 0.5, 1.0])
    revision.add_argument("--time-limit", type=float, help="seconds per design (checked between rounds)")
    arguments = parser.parse_args()
    {"one": one, "qif": against_qif, "scale": scale, "baseline": against_revision}[arguments.command](arguments)


if __name__ == "__main__":
    main()
