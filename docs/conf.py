"""Sphinx configuration of the mechdesign documentation (build: ``sphinx-build -W docs docs/_build``)."""

from __future__ import annotations

import shutil
from pathlib import Path

import mechdesign
from mechdesign._moved import deprecated_module_names

DOCS = Path(__file__).resolve().parent
NOTEBOOKS = DOCS.parent / "notebooks"
#: The tutorials are the repository's notebooks, copied here at build time (never edited here).
TUTORIALS = DOCS / "tutorials" / "notebooks"

project = "mechdesign"
author = "mechdesign developers"
copyright = "mechdesign developers"
release = mechdesign.__version__
version = release

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.napoleon",  # numpydoc-style docstrings (the convention of numpy, scipy and cvxpy)
    "sphinx.ext.mathjax",
    "sphinx.ext.viewcode",
    "myst_nb",  # Markdown pages and the notebooks
]
templates_path = ["_templates"]
exclude_patterns = ["_build", "**.ipynb_checkpoints"]
source_suffix = {".rst": "restructuredtext", ".md": "myst-nb", ".ipynb": "myst-nb"}

autosummary_generate = True
autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_default_options = {"show-inheritance": True}
napoleon_google_docstring = False
napoleon_numpy_docstring = True
napoleon_use_rtype = False

myst_enable_extensions = ["dollarmath", "colon_fence"]
myst_heading_anchors = 3
#: The notebooks are executed at every build (about 2.5 minutes on two cores), so the site shows their
#: current outputs and figures; a cell that raises fails the build (their assertions compare the optimizer
#: with the papers' closed forms). jupyter-cache keeps the outputs in the build folder between builds.
nb_execution_mode = "cache"
nb_execution_timeout = 1800
nb_execution_raise_on_error = True
nb_execution_show_tb = True

html_theme = "alabaster"
html_title = f"mechdesign {release}"


def _skip_foreign_members(app, what, name, obj, skip, options):  # noqa: ANN001 - Sphinx's hook signature
    """Skip members a class inherits from another package (scikit-learn's ``set_*_request`` methods of
    :class:`~mechdesign.privatizer.Privatizer`): their docstrings refer to that package's glossary."""
    module = getattr(obj, "__module__", "") or ""
    return True if module.split(".")[0] not in ("mechdesign", "") and what == "class" else skip


def setup(app):  # noqa: ANN001 - Sphinx's extension entry point
    app.connect("autodoc-skip-member", _skip_foreign_members)


def _copy_notebooks() -> None:
    TUTORIALS.mkdir(parents=True, exist_ok=True)
    for notebook in sorted(NOTEBOOKS.glob("*.ipynb")):
        shutil.copyfile(notebook, TUTORIALS / notebook.name)


_copy_notebooks()


#: The deprecated module paths (``mechdesign/_moved.py``: aliases of the moved modules, for one release) get no
#: page of their own in the API reference (docs/_templates/autosummary/module.rst): each module has one page,
#: at its new path.
autosummary_context = {"deprecated_modules": deprecated_module_names(DOCS.parent / "mechdesign")}
