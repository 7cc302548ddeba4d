"""Collection of the whole repository: the deprecated module paths (``mechdesign/_moved.py``) are aliases of
the moved modules, so ``pytest --doctest-modules mechdesign`` collects each module once, at its new path
(an alias's file would be a second name for one module: pytest's "import file mismatch")."""

from pathlib import Path

collect_ignore = sorted(path.relative_to(Path(__file__).parent).as_posix()
                        for path in (Path(__file__).parent / "mechdesign").rglob("*.py")
                        if "alias_moved_module(__name__" in path.read_text(encoding="utf-8"))
