"""The Examples sections of every mechdesign.theory module run as doctests."""

import doctest
import importlib

import pytest


@pytest.mark.parametrize("name", ["put", "pml", "sml", "summary"])
def test_docstring_examples(name):
    module = importlib.import_module(f"mechdesign.theory.{name}")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
