"""Tests of mechdesign.privacy.summary (Wang et al., Guarding Multiple Secrets, eqs. (1), (6), (10), §5.2)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mechdesign import InvalidBudgetError, MechDesignError, ProblemTooLargeError, design
from mechdesign.parameter_spaces import ParameterSpace
from mechdesign.designers.summary import design_worst_case_distortion
from mechdesign.privacy import coverage
from mechdesign.privacy.coverage import lp_distances, maximal_coverable_sets, maximal_rows
from mechdesign.privacy.summary import GroupPrivacy, IntersectionPrivacy, LpNormPrivacy, UnionPrivacy

from ..strategies import stochastic_matrices
from .protocol import (
    FEASIBLE_MARGIN,
    INFEASIBLE_MARGIN,
    _feasible,
    assert_constraints_match_measure,
    assert_post_processing_does_not_increase,
    assert_round_trip,
)

#: Slack when a brute-force guess is compared with the exact best attacker (float sums).
BRUTE_ATOL = 1e-12


def small_space(seed=0, n=5, d=2):
    """Random secret values on a coarse lattice (so that ties and exact boundaries occur)."""
    rng = np.random.default_rng(seed)
    points = rng.integers(0, 6, size=(n, d)) * 0.25
    prior = rng.uniform(0.2, 1.0, n)
    return ParameterSpace(points, lambda rows: rows, np.full(d, 0.3), lambda a, b: np.sqrt(((a[:, None] - b[None]) ** 2).sum(2)),
                          prior=prior / prior.sum())


def notions(space):
    return [UnionPrivacy(space), IntersectionPrivacy(space), GroupPrivacy(space, [[0], [1]]),
            LpNormPrivacy(space, 2, 0.4), LpNormPrivacy(space, 1, 0.4), LpNormPrivacy(space, np.inf, 0.3),
            LpNormPrivacy(space, 3, 0.35), LpNormPrivacy(space, 1.5, 0.4)]


def brute_force(notion, matrix, guesses):
    """Best success over an arbitrary set of guesses (the definition, eq. (1)/(6)/(10), restricted)."""
    joint = notion.space.prior.probabilities[:, None] * matrix
    return float((notion.success(guesses, notion.space.secret_values).astype(float) @ joint).max(axis=0).sum())


def test_hand_computed_union_and_intersection():
    # Two inputs with secrets (0, 0) and (1, 1), tolerance 0.4: one guess cannot cover both values
    # of one secret. Identity mechanism: the attacker always wins. Constant mechanism: the union
    # attacker guesses ĝ = (0.4, 1.4) — μ of the first input, σ of the second — and always wins;
    # the intersection attacker wins half the time.
    space = ParameterSpace([[0.0, 0.0], [1.0, 1.0]], lambda r: r, [0.4, 0.4], lambda a, b: np.abs(a[:, None, 0] - b[None, :, 0]))
    for notion in (UnionPrivacy(space), IntersectionPrivacy(space)):
        assert notion.measure(np.eye(2)) == pytest.approx(1.0)
    assert UnionPrivacy(space).measure(np.full((2, 2), 0.5)) == pytest.approx(1.0)
    assert IntersectionPrivacy(space).measure(np.full((2, 2), 0.5)) == pytest.approx(0.5)
    # secrets (0, 1) and (1, 0): union covers both with ĝ = (0, 0); intersection cannot.
    crossed = ParameterSpace([[0.0, 1.0], [1.0, 0.0]], lambda r: r, [0.4, 0.4], lambda a, b: np.abs(a[:, None, 0] - b[None, :, 0]))
    assert UnionPrivacy(crossed).measure(np.full((2, 1), 1.0)) == pytest.approx(1.0)
    assert IntersectionPrivacy(crossed).measure(np.full((2, 1), 1.0)) == pytest.approx(0.5)
    # ℓ2 with ε_p = 0.75: the centre (0.5, 0.5) is at distance 0.707 of both points.
    assert LpNormPrivacy(crossed, 2, 0.75).measure(np.full((2, 1), 1.0)) == pytest.approx(1.0)
    assert LpNormPrivacy(crossed, 2, 0.7).measure(np.full((2, 1), 1.0)) == pytest.approx(0.5)


@pytest.mark.parametrize("seed", range(6))
def test_candidate_guesses_suffice_against_fine_grid_brute_force(seed):
    # No guess on a fine grid (step 0.01, covering every secret value ± 0.6) nor 4,000 random
    # guesses beats the finite candidate set, and the exact value is attained by a candidate.
    space = small_space(seed)
    rng = np.random.default_rng(100 + seed)
    matrix = rng.dirichlet(np.ones(3), size=space.n_inputs)
    axis = np.arange(-0.6, 1.25 + 0.6, 0.01)
    fine = np.stack(np.meshgrid(axis, axis, indexing="ij"), -1).reshape(-1, 2)
    random = rng.uniform(-0.6, 1.85, size=(4000, 2))
    for notion in notions(space):
        exact = notion.measure(matrix)
        assert brute_force(notion, matrix, fine) <= exact + BRUTE_ATOL
        assert brute_force(notion, matrix, random) <= exact + BRUTE_ATOL
        assert brute_force(notion, matrix, notion.guesses) == pytest.approx(exact, abs=BRUTE_ATOL)


def test_maximal_coverage_rows_give_the_same_attacker():
    space = small_space(7, n=6)
    matrix = np.random.default_rng(7).dirichlet(np.ones(4), size=6)
    for notion in notions(space):
        via_rows = float((notion.coverage @ (space.prior.probabilities[:, None] * matrix)).max(axis=0).sum())
        assert via_rows == pytest.approx(notion.measure(matrix), abs=1e-12)


def test_metric_orderings_on_every_mechanism():
    # Prop. 5.5's proof: with ε_p = (Σ ε_i^p)^{1/p}, inter ≤ ℓp ≤ union for every mechanism (and Prop. 5.2).
    space = small_space(3, n=6)
    rng = np.random.default_rng(3)
    for _ in range(10):
        matrix = rng.dirichlet(np.ones(3), size=6)
        inter, union = IntersectionPrivacy(space).measure(matrix), UnionPrivacy(space).measure(matrix)
        for p in (1, 2, np.inf):
            tolerance = 0.6 if p == 1 else (np.sqrt(0.18) if p == 2 else 0.3)
            lp = LpNormPrivacy(space, p, tolerance).measure(matrix)
            assert inter <= lp + 1e-12 <= union + 2e-12


def _fixed_space():
    return small_space(11, n=5)


@settings(max_examples=15)
@given(stochastic_matrices(n_inputs=st.just(5)))
def test_constraints_match_measure(matrix):
    for notion in notions(_fixed_space()):
        if notion.measure(matrix) < 1 - FEASIBLE_MARGIN:
            assert_constraints_match_measure(notion, matrix)
        else:  # the budget cannot exceed 1: check feasibility at T = 1 and infeasibility below
            assert _feasible(notion, matrix, 1.0)
            assert not _feasible(notion, matrix, notion.measure(matrix) - INFEASIBLE_MARGIN)


@settings(max_examples=15)
@given(stochastic_matrices(n_inputs=st.just(5)), st.data())
def test_post_processing_never_increases(matrix, data):
    channel = data.draw(stochastic_matrices(n_inputs=st.just(matrix.shape[1])))
    for notion in notions(_fixed_space()):
        assert_post_processing_does_not_increase(notion, matrix, channel)


@settings(max_examples=10)
@given(st.floats(0.0, 1.0))
def test_round_trip(fraction):
    space = _fixed_space()
    for notion in notions(space):
        floor = notion.prior_vulnerability()
        assert_round_trip(notion, floor + fraction * (1 - floor), space.expected_distortion())


def test_budget_is_a_probability():
    notion = UnionPrivacy(_fixed_space())
    with pytest.raises(InvalidBudgetError, match=r"union_privacy budget T must be a probability in \[0, 1\], got 1.5"):
        design(notion, 1.5, notion.space.expected_distortion())
    with pytest.raises(InvalidBudgetError, match="got -0.1"):
        design(notion, -0.1, notion.space.expected_distortion())
    assert notion.budget_from_scaled(notion.scaled_budget(0.3)) == 0.3


def test_bad_notion_parameters_raise():
    space = _fixed_space()
    with pytest.raises(MechDesignError, match="space must be an instance of ParameterSpace, got 'x'"):
        IntersectionPrivacy("x")
    with pytest.raises(MechDesignError, match="disjoint"):
        GroupPrivacy(space, [[0, 1], [1]])
    with pytest.raises(MechDesignError, match="outside 0..1"):
        GroupPrivacy(space, [[2]])
    with pytest.raises(MechDesignError, match="empty"):
        GroupPrivacy(space, [[]])
    with pytest.raises(InvalidBudgetError, match="norm order >= 1"):
        LpNormPrivacy(space, 0.5, 0.3)
    with pytest.raises(MechDesignError, match="strictly positive"):
        LpNormPrivacy(space, 2, 0.0)
    with pytest.raises(InvalidBudgetError, match="norm order >= 1"):
        LpNormPrivacy(small_space(0, d=3), 0.5, 0.3)
    with pytest.raises(MechDesignError, match="space must be an instance of ParameterSpace"):
        UnionPrivacy(np.eye(3))


def test_expected_distortion_curve_with_probability_budgets():
    # The notions plug into trace_curve with T as the swept budget: the optimal expected W2
    # distortion is non-increasing in T, infeasible (NaN) below the prior vulnerability and 0 at T = 1.
    from mechdesign import trace_curve
    space = ParameterSpace.gaussian_1d([0.0, 0.5, 1.0], [1.0, 1.5], [0.2, 0.2])
    notion = IntersectionPrivacy(space)
    floor = notion.prior_vulnerability()
    budgets = [floor / 2, floor, 0.5, 0.75, 1.0]
    curve = trace_curve(notion, space.expected_distortion(), budgets)
    assert np.isnan(curve.y[0]) and not curve.results[0].success
    finite = curve.y[1:]
    assert np.all(np.diff(finite) <= 1e-9) and finite[-1] == pytest.approx(0.0, abs=1e-9)
    for result, T in zip(curve.results[1:], budgets[1:]):
        assert result.certified and notion.measure(result.mechanism) <= T + 1e-6


# ----------------------------------------------------- ℓp privacy, d >= 3 (maximal coverable sets)
#: Norm orders checked in three dimensions (ℓ1 is an LP, 1.5 and 3 power cones, ℓ2 second-order).
LP_ORDERS = (1, 1.5, 2, 3)
#: ε_p in the 3-D tests (lattice step 0.25: maximal coverable sets of 3–6 points, most needing the
#: enclosing-ball solver rather than a box centre).
LP_TOLERANCE = 0.5


def brute_force_chunked(notion, matrix, guesses, chunk=20_000):
    return max(brute_force(notion, matrix, guesses[i:i + chunk]) for i in range(0, len(guesses), chunk))


def locally_optimized_guesses(points, p, rng, starts=1):
    """For every subset of the points: a guess minimizing its largest ℓp distance to the subset
    (Nelder–Mead, independent of cvxpy), from the centroid and ``starts - 1`` random starts."""
    import itertools

    from scipy.optimize import minimize

    guesses = []
    for size in range(1, len(points) + 1):
        for subset in itertools.combinations(range(len(points)), size):
            members = points[list(subset)]
            for start in [members.mean(0)] + [members.mean(0) + rng.normal(0, 0.1, 3) for _ in range(starts - 1)]:
                found = minimize(lambda g: lp_distances(g, members, p).max(), start, method="Nelder-Mead",
                                 options={"xatol": 1e-10, "fatol": 1e-12, "maxiter": 4000})
                guesses.append(found.x)
    return np.array(guesses)


@pytest.mark.parametrize("p", LP_ORDERS)
@pytest.mark.parametrize("seed", range(2))
def test_lp_three_secrets_exact_against_brute_force(p, seed):
    # Wang et al. eq. (10) with d = 3: no guess on a 3-D grid (step 0.05, every value ± 0.5), no random
    # guess and no locally optimized guess for any subset of the secret vectors beats the attacker built
    # from the maximal coverable sets; its witness guesses attain it; every locally optimized guess
    # covers a subset of some maximal set.
    space = small_space(seed, n=8, d=3)
    notion = LpNormPrivacy(space, p, LP_TOLERANCE)
    rng = np.random.default_rng(200 + seed)
    points = np.unique(space.secret_values, axis=0)
    axis = np.arange(-0.5, 1.25 + 0.5 + 1e-9, 0.05)
    fine = np.stack(np.meshgrid(axis, axis, axis, indexing="ij"), -1).reshape(-1, 3)
    local = locally_optimized_guesses(points, p, rng)
    random = rng.uniform(-0.5, 1.75, size=(5000, 3))
    assert notion.coverage.sum(1).max() >= 3  # the search (not only pairs) matters here
    local_rows = notion.success(local, space.secret_values).astype(float)
    assert (local_rows @ (1 - notion.coverage).T == 0).any(axis=1).all()
    for _ in range(3):
        matrix = rng.dirichlet(np.ones(3), size=space.n_inputs)
        exact = notion.measure(matrix)
        for guesses in (fine, random, local):
            assert brute_force_chunked(notion, matrix, guesses) <= exact + BRUTE_ATOL
        assert brute_force(notion, matrix, notion.guesses) == pytest.approx(exact, abs=BRUTE_ATOL)


def _same_rows(a, b):
    return sorted(map(tuple, a.astype(int))) == sorted(map(tuple, b.astype(int)))


@pytest.mark.parametrize("seed", range(3))
def test_coverable_sets_agree_with_closed_form_candidates(seed):
    # The maximal-coverable-set search routed on cases with closed-form candidates gives the same
    # coverage: p = inf (box method) in 3-D; p = 1 (rotated box), 2 (circle intersections) and
    # 3 (ℓp circle intersections) in 2-D.
    for d, p, tolerance in ((3, np.inf, 0.3), (3, np.inf, 0.5), (2, 1, 0.4), (2, 2, 0.4), (2, 3, 0.35)):
        space = small_space(seed, n=8, d=d)
        notion = LpNormPrivacy(space, p, tolerance)
        sets, witnesses = maximal_coverable_sets(np.unique(space.secret_values, axis=0), p, tolerance)
        assert len(sets) == len(witnesses)
        assert _same_rows(maximal_rows(notion.success(witnesses, space.secret_values)), notion.coverage)


@pytest.mark.parametrize("p", (1.5, 2))
def test_lp_three_secrets_protocol_and_design(p):
    # The notion protocol on a 3-D space: constraints match the measure, post-processing does not
    # increase, designs re-measure within budget and certify (both design() and the exact
    # worst-case design).
    space = small_space(1, n=8, d=3)
    notion = LpNormPrivacy(space, p, LP_TOLERANCE)
    rng = np.random.default_rng(5)
    for _ in range(3):
        matrix = rng.dirichlet(np.ones(4), size=space.n_inputs)
        assert_constraints_match_measure(notion, matrix)
        assert_post_processing_does_not_increase(notion, matrix, rng.dirichlet(np.ones(3), size=4))
    floor = notion.prior_vulnerability()
    for T in (floor, (floor + 1) / 2, 1.0):
        assert_round_trip(notion, T, space.expected_distortion())
        result = design_worst_case_distortion(notion, T)
        assert result.success and result.certified and notion.measure(result.mechanism) <= T + 1e-6


def test_lp_three_secrets_refuses_beyond_its_size_limits(monkeypatch):
    many = ParameterSpace(np.random.default_rng(0).uniform(0, 1, (coverage.MAX_LP_POINTS + 1, 3)), lambda r: r, [0.1] * 3,
                          lambda a, b: np.ones((len(a), len(b))))
    with pytest.raises(ProblemTooLargeError, match=f"{coverage.MAX_LP_POINTS + 1} distinct secret vectors"):
        LpNormPrivacy(many, 2, 0.3)
    monkeypatch.setattr(coverage, "MAX_BALL_SOLVES", 0)
    with pytest.raises(ProblemTooLargeError, match="more than 0 enclosing-ball solves"):
        LpNormPrivacy(small_space(1, n=8, d=3), 2, LP_TOLERANCE)
    monkeypatch.setattr(coverage, "MAX_COVER_CHECKS", 5)
    with pytest.raises(ProblemTooLargeError, match="more than 5 coverability checks"):
        LpNormPrivacy(small_space(1, n=8, d=3), 1, LP_TOLERANCE)


def test_hostile_arguments_of_the_summary_notions_are_named():
    space = ParameterSpace.gaussian_1d([0.0, 1.0], [1.0, 2.0], [0.2, 0.2])
    cases = [
        (lambda: GroupPrivacy(None, [[0]]), "space must be an instance of ParameterSpace, got None"),
        (lambda: GroupPrivacy(space, None), "groups must be a non-empty sequence, got None"),
        (lambda: GroupPrivacy(space, [[0.5]]), r"groups\[0\] must hold secret indices \(integers\), got 0.5"),
        (lambda: UnionPrivacy(ParameterSpace), "got the class itself"),
    ]
    for call, match in cases:
        with pytest.raises(MechDesignError, match=match):
            call()


def test_a_huge_lp_tolerance_makes_every_guess_succeed():
    """A tolerance far beyond the spread of the secrets (1e154: its square overflows) lets a guess of the
    secret always succeed: the privacy Π of every mechanism is 1 (Wang et al., eq. (1))."""
    space = ParameterSpace.gaussian_1d([0.0, 1.0], [1.0, 2.0], [0.2, 0.2])
    notion = LpNormPrivacy(space, 2.0, 1.3e154)
    assert notion.measure(np.full((space.n_inputs, space.n_inputs), 1.0 / space.n_inputs)) == pytest.approx(1.0)
