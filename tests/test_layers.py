"""The layer order of docs/architecture.md, read from the source: one staircase, no cycle.

Every module of the package is parsed (``ast``) and every import it makes is collected — at module
level, inside functions and under ``if TYPE_CHECKING`` alike — with relative imports resolved and each
imported name mapped to the package module that defines it (``from .privacy import DifferentialPrivacy``
is an import of the package ``mechdesign.privacy``). Every module belongs to exactly one layer of
:data:`LAYERS`; a module imports only from its own layer or below, and the whole import graph has no
cycle: 0 upward imports, 0 cycles, :data:`DEPARTURES` empty (the measures that are optimization
problems call ``solvers.py``, the solver runner, one step below the definitions). The deprecated
module paths (:data:`SHIMS`) are imported by no module of the package.
"""

from __future__ import annotations

import ast
import importlib
import re
import sys
from pathlib import Path

import pytest

import mechdesign

#: The package under test, wherever it is installed (the source tree, or a wheel in CI's second run).
PACKAGE = Path(mechdesign.__file__).resolve().parent

#: The staircase, bottom up: each layer's module prefixes (a prefix covers its submodules).
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("foundations", (
        "mechdesign.exceptions", "mechdesign._validate", "mechdesign._numeric", "mechdesign._lazy",
        "mechdesign._threads", "mechdesign._version", "mechdesign._moved", "mechdesign.memory",
        "mechdesign.units", "mechdesign.progress", "mechdesign.outputs", "mechdesign.randomness",
        "mechdesign.mechanism", "mechdesign.structured", "mechdesign.priors", "mechdesign.relaxation",
        "mechdesign.result")),
    # The one place solvers run; it imports nothing of the package, so the definitions whose measure is
    # itself an optimization problem (privacy/sml.py, capacity.py, coverage.py) call it downward.
    ("solver runner", ("mechdesign.solvers",)),
    ("definitions", (
        "mechdesign.privacy", "mechdesign.utility", "mechdesign.mechanisms", "mechdesign.theory",
        "mechdesign.source_classes", "mechdesign.parameter_spaces", "mechdesign.tabular",
        "mechdesign.registry")),
    # A design problem as stated and the choice of its method from a table passed in (specification.py): it reads
    # only the definitions, and nothing below the compiled problem reads it.
    ("specification", ("mechdesign.specification",)),
    ("certificate", ("mechdesign.certificate",)),
    ("methods", ("mechdesign.methods",)),
    ("compiled problem", ("mechdesign.problem",)),
    ("dispatch", ("mechdesign.solve",)),
    # designers/ holds the entry points and, for one release, the deprecated paths of the moved methods
    # (SHIMS); mechdesign.direct is one of them.
    ("entry points", ("mechdesign.designers", "mechdesign.curves", "mechdesign.empirical", "mechdesign.direct")),
    ("applications", (
        "mechdesign.checks", "mechdesign.files", "mechdesign.categorical", "mechdesign.privatizer",
        "mechdesign.frequency", "mechdesign.accounting", "mechdesign.parallel", "mechdesign.demo",
        "mechdesign.datasets", "mechdesign.data", "mechdesign.schemas", "mechdesign.csv_columns",
        "mechdesign.command_line", "mechdesign.cli", "mechdesign.deploy_cli")),
    ("public API", ("mechdesign",)),
)
#: The one prefix that covers only itself: a new module is in no layer until it is given one above.
PUBLIC_API = "mechdesign"

#: The import edges allowed to go up a layer or to close a cycle, each with its reason: none since issue 33
#: (solvers.py is its own layer below the definitions).
DEPARTURES: dict[tuple[str, str], str] = {}


def module_name(path: Path, package: Path = PACKAGE) -> str:
    """``mechdesign/privacy/sml.py`` → ``mechdesign.privacy.sml`` (a package is named by its folder), for a
    file of ``package``."""
    parts = list(path.relative_to(package.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_names(source: str, name: str, is_package: bool = False) -> set[str]:
    """Every ``mechdesign`` module or module attribute imported anywhere in ``source``, the text of
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
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return {module for module in found if module == "mechdesign" or module.startswith("mechdesign.")}


def defining_module(imported: str, modules: set[str]) -> str:
    """The module of ``modules`` that ``imported`` (a module or ``module.attribute``) names: its longest
    prefix that is a module."""
    while imported not in modules:
        imported = imported.rpartition(".")[0]
    return imported


def layer_of(module: str) -> int:
    """The index in :data:`LAYERS` of the layer whose longest prefix covers ``module``."""
    matches = [(len(prefix), index) for index, (_, prefixes) in enumerate(LAYERS) for prefix in prefixes
               if module == prefix or module.startswith(prefix + ".") and prefix != PUBLIC_API]
    if not matches:
        raise LookupError(f"{module} is in no layer of tests/test_layers.py's LAYERS")
    return max(matches)[1]


def import_graph(package: Path = PACKAGE) -> dict[str, set[str]]:
    """Module → the package modules it imports (itself left out), over every ``.py`` file of ``package``."""
    package = package.resolve()
    paths = {module_name(path, package): path for path in sorted(package.rglob("*.py"))}
    modules = set(paths)
    return {name: {defining_module(imported, modules)
                   for imported in imported_names(path.read_text(encoding="utf-8"), name, path.name == "__init__.py")}
            - {name} for name, path in paths.items()}


def upward_edges(graph: dict[str, set[str]]) -> set[tuple[str, str]]:
    """The edges ``(importer, imported)`` of ``graph`` that go up the staircase."""
    return {(importer, imported) for importer, targets in graph.items() for imported in targets
            if layer_of(imported) > layer_of(importer)}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of ``graph`` with more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
            elif child not in index:
                index[child] = low[child] = len(index)
                stack.append(child)
                on_stack.add(child)
                work.append((child, iter(sorted(graph.get(child, ())))))
            elif child in on_stack:
                low[node] = min(low[node], index[child])
    return found


GRAPH = import_graph()


def without_departures(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    """``graph`` less the listed :data:`DEPARTURES`."""
    return {importer: {imported for imported in targets if (importer, imported) not in DEPARTURES}
            for importer, targets in graph.items()}


def test_the_scan_reads_the_whole_package():
    # An empty scan would pass every check vacuously.
    assert len(GRAPH) > 90 and "mechdesign.solvers" in GRAPH and sum(map(len, GRAPH.values())) > 400


def test_every_module_is_in_one_layer():
    """A new module is placed in the staircase (LAYERS) when it is added, not by default at the top."""
    assert {module: layer_of(module) for module in GRAPH}  # raises LookupError naming a module in no layer
    with pytest.raises(LookupError, match="mechdesign.new_module is in no layer"):
        layer_of("mechdesign.new_module")


def test_the_scan_sees_relative_lazy_and_type_checking_imports():
    """The parser itself, on a definition module that imports upward in the three hidden ways."""
    source = ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ..certificate import bound\n"
              "def f():\n    from ..solve import design\n    from .. import designers\n"
              "    import mechdesign.curves\n    from .base import PrivacyNotion\n")
    name = "mechdesign.privacy.example"
    modules = {"mechdesign", "mechdesign.certificate", "mechdesign.solve", "mechdesign.designers",
               "mechdesign.curves", "mechdesign.privacy", "mechdesign.privacy.base", name}
    graph = {name: {defining_module(imported, modules) for imported in imported_names(source, name)}}
    assert graph[name] == {"mechdesign.certificate", "mechdesign.solve", "mechdesign.designers",
                           "mechdesign.curves", "mechdesign.privacy.base"}
    assert sorted(upward_edges(graph)) == [
        (name, "mechdesign.certificate"), (name, "mechdesign.curves"), (name, "mechdesign.designers"),
        (name, "mechdesign.solve")]


def test_the_cycle_finder_finds_a_hidden_cycle():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert cycles(graph) == [["a", "b", "c"]] and cycles({"a": {"b"}, "b": set()}) == []


def test_no_module_imports_up_the_staircase():
    """docs/architecture.md, "Layers": a module imports only from its own layer or below."""
    assert sorted(upward_edges(GRAPH) - set(DEPARTURES)) == []


def test_the_import_graph_has_no_cycle():
    """Function-level imports included: a cycle hidden inside a function is still a cycle."""
    assert cycles(without_departures(GRAPH)) == []


def test_every_listed_departure_still_exists():
    """The exceptions stay exact: each listed import exists (else remove it from the list); none is listed."""
    assert [edge for edge in DEPARTURES if edge[1] not in GRAPH[edge[0]]] == []


def test_solvers_imports_nothing_from_the_package():
    """``mechdesign.solvers`` is the one place solvers run; the measures above may call it only because
    it depends on nothing of the package (no cycle can pass through it)."""
    assert GRAPH["mechdesign.solvers"] == set()


#: The deprecated module paths (issue 33 moved the methods of ``design()`` into ``mechdesign/methods/``):
#: each warns and *is* the moved module, for one release. No module of the package imports one.
SHIMS: dict[str, str] = {
    "mechdesign.designers.blahut_arimoto": "mechdesign.methods.blahut_arimoto",
    "mechdesign.designers.certified": "mechdesign.methods.certified",
    "mechdesign.designers.closed_form": "mechdesign.methods.closed_form",
    "mechdesign.designers.column_generation": "mechdesign.methods.column_generation",
    "mechdesign.designers.hockey_stick": "mechdesign.methods.hockey_stick",
    "mechdesign.designers.metric": "mechdesign.methods.metric",
    "mechdesign.designers.sml_cuts": "mechdesign.methods.sml_cuts",
    "mechdesign.direct": "mechdesign.methods.direct",
}


def test_no_module_imports_a_deprecated_path():
    """A shim is for callers outside the package: inside it every import names the module where it lives."""
    assert sorted((importer, imported) for importer, targets in GRAPH.items() for imported in targets
                  if imported in SHIMS) == []
    assert set(SHIMS) <= set(GRAPH) and all(GRAPH[shim] == {"mechdesign._moved", moved} for shim, moved in SHIMS.items())


@pytest.mark.parametrize("old", sorted(SHIMS))
def test_a_deprecated_path_warns_and_is_the_moved_module(old):
    new = importlib.import_module(SHIMS[old])
    saved = sys.modules.pop(old, None)
    try:
        with pytest.warns(DeprecationWarning, match=f"^{re.escape(old)} is deprecated since 0.2.0; import "
                                                    f"{re.escape(SHIMS[old])}$") as caught:
            __import__(old)  # an import statement's call: the warning names this file, not importlib's
        assert caught[0].filename == __file__  # attributed to the importer, not to the import machinery
        assert importlib.import_module(old) is new
        assert sys.modules[old] is new
    finally:
        if saved is not None:
            sys.modules[old] = saved


def test_the_registry_names_no_deprecated_path():
    """SOLVER_PATHS are import strings the layer scan cannot see: each names a module where it lives, in the
    methods layer or an entry point resolving its own cones, never a shim."""
    from mechdesign.registry import SOLVER_PATHS, resolve

    paths = sorted({path for fields in SOLVER_PATHS.values() for path in fields.values()})
    assert paths and not [path for path in paths if path.partition(":")[0] in SHIMS]
    assert all(layer_of(path.partition(":")[0]) in (layer_index("methods"), layer_index("entry points"))
               for path in paths)
    assert all(resolve(path) is not None for path in paths)


def layer_index(name: str) -> int:
    return [layer for layer, _ in LAYERS].index(name)


def test_the_staircase_is_in_order():
    """The order the docs draw: solver runner → definitions → specification → certificate → methods → compiled
    problem → dispatch → entry points."""
    assert [layer for layer, _ in LAYERS] == [
        "foundations", "solver runner", "definitions", "specification", "certificate", "methods", "compiled problem",
        "dispatch", "entry points", "applications", "public API"]
    for module, layer in (("mechdesign.solvers", "solver runner"), ("mechdesign.certificate", "certificate"),
                          ("mechdesign.methods.direct", "methods"), ("mechdesign.methods.certified", "methods"),
                          ("mechdesign.specification", "specification"), ("mechdesign.problem", "compiled problem"),
                          ("mechdesign.solve", "dispatch"), ("mechdesign.designers.sml", "entry points"),
                          ("mechdesign.curves", "entry points")):
        assert layer_of(module) == layer_index(layer), module
