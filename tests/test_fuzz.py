"""Hostile-input fuzz of every public name of :mod:`mechdesign` (issue 15).

Each public function or constructor has a *valid call* on a tiny alphabet. Hypothesis replaces one
or two of its arguments by hostile values — wrong types, classes instead of instances, complex and
non-finite numbers, empty, ragged and oversized inputs, budgets beyond the float range of ``e^ε`` —
and the call must either raise a :class:`~mechdesign.exceptions.MechDesignError` subclass whose
message is not empty, or return a sane result (:func:`check_sane`: no NaN, a successful design
within its budgets). A raw ``TypeError``, ``OverflowError``, ``MemoryError``, … fails the test, and
so does numpy's ``ComplexWarning`` (an imaginary part dropped silently).

The default suite draws a few examples per name; ``-m slow`` draws many more.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mechdesign as md
from mechdesign.parameter_spaces import ParameterSpace
from mechdesign.utility import mutual_information_utility

#: Slack allowed between a successful design's re-measured privacy and its budget (nats); the
#: library's own certificate uses ``mechdesign.result.budget_tolerance`` (1e-6 relative), below this up to budget 1.
BUDGET_SLACK = 1e-6
#: Examples per public name in the default suite and under ``-m slow``.
DEFAULT_EXAMPLES, SLOW_EXAMPLES = 12, 150

P2 = [0.5, 0.5]
Q2 = [[0.75, 0.25], [0.25, 0.75]]
SPACE = ParameterSpace.gaussian_1d([0.0, 1.0], [1.0, 2.0], [0.2, 0.2])


class _Opaque:
    """An object of no type the library knows."""

    def __repr__(self) -> str:
        return "<opaque>"


#: Values a careless or hostile user passes: every argument of every public name gets these.
HOSTILE_VALUES: list[Any] = [
    None, True, False, "", "x", "0.5", b"1", 1 + 2j, np.complex128(0.5 + 0j),
    math.nan, math.inf, -math.inf, -1, 0, 2.5, -0.5, 1e308, 800.0, 10**12, -(10**12), 2**64,
    [], [[]], (), {}, {"a": 1}, set(), _Opaque(), object,
    md.DifferentialPrivacy, md.Prior, md.ExpectedDistortion, md.DifferentialPrivacy(),
    md.Prior([1.0]), md.Mechanism([[1.0]]), lambda *args: None, print,
    [math.nan, 1.0], [1 + 1j, 0.0], [1.0], [[1.0]], [0.5, 0.5, 0.5], [[0.5, 0.5], [1.0]],
    np.array([[0.75 + 1e-3j, 0.25], [0.25, 0.75]]), np.zeros((0, 2)), np.eye(3), np.ones(10**3),
    ["a", "b"], [None, None], [[0.5, 0.5]], [1.0, 0.0], [0.0, 1.0], [-0.5, 1.5],
]
#: Issue 30's values: integers beyond float range (M6), numpy booleans (L6), infinite budgets (L1), notion
#: classes where an instance or a neighbour relation goes (L5), an integer 0/1 adjacency matrix (L5).
ROUND_2_VALUES: list[Any] = [
    10**400, -(10**400), np.bool_(True), np.bool_(False), np.array(True), math.inf,
    md.MaximalLeakage, md.RenyiDifferentialPrivacy, np.array([[0, 1], [1, 0]]),
]
HOSTILE_VALUES += ROUND_2_VALUES

hostile = st.one_of(
    st.sampled_from(HOSTILE_VALUES),
    st.floats(allow_nan=True, allow_infinity=True),
    st.lists(st.floats(allow_nan=True, allow_infinity=True), max_size=3),
)


@dataclass(frozen=True)
class Call:
    """A valid call of a public name: ``function(*args, **kwargs)``."""

    function: Callable[..., Any]
    args: tuple[Any, ...]
    kwargs: dict[str, Any] = field(default_factory=dict)

    @property
    def slots(self) -> list[int | str]:
        """The replaceable arguments: positions and keyword names."""
        return [*range(len(self.args)), *self.kwargs]

    def with_values(self, replacements: dict[int | str, Any]) -> tuple[tuple[Any, ...], dict[str, Any]]:
        args = tuple(replacements.get(i, a) for i, a in enumerate(self.args))
        kwargs = {k: replacements.get(k, v) for k, v in self.kwargs.items()}
        return args, kwargs


def _secret() -> md.Secret:
    return md.Secret([0, 0, 1])


def _prior_objective() -> md.ExpectedDistortion:
    return md.ExpectedDistortion(P2)


def _privatize(notion: Any, budget: Any, categories: Any, data: Any) -> Any:
    """Fit a privatizer on ``data``, release it and estimate its frequencies (the deployment path)."""
    privatizer = md.Privatizer(notion, budget, categories=categories).fit(data)
    return privatizer.estimate_frequencies(privatizer.transform(data)).estimate


#: One valid call per public function or constructor (tiny alphabets: every call is fast).
CALLS: dict[str, Call] = {
    "ApproximateDifferentialPrivacy": Call(md.ApproximateDifferentialPrivacy, (0.1,), {"variant": "hockey_stick"}),
    "ColumnUtility": Call(md.ColumnUtility, (lambda columns: columns.sum(axis=0), 2), {"label": "sum"}),
    "DesignProblem": Call(md.DesignProblem, (md.DifferentialPrivacy(), _prior_objective()),
                          {"solver": None, "solver_options": None}),
    "DifferentialPrivacy": Call(md.DifferentialPrivacy, ([(0, 1)],), {"n_inputs": 2}),
    "ExpectedDistortion": Call(md.ExpectedDistortion, (P2, [[0.0, 1.0], [1.0, 0.0]])),
    "GroupPrivacy": Call(md.GroupPrivacy, (SPACE, [[0], [1]])),
    "IntersectionPrivacy": Call(md.IntersectionPrivacy, (SPACE,)),
    "L1Ball": Call(md.L1Ball, (P2, 0.1)),
    "LpNormPrivacy": Call(md.LpNormPrivacy, (SPACE, 2.0, 0.2)),
    "MaximalInformation": Call(md.MaximalInformation, (P2,)),
    "MaximalLeakage": Call(md.MaximalLeakage, ()),
    "Mechanism": Call(md.Mechanism, (Q2,)),
    "MetricDifferentialPrivacy": Call(md.MetricDifferentialPrivacy, ([[0.0, 1.0], [1.0, 0.0]],),
                                      {"unit": "km", "points": None, "edges": None}),
    "MutualInformation": Call(md.MutualInformation, (P2,), {"n_outputs": 2}),
    "MutualInformationPrivacy": Call(md.MutualInformationPrivacy, (P2,)),
    "Neighbours": Call(md.Neighbours, ([(0, 1)],), {"n_inputs": 2}),
    "ParameterSpace": Call(md.ParameterSpace, ([0.0, 1.0, 2.0], lambda points: points, [0.5],
                                               lambda a, b: np.abs(a[:, None, 0] - b[None, :, 0])),
                           {"prior": None, "outputs": None, "secret_names": ["mean"]}),
    "PointwiseMaximalLeakage": Call(md.PointwiseMaximalLeakage, (P2,)),
    "Prior": Call(md.Prior, (P2,)),
    "Privatizer": Call(_privatize, ("dp", 1.0, ["a", "b"], ["a", "b", "b", "a", "b"])),
    "RenyiDifferentialPrivacy": Call(md.RenyiDifferentialPrivacy, (2.0,), {"n_inputs": None}),
    "Secret": Call(md.Secret, ([0, 0, 1],)),
    "SibsonMutualInformation": Call(md.SibsonMutualInformation, (2.0, P2)),
    "SourceSet": Call(md.SourceSet, ([[0.5, 0.5], [1.0, 0.0]],)),
    "StatisticMaximalLeakage": Call(md.StatisticMaximalLeakage, (_secret(),), {"method": "auto"}),
    "SupportDistortion": Call(md.SupportDistortion, (SPACE,)),
    "UnionPrivacy": Call(md.UnionPrivacy, (SPACE,)),
    "WorstCaseDistortion": Call(md.WorstCaseDistortion, (md.SourceSet.simplex(2),), {"cost": None}),
    "WorstCaseInputDistortion": Call(md.WorstCaseInputDistortion, ([[0.0, 1.0], [1.0, 0.0]],)),
    "binary_robust_pml_mechanism": Call(md.binary_robust_pml_mechanism, ([0.6, 0.4], 0.1, 0.3)),
    "classify_source_set": Call(md.classify_source_set, (md.SourceSet.simplex(2),)),
    "design": Call(md.design, (md.DifferentialPrivacy(), 1.0, _prior_objective()),
                   {"limits": (), "solver": None, "solver_options": None}),
    "design_from_samples": Call(md.design_from_samples, ([0, 1, 1, 0, 1], 2, 1.0, 0.1),
                                {"objective": None, "robust": False, "solver": None}),
    "design_under_sml": Call(md.design_under_sml, (_secret(), 0.5, md.WorstCaseInputDistortion([[0, 1, 1], [1, 0, 1], [1, 1, 0]])),
                             {"strategy": "auto", "max_rounds": 5, "solver": None, "time_limit": None}),
    "design_worst_case_distortion": Call(md.design_worst_case_distortion, (md.UnionPrivacy(SPACE), 0.9),
                                         {"solver": "highs"}),
    "distortion_privacy": Call(md.distortion_privacy, (md.DifferentialPrivacy(), 1.0, _prior_objective()),
                               {"solver": None, "solver_options": None}),
    "empirical_estimate": Call(md.empirical_estimate, ([0, 1, 1], 2)),
    "hamming_cost": Call(md.hamming_cost, (2,), {"n_outputs": 3}),
    "k_singular_mechanism": Call(md.k_singular_mechanism, (3, 2)),
    "maximize_mutual_information": Call(md.maximize_mutual_information, (md.DifferentialPrivacy(), 1.0, P2)),
    "maximize_sublinear_utility": Call(md.maximize_sublinear_utility,
                                       (md.MaximalLeakage(), 0.5, mutual_information_utility(P2))),
    "measure_sml": Call(md.measure_sml, ([[1, 0], [0, 1], [0, 1]], [0, 0, 1]),
                        {"method": "auto", "time_limit": None, "progress": None}),
    "mutual_information": Call(md.mutual_information, (P2, Q2)),
    "privacy_distortion": Call(md.privacy_distortion, (md.MaximalLeakage(), 0.3, _prior_objective()),
                               {"tolerance": 1e-6, "max_budget": 5.0, "solver": None}),
    "privacy_distortion_curve": Call(md.privacy_distortion_curve, (md.MaximalLeakage(), _prior_objective(), [0.3]),
                                     {"tolerance": 1e-6, "max_budget": 5.0}),
    "randomized_response": Call(md.randomized_response, (3, 1.0)),
    "rate_distortion_at": Call(md.rate_distortion_at, (P2, 0.2), {"cost": None, "tolerance": 1e-6}),
    "rate_distortion_curve": Call(md.rate_distortion_curve, (P2, [1.0]), {"cost": None}),
    "theta_star": Call(md.theta_star, (md.SourceSet.simplex(2),)),
    "trace_curve": Call(md.trace_curve, (md.DifferentialPrivacy(), _prior_objective(), [0.5, 1.0]),
                        {"solver": None, "solver_options": None, "executor": None}),
    "uniform_mechanism": Call(md.uniform_mechanism, (2,), {"n_outputs": 3}),
    "FrequencyOracle": Call(md.RandomizedResponse, (3, 1.0)),
    "HadamardResponse": Call(md.HadamardResponse, (5, 1.0, 4)),
    "OptimizedLocalHashing": Call(md.OptimizedLocalHashing, (5, 1.0, 3)),
    "OptimizedUnaryEncoding": Call(md.OptimizedUnaryEncoding, (4, 1.0)),
    "RandomizedResponse": Call(md.RandomizedResponse, (3, 1.0)),
    "ReportBudget": Call(md.ReportBudget, (1000, 1e6), {"decode_operations": 1e6, "report_bits": 64.0}),
    "SubsetSelection": Call(md.SubsetSelection, (5, 1.0, 2)),
    "estimate_frequencies": Call(md.estimate_frequencies, ([0, 1, 1, 2], md.randomized_response(3, 1.0)),
                                 {"categories": ["a", "b", "c"]}),
    "maximum_likelihood": Call(md.maximum_likelihood, ([1, 2, 1], md.randomized_response(3, 1.0)),
                               {"categories": None, "tolerance": 1e-9, "max_iterations": 1000}),
    "worst_case_tradeoff": Call(md.worst_case_tradeoff, (md.UnionPrivacy(SPACE),), {"thresholds": [0.5]}),
}

#: Public names not fuzzed, each with the reason.
NOT_CALLED: dict[str, str] = {
    **{name: "an exception class: any message is valid" for name in md.__all__ if name.endswith("Error")},
    "Curve": "a record built by trace_curve and privacy_distortion_curve, not from user input",
    "EmpiricalDesign": "a record built by design_from_samples, not from user input",
    "PrivacyDistortion": "a record built by privacy_distortion, not from user input",
    "Result": "a record built by the design functions, not from user input",
    "ThetaStar": "a record built by theta_star, not from user input",
    "Objective": "an abstract base class (no constructor arguments)",
    "PrivacyNotion": "an abstract base class (no constructor arguments)",
    "__version__": "a string, not a callable",
}


def test_every_public_name_is_fuzzed_or_excused():
    """Nothing public escapes the fuzz silently: each name is called, or excused with a reason."""
    assert set(CALLS) | set(NOT_CALLED) == set(md.__all__)
    assert not set(CALLS) & set(NOT_CALLED)


@pytest.mark.parametrize("name", sorted(CALLS))
def test_valid_calls_succeed(name):
    """The reference calls themselves are valid, so a hostile replacement is what any error is about."""
    call = CALLS[name]
    check_sane(call.function(*call.args, **call.kwargs), name)


def check_sane(value: Any, where: str) -> None:
    """A returned value is sane: no NaN anywhere, and a successful design respects its budgets."""
    if isinstance(value, float):
        assert not math.isnan(value), f"{where} returned NaN"
    elif isinstance(value, np.ndarray) and value.dtype.kind == "f":
        assert not np.isnan(value).any(), f"{where} returned an array with NaN"
    elif isinstance(value, md.Result):
        if value.success:
            assert value.mechanism is not None, f"{where}: success without a mechanism"
            for label, budget in value.budgets.items():
                assert value.measured[label] <= budget + BUDGET_SLACK, f"{where}: {label} over budget"
        if value.objective is not None:
            check_sane(float(value.objective), where)
    elif isinstance(value, (list, tuple)):
        for item in value:
            check_sane(item, where)


def call_hostile(call: Call, replacements: dict[int | str, Any], where: str) -> None:
    """Call with the replacements: a named error, or a sane result; anything else fails."""
    args, kwargs = call.with_values(replacements)
    with warnings.catch_warnings():
        warnings.simplefilter("error", np.exceptions.ComplexWarning)
        try:
            result = call.function(*args, **kwargs)
        except md.MechDesignError as exc:
            assert str(exc), f"{where}: {type(exc).__name__} with an empty message"
            return
        except Exception as exc:  # the failure this fuzz exists to find
            pytest.fail(f"{where} raised {type(exc).__name__}: {exc}")
    check_sane(result, where)


def _fuzz(name: str, data: st.DataObject) -> None:
    call = CALLS[name]
    if not call.slots:
        call_hostile(call, {}, name)
        return
    slots = data.draw(st.lists(st.sampled_from(call.slots), min_size=1, max_size=2, unique=True), label="slots")
    replacements = {slot: data.draw(hostile, label=f"argument {slot}") for slot in slots}
    call_hostile(call, replacements, f"{name} with {replacements!r}")


FUZZED = sorted(CALLS)


@pytest.mark.parametrize("name", FUZZED)
@settings(max_examples=DEFAULT_EXAMPLES)
@given(data=st.data())
def test_hostile_arguments_get_a_named_error_or_a_sane_result(name, data):
    _fuzz(name, data)


@pytest.mark.slow
@pytest.mark.parametrize("name", FUZZED)
@settings(max_examples=SLOW_EXAMPLES)
@given(data=st.data())
def test_hostile_arguments_many_examples(name, data):
    _fuzz(name, data)


#: The public names issue 30 found raising raw errors on ROUND_2_VALUES; every one of their arguments
#: gets every such value in the default suite (the other names draw them with the rest, and all of them
#: get them under ``-m slow``).
ROUND_2_NAMES = ["design", "DifferentialPrivacy", "Neighbours", "RenyiDifferentialPrivacy", "randomized_response",
                 "rate_distortion_at", "maximize_mutual_information", "design_under_sml", "DesignProblem"]


def _round_2_cases(names: list[str]) -> list[Any]:
    return [pytest.param(name, slot, value, id=f"{name}-{slot}-{index}")
            for name in names for slot in CALLS[name].slots for index, value in enumerate(ROUND_2_VALUES)]


@pytest.mark.parametrize("name, slot, value", _round_2_cases(ROUND_2_NAMES))
def test_round_2_values_get_a_named_error_or_a_sane_result(name, slot, value):
    """M6, L1, L5, L6: ``10**400`` raised OverflowError, ``np.bool_(True)`` was a budget of 1, an infinite
    budget was refused where its limit exists, a class or an integer adjacency matrix was misnamed."""
    call_hostile(CALLS[name], {slot: value}, f"{name} with {slot}={value!r}")


@pytest.mark.slow
@pytest.mark.parametrize("name, slot, value", _round_2_cases(sorted(set(CALLS) - set(ROUND_2_NAMES))))
def test_round_2_values_everywhere(name, slot, value):
    call_hostile(CALLS[name], {slot: value}, f"{name} with {slot}={value!r}")
