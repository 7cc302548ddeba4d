"""Tests of mechdesign.checks.formats: text, Markdown and strict JSON."""

import json
import math

import pytest

from mechdesign.checks.formats import format_json, format_markdown, format_rows, format_text
from mechdesign.checks.rows import compare, lower_bound
from mechdesign.exceptions import MechDesignError

ROWS = [compare("PUT Prop. 8(1) DP", {"m": 2, "D": 0.2}, "epsilon", 1.0, 1.0),
        compare("g|h", {"D": 0.3}, "epsilon", lower_bound(0.5), 0.7),
        compare("k", {"D": math.inf}, "epsilon", 1.0, math.nan)]


def test_text_table_ends_with_the_counts():
    lines = format_text(ROWS).splitlines()
    assert lines[0].split()[:2] == ["formula", "parameters"]
    assert lines[-1] == "3 rows: match 1, bound holds 1, failed 1"
    assert len(lines) == 2 + len(ROWS) + 1


def test_markdown_escapes_pipes():
    text = format_markdown(ROWS)
    assert text.splitlines()[1].startswith("|---|")
    assert "g\\|h" in text


def test_json_is_strict_and_has_every_field():
    text = format_json(ROWS)

    def refuse(token):
        raise AssertionError(f"non-standard JSON token {token}")

    document = json.loads(text, parse_constant=refuse)
    first, second, third = document["rows"]
    assert set(first) == {"formula", "parameters", "quantity", "closed_form", "numeric", "gap", "verdict"}
    assert first["parameters"] == {"m": 2, "D": 0.2} and first["verdict"] == "match"
    assert second["closed_form"] == [0.5, None] and second["verdict"] == "bound holds"
    assert third["numeric"] is None and third["gap"] is None and third["parameters"]["D"] is None
    assert document["counts"] == {"match": 1, "bound holds": 1, "failed": 1}


def test_unknown_format():
    with pytest.raises(MechDesignError, match="format must be one of"):
        format_rows(ROWS, "yaml")
