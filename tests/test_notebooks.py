"""Execute every notebook in notebooks/ from top to bottom (slow: run by CI after the default suite).

A notebook that raises fails the test; the notebooks hold their own assertions comparing the
numerical optimum with the paper's closed forms. Each runs its reduced, seeded repetition count by
default; ``MECHDESIGN_FULL_FIGURES=1 pytest -m slow tests/test_notebooks.py`` runs the papers' counts
(the kernel inherits the environment). The statistic-maximal-leakage notebook needs scikit-learn (the
``notebooks`` extra, also in ``test``).
"""

from pathlib import Path

import pytest

NOTEBOOKS = sorted((Path(__file__).resolve().parent.parent / "notebooks").glob("*.ipynb"))
#: Seconds a single cell may run.
CELL_TIMEOUT = 1800


@pytest.mark.slow
@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_runs(path):
    import nbformat
    from nbclient import NotebookClient

    notebook = nbformat.read(path, as_version=4)
    NotebookClient(notebook, timeout=CELL_TIMEOUT, kernel_name="python3",
                   resources={"metadata": {"path": str(path.parent)}}).execute()
