"""The referee's self-test (``mechdesign theory-check --self-test``): every row must be able to fail.

A row compares a closed form of :mod:`mechdesign.theory` with a number computed without it. The
self-test runs the checks with every closed form (:data:`CLOSED_FORM_MODULES`: the public functions of
``mechdesign.theory.{put, pml, sml, summary}``, three that live with their mechanisms and the two of
:mod:`mechdesign.checks.metric`: the remapped geometric mechanism's loss and the planar Laplace two-location mass)
wrapped (:func:`instrumented`), and then:

1. **Independence.** A closed form called outside a row's formula and outside
   :func:`~mechdesign.checks.rows.parameter_choice` feeds a numerical value, so that value would move
   with the formula it is compared with: each such call is a defect, reported with the check that made it.
2. **Reproducibility.** Each row's formula evaluated again gives the recorded closed form (a formula
   that captured a loop variable late would not).
3. **Mutation.** Each closed form a row's formula calls directly is perturbed in turn, ``v ↦ v ± η
   max(|v|, 1)`` (η = :data:`PERTURBATION`, both signs, every float it returns), and the rows that call
   it are evaluated again. A row whose statement is exact (a value, or a bound the theory says is
   attained) must fail under both signs; one that survives is a defect. A bound that survives is
   reported as loose with its slack (it can only fail by more than its slack); one the perturbation
   does not move at all is a defect.

Rows whose formula calls no closed form (inequalities between two measured quantities, e.g. PUT
Lemma 20's orderings or Δ_inter ≤ Δ_union) have nothing to perturb; they are counted as relations.

Perturbing only the formulas is sound because of (1): the numerical values depend on no closed form,
so the checks need not be run again for each perturbation — the self-test costs one run of the
checks and a few evaluations of each formula.
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import inspect
import json
import math
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .._validate import as_choice
from ..mechanism import Mechanism
from ..progress import Progress
from . import rows as _rows
from .formats import FORMATS
from .rows import CheckRow, verdict_counts

#: Relative size of the perturbation of a closed form (relative to ``max(|v|, 1)``).
PERTURBATION = 1e-4
#: The modules of ``mechdesign`` holding closed forms: every public function of the theory modules, and
#: the named closed forms that live with their mechanisms.
CLOSED_FORM_MODULES: dict[str, tuple[str, ...] | None] = {
    "theory.put": None, "theory.pml": None, "theory.sml": None, "theory.summary": None,
    "mechanisms.additive": ("laplace_pml",),  # PML Prop. 3
    "mechanisms.pml": ("binary_robust_pml_mechanism",),  # PML Thm. 5
    "mechanisms.location": ("truncated_geometric",),  # Ghosh, Roughgarden & Sundararajan, Thm. 1
    # GRS Thm. 1: the geometric mechanism remapped; Andrés et al.: the planar Laplace mass across a bisector
    "checks.metric": ("geometric_loss", "two_location_mass"),
}


def _modules() -> dict[str, Any]:
    return {path: importlib.import_module(f"mechdesign.{path}") for path in CLOSED_FORM_MODULES}


def closed_forms() -> dict[str, Callable[..., Any]]:
    """``"put.thm7_dp_privacy"`` → function, for every closed form of :data:`CLOSED_FORM_MODULES` (named
    without the ``theory.`` prefix; deprecated aliases left out).

    Examples
    --------
    >>> forms = closed_forms()
    >>> "put.thm7_dp_privacy" in forms and "put._per_letter" not in forms
    True
    >>> "mechanisms.additive.laplace_pml" in forms
    True
    """
    forms = {}
    for path, module in _modules().items():
        names = CLOSED_FORM_MODULES[path] or [name for name in vars(module) if not name.startswith("_")]
        for name in names:
            original = getattr(module, name)
            original = getattr(original, "__mechdesign_closed_form__", original)
            if (inspect.isfunction(original) and original.__module__ == module.__name__
                    and not hasattr(original, "__wrapped__")):
                forms[f"{path.removeprefix('theory.')}.{name}"] = original
    return forms


def _split(name: str) -> tuple[str, str]:
    """``"put.f"`` → ``("theory.put", "f")``; ``"mechanisms.pml.f"`` → ``("mechanisms.pml", "f")``."""
    module, attribute = name.rsplit(".", 1)
    return (module if module in CLOSED_FORM_MODULES else f"theory.{module}"), attribute


def perturb(value: Any, sign: int, size: float = PERTURBATION) -> Any:
    """``value`` with every finite float moved by ``sign · size · max(|v|, 1)``; integers, booleans,
    strings and other objects unchanged; tuples, lists and float arrays element by element; a mechanism
    becomes its perturbed matrix.

    Examples
    --------
    >>> perturb(2.0, 1), perturb((0.0, math.inf), -1), perturb(3, 1)
    (2.0002, (-0.0001, inf), 3)
    """
    if isinstance(value, (bool, np.bool_, int, np.integer, str)):
        return value
    if isinstance(value, (float, np.floating)):
        return float(value) + sign * size * max(abs(float(value)), 1.0) if math.isfinite(value) else value
    if isinstance(value, (tuple, list)):
        return type(value)(perturb(v, sign, size) for v in value)
    if isinstance(value, Mechanism):
        value = value.matrix
    if isinstance(value, np.ndarray) and value.dtype.kind == "f":
        finite = np.isfinite(value)
        return np.where(finite, value + sign * size * np.maximum(np.abs(np.where(finite, value, 0.0)), 1.0), value)
    return value


@dataclass
class _State:
    """What the wrapped closed forms do while a self-test runs."""

    #: closed form → the checks that called it outside a formula and outside a parameter choice
    outside: dict[str, set[str]] = field(default_factory=dict)
    #: the closed forms called directly by the formula being evaluated (None: not recording)
    recording: set[str] | None = None
    #: (closed form, sign) perturbed, or None
    perturbed: tuple[str, int] | None = None
    size: float = PERTURBATION
    depth: int = 0


_STATE: _State | None = None
_WRAPPERS: dict[str, Callable[..., Any]] = {}


def _caller() -> str:
    """The check (``"put._products"``) that called a closed form: the innermost frame of a check module."""
    frame = sys._getframe(2)
    while frame is not None:
        module = frame.f_globals.get("__name__", "")
        if module.startswith("mechdesign.checks.") and module.rsplit(".", 1)[1] not in ("rows", "mutation"):
            return f"{module.rsplit('.', 1)[1]}.{frame.f_code.co_name}"
        frame = frame.f_back
    return "(outside the checks)"


def _wrapper(name: str, function: Callable[..., Any]) -> Callable[..., Any]:
    """``function`` reporting its calls to the self-test and perturbed when it is the closed form under test
    (one wrapper per closed form, so that a formula keeping a reference to it stays instrumented)."""
    if name not in _WRAPPERS:
        @functools.wraps(function)
        def wrapped(*args: Any, **kwargs: Any) -> Any:
            state = _STATE
            if state is None:
                return function(*args, **kwargs)
            where = _rows.scope()
            if where is None and state.depth == 0:  # a closed form's own helpers are part of it
                state.outside.setdefault(name, set()).add(_caller())
            elif where == "formula" and state.depth == 0 and state.recording is not None:
                state.recording.add(name)
            state.depth += 1
            try:
                value = function(*args, **kwargs)
            finally:
                state.depth -= 1
            if state.perturbed is not None and state.perturbed[0] == name:
                value = perturb(value, state.perturbed[1], state.size)
            return value

        wrapped.__mechdesign_closed_form__ = function  # type: ignore[attr-defined]
        del wrapped.__wrapped__  # not a deprecated alias (closed_forms() leaves those out)
        _WRAPPERS[name] = wrapped
    return _WRAPPERS[name]


@contextlib.contextmanager
def instrumented(size: float = PERTURBATION) -> Iterator[_State]:
    """Every closed form replaced by its wrapper in its module for the duration (the originals restored
    after); yields the state the wrappers report to.

    Examples
    --------
    >>> from mechdesign.theory import put
    >>> with instrumented() as state:
    ...     _ = put.prop8_dp_privacy(2, 0.2)
    >>> state.outside["put.prop8_dp_privacy"]
    {'(outside the checks)'}
    """
    global _STATE
    if _STATE is not None:
        raise RuntimeError("the closed forms are already instrumented")
    forms, modules = closed_forms(), _modules()
    _STATE = state = _State(size=size)
    for name, function in forms.items():
        module, attribute = _split(name)
        setattr(modules[module], attribute, _wrapper(name, function))
    try:
        yield state
    finally:
        for name, function in forms.items():
            module, attribute = _split(name)
            setattr(modules[module], attribute, function)
        _STATE = None


@dataclass(frozen=True)
class Mutation:
    """One closed form perturbed (both signs) and what became of the rows whose formulas call it.

    Attributes
    ----------
    name
        ``"paper.function"``.
    rows
        How many rows call it.
    failed
        How many of them failed under the perturbation (as they should).
    survivors
        Rows that should have failed and did not (exact statements; bounds not moved at all).
    loose
        Bound rows that held under both signs, each with its slack (looser than the perturbation).
    """

    name: str
    rows: int
    failed: int
    survivors: tuple[CheckRow, ...]
    loose: tuple[tuple[CheckRow, float], ...]


@dataclass(frozen=True)
class SelfTest:
    """The outcome of :func:`self_test`.

    Attributes
    ----------
    rows
        The rows of the checks.
    mutations
        One :class:`Mutation` per closed form some formula calls.
    outside
        Closed form → the checks that called it outside a formula and a parameter choice (defects).
    unreproducible
        Rows whose formula, evaluated again, gives another closed form (defects).
    without_formula
        Rows built from a value instead of a formula (defects: they cannot be perturbed).
    relations
        Rows whose formula calls no closed form (relations between measured quantities).
    perturbation
        η.
    """

    rows: tuple[CheckRow, ...]
    mutations: tuple[Mutation, ...]
    outside: dict[str, tuple[str, ...]]
    unreproducible: tuple[CheckRow, ...]
    without_formula: tuple[CheckRow, ...]
    relations: tuple[CheckRow, ...]
    perturbation: float

    @property
    def survivors(self) -> list[CheckRow]:
        """Every row that survived a perturbation it should have failed."""
        return [row for mutation in self.mutations for row in mutation.survivors]

    @property
    def defects(self) -> int:
        """Survivors, closed forms feeding numerical values, unreproducible rows and rows without formula."""
        return len(self.survivors) + len(self.outside) + len(self.unreproducible) + len(self.without_formula)

    @property
    def ok(self) -> bool:
        """No defect, and every row agrees with its closed form."""
        return self.defects == 0 and all(row.ok for row in self.rows)


def traced_check(paper: str, full: bool = False, progress: Progress | None = None) -> tuple[list[CheckRow], dict[str, set[str]]]:
    """The rows of :func:`~mechdesign.checks.run_check` computed with the closed forms instrumented, and
    where closed forms were called outside formulas and parameter choices.

    Examples
    --------
    >>> rows, outside = traced_check("pml")  # doctest: +SKIP
    >>> outside  # doctest: +SKIP
    {}
    """
    from . import run_check

    with instrumented() as state:
        rows = run_check(paper, full=full, progress=progress)
    return rows, state.outside


def mutation_test(rows: Sequence[CheckRow], outside: dict[str, set[str]] | None = None,
                  perturbation: float = PERTURBATION) -> SelfTest:
    """Steps 2 and 3 of the module docstring on rows already computed (by :func:`traced_check`, whose
    ``outside`` is step 1's finding).

    Examples
    --------
    An exact row fails when its closed form is perturbed; a loose bound holds and reports its slack; a
    numerical value computed from the same closed form would move with it and survive.

    >>> from mechdesign.checks.rows import compare, upper_bound
    >>> from mechdesign.theory import put
    >>> exact = compare("Prop. 8(1)", {"D": 0.2}, "epsilon", lambda: put.prop8_dp_privacy(2, 0.2), 1.3862944)
    >>> loose = compare("bound", {"D": 0.2}, "epsilon", lambda: upper_bound(put.prop8_dp_privacy(2, 0.2)), 1.0)
    >>> same = compare("same", {"D": 0.2}, "epsilon", lambda: put.prop8_dp_privacy(2, 0.2),
    ...                lambda: put.prop8_dp_privacy(2, 0.2))
    >>> report = mutation_test([exact, loose, same])
    >>> [(m.name, m.rows, m.failed, len(m.survivors), len(m.loose)) for m in report.mutations]
    [('put.prop8_dp_privacy', 3, 1, 1, 1)]
    >>> report.survivors[0].formula, report.ok
    ('same', False)
    """
    usage: dict[str, list[CheckRow]] = {}
    unreproducible, without_formula, relations = [], [], []
    with instrumented(perturbation) as state:
        for row in rows:
            if row.closed_formula is None:
                without_formula.append(row)
                continue
            state.recording = set()
            again = row.recompute()
            called, state.recording = state.recording, None
            if not (_same(again.closed_form, row.closed_form) and _same(again.numeric, row.numeric)):
                unreproducible.append(row)
            elif not called:
                relations.append(row)
            for name in sorted(called):
                usage.setdefault(name, []).append(row)
        mutations = []
        for name in sorted(usage):
            users = [row for row in usage[name] if math.isfinite(row.numeric)]  # a failed row has nothing to lose
            if not users:
                continue
            perturbed = []
            for sign in (1, -1):
                state.perturbed = (name, sign)
                perturbed.append([row.recompute() for row in users])
            state.perturbed = None
            mutations.append(_judge(name, users, *perturbed))
    return SelfTest(tuple(rows), tuple(mutations), {k: tuple(sorted(v)) for k, v in (outside or {}).items()},
                    tuple(unreproducible), tuple(without_formula), tuple(relations), perturbation)


def _same(a: Any, b: Any) -> bool:
    """Equal values (NaN equal to NaN), element by element for bounds."""
    return bool(np.array_equal(np.asarray(a, dtype=float), np.asarray(b, dtype=float), equal_nan=True))


def _slack(row: CheckRow, *perturbed: CheckRow) -> float:
    """The margin of ``row`` at the sides of its bound that the perturbation moved (both if it moved the
    numerical value)."""
    lower, upper = row.closed_form
    moved = [False, False]
    for other in perturbed:
        if not _same(other.numeric, row.numeric):
            moved = [True, True]
        moved = [moved[0] or not _same(other.closed_form[0], lower), moved[1] or not _same(other.closed_form[1], upper)]
    margins = [row.numeric - lower, upper - row.numeric]
    return min(margin for margin, side in zip(margins, moved) if side)


def _judge(name: str, rows: Sequence[CheckRow], up: Sequence[CheckRow], down: Sequence[CheckRow]) -> Mutation:
    """The verdicts of ``rows`` with the closed form moved up and down (see the module docstring)."""
    failed, survivors, loose = 0, [], []
    for row, plus, minus in zip(rows, up, down):
        if row.is_bound:
            if not (plus.ok and minus.ok):
                failed += 1
            elif _same(plus.closed_form, row.closed_form) and _same(minus.closed_form, row.closed_form) \
                    and _same(plus.numeric, row.numeric) and _same(minus.numeric, row.numeric):
                survivors.append(row)
            else:
                loose.append((row, _slack(row, plus, minus)))
        elif plus.ok or minus.ok:
            survivors.append(row)
        else:
            failed += 1
    return Mutation(name, len(rows), failed, tuple(survivors), tuple(loose))


def self_test(paper: str = "all", full: bool = False, perturbation: float = PERTURBATION,
              progress: Progress | None = None) -> SelfTest:
    """The self-test of the module docstring on the rows of ``paper`` (a key of
    :data:`~mechdesign.checks.CHECKS` or ``"all"``).

    Examples
    --------
    >>> report = self_test("pml")  # doctest: +SKIP
    >>> report.ok, report.defects  # doctest: +SKIP
    (True, 0)
    """
    rows, outside = traced_check(paper, full=full, progress=progress)
    return mutation_test(rows, outside, perturbation)


def self_test_record(report: SelfTest) -> dict[str, Any]:
    """The self-test as a JSON-ready dict: the perturbation, one record per closed form, the defects by kind
    (rows named by formula and parameters), the relations and the verdict counts of the rows.

    Examples
    --------
    >>> from mechdesign.checks.rows import compare
    >>> from mechdesign.theory import put
    >>> row = compare("Prop. 8(1)", {"D": 0.2}, "epsilon", lambda: put.prop8_dp_privacy(2, 0.2), 1.3862944)
    >>> record = self_test_record(mutation_test([row]))
    >>> record["closed_forms"][0], record["defects"]
    ({'name': 'put.prop8_dp_privacy', 'rows': 1, 'failed': 1, 'loose_bounds': 0, 'smallest_slack': None, 'survivors': []}, 0)
    """
    def named(row: CheckRow) -> str:
        return f"{row.formula} [{row.label}]"

    return {"perturbation": report.perturbation, "rows": len(report.rows), "ok": report.ok, "defects": report.defects,
            "closed_forms": [{"name": m.name, "rows": m.rows, "failed": m.failed, "loose_bounds": len(m.loose),
                              "smallest_slack": min(slack for _, slack in m.loose) if m.loose else None,
                              "survivors": [named(row) for row in m.survivors]} for m in report.mutations],
            "not_independent": {name: list(where) for name, where in report.outside.items()},
            "unreproducible": [named(row) for row in report.unreproducible],
            "without_formula": [named(row) for row in report.without_formula],
            "relations": sorted({row.formula for row in report.relations}),
            "counts": verdict_counts(list(report.rows))}


def format_self_test(report: SelfTest, fmt: str = "text") -> str:
    """The self-test as text (or Markdown): one line per closed form (rows calling it, failed as they should,
    loose bounds with the smallest slack, survivors), then every defect and every row that disagrees, then a
    summary line; or as strict JSON (:func:`self_test_record`).

    Examples
    --------
    >>> from mechdesign.checks.rows import compare
    >>> from mechdesign.theory import put
    >>> row = compare("Prop. 8(1)", {"D": 0.2}, "epsilon", lambda: put.prop8_dp_privacy(2, 0.2), 1.3862944)
    >>> print(format_self_test(mutation_test([row])).splitlines()[-1])
    self-test: 1 rows, 1 closed forms perturbed by ±1e-04 (relative), 1 of 1 rows failed as they should; 0 loose bounds; 0 relations; 0 defects
    """
    fmt = as_choice(fmt, FORMATS, "format")
    if fmt == "json":
        return json.dumps(self_test_record(report), ensure_ascii=False, allow_nan=False, indent=1)
    header = ("closed form", "rows", "failed", "loose bounds", "smallest slack", "survivors")
    body = [(m.name, str(m.rows), str(m.failed), str(len(m.loose)),
             f"{min(s for _, s in m.loose):.2e}" if m.loose else "-", str(len(m.survivors))) for m in report.mutations]
    if fmt == "markdown":
        lines = ["| " + " | ".join(line) + " |" for line in [header, *body]]
        lines.insert(1, "|" + "---|" * len(header))
        lines.append("")
    else:
        widths = [max(len(line[i]) for line in [header, *body]) for i in range(len(header))]
        lines = ["  ".join(cell.ljust(w) for cell, w in zip(line, widths)).rstrip() for line in [header, *body]]
        lines.insert(1, "  ".join("-" * w for w in widths))
    for row in report.survivors:
        lines.append(f"SURVIVOR: {row.formula} [{row.label}] did not fail when its closed form was perturbed")
    for name, where in report.outside.items():
        lines.append(f"NOT INDEPENDENT: {name} computed a numerical value in {', '.join(where)}")
    for row in report.unreproducible:
        lines.append(f"UNREPRODUCIBLE: {row.formula} [{row.label}] gives another value when evaluated again")
    for row in report.without_formula:
        lines.append(f"NO FORMULA: {row.formula} [{row.label}] was built from a value")
    for row in report.rows:
        if not row.ok:
            lines.append(f"{row.verdict.upper()}: {row.formula} [{row.label}]")
    users = sum(m.rows for m in report.mutations)
    failed = sum(m.failed for m in report.mutations)
    lines.append(f"self-test: {len(report.rows)} rows, {len(report.mutations)} closed forms perturbed by "
                 f"±{report.perturbation:.0e} (relative), {failed} of {users} rows failed as they should; "
                 f"{sum(len(m.loose) for m in report.mutations)} loose bounds; {len(report.relations)} relations; "
                 f"{report.defects} defects")
    return "\n".join(lines)
