"""cvxpy and the heavier scipy submodules, imported on first use: ``import mechdesign`` and the
direct-LP path never load them.

cvxpy (and scipy.stats, which it imports) takes about 1 s to import, 90 % of ``import mechdesign``
before this module existed (``benchmarks/import_time.py``), yet the closed forms, the direct LPs of
:mod:`mechdesign.methods.direct` and every numpy measure never build a cvxpy expression. Modules that do write
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


class LazyFunction:
    """A stand-in for a module's function that imports the module on the first call.

    For scipy submodules whose import costs tenths of a second (``scipy.optimize``, ``scipy.special``,
    ``scipy.sparse.csgraph``) but whose one function is used by a single path: the module that uses
    it writes ``linprog = LazyFunction("scipy.optimize", "linprog")`` in place of the import line.

    Examples
    --------
    >>> hypot = LazyFunction("math", "hypot")
    >>> hypot(3.0, 4.0)
    5.0
    """

    def __init__(self, module: str, name: str) -> None:
        self._module_name, self._name = module, name
        self._function: Any = None

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if self._function is None:
            self._function = getattr(importlib.import_module(self._module_name), self._name)
        return self._function(*args, **kwargs)

    def __repr__(self) -> str:
        return f"<lazy function {self._module_name}.{self._name}>"


#: cvxpy, imported at the first attribute read.
cvxpy = LazyModule("cvxpy")
#: scipy.stats (0.3 s to import), for the theory checks' distributions.
scipy_stats = LazyModule("scipy.stats")
#: scipy.sparse (0.1 s to import, numpy.testing with it), for the LPs' constraint matrices.
scipy_sparse = LazyModule("scipy.sparse")
