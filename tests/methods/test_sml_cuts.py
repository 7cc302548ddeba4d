"""design() routes SML secrets too large to write as constraints to the cutting planes of
mechdesign.methods.sml_cuts (issue 33 item 2: the SML designer is a design method).

Wang, Lin & Fanti, "Statistic Maximal Leakage", Prop. 1; every selection's constraint is written only up to
privacy.sml.CONSTRAINT_MAX_SELECTIONS selections, beyond which design() raised "use design_under_sml".
"""

from __future__ import annotations

import numpy as np
import pytest

from mechdesign import ExpectedDistortion, MaximalLeakage, Prior, WorstCaseInputDistortion, design
from mechdesign.designers import sml
from mechdesign.methods import sml_cuts
from mechdesign.exceptions import MethodNotApplicableError, ProblemTooLargeError
from mechdesign.privacy.sml import CONSTRAINT_MAX_SELECTIONS, StatisticMaximalLeakage, measure_sml
from mechdesign.result import GAP_RTOL, within_budget
from mechdesign.utility.information import MutualInformation

#: 21 inputs in 7 secret values of 3: 3^7 = 2187 selections, just above CONSTRAINT_MAX_SELECTIONS.
LARGE = np.arange(21) % 7


def test_the_large_secret_is_above_the_constraint_limit():
    assert StatisticMaximalLeakage(LARGE).secret.n_selections == 2187 > CONSTRAINT_MAX_SELECTIONS


@pytest.mark.parametrize("objective", [WorstCaseInputDistortion(21), ExpectedDistortion(Prior(np.arange(1, 22) / 231))])
def test_design_routes_a_large_secret_to_constraint_generation(objective):
    notion = StatisticMaximalLeakage(LARGE)
    result = design(notion, 0.5, objective)
    generated = sml.design_under_sml(LARGE, 0.5, objective, strategy="generate")
    assert (result.method, result.status) == ("constraint-generation", "optimal"), result.message
    assert result.gap <= GAP_RTOL * max(1.0, result.objective)
    assert within_budget(measure_sml(result.mechanism, notion.secret).value, 0.5)
    assert result.objective == generated.objective and np.array_equal(result.mechanism.matrix,
                                                                        generated.mechanism.matrix)


def test_the_cvxpy_path_still_names_the_limit_and_the_way_out():
    """A solver the cuts do not run, or the cvxpy method named, still meets the constraint limit; the message
    says design() generates the selections (it no longer sends users to design_under_sml alone)."""
    notion, objective = StatisticMaximalLeakage(LARGE), WorstCaseInputDistortion(21)
    for kwargs in ({"method": "cvxpy"}, {"solver": "clarabel"}):
        with pytest.raises(ProblemTooLargeError, match="method 'constraint-generation'"):
            design(notion, 0.5, objective, **kwargs)
    with pytest.raises(MethodNotApplicableError, match="constraint-generation"):
        design(StatisticMaximalLeakage([0, 0, 1, 1]), 0.5, WorstCaseInputDistortion(4), method="constraint-generation")


def test_applies_only_to_one_large_sml_with_a_supported_objective_and_no_limits():
    notion, objective = StatisticMaximalLeakage(LARGE), WorstCaseInputDistortion(21)
    assert sml_cuts.applies(notion, objective) and sml_cuts.applies([notion], objective)
    assert not sml_cuts.applies(notion, objective, [(ExpectedDistortion(Prior.uniform(21)), 0.5)])
    assert not sml_cuts.applies([notion, MaximalLeakage()], objective)
    assert not sml_cuts.applies(notion, MutualInformation(Prior.uniform(21)))
    assert not sml_cuts.applies(StatisticMaximalLeakage(np.arange(16) % 2), WorstCaseInputDistortion(16))  # 64

    class Subclass(StatisticMaximalLeakage):
        """A subclass may change the constraints: not routed."""

    assert not sml_cuts.applies(Subclass(LARGE), objective)


def test_small_secrets_keep_their_method():
    result = design(StatisticMaximalLeakage([0, 0, 1, 1]), 0.5, WorstCaseInputDistortion(4))
    assert result.method == "cvxpy" and result.status == "optimal", result.message


def test_sml_keeps_the_cut_names():
    assert sml.design_by_cuts is sml_cuts.design_by_cuts and sml.supports is sml_cuts.supports
    assert sml.SelectionCutProgram is sml_cuts.SelectionCutProgram
