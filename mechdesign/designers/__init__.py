"""Designers beyond :func:`~mechdesign.solve.design`: everything that solves for a specific structure.

``closed_form`` (certified closed forms at any n), ``sml`` (design under statistic maximal leakage),
``summary`` (exact designs for summary statistic privacy), ``extreme_columns`` (exact maximization of
sub-convex utilities), ``maxl`` (MaxL on histogram spaces too large to enumerate). Notions and
objectives never import this package (docs/architecture.md, ``tests/test_layers.py``).
"""

from .closed_form import closed_form_curve, closed_form_design

__all__ = ["closed_form_curve", "closed_form_design"]
