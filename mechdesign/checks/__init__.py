"""Closed forms of the four papers (and of the line-metric theorem of metric DP) compared with the optimizer
or an exact computation.

One module per paper (:mod:`.put`, :mod:`.pml`, :mod:`.sml`, :mod:`.summary`, :mod:`.metric`), each with a
``check_<paper>(full=False)`` returning :class:`~mechdesign.checks.rows.CheckRow` objects;
:data:`CHECKS` maps the short names of ``mechdesign theory-check`` to them. The closed forms
themselves live in :mod:`mechdesign.theory`.
"""

from __future__ import annotations

from collections.abc import Callable

from .._lazy import LazyFunction
from ..exceptions import MechDesignError
from ..progress import Progress, report
from .rows import CheckRow

#: Paper short name → check (``full=True`` runs the full grid); each paper's module is imported when its
#: check first runs, so the command line starts without the theory modules.
CHECKS: dict[str, Callable[..., list[CheckRow]]] = {
    paper: LazyFunction(f"mechdesign.checks.{paper}", f"check_{paper}") for paper in ("put", "pml", "sml", "summary", "metric")
}


def run_check(paper: str, full: bool = False, progress: Progress | None = None) -> list[CheckRow]:
    """The rows of ``paper`` (a key of :data:`CHECKS`, or ``"all"`` for every paper in turn).

    ``progress`` (:mod:`mechdesign.progress`) is told each paper before its rows are computed, and
    ``done`` at the end.

    Examples
    --------
    >>> run_check("nope")
    Traceback (most recent call last):
    ...
    mechdesign.exceptions.MechDesignError: no theory check for 'nope'; available: ['all', 'metric', 'pml', 'put', 'sml', 'summary']
    """
    if paper != "all" and paper not in CHECKS:
        raise MechDesignError(f"no theory check for {paper!r}; available: {sorted([*CHECKS, 'all'])}")
    papers = list(CHECKS) if paper == "all" else [paper]
    rows: list[CheckRow] = []
    for index, name in enumerate(papers):
        report(progress, index, len(papers), f"theory-check {name}")
        rows += CHECKS[name](full=full)
    report(progress, len(papers), len(papers), "theory-check done")
    return rows


__all__ = ["CHECKS", "CheckRow", "run_check"]
