"""Closed forms against the optimizer: comparison rows, tables, and the per-paper checks.

A *check* evaluates a paper's closed forms over a grid and returns :class:`CheckRow` objects: the
formula, its parameters, the closed-form value (a number, or a ``(lower, upper)`` pair for a bound),
the numerical optimum, the gap and a verdict. :data:`CHECKS` maps a paper's short name to its check
(``mechdesign theory-check put`` runs ``CHECKS["put"]``); a new paper adds one function there.

Numerical optima: ``ε*(D)`` (PUT Definition 4) from
:func:`~mechdesign.curves.privacy_distortion_curve` (direct minimization of the leakage, or bisection
on the budget), and ``D*(ε)`` from :class:`DistortionOracle`, which compiles one design problem and
re-solves it (with the other solver when a solve is not optimal).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Union

import numpy as np

from ..exceptions import MechDesignError
from ..priors import Prior, SourceSet
from ..progress import Progress, report
from ..privacy import (
    ApproximateDifferentialPrivacy,
    DifferentialPrivacy,
    MaximalInformation,
    MaximalLeakage,
    MutualInformationPrivacy,
    RenyiDifferentialPrivacy,
    SibsonMutualInformation,
)
from ..privacy.base import PrivacyNotion
from ..privacy.neighbours import Neighbours
from ..curves import privacy_distortion_curve
from ..mechanisms.global_framework import hamming_distances, hamming_neighbours, product_mechanism, product_prior
from ..solve import DesignProblem, Result
from ..source_classes import theta_star
from ..utility import ExpectedDistortion, WorstCaseDistortion
from ..utility.base import Objective
from . import put

#: A closed form that is an exact statement must agree with the optimizer within this (nats, or
#: distortion units for distortion-valued forms); a bound may be violated by at most this much.
CLOSED_FORM_ATOL = 1e-6
#: Bracket width of ε*(D) when it is found by bisection (nats).
BISECTION_WIDTH = 1e-9
#: Budget standing in for ε = 0 when no solver handles the degenerate ε = 0 problem (nats).
ZERO_BUDGET = 1e-9

MATCH, BOUND_HOLDS, MISMATCH, BOUND_FAILS, FAILED = "match", "bound holds", "mismatch", "bound fails", "solver failed"

ClosedForm = Union[float, tuple[float, float]]


@dataclass(frozen=True)
class CheckRow:
    """One closed form evaluated at one parameter point and compared with the optimizer.

    Attributes
    ----------
    formula
        Paper and statement, e.g. ``"PUT Prop. 8(1) DP"``.
    parameters
        The parameter point, e.g. ``"m=3, D=0.2"``.
    quantity
        ``"epsilon"`` (a privacy-distortion function ε*(D)) or ``"distortion"`` (D*(ε)).
    closed_form
        The closed-form value, or a ``(lower, upper)`` pair for a bound.
    numeric
        The optimizer's value of the same quantity (NaN if the solver failed).
    gap
        ``closed_form − numeric`` for an exact statement; for a bound the smaller margin
        ``min(numeric − lower, upper − numeric)``, negative when the bound is violated.
    verdict
        ``"match"``, ``"bound holds"``, ``"mismatch"``, ``"bound fails"`` or ``"solver failed"``.
    """

    formula: str
    parameters: str
    quantity: str
    closed_form: ClosedForm
    numeric: float
    gap: float
    verdict: str

    @property
    def ok(self) -> bool:
        """Whether the closed form agrees with the optimizer (match or bound holds)."""
        return self.verdict in (MATCH, BOUND_HOLDS)


def compare(formula: str, parameters: str, quantity: str, closed_form: ClosedForm, numeric: float,
            atol: float = CLOSED_FORM_ATOL) -> CheckRow:
    """Build the row comparing ``closed_form`` (number or ``(lower, upper)``) with ``numeric``."""
    if not math.isfinite(numeric):
        return CheckRow(formula, parameters, quantity, closed_form, numeric, math.nan, FAILED)
    if isinstance(closed_form, tuple):
        lower, upper = closed_form
        gap = min(numeric - lower, upper - numeric)
        return CheckRow(formula, parameters, quantity, closed_form, numeric, gap,
                        BOUND_HOLDS if gap >= -atol else BOUND_FAILS)
    gap = closed_form - numeric
    return CheckRow(formula, parameters, quantity, closed_form, numeric, gap, MATCH if abs(gap) <= atol else MISMATCH)


class DistortionOracle:
    """``D*(ε)`` for one privacy notion and one distortion objective (one compiled problem).

    Parameters
    ----------
    notion
        The privacy notion whose budget ε is varied.
    objective
        The distortion to minimize, e.g. :class:`~mechdesign.utility.ExpectedDistortion`.
    solver
        Passed to :class:`~mechdesign.solve.DesignProblem`.
    """

    def __init__(self, notion: PrivacyNotion, objective: Objective, solver: str | None = None) -> None:
        self.problem = DesignProblem(notion, objective, solver=solver)
        self._fallback: DesignProblem | None = None
        self._cache: dict[float, float] = {}

    def distortion(self, epsilon: float) -> float:
        """``D*(ε)``: the least distortion within budget ε (NaN if the solve failed).

        A solve that is not ``"optimal"`` — a solution failing its independent re-measurement
        (``"inaccurate"``, e.g. HiGHS round-off on tiny entries of a ratio-type constraint) or one
        the solver flags ``"optimal_inaccurate"`` (certified feasible, possibly suboptimal: Clarabel
        on Rényi DP of order 4 above ε ≈ 3 returns D 0.028 where 0.02 is attainable) — is re-solved
        with the other solver (Clarabel ↔ HiGHS). An optimal result wins; otherwise the smallest
        certified distortion (NaN if none). At ε = 0 the cone constraints are degenerate (Clarabel
        fails on Sibson information at ε = 0); if both solvers fail there, ``ZERO_BUDGET`` is used.
        """
        if epsilon not in self._cache:
            value = self._solve(epsilon)
            if math.isnan(value) and epsilon == 0.0:
                value = self._solve(ZERO_BUDGET)
            self._cache[epsilon] = value
        return self._cache[epsilon]

    def _solve(self, epsilon: float) -> float:
        results = [_attempt(self.problem, epsilon)]
        if results[0] is None or results[0].status != "optimal":
            results.append(_attempt(self._other_solver(), epsilon))
        optimal = [r.objective for r in results if r is not None and r.success and r.status == "optimal"]
        certified = [r.objective for r in results if r is not None and r.success]
        return optimal[0] if optimal else min(certified, default=math.nan)

    def _other_solver(self) -> DesignProblem:
        if self._fallback is None:
            other = "clarabel" if self.problem.solver == "highs" else "highs"
            notion, = self.problem.notions
            self._fallback = DesignProblem(notion, self.problem.objective, solver=other)
        return self._fallback


def _attempt(problem: DesignProblem, epsilon: float) -> Result | None:
    """``problem.solve(epsilon)``, or None when cvxpy cannot unpack the solver's answer.

    cvxpy raises a plain ``ValueError`` ("Cannot unpack invalid solution") when HiGHS ends with
    status UNKNOWN (seen on DP over the 27 databases of {1,2,3}^3); input errors
    (:class:`~mechdesign.exceptions.MechDesignError`) still propagate.
    """
    try:
        return problem.solve(epsilon)
    except MechDesignError:
        raise
    except ValueError:
        return None


def numeric_privacy_distortion(notion: PrivacyNotion, objective: Objective, distortions: Sequence[float]) -> list[float]:
    """The optimizer's ``ε*(D)`` at each ``D`` (NaN where it fails), by
    :func:`~mechdesign.curves.privacy_distortion_curve` (one set of compiled problems)."""
    curve = privacy_distortion_curve(notion, objective, distortions, tolerance=BISECTION_WIDTH)
    return [float(v) for v in curve.y]


def epsilon_rows(formula: str, label: str, notion: PrivacyNotion, objective: Objective,
                 closed: Callable[[float], ClosedForm], distortions: Sequence[float]) -> list[CheckRow]:
    """Rows comparing ``closed(D)`` (a privacy-distortion value or bound) with the optimizer's ε*(D)."""
    numeric = numeric_privacy_distortion(notion, objective, distortions)
    return [compare(formula, f"{label}, D={D:.4g}", "epsilon", closed(D), value) for D, value in zip(distortions, numeric)]


def format_table(rows: Sequence[CheckRow]) -> str:
    """The rows as a fixed-width text table, followed by a count per verdict."""
    def value(v: ClosedForm) -> str:
        return f"[{v[0]:.6f}, {v[1]:.6f}]" if isinstance(v, tuple) else f"{v:.6f}"

    header = ("formula", "parameters", "quantity", "closed form", "numeric", "gap", "verdict")
    body = [(r.formula, r.parameters, r.quantity, value(r.closed_form), f"{r.numeric:.6f}", f"{r.gap:+.2e}", r.verdict)
            for r in rows]
    widths = [max(len(str(line[i])) for line in [header, *body]) for i in range(len(header))]
    lines = ["  ".join(str(cell).ljust(w) for cell, w in zip(line, widths)).rstrip() for line in [header, *body]]
    lines.insert(1, "  ".join("-" * w for w in widths))
    counts: dict[str, int] = {}
    for row in rows:
        counts[row.verdict] = counts.get(row.verdict, 0) + 1
    lines.append(f"{len(rows)} rows: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    return "\n".join(lines)


# ----------------------------------------------------------------------------------------------
# PUT (Zhong & Bu)
# ----------------------------------------------------------------------------------------------
#: The Fig. 4 prior of the PUT paper.
PUT_FIG4_PRIOR = (0.4, 0.3, 0.2, 0.1)


def put_distortion_grid(breaks: Iterable[float], upper: float = 1.0, side: float = 1e-3,
                        base: Iterable[float] = (0.05, 0.2)) -> list[float]:
    """Distortions: ``base``, every breakpoint and both sides of it (``± side``), within ``(0, upper]``."""
    points = set(base)
    for b in breaks:
        points.update({b - side, b, b + side})
    return sorted(p for p in points if 0 < p <= upper)


def product_space(m: int, n: int) -> tuple[np.ndarray, Neighbours]:
    """Hamming distances on ``{1..m}^n`` and the neighbour relation (distance 1): PUT Section III."""
    return hamming_distances(m, n), hamming_neighbours(m, n)


def _prior_label(P: Sequence[float]) -> str:
    return "P=(" + ",".join(f"{p:g}" for p in P) + ")"


def _check_local_class_one(ms: Sequence[int], delta: float, alpha: float) -> list[CheckRow]:
    """Proposition 8 for Class I sets: no prior knowledge (the whole simplex, worst-case distortion)
    for the LP notions; the uniform prior (the singleton Class I set) for Sibson and mutual
    information, whose worst case over the simplex is slower to optimize (it is covered by
    ``tests/theory/test_put.py``)."""
    rows = []
    for m in ms:
        simplex, uniform = SourceSet.simplex(m), Prior.uniform(m)
        objective, at_uniform = WorstCaseDistortion(simplex), ExpectedDistortion(uniform)
        zero = put.zero_threshold(m)
        cases: list[tuple[str, PrivacyNotion, Objective, Callable[[float], ClosedForm], float]] = [
            ("PUT Prop. 8(1) DP", DifferentialPrivacy(), objective, lambda D, m=m: put.prop8_epsilon_dp(m, D), zero),
            (f"PUT Prop. 8(2) approx DP δ={delta:g}", ApproximateDifferentialPrivacy(delta), objective,
             lambda D, m=m: put.prop8_epsilon_approx_dp(m, D, delta), (1 - delta) * zero),
            ("PUT Prop. 8(3) maximal information", MaximalInformation(simplex), objective,
             lambda D, m=m, s=simplex: put.prop8_maximal_information(m, D, s), zero),
            ("PUT Prop. 8(4) maximal leakage", MaximalLeakage(), objective, lambda D, m=m: put.prop8_epsilon_ml(m, D), zero),
            (f"PUT Prop. 8(5) Rényi DP α={alpha:g}", RenyiDifferentialPrivacy(alpha), objective,
             lambda D, m=m: put.prop8_renyi_dp(m, D, alpha), zero),
            (f"PUT Prop. 8(6) Sibson α={alpha:g}", SibsonMutualInformation(alpha, uniform), at_uniform,
             lambda D, m=m: put.prop8_sibson(m, D, alpha), zero),
            ("PUT Prop. 8(7) mutual information", MutualInformationPrivacy(uniform), at_uniform,
             lambda D, m=m: put.prop8_mutual_information(m, D), zero),
        ]
        for formula, notion, distortion, closed, breakpoint in cases:
            where = "simplex" if distortion is objective else "uniform"
            rows += epsilon_rows(formula, f"m={m} ({where})", notion, distortion, closed, put_distortion_grid([breakpoint]))
    return rows


def _check_known_prior(prior: Sequence[float], delta: float) -> list[CheckRow]:
    """Theorems 13 (DP), 9 (approximate DP) and 14 (maximal leakage) at a known prior."""
    rows = []
    objective = ExpectedDistortion(Prior(prior))
    levels = put.breakpoints(prior)[1:-1]
    label = _prior_label(prior)
    cases = [
        ("PUT Thm 13 DP", DifferentialPrivacy(), lambda D: put.theorem13_dp(prior, D), levels),
        (f"PUT Thm 9 approx DP δ={delta:g}", ApproximateDifferentialPrivacy(delta),
         lambda D: put.theorem9_approx_dp(prior, D, delta), (1 - delta) * levels),
        ("PUT Thm 14 maximal leakage", MaximalLeakage(), lambda D: put.theorem14_maximal_leakage(prior, D), levels),
    ]
    for formula, notion, closed, breaks in cases:
        rows += epsilon_rows(formula, label, notion, objective, closed, put_distortion_grid(breaks))
    return rows


def _check_class_two(source: Sequence[Sequence[float]], delta: float, epsilons: Sequence[float]) -> list[CheckRow]:
    """Proposition 12 (approximate DP) and Corollary 15 (maximal leakage) over a Class II set."""
    rows = []
    objective = WorstCaseDistortion(SourceSet(source))
    label = f"{len(source)} priors"
    breaks = sorted({float(b) for p in source for b in (1 - delta) * put.breakpoints(p)[1:-1]})
    rows += epsilon_rows(f"PUT Prop. 12 approx DP δ={delta:g}", label, ApproximateDifferentialPrivacy(delta), objective,
                         lambda D: put.prop12_approx_dp(source, D, delta), put_distortion_grid(breaks))
    leakage = DistortionOracle(MaximalLeakage(), objective)
    for eps in epsilons:
        rows.append(compare("PUT Cor. 15 maximal leakage", f"{label}, ε={eps:.4g}", "distortion",
                            put.cor15_distortion_ml(source, eps), leakage.distortion(eps)))
    return rows


def _check_global(m: int, n: int, delta: float, alpha: float) -> list[CheckRow]:
    """Theorem 7 (1)–(7) on ``{1..m}^n`` at the uniform prior (Class I)."""
    distances, adjacency = product_space(m, n)
    size = m**n
    prior = Prior.uniform(size)
    objective = ExpectedDistortion(prior, cost=distances)
    cases: list[tuple[str, PrivacyNotion, Callable[[float], ClosedForm]]] = [
        ("PUT Thm 7(1) DP", DifferentialPrivacy(adjacency), lambda D: put.theorem7_dp(m, n, D)),
        (f"PUT Thm 7(2) approx DP δ={delta:g}", ApproximateDifferentialPrivacy(delta, neighbours=adjacency),
         lambda D: put.theorem7_approx_dp(m, n, D, delta)),
        ("PUT Thm 7(4) maximal leakage", MaximalLeakage(), lambda D: put.theorem7_maximal_leakage(m, n, D)),
        ("PUT Thm 7(3) maximal information", MaximalInformation(prior),
         lambda D: put.theorem7_maximal_information(m, n, D, prior)),
        (f"PUT Thm 7(5) Rényi DP α={alpha:g}", RenyiDifferentialPrivacy(alpha, neighbours=adjacency),
         lambda D: put.theorem7_renyi_dp(m, n, D, alpha)),
        (f"PUT Thm 7(6) Sibson α={alpha:g}", SibsonMutualInformation(alpha, prior), lambda D: put.theorem7_sibson(m, n, D, alpha)),
        ("PUT Thm 7(7) mutual information", MutualInformationPrivacy(prior), lambda D: put.theorem7_mutual_information(m, n, D)),
    ]
    grid = put_distortion_grid([put.zero_threshold(m, n)], upper=n, base=(0.2, 0.5))
    rows = []
    for formula, notion, closed in cases:
        rows += epsilon_rows(formula, f"m={m}, n={n}", notion, objective, closed, grid)
    return rows


def binary_product_search(prior: Sequence[float], n: int, D: float, delta: float, points: int = 2001) -> float:
    """``min ε̂_δ(Q^{⊗n})`` over binary ``Q`` of per-letter distortion exactly ``D`` (grid over Q(1|1)).

    A grid search (an upper estimate of the optimum over binary product mechanisms, which is not a
    convex problem); used for PUT Theorems 17(2) and 18(1).
    """
    _, adjacency = product_space(2, n)
    notion = ApproximateDifferentialPrivacy(delta, neighbours=adjacency)
    best = math.inf
    for keep in np.linspace(0.0, 1.0, points):
        other = 1 - (D - prior[0] * (1 - keep)) / prior[1]
        if 0 <= other <= 1:
            best = min(best, notion.measure(product_mechanism([[keep, 1 - keep], [1 - other, other]], n)))
    return best


def _check_theorem6(single: Sequence[float], n: int, delta: float, alpha: float) -> list[CheckRow]:
    """Theorem 6(1)–(7) for the singleton ``{P^{⊗n}}`` (θ* = m^n min P, η = max P)."""
    m = len(single)
    prior = product_prior(single, n)
    star = theta_star(prior)
    theta, eta = star.theta, star.eta
    distances, adjacency = product_space(m, n)
    objective = ExpectedDistortion(prior, cost=distances)
    cases: list[tuple[str, PrivacyNotion, Callable[[float], ClosedForm]]] = [
        ("PUT Thm 6(1) DP", DifferentialPrivacy(adjacency), lambda D: put.theorem6_dp(m, n, D, theta)),
        (f"PUT Thm 6(2) approx DP δ={delta:g}", ApproximateDifferentialPrivacy(delta, neighbours=adjacency),
         lambda D: put.theorem6_approx_dp(m, n, D, delta, theta)),
        ("PUT Thm 6(4) maximal leakage", MaximalLeakage(), lambda D: put.theorem6_maximal_leakage(m, n, D, theta)),
        ("PUT Thm 6(3) maximal information", MaximalInformation(prior),
         lambda D: put.theorem6_maximal_information(m, n, D, theta, prior)),
        (f"PUT Thm 6(5) Rényi DP α={alpha:g}", RenyiDifferentialPrivacy(alpha, neighbours=adjacency),
         lambda D: put.theorem6_renyi_dp(m, n, D, alpha, theta)),
        (f"PUT Thm 6(6) Sibson α={alpha:g}", SibsonMutualInformation(alpha, prior),
         lambda D: put.theorem6_sibson(m, n, D, alpha, theta)),
        ("PUT Thm 6(7) mutual information", MutualInformationPrivacy(prior),
         lambda D: put.theorem6_mutual_information(m, n, D, theta, eta)),
    ]
    grid = put_distortion_grid([put.zero_threshold(m, n)], upper=n, base=(0.2, 0.5))
    label = f"{_prior_label(single)}^⊗{n}"
    rows = []
    for formula, notion, closed in cases:
        rows += epsilon_rows(formula, label, notion, objective, closed, grid)
    return rows


def _check_lemma10(prior: Sequence[float], deltas: Sequence[float]) -> list[CheckRow]:
    """Lemma 10: D*_δ(P, 0) = (1−δ)(1 − P_1), the distortion from which ε*_δ = 0."""
    rows = []
    for delta in deltas:
        notion = ApproximateDifferentialPrivacy(delta) if delta else DifferentialPrivacy()
        numeric = DistortionOracle(notion, ExpectedDistortion(Prior(prior))).distortion(0.0)
        rows.append(compare("PUT Lemma 10 zero threshold", f"{_prior_label(prior)}, δ={delta:g}", "distortion",
                            put.lemma10_zero_threshold(prior, delta), numeric))
    return rows


def _check_products(m: int, n: int, prior: Sequence[float], delta: float, alpha: float) -> list[CheckRow]:
    """Lemma 16, Theorems 17 and 18 on product mechanisms.

    Exact statements (Thm 17(1), (4), (7); Thm 18(2)): the numeric value is the measured loss, on
    ``{1..m}^n``, of the product of the optimal single-letter mechanism at distortion ``D/n`` (the
    optimum over products by Lemma 16). Bounds of Thm 17(3), (5), (6): Lemma 16 applied to the
    single-letter optimum. Brackets (Thm 17(2), corrected Thm 18(1)): a grid search over binary
    product mechanisms.
    """
    rows = []
    distances, adjacency = product_space(m, n)
    uniform, single_uniform = Prior.uniform(m**n), Prior.uniform(m)
    exact = [
        ("PUT Thm 17(1) DP", DifferentialPrivacy(), DifferentialPrivacy(adjacency), put.theorem17_dp, put.prop8_epsilon_dp),
        ("PUT Thm 17(4) maximal leakage", MaximalLeakage(), MaximalLeakage(), put.theorem17_maximal_leakage,
         put.prop8_epsilon_ml),
        ("PUT Thm 17(7) mutual information", MutualInformationPrivacy(single_uniform), MutualInformationPrivacy(uniform),
         put.theorem17_mutual_information, put.prop8_mutual_information),
    ]
    for D in (0.2, 0.5 * put.zero_threshold(m, n), 0.9 * put.zero_threshold(m, n)):
        for formula, single_notion, product_notion, closed, single_closed in exact:
            result = DesignProblem(single_notion, ExpectedDistortion(single_uniform)).solve(single_closed(m, D / n))
            numeric = product_notion.measure(product_mechanism(result.mechanism.matrix, n)) if result.success else math.nan
            rows.append(compare(formula, f"m={m}, n={n}, D={D:.4g}", "epsilon", closed(m, n, D), numeric))
    bounded = [(MaximalInformation(single_uniform), "PUT Thm 17(3) maximal information",
                lambda D: put.theorem17_maximal_information(m, n, D, single_uniform)),
               (RenyiDifferentialPrivacy(alpha), f"PUT Thm 17(5) Rényi DP α={alpha:g}", lambda D: put.theorem17_renyi_dp(m, n, D, alpha)),
               (SibsonMutualInformation(alpha, single_uniform), f"PUT Thm 17(6) Sibson α={alpha:g}",
                lambda D: put.theorem17_sibson(m, n, D, alpha))]
    distortions = (0.2, 0.5 * put.zero_threshold(m, n), 0.9 * put.zero_threshold(m, n))
    for notion, formula, bounds in bounded:  # the product optimum is Lemma 16 applied to the single-letter one
        single = numeric_privacy_distortion(notion, ExpectedDistortion(single_uniform), [D / n for D in distortions])
        rows += [compare(formula, f"m={m}, n={n}, D={D:.4g}", "epsilon", bounds(D), put.lemma16_product_epsilon(notion, n, value))
                 for D, value in zip(distortions, single)]
    known = Prior(prior)
    for D in put.breakpoints(prior)[1:-1]:
        result = DesignProblem(MaximalLeakage(), ExpectedDistortion(known)).solve(put.theorem14_maximal_leakage(prior, D))
        numeric = MaximalLeakage().measure(product_mechanism(result.mechanism.matrix, n)) if result.success else math.nan
        rows.append(compare("PUT Thm 18(2) maximal leakage", f"{_prior_label(prior)}, n={n}, D={D:.4g}/letter", "epsilon",
                            put.theorem18_maximal_leakage(prior, n, D), numeric))
    binary = (0.6, 0.4)
    for D in (0.1, 0.2, 0.3):
        rows.append(compare("PUT Thm 18(1) approx DP (corrected)", f"{_prior_label(binary)}, n={n}, D={D:g}/letter, δ={delta:g}",
                            "epsilon", put.theorem18_approx_dp(binary, n, D, delta), binary_product_search(binary, n, D, delta)))
        rows.append(compare("PUT Thm 17(2) approx DP (products)", f"m=2, n={n}, D={2 * D:g}, δ={delta:g}", "epsilon",
                            put.theorem17_approx_dp(2, n, 2 * D, delta), binary_product_search((0.5, 0.5), n, D, delta)))
    return rows


def check_put(ms: Sequence[int] = (2, 3), delta: float = 0.1, alpha: float = 2.0, prior: Sequence[float] = PUT_FIG4_PRIOR,
              class_two: Sequence[Sequence[float]] | None = None, global_sizes: Sequence[tuple[int, int]] = ((2, 2),),
              epsilons: Sequence[float] = (0.0, 0.5, math.log(2), 1.0, math.log(3), 2.0),
              progress: Progress | None = None) -> list[CheckRow]:
    """PUT closed forms against the optimizer (Prop. 8, Thms 6, 7, 9, 13, 14, 17, 18, Lemmas 10, 16,
    Prop. 12, Cor. 15 — every statement whose notion the library implements).

    Parameters
    ----------
    ms
        Alphabet sizes for Proposition 8 (no prior knowledge: the whole simplex).
    delta
        δ of approximate DP.
    alpha
        Order of Rényi DP and Sibson information.
    prior
        Known prior for Theorems 9, 13, 14 (default: the paper's Fig. 4 prior).
    class_two
        Extreme points of a Class II source set for Proposition 12 and Corollary 15 (default: the
        Fig. 4 prior and ``(0.5, 0.3, 0.1, 0.1)``).
    global_sizes
        ``(m, n)`` pairs for Theorem 7 on ``{1..m}^n``.
    epsilons
        Budgets for the distortion-valued Corollary 15.
    progress
        A :class:`~mechdesign.progress.Progress` callback, called before each group of statements
        (naming it) and once at the end; ``None`` is silent.
    """
    source = class_two if class_two is not None else [list(prior), [0.5, 0.3, 0.1, 0.1]]
    stages: list[tuple[str, Callable[[], list[CheckRow]]]] = [
        ("Prop. 8 (no prior knowledge)", lambda: _check_local_class_one(ms, delta, alpha)),
        ("Thms 9, 13, 14 (known prior)", lambda: _check_known_prior(prior, delta)),
        ("Prop. 12, Cor. 15 (Class II)", lambda: _check_class_two(source, delta, epsilons)),
        ("Lemma 10", lambda: _check_lemma10(prior, (0.0, delta, 0.3))),
        *((f"Thm 7 (global, m={m}, n={n})", lambda m=m, n=n: _check_global(m, n, delta, alpha)) for m, n in global_sizes),
        ("Thm 6 (products of one prior)", lambda: _check_theorem6((0.6, 0.4), 2, delta, alpha)),
        ("Thms 17, 18, Lemma 16 (products)", lambda: _check_products(2, 2, prior, delta, alpha)),
    ]
    rows: list[CheckRow] = []
    for done, (name, stage) in enumerate(stages):
        report(progress, done, len(stages), f"theory-check put: {name}")
        rows += stage()
    report(progress, len(stages), len(stages), "theory-check put: done")
    return rows


#: Paper short name → check returning rows (used by ``mechdesign theory-check``); each check takes an
#: optional ``progress`` keyword (a :class:`~mechdesign.progress.Progress` or ``None``).
CHECKS: dict[str, Callable[..., list[CheckRow]]] = {"put": check_put}


def run_check(paper: str, progress: Progress | None = None) -> list[CheckRow]:
    """Run the registered check of ``paper`` (a key of :data:`CHECKS`), reporting to ``progress``."""
    if paper not in CHECKS:
        raise MechDesignError(f"no theory check for {paper!r}; available: {sorted(CHECKS)}")
    return CHECKS[paper](progress=progress)


__all__ = ["CHECKS", "CheckRow", "DistortionOracle", "binary_product_search", "check_put", "compare", "epsilon_rows", "format_table",
           "numeric_privacy_distortion", "product_space", "run_check"]
