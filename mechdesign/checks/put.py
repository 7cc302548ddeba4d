"""PUT closed forms (Zhong & Bu, "Privacy-Utility Trade-Off") against the optimizer.

Every statement of :mod:`mechdesign.theory.put` whose notion the library implements: Prop. 8,
Thms. 6, 7, 9, 13, 14, 17, 18, Lemmas 10, 16, 20, 22, 23, Prop. 12 and Cor. 15. Each distortion grid
holds every breakpoint and both sides of it (:func:`distortion_grid`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence

import numpy as np

from ..mechanisms.global_framework import hamming_distances, hamming_neighbours, product_mechanism, product_prior
from ..priors import Prior, SourceSet
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
from ..source_classes import theta_star
from ..theory import put
from ..utility import ExpectedDistortion, WorstCaseDistortion
from ..utility.base import Objective
from .optimum import DistortionOracle, epsilon_rows, privacy_distortion_values
from .rows import CLOSED_FORM_ATOL, CheckRow, ClosedForm, compare, parameter_choice, upper_bound

#: Seed of the random mechanisms of the Appendix A lemmas (and, plus 16, of Lemma 16).
SEED = 20
#: Exact measurements on both sides (Lemma 16) agree to round-off.
EXACT_ATOL = 1e-9
#: The Fig. 4 prior of the PUT paper.
FIG4_PRIOR = (0.4, 0.3, 0.2, 0.1)
#: Distance of the points on both sides of a breakpoint.
SIDE = 1e-3
#: (m, n) of the global framework (Theorem 7) in the fast and the full grid.
FAST_GLOBAL_SIZES = ((2, 2),)
FULL_GLOBAL_SIZES = ((2, 2), (3, 2), (2, 3), (2, 4), (3, 3))


def distortion_grid(breaks: Iterable[float], upper: float = 1.0, base: Iterable[float] = (0.05, 0.2)) -> list[float]:
    """Distortions: ``base``, every breakpoint and both sides of it (``± SIDE``), within ``(0, upper]``.

    Examples
    --------
    >>> distortion_grid([0.5])
    [0.05, 0.2, 0.499, 0.5, 0.501]
    """
    points = set(base)
    for b in breaks:
        points.update({b - SIDE, b, b + SIDE})
    return sorted(round(p, 12) for p in points if 0 < p <= upper)


def product_space(m: int, n: int) -> tuple[np.ndarray, Neighbours]:
    """Hamming distances on ``{1..m}^n`` and the neighbour relation (distance 1): PUT Section III.

    Examples
    --------
    >>> product_space(2, 2)[0].shape
    (4, 4)
    """
    return hamming_distances(m, n), hamming_neighbours(m, n)


def _prior_label(P: Sequence[float]) -> str:
    return "(" + ",".join(f"{p:g}" for p in P) + ")"


def _local_class_one(ms: Sequence[int], delta: float, alphas: Sequence[float]) -> list[CheckRow]:
    """Proposition 8 for Class I sets: the whole simplex (worst-case distortion) for the LP notions and
    Rényi DP; the uniform prior (the singleton Class I set) for Sibson and mutual information. The
    Rényi and Sibson upper bounds are the values (docs/errata.md, PUT entry 9): both rows are checked."""
    rows = []
    for m in ms:
        simplex, uniform = SourceSet.simplex(m), Prior.uniform(m)
        worst, at_uniform = WorstCaseDistortion(simplex), ExpectedDistortion(uniform)
        with parameter_choice():
            zero = put.lemma5_zero_threshold(m)
        Statements = list[tuple[str, Callable[[float], ClosedForm]]]
        cases: list[tuple[Statements, PrivacyNotion, Objective, float]] = [
            ([("PUT Prop. 8(1) DP", lambda D, m=m: put.prop8_dp_privacy(m, D))], DifferentialPrivacy(), worst, zero),
            ([(f"PUT Prop. 8(2) approx DP δ={delta:g}", lambda D, m=m: put.prop8_approx_dp_privacy(m, D, delta))],
             ApproximateDifferentialPrivacy(delta), worst, (1 - delta) * zero),
            ([("PUT Prop. 8(3) maximal information", lambda D, m=m, s=simplex: put.prop8_maximal_information_privacy_bounds(m, D, s))],
             MaximalInformation(simplex), worst, zero),
            ([("PUT Prop. 8(4) maximal leakage", lambda D, m=m: put.prop8_maximal_leakage_privacy(m, D))], MaximalLeakage(), worst, zero),
            ([("PUT Prop. 8(7) mutual information", lambda D, m=m: put.prop8_mutual_information_privacy(m, D))],
             MutualInformationPrivacy(uniform), at_uniform, zero),
        ]
        for alpha in alphas:
            cases += [
                ([(f"PUT Prop. 8(5) Rényi DP α={alpha:g}", lambda D, m=m, a=alpha: put.prop8_renyi_dp_privacy_bounds(m, D, a)),
                  (f"PUT Prop. 8(5) Rényi DP α={alpha:g}, value = upper bound", lambda D, m=m, a=alpha: put.prop8_renyi_dp_privacy_bounds(m, D, a)[1])],
                 RenyiDifferentialPrivacy(alpha), worst, zero),
                ([(f"PUT Prop. 8(6) Sibson α={alpha:g}", lambda D, m=m, a=alpha: put.prop8_sibson_privacy_bounds(m, D, a)),
                  (f"PUT Prop. 8(6) Sibson α={alpha:g}, value = upper bound", lambda D, m=m, a=alpha: put.prop8_sibson_privacy_bounds(m, D, a)[1])],
                 SibsonMutualInformation(alpha, uniform), at_uniform, zero),
            ]
        for statements, notion, distortion, breakpoint in cases:
            where = "simplex" if distortion is worst else "uniform"
            rows += epsilon_rows(statements, {"m": m, "source": where}, notion, distortion, distortion_grid([breakpoint]))
    return rows


#: Small distortions at which ε*(D) is checked (issue #32: a slack absolute in D moved ε* by ≈ slack / D).
SMALL_DISTORTIONS = (1e-2, 1e-4, 1e-6, 1e-8)
#: Rényi DP at small D (fast grid, full grid): the conic solves certify D*(ε) only to ≈ 1e-7 absolute, so
#: the bracket on ε* widens as D falls (measured: 1.5e-6 at 1e-2, 2e-5 to 1.2e-4 at 1e-4 depending on the
#: time the cutting planes get, 2.8e-2 at 1e-6, 3.6 at 1e-8) and below 1e-4 exceeds the self-test's perturbation.
RENYI_SMALL_DISTORTIONS = ((1e-2,), (1e-2, 1e-4))


def _small_distortions(m: int, alpha: float, full: bool) -> list[CheckRow]:
    """Prop. 8(1), 8(4) and 8(5) (the value is the upper bound, docs/errata.md PUT entry 9) at the uniform
    prior and small distortions, where ε*(D) grows like log(1/D): the optimizer's value is held to its
    certified bracket."""
    uniform = ExpectedDistortion(Prior.uniform(m))
    cases = [
        ("PUT Prop. 8(1) DP, small D", DifferentialPrivacy(), lambda D: put.prop8_dp_privacy(m, D), SMALL_DISTORTIONS),
        ("PUT Prop. 8(4) maximal leakage, small D", MaximalLeakage(), lambda D: put.prop8_maximal_leakage_privacy(m, D),
         SMALL_DISTORTIONS),
        (f"PUT Prop. 8(5) Rényi DP α={alpha:g}, value = upper bound, small D", RenyiDifferentialPrivacy(alpha),
         lambda D: put.prop8_renyi_dp_privacy_bounds(m, D, alpha)[1], RENYI_SMALL_DISTORTIONS[full]),
    ]
    rows = []
    for formula, notion, closed, distortions in cases:
        rows += epsilon_rows([(formula, closed)], {"m": m, "source": "uniform"}, notion, uniform, distortions)
    return rows


def _known_prior(prior: Sequence[float], delta: float) -> list[CheckRow]:
    """Theorems 13 (DP), 9 (approximate DP) and 14 (maximal leakage) at a known prior."""
    rows = []
    objective = ExpectedDistortion(Prior(prior))
    with parameter_choice():
        levels = put.thm9_breakpoints(prior)[1:-1]
    cases = [
        ("PUT Thm 13 DP", DifferentialPrivacy(), lambda D: put.thm13_dp_privacy(prior, D), levels),
        (f"PUT Thm 9 approx DP δ={delta:g}", ApproximateDifferentialPrivacy(delta),
         lambda D: put.thm9_approx_dp_privacy(prior, D, delta), (1 - delta) * levels),
        ("PUT Thm 14 maximal leakage", MaximalLeakage(), lambda D: put.thm14_maximal_leakage_privacy(prior, D), levels),
    ]
    for formula, notion, closed, breaks in cases:
        rows += epsilon_rows([(formula, closed)], {"P": _prior_label(prior)}, notion, objective, distortion_grid(breaks))
    return rows


def _class_two(source: Sequence[Sequence[float]], delta: float, epsilons: Sequence[float]) -> list[CheckRow]:
    """Proposition 12 (approximate DP) and Corollary 15 (maximal leakage) over a Class II set."""
    objective = WorstCaseDistortion(SourceSet(source))
    setting = {"priors": len(source)}
    with parameter_choice():
        breaks = sorted({float(b) for p in source for b in (1 - delta) * put.thm9_breakpoints(p)[1:-1]})
    rows = epsilon_rows([(f"PUT Prop. 12 approx DP δ={delta:g}", lambda D: put.prop12_approx_dp_privacy(source, D, delta))], setting,
                        ApproximateDifferentialPrivacy(delta), objective, distortion_grid(breaks))
    leakage = DistortionOracle(MaximalLeakage(), objective)
    for eps in epsilons:
        rows.append(compare("PUT Cor. 15 maximal leakage", {**setting, "ε": float(eps)}, "distortion",
                            lambda eps=eps: put.cor15_maximal_leakage_distortion(source, eps), leakage.distortion(eps)))
    return rows


def _global(m: int, n: int, delta: float, alpha: float) -> list[CheckRow]:
    """Theorem 7 (1)–(7) on ``{1..m}^n`` at the uniform prior (Class I); Theorem 7(5)'s upper bound is the
    value for every Class I set (docs/errata.md, PUT entry 10)."""
    distances, adjacency = product_space(m, n)
    prior = Prior.uniform(m**n)
    objective = ExpectedDistortion(prior, cost=distances)
    Statements = list[tuple[str, Callable[[float], ClosedForm]]]
    cases: list[tuple[PrivacyNotion, Statements]] = [  # statements on the same notion share its solves
        (DifferentialPrivacy(adjacency), [("PUT Thm 7(1) DP", lambda D: put.thm7_dp_privacy(m, n, D))]),
        (ApproximateDifferentialPrivacy(delta, neighbours=adjacency),
         [(f"PUT Thm 7(2) approx DP δ={delta:g}", lambda D: put.thm7_approx_dp_privacy_bounds(m, n, D, delta))]),
        (MaximalLeakage(), [("PUT Thm 7(4) maximal leakage", lambda D: put.thm7_maximal_leakage_privacy_bounds(m, n, D))]),
        (MaximalInformation(prior),
         [("PUT Thm 7(3) maximal information", lambda D: put.thm7_maximal_information_privacy_bounds(m, n, D, prior))]),
        (RenyiDifferentialPrivacy(alpha, neighbours=adjacency),
         [(f"PUT Thm 7(5) Rényi DP α={alpha:g}", lambda D: put.thm7_renyi_dp_privacy_bounds(m, n, D, alpha)),
          (f"PUT Thm 7(5) Rényi DP α={alpha:g}, value = upper bound (Class I, errata)",
           lambda D: put.thm7_renyi_dp_privacy_bounds(m, n, D, alpha)[1])]),
        (SibsonMutualInformation(alpha, prior),
         [(f"PUT Thm 7(6) Sibson α={alpha:g}", lambda D: put.thm7_sibson_privacy_bounds(m, n, D, alpha))]),
        (MutualInformationPrivacy(prior),
         [("PUT Thm 7(7) mutual information", lambda D: put.thm7_mutual_information_privacy(m, n, D))]),
    ]
    with parameter_choice():
        grid = distortion_grid([put.lemma5_zero_threshold(m, n)], upper=n, base=(0.2, 0.5))
    rows = []
    for notion, statements in cases:
        rows += epsilon_rows(statements, {"m": m, "n": n}, notion, objective, grid)
    return rows


def binary_product_search(prior: Sequence[float], n: int, D: float, delta: float, points: int = 2001) -> float:
    """``min ε̂_δ(Q^{⊗n})`` over binary ``Q`` of per-letter distortion exactly ``D`` (grid over Q(1|1)).

    A grid search (an upper estimate of the optimum over binary product mechanisms, which is not a
    convex problem); used for PUT Theorems 17(2) and 18(1).

    Examples
    --------
    >>> round(binary_product_search((0.6, 0.4), 2, 0.1, 0.1), 4)
    2.0655
    """
    _, adjacency = product_space(2, n)
    notion = ApproximateDifferentialPrivacy(delta, neighbours=adjacency)
    best = math.inf
    for keep in np.linspace(0.0, 1.0, points):
        other = 1 - (D - prior[0] * (1 - keep)) / prior[1]
        if 0 <= other <= 1:
            best = min(best, notion.measure(product_mechanism([[keep, 1 - keep], [1 - other, other]], n)))
    return best


def _theorem6(single: Sequence[float], n: int, delta: float, alpha: float) -> list[CheckRow]:
    """Theorem 6(1)–(7) for the singleton ``{P^{⊗n}}`` (θ* = m^n min P, η = max P)."""
    m = len(single)
    prior = product_prior(single, n)
    star = theta_star(prior)
    theta, eta = star.theta, star.eta
    distances, adjacency = product_space(m, n)
    objective = ExpectedDistortion(prior, cost=distances)
    cases: list[tuple[str, PrivacyNotion, Callable[[float], ClosedForm]]] = [
        ("PUT Thm 6(1) DP", DifferentialPrivacy(adjacency), lambda D: put.thm6_dp_privacy_bounds(m, n, D, theta)),
        (f"PUT Thm 6(2) approx DP δ={delta:g}", ApproximateDifferentialPrivacy(delta, neighbours=adjacency),
         lambda D: put.thm6_approx_dp_privacy_bounds(m, n, D, delta, theta)),
        ("PUT Thm 6(4) maximal leakage", MaximalLeakage(), lambda D: put.thm6_maximal_leakage_privacy_bounds(m, n, D, theta)),
        ("PUT Thm 6(3) maximal information", MaximalInformation(prior),
         lambda D: put.thm6_maximal_information_privacy_bounds(m, n, D, theta, prior)),
        (f"PUT Thm 6(5) Rényi DP α={alpha:g}", RenyiDifferentialPrivacy(alpha, neighbours=adjacency),
         lambda D: put.thm6_renyi_dp_privacy_bounds(m, n, D, alpha, theta)),
        (f"PUT Thm 6(6) Sibson α={alpha:g}", SibsonMutualInformation(alpha, prior),
         lambda D: put.thm6_sibson_privacy_bounds(m, n, D, alpha, theta)),
        ("PUT Thm 6(7) mutual information", MutualInformationPrivacy(prior),
         lambda D: put.thm6_mutual_information_privacy_bounds(m, n, D, theta, eta)),
    ]
    with parameter_choice():
        grid = distortion_grid([put.lemma5_zero_threshold(m, n)], upper=n, base=(0.2, 0.5))
    rows = []
    for formula, notion, closed in cases:
        rows += epsilon_rows([(formula, closed)], {"P": f"{_prior_label(single)}^⊗{n}"}, notion, objective, grid)
    return rows


def _lemma10(prior: Sequence[float], deltas: Sequence[float]) -> list[CheckRow]:
    """Lemma 10: D*_δ(P, 0) = (1−δ)(1 − P_1), the distortion from which ε*_δ = 0."""
    rows = []
    for delta in deltas:
        notion = ApproximateDifferentialPrivacy(delta) if delta else DifferentialPrivacy()
        numeric = DistortionOracle(notion, ExpectedDistortion(Prior(prior))).distortion(0.0)
        rows.append(compare("PUT Lemma 10 zero threshold", {"P": _prior_label(prior), "δ": float(delta)}, "distortion",
                            lambda delta=delta: put.lemma10_zero_threshold(prior, delta), numeric))
    return rows


def single_letter_optima(notion: PrivacyNotion, objective: Objective,
                         distortions: Sequence[float]) -> list[tuple[np.ndarray | None, bool, float]]:
    """The optimizer's least-budget mechanism at each distortion (``None`` where ε*(D) was not found), whether
    its solve was certified optimal, and the width of ε*'s certified bracket.

    Examples
    --------
    Maximal leakage, binary uniform prior, D = 1/4: the mechanism reaches D at ε* = log(2 (1 − D)) (Prop. 8(4)).

    >>> from mechdesign import MaximalLeakage, Prior
    >>> objective = ExpectedDistortion(Prior.uniform(2))
    >>> [(round(objective.value(Q), 6), round(MaximalLeakage().measure(Q), 6), ok)
    ...  for Q, ok, _ in single_letter_optima(MaximalLeakage(), objective, [0.25])]
    [(0.25, 0.405465, True)]
    """
    return [(value.mechanism.matrix if value.success else None, getattr(value.certificate, "status", None) == "optimal",
             float(value.bracket[1] - value.bracket[0]) if value.success else math.nan)
            for value in privacy_distortion_values(notion, objective, distortions)]


def _product_rows(formula: str, closed: Callable[[float], ClosedForm], single: PrivacyNotion, product: PrivacyNotion,
                  objective: Objective, n: int, distortions: Sequence[float], setting: dict) -> list[CheckRow]:
    """``closed(D)`` against the measured loss on ``{1..m}^n`` of the product of the optimizer's single-letter
    mechanism at ``D / n`` (a product mechanism of distortion ``D``; the optimum over products by Lemma 16),
    held to ``n`` times the certified bracket of the single-letter ε* (Lemma 16's factor is at most ``n``)."""
    rows = []
    optima = single_letter_optima(single, objective, [D / n for D in distortions])
    for D, (Q, certified, width) in zip(distortions, optima):
        numeric = product.measure(product_mechanism(Q, n)) if Q is not None else math.nan
        rows.append(compare(formula, {**setting, "D": float(D)}, "epsilon", lambda D=D: closed(D), numeric,
                            CLOSED_FORM_ATOL + (n * width if math.isfinite(width) else 0.0), certified=certified))
    return rows


def _products(m: int, n: int, prior: Sequence[float], delta: float, alpha: float) -> list[CheckRow]:
    """Theorems 17 and 18 on product mechanisms.

    Thm 17(1), (3)–(7) and Thm 18(2): the closed form against the measured loss on ``{1..m}^n`` of the
    product of the optimizer's single-letter mechanism at ``D/n`` (:func:`_product_rows`: no closed form
    enters the numerical value). Brackets (Thm 17(2), corrected Thm 18(1)): a grid search over binary
    product mechanisms.
    """
    rows = []
    _, adjacency = product_space(m, n)
    uniform, single_uniform = Prior.uniform(m**n), Prior.uniform(m)
    objective = ExpectedDistortion(single_uniform)
    setting = {"m": m, "n": n}
    with parameter_choice():
        zero = put.lemma5_zero_threshold(m, n)
    distortions = (0.2, 0.5 * zero, 0.9 * zero)
    cases: list[tuple[str, Callable[[float], ClosedForm], PrivacyNotion, PrivacyNotion]] = [
        ("PUT Thm 17(1) DP", lambda D: put.thm17_dp_privacy(m, n, D), DifferentialPrivacy(), DifferentialPrivacy(adjacency)),
        ("PUT Thm 17(3) maximal information", lambda D: put.thm17_maximal_information_privacy_bounds(m, n, D, single_uniform),
         MaximalInformation(single_uniform), MaximalInformation(uniform)),
        ("PUT Thm 17(4) maximal leakage", lambda D: put.thm17_maximal_leakage_privacy(m, n, D), MaximalLeakage(), MaximalLeakage()),
        (f"PUT Thm 17(5) Rényi DP α={alpha:g}", lambda D: put.thm17_renyi_dp_privacy_bounds(m, n, D, alpha),
         RenyiDifferentialPrivacy(alpha), RenyiDifferentialPrivacy(alpha, neighbours=adjacency)),
        (f"PUT Thm 17(5) Rényi DP α={alpha:g}, value = upper bound (Class I, errata)",
         lambda D: put.thm17_renyi_dp_privacy_bounds(m, n, D, alpha)[1],
         RenyiDifferentialPrivacy(alpha), RenyiDifferentialPrivacy(alpha, neighbours=adjacency)),
        (f"PUT Thm 17(6) Sibson α={alpha:g}", lambda D: put.thm17_sibson_privacy_bounds(m, n, D, alpha),
         SibsonMutualInformation(alpha, single_uniform), SibsonMutualInformation(alpha, uniform)),
        ("PUT Thm 17(7) mutual information", lambda D: put.thm17_mutual_information_privacy(m, n, D),
         MutualInformationPrivacy(single_uniform), MutualInformationPrivacy(uniform)),
    ]
    for formula, closed, single, product in cases:
        rows += _product_rows(formula, closed, single, product, objective, n, distortions, setting)
    with parameter_choice():
        levels = put.thm9_breakpoints(prior)[1:-1]
    rows += _product_rows("PUT Thm 18(2) maximal leakage", lambda D: put.thm18_maximal_leakage_privacy(prior, n, D / n),
                          MaximalLeakage(), MaximalLeakage(), ExpectedDistortion(Prior(prior)), n, [n * D for D in levels],
                          {"P": _prior_label(prior), "n": n})
    binary = (0.6, 0.4)
    for D in (0.1, 0.2, 0.3):
        rows.append(compare(f"PUT Thm 18(1) approx DP δ={delta:g} (corrected)", {"P": _prior_label(binary), "n": n, "D per letter": D},
                            "epsilon", lambda D=D: put.thm18_approx_dp_privacy_bounds(binary, n, D, delta),
                            binary_product_search(binary, n, D, delta)))
        rows.append(compare(f"PUT Thm 17(2) approx DP δ={delta:g} (products)", {"m": 2, "n": n, "D": 2 * D}, "epsilon",
                            lambda D=D: put.thm17_approx_dp_privacy_bounds(2, n, 2 * D, delta),
                            binary_product_search((0.5, 0.5), n, D, delta)))
    return rows


def _lemma16(ms: Sequence[int], n: int, trials: int, alphas: Sequence[float]) -> list[CheckRow]:
    """Lemma 16: ``ε(Q^{⊗n})`` is ``ε(Q)`` for DP and Rényi DP (Hamming neighbours) and ``n ε(Q)`` for maximal
    information, maximal leakage, Sibson and mutual information (i.i.d. prior ``P^{⊗n}``), both sides measured
    on seeded random ``Q`` and priors."""
    rng = np.random.default_rng(SEED + 16)
    rows = []
    for m in ms:
        _, adjacency = product_space(m, n)
        for trial in range(trials):
            single_prior = rng.dirichlet(np.ones(m))
            joint_prior = product_prior(single_prior, n)
            Q = rng.dirichlet(np.ones(m), size=m)
            big = product_mechanism(Q, n)
            pairs: list[tuple[PrivacyNotion, PrivacyNotion]] = [
                (DifferentialPrivacy(), DifferentialPrivacy(adjacency)), (MaximalLeakage(), MaximalLeakage()),
                (MaximalInformation(Prior(single_prior)), MaximalInformation(joint_prior)),
                (MutualInformationPrivacy(Prior(single_prior)), MutualInformationPrivacy(joint_prior))]
            for alpha in alphas:
                pairs += [(RenyiDifferentialPrivacy(alpha), RenyiDifferentialPrivacy(alpha, neighbours=adjacency)),
                          (SibsonMutualInformation(alpha, Prior(single_prior)), SibsonMutualInformation(alpha, joint_prior))]
            for single, product in pairs:
                value = single.measure(Q)
                rows.append(compare(f"PUT Lemma 16 {single.label}", {"m": m, "n": n, "trial": trial}, "nats",
                                    lambda single=single, value=value: put.lemma16_product_privacy(single, n, value),
                                    product.measure(big), EXACT_ATOL))
    return rows


def _measured_losses(Q: np.ndarray, prior: Prior, deltas: Sequence[float], alphas: Sequence[float]) -> dict[str, float]:
    """Every loss of PUT Definition 19 measured on ``Q`` (local framework: every pair of inputs neighbours)."""
    losses = {"dp": DifferentialPrivacy().measure(Q), "mi": MutualInformationPrivacy(prior).measure(Q),
              "ml": MaximalLeakage().measure(Q)}
    losses.update({f"approx:{d:g}": ApproximateDifferentialPrivacy(d).measure(Q) for d in deltas})
    losses.update({f"renyi:{a:g}": RenyiDifferentialPrivacy(a).measure(Q) for a in alphas})
    losses.update({f"sibson:{a:g}": SibsonMutualInformation(a, prior).measure(Q) for a in alphas})
    return losses


def renyi_divergence(p: np.ndarray, q: np.ndarray, alpha: float) -> float:
    """``D_α(P‖Q) = log(Σ p^α q^{1−α})/(α−1)`` for full-support ``q``.

    Examples
    --------
    >>> round(renyi_divergence(np.array([0.5, 0.5]), np.array([0.5, 0.5]), 2.0), 12)
    0.0
    """
    return float(np.log(np.sum(p**alpha * q ** (1 - alpha))) / (alpha - 1))


def _appendix_a(trials: int, m: int = 3) -> list[CheckRow]:
    """Lemma 20 (orderings between the losses), Lemma 22 (Rényi) and Lemma 23 (Sibson probability
    preservation) on seeded random mechanisms; for the lemmas, the tightest of every event (Lemma 22:
    all non-empty subsets of the outputs) or of 64 random events of X × Y (Lemma 23)."""
    rng = np.random.default_rng(SEED)
    rows = []
    deltas, alphas = (0.0, 0.05, 0.2), (1.5, 2.0, 4.0)
    subsets = [np.array(mask, dtype=bool) for mask in np.ndindex(*(2,) * m) if any(mask)]
    for trial in range(trials):
        prior = Prior(rng.dirichlet(np.ones(m)))
        Q = rng.dirichlet(np.ones(m), size=m)
        losses = _measured_losses(Q, prior, deltas, alphas)
        with parameter_choice():  # the orderings say which pairs of measured losses to compare
            orderings = put.lemma20_orderings(losses)
        for smaller, larger in orderings:
            rows.append(compare(f"PUT Lemma 20 {smaller} ≤ {larger}", {"trial": trial}, "nats",
                                lambda bound=losses[larger]: upper_bound(bound), losses[smaller]))
        rows.append(compare("PUT Lemma 20(4) ε_{δ=0} = ε_DP", {"trial": trial}, "nats", lambda dp=losses["dp"]: dp,
                            losses["approx:0"]))
        for alpha in alphas:
            p, q = Q[0], Q[1]
            divergence = renyi_divergence(p, q, alpha)
            with parameter_choice():  # the tightest event
                subset = min(subsets, key=lambda s: put.lemma22_probability_bound(divergence, float(q[s].sum()), alpha) - p[s].sum())
            rows.append(compare(f"PUT Lemma 22(2) Rényi α={alpha:g}", {"trial": trial}, "probability",
                                lambda divergence=divergence, q_event=float(q[subset].sum()), alpha=alpha:
                                upper_bound(put.lemma22_probability_bound(divergence, q_event, alpha)), float(p[subset].sum())))
            sibson = losses[f"sibson:{alpha:g}"]
            joint = prior.probabilities[:, None] * Q
            events = rng.random((64, m, m)) < 0.5
            sections = [float((prior.probabilities[:, None] * e).sum(axis=0).max()) for e in events]
            with parameter_choice():  # the tightest event
                tightest = min(range(len(events)), key=lambda i: put.lemma23_probability_bound(sibson, sections[i], alpha)
                               - joint[events[i]].sum())
            rows.append(compare(f"PUT Lemma 23 Sibson α={alpha:g}", {"trial": trial}, "probability",
                                lambda sibson=sibson, section=sections[tightest], alpha=alpha:
                                upper_bound(put.lemma23_probability_bound(sibson, section, alpha)),
                                float(joint[events[tightest]].sum())))
    return rows


def check_put(full: bool = False, delta: float = 0.1, prior: Sequence[float] = FIG4_PRIOR,
              global_sizes: Sequence[tuple[int, int]] | None = None) -> list[CheckRow]:
    """PUT closed forms against the optimizer.

    Parameters
    ----------
    full
        The full grid (alphabets 2–4, Rényi/Sibson orders 1.5, 2, 4, the global framework up to
        ``(m, n) = (2, 4)`` and ``(3, 3)``) instead of the fast one (``m = 2, 3``, order 2, ``(2, 2)``).
    delta
        δ of approximate DP.
    prior
        Known prior for Theorems 9, 13, 14 (default: the paper's Fig. 4 prior); with
        ``(0.5, 0.3, 0.1, 0.1)`` it is the Class II set of Prop. 12 and Cor. 15.

    global_sizes
        The ``(m, n)`` of the global framework rows (default: :data:`FULL_GLOBAL_SIZES` with ``full``,
        else :data:`FAST_GLOBAL_SIZES`).

    Examples
    --------
    >>> rows = check_put()  # doctest: +SKIP
    >>> all(row.ok for row in rows)  # doctest: +SKIP
    True
    """
    ms, alphas = ((2, 3, 4), (1.5, 2.0, 4.0)) if full else ((2, 3), (2.0,))
    epsilons = (0.0, 0.5, math.log(2), 1.0, math.log(3), 2.0)
    rows = _local_class_one(ms, delta, alphas)
    rows += _small_distortions(3, 2.0, full)
    rows += _known_prior(prior, delta)
    rows += _class_two([list(prior), [0.5, 0.3, 0.1, 0.1]], delta, epsilons)
    rows += _lemma10(prior, (0.0, delta, 0.3))
    if global_sizes is None:
        global_sizes = FULL_GLOBAL_SIZES if full else FAST_GLOBAL_SIZES
    for m, n in global_sizes:
        rows += _global(m, n, delta, 2.0)
    rows += _theorem6((0.6, 0.4), 2, delta, 2.0)
    rows += _products(2, 2, prior, delta, 2.0)
    rows += _lemma16((2, 3) if full else (2,), 2, 5 if full else 2, (1.5, 3.0) if full else (2.0,))
    rows += _appendix_a(20 if full else 4)
    return rows
