"""Deprecated module paths (issue 33 moved the methods of ``design()`` into :mod:`mechdesign.methods`): the
old path stays importable for one release, warns, and *is* the moved module."""

from __future__ import annotations

import sys
import warnings
from types import ModuleType


def alias_moved_module(old: str, module: ModuleType) -> None:
    """Make the module being imported as ``old`` the moved ``module`` itself, with a ``DeprecationWarning``
    attributed to the code that imported the old path (not to the import machinery).

    The alias in ``sys.modules`` keeps private names and monkeypatching working: both paths name one
    module object.

    Examples
    --------
    >>> import sys, types, warnings
    >>> new = types.ModuleType("new_place")
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     alias_moved_module("old_place", new)
    >>> sys.modules.pop("old_place") is new, str(caught[0].message)
    (True, 'old_place is deprecated since 0.2.0; import new_place')
    """
    # stacklevel 3: past this function and the shim module; warnings skips the import machinery's frames.
    warnings.warn(f"{old} is deprecated since 0.2.0; import {module.__name__}", DeprecationWarning, stacklevel=3)
    sys.modules[old] = module
