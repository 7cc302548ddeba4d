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
    #: The one prior of a singleton :attr:`source_set`, with the set it belongs to (kept by :attr:`prior`).
    _single_prior: tuple[SourceSet, Prior] | None = None

    def _set_source(self, source: Any) -> None:
        self.source_set = as_source_set(source)
        self.n_inputs = self.source_set.size
        if isinstance(source, Prior):  # validated already: kept as it is (its values are the set's one point)
            self._single_prior = (self.source_set, source)

    @property
    def prior(self) -> Prior:
        """The prior, when the notion has exactly one: the same :class:`~mechdesign.priors.Prior` at every
        access (the one the notion was given, else built once from the set's point).

        Examples
        --------
        >>> from mechdesign import MaximalInformation, PointwiseMaximalLeakage
        >>> prior = Prior([0.25, 0.75])
        >>> MaximalInformation(prior).prior is prior
        True
        >>> notion = PointwiseMaximalLeakage([0.5, 0.5])
        >>> notion.prior is notion.prior, notion.prior
        (True, Prior([0.5 0.5]))
        """
        source_set = self.source_set
        if len(source_set) != 1:
            raise AttributeError(f"{self.label} is defined on a source set of {len(source_set)} priors")
        kept = self._single_prior
        if kept is None or kept[0] is not source_set:
            kept = self._single_prior = (source_set, Prior(source_set.extreme_points[0]))
        return kept[1]

    @property
    def label(self) -> str:
        return self._label()

    def _label(self, *parameters: str) -> str:
        """``name(parameters…, source set of k)``; just ``name`` for one prior and no parameters."""
        scope = [f"source set of {len(self.source_set)}"] if len(self.source_set) > 1 else []
        return parameter_label(self.name, *parameters, *scope)
