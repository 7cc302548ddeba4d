"""Tests of mechdesign.registry: the capability table every dispatcher reads."""

import cvxpy as cp
import pytest

from mechdesign import (
    DifferentialPrivacy,
    MaximalLeakage,
    Prior,
    RenyiDifferentialPrivacy,
    SourceSet,
)
from mechdesign import cli, privatizer
from mechdesign.direct import WarmLinearProgram
from mechdesign.designers.closed_form import ClosedForm
from mechdesign.privacy import PointwiseMaximalLeakage
from mechdesign.registry import REGISTRY, capabilities, cli_names, prior_notions, resolve, solver_capability

PRIOR = Prior([0.5, 0.3, 0.2])


def _instance(cls):
    """One instance of every registered notion class, built from its command-line builder."""
    args = type("Args", (), {"delta": 0.1, "variant": "pointwise", "alpha": 2.0})()
    return cli.NOTIONS[capabilities(cls).cli_name](args, PRIOR)


@pytest.mark.parametrize("entry", REGISTRY, ids=lambda entry: entry.notion.__name__)
def test_every_import_path_resolves_to_the_right_kind(entry):
    if entry.warm_lp:
        assert issubclass(resolve(entry.warm_lp), WarmLinearProgram)
    if entry.hamming_closed_form:
        assert isinstance(resolve(entry.hamming_closed_form), ClosedForm)
    if entry.column_cone:
        assert callable(resolve(entry.column_cone))


@pytest.mark.parametrize("entry", REGISTRY, ids=lambda entry: entry.notion.__name__)
def test_the_leakage_flag_agrees_with_the_notion(entry):
    # privacy_distortion minimizes the leakage expression only when the table says there is one.
    notion = _instance(entry.notion)
    expression = notion.leakage_expression(cp.Variable((3, 3), nonneg=True))
    assert (expression is not None) == entry.leakage_expression


def test_command_line_and_privatizer_names_come_from_the_table():
    assert list(cli.NOTIONS) == list(cli_names())
    assert len(set(cli_names())) == len(cli_names())
    assert set(privatizer.NOTIONS) == set(prior_notions()) == {"dp", "pml", "maximal-leakage", "mutual-information"}
    for name, build in prior_notions().items():
        assert type(build(PRIOR)) is cli_names()[name]


def test_subclasses_inherit_definitions_but_not_solver_paths():
    class Custom(DifferentialPrivacy):
        pass

    assert capabilities(Custom()).composition == "same"
    assert solver_capability(Custom(), "warm_lp") is None  # a subclass may change the constraints
    assert solver_capability(DifferentialPrivacy(), "warm_lp") is resolve("mechdesign.direct:LdpLinearProgram")
    assert capabilities(RenyiDifferentialPrivacy(2.0)).warm_lp is None


def test_builders_decline_parameters_they_do_not_cover():
    robust = PointwiseMaximalLeakage(SourceSet([[0.5, 0.3, 0.2], [0.2, 0.3, 0.5]]))
    assert not solver_capability(robust, "warm_lp").applies_to(robust)
    partial = DifferentialPrivacy([(0, 1), (1, 2)], 3)
    assert not solver_capability(partial, "warm_lp").applies_to(partial)
    assert not solver_capability(partial, "hamming_closed_form").applies_to(partial)
    assert solver_capability(MaximalLeakage(), "hamming_closed_form").applies_to(MaximalLeakage())
