"""cvxpy (and scipy.stats), imported on first use: ``import mechdesign`` and the direct-LP path never load them.

cvxpy (and scipy.stats, which it imports) takes about 1 s to import, 90 % of ``import mechdesign``
before this module existed (``benchmarks/import_time.py``), yet the closed forms, the direct LPs of
:mod:`mechdesign.direct` and every numpy measure never build a cvxpy expression. Modules that do write
``from ._lazy import cvxpy as cp`` in place of ``import cvxpy as cp``: the name behaves as the module,
and the real import happens at the first attribute read (``cp.Variable``, ``cp.Expression`` in an
``isinstance`` check, …). Type hints stay as they were: under ``from __future__ import annotations``
they are strings, evaluated (and then importing cvxpy) only by tools that ask for them.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any


class LazyModule:
    """A stand-in for a module that imports it on the first attribute read.

    Parameters
    ----------
    name
        The module's import name.

    Examples
    --------
    >>> import sys
    >>> colorsys = LazyModule("colorsys")
    >>> colorsys.rgb_to_hsv(1.0, 0.0, 0.0)
    (0.0, 1.0, 1.0)
    >>> "colorsys" in sys.modules
    True
    """

    def __init__(self, name: str) -> None:
        self._name = name
        self._module: ModuleType | None = None

    def _load(self) -> ModuleType:
        if self._module is None:
            self._module = importlib.import_module(self._name)
        return self._module

    def __getattr__(self, attribute: str) -> Any:
        # Called only for names not found on the stand-in itself, i.e. the module's own names.
        return getattr(self._load(), attribute)

    def __repr__(self) -> str:
        state = "imported" if self._module is not None else "not imported yet"
        return f"<lazy module {self._name!r} ({state})>"


#: cvxpy, imported at the first attribute read.
cvxpy = LazyModule("cvxpy")
#: scipy.stats (0.3 s to import), for the theory checks' distributions.
scipy_stats = LazyModule("scipy.stats")
