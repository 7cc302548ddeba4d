"""Tests of mechdesign.checks: the registry behind `mechdesign theory-check`."""

import pytest

from mechdesign.checks import CHECKS, run_check
from mechdesign.exceptions import MechDesignError


def test_every_paper_is_registered():
    assert sorted(CHECKS) == ["metric", "pml", "put", "sml", "summary"]


def test_unknown_paper():
    with pytest.raises(MechDesignError, match="no theory check for 'nope'"):
        run_check("nope")


def test_all_concatenates_the_papers(monkeypatch):
    for name in CHECKS:
        monkeypatch.setitem(CHECKS, name, lambda full=False, name=name: [name, full])
    assert run_check("all", full=True) == ["put", True, "pml", True, "sml", True, "summary", True, "metric", True]


@pytest.mark.parametrize("name", ["rows", "formats", "optimum", "plots", "put", "pml", "sml", "summary", "metric", "mutation"])
def test_docstring_examples(name):
    """The Examples sections of every mechdesign.checks module run (the whole-grid ones are skipped: the
    per-paper tests run them)."""
    import doctest
    import importlib

    module = importlib.import_module(f"mechdesign.checks.{name}")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
