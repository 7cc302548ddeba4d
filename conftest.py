"""Collection of the whole repository: the deprecated module paths (``mechdesign/_moved.py``) are aliases of
the moved modules, so ``pytest --doctest-modules mechdesign`` collects each module once, at its new path
(an alias's file would be a second name for one module: pytest's "import file mismatch")."""

from pathlib import Path

from mechdesign._moved import deprecated_module_names

collect_ignore = [name.replace(".", "/") + ".py" for name in deprecated_module_names(Path(__file__).parent / "mechdesign")]
