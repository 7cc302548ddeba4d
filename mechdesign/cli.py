"""The ``mechdesign`` command: design, measure, and the demo run by the README.

Examples
--------
``mechdesign design --notion dp --epsilon 1 --prior 0.4,0.3,0.2,0.1``
``mechdesign measure mechanism.csv --prior 0.5,0.5 --delta 0.1 --json``
``mechdesign demo --out mechdesign-demo``
``mechdesign curve --notion maximal-leakage --n 4 --mode privacy --grid 0.05,0.75,8 --out ml``
``mechdesign theory-check all --format json``
``mechdesign privatize data.csv --column education --notion dp --epsilon 1 --out private.csv``
``mechdesign estimate private.csv --column education --mechanism private.mechanism.json``
"""

from __future__ import annotations

import argparse
import io
import json
import math
import os
import sys
import warnings
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ._validate import as_delta, as_order, check_count
from .exceptions import MechDesignError
from .mechanism import Mechanism
from .memory import check_array
from .priors import Prior
from .privacy import MetricDifferentialPrivacy, PrivacyNotion
from .privacy.metric import NORMS
from .progress import terminal_progress
from .registry import cli_names
from .solve import METHODS, design
from .solvers import solves_running
from .checks import CHECKS, run_check
from .checks.formats import FORMATS, format_rows
from .checks.plots import plots_directory, write_plots
from .command_line import JSON_HELP, _add_quiet_option, _parse_prior, strict_json
from .outputs import check_output_directory, check_output_paths
from .deploy_cli import _add_deploy_commands
from .units import UNITS, from_nats, to_nats
from .utility import ExpectedDistortion, MutualInformation, WorstCaseInputDistortion
from .utility.base import Objective

#: Largest mechanism printed as a matrix by ``mechdesign design`` (larger ones: ``--json``).
PRINTED_ENTRIES = 10_000

NotionFactory = Callable[[argparse.Namespace, "Prior | None"], PrivacyNotion]


#: Command-line notion names and how to build each from the parsed arguments and prior: the notion class's
#: own ``cli_name`` and :meth:`~mechdesign.privacy.base.PrivacyNotion.from_command_line`
#: (:func:`mechdesign.registry.cli_names`).
NOTIONS: dict[str, NotionFactory] = {name: cls.from_command_line for name, cls in cli_names().items()}

#: Command-line objective names and how to build each from the prior.
OBJECTIVES: dict[str, Callable[[Prior], Objective]] = {
    "expected-distortion": ExpectedDistortion,
    "worst-case-input": lambda prior: WorstCaseInputDistortion(prior.size),
    "mutual-information": MutualInformation,
}


def _read_text(path: Path) -> str:
    """The UTF-8 text of ``path``; a missing, unreadable or binary file, or a directory, is a
    :class:`MechDesignError`. A pipe or device is read like a file (``measure <(…)`` works)."""
    if not path.exists():
        raise MechDesignError(f"no such file: {path}")
    if path.is_dir():
        raise MechDesignError(f"{path} is a directory: pass a CSV or JSON mechanism file")
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise MechDesignError(f"{path} is not UTF-8 text (a binary file?): {exc.reason} at byte {exc.start}") from exc
    except OSError as exc:
        raise MechDesignError(f"cannot read {path}: {exc.strerror or exc}") from exc


def _load_mechanism(path: Path) -> Mechanism:
    return _load_mechanism_file(path)[0]


def _load_mechanism_file(path: Path) -> tuple[Mechanism, Any]:
    """The mechanism of a CSV or JSON file, and its :class:`~mechdesign.files.MechanismRecord` when the file
    is a versioned mechanism file (what ``design --out`` writes) or its ``Result`` (else ``None``)."""
    text = _read_text(path)
    if path.suffix.lower() == ".json":
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise MechDesignError(f"{path} is not valid JSON: {exc}") from exc
        if isinstance(data, dict) and data.get("format") == "mechdesign":
            from .files import MechanismRecord, load
            from .result import Result

            loaded = load(path)
            if isinstance(loaded, MechanismRecord):
                return loaded.mechanism, loaded
            if isinstance(loaded, Result):
                if loaded.mechanism is None:
                    raise MechDesignError(f"{path} holds a result without a mechanism (the design did not succeed)")
                return loaded.mechanism, None
            if isinstance(loaded, Mechanism):
                return loaded, None
            raise MechDesignError(f"{path} holds a {data.get('kind')!r} file, not a mechanism")
        if isinstance(data, dict) and "mechanism" not in data:
            raise MechDesignError(f"{path} has no \"mechanism\" key: give {{\"mechanism\": [[...], ...]}} or a list of rows")
        return Mechanism(data["mechanism"] if isinstance(data, dict) else data), None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)  # "input contained no data": refused below, in one line
            matrix = np.loadtxt(io.StringIO(text), delimiter=",", ndmin=2)
    except ValueError as exc:
        raise MechDesignError(f"{path} is not a CSV of numbers (one row per input): {exc}") from exc
    if matrix.size == 0:
        raise MechDesignError(f"{path} holds no numbers: give one row of output probabilities per input")
    return Mechanism(matrix), None


def _format_matrix(matrix: np.ndarray) -> str:
    return "\n".join("  " + " ".join(f"{v:9.6f}" for v in row) for row in matrix)


def _cmd_design(args: argparse.Namespace) -> int:
    from .deploy_cli import design_inputs
    from .files import envelope_text, mechanism_payload, record_from_result, result_payload, save

    sources = [path for path in (args.categories_from, args.prior_from) if path is not None]
    out = None if args.out is None else check_output_paths({"--out": args.out}, inputs=sources)["--out"]
    alphabet = (args.prior, args.prior_from, args.n, args.categories, args.categories_from)
    notion = None
    if args.notion == MetricDifferentialPrivacy.cli_name and all(option is None for option in alphabet):
        notion = NOTIONS[args.notion](args, None)  # built once: its (n, n) distances are the costly part
        args.n = notion.n_inputs  # a uniform prior over the locations
    categories, prior, prior_source = design_inputs(args)
    notion = NOTIONS[args.notion](args, prior) if notion is None else notion
    # metric DP's distortion is the metric itself (the quality loss of the location-privacy literature)
    cost = notion.distances if isinstance(notion, MetricDifferentialPrivacy) else None
    objective = ExpectedDistortion(prior, cost) if args.objective == "expected-distortion" \
        else OBJECTIVES[args.objective](prior)
    limits = [(ExpectedDistortion(prior, cost), args.max_distortion)] if args.max_distortion is not None else []
    result = design(notion, to_nats(args.epsilon, args.units), objective, limits=limits, solver=args.solver,
                    method=args.method)
    record = None
    if result.success and result.mechanism is not None:  # outputs of a square design reconstruct the inputs
        square = categories is not None and result.mechanism.n_outputs == len(categories)
        record = record_from_result(result, inputs=categories, outputs=categories if square else None, prior=prior,
                                    prior_source=prior_source, objective=args.objective,
                                    notion_names={notion.label: args.notion})
        if out is not None:
            save(record, out)
    if args.json:
        print(envelope_text("mechanism", mechanism_payload(record)) if record is not None
              else envelope_text("result", result_payload(result)), end="")
    else:
        print(f"notion: {notion.label} ({notion.reference}), prior: {np.round(prior.probabilities, 6).tolist()}")
        if isinstance(notion, MetricDifferentialPrivacy):
            of = "units of distance" if notion.unit == "unit" else notion.unit
            loss = f"; distortion: the expected distance (in {of})" if args.objective == "expected-distortion" else ""
            print(f"budget: ε = {args.epsilon:g} {args.units} per {notion.distance_unit}, {notion.n_inputs} "
                  f"locations{loss}")
        print(result.summary())
        _print_privacy_in_units(result.budgets, result.measured, args.units)
        if result.mechanism is not None and np.prod(result.mechanism.shape) <= PRINTED_ENTRIES:
            print("mechanism (rows = inputs):")
            print(_format_matrix(result.mechanism.matrix))
        elif result.mechanism is not None:
            print(f"mechanism: {result.mechanism.shape[0]}×{result.mechanism.shape[1]} (not printed; use --json)")
    if out is not None:
        print(f"wrote {out}" if record is not None else f"nothing written to {out}: the design did not succeed",
              file=sys.stderr if args.json else sys.stdout)
    return 0 if result.success else 1


def _print_privacy_in_units(budgets: dict[str, float], measured: dict[str, float], unit: str) -> None:
    """Budgets and measured leakages in ``unit`` (the summary above them is in nats)."""
    if unit != "nats":
        for label, value in measured.items():
            budget = f"budget {from_nats(budgets[label], unit):.6g}, " if label in budgets else ""
            print(f"  {label} in {unit}: {budget}measured {from_nats(value, unit):.6g}")


def measure_all(mechanism: Mechanism, prior: Prior | None, delta: float | None, alpha: float | None = None, *,
                locations: argparse.Namespace | None = None,
                built: Mapping[str, PrivacyNotion] | None = None) -> dict[str, Any]:
    """Every notion's measure for ``mechanism``; a notion that cannot be evaluated gets a reason.

    Parameters
    ----------
    mechanism
        The mechanism.
    prior
        The input distribution, or ``None`` (the notions that need one are skipped).
    delta
        δ for approximate DP, or ``None`` (skipped).
    alpha
        The order of Rényi DP and Sibson's mutual information, or ``None`` (skipped).
    locations
        metric-dp's options ``points``, ``location_grid`` and ``metric`` (``None``: skipped).
    built
        Notions the caller has built already, by command-line name (``measure``'s metric-dp, built once to check
        its locations): measured as they are instead of built again.

    Returns
    -------
    dict
        The measure (nats) of every notion by its command-line name, or ``"skipped: …"``.

    Examples
    --------
    Randomized response with ``1 − p = 3/4``: local DP ``log 3``, maximal leakage ``log 1.5``:

    >>> values = measure_all(Mechanism([[0.75, 0.25], [0.25, 0.75]]), None, None)
    >>> round(values["dp"], 6), round(values["maximal-leakage"], 6)
    (1.098612, 0.405465)
    >>> values["pml"]
    "skipped: notion 'pml' needs a prior: pass --prior"
    """
    values: dict[str, Any] = {}
    args = argparse.Namespace(delta=delta, variant="pointwise", alpha=alpha, **vars(locations or argparse.Namespace()))
    for name, factory in NOTIONS.items():
        variants = ("pointwise", "hockey_stick") if name == "approx-dp" else (None,)
        for variant in variants:
            args.variant = variant or "pointwise"
            key = f"{name}({variant})" if variant else name
            try:
                notion = (built or {}).get(key) or factory(args, prior)
                values[key] = notion.measure(mechanism)
            except MechDesignError as exc:
                values[key] = f"skipped: {exc}"
    return values


def _measure_prior(args: argparse.Namespace, mechanism: Mechanism, record: Any) -> Prior | None:
    """The prior of ``measure``: ``--prior``, ``--prior-from FILE --column C`` (the frequencies of the
    mechanism file's input labels, or of the column's distinct values when the file has none), else the
    prior a versioned mechanism file was designed under (said on standard error), else none."""
    from .deploy_cli import column_values, counts_prior, prior_counts

    if args.prior is not None and args.prior_from is not None:
        raise MechDesignError("give the prior once: --prior or --prior-from, not both")
    if args.prior_from is not None:
        if args.column is None:
            raise MechDesignError("--prior-from needs --column: the column of the file to read")
        labels = getattr(record, "inputs", None)
        if labels is None:
            labels = sorted(set(column_values(Path(args.prior_from), args.column, "--prior-from")))
            check_count(len(labels), mechanism.n_inputs, "--prior-from",
                        f"distinct values in column {args.column!r} (one per input of {args.file}, which names "
                        f"no inputs)")
        prior = counts_prior(prior_counts(Path(args.prior_from), args.column, labels), args.prior_from, args.column)
    elif args.prior is not None:
        prior = _parse_prior(args.prior, None)
    elif getattr(record, "prior", None) is not None:
        prior = record.prior
        print(f"mechdesign: notice: prior: the design's prior from {args.file} (source: "
              f"{record.prior_source or 'not recorded'})", file=sys.stderr)
    else:
        return None
    check_count(prior.size, mechanism.n_inputs, "--prior", f"entries (one per input of {args.file})")
    return prior


def _cmd_measure(args: argparse.Namespace) -> int:
    mechanism, record = _load_mechanism_file(Path(args.file))
    prior = _measure_prior(args, mechanism, record)
    delta = None if args.delta is None else as_delta(args.delta, "--delta")
    alpha = None if args.alpha is None else as_order(args.alpha, "--alpha")
    locations = argparse.Namespace(points=args.points, location_grid=args.location_grid, metric=args.metric)
    located = None
    if args.points is not None or args.location_grid is not None:  # asked for: bad locations are an error, not a skip
        located = NOTIONS[MetricDifferentialPrivacy.cli_name](locations, None)
        check_count(located.n_inputs, mechanism.n_inputs, "--points" if args.points is not None else "--grid",
                    f"locations (one per input of {args.file})")
    values = measure_all(mechanism, prior, delta, alpha, locations=locations,
                         built=None if located is None else {MetricDifferentialPrivacy.cli_name: located})
    if args.json:
        skipped = {k: v.removeprefix("skipped: ") for k, v in values.items() if isinstance(v, str)}
        measured = {k: (None if isinstance(v, str) else v) for k, v in values.items()}
        print(strict_json({**measured, **({"skipped": skipped} if skipped else {})}))
    else:
        print(f"mechanism {args.file}: {mechanism.n_inputs} inputs × {mechanism.n_outputs} outputs")
        per = {} if located is None else {MetricDifferentialPrivacy.cli_name: f" per {located.distance_unit}"}
        for key, value in values.items():
            shown = value if isinstance(value, str) else f"{from_nats(value, args.units):.10g} {args.units}"
            print(f"  {key:28s} {shown}{per.get(key, '')}")
    return 0


def _parse_values(args: argparse.Namespace) -> list[float]:
    """The abscissae of ``curve``: ``--values a,b,…`` or ``--grid start,stop,count`` (inclusive)."""
    text = args.values if args.values is not None else args.grid
    if text is None or (args.values is not None and args.grid is not None):
        raise MechDesignError("curve needs exactly one of --values a,b,... or --grid start,stop,count")
    grid_error = (f"--grid must be start,stop,count: finite numbers, an integer count >= 2, got {text!r} (a grid of "
                  "metric-dp's locations is --location-grid WxH)")
    try:
        numbers = [float(v) for v in text.split(",")]
    except ValueError as exc:
        raise MechDesignError(grid_error if args.values is None
                              else f"curve values must be comma-separated numbers, got {text!r}") from exc
    if args.values is not None:
        return numbers  # each checked by the curve as a budget or a limit
    if len(numbers) != 3 or not all(math.isfinite(number) for number in numbers) or not numbers[2].is_integer() \
            or numbers[2] < 2:
        raise MechDesignError(grid_error)
    check_array((numbers[2],), f"--grid with {numbers[2]:.0f} points")
    return np.linspace(numbers[0], numbers[1], int(numbers[2])).tolist()


def _cmd_curve(args: argparse.Namespace) -> int:
    from .curves import privacy_distortion_curve, trace_curve
    from .priors import SourceSet
    from .utility import WorstCaseDistortion

    values = _parse_values(args)
    if args.mode == "distortion":
        values = [to_nats(value, args.units) for value in values]
    prefix = _output_prefix(args.out, [path for path in (args.prior_from, args.categories_from) if path is not None])
    located = None
    if args.notion == MetricDifferentialPrivacy.cli_name:
        if args.no_prior_knowledge:
            raise MechDesignError("curve --notion metric-dp takes a prior over the locations (uniform by default), "
                                  "not --no-prior-knowledge")
        if all(option is None for option in (args.prior, args.prior_from, args.n, args.categories,
                                             args.categories_from)):
            located = NOTIONS[args.notion](args, None)  # built once, as design's: a uniform prior over the locations
            args.n = located.n_inputs
    if args.no_prior_knowledge:
        given = [option for option, value in (("--prior", args.prior), ("--prior-from", args.prior_from),
                                              ("--categories", args.categories),
                                              ("--categories-from", args.categories_from)) if value is not None]
        if given:
            raise MechDesignError(f"--no-prior-knowledge is every prior: it takes no {given[0]}")
        if args.n is None:
            raise MechDesignError("--no-prior-knowledge needs the alphabet size --n")
        source: Any = SourceSet.simplex(args.n)
        objective: Objective = WorstCaseDistortion(source)
    elif args.prior_from is not None or args.categories is not None or args.categories_from is not None:
        from .deploy_cli import design_inputs

        source = design_inputs(args)[1]
        objective = ExpectedDistortion(source)
    else:
        source = _parse_prior(args.prior, args.n)
        if source is None:
            raise MechDesignError("curve needs --prior P1,P2,..., --prior-from PUBLIC_CSV --column C, --n N (uniform "
                                  "prior) or --n N --no-prior-knowledge")
        objective = ExpectedDistortion(source)
    notion = NOTIONS[args.notion](args, source) if located is None else located
    if isinstance(notion, MetricDifferentialPrivacy):  # its distortion is the metric itself, as design's
        objective = ExpectedDistortion(source, notion.distances)
    with terminal_progress(args.quiet) as progress:
        if args.mode == "distortion":
            curve = trace_curve(notion, objective, values, solver=args.solver, progress=progress)
        else:
            # Bisection's reach and bracket are in the notion's budget unit (per unit of distance for metric DP: the
            # same locations in other units give the same curve, rescaled).
            curve = privacy_distortion_curve(notion, objective, values, solver=args.solver, progress=progress)
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    csv_path = curve.to_csv(prefix.with_name(prefix.name + ".csv"))
    # The budget axis (x in distortion mode, y in privacy mode) is shown in --units.
    budget_is_x = args.mode == "distortion"
    shown_x = [from_nats(x, args.units) if budget_is_x else x for x in curve.x]
    shown_y = [y if budget_is_x else from_nats(y, args.units) for y in curve.y]
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.plot(shown_x, shown_y, marker="o", label=notion.label)
    x_label, y_label, title = _curve_labels(args, notion, source)
    ax.set_xlabel(x_label)
    ax.set_ylabel(y_label)
    ax.set_title(title, fontsize=9)
    fig.tight_layout()
    png_path = prefix.with_name(prefix.name + ".png")
    fig.savefig(png_path, dpi=120)
    plt.close(fig)
    per = f" per {notion.distance_unit}" if isinstance(notion, MetricDifferentialPrivacy) else ""
    x_name = f"{curve.x_name} ({args.units}{per})" if budget_is_x else curve.x_name
    y_name = curve.y_name if budget_is_x else f"{curve.y_name} ({args.units}{per})"
    for x, y, result in zip(shown_x, shown_y, curve.results):
        print(f"{x_name} {x:.6g}: {y_name} {y:.10g}" + ("" if result.success else f"  ({result.message})"))
    print(f"wrote {csv_path} and {png_path}")
    return 0 if curve.success else 1


def _output_prefix(text: str, inputs: Sequence[str]) -> Path:
    """The ``--out`` prefix of ``curve``: ``PREFIX.csv`` and ``PREFIX.png`` must both be writable files,
    neither of them one of the ``inputs`` the command reads."""
    prefix = Path(text)
    if text.endswith(("/", os.sep)) or prefix.is_dir() or not prefix.name or prefix.name in (".", ".."):
        raise MechDesignError(f"--out is a file prefix (writes PREFIX.csv and PREFIX.png), got the directory {text!r}; "
                              f"e.g. --out {os.path.join(text, 'curve')}")
    check_output_paths({f"--out ({suffix})": prefix.with_name(prefix.name + suffix) for suffix in (".csv", ".png")},
                       inputs=inputs)
    return prefix


def _curve_labels(args: argparse.Namespace, notion: PrivacyNotion, source: Any) -> tuple[str, str, str]:
    """Axis labels (quantity and units) and a title naming the notion, the prior and n."""
    per = ""
    if args.no_prior_knowledge:
        distortion, knowledge = "worst-case expected Hamming distortion", f"no prior knowledge (every prior), n = {args.n}"
    else:
        prior = ", ".join(f"{p:.3g}" for p in source.probabilities)
        distortion, knowledge = "expected Hamming distortion", f"prior ({prior}), n = {source.size}"
    if isinstance(notion, MetricDifferentialPrivacy):
        per = f" per {notion.distance_unit}"
        distortion = f"expected distance (in {'units of distance' if notion.unit == 'unit' else notion.unit})"
        knowledge = f"{notion.n_inputs} locations"
    if args.mode == "distortion":
        return (f"privacy budget ε ({args.units}{per})", f"least {distortion} D*(ε)",
                f"{notion.label}: D*(ε), {knowledge}")
    return (f"allowed {distortion} D", f"least privacy leakage ε*(D) ({args.units}{per})",
            f"{notion.label}: ε*(D), {knowledge}")


def _cmd_demo(args: argparse.Namespace) -> int:
    from .demo import run_demo

    out = Path(args.out)
    if out.exists() and not out.is_dir():
        raise MechDesignError(f"--out: {out} exists and is not a directory")
    existing = next(parent for parent in (out, *out.parents) if parent.exists())
    check_output_directory(existing, "--out")
    for name in ("curve.csv", "curve.png"):
        if (out / name).exists():
            check_output_paths({"--out": out / name})
    run_demo(out)
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
    with terminal_progress(args.quiet) as progress:
        result = measure_sml(mechanism, secret, args.method, time_limit=args.time_limit, progress=progress)
    lower, upper = property1_bounds(mechanism, secret)
    payload = {"sml": result.value, "upper": result.upper, "exact": result.exact, "method": result.method,
               "selection": result.selection.tolist(), "secret_values": secret.n_values,
               "property1_bounds": [lower, upper]}
    if args.json:
        print(strict_json(payload))
    else:
        unit = args.units
        status = "exact" if result.exact else f"best found; proven upper bound {from_nats(result.upper, unit):.10g}"
        print(f"SML of {args.file} ({mechanism.n_inputs} inputs, {secret.n_values} secret values): "
              f"{from_nats(result.value, unit):.10g} {unit} [{result.method}, {status}]")
        print(f"  worst-case selection (one input per secret value): {result.selection.tolist()}")
        print(f"  Property 1 bounds: [{from_nats(lower, unit):.10g}, {from_nats(upper, unit):.10g}] {unit}")
    return 0


def _cmd_sml_design(args: argparse.Namespace) -> int:
    from .designers.sml import design_under_sml
    from .privacy.sml import Secret
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
    with terminal_progress(args.quiet) as progress:
        result = design_under_sml(secret, to_nats(args.budget, args.units), objective, solver=args.solver,
                                  progress=progress)
    if args.json:
        print(strict_json(result.to_dict()))
    else:
        print(f"SML budget {args.budget} {args.units} for {secret!r}; objective {objective.label}")
        print(result.summary())
        _print_privacy_in_units(result.budgets, result.measured, args.units)
        if result.mechanism is not None and result.mechanism.n_inputs <= 20:
            print("mechanism (rows = inputs):")
            print(_format_matrix(result.mechanism.matrix))
    return 0 if result.success else 1


def _add_sml_commands(commands: Any) -> None:
    p_sml = commands.add_parser("sml", help="statistic maximal leakage of a mechanism (CSV or JSON) for a secret")
    p_sml.add_argument("file", help="CSV (one row per input) or JSON mechanism")
    p_sml.add_argument("--secret", required=True, help="comma-separated secret value of each input, e.g. 0,0,1,1")
    p_sml.add_argument("--method", choices=["auto", "enumerate", "milp", "flow"], default="auto",
                       help="enumerate every selection, solve a MILP, or a matching (deterministic mechanisms); "
                            "auto picks the fastest exact one (default: %(default)s)")
    p_sml.add_argument("--time-limit", type=float, help="seconds for the MILP (then an upper bound is reported)")
    p_sml.add_argument("--json", action="store_true", help=JSON_HELP)
    _add_units_option(p_sml)
    _add_quiet_option(p_sml)
    p_sml.set_defaults(run=_cmd_sml)

    p_design = commands.add_parser("sml-design", help="least-distortion mechanism under an SML budget")
    p_design.add_argument("--budget", type=float, required=True, help="SML budget T (in --units, nats by default)")
    p_design.add_argument("--secret", help="comma-separated secret value of each input (Hamming distortion)")
    p_design.add_argument("--tau", type=int, help="histogram precision (with --d: TV distortion, category secret)")
    p_design.add_argument("--d", type=int, help="number of histogram categories")
    p_design.add_argument("--category", type=int, default=0, help="category whose fraction is secret")
    p_design.add_argument("--solver", choices=["highs", "clarabel", "scs"], help=SOLVER_HELP)
    p_design.add_argument("--json", action="store_true", help=JSON_HELP)
    _add_units_option(p_design)
    _add_quiet_option(p_design)
    p_design.set_defaults(run=_cmd_sml_design)


def _cmd_theory_check(args: argparse.Namespace) -> int:
    folder = plots_directory(args.plots) if args.plots else None  # a bad directory fails before the solves
    if args.self_test:
        from .checks.mutation import format_self_test, self_test  # the self-test's module only when asked for

        with terminal_progress(args.quiet) as progress:
            report = self_test(args.paper, full=args.full, progress=progress)
        rows, ok = list(report.rows), report.ok
        print(format_self_test(report, args.format))
    else:
        with terminal_progress(args.quiet) as progress:
            rows = run_check(args.paper, full=args.full, progress=progress)
        ok = all(row.ok for row in rows)
        print(format_rows(rows, args.format))
    if folder is not None:
        for path in write_plots(rows, folder):
            print(f"wrote {path}", file=sys.stderr)
    return 0 if ok else 1


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors reach :func:`main` (one error line) instead of exiting."""

    def error(self, message: str) -> Any:
        """Raise a :class:`MechDesignError` (argparse would print the usage and exit)."""
        command = self.prog.removeprefix("mechdesign").strip()
        raise MechDesignError(f"{command + ': ' if command else ''}{message} (see {self.prog} --help)")


#: Help text of options shared by several subcommands.
_NOTIONS_HELP = ("privacy notion: dp (local DP), approx-dp ((ε, δ)-DP), maximal-leakage, mutual-information, "
                 "pml (pointwise maximal leakage), max-information, renyi-dp, sibson-mi")
NOTION_HELP = (_NOTIONS_HELP + ", metric-dp (d-privacy, geo-indistinguishability: ε per unit of distance, on "
               "--points or --grid) (default: %(default)s)")
CURVE_NOTION_HELP = (_NOTIONS_HELP + ", metric-dp (ε per unit of distance, on --points or --location-grid; the "
                     "distortion is the expected distance) (default: %(default)s)")
VARIANT_HELP = ("approx-dp form: pointwise (Q[x,y] <= e^ε Q[x',y] + δ) or hockey_stick "
                "(hockey-stick divergence <= δ) (default: %(default)s)")
SOLVER_HELP = "convex solver to use (default: HiGHS for linear programs, Clarabel for conic ones)"
UNITS_HELP = ("units of information for budgets read and leakages printed or plotted (default: %(default)s; "
              "JSON and CSV outputs are always in nats)")


def _add_units_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--units", choices=UNITS, default="nats", help=UNITS_HELP)


def _add_location_options(parser: argparse.ArgumentParser, grid_option: str = "--grid") -> None:
    """metric-dp's locations: ``--points FILE`` or ``grid_option WxH`` (``--location-grid`` on ``curve``, whose
    ``--grid`` is its grid of values), and ``--metric``
    (:meth:`~mechdesign.privacy.metric.MetricDifferentialPrivacy.from_command_line`)."""
    parser.add_argument("--points", metavar="FILE", help="metric-dp: the locations, a CSV of coordinates (one row per "
                                                        "location; latitude,longitude in degrees for --metric "
                                                        "great-circle, distances in km)")
    parser.add_argument(grid_option, dest="location_grid", metavar="WxH",
                        help="metric-dp: a W × H grid of locations, 1 unit apart (instead of --points)")
    parser.set_defaults(location_grid_option=grid_option)
    parser.add_argument("--metric", choices=list(NORMS),
                        help="metric-dp: the distance between the locations (default: euclidean); budgets are per "
                             "unit of it, and the expected distance is design's default distortion")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``mechdesign`` command.

    Examples
    --------
    >>> build_parser().parse_args(["design", "--epsilon", "1", "--n", "3"]).notion
    'dp'
    """
    parser = _Parser(prog="mechdesign", description="Optimal privacy mechanisms by convex optimization.")
    commands = parser.add_subparsers(dest="command", required=True)

    p_design = commands.add_parser("design", help="design an optimal mechanism")
    p_design.add_argument("--notion", choices=sorted(NOTIONS), default="dp", help=NOTION_HELP)
    p_design.add_argument("--epsilon", type=float, required=True, help="privacy budget (in --units, nats by default)")
    p_design.add_argument("--delta", type=float, help="δ for approx-dp")
    p_design.add_argument("--variant", choices=["pointwise", "hockey_stick"], default="pointwise", help=VARIANT_HELP)
    p_design.add_argument("--alpha", type=float, help="order α > 1 for renyi-dp and sibson-mi")
    _add_location_options(p_design)
    p_design.add_argument("--prior", help="comma-separated prior, e.g. 0.4,0.3,0.2,0.1")
    p_design.add_argument("--prior-from", metavar="PUBLIC_CSV",
                          help="prior: the frequencies of --column in this public CSV file (counts, normalized)")
    p_design.add_argument("--n", type=int, help="alphabet size with a uniform prior (if no --prior)")
    p_design.add_argument("--categories", help="names of the inputs, a,b,c (uniform prior unless --prior is given); "
                                               "the mechanism file labels rows and outputs with them")
    p_design.add_argument("--categories-from", metavar="PUBLIC_CSV",
                          help="names of the inputs: the distinct values of --column in this public CSV file")
    p_design.add_argument("--column", help="the column read from --categories-from and --prior-from")
    p_design.add_argument("--objective", choices=sorted(OBJECTIVES), default="expected-distortion",
                          help="what to minimize: expected-distortion (expected Hamming distortion under the prior), "
                               "worst-case-input (largest expected distortion of any input) or mutual-information "
                               "(leakage I(X;Y) under the prior) (default: %(default)s)")
    p_design.add_argument("--max-distortion", type=float, help="cap on the expected Hamming distortion")
    p_design.add_argument("--solver", choices=["highs", "clarabel", "scs"], help=SOLVER_HELP)
    p_design.add_argument("--method", choices=["auto", *(method.name for method in METHODS)], default="auto",
                          help="design method (default: %(default)s: the first of solve.METHODS that applies)")
    p_design.add_argument("--json", action="store_true",
                          help="print the versioned mechanism file (JSON, nats) instead of text")
    p_design.add_argument("--out", metavar="FILE", help="write the versioned mechanism file (JSON) to FILE, for "
                                                        "`mechdesign privatize --mechanism FILE`")
    _add_units_option(p_design)
    p_design.set_defaults(run=_cmd_design)

    p_measure = commands.add_parser("measure", help="measure a mechanism (CSV or JSON) under every notion")
    p_measure.add_argument("file", help="CSV (one row per input) or JSON ({'mechanism': [[...]]} or a list)")
    p_measure.add_argument("--prior", help="comma-separated prior (for mutual-information and pml); by default "
                                           "the prior a versioned mechanism file was designed under")
    p_measure.add_argument("--prior-from", metavar="PUBLIC_CSV",
                           help="prior: the frequencies of --column in this public CSV file, over the mechanism "
                                "file's input labels (or the column's distinct values)")
    p_measure.add_argument("--column", help="the column read from --prior-from")
    p_measure.add_argument("--delta", type=float, help="δ for approx-dp")
    p_measure.add_argument("--alpha", type=float, help="order α > 1 for renyi-dp and sibson-mi")
    _add_location_options(p_measure)
    p_measure.add_argument("--json", action="store_true", help=JSON_HELP)
    _add_units_option(p_measure)
    p_measure.set_defaults(run=_cmd_measure)

    p_curve = commands.add_parser("curve", help="trace D*(epsilon) or epsilon*(D) (PUT paper, Definition 4)")
    p_curve.add_argument("--notion", choices=sorted(NOTIONS), default="dp", help=CURVE_NOTION_HELP)
    p_curve.add_argument("--mode", choices=["distortion", "privacy"], default="distortion",
                         help="distortion: D*(epsilon) over budgets; privacy: epsilon*(D) over distortions")
    p_curve.add_argument("--values", help="comma-separated budgets (distortion mode, in --units) or distortions "
                                          "(privacy mode)")
    p_curve.add_argument("--grid", help="start,stop,count: evenly spaced values instead of --values")
    p_curve.add_argument("--delta", type=float, help="δ for approx-dp")
    p_curve.add_argument("--variant", choices=["pointwise", "hockey_stick"], default="pointwise", help=VARIANT_HELP)
    p_curve.add_argument("--alpha", type=float, help="order α > 1 for renyi-dp and sibson-mi")
    _add_location_options(p_curve, "--location-grid")  # curve's --grid is its grid of values
    p_curve.add_argument("--prior", help="comma-separated prior, e.g. 0.4,0.3,0.2,0.1")
    p_curve.add_argument("--prior-from", metavar="PUBLIC_CSV",
                         help="prior: the frequencies of --column in this public CSV file (counts, normalized)")
    p_curve.add_argument("--categories", help="names of the inputs, a,b,c (the alphabet of --prior-from; uniform "
                                              "prior unless a prior is given)")
    p_curve.add_argument("--categories-from", metavar="PUBLIC_CSV",
                         help="names of the inputs: the distinct values of --column in this public CSV file")
    p_curve.add_argument("--column", help="the column read from --categories-from and --prior-from")
    p_curve.add_argument("--n", type=int, help="alphabet size: uniform prior, or with --no-prior-knowledge")
    p_curve.add_argument("--no-prior-knowledge", action="store_true",
                         help="every prior (the whole simplex): worst-case privacy and distortion")
    p_curve.add_argument("--solver", choices=["highs", "clarabel", "scs"], help=SOLVER_HELP)
    p_curve.add_argument("--out", default="curve", help="output prefix: writes PREFIX.csv and PREFIX.png")
    _add_units_option(p_curve)
    _add_quiet_option(p_curve)
    p_curve.set_defaults(run=_cmd_curve)

    p_demo = commands.add_parser("demo", help="design a mechanism and trace a curve (README main job)")
    p_demo.add_argument("--out", default="mechdesign-demo", help="output folder for the table and plot")
    p_demo.set_defaults(run=_cmd_demo)
    _add_sml_commands(commands)
    _add_deploy_commands(commands)

    p_theory = commands.add_parser("theory-check", help="compare the papers' closed forms with the optimizer")
    p_theory.add_argument("paper", choices=[*sorted(CHECKS), "all"],
                          help="put: Zhong & Bu, Privacy-Utility Trade-Off; pml: Grosse et al., Privacy Mechanism Design "
                               "based on Empirical Distributions; sml: Wang, Lin & Fanti, Statistic Maximal Leakage; "
                               "summary: Wang et al., Guarding Multiple Secrets; metric: Ghosh, Roughgarden & Sundararajan, "
                               "Universally Utility-Maximizing Privacy Mechanisms (line metric); all: every paper")
    p_theory.add_argument("--format", choices=FORMATS, default="text", help="text table, Markdown table or JSON")
    p_theory.add_argument("--full", action="store_true", help="the full grid (slow) instead of the fast one")
    p_theory.add_argument("--plots", metavar="DIR", help="write one closed form vs optimizer plot per family into DIR")
    p_theory.add_argument("--self-test", action="store_true",
                          help="perturb each closed form by 1e-4 (relative) and require every exact row using it to fail; "
                               "report rows whose numerical value depends on a closed form (exit 1 on any defect)")
    _add_quiet_option(p_theory)
    p_theory.set_defaults(run=_cmd_theory_check)
    return parser


def _fail(message: str, code: int) -> int:
    """Print the one error line of a failed command and return its exit code."""
    print(f"mechdesign: error: {' '.join(message.split())}", file=sys.stderr)
    return code


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``mechdesign`` console script.

    Every failure is one ``mechdesign: error: …`` line on stderr and a non-zero exit code, never a
    traceback: 2 for bad input (arguments; a file that is missing, a directory, unreadable or not UTF-8),
    3 for an operating-system error (a file that cannot be written, a disk full, memory exhausted), 4 for
    an internal error (a bug: please report it), 130 when interrupted. Warnings raised on the way are
    dropped when the command fails (its error line is the one line) and printed as ``mechdesign:
    warning: …`` lines when it succeeds. When the reader of standard output goes away (``mechdesign … |
    head``) the command ends silently with 141, the status of a command ended by SIGPIPE (the recipe of
    the Python docs, "Note on SIGPIPE": standard output is pointed at the null device so that the exit
    flush fails no more).

    Examples
    --------
    Randomized response on two symbols at ε = 1 errs with probability ``1/(1 + e)``; a negative
    budget is bad input (exit code 2, its one line on stderr):

    >>> from contextlib import redirect_stdout
    >>> with redirect_stdout(io.StringIO()) as printed:
    ...     code = main(["design", "--epsilon", "1", "--n", "2", "--json"])
    >>> result = json.loads(printed.getvalue())["payload"]["result"]  # the versioned mechanism file
    >>> code, round(result["objective"], 6) == round(1 / (1 + math.e), 6)
    (0, True)
    >>> main(["design", "--epsilon", "-1", "--n", "2"])
    2
    """
    try:
        with warnings.catch_warnings(record=True) as caught:  # the filters stay as they are; shown only on success
            args = build_parser().parse_args(argv)
            code = args.run(args)
            sys.stdout.flush()  # a closed pipe fails here, inside the try
        for message in dict.fromkeys(str(warning.message) for warning in caught):
            print(f"mechdesign: warning: {' '.join(message.split())}", file=sys.stderr)
        return code
    except MechDesignError as exc:
        return _fail(str(exc), 2)
    except BrokenPipeError:
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except (OSError, ValueError):  # no file descriptor behind standard output (redirected in-process)
            pass
        return 141
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError) as exc:  # a path given that names no file
        return _fail(f"{exc.strerror or exc}: {exc.filename}" if exc.filename else str(exc), 2)
    except UnicodeDecodeError as exc:
        return _fail(f"an input file is not UTF-8 text (a binary file?): {exc.reason} at byte {exc.start}", 2)
    except OSError as exc:
        return _fail(f"{exc.strerror or exc}: {exc.filename}" if exc.filename else str(exc), 3)
    except MemoryError as exc:
        return _fail(f"out of memory ({exc}); reduce the alphabet or the number of points", 3)
    except KeyboardInterrupt:
        code = _fail("interrupted", 130)
        if argv is None or solves_running():
            # The program itself (or a solve still running): end here. The interpreter's shutdown just after
            # an interrupted solve could abort in the solvers' native threads ("FATAL: exception not rethrown",
            # exit -6, seen after a cancelled Clarabel curve); the main thread has already unwound, so every
            # output file is the old one or a complete new one.
            for stream in (sys.stdout, sys.stderr):
                try:
                    stream.flush()
                except (OSError, ValueError):
                    pass
            os._exit(code)
        return code
    except Exception as exc:  # a bug: still no traceback on the command line
        return _fail(f"internal error ({type(exc).__name__}: {exc}); please report it", 4)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
