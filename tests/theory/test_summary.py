"""Tests of mechdesign.theory.summary against exact computation and the LP-optimal mechanisms
(Wang et al., Guarding Multiple Secrets: Thms. 4.1, 5.1, 5.3, 5.4; Props. 5.2, 5.5, C.1–C.6)."""

import math

import numpy as np
import pytest

from mechdesign import MechDesignError
from mechdesign.mechanisms.gaussian_quantization import algorithm1, algorithm2, algorithm3
from mechdesign.parameter_spaces import ParameterSpace, diagonal_gaussian_w2
from mechdesign.designers.summary import design_worst_case_distortion, worst_case_tradeoff
from mechdesign.privacy.summary import GroupPrivacy, IntersectionPrivacy, LpNormPrivacy, UnionPrivacy
from mechdesign.theory import summary as theory

#: Distances and probabilities recomputed on a grid agree with closed forms to round-off.
EXACT_ATOL = 1e-12
#: Slack of the LP-optimal distortion against a strict lower bound (solver round-off).
BOUND_ATOL = 1e-9
#: Relative round-off in the chain Δ_alg ≤ c_{ε,s} · bound, which is an equality for equal ε_i/s_i.
RATIO_RTOL = 1e-12
BUDGETS = np.round(np.linspace(0.05, 0.95, 10), 2)


def optimal_distortion(curve, T):
    thresholds, values = curve
    feasible = thresholds[values <= T + BOUND_ATOL]
    return feasible.min() if feasible.size else math.inf


def quantized_space(h, cells, steps, eps):
    """A uniform grid of spacing h with ``cells[i]`` quantization intervals of length ``steps[i]``
    per secret, output set = the quantizer's midpoints. Grid points include every interval's left
    end, so the worst case distance to a midpoint is exactly s/2."""
    levels = [lower + np.arange(round(c * s / h)) * h for lower, c, s in zip((0.0, 1.0), cells, steps)]
    return ParameterSpace.gaussian_1d(levels[0], levels[1], eps)


def test_prop_c2_alg1_privacy_and_distortion_against_exact_grid():
    # Prop. C.2 (continuous uniform prior): Π = 1 − Π(1 − 2ε_i/s_i), Δ = ½√(s_μ² + s_σ²). On a grid of
    # spacing h with m_i = s_i/h points per interval, a window of length 2ε_i covers ⌊2ε_i/h⌋ + 1 of
    # them: Π_grid = 1 − Π(1 − (⌊2ε_i/h⌋+1)/m_i), within Σ 1/m_i of the closed form, which it tends to.
    steps, eps = np.array([1.0, 2.0]), np.array([0.3, 0.45])
    closed_privacy, closed_distortion = theory.propc2_privacy_distortion(eps, steps)
    assert closed_privacy == pytest.approx(2 * 0.3 / 1 + 2 * 0.45 / 2 - (0.6 * 0.45), abs=EXACT_ATOL)
    gaps = []
    for h in (0.25, 0.125):
        space = quantized_space(h, (3, 2), steps, eps)
        release = lambda rows: algorithm1(rows, [0.0, 1.0], steps)
        space = space.with_outputs(release(space.points), keep=False)
        Q = space.deterministic_mechanism(release)
        measured = UnionPrivacy(space).measure(Q)
        covered = (np.floor(2 * eps / h) + 1) / (steps / h)
        assert measured == pytest.approx(1 - np.prod(1 - covered), abs=EXACT_ATOL)
        assert closed_privacy <= measured <= closed_privacy + (h / steps).sum()
        assert space.support_distortion().value(Q) == pytest.approx(closed_distortion, abs=EXACT_ATOL)
        gaps.append(measured - closed_privacy)
    assert gaps[1] < gaps[0]


def test_prop_c4_alg2_privacy_and_distortion_against_exact_grid():
    # Prop. C.4 with d = 3 secrets (μ1, σ1, μ2) of a 2-dimensional diagonal Gaussian; σ2 fixed.
    h, steps, eps = 0.25, np.array([1.0, 0.5, 0.75]), np.array([0.2, 0.1, 0.3])
    space = ParameterSpace.diagonal_gaussian([np.arange(8) * h, np.arange(6) * h], [1 + np.arange(4) * h, [2.0]],
                                             ["mu1", "sigma1", "mu2"], eps)
    release = lambda rows: algorithm2(rows, [0, 2, 1], [0.0, 1.0, 0.0], steps)
    space = space.with_outputs(release(space.points), keep=False)
    Q = space.deterministic_mechanism(release)
    closed_privacy, closed_distortion = theory.propc4_privacy_distortion(eps, steps)
    covered = (np.floor(2 * eps / h + 1e-12) + 1) / (steps / h)
    assert UnionPrivacy(space).measure(Q) == pytest.approx(1 - np.prod(1 - covered), abs=EXACT_ATOL)
    assert closed_privacy <= UnionPrivacy(space).measure(Q) <= closed_privacy + (h / steps).sum()
    assert space.support_distortion().value(Q) == pytest.approx(closed_distortion, abs=EXACT_ATOL)


def test_prop_c6_alg3_distortion_against_exact_grid():
    levels = [np.arange(3) * 0.5, [0.0], (1 + np.arange(4) * 0.5) ** 2, (1 + np.arange(4) * 0.5) ** 2, [0.3, 1.1]]
    secrets, steps = ["mu1", "sigma1", "sigma2"], [1.5, 1.0, 2.0, 2.0]
    space = ParameterSpace.gaussian_2d(levels, secrets, [0.1, 0.1, 0.1])
    release = lambda rows: algorithm3(rows, secrets, [0.0, 0.0, 1.0, 1.0], steps)
    space = space.with_outputs(release(space.points), keep=False)
    Q = space.deterministic_mechanism(release)
    assert space.support_distortion().value(Q) == pytest.approx(theory.propc6_distortion(secrets, steps), abs=1e-9)


def test_alg2_within_claimed_constant_of_the_lower_bound():
    # Props. C.2/C.4 (App. C.5.2, C.5.4): Δ_alg < c_{ε,s} · (Prop. C.3 bound at Π_alg) < c_{ε,s} Δ_opt,
    # and Δ_alg < 2 Δ_opt when all ε_i/s_i are equal and at most 1/4. The first step holds with
    # equality when all ε_i/s_i are equal (the strictness comes from Δ_opt > bound), hence RATIO_RTOL.
    rng = np.random.default_rng(0)
    for _ in range(200):
        d = int(rng.integers(1, 5))
        eps = rng.uniform(0.05, 1.0, d)
        steps = eps / rng.uniform(0.02, 0.45, d)
        privacy, distortion = theory.propc4_privacy_distortion(eps, steps)
        printed_c3 = theory.thm4_1_union_distortion_bound(privacy, eps, math.sqrt(d) / 2)  # the algebra of App. C.5.4
        assert distortion <= theory.propc2_ratio_constant(eps, steps) * printed_c3 * (1 + RATIO_RTOL)
        # with the corrected Prop. C.3 the proven ratio is √d · c_{ε,s}
        assert distortion <= math.sqrt(d) * theory.propc2_ratio_constant(eps, steps) * theory.propc3_distortion_bound(privacy, eps) * (1 + RATIO_RTOL)
    for ratio in (0.05, 0.1, 0.25):
        eps = np.full(3, 0.2)
        privacy, distortion = theory.propc4_privacy_distortion(eps, eps / ratio)
        assert distortion <= 2 * theory.thm4_1_union_distortion_bound(privacy, eps, math.sqrt(3) / 2) * (1 + RATIO_RTOL)


def test_alg1_against_lp_optimum_on_a_grid():
    # On a grid the quantizer is weaker than in the continuum (a window of 2ε = 0.4 covers 2 of the 4
    # grid points of each interval: Π = 0.75 instead of 0.64), and the LP-optimal mechanism at that
    # privacy halves its distortion (0.354 vs 0.707): the ratio c_{ε,s} of Props. C.2/C.4 compares
    # with the continuous optimum, not with a grid optimum (see docs/errata.md).
    steps, eps = np.array([1.0, 1.0]), np.array([0.2, 0.2])
    space = quantized_space(0.25, (2, 2), steps, eps)
    release = lambda rows: algorithm1(rows, [0.0, 1.0], steps)
    space = space.with_outputs(np.vstack([space.points, release(space.points)]), keep=False)
    Q = space.deterministic_mechanism(release)
    notion = UnionPrivacy(space)
    alg_privacy, alg_distortion = notion.measure(Q), space.support_distortion().value(Q)
    assert alg_privacy == pytest.approx(0.75, abs=EXACT_ATOL)
    result = design_worst_case_distortion(notion, alg_privacy)
    assert result.success and result.objective == pytest.approx(alg_distortion / 2, abs=BOUND_ATOL)
    assert result.objective > theory.propc1_distortion_bound(alg_privacy, eps)


def one_d_space():
    return ParameterSpace.gaussian_1d(np.arange(5) * 0.25, 1 + np.arange(5) * 0.25, [0.1, 0.1])


def test_gamma_of_gaussian_spaces():
    # Prop. C.1: γ = √2/2 for (μ, σ); Prop. C.3: γ = √d/2 (pairs with equal |Δg_i| are on the grid).
    space = one_d_space()
    assert theory.eq4_gamma_geometric(space) == pytest.approx(math.sqrt(2) / 2, abs=EXACT_ATOL)
    assert theory.eq7_gamma_arithmetic(space) == pytest.approx(math.sqrt(2) / 2, abs=EXACT_ATOL)
    assert theory.propc1_gamma_max(space) == pytest.approx(0.5, abs=EXACT_ATOL)
    three = ParameterSpace.diagonal_gaussian([[0.0, 0.5], [0.0, 0.5]], [[1.0, 1.5], [1.0]], ["mu1", "mu2", "sigma1"], [0.1] * 3)
    assert theory.eq4_gamma_geometric(three) == pytest.approx(math.sqrt(3) / 2, abs=EXACT_ATOL)
    assert theory.propc1_distortion_bound_as_printed(0.5, [0.1, 0.2]) == pytest.approx(theory.thm4_1_union_distortion_bound(0.5, [0.1, 0.2], math.sqrt(2) / 2))
    assert theory.propc1_distortion_bound(0.5, [0.1, 0.2]) == pytest.approx(theory.thm4_1_union_distortion_bound(0.5, [0.1, 0.2], theory.propc1_gamma_max(space)))


def test_lower_bounds_hold_against_lp_optimum_1d_gaussian():
    # Thms. 4.1 (Prop. C.1), 5.1, 5.3 (β = 1, 2) and 5.4 (p = 1, 2, ∞ with ε_p of Prop. 5.5) never
    # exceed the exact optimal worst-case distortion on the discretized (μ, σ) space.
    space = one_d_space()
    eps = space.tolerances
    gg, ga = theory.eq4_gamma_geometric(space), theory.eq7_gamma_arithmetic(space)
    curves = {"union": worst_case_tradeoff(UnionPrivacy(space)),
              "inter": worst_case_tradeoff(IntersectionPrivacy(space))}
    for p in (1, 2, np.inf):
        curves[p] = worst_case_tradeoff(LpNormPrivacy(space, p, theory.prop5_5_lp_tolerance(eps, p)))
    for T in BUDGETS:
        union, inter = optimal_distortion(curves["union"], T), optimal_distortion(curves["inter"], T)
        assert union > theory.thm4_1_union_distortion_bound(T, eps, gg) - BOUND_ATOL
        assert union > theory.propc1_distortion_bound(T, eps) - BOUND_ATOL
        assert union > theory.propc1_distortion_bound_as_printed(T, eps) - BOUND_ATOL  # not contradicted on a full grid
        assert union > theory.thm5_3_group_distortion_bound(T, eps, ga, 2) - BOUND_ATOL  # two singleton groups = union
        assert inter > theory.thm5_1_intersection_distortion_bound(T, eps, ga) - BOUND_ATOL
        assert inter > theory.thm5_3_group_distortion_bound(T, eps, ga, 1) - BOUND_ATOL
        for p in (1, 2, np.inf):
            lp = optimal_distortion(curves[p], T)
            assert lp > theory.thm5_4_lp_distortion_bound(T, theory.prop5_5_lp_tolerance(eps, p), p, 2, ga) - BOUND_ATOL
            # Prop. 5.5: Δ_inter ≤ Δ_lp ≤ Δ_union
            assert inter <= lp + BOUND_ATOL and lp <= union + BOUND_ATOL
        assert inter <= union + BOUND_ATOL  # Prop. 5.2


def test_group_with_singletons_is_union():
    space = one_d_space()
    matrix = np.random.default_rng(0).dirichlet(np.ones(4), size=space.n_inputs)
    assert GroupPrivacy(space, [[0], [1]]).measure(matrix) == pytest.approx(UnionPrivacy(space).measure(matrix), abs=EXACT_ATOL)
    assert GroupPrivacy(space, [[0, 1]]).measure(matrix) == pytest.approx(IntersectionPrivacy(space).measure(matrix), abs=EXACT_ATOL)


def test_lower_bounds_hold_against_lp_optimum_diagonal_and_histograms():
    # Prop. C.3 (d = 3 secrets of a diagonal Gaussian) and Thms. 4.1/5.1 with γ computed on a
    # histogram space (total variation, secrets = two category fractions).
    three = ParameterSpace.diagonal_gaussian([[0.0, 0.3, 0.6], [0.0, 0.3]], [[1.0, 1.3, 1.6], [1.0]],
                                             ["mu1", "mu2", "sigma1"], [0.1, 0.1, 0.1])
    curve = worst_case_tradeoff(UnionPrivacy(three))
    for T in BUDGETS:
        assert optimal_distortion(curve, T) > theory.propc3_distortion_bound(T, three.tolerances) - BOUND_ATOL
        assert optimal_distortion(curve, T) > theory.thm4_1_union_distortion_bound(T, three.tolerances, math.sqrt(3) / 2) - BOUND_ATOL
    rng = np.random.default_rng(0)
    hist = np.round(rng.dirichlet(np.ones(3), size=12), 2)
    hist[:, 2] = 1 - hist[:, :2].sum(axis=1)
    hist = hist[hist[:, 2] >= 0]
    space = ParameterSpace.histograms(hist, [0, 1], [0.05, 0.05])
    union, inter = worst_case_tradeoff(UnionPrivacy(space)), worst_case_tradeoff(IntersectionPrivacy(space))
    for T in BUDGETS:
        assert optimal_distortion(union, T) > theory.thm4_1_union_distortion_bound(T, space.tolerances, theory.eq4_gamma_geometric(space)) - BOUND_ATOL
        assert optimal_distortion(inter, T) > theory.thm5_1_intersection_distortion_bound(T, space.tolerances, theory.eq7_gamma_arithmetic(space)) - BOUND_ATOL


def test_bound_orderings():
    # Prop. B.1: with β = d, Thm. 4.1 is at least Thm. 5.3 when γ_u ≥ γ_g; Thm. 5.3 grows with β.
    eps = [0.1, 0.2, 0.15]
    for T in BUDGETS:
        assert theory.thm4_1_union_distortion_bound(T, eps, 0.8) >= theory.thm5_3_group_distortion_bound(T, eps, 0.8, 3) - EXACT_ATOL
        assert theory.thm5_3_group_distortion_bound(T, eps, 0.8, 1) <= theory.thm5_3_group_distortion_bound(T, eps, 0.8, 2) <= theory.thm5_3_group_distortion_bound(T, eps, 0.8, 3)
    assert theory.prop5_5_lp_tolerance([0.3, 0.4], 2) == pytest.approx(0.5)
    assert theory.prop5_5_lp_tolerance([0.3, 0.4], np.inf) == pytest.approx(0.4)


def test_domains_are_checked():
    for bad in (0.0, 1.0, -0.2, 1.5):
        with pytest.raises(MechDesignError, match="0 < T < 1"):
            theory.thm4_1_union_distortion_bound(bad, [0.1], 0.5)
    with pytest.raises(MechDesignError, match="strictly positive"):
        theory.thm5_1_intersection_distortion_bound(0.5, [0.1, -0.1], 0.5)
    with pytest.raises(MechDesignError, match="gamma"):
        theory.thm5_1_intersection_distortion_bound(0.5, [0.1], -1.0)
    with pytest.raises(MechDesignError, match="more groups"):
        theory.thm5_3_group_distortion_bound(0.5, [0.1], 0.5, 2)
    with pytest.raises(MechDesignError, match="norm order"):
        theory.thm5_4_lp_distortion_bound(0.5, 0.1, 0.5, 2, 0.5)
    with pytest.raises(MechDesignError, match="2 ε_i <= s_i"):
        theory.propc4_privacy_distortion([0.6], [1.0])
    with pytest.raises(MechDesignError, match=r"tolerances has 1 entries \(Prop. C.1: one per secret"):
        theory.propc1_distortion_bound(0.5, [0.1])
    with pytest.raises(MechDesignError, match="non-empty subset"):
        theory.propc6_distortion(["tau"], [1, 1, 1, 1])


def test_prop_c1_with_ceiling_is_false_plain_factor_holds():
    # Errata (Wang et al. Props. C.1/C.3/C.5, printed ⌈1/(1 − (1−T)^{1/d}) − 1⌉): on an 8 × 5 grid of
    # (μ, σ) (spacing 0.1, ε = 0.04, uniform prior) the LP-optimal mechanism at T = 0.425 has union
    # privacy 0.4161 and Δ = √0.05 = 0.2236 < √2 · ⌈3.137⌉ · 0.04 = 0.2263; the plain factor
    # (0.1775, implemented by propc1_distortion_bound) holds. A brute-force fine grid of guesses confirms the privacy.
    space = ParameterSpace.gaussian_1d(np.arange(8) * 0.1, 1 + np.arange(5) * 0.1, [0.04, 0.04])
    notion = UnionPrivacy(space)
    T = 0.425
    result = design_worst_case_distortion(notion, T)
    assert result.success
    ceiling_bound = math.sqrt(2) * math.ceil(1 / (1 - math.sqrt(1 - T)) - 1) * 0.04
    assert result.objective == pytest.approx(math.sqrt(0.05), abs=BOUND_ATOL)
    assert result.objective < ceiling_bound
    assert result.objective > theory.propc1_distortion_bound_as_printed(T, [0.04, 0.04]) > theory.propc1_distortion_bound(T, [0.04, 0.04])
    # Thm. 5.3 with β = d = 2 (singleton groups = union) read with a ceiling on its factor fails the
    # same way (0.2263); the plain factor, implemented by thm5_3_group_distortion_bound, gives 0.1775.
    gamma = theory.eq7_gamma_arithmetic(space)
    ceiling_5_3 = 2 * gamma * math.ceil(1 / (1 - math.sqrt(1 - T))) * 0.04 - 2 * gamma * 0.04
    assert ceiling_5_3 == pytest.approx(ceiling_bound, abs=1e-12) and result.objective < ceiling_5_3
    assert result.objective > theory.thm5_3_group_distortion_bound(T, [0.04, 0.04], gamma, 2)
    mu, sd = np.arange(-0.1, 0.8, 0.005), np.arange(0.9, 1.5, 0.005)
    guesses = np.stack(np.meshgrid(mu, sd, indexing="ij"), -1).reshape(-1, 2)
    joint = space.prior.probabilities[:, None] * result.mechanism.matrix
    brute = (notion.success(guesses, space.secret_values).astype(float) @ joint).max(axis=0).sum()
    assert brute <= notion.measure(result.mechanism) + 1e-12 <= T + 1e-6


@pytest.mark.parametrize("secrets", [["sigma1"], ["sigma2"], ["mu1", "sigma1"], ["sigma1", "sigma2"]])
@pytest.mark.parametrize("alpha", [0.3, 0.8, 1.2])
def test_prop_c6_privacy_bound_holds_on_a_grid(secrets, alpha):
    # Prop. C.6: Alg. 3's union privacy is at most P_μ + P_σ − P_μ P_σ (uniform μ, √λ). Exact grid
    # privacy (a, b ∈ {1, 1.2, …, 2.8}, μ1 ∈ {0, …, 0.6}, ε = 0.05) stays below it (loosely: the
    # bound counts only a triangle of misses per interval; 0.2–0.41 on the grid vs 0.67–0.79).
    eps, steps = [0.05] * len(secrets), [0.8, 1.0, 1.0, 1.0]
    levels = [np.arange(4) * 0.2, [0.0], (1 + np.arange(10) * 0.2) ** 2, (1 + np.arange(10) * 0.2) ** 2, [alpha]]
    space = ParameterSpace.gaussian_2d(levels, secrets, eps)
    release = lambda rows: algorithm3(rows, secrets, [0.0, 0.0, 1.0, 1.0], steps)
    space = space.with_outputs(release(space.points), keep=False)
    measured = UnionPrivacy(space).measure(space.deterministic_mechanism(release))
    assert measured <= theory.propc6_privacy_bound(secrets, eps, steps, alpha)


def test_prop_c6_domain():
    with pytest.raises(MechDesignError, match="0 < alpha < pi/2"):
        theory.propc6_privacy_bound(["sigma1"], [0.1], [1, 1, 1, 1], 0.0)
    with pytest.raises(MechDesignError, match="non-empty subset"):
        theory.propc6_privacy_bound(["tau"], [0.1], [1, 1, 1, 1], 0.5)
    # only means: P_σ = 0 and the bound is Prop. C.4's privacy
    assert theory.propc6_privacy_bound(["mu1", "mu2"], [0.1, 0.2], [1.0, 2.0, 1, 1], 0.5) == pytest.approx(
        theory.propc4_privacy_distortion([0.1, 0.2], [1.0, 2.0])[0])


def test_thm_4_1_and_5_3_fail_with_their_gamma_and_hold_with_gamma_max():
    # Errata (Wang et al. Thms. 4.1 and 5.3): θ_i = N(e_i, I_8), i = 0…7, uniform prior; secrets
    # g1 = Σ_k k μ_k and g2 = Σ_k π(k) μ_k (so g(θ_i) = (i, π(i))), ε = 0.49; W2(θ_i, θ_j) = √2 and
    # W2(θ_i, N(0, I)) = 1. Releasing N(0, I) always has union privacy 2/8 and Δ = 1, but with
    # γ of eq. (4) (resp. eq. (9)) Thm. 4.1 (resp. Thm. 5.3, β = d = 2) claims Δ > 1.157 (1.120).
    # With γ_max = inf D / max_i |Δg_i| both bounds hold (0.640).
    n, perm = 8, np.array([3, 2, 6, 7, 0, 1, 5, 4])
    secrets = np.stack([np.arange(n), perm], axis=1).astype(float)
    means = np.eye(n)
    euclidean = lambda a, b: np.sqrt(((a[:, None, :] - b[None, :, :]) ** 2).sum(axis=2))
    space = ParameterSpace(means, lambda rows: rows @ secrets, [0.49, 0.49], euclidean,
                           outputs=np.vstack([means, np.zeros(n)]))
    notion, T = UnionPrivacy(space), 0.25
    constant = np.zeros((n, n + 1))
    constant[:, np.flatnonzero(~space.outputs.any(axis=1))] = 1.0  # always release N(0, I)
    assert notion.measure(constant) == pytest.approx(T, abs=EXACT_ATOL)
    assert space.support_distortion().value(constant) == pytest.approx(1.0, abs=EXACT_ATOL)
    guesses = np.stack(np.meshgrid(np.arange(-1, 9, 0.05), np.arange(-1, 9, 0.05), indexing="ij"), -1).reshape(-1, 2)
    assert (notion.success(guesses, space.secret_values) @ space.prior.probabilities).max() <= T + EXACT_ATOL
    result = design_worst_case_distortion(notion, T)
    assert result.success and result.objective == pytest.approx(1.0, abs=BOUND_ATOL)
    eps = space.tolerances
    assert theory.thm4_1_union_distortion_bound(T, eps, theory.eq4_gamma_geometric(space)) > 1.15
    assert theory.thm5_3_group_distortion_bound(T, eps, theory.eq7_gamma_arithmetic(space), 2) > 1.11
    gamma_max = theory.propc1_gamma_max(space)
    assert theory.thm4_1_union_distortion_bound(T, eps, gamma_max) < result.objective
    assert theory.thm5_3_group_distortion_bound(T, eps, gamma_max, 2) < result.objective


def test_prop_c1_as_printed_fails_for_a_sparse_prior():
    # Errata (Wang et al. Prop. C.1, γ = √2/2): prior uniform on the 8 Gaussians (μ, σ) = (i, π(i) + 1),
    # π = (3, 2, 6, 7, 0, 1, 5, 4), ε = (0.49, 0.49). Releasing N(3.5, 4.5²) always has union privacy
    # 2/8 and Δ = √(3.5² + 0.5²) = 3.536 (the LP optimum), below the printed 4.479; the corrected
    # bound (γ = ½) is [1/(1 − √0.75) − 1]·0.49 = 3.167.
    perm = np.array([3, 2, 6, 7, 0, 1, 5, 4])
    points = np.stack([np.arange(8), perm + 1.0], axis=1)
    space = ParameterSpace(points, lambda rows: rows, [0.49, 0.49], diagonal_gaussian_w2,
                           outputs=np.vstack([points, [[3.5, 4.5]]]))
    notion, T = UnionPrivacy(space), 0.25
    constant = np.zeros((8, 9))
    constant[:, 8] = 1.0
    assert notion.measure(constant) == pytest.approx(T, abs=EXACT_ATOL)
    assert space.support_distortion().value(constant) == pytest.approx(math.hypot(3.5, 0.5), abs=EXACT_ATOL)
    result = design_worst_case_distortion(notion, T)
    assert result.success and result.objective == pytest.approx(math.hypot(3.5, 0.5), abs=BOUND_ATOL)
    assert theory.eq4_gamma_geometric(space) == pytest.approx(math.sqrt(2) / 2, abs=EXACT_ATOL)
    assert theory.propc1_distortion_bound_as_printed(T, space.tolerances) > 4.47 > result.objective
    assert theory.propc1_distortion_bound(T, space.tolerances) == pytest.approx(3.1674097914, abs=1e-9)
    assert theory.propc1_distortion_bound(T, space.tolerances) < result.objective


def test_prop_c4_monte_carlo_continuous_uniform_prior():
    # Props. C.2/C.4 in the continuum (seeded Monte Carlo): θ uniform on whole quantization cells,
    # released by Alg. 2; within a cell the posterior is uniform, so the attacker guessing the released
    # midpoint (any window inside the cell does as well) succeeds with 1 − Π(1 − 2ε_i/s_i). The
    # empirical success is within MC_SIGMAS standard errors; the largest W2 approaches ½√Σ s_i².
    MC_SIGMAS, samples = 4.0, 200_000
    rng = np.random.default_rng(2024)
    steps, eps = np.array([1.0, 0.5, 2.0]), np.array([0.2, 0.05, 0.3])
    lowers = np.array([0.0, 1.0, -1.0])
    theta = np.column_stack([rng.uniform(0, 3, samples), rng.uniform(-1, 3, samples),  # μ1, μ2
                             rng.uniform(1, 2, samples), np.full(samples, 1.0)])       # σ1, σ2
    columns = [0, 2, 1]
    released = algorithm2(theta, columns, lowers, steps)
    hits = np.abs(released[:, columns] - theta[:, columns]) <= eps
    closed_privacy, closed_distortion = theory.propc4_privacy_distortion(eps, steps)
    empirical = hits.any(axis=1).mean()
    assert abs(empirical - closed_privacy) <= MC_SIGMAS * np.sqrt(closed_privacy * (1 - closed_privacy) / samples)
    distances = np.linalg.norm(released - theta, axis=1)  # W2 of diagonal Gaussians (Lemma C.7)
    assert distances.max() <= closed_distortion and distances.max() > 0.99 * closed_distortion


# --- Props. B.1, B.2, 5.2, Lemmas C.8, C.10, C.11, Props. D.1–D.6 ----------------------------------------


def test_prop_b1_compares_the_bounds():
    """Prop. B.1: Thm. 4.1 ≥ Thm. 5.3 with β = d at equal γ. (Prop. 5.2 relates the optima, not the bounds:
    Thm. 5.1's bound can exceed Thm. 4.1's near T = 1; it is checked against the LP in tests/checks.)"""
    rng = np.random.default_rng(1)
    for _ in range(50):
        tolerances = rng.uniform(0.01, 1.0, int(rng.integers(1, 5)))
        T = float(rng.uniform(0.01, 0.99))
        assert theory.propb1_union_minus_group(T, tolerances, 0.5, 0.5) >= -EXACT_ATOL


def test_prop_b2_condition():
    assert theory.propb2_tolerance_condition(0.1 * 3**0.5, 0.1, 2, math.inf, 3)
    assert not theory.propb2_tolerance_condition(0.1 * 3**0.5 * 0.99, 0.1, 2, math.inf, 3)
    assert theory.propb2_tolerance_condition(0.1, 0.1, 2, 2, 5)  # equal orders: ε_τ ≥ ε_α
    with pytest.raises(MechDesignError, match="alpha >= tau"):
        theory.propb2_tolerance_condition(0.1, 0.1, 2, 1, 3)


def test_lemma_c8_c10_against_matrix_square_roots():
    """Lemmas C.8, C.10 against W2 computed with matrix square roots (Givens & Shortt), on random pairs;
    C.10's right side equals tr (Σ^{1/2} Σ' Σ^{1/2})^{1/2}."""
    from scipy.linalg import sqrtm

    from mechdesign.parameter_spaces import gaussian_w2

    rng = np.random.default_rng(2)

    def covariance(theta):
        c, s = math.cos(theta[4]), math.sin(theta[4])
        rotation = np.array([[c, -s], [s, c]])
        return rotation @ np.diag(theta[2:4]) @ rotation.T

    for _ in range(100):
        a, b = ([*rng.normal(size=2), *rng.uniform(0.1, 3, 2), rng.uniform(0, math.pi)] for _ in range(2))
        Sa, Sb = covariance(a), covariance(b)
        w2 = gaussian_w2(a[:2], Sa, b[:2], Sb)
        assert w2**2 >= theory.lemmac8_w2_squared_lower_bound(a, b) - 1e-9
        root = sqrtm(Sa)
        cross = np.trace(sqrtm(root @ Sb @ root))
        assert abs(cross.imag) < 1e-9
        assert theory.lemmac10_cross_term_bound(a, b) == pytest.approx(cross.real, abs=1e-9)
        assert float(np.sqrt(np.diag(Sa)) @ np.sqrt(np.diag(Sb))) >= theory.lemmac10_cross_term_bound(a, b) - 1e-9
    with pytest.raises(MechDesignError, match="theta must be"):
        theory.lemmac8_w2_squared_lower_bound((0, 0, -1, 1, 0), (0, 0, 1, 1, 0))


def test_lemma_c7_c9_are_the_wasserstein_distances():
    """Lemma C.7 (½ W2 of diagonal Gaussians) and Lemma C.9 (W2² of 2-D Gaussians) against W2 computed with
    matrix square roots (Givens & Shortt), on random pairs; named errors for bad parameters."""
    from mechdesign.parameter_spaces import gaussian_w2

    rng = np.random.default_rng(4)
    for _ in range(50):
        mu, sd = rng.normal(size=(2, 3)), rng.uniform(0.1, 3, size=(2, 3))
        w2 = gaussian_w2(mu[0], np.diag(sd[0] ** 2), mu[1], np.diag(sd[1] ** 2))
        assert theory.lemmac7_diagonal_distortion([*mu[0], *sd[0]], [*mu[1], *sd[1]]) == pytest.approx(w2 / 2, abs=1e-12)
        a, b = ([*rng.normal(size=2), *rng.uniform(0.1, 3, 2), rng.uniform(0, math.pi)] for _ in range(2))
        covariances = []
        for theta in (a, b):
            c, s = math.cos(theta[4]), math.sin(theta[4])
            rotation = np.array([[c, -s], [s, c]])
            covariances.append(rotation @ np.diag(theta[2:4]) @ rotation.T)
        w2 = gaussian_w2(a[:2], covariances[0], b[:2], covariances[1])
        assert theory.lemmac9_w2_squared(a, b) == pytest.approx(w2**2, abs=1e-9)
    with pytest.raises(MechDesignError, match="one length"):
        theory.lemmac7_diagonal_distortion((0, 1), (0, 1, 2, 3))
    with pytest.raises(MechDesignError, match="non-negative"):
        theory.lemmac7_diagonal_distortion((0, -1), (0, 1))


@pytest.mark.parametrize("secret", ["sigma1", "sigma2"])
def test_lemma_c11_shifts_move_the_sd_by_at_least_epsilon(secret):
    rng = np.random.default_rng(3)
    for angle in (0.1, 0.7, 1.5):
        c, s = (math.cos(angle), math.sin(angle)) if secret == "sigma1" else (math.sin(angle), math.cos(angle))
        for eps in (0.01, 0.2, 1.0):
            (da, db), (qa, qb) = theory.lemmac11_shifts(eps, angle, secret)
            a, b = rng.uniform(0, 5, size=(2, 500))
            sd = lambda x, y: np.sqrt(x**2 * c**2 + y**2 * s**2)  # noqa: E731
            assert np.all(sd(a + da, b + db) >= sd(a, b) + eps - 1e-12)
            assert np.all(sd(a + qa, b + qb) - eps >= sd(a, b) - 1e-12)  # (a + δ', b + δ') moved in by δ'
    with pytest.raises(MechDesignError, match="0 < alpha < pi/2"):
        theory.lemmac11_shifts(0.1, 2.0)
    with pytest.raises(MechDesignError, match="secret must be"):
        theory.lemmac11_shifts(0.1, 0.5, "mu1")


def test_appendix_d_closed_forms():
    """Props. D.1, D.3, D.5 are Thms. 5.1, 5.3, 5.4 at γ = ½; D.2, D.4, D.6 hand-computed."""
    eps = [0.1, 0.2, 0.3]
    assert theory.propd1_distortion_bound(0.3, eps) == theory.thm5_1_intersection_distortion_bound(0.3, eps, 0.5)
    assert theory.propd3_distortion_bound(0.3, eps, 2) == theory.thm5_3_group_distortion_bound(0.3, eps, 0.5, 2)
    assert theory.propd5_distortion_bound(0.3, 0.2, 2, 3) == theory.thm5_4_lp_distortion_bound(0.3, 0.2, 2, 3, 0.5)
    assert theory.propd2_privacy([0.1, 0.25], [1.0, 1.0]) == pytest.approx(0.2 * 0.5, abs=EXACT_ATOL)
    assert theory.propd4_privacy([0.1, 0.25], [1.0, 1.0], [[0, 1]]) == pytest.approx(0.1, abs=EXACT_ATOL)  # one group: intersection
    assert theory.propd4_privacy([0.1, 0.25], [1.0, 1.0], [[0], [1]]) == pytest.approx(
        theory.propc4_privacy_distortion([0.1, 0.25], [1.0, 1.0])[0], abs=EXACT_ATOL)  # singletons: union
    assert theory.propd6_privacy_bound(0.2, math.inf, [1.0, 1.0]) == pytest.approx(1 - 0.6**2, abs=EXACT_ATOL)
    with pytest.raises(MechDesignError, match="groups must be disjoint"):
        theory.propd4_privacy([0.1, 0.2], [1.0, 1.0], [[0, 1], [1]])
    with pytest.raises(MechDesignError, match="2 ε_i <= s_i"):
        theory.propd2_privacy([0.6], [1.0])


@pytest.mark.parametrize("call, name", [
    (lambda: theory.propc1_distortion_bound("x", [0.1, 0.1]), "T"),
    (lambda: theory.propc1_distortion_bound(0.5, [0.1]), "tolerances"),
    (lambda: theory.lemmac11_shifts(0.3, 0.5, "sigma3"), "secret"),
])
def test_theory_arguments_are_named_errors(call, name):
    # Text budgets raised a bare ValueError from float(); wrong counts and names are named too.
    with pytest.raises(MechDesignError, match=name):
        call()
