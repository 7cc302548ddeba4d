"""The entry points beside :func:`~mechdesign.solve.design`: designers with their own interface.

``sml`` (``design_under_sml``: design under statistic maximal leakage, every selection a constraint
or constraint generation), ``summary`` (exact designs for summary statistic privacy), ``extreme_columns``
(exact maximization of sub-convex utilities), ``maxl`` (MaxL on histogram spaces too large to
enumerate). The methods ``design()`` dispatches to are :mod:`mechdesign.methods`; their old paths
here (``designers.closed_form``, ``designers.certified``, …) are deprecated shims for one release
(:mod:`mechdesign._moved`). Notions and objectives never import this package (docs/architecture.md,
``tests/test_layers.py``).

``closed_form_curve`` moved to :mod:`mechdesign.curves` (issue 33); the name here warns for one release.
"""

from __future__ import annotations

import warnings
from typing import Any

from ..methods.closed_form import closed_form_design

__all__ = ["closed_form_design"]


def __getattr__(name: str) -> Any:
    """The deprecated name ``closed_form_curve``: :func:`mechdesign.curves.closed_form_curve`, with a
    ``DeprecationWarning`` saying where it lives now.

    Examples
    --------
    >>> import warnings
    >>> from mechdesign.curves import closed_form_curve
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     __getattr__("closed_form_curve") is closed_form_curve, str(caught[0].message)
    (True, 'mechdesign.designers.closed_form_curve is deprecated since 0.2.0; import it from mechdesign.curves')
    """
    if name == "closed_form_curve":
        warnings.warn("mechdesign.designers.closed_form_curve is deprecated since 0.2.0; import it from "
                      "mechdesign.curves", DeprecationWarning, stacklevel=2)
        from ..curves import closed_form_curve

        return closed_form_curve
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
