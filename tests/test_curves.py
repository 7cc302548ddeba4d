"""Tests of mechdesign.curves: trace_curve and Curve, and the privacy–distortion functions
(PUT paper, Definition 4)."""

import csv
import math

import numpy as np
import pytest

from mechdesign import (
    ApproximateDifferentialPrivacy,
    DifferentialPrivacy,
    ExpectedDistortion,
    MaximalInformation,
    MaximalLeakage,
    MutualInformationPrivacy,
    Prior,
    RenyiDifferentialPrivacy,
    SibsonMutualInformation,
    SourceSet,
    WorstCaseDistortion,
    design,
    trace_curve,
)
from mechdesign.curves import (
    PrivacyDistortion,
    distortion_privacy,
    privacy_distortion,
    privacy_distortion_curve,
)
from mechdesign.exceptions import InvalidBudgetError, MechDesignError
from mechdesign.theory import put

BUDGETS = np.linspace(0, 2, 9)


def test_curve_matches_single_designs_and_closed_form():
    prior = Prior([0.4, 0.3, 0.2, 0.1])
    curve = trace_curve(DifferentialPrivacy(), ExpectedDistortion(prior), BUDGETS)
    assert curve.success and curve.label == "dp" and curve.x_name == "epsilon"
    for eps, value in zip(BUDGETS, curve.y):
        assert value == pytest.approx(design(DifferentialPrivacy(), eps, ExpectedDistortion(prior)).objective, abs=1e-9)
    uniform = trace_curve(MaximalLeakage(), ExpectedDistortion(Prior.uniform(3)), BUDGETS)
    assert np.allclose(uniform.y, [put.prop8_maximal_leakage_distortion(3, e) for e in BUDGETS], atol=1e-8)


def test_curve_is_non_increasing():
    curve = trace_curve(DifferentialPrivacy(), ExpectedDistortion(Prior([0.5, 0.3, 0.2])), BUDGETS)
    assert (np.diff(curve.y) <= 1e-9).all()


def test_csv_and_plot(tmp_path):
    import matplotlib

    matplotlib.use("Agg")
    curve = trace_curve(MaximalLeakage(), ExpectedDistortion(Prior.uniform(3)), [0.0, 1.0])
    path = curve.to_csv(tmp_path / "curve.csv")
    rows = list(csv.DictReader(path.open()))
    assert len(rows) == 2 and float(rows[1]["expected_distortion"]) == pytest.approx(1 - np.e / 3, abs=1e-8)
    ax = curve.plot()
    assert ax.get_xlabel() == "epsilon" and len(ax.lines) == 1


def test_bad_budget():
    with pytest.raises(InvalidBudgetError):
        trace_curve(DifferentialPrivacy(), ExpectedDistortion(Prior.uniform(2)), [0.5, -1])


#: Agreement of parallel and serial optima. Values agree to round-off, not bit for bit: cvxpy
#: warm-starts HiGHS from the previous budget, so a chunk's first solve starts cold; where the LP has
#: several optimal vertices the mechanisms may differ (checked: a cold solve of the same point gives
#: the parallel run's vertex exactly).
PARALLEL_AGREEMENT_ATOL = 1e-12


def _same_curve(parallel, serial):
    """Same abscissae, statuses and optima; every point certified in both runs."""
    assert np.array_equal(parallel.x, serial.x)
    assert np.allclose(parallel.y, serial.y, rtol=0, atol=PARALLEL_AGREEMENT_ATOL)
    for a, b in zip(parallel.results, serial.results):
        assert a.status == b.status and a.success and b.success and a.certified and b.certified


def test_parallel_curve_with_process_pool_equals_serial():
    from concurrent.futures import ProcessPoolExecutor

    from mechdesign import PointwiseMaximalLeakage

    prior = Prior([0.4, 0.3, 0.2, 0.1])
    budgets = np.linspace(0.1, 2.0, 7)
    with ProcessPoolExecutor(2) as pool:
        for notion in (DifferentialPrivacy(), PointwiseMaximalLeakage(prior)):
            serial = trace_curve(notion, ExpectedDistortion(prior), budgets)
            _same_curve(trace_curve(notion, ExpectedDistortion(prior), budgets, executor=pool), serial)
            _same_curve(trace_curve(notion, ExpectedDistortion(prior), budgets, executor=pool, chunks=5), serial)


def test_parallel_curve_on_a_local_dask_cluster_equals_serial():
    from distributed import Client

    prior = Prior([0.4, 0.3, 0.2, 0.1])
    budgets = np.linspace(0.0, 2.0, 6)
    serial = trace_curve(MaximalLeakage(), ExpectedDistortion(prior), budgets)
    with Client(processes=True, n_workers=2, threads_per_worker=1, dashboard_address=None) as client:
        parallel = trace_curve(MaximalLeakage(), ExpectedDistortion(prior), budgets, executor=client.get_executor())
    _same_curve(parallel, serial)


def test_parallel_curve_rejects_a_bad_chunk_count():
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as pool, pytest.raises(MechDesignError, match="chunks"):
        trace_curve(DifferentialPrivacy(), ExpectedDistortion(Prior.uniform(3)), [1.0], executor=pool, chunks=0)


# --- privacy–distortion functions ε*(D) (PUT paper, Definition 4) ---------------------------------------

#: Agreement required with the closed forms of PUT Proposition 8 (nats).
CLOSED_FORM_ATOL = 1e-6
#: Agreement required between ε*(D*(ε)) and ε (nats).
INVERSE_ATOL = 1e-6
DISTORTIONS = [0.1, 0.3, 0.5, 0.7, 0.8]


def prop8_epsilon_mi(m: int, D: float) -> float:
    """PUT Proposition 8(7): ``log m(1−D) (D/((m−1)(1−D)))^D`` below (m−1)/m, else 0 (computed here)."""
    if D >= (m - 1) / m:
        return 0.0
    return math.log(m * (1 - D)) + D * math.log(D / ((m - 1) * (1 - D)))


@pytest.mark.parametrize("m", [2, 4])
@pytest.mark.parametrize("notion, closed_form, method", [
    (DifferentialPrivacy(), put.prop8_dp_privacy, "bisection"),  # Prop. 8(1): log((m−1)(1−D)/D)
    (MaximalLeakage(), put.prop8_maximal_leakage_privacy, "direct"),  # Prop. 8(4): log(m(1−D)), Σ_y max_x Q minimized
], ids=["dp-prop8.1", "ml-prop8.4"])
def test_uniform_prior_matches_proposition_8(m, notion, closed_form, method):
    """PUT Prop. 8(1) and 8(4); DP has no leakage expression (bisection), maximal leakage has one."""
    prior = Prior.uniform(m)
    for D in DISTORTIONS:
        value = privacy_distortion(notion, D, ExpectedDistortion(prior))
        assert value.success and value.method == method, value.message
        assert value.epsilon == pytest.approx(closed_form(m, D), abs=CLOSED_FORM_ATOL)
        lower, upper = value.bracket
        assert upper - lower <= 1e-9 and upper == value.epsilon
        assert value.certificate.objective <= D + 1e-7 and value.mechanism is value.certificate.mechanism


def test_mutual_information_with_no_prior_knowledge_matches_proposition_8_7():
    """PUT Prop. 8(7) for the whole simplex (class I): worst-case MI (capacity) and worst-case distortion."""
    simplex = SourceSet.simplex(3)
    for D in [0.2, 0.5]:
        value = privacy_distortion(MutualInformationPrivacy(simplex), D, WorstCaseDistortion(simplex))
        assert value.success and value.method == "direct", value.message
        assert value.epsilon == pytest.approx(prop8_epsilon_mi(3, D), abs=CLOSED_FORM_ATOL)


def test_dp_source_set_of_class_one_equals_uniform():
    """PUT Prop. 8(1) holds for any class-I set, e.g. conv{P, uniform}, with worst-case distortion."""
    source_set = SourceSet([[0.6, 0.2, 0.2], Prior.uniform(3)])
    value = privacy_distortion(DifferentialPrivacy(), 0.3, WorstCaseDistortion(source_set))
    assert value.epsilon == pytest.approx(put.prop8_dp_privacy(3, 0.3), abs=CLOSED_FORM_ATOL)


@pytest.mark.parametrize("notion", [
    DifferentialPrivacy(),
    ApproximateDifferentialPrivacy(0.05),
    MaximalInformation([0.4, 0.3, 0.2, 0.1]),
    MaximalLeakage(),
    MutualInformationPrivacy([0.4, 0.3, 0.2, 0.1]),
    RenyiDifferentialPrivacy(2.0),
    SibsonMutualInformation(3.0, [0.4, 0.3, 0.2, 0.1]),
], ids=lambda n: n.label)
def test_inverse_consistency(notion):
    """ε*(D*(ε)) = ε where D* is strictly decreasing (PUT Definition 4, eqs. (2) and (3))."""
    objective = ExpectedDistortion(Prior([0.4, 0.3, 0.2, 0.1]))
    for epsilon in [0.4, 0.9]:  # inside the range where every D*(ε) here strictly decreases
        least = distortion_privacy(notion, epsilon, objective)
        assert least.success, least.message
        value = privacy_distortion(notion, least.objective, objective)
        assert value.success, value.message
        assert value.epsilon == pytest.approx(epsilon, abs=INVERSE_ATOL)


def test_bisection_searches_on_through_undecided_budgets(monkeypatch):
    """A budget whose least distortion is within its certified gap of D (undecided) does not stop the
    bisection: the search goes on above it for the least budget reached, while the bracket's lower end
    stays at the largest budget certified not to reach D. (PUT Thm 7(5), Rényi α = 2 on {1,2,3}^3 at
    D = 0.2, stopped 2.2e-6 above the paper's upper bound when bisection ended at the first undecided
    budget.)"""
    reached_from, undecided_from = 0.9, 0.8  # scripted D*(ε) <= D: no below 0.8, undecided up to 0.9

    def scripted(self, budget, limit):
        return True if budget >= reached_from else (None if budget >= undecided_from else False)

    monkeypatch.setattr("mechdesign.curves._PrivacyDistortionSolver._reaches", scripted)
    value = privacy_distortion(DifferentialPrivacy(), 0.3, ExpectedDistortion(Prior.uniform(2)), tolerance=1e-9)
    lower, upper = value.bracket
    assert value.success and value.method == "bisection"
    assert value.epsilon == upper and reached_from <= upper <= reached_from + 1e-9
    assert lower < undecided_from  # only a certified "not reached" moves it: [0.75, 0.9] after bisection
    assert "undecided" in value.message


def test_zero_budget_regime_and_unreachable_distortions():
    prior = Prior.uniform(3)
    zero = privacy_distortion(DifferentialPrivacy(), 0.7, ExpectedDistortion(prior))
    assert zero.success and zero.epsilon == 0.0 and zero.bracket == (0.0, 0.0)
    below = privacy_distortion(MaximalLeakage(), -0.1, ExpectedDistortion(prior))
    assert not below.success and below.epsilon is None and below.smallest_distortion == pytest.approx(0.0, abs=1e-12)
    assert "below the least distortion" in below.message
    # D = 0 needs the identity, whose DP is infinite: not reached within max_budget.
    exact = privacy_distortion(DifferentialPrivacy(), 0.0, ExpectedDistortion(prior), max_budget=8.0)
    assert not exact.success and "not reached within budget 8" in exact.message
    assert exact.smallest_distortion == pytest.approx(put.prop8_dp_distortion(3, 8.0), abs=1e-7)
    # Sibson's feasible set at ε = 0 has no interior: the certificate falls back to bisection.
    sibson = privacy_distortion(SibsonMutualInformation(2.0, prior), 0.8, ExpectedDistortion(prior))
    assert sibson.success and sibson.epsilon <= 1e-8


def test_bad_arguments():
    objective = ExpectedDistortion(Prior.uniform(2))
    with pytest.raises(MechDesignError, match="distortion must be finite"):
        privacy_distortion(DifferentialPrivacy(), math.inf, objective)
    with pytest.raises(InvalidBudgetError, match="tolerance must be positive"):
        privacy_distortion(DifferentialPrivacy(), 0.2, objective, tolerance=0.0)
    with pytest.raises(InvalidBudgetError, match="tolerance must be a finite number >= 0"):
        privacy_distortion(DifferentialPrivacy(), 0.2, objective, tolerance=-1.0)
    with pytest.raises(InvalidBudgetError, match="max_budget"):
        privacy_distortion(DifferentialPrivacy(), 0.2, objective, max_budget=-1.0)
    with pytest.raises(InvalidBudgetError):
        distortion_privacy(DifferentialPrivacy(), -0.5, objective)
    with pytest.raises(MechDesignError, match=r"distortions\[1\] must be finite, got inf"):
        privacy_distortion_curve(DifferentialPrivacy(), objective, [0.2, math.inf])
    with pytest.raises(MechDesignError, match="tolerance"):
        privacy_distortion_curve(DifferentialPrivacy(), objective, [0.2], tolerance=0.0)


def test_privacy_distortion_curve(tmp_path):
    prior = Prior.uniform(3)
    curve = privacy_distortion_curve(DifferentialPrivacy(), ExpectedDistortion(prior), [-0.1, 0.2, 0.4, 0.8])
    assert curve.x_name == "expected_distortion" and curve.y_name == "epsilon" and curve.label == "dp"
    assert math.isnan(curve.y[0]) and not curve.results[0].success
    assert curve.results[0].smallest_feasible == pytest.approx(0.0, abs=1e-12)
    expected = [put.prop8_dp_privacy(3, D) for D in [0.2, 0.4, 0.8]]
    assert np.allclose(curve.y[1:], expected, atol=CLOSED_FORM_ATOL)
    assert isinstance(privacy_distortion(MaximalLeakage(), 0.2, ExpectedDistortion(prior)), PrivacyDistortion)
    rows = list(csv.DictReader(curve.to_csv(tmp_path / "curve.csv").open()))  # first point failed
    assert rows[0]["success"] == "False" and rows[0]["measured[dp]"] == "" and rows[1]["measured[dp]"] != ""


def test_privacy_distortion_curve_point_not_reached_is_the_certification_tails_failure(monkeypatch):
    """Issue 33: the point whose D is not reached is built by methods/certified.py's failure_result (the only
    construction site of a Result without a mechanism), with the fields the curve built by hand before: no
    mechanism, no objective, "infeasible", the message and the least distortion reached; and a solve time."""
    import mechdesign.curves as curves_module
    from mechdesign.methods import certified

    made = []
    monkeypatch.setattr(curves_module, "failure_result",
                        lambda *args, **kwargs: made.append(args) or certified.failure_result(*args, **kwargs))
    prior = Prior.uniform(3)
    point = privacy_distortion_curve(DifferentialPrivacy(), ExpectedDistortion(prior), [-0.1]).results[0]
    reached = privacy_distortion(DifferentialPrivacy(), -0.1, ExpectedDistortion(prior))
    assert len(made) == 1
    assert (point.mechanism, point.objective, point.status, point.success) == (None, None, "infeasible", False)
    assert point.message == reached.message and "below the least distortion" in point.message
    assert point.smallest_feasible == reached.smallest_distortion == pytest.approx(0.0, abs=1e-12)
    assert (point.measured, point.budgets, point.bound, point.gap, point.method) == ({}, {}, None, None, "")
    assert 0.0 < point.solve_time < 60.0


def test_curve_points_are_validated_once_and_measured_once(monkeypatch):
    """Issue 31 (item 3): a curve's points do per-point work only for what changes — each budget validated once for
    the whole curve (not again by DesignProblem.solve), each point's mechanism measured once (its check against
    the budget and its Result share the measure; before, twice), the design certified "optimal" at every point."""
    import mechdesign.problem as problem_module

    validated = []
    original = problem_module.as_budget
    monkeypatch.setattr(problem_module, "as_budget", lambda *args, **kwargs: validated.append(1) or original(*args, **kwargs))
    measured = []
    measure = DifferentialPrivacy._measure
    monkeypatch.setattr(DifferentialPrivacy, "_measure", lambda self, matrix: measured.append(1) or measure(self, matrix))
    rng = np.random.default_rng(0)
    objective = ExpectedDistortion(Prior(rng.dirichlet(np.ones(6))), rng.random((6, 6)))
    budgets = np.linspace(0.1, 3.0, 12)
    curve = trace_curve(DifferentialPrivacy(), objective, budgets, method="direct-lp")
    assert curve.optimal and not validated
    # One measure per point, plus the unconstrained optimum's and its mix's (once per problem).
    assert len(measured) == budgets.size + 2
    monkeypatch.setattr(DifferentialPrivacy, "_measure", measure)
    assert np.allclose(curve.y, [design(DifferentialPrivacy(), b, objective, method="direct-lp").objective
                                 for b in budgets], rtol=0, atol=1e-9)


def test_bisection_defaults_are_in_the_notions_budget_unit():
    """Metric DP's budget is per unit of distance: the default reach (MAX_BUDGET) and bracket
    (PRIVACY_DISTORTION_TOLERANCE) are nats at the nearest pair, so the same points in hundredths give ε* × 100
    (it was 'not reached within budget 20': the reach was 20 per unit whatever the unit)."""
    from mechdesign import MetricDifferentialPrivacy
    from mechdesign.curves import MAX_BUDGET, PRIVACY_DISTORTION_TOLERANCE
    epsilons = {}
    for scale in (1.0, 0.01):
        notion = MetricDifferentialPrivacy.from_points(np.arange(4.0) * scale)
        assert notion.nats_per_budget_unit() == pytest.approx(scale, rel=1e-15)
        objective = ExpectedDistortion(Prior([0.4, 0.3, 0.2, 0.1]), notion.distances / scale)
        value = privacy_distortion(notion, 0.3, objective)
        assert value.success, value.message
        lower, upper = value.bracket
        assert upper - lower <= PRIVACY_DISTORTION_TOLERANCE / scale
        epsilons[scale] = value.epsilon
    assert epsilons[0.01] > MAX_BUDGET  # beyond the old reach (20 per unit of distance) in hundredths
    assert epsilons[0.01] == pytest.approx(100 * epsilons[1.0], rel=1e-7)


def test_a_direct_point_that_is_no_mechanism_falls_back_to_bisection(monkeypatch):
    """The direct method's conic point is re-measured; a point with a row of no positive mass (clean_mechanism
    raises) is treated as not solved and ε* is bisected — PUT Prop. 8(4): ε*(D) = log(4 (1 − D))."""
    import mechdesign.curves as curves
    from mechdesign.exceptions import InvalidMechanismError

    def no_mechanism(matrix):
        raise InvalidMechanismError("the solver's point is no mechanism: row 0 has no positive mass (sum 0)")

    monkeypatch.setattr(curves, "clean_mechanism", no_mechanism)
    value = privacy_distortion(MaximalLeakage(), 0.5, ExpectedDistortion(Prior.uniform(4)))
    assert value.success and value.method == "bisection"
    assert value.epsilon == pytest.approx(math.log(2), abs=2e-9)
