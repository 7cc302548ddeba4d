"""Whole-process times: ``import mechdesign`` and short ``mechdesign design`` runs, this tree against a baseline.

Issue 13, item 7 (import only what is used): cvxpy (and scipy.stats through it) used to be imported by
``import mechdesign`` although the closed forms and the direct LPs never use it. Each command runs in a
fresh interpreter, alternating between the two trees so that load changes hit both alike; the table
gives the median wall-clock time and the median CPU time (user + system, of the child process: less
sensitive to other jobs on a shared machine) of each and their ratio, with the load average beside it.

The baseline is a git revision (default ``main``) exported with ``git archive`` to a temporary
directory and put first on ``PYTHONPATH``; both trees run with the same interpreter and packages.

Usage: ``python benchmarks/import_time.py [--baseline main] [--repeats 7]``
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parents[1]

#: (name, arguments after the interpreter): each is one whole process.
COMMANDS = [
    ("import mechdesign", ["-c", "import mechdesign"]),
    ("mechdesign design --notion dp --n 60 (closed form)",
     ["-m", "mechdesign.cli", "design", "--notion", "dp", "--n", "60", "--epsilon", "1", "--json"]),
    ("mechdesign design --notion pml --n 60 (direct LP)",
     ["-m", "mechdesign.cli", "design", "--notion", "pml", "--n", "60", "--epsilon", "1", "--json"]),
    ("mechdesign design --notion renyi-dp --alpha 2 --n 8 (cvxpy)",
     ["-m", "mechdesign.cli", "design", "--notion", "renyi-dp", "--alpha", "2", "--n", "8", "--epsilon", "1",
      "--json"]),
]


def export_revision(revision: str, target: Path) -> Path:
    """The package of ``revision`` extracted under ``target`` (``git archive``; the repository is untouched)."""
    archive = subprocess.run(["git", "-C", str(REPOSITORY), "archive", revision, "mechdesign"],
                             check=True, capture_output=True).stdout
    archive_path = target / "baseline.tar"
    archive_path.write_bytes(archive)
    with tarfile.open(archive_path) as handle:
        handle.extractall(target, filter="data")
    return target


def run_once(arguments: list[str], python_path: Path, folder: Path) -> tuple[float, float]:
    """Wall-clock and CPU seconds of one interpreter running ``arguments`` with ``python_path`` first on the
    path (from ``folder``, which holds no package: ``-c`` puts the working directory before ``PYTHONPATH``)."""
    environment = {**os.environ, "PYTHONPATH": str(python_path)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([sys.executable, *arguments], check=True, env=environment, stdout=subprocess.DEVNULL, cwd=folder)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", default="main", help="git revision to compare with (default: main)")
    parser.add_argument("--repeats", type=int, default=7, help="runs of each command in each tree")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder, tempfile.TemporaryDirectory() as neutral:
        baseline = export_revision(args.baseline, Path(folder))
        print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
        print(f"| command | wall {args.baseline} (s) | wall this tree (s) | ratio "
              f"| CPU {args.baseline} (s) | CPU this tree (s) | ratio |")
        print("|---|---|---|---|---|---|---|")
        for name, arguments in COMMANDS:
            before, after = [], []
            for _ in range(args.repeats):
                before.append(run_once(arguments, baseline, Path(neutral)))
                after.append(run_once(arguments, REPOSITORY, Path(neutral)))
            cells = []
            for index in (0, 1):  # wall-clock, then CPU
                old = statistics.median(run[index] for run in before)
                new = statistics.median(run[index] for run in after)
                cells.append(f"{old:.3f} | {new:.3f} | {old / new:.1f}×")
            print(f"| {name} | {' | '.join(cells)} |")
        print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
