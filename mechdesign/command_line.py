"""What the ``mechdesign`` command's two modules share: the ``--prior`` parser, strict JSON output and the
options several subcommands take.

:mod:`mechdesign.cli` (design, measure, curve, theory checks) registers the deployment commands of
:mod:`mechdesign.deploy_cli` (privatize, estimate, account); both import these helpers from here, so
neither imports the other back (docs/architecture.md, ``tests/test_layers.py``).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from typing import Any

import numpy as np

from ._validate import as_positive_int
from .exceptions import MechDesignError
from .priors import Prior

#: Help text of ``--json``, shared by several subcommands.
JSON_HELP = "print machine-readable JSON (always in nats) instead of text"
#: Help text of ``--quiet``, shared by several subcommands.
QUIET_HELP = "no progress bar (one is drawn on standard error only when it is a terminal)"


def _parse_prior(text: str | None, n: int | None) -> Prior | None:
    """The prior of ``--prior P1,P2,…`` (or uniform over ``--n``). Whole-number counts that sum to more than
    one (``--prior 30,10,5``) are normalized, with a notice on standard error saying so.

    Examples
    --------
    >>> _parse_prior("0.25,0.75", None), _parse_prior(None, 2), _parse_prior(None, None)
    (Prior([0.25 0.75]), Prior([0.5 0.5]), None)
    """
    if text is not None:
        try:
            values = [float(v) for v in text.split(",")]
        except ValueError as exc:
            raise MechDesignError(f"--prior must be comma-separated numbers, got {text!r}") from exc
        total = math.fsum(values)
        if math.isfinite(total) and total > 1 and all(v >= 0 and v.is_integer() for v in values):
            print(f"mechdesign: notice: --prior: counts (total {total:,.0f}), normalized", file=sys.stderr)
            values = [v / total for v in values]
        return Prior(values)
    return Prior.uniform(as_positive_int(n, "--n")) if n is not None else None


def strict_json(payload: dict[str, Any]) -> str:
    """``payload`` as strict JSON: every non-finite number becomes ``null``, explained in ``"non_finite"``.

    ``"non_finite"`` maps the dotted path of each such value to its text (``"inf"``, ``"-inf"``,
    ``"nan"``); it is present only when there is one. No ``Infinity``/``NaN`` token is ever printed.

    Examples
    --------
    >>> print(strict_json({"dp": float("inf"), "ml": 0.5}))
    {
      "dp": null,
      "ml": 0.5,
      "non_finite": {
        "dp": "inf"
      }
    }
    """
    reasons: dict[str, str] = {}
    clean = _nulls_for_non_finite(payload, "", reasons)
    if reasons:
        clean["non_finite"] = reasons
    return json.dumps(clean, indent=2, allow_nan=False)


def _nulls_for_non_finite(value: Any, path: str, reasons: dict[str, str]) -> Any:
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        reasons[path] = str(value)
        return None
    if isinstance(value, dict):
        return {key: _nulls_for_non_finite(item, f"{path}.{key}" if path else str(key), reasons)
                for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_nulls_for_non_finite(item, f"{path}[{index}]", reasons) for index, item in enumerate(value)]
    return value


def _add_quiet_option(parser: argparse.ArgumentParser) -> None:
    """Add ``--quiet``/``-q`` (no progress bar) to a subcommand's ``parser``.

    Examples
    --------
    >>> parser = argparse.ArgumentParser()
    >>> _add_quiet_option(parser)
    >>> parser.parse_args(["-q"]).quiet
    True
    """
    parser.add_argument("--quiet", "-q", action="store_true", help=QUIET_HELP)
