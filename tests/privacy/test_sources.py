"""Tests of mechdesign.privacy.sources (OnSourceSet: the prior or source set of MI, Sibson, maximal information
and PML)."""

import numpy as np
import pytest

from mechdesign import (
    MaximalInformation,
    MutualInformationPrivacy,
    PointwiseMaximalLeakage,
    Prior,
    SibsonMutualInformation,
    SourceSet,
)
from mechdesign.priors import Prior as PriorClass

NOTIONS = (MaximalInformation, MutualInformationPrivacy, PointwiseMaximalLeakage,
           lambda prior: SibsonMutualInformation(2.0, prior))


def _counting_priors(monkeypatch):
    built = []
    original = PriorClass.__init__

    def counting(self, *args, **kwargs):
        built.append(args)
        original(self, *args, **kwargs)

    monkeypatch.setattr(PriorClass, "__init__", counting)
    return built


@pytest.mark.parametrize("notion_of", NOTIONS)
def test_the_one_prior_is_built_at_most_once(notion_of, monkeypatch):
    """Issue 33 item 4 (typed inputs once): .prior is one stored Prior, not a new one at every access."""
    notion = notion_of(np.array([0.4, 0.3, 0.2, 0.1]))
    built = _counting_priors(monkeypatch)
    first = notion.prior
    assert all(notion.prior is first for _ in range(5)) and len(built) == 1
    assert first.probabilities.tolist() == notion.source_set.extreme_points[0].tolist() == [0.4, 0.3, 0.2, 0.1]


@pytest.mark.parametrize("notion_of", NOTIONS)
def test_a_given_prior_is_passed_inward_as_it_is(notion_of, monkeypatch):
    prior = Prior([0.4, 0.3, 0.2, 0.1])
    notion = notion_of(prior)
    built = _counting_priors(monkeypatch)
    assert notion.prior is prior and built == []  # PointwiseMaximalLeakage too keeps the Prior it is given


@pytest.mark.parametrize("notion_of", NOTIONS)
def test_a_source_set_of_several_priors_has_no_single_prior(notion_of):
    notion = notion_of(SourceSet([[0.5, 0.5], [0.9, 0.1]]))
    with pytest.raises(AttributeError, match="defined on a source set of 2 priors"):
        notion.prior
