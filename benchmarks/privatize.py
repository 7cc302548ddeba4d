"""``mechdesign privatize`` and ``mechdesign estimate`` on 10⁶ rows: this tree against the commands before.

Issue 29, item 5 (runs like a data tool): the old commands read the whole CSV into dictionaries,
designed from the data and wrote in place (58 s and 1.5 GB for ``privatize`` on 1,009,391 rows). The
new ones stream the CSV in chunks (``mechdesign/deploy_cli.py``: numpy splits the records, the csv
module takes over for what only it reads as meant). The data is the Adult training split (``mechdesign.datasets``,
15 columns) repeated 31 times: 1,009,391 rows, the size of the issue's measurement.

Every command is a whole process in a fresh interpreter, old and new alternating so that changes of
load hit both alike; for each run the table gives the wall-clock and CPU time (user + system of the
child), its peak resident memory (``os.wait4``'s ``ru_maxrss``) and the 1-minute load average when it
started. The old tree is a git revision exported with ``git archive`` and put first on ``PYTHONPATH``.

Rows of the table:

* ``privatize`` as the issue ran it (old: categories and prior read from the data, distortion
  objective; new: declared categories, uniform prior, the default estimation objective);
* ``privatize --mechanism FILE`` (new only: a mechanism designed beforehand by ``mechdesign design``);
* ``privatize`` of the same rows with every field quoted (split by numpy all the same), and with a
  blank line or a quote within an unquoted field in the first row (whose chunk of 4 MB the new
  command leaves to the csv module);
* ``estimate`` of a column privatized with an estimable mechanism (old: ``--objective estimation``).

Usage: ``python benchmarks/privatize.py [--baseline 20036d5] [--repeats 1] [--copies 31]``
"""

from __future__ import annotations

import argparse
import csv
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from import_time import REPOSITORY, export_revision

#: The last commit before the deployment rework of issue 29.
BASELINE = "20036d5"
COLUMN = "education"


def write_data(path: Path, copies: int, quoting: int = csv.QUOTE_MINIMAL,
               first_line: str = "") -> tuple[int, list[str]]:
    """Adult's rows repeated ``copies`` times into ``path`` (fields quoted as ``quoting`` says, ``first_line``
    written as it is after the header); returns the row count and the column's categories."""
    sys.path.insert(0, str(REPOSITORY))
    from mechdesign.datasets import load_adult

    table = load_adult()
    names = list(table)
    rows = list(zip(*(table[name].tolist() for name in names)))
    with open(path, "w", newline="") as handle:
        writer = csv.writer(handle, lineterminator="\n", quoting=quoting)
        writer.writerow(names)
        handle.write(first_line)
        for _ in range(copies):
            writer.writerows(rows)
    return len(rows) * copies, sorted(set(table[COLUMN].tolist()))


def run_once(arguments: list[str], python_path: Path, folder: Path) -> dict[str, float]:
    """Wall-clock and CPU seconds, peak memory (MB) and the load average at the start of one whole process."""
    environment = {**os.environ, "PYTHONPATH": str(python_path)}
    load = os.getloadavg()[0]
    start = time.perf_counter()
    process = subprocess.Popen([sys.executable, "-m", "mechdesign.cli", *arguments], env=environment, cwd=folder,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(arguments)} failed: {process.stderr.read().decode()}")
    return {"wall": wall, "cpu": usage.ru_utime + usage.ru_stime, "rss": usage.ru_maxrss / 1024, "load": load}


def cell(run: dict[str, float]) -> str:
    return f"{run['wall']:.1f} s, CPU {run['cpu']:.1f} s, {run['rss']:.0f} MB (load {run['load']:.1f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", default=BASELINE, help="git revision of the old commands (default: %(default)s)")
    parser.add_argument("--repeats", type=int, default=1, help="runs of each command in each tree")
    parser.add_argument("--copies", type=int, default=31, help="copies of Adult's 32,561 rows (default: %(default)s)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as old_tree, tempfile.TemporaryDirectory() as work:
        folder = Path(work)
        baseline = export_revision(args.baseline, Path(old_tree))
        rows, categories = write_data(folder / "data.csv", args.copies)
        write_data(folder / "quoted.csv", args.copies, csv.QUOTE_ALL)
        write_data(folder / "blank.csv", args.copies, first_line="\n")
        write_data(folder / "stray.csv", args.copies, first_line='39,State-gov,77516,Bachelors,13,Never-married,'
                   'Adm-clerical,Not-in-family,White,Male,2174,0,40,United-"States,<=50K\n')
        declared = ",".join(categories)
        run_once(["design", "--epsilon", "1", "--categories", declared, "--out", "designed.json"], REPOSITORY, folder)
        commands = {  # name: (old arguments or None, new arguments)
            "privatize": (["privatize", "data.csv", "--column", COLUMN, "--epsilon", "1", "--out", "old.csv"],
                          ["privatize", "data.csv", "--column", COLUMN, "--epsilon", "1", "--categories", declared,
                           "--out", "new.csv"]),
            "privatize --mechanism": (None, ["privatize", "data.csv", "--column", COLUMN, "--mechanism",
                                             "designed.json", "--out", "new-file.csv"]),
            "privatize, every field quoted": (
                ["privatize", "quoted.csv", "--column", COLUMN, "--epsilon", "1", "--out", "old-quoted.csv"],
                ["privatize", "quoted.csv", "--column", COLUMN, "--epsilon", "1", "--categories", declared, "--out",
                 "new-quoted.csv"]),
            "privatize, a blank line first (its chunk read by the csv module)": (
                ["privatize", "blank.csv", "--column", COLUMN, "--epsilon", "1", "--out", "old-blank.csv"],
                ["privatize", "blank.csv", "--column", COLUMN, "--epsilon", "1", "--categories", declared, "--out",
                 "new-blank.csv"]),
            "privatize, a quote within a field first (its chunk read by the csv module)": (
                ["privatize", "stray.csv", "--column", COLUMN, "--epsilon", "1", "--out", "old-stray.csv"],
                ["privatize", "stray.csv", "--column", COLUMN, "--epsilon", "1", "--categories", declared, "--out",
                 "new-stray.csv"]),
            "estimate": (["estimate", "old-estimable.csv", "--column", COLUMN, "--mechanism",
                          "old-estimable.mechanism.json"],
                         ["estimate", "new.csv", "--column", COLUMN, "--mechanism", "new.mechanism.json"]),
        }
        run_once(["privatize", "data.csv", "--column", COLUMN, "--epsilon", "1", "--objective", "estimation",
                  "--out", "old-estimable.csv"], baseline, folder)  # what the old estimate reads
        print(f"{rows:,} rows × 15 columns ({(folder / 'data.csv').stat().st_size / 1e6:.0f} MB); baseline "
              f"{args.baseline}; {os.cpu_count()} cores")
        print(f"| command | {args.baseline} | this tree | ratio (wall, CPU, memory) |")
        print("|---|---|---|---|")
        for name, (old, new) in commands.items():
            for _ in range(args.repeats):
                before = run_once(old, baseline, folder) if old is not None else None
                after = run_once(new, REPOSITORY, folder)
                ratio = "" if before is None else " · ".join(
                    f"{before[key] / after[key]:.1f}×" for key in ("wall", "cpu", "rss"))
                print(f"| `{name}` | {'' if before is None else cell(before)} | {cell(after)} | {ratio} |", flush=True)


if __name__ == "__main__":
    main()
