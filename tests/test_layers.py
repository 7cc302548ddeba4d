"""The layer rule of docs/architecture.md, read from the source: definitions never import the solver layer.

Every module of the package is parsed (``ast``) and every import it makes is collected — at module
level, inside functions and under ``if TYPE_CHECKING`` alike — with relative imports resolved. A module
of the definitions layer (notions, objectives, closed forms, named mechanisms, parameter spaces) must not
import a module of the solver layer (``solve``, ``solvers``, ``certificate``, ``direct``, ``curves``,
``empirical``, ``designers``) or of the applications layer, except for the uses listed in
:data:`MEASURES_THAT_SOLVE`, each with its reason (docs/architecture.md, "Known departures").
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import mechdesign

#: The package under test, wherever it is installed (the source tree, or a wheel in CI's second run).
PACKAGE = Path(mechdesign.__file__).resolve().parent

#: Module prefixes of the definitions layer (docs/architecture.md, layer 2).
DEFINITIONS = ("mechdesign.privacy", "mechdesign.utility", "mechdesign.mechanisms", "mechdesign.theory",
               "mechdesign.source_classes", "mechdesign.parameter_spaces", "mechdesign.tabular",
               "mechdesign.registry")
#: Module prefixes of the solver layer (layer 3) and of the applications (layer 4), above the definitions.
ABOVE_DEFINITIONS = (
    "mechdesign.solve", "mechdesign.solvers", "mechdesign.certificate", "mechdesign.direct",
    "mechdesign.curves", "mechdesign.empirical", "mechdesign.designers",
    "mechdesign.checks", "mechdesign.privatizer", "mechdesign.categorical", "mechdesign.frequency",
    "mechdesign.accounting", "mechdesign.demo", "mechdesign.datasets", "mechdesign.cli",
)
#: Definitions whose *measure* is itself an optimization problem and so runs a solver through
#: ``mechdesign.solvers`` (which imports nothing from the package). Nothing else is allowed upward.
MEASURES_THAT_SOLVE = {
    ("mechdesign.privacy.sml", "mechdesign.solvers"):
        "measure_sml's exact MILP (computing the SML is NP-hard, SML paper Thm. 1)",
    ("mechdesign.privacy.capacity", "mechdesign.solvers"):
        "worst-case leakage over a source set, bracketed with Clarabel candidates (hull_maximum)",
    ("mechdesign.privacy.coverage", "mechdesign.solvers"):
        "coverability of a set of secrets: the smallest enclosing l_p ball (EnclosingBall, Clarabel)",
}


def module_name(path: Path) -> str:
    """``mechdesign/privacy/sml.py`` → ``mechdesign.privacy.sml`` (a package is named by its folder)."""
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_modules(source: str, name: str, is_package: bool = False) -> set[str]:
    """Every ``mechdesign`` module (or module attribute) imported anywhere in ``source``, the text of
    module ``name``: at module level, inside functions, under ``if TYPE_CHECKING``; relative imports
    resolved."""
    package = name if is_package else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return {module for module in found if module == "mechdesign" or module.startswith("mechdesign.")}


def in_layer(module: str, prefixes: tuple[str, ...]) -> bool:
    """Whether ``module`` is one of ``prefixes`` or inside one of them."""
    return any(module == prefix or module.startswith(prefix + ".") for prefix in prefixes)


def upward_imports(name: str, imported: set[str]) -> list[tuple[str, str]]:
    """``(name, layer module)`` for each import of definition module ``name`` that goes up a layer."""
    if not in_layer(name, DEFINITIONS):
        return []
    return sorted({(name, prefix) for module in imported for prefix in ABOVE_DEFINITIONS
                   if in_layer(module, (prefix,))})


def upward_imports_of(path: Path) -> list[tuple[str, str]]:
    """:func:`upward_imports` of the module at ``path``."""
    name = module_name(path)
    return upward_imports(name, imported_modules(path.read_text(encoding="utf-8"), name, path.name == "__init__.py"))


MODULES = sorted(PACKAGE.rglob("*.py"))


def test_the_scan_reads_the_whole_package():
    # An empty scan would pass every parametrized check vacuously.
    assert len(MODULES) > 50 and PACKAGE / "solvers.py" in MODULES


def test_the_scan_sees_relative_lazy_and_type_checking_imports():
    """The parser itself, on a definition module that imports upward in the three hidden ways."""
    source = ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ..certificate import bound\n"
              "def f():\n    from ..solve import design\n    from .. import designers\n"
              "    import mechdesign.curves\n    from .base import PrivacyNotion\n")
    name = "mechdesign.privacy.example"
    assert upward_imports(name, imported_modules(source, name)) == [
        (name, "mechdesign.certificate"), (name, "mechdesign.curves"), (name, "mechdesign.designers"),
        (name, "mechdesign.solve")]
    assert upward_imports("mechdesign.designers.example", imported_modules(source, "mechdesign.designers.example")) == []


@pytest.mark.parametrize("path", MODULES, ids=lambda path: module_name(path))
def test_definitions_never_import_the_solver_layer(path):
    """docs/architecture.md, "Layers": a definition imports only from its own layer or below."""
    violations = [pair for pair in upward_imports_of(path) if pair not in MEASURES_THAT_SOLVE]
    assert violations == []


@pytest.mark.parametrize("pair", sorted(MEASURES_THAT_SOLVE), ids="{0[0]}->{0[1]}".format)
def test_every_listed_measure_that_solves_still_needs_it(pair):
    """The exceptions stay exact: each listed import exists (else remove it from the list)."""
    importer, imported = pair
    path = PACKAGE.joinpath(*importer.split(".")[1:]).with_suffix(".py")
    assert pair in upward_imports_of(path)


def test_solvers_imports_nothing_from_the_package():
    """``mechdesign.solvers`` is the one place solvers run; the measures above may call it only because
    it depends on nothing of the package (no cycle can pass through it)."""
    path = PACKAGE / "solvers.py"
    assert imported_modules(path.read_text(encoding="utf-8"), "mechdesign.solvers") == set()
