"""The README's main job: one optimal design and a short privacy–distortion curve with closed forms.

Run with ``mechdesign demo --out DIR``: prints the designed mechanism with its certificate and a
table of ``D*(ε)`` (numerical optimum beside the PUT paper's Proposition 8), and writes
``DIR/curve.csv`` and ``DIR/curve.png`` (each atomically: an interrupted run leaves the old files).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from .curves import trace_curve
from .files import atomic_output
from .priors import Prior
from .privacy import DifferentialPrivacy, MaximalLeakage, PointwiseMaximalLeakage
from .solve import design
from .theory import put
from .utility import ExpectedDistortion

SKEWED_PRIOR = (0.4, 0.3, 0.2, 0.1)
BUDGETS = np.linspace(0.0, 2.5, 11)


def run_demo(out: Path) -> dict[str, Path]:
    """Run the demo, print its results, and write ``curve.csv`` and ``curve.png`` under ``out``.

    Parameters
    ----------
    out
        The directory to write to (created if missing).

    Returns
    -------
    dict of str to Path
        The paths written, under the keys ``"csv"`` and ``"png"``.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out.mkdir(parents=True, exist_ok=True)
    skewed, uniform = Prior(SKEWED_PRIOR), Prior.uniform(len(SKEWED_PRIOR))
    m = uniform.size

    print(f"1) Optimal 1.0-LDP mechanism for prior {list(SKEWED_PRIOR)}, expected Hamming distortion")
    result = design(DifferentialPrivacy(), 1.0, ExpectedDistortion(skewed))
    print(result.summary())
    print(np.array2string(result.mechanism.matrix, precision=4, suppress_small=True))

    print(f"\n2) D*(ε): least expected Hamming distortion, m = {m}")
    curves = {
        "DP, uniform prior": trace_curve(DifferentialPrivacy(), ExpectedDistortion(uniform), BUDGETS),
        "max. leakage, uniform prior": trace_curve(MaximalLeakage(), ExpectedDistortion(uniform), BUDGETS),
        "PML, skewed prior": trace_curve(PointwiseMaximalLeakage(skewed), ExpectedDistortion(skewed), BUDGETS),
    }
    closed = {
        "DP, uniform prior": [put.prop8_dp_distortion(m, e) for e in BUDGETS],
        "max. leakage, uniform prior": [put.prop8_maximal_leakage_distortion(m, e) for e in BUDGETS],
    }
    header = f"{'ε':>6} {'DP':>10} {'Prop8(1)':>10} {'ML':>10} {'Prop8(4)':>10} {'PML skewed':>11}"
    print(header)
    rows = []
    for i, eps in enumerate(BUDGETS):
        dp, ml, pml = (curves[k].y[i] for k in curves)
        row = [eps, dp, closed["DP, uniform prior"][i], ml, closed["max. leakage, uniform prior"][i], pml]
        rows.append(row)
        print(f"{eps:6.2f} {dp:10.6f} {row[2]:10.6f} {ml:10.6f} {row[4]:10.6f} {pml:11.6f}")
    gap = max(abs(r[1] - r[2]) for r in rows) + max(abs(r[3] - r[4]) for r in rows)
    print(f"largest gap between optimum and closed form: {gap:.2e}; every point private: "
          f"{all(c.success for c in curves.values())}, certified optimal: {all(c.optimal for c in curves.values())}")

    csv_path = out / "curve.csv"
    with atomic_output(csv_path) as handle:
        np.savetxt(handle, np.array(rows), delimiter=",", comments="",
                   header="epsilon,dp_uniform,prop8_dp,ml_uniform,prop8_ml,pml_skewed")
    fig, ax = plt.subplots(figsize=(6, 4))
    for (name, curve), marker in zip(curves.items(), "osd"):
        curve.plot(ax, label=f"{name} (optimum)", marker=marker, linestyle="none")
    fine = np.linspace(0, BUDGETS[-1], 200)
    ax.plot(fine, [put.prop8_dp_distortion(m, e) for e in fine], "C0-", lw=1, label="Prop. 8(1) closed form")
    ax.plot(fine, [put.prop8_maximal_leakage_distortion(m, e) for e in fine], "C1-", lw=1, label="Prop. 8(4) closed form")
    ax.set_xlabel("privacy budget ε (nats)")
    ax.set_ylabel("least expected Hamming distortion D*(ε)")
    ax.set_title(f"Privacy–distortion trade-off, m = {m}")
    ax.legend(fontsize=8)
    fig.tight_layout()
    png_path = out / "curve.png"
    with atomic_output(png_path, "wb") as handle:
        fig.savefig(handle, format="png", dpi=120)
    plt.close(fig)
    print(f"\nwrote {csv_path} and {png_path}")
    return {"csv": csv_path, "png": png_path}
