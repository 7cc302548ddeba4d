"""The capability table: what each privacy notion offers beyond the protocol, in one place.

The analogue of cvxpy's canonicalizer table. A notion module defines the notion (constraints, numpy
measure, relaxation, ε scale through ``scaled_budget``/``budget_from_scaled``); this table says which
special paths apply to it, and every dispatcher reads it instead of switching on types:

* ``cli_name`` — the command-line ``--notion`` name (:mod:`mechdesign.cli`, ``Privatizer``);
* ``from_prior`` — how to build it from a (learned) prior (``Privatizer``, ``mechdesign privatize``);
* ``composition`` — PUT Lemma 16, ``ε(Q^{⊗n})`` is ε or n ε
  (:func:`~mechdesign.mechanisms.global_framework.parallel_composition_factor`);
* ``leakage_expression`` — ε*(D) by direct minimization (:func:`~mechdesign.curves.privacy_distortion`);
* ``warm_lp`` — the warm-started HiGHS LP for expected distortion
  (:func:`~mechdesign.direct.direct_program_class`, design method ``"direct-lp"``);
* ``column_generation`` — the same LP by generating outputs
  (:func:`~mechdesign.direct.column_generation_class`, design method ``"column-generation"``);
* ``column_cone`` — the exact generators of its column cone
  (:func:`~mechdesign.designers.extreme_columns.extreme_columns`);
* ``hamming_closed_form`` — its closed form for Hamming cost
  (:func:`~mechdesign.designers.closed_form.hamming_problem`, design method ``"closed-form"``).

The ε → constraint scale is the notion's own
:meth:`~mechdesign.privacy.base.PrivacyNotion.scaled_budget` / ``budget_from_scaled``; the warm LPs
read it from the notion.

The solver-layer entries (``warm_lp``, ``column_generation``, ``column_cone``, ``hamming_closed_form``) are import paths
``"module:attribute"``, imported by :func:`resolve` only when a solver-layer dispatcher asks, so this
module imports nothing from the solver layer: definitions (the global framework) read it without
importing solvers, and ``import mechdesign`` stays light. Those paths apply to the registered class
exactly (a subclass may change the constraints); the definitional facts (``composition``, the column
cone) also to subclasses. Each builder may still decline a notion whose parameters it does not cover
(local DP needs every pair of inputs neighbouring; the PML LP one prior): see the builders' own
``applies_to``.

To add a capability to a notion, add or edit its :data:`REGISTRY` entry (tests/test_registry.py checks
that every path resolves and that ``leakage_expression`` agrees with the notion's method).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Literal, Union

from .privacy import (
    ApproximateDifferentialPrivacy,
    DifferentialPrivacy,
    MaximalInformation,
    MaximalLeakage,
    MutualInformationPrivacy,
    PointwiseMaximalLeakage,
    PrivacyNotion,
    RenyiDifferentialPrivacy,
    SibsonMutualInformation,
)

NotionOrClass = Union[PrivacyNotion, type]


@dataclass(frozen=True)
class Capabilities:
    """What one notion class offers (module docstring: which dispatcher reads which field).

    Attributes
    ----------
    notion
        The notion class.
    cli_name
        Its ``--notion`` name on the command line (``None``: not offered there).
    from_prior
        Builds the notion from a prior (or a source set) alone — the notions a
        :class:`~mechdesign.privatizer.Privatizer` designs for a learned prior; ``None`` if it needs more.
    composition
        PUT Lemma 16 for the product mechanism ``Q^{⊗n}``: ``"same"`` (its loss is the local loss:
        DP, Rényi DP) or ``"additive"`` (``n`` times it); ``None``: not covered by the lemma.
    leakage_expression
        Whether :meth:`~mechdesign.privacy.base.PrivacyNotion.leakage_expression` gives a convex
        expression, so that ``ε*(D)`` is minimized directly rather than bisected.
    warm_lp
        ``"module:Class"`` of its :class:`~mechdesign.direct.WarmLinearProgram` for expected distortion.
    column_generation
        ``"module:Class"`` of its :class:`~mechdesign.designers.column_generation.OutputGeneration`.
    column_cone
        ``"module:function"`` giving the extreme columns of its feasible column cone (extreme-column LP).
    hamming_closed_form
        ``"module:attribute"`` of its closed form for expected Hamming distortion (a
        :class:`~mechdesign.designers.closed_form.ClosedForm`).
    """

    notion: type[PrivacyNotion]
    cli_name: str | None = None
    from_prior: Callable[[Any], PrivacyNotion] | None = None
    composition: Literal["same", "additive"] | None = None
    leakage_expression: bool = False
    warm_lp: str | None = None
    column_generation: str | None = None
    column_cone: str | None = None
    hamming_closed_form: str | None = None


_COLUMNS = "mechdesign.designers.extreme_columns"
_GENERATION = "mechdesign.designers.column_generation"

#: The table, one entry per notion class with capabilities (notions absent here have none: SML and the
#: summary-statistic notions have their own designers).
REGISTRY: tuple[Capabilities, ...] = (
    Capabilities(DifferentialPrivacy, "dp", lambda prior: DifferentialPrivacy(), "same",
                 warm_lp="mechdesign.direct:LdpLinearProgram", column_generation=f"{_GENERATION}:LdpColumnGeneration",
                 column_cone=f"{_COLUMNS}:local_dp_cone",
                 hamming_closed_form="mechdesign.designers.closed_form:LOCAL_DP"),
    Capabilities(ApproximateDifferentialPrivacy, "approx-dp", warm_lp="mechdesign.direct:ApproximateDpLinearProgram",
                 column_generation=f"{_GENERATION}:ApproximateDpColumnGeneration"),
    Capabilities(MaximalLeakage, "maximal-leakage", lambda prior: MaximalLeakage(), "additive",
                 leakage_expression=True, warm_lp="mechdesign.direct:MaximalLeakageLinearProgram",
                 column_generation=f"{_GENERATION}:MaximalLeakageColumnGeneration",
                 column_cone=f"{_COLUMNS}:maximal_leakage_cone",
                 hamming_closed_form="mechdesign.designers.closed_form:MAXIMAL_LEAKAGE"),
    Capabilities(MutualInformationPrivacy, "mutual-information", MutualInformationPrivacy, "additive",
                 leakage_expression=True),
    Capabilities(PointwiseMaximalLeakage, "pml", PointwiseMaximalLeakage,
                 warm_lp="mechdesign.direct:PmlLinearProgram", column_generation=f"{_GENERATION}:PmlColumnGeneration",
                 column_cone=f"{_COLUMNS}:pml_cone"),
    Capabilities(MaximalInformation, "max-information", composition="additive",
                 column_cone=f"{_COLUMNS}:maximal_information_cone"),
    Capabilities(RenyiDifferentialPrivacy, "renyi-dp", composition="same", leakage_expression=True),
    Capabilities(SibsonMutualInformation, "sibson-mi", composition="additive", leakage_expression=True),
)

_BY_CLASS: dict[type, Capabilities] = {entry.notion: entry for entry in REGISTRY}


def capabilities(notion: NotionOrClass, *, exact: bool = False) -> Capabilities | None:
    """The entry of ``notion`` (an instance or a class): its own class's, or with ``exact=False`` that
    of its nearest registered base class; ``None`` if there is none.

    Examples
    --------
    >>> capabilities(MaximalLeakage()).composition
    'additive'
    >>> class Custom(DifferentialPrivacy):
    ...     pass
    >>> capabilities(Custom).cli_name, capabilities(Custom, exact=True)
    ('dp', None)
    """
    cls = notion if isinstance(notion, type) else type(notion)
    if exact:
        return _BY_CLASS.get(cls)
    return next((_BY_CLASS[base] for base in cls.__mro__ if base in _BY_CLASS), None)


def cli_names() -> dict[str, type[PrivacyNotion]]:
    """Every command-line notion name and its class, in table order.

    Examples
    --------
    >>> list(cli_names())[:3]
    ['dp', 'approx-dp', 'maximal-leakage']
    """
    return {entry.cli_name: entry.notion for entry in REGISTRY if entry.cli_name is not None}


def prior_notions() -> dict[str, Callable[[Any], PrivacyNotion]]:
    """The notions built from a prior alone (:attr:`Capabilities.from_prior`), by command-line name.

    Examples
    --------
    >>> sorted(prior_notions())
    ['dp', 'maximal-leakage', 'mutual-information', 'pml']
    """
    return {entry.cli_name: entry.from_prior for entry in REGISTRY
            if entry.cli_name is not None and entry.from_prior is not None}


@lru_cache(maxsize=None)
def resolve(path: str) -> Any:
    """The object at ``"module:attribute"``, imported on first use.

    Examples
    --------
    >>> resolve("mechdesign.direct:LdpLinearProgram").__name__
    'LdpLinearProgram'
    """
    module, _, attribute = path.partition(":")
    return getattr(importlib.import_module(module), attribute)


def solver_capability(notion: PrivacyNotion,
                      field: Literal["warm_lp", "column_generation", "hamming_closed_form"]) -> Any:
    """The resolved solver-layer builder ``field`` registered for the notion's exact class, or ``None``.

    Examples
    --------
    >>> solver_capability(DifferentialPrivacy(), "warm_lp").__name__
    'LdpLinearProgram'
    >>> solver_capability(RenyiDifferentialPrivacy(2.0), "warm_lp") is None
    True
    """
    entry = capabilities(notion, exact=True)
    path = None if entry is None else getattr(entry, field)
    return None if path is None else resolve(path)
