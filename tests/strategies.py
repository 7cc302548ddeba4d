"""Hypothesis strategies and instances shared by the tests: random mechanisms, priors and budgets; every notion."""

from __future__ import annotations

import argparse
from typing import Any

import numpy as np
from hypothesis import strategies as st

from mechdesign.privacy.base import PrivacyNotion
from mechdesign.registry import NOTION_CLASSES


@st.composite
def stochastic_matrices(draw, n_inputs=st.integers(2, 5), n_outputs=st.integers(2, 5), allow_zeros=True):
    """Row-stochastic matrices; entries may be exactly 0 when ``allow_zeros``, else are >= 0.01."""
    rows, columns = draw(n_inputs), draw(n_outputs)
    # Entries are 0 or at least 0.01 before normalization: far above solver tolerances, so that
    # checks of ratio-type constraints are not decided by round-off.
    entry = st.one_of(st.just(0.0), st.floats(0.01, 1.0)) if allow_zeros else st.floats(0.05, 1.0)
    weights = draw(
        st.lists(
            st.lists(entry, min_size=columns, max_size=columns).filter(
                lambda row: sum(row) > 0.05
            ),
            min_size=rows,
            max_size=rows,
        )
    )
    matrix = np.array(weights, dtype=float)
    return matrix / matrix.sum(axis=1, keepdims=True)


@st.composite
def full_support_priors(draw, size):
    """Priors on ``size`` symbols with every probability at least 0.02."""
    weights = np.array(draw(st.lists(st.floats(0.05, 1.0), min_size=size, max_size=size)))
    weights = weights / weights.sum()
    return 0.8 * weights + 0.2 / size


def priors_and_matrix(sizes: st.SearchStrategy[int] = st.integers(2, 5), priors: int = 1) -> st.SearchStrategy[tuple]:
    """Tuples ``(prior, …, matrix)`` on one alphabet of a size drawn from ``sizes``: ``priors``
    full-support priors, then a row-stochastic matrix with that many rows."""
    return sizes.flatmap(
        lambda n: st.tuples(*[full_support_priors(n)] * priors, stochastic_matrices(n_inputs=st.just(n)))
    )


budgets = st.floats(0.0, 3.0)


#: Command-line options that build every command-line notion (any δ, variant and order will do) under a prior on
#: 3 symbols (metric DP's locations: a 3 × 1 grid, the line metric); a notion whose ``cli_parameters`` name
#: another option adds a value for it here.
NOTION_OPTIONS = argparse.Namespace(delta=0.1, variant="pointwise", alpha=2.0, points=None, location_grid="3x1",
                                    metric=None)


def every_notion(prior: Any) -> list[PrivacyNotion]:
    """One instance of every notion class the package offers (:data:`mechdesign.registry.NOTION_CLASSES`),
    each built by its own command-line builder under ``prior`` (metric DP on a line of as many locations as
    the prior has symbols, 1 unit apart): the one list of notions tests enumerate."""
    size = np.asarray(getattr(prior, "probabilities", prior)).size
    options = argparse.Namespace(**{**vars(NOTION_OPTIONS), "location_grid": f"{size}x1"})
    return [cls.from_command_line(options, prior) for cls in NOTION_CLASSES]
