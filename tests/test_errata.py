"""Independent checks of ``docs/errata.md``: one test per erratum, by brute force from the papers' definitions.

Nothing here calls the package's implementation of the formula under test: mechanisms are enumerated,
measured with plain numpy from the papers' definitions, and optimal values are obtained from LPs solved
directly with ``scipy.optimize.linprog``. Each test names the paper and the statement.
"""

from __future__ import annotations

import itertools
import math

import cvxpy as cp
import numpy as np
import pytest
from scipy.optimize import linprog

TOL = 1e-7  # LP / arithmetic tolerance for exact comparisons
CONE_TOL = 1e-5  # tolerance on optimal values of the small cvxpy (Clarabel) cone programs
LP_TOL = 1e-6  # tolerance on LP optimal values (HiGHS)


# ---------------------------------------------------------------------------------------------
# PUT (Zhong & Bu, "Privacy-Utility Trade-Off")
# ---------------------------------------------------------------------------------------------


def put_approx_dp_loss(Q: np.ndarray, delta: float, neighbours: list[tuple[int, int]] | None = None) -> float:
    """Definition 19(2): max{0, max_{y, x~x'} log((Q(y|x) − δ)/Q(y|x'))} (inf if a zero is beaten by δ)."""
    n = Q.shape[0]
    pairs = neighbours if neighbours is not None else [(a, b) for a in range(n) for b in range(n) if a != b]
    best = 0.0
    for a, b in pairs:
        for y in range(Q.shape[1]):
            num = Q[a, y] - delta
            if num <= 0:
                continue
            if Q[b, y] <= 0:
                return math.inf
            best = max(best, math.log(num / Q[b, y]))
    return best


def put_min_distortion(P: np.ndarray, eps: float, delta: float) -> float:
    """D*_δ(P, ε): min Σ_x P_x (1 − Q(x|x)) over m×m Q with Q(y|x) − δ <= e^ε Q(y|x') (an LP)."""
    return set_min_distortion([P], eps, delta)


def put_eps_star(P: np.ndarray, D: float, delta: float) -> float:
    """ε*_δ(P, D) by bisection on the non-increasing D*_δ(P, ε)."""
    return set_eps_star([P], D, delta)


def put_theorem9_printed(P: np.ndarray, D: float, delta: float) -> float:
    """Theorem 9 exactly as printed (P sorted decreasingly, minimum over k with D > (1−δ)D^(k−1))."""
    m = len(P)
    Dk = [sum(P[m - k:]) for k in range(m + 1)]  # D^(k) = Σ_{j=m−k+1}^m P_j
    terms = []
    for k in range(1, m + 1):
        if D > (1 - delta) * Dk[k - 1]:
            num = (m - k) * (1 - D - delta)
            den = D - (1 - delta) * Dk[k - 1]
            terms.append(math.log(num / den) if num > 0 else -math.inf)
    return max(0.0, min(terms))


def product_matrix(Q: np.ndarray, n: int) -> tuple[np.ndarray, list[tuple[int, ...]]]:
    """Q^{⊗n} on X^n with the tuple list of inputs (same order for outputs)."""
    m = Q.shape[0]
    tuples = list(itertools.product(range(m), repeat=n))
    big = np.array([[np.prod([Q[x[i], y[i]] for i in range(n)]) for y in tuples] for x in tuples])
    return big, tuples


def hamming_neighbours(tuples: list[tuple[int, ...]]) -> list[tuple[int, int]]:
    return [(a, b) for a, ta in enumerate(tuples) for b, tb in enumerate(tuples)
            if sum(u != v for u, v in zip(ta, tb)) == 1]


def test_put_theorem18_1_product_mechanism_beats_printed_value() -> None:
    """PUT Theorem 18(1): the printed ε*_δ(P, nD) = Theorem 9 at D is not attained/undercut: it is undercut.

    P = (0.6, 0.4), n = 2, δ = 0.1, D = 0.1 per letter. Theorem 9 (checked against the LP) gives log 8;
    Q = [[0.9, 0.1], [0.1, 0.9]]^{⊗2} has total distortion 0.2 = nD and, measured by brute force over all
    Hamming-neighbour pairs of {0,1}^2, ε̂_δ = log((0.9 − 0.1/0.9)/0.1) = 2.0655 < log 8 = 2.0794.
    """
    P, delta, D, n = np.array([0.6, 0.4]), 0.1, 0.1, 2
    printed = put_theorem9_printed(P, D, delta)
    assert printed == pytest.approx(math.log(8), abs=TOL)
    # n = 1: the single-letter optimum is indeed log 8 (Theorem 9 itself holds here)
    assert put_eps_star(P, D, delta) == pytest.approx(math.log(8), abs=1e-6)
    Q = np.array([[0.9, 0.1], [0.1, 0.9]])
    big, tuples = product_matrix(Q, n)
    Pn = np.array([np.prod([P[t] for t in x]) for x in tuples])
    ham = np.array([[sum(u != v for u, v in zip(x, y)) for y in tuples] for x in tuples])
    assert float(Pn @ (big * ham).sum(axis=1)) == pytest.approx(n * D, abs=TOL)
    measured = put_approx_dp_loss(big, delta, hamming_neighbours(tuples))
    assert measured == pytest.approx(math.log((0.9 - 0.1 / 0.9) / 0.1), abs=TOL)
    assert measured < printed - 0.01


@pytest.mark.parametrize("D", [0.1, 0.2, 0.3])
def test_put_theorem18_1_bracket_and_product_identity(D: float) -> None:
    """PUT Theorem 18(1), corrected: ε*_{δ m^{n−1}}(P, D) <= ε̂*_δ(P, nD) <= ε*_δ(P, D) over product mechanisms.

    Grid over binary per-letter Q with distortion <= D: the product's measured ε̂_δ equals ε_{δ/Q_*}(Q)
    (Theorem 17(2)'s proof) and the best product value lies in the bracket, strictly below Theorem 9 at D.
    """
    P, delta, n = np.array([0.6, 0.4]), 0.1, 2
    best = math.inf
    grid = np.linspace(0.0, 1.0, 101)
    for a, b in itertools.product(grid, grid):  # a = Q(1|0), b = Q(0|1)
        if P[0] * a + P[1] * b > D + 1e-12:
            continue
        Q = np.array([[1 - a, a], [b, 1 - b]])
        big, tuples = product_matrix(Q, n)
        value = put_approx_dp_loss(big, delta, hamming_neighbours(tuples))
        if (a * 100) % 10 == 0 and (b * 100) % 10 == 0:  # spot-check the identity on a sub-grid
            assert value == pytest.approx(put_approx_dp_loss(Q, delta / Q.max() ** (n - 1)), abs=TOL)
        best = min(best, value)
    upper = put_eps_star(P, D, delta)
    lower = put_eps_star(P, D, min(delta * 2 ** (n - 1), 1 - 1e-9))
    assert upper == pytest.approx(put_theorem9_printed(P, D, delta), abs=1e-6)
    assert lower - 1e-6 <= best <= upper + 1e-6
    assert best < upper - 0.01  # the printed equality fails at every D of the grid


def test_put_theorem9_value_at_lemma10_threshold() -> None:
    """PUT Theorem 9 vs Lemma 10: at D = (1−δ)D^(m−1) the printed formula gives log(P1/P2) > 0,
    but Q_δ of Lemma 10 has ε_δ = 0 and distortion exactly (1−δ)D^(m−1); the LP agrees (ε* = 0)."""
    P, delta = np.array([0.6, 0.4]), 0.1
    D = (1 - delta) * P[1]
    assert put_theorem9_printed(P, D, delta) == pytest.approx(math.log(1.5), abs=TOL)
    Q_delta = np.array([[1.0, 0.0], [1 - delta, delta]])
    assert put_approx_dp_loss(Q_delta, delta) == 0.0
    assert float(P @ (1 - np.diag(Q_delta))) == pytest.approx(D, abs=TOL)
    assert put_min_distortion(P, 0.0, delta) == pytest.approx(D, abs=LP_TOL)
    # just below the threshold the printed formula (the k = 1 term) matches the LP
    for Dm in (D - 0.01, D - 0.1):
        assert put_eps_star(P, Dm, delta) == pytest.approx(put_theorem9_printed(P, Dm, delta), abs=1e-6)
    # m = 3 as well
    P3 = np.array([0.5, 0.3, 0.2])
    D3 = (1 - delta) * (P3[1] + P3[2])
    assert put_theorem9_printed(P3, D3, delta) > 0.1
    assert put_min_distortion(P3, 0.0, delta) == pytest.approx(D3, abs=LP_TOL)


def renyi_dp_loss(Q: np.ndarray, alpha: float, neighbours: list[tuple[int, int]]) -> float:
    return max(math.log(np.sum(Q[a] ** alpha * Q[b] ** (1 - alpha))) / (alpha - 1) for a, b in neighbours)


def test_put_theorem17_5_lower_bound_needs_its_log() -> None:
    """PUT Theorem 17(5): the printed lower bound n(m−1)(1−D/n)^{α/(α−1)}/D (no log) exceeds the measured
    Rényi-DP loss of the product mechanism Q_D itself (m = 2, n = 2, α = 2, D = 0.4: 3.2 > log 3.25),
    so it is not a lower bound; with the log it is below the optimum found by a grid over product mechanisms."""
    m, n, alpha, D = 2, 2, 2.0, 0.4
    printed = n * (m - 1) * (1 - D / n) ** (alpha / (alpha - 1)) / D
    assert printed == pytest.approx(3.2, abs=TOL)
    q = D / n
    Q = np.array([[1 - q, q], [q, 1 - q]])
    big, tuples = product_matrix(Q, n)
    ham = np.array([[sum(u != v for u, v in zip(x, y)) for y in tuples] for x in tuples])
    assert float(np.mean((big * ham).sum(axis=1))) == pytest.approx(D, abs=TOL)
    measured = renyi_dp_loss(big, alpha, hamming_neighbours(tuples))
    assert measured == pytest.approx(math.log(3.25), abs=TOL)
    assert printed > measured
    assert math.log(printed) <= measured + TOL


def test_put_lemma5_zero_region_extends_to_n() -> None:
    """PUT Lemma 5 / Thms 6, 7, 17: the zero region 'n(m−1)/m <= D <= 1' is empty/degenerate for n >= 2
    (m = 3, n = 2: [4/3, 1]); the uniform mechanism Q_U has ε = 0 and distortion n(m−1)/m under every
    prior, and Hamming distortion ranges up to n, so ε̃* = 0 on [n(m−1)/m, n]."""
    rng = np.random.default_rng(0)
    for m, n in [(2, 2), (3, 2), (2, 3)]:
        tuples = list(itertools.product(range(m), repeat=n))
        ham = np.array([[sum(u != v for u, v in zip(x, y)) for y in tuples] for x in tuples])
        QU = np.full((m ** n, m ** n), 1.0 / m ** n)
        for _ in range(3):
            prior = rng.dirichlet(np.ones(m ** n))
            assert float(prior @ (QU * ham).sum(axis=1)) == pytest.approx(n * (m - 1) / m, abs=TOL)
        assert ham.max() == n  # distortion ranges over [0, n], not [0, 1]
    assert 2 * (3 - 1) / 3 > 1  # m = 3, n = 2: the printed interval [4/3, 1] is empty


# ---------------------------------------------------------------------------------------------
# SML (Wang, Lin & Fanti, "Statistic Maximal Leakage"), Thm. 4 and §V-B
# ---------------------------------------------------------------------------------------------


def histograms(tau: int, d: int) -> np.ndarray:
    """Every count vector of τ records over d categories (precision τ), as rows."""
    return np.array([c for c in itertools.product(range(tau + 1), repeat=d) if sum(c) == tau])


def tv_matrix(H: np.ndarray, tau: int) -> np.ndarray:
    return 0.5 * np.abs(H[:, None, :] - H[None, :, :]).sum(axis=2) / tau


def qm_target(l: int, s: int, interval: int) -> int:
    """§V-B: the secret index l (1-based) lies in bin k = ⌊(l−1)/I⌋, released index R(k) = ⌊(k+½)I⌋+1,
    capped at s for a partial last bin (the printed R(k) can exceed s; erratum §V-B)."""
    k = (l - 1) // interval
    return min(math.floor((k + 0.5) * interval) + 1, s)


def qm_distortion_exact(tau: int, d: int, interval: int) -> float:
    """Lemma 1: Δ = max_θ E_{θ'~QM(θ)} D_TV(θ, θ'), secret = fraction of category 0, s = τ + 1."""
    H = histograms(tau, d)
    TV = tv_matrix(H, tau)
    s = tau + 1
    worst = 0.0
    for i, h in enumerate(H):
        target = qm_target(h[0] + 1, s, interval) - 1  # released count on category 0
        outs = H[:, 0] == target
        worst = max(worst, float(TV[i, outs].mean()))
    return worst


def rr_exact(tau: int, d: int, exp_eps: float) -> tuple[float, float]:
    """RR over Θ' = all histograms: (SML, distortion), SML from its definition with deterministic
    P_{Θ|G} (one θ per secret value; by symmetry of RR every choice gives the same sum)."""
    H = histograms(tau, d)
    N = len(H)
    TV = tv_matrix(H, tau)
    K = np.full((N, N), 1.0 / (N + exp_eps - 1))
    np.fill_diagonal(K, exp_eps / (N + exp_eps - 1))
    reps = [int(np.flatnonzero(H[:, 0] == c)[0]) for c in range(tau + 1)]
    sml = math.log(K[reps].max(axis=0).sum())
    return sml, float((K * TV).sum(axis=1).max())


def qm_distortion_printed(tau: int, d: int, interval: int) -> float:
    return 0.5 + (d * (interval // 2) - tau) / (2 * tau * (d - 1))


def qm_distortion_corrected(tau: int, d: int, interval: int) -> float:
    return (d - 2) / (d - 1) + (interval // 2) / (tau * (d - 1))


def test_sml_thm4_qm_distortion_smallest_counterexample() -> None:
    """SML Thm. 4: printed Δ_QM(τ=2, d=3, I=1) = 1/4, but from θ = (0, 2, 0) QM releases (0,2,0), (0,1,1),
    (0,0,2) uniformly, with TV 0, 1/2, 1: Δ_QM >= 1/2 (and = 1/2 exactly)."""
    assert qm_distortion_printed(2, 3, 1) == pytest.approx(0.25, abs=TOL)
    assert qm_distortion_exact(2, 3, 1) == pytest.approx(0.5, abs=TOL)


@pytest.mark.parametrize("tau", [2, 3, 5, 6])
@pytest.mark.parametrize("d", [2, 3, 4])
def test_sml_thm4_qm_distortion_corrected_form(tau: int, d: int) -> None:
    """SML Thm. 4 corrected: Δ_QM = (d−2)/(d−1) + ⌊I/2⌋/(τ(d−1)) for every I; printed form only for d = 2
    or ⌊I/2⌋ = τ; the gap is (d−2)(τ−⌊I/2⌋)/(2τ(d−1))."""
    for interval in range(1, tau + 2):
        exact = qm_distortion_exact(tau, d, interval)
        assert exact == pytest.approx(qm_distortion_corrected(tau, d, interval), abs=TOL)
        gap = (d - 2) * (tau - interval // 2) / (2 * tau * (d - 1))
        assert exact - qm_distortion_printed(tau, d, interval) == pytest.approx(gap, abs=TOL)


def test_sml_thm4_rr_closed_forms_hold() -> None:
    """SML Thm. 4, RR part (not an erratum): SML log((1+sr)/(1+r)) and Δ_RR = (d−1)/(d(1+r)), r = (e^ε−1)/|Θ'|."""
    for tau, d, exp_eps in [(3, 2, 2.0), (4, 3, 5.0), (5, 3, 1.5), (3, 4, 10.0)]:
        N, s = math.comb(tau + d - 1, d - 1), tau + 1
        r = (exp_eps - 1) / N
        sml, dist = rr_exact(tau, d, exp_eps)
        assert sml == pytest.approx(math.log((1 + s * r) / (1 + r)), abs=TOL)
        assert dist == pytest.approx((d - 1) / (d * (1 + r)), abs=TOL)


def test_sml_thm4_comparison_fails_at_equal_sml() -> None:
    """SML Thm. 4 (comparison): at equal SML log⌈s/I⌉, RR has SMALLER distortion than QM for d = 3, I = 3
    (exact mechanisms, τ = 8: Δ_RR = 0.5 < Δ_QM = 0.5625; τ = 14: 0.476 < 0.536), and the ratio tends to
    (d−1)²(I−1)/(d(d−2)I) = 8/9 < 1 as τ → ∞ with I fixed."""
    d, interval = 3, 3
    for tau in (8, 14):
        s = tau + 1
        K = math.ceil(s / interval)
        N = math.comb(tau + d - 1, d - 1)
        r = (K - 1) / (s - K)  # (1+sr)/(1+r) = K
        sml_rr, d_rr = rr_exact(tau, d, 1 + r * N)
        assert sml_rr == pytest.approx(math.log(K), abs=TOL)
        d_qm = qm_distortion_exact(tau, d, interval)
        assert d_rr < d_qm - 0.03
    assert (d - 1) ** 2 * (interval - 1) / (d * (d - 2) * interval) == pytest.approx(8 / 9)
    # closed forms at large τ (both verified exactly above) give the same limit
    tau = 10 ** 9
    s = tau + 1
    K = math.ceil(s / interval)
    r = (K - 1) / (s - K)
    ratio = ((d - 1) / (d * (1 + r))) / qm_distortion_corrected(tau, d, interval)
    assert ratio == pytest.approx(8 / 9, abs=1e-6)


# ---------------------------------------------------------------------------------------------
# PML (Grosse, Saeidian, Oechtering & Skoglund, "Privacy Mechanism Design based on Empirical Distributions")
# ---------------------------------------------------------------------------------------------


def pml_leakage(W: np.ndarray, prior: np.ndarray) -> float:
    """ε_min(P_{Y|X}, P_X) = max_y log(max_x W[x, y] / (P_X W)[y]) (Definition of PML, eq. (1))."""
    return float(np.max(np.log(W.max(axis=0) / (prior @ W))))


def ball_vertices(prior: np.ndarray, beta: float) -> list[np.ndarray]:
    """Vertices of {Q : Σ Q = 1, ‖Q − P‖₁ <= β}: P + (β/2)(e_i − e_j), i ≠ j."""
    n = len(prior)
    return [prior + 0.5 * beta * (np.eye(n)[i] - np.eye(n)[j]) for i in range(n) for j in range(n) if i != j]


def pml_sensitivity(W: np.ndarray, prior: np.ndarray, beta: float) -> float:
    """Definition 6 on the ℓ1-ball: ε_min(W, Q) is convex in Q (max of −log of linear maps), so the sup
    over the ball is attained at a vertex."""
    return max(pml_leakage(W, q) for q in ball_vertices(prior, beta)) - pml_leakage(W, prior)


def max_output_divergence(W: np.ndarray, prior: np.ndarray, beta: float) -> float:
    """max_{Q in ball} D_∞(P_Y ‖ Q_Y), also convex in Q, so attained at a vertex."""
    py = prior @ W
    return max(float(np.max(np.log(py / (q @ W)))) for q in ball_vertices(prior, beta))


def test_pml_eq7_radius_has_the_whole_bracket_under_the_root() -> None:
    """PML eq. (7): inverting Theorem 2 with φ >= 2, (2^N − 2) exp(−m β²/2) = δ, gives
    β = sqrt((2/m)(log(2^N−2) − log δ)); the printed sqrt(2/m)(log(2^N−2) − log δ) does not (N = 5,
    m = 1000, δ = 1e-6: 0.770 vs 0.186). The paper's own text before eq. (7) and eq. (14) use the first."""
    N, m, delta = 5, 1000, 1e-6
    printed = math.sqrt(2 / m) * (math.log(2 ** N - 2) - math.log(delta))
    corrected = math.sqrt(2 / m * (math.log(2 ** N - 2) - math.log(delta)))
    theorem2 = lambda beta: (2 ** N - 2) * math.exp(-m * 2 * beta ** 2 / 4)  # noqa: E731  φ = 2
    assert theorem2(corrected) == pytest.approx(delta, rel=1e-9)
    assert theorem2(printed) < 1e-100
    assert (printed, corrected) == (pytest.approx(0.770, abs=1e-3), pytest.approx(0.186, abs=1e-3))
    # eq. (14), the binary case N = 2, is the corrected form
    assert math.sqrt(2 * (math.log(2) - math.log(delta)) / m) == pytest.approx(
        math.sqrt(2 / m * (math.log(2 ** 2 - 2) - math.log(delta))), rel=1e-12)


def test_pml_section4c_sensitivity_is_not_max_output_divergence() -> None:
    """PML §IV-C: 'S_{P_X}(P_{Y|X}, 𝒫) = max_Q D_∞(P_Y ‖ Q_Y)' fails; only S <= max D_∞ (Remark 2) holds.
    P = (0.17, 0.63, 0.2), β = 0.1: S = 0.036660 < 0.072420. Random priors in the ball never exceed S."""
    P = np.array([0.17, 0.63, 0.2])
    W = np.array([[0.9, 0.09, 0.01], [0.48, 0.16, 0.36], [0.64, 0.25, 0.11]])
    beta = 0.1
    S = pml_sensitivity(W, P, beta)
    Dinf = max_output_divergence(W, P, beta)
    assert S == pytest.approx(0.036660, abs=1e-6)
    assert Dinf == pytest.approx(0.072420, abs=1e-6)
    rng = np.random.default_rng(1)
    for _ in range(2000):  # sampled priors of the ball: vertices are indeed the maximizers
        w = rng.normal(size=3)
        w -= w.mean()
        w *= beta * rng.uniform() / np.abs(w).sum()
        assert pml_leakage(W, P + w) - pml_leakage(W, P) <= S + TOL
    # the inequality S <= max D_∞ holds on random mechanisms (Remark 2)
    for _ in range(50):
        Wr = rng.dirichlet(np.ones(3), size=3)
        assert pml_sensitivity(Wr, P, beta) <= max_output_divergence(Wr, P, beta) + TOL


def k_singular(N: int, k: int) -> np.ndarray:
    W = np.zeros((N, N))
    for x in range(N):
        for j in range(k):
            W[x, (x + j) % N] = 1.0 / k
    return W


def test_pml_theorem4_equality_needs_eps_equal_to_eps_min() -> None:
    """PML Theorem 4 (k > 1): the 2-singular mechanism (N = 10, uniform P, ε_min = log 5) satisfies log 6-PML
    and every column has a zero, yet S = −log(0.75) = 0.2877 < −log(1 − β·6/2) = 0.3567 (β = 0.1);
    with ε = ε_min = log 5 the bound is attained for every β < 2 p_min."""
    N = 10
    W = k_singular(N, 2)
    P = np.full(N, 1.0 / N)
    assert pml_leakage(W, P) == pytest.approx(math.log(5), abs=TOL)
    assert np.all((W == 0).any(axis=0))
    beta = 0.1
    S = pml_sensitivity(W, P, beta)
    assert S == pytest.approx(-math.log(0.75), abs=TOL)
    assert -math.log(1 - beta * 6 / 2) > S + 0.05  # printed 'equality' at ε = log 6 fails
    for beta in (0.01, 0.05, 0.1, 0.15, 0.19):
        assert pml_sensitivity(W, P, beta) == pytest.approx(-math.log(1 - beta * 5 / 2), abs=TOL)


def binary_vertices(p1: float, beta: float, eps: float) -> list[tuple[float, float]]:
    """Vertices of {(a, b) in [0,1]²: W = [[a, 1−a], [b, 1−b]] is ε-PML for both extreme priors of the
    binary ℓ1-ball}: each constraint W[x, y] <= e^ε (π W)[y] is linear in (a, b)."""
    E = math.exp(eps)
    rows = []  # (c_a, c_b, rhs) meaning c_a a + c_b b <= rhs
    for pi in ((p1 + beta / 2, 1 - p1 - beta / 2), (p1 - beta / 2, 1 - p1 + beta / 2)):
        for x in (0, 1):
            # column 0: W[x,0] − E(pi0 a + pi1 b) <= 0
            rows.append(((1.0 if x == 0 else 0.0) - E * pi[0], (1.0 if x == 1 else 0.0) - E * pi[1], 0.0))
            # column 1: (1 − W[x,0]) − E(pi0 (1−a) + pi1 (1−b)) <= 0
            rows.append((-(1.0 if x == 0 else 0.0) + E * pi[0], -(1.0 if x == 1 else 0.0) + E * pi[1], E - 1.0))
    rows += [(1, 0, 1), (-1, 0, 0), (0, 1, 1), (0, -1, 0)]
    A = np.array([r[:2] for r in rows], dtype=float)
    rhs = np.array([r[2] for r in rows], dtype=float)
    verts = []
    for i, j in itertools.combinations(range(len(rows)), 2):
        M = A[[i, j]]
        if abs(np.linalg.det(M)) < 1e-12:
            continue
        v = np.linalg.solve(M, rhs[[i, j]])
        if np.all(A @ v <= rhs + 1e-9):
            verts.append((float(v[0]), float(v[1])))
    return verts


def mutual_information(W: np.ndarray, prior: np.ndarray) -> float:
    py = prior @ W
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = prior[:, None] * W * np.log(W / py[None, :])
    return float(np.nansum(terms))


@pytest.mark.parametrize("p1,beta,eps", [(0.6, 0.2, 0.3), (0.7, 0.1, 0.2), (0.55, 0.3, 0.1), (0.8, 0.2, 0.1)])
def test_pml_appendix_c_p11_sign(p1: float, beta: float, eps: float) -> None:
    """PML Appendix C: the final p11 = e^ε(1 − p − β/2)/(1 + βe^ε) is not Theorem 5's p11 = e^ε(1 − p1 + β/2)/
    (1 + βe^ε). Exact vertex enumeration of the feasible polytope: Theorem 5's matrix is a vertex and
    maximizes MI under P̂. The appendix's (p11, p21) is strictly worse where feasible (first two cases) and
    violates ε-PML on the ball in the other two (erratum says 'feasible but not optimal': only partly)."""
    assert eps <= -math.log(p1 - beta / 2)
    E = math.exp(eps)
    prior = np.array([p1, 1 - p1])
    thm5 = np.array([[E * (1 - p1 + beta / 2), 1 - E * (1 - p1 - beta / 2)],
                     [1 - E * (p1 - beta / 2), E * (p1 + beta / 2)]]) / (1 + beta * E)
    app_a, app_b = E * (1 - p1 - beta / 2) / (1 + beta * E), 1 - E * (p1 + beta / 2) / (1 + beta * E)
    assert app_b == pytest.approx(thm5[1, 0], abs=TOL)  # p21 agrees with Theorem 5
    verts = binary_vertices(p1, beta, eps)
    best = max(mutual_information(np.array([[a, 1 - a], [b, 1 - b]]), prior) for a, b in verts)
    assert any(abs(a - thm5[0, 0]) < 1e-9 and abs(b - thm5[1, 0]) < 1e-9 for a, b in verts)
    assert mutual_information(thm5, prior) == pytest.approx(best, abs=1e-12)
    # the appendix's unsimplified expression for p11 is Theorem 5's value: only the simplification slips
    pi1, pi2 = (p1 + beta / 2, 1 - p1 - beta / 2), (p1 - beta / 2, 1 - p1 + beta / 2)
    general = (1 - E) * E * pi2[1] / (1 - E * (pi1[1] + pi2[0] - E * (pi2[0] * pi1[1] - pi1[0] * pi2[1])))
    assert general == pytest.approx(thm5[0, 0], abs=1e-12)
    # the appendix's final mechanism is either not ε-PML on the ball or strictly worse than the optimum
    app = np.array([[app_a, 1 - app_a], [app_b, 1 - app_b]])
    feasible = all(pml_leakage(app, pi) <= eps + TOL for pi in ball_vertices(prior, beta))
    assert (not feasible) or mutual_information(app, prior) < best - 1e-4


def laplace_leakage(prior_minus1: float, b: float) -> float:
    """Sup over a y-grid of log(max_x f(y|x)/f_Y(y)) for Y = X + Laplace(b), X in {−1, 1}."""
    y = np.linspace(-30 * b - 2, 30 * b + 2, 40001)
    f_m, f_p = np.exp(-np.abs(y + 1) / b), np.exp(-np.abs(y - 1) / b)
    fy = prior_minus1 * f_m + (1 - prior_minus1) * f_p
    return float(np.max(np.log(np.maximum(f_m, f_p) / fy)))


def test_pml_eq16_needs_beta_below_twice_pmin() -> None:
    """PML eq. (16): for β > 2 p̂_min the bracket is negative (P̂ = (0.2, 0.8), β = 0.6, b = 0.5: −4.36) while
    the leakage over priors of the ball (min mass down to 0, exclusive) approaches 2/b; with
    max(p̂_min − β/2, 0) the formula is the supremum, and for β < 2 p̂_min the printed form is."""
    b = 0.5
    bracket = (0.2 - 0.6 / 2) * (math.exp(2 / b) - 1) + 1
    assert bracket == pytest.approx(-4.36, abs=0.01)
    sup = max(laplace_leakage(p, b) for p in np.linspace(1e-8, 0.5, 200))
    assert sup == pytest.approx(2 / b, abs=1e-5)
    for p_hat, beta in [(0.2, 0.2), (0.3, 0.4), (0.4, 0.1)]:  # β < 2 p̂_min: printed (16) is the sup
        grid = np.linspace(max(p_hat - beta / 2, 1e-9), 1 - p_hat + beta / 2, 400)
        direct = max(laplace_leakage(min(p, 1 - p), b) for p in grid if abs(p - p_hat) <= beta / 2 + 1e-12)
        printed = 2 / b - math.log((p_hat - beta / 2) * (math.exp(2 / b) - 1) + 1)
        assert direct == pytest.approx(printed, abs=1e-6)


# ---------------------------------------------------------------------------------------------
# Multi-secret summary statistic privacy (Wang et al., "Guarding Multiple Secrets")
# ---------------------------------------------------------------------------------------------

PERM = (3, 2, 6, 7, 0, 1, 5, 4)


def union_privacy_constant_release(secrets: np.ndarray, weights: np.ndarray, eps: np.ndarray) -> float:
    """Eq. (1) for a mechanism whose output does not depend on θ: the attacker picks one guess per secret;
    a guess ĝ_i covers the support points with |g_i(θ) − ĝ_i| <= ε_i, and only windows starting at a
    support value matter (any window is dominated by one whose left end is a support value)."""
    best = 0.0
    cands = [np.unique(secrets[:, i]) for i in range(secrets.shape[1])]
    for guess in itertools.product(*[c + e for c, e in zip(cands, eps)]):
        hit = np.zeros(len(weights), dtype=bool)
        for i, gi in enumerate(guess):
            hit |= np.abs(secrets[:, i] - gi) <= eps[i] + 1e-12
        best = max(best, float(weights[hit].sum()))
    return best


def test_multisecret_thm41_thm53_gamma_counterexample() -> None:
    """Multi-secret Thm. 4.1 (eq. (4)-(5)) and Thm. 5.3 (eq. (9), β = d = 2): θ_i = N(e_i, I_8), uniform prior,
    g1 = Σ k μ_k, g2 = Σ π(k) μ_k, ε = (0.49, 0.49). Always releasing N(0, I_8) has union privacy exactly
    2/8 = T and Δ = W2 = 1, but the printed bounds claim Δ > 1.157 (Thm 4.1) and Δ > 1.120 (Thm 5.3).
    With γ_max = inf D / max_i |Δg_i| the bound is 0.640 < 1."""
    n = 8
    mus = np.eye(n)
    secrets = np.array([[float(mu @ np.arange(n)), float(mu @ np.array(PERM))] for mu in mus])
    eps, T, d = np.array([0.49, 0.49]), 0.25, 2
    weights = np.full(n, 1.0 / n)
    # W2 between Gaussians with equal covariance = distance of means
    w2 = lambda a, b: float(np.linalg.norm(a - b))  # noqa: E731
    pairs = list(itertools.combinations(range(n), 2))
    D_half = {p: 0.5 * w2(mus[p[0]], mus[p[1]]) for p in pairs}
    diff = {p: np.abs(secrets[p[0]] - secrets[p[1]]) for p in pairs}
    gamma_geo = min(D_half[p] / math.sqrt(np.prod(diff[p])) for p in pairs)
    gamma_ari = min(D_half[p] / np.mean(diff[p]) for p in pairs)
    gamma_max = min(D_half[p] / np.max(diff[p]) for p in pairs)
    assert gamma_geo == pytest.approx(0.5 * math.sqrt(2) / math.sqrt(15), abs=TOL)
    # the mechanism: release N(0, I) always
    assert union_privacy_constant_release(secrets, weights, eps) == pytest.approx(T, abs=TOL)
    delta_mech = max(w2(mu, np.zeros(n)) for mu in mus)
    assert delta_mech == pytest.approx(1.0, abs=TOL)
    factor = 1 / (1 - (1 - T) ** (1 / d)) - 1
    geo_eps = math.sqrt(np.prod(eps))
    thm41 = 2 * gamma_geo * factor * geo_eps
    thm53 = 2 * gamma_ari * (1 / (1 - (1 - T) ** (1 / d)) ** (d / d)) * geo_eps - 2 * gamma_ari * eps.mean()
    assert thm41 == pytest.approx(1.157, abs=1e-3) and thm41 > delta_mech
    assert thm53 == pytest.approx(1.120, abs=1e-3) and thm53 > delta_mech
    corrected = 2 * gamma_max * factor * geo_eps
    assert corrected == pytest.approx(0.640, abs=1e-3) and corrected < delta_mech


def test_multisecret_prop_c1_sparse_gaussian_prior() -> None:
    """Multi-secret Prop. C.1: 1-D Gaussians (μ, σ) = (i, π(i) + 1), i = 0..7, uniform prior, ε = (0.49, 0.49),
    T = 1/4. Releasing N(3.5, 4.5²) always has union privacy 2/8 and Δ = W2 = √(3.5² + 0.5²) = 3.536, below
    the printed bound (4.851 with its ceiling, 4.479 without; Prop. D.3 with β = d = 2 also 4.479); γ of
    eq. (4) on this support is √2/2 as the paper says. With γ = 1/2 (no √d) the bound is 3.167 < 3.536."""
    params = np.array([[i, PERM[i] + 1.0] for i in range(8)])
    weights = np.full(8, 1.0 / 8)
    eps, T = np.array([0.49, 0.49]), 0.25
    w2 = lambda a, b: float(math.hypot(a[0] - b[0], a[1] - b[1]))  # noqa: E731  1-D Gaussian W2
    assert union_privacy_constant_release(params, weights, eps) == pytest.approx(T, abs=TOL)
    delta_mech = max(w2(p, (3.5, 4.5)) for p in params)
    assert delta_mech == pytest.approx(math.sqrt(3.5 ** 2 + 0.5 ** 2), abs=TOL)
    gamma = min(0.5 * w2(params[a], params[b]) / math.sqrt(np.prod(np.abs(params[a] - params[b])))
                for a, b in itertools.combinations(range(8), 2))
    assert gamma == pytest.approx(math.sqrt(2) / 2, abs=TOL)
    factor = 1 / (1 - math.sqrt(1 - T)) - 1
    printed_ceil = math.sqrt(2) * math.ceil(factor) * math.sqrt(np.prod(eps))
    printed_plain = math.sqrt(2) * factor * math.sqrt(np.prod(eps))
    assert printed_ceil > printed_plain > delta_mech
    assert printed_plain == pytest.approx(4.479, abs=1e-3)
    assert factor * math.sqrt(np.prod(eps)) == pytest.approx(3.167, abs=1e-3)  # γ = 1/2
    assert factor * math.sqrt(np.prod(eps)) < delta_mech
    # Prop. D.3 (group privacy of diagonal Gaussians) with β = d = 2 singleton groups is union privacy:
    # printed √d [(1 − (1−T)^{1/β})^{−β/d}] (Π ε)^{1/d} − (1/√d) Σ ε, also above the achieved 3.536
    d, beta = 2, 2
    printed_d3 = (math.sqrt(d) * (1 - (1 - T) ** (1 / beta)) ** (-beta / d) * math.sqrt(np.prod(eps))
                  - eps.sum() / math.sqrt(d))
    assert printed_d3 == pytest.approx(4.479, abs=1e-3) and printed_d3 > delta_mech


def test_multisecret_prop_c1_ceiling_counterexample() -> None:
    """Multi-secret Prop. C.1 (ceiling): μ ∈ {0, 0.1, …, 0.7} × σ ∈ {1.0, …, 1.4}, uniform prior,
    ε = (0.04, 0.04), T = 0.425. An LP over mechanisms releasing support points within W2 <= √0.05
    (Δ = 0.2236) reaches union privacy <= T, while the printed bound with the ceiling is
    √2·⌈3.137⌉·0.04 = 0.2263 > 0.2236. Without the ceiling it is 0.1775 (consistent)."""
    mus, sigmas = np.round(np.arange(8) * 0.1, 10), np.round(1.0 + np.arange(5) * 0.1, 10)
    pts = np.array([(m, s) for m in mus for s in sigmas])
    n = len(pts)
    w = 1.0 / n
    eps, T = 0.04, 0.425
    W2 = np.hypot(pts[:, None, 0] - pts[None, :, 0], pts[:, None, 1] - pts[None, :, 1])
    allowed = W2 <= math.sqrt(0.05) + 1e-9
    var_index = {(a, b): k for k, (a, b) in enumerate(zip(*np.nonzero(allowed)))}
    nm = len(var_index)
    nv = nm + n  # M[θ, θ'] for allowed pairs, then t[θ'] (epigraph of the best guess per output)
    # a guess covers one μ column ∪ one σ row (spacing 0.1 > 2ε): enumerate every such cross
    crosses = [np.nonzero((np.abs(pts[:, 0] - m) < 1e-9) | (np.abs(pts[:, 1] - s) < 1e-9))[0]
               for m in mus for s in sigmas]
    A_ub, b_ub = [], []
    for out in range(n):
        for cross in crosses:
            row = np.zeros(nv)
            for th in cross:
                if (th, out) in var_index:
                    row[var_index[(th, out)]] = w
            row[nm + out] = -1.0
            A_ub.append(row)
            b_ub.append(0.0)
    A_eq = np.zeros((n, nv))
    for (th, out), k in var_index.items():
        A_eq[th, k] = 1.0
    c = np.concatenate([np.zeros(nm), np.ones(n)])
    res = linprog(c, A_ub=np.array(A_ub), b_ub=b_ub, A_eq=A_eq, b_eq=np.ones(n), bounds=(0, None), method="highs")
    assert res.status == 0
    union_privacy = res.fun
    assert union_privacy == pytest.approx(0.4161, abs=1e-4)  # the erratum's value, <= T
    assert union_privacy <= T
    factor = 1 / (1 - math.sqrt(1 - T)) - 1
    assert factor == pytest.approx(3.137, abs=1e-3)
    printed = math.sqrt(2) * math.ceil(factor) * eps
    assert printed == pytest.approx(0.2263, abs=1e-4)
    assert printed > math.sqrt(0.05)
    assert math.sqrt(2) * factor * eps < math.sqrt(0.05)
    # Thm. 5.3 with β = d = 2 read as a ceiling, γ of eq. (9) on this grid: the same 0.2263 > 0.2236
    pairs = [(a, b) for a, b in itertools.combinations(range(n), 2)]
    gamma9 = min(0.5 * W2[a, b] / np.mean(np.abs(pts[a] - pts[b])) for a, b in pairs)
    assert gamma9 == pytest.approx(math.sqrt(2) / 2, abs=TOL)
    assert 2 * gamma9 * (math.ceil(1 / (1 - math.sqrt(1 - T))) - 1) * eps == pytest.approx(printed, abs=TOL)


def compositions(total: int, parts: int) -> list[tuple[int, ...]]:
    return [c for c in itertools.product(range(total + 1), repeat=parts) if sum(c) == total]


def misspecified_qm_outputs(theta: tuple[int, ...], tau: int, d0: int, d_star: int, d1: int,
                            interval: int) -> list[tuple[int, ...]]:
    """§V-A/App. H model: categories 0 (the secret), 1..d0−1 (known feasible, Γ̂₀*), d0..d*−1 (feasible but
    missed), d*..d*+d1−1 (infeasible, Γ̂₁*). The input θ lives on Γ*; QM releases uniformly a histogram on
    Γ̂* ∪ Supp(θ) whose secret count is R(k) − 1."""
    support = set(range(d0)) | set(range(d_star, d_star + d1)) | {j for j in range(d0, d_star) if theta[j] > 0}
    support.discard(0)
    target = qm_target(theta[0] + 1, tau + 1, interval) - 1
    others = sorted(support)
    outs = []
    for rest in compositions(tau - target, len(others)):
        out = [0] * (d_star + d1)
        out[0] = target
        for j, c in zip(others, rest):
            out[j] = c
        outs.append(tuple(out))
    return outs


def misspecified_qm_distortion(tau: int, d0: int, d_star: int, d1: int, interval: int) -> float:
    worst = 0.0
    for theta in compositions(tau, d_star):
        th = np.array(theta + (0,) * d1)
        outs = np.array(misspecified_qm_outputs(theta, tau, d0, d_star, d1, interval))
        worst = max(worst, float((0.5 * np.abs(outs - th).sum(axis=1) / tau).mean()))
    return worst


def test_sml_app_hd_qm_distortion_upper_bound() -> None:
    """SML App. H-D: the printed upper bound ½ + ((d*+d̂₁*)⌊I/2⌋ − τ)/(2τ(d*+d̂₁*−1)) is exceeded
    (τ = 3, d* = 3, d̂₀* = 2, d̂₁* = 1, I = 1: exact 2/3, from θ on the missed category; already the
    known-category input θ = (0, 3, 0) gives 0.5 > 0.333); the bracket with Thm. 4's corrected
    form, Δ(τ, d̂₀*+d̂₁*, I) <= Δ_QM <= Δ(τ, d*+d̂₁*, I), holds on every small case."""
    exact = misspecified_qm_distortion(3, 2, 3, 1, 1)
    printed_upper = qm_distortion_printed(3, 3 + 1, 1)
    assert printed_upper == pytest.approx(1 / 3, abs=TOL)
    assert exact == pytest.approx(2 / 3, abs=TOL)
    theta = (0, 3, 0)
    outs = np.array(misspecified_qm_outputs(theta, 3, 2, 3, 1, 1))
    single = float((0.5 * np.abs(outs - np.array(theta + (0,))).sum(axis=1) / 3).mean())
    assert single == pytest.approx(0.5, abs=TOL)
    exceeded = total = 0
    for tau in (2, 3, 4):
        for d_star in (2, 3):
            for d0 in range(1, d_star + 1):
                for d1 in (0, 1, 2):
                    if d0 + d1 < 2:
                        continue
                    for interval in range(1, tau + 2):
                        ex = misspecified_qm_distortion(tau, d0, d_star, d1, interval)
                        lo = qm_distortion_corrected(tau, d0 + d1, interval)
                        hi = qm_distortion_corrected(tau, d_star + d1, interval)
                        assert lo - TOL <= ex <= hi + TOL
                        total += 1
                        exceeded += ex > qm_distortion_printed(tau, d_star + d1, interval) + TOL
    assert exceeded > total // 2


def test_sml_prop5_qm_lower_bound_counterexample() -> None:
    """SML Prop. 5 (QM): τ = 7, d* = 2, d̂₀* = 1, d̂₁* = 1, I = 4 (s = 8). Each secret value c has a single
    input θ = (c, 7 − c), so SML = log Σ_θ' max_c P(θ'|θ_c) is computed exactly: log 2.5 = 0.916, below
    the printed 'lower bound' log[⌊s/I⌋(1 + (τI − 2s)/(τI + 2s(d*+d̂₁*−2)))] = log 2.545 = 0.934."""
    tau, d_star, d0, d1, interval = 7, 2, 1, 1, 4
    s = tau + 1
    dists = []
    for c in range(tau + 1):
        outs = misspecified_qm_outputs((c, tau - c), tau, d0, d_star, d1, interval)
        dists.append({o: 1.0 / len(outs) for o in outs})
    outputs = set().union(*dists)
    sml = math.log(sum(max(dist.get(o, 0.0) for dist in dists) for o in outputs))
    assert sml == pytest.approx(math.log(2.5), abs=TOL)
    m = d_star - d0
    assert m <= math.log(interval)  # first branch, k = m
    printed = math.log((s // interval) * (1 + (tau * interval - 2 * s * m)
                                          / (tau * interval + 2 * s * (d_star + d1 - 2))) ** m)
    assert printed == pytest.approx(0.934, abs=1e-3)
    assert printed > sml + 0.01


def test_sml_prop5_qm_disjoint_branch_counterexample() -> None:
    """SML Prop. 5 (QM, m = d* − d̂₀* >= I): τ = 3, d* = 3, d̂₀* = 1, d̂₁* = 1, I = 2 (s = 4, ζ = 1). SML by Prop. 1,
    enumerating every selection of one input per secret value: log(8/3) = 0.981, below the printed 'lower
    bound' log(s − (s − ⌈s/I⌉)((d̂₀ + d̂₁ + ζ − 2)/(τI/2s + d̂₀ + d̂₁ − 1))^ζ) = log(4 − 2/1.75) = 1.050. The
    input with all τ counts on the secret category holds no missed category, which the proof assumes.
    Elsewhere the printed base exceeds 1 and the logarithm's argument is negative (τ = 8, I = 2, d* = 11)."""
    tau, d_star, d0, d1, interval = 3, 3, 1, 1, 2
    s, zeta = tau + 1, (d_star - d0) // interval
    by_value: dict[int, list[dict]] = {}
    for theta in compositions(tau, d_star):
        outs = misspecified_qm_outputs(theta, tau, d0, d_star, d1, interval)
        by_value.setdefault(theta[0], []).append({o: 1.0 / len(outs) for o in outs})
    best = 0.0
    for selection in itertools.product(*(by_value[c] for c in range(s))):
        outputs = set().union(*selection)
        best = max(best, sum(max(dist.get(o, 0.0) for dist in selection) for o in outputs))
    assert math.log(best) == pytest.approx(math.log(8 / 3), abs=TOL)
    printed = math.log(s - (s - math.ceil(s / interval))
                       * ((d0 + d1 + zeta - 2) / (tau * interval / (2 * s) + d0 + d1 - 1)) ** zeta)
    assert printed == pytest.approx(math.log(4 - 2 / 1.75), abs=1e-12) and printed > math.log(best) + 0.06
    tau, d_star, s = 8, 11, 9
    zeta = (d_star - d0) // interval
    argument = s - (s - math.ceil(s / interval)) * ((d0 + d1 + zeta - 2) / (tau * interval / (2 * s) + d0 + d1 - 1)) ** zeta
    assert argument < -500


def test_sml_prop5_qm_coarse_secret_counterexample() -> None:
    """SML Prop. 5 (QM, m < I) for a secret of s < τ + 1 levels g = ⌊count · s/(τ + 1)⌋: τ = 2, d* = 3, d̂₀* = 2,
    d̂₁* = 0, s = 2, I = 2 (m = 1 > log 2, so k = log 2). One bin holds both levels; its released level R(0) − 1 = 1
    contains only the count 2, so every input is released as (2, 0, 0): the SML (Prop. 1, every selection
    enumerated) is 0, below the printed 'lower bound' log[(1 + (τI − 2s log I)/(τI + 2s(d* + d̂₁* − 2)))^{log I}]
    = 0.0989. The corrected bound (the exact value of the proof's prior made feasible) is 0 here."""
    tau, d_star, d0, d1, s, interval = 2, 3, 2, 0, 2, 2
    level = lambda count: count * s // (tau + 1)  # noqa: E731
    target = min(math.floor(0.5 * interval), s - 1)  # bin 0's released level
    by_value: dict[int, list[dict]] = {}
    for theta in compositions(tau, d_star):
        support = set(range(1, d0)) | set(range(d_star, d_star + d1)) | {j for j in range(d0, d_star) if theta[j] > 0}
        outs = [out for out in compositions(tau, d_star + d1)
                if level(out[0]) == target and all(out[j] == 0 for j in range(1, d_star + d1) if j not in support)]
        by_value.setdefault(level(theta[0]), []).append({o: 1.0 / len(outs) for o in outs})
    best = max(sum(max(dist.get(o, 0.0) for dist in selection) for o in set().union(*selection))
               for selection in itertools.product(*by_value.values()))
    assert math.log(best) == pytest.approx(0.0, abs=TOL)
    k = math.log(interval)
    printed = math.log((s // interval) * (1 + (tau * interval - 2 * s * k) / (tau * interval + 2 * s * (d_star + d1 - 2))) ** k)
    assert printed == pytest.approx(0.0989, abs=1e-4) and printed > math.log(best) + 0.09


def leveled_qm_sml(tau: int, d_star: int, d0: int, d1: int, s: int, interval: int) -> float:
    """Exact SML of QM under a mis-specified support for a secret of s levels ⌊count · s/(τ + 1)⌋ (Prop. 1, every
    selection of one input per level enumerated; inputs of a level with the same release are merged)."""
    level = lambda count: count * s // (tau + 1)  # noqa: E731
    released: dict[int, dict[frozenset, dict]] = {}
    for theta in compositions(tau, d_star):
        support = set(range(1, d0)) | set(range(d_star, d_star + d1)) | {j for j in range(d0, d_star) if theta[j] > 0}
        k = level(theta[0]) // interval
        target = min(math.floor((k + 0.5) * interval), s - 1)
        released.setdefault(level(theta[0]), {}).setdefault(frozenset(support), {})
        if not released[level(theta[0])][frozenset(support)]:
            outs = [out for out in compositions(tau, d_star + d1)
                    if level(out[0]) == target and all(out[j] == 0 for j in range(1, d_star + d1) if j not in support)]
            released[level(theta[0])][frozenset(support)] = {o: 1.0 / len(outs) for o in outs}
    best = max(sum(max(dist.get(o, 0.0) for dist in selection) for o in set().union(*selection))
               for selection in itertools.product(*(list(v.values()) for v in released.values())))
    return math.log(best)


def test_sml_prop6_qm_gap_with_one_known_category() -> None:
    """SML Prop. 6 (QM): 'when I divides s the gap tends to 0 whatever d* − d̂₀* is' fails for d̂₀* = 1: s = 4, I = 2,
    d* = 2, d̂₁* = 1. An input below the top level must put its other counts on the missed category, so every
    input of the first bin has the same release and the SML is at most log 3 at every τ (here τ = 12, 40:
    enumerated), while App. I's upper bound tends to log 4 and the printed Prop. 5 bound exceeds log 3 at τ = 40."""
    for tau in (12, 40):
        assert leveled_qm_sml(tau, 2, 1, 1, 4, 2) <= math.log(3) + TOL
    tau, s, interval, d_star, d0, d1 = 10**9, 4, 2, 2, 1, 1
    upper = math.log(math.ceil(s / interval) * (1 + tau / (tau + d0 + d1 - 2)) ** (d_star - d0))
    assert upper == pytest.approx(math.log(4), abs=1e-8)
    tau, k = 40, math.log(interval)  # m = 1 > log 2: k = log I
    printed = math.log((s // interval) * (1 + (tau * interval - 2 * s * k) / (tau * interval + 2 * s * (d_star + d1 - 2))) ** k)
    assert printed > math.log(3) + 0.01


def leveled_rr_sml(tau: int, d_star: int, d0: int, d1: int, s: int, exp_eps: float) -> float:
    """Exact SML of RR under a mis-specified support (§V-C1: θ may be released as any histogram on Γ̂* ∪ supp θ,
    itself with weight e^ε, the others 1) for a secret of s levels ⌊count · s/(τ + 1)⌋: every selection of one
    input per level enumerated (Prop. 1)."""
    outputs = compositions(tau, d_star + d1)
    rows: dict[int, list[dict]] = {}
    for theta in compositions(tau, d_star):
        support = set(range(d0)) | set(range(d_star, d_star + d1)) | {j for j in range(d_star) if theta[j] > 0}
        allowed = [o for o in outputs if all(o[j] == 0 for j in range(d_star + d1) if j not in support)]
        own = theta + (0,) * d1
        norm = len(allowed) - 1 + exp_eps
        rows.setdefault(theta[0] * s // (tau + 1), []).append({o: (exp_eps if o == own else 1.0) / norm for o in allowed})
    best = max(sum(max(row.get(o, 0.0) for row in selection) for o in set().union(*selection))
               for selection in itertools.product(*rows.values()))
    return math.log(best)


def test_sml_prop5_rr_exponent_base_2() -> None:
    """SML Props. 5–6 (RR): Prop. 5's exponent k = m if m <= log s, else log s, read in base 2 (Prop. 6's proof uses
    2^{log s} = s) is still a lower bound on RR's exact SML where it differs from the natural-log reading:
    τ = 3, s = 4, m = 3 (k = 2 against ln 4) and τ = 4, s = 5, m = 2 (k = 2 against ln 5), by enumeration."""
    from mechdesign.theory.sml import prop5_rr_sml_lower_bound

    for tau, s, d_star, d0, d1 in ((3, 4, 4, 1, 1), (4, 5, 3, 1, 1), (4, 5, 4, 2, 0)):
        m = d_star - d0
        assert math.log(s) < m < s
        k = min(m, math.log2(s))
        A = math.comb(tau + d0 + d1 - 1, d0 + d1 - 1)
        B = math.comb(tau + d_star + d1 - 1, d_star + d1 - 1)
        for exp_eps in (1.0, math.e, 20.0):
            e = exp_eps - 1
            base2 = math.log(s * e / (B + e) + A / (A + e) * (1 + (tau - k) / (tau + d_star + d1 - 1)) ** k)
            assert prop5_rr_sml_lower_bound(math.log(exp_eps), tau, s, d_star, d0, d1) == pytest.approx(base2, abs=TOL)
            assert base2 <= leveled_rr_sml(tau, d_star, d0, d1, s, exp_eps) + TOL


def test_sml_prop7_inf_leakage_formula_and_sharper_bound() -> None:
    """SML Prop. 7 / App. K: Π^inf = max over selections of −log Σ_θ' min_g Q(θ'|θ_g) (the formula the proof writes
    for Π̃). From the definition — sup over priors with P_G > 0 of log(min_g P_G(g)/Σ_θ' min_g P(g, θ')), on a grid
    of priors of step 1/200 over three inputs — the sup is at most the formula and comes within the grid's step; it
    is at most log((1 + (s − 1)e^μ)/s) < μ (μ the L_DP level), with equality for reverse randomized response."""
    Q = np.array([[0.6, 0.3, 0.1], [0.2, 0.5, 0.3], [0.1, 0.2, 0.7]])
    secret = [0, 0, 1]
    formula = max(-math.log(np.minimum(Q[a], Q[2]).sum()) for a in (0, 1))
    best = -math.inf
    steps = 200
    for i in range(1, steps):
        for j in range(0, steps - i):
            prior = np.array([i, j, steps - i - j]) / steps
            if prior[2] == 0:
                continue
            joint = np.stack([prior[:2] @ Q[:2], prior[2] * Q[2]])  # P(g, θ') for g = 0, 1
            best = max(best, math.log(min(prior[:2].sum(), prior[2]) / joint.min(axis=0).sum()))
    assert best <= formula + TOL and best >= formula - 0.02
    mu = max(math.log(Q[a, o] / Q[b, o]) for a in range(3) for b in range(3) if secret[a] != secret[b] for o in range(3))
    assert formula <= math.log((1 + math.exp(mu)) / 2) < mu
    for s, mu in ((2, 1.0), (4, 0.5)):
        rr = np.where(np.eye(s, dtype=bool), 1.0, math.exp(mu))
        rr /= rr.sum(axis=1, keepdims=True)
        assert -math.log(rr.min(axis=0).sum()) == pytest.approx(math.log((1 + (s - 1) * math.exp(mu)) / s), abs=TOL)


# ---------------------------------------------------------------------------------------------
# Smaller entries
# ---------------------------------------------------------------------------------------------


def test_put_theorem9_proof_summary_drops_the_j_equal_k_term() -> None:
    """PUT Theorem 9, summary at the end of the proof: for (1−δ)D^(k−1) <= D < (1−δ)D^(k) it takes the min over
    j <= k−1. P = (0.5, 0.3, 0.2), δ = 0.1, D = 0.4 (k = 2): summary log 2.5 = 0.916, LP optimum 0.8210 =
    the j = 2 term log(0.5/0.22), which the theorem's own form (min over every j with D > (1−δ)D^(j−1)) keeps."""
    P, delta, D = np.array([0.5, 0.3, 0.2]), 0.1, 0.4
    summary = math.log(2 * (1 - D - delta) / D)
    lp = put_eps_star(P, D, delta)
    assert lp == pytest.approx(math.log(0.5 / (D - 0.9 * 0.2)), abs=1e-6)
    assert lp == pytest.approx(put_theorem9_printed(P, D, delta), abs=1e-6)
    assert summary > lp + 0.09


def test_put_theorem13_dp_jump_at_threshold() -> None:
    """PUT Theorem 13 (Theorem 9 at δ = 0): at D = D^(m−1) = 1 − P1 the printed value is log(P1/P2) > 0 for m = 2,
    but the constant mechanism (every row = e_1) has DP loss 0 and distortion 1 − P1."""
    P = np.array([0.6, 0.4])
    D = 1 - P[0]
    assert put_theorem9_printed(P, D, 0.0) == pytest.approx(math.log(1.5), abs=TOL)
    assert put_min_distortion(P, 0.0, 0.0) == pytest.approx(D, abs=LP_TOL)


def ml_min_distortion(P: np.ndarray, eps: float) -> float:
    """D*_ML(P, ε): min Σ_x P_x(1 − Q(x|x)) s.t. Σ_y max_x Q(y|x) <= e^ε (epigraph LP)."""
    m = len(P)
    nv = m * m + m
    c = np.zeros(nv)
    for x in range(m):
        c[x * m + x] = -P[x]
    A_ub, b_ub = [], []
    for x in range(m):
        for y in range(m):
            row = np.zeros(nv)
            row[x * m + y] = 1.0
            row[m * m + y] = -1.0
            A_ub.append(row)
            b_ub.append(0.0)
    A_ub.append(np.concatenate([np.zeros(m * m), np.ones(m)]))
    b_ub.append(math.exp(eps))
    A_eq = np.zeros((m, nv))
    for x in range(m):
        A_eq[x, x * m:(x + 1) * m] = 1.0
    res = linprog(c, A_ub=np.array(A_ub), b_ub=b_ub, A_eq=A_eq, b_eq=np.ones(m), bounds=(0, None), method="highs")
    assert res.status == 0
    return 1.0 + res.fun


def test_put_corollary15_last_interval() -> None:
    """PUT Corollary 15: D*_ML = D^(m−k) + P_{k+1}(k − e^ε) on [log k, log(k+1)) holds for k <= m−1 (LP); at
    k = m the printed formula needs the undefined P_{m+1}, and the LP gives 0 for ε >= log m."""
    P = np.array([0.5, 0.3, 0.2])
    m = len(P)
    for k in range(1, m):
        for eps in (math.log(k), math.log(k + 0.5), math.log(k + 0.999)):
            formula = sum(P[k:]) + P[k] * (k - math.exp(eps))  # D^(m−k) = Σ_{j>k} P_j (0-based P[k:])
            assert ml_min_distortion(P, eps) == pytest.approx(formula, abs=LP_TOL)
    for eps in (math.log(m), math.log(m) + 0.5):
        assert ml_min_distortion(P, eps) == pytest.approx(0.0, abs=LP_TOL)


def test_pml_definition4_regions_stop_at_minus_log_max() -> None:
    """PML Definition 4: the regions [ε_{k−1}, ε_k), k <= N−1, cover [0, −log max P), not [0, ε_max = −log min P).
    P = (0.4, 0.2, 0.2, 0.2): they stop at 0.916 < 1.609. A column with zero set Z is feasible iff
    ε >= −log P(Z^c); at ε in [−log max P, ε_max) a column with N−1 zeros is feasible (a region N)."""
    P = np.array([0.4, 0.2, 0.2, 0.2])
    N = len(P)
    eps_k = [-math.log(P[:N - k].sum()) for k in range(N)]
    assert eps_k[0] == pytest.approx(0.0, abs=TOL)
    assert eps_k[N - 1] == pytest.approx(-math.log(P.max()), abs=TOL)
    assert -math.log(P.min()) > eps_k[N - 1] + 0.6
    eps = 1.0  # in [0.916, 1.609): in no printed region
    col = np.array([1.0, 0.0, 0.0, 0.0])  # column with N − 1 zeros, proportional to 1 on x_1
    leak = math.log(col.max() / (P @ col))
    assert leak <= eps
    for k in range(1, N):  # inside region k, a column with k zeros is infeasible, k − 1 zeros feasible
        e = 0.5 * (eps_k[k - 1] + eps_k[k])
        best_with = lambda z: -math.log(np.sort(P)[::-1][:N - z].sum())  # noqa: E731  best zero set of size z
        assert best_with(k - 1) <= e < best_with(k)


def test_pml_section6c1_empirical_mi_uses_m() -> None:
    """PML §VI-C1: with counts f out of m the plug-in MI is Σ f(x,y)/m log(m f(x,y)/(f(x) f(y))); the printed
    N in place of m does not vanish on exactly independent counts (m = 400: log(2/400) instead of 0)."""
    joint = np.array([[60, 140], [60, 140]])  # exactly independent counts
    m = joint.sum()
    fx, fy = joint.sum(axis=1), joint.sum(axis=0)
    plug_in = lambda scale: float(sum(joint[i, k] / m * math.log(scale * joint[i, k] / (fx[i] * fy[k]))  # noqa: E731
                                      for i in range(2) for k in range(2)))
    assert plug_in(m) == pytest.approx(0.0, abs=1e-12)
    assert plug_in(2) == pytest.approx(math.log(2 / m), abs=1e-12)


def test_sml_section5b_released_index_can_exceed_s() -> None:
    """SML §V-B: R(k) = ⌊(k + ½)I⌋ + 1 for k <= ⌈s/I⌉ − 1 exceeds s for a partial last bin (s = 7, I = 3: R(2) = 8)."""
    s, interval = 7, 3
    printed = [math.floor((k + 0.5) * interval) + 1 for k in range(math.ceil(s / interval))]
    assert printed[-1] == 8 > s
    assert [qm_target(l, s, interval) for l in range(1, s + 1)] == [2, 2, 2, 5, 5, 5, 7]
    # with the cap, QM's SML (τ = 6, d = 3) is log⌈s/I⌉: the output law depends on θ only through its bin,
    # so every deterministic P_{Θ|G} gives the same sum Σ_θ' max_g P(θ'|θ_g)
    tau, d = s - 1, 3
    H = [tuple(h) for h in histograms(tau, d)]
    laws = []
    for c in range(tau + 1):
        target = qm_target(c + 1, s, interval) - 1
        outs = [h for h in H if h[0] == target]
        laws.append({o: 1.0 / len(outs) for o in outs})
    total = sum(max(law.get(o, 0.0) for law in laws) for o in H)
    assert math.log(total) == pytest.approx(math.log(math.ceil(s / interval)), abs=TOL)


def set_min_distortion(priors: list[np.ndarray], eps: float, delta: float) -> float:
    """D*_δ(𝒫, ε): min over m×m Q of max_{P∈𝒫} Σ_x P_x(1 − Q(x|x)) under the pointwise (ε, δ) constraints."""
    m = len(priors[0])
    nv = m * m + 1
    A_ub, b_ub = [], []
    for a, b in itertools.permutations(range(m), 2):
        for y in range(m):
            row = np.zeros(nv)
            row[a * m + y], row[b * m + y] = 1.0, -math.exp(eps)
            A_ub.append(row)
            b_ub.append(delta)
    for P in priors:
        row = np.zeros(nv)
        for x in range(m):
            row[x * m + x] = -P[x]
        row[-1] = -1.0
        A_ub.append(row)
        b_ub.append(-1.0)
    A_eq = np.zeros((m, nv))
    for x in range(m):
        A_eq[x, x * m:(x + 1) * m] = 1.0
    c = np.zeros(nv)
    c[-1] = 1.0
    res = linprog(c, A_ub=np.array(A_ub), b_ub=b_ub, A_eq=A_eq, b_eq=np.ones(m),
                  bounds=[(0, 1)] * (m * m) + [(0, None)], method="highs")
    assert res.status == 0
    return res.fun


def set_eps_star(priors: list[np.ndarray], D: float, delta: float) -> float:
    """ε*_δ(𝒫, D) by bisection on the non-increasing D*_δ(𝒫, ε)."""
    if set_min_distortion(priors, 0.0, delta) <= D + 1e-12:
        return 0.0
    lo, hi = 0.0, 20.0
    for _ in range(60):
        mid = 0.5 * (lo + hi)
        lo, hi = (lo, mid) if set_min_distortion(priors, mid, delta) <= D + 1e-12 else (mid, hi)
    return hi


def prop12_corrected(priors: list[np.ndarray], D: float, delta: float) -> float:
    """Prop. 12 read with d(α₁, γ₂) including (m(α₁−δ) − 1 + δ)γ₂: one LP in (γ_P, γ₂, γ₃) per α₁, then a
    1-D minimization over α₁ ∈ [1 − D, 1) (grid, then bounded refinement)."""
    from scipy.optimize import minimize_scalar

    m, K = len(priors[0]), len(priors)

    def value(a1: float) -> float:
        c = np.array([a1 - 1 + D] * K + [m * (a1 - delta) - 1 + delta, a1 - delta])
        A = [-np.array([sum(P[m - j:]) for P in priors] + [j, 1.0]) for j in range(1, m)]
        res = linprog(c, A_ub=np.array(A), b_ub=[-j for j in range(1, m)], bounds=(0, None), method="highs")
        return math.log(max((m - 1) * (a1 - delta) - res.fun, 1e-300) / (1 - a1))

    grid = np.linspace(1 - D, 1 - 1e-9, 201)
    vals = [value(a) for a in grid]
    i = int(np.argmin(vals))
    r = minimize_scalar(value, bounds=(grid[max(i - 1, 0)], grid[min(i + 1, 200)]), method="bounded",
                        options={"xatol": 1e-12})
    return max(0.0, min(r.fun, vals[i]))


def test_put_prop12_reading_with_the_gamma2_term() -> None:
    """PUT Prop. 12: 'd(α₁, γ₂) the optimal value of PV' is undefined; read with the γ₂ term of (12) it equals the
    direct LP over 3×3 mechanisms with worst-case distortion (𝒫 = {(0.5,0.3,0.2), (0.6,0.25,0.15)}). The literal
    reading (γ₂ >= 1 makes the LP 0) gives log(2(1−D−δ)/D), above the optimum at D = 0.4 (0.916 vs 0.821)."""
    priors = [np.array([0.5, 0.3, 0.2]), np.array([0.6, 0.25, 0.15])]
    for delta, D in [(0.1, 0.2), (0.1, 0.4), (0.05, 0.35), (0.05, 0.45)]:
        assert prop12_corrected(priors, D, delta) == pytest.approx(set_eps_star(priors, D, delta), abs=1e-6)
    literal = math.log(2 * (1 - 0.4 - 0.1) / 0.4)
    assert literal > set_eps_star(priors, 0.4, 0.1) + 0.09


def test_put_theorem6_3_sum_runs_to_n() -> None:
    """PUT Theorem 6(3)/7(3): ε̃_MI(Q_D) = −log min_{P,y} Σ_l ((m−1)(n−D)/D)^{−l} P(N_l(y)) with l up to n (the
    Hamming distances on {1..m}^n), not m: for m = 2, n = 3 the printed sum to m drops the l = 3 term and
    differs from the measured maximal information of Q_D(y|x) = (1 − D/n)^n A^{−d(x,y)}."""
    m, n, D = 2, 3, 0.9
    A = (m - 1) * (n - D) / D
    tuples = list(itertools.product(range(m), repeat=n))
    ham = np.array([[sum(u != v for u, v in zip(x, y)) for y in tuples] for x in tuples])
    QD = (1 - D / n) ** n * A ** (-ham.astype(float))
    assert np.allclose(QD.sum(axis=1), 1.0)
    rng = np.random.default_rng(3)
    for prior in (np.full(m ** n, 1.0 / m ** n), rng.dirichlet(np.ones(m ** n))):
        measured = float(np.max(np.log(QD / (prior @ QD)[None, :])))

        def closed(upper: int) -> float:
            return -math.log(min(sum(A ** (-l) * prior[ham[:, y] == l].sum() for l in range(upper + 1))
                                 for y in range(m ** n)))

        assert closed(n) == pytest.approx(measured, abs=1e-12)
        assert abs(closed(m) - measured) > 1e-3


# ---------------------------------------------------------------------------------------------
# PUT Proposition 8(5), 8(6): randomized response attains the upper bounds
# ---------------------------------------------------------------------------------------------


def randomized_response_matrix(m: int, D: float) -> np.ndarray:
    """Q_D: keep the input with probability 1 − D, else one of the other m − 1 symbols uniformly."""
    return np.full((m, m), D / (m - 1)) + (1 - D - D / (m - 1)) * np.eye(m)


def least_distortion_renyi2(m: int, budget: float) -> float:
    """min max_x (1 − Q(x|x)) under Rényi DP of order 2 (Definition 3(5)): Σ_y Q(y|x)²/Q(y|x') <= e^ε
    for every x ≠ x' — the worst-case distortion over the whole simplex (no prior knowledge)."""
    Q = cp.Variable((m, m), nonneg=True)
    constraints = [cp.sum(Q, axis=1) == 1]
    constraints += [sum(cp.quad_over_lin(Q[a, y], Q[b, y]) for y in range(m)) <= math.exp(budget)
                    for a in range(m) for b in range(m) if a != b]
    problem = cp.Problem(cp.Minimize(cp.max(1 - cp.diag(Q))), constraints)
    problem.solve(solver=cp.CLARABEL)
    assert problem.status == cp.OPTIMAL
    return float(problem.value)


def least_distortion_sibson2(m: int, budget: float) -> float:
    """min E_U[1 − Q(X|X)] under Sibson information of order 2 at the uniform prior U (Definition 3(6)):
    2 log Σ_y (Σ_x U(x) Q(y|x)²)^{1/2} <= ε."""
    Q = cp.Variable((m, m), nonneg=True)
    column_norms = sum(cp.norm(Q[:, y] / math.sqrt(m), 2) for y in range(m))
    constraints = [cp.sum(Q, axis=1) == 1, column_norms <= math.exp(budget / 2)]
    problem = cp.Problem(cp.Minimize(1 - cp.trace(Q) / m), constraints)
    problem.solve(solver=cp.CLARABEL)
    assert problem.status == cp.OPTIMAL
    return float(problem.value)


@pytest.mark.parametrize("m", [2, 3, 4])
@pytest.mark.parametrize("fraction", [0.2, 0.5, 0.9])
def test_put_prop8_renyi_and_sibson_upper_bounds_are_attained(m: int, fraction: float) -> None:
    """PUT Proposition 8(5), 8(6) (α = 2): at the budget ε(Q_D) of randomized response, no mechanism has
    less distortion than Q_D itself, so the printed upper bounds max{0, ε_{α}(Q_D)} are the values of
    ε*_{α,DP} (worst case over the simplex) and ε*_{α,M} (uniform prior)."""
    D = fraction * (m - 1) / m
    Q = randomized_response_matrix(m, D)
    renyi = max(math.log(float(np.sum(Q[a] ** 2 / Q[b]))) for a in range(m) for b in range(m) if a != b)
    sibson = 2 * math.log(float(np.sum(np.sqrt(np.mean(Q ** 2, axis=0)))))
    printed_renyi_upper = math.log(D / (m - 1) * (m - 2 + ((1 - D) * (m - 1) / D) ** 2 + D / ((1 - D) * (m - 1))))
    printed_sibson_upper = math.log(m * ((1 - D) ** 2 + D ** 2 / (m - 1)))
    assert renyi == pytest.approx(printed_renyi_upper, abs=TOL)
    assert sibson == pytest.approx(printed_sibson_upper, abs=TOL)
    assert least_distortion_renyi2(m, renyi) == pytest.approx(D, abs=CONE_TOL)
    assert least_distortion_sibson2(m, sibson) == pytest.approx(D, abs=CONE_TOL)
    # and the printed lower bounds are strictly below: the upper bound is the sharper statement
    assert math.log((m - 1) * (1 - D) ** 2 / D) < renyi - 1e-3
    assert max(0.0, math.log(m * (1 - D) ** 2)) < sibson - 1e-3


# ---------------------------------------------------------------------------------------------
# Multi-secret Props. C.2 and C.4: the privacy formula needs 2ε_i <= s_i
# ---------------------------------------------------------------------------------------------
#: Points per axis of the grid on one quantization bin (the secret is uniform on the bin).
BIN_GRID = 400


def quantized_union_privacy(eps: tuple[float, float], steps: tuple[float, float]) -> float:
    """Union privacy of Algs. 1/2 (two secrets, uniform prior): the output names the bin, the secret pair
    is uniform on it, and the attacker picks one guess per secret; success if either lands within ε_i.
    Brute force over guesses on the grid (a window's best position is among the grid points)."""
    cells = [(np.arange(BIN_GRID) + 0.5) / BIN_GRID * s for s in steps]
    best = 0.0
    for g1 in cells[0][:: BIN_GRID // 40]:
        hit1 = np.abs(cells[0] - g1) <= eps[0]
        for g2 in cells[1][:: BIN_GRID // 40]:
            hit2 = np.abs(cells[1] - g2) <= eps[1]
            best = max(best, float(np.mean(hit1[:, None] | hit2[None, :])))
    return best


@pytest.mark.parametrize("eps, steps", [((0.6, 0.1), (1.0, 1.0)), ((0.6, 0.6), (1.0, 1.0)), ((0.1, 0.2), (1.0, 1.0))])
def test_multisecret_prop_c2_c4_need_two_eps_below_s(eps: tuple[float, float], steps: tuple[float, float]) -> None:
    """Multi-secret Props. C.2/C.4: Π = 1 − Π_i (1 − 2ε_i/s_i) is the union privacy of the quantization
    mechanism only when 2ε_i <= s_i; beyond, the measured privacy is 1 while the printed value is above 1
    (one factor negative: 1.16) or below it (two: 0.96). Corrected: 1 − Π_i (1 − min{1, 2ε_i/s_i})."""
    measured = quantized_union_privacy(eps, steps)
    printed = 1 - math.prod(1 - 2 * e / s for e, s in zip(eps, steps))
    corrected = 1 - math.prod(1 - min(1.0, 2 * e / s) for e, s in zip(eps, steps))
    grid_resolution = 2.0 / BIN_GRID  # a window's coverage is exact up to one grid cell per side
    assert measured == pytest.approx(corrected, abs=grid_resolution)
    if all(2 * e <= s for e, s in zip(eps, steps)):
        assert printed == pytest.approx(corrected, abs=TOL)
    else:
        assert measured == 1.0
        assert abs(printed - 1.0) > 0.03


# ---------------------------------------------------------------------------------------------
# PUT Theorems 7(5), 17(5): for every Class I set the upper bound is the value (Rényi DP, global framework)
# ---------------------------------------------------------------------------------------------


def hamming_cube(m: int, n: int) -> tuple[np.ndarray, list[tuple[int, int]]]:
    """Hamming distances on {0..m−1}^n and the ordered pairs of neighbours (distance 1)."""
    points = np.array(list(itertools.product(range(m), repeat=n)))
    distances = (points[:, None, :] != points[None, :, :]).sum(axis=2)
    return distances, [(int(a), int(b)) for a, b in zip(*np.nonzero(distances == 1))]


def product_randomized_response(m: int, n: int, D: float) -> np.ndarray:
    """Q_D on {0..m−1}^n: each coordinate kept with probability 1 − D/n, else one of the m − 1 others uniformly."""
    distances, _ = hamming_cube(m, n)
    return (1 - D / n) ** (n - distances) * (D / (n * (m - 1))) ** distances


def least_global_distortion(m: int, n: int, budget: float, notion: str) -> float:
    """min E_U[d(X, Y)] on {0..m−1}^n (uniform prior, Hamming cost) under Rényi DP of order 2 with Hamming
    neighbours (Σ_y Q(y|x)²/Q(y|x') <= e^ε for x ~ x') or Sibson information of order 2 at the uniform prior
    (Σ_y (Σ_x U(x) Q(y|x)²)^{1/2} <= e^{ε/2}), written from Definition 3."""
    distances, pairs = hamming_cube(m, n)
    size = distances.shape[0]
    Q = cp.Variable((size, size), nonneg=True)
    constraints = [cp.sum(Q, axis=1) == 1]
    if notion == "renyi":
        constraints += [sum(cp.quad_over_lin(Q[a, y], Q[b, y]) for y in range(size)) <= math.exp(budget) for a, b in pairs]
    else:
        constraints += [sum(cp.norm(Q[:, y] / math.sqrt(size), 2) for y in range(size)) <= math.exp(budget / 2)]
    problem = cp.Problem(cp.Minimize(cp.sum(cp.multiply(Q, distances)) / size), constraints)
    problem.solve(solver=cp.CLARABEL)
    assert problem.status == cp.OPTIMAL
    return float(problem.value)


@pytest.mark.parametrize("m, n, D", [(2, 2, 0.2), (2, 2, 0.6), (3, 2, 0.5), (2, 3, 0.9)])
def test_put_theorem7_5_renyi_upper_bound_is_the_value(m: int, n: int, D: float) -> None:
    """PUT Theorem 7(5) (α = 2), docs/errata.md PUT entry 10: at the budget ε(Q_D) of the product randomized
    response no mechanism on {1..m}^n has less distortion than Q_D itself (D), so max{0, ε(Q_D)} — the printed
    upper bound — is ε̃*; Theorem 17(5)'s upper bound, Q_D being a product, is the value over products too."""
    Q = product_randomized_response(m, n, D)
    distances, pairs = hamming_cube(m, n)
    assert float((Q * distances).sum()) / Q.shape[0] == pytest.approx(D, abs=1e-12)
    budget = max(math.log(float(np.sum(Q[a] ** 2 / Q[b]))) for a, b in pairs)
    # one letter's Rényi loss at D/n: neighbours differ in one coordinate only
    q = randomized_response_matrix(m, D / n)
    assert budget == pytest.approx(max(math.log(float(np.sum(q[a] ** 2 / q[b]))) for a in range(m) for b in range(m) if a != b),
                                   abs=1e-12)
    assert least_global_distortion(m, n, budget, "renyi") == pytest.approx(D, abs=CONE_TOL)


def test_put_theorem7_6_sibson_upper_bound_is_not_the_value() -> None:
    """PUT Theorem 7(6) (α = 2): the sharpening does not carry over to Sibson information — on {1,2}², D = 0.2,
    a mechanism within Q_D's Sibson budget has distortion below D (Q_D's budget is ≈ 1.9e-2 above ε*)."""
    m, n, D = 2, 2, 0.2
    Q = product_randomized_response(m, n, D)
    budget = 2 * math.log(float(np.sum(np.sqrt(np.mean(Q ** 2, axis=0)))))
    assert least_global_distortion(m, n, budget, "sibson") < D - 1e-3
    assert least_global_distortion(m, n, budget - 1.8e-2, "sibson") < D  # still reached 1.8e-2 below Q_D's budget


@pytest.mark.parametrize("m", [2, 3, 4])
def test_put_prop8_printed_lower_bounds_are_within_1e6_at_alpha_4(m: int) -> None:
    """PUT Proposition 8(5), 8(6), docs/errata.md PUT entry 9: the printed lower bounds are strictly below the
    values, but at α = 4, D = 0.05 by less than 1e-6 (m = 3: 1.6e-7 Rényi, 3.2e-7 Sibson; m = 2, Rényi:
    (1/(α−1)) log(1 + (D/(1−D))^{2α−1}) = 3.7e-10), below what a comparison at 1e-6 can tell apart."""
    alpha, D = 4.0, 0.05
    Q = randomized_response_matrix(m, D)
    renyi = max(math.log(float(np.sum(Q[a] ** alpha * Q[b] ** (1 - alpha)))) / (alpha - 1)
                for a in range(m) for b in range(m) if a != b)
    sibson = alpha / (alpha - 1) * math.log(float(np.sum(np.mean(Q ** alpha, axis=0) ** (1 / alpha))))
    renyi_lower = math.log((m - 1) * (1 - D) ** (alpha / (alpha - 1)) / D)
    sibson_lower = math.log(m * (1 - D) ** (alpha / (alpha - 1)))
    assert 0 < renyi - renyi_lower < 1e-6 and 0 < sibson - sibson_lower < 3e-6
    if m == 2:
        assert renyi - renyi_lower == pytest.approx(math.log1p((D / (1 - D)) ** (2 * alpha - 1)) / (alpha - 1), rel=1e-6)
