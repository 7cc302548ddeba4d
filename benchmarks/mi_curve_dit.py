"""The mutual-information (rate–distortion) curve against dit: Newton's method vs Blahut–Arimoto vs dit's ``RDCurve``.

Same curves as ``benchmarks/rate_distortion.py`` (26 slopes, dit's β = 0 … 10 bits⁻¹, Hamming distortion, uniform
and Zipf sources on m ∈ {4, 16, 64} symbols), four contenders run side by side, alternating within each repetition:

* ``newton`` — :func:`mechdesign.utility.rate_distortion.rate_distortion_curve` (its default: Newton on Blahut's
  output distribution, each point certified to a gap of 1e-9);
* ``blahut`` — the same with ``method="blahut-arimoto"`` (Blahut–Arimoto, same target);
* ``base`` — the same ``rate_distortion_curve`` imported from another source tree (``--baseline DIR``, e.g.
  ``git archive 20036d5 | tar -x -C DIR``);
* ``dit`` — ``RDCurve(method="ba")``, whose answers are checked first: uniform source, the largest distance from
  the closed form ``log m − h(D) − D log(m − 1)``; Zipf source, from the bracket certified by ``newton``'s points
  (``rate_distortion.bracket_distance``).

Each run is a fresh child process timing only the curve (imports outside the clock), wall and CPU seconds; best of
``--repeats``, with the range of the 1-minute load average printed beside every row (the machine is shared: CPU
seconds depend less on it). dit is not a dependency of the
package: install it where the children can import it (``pip install dit``; ``--dit-path DIR`` is added at the end
of the children's ``sys.path``).

Run: ``python benchmarks/mi_curve_dit.py [--sizes 4 16 64] [--repeats 3] [--baseline DIR] [--dit-path DIR]``
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys

import numpy as np

from rate_distortion import BETAS_BITS, bracket_distance, sources, uniform_rate


def child(kind: str, m: int, source: str) -> dict:
    """In a child process: seconds, and per point distortion, rate, lower bound and slope of one curve."""
    import time

    prior = sources(m)[source]
    slopes = BETAS_BITS * math.log(2)
    if kind == "dit":
        from rate_distortion import dit_curve

        cpu = time.process_time()
        seconds, distortions, rates = dit_curve(prior)
        return {"seconds": seconds, "cpu": time.process_time() - cpu, "D": distortions.tolist(), "R": rates.tolist()}
    from mechdesign.utility.rate_distortion import rate_distortion_curve

    def curve(prior, slopes):
        if kind in ("newton", "base"):  # the baseline tree's rate_distortion_curve is Blahut–Arimoto alone
            return rate_distortion_curve(prior, slopes)
        return rate_distortion_curve(prior, slopes, method="blahut-arimoto")
    curve(prior, slopes[:2])  # lazy imports (scipy.linalg) outside the clock
    start, cpu = time.perf_counter(), time.process_time()
    points = curve(prior, slopes)
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    return {"seconds": seconds, "cpu": cpu, **{key: [getattr(p, name) for p in points] for key, name in
                                   (("D", "distortion"), ("R", "rate"), ("L", "lower_bound"), ("S", "slope"))}}


def run(kind: str, m: int, source: str, tree: str | None, dit_path: str | None) -> dict:
    """:func:`child` in a fresh interpreter, ``mechdesign`` from ``tree`` if given, and the load after it."""
    env = dict(os.environ)
    if tree:
        env["PYTHONPATH"] = os.path.abspath(tree)
    if dit_path:
        env["MI_CURVE_DIT_PATH"] = os.path.abspath(dit_path)
    out = subprocess.run([sys.executable, __file__, "--child", kind, str(m), source], env=env, capture_output=True,
                         text=True, check=True)
    return {**json.loads(out.stdout.splitlines()[-1]), "load": os.getloadavg()[0]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[4, 16, 64])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--baseline", help="source tree of the baseline's rate_distortion_curve")
    parser.add_argument("--dit-path", help="directory holding dit (appended to the children's sys.path)")
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        if os.environ.get("MI_CURVE_DIT_PATH"):
            sys.path.append(os.environ["MI_CURVE_DIT_PATH"])
        kind, m, source = args.child
        print(json.dumps(child(kind, int(m), source)))
        return
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    kinds = {"newton": here, "blahut": here, **({"base": args.baseline} if args.baseline else {}), "dit": None}
    print("| m | source | " + " | ".join(f"{k} (s)" for k in kinds) + " | dit / newton | dit / blahut | "
          "CPU: newton / dit (s) | CPU ratio | newton gap | dit error | load |")
    print("|---|---|" + "---|" * (len(kinds) + 7))
    for m in args.sizes:
        for source, prior in sources(m).items():
            runs: dict[str, list[dict]] = {k: [] for k in kinds}
            for _ in range(args.repeats):
                for kind, tree in kinds.items():
                    runs[kind].append(run(kind, m, source, tree, args.dit_path))
            best = {k: min(runs[k], key=lambda r: r["seconds"]) for k in kinds}
            newton = best["newton"]
            D, R, L, S = (np.array(newton[key]) for key in "DRLS")
            gap = float(np.max(R - L))
            for kind in ("blahut", "base"):  # the Blahut–Arimoto curves: certified to the same target
                if kind in best:
                    assert max(np.array(best[kind]["R"]) - np.array(best[kind]["L"])) <= 1e-9, kind
            dit = best["dit"]
            if source == "uniform":
                error = max(abs(r - uniform_rate(m, d)) for d, r in zip(dit["D"], dit["R"]))
            else:
                error = max(bracket_distance(d, r, D, R, L, S) for d, r in zip(dit["D"], dit["R"]))
            loads = [r["load"] for k in kinds for r in runs[k]]
            print(f"| {m} | {source} | " + " | ".join(f"{best[k]['seconds']:.4f}" for k in kinds)
                  + f" | {dit['seconds'] / newton['seconds']:.0f}× | {dit['seconds'] / best['blahut']['seconds']:.0f}× "
                  f"| {min(r['cpu'] for r in runs['newton']):.4f} / {min(r['cpu'] for r in runs['dit']):.3f} "
                  f"| {min(r['cpu'] for r in runs['dit']) / min(r['cpu'] for r in runs['newton']):.0f}× "
                  f"| {gap:.1e} | {error:.1e} | {min(loads):.1f}–{max(loads):.1f} |", flush=True)


if __name__ == "__main__":
    main()
