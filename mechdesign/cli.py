"""The ``mechdesign`` command: design, measure, and the demo run by the README.

Examples
--------
``mechdesign design --notion dp --epsilon 1 --prior 0.4,0.3,0.2,0.1``
``mechdesign measure mechanism.csv --prior 0.5,0.5 --delta 0.1 --json``
``mechdesign demo --out mechdesign-demo``
``mechdesign curve --notion maximal-leakage --n 4 --mode privacy --grid 0.05,0.75,8 --out ml``
``mechdesign theory-check all --format json``
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from .exceptions import MechDesignError
from .mechanism import Mechanism
from .priors import Prior
from .privacy import (
    ApproximateDifferentialPrivacy,
    DifferentialPrivacy,
    MaximalLeakage,
    MutualInformationPrivacy,
    PointwiseMaximalLeakage,
    PrivacyNotion,
)
from .privacy import MaximalInformation, RenyiDifferentialPrivacy, SibsonMutualInformation
from .solve import design
from .checks import CHECKS, run_check
from .checks.formats import FORMATS, format_rows
from .checks.plots import plots_directory, write_plots
from .utility import ExpectedDistortion, MutualInformation, WorstCaseInputDistortion
from .utility.base import Objective

NotionFactory = Callable[[argparse.Namespace, "Prior | None"], PrivacyNotion]


def _require_prior(prior: Prior | None, notion: str) -> Prior:
    if prior is None:
        raise MechDesignError(f"notion {notion!r} needs a prior: pass --prior")
    return prior


def _require_delta(args: argparse.Namespace) -> float:
    if args.delta is None:
        raise MechDesignError("notion 'approx-dp' needs --delta")
    return args.delta


def _require_alpha(args: argparse.Namespace, notion: str) -> float:
    if getattr(args, "alpha", None) is None:
        raise MechDesignError(f"notion {notion!r} needs --alpha (an order > 1)")
    return args.alpha


#: Command-line notion names and how to build each from the parsed arguments and prior.
NOTIONS: dict[str, NotionFactory] = {
    "dp": lambda args, prior: DifferentialPrivacy(),
    "approx-dp": lambda args, prior: ApproximateDifferentialPrivacy(_require_delta(args), args.variant),
    "maximal-leakage": lambda args, prior: MaximalLeakage(),
    "mutual-information": lambda args, prior: MutualInformationPrivacy(_require_prior(prior, "mutual-information")),
    "pml": lambda args, prior: PointwiseMaximalLeakage(_require_prior(prior, "pml")),
    "max-information": lambda args, prior: MaximalInformation(_require_prior(prior, "max-information")),
    "renyi-dp": lambda args, prior: RenyiDifferentialPrivacy(_require_alpha(args, "renyi-dp")),
    "sibson-mi": lambda args, prior: SibsonMutualInformation(
        _require_alpha(args, "sibson-mi"), _require_prior(prior, "sibson-mi")),
}

#: Command-line objective names and how to build each from the prior.
OBJECTIVES: dict[str, Callable[[Prior], Objective]] = {
    "expected-distortion": ExpectedDistortion,
    "worst-case-input": lambda prior: WorstCaseInputDistortion(prior.size),
    "mutual-information": MutualInformation,
}


def _parse_prior(text: str | None, n: int | None) -> Prior | None:
    if text is not None:
        try:
            values = [float(v) for v in text.split(",")]
        except ValueError as exc:
            raise MechDesignError(f"--prior must be comma-separated numbers, got {text!r}") from exc
        return Prior(values)
    return Prior.uniform(n) if n is not None else None


def _load_mechanism(path: Path) -> Mechanism:
    if not path.exists():
        raise MechDesignError(f"no such file: {path}")
    if path.suffix.lower() == ".json":
        data = json.loads(path.read_text())
        return Mechanism(data["mechanism"] if isinstance(data, dict) else data)
    try:
        matrix = np.loadtxt(path, delimiter=",", ndmin=2)
    except ValueError as exc:
        raise MechDesignError(f"{path} is not a CSV of numbers (one row per input): {exc}") from exc
    return Mechanism(matrix)


def _format_matrix(matrix: np.ndarray) -> str:
    return "\n".join("  " + " ".join(f"{v:9.6f}" for v in row) for row in matrix)


def _cmd_design(args: argparse.Namespace) -> int:
    prior = _parse_prior(args.prior, args.n)
    if prior is None:
        raise MechDesignError("design needs the input alphabet: pass --prior P1,P2,... or --n N (uniform prior)")
    notion = NOTIONS[args.notion](args, prior)
    objective = OBJECTIVES[args.objective](prior)
    limits = [(ExpectedDistortion(prior), args.max_distortion)] if args.max_distortion is not None else []
    result = design(notion, args.epsilon, objective, limits=limits, solver=args.solver)
    if args.json:
        print(json.dumps(result.to_dict(), indent=2))
    else:
        print(f"notion: {notion.label} ({notion.reference}), prior: {np.round(prior.probabilities, 6).tolist()}")
        print(result.summary())
        if result.mechanism is not None:
            print("mechanism (rows = inputs):")
            print(_format_matrix(result.mechanism.matrix))
    return 0 if result.success else 1


def measure_all(mechanism: Mechanism, prior: Prior | None, delta: float | None,
                alpha: float | None = None) -> dict[str, Any]:
    """Every notion's measure for ``mechanism``; a notion that cannot be evaluated gets a reason."""
    values: dict[str, Any] = {}
    args = argparse.Namespace(delta=delta, variant="pointwise", alpha=alpha)
    for name, factory in NOTIONS.items():
        variants = ("pointwise", "hockey_stick") if name == "approx-dp" else (None,)
        for variant in variants:
            args.variant = variant or "pointwise"
            key = f"{name}({variant})" if variant else name
            try:
                values[key] = factory(args, prior).measure(mechanism)
            except MechDesignError as exc:
                values[key] = f"skipped: {exc}"
    return values


def _cmd_measure(args: argparse.Namespace) -> int:
    mechanism = _load_mechanism(Path(args.file))
    prior = _parse_prior(args.prior, None)
    values = measure_all(mechanism, prior, args.delta, args.alpha)
    if args.json:
        print(json.dumps({k: (v if isinstance(v, str) or math.isfinite(v) else "inf") for k, v in values.items()}, indent=2))
    else:
        print(f"mechanism {args.file}: {mechanism.n_inputs} inputs × {mechanism.n_outputs} outputs")
        for key, value in values.items():
            print(f"  {key:28s} {value if isinstance(value, str) else f'{value:.10g} nats'}")
    return 0


def _parse_values(args: argparse.Namespace) -> list[float]:
    """The abscissae of ``curve``: ``--values a,b,…`` or ``--grid start,stop,count`` (inclusive)."""
    text = args.values if args.values is not None else args.grid
    if text is None or (args.values is not None and args.grid is not None):
        raise MechDesignError("curve needs exactly one of --values a,b,... or --grid start,stop,count")
    try:
        numbers = [float(v) for v in text.split(",")]
    except ValueError as exc:
        raise MechDesignError(f"curve values must be comma-separated numbers, got {text!r}") from exc
    if args.values is not None:
        return numbers
    if len(numbers) != 3 or numbers[2] != int(numbers[2]) or numbers[2] < 2:
        raise MechDesignError(f"--grid must be start,stop,count with an integer count >= 2, got {text!r}")
    return np.linspace(numbers[0], numbers[1], int(numbers[2])).tolist()


def _cmd_curve(args: argparse.Namespace) -> int:
    from .curves import privacy_distortion_curve, trace_curve
    from .priors import SourceSet
    from .utility import WorstCaseDistortion

    values = _parse_values(args)
    if args.no_prior_knowledge:
        if args.n is None:
            raise MechDesignError("--no-prior-knowledge needs the alphabet size --n")
        source: Any = SourceSet.simplex(args.n)
        objective: Objective = WorstCaseDistortion(source)
    else:
        source = _parse_prior(args.prior, args.n)
        if source is None:
            raise MechDesignError("curve needs --prior P1,P2,..., --n N (uniform prior) or --n N --no-prior-knowledge")
        objective = ExpectedDistortion(source)
    notion = NOTIONS[args.notion](args, source)
    if args.mode == "distortion":
        curve = trace_curve(notion, objective, values, solver=args.solver)
    else:
        curve = privacy_distortion_curve(notion, objective, values, solver=args.solver)
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    csv_path = curve.to_csv(Path(f"{args.out}.csv"))
    ax = curve.plot(marker="o")
    ax.set_title(f"{notion.label}: {'D*(epsilon)' if args.mode == 'distortion' else 'epsilon*(D)'}")
    png_path = Path(f"{args.out}.png")
    ax.figure.savefig(png_path, dpi=120)
    plt.close(ax.figure)
    for x, y, result in zip(curve.x, curve.y, curve.results):
        print(f"{curve.x_name} {x:.6g}: {curve.y_name} {y:.10g}" + ("" if result.success else f"  ({result.message})"))
    print(f"wrote {csv_path} and {png_path}")
    return 0 if curve.success else 1


def _cmd_demo(args: argparse.Namespace) -> int:
    from .demo import run_demo

    run_demo(Path(args.out))
    return 0


# --- SML (Wang, Lin & Fanti): `mechdesign sml FILE --secret ...` and `mechdesign sml-design ...` ---


def _parse_secret(text: str) -> list[str]:
    values = [v.strip() for v in text.split(",")]
    if not all(values):
        raise MechDesignError(f"--secret must be comma-separated secret values (one per input), got {text!r}")
    return values


def _cmd_sml(args: argparse.Namespace) -> int:
    from .privacy.sml import Secret, measure_sml, property1_bounds

    mechanism = _load_mechanism(Path(args.file))
    secret = Secret(_parse_secret(args.secret))
    result = measure_sml(mechanism, secret, args.method, time_limit=args.time_limit)
    lower, upper = property1_bounds(mechanism, secret)
    payload = {"sml": result.value, "upper": result.upper, "exact": result.exact, "method": result.method,
               "selection": result.selection.tolist(), "secret_values": secret.n_values,
               "property1_bounds": [lower, upper]}
    if args.json:
        print(json.dumps(payload, indent=2))
    else:
        status = "exact" if result.exact else f"best found; proven upper bound {result.upper:.10g}"
        print(f"SML of {args.file} ({mechanism.n_inputs} inputs, {secret.n_values} secret values): "
              f"{result.value:.10g} nats [{result.method}, {status}]")
        print(f"  worst-case selection (one input per secret value): {result.selection.tolist()}")
        print(f"  Property 1 bounds: [{lower:.10g}, {upper:.10g}]")
    return 0


def _cmd_sml_design(args: argparse.Namespace) -> int:
    from .privacy.sml import Secret, design_under_sml
    from .tabular import HistogramSpace, category_fraction_secret, tv_distortion

    if args.tau is not None:
        if args.d is None:
            raise MechDesignError("sml-design with --tau needs --d (number of categories)")
        space = HistogramSpace(args.tau, args.d)
        secret, objective = category_fraction_secret(space, args.category), tv_distortion(space)
    elif args.secret is not None:
        secret = Secret(_parse_secret(args.secret))
        objective = WorstCaseInputDistortion(secret.n_inputs)
    else:
        raise MechDesignError("sml-design needs --secret V1,V2,... (Hamming distortion) or --tau and --d (histograms)")
    result = design_under_sml(secret, args.budget, objective, solver=args.solver)
    if args.json:
        print(json.dumps(result.to_dict(), indent=2))
    else:
        print(f"SML budget {args.budget} for {secret!r}; objective {objective.label}")
        print(result.summary())
        if result.mechanism is not None and result.mechanism.n_inputs <= 20:
            print("mechanism (rows = inputs):")
            print(_format_matrix(result.mechanism.matrix))
    return 0 if result.success else 1


def _add_sml_commands(commands: Any) -> None:
    p_sml = commands.add_parser("sml", help="statistic maximal leakage of a mechanism (CSV or JSON) for a secret")
    p_sml.add_argument("file", help="CSV (one row per input) or JSON mechanism")
    p_sml.add_argument("--secret", required=True, help="comma-separated secret value of each input, e.g. 0,0,1,1")
    p_sml.add_argument("--method", choices=["auto", "enumerate", "milp", "flow"], default="auto")
    p_sml.add_argument("--time-limit", type=float, help="seconds for the MILP (then an upper bound is reported)")
    p_sml.add_argument("--json", action="store_true")
    p_sml.set_defaults(run=_cmd_sml)

    p_design = commands.add_parser("sml-design", help="least-distortion mechanism under an SML budget")
    p_design.add_argument("--budget", type=float, required=True, help="SML budget T (nats)")
    p_design.add_argument("--secret", help="comma-separated secret value of each input (Hamming distortion)")
    p_design.add_argument("--tau", type=int, help="histogram precision (with --d: TV distortion, category secret)")
    p_design.add_argument("--d", type=int, help="number of histogram categories")
    p_design.add_argument("--category", type=int, default=0, help="category whose fraction is secret")
    p_design.add_argument("--solver", choices=["highs", "clarabel", "scs"])
    p_design.add_argument("--json", action="store_true")
    p_design.set_defaults(run=_cmd_sml_design)


def _cmd_theory_check(args: argparse.Namespace) -> int:
    folder = plots_directory(args.plots) if args.plots else None  # a bad directory fails before the solves
    rows = run_check(args.paper, full=args.full)
    print(format_rows(rows, args.format))
    if folder is not None:
        for path in write_plots(rows, folder):
            print(f"wrote {path}", file=sys.stderr)
    return 0 if all(row.ok for row in rows) else 1


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``mechdesign`` command."""
    parser = argparse.ArgumentParser(prog="mechdesign", description="Optimal privacy mechanisms by convex optimization.")
    commands = parser.add_subparsers(dest="command", required=True)

    p_design = commands.add_parser("design", help="design an optimal mechanism")
    p_design.add_argument("--notion", choices=sorted(NOTIONS), default="dp")
    p_design.add_argument("--epsilon", type=float, required=True, help="privacy budget (nats)")
    p_design.add_argument("--delta", type=float, help="δ for approx-dp")
    p_design.add_argument("--variant", choices=["pointwise", "hockey_stick"], default="pointwise")
    p_design.add_argument("--alpha", type=float, help="order α > 1 for renyi-dp and sibson-mi")
    p_design.add_argument("--prior", help="comma-separated prior, e.g. 0.4,0.3,0.2,0.1")
    p_design.add_argument("--n", type=int, help="alphabet size with a uniform prior (if no --prior)")
    p_design.add_argument("--objective", choices=sorted(OBJECTIVES), default="expected-distortion")
    p_design.add_argument("--max-distortion", type=float, help="cap on the expected Hamming distortion")
    p_design.add_argument("--solver", choices=["highs", "clarabel", "scs"])
    p_design.add_argument("--json", action="store_true", help="machine-readable output")
    p_design.set_defaults(run=_cmd_design)

    p_measure = commands.add_parser("measure", help="measure a mechanism (CSV or JSON) under every notion")
    p_measure.add_argument("file", help="CSV (one row per input) or JSON ({'mechanism': [[...]]} or a list)")
    p_measure.add_argument("--prior", help="comma-separated prior (for mutual-information and pml)")
    p_measure.add_argument("--delta", type=float, help="δ for approx-dp")
    p_measure.add_argument("--alpha", type=float, help="order α > 1 for renyi-dp and sibson-mi")
    p_measure.add_argument("--json", action="store_true")
    p_measure.set_defaults(run=_cmd_measure)

    p_curve = commands.add_parser("curve", help="trace D*(epsilon) or epsilon*(D) (PUT paper, Definition 4)")
    p_curve.add_argument("--notion", choices=sorted(NOTIONS), default="dp")
    p_curve.add_argument("--mode", choices=["distortion", "privacy"], default="distortion",
                         help="distortion: D*(epsilon) over budgets; privacy: epsilon*(D) over distortions")
    p_curve.add_argument("--values", help="comma-separated budgets (distortion mode) or distortions (privacy mode)")
    p_curve.add_argument("--grid", help="start,stop,count: evenly spaced values instead of --values")
    p_curve.add_argument("--delta", type=float, help="δ for approx-dp")
    p_curve.add_argument("--variant", choices=["pointwise", "hockey_stick"], default="pointwise")
    p_curve.add_argument("--alpha", type=float, help="order α > 1 for renyi-dp and sibson-mi")
    p_curve.add_argument("--prior", help="comma-separated prior, e.g. 0.4,0.3,0.2,0.1")
    p_curve.add_argument("--n", type=int, help="alphabet size: uniform prior, or with --no-prior-knowledge")
    p_curve.add_argument("--no-prior-knowledge", action="store_true",
                         help="every prior (the whole simplex): worst-case privacy and distortion")
    p_curve.add_argument("--solver", choices=["highs", "clarabel", "scs"])
    p_curve.add_argument("--out", default="curve", help="output prefix: writes PREFIX.csv and PREFIX.png")
    p_curve.set_defaults(run=_cmd_curve)

    p_demo = commands.add_parser("demo", help="design a mechanism and trace a curve (README main job)")
    p_demo.add_argument("--out", default="mechdesign-demo", help="output folder for the table and plot")
    p_demo.set_defaults(run=_cmd_demo)
    _add_sml_commands(commands)

    p_theory = commands.add_parser("theory-check", help="compare the papers' closed forms with the optimizer")
    p_theory.add_argument("paper", choices=[*sorted(CHECKS), "all"],
                          help="put: Zhong & Bu, Privacy-Utility Trade-Off; pml: Grosse et al., Privacy Mechanism Design "
                               "based on Empirical Distributions; sml: Wang, Lin & Fanti, Statistic Maximal Leakage; "
                               "summary: Wang et al., Guarding Multiple Secrets; all: every paper")
    p_theory.add_argument("--format", choices=FORMATS, default="text", help="text table, Markdown table or JSON")
    p_theory.add_argument("--full", action="store_true", help="the full grid (slow) instead of the fast one")
    p_theory.add_argument("--plots", metavar="DIR", help="write one closed form vs optimizer plot per family into DIR")
    p_theory.set_defaults(run=_cmd_theory_check)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``mechdesign`` console script."""
    args = build_parser().parse_args(argv)
    try:
        return args.run(args)
    except MechDesignError as exc:
        print(f"mechdesign: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
