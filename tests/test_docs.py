"""The documentation (slow): the Sphinx site builds with warnings as errors, every module of the
package gets an API page, and the README points only inside the repository."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

from mechdesign._moved import deprecated_module_names

REPOSITORY = Path(__file__).resolve().parent.parent


@pytest.mark.slow
def test_sphinx_site_builds_without_warnings(tmp_path):
    pytest.importorskip("sphinx", reason="building the documentation needs the 'docs' extra")
    pytest.importorskip("myst_nb", reason="building the documentation needs the 'docs' extra")
    subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html",
                    str(REPOSITORY / "docs"), str(tmp_path)], check=True)
    # Every module gets a page, except the deprecated paths (mechdesign/_moved.py's aliases of moved modules),
    # which get none: each module has one page, at its new path (docs/conf.py, the same rule).
    sources = [path for path in (REPOSITORY / "mechdesign").rglob("*.py")
               if not path.name.startswith("_") or path.name == "__init__.py"]
    shims = set(deprecated_module_names(REPOSITORY / "mechdesign"))
    assert len(shims) == 8  # mechdesign.direct and seven modules of mechdesign.designers (tests/test_layers.py)
    modules = {".".join(path.relative_to(REPOSITORY).with_suffix("").parts).removesuffix(".__init__")
               for path in sources} - shims
    pages = {path.stem for path in (tmp_path / "generated").glob("*.html")}
    assert modules <= pages
    assert not shims & pages
    for page in ("guide/cli", "architecture", "errata", "bibliography", "changelog",
                 "tutorials/notebooks/privacy_utility_tradeoff"):
        assert (tmp_path / f"{page}.html").exists()


def test_readme_links_stay_inside_the_repository():
    readme = (REPOSITORY / "README.md").read_text()
    assert "../" not in readme and "/work/" not in readme
    for target in re.findall(r"\]\(([^)#]+)", readme):
        if not target.startswith("http"):
            assert (REPOSITORY / target).exists(), target


#: Public module-level functions without an Examples section, each with its reason.
WITHOUT_EXAMPLES = {
    "demo.run_demo": "the README's main job: about 2 s, plots and files (run by the README test and CI)",
}


def test_every_public_module_function_has_an_example():
    """Every public module-level function of every module (not only ``mechdesign.__all__``) has an
    Examples section, run by ``pytest --doctest-modules mechdesign``; read from the installed package."""
    import ast

    import mechdesign

    package = Path(mechdesign.__file__).parent
    missing = set()
    for path in package.rglob("*.py"):
        module = ".".join(path.relative_to(package).with_suffix("").parts)
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.FunctionDef) and not node.name.startswith("_"):
                if "Examples" not in (ast.get_docstring(node) or ""):
                    missing.add(f"{module}.{node.name}")
    assert missing == set(WITHOUT_EXAMPLES), sorted(missing ^ set(WITHOUT_EXAMPLES))


def test_every_top_level_function_has_an_example():
    """Each function of ``mechdesign.__all__`` shows its use in an Examples section (run by the
    doctests: ``pytest --doctest-modules mechdesign``)."""
    import inspect

    import mechdesign

    functions = [name for name in mechdesign.__all__ if inspect.isfunction(getattr(mechdesign, name))]
    missing = {name for name in functions if "Examples" not in (inspect.getdoc(getattr(mechdesign, name)) or "")}
    assert missing == set()
