"""Tests of mechdesign.privacy.base's argument validators (the notions of design(), curves and designers)."""

import pytest

from mechdesign import DifferentialPrivacy, ExpectedDistortion, MaximalLeakage
from mechdesign.exceptions import MechDesignError
from mechdesign.privacy.base import as_notion, as_notions


def test_notions_are_instances_one_or_many():
    dp, ml = DifferentialPrivacy(), MaximalLeakage()
    assert as_notions(dp) == [dp] and as_notions((dp, ml)) == [dp, ml] and as_notion(ml) is ml
    assert as_notions([]) == []  # no privacy constraint: a rate–distortion problem with a limit


@pytest.mark.parametrize("call, match", [
    (lambda: as_notions(None), "notions must be a non-empty sequence, got None"),
    (lambda: as_notions(DifferentialPrivacy), r"got the class itself: call it, e.g. DifferentialPrivacy\(...\)"),
    (lambda: as_notions([DifferentialPrivacy(), "dp"]),
     r"notions\[1\] must be an instance of PrivacyNotion, got 'dp' of type str"),
    (lambda: as_notion([]), r"notion must be an instance of PrivacyNotion, got \[\]"),
    (lambda: as_notion(ExpectedDistortion([1.0])), "notion must be an instance of PrivacyNotion"),
])
def test_anything_else_is_a_named_error(call, match):
    with pytest.raises(MechDesignError, match=match):
        call()
