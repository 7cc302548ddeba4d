"""Shared plumbing of notions defined relative to a prior or a source set of priors."""

from __future__ import annotations

from typing import Any

from ..priors import Prior, SourceSet, as_source_set
from .base import parameter_label


class OnSourceSet:
    """Mixin: the notion's prior(s) as a :class:`~mechdesign.priors.SourceSet` (a single prior is a
    singleton set), which also fixes the input alphabet."""

    name: str
    source_set: SourceSet
    n_inputs: int | None

    def _set_source(self, source: Any) -> None:
        self.source_set = as_source_set(source)
        self.n_inputs = self.source_set.size

    @property
    def prior(self) -> Prior:
        """The prior, when the notion has exactly one."""
        if len(self.source_set) != 1:
            raise AttributeError(f"{self.label} is defined on a source set of {len(self.source_set)} priors")
        return Prior(self.source_set.extreme_points[0])

    @property
    def label(self) -> str:
        return self._label()

    def _label(self, *parameters: str) -> str:
        """``name(parameters…, source set of k)``; just ``name`` for one prior and no parameters."""
        scope = [f"source set of {len(self.source_set)}"] if len(self.source_set) > 1 else []
        return parameter_label(self.name, *parameters, *scope)
