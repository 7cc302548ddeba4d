"""Multi-secret closed forms (Wang et al., "Guarding Multiple Secrets: Enhanced Summary Statistic
Privacy for Data Sharing") against the exact optimum and exact measurements on finite parameter spaces.

* Thms. 4.1, 5.1, 5.3, 5.4 and Props. C.1, C.3 (corrected: γ_max, no ceiling; docs/errata.md): lower
  bounds on the least worst-case distortion, whose exact value comes from
  :func:`~mechdesign.designers.summary.worst_case_tradeoff` (one LP per distortion threshold);
* Props. 5.2 and 5.5: ``Δ_inter ≤ Δ_lp ≤ Δ_union`` between those optima;
* Props. C.2, C.4, C.6, D.2, D.4, D.6: privacy and distortion of the quantization mechanisms (Algs. 1–3)
  measured on grids of spacing h (the grid privacy lies within the closed form evaluated at ``2ε_i/s_i``
  and at ``2ε_i/s_i + h/s_i``, the covered fraction of a grid bin);
* Props. C.5 (2-D Gaussian), D.1, D.3, D.5 (corrected) against the LP optimum; Props. B.1, B.2;
* Lemmas C.7 (diagonal Gaussians), C.8, C.9, C.10, C.11 on seeded random Gaussians (W2 from matrix
  square roots).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from ..mechanisms.gaussian_quantization import algorithm1, algorithm2, algorithm3
from ..parameter_spaces import ParameterSpace, gaussian_w2
from ..privacy import GroupPrivacy, IntersectionPrivacy, LpNormPrivacy, UnionPrivacy
from ..designers.summary import worst_case_tradeoff
from ..theory import summary
from .rows import CheckRow, compare, lower_bound, parameter_choice, upper_bound

#: Closed-form distances and probabilities on a grid agree to round-off.
EXACT_ATOL = 1e-9
#: Distance of the budgets on both sides of a breakpoint ``T = 1/k`` of ``⌈1/T⌉`` (Thms. 5.1, 5.4).
SIDE = 1e-3


def budget_grid(base: Sequence[float], ks: Sequence[int]) -> tuple[float, ...]:
    """``base`` and every breakpoint ``T = 1/k`` of ``⌈1/T⌉`` with both sides of it.

    Examples
    --------
    >>> budget_grid([0.9], [2])
    (0.499, 0.5, 0.501, 0.9)
    """
    points = set(base) | {round(1 / k + side, 12) for k in ks for side in (-SIDE, 0.0, SIDE)}
    return tuple(sorted(points))


#: Privacy budgets T at which the lower bounds are compared with the optimum.
FAST_BUDGETS = budget_grid((0.15, 0.75, 0.95), (2, 3))
FULL_BUDGETS = budget_grid(tuple(np.round(np.linspace(0.05, 0.95, 19), 2)), (2, 3, 4, 5, 8))
#: Seed of the random 2-D Gaussians of Lemmas C.8, C.10, C.11.
SEED = 7


def least_distortion(curve: tuple[np.ndarray, np.ndarray], T: float) -> float:
    """The least worst-case distortion whose optimal privacy is at most ``T`` (inf if none).

    Examples
    --------
    >>> least_distortion((np.array([0.0, 1.0]), np.array([1.0, 0.2])), 0.5)
    1.0
    """
    thresholds, values = curve
    feasible = thresholds[values <= T + EXACT_ATOL]
    return float(feasible.min()) if feasible.size else math.inf


def reachable(curve: tuple[np.ndarray, np.ndarray], budgets: Sequence[float]) -> list[float]:
    """The budgets at least the least privacy any mechanism reaches on the space (below it Δ* = ∞ and
    there is nothing to compare).

    Examples
    --------
    >>> reachable((np.array([0.0, 1.0]), np.array([1.0, 0.2])), [0.1, 0.5])
    [0.5]
    """
    return [float(T) for T in budgets if T >= float(curve[1].min()) - EXACT_ATOL]


def _lower_bounds(space: ParameterSpace, name: str, budgets: Sequence[float]) -> list[CheckRow]:
    """Corrected Thm. 4.1 / Prop. C.1 (union), Thm. 5.1, Thm. 5.3 (β = 1, 2), Thm. 5.4 (p = 1, 2, ∞),
    at the budgets the union optimum reaches (intersection and ℓp privacy are never larger)."""
    eps, d = space.tolerances, len(space.tolerances)
    with parameter_choice():  # the ℓp tolerance of Prop. 5.5 defines the problems compared
        tolerances = {p: summary.prop5_5_lp_tolerance(eps, p) for p in (1, 2, math.inf)}
    union, inter = worst_case_tradeoff(UnionPrivacy(space)), worst_case_tradeoff(IntersectionPrivacy(space))
    norms = {p: worst_case_tradeoff(LpNormPrivacy(space, p, tolerance)) for p, tolerance in tolerances.items()}
    rows = []
    for T in reachable(union, budgets):
        setting = {"space": name, "T": T}
        u, i = least_distortion(union, T), least_distortion(inter, T)
        rows.append(compare("Multi-secret Thm. 4.1 union (corrected: γ_max)", setting, "distortion",
                            lambda T=T: lower_bound(summary.thm4_1_union_distortion_bound(T, eps, summary.propc1_gamma_max(space))), u))
        if d >= 2:
            rows.append(compare("Multi-secret Thm. 5.3 groups β=d (corrected: γ_max)", setting, "distortion",
                                lambda T=T: lower_bound(summary.thm5_3_group_distortion_bound(T, eps, summary.propc1_gamma_max(space), d)),
                                u))
        rows.append(compare("Multi-secret Thm. 5.1 intersection", setting, "distortion",
                            lambda T=T: lower_bound(summary.thm5_1_intersection_distortion_bound(T, eps, summary.eq7_gamma_arithmetic(space))),
                            i))
        rows.append(compare("Multi-secret Thm. 5.3 groups β=1", setting, "distortion",
                            lambda T=T: lower_bound(summary.thm5_3_group_distortion_bound(T, eps, summary.eq7_gamma_arithmetic(space), 1)),
                            i))
        rows.append(compare("Multi-secret Prop. 5.2 Δ_inter ≤ Δ_union", setting, "distortion", lambda u=u: (-math.inf, u), i))
        for p, curve in norms.items():
            value = least_distortion(curve, T)
            rows.append(compare(f"Multi-secret Thm. 5.4 ℓ{p:g} norm", setting, "distortion",
                                lambda T=T, p=p: lower_bound(summary.thm5_4_lp_distortion_bound(
                                    T, summary.prop5_5_lp_tolerance(eps, p), p, d, summary.eq7_gamma_arithmetic(space))), value))
            rows.append(compare(f"Multi-secret Prop. 5.5 Δ_inter ≤ Δ_ℓ{p:g} ≤ Δ_union", setting, "distortion",
                                lambda i=i, u=u: (i, u), value))
    return rows


def _gaussian_lower_bounds(budgets: Sequence[float]) -> list[CheckRow]:
    """Props. C.1 (1-D Gaussian, μ and σ) and C.3 (diagonal Gaussian, three secrets), corrected."""
    one = ParameterSpace.gaussian_1d(np.arange(5) * 0.25, 1 + np.arange(5) * 0.25, [0.1, 0.1])
    three = ParameterSpace.diagonal_gaussian([[0.0, 0.3, 0.6], [0.0, 0.3]], [[1.0, 1.3, 1.6], [1.0]],
                                             ["mu1", "mu2", "sigma1"], [0.1, 0.1, 0.1])
    rows = []
    for name, space, bound in (("1-D Gaussian 5×5", one, lambda T, e: summary.propc1_distortion_bound(T, e)),
                               ("diagonal Gaussian 3×2×3", three, lambda T, e: summary.propc3_distortion_bound(T, e))):
        curve = worst_case_tradeoff(UnionPrivacy(space))
        formula = "Multi-secret Prop. C.1 (corrected)" if space is one else "Multi-secret Prop. C.3 (corrected)"
        rows += [compare(formula, {"space": name, "T": T}, "distortion",
                         lambda T=T, bound=bound, space=space: lower_bound(bound(T, space.tolerances)),
                         least_distortion(curve, T)) for T in reachable(curve, budgets)]
    return rows


def _quantization(spacings: Sequence[float]) -> list[CheckRow]:
    """Props. C.2 (Alg. 1), C.4 (Alg. 2, three secrets) and C.6 (Alg. 3, distortion) on grids."""
    rows = []
    steps, eps = np.array([1.0, 2.0]), np.array([0.3, 0.45])
    for h in spacings:
        levels = [lower + np.arange(round(c * s / h)) * h for lower, c, s in zip((0.0, 1.0), (3, 2), steps)]
        space = ParameterSpace.gaussian_1d(levels[0], levels[1], eps)
        release = lambda rows_, s=steps: algorithm1(rows_, [0.0, 1.0], s)  # noqa: E731
        space = space.with_outputs(release(space.points), keep=False)
        Q = space.deterministic_mechanism(release)
        setting = {"h": h}
        rows.append(compare("Multi-secret Prop. C.2 privacy (grid within Σh/s)", setting, "privacy",
                            lambda h=h: _widened(summary.propc2_privacy_distortion(eps, steps)[0], float((h / steps).sum())),
                            UnionPrivacy(space).measure(Q), EXACT_ATOL))
        rows.append(compare("Multi-secret Prop. C.2 distortion", setting, "distortion",
                            lambda: summary.propc2_privacy_distortion(eps, steps)[1], space.support_distortion().value(Q), EXACT_ATOL))
    h, steps3, eps3 = 0.25, np.array([1.0, 0.5, 0.75]), np.array([0.2, 0.1, 0.3])
    space = ParameterSpace.diagonal_gaussian([np.arange(8) * h, np.arange(6) * h], [1 + np.arange(4) * h, [2.0]],
                                             ["mu1", "sigma1", "mu2"], eps3)
    release = lambda rows_: algorithm2(rows_, [0, 2, 1], [0.0, 1.0, 0.0], steps3)  # noqa: E731
    space = space.with_outputs(release(space.points), keep=False)
    Q = space.deterministic_mechanism(release)
    rows.append(compare("Multi-secret Prop. C.4 privacy (grid within Σh/s)", {"h": h}, "privacy",
                        lambda: _widened(summary.propc4_privacy_distortion(eps3, steps3)[0], float((h / steps3).sum())),
                        UnionPrivacy(space).measure(Q), EXACT_ATOL))
    rows.append(compare("Multi-secret Prop. C.4 distortion", {"h": h}, "distortion", lambda: summary.propc4_privacy_distortion(eps3, steps3)[1],
                        space.support_distortion().value(Q), EXACT_ATOL))
    widened = np.minimum(eps3 + h / 2, steps3 / 2)  # a grid bin's covered fraction is at most min(1, (2ε_i + h)/s_i)
    rows.append(compare("Multi-secret Prop. D.2 intersection privacy (grid)", {"h": h}, "privacy",
                        lambda: (summary.propd2_privacy(eps3, steps3), summary.propd2_privacy(widened, steps3)),
                        IntersectionPrivacy(space).measure(Q), EXACT_ATOL))
    groups = [[0, 2], [1]]
    rows.append(compare("Multi-secret Prop. D.4 group privacy (grid)", {"h": h}, "privacy",
                        lambda: (summary.propd4_privacy(eps3, steps3, groups), summary.propd4_privacy(widened, steps3, groups)),
                        GroupPrivacy(space, groups).measure(Q), EXACT_ATOL))
    tolerance = 0.05
    rows.append(compare("Multi-secret Prop. D.6 ℓinf privacy bound (grid)", {"h": h}, "privacy",
                        lambda: upper_bound(summary.propd6_privacy_bound(min(tolerance + h / 2, float(steps3.min()) / 2), math.inf, steps3)),
                        LpNormPrivacy(space, math.inf, tolerance).measure(Q), EXACT_ATOL))
    levels = [np.arange(3) * 0.5, [0.0], (1 + np.arange(4) * 0.5) ** 2, (1 + np.arange(4) * 0.5) ** 2, [0.3, 1.1]]
    secrets, steps6 = ["mu1", "sigma1", "sigma2"], [1.5, 1.0, 2.0, 2.0]
    space = ParameterSpace.gaussian_2d(levels, secrets, [0.1, 0.1, 0.1])
    release = lambda rows_: algorithm3(rows_, secrets, [0.0, 0.0, 1.0, 1.0], steps6)  # noqa: E731
    space = space.with_outputs(release(space.points), keep=False)
    Q = space.deterministic_mechanism(release)
    rows.append(compare("Multi-secret Prop. C.6 distortion", {"secrets": "mu1,sigma1,sigma2"}, "distortion",
                        lambda: summary.propc6_distortion(secrets, steps6), space.support_distortion().value(Q), EXACT_ATOL))
    return rows


def _diagonal_three() -> ParameterSpace:
    return ParameterSpace.diagonal_gaussian([[0.0, 0.3, 0.6], [0.0, 0.3]], [[1.0, 1.3, 1.6], [1.0]],
                                            ["mu1", "mu2", "sigma1"], [0.1, 0.1, 0.1])


def _appendix_d_bounds(budgets: Sequence[float]) -> list[CheckRow]:
    """Props. D.1 (intersection), D.3 (groups {μ1, μ2}, {σ1} and β = d), D.5 (ℓ∞, ℓ2), corrected, and
    Prop. B.2 (ℓ∞ against ℓ2 at the tolerance of its condition), on a diagonal Gaussian (d = 3)."""
    space = _diagonal_three()
    eps, d = space.tolerances, 3
    inter = worst_case_tradeoff(IntersectionPrivacy(space))
    groups = worst_case_tradeoff(GroupPrivacy(space, [[0, 1], [2]]))
    union = worst_case_tradeoff(UnionPrivacy(space))
    tolerance_inf = 0.1
    tolerance_2 = tolerance_inf * d ** 0.5  # Prop. B.2 with α = ∞, τ = 2: ε_2/ε_∞ ≥ d^{1/2}
    norm_inf = worst_case_tradeoff(LpNormPrivacy(space, math.inf, tolerance_inf))
    norm_2 = worst_case_tradeoff(LpNormPrivacy(space, 2, tolerance_2))
    rows = []
    for T in reachable(union, budgets):
        setting = {"space": "diagonal Gaussian 3×2×3", "T": T}
        rows.append(compare("Multi-secret Prop. D.1 (corrected)", setting, "distortion",
                            lambda T=T: lower_bound(summary.propd1_distortion_bound(T, eps)), least_distortion(inter, T)))
        rows.append(compare("Multi-secret Prop. D.3 groups β=2 (corrected)", setting, "distortion",
                            lambda T=T: lower_bound(summary.propd3_distortion_bound(T, eps, 2)), least_distortion(groups, T)))
        rows.append(compare("Multi-secret Prop. D.3 groups β=d (corrected)", setting, "distortion",
                            lambda T=T: lower_bound(summary.propd3_distortion_bound(T, eps, d)), least_distortion(union, T)))
        rows.append(compare("Multi-secret Prop. D.5 ℓinf (corrected)", setting, "distortion",
                            lambda T=T: lower_bound(summary.propd5_distortion_bound(T, tolerance_inf, math.inf, d)),
                            least_distortion(norm_inf, T)))
        rows.append(compare("Multi-secret Prop. D.5 ℓ2 (corrected)", setting, "distortion",
                            lambda T=T: lower_bound(summary.propd5_distortion_bound(T, tolerance_2, 2, d)), least_distortion(norm_2, T)))
        with parameter_choice():  # Prop. B.2 applies where its condition holds
            applies = summary.propb2_tolerance_condition(tolerance_2, tolerance_inf, 2, math.inf, d)
        if applies:
            rows.append(compare("Multi-secret Prop. B.2 Δ_ℓinf ≤ Δ_ℓ2", setting, "distortion",
                                lambda bound=least_distortion(norm_2, T): upper_bound(bound), least_distortion(norm_inf, T)))
    return rows


def _gaussian_2d_c5(budgets: Sequence[float]) -> list[CheckRow]:
    """Prop. C.5 (2-D Gaussian, secrets μ1, σ1, σ2), corrected, against the LP optimum."""
    levels = [[0.0, 0.3, 0.6], [0.0], [1.0, 1.69], [1.0, 1.69], [0.3, 1.1]]
    space = ParameterSpace.gaussian_2d(levels, ["mu1", "sigma1", "sigma2"], [0.1, 0.1, 0.1])
    union = worst_case_tradeoff(UnionPrivacy(space))
    return [compare("Multi-secret Prop. C.5 2-D Gaussian (corrected)", {"space": "2-D Gaussian 3×1×2×2×2", "T": T}, "distortion",
                    lambda T=T: lower_bound(summary.propc5_distortion_bound(T, space.tolerances)), least_distortion(union, T))
            for T in reachable(union, budgets)]


def _prop_b1(budgets: Sequence[float]) -> list[CheckRow]:
    """Prop. B.1: with β = d and equal γ, Thm. 4.1's union bound is at least Thm. 5.3's."""
    rows = []
    for tolerances in ([0.1, 0.2], [0.05, 0.1, 0.3]):
        for T in budgets:
            rows.append(compare("Multi-secret Prop. B.1 Thm. 5.3 (β=d) ≤ Thm. 4.1", {"d": len(tolerances), "T": float(T)},
                                "distortion bound",
                                lambda T=T, tolerances=tolerances: upper_bound(summary.thm4_1_union_distortion_bound(T, tolerances, 0.5)),
                                lambda T=T, tolerances=tolerances: summary.thm5_3_group_distortion_bound(T, tolerances, 0.5,
                                                                                                         len(tolerances))))
    return rows


def _random_2d_gaussian(rng: np.random.Generator) -> np.ndarray:
    return np.array([*rng.normal(size=2), *rng.uniform(0.2, 3.0, size=2), rng.uniform(0.0, math.pi)])


def _covariance(theta: np.ndarray) -> np.ndarray:
    c, s = math.cos(theta[4]), math.sin(theta[4])
    rotation = np.array([[c, -s], [s, c]])
    return rotation @ np.diag(theta[2:4]) @ rotation.T


def _least_sd_change(shift: tuple[float, float], angle: float, secret: str, x: np.ndarray, y: np.ndarray) -> float:
    """The least change, over the points ``(x, y)``, of the standard deviation ``√(x² c² + y² s²)`` of the
    secret's axis when ``(x, y)`` moves by ``shift`` (Lemma C.11's rotated coordinates)."""
    c, s = (math.cos(angle), math.sin(angle)) if secret == "sigma1" else (math.sin(angle), math.cos(angle))

    def sd(u: np.ndarray, v: np.ndarray) -> np.ndarray:
        return np.sqrt(u**2 * c**2 + v**2 * s**2)

    return float(np.min(sd(x + shift[0], y + shift[1]) - sd(x, y)))


def _widened(privacy: float, grid: float) -> tuple[float, float]:
    """A grid's privacy lies within ``[privacy, privacy + Σ h/s_i]`` (a grid bin's covered fraction)."""
    return privacy, privacy + grid


def _gaussian_lemmas(trials: int) -> list[CheckRow]:
    """Lemmas C.8, C.9 and C.10 on seeded random pairs of 2-D Gaussians, Lemma C.7 on pairs of diagonal
    Gaussians in 3-D; Lemma C.11 on random axes (a, b), the tightest of 200 per setting."""
    rng = np.random.default_rng(SEED)
    rows = []
    for trial in range(trials):
        a, b = _random_2d_gaussian(rng), _random_2d_gaussian(rng)
        w2 = gaussian_w2(a[:2], _covariance(a), b[:2], _covariance(b))
        rows.append(compare("Multi-secret Lemma C.9 W2² of 2-D Gaussians", {"trial": trial}, "W2²",
                            lambda a=a, b=b: summary.lemmac9_w2_squared(a, b), w2**2, EXACT_ATOL))
        mu, sd = rng.normal(size=(2, 3)), rng.uniform(0.2, 3.0, size=(2, 3))  # two diagonal Gaussians in 3-D
        rows.append(compare("Multi-secret Lemma C.7 distortion of diagonal Gaussians = ½ W2", {"trial": trial}, "distortion",
                            lambda mu=mu, sd=sd: summary.lemmac7_diagonal_distortion([*mu[0], *sd[0]], [*mu[1], *sd[1]]),
                            0.5 * gaussian_w2(mu[0], np.diag(sd[0] ** 2), mu[1], np.diag(sd[1] ** 2)), EXACT_ATOL))
        rows.append(compare("Multi-secret Lemma C.8 W2² lower bound", {"trial": trial}, "W2²",
                            lambda a=a, b=b: lower_bound(summary.lemmac8_w2_squared_lower_bound(a, b)), w2**2))
        sd_a, sd_b = np.sqrt(np.diag(_covariance(a))), np.sqrt(np.diag(_covariance(b)))
        rows.append(compare("Multi-secret Lemma C.10 σ1σ1' + σ2σ2' ≥ tr √(Σ^½Σ'Σ^½)", {"trial": trial}, "variance",
                            lambda a=a, b=b: lower_bound(summary.lemmac10_cross_term_bound(a, b)), float(sd_a @ sd_b)))
    for secret in ("sigma1", "sigma2"):
        for angle in (0.2, 0.8, 1.4):
            for eps in (0.05, 0.3):
                x, y = rng.uniform(0, 4, size=(2, 200))
                setting = {"secret": secret, "α": angle, "ε": eps}
                for which, direction in ((0, "outward shift raises"), (1, "inward shift lowers")):
                    rows.append(compare(f"Multi-secret Lemma C.11 {direction} σ by ≥ ε", setting, "SD",
                                        lambda eps=eps: lower_bound(eps),
                                        lambda eps=eps, angle=angle, secret=secret, x=x, y=y, which=which:
                                        _least_sd_change(summary.lemmac11_shifts(eps, angle, secret)[which], angle, secret, x, y)))
    return rows


def check_summary(full: bool = False) -> list[CheckRow]:
    """Multi-secret closed forms against the exact optimum (fast grid, or ``full``).

    Examples
    --------
    >>> rows = check_summary()  # doctest: +SKIP
    >>> all(row.ok for row in rows)  # doctest: +SKIP
    True
    """
    budgets = FULL_BUDGETS if full else FAST_BUDGETS
    one = ParameterSpace.gaussian_1d(np.arange(5) * 0.25, 1 + np.arange(5) * 0.25, [0.1, 0.1])
    rows = _lower_bounds(one, "1-D Gaussian 5×5", budgets)
    rows += _gaussian_lower_bounds(budgets)
    rows += _quantization((0.25, 0.125) if full else (0.25,))
    rows += _appendix_d_bounds(budgets) + _gaussian_2d_c5(budgets) + _prop_b1(budgets)
    rows += _gaussian_lemmas(40 if full else 8)
    return rows
