"""Check rows as a text table, a Markdown table or strict JSON (``mechdesign theory-check --format``)."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from typing import Any

from .._validate import as_choice
from .rows import CheckRow, ClosedForm, verdict_counts

FORMATS = ("text", "markdown", "json")


def _value(v: ClosedForm) -> str:
    if isinstance(v, tuple):
        return f"[{v[0]:.6f}, {v[1]:.6f}]"
    return f"{v:.6f}"


def _cells(row: CheckRow) -> tuple[str, ...]:
    return (row.formula, row.label, row.quantity, _value(row.closed_form), f"{row.numeric:.6f}", f"{row.gap:+.2e}", row.verdict)


HEADER = ("formula", "parameters", "quantity", "closed form", "numeric", "gap", "verdict")


def summary_line(rows: Sequence[CheckRow]) -> str:
    """``"N rows: match a, bound holds b, …"``.

    Examples
    --------
    >>> from mechdesign.checks.rows import compare
    >>> summary_line([compare("f", {}, "x", 1.0, 1.0), compare("g", {}, "x", (0.0, 1.0), 0.5)])
    '2 rows: match 1, bound holds 1'
    """
    return f"{len(rows)} rows: " + ", ".join(f"{k} {v}" for k, v in verdict_counts(list(rows)).items())


def format_text(rows: Sequence[CheckRow]) -> str:
    """The rows as a fixed-width text table, followed by :func:`summary_line`.

    Examples
    --------
    >>> from mechdesign.checks.rows import compare
    >>> print(format_text([compare("f", {"D": 0.5}, "epsilon", 1.0, 1.0)]).splitlines()[-1])
    1 rows: match 1
    """
    body = [_cells(r) for r in rows]
    widths = [max(len(line[i]) for line in [HEADER, *body]) for i in range(len(HEADER))]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(line, widths)).rstrip() for line in [HEADER, *body]]
    lines.insert(1, "  ".join("-" * w for w in widths))
    lines.append(summary_line(rows))
    return "\n".join(lines)


def format_markdown(rows: Sequence[CheckRow]) -> str:
    """The rows as a Markdown table, followed by :func:`summary_line` as a paragraph.

    Examples
    --------
    >>> from mechdesign.checks.rows import compare
    >>> print(format_markdown([compare("f", {"D": 0.5}, "epsilon", 1.0, 1.0)]).splitlines()[2])
    | f | D=0.5 | epsilon | 1.000000 | 1.000000 | +0.00e+00 | match |
    """
    def line(cells: Sequence[str]) -> str:
        return "| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |"

    lines = [line(HEADER), "|" + "---|" * len(HEADER)] + [line(_cells(r)) for r in rows]
    return "\n".join(lines + ["", summary_line(rows)])


def _finite(value: Any) -> Any:
    """``value`` with NaN and ±inf replaced by None (strict JSON has no such tokens)."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, (tuple, list)):
        return [_finite(v) for v in value]
    return value


def row_record(row: CheckRow) -> dict[str, Any]:
    """One row as a JSON-ready dict: ``formula``, ``parameters``, ``quantity``, ``closed_form`` (a number,
    or ``[lower, upper]`` with null for an open side), ``numeric``, ``gap``, ``verdict``.

    Examples
    --------
    >>> from mechdesign.checks.rows import compare, lower_bound
    >>> row_record(compare("f", {"D": 0.5}, "epsilon", lower_bound(0.2), 0.3))["closed_form"]
    [0.2, None]
    """
    return {"formula": row.formula, "parameters": {k: _finite(v) for k, v in row.parameters.items()},
            "quantity": row.quantity, "closed_form": _finite(row.closed_form), "numeric": _finite(row.numeric),
            "gap": _finite(row.gap), "verdict": row.verdict}


def format_json(rows: Sequence[CheckRow]) -> str:
    """Strict JSON: ``{"rows": [...], "counts": {verdict: n}}`` (no NaN or Infinity tokens).

    Examples
    --------
    >>> import json
    >>> from mechdesign.checks.rows import compare
    >>> json.loads(format_json([compare("f", {}, "x", 1.0, float("nan"))]))["rows"][0]["numeric"] is None
    True
    """
    document = {"rows": [row_record(r) for r in rows], "counts": verdict_counts(list(rows))}
    return json.dumps(document, ensure_ascii=False, allow_nan=False, indent=1)


def format_rows(rows: Sequence[CheckRow], fmt: str) -> str:
    """The rows in ``fmt`` (one of :data:`FORMATS`).

    Examples
    --------
    >>> format_rows([], "text").splitlines()[-1]
    '0 rows: '
    """
    formatters = {"text": format_text, "markdown": format_markdown, "json": format_json}
    return formatters[as_choice(fmt, FORMATS, "format")](rows)
