"""Tests of mechdesign.registry: the capability table derived from the notion classes, and the solver-side map."""

import argparse
import dataclasses
import inspect

import cvxpy as cp
import numpy as np
import pytest

import mechdesign.curves
import mechdesign.privacy
from mechdesign import (
    DifferentialPrivacy,
    ExpectedDistortion,
    MaximalLeakage,
    Prior,
    RenyiDifferentialPrivacy,
    SourceSet,
    StatisticMaximalLeakage,
    UnionPrivacy,
)
from mechdesign import cli, privatizer
from mechdesign.curves import privacy_distortion
from mechdesign.methods.direct import WarmLinearProgram
from mechdesign.methods.closed_form import ClosedForm
from mechdesign.exceptions import MechDesignError
from mechdesign.parameter_spaces import ParameterSpace
from mechdesign.privacy import PointwiseMaximalLeakage
from mechdesign.privacy.base import PrivacyNotion
from mechdesign.registry import (
    NOTION_CLASSES,
    REGISTRY,
    SOLVER_PATHS,
    capabilities,
    cli_names,
    prior_notions,
    resolve,
    solver_capability,
)

from .strategies import NOTION_OPTIONS, every_notion

PRIOR = Prior([0.5, 0.3, 0.2])
#: Every notion class the package exports (concrete or not).
EXPORTED = [value for value in vars(mechdesign.privacy).values()
            if isinstance(value, type) and issubclass(value, PrivacyNotion)]


@pytest.mark.parametrize("notion", SOLVER_PATHS, ids=lambda notion: notion.__name__)
def test_every_import_path_resolves_to_the_right_kind(notion):
    paths = SOLVER_PATHS[notion]
    if "warm_lp" in paths:
        assert issubclass(resolve(paths["warm_lp"]), WarmLinearProgram)
    if "hamming_closed_form" in paths:
        assert isinstance(resolve(paths["hamming_closed_form"]), ClosedForm)
    if "column_cone" in paths:
        assert callable(resolve(paths["column_cone"]))
    if "pair_generation" in paths:
        assert callable(resolve(paths["pair_generation"]))


@pytest.mark.parametrize("notion", every_notion(PRIOR), ids=lambda notion: type(notion).__name__)
def test_the_leakage_flag_agrees_with_the_notion(notion):
    # privacy_distortion minimizes the leakage expression only when the class implements one.
    expression = notion.leakage_expression(cp.Variable((3, 3), nonneg=True))
    assert (expression is not None) == capabilities(notion).leakage_expression == type(notion).has_leakage_expression()


def test_the_leakage_flag_is_derived_so_the_sml_type_notions_have_one():
    """Issue 33: SML and summary statistic privacy implement a leakage expression but were not registered
    as having one, so privacy_distortion bisected for them."""
    assert capabilities(StatisticMaximalLeakage([0, 0, 1])).leakage_expression
    assert capabilities(UnionPrivacy).leakage_expression
    assert not capabilities(PointwiseMaximalLeakage).leakage_expression


@pytest.mark.parametrize("notion, limit, exact", [
    (StatisticMaximalLeakage([0, 0, 1, 1, 1]), 0.3, None),
    (UnionPrivacy(ParameterSpace.gaussian_1d([0.0, 1.0], [1.0, 2.0], [0.4, 0.4])), 0.3, 0.9),
])
def test_sml_type_privacy_distortion_is_direct_and_agrees_with_bisection(notion, limit, exact, monkeypatch):
    """Issue 33: the direct minimization now used for them gives the bisection's value (within its bracket
    and the relative reach slack, 1e-8 here) — and the exact one where it is known (union privacy: 0.9)."""
    n = notion.n_inputs
    prior = Prior(np.full(n, 1 / n)) if isinstance(notion, StatisticMaximalLeakage) else notion.space.prior
    objective = ExpectedDistortion(prior, 1 - np.eye(n))
    direct = privacy_distortion(notion, limit, objective)
    assert direct.success and direct.method == "direct"
    # The baseline: the table as it was, without their leakage expression.
    monkeypatch.setattr(mechdesign.curves, "capabilities",
                        lambda notion: dataclasses.replace(capabilities(notion), leakage_expression=False))
    bisection = privacy_distortion(notion, limit, objective)
    assert bisection.success and bisection.method == "bisection"
    assert direct.epsilon == pytest.approx(bisection.epsilon, abs=1e-8)
    if exact is not None:
        assert direct.epsilon == pytest.approx(exact, abs=1e-9)


def test_command_line_and_privatizer_names_come_from_the_classes():
    assert list(cli.NOTIONS) == list(cli_names()) == [cls.cli_name for cls in NOTION_CLASSES]
    assert len(set(cli_names())) == len(cli_names())
    assert [entry.notion for entry in REGISTRY] == list(NOTION_CLASSES)
    assert set(privatizer.NOTIONS) == set(prior_notions()) == {"dp", "pml", "maximal-leakage", "mutual-information"}
    for name, build in prior_notions().items():
        assert type(build(PRIOR)) is cli_names()[name]


def test_every_class_declaring_a_command_line_name_is_offered():
    """A notion class that declares its own ``cli_name`` is listed in NOTION_CLASSES (and no other is)."""
    declared = {cls for cls in EXPORTED if "cli_name" in vars(cls) and cls.cli_name is not None}
    assert declared == set(NOTION_CLASSES)


@pytest.mark.parametrize("cls", NOTION_CLASSES, ids=lambda cls: cls.__name__)
def test_every_command_line_notion_builds_from_its_parameters(cls):
    """``cli_parameters`` are the constructor's leading parameters (besides ``prior``, by name)."""
    notion = cls.from_command_line(NOTION_OPTIONS, PRIOR)
    assert type(notion) is cls and cli.NOTIONS[cls.cli_name](NOTION_OPTIONS, PRIOR).label == notion.label
    names = list(inspect.signature(cls).parameters)[:len(cls.cli_parameters)]
    assert [name for name, given in zip(names, cls.cli_parameters) if given != "prior"] == [
        given for given in cls.cli_parameters if given != "prior"]
    assert not cls.designed_from_prior or set(cls.cli_parameters) <= {"prior"}


@pytest.mark.parametrize("cls, options, prior, message", [
    (MaximalLeakage, None, None, None),
    (PointwiseMaximalLeakage, NOTION_OPTIONS, None, "notion 'pml' needs a prior: pass --prior"),
    (mechdesign.privacy.ApproximateDifferentialPrivacy, argparse.Namespace(delta=None, variant="pointwise"), PRIOR,
     "notion 'approx-dp' needs --delta"),
    (mechdesign.privacy.SibsonMutualInformation, argparse.Namespace(), PRIOR,
     r"notion 'sibson-mi' needs --alpha \(an order > 1\)"),
    (mechdesign.privacy.MetricDifferentialPrivacy, argparse.Namespace(), PRIOR,
     r"notion 'metric-dp' needs --points FILE \(a CSV of coordinates\) or --grid WxH"),
    (mechdesign.privacy.MetricDifferentialPrivacy, argparse.Namespace(location_grid="2x2"), PRIOR,
     "the prior has 3 entries but the metric 4 locations"),
])
def test_a_missing_command_line_parameter_is_named(cls, options, prior, message):
    if message is None:
        assert type(cls.from_command_line(options, prior)) is cls
    else:
        with pytest.raises(MechDesignError, match=message):
            cls.from_command_line(options, prior)


def test_only_notions_designed_from_a_prior_are_built_from_one():
    assert type(DifferentialPrivacy.from_prior(PRIOR)) is DifferentialPrivacy
    with pytest.raises(MechDesignError, match="RenyiDifferentialPrivacy is not built from a prior alone"):
        RenyiDifferentialPrivacy.from_prior(PRIOR)


def test_subclasses_inherit_definitions_but_not_solver_paths():
    class Custom(DifferentialPrivacy):
        pass

    assert capabilities(Custom()).composition == "same" and Custom.cli_name == "dp"
    assert capabilities(Custom).column_cone == capabilities(DifferentialPrivacy).column_cone is not None
    assert solver_capability(Custom(), "warm_lp") is None  # a subclass may change the constraints
    assert capabilities(Custom, exact=True).warm_lp is None
    assert solver_capability(DifferentialPrivacy(), "warm_lp") is resolve("mechdesign.methods.direct:LdpLinearProgram")
    assert capabilities(RenyiDifferentialPrivacy(2.0)).warm_lp is None
    assert solver_capability(type("CustomRenyi", (RenyiDifferentialPrivacy,), {})(2.0), "pair_generation") is None


def test_builders_decline_parameters_they_do_not_cover():
    robust = PointwiseMaximalLeakage(SourceSet([[0.5, 0.3, 0.2], [0.2, 0.3, 0.5]]))
    assert not solver_capability(robust, "warm_lp").applies_to(robust)
    partial = DifferentialPrivacy([(0, 1), (1, 2)], 3)
    assert not solver_capability(partial, "warm_lp").applies_to(partial)
    assert not solver_capability(partial, "hamming_closed_form").applies_to(partial)
    assert solver_capability(MaximalLeakage(), "hamming_closed_form").applies_to(MaximalLeakage())
