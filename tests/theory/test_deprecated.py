"""The 0.1.0 names of the closed forms (mechdesign/theory/_deprecated.py): each is an alias of its renamed
function that emits a DeprecationWarning naming the new name."""

import math

import pytest

from mechdesign.theory import pml, put, sml, summary
from mechdesign.theory._deprecated import deprecated_alias

#: Number of 0.1.0 names kept per module (every 0.1.0 public function that was renamed).
ALIASES = {put: 46, pml: 2, sml: 21, summary: 17}


def _aliases(module):
    return {name: value for name, value in vars(module).items()
            if callable(value) and getattr(value, "__wrapped__", None) is not None and value.__name__ == name
            and value.__doc__.startswith("Deprecated since 0.2.0")}


@pytest.mark.parametrize("module", list(ALIASES), ids=lambda m: m.__name__)
def test_every_alias_wraps_a_renamed_function_of_its_module(module):
    aliases = _aliases(module)
    assert len(aliases) == ALIASES[module]
    for name, alias in aliases.items():
        new = alias.__wrapped__
        assert getattr(module, new.__name__) is new and new.__name__ != name
        assert new.__name__.split("_")[0].rstrip("0123456789") in {"thm", "prop", "lemma", "cor", "eq", "def", "app",
                                                                    "appi", "apphd", "propc", "propd", "propb", "lemmac"}


def test_alias_warns_and_returns_the_new_value():
    with pytest.warns(DeprecationWarning, match="theorem13_dp is deprecated since 0.2.0; use thm13_dp_privacy"):
        old = put.theorem13_dp([0.5, 0.3, 0.2], 0.3)
    assert old == put.thm13_dp_privacy([0.5, 0.3, 0.2], 0.3)
    with pytest.warns(DeprecationWarning, match="use thm4_qm_sml"):
        assert sml.qm_sml(9, 3) == math.log(3)
    with pytest.warns(DeprecationWarning, match="use propc1_distortion_bound"):
        assert summary.prop_c1(0.5, [0.05, 0.05]) == summary.propc1_distortion_bound(0.5, [0.05, 0.05])
    with pytest.warns(DeprecationWarning, match="use thm2_weissman_phi"):
        assert pml.weissman_phi(0.5) == 2.0
    wrapped = deprecated_alias(max, "largest")
    with pytest.warns(DeprecationWarning, match="largest is deprecated since 0.2.0; use max"):
        assert wrapped(1, 3) == 3
