"""Tests of mechdesign.certificate: certified lower bounds on optimal designs, checked in numpy.

Every bound is compared with an optimum known independently: a closed form (PUT paper, Zhong & Bu,
Prop. 8 / Thm. 14 for randomized response and maximal leakage), a brute force over vertices, or the
objective of any private mechanism (a lower bound can never exceed it).
"""

import functools
import math

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given
from hypothesis import strategies as st

from mechdesign import (
    ApproximateDifferentialPrivacy,
    DifferentialPrivacy,
    ExpectedDistortion,
    MaximalInformation,
    MaximalLeakage,
    MutualInformationPrivacy,
    PointwiseMaximalLeakage,
    Prior,
    RenyiDifferentialPrivacy,
    SibsonMutualInformation,
    SourceSet,
    WorstCaseDistortion,
    design,
    randomized_response,
)
from mechdesign.certificate import (
    INTERIOR_WEIGHT,
    UNUSED_COLUMN_MASS,
    design_lower_bound,
    dual_tangent_point,
    lp_lower_bound,
    multiplier_lower_bound,
    relaxation_lower_bound,
)
from mechdesign.relaxation import ObjectiveMinorant, interior_point, linear_rows, stack
from mechdesign.result import GAP_RTOL

from .strategies import every_notion

SKEWED = Prior([0.4, 0.3, 0.2, 0.1])
#: A bound may exceed a feasible objective only by float round-off.
ROUND_OFF = 1e-12
#: Gap of an LP relaxation's bound to the LP optimum (HiGHS at 1e-10 tolerances).
LP_BOUND_ATOL = 1e-9

#: One instance of every offered notion (tests/strategies.py); the lists below add other parameters.
OFFERED = every_notion(SKEWED)
#: LPs whose cvxpy constraints have a warm LP's structure or are the relaxation's rows: every offered linear
#: notion but maximal information, and local DP on a graph.
ROW_NOTIONS = [notion for notion in OFFERED if notion.is_linear and not isinstance(notion, MaximalInformation)] + [
    DifferentialPrivacy([(0, 1), (1, 2), (2, 3)], n_inputs=4)]
#: LPs over an epigraph (cvxpy's max hides M_y): maximal information, and PML over a set of priors.
EPIGRAPH_NOTIONS = [notion for notion in OFFERED if isinstance(notion, MaximalInformation)] + [
    PointwiseMaximalLeakage(SourceSet([[0.5, 0.5, 0, 0], [0.1, 0.2, 0.3, 0.4]]))]
LP_NOTIONS = ROW_NOTIONS + [ApproximateDifferentialPrivacy(0.05, "hockey_stick")] + EPIGRAPH_NOTIONS
#: Convex notions whose designs at n = 4, ε = 1 are certified optimal (tangent planes plus, for
#: mutual information under one prior, Blahut's dual): every offered convex notion, and Rényi order 4.
CERTIFIED_CONVEX_NOTIONS = [notion for notion in OFFERED if not notion.is_linear] + [RenyiDifferentialPrivacy(4)]
CONVEX_NOTIONS = CERTIFIED_CONVEX_NOTIONS + [MutualInformationPrivacy(SourceSet([[0.5, 0.5, 0, 0], [0, 0, 0.5, 0.5]]))]
#: Largest gap left by the cutting planes where they do not certify (measured 2e-6).
UNCERTIFIED_GAP_ATOL = 1e-4


def test_lp_lower_bound_accounts_for_dual_infeasibility():
    # min x0 + 2 x1 s.t. x0 + x1 = 1, 0 <= x <= 1: optimum 1.
    costs, matrix = np.array([1.0, 2.0]), sp.csr_matrix([[1.0, 1.0]])
    bounds = (np.ones(1), np.ones(1), np.zeros(2), np.ones(2))
    assert lp_lower_bound(costs, matrix, *bounds, np.array([1.0])) == 1.0
    # Any multiplier gives a valid bound; a poor one a weaker bound, never a larger one.
    for y in np.linspace(-3, 5, 33):
        assert lp_lower_bound(costs, matrix, *bounds, np.array([y])) <= 1.0 + ROUND_OFF
    # A multiplier pushing towards an infinite side is projected away (here: the bound of x >= 0 alone).
    assert lp_lower_bound(costs, matrix, np.ones(1), np.full(1, np.inf), np.zeros(2), np.ones(2),
                          np.array([-1.0])) == 0.0
    # A reduced cost towards an unbounded column gives no bound at all.
    assert lp_lower_bound(costs, matrix, *bounds[:3], np.array([1.0, np.inf]), np.array([3.0])) == -math.inf


@pytest.mark.parametrize("notion", LP_NOTIONS, ids=lambda n: n.label)
@pytest.mark.parametrize("epsilon", [0.0, 0.3, 1.2])
def test_lp_relaxations_are_exact(notion, epsilon):
    objective = ExpectedDistortion(SKEWED)
    reference = design(notion, epsilon, objective, solver="clarabel", method="cvxpy")
    bound, reason = design_lower_bound(objective, [(notion, epsilon)], [], reference.mechanism.matrix)
    # Clarabel's point may sit within budget_tolerance outside the budget, hence below the optimum by as much.
    assert reason == "" and abs(reference.objective - bound) <= LP_BOUND_ATOL


def test_closed_forms_are_certified():
    # PUT paper, Prop. 8(1): randomized response is optimal for local DP under a uniform prior,
    # D* = (m − 1) / (e^ε + m − 1); Thm. 14 with a uniform prior: D* = 1 − e^ε / m for maximal leakage.
    for m, epsilon in [(3, 0.5), (5, 1.0), (8, 2.0)]:
        objective = ExpectedDistortion(Prior.uniform(m))
        rr = randomized_response(m, epsilon).matrix
        bound, _ = design_lower_bound(objective, [(DifferentialPrivacy(), epsilon)], [], rr)
        assert bound == pytest.approx((m - 1) / (math.exp(epsilon) + m - 1), abs=LP_BOUND_ATOL)
        result = design(MaximalLeakage(), epsilon, objective)
        assert result.bound == pytest.approx(1 - math.exp(epsilon) / m, abs=LP_BOUND_ATOL)


@pytest.mark.parametrize("notion", CONVEX_NOTIONS, ids=lambda n: n.label)
def test_convex_bounds_are_below_every_private_mechanism_and_tight_at_the_optimum(notion):
    objective = ExpectedDistortion(SKEWED)
    result = design(notion, 1.0, objective)
    assert result.success and result.bound is not None
    # Below every private mechanism: the optimum, randomized response scaled into the budget, the constant.
    for candidate in (result.mechanism.matrix, randomized_response(4, 0.1).matrix, np.full((4, 4), 0.25)):
        if notion.measure(candidate) <= 1.0:
            assert result.bound <= objective.value(candidate) + ROUND_OFF
    if notion in CERTIFIED_CONVEX_NOTIONS:
        assert result.status == "optimal" and result.gap <= GAP_RTOL * max(1.0, result.objective)
    else:  # the worst case over a hull: tangent planes converge slowly; the result says it is suboptimal
        assert result.status in ("optimal", "suboptimal") and result.gap <= UNCERTIFIED_GAP_ATOL


def test_a_bound_from_a_poor_point_is_valid_but_not_tight():
    # Linearizing the Rényi cones at the constant mechanism gives a valid, weaker bound.
    objective, notion = ExpectedDistortion(SKEWED), RenyiDifferentialPrivacy(2)
    optimum = design(notion, 1.0, objective).objective
    bound, _ = design_lower_bound(objective, [(notion, 1.0)], [], np.full((4, 4), 0.25))
    assert bound <= optimum + ROUND_OFF


def test_worst_case_objective_and_limits():
    source = SourceSet([[0.7, 0.1, 0.1, 0.1], [0.1, 0.1, 0.1, 0.7]])
    objective = WorstCaseDistortion(source)
    result = design(DifferentialPrivacy(), 0.8, objective)
    assert result.status == "optimal" and result.gap <= GAP_RTOL
    limited = design(MaximalLeakage(), 1.0, objective, limits=[(ExpectedDistortion(SKEWED), 0.3)])
    assert limited.status == "optimal" and limited.bound <= limited.objective + ROUND_OFF


def test_missing_relaxation_is_reported_not_guessed():
    class Opaque(DifferentialPrivacy):
        def relaxation(self, points, budget):
            return None

    bound, reason = design_lower_bound(ExpectedDistortion(SKEWED), [(Opaque(), 1.0)], [], np.full((4, 4), 0.25))
    assert bound is None and "no certificate is implemented for dp" in reason
    result = design(Opaque(), 1.0, ExpectedDistortion(SKEWED), solver="highs")
    assert result.success and result.status == "suboptimal" and result.bound is None
    assert "no certificate is implemented" in result.message


def test_relaxation_lower_bound_survives_a_failed_lp():
    # An infeasible relaxation makes HiGHS fail: the multipliers fall back to 0 (a valid, weak bound).
    relaxation = linear_rows(sp.csr_matrix(np.ones((1, 4))), np.array([-1.0]))  # Σ S <= −1: empty
    minorant = ObjectiveMinorant(0.0, np.array([1.0, 2.0, 3.0, 4.0]), np.zeros(0), relaxation)
    bound, minimizer = relaxation_lower_bound(minorant, relaxation, (2, 2))
    # Zero multipliers leave the costs themselves on the box 0 <= S <= 1: all positive, so the bound is 0.
    assert minimizer is None and bound == 0.0


@given(epsilon=st.floats(0.0, 4.0), seed=st.integers(0, 2**16))
def test_direct_lp_bounds_hold_against_random_private_mechanisms(epsilon, seed):
    rng = np.random.default_rng(seed)
    prior = Prior(rng.dirichlet(np.ones(4)))
    objective = ExpectedDistortion(prior, rng.random((4, 4)))
    result = design(DifferentialPrivacy(), epsilon, objective)
    for _ in range(5):  # random ε-LDP mechanisms: staircase columns mixed at random
        columns = 1.0 + np.expm1(epsilon) * (rng.random((4, 6)) < 0.5)
        matrix = columns * rng.random(6)
        matrix /= matrix.sum(axis=1, keepdims=True)
        if DifferentialPrivacy().measure(matrix) <= epsilon:
            padded = np.zeros((4, 4))
            padded[:, :4] = matrix[:, :4]
            padded[:, 0] += matrix[:, 4:].sum(axis=1)  # merge outputs: post-processing keeps LDP
            assert result.bound <= objective.value(padded) + ROUND_OFF


def test_unused_outputs_get_tangents_from_the_dual():
    """Rényi DP α = 2 on random costs (n = 10, seed 1, ε = 0.3): the optimum uses 2–3 of 10 outputs.
    Tangents at the unused columns' 0/0 ratios (the mechanism mixed with the uniform one) left a gap of
    2.6e-2 after every cutting-plane round; at the dual-guided point one LP certifies it."""
    rng = np.random.default_rng(1)
    prior = rng.dirichlet(np.ones(10))
    objective = ExpectedDistortion(Prior(prior), rng.random((10, 10)))
    notion = RenyiDifferentialPrivacy(2)
    result = design(notion, 0.3, objective)
    assert result.status == "optimal" and result.gap <= GAP_RTOL * max(1.0, result.objective)
    unused = result.mechanism.matrix.sum(axis=0) <= UNUSED_COLUMN_MASS
    assert unused.sum() >= 5
    for candidate in (randomized_response(10, 0.05).matrix, np.full((10, 10), 0.1)):
        assert notion.measure(candidate) <= 0.3 and result.bound <= objective.value(candidate) + ROUND_OFF


def test_dual_tangent_point_is_the_mechanism_where_every_output_is_used():
    matrix = randomized_response(4, 1.0).matrix
    costs = ExpectedDistortion(SKEWED).minorant(matrix).grad_q.reshape(4, 4)
    point = dual_tangent_point(costs, RenyiDifferentialPrivacy(2), 1.0, matrix)
    assert np.array_equal(point, interior_point(matrix, INTERIOR_WEIGHT))


@pytest.mark.filterwarnings("error::RuntimeWarning:mechdesign.*")
@pytest.mark.parametrize("notion, budget, prior", [
    (RenyiDifferentialPrivacy(1e6), 0.5, [0.5, 0.3, 0.2]),
    (RenyiDifferentialPrivacy(10.0), 5.0, [4.441280741490167e-09, 1 - 4.441280741490167e-09]),
])
def test_dual_tangent_point_without_an_active_budget(notion, budget, prior):
    """M1: two Rényi designs whose optimum leaves no budget active (a constant mechanism) raised
    ``ValueError: cannot reshape array of size 0`` in ``dual_tangent_point`` (the KKT fit had no
    multiplier column); at α = 1e6 the column terms also overflowed. They are certified, and the optimum
    is at most that of ε-DP at the same ε, whose mechanisms all meet the Rényi budget."""
    objective = ExpectedDistortion(Prior(prior))
    result = design(notion, budget, objective)
    assert result.status == "optimal" and result.gap <= GAP_RTOL * max(1.0, result.objective)
    assert notion.measure(result.mechanism.matrix) <= budget
    assert result.bound <= design(DifferentialPrivacy(), budget, objective).objective + ROUND_OFF


@pytest.mark.parametrize("notion", [RenyiDifferentialPrivacy(2.0), SibsonMutualInformation(2.0, SKEWED)],
                         ids=lambda n: n.label)
def test_dual_tangent_point_scales_the_budget_once(monkeypatch, notion):
    """Issue 33 item 4: the certificate passes the scaled budget to the column terms (``scaled_budget`` once per
    point, not once per evaluation in the search for the unused outputs' tangents), at the same point as the terms
    that scale it themselves."""
    matrix = np.array([[0.7, 0.3, 0.0, 0.0], [0.3, 0.7, 0.0, 0.0], [0.5, 0.5, 0.0, 0.0], [0.4, 0.6, 0.0, 0.0]])
    costs = ExpectedDistortion(SKEWED).minorant(matrix).grad_q.reshape(4, 4)
    budget = notion.measure(matrix)
    unscaled = type(notion).column_terms
    monkeypatch.setattr(type(notion), "column_terms",
                        lambda self, point, value, scale=None: unscaled(self, point, value))
    reference = dual_tangent_point(costs, notion, budget, matrix)
    monkeypatch.setattr(type(notion), "column_terms", unscaled)
    calls = []
    original = type(notion).scaled_budget
    monkeypatch.setattr(type(notion), "scaled_budget", lambda self, value: calls.append(value) or original(self, value))
    point = dual_tangent_point(costs, notion, budget, matrix)
    assert calls == [budget] and np.array_equal(point, reference)
    assert not np.array_equal(point[:, 2:], interior_point(matrix, INTERIOR_WEIGHT)[:, 2:])  # the search ran


def test_dual_tangent_point_of_an_inactive_budget_is_the_least_cost_vertex():
    """M1: with no active budget the Lagrangian's column term is linear, ``(costs[:, y] − μ) · v`` with
    ``μ_x = costs[x, 0]`` from the used output 0, so each unused column's point sits at its least entry."""
    matrix = np.array([[1.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 0.0, 0.0]])
    costs = np.array([[0.0, 0.5, 0.5], [0.3, 0.0, 0.3], [0.2, 0.2, 0.0]])  # Hamming under prior (.5, .3, .2)
    point = dual_tangent_point(costs, RenyiDifferentialPrivacy(2.0), 5.0, matrix)
    # Column 1: costs − μ = (0.5, −0.3, 0) is least at input 1; column 2: (0.5, 0, −0.2) at input 2.
    assert np.argmax(point[:, 1]) == 1 and np.argmax(point[:, 2]) == 2
    assert np.all(point > 0)


# --- issue 31: LP certificates from the solver's own multipliers, and the relaxation by Clarabel ---------------

def _relaxation(notion, matrix, epsilon):
    objective = ExpectedDistortion(SKEWED, np.arange(16.0).reshape(4, 4) % 5)
    minorant = objective.minorant(matrix)
    return objective, minorant, stack([minorant.relaxation, notion.relaxation([matrix], epsilon)], matrix.size)


@pytest.mark.parametrize("notion", LP_NOTIONS, ids=lambda n: n.label)
@pytest.mark.parametrize("epsilon", [0.0, 0.4, 2.0])
@given(seed=st.integers(0, 2**32 - 1))
def test_a_multiplier_bound_is_below_the_optimum_whatever_the_multipliers(notion, epsilon, seed):
    """``multiplier_lower_bound`` is the safe LP bound at any multipliers (the row sums' repaired): never above
    the optimum, even at random ones."""
    matrix = np.full((4, 4), 0.25)
    objective, minorant, relaxation = _relaxation(notion, matrix, epsilon)
    multipliers = np.random.default_rng(seed).exponential(size=relaxation.rhs.size)
    optimum = _optimum(notion, epsilon)
    assert multiplier_lower_bound(minorant, relaxation, (4, 4), multipliers) <= optimum + ROUND_OFF


@functools.lru_cache(maxsize=None)
def _optimum(notion, epsilon):
    return design(notion, epsilon, _relaxation(notion, np.full((4, 4), 0.25), epsilon)[0]).objective


@pytest.mark.parametrize("notion", ROW_NOTIONS, ids=lambda n: n.label)
@pytest.mark.parametrize("solver", ["highs", "clarabel"])
def test_lps_on_the_cvxpy_path_are_certified_by_their_own_multipliers(monkeypatch, notion, solver):
    """Issue 31 (item 1): an LP notion is certified from the cvxpy solver's multipliers, no second LP solved
    (here any LP solve by the certificate fails the test), to GAP_RTOL, with a limit too: where a warm LP is
    registered by column generation's pricing bound at the row sums' (and the cap's) multipliers, and where the
    cvxpy constraints are the relaxation's rows (DP on a graph) by the relaxation's safe bound at theirs."""
    import mechdesign.certificate as certificate

    def no_lp(*args, **kwargs):
        raise AssertionError("the certificate solved an LP")

    monkeypatch.setattr(certificate, "solve_highs_lp", no_lp)
    monkeypatch.setattr(certificate, "solve_clarabel_lp", no_lp)
    objective = ExpectedDistortion(SKEWED, np.arange(16.0).reshape(4, 4) % 5)
    other = ExpectedDistortion(SKEWED, (np.arange(16.0).reshape(4, 4) * 7) % 3)
    for limits in ([], [(other, 0.9)]):
        result = design(notion, 0.6, objective, limits=limits, method="cvxpy", solver=solver)
        assert (result.method, result.status) == ("cvxpy", "optimal"), result.message
        assert result.gap <= GAP_RTOL * max(1.0, abs(result.objective))


@pytest.mark.parametrize("notion", LP_NOTIONS, ids=lambda n: n.label)
@pytest.mark.parametrize("epsilon", [0.0, 0.4, 2.0])
@given(seed=st.integers(0, 2**32 - 1))
def test_a_repaired_multiplier_bound_is_below_the_optimum_whatever_the_multipliers(notion, epsilon, seed):
    """Unknown (NaN) multipliers repaired at given row-sum multipliers (``multiplier_lower_bound``): still the safe
    bound, never above the optimum, at random multipliers, random unknown rows and random row-sum multipliers."""
    matrix = np.full((4, 4), 0.25)
    _, minorant, relaxation = _relaxation(notion, matrix, epsilon)
    rng = np.random.default_rng(seed)
    multipliers = rng.exponential(size=relaxation.rhs.size)
    multipliers[rng.random(multipliers.size) < 0.5] = np.nan
    bound = multiplier_lower_bound(minorant, relaxation, (4, 4), multipliers, rng.normal(size=4))
    assert bound <= _optimum(notion, epsilon) + ROUND_OFF


@pytest.mark.parametrize("notion", EPIGRAPH_NOTIONS, ids=lambda n: n.label)
@pytest.mark.parametrize("solver", ["highs", "clarabel"])
def test_epigraph_notions_on_the_cvxpy_path_are_certified_by_their_own_multipliers(monkeypatch, notion, solver):
    """Issue 31 (item 1): maximal information and PML over a set of priors (cvxpy's ``max`` hides the epigraph
    variable ``M_y`` of the relaxation's rows ``S[x, y] <= M_y``, so the solver gives no multipliers for those rows)
    are certified from the solver's multipliers of ``M_y <= e^ε P_k·S[:, y]`` and of the row sums, the hidden rows'
    repaired in numpy — no LP solved (any LP solve by the certificate fails the test), to GAP_RTOL, with a limit
    too."""
    import mechdesign.certificate as certificate

    def no_lp(*args, **kwargs):
        raise AssertionError("the certificate solved an LP")

    monkeypatch.setattr(certificate, "solve_highs_lp", no_lp)
    monkeypatch.setattr(certificate, "solve_clarabel_lp", no_lp)
    objective = ExpectedDistortion(SKEWED, np.arange(16.0).reshape(4, 4) % 5)
    other = ExpectedDistortion(SKEWED, (np.arange(16.0).reshape(4, 4) * 7) % 3)
    for epsilon in (0.3, 0.6):
        for limits in ([], [(other, 0.9)]):
            result = design(notion, epsilon, objective, limits=limits, method="cvxpy", solver=solver)
            assert (result.method, result.status) == ("cvxpy", "optimal"), result.message
            assert result.gap <= GAP_RTOL * max(1.0, abs(result.objective))


@pytest.mark.parametrize("solver", ["highs", "clarabel"])
@pytest.mark.parametrize("n", [4, 9])
def test_hockey_stick_on_the_cvxpy_path_is_certified_without_its_relaxation_lp(monkeypatch, solver, n):
    """Issue 31 (item 1): hockey-stick (ε, δ)-DP through cvxpy (``pos`` hides the hinges ``h`` of the rows
    ``S[a, y] − e^ε S[b, y] − h <= 0``) is certified from the solver's multipliers of ``Σ_y h <= δ``, the hinges'
    found by an LP over them alone (one row per entry) — the relaxation LP is never solved (its solve fails the
    test) — to GAP_RTOL, with a limit too."""
    import mechdesign.certificate as certificate

    def no_relaxation_lp(*args, **kwargs):
        raise AssertionError("the certificate solved the relaxation LP")

    monkeypatch.setattr(certificate, "relaxation_lower_bound", no_relaxation_lp)
    rng = np.random.default_rng(n)
    prior = Prior(rng.dirichlet(np.ones(n)))
    objective, other = ExpectedDistortion(prior, rng.random((n, n))), ExpectedDistortion(prior, rng.random((n, n)))
    notion = ApproximateDifferentialPrivacy(0.05, "hockey_stick")
    for limits in ([], [(other, 0.5)]):
        result = design(notion, 0.7, objective, limits=limits, method="cvxpy", solver=solver)
        assert (result.method, result.status) == ("cvxpy", "optimal"), result.message
        assert result.gap <= GAP_RTOL * max(1.0, abs(result.objective))


def test_the_relaxation_by_clarabel_stands_when_it_reaches_the_target_else_highs_runs(monkeypatch):
    """``interior_target``: Clarabel's bound is the answer when it reaches the target (HiGHS not run); a target
    above the optimum cannot be reached, so HiGHS runs and the larger bound is returned."""
    import mechdesign.certificate as certificate

    calls = []
    highs = certificate.solve_highs_lp
    monkeypatch.setattr(certificate, "solve_highs_lp", lambda *args: calls.append(1) or highs(*args))
    response = np.array([[0.75, 0.25], [0.25, 0.75]])
    minorant = ExpectedDistortion(Prior([0.5, 0.5])).minorant(response)
    relaxation = stack([minorant.relaxation, DifferentialPrivacy().relaxation([response], math.log(3))], 4)
    bound, minimizer = relaxation_lower_bound(minorant, relaxation, (2, 2), interior_target=0.25 - 1e-9)
    assert bound == pytest.approx(0.25, abs=1e-10) and not calls and np.allclose(minimizer, response, atol=1e-8)
    bound, _ = relaxation_lower_bound(minorant, relaxation, (2, 2), interior_target=0.3)
    assert bound == pytest.approx(0.25, abs=1e-12) and calls == [1]


def test_a_relaxation_highs_does_not_finish_in_time_is_bounded_at_clarabels_duals():
    """``time_limit`` bounds each HiGHS attempt (a cutting-plane round's relaxation once stalled HiGHS for minutes):
    with no time to spare HiGHS fails, and the bound is the one at Clarabel's duals (its minimizer returned), or
    without Clarabel that of the objective alone with no minimizer."""
    response = np.array([[0.75, 0.25], [0.25, 0.75]])
    minorant = ExpectedDistortion(Prior([0.5, 0.5])).minorant(response)
    relaxation = stack([minorant.relaxation, DifferentialPrivacy().relaxation([response], math.log(3))], 4)
    bound, minimizer = relaxation_lower_bound(minorant, relaxation, (2, 2), interior_target=0.3, time_limit=1e-12)
    assert bound == pytest.approx(0.25, abs=1e-9) and bound <= 0.25 + 1e-12
    assert np.allclose(minimizer, response, atol=1e-7)
    bound, minimizer = relaxation_lower_bound(minorant, relaxation, (2, 2), time_limit=1e-12)
    assert minimizer is None and bound == 0.0  # zero multipliers: the costs alone on the box


# --- issue 32 item 4: Rényi and Sibson certified by the polished KKT point (mechdesign/privacy/column_dual.py) ------

@pytest.mark.parametrize("m, n", [(2, 2), (3, 2)])
def test_global_framework_designs_are_certified_to_round_off_without_an_lp(monkeypatch, m, n):
    """Issue 32 item 4: PUT Theorem 7(5) (Rényi α = 2) on {1..m}^n at D = 0.2, at the budget of Q_D (the product
    of per-individual randomized responses, whose value is the optimum on Class I sets: docs/errata.md, PUT
    entry 10). The tangent-plane LP's bound stopped 1e-7 short of D (so bisection left ε*(D) 1.3e-7 to 1.1e-6
    off); the notion's own dual bound is D to round-off, and no LP is solved. The bound from the solver's multipliers
    (``multiplier_dual_bound``, tried first where cvxpy gives them) certifies it too, without an LP, 1e-11 to 2e-9
    below D; left out, the column dual at the polished KKT point is D to round-off."""
    import mechdesign.certificate as certificate
    from mechdesign.mechanisms.global_framework import hamming_distances, hamming_neighbours, product_mechanism

    def no_lp(*args, **kwargs):
        raise AssertionError("the certificate solved an LP")

    monkeypatch.setattr(certificate, "solve_highs_lp", no_lp)
    monkeypatch.setattr(certificate, "solve_clarabel_lp", no_lp)
    D = 0.2
    letter = np.full((m, m), D / n / (m - 1))
    np.fill_diagonal(letter, 1 - D / n)
    notion = RenyiDifferentialPrivacy(2.0, neighbours=hamming_neighbours(m, n))
    epsilon = notion.measure(product_mechanism(letter, n))
    objective = ExpectedDistortion(Prior.uniform(m**n), cost=hamming_distances(m, n))
    result = design(notion, epsilon, objective, solver="clarabel")
    assert result.status == "optimal", result.message
    assert D - GAP_RTOL * D <= result.bound <= D + 1e-12 and result.objective >= D - ROUND_OFF
    monkeypatch.setattr(RenyiDifferentialPrivacy, "multiplier_dual_bound", lambda self, *args: None)
    result = design(notion, epsilon, objective, solver="clarabel")
    assert result.status == "optimal", result.message
    assert result.bound == pytest.approx(D, abs=1e-12) and result.objective >= D - ROUND_OFF


def test_sibson_designs_are_certified_without_an_lp(monkeypatch):
    """Issue 32 item 4: Sibson's α-information (α = 2) under the uniform prior on {1, 2}^2, Hamming distance, at
    the budget of Q_D: Q_D is not optimal there (docs/errata.md, PUT entry 10: Theorem 7(6) is not sharp), but the
    design is certified by the notion's own dual, and its bound is below Q_D's distortion."""
    import mechdesign.certificate as certificate
    from mechdesign.mechanisms.global_framework import hamming_distances, product_mechanism

    monkeypatch.setattr(certificate, "solve_highs_lp", lambda *args, **kwargs: pytest.fail("an LP was solved"))
    D, prior = 0.2, Prior.uniform(4)
    notion = SibsonMutualInformation(2.0, prior)
    epsilon = notion.measure(product_mechanism([[0.9, 0.1], [0.1, 0.9]], 2))
    result = design(notion, epsilon, ExpectedDistortion(prior, cost=hamming_distances(2, 2)), solver="clarabel")
    assert result.status == "optimal", result.message
    assert result.bound < D - 1e-3


def test_a_pml_ball_design_is_certified_from_the_solvers_multipliers_without_a_relaxation_lp(monkeypatch):
    """Issue 31 (PML over an ℓ1-ball): the relaxation at the multipliers' priors, with the multipliers of its rows
    (``multiplier_relaxation``), certifies the cvxpy path's optimum by :func:`multiplier_lower_bound` alone: no
    relaxation LP is solved (before: two, 91 % of the solve at n = 60, and the design stayed "suboptimal")."""
    import mechdesign.certificate as certificate
    from mechdesign.priors import L1Ball

    def no_lp(*args, **kwargs):
        raise AssertionError("a relaxation LP was solved")

    monkeypatch.setattr(certificate, "relaxation_lower_bound", no_lp)
    rng = np.random.default_rng(4)
    prior = Prior(rng.dirichlet(np.ones(8)))
    result = design(PointwiseMaximalLeakage(L1Ball(prior.probabilities, 0.3)), 0.8, ExpectedDistortion(prior, rng.random((8, 8))))
    assert result.status == "optimal" and result.gap <= GAP_RTOL * max(1.0, abs(result.objective))
