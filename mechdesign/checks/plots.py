"""Closed form against the numerical value, one PNG per statement (``mechdesign theory-check --plots DIR``).

Each statement's rows are split into series by their parameters other than the swept one (the last
numeric parameter, the abscissa); an exact closed form is a line, a bound a shaded band (its finite
sides), the numerical values markers.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from pathlib import Path

from ..exceptions import MechDesignError
from .rows import CheckRow

#: Series drawn per statement (further settings are left out of the figure and named in its title).
MAX_SERIES = 8


def swept(row: CheckRow) -> tuple[str, float] | None:
    """The swept parameter of a row: its last numeric parameter, or None.

    Examples
    --------
    >>> from mechdesign.checks.rows import compare
    >>> swept(compare("f", {"m": 2, "D": 0.3}, "epsilon", 1.0, 1.0))
    ('D', 0.3)
    """
    numeric = [(k, float(v)) for k, v in row.parameters.items() if isinstance(v, (int, float)) and not isinstance(v, bool)]
    return numeric[-1] if numeric else None


def series_key(row: CheckRow) -> str:
    """The parameters other than the swept one, as a legend label.

    Examples
    --------
    >>> from mechdesign.checks.rows import compare
    >>> series_key(compare("f", {"m": 2, "D": 0.3}, "epsilon", 1.0, 1.0))
    'm=2'
    """
    name = (swept(row) or ("", 0.0))[0]
    return ", ".join(f"{k}={v:.4g}" if isinstance(v, float) else f"{k}={v}" for k, v in row.parameters.items() if k != name)


def slug(text: str) -> str:
    """A file name for a statement.

    Examples
    --------
    >>> slug("PUT Prop. 8(1) DP")
    'put-prop-8-1-dp'
    """
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "statement"


def _finite(value: float, fallback: float) -> float:
    return value if math.isfinite(value) else fallback


def _draw(ax: object, rows: list[CheckRow], colour: str, label: str) -> None:
    points = sorted((swept(r)[1], r) for r in rows)  # type: ignore[index]
    xs = [x for x, _ in points]
    numeric = [r.numeric for _, r in points]
    if isinstance(points[0][1].closed_form, tuple):
        top = max([v for v in numeric if math.isfinite(v)] or [1.0])
        lows = [_finite(r.closed_form[0], min(0.0, *[v for v in numeric if math.isfinite(v)] or [0.0])) for _, r in points]  # type: ignore[index]
        highs = [_finite(r.closed_form[1], top) for _, r in points]  # type: ignore[index]
        ax.fill_between(xs, lows, highs, color=colour, alpha=0.2, label=f"{label} bound")  # type: ignore[attr-defined]
    else:
        ax.plot(xs, [r.closed_form for _, r in points], "-", color=colour, label=f"{label} closed form")  # type: ignore[attr-defined]
    ax.plot(xs, numeric, "o", color=colour, markersize=4, label=f"{label} numeric")  # type: ignore[attr-defined]


def plots_directory(directory: str | Path) -> Path:
    """``directory``, created if missing; a named error if it is an existing file.

    Examples
    --------
    >>> import tempfile
    >>> plots_directory(tempfile.mkdtemp()).is_dir()
    True
    """
    folder = Path(directory)
    if folder.exists() and not folder.is_dir():
        raise MechDesignError(f"--plots must name a directory, got the file {str(directory)!r}")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise MechDesignError(f"--plots directory {str(directory)!r} cannot be created: {error}") from error
    return folder


def write_plots(rows: Sequence[CheckRow], directory: str | Path) -> list[Path]:
    """One PNG per statement with at least one swept parameter; returns the paths written.

    Examples
    --------
    >>> import tempfile
    >>> from mechdesign.checks.rows import compare
    >>> rows = [compare("f", {"D": d}, "epsilon", d, d) for d in (0.1, 0.2)]
    >>> [p.name for p in write_plots(rows, tempfile.mkdtemp())]
    ['f.png']
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    folder = plots_directory(directory)
    by_formula: dict[str, list[CheckRow]] = {}
    for row in rows:
        if swept(row) is not None:
            by_formula.setdefault(row.formula, []).append(row)
    written = []
    for formula, group in by_formula.items():
        series: dict[str, list[CheckRow]] = {}
        for row in group:
            series.setdefault(series_key(row), []).append(row)
        fig, ax = plt.subplots(figsize=(6, 4))
        colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
        for index, (label, members) in enumerate(list(series.items())[:MAX_SERIES]):
            _draw(ax, members, colours[index % len(colours)], label)
        left_out = len(series) - MAX_SERIES
        title = formula + (f" ({left_out} more settings not drawn)" if left_out > 0 else "")
        ax.set_title(title, fontsize=9)
        ax.set_xlabel(swept(group[0])[0])  # type: ignore[index]
        ax.set_ylabel(group[0].quantity)
        ax.legend(fontsize=6)
        path = folder / f"{slug(formula)}.png"
        fig.tight_layout()
        fig.savefig(path, dpi=100)
        plt.close(fig)
        written.append(path)
    return written
