"""Deprecated module paths (issue 33 moved the methods of ``design()`` into :mod:`mechdesign.methods`): the
old path stays importable for one release, warns, and *is* the moved module."""

from __future__ import annotations

import sys
import warnings
from pathlib import Path
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


def deprecated_module_names(package: Path) -> list[str]:
    """The dotted names of the deprecated shims under ``package`` (a directory): the modules whose source calls
    :func:`alias_moved_module` with their own name. Read from the files, so nothing is imported.

    Used by the repository's root ``conftest.py`` (doctests skip the shims), docs/conf.py (no API page for them) and
    tests/test_docs.py.

    Examples
    --------
    >>> from pathlib import Path
    >>> import mechdesign
    >>> names = deprecated_module_names(Path(mechdesign.__file__).parent)
    >>> "mechdesign.direct" in names, "mechdesign.methods.direct" in names
    (True, False)
    """
    mark = alias_moved_module.__name__ + "(__name__"
    return sorted(".".join(path.relative_to(package.parent).with_suffix("").parts)
                  for path in package.rglob("*.py") if mark in path.read_text(encoding="utf-8"))
