"""Tests of mechdesign.command_line, the helpers the ``mechdesign`` command's two modules share (the commands
themselves: tests/test_cli.py, tests/test_deploy_cli.py)."""

import json
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mechdesign.command_line import _parse_prior, strict_json
from mechdesign.exceptions import MechDesignError

#: Nested JSON-like payloads whose numbers may be infinite or NaN.
PAYLOADS = st.recursive(
    st.floats() | st.integers() | st.text(max_size=3) | st.none(),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(st.text("abc", max_size=2), children, max_size=3),
    max_leaves=12)


def _refuse(token):
    raise AssertionError(f"{token} printed")


@given(st.dictionaries(st.text("xyz", min_size=1, max_size=2), PAYLOADS, max_size=4))
def test_strict_json_is_strict_and_names_every_non_finite_value(payload):
    decoded = json.loads(strict_json(payload), parse_constant=_refuse)
    reasons = decoded.pop("non_finite", {})
    assert reasons == dict(_non_finite(payload, ""))
    assert _finite_only(payload) == decoded


def _non_finite(value, path):
    if isinstance(value, float) and not math.isfinite(value):
        yield path, str(value)
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _non_finite(item, f"{path}.{key}" if path else key)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _non_finite(item, f"{path}[{index}]")


def _finite_only(value):
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {key: _finite_only(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_finite_only(item) for item in value]
    return value


def test_prior_of_probabilities_counts_or_a_size(capsys):
    assert _parse_prior("0.2,0.8", None).probabilities.tolist() == [0.2, 0.8]
    assert capsys.readouterr().err == ""
    assert _parse_prior("1,3", 7).probabilities.tolist() == [0.25, 0.75]  # --prior wins over --n
    assert "--prior: counts (total 4), normalized" in capsys.readouterr().err
    assert _parse_prior(None, 4).probabilities.tolist() == [0.25] * 4 and _parse_prior(None, None) is None
    with pytest.raises(MechDesignError, match="--n must be"):
        _parse_prior(None, 0)
    with pytest.raises(MechDesignError, match="--prior must be comma-separated numbers, got '0.5;0.5'"):
        _parse_prior("0.5;0.5", None)
